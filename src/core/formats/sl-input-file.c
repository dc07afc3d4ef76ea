/* sl-input-file.c
 *
 * The check is a stat of the path (following links, as the open does)
 * before the open: a stat never blocks, while opening a FIFO does until a
 * writer comes. A path swapped for a FIFO between the two is not guarded
 * against; the file's owner can make the reader wait, nobody else can.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sl-input-file.h"

static const char *
describe_mode (guint mode)
{
#ifdef S_ISFIFO
  if (S_ISFIFO (mode))
    return _("a FIFO");
#endif
#ifdef S_ISSOCK
  if (S_ISSOCK (mode))
    return _("a socket");
#endif
#ifdef S_ISCHR
  if (S_ISCHR (mode))
    return _("a character device");
#endif
#ifdef S_ISBLK
  if (S_ISBLK (mode))
    return _("a block device");
#endif
  if (S_ISDIR (mode))
    return _("a folder");
  return _("a special file");
}

/**
 * sl_input_file_check:
 *
 * Returns: %FALSE with @error set when @path exists and is not a regular
 *   file (or a link to one); %TRUE otherwise, so that a missing or
 *   unreadable file gets the open's own error
 */
gboolean
sl_input_file_check (const char  *path,
                     GError     **error)
{
  GStatBuf buf;

  g_return_val_if_fail (path != NULL, FALSE);

  if (g_stat (path, &buf) != 0 || S_ISREG (buf.st_mode))
    return TRUE;

  /* Translators: the second %s is "a FIFO", "a socket", "a folder", … */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is not a regular file (%s)"),
               path, describe_mode (buf.st_mode));
  return FALSE;
}

/* A file without a local path (a URI) is asked for its type through GIO,
 * which cannot tell a FIFO from a device. */
static gboolean
check_file (GFile         *file,
            GCancellable  *cancellable,
            GError       **error)
{
  const char *path = g_file_peek_path (file);
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *name = NULL;
  GFileType type;

  if (path != NULL)
    return sl_input_file_check (path, error);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (info == NULL)
    return TRUE;
  type = g_file_info_get_file_type (info);
  if (type == G_FILE_TYPE_REGULAR || type == G_FILE_TYPE_UNKNOWN)
    return TRUE;

  name = g_file_get_parse_name (file);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is not a regular file (%s)"),
               name, type == G_FILE_TYPE_DIRECTORY ? _("a folder") : _("a special file"));
  return FALSE;
}

/**
 * sl_input_file_map:
 *
 * g_mapped_file_new() (read-only) of a regular file.
 *
 * Returns: (transfer full) (nullable): the mapping
 */
GMappedFile *
sl_input_file_map (const char  *path,
                   GError     **error)
{
  if (!sl_input_file_check (path, error))
    return NULL;
  return g_mapped_file_new (path, FALSE, error);
}

/**
 * sl_input_file_get_contents:
 *
 * g_file_get_contents() of a regular file.
 */
gboolean
sl_input_file_get_contents (const char  *path,
                            char       **contents,
                            gsize       *length,
                            GError     **error)
{
  if (!sl_input_file_check (path, error))
    return FALSE;
  return g_file_get_contents (path, contents, length, error);
}

/**
 * sl_input_file_read:
 *
 * g_file_read() of a regular file.
 *
 * Returns: (transfer full) (nullable): the stream
 */
GFileInputStream *
sl_input_file_read (GFile         *file,
                    GCancellable  *cancellable,
                    GError       **error)
{
  if (!check_file (file, cancellable, error))
    return NULL;
  return g_file_read (file, cancellable, error);
}

/**
 * sl_input_file_load_contents:
 *
 * g_file_load_contents() of a regular file.
 */
gboolean
sl_input_file_load_contents (GFile         *file,
                             GCancellable  *cancellable,
                             char         **contents,
                             gsize         *length,
                             GError       **error)
{
  if (!check_file (file, cancellable, error))
    return FALSE;
  return g_file_load_contents (file, cancellable, contents, length, NULL, error);
}
