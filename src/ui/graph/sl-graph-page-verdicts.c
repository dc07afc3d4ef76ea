/* sl-graph-page-verdicts.c: the graph page tinted by a tensor comparison,
 * with its legend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-page-private.h"
#include "sl-graph-tint.h"
#include "sl-graph-verdicts.h"

static void
update_verdict_legend (SlGraphPage     *self,
                       SlGraph         *graph,
                       SlGraphVerdicts *verdicts)
{
  guint counts[SL_GRAPH_LEGEND_N_ROWS] = { 0 };

  if (verdicts == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->verdict_legend), FALSE);
      return;
    }
  sl_graph_tint_count_ops (graph, verdicts, counts);
  sl_graph_verdict_legend_set_counts (self->verdict_legend, counts);
  gtk_widget_set_visible (GTK_WIDGET (self->verdict_legend), TRUE);
}

static void
legend_clear_cb (SlGraphPage *self)
{
  sl_graph_page_set_node_verdicts (self, NULL);
}

static void
legend_dismissed_cb (SlGraphPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->verdict_legend), FALSE);
}

guint
sl_graph_page_set_node_verdicts (SlGraphPage *self,
                                 GListModel  *rows)
{
  g_autoptr(SlGraphVerdicts) verdicts = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GByteArray) values = g_byte_array_new ();
  SlGraph *graph;

  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), 0);
  g_return_val_if_fail (rows == NULL || G_IS_LIST_MODEL (rows), 0);

  graph = sl_graph_page_get_graph (self);
  if (graph != NULL && rows != NULL)
    {
      verdicts = sl_graph_verdicts_new (graph);
      sl_graph_verdicts_add_rows (verdicts, rows);
      sl_graph_tint_items (graph, verdicts, ids, values);
    }
  sl_graph_renderer_set_verdicts (sl_graph_canvas_get_renderer (self->canvas),
                                  (const guint32 *) ids->data, values->data, ids->len);
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
  update_verdict_legend (self, graph, verdicts);
  return verdicts != NULL ? sl_graph_verdicts_get_n_matched (verdicts) : 0;
}

SlGraphVerdictLegend *
sl_graph_page_get_verdict_legend (SlGraphPage *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);
  return self->verdict_legend;
}

void
_sl_graph_page_class_init_verdicts (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, legend_clear_cb);
  gtk_widget_class_bind_template_callback (widget_class, legend_dismissed_cb);
}
