/* sl-trace-builder.h: building an SlTrace from imported events
 *
 * An SlTraceBuilder takes events in file order from any importer, and
 * sl_trace_builder_finish() sorts, nests and indexes them in the calling
 * (worker) thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-trace.h"

G_BEGIN_DECLS

typedef struct _SlTraceBuilder SlTraceBuilder;

/* Building (any thread, one builder per thread) */
SlTraceBuilder *sl_trace_builder_new                 (const char     *source_path);
void            sl_trace_builder_free                (SlTraceBuilder *builder);
guint32         sl_trace_builder_intern              (SlTraceBuilder *builder,
                                                      const char     *str,
                                                      gssize          len);
/* Processes and threads are keyed by the text of their pid/tid (numbers
 * in decimal), so string and numeric ids from any source share one path. */
guint           sl_trace_builder_get_process         (SlTraceBuilder *builder,
                                                      const char     *pid);
guint           sl_trace_builder_get_thread_track    (SlTraceBuilder *builder,
                                                      guint           process,
                                                      const char     *tid);
guint           sl_trace_builder_get_async_track     (SlTraceBuilder *builder,
                                                      guint           process,
                                                      guint32         category_id,
                                                      guint32         name_id);
guint           sl_trace_builder_get_counter_track   (SlTraceBuilder *builder,
                                                      guint           process,
                                                      guint32         name_id,
                                                      guint32         series_id);
void            sl_trace_builder_set_process_name    (SlTraceBuilder *builder,
                                                      guint           process,
                                                      const char     *name);
void            sl_trace_builder_set_process_sort_index (SlTraceBuilder *builder,
                                                      guint           process,
                                                      gint64          sort_index);
void            sl_trace_builder_set_track_name      (SlTraceBuilder *builder,
                                                      guint           track,
                                                      const char     *name);
void            sl_trace_builder_set_track_sort_index (SlTraceBuilder *builder,
                                                      guint           track,
                                                      gint64          sort_index);
/* Complete (X), instant (dur 0 with SL_TRACE_SLICE_INSTANT) and async slices. */
void            sl_trace_builder_add_slice           (SlTraceBuilder *builder,
                                                      guint           track,
                                                      gint64          start_ns,
                                                      gint64          dur_ns,
                                                      guint32         name_id,
                                                      guint32         category_id,
                                                      guint8          flags,
                                                      guint64         args_offset,
                                                      guint32         args_length);
/* B/E: nesting per thread; an E without B, or a B left open, is reported
 * as a problem by finish() and kept (open ones become UNFINISHED). */
void            sl_trace_builder_begin_slice         (SlTraceBuilder *builder,
                                                      guint           track,
                                                      gint64          start_ns,
                                                      guint32         name_id,
                                                      guint32         category_id,
                                                      guint64         args_offset,
                                                      guint32         args_length);
void            sl_trace_builder_end_slice           (SlTraceBuilder *builder,
                                                      guint           track,
                                                      gint64          end_ns,
                                                      guint64         offset);
/* Async begin/end by (track, id): b/e and S/F. */
void            sl_trace_builder_begin_async         (SlTraceBuilder *builder,
                                                      guint           track,
                                                      guint64         id,
                                                      gint64          start_ns,
                                                      guint32         name_id,
                                                      guint32         category_id,
                                                      guint64         args_offset,
                                                      guint32         args_length);
void            sl_trace_builder_end_async           (SlTraceBuilder *builder,
                                                      guint           track,
                                                      guint64         id,
                                                      gint64          end_ns,
                                                      guint64         offset);
void            sl_trace_builder_add_counter         (SlTraceBuilder *builder,
                                                      guint           track,
                                                      gint64          ts_ns,
                                                      double          value);
/* Flow points: phase 's', 't' or 'f'; bind_enclosing is true for 's'/'t'
 * and for 'f' with "bp":"e"; otherwise 'f' binds to the next slice. */
void            sl_trace_builder_add_flow_point      (SlTraceBuilder *builder,
                                                      char            phase,
                                                      guint64         id,
                                                      guint32         name_id,
                                                      guint32         category_id,
                                                      guint           track,
                                                      gint64          ts_ns,
                                                      gboolean        bind_enclosing);
/* Count an event the model does not draw (O/N/D, unknown phases) so stats can report it. */
void            sl_trace_builder_count_phase         (SlTraceBuilder *builder,
                                                      const char     *phase);
void            sl_trace_builder_add_problem         (SlTraceBuilder *builder,
                                                      SlProblem      *problem);
/* Several files may feed one builder (profiler folders, cluster ranks):
 * each registers itself and stores SL_TRACE_ARGS_OFFSET (source, byte)
 * as the args offset of its events, so sl_trace_read_event_text() knows
 * which file to open. Returns the source index (at most 65535 files). */
guint           sl_trace_builder_add_source          (SlTraceBuilder *builder,
                                                      const char     *path);
/* Keeps where a metadata (M) event is, so exports can copy it. */
void            sl_trace_builder_add_metadata_event  (SlTraceBuilder *builder,
                                                      guint64         offset,
                                                      guint32         length);
/* Adds @n to the count of @phase (importers that count in bulk). */
void            sl_trace_builder_add_phase_count     (SlTraceBuilder *builder,
                                                      const char     *phase,
                                                      guint64         n);
/* Sorts, nests and indexes; consumes the builder. Returns NULL only when
 * cancelled; damage is in sl_trace_get_problems(). */
SlTrace        *sl_trace_builder_finish              (SlTraceBuilder *builder,
                                                      GCancellable   *cancellable);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceBuilder, sl_trace_builder_free)

G_END_DECLS
