/* sl-trace-text-reader.c: event texts of a trace, read from its sources
 *
 * A plain source is read by seeking; a gzip one is inflated forward from
 * where the last text ended, so texts asked for in offset order cost one
 * pass over the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-trace-text-reader.h"

struct _SlTraceTextReader
{
  SlTrace      *trace;
  guint         source;
  GInputStream *stream;
  guint64       position;
  gboolean      seekable;     /* plain file: seek; gzip: inflate forward */
};

SlTraceTextReader *
sl_trace_text_reader_new (SlTrace *trace)
{
  SlTraceTextReader *reader;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  reader = g_new0 (SlTraceTextReader, 1);
  reader->trace = g_object_ref (trace);
  reader->source = G_MAXUINT;
  return reader;
}

void
sl_trace_text_reader_free (SlTraceTextReader *reader)
{
  if (reader == NULL)
    return;
  g_clear_object (&reader->stream);
  g_clear_object (&reader->trace);
  g_free (reader);
}

static gboolean
text_reader_open (SlTraceTextReader  *reader,
                  guint               source,
                  GError            **error)
{
  const char *path = sl_trace_get_source (reader->trace, source);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  guchar magic[2] = { 0, 0 };
  gsize n_read = 0;

  g_clear_object (&reader->stream);
  reader->source = G_MAXUINT;
  reader->position = 0;
  reader->seekable = FALSE;

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The trace has no source file for this event"));
      return FALSE;
    }

  file = g_file_new_for_path (path);
  if (!(stream = g_file_read (file, NULL, error)))
    return FALSE;
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), magic, 2, &n_read, NULL, error))
    return FALSE;

  if (n_read == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, NULL, error))
        return FALSE;
      reader->stream = g_converter_input_stream_new (G_INPUT_STREAM (stream), G_CONVERTER (decompressor));
    }
  else
    {
      if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, NULL, error))
        return FALSE;
      reader->stream = G_INPUT_STREAM (g_steal_pointer (&stream));
      reader->seekable = TRUE;
    }
  reader->source = source;
  return TRUE;
}

char *
sl_trace_text_reader_read (SlTraceTextReader  *reader,
                           guint64             offset,
                           guint32             length,
                           GError            **error)
{
  guint source = SL_TRACE_ARGS_SOURCE (offset);
  guint64 byte = SL_TRACE_ARGS_BYTE (offset);
  g_autofree char *text = NULL;
  gsize n_read = 0;

  g_return_val_if_fail (reader != NULL, NULL);

  if (offset == SL_TRACE_NO_ARGS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This event has no text in the source file"));
      return NULL;
    }

  if (reader->source != source || (byte < reader->position && !reader->seekable))
    {
      if (!text_reader_open (reader, source, error))
        return NULL;
    }

  if (reader->seekable)
    {
      if (!g_seekable_seek (G_SEEKABLE (reader->stream), byte, G_SEEK_SET, NULL, error))
        return NULL;
    }
  else
    {
      /* read, not skip: a converter stream's skip would skip the
       * compressed bytes underneath */
      g_autofree char *scratch = g_malloc (64 * 1024);

      while (reader->position < byte)
        {
          gssize n = g_input_stream_read (reader->stream, scratch, MIN (byte - reader->position, 64 * 1024), NULL, error);

          if (n < 0)
            return NULL;
          if (n == 0)
            break;
          reader->position += n;
        }
    }
  reader->position = byte;

  text = g_malloc (length + 1);
  if (!g_input_stream_read_all (reader->stream, text, length, &n_read, NULL, error))
    return NULL;
  reader->position += n_read;
  if (n_read != length)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                   _("The source file is shorter than when it was read"));
      return NULL;
    }
  text[length] = '\0';
  return g_steal_pointer (&text);
}
