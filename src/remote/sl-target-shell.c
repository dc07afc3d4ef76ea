/* sl-target-shell.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-local-target.h"
#include "sl-shell-quote.h"
#include "sl-ssh-target.h"
#include "sl-target-shell.h"

#define FIRST_PAUSE_MS      250
#define LONGEST_PAUSE_MS    4000
#define MAX_FRESH_FAILURES  3

struct _SlTargetShell
{
  GObject                 parent_instance;

  SlSshSession           *session;      /* NULL for this computer */
  SlTargetShellStateFunc  state_func;
  gpointer                state_data;
  guint                   reconnect_limit;
  guint                   n_reconnects;
};

G_DEFINE_FINAL_TYPE (SlTargetShell, sl_target_shell, G_TYPE_OBJECT)

static void
sl_target_shell_finalize (GObject *object)
{
  SlTargetShell *self = (SlTargetShell *)object;

  g_clear_object (&self->session);

  G_OBJECT_CLASS (sl_target_shell_parent_class)->finalize (object);
}

static void
sl_target_shell_class_init (SlTargetShellClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_target_shell_finalize;
}

static void
sl_target_shell_init (SlTargetShell *self)
{
  self->reconnect_limit = SL_TARGET_SHELL_DEFAULT_RECONNECT_SECONDS;
}

/**
 * sl_target_shell_new_local:
 *
 * Returns: (transfer full): a shell on this computer
 */
SlTargetShell *
sl_target_shell_new_local (void)
{
  return g_object_new (SL_TYPE_TARGET_SHELL, NULL);
}

/**
 * sl_target_shell_new_ssh:
 *
 * Returns: (transfer full): a shell on the server @session reaches
 */
SlTargetShell *
sl_target_shell_new_ssh (SlSshSession *session)
{
  SlTargetShell *self;

  g_return_val_if_fail (SL_IS_SSH_SESSION (session), NULL);

  self = g_object_new (SL_TYPE_TARGET_SHELL, NULL);
  self->session = g_object_ref (session);
  return self;
}

/**
 * sl_target_shell_new_for_target:
 *
 * Returns: (transfer full): a shell on @target, with a new session for an
 *   SSH target
 */
SlTargetShell *
sl_target_shell_new_for_target (SlTarget *target)
{
  g_autoptr(SlSshSession) session = NULL;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);

  if (!SL_IS_SSH_TARGET (target))
    return sl_target_shell_new_local ();

  session = sl_ssh_target_create_session (SL_SSH_TARGET (target));
  return sl_target_shell_new_ssh (session);
}

gboolean
sl_target_shell_is_local (SlTargetShell *self)
{
  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), TRUE);
  return self->session == NULL;
}

/**
 * sl_target_shell_get_session:
 *
 * Returns: (transfer none) (nullable): the SSH session, %NULL on this
 *   computer
 */
SlSshSession *
sl_target_shell_get_session (SlTargetShell *self)
{
  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), NULL);
  return self->session;
}

/**
 * sl_target_shell_set_state_func:
 * @func: (nullable): told when the connection breaks and comes back
 */
void
sl_target_shell_set_state_func (SlTargetShell          *self,
                                SlTargetShellStateFunc  func,
                                gpointer                user_data)
{
  g_return_if_fail (SL_IS_TARGET_SHELL (self));

  self->state_func = func;
  self->state_data = user_data;
}

/**
 * sl_target_shell_set_reconnect_limit:
 * @seconds: how long to keep trying to reconnect before an operation
 *   fails; 0 never reconnects
 */
void
sl_target_shell_set_reconnect_limit (SlTargetShell *self,
                                     guint          seconds)
{
  g_return_if_fail (SL_IS_TARGET_SHELL (self));
  self->reconnect_limit = seconds;
}

/**
 * sl_target_shell_get_n_reconnects:
 *
 * Returns: how many times the connection was made again
 */
guint
sl_target_shell_get_n_reconnects (SlTargetShell *self)
{
  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), 0);
  return self->n_reconnects;
}

/* Reconnecting */

typedef gboolean (*ShellOp) (SlTargetShell  *self,
                             gpointer        data,
                             GCancellable   *cancellable,
                             GError        **error);

static gboolean
is_connection_error (const GError *error)
{
  if (error->domain != SL_SSH_ERROR)
    return FALSE;

  switch ((SlSshError)error->code)
    {
    case SL_SSH_ERROR_CONNECT:
    case SL_SSH_ERROR_TIMED_OUT:
    case SL_SSH_ERROR_PROTOCOL:
    case SL_SSH_ERROR_NOT_CONNECTED:
    case SL_SSH_ERROR_CHANNEL:
    case SL_SSH_ERROR_SFTP:
    case SL_SSH_ERROR_FAILED:
      return TRUE;
    case SL_SSH_ERROR_RESOLVE:
    case SL_SSH_ERROR_HOST_KEY_UNKNOWN:
    case SL_SSH_ERROR_HOST_KEY_CHANGED:
    case SL_SSH_ERROR_AUTH:
    default:
      return FALSE;
    }
}

static void
report_state (SlTargetShell      *self,
              SlTargetShellState  state,
              const char         *detail)
{
  if (self->state_func != NULL)
    self->state_func (state, detail, self->state_data);
}

static gboolean
pause_ms (guint         ms,
          GCancellable *cancellable)
{
  for (guint waited = 0; waited < ms; waited += 50)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      g_usleep (50 * G_TIME_SPAN_MILLISECOND);
    }
  return !g_cancellable_is_cancelled (cancellable);
}

/* Runs @op; when the connection breaks, reconnects with a growing pause
 * and runs it again, until the reconnect limit. An error that comes back
 * right after fresh connections several times is the server's answer,
 * not a broken connection, and is passed on. */
static gboolean
with_reconnect (SlTargetShell  *self,
                ShellOp         op,
                gpointer        data,
                GCancellable   *cancellable,
                GError        **error)
{
  gint64 deadline = 0;
  guint pause = FIRST_PAUSE_MS;
  guint fresh_failures = 0;

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(GError) connect_error = NULL;

      if (op (self, data, cancellable, &local_error))
        return TRUE;

      if (self->session == NULL || !is_connection_error (local_error) ||
          g_cancellable_is_cancelled (cancellable) || self->reconnect_limit == 0 ||
          ++fresh_failures > MAX_FRESH_FAILURES)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }

      if (deadline == 0)
        deadline = g_get_monotonic_time () + (gint64)self->reconnect_limit * G_USEC_PER_SEC;

      g_debug ("Connection lost (%s), reconnecting", local_error->message);
      report_state (self, SL_TARGET_SHELL_RECONNECTING, local_error->message);

      /* Each pass waits, then tries one connection; the operation runs
       * again only once connected. */
      for (;;)
        {
          sl_ssh_session_disconnect (self->session);
          if (!pause_ms (pause, cancellable))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          pause = MIN (pause * 2, LONGEST_PAUSE_MS);

          g_clear_error (&connect_error);
          if (sl_ssh_session_connect (self->session, NULL, NULL, cancellable, &connect_error))
            break;

          if (!is_connection_error (connect_error) || g_get_monotonic_time () > deadline)
            {
              report_state (self, SL_TARGET_SHELL_DISCONNECTED, connect_error->message);
              g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_NOT_CONNECTED,
                           _("The connection to the server broke (%s) and could not be made again: %s"),
                           local_error->message, connect_error->message);
              return FALSE;
            }
        }

      self->n_reconnects++;
      pause = FIRST_PAUSE_MS;
      report_state (self, SL_TARGET_SHELL_CONNECTED, _("Connected again"));
    }
}

/* Paths: SFTP does not expand "~", and starts relative paths in the home
 * folder; the local file system needs the home folder spelled out. */
static char *
dup_sftp_path (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (".");
  if (g_str_has_prefix (path, "~/"))
    return g_strdup (path + 2);
  return g_strdup (path);
}

static char *
dup_local_path (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

/* run */

typedef struct {
  const char  *command;
  char       **out;
  char       **err;
  int         *exit_status;
} RunData;

static gboolean
run_op (SlTargetShell  *self,
        gpointer        data,
        GCancellable   *cancellable,
        GError        **error)
{
  RunData *run = data;

  if (self->session != NULL)
    return sl_ssh_session_run (self->session, run->command, run->out, run->err, run->exit_status,
                               cancellable, error);
  else
    {
      const char *argv[] = { "/bin/sh", "-c", run->command, NULL };
      int wait_status = 0;

      if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                         run->out, run->err, &wait_status, error))
        return FALSE;

      if (run->exit_status != NULL)
        {
          g_autoptr(GError) exit_error = NULL;

          if (g_spawn_check_wait_status (wait_status, &exit_error))
            *run->exit_status = 0;
          else if (exit_error->domain == G_SPAWN_EXIT_ERROR)
            *run->exit_status = exit_error->code;
          else
            *run->exit_status = -1;
        }
      return TRUE;
    }
}

/**
 * sl_target_shell_run:
 * @command: a shell command line, every path and argument quoted with
 *   sl_shell_quote(); it may run again after a reconnection, so it must
 *   be safe to repeat
 * @standard_output: (out) (optional): what it wrote there
 * @standard_error: (out) (optional): what it wrote there
 * @exit_status: (out) (optional): its exit status, -1 when killed
 *
 * Returns: %TRUE when the command ran (whatever its exit status)
 */
gboolean
sl_target_shell_run (SlTargetShell  *self,
                     const char     *command,
                     char          **standard_output,
                     char          **standard_error,
                     int            *exit_status,
                     GCancellable   *cancellable,
                     GError        **error)
{
  RunData run = { command, standard_output, standard_error, exit_status };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), FALSE);
  g_return_val_if_fail (command != NULL, FALSE);

  return with_reconnect (self, run_op, &run, cancellable, error);
}

/**
 * sl_target_shell_resolve_dir:
 * @path: a folder; "~" and "~/…" are the home folder
 * @create: make it (and its parents) when missing
 *
 * Returns: (transfer full): the absolute path of @path on the target, or
 *   %NULL with @error set
 */
char *
sl_target_shell_resolve_dir (SlTargetShell  *self,
                             const char     *path,
                             gboolean        create,
                             GCancellable   *cancellable,
                             GError        **error)
{
  g_autofree char *quoted = NULL;
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  quoted = sl_shell_quote_remote_path (path);
  command = g_strdup_printf ("%s%s && cd -- %s && pwd -P",
                             create ? "mkdir -p -- " : "true ", create ? quoted : "", quoted);
  if (!sl_target_shell_run (self, command, &out, &err, &status, cancellable, error))
    return NULL;

  if (status != 0)
    {
      g_autoptr(GError) reason = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "%s", g_strstrip (err));

      if (strstr (err, "ermission") != NULL)
        reason->code = G_IO_ERROR_PERMISSION_DENIED;
      else if (strstr (err, "o space") != NULL)
        reason->code = G_IO_ERROR_NO_SPACE;
      else
        reason->code = G_IO_ERROR_NOT_FOUND;
      sl_target_shell_explain_error (self, create ? _("Could not create the folder") : _("Could not open the folder"),
                                     path, &reason);
      g_propagate_error (error, g_steal_pointer (&reason));
      return NULL;
    }

  return g_strdup (g_strstrip (out));
}

/* stat and list_dir */

typedef struct {
  const char *path;
  gpointer    result;
  guint64     offset;
  guint64     length;
  GFile      *local;
} FileOp;

static gboolean
stat_op (SlTargetShell  *self,
         gpointer        data,
         GCancellable   *cancellable,
         GError        **error)
{
  FileOp *op = data;

  if (self->session != NULL)
    {
      g_autofree char *path = dup_sftp_path (op->path);

      op->result = sl_ssh_session_stat (self->session, path, cancellable, error);
    }
  else
    {
      g_autofree char *path = dup_local_path (op->path);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      op->result = g_file_query_info (file,
                                      G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                      G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                      G_FILE_ATTRIBUTE_UNIX_MODE,
                                      G_FILE_QUERY_INFO_NONE, cancellable, error);
    }
  return op->result != NULL;
}

/**
 * sl_target_shell_stat:
 *
 * Returns: (transfer full): name, type, size, modification time (seconds)
 *   and mode of @path, following a symbolic link
 */
GFileInfo *
sl_target_shell_stat (SlTargetShell  *self,
                      const char     *path,
                      GCancellable   *cancellable,
                      GError        **error)
{
  FileOp op = { path };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (!with_reconnect (self, stat_op, &op, cancellable, error))
    return NULL;
  return op.result;
}

static GPtrArray *
list_local_dir (const char    *path,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GFile) dir = g_file_new_for_path (path);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func (g_object_unref);

  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                          G_FILE_ATTRIBUTE_UNIX_MODE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, error);
  if (enumerator == NULL)
    return NULL;

  for (;;)
    {
      GFileInfo *info = NULL;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, error))
        return NULL;
      if (info == NULL)
        break;
      g_ptr_array_add (infos, g_object_ref (info));
    }

  return g_steal_pointer (&infos);
}

static gboolean
list_dir_op (SlTargetShell  *self,
             gpointer        data,
             GCancellable   *cancellable,
             GError        **error)
{
  FileOp *op = data;

  if (self->session != NULL)
    {
      g_autofree char *path = dup_sftp_path (op->path);

      op->result = sl_ssh_session_list_dir (self->session, path, cancellable, error);
    }
  else
    {
      g_autofree char *path = dup_local_path (op->path);

      op->result = list_local_dir (path, cancellable, error);
    }
  return op->result != NULL;
}

/**
 * sl_target_shell_list_dir:
 *
 * Lists a folder without following symbolic links: a link is listed as
 * %G_FILE_TYPE_SYMBOLIC_LINK. Check each name with sl_shell_check_name()
 * before joining it to a path.
 *
 * Returns: (transfer full) (element-type GFileInfo): the entries
 */
GPtrArray *
sl_target_shell_list_dir (SlTargetShell  *self,
                          const char     *path,
                          GCancellable   *cancellable,
                          GError        **error)
{
  FileOp op = { path };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (!with_reconnect (self, list_dir_op, &op, cancellable, error))
    return NULL;
  return op.result;
}

/* read */

static GBytes *
read_local (const char    *path,
            guint64        offset,
            guint64        length,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, cancellable, error);
  g_autoptr(GByteArray) bytes = NULL;

  if (in == NULL || !g_seekable_seek (G_SEEKABLE (in), (goffset)offset, G_SEEK_SET, cancellable, error))
    return NULL;

  bytes = g_byte_array_sized_new (MIN (length, 1024 * 1024));
  while (bytes->len < length)
    {
      guint8 buf[64 * 1024];
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, MIN (sizeof buf, length - bytes->len),
                                      cancellable, error);

      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      g_byte_array_append (bytes, buf, n);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

static gboolean
read_op (SlTargetShell  *self,
         gpointer        data,
         GCancellable   *cancellable,
         GError        **error)
{
  FileOp *op = data;

  if (self->session != NULL)
    {
      g_autofree char *path = dup_sftp_path (op->path);

      op->result = sl_ssh_session_read (self->session, path, op->offset, op->length, cancellable, error);
    }
  else
    {
      g_autofree char *path = dup_local_path (op->path);

      op->result = read_local (path, op->offset, op->length, cancellable, error);
    }
  return op->result != NULL;
}

/**
 * sl_target_shell_read:
 * @offset: where to start
 * @length: the most bytes to read
 *
 * Returns: (transfer full): the bytes from @offset on, fewer than
 *   @length at the end of the file
 */
GBytes *
sl_target_shell_read (SlTargetShell  *self,
                      const char     *path,
                      guint64         offset,
                      guint64         length,
                      GCancellable   *cancellable,
                      GError        **error)
{
  FileOp op = { path, NULL, offset, length };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (!with_reconnect (self, read_op, &op, cancellable, error))
    return NULL;
  return op.result;
}

/* downloads */

static guint64
local_size (GFile *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);

  return info != NULL ? (guint64)g_file_info_get_size (info) : 0;
}

static gboolean
copy_local_range (const char    *path,
                  guint64        offset,
                  GFile         *local_file,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(GFile) source = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileIOStream) io = NULL;

  in = g_file_read (source, cancellable, error);
  if (in == NULL || !g_seekable_seek (G_SEEKABLE (in), (goffset)offset, G_SEEK_SET, cancellable, error))
    return FALSE;

  io = g_file_open_readwrite (local_file, cancellable, NULL);
  if (io == NULL)
    io = g_file_create_readwrite (local_file, G_FILE_CREATE_NONE, cancellable, error);
  if (io == NULL)
    return FALSE;

  return g_seekable_truncate (G_SEEKABLE (io), (goffset)offset, cancellable, error) &&
         g_seekable_seek (G_SEEKABLE (io), (goffset)offset, G_SEEK_SET, cancellable, error) &&
         g_output_stream_splice (g_io_stream_get_output_stream (G_IO_STREAM (io)), G_INPUT_STREAM (in),
                                 G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, cancellable, error) >= 0 &&
         g_io_stream_close (G_IO_STREAM (io), cancellable, error);
}

static gboolean
continue_download_op (SlTargetShell  *self,
                      gpointer        data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  FileOp *op = data;
  /* Measured again on every attempt: a broken attempt may have written
   * part of the rest already. */
  guint64 offset = local_size (op->local);

  if (self->session != NULL)
    {
      g_autofree char *path = dup_sftp_path (op->path);

      return sl_ssh_session_download_range (self->session, path, offset, op->local, cancellable, error);
    }
  else
    {
      g_autofree char *path = dup_local_path (op->path);

      return copy_local_range (path, offset, op->local, cancellable, error);
    }
}

/**
 * sl_target_shell_continue_download:
 * @local_file: a file whose bytes are the start of the remote file (or
 *   that does not exist yet)
 *
 * Appends the bytes of the remote file past the local file's size to it.
 * After a broken connection it goes on from the new local size, so
 * nothing is fetched twice and nothing is lost.
 */
gboolean
sl_target_shell_continue_download (SlTargetShell  *self,
                                   const char     *path,
                                   GFile          *local_file,
                                   GCancellable   *cancellable,
                                   GError        **error)
{
  FileOp op = { path, NULL, 0, 0, local_file };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (local_file), FALSE);

  return with_reconnect (self, continue_download_op, &op, cancellable, error);
}

/* uploads */

static gboolean
upload_local (GFile         *source,
              const char    *path,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GFile) destination = g_file_new_for_path (path);
  g_autoptr(GFile) parent = g_file_get_parent (destination);
  g_autofree char *base = g_file_get_basename (destination);
  g_autofree char *partial_name = g_strdup_printf (".%s.sl-part-%08x", base, g_random_int ());
  g_autoptr(GFile) partial = g_file_get_child (parent, partial_name);

  if (!g_file_copy (source, partial, G_FILE_COPY_OVERWRITE | G_FILE_COPY_ALL_METADATA | G_FILE_COPY_NOFOLLOW_SYMLINKS,
                    cancellable, NULL, NULL, error))
    {
      g_file_delete (partial, NULL, NULL);
      return FALSE;
    }

  if (!g_file_move (partial, destination, G_FILE_COPY_OVERWRITE, cancellable, NULL, NULL, error))
    {
      g_file_delete (partial, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

static gboolean
upload_op (SlTargetShell  *self,
           gpointer        data,
           GCancellable   *cancellable,
           GError        **error)
{
  FileOp *op = data;

  if (self->session != NULL)
    {
      g_autofree char *path = dup_sftp_path (op->path);

      return sl_ssh_session_upload (self->session, op->local, path, cancellable, error);
    }
  else
    {
      g_autofree char *path = dup_local_path (op->path);

      return upload_local (op->local, path, cancellable, error);
    }
}

/**
 * sl_target_shell_upload:
 *
 * Copies @local_file to @path, under a temporary name in the same folder
 * first, then renamed; the modification time is kept.
 */
gboolean
sl_target_shell_upload (SlTargetShell  *self,
                        GFile          *local_file,
                        const char     *path,
                        GCancellable   *cancellable,
                        GError        **error)
{
  FileOp op = { path, NULL, 0, 0, local_file };

  g_return_val_if_fail (SL_IS_TARGET_SHELL (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (local_file), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return with_reconnect (self, upload_op, &op, cancellable, error);
}

/* Errors that say what to do */

static gboolean
disk_is_full (SlTargetShell *self,
              const char    *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *quoted = sl_shell_quote_remote_path (dir);
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  int status = -1;
  RunData run = { NULL, &out, NULL, &status };
  char **lines;
  gboolean full = FALSE;

  /* The nearest existing folder holds the file system the path is on. */
  command = g_strdup_printf ("d=%s; while [ ! -d \"$d\" ] && [ \"$d\" != / ]; do d=$(dirname -- \"$d\"); done; "
                             "df -Pk -- \"$d\" | tail -n 1", quoted);
  run.command = command;

  /* Only a question on the way to an error message: run once, without
   * waiting for a connection that is gone. */
  if (!run_op (self, &run, NULL, NULL) || status != 0)
    return FALSE;

  lines = g_strsplit_set (g_strstrip (out), " \t", -1);
  {
    guint n = 0;
    const char *fields[6] = { NULL };

    for (guint i = 0; lines[i] != NULL && n < 6; i++)
      if (lines[i][0] != '\0')
        fields[n++] = lines[i];
    /* Filesystem 1024-blocks Used Available Capacity Mounted-on */
    if (n == 6)
      full = g_ascii_strtoull (fields[3], NULL, 10) < 64;
  }
  g_strfreev (lines);
  return full;
}

/**
 * sl_target_shell_explain_error:
 * @what: what was being done, such as "Could not upload the project"
 * @path: (nullable): where
 *
 * Rewrites @error so it says what failed, where, and what to do: a full
 * disk, a permission error, a missing command or a broken connection
 * each get their own advice.
 */
void
sl_target_shell_explain_error (SlTargetShell  *self,
                               const char     *what,
                               const char     *path,
                               GError        **error)
{
  GError *old;
  g_autofree char *where = NULL;

  g_return_if_fail (SL_IS_TARGET_SHELL (self));
  g_return_if_fail (error != NULL && *error != NULL);

  old = *error;
  if (g_error_matches (old, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  where = path != NULL ? g_strdup_printf (" (%s)", path) : g_strdup ("");

  if (g_error_matches (old, G_IO_ERROR, G_IO_ERROR_NO_SPACE) ||
      (path != NULL && !g_error_matches (old, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) &&
       !g_error_matches (old, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) &&
       !g_error_matches (old, SL_SSH_ERROR, SL_SSH_ERROR_NOT_CONNECTED) &&
       disk_is_full (self, path)))
    *error = g_error_new (G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                          _("%s%s: the disk is full. Free some space there, or choose another folder on a disk with room."),
                          what, where);
  else if (g_error_matches (old, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    *error = g_error_new (G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                          _("%s%s: permission denied (%s). Choose a folder the login user may write to, or change its permissions."),
                          what, where, old->message);
  else if (g_error_matches (old, SL_SSH_ERROR, SL_SSH_ERROR_NOT_CONNECTED))
    *error = g_error_new (SL_SSH_ERROR, SL_SSH_ERROR_NOT_CONNECTED,
                          _("%s%s: %s. Check the network and that the server is up, then try again."),
                          what, where, old->message);
  else
    *error = g_error_new (old->domain, old->code, "%s%s: %s", what, where, old->message);

  g_error_free (old);
}
