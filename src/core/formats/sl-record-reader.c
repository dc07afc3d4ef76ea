/* sl-record-reader.c
 *
 * Reads records framed as
 *
 *   uint64 length (LE) | uint32 masked_crc32c(length) | payload | uint32 masked_crc32c(payload)
 *
 * through one large buffer, so a file of small records costs a read call
 * per few megabytes and no allocation per record. The payload handed out
 * points into that buffer and stays valid until the next call.
 *
 * A record whose payload checksum is wrong is skipped and counted. A
 * length whose checksum is wrong, or one above SL_RECORD_MAX_LENGTH,
 * leaves nothing to trust about where the next record starts, so the
 * reader stops there. A partial record at the end is not damage: the
 * writer may still be writing it, and the next read resumes at its start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-crc32c.h"
#include "sl-record-reader.h"
#include "sl-record-writer.h"

#define BUFFER_SIZE (4 * 1024 * 1024)

struct _SlRecordReader
{
  GObject       parent_instance;
  GInputStream *stream;
  char         *path;
  guint8       *buf;
  gsize         capacity;
  gsize         pos;           /* first unconsumed byte in buf */
  gsize         fill;          /* bytes of buf holding data */
  guint64       buf_offset;    /* file offset of buf[0] */
  guint64       record_offset; /* file offset of the last record returned */
  guint64       n_records;
  guint64       n_bad;
  gboolean      eof;
  gboolean      stopped;
  SlProblem    *problem;
};

G_DEFINE_FINAL_TYPE (SlRecordReader, sl_record_reader, G_TYPE_OBJECT)

static void
sl_record_reader_finalize (GObject *object)
{
  SlRecordReader *self = (SlRecordReader *)object;

  g_clear_object (&self->stream);
  g_clear_object (&self->problem);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->buf, g_free);

  G_OBJECT_CLASS (sl_record_reader_parent_class)->finalize (object);
}

static void
sl_record_reader_class_init (SlRecordReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_record_reader_finalize;
}

static void
sl_record_reader_init (SlRecordReader *self)
{
}

/**
 * sl_record_reader_new:
 * @stream: positioned at @offset; the reader does not close it
 * @path: (nullable): the file name used in problems
 * @offset: the file offset of the stream's position
 *
 * Returns: (transfer full): a new reader
 */
SlRecordReader *
sl_record_reader_new (GInputStream *stream,
                      const char   *path,
                      guint64       offset)
{
  SlRecordReader *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  self = g_object_new (SL_TYPE_RECORD_READER, NULL);
  self->stream = g_object_ref (stream);
  self->path = g_strdup (path);
  self->buf_offset = offset;
  self->record_offset = offset;

  return self;
}

static guint64
get_le64 (const guint8 *p)
{
  guint64 value = 0;

  for (guint i = 0; i < 8; i++)
    value |= (guint64) p[i] << (8 * i);
  return value;
}

static guint32
get_le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* Makes at least @need bytes available from pos, unless the stream ends
 * first. Returns FALSE only on an I/O error. */
static gboolean
fill_buffer (SlRecordReader  *self,
             gsize            need,
             GCancellable    *cancellable,
             GError         **error)
{
  if (self->fill - self->pos >= need)
    return TRUE;

  if (self->pos > 0)
    {
      memmove (self->buf, self->buf + self->pos, self->fill - self->pos);
      self->buf_offset += self->pos;
      self->fill -= self->pos;
      self->pos = 0;
    }

  while (self->fill < need && !self->eof)
    {
      /* Grow only as data arrives, so a damaged length of hundreds of
       * megabytes at the end of a short file costs nothing. */
      if (self->fill == self->capacity)
        {
          self->capacity = MIN (need, MAX (self->capacity * 2, BUFFER_SIZE));
          self->capacity = MAX (self->capacity, BUFFER_SIZE);
          self->buf = g_realloc (self->buf, self->capacity);
        }

      gssize n = g_input_stream_read (self->stream, self->buf + self->fill,
                                      self->capacity - self->fill, cancellable, error);
      if (n < 0)
        return FALSE;
      if (n == 0)
        self->eof = TRUE;
      self->fill += n;
    }

  return TRUE;
}

static void
set_problem (SlRecordReader *self,
             SlSeverity      severity,
             guint64         offset,
             const char     *message)
{
  g_clear_object (&self->problem);
  self->problem = sl_problem_new (severity, _("Summary reader"), self->path, offset, message);
}

/**
 * sl_record_reader_next:
 * @payload: (out) (transfer none): the payload, valid until the next call
 * @len: (out): its length
 *
 * Returns: %SL_RECORD_STATUS_OK with a record; %SL_RECORD_STATUS_END at the
 *   end of the data, possibly before a partial record (see
 *   sl_record_reader_get_tail_bytes()); %SL_RECORD_STATUS_BAD_PAYLOAD when a
 *   record was skipped (see sl_record_reader_get_problem()), after which
 *   reading may go on; %SL_RECORD_STATUS_STOPPED when the framing cannot
 *   be trusted any more; %SL_RECORD_STATUS_ERROR with @error set.
 */
SlRecordStatus
sl_record_reader_next (SlRecordReader  *self,
                       const guint8   **payload,
                       gsize           *len,
                       GCancellable    *cancellable,
                       GError         **error)
{
  const guint8 *header;
  guint64 length;
  guint64 offset;
  gsize total;

  g_return_val_if_fail (SL_IS_RECORD_READER (self), SL_RECORD_STATUS_ERROR);
  g_return_val_if_fail (payload != NULL && len != NULL, SL_RECORD_STATUS_ERROR);

  *payload = NULL;
  *len = 0;

  if (self->stopped)
    return SL_RECORD_STATUS_STOPPED;

  if (!fill_buffer (self, SL_RECORD_HEADER_SIZE, cancellable, error))
    return SL_RECORD_STATUS_ERROR;
  if (self->fill - self->pos < SL_RECORD_HEADER_SIZE)
    return SL_RECORD_STATUS_END;

  offset = self->buf_offset + self->pos;
  header = self->buf + self->pos;
  length = get_le64 (header);

  if (sl_crc32c_unmask (get_le32 (header + 8)) != sl_crc32c (header, 8))
    {
      g_autofree char *message =
        g_strdup_printf (_("The checksum of the record length at byte %llu does not match: the rest of the file cannot be read."),
                         (unsigned long long) offset);
      set_problem (self, SL_SEVERITY_ERROR, offset, message);
      self->stopped = TRUE;
      self->n_bad++;
      return SL_RECORD_STATUS_STOPPED;
    }

  if (length > SL_RECORD_MAX_LENGTH)
    {
      g_autofree char *message =
        g_strdup_printf (_("The record at byte %llu claims %llu bytes, more than the 512 MiB limit: the rest of the file is not read."),
                         (unsigned long long) offset, (unsigned long long) length);
      set_problem (self, SL_SEVERITY_ERROR, offset, message);
      self->stopped = TRUE;
      self->n_bad++;
      return SL_RECORD_STATUS_STOPPED;
    }

  total = SL_RECORD_HEADER_SIZE + (gsize) length + SL_RECORD_FOOTER_SIZE;
  if (!fill_buffer (self, total, cancellable, error))
    return SL_RECORD_STATUS_ERROR;
  if (self->fill - self->pos < total)
    return SL_RECORD_STATUS_END;

  header = self->buf + self->pos;
  self->pos += total;
  self->record_offset = offset;

  if (sl_crc32c_unmask (get_le32 (header + SL_RECORD_HEADER_SIZE + length)) !=
      sl_crc32c (header + SL_RECORD_HEADER_SIZE, length))
    {
      g_autofree char *message =
        g_strdup_printf (_("The checksum of the record at byte %llu does not match: the record is skipped."),
                         (unsigned long long) offset);
      set_problem (self, SL_SEVERITY_WARNING, offset, message);
      self->n_bad++;
      return SL_RECORD_STATUS_BAD_PAYLOAD;
    }

  self->n_records++;
  *payload = header + SL_RECORD_HEADER_SIZE;
  *len = length;

  return SL_RECORD_STATUS_OK;
}

/**
 * sl_record_reader_get_offset:
 *
 * Returns: the file offset after the last whole record, where a later
 *   read resumes
 */
guint64
sl_record_reader_get_offset (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), 0);
  return self->buf_offset + self->pos;
}

/**
 * sl_record_reader_get_record_offset:
 *
 * Returns: the file offset of the last record returned or skipped
 */
guint64
sl_record_reader_get_record_offset (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), 0);
  return self->record_offset;
}

guint64
sl_record_reader_get_n_records (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), 0);
  return self->n_records;
}

guint64
sl_record_reader_get_n_bad (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), 0);
  return self->n_bad;
}

/**
 * sl_record_reader_get_tail_bytes:
 *
 * Returns: after %SL_RECORD_STATUS_END, how many bytes of a partial record
 *   follow the last whole one
 */
guint64
sl_record_reader_get_tail_bytes (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), 0);
  return self->fill - self->pos;
}

/**
 * sl_record_reader_get_problem:
 *
 * Returns: (transfer none) (nullable): the problem behind the last
 *   %SL_RECORD_STATUS_BAD_PAYLOAD or %SL_RECORD_STATUS_STOPPED
 */
SlProblem *
sl_record_reader_get_problem (SlRecordReader *self)
{
  g_return_val_if_fail (SL_IS_RECORD_READER (self), NULL);
  return self->problem;
}
