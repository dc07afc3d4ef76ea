/* sl-trace-lod.h: level of detail for drawing a timeline
 *
 * Built once in a worker after import. For every depth of every thread and
 * async track it keeps the slices of that depth in start order (slices of
 * one depth never overlap, so their ends are in order too), mostly as
 * 16-bit offsets in blocks of 32, a pyramid of the longest slice of each
 * block of 16, 256, 4096... slices, and levels of
 * time buckets (8 slices each on average at the finest, then twice as wide
 * each level) holding the first slice, the longest, a bound on its duration
 * and the extent covered. Zoomed out, a row query reads one or two buckets
 * per pixel; zoomed in, it walks the slices and gallops over runs narrower
 * than a pixel. Either way a run of narrow slices that touch on screen comes
 * out as one span coloured like its longest slice, and every slice a pixel
 * wide or more comes out alone. Counters keep a min/max pyramid. About 5
 * bytes per slice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace.h"

G_BEGIN_DECLS

/* One thing to draw in a row: a slice at least a pixel wide (n_slices 1)
 * or a run of narrower slices that touch on screen, drawn as one block. */
typedef struct {
  gint64  start_ns;
  gint64  end_ns;
  guint32 slice;      /* index in the track: the slice, or the run's longest */
  guint32 n_slices;
} SlTraceLodSpan;

/* One pixel column of a counter: the value held when the column starts and
 * the extent of the points inside it. */
typedef struct {
  double   first;
  double   min;
  double   max;
  gboolean defined;   /* FALSE before the first point */
} SlTraceLodColumn;

typedef struct _SlTraceLod SlTraceLod;

SlTraceLod    *sl_trace_lod_new              (SlTrace          *trace,
                                              GCancellable     *cancellable);
void           sl_trace_lod_free             (SlTraceLod       *self);
SlTrace       *sl_trace_lod_get_trace        (SlTraceLod       *self);
gsize          sl_trace_lod_get_memory_size  (SlTraceLod       *self);
guint          sl_trace_lod_get_n_depths     (SlTraceLod       *self,
                                              guint             track);
guint          sl_trace_lod_get_depth_n_slices (SlTraceLod     *self,
                                                guint           track,
                                                guint           depth);
guint32        sl_trace_lod_get_depth_slice  (SlTraceLod       *self,
                                              guint             track,
                                              guint             depth,
                                              guint             k);
guint          sl_trace_lod_query            (SlTraceLod       *self,
                                              guint             track,
                                              guint             depth,
                                              gint64            t0,
                                              gint64            t1,
                                              double            ns_per_pixel,
                                              GArray           *spans);
gboolean       sl_trace_lod_hit              (SlTraceLod       *self,
                                              guint             track,
                                              guint             depth,
                                              gint64            at_ns,
                                              gint64            tolerance_ns,
                                              guint32          *slice);
void           sl_trace_lod_query_counter    (SlTraceLod       *self,
                                              guint             track,
                                              gint64            t0,
                                              gint64            t1,
                                              guint             width,
                                              SlTraceLodColumn *columns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceLod, sl_trace_lod_free)

G_END_DECLS
