/* sl-ssh-session-exec.c: running commands
 *
 * One channel per command; output is streamed to the caller's main
 * context in the order it arrived, and cancelling sends SIGTERM.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <glib/gi18n-lib.h>

#include "sl-ssh-session-private.h"

typedef struct {
  GTask           *task;
  SlSshOutputFunc  func;
  gpointer         data;
  SlSshStream      stream;
  GBytes          *bytes;
} OutputCall;

static gboolean
output_in_caller (gpointer data)
{
  OutputCall *call = data;

  if (!_sl_ssh_op_is_delivered (call->task))
    call->func (call->stream, call->bytes, call->data);
  return G_SOURCE_REMOVE;
}

static void
output_call_free (gpointer data)
{
  OutputCall *call = data;

  g_object_unref (call->task);
  g_bytes_unref (call->bytes);
  g_free (call);
}



static void
exec_data_free (gpointer data)
{
  SlSshExecData *exec = data;

  g_free (exec->command);
  g_clear_pointer (&exec->input, g_bytes_unref);
  g_free (exec);
}

static void
deliver_output (GTask         *task,
                SlSshExecData *exec,
                SlSshStream    stream,
                const char    *buf,
                int            len)
{
  OutputCall *call;

  if (exec->out != NULL)
    g_string_append_len (stream == SL_SSH_STREAM_STDOUT ? exec->out : exec->err, buf, len);

  if (exec->output_func == NULL)
    return;

  call = g_new0 (OutputCall, 1);
  call->task = g_object_ref (task);
  call->func = exec->output_func;
  call->data = exec->output_data;
  call->stream = stream;
  call->bytes = g_bytes_new (buf, len);
  sl_main_context_dispatch (g_task_get_context (task), output_in_caller, call, output_call_free);
}

/* Runs @exec->command on the worker thread. */
gboolean
_sl_ssh_session_run_command (SlSshSession   *self,
                             GTask          *task,
                             SlSshExecData  *exec,
                             GCancellable   *cancellable,
                             GError        **error)
{
  ssh_channel channel;
  char buf[16 * 1024];
  gboolean ok = FALSE;

  if (!_sl_ssh_session_ensure_connected (self, task, cancellable, error))
    return FALSE;

  channel = ssh_channel_new (self->ssh);
  if (channel == NULL || ssh_channel_open_session (channel) != SSH_OK)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_CHANNEL, _("Could not open a channel to the server"));
      if (channel != NULL)
        ssh_channel_free (channel);
      if (!ssh_is_connected (self->ssh))
        _sl_ssh_session_close (self);
      return FALSE;
    }

  if (ssh_channel_request_exec (channel, exec->command) != SSH_OK)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_CHANNEL, _("The server did not start the command"));
      goto out;
    }

  if (exec->input != NULL)
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (exec->input, &size);

      while (size > 0)
        {
          int n = ssh_channel_write (channel, data, MIN (size, (gsize)G_MAXINT32));

          if (n <= 0)
            {
              _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_CHANNEL, _("Could not send input to the command"));
              goto out;
            }
          data += n;
          size -= n;
        }
    }
  ssh_channel_send_eof (channel);

  while (!ssh_channel_is_eof (channel))
    {
      int n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ssh_channel_request_send_signal (channel, "TERM");
          goto out;
        }

      n = ssh_channel_read_timeout (channel, buf, sizeof buf, 0, POLL_MS);
      if (n == SSH_ERROR)
        {
          _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_CHANNEL, _("The connection broke while the command ran"));
          goto out;
        }
      if (n > 0)
        deliver_output (task, exec, SL_SSH_STREAM_STDOUT, buf, n);

      while ((n = ssh_channel_read_nonblocking (channel, buf, sizeof buf, 1)) > 0)
        deliver_output (task, exec, SL_SSH_STREAM_STDERR, buf, n);
      if (n == SSH_ERROR)
        {
          _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_CHANNEL, _("The connection broke while the command ran"));
          goto out;
        }
    }

  exec->exit_status = ssh_channel_get_exit_status (channel);
  ok = TRUE;

out:
  ssh_channel_close (channel);
  ssh_channel_free (channel);
  if (!ssh_is_connected (self->ssh))
    _sl_ssh_session_close (self);
  return ok;
}

static void
exec_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  SlSshExecData *exec = data;
  GError *error = NULL;

  if (_sl_ssh_session_run_command (self, task, exec, cancellable, &error))
    _sl_ssh_op_return_boolean (task, TRUE);
  else
    _sl_ssh_op_return_error (task, error);
}

/**
 * sl_ssh_session_exec_async:
 * @command: a shell command line; quote every path and argument in it
 *   with sl_shell_quote()
 * @input: (nullable): sent to the command's standard input, then end of file
 * @output_func: (nullable): receives standard output and error as they
 *   arrive, in the caller's main context, before the callback
 *
 * Runs @command on the server. Cancelling sends SIGTERM to the command
 * and closes its channel.
 */
void
sl_ssh_session_exec_async (SlSshSession        *self,
                           const char          *command,
                           GBytes              *input,
                           SlSshOutputFunc      output_func,
                           gpointer             output_data,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  SlSshExecData *exec;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (command != NULL);

  exec = g_new0 (SlSshExecData, 1);
  exec->command = g_strdup (command);
  exec->input = input != NULL ? g_bytes_ref (input) : NULL;
  exec->output_func = output_func;
  exec->output_data = output_data;
  exec->exit_status = -1;
  _sl_ssh_session_queue (self, sl_ssh_session_exec_async, exec_op, exec, exec_data_free,
                         cancellable, callback, user_data);
}

/**
 * sl_ssh_session_exec_finish:
 * @exit_status: (out) (optional): the command's exit status, or -1 when
 *   the server sent none (the command was killed by a signal)
 */
gboolean
sl_ssh_session_exec_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            int           *exit_status,
                            GError       **error)
{
  SlSshExecData *exec;
  SlSshOp *op;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  op = g_task_get_task_data (G_TASK (result));
  exec = op->data;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    {
      /* Cancelled early, the worker may still be writing the status. */
      if (exit_status != NULL)
        *exit_status = -1;
      return FALSE;
    }
  if (exit_status != NULL)
    *exit_status = exec->exit_status;
  return TRUE;
}

gboolean
sl_ssh_session_exec (SlSshSession     *self,
                     const char       *command,
                     GBytes           *input,
                     SlSshOutputFunc   output_func,
                     gpointer          output_data,
                     int              *exit_status,
                     GCancellable     *cancellable,
                     GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_exec_async (self, command, input, output_func, output_data, cancellable,
                             _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_exec_finish (self, result, exit_status, error);
}

static void
collect_output (SlSshStream  stream,
                GBytes      *data,
                gpointer     user_data)
{
  GString **texts = user_data;
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (texts[stream], bytes, size);
}

/**
 * sl_ssh_session_run:
 * @standard_output: (out) (optional): everything the command wrote there
 * @standard_error: (out) (optional): everything it wrote there
 *
 * Runs @command and waits, collecting its output.
 */
gboolean
sl_ssh_session_run (SlSshSession  *self,
                    const char    *command,
                    char         **standard_output,
                    char         **standard_error,
                    int           *exit_status,
                    GCancellable  *cancellable,
                    GError       **error)
{
  GString *texts[2] = { g_string_new (NULL), g_string_new (NULL) };
  gboolean ok;

  ok = sl_ssh_session_exec (self, command, NULL, collect_output, texts, exit_status, cancellable, error);

  if (ok && standard_output != NULL)
    *standard_output = g_string_free (texts[0], FALSE);
  else
    g_string_free (texts[0], TRUE);
  if (ok && standard_error != NULL)
    *standard_error = g_string_free (texts[1], FALSE);
  else
    g_string_free (texts[1], TRUE);

  return ok;
}
