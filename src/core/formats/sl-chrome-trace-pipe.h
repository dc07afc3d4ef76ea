/* sl-chrome-trace-pipe.h: the Chrome trace reader's file-reading thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"

G_BEGIN_DECLS

/* One piece of the (inflated) file, or the end with what stopped it. */
typedef struct {
  guint8     *buffer;
  guint8     *data;              /* CHUNK_HEADROOM into buffer */
  gsize       length;
  guint64     file_bytes;        /* of the file, read so far */
  gboolean    end;
  GError     *error;             /* could not read (fatal) */
  char       *damage;            /* gzip trouble, reported as a problem */
  guint64     damage_offset;
  SlSeverity  damage_severity;
} Chunk;

typedef struct _Pipe Pipe;

Pipe  *_sl_chrome_trace_pipe_start   (GInputStream *stream,
                                      const char   *path,
                                      GCancellable *cancellable);
Chunk *_sl_chrome_trace_pipe_pop     (Pipe         *pipe);
void   _sl_chrome_trace_pipe_recycle (Pipe         *pipe,
                                      Chunk        *chunk);
void   _sl_chrome_trace_pipe_stop    (Pipe         *pipe);
void   _sl_chrome_trace_pipe_free    (Pipe         *pipe,
                                      Chunk        *end);

G_END_DECLS
