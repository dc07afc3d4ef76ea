/* sl-ssh-session-transfer.c: whole-file downloads and uploads
 *
 * Downloads keep several reads in flight; both directions write under a
 * temporary name and rename, so nobody sees half a file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>

#include "sl-ssh-session-private.h"

#define READS_IN_FLIGHT 32

typedef struct {
  guint32 id;
  guint64 offset;
  guint32 length;
} ReadRequest;

/* Several read requests stay in flight so a download is not limited to
 * one round trip per chunk. */
static gboolean
download_to_stream (SlSshSession   *self,
                    sftp_file       remote,
                    const char     *path,
                    guint64         start_offset,
                    GOutputStream  *out,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autofree char *buf = g_malloc (READ_CHUNK);
  ReadRequest requests[READS_IN_FLIGHT];
  guint head = 0, n_pending = 0;
  guint64 next_offset = start_offset;
  guint64 size_at_open = G_MAXUINT64;
  gboolean eof = FALSE;
  gboolean ok = FALSE;
  sftp_attributes attributes;

  /* Reads are only queued up to the size the file has now (and one past
   * it, to see the end or growth): a small file costs one round trip. */
  attributes = sftp_fstat (remote);
  if (attributes != NULL)
    {
      size_at_open = attributes->size;
      sftp_attributes_free (attributes);
    }

  for (;;)
    {
      ReadRequest request;
      int n;

      while (!eof && n_pending < READS_IN_FLIGHT && (next_offset < size_at_open || n_pending == 0))
        {
          ReadRequest *slot = &requests[(head + n_pending) % READS_IN_FLIGHT];
          int id;

          sftp_seek64 (remote, next_offset);
          id = sftp_async_read_begin (remote, READ_CHUNK);
          if (id < 0)
            {
              _sl_ssh_session_set_sftp_error (error, self, _("Could not read a file"), path);
              goto out;
            }
          slot->id = (guint32)id;
          slot->offset = next_offset;
          slot->length = READ_CHUNK;
          next_offset += READ_CHUNK;
          n_pending++;
        }

      if (n_pending == 0)
        break;

      request = requests[head];
      head = (head + 1) % READS_IN_FLIGHT;
      n_pending--;

      /* libssh answers every read with 0 once it saw the end, without
       * taking the reply off its queue; the replies still in flight
       * must be collected, or the queue grows with every file. */
      remote->eof = 0;
      n = sftp_async_read (remote, buf, request.length, request.id);
      if (n < 0)
        {
          _sl_ssh_session_set_sftp_error (error, self, _("Could not read a file"), path);
          goto out;
        }

      if (eof || n == 0)
        {
          /* Replies past the end still have to be collected. */
          eof = TRUE;
          continue;
        }

      if (!g_output_stream_write_all (out, buf, n, NULL, cancellable, error))
        goto out;

      if ((guint32)n < request.length)
        {
          /* A short read before the end: fetch the rest of this chunk
           * synchronously so the file stays in order. */
          guint64 offset = request.offset + n;
          guint32 remaining = request.length - n;

          sftp_seek64 (remote, offset);
          while (remaining > 0)
            {
              ssize_t got = sftp_read (remote, buf, remaining);

              if (got < 0)
                {
                  _sl_ssh_session_set_sftp_error (error, self, _("Could not read a file"), path);
                  goto out;
                }
              if (got == 0)
                {
                  eof = TRUE;
                  break;
                }
              if (!g_output_stream_write_all (out, buf, got, NULL, cancellable, error))
                goto out;
              remaining -= got;
            }
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  ok = TRUE;

out:
  /* Collect what is still in flight so libssh frees the replies. */
  while (n_pending > 0)
    {
      remote->eof = 0;
      sftp_async_read (remote, buf, requests[head].length, requests[head].id);
      head = (head + 1) % READS_IN_FLIGHT;
      n_pending--;
    }
  return ok;
}

static GFile *
dup_partial_file (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *partial = g_strdup_printf (".%s.sl-part", basename);
  g_autoptr(GFile) parent = g_file_get_parent (file);

  return g_file_get_child (parent, partial);
}

static void
download_op (SlSshSession *self,
             GTask        *task,
             gpointer      data,
             GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  g_autoptr(GFile) partial = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  sftp_file remote;
  gboolean ok;

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

  /* Written beside the destination and renamed when complete, so a
   * broken transfer never leaves a truncated file under the real name. */
  partial = dup_partial_file (file->local);
  out = g_file_replace (partial, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, &error);
  ok = out != NULL &&
       download_to_stream (self, remote, file->path, 0, G_OUTPUT_STREAM (out), cancellable, &error) &&
       g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, &error) &&
       g_file_move (partial, file->local, G_FILE_COPY_OVERWRITE, cancellable, NULL, NULL, &error);
  sftp_close (remote);

  if (!ok)
    {
      if (out != NULL)
        g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL);
      g_file_delete (partial, NULL, NULL);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  _sl_ssh_op_return_boolean (task, TRUE);
}

static void
upload_op (SlSshSession *self,
           GTask        *task,
           gpointer      data,
           GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *dir = g_path_get_dirname (file->path);
  g_autofree char *base = g_path_get_basename (file->path);
  g_autofree char *partial_name = g_strdup_printf (".%s.sl-part-%08x", base, g_random_int ());
  g_autofree char *partial = g_build_path ("/", dir, partial_name, NULL);
  g_autofree char *buf = g_malloc (READ_CHUNK);
  sftp_file remote;
  guint32 mode = 0644;
  gboolean ok = FALSE;

  in = g_file_read (file->local, cancellable, &error);
  if (in == NULL || !_sl_ssh_session_ensure_sftp (self, task, cancellable, &error))
    {
      _sl_ssh_op_return_error (task, error);
      return;
    }

  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_UNIX_MODE "," G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                         cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_UNIX_MODE))
    mode = g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 0777;

  remote = sftp_open (self->sftp, partial, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (remote == NULL)
    {
      _sl_ssh_session_set_sftp_error (&error, self, _("Could not create a file"), partial);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, READ_CHUNK, cancellable, &error);
      gssize written = 0;

      if (n < 0)
        break;
      if (n == 0)
        {
          ok = TRUE;
          break;
        }
      while (written < n)
        {
          ssize_t w = sftp_write (remote, buf + written, n - written);

          if (w <= 0)
            {
              _sl_ssh_session_set_sftp_error (&error, self, _("Could not write a file"), partial);
              break;
            }
          written += w;
        }
      if (error != NULL)
        break;
    }

  if (sftp_close (remote) != SSH_OK && ok)
    {
      _sl_ssh_session_set_sftp_error (&error, self, _("Could not write a file"), partial);
      ok = FALSE;
    }

  /* The modification time is kept so the next upload can tell the file
   * is unchanged from its size and time alone. */
  if (ok && info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_TIME_MODIFIED))
    {
      struct timeval times[2] = { { 0, 0 }, { 0, 0 } };

      times[0].tv_sec = times[1].tv_sec = (time_t)g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
      sftp_utimes (self->sftp, partial, times);
    }

  if (ok && sftp_rename (self->sftp, partial, file->path) != SSH_OK)
    {
      /* Plain SFTP renames refuse to replace an existing file. */
      sftp_unlink (self->sftp, file->path);
      if (sftp_rename (self->sftp, partial, file->path) != SSH_OK)
        {
          _sl_ssh_session_set_sftp_error (&error, self, _("Could not rename the uploaded file"), file->path);
          ok = FALSE;
        }
    }

  if (!ok)
    {
      sftp_unlink (self->sftp, partial);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  _sl_ssh_op_return_boolean (task, TRUE);
}

/* Appends the bytes of a remote file from file->offset on to the local
 * file, cut to that length first: resumes a download, or fetches what a
 * growing file gained. */
static void
download_range_op (SlSshSession *self,
                   GTask        *task,
                   gpointer      data,
                   GCancellable *cancellable)
{
  SlSshFileData *file = data;
  GError *error = NULL;
  g_autoptr(GFileIOStream) io = NULL;
  sftp_file remote;
  gboolean ok;

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

  io = g_file_open_readwrite (file->local, cancellable, NULL);
  if (io == NULL && file->offset == 0)
    io = g_file_create_readwrite (file->local, G_FILE_CREATE_NONE, cancellable, &error);
  else if (io == NULL)
    io = g_file_open_readwrite (file->local, cancellable, &error);

  ok = io != NULL &&
       g_seekable_truncate (G_SEEKABLE (io), (goffset)file->offset, cancellable, &error) &&
       g_seekable_seek (G_SEEKABLE (io), (goffset)file->offset, G_SEEK_SET, cancellable, &error) &&
       download_to_stream (self, remote, file->path, file->offset,
                           g_io_stream_get_output_stream (G_IO_STREAM (io)), cancellable, &error) &&
       g_io_stream_close (G_IO_STREAM (io), cancellable, &error);
  sftp_close (remote);

  if (!ok)
    {
      if (io != NULL)
        g_io_stream_close (G_IO_STREAM (io), NULL, NULL);
      if (!ssh_is_connected (self->ssh))
        _sl_ssh_session_close (self);
      _sl_ssh_op_return_error (task, error);
      return;
    }

  _sl_ssh_op_return_boolean (task, TRUE);
}

/**
 * sl_ssh_session_download_async:
 *
 * Copies a file from the server, with several reads in flight. The local
 * file appears under its name only once complete.
 */
void
sl_ssh_session_download_async (SlSshSession        *self,
                               const char          *remote_path,
                               GFile               *local_file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);
  g_return_if_fail (G_IS_FILE (local_file));

  _sl_ssh_session_queue (self, sl_ssh_session_download_async, download_op,
                         _sl_ssh_file_data_new (remote_path, local_file), _sl_ssh_file_data_free,
                         cancellable, callback, user_data);
}

gboolean
sl_ssh_session_download_finish (SlSshSession  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_download (SlSshSession  *self,
                         const char    *remote_path,
                         GFile         *local_file,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_download_async (self, remote_path, local_file, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_download_finish (self, result, error);
}

/**
 * sl_ssh_session_upload_async:
 *
 * Copies a file to the server: written under a temporary name in the
 * same folder, then renamed over @remote_path, so nobody on the server
 * sees a half-written file.
 */
void
sl_ssh_session_upload_async (SlSshSession        *self,
                             GFile               *local_file,
                             const char          *remote_path,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (G_IS_FILE (local_file));
  g_return_if_fail (remote_path != NULL);

  _sl_ssh_session_queue (self, sl_ssh_session_upload_async, upload_op,
                         _sl_ssh_file_data_new (remote_path, local_file), _sl_ssh_file_data_free,
                         cancellable, callback, user_data);
}

gboolean
sl_ssh_session_upload_finish (SlSshSession  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_upload (SlSshSession  *self,
                       GFile         *local_file,
                       const char    *remote_path,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_upload_async (self, local_file, remote_path, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_upload_finish (self, result, error);
}

/**
 * sl_ssh_session_download_range_async:
 * @offset: where to start in the remote file; the local file is cut to
 *   this length first (created when @offset is 0 and it is missing)
 *
 * Appends the remote file's bytes from @offset to its end to @local_file,
 * with several reads in flight: resumes a broken download, or fetches
 * what a growing file gained since the last time.
 */
void
sl_ssh_session_download_range_async (SlSshSession        *self,
                                     const char          *remote_path,
                                     guint64              offset,
                                     GFile               *local_file,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  SlSshFileData *file;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);
  g_return_if_fail (G_IS_FILE (local_file));

  file = _sl_ssh_file_data_new (remote_path, local_file);
  file->offset = offset;
  _sl_ssh_session_queue (self, sl_ssh_session_download_range_async, download_range_op, file,
                         _sl_ssh_file_data_free, cancellable, callback, user_data);
}

gboolean
sl_ssh_session_download_range_finish (SlSshSession  *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_download_range (SlSshSession  *self,
                               const char    *remote_path,
                               guint64        offset,
                               GFile         *local_file,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_download_range_async (self, remote_path, offset, local_file, cancellable,
                                       _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_download_range_finish (self, result, error);
}
