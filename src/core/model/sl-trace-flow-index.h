/* sl-trace-flow-index.h: where the flows of a trace are, by slice and by time
 *
 * Built once when the trace is built. By slice: the flows sorted by the
 * slices at their ends, so the flows of a slice are one range of flow
 * indices, found by a binary search over the slices that have any (a
 * slice without flows costs nothing, as a track without them). By time:
 * the flows in order of their earlier end, as an implicit interval tree
 * (each node keeps the latest later end under it), so listing the flows
 * that cross a window costs the log of their number plus what it lists.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-trace-track.h"

G_BEGIN_DECLS

typedef struct _SlTraceFlowIndex SlTraceFlowIndex;

/* @tracks: (element-type SlTraceTrack): in the order flows number them */
SlTraceFlowIndex *sl_trace_flow_index_new             (const SlTraceFlow *flows,
                                                       guint              n_flows,
                                                       GPtrArray         *tracks);
void              sl_trace_flow_index_free            (SlTraceFlowIndex  *self);
const guint32    *sl_trace_flow_index_get_slice_flows (SlTraceFlowIndex  *self,
                                                       guint              track,
                                                       guint32            slice,
                                                       guint             *n_flows);
guint             sl_trace_flow_index_find_in_range   (SlTraceFlowIndex  *self,
                                                       gint64             from_ns,
                                                       gint64             to_ns,
                                                       guint32           *flows,
                                                       guint              max_flows);
gsize             sl_trace_flow_index_get_memory_size (SlTraceFlowIndex  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceFlowIndex, sl_trace_flow_index_free)

G_END_DECLS
