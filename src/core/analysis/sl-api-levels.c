/* sl-api-levels.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-api-levels.h"
#include "sl-op-row.h"

static void
level_free (SlApiLevel *level)
{
  g_free (level->level);
  g_free (level);
}

static int
compare_total_desc (gconstpointer a,
                    gconstpointer b)
{
  const SlApiLevel *la = *(const SlApiLevel **)a;
  const SlApiLevel *lb = *(const SlApiLevel **)b;

  if (la->total_ns != lb->total_ns)
    return la->total_ns > lb->total_ns ? -1 : 1;
  return g_strcmp0 (la->level, lb->level);
}

/**
 * sl_api_levels_compute:
 *
 * Returns: (transfer full) (element-type SlApiLevel): one entry per level
 */
GPtrArray *
sl_api_levels_compute (GListModel *rows)
{
  GPtrArray *levels = g_ptr_array_new_with_free_func ((GDestroyNotify)level_free);

  g_return_val_if_fail (G_IS_LIST_MODEL (rows), levels);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);
      const char *name = sl_op_row_get_core_type (row);
      SlApiLevel *level = (SlApiLevel *)sl_api_levels_find (levels, name != NULL ? name : "");

      if (level == NULL)
        {
          level = g_new0 (SlApiLevel, 1);
          level->level = g_strdup (name != NULL ? name : "");
          g_ptr_array_add (levels, level);
        }
      level->n_apis++;
      level->count += sl_op_row_get_count (row);
      level->total_ns += MAX (sl_op_row_get_total_ns (row), 0);
    }
  g_ptr_array_sort (levels, compare_total_desc);
  return levels;
}

/**
 * sl_api_levels_find:
 *
 * Returns: (nullable) (transfer none): the entry of @level
 */
const SlApiLevel *
sl_api_levels_find (GPtrArray  *levels,
                    const char *level)
{
  g_return_val_if_fail (levels != NULL, NULL);

  for (guint i = 0; i < levels->len; i++)
    {
      const SlApiLevel *entry = g_ptr_array_index (levels, i);

      if (g_strcmp0 (entry->level, level) == 0)
        return entry;
    }
  return NULL;
}

const char *
sl_api_level_label (const char *level)
{
  static const struct {
    const char *written;
    const char *label;
  } known[] = {
    { "acl", "AscendCL" },
    { "ascendcl", "AscendCL" },
    { "runtime", "Runtime" },
    { "hccl", "HCCL" },
    /* Translators: the level of graph node launches among host API calls */
    { "node", N_("Node") },
    /* Translators: the level of model loads and executions among host API calls */
    { "model", N_("Model") },
    /* Translators: the level of PyTorch or MindSpore operator calls among host API calls */
    { "framework", N_("Framework") },
  };

  if (level == NULL || level[0] == '\0')
    /* Translators: host API calls whose level the file does not give */
    return _("Other");
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      if (g_ascii_strcasecmp (level, known[i].written) == 0)
        return _(known[i].label);
    }
  return level;
}

char *
sl_api_level_timeline_pattern (const char *name)
{
  g_autofree char *escaped = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  escaped = g_regex_escape_string (name, -1);
  return g_strdup_printf ("^(?:[A-Za-z]+@)?%s$", escaped);
}
