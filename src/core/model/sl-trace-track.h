/* sl-trace-track.h: the columns of one track of a trace
 *
 * A track holds its slices (or, for a counter, its points) as parallel
 * columns, packed as sl-trace-slices.h describes, that grow by a quarter
 * of their size while importing (so a 32-million-event import stays
 * small). Sealing compacts them, sorts
 * them by start, nests slices with a stack, places overlapping ones in
 * overflow lanes and publishes the read-only views. The builder writes the
 * fields and the trace reads them, so the layout is shared.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-trace.h"

G_BEGIN_DECLS

typedef struct {
  SlTraceTrackKind kind;
  guint            process;
  guint            builder_index;
  char            *tid;          /* tid_here, or its own allocation when long */
  char            *name;         /* NULL, name_here, or its own allocation */
  guint32          name_id;      /* async / counter name */
  guint32          category_id;  /* async category */
  guint32          series_id;    /* counter series */
  gint64           sort_index;
  guint            n_depths;
  guint            nested_depths; /* n_depths without the overflow lanes */

  /* slices, packed as sl-trace-slices.h reads them */
  gsize     n, capacity;
  gint64   *start_base;
  gint32   *start_offset;
  guint32  *dur;
  guint32  *name_ids;
  guint8   *category_code;
  guint32  *category_palette;     /* n_categories: palette_here, then room for the most */
  guint32   palette_here[8];      /* (kept small so a track is a small allocation) */
  guint     n_categories;
  guint8   *depth;                /* depth_here for a few slices */
  guint16  *depth_min;            /* SlTraceSlicesDepthMins' levels; depth_min_here for one block */
  SlTraceSlicesDepthMins depth_mins;
  guint8   *flags;
  gint64   *args_base;
  gint32   *args_delta;
  guint64   args_source;
  gboolean  has_args_source;
  guint16  *args_length;
  guint8   *shared_columns;       /* the nine above in one block, for a few slices */
  GArray   *start_escapes;        /* SlTraceSlicesEscape, by index */
  GArray   *dur_escapes;
  GArray   *self_escapes;         /* only of slices nested very deep */
  GArray   *parent_escapes;
  GArray   *category_escapes;
  GArray   *depth_escapes;
  GArray   *args_offset_escapes;
  GArray   *args_length_escapes;

  /* counter points */
  gsize     n_points, points_capacity;
  gint64   *ts_ns;
  double   *value;
  double    min_value, max_value;

  GArray   *open;               /* the builder's B without E yet */

  SlTraceSlices  slices_view;
  SlTraceCounter counter_view;

  /* A small track's texts and depths, in the track itself: a trace of a
   * few threads made four allocations a track for them. */
  char      tid_here[16];
  char      name_here[32];
  guint8    depth_here[16];
  guint16   depth_min_here[1];
} SlTraceTrack;

SlTraceTrack *sl_trace_track_new             (SlTraceTrackKind  kind,
                                              guint             process,
                                              guint             builder_index,
                                              const char       *tid,
                                              guint32           name_id,
                                              guint32           category_id,
                                              guint32           series_id);
void          sl_trace_track_free            (SlTraceTrack     *track);
void          sl_trace_track_set_name        (SlTraceTrack     *track,
                                              const char       *name);
void          sl_trace_track_append_slice    (SlTraceTrack     *track,
                                              gint64            start_ns,
                                              gint64            dur_ns,
                                              guint32           name_id,
                                              guint32           category_id,
                                              guint8            flags,
                                              guint64           args_offset,
                                              guint32           args_length);
void          sl_trace_track_append_point    (SlTraceTrack     *track,
                                              gint64            ts_ns,
                                              double            value);
/* Compacts, sorts, nests and publishes the views; once, when building ends. */
void          sl_trace_track_seal            (SlTraceTrack     *track);
/* Never NULL: the given name, else the tid, else "". */
const char   *sl_trace_track_get_name        (const SlTraceTrack *track);
/* The deepest slice enclosing @ts_ns, or SL_TRACE_NO_PARENT. */
guint32       sl_trace_track_find_enclosing  (const SlTraceTrack *track,
                                              gint64            ts_ns);
/* The first slice starting at or after @ts_ns, or SL_TRACE_NO_PARENT. */
guint32       sl_trace_track_find_next       (const SlTraceTrack *track,
                                              gint64            ts_ns);
gsize         sl_trace_track_get_memory_size (const SlTraceTrack *track);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceTrack, sl_trace_track_free)

G_END_DECLS
