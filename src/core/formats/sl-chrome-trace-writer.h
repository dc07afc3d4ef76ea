/* sl-chrome-trace-writer.h: a time range of a trace as Chrome trace JSON or CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace.h"

G_BEGIN_DECLS

/* Writes the events that overlap [from_ns, to_ns] on @tracks (all when
 * NULL) as a JSON Object Format trace that chrome://tracing and Perfetto
 * open: complete and instant events are copied from the source text,
 * B/E pairs become X events, async slices b/e pairs, counter points C
 * events; every metadata event is kept, and flows only when both ends
 * are inside. @n_events (optional) gets the number of events written. */
gboolean  sl_chrome_trace_write_range  (SlTrace        *trace,
                                        gint64          from_ns,
                                        gint64          to_ns,
                                        const guint    *tracks,
                                        guint           n_tracks,
                                        GOutputStream  *out,
                                        guint64        *n_events,
                                        GCancellable   *cancellable,
                                        GError        **error);
/* The same slices as CSV: track, process, thread, name, category, start
 * (µs from the trace's start), duration, self time, depth, flags. */
gboolean  sl_trace_write_slices_csv    (SlTrace        *trace,
                                        gint64          from_ns,
                                        gint64          to_ns,
                                        const guint    *tracks,
                                        guint           n_tracks,
                                        GOutputStream  *out,
                                        guint64        *n_rows,
                                        GCancellable   *cancellable,
                                        GError        **error);
/* Nanoseconds as decimal microseconds, exactly ("-12.345"). */
void      sl_trace_append_us           (GString        *out,
                                        gint64          ns);

G_END_DECLS
