/* sl-chrome-trace-pipe.c: the Chrome trace reader's file-reading thread
 *
 * Reading (and inflating) runs in a thread of its own, a few chunks ahead
 * of the JSON parser, so the second core takes the system calls and
 * zlib: the reader pops chunks of the plain text in file order, and gives
 * each back (or keeps its buffer, putting a new one in) when it is done
 * with it. The last chunk popped is the end: what stopped the reading,
 * an error, gzip damage or nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <zlib.h>

#include "sl-chrome-trace-pipe.h"
#include "sl-chrome-trace-reader-private.h"

/* Chunks in flight: this thread reads or inflates at most this many
 * ahead of the reader.
 *
 * Why a gzip trace mostly stays above the big traces issue's goal of
 * 1.2 x the plain import's time (1,000,000 events, 143 MB; release build;
 * two cores shared with other work, at a load of 5 to 8; medians of runs
 * alternating with the plain import):
 *
 * - CPU: the gzip import costs the plain import's CPU plus zlib's. Three
 *   runs of bench-trace-import (gzip -6, 11.5 MB, 9 rounds each): plain
 *   0.555 s, gzip 0.723 s, zlib's inflate alone 0.172 s (wall 0.837 s,
 *   1.083 s, 0.271 s: 1.29 x; 1.30 x in CPU); plain 0.779 s, gzip
 *   0.912 s, inflate 0.200 s (wall 1.132 s, 1.607 s: 1.42 x; 1.17 x in
 *   CPU); plain 0.794 s, gzip 0.948 s, inflate 0.228 s (wall 0.798 s,
 *   0.953 s: 1.20 x; 1.19 x in CPU). Per thread (perf, 5 runs each, load
 *   8): the scanners 0.40 s plain and 0.48 s with gzip, the builder
 *   0.21 s and 0.28 s, this thread 0.04 s (read) and 0.26 s: zlib 0.24 s,
 *   its crc32 0.05 s of that (at load 3.5, 4 runs of gzip -1: scanners
 *   0.42 s and 0.40 s, builder 0.23 s and 0.22 s, zlib 0.23 s).
 * - zlib is no faster on its own: it inflates the 143 MB in 0.165 s of
 *   CPU (gzip -1, 15 MB: 0.19 s), 0.13 s without its check
 *   (inflateValidate (z, 0), which would also miss damage), and bigger
 *   output buffers do not help (64 KB: 0.19 s, 512 KB: 0.165 s, 4 MB:
 *   0.163 s). Where the wall time follows the CPU time (cores busy with
 *   other work), 1 + inflate / plain is 1.26 to 1.31, so 1.2 would need
 *   zlib to take 0.11 s.
 * - Waits, timed in each thread (medians of 9, 7 and 11 rounds, gzip
 *   -6): the builder waits for chunks 0.32 to 0.42 s with gzip (0.04 to
 *   0.09 s plain) and for scanned parts 0.54 to 0.69 s (0.38 to 0.44 s
 *   plain); this thread waits for an empty chunk 0.69 to 1.07 s. So
 *   zlib falls behind while the two scanners and the builder have the
 *   cores, then stops on a full queue while the builder waits for the
 *   scanners.
 * - More chunks let zlib run ahead: with 16 to 32 the builder waits for
 *   chunks 0.08 to 0.16 s, as plain, but the time moves to its waits for
 *   parts (0.58 to 0.84 s), as zlib takes the cores from the scanners.
 *   The wall time did not drop for certain: 16 chunks against 4 gave
 *   1.20 x against 1.51 x in one series of 11 rounds and 1.36 x against
 *   1.25 x in one of 21, mostly with 1 to 7 % more CPU, and the peak
 *   memory grows (24 chunks: 57 bytes an event against 51; 32: 63, the
 *   goal being 64). One scanner fewer (SL_TRACE_READ_THREADS=1) makes
 *   the scanner the bottleneck: 2.17 s against 1.38 s.
 * - On idle cores zlib's time could hide: all the work spread over two
 *   cores, (0.555 s + 0.172 s) / 2, is less than the plain wall time
 *   (0.7 to 1.1 s in these runs). */
#define N_CHUNKS 4

struct _Pipe {
  GInputStream *stream;
  GCancellable *cancellable;
  char         *path;
  GAsyncQueue  *filled;
  GAsyncQueue  *empty;
  GThread      *thread;
  gint          stop;
};

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_free (chunk->buffer);
  g_clear_error (&chunk->error);
  g_free (chunk->damage);
  g_free (chunk);
}

static void
pipe_inflate (Pipe     *pipe,
              z_stream *z,
              gboolean *ended,
              guint64   file_bytes,
              Chunk    *end)
{
  gboolean output_full = FALSE;

  while ((z->avail_in > 0 || output_full) && !g_atomic_int_get (&pipe->stop))
    {
      Chunk *chunk;
      int ret;

      if (*ended)
        {
          /* after a member: another member, or padding to ignore */
          if (z->avail_in == 0 || z->next_in[0] != 0x1f)
            return;
          inflateReset (z);
          *ended = FALSE;
        }

      chunk = g_async_queue_pop (pipe->empty);
      z->next_out = chunk->data;
      z->avail_out = CHUNK_SIZE;
      ret = inflate (z, Z_NO_FLUSH);
      chunk->length = CHUNK_SIZE - z->avail_out;
      chunk->file_bytes = file_bytes;
      output_full = z->avail_out == 0;
      if (chunk->length > 0)
        g_async_queue_push (pipe->filled, chunk);
      else
        g_async_queue_push (pipe->empty, chunk);

      if (ret == Z_STREAM_END)
        *ended = TRUE;
      else if (ret == Z_BUF_ERROR && !output_full)
        return;  /* needs more input */
      else if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          end->damage = g_strdup_printf (_("The gzip data is damaged (%s); the events before are kept"),
                                         z->msg != NULL ? z->msg : "zlib");
          end->damage_offset = file_bytes - z->avail_in;
          end->damage_severity = SL_SEVERITY_ERROR;
          g_atomic_int_set (&pipe->stop, TRUE);
          return;
        }
    }
}

static gpointer
pipe_produce (gpointer data)
{
  Pipe *pipe = data;
  g_autofree guint8 *compressed = g_malloc (CHUNK_SIZE);
  Chunk *end = g_new0 (Chunk, 1);
  gboolean first = TRUE, gzip = FALSE, ended = FALSE, z_ready = FALSE;
  guint64 file_bytes = 0;
  z_stream z;

  memset (&z, 0, sizeof z);
  end->end = TRUE;

  while (!g_atomic_int_get (&pipe->stop))
    {
      Chunk *chunk = g_async_queue_pop (pipe->empty);
      gsize n_read = 0;

      if (!g_input_stream_read_all (pipe->stream, chunk->data, CHUNK_SIZE, &n_read,
                                    pipe->cancellable, &end->error))
        {
          g_async_queue_push (pipe->empty, chunk);
          break;
        }
      file_bytes += n_read;

      if (first)
        {
          first = FALSE;
          gzip = is_gzip (chunk->data, n_read);
          if (gzip)
            {
              if (inflateInit2 (&z, 15 + 32) != Z_OK)
                {
                  g_set_error (&end->error, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("Could not start decompressing %s"), pipe->path);
                  g_async_queue_push (pipe->empty, chunk);
                  break;
                }
              z_ready = TRUE;
            }
        }

      if (!gzip)
        {
          chunk->length = n_read;
          chunk->file_bytes = file_bytes;
          if (n_read > 0)
            g_async_queue_push (pipe->filled, chunk);
          else
            g_async_queue_push (pipe->empty, chunk);
        }
      else
        {
          memcpy (compressed, chunk->data, n_read);
          g_async_queue_push (pipe->empty, chunk);
          z.next_in = compressed;
          z.avail_in = n_read;
          pipe_inflate (pipe, &z, &ended, file_bytes, end);
        }

      if (n_read < CHUNK_SIZE)
        {
          if (gzip && !ended && end->damage == NULL && end->error == NULL)
            {
              end->damage = g_strdup (_("The gzip data ends early"));
              end->damage_offset = file_bytes;
              end->damage_severity = SL_SEVERITY_WARNING;
            }
          break;
        }
    }

  if (z_ready)
    inflateEnd (&z);
  g_async_queue_push (pipe->filled, end);
  return NULL;
}


Pipe *
_sl_chrome_trace_pipe_start (GInputStream *stream,
                             const char   *path,
                             GCancellable *cancellable)
{
  Pipe *pipe = g_new0 (Pipe, 1);

  pipe->stream = g_object_ref (stream);
  pipe->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  pipe->path = g_strdup (path);
  pipe->filled = g_async_queue_new ();
  pipe->empty = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *chunk = g_new0 (Chunk, 1);

      chunk->buffer = g_malloc (CHUNK_HEADROOM + CHUNK_SIZE);
      chunk->data = chunk->buffer + CHUNK_HEADROOM;
      g_async_queue_push (pipe->empty, chunk);
    }
  pipe->thread = g_thread_new ("sl-trace-read", pipe_produce, pipe);
  return pipe;
}

/* The next chunk in file order, waiting for it; the end comes last. */
Chunk *
_sl_chrome_trace_pipe_pop (Pipe *pipe)
{
  return g_async_queue_pop (pipe->filled);
}

/* Gives a chunk that is not the end back to be filled again. */
void
_sl_chrome_trace_pipe_recycle (Pipe  *pipe,
                               Chunk *chunk)
{
  g_async_queue_push (pipe->empty, chunk);
}

/* Reads no more: what is read already still comes, then the end. */
void
_sl_chrome_trace_pipe_stop (Pipe *pipe)
{
  g_atomic_int_set (&pipe->stop, TRUE);
}

/* After the end was popped (@end, freed here). */
void
_sl_chrome_trace_pipe_free (Pipe  *pipe,
                            Chunk *end)
{
  chunk_free (end);
  g_thread_join (pipe->thread);
  g_async_queue_lock (pipe->empty);
  for (Chunk *chunk; (chunk = g_async_queue_try_pop_unlocked (pipe->empty)) != NULL;)
    chunk_free (chunk);
  g_async_queue_unlock (pipe->empty);
  g_async_queue_unref (pipe->empty);
  g_async_queue_unref (pipe->filled);
  g_object_unref (pipe->stream);
  g_clear_object (&pipe->cancellable);
  g_free (pipe->path);
  g_free (pipe);
}
