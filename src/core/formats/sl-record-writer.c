/* sl-record-writer.c
 *
 * Frames each payload the way MindSpore's SummaryRecord and TensorBoard's
 * EventFileWriter do:
 *
 *   uint64 length (LE) | uint32 masked_crc32c(length) | payload | uint32 masked_crc32c(payload)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-crc32c.h"
#include "sl-record-writer.h"

struct _SlRecordWriter
{
  GObject        parent_instance;
  GOutputStream *stream;
  guint64        n_records;
  guint64        offset;
};

G_DEFINE_FINAL_TYPE (SlRecordWriter, sl_record_writer, G_TYPE_OBJECT)

static void
sl_record_writer_finalize (GObject *object)
{
  SlRecordWriter *self = (SlRecordWriter *)object;

  g_clear_object (&self->stream);

  G_OBJECT_CLASS (sl_record_writer_parent_class)->finalize (object);
}

static void
sl_record_writer_class_init (SlRecordWriterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_record_writer_finalize;
}

static void
sl_record_writer_init (SlRecordWriter *self)
{
}

static void
put_le32 (guint8  *p,
          guint32  value)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (value >> (8 * i)) & 0xff;
}

static void
encode_header (guint8  header[SL_RECORD_HEADER_SIZE],
               guint64 len)
{
  for (guint i = 0; i < 8; i++)
    header[i] = (len >> (8 * i)) & 0xff;
  put_le32 (header + 8, sl_crc32c_mask (sl_crc32c (header, 8)));
}

/**
 * sl_record_writer_new:
 * @stream: where the records go; the writer does not close it
 *
 * Returns: (transfer full): a new writer
 */
SlRecordWriter *
sl_record_writer_new (GOutputStream *stream)
{
  SlRecordWriter *self;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), NULL);

  self = g_object_new (SL_TYPE_RECORD_WRITER, NULL);
  self->stream = g_object_ref (stream);

  return self;
}

GOutputStream *
sl_record_writer_get_stream (SlRecordWriter *self)
{
  g_return_val_if_fail (SL_IS_RECORD_WRITER (self), NULL);
  return self->stream;
}

guint64
sl_record_writer_get_n_records (SlRecordWriter *self)
{
  g_return_val_if_fail (SL_IS_RECORD_WRITER (self), 0);
  return self->n_records;
}

/**
 * sl_record_writer_get_offset:
 *
 * Returns: how many bytes this writer has written, which is where the
 *   next record will start when the stream started empty
 */
guint64
sl_record_writer_get_offset (SlRecordWriter *self)
{
  g_return_val_if_fail (SL_IS_RECORD_WRITER (self), 0);
  return self->offset;
}

gboolean
sl_record_writer_write (SlRecordWriter  *self,
                        gconstpointer    payload,
                        gsize            len,
                        GCancellable    *cancellable,
                        GError         **error)
{
  guint8 header[SL_RECORD_HEADER_SIZE];
  guint8 footer[SL_RECORD_FOOTER_SIZE];

  g_return_val_if_fail (SL_IS_RECORD_WRITER (self), FALSE);
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);

  encode_header (header, len);
  put_le32 (footer, sl_crc32c_mask (sl_crc32c (payload, len)));

  if (!g_output_stream_write_all (self->stream, header, sizeof header, NULL, cancellable, error) ||
      (len > 0 && !g_output_stream_write_all (self->stream, payload, len, NULL, cancellable, error)) ||
      !g_output_stream_write_all (self->stream, footer, sizeof footer, NULL, cancellable, error))
    return FALSE;

  self->n_records++;
  self->offset += SL_RECORD_HEADER_SIZE + len + SL_RECORD_FOOTER_SIZE;

  return TRUE;
}

/**
 * sl_record_frame:
 *
 * Frames one payload in memory, for callers that assemble a file
 * themselves.
 *
 * Returns: (transfer full): header, payload and footer
 */
GBytes *
sl_record_frame (gconstpointer payload,
                 gsize         len)
{
  guint8 *data;

  g_return_val_if_fail (payload != NULL || len == 0, NULL);
  g_return_val_if_fail (len <= G_MAXSIZE - SL_RECORD_HEADER_SIZE - SL_RECORD_FOOTER_SIZE, NULL);

  data = g_malloc (SL_RECORD_HEADER_SIZE + len + SL_RECORD_FOOTER_SIZE);
  encode_header (data, len);
  if (len > 0)
    memcpy (data + SL_RECORD_HEADER_SIZE, payload, len);
  put_le32 (data + SL_RECORD_HEADER_SIZE + len, sl_crc32c_mask (sl_crc32c (payload, len)));

  return g_bytes_new_take (data, SL_RECORD_HEADER_SIZE + len + SL_RECORD_FOOTER_SIZE);
}
