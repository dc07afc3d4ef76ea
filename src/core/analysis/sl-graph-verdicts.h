/* sl-graph-verdicts.h: the verdicts of a tensor comparison on a graph's ops
 *
 * Each compared output is matched to the graph op that produced it, and
 * an op keeps the worst verdict of its outputs. MindSpore dump names carry
 * the op's full name with its scope ("/" written "--"); msprobe names
 * ({api_type}.{api}.{call}.forward.output.{n}) name an API and its call
 * count, which is the call-th op of that type in execution order. A name
 * is matched exactly first, then by a normalised form (case, "_" and "-"
 * ignored). Inputs and backward tensors are not an op's outputs and are
 * left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"
#include "sl-tensor-compare.h"

G_BEGIN_DECLS

/* What an op has when none of its outputs was compared. */
#define SL_GRAPH_VERDICT_NONE (-1)

#define SL_TYPE_GRAPH_VERDICTS (sl_graph_verdicts_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphVerdicts, sl_graph_verdicts, SL, GRAPH_VERDICTS, GObject)

SlGraphVerdicts *sl_graph_verdicts_new            (SlGraph         *graph);
/* Matches one compared tensor by its name; TRUE when an op took it. */
gboolean         sl_graph_verdicts_add            (SlGraphVerdicts *self,
                                                   const char      *name,
                                                   SlTensorVerdict  verdict);
/* Every row (SlTensorCompareRow) of @rows, in order. */
void             sl_graph_verdicts_add_rows       (SlGraphVerdicts *self,
                                                   GListModel      *rows);
/* The worst verdict of @element's outputs, or SL_GRAPH_VERDICT_NONE. */
int              sl_graph_verdicts_get            (SlGraphVerdicts *self,
                                                   guint            element);
guint            sl_graph_verdicts_get_n_matched   (SlGraphVerdicts *self);
guint            sl_graph_verdicts_get_n_unmatched (SlGraphVerdicts *self);
SlGraph         *sl_graph_verdicts_get_graph       (SlGraphVerdicts *self);

G_END_DECLS
