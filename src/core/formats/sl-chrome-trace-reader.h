/* sl-chrome-trace-reader.h: streaming import of Chrome trace JSON
 *
 * Reads the JSON Object Format ({"traceEvents": [...], ...}) and the JSON
 * Array Format, plain or gzip, in chunks of 512 KiB: a grammar-aware scanner
 * reads the events and steps over the values it does not keep, and yajl
 * takes over at the first thing the scanner leaves to it (damage above
 * all). Files are cut into parts scanned on every core (the environment
 * variable SL_TRACE_READ_THREADS sets how many workers; 0 scans in order).
 * No document tree is ever built. Damage (truncation, bad JSON, bad gzip) keeps every
 * event before it and becomes an SlProblem with the byte offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace.h"

G_BEGIN_DECLS

/* Called once per chunk: bytes of the file read so far, and its size (0
 * when unknown). */
typedef void (*SlTraceProgressFunc) (guint64  bytes_read,
                                     guint64  total_bytes,
                                     gpointer user_data);

/* Reads one file into @builder. @pid_prefix (or %NULL) is put in front of
 * every pid, so several files (ranks of a cluster) keep their processes
 * apart. Returns %FALSE only when the file cannot be read at all or on
 * cancellation; damaged content is reported in the builder's problems. */
gboolean  sl_chrome_trace_reader_read_into   (SlTraceBuilder       *builder,
                                              GFile                *file,
                                              const char           *pid_prefix,
                                              SlTraceProgressFunc   progress,
                                              gpointer              user_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
/* The same from memory (tests and fuzzing); @path names the data in problems. */
void      sl_chrome_trace_reader_read_data   (SlTraceBuilder       *builder,
                                              const char           *path,
                                              const guint8         *data,
                                              gsize                 length,
                                              const char           *pid_prefix);
typedef enum {
  SL_CHROME_TRACE_READ_SCAN,      /* the grammar-aware scanner, in order */
  SL_CHROME_TRACE_READ_PARALLEL,  /* cut into parts scanned on every core, as files are */
  SL_CHROME_TRACE_READ_TOKENIZE,  /* every byte through yajl: the reference */
} SlChromeTraceReadMode;

/* The same, fed in pieces of @piece_size bytes (0: as from a file). */
void      sl_chrome_trace_reader_read_data_full (SlTraceBuilder        *builder,
                                                 const char            *path,
                                                 const guint8          *data,
                                                 gsize                  length,
                                                 const char            *pid_prefix,
                                                 gsize                  piece_size,
                                                 SlChromeTraceReadMode  mode);
/* One file to a finished trace. */
SlTrace  *sl_chrome_trace_load               (const char           *path,
                                              SlTraceProgressFunc   progress,
                                              gpointer              user_data,
                                              GCancellable         *cancellable,
                                              GError              **error);

/* The same in a worker thread (GTask); @progress is called in that thread. */
void      sl_chrome_trace_load_async         (const char           *path,
                                              SlTraceProgressFunc   progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
SlTrace  *sl_chrome_trace_load_finish        (GAsyncResult         *result,
                                              GError              **error);

/* Decimal text (as in JSON, optionally quoted content) of microseconds to
 * integer nanoseconds, exactly: no double on the way. */
gboolean  sl_chrome_trace_parse_us           (const char           *text,
                                              gsize                 length,
                                              gint64               *ns);
/* An id as decimal or "0x" hex text, to 64 bits exactly; other text is
 * hashed so equal strings still match. */
guint64   sl_chrome_trace_parse_id           (const char           *text,
                                              gsize                 length);

G_END_DECLS
