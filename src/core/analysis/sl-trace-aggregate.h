/* sl-trace-aggregate.h: slices of a time range summed up by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint32 name_id;
  guint64 count;
  gint64  total_ns;   /* full durations of the slices that overlap the range */
  gint64  self_ns;
  gint64  min_ns;
  gint64  max_ns;
} SlTraceAggregateRow;

typedef enum {
  SL_TRACE_AGGREGATE_BY_NAME,
  SL_TRACE_AGGREGATE_BY_COUNT,
  SL_TRACE_AGGREGATE_BY_TOTAL,
  SL_TRACE_AGGREGATE_BY_SELF,
  SL_TRACE_AGGREGATE_BY_AVERAGE,
  SL_TRACE_AGGREGATE_BY_MIN,
  SL_TRACE_AGGREGATE_BY_MAX,
} SlTraceAggregateSort;

/* Every slice (instants included) that overlaps [from_ns, to_ns] on the
 * given tracks (all tracks when @tracks is NULL), grouped by name. Rows
 * come sorted by total, longest first. Returns NULL when cancelled. */
GArray  *sl_trace_aggregate             (SlTrace              *trace,
                                         gint64                from_ns,
                                         gint64                to_ns,
                                         const guint          *tracks,
                                         guint                 n_tracks,
                                         GCancellable         *cancellable);
GArray  *sl_trace_aggregate_indexed     (SlTrace              *trace,
                                         gint64                from_ns,
                                         gint64                to_ns,
                                         const guint          *tracks,
                                         guint                 n_tracks,
                                         GCancellable         *cancellable);
void     sl_trace_aggregate_sort        (SlTrace              *trace,
                                         GArray               *rows,
                                         SlTraceAggregateSort  sort,
                                         gboolean              descending);
double   sl_trace_aggregate_row_average (const SlTraceAggregateRow *row);

G_END_DECLS
