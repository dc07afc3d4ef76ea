/* sl-ssh-session-sftp.c: the SFTP subsystem and file operations
 *
 * SFTP is started on first use and lives as long as the connection:
 * looking at files, listing folders and reading parts of files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"
#include "sl-ssh-session-private.h"

void
_sl_ssh_session_set_sftp_error (GError       **error,
                                SlSshSession  *self,
                                const char    *what,
                                const char    *path)
{
  int code = self->sftp != NULL ? sftp_get_error (self->sftp) : SSH_FX_FAILURE;

  switch (code)
    {
    case SSH_FX_NO_SUCH_FILE:
    case SSH_FX_NO_SUCH_PATH:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: %s does not exist on the server"), what, path);
      break;
    case SSH_FX_PERMISSION_DENIED:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, _("%s: permission denied for %s"), what, path);
      break;
    case SSH_FX_FILE_ALREADY_EXISTS:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s: %s already exists"), what, path);
      break;
    default:
      {
        g_autofree char *full = g_strdup_printf ("%s (%s)", what, path);

        _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_SFTP, full);
      }
    }
}

gboolean
_sl_ssh_session_ensure_sftp (SlSshSession  *self,
                             GTask         *task,
                             GCancellable  *cancellable,
                             GError       **error)
{
  if (!_sl_ssh_session_ensure_connected (self, task, cancellable, error))
    return FALSE;

  if (self->sftp != NULL)
    return TRUE;

  self->sftp = sftp_new (self->ssh);
  if (self->sftp == NULL)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_SFTP, _("The server does not offer SFTP"));
      return FALSE;
    }

  if (sftp_init (self->sftp) != SSH_OK)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_SFTP, _("The server does not offer SFTP"));
      g_clear_pointer (&self->sftp, sftp_free);
      return FALSE;
    }

  return TRUE;
}

static GFileInfo *
file_info_from_attributes (sftp_attributes attributes,
                           const char     *name)
{
  GFileInfo *info = g_file_info_new ();
  GFileType type;

  switch (attributes->type)
    {
    case SSH_FILEXFER_TYPE_REGULAR:   type = G_FILE_TYPE_REGULAR; break;
    case SSH_FILEXFER_TYPE_DIRECTORY: type = G_FILE_TYPE_DIRECTORY; break;
    case SSH_FILEXFER_TYPE_SYMLINK:   type = G_FILE_TYPE_SYMBOLIC_LINK; break;
    case SSH_FILEXFER_TYPE_SPECIAL:   type = G_FILE_TYPE_SPECIAL; break;
    default:                          type = G_FILE_TYPE_UNKNOWN; break;
    }

  g_file_info_set_name (info, name);
  g_file_info_set_display_name (info, name);
  g_file_info_set_file_type (info, type);
  g_file_info_set_size (info, (goffset)attributes->size);
  g_file_info_set_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED, attributes->mtime64 != 0 ? attributes->mtime64 : attributes->mtime);
  g_file_info_set_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE, attributes->permissions);
  return info;
}



void
_sl_ssh_file_data_free (gpointer data)
{
  SlSshFileData *file = data;

  g_free (file->path);
  g_clear_object (&file->local);
  g_free (file);
}

static void
stat_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  sftp_attributes attributes;
  g_autofree char *name = NULL;

  if (!_sl_ssh_session_ensure_sftp (self, task, cancellable, &error))
    {
      _sl_ssh_op_return_error (task, error);
      return;
    }

  attributes = sftp_stat (self->sftp, file->path);
  if (attributes == NULL)
    {
      _sl_ssh_session_set_sftp_error (&error, self, _("Could not look at a file"), file->path);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  name = g_path_get_basename (file->path);
  _sl_ssh_op_return_pointer (task, file_info_from_attributes (attributes, name), g_object_unref);
  sftp_attributes_free (attributes);
}

static void
list_dir_op (SlSshSession *self,
             GTask        *task,
             gpointer      data,
             GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  sftp_attributes attributes;
  sftp_dir dir;

  if (!_sl_ssh_session_ensure_sftp (self, task, cancellable, &error))
    {
      _sl_ssh_op_return_error (task, error);
      return;
    }

  dir = sftp_opendir (self->sftp, file->path);
  if (dir == NULL)
    {
      _sl_ssh_session_set_sftp_error (&error, self, _("Could not list a folder"), file->path);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  infos = g_ptr_array_new_with_free_func (g_object_unref);
  while ((attributes = sftp_readdir (self->sftp, dir)) != NULL)
    {
      g_autoptr(GError) name_error = NULL;
      const char *name = attributes->name;

      if (g_strcmp0 (name, ".") == 0 || g_strcmp0 (name, "..") == 0)
        ;
      else if (!sl_shell_check_name (name, (gsize)-1, &name_error))
        g_warning ("Skipped an entry of %s: %s", file->path, name_error->message);
      else
        g_ptr_array_add (infos, file_info_from_attributes (attributes, name));

      sftp_attributes_free (attributes);

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        break;
    }

  if (error == NULL && !sftp_dir_eof (dir))
    _sl_ssh_session_set_sftp_error (&error, self, _("Could not list a folder"), file->path);
  sftp_closedir (dir);

  if (error != NULL)
    _sl_ssh_op_return_error (task, error);
  else
    _sl_ssh_op_return_pointer (task, g_steal_pointer (&infos), (GDestroyNotify)g_ptr_array_unref);
}

static void
read_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autofree char *buf = g_malloc (READ_CHUNK);
  sftp_file remote;

  if (!_sl_ssh_session_ensure_sftp (self, task, cancellable, &error))
    {
      _sl_ssh_op_return_error (task, error);
      return;
    }

  remote = sftp_open (self->sftp, file->path, O_RDONLY, 0);
  if (remote == NULL)
    {
      _sl_ssh_session_set_sftp_error (&error, self, _("Could not open a file"), file->path);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  sftp_seek64 (remote, file->offset);
  while (bytes->len < file->length)
    {
      ssize_t got = sftp_read (remote, buf, MIN ((guint64)READ_CHUNK, file->length - bytes->len));

      if (got < 0)
        {
          _sl_ssh_session_set_sftp_error (&error, self, _("Could not read a file"), file->path);
          break;
        }
      if (got == 0)
        break;
      g_byte_array_append (bytes, (const guint8 *)buf, got);
    }
  sftp_close (remote);

  if (error != NULL)
    {
      if (!ssh_is_connected (self->ssh))
        _sl_ssh_session_close (self);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  _sl_ssh_op_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&bytes)), (GDestroyNotify)g_bytes_unref);
}

SlSshFileData *
_sl_ssh_file_data_new (const char *path,
                       GFile      *local)
{
  SlSshFileData *file = g_new0 (SlSshFileData, 1);

  file->path = g_strdup (path);
  file->local = local != NULL ? g_object_ref (local) : NULL;
  return file;
}

/**
 * sl_ssh_session_stat_async:
 * @path: a path on the server (SFTP paths: "~" is not expanded, relative
 *   paths start in the home folder)
 */
void
sl_ssh_session_stat_async (SlSshSession        *self,
                           const char          *path,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (path != NULL);

  _sl_ssh_session_queue (self, sl_ssh_session_stat_async, stat_op,
                         _sl_ssh_file_data_new (path, NULL), _sl_ssh_file_data_free,
                         cancellable, callback, user_data);
}

/**
 * sl_ssh_session_stat_finish:
 *
 * Returns: (transfer full): name, type, size, modification time and
 *   unix mode
 */
GFileInfo *
sl_ssh_session_stat_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GFileInfo *
sl_ssh_session_stat (SlSshSession  *self,
                     const char    *path,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_stat_async (self, path, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_stat_finish (self, result, error);
}

/**
 * sl_ssh_session_list_dir_async:
 *
 * Lists a folder on the server. "." and ".." are left out; a name that
 * could leave the folder ("/" in it, a NUL byte) is left out with a
 * warning in the log.
 */
void
sl_ssh_session_list_dir_async (SlSshSession        *self,
                               const char          *path,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (path != NULL);

  _sl_ssh_session_queue (self, sl_ssh_session_list_dir_async, list_dir_op,
                         _sl_ssh_file_data_new (path, NULL), _sl_ssh_file_data_free,
                         cancellable, callback, user_data);
}

/**
 * sl_ssh_session_list_dir_finish:
 *
 * Returns: (transfer full) (element-type GFileInfo): the entries
 */
GPtrArray *
sl_ssh_session_list_dir_finish (SlSshSession  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GPtrArray *
sl_ssh_session_list_dir (SlSshSession  *self,
                         const char    *path,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_list_dir_async (self, path, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_list_dir_finish (self, result, error);
}

/**
 * sl_ssh_session_read_async:
 * @offset: where to start reading
 * @length: the most bytes to read
 *
 * Reads part of a remote file into memory: fewer bytes than @length at
 * the end of the file.
 */
void
sl_ssh_session_read_async (SlSshSession        *self,
                           const char          *remote_path,
                           guint64              offset,
                           guint64              length,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  SlSshFileData *file;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);

  file = _sl_ssh_file_data_new (remote_path, NULL);
  file->offset = offset;
  file->length = length;
  _sl_ssh_session_queue (self, sl_ssh_session_read_async, read_op, file, _sl_ssh_file_data_free,
                         cancellable, callback, user_data);
}

/**
 * sl_ssh_session_read_finish:
 *
 * Returns: (transfer full): the bytes read
 */
GBytes *
sl_ssh_session_read_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GBytes *
sl_ssh_session_read (SlSshSession  *self,
                     const char    *remote_path,
                     guint64        offset,
                     guint64        length,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_read_async (self, remote_path, offset, length, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_read_finish (self, result, error);
}
