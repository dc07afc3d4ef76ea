/* sl-trace.h: an imported timeline (Chrome trace, profiler folders, SQLite export)
 *
 * Everything is columnar and immutable once built: an SlTraceBuilder takes
 * events in file order from any importer, and sl_trace_builder_finish()
 * sorts, nests and indexes them in the calling (worker) thread. Times are
 * integer nanoseconds as the source gave them (epoch nanoseconds in
 * torch_npu traces); views show them relative to sl_trace_get_start_ns().
 * Strings are interned and
 * referred to by 32-bit ids (id 0 is the empty string). Event args are not
 * kept: a slice records where its event starts in the source file and how
 * long it is, so Details can fetch the args on demand.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"
#include "sl-trace-slices.h"

G_BEGIN_DECLS

typedef enum {
  SL_TRACE_TRACK_THREAD,   /* synchronous slices of one thread, nested by depth */
  SL_TRACE_TRACK_ASYNC,    /* b/n/e and S/T/F slices of one (process, category, name) */
  SL_TRACE_TRACK_COUNTER,  /* C events of one (process, counter name, series) */
} SlTraceTrackKind;

typedef enum {
  SL_TRACE_SLICE_NONE       = 0,
  SL_TRACE_SLICE_INSTANT    = 1 << 0, /* i/I/n: zero duration, drawn as a mark */
  SL_TRACE_SLICE_UNFINISHED = 1 << 1, /* B without E: runs to the end of the trace */
  SL_TRACE_SLICE_OVERFLOW   = 1 << 2, /* overlapped a sibling without nesting */
  SL_TRACE_SLICE_BEGIN_END  = 1 << 3, /* from a B/E (or b/e, S/F) pair: the text is the begin event's */
} SlTraceSliceFlags;

#define SL_TRACE_NO_PARENT G_MAXUINT32
#define SL_TRACE_NO_ARGS   G_MAXUINT64

/* An args offset is the byte offset of the event in its (decompressed)
 * source file, with the source's index in the top 16 bits. */
#define SL_TRACE_ARGS_OFFSET(source, byte) ((((guint64) (source)) << 48) | ((guint64) (byte) & G_GUINT64_CONSTANT (0xffffffffffff)))
#define SL_TRACE_ARGS_SOURCE(offset)       ((guint) ((offset) >> 48))
#define SL_TRACE_ARGS_BYTE(offset)         ((offset) & G_GUINT64_CONSTANT (0xffffffffffff))

typedef struct {
  guint          n_points;
  const gint64  *ts_ns;
  const double  *value;
  double         min_value;
  double         max_value;
} SlTraceCounter;

typedef struct {
  guint64  id;                 /* flow id (ids above 2^53 kept exact) */
  guint32  name_id;
  guint32  category_id;
  guint    from_track;
  guint32  from_slice;         /* SL_TRACE_NO_PARENT when no enclosing slice */
  gint64   from_ns;
  guint    to_track;
  guint32  to_slice;
  gint64   to_ns;
  gboolean to_enclosing;       /* the end bound to its enclosing slice, not the next one */
} SlTraceFlow;

#define SL_TYPE_TRACE (sl_trace_get_type ())
G_DECLARE_FINAL_TYPE (SlTrace, sl_trace, SL, TRACE, GObject)

/* Reading (any thread once built; the trace is immutable) */
const char     *sl_trace_get_source_path             (SlTrace        *self);
const char     *sl_trace_get_string                  (SlTrace        *self,
                                                      guint32         id);
guint           sl_trace_get_n_strings               (SlTrace        *self);
gint64          sl_trace_get_start_ns                (SlTrace        *self);
gint64          sl_trace_get_end_ns                  (SlTrace        *self);
gboolean        sl_trace_has_times                   (SlTrace        *self);

guint           sl_trace_get_n_processes             (SlTrace        *self);
const char     *sl_trace_get_process_pid             (SlTrace        *self,
                                                      guint           process);
const char     *sl_trace_get_process_name            (SlTrace        *self,
                                                      guint           process);
gint64          sl_trace_get_process_sort_index      (SlTrace        *self,
                                                      guint           process);

/* Tracks are ordered for display: by process sort index, then process,
 * then track sort index, then kind and name. */
guint           sl_trace_get_n_tracks                (SlTrace        *self);
SlTraceTrackKind sl_trace_get_track_kind             (SlTrace        *self,
                                                      guint           track);
guint           sl_trace_get_track_process           (SlTrace        *self,
                                                      guint           track);
/* Never NULL: an unnamed thread's name is its tid. */
const char     *sl_trace_get_track_name              (SlTrace        *self,
                                                      guint           track);
const char     *sl_trace_get_track_tid               (SlTrace        *self,
                                                      guint           track);
/* The interned ids a track was created with (0 where not applicable):
 * async category and name, counter name and series. */
void            sl_trace_get_track_ids               (SlTrace        *self,
                                                      guint           track,
                                                      guint32        *name_id,
                                                      guint32        *category_id,
                                                      guint32        *series_id);
guint           sl_trace_get_track_n_depths          (SlTrace        *self,
                                                      guint           track);
const SlTraceSlices  *sl_trace_get_slices            (SlTrace        *self,
                                                      guint           track);
const SlTraceCounter *sl_trace_get_counter           (SlTrace        *self,
                                                      guint           track);

guint           sl_trace_get_n_flows                 (SlTrace        *self);
const SlTraceFlow *sl_trace_get_flow                 (SlTrace        *self,
                                                      guint           index);
/* The flows with an end at one slice, as indices for sl_trace_get_flow()
 * in increasing order (a flow from a slice to itself once); NULL and 0
 * for a slice without any. Indexed when the trace is built: nothing is
 * scanned. */
const guint32  *sl_trace_get_slice_flows             (SlTrace        *self,
                                                      guint           track,
                                                      guint32         slice,
                                                      guint          *n_flows);
/* Stores in @flows up to @max_flows indices of flows that cross the
 * window [@from_ns, @to_ns] (a flow spans from its earlier to its later
 * end), in order of their earlier end, and returns how many it stored.
 * Costs the log of the number of flows plus what it stores. */
guint           sl_trace_find_flows_in_range         (SlTrace        *self,
                                                      gint64          from_ns,
                                                      gint64          to_ns,
                                                      guint32        *flows,
                                                      guint           max_flows);

GListModel     *sl_trace_get_problems                (SlTrace        *self);
/* Event counts by phase letter ("X", "B", "E", "i", "C", "M", ...; "?"
 * for an event without one): keys are strings, values GSIZE_TO_POINTER (count). */
GHashTable     *sl_trace_get_phase_counts            (SlTrace        *self);
guint64         sl_trace_get_n_events                (SlTrace        *self);
/* Metadata events kept by the importer: offsets and lengths, file order. */
guint           sl_trace_get_n_metadata_events       (SlTrace        *self);
void            sl_trace_get_metadata_event          (SlTrace        *self,
                                                      guint           index,
                                                      guint64        *offset,
                                                      guint32        *length);
guint           sl_trace_get_n_sources               (SlTrace        *self);
const char     *sl_trace_get_source                  (SlTrace        *self,
                                                      guint           source);
/* Finds a track's slice enclosing @ts_ns (the deepest one), or
 * SL_TRACE_NO_PARENT. */
guint32         sl_trace_find_enclosing_slice        (SlTrace        *self,
                                                      guint           track,
                                                      gint64          ts_ns);
gsize           sl_trace_get_memory_size             (SlTrace        *self);

/* Fetches the JSON text of one event from the source file (args on demand). */
char           *sl_trace_read_event_text             (SlTrace        *self,
                                                      guint64         offset,
                                                      guint32         length,
                                                      GError        **error);

G_END_DECLS

/* Building and reading event texts have their own headers, included here
 * so that including sl-trace.h is enough. */
#include "sl-trace-builder.h"
#include "sl-trace-text-reader.h"
