/* sl-zip-archive.c: central directory, stored and deflated entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <zlib.h>
#include <glib/gi18n-lib.h>

#include "sl-zip-archive.h"

#define EOCD_SIZE        22
#define EOCD_SIGNATURE   0x06054b50u
#define CENTRAL_SIZE     46
#define CENTRAL_SIGNATURE 0x02014b50u
#define LOCAL_SIZE       30
#define LOCAL_SIGNATURE  0x04034b50u
#define MAX_COMMENT      0xffff

typedef struct {
  char    *name;
  guint16  method;
  guint16  flags;
  guint32  compressed_size;
  guint32  size;
  guint32  local_offset;
} Entry;

struct _SlZipArchive
{
  GBytes       *bytes;
  const guint8 *data;
  gsize         length;
  GArray       *entries;   /* Entry */
};

static guint16
read_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static guint32
read_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static void
entry_clear (gpointer data)
{
  g_free (((Entry *) data)->name);
}

void
sl_zip_archive_free (SlZipArchive *self)
{
  if (self == NULL)
    return;
  g_bytes_unref (self->bytes);
  g_array_unref (self->entries);
  g_free (self);
}

static gboolean
fail (GError     **error,
      gsize        offset,
      const char  *reason)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("Damaged zip archive at offset %lu: %s"), (gulong) offset, reason);
  return FALSE;
}

/* The end of central directory record, searched backwards over the
 * longest comment a zip can have. */
static gboolean
find_eocd (SlZipArchive  *self,
           gsize         *at,
           GError       **error)
{
  gsize lowest;

  if (self->length < EOCD_SIZE)
    return fail (error, 0, _("too short to be a zip archive"));
  lowest = self->length > EOCD_SIZE + MAX_COMMENT ? self->length - EOCD_SIZE - MAX_COMMENT : 0;
  for (gsize i = self->length - EOCD_SIZE + 1; i-- > lowest;)
    if (read_u32 (self->data + i) == EOCD_SIGNATURE)
      {
        *at = i;
        return TRUE;
      }
  return fail (error, self->length, _("no end of central directory"));
}

static gboolean
read_central (SlZipArchive  *self,
              GError       **error)
{
  gsize eocd = 0, pos;
  guint n;
  guint32 cd_size, cd_offset;

  if (!find_eocd (self, &eocd, error))
    return FALSE;
  n = read_u16 (self->data + eocd + 10);
  cd_size = read_u32 (self->data + eocd + 12);
  cd_offset = read_u32 (self->data + eocd + 16);
  if (cd_offset == 0xffffffffu || n == 0xffff)
    return fail (error, eocd, _("zip64 archives are not read"));
  if ((guint64) cd_offset + cd_size > eocd)
    return fail (error, eocd, _("the central directory lies outside the archive"));

  pos = cd_offset;
  for (guint i = 0; i < n; i++)
    {
      const guint8 *p = self->data + pos;
      Entry entry = { 0 };
      guint16 name_len, extra_len, comment_len;

      if (pos + CENTRAL_SIZE > eocd || read_u32 (p) != CENTRAL_SIGNATURE)
        return fail (error, pos, _("not a central directory entry"));
      entry.flags = read_u16 (p + 8);
      entry.method = read_u16 (p + 10);
      entry.compressed_size = read_u32 (p + 20);
      entry.size = read_u32 (p + 24);
      name_len = read_u16 (p + 28);
      extra_len = read_u16 (p + 30);
      comment_len = read_u16 (p + 32);
      entry.local_offset = read_u32 (p + 42);
      if (pos + CENTRAL_SIZE + name_len + extra_len + comment_len > eocd)
        return fail (error, pos, _("an entry name runs past the central directory"));
      entry.name = g_strndup ((const char *) p + CENTRAL_SIZE, name_len);
      g_array_append_val (self->entries, entry);
      pos += CENTRAL_SIZE + name_len + extra_len + comment_len;
    }
  return TRUE;
}

SlZipArchive *
sl_zip_archive_new (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(SlZipArchive) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  self = g_new0 (SlZipArchive, 1);
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->length);
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  if (self->data == NULL)
    self->data = (const guint8 *) "";
  if (!read_central (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

guint
sl_zip_archive_get_n_entries (SlZipArchive *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->entries->len;
}

const char *
sl_zip_archive_get_name (SlZipArchive *self,
                         guint         index)
{
  g_return_val_if_fail (self != NULL && index < self->entries->len, NULL);
  return g_array_index (self->entries, Entry, index).name;
}

int
sl_zip_archive_find (SlZipArchive *self,
                     const char   *name)
{
  g_return_val_if_fail (self != NULL && name != NULL, -1);

  for (guint i = 0; i < self->entries->len && i < G_MAXINT; i++)
    if (g_str_equal (g_array_index (self->entries, Entry, i).name, name))
      return (int) i;
  return -1;
}

static GBytes *
inflate_entry (const guint8  *data,
               gsize          length,
               gsize          size,
               gsize          offset,
               GError       **error)
{
  g_autofree guint8 *out = g_malloc (MAX (size, 1));
  z_stream stream = { 0 };
  int status;

  if (inflateInit2 (&stream, -MAX_WBITS) != Z_OK)
    {
      fail (error, offset, _("cannot start inflating"));
      return NULL;
    }
  stream.next_in = (Bytef *) data;
  stream.avail_in = (uInt) length;
  stream.next_out = out;
  stream.avail_out = (uInt) size;
  status = inflate (&stream, Z_FINISH);
  inflateEnd (&stream);
  if (status != Z_STREAM_END || stream.total_out != size)
    {
      fail (error, offset, _("the deflated data is damaged or not of its stated size"));
      return NULL;
    }
  return g_bytes_new_take (g_steal_pointer (&out), size);
}

GBytes *
sl_zip_archive_read (SlZipArchive  *self,
                     guint          index,
                     gsize          max_size,
                     GError       **error)
{
  const Entry *entry;
  const guint8 *local;
  gsize start;

  g_return_val_if_fail (self != NULL && index < self->entries->len, NULL);

  entry = &g_array_index (self->entries, Entry, index);
  if ((entry->flags & 1) != 0)
    {
      fail (error, entry->local_offset, _("encrypted entries are not read"));
      return NULL;
    }
  if ((gsize) entry->local_offset + LOCAL_SIZE > self->length ||
      read_u32 (self->data + entry->local_offset) != LOCAL_SIGNATURE)
    {
      fail (error, entry->local_offset, _("not a local file header"));
      return NULL;
    }
  local = self->data + entry->local_offset;
  start = (gsize) entry->local_offset + LOCAL_SIZE + read_u16 (local + 26) + read_u16 (local + 28);
  if (start > self->length || self->length - start < entry->compressed_size)
    {
      fail (error, entry->local_offset, _("the entry's data runs past the end of the archive"));
      return NULL;
    }
  if (entry->size > max_size)
    {
      fail (error, entry->local_offset, _("the entry is larger than allowed"));
      return NULL;
    }
  if (entry->method == 0)
    {
      if (entry->compressed_size != entry->size)
        {
          fail (error, entry->local_offset, _("a stored entry's sizes disagree"));
          return NULL;
        }
      return g_bytes_new_from_bytes (self->bytes, start, entry->size);
    }
  if (entry->method == 8)
    return inflate_entry (self->data + start, entry->compressed_size, entry->size, start, error);
  fail (error, entry->local_offset, _("the compression method is not stored or deflate"));
  return NULL;
}
