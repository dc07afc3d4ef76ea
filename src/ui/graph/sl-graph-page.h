/* sl-graph-page.h: a MindSpore computational graph, scope by scope
 *
 * Opens a .pb (GraphProto or ModelProto) or the graphs of a summary run.
 * Double-click or Enter expands a scope, group or section in place;
 * search reaches inside collapsed ones; Details lists the selected node
 * with its neighbours as links. Requests ("(s)": an op name as profiles
 * write it, or a hierarchy path) open the graph at that node.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-graph-canvas.h"
#include "sl-graph-layout.h"
#include "sl-graph-verdict-legend.h"

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_PAGE (sl_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphPage, sl_graph_page, SL, GRAPH_PAGE, SlDocument)

SlGraphCanvas *sl_graph_page_get_canvas        (SlGraphPage *self);
/* The graph shown, and its layout state (NULL before loading). */
SlGraph       *sl_graph_page_get_graph         (SlGraphPage *self);
SlGraphLayout *sl_graph_page_get_layout        (SlGraphPage *self);
/* Expands or collapses @item, as a double-click does. */
void           sl_graph_page_toggle            (SlGraphPage *self,
                                                guint        item);
/* Expands the path to @item, selects it and brings it into view. */
void           sl_graph_page_reveal            (SlGraphPage *self,
                                                guint        item);
/* Runs a search as typing in the search entry does. */
void           sl_graph_page_search            (SlGraphPage *self,
                                                const char  *query,
                                                gboolean     regex);
/* Tints every op by the worst verdict of its outputs in @rows (the
 * SlTensorCompareRow of a comparison report), and each collapsed scope
 * or group by the worst below it; NULL clears. Returns how many rows
 * matched an op of the graph. */
guint          sl_graph_page_set_node_verdicts (SlGraphPage *self,
                                                GListModel  *rows);
/* The legend shown while ops are tinted by verdict (hidden otherwise). */
SlGraphVerdictLegend *sl_graph_page_get_verdict_legend (SlGraphPage *self);
/* The items the last search found (guint32). */
GArray        *sl_graph_page_get_results       (SlGraphPage *self);
char          *sl_graph_page_dup_result_label  (SlGraphPage *self,
                                                guint        index);

G_END_DECLS
