/* sl-lineage-describe.c
 *
 * The names the Lineage table shows for its runs, and a run's Details.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-lineage-describe.h"
#include "sl-path-names.h"

/**
 * sl_lineage_dup_run_labels:
 * @folder: the folder opened
 *
 * Returns: (transfer full) (element-type utf8): a name a run of @table
 *   that tells it from the others: its folder relative to @folder, as
 *   MindInsight shows it, or the shortest distinct end of its path
 */
GPtrArray *
sl_lineage_dup_run_labels (SlLineageTable *table,
                           const char     *folder)
{
  guint n = sl_lineage_table_get_n_runs (table);
  GPtrArray *labels;
  g_autofree const char **paths = g_new0 (const char *, n + 1);
  g_auto(GStrv) fallback = NULL;

  for (guint r = 0; r < n; r++)
    paths[r] = sl_lineage_run_get_path (sl_lineage_table_get_run (table, r));
  fallback = sl_path_names_run_names (paths, n);
  labels = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; r < n; r++)
    {
      g_autofree char *relative = sl_path_names_relative (paths[r], folder);
      char *label;

      if (g_path_is_absolute (relative) || strcmp (relative, ".") == 0)
        label = g_strdup (fallback[r]);
      else
        label = g_strconcat ("." G_DIR_SEPARATOR_S, relative, NULL);
      g_ptr_array_add (labels, label);
    }
  return labels;
}

/**
 * sl_lineage_describe_run:
 *
 * Shows run @selected of @table in @details: its folder and every value
 * it has.
 */
void
sl_lineage_describe_run (SlLineageTable *table,
                         guint           selected,
                         SlDescription  *details)
{
  g_autoptr(GPtrArray) rows = NULL;
  SlLineageRun *run;

  g_return_if_fail (selected < sl_lineage_table_get_n_runs (table));

  run = sl_lineage_table_get_run (table, selected);
  rows = g_ptr_array_new ();
  g_ptr_array_add (rows, (gpointer) _("Folder"));
  g_ptr_array_add (rows, (gpointer) sl_lineage_run_get_path (run));
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    {
      const char *text = sl_lineage_table_get_text (table, selected, c);

      if (text == NULL)
        continue;
      g_ptr_array_add (rows, sl_lineage_table_get_column (table, c)->key);
      g_ptr_array_add (rows, (gpointer) text);
    }
  g_ptr_array_add (rows, NULL);
  sl_description_show_rows (details, NULL, "sl-chart-symbolic", sl_lineage_run_get_name (run),
                              (const char * const *) rows->pdata);
}
