/* sl-ssh-session-probe.c: testing that a server is usable
 *
 * After connecting: a shell answers, the free space in the base folder,
 * python3 and npu-smi; only a failing shell fails the test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"
#include "sl-ssh-session-private.h"

typedef struct {
  SlSshStepSink  sink;
  char          *base_dir;
  char          *setup_command;
} TestData;

static void
test_data_free (gpointer data)
{
  TestData *test = data;

  g_free (test->base_dir);
  g_free (test->setup_command);
  g_free (test);
}

static gboolean
run_capture (SlSshSession  *self,
             GTask         *task,
             const char    *command,
             char         **out,
             int           *exit_status,
             GCancellable  *cancellable,
             GError       **error)
{
  SlSshExecData exec = { 0 };
  g_autoptr(GString) out_text = g_string_new (NULL);
  g_autoptr(GString) err_text = g_string_new (NULL);

  exec.command = (char *)command;
  exec.out = out_text;
  exec.err = err_text;
  exec.exit_status = -1;

  if (!_sl_ssh_session_run_command (self, task, &exec, cancellable, error))
    return FALSE;

  *out = g_strdup (out_text->str);
  *exit_status = exec.exit_status;
  return TRUE;
}

static char *
with_setup (const char *setup_command,
            const char *command)
{
  if (setup_command == NULL || setup_command[0] == '\0')
    return g_strdup (command);
  /* The newline ends a comment the setup command may end with. */
  return g_strdup_printf ("{ %s\n} >/dev/null 2>&1\n%s", setup_command, command);
}

static gboolean
test_shell (SlSshSession         *self,
            GTask                *task,
            const SlSshStepSink  *sink,
            GCancellable         *cancellable,
            GError              **error)
{
  g_autofree char *out = NULL;
  int status = -1;

  if (!run_capture (self, task, "echo ok", &out, &status, cancellable, error))
    {
      _sl_ssh_report_step_error (task, sink, SL_SSH_STEP_SHELL, *error, NULL);
      return FALSE;
    }

  if (status != 0 || g_strcmp0 (g_strstrip (out), "ok") != 0)
    {
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CHANNEL,
                   _("“echo ok” answered “%s” with exit status %d"), out, status);
      _sl_ssh_report_step_error (task, sink, SL_SSH_STEP_SHELL, *error,
                                 _("Check the login shell of the user on the server and its start-up files."));
      return FALSE;
    }

  _sl_ssh_report_step (task, sink, SL_SSH_STEP_SHELL, SL_SSH_STEP_OK, _("“echo ok” answered “ok”"), NULL);
  return TRUE;
}

static void
test_disk (SlSshSession        *self,
           GTask               *task,
           const SlSshStepSink *sink,
           const char          *base_dir,
           GCancellable        *cancellable)
{
  g_autofree char *quoted = sl_shell_quote_remote_path (base_dir);
  g_autofree char *command = g_strdup_printf ("df -Pk -- %s", quoted);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) fields = NULL;
  guint n_lines;
  int status = -1;

  if (!run_capture (self, task, command, &out, &status, cancellable, &error))
    {
      _sl_ssh_report_step_error (task, sink, SL_SSH_STEP_DISK, error, NULL);
      return;
    }

  lines = g_strsplit (g_strstrip (out), "\n", -1);
  n_lines = g_strv_length (lines);
  if (n_lines >= 2)
    fields = g_strsplit_set (lines[n_lines - 1], " \t", -1);

  if (status == 0 && fields != NULL)
    {
      g_autoptr(GPtrArray) words = g_ptr_array_new ();

      for (guint i = 0; fields[i] != NULL; i++)
        if (fields[i][0] != '\0')
          g_ptr_array_add (words, fields[i]);

      if (words->len >= 4)
        {
          guint64 available_kib = g_ascii_strtoull (g_ptr_array_index (words, 3), NULL, 10);
          g_autofree char *size = g_format_size (available_kib * 1024);
          g_autofree char *detail = g_strdup_printf (_("%s free in %s"), size, base_dir);

          _sl_ssh_report_step (task, sink, SL_SSH_STEP_DISK,
                               available_kib < 1024 * 1024 ? SL_SSH_STEP_WARNING : SL_SSH_STEP_OK, detail,
                               available_kib < 1024 * 1024 ? _("Less than 1 GB is free: free some space or choose another base folder.") : NULL);
          return;
        }
    }

  {
    g_autofree char *detail = g_strdup_printf (_("Could not measure the free space in %s (does the folder exist?)"), base_dir);

    _sl_ssh_report_step (task, sink, SL_SSH_STEP_DISK, SL_SSH_STEP_WARNING, detail,
                         _("Create the base folder on the server or choose another one."));
  }
}

static void
test_program (SlSshSession        *self,
              GTask               *task,
              const SlSshStepSink *sink,
              SlSshStep            step,
              const char          *setup_command,
              const char          *check,
              const char          *missing,
              const char          *hint,
              GCancellable        *cancellable)
{
  g_autofree char *command = with_setup (setup_command, check);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  if (!run_capture (self, task, command, &out, &status, cancellable, &error))
    {
      _sl_ssh_report_step_error (task, sink, step, error, NULL);
      return;
    }

  g_strstrip (out);
  if (status == 0 && out[0] != '\0')
    {
      g_autofree char *detail = g_strdelimit (g_strdup (out), "\n", ' ');

      _sl_ssh_report_step (task, sink, step, SL_SSH_STEP_OK, detail, NULL);
    }
  else
    _sl_ssh_report_step (task, sink, step, SL_SSH_STEP_WARNING, missing, hint);
}

static void
test_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  TestData *test = data;
  GError *error = NULL;
  const char *base_dir = test->base_dir != NULL && test->base_dir[0] != '\0' ? test->base_dir : "~";

  if (!_sl_ssh_session_do_connect (self, task, &test->sink, cancellable, &error) ||
      !test_shell (self, task, &test->sink, cancellable, &error))
    {
      _sl_ssh_op_return_error (task, error);
      return;
    }

  test_disk (self, task, &test->sink, base_dir, cancellable);
  test_program (self, task, &test->sink, SL_SSH_STEP_PYTHON, test->setup_command,
                "command -v python3 && python3 --version 2>&1",
                _("python3 was not found on the server"),
                _("Install Python 3 there, or set an environment setup command that puts it on PATH."),
                cancellable);
  test_program (self, task, &test->sink, SL_SSH_STEP_NPU_SMI, test->setup_command,
                "command -v npu-smi || { test -x /usr/local/sbin/npu-smi && echo /usr/local/sbin/npu-smi; }",
                _("npu-smi was not found: no Ascend driver on PATH"),
                _("On an Ascend server, set the environment setup command, for example: source /usr/local/Ascend/ascend-toolkit/set_env.sh"),
                cancellable);

  if (_sl_ssh_op_return_error_if_cancelled (task))
    return;
  _sl_ssh_op_return_boolean (task, TRUE);
}

/**
 * sl_ssh_session_test_async:
 * @base_dir: (nullable): the folder whose free space is measured; "~"
 *   when %NULL
 * @setup_command: (nullable): run before looking for python3 and npu-smi
 * @step_func: (nullable): told about every step in the caller's main
 *   context, with what to do next when one does not pass
 *
 * Connects (when not connected yet) and checks that the server is
 * usable: a shell answers, the free space in @base_dir, python3 and
 * npu-smi. Fails only when a step needed to go on fails; a missing
 * python3 or npu-smi is a warning.
 */
void
sl_ssh_session_test_async (SlSshSession        *self,
                           const char          *base_dir,
                           const char          *setup_command,
                           SlSshStepFunc        step_func,
                           gpointer             step_data,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  TestData *test;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  test = g_new0 (TestData, 1);
  test->sink.func = step_func;
  test->sink.data = step_data;
  test->base_dir = g_strdup (base_dir);
  test->setup_command = g_strdup (setup_command);
  _sl_ssh_session_queue (self, sl_ssh_session_test_async, test_op, test, test_data_free,
                         cancellable, callback, user_data);
}

gboolean
sl_ssh_session_test_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_test (SlSshSession  *self,
                     const char    *base_dir,
                     const char    *setup_command,
                     SlSshStepFunc  step_func,
                     gpointer       step_data,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_test_async (self, base_dir, setup_command, step_func, step_data, cancellable,
                             _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_test_finish (self, result, error);
}
