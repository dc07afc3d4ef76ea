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
