/* sl-graph-load.h: reading a file's graphs on a worker
 *
 * The graph page's loading: one read per page, of whatever
 * sl_graph_reader_load() reads (a .pb, a model, the graphs of a summary
 * run). It ends with "loaded" (the graphs, maybe none, each with the problems
 * met while reading it) or "failed" with why; a cancelled read says
 * nothing. The graphs are kept until the load is finalized.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_LOAD (sl_graph_load_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphLoad, sl_graph_load, SL, GRAPH_LOAD, GObject)

SlGraphLoad *sl_graph_load_new        (void);
/* Reads the graphs of @path; a second call while one runs is ignored. */
void         sl_graph_load_start      (SlGraphLoad *self,
                                       const char  *path);
void         sl_graph_load_cancel     (SlGraphLoad *self);
/* The graphs read (SlGraph), or NULL before "loaded". */
GPtrArray   *sl_graph_load_get_graphs (SlGraphLoad *self);
/* What the readers met outside the graphs (SlProblem), or NULL before
 * "loaded". */
GPtrArray   *sl_graph_load_get_problems (SlGraphLoad *self);
/* The @index-th graph, or NULL. */
SlGraph     *sl_graph_load_get_graph  (SlGraphLoad *self,
                                       guint        index);

G_END_DECLS
