/* sl-graph-verdict-legend.h: what the colours of a graph tinted by a
 * tensor comparison mean
 *
 * A small card over the graph: one swatch per verdict (pass, warning,
 * error, not compared) in the renderer's colours with how many ops have
 * it, a button that clears the tint and one that only hides the card.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Rows of the legend; the first three are SlTensorVerdict's values. */
typedef enum {
  SL_GRAPH_LEGEND_PASS,
  SL_GRAPH_LEGEND_WARNING,
  SL_GRAPH_LEGEND_ERROR,
  SL_GRAPH_LEGEND_NOT_COMPARED,
  SL_GRAPH_LEGEND_N_ROWS,
} SlGraphLegendRow;

#define SL_TYPE_GRAPH_VERDICT_LEGEND (sl_graph_verdict_legend_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphVerdictLegend, sl_graph_verdict_legend, SL, GRAPH_VERDICT_LEGEND, GtkWidget)

GtkWidget *sl_graph_verdict_legend_new        (void);
/* How many ops have each verdict, SL_GRAPH_LEGEND_N_ROWS of them. */
void       sl_graph_verdict_legend_set_counts (SlGraphVerdictLegend *self,
                                               const guint          *counts);
guint      sl_graph_verdict_legend_get_count  (SlGraphVerdictLegend *self,
                                               SlGraphLegendRow      row);
/* As clicking its buttons does: emits "clear" or "dismissed". */
void       sl_graph_verdict_legend_clear      (SlGraphVerdictLegend *self);
void       sl_graph_verdict_legend_dismiss    (SlGraphVerdictLegend *self);

G_END_DECLS
