/* sl-graph-search.h: finding nodes of a graph by name or op type
 *
 * An index of every op's full name and op type, every parameter's name
 * and every scope's path, built once (on a worker) and then read-only:
 * several searches may run at once. Matching ignores ASCII case. A
 * substring search is one pass over all names laid end to end;
 * an op type that contains the query brings every op of that type; a
 * regular expression is matched against each name and op type. Hits are
 * hierarchy items, in the hierarchy's order, whatever is collapsed: a
 * view expands the path to the one the user picks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

typedef enum {
  SL_GRAPH_SEARCH_SUBSTRING,
  SL_GRAPH_SEARCH_REGEX,
} SlGraphSearchMode;

typedef struct _SlGraphSearch SlGraphSearch;

SlGraphSearch  *sl_graph_search_new          (SlGraph            *graph);
void            sl_graph_search_free         (SlGraphSearch      *self);
guint           sl_graph_search_get_n_names  (SlGraphSearch      *self);

/* Up to @max_results hits (graph items, as guint32, ascending), and in
 * @n_total how many there are in all. An empty query finds nothing. NULL
 * with G_REGEX_ERROR for a bad expression, or G_IO_ERROR_CANCELLED. */
GArray         *sl_graph_search_find         (SlGraphSearch      *self,
                                              const char         *query,
                                              SlGraphSearchMode   mode,
                                              guint               max_results,
                                              guint              *n_total,
                                              GCancellable       *cancellable,
                                              GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGraphSearch, sl_graph_search_free)

G_END_DECLS
