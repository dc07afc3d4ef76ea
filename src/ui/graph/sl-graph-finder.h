/* sl-graph-finder.h: the graph page's search, run on a worker
 *
 * One search per keystroke: a newer one overtakes an older one. The
 * index of each graph is built by its first search and kept. The hits
 * (items, guint32) come as rows (SlGraphResult) with the names the
 * results list shows (the scopes that tell them apart) and their whole
 * paths; "finished" says how many there are in all (more than listed
 * past a limit), "failed" why a query could not run (a bad regular
 * expression).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_FINDER (sl_graph_finder_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphFinder, sl_graph_finder, SL, GRAPH_FINDER, GObject)

SlGraphFinder *sl_graph_finder_new           (void);
/* Forgets the indexes: the graphs are new. */
void           sl_graph_finder_set_n_graphs  (SlGraphFinder *self,
                                              guint          n_graphs);
/* Looks for @query in @graph, the @graph_index-th; an empty query, or no
 * graph, clears the results at once (no signal). */
void           sl_graph_finder_find          (SlGraphFinder *self,
                                              guint          graph_index,
                                              SlGraph       *graph,
                                              const char    *query,
                                              gboolean       regex);
/* Drops the hits and any search under way; the list keeps its names. */
void           sl_graph_finder_forget        (SlGraphFinder *self);
void           sl_graph_finder_cancel        (SlGraphFinder *self);
GArray        *sl_graph_finder_get_results   (SlGraphFinder *self);
/* The results as listed: SlGraphResult, each with the name shown and
 * the whole path. */
GListModel    *sl_graph_finder_get_rows      (SlGraphFinder *self);
const char    *sl_graph_finder_get_path      (SlGraphFinder *self,
                                              guint          position);

G_END_DECLS
