/* sl-trace-aggregate-index.h: partial sums by name, to sum up a range fast
 *
 * For every thread and async track: the sums by name of the whole track
 * and of each block of 4096 slices, with the earliest and latest end in
 * the block. A range then adds whole tracks and whole blocks and reads
 * only the blocks at its edges (and those holding a slice that reaches in
 * from before) slice by slice. Built once per trace, on a worker (the
 * timeline page's as soon as it has the whole trace, or the first
 * range's), and kept with the trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace-aggregate.h"

G_BEGIN_DECLS

typedef struct _SlTraceAggregateIndex SlTraceAggregateIndex;

SlTraceAggregateIndex *sl_trace_aggregate_index_get             (SlTrace               *trace,
                                                                 GCancellable          *cancellable);
SlTraceAggregateIndex *sl_trace_aggregate_index_peek            (SlTrace               *trace);
gsize                  sl_trace_aggregate_index_get_memory_size (SlTraceAggregateIndex *self);
void                   sl_trace_aggregate_index_add_track       (SlTraceAggregateIndex *self,
                                                                 guint                  track,
                                                                 gint64                 from_ns,
                                                                 gint64                 to_ns,
                                                                 GArray                *rows,
                                                                 guint32               *row_of_name);

G_END_DECLS
