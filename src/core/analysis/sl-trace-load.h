/* sl-trace-load.h: a timeline read and indexed for drawing on a worker,
 * watched through its properties
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-step-spans.h"
#include "sl-trace.h"
#include "sl-trace-lod.h"

G_BEGIN_DECLS

typedef enum {
  SL_TRACE_LOAD_WAITING,     /* not started */
  SL_TRACE_LOAD_READING,
  SL_TRACE_LOAD_INDEXING,
  SL_TRACE_LOAD_DONE,
  SL_TRACE_LOAD_FAILED,
  SL_TRACE_LOAD_CANCELLED,
} SlTraceLoadState;

#define SL_TYPE_TRACE_LOAD (sl_trace_load_get_type ())
G_DECLARE_FINAL_TYPE (SlTraceLoad, sl_trace_load, SL, TRACE_LOAD, GObject)

SlTraceLoad      *sl_trace_load_new           (const char  *path);
SlTraceLoad      *sl_trace_load_new_for_trace (SlTrace     *trace);
void              sl_trace_load_place_steps   (SlTraceLoad *self,
                                               GPtrArray   *step_tables);
void              sl_trace_load_start         (SlTraceLoad *self);
void              sl_trace_load_cancel        (SlTraceLoad *self);

const char       *sl_trace_load_get_path        (SlTraceLoad *self);
SlTraceLoadState  sl_trace_load_get_state       (SlTraceLoad *self);
gboolean          sl_trace_load_is_finished     (SlTraceLoad *self);
double            sl_trace_load_get_progress    (SlTraceLoad *self);
guint64           sl_trace_load_get_bytes_read  (SlTraceLoad *self);
guint64           sl_trace_load_get_total_bytes (SlTraceLoad *self);
/* When done: */
SlTrace          *sl_trace_load_get_trace       (SlTraceLoad *self);
SlTraceLod       *sl_trace_load_steal_lod       (SlTraceLoad *self);
GPtrArray        *sl_trace_load_steal_spans     (SlTraceLoad *self);
gint64            sl_trace_load_get_read_us     (SlTraceLoad *self);
gint64            sl_trace_load_get_index_us    (SlTraceLoad *self);
/* When failed: */
const GError     *sl_trace_load_get_error       (SlTraceLoad *self);

/* While reading: what has been read so far (see SlTraceLoad:preview). */
SlTrace          *sl_trace_load_get_preview       (SlTraceLoad *self);
SlTraceLod       *sl_trace_load_steal_preview_lod (SlTraceLoad *self);
guint64           sl_trace_load_get_preview_bytes (SlTraceLoad *self);
gboolean          sl_trace_load_match_slice       (SlTrace     *from,
                                                   guint        track,
                                                   guint32      slice,
                                                   SlTrace     *to,
                                                   guint       *to_track,
                                                   guint32     *to_slice);

/* Before the start (tests, benchmarks, views of whole traces): previews of @first bytes of
 * (decompressed) text, doubling up to @last (0: no previews); and a hold
 * on the full read, which waits while held (previews go on). */
void              sl_trace_load_set_preview_sizes (SlTraceLoad *self,
                                                   gsize        first,
                                                   gsize        last);
void              sl_trace_load_hold_reading      (SlTraceLoad *self,
                                                   gboolean     hold);

G_END_DECLS
