/* sl-lineage-views.c
 *
 * The views of the Lineage page that are rebuilt from the table:
 *
 * - Importance: each numeric parameter's absolute Pearson and Spearman
 *   correlation with the target, over the runs that pass the filters, as
 *   SlLineageImportanceItems the page's column view shows.
 * - Datasets: the runs' dataset pipelines side by side, a row a place in
 *   the pipeline, the parameters that differ between runs marked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-dataset-graph.h"
#include "sl-lineage-importance-item.h"
#include "sl-lineage-views.h"
#include "sl-tooltip.h"

GtkWidget *
sl_lineage_label_new (const char *text,
                      gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 32);
  if (heading)
    gtk_widget_add_css_class (label, "heading");
  return label;
}

/**
 * sl_lineage_fill_importance:
 * @store: takes an SlLineageImportanceItem a parameter
 * @target: the column the others are ranked by, or -1 for none
 * @fewest: (out): the fewest runs a correlation comes from, G_MAXUINT
 *   without any
 *
 * Fills @store with each parameter's correlation with @target.
 *
 * Returns: the rows
 */
guint
sl_lineage_fill_importance (GListStore     *store,
                            SlLineageTable *table,
                            gint            target,
                            guint          *fewest)
{
  g_autoptr(GArray) importance = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  *fewest = G_MAXUINT;
  if (target >= 0)
    importance = sl_lineage_table_compute_importance (table, target, TRUE);
  for (guint i = 0; importance != NULL && i < importance->len; i++)
    {
      const SlLineageImportance *row = &g_array_index (importance, SlLineageImportance, i);
      const SlLineageColumn *column = sl_lineage_table_get_column (table, row->column);
      g_autofree char *name = NULL;

      /* Other results are not parameters one could choose. */
      if (column->group == SL_LINEAGE_GROUP_METRICS)
        continue;
      name = g_strdup_printf ("%s · %s", column->key, sl_lineage_group_to_label (column->group));
      g_ptr_array_add (items, sl_lineage_importance_item_new (name, row->pearson, row->spearman, row->n_runs));
      *fewest = MIN (*fewest, row->n_runs);
    }
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), items->pdata, items->len);
  return items->len;
}

static char *
describe_node (SlDatasetGraph *graph,
               guint           node_index,
               GPtrArray      *differs)
{
  const SlDatasetNode *node = sl_dataset_graph_get_node (graph, node_index);
  GString *markup = g_string_new (NULL);
  g_autofree char *title = g_markup_printf_escaped ("<b>%s</b>", sl_dataset_node_get_label (node));

  g_string_append (markup, title);
  for (guint i = 0; i < differs->len; i++)
    {
      const SlDatasetParameter *parameter = sl_dataset_node_lookup_parameter (node, g_ptr_array_index (differs, i));
      g_autofree char *line = NULL;

      if (parameter == NULL)
        continue;
      line = g_markup_printf_escaped ("\n<span weight=\"bold\" foreground=\"#e66100\">%s = %s</span>", parameter->key,
                                      parameter->text != NULL ? parameter->text : "None");
      g_string_append (markup, line);
    }
  return g_string_free (markup, FALSE);
}

/**
 * sl_lineage_fill_datasets:
 * @grid: takes a column a run with a dataset graph, a row a place
 * @graphs_of_runs: an SlDatasetGraph or NULL a run of @table
 *
 * Fills @grid with the runs' dataset pipelines side by side.
 *
 * Returns: whether a run has a dataset graph
 */
gboolean
sl_lineage_fill_datasets (GtkGrid        *grid,
                          SlLineageTable *table,
                          GPtrArray      *graphs_of_runs)
{
  g_autoptr(GPtrArray) graphs = g_ptr_array_new ();
  g_autoptr(GPtrArray) places = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
  for (guint r = 0; r < graphs_of_runs->len; r++)
    if (g_ptr_array_index (graphs_of_runs, r) != NULL)
      {
        g_ptr_array_add (graphs, g_ptr_array_index (graphs_of_runs, r));
        g_array_append_val (owners, r);
      }
  if (graphs->len == 0)
    return FALSE;

  /* Rows: the places of every graph, in the order first met. */
  for (guint g = 0; g < graphs->len; g++)
    for (guint n = 0; n < sl_dataset_graph_get_n_nodes (g_ptr_array_index (graphs, g)); n++)
      {
        char *place = sl_dataset_graph_dup_node_path (g_ptr_array_index (graphs, g), n);

        if (g_ptr_array_find_with_equal_func (places, place, g_str_equal, NULL))
          g_free (place);
        else
          g_ptr_array_add (places, place);
      }

  for (guint g = 0; g < graphs->len; g++)
    {
      SlDatasetGraph *graph = g_ptr_array_index (graphs, g);
      SlLineageRun *run = sl_lineage_table_get_run (table, g_array_index (owners, guint, g));

      gtk_grid_attach (grid, sl_lineage_label_new (sl_lineage_run_get_name (run), TRUE), g, 0, 1, 1);
      for (guint n = 0; n < sl_dataset_graph_get_n_nodes (graph); n++)
        {
          g_autofree char *place = sl_dataset_graph_dup_node_path (graph, n);
          g_autoptr(GPtrArray) differs = sl_dataset_graph_dup_differences (graph, n, (SlDatasetGraph **) graphs->pdata, graphs->len);
          g_autofree char *markup = describe_node (graph, n, differs);
          GtkWidget *label = gtk_label_new (NULL);
          guint row;

          g_ptr_array_find_with_equal_func (places, place, g_str_equal, &row);
          gtk_label_set_markup (GTK_LABEL (label), markup);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_widget_set_valign (label, GTK_ALIGN_START);
          sl_widget_set_long_tooltip (label, place);
          gtk_grid_attach (grid, label, g, row + 1, 1, 1);
        }
    }
  return TRUE;
}
