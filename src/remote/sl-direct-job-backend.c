/* sl-direct-job-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-direct-job-backend.h"
#include "sl-shell-quote.h"

struct _SlDirectJobBackend
{
  GObject        parent_instance;
  SlTargetShell *shell;
};

static void job_backend_iface_init (SlJobBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlDirectJobBackend, sl_direct_job_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SL_TYPE_JOB_BACKEND, job_backend_iface_init))

/**
 * sl_direct_job_backend_dup_wrapper:
 *
 * Returns: (transfer full): the text of run.sh for @job
 */
char *
sl_direct_job_backend_dup_wrapper (SlJob *job)
{
  g_autofree char *command = NULL;
  g_autofree char *dir = NULL;
  GString *out;

  g_return_val_if_fail (job != NULL && sl_job_get_argv (job) != NULL, NULL);

  command = sl_job_dup_command_line (job);
  dir = sl_shell_quote_remote_path (sl_job_get_working_dir (job));

  /* The trap is set before the process group is published, so a stop
   * that comes at any moment, even before the program started, ends the
   * job with an exit status (143) rather than leaving no trace. */
  out = g_string_new ("#!/bin/sh\n"
                      "# Sightline job wrapper: records the process group and the exit status.\n"
                      "stop=; child=\n"
                      "trap 'stop=1; [ -n \"$child\" ] && kill -s TERM \"$child\" 2>/dev/null' TERM INT HUP\n"
                      "echo $$ > pid.tmp && mv pid.tmp pid\n"
                      "jobdir=$(pwd)\n"
                      /* On a full disk the status cannot be written: it is
                       * kept in a file name instead (a rename needs no space). */
                      "finish() {\n"
                      "  printf '%s\\n' \"$1\" > \"$jobdir/exit_code.tmp\" 2>/dev/null\n"
                      "  if [ -s \"$jobdir/exit_code.tmp\" ]; then mv \"$jobdir/exit_code.tmp\" \"$jobdir/exit_code\"\n"
                      "  else mv \"$jobdir/exit_code.tmp\" \"$jobdir/exited-$1\" 2>/dev/null; fi\n"
                      "  exit \"$1\"\n"
                      "}\n");
  g_string_append_printf (out, "cd -- %s || finish 126\n", dir);
  if (sl_job_get_env_setup (job) != NULL)
    g_string_append_printf (out, "%s\n", sl_job_get_env_setup (job));
  g_string_append_printf (out,
                          "[ -z \"$stop\" ] || finish 143\n"
                          "%s &\n"
                          "child=$!\n"
                          "[ -z \"$stop\" ] || kill -s TERM \"$child\" 2>/dev/null\n"
                          "wait \"$child\"; code=$?\n"
                          /* A trapped signal ends the wait early; wait for the real status. */
                          "while kill -s 0 \"$child\" 2>/dev/null; do wait \"$child\"; code=$?; done\n"
                          "finish \"$code\"\n",
                          command);
  return g_string_free (out, FALSE);
}

/**
 * sl_direct_job_backend_dup_launch_command:
 *
 * Returns: (transfer full): the shell command that starts @job detached;
 *   it needs no connection, so a dialog can show it while the user types
 */
char *
sl_direct_job_backend_dup_launch_command (SlJob *job)
{
  g_autofree char *dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  g_autofree char *command_line = sl_job_dup_command_line (job);
  g_autofree char *command = sl_shell_quote (command_line);
  g_autofree char *wrapper_text = sl_direct_job_backend_dup_wrapper (job);
  g_autofree char *wrapper = sl_shell_quote (wrapper_text);

  /* Repeating it (after a reconnection) does not start the job twice:
   * run.sh is only written once. */
  return g_strdup_printf ("d=%s; mkdir -p -- \"$d\" && cd -- \"$d\" || exit 1; "
                          "for c in setsid nohup; do command -v \"$c\" >/dev/null 2>&1 || "
                          "{ echo \"missing-command $c\"; exit 127; }; done; "
                          "if [ ! -e run.sh ]; then "
                          "printf '%%s\\n' %s > cmd && printf '%%s' %s > run.sh.tmp && mv run.sh.tmp run.sh && "
                          /* bash when there is one: environment set-up scripts such as
                           * Ascend's set_env.sh are written for it ("source"). */
                          "shell=/bin/sh; command -v bash >/dev/null 2>&1 && shell=$(command -v bash); "
                          "{ setsid nohup \"$shell\" run.sh > log 2>&1 < /dev/null & } ; fi; "
                          "i=0; while [ ! -s pid ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
                          "cat pid",
                          dir, command, wrapper);
}

static char *
dup_launch_command (SlJobBackend  *backend,
                    SlJob         *job,
                    GError       **error)
{
  return sl_direct_job_backend_dup_launch_command (job);
}

static gboolean
launch (SlJobBackend  *backend,
        SlJob         *job,
        GCancellable  *cancellable,
        GError       **error)
{
  SlDirectJobBackend *self = SL_DIRECT_JOB_BACKEND (backend);
  g_autofree char *command = dup_launch_command (backend, job, error);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (command == NULL)
    return FALSE;

  if (!sl_target_shell_run (self->shell, command, &out, &err, &status, cancellable, error))
    {
      sl_target_shell_explain_error (self->shell, _("Could not start the job"), sl_job_get_dir (job), error);
      return FALSE;
    }

  g_strstrip (out);
  g_strstrip (err);

  if (status == 127 && g_str_has_prefix (out, "missing-command "))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Could not start the job: the target has no “%s” command. Install it (it comes with util-linux and coreutils)."),
                   out + strlen ("missing-command "));
      return FALSE;
    }

  if (status != 0 || out[0] == '\0')
    {
      g_autoptr(GError) reason = NULL;
      int code = G_IO_ERROR_FAILED;

      if (strstr (err, "ermission denied") != NULL)
        code = G_IO_ERROR_PERMISSION_DENIED;
      else if (strstr (err, "o space left") != NULL)
        code = G_IO_ERROR_NO_SPACE;
      reason = g_error_new (G_IO_ERROR, code, "%s", err[0] != '\0' ? err : _("the job did not start"));
      sl_target_shell_explain_error (self->shell, _("Could not start the job"), sl_job_get_dir (job), &reason);
      g_propagate_error (error, g_steal_pointer (&reason));
      return FALSE;
    }

  sl_job_set_backend_id (job, out);
  return TRUE;
}

static SlJobStatus
poll_job (SlJobBackend  *backend,
          SlJob         *job,
          int           *exit_code,
          GCancellable  *cancellable,
          GError       **error)
{
  SlDirectJobBackend *self = SL_DIRECT_JOB_BACKEND (backend);
  g_autofree char *dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  int status = -1;

  /* exit_code is looked at again after the process is seen gone, as the
   * wrapper writes it just before it ends. */
  command = g_strdup_printf ("cd -- %s 2>/dev/null || { echo missing; exit 0; }; "
                             "if [ -e exit_code ]; then echo \"exited $(cat exit_code)\"; "
                             "elif [ ! -s pid ]; then echo starting; "
                             "elif kill -s 0 -- \"-$(cat pid)\" 2>/dev/null; then echo \"running $(cat pid)\"; "
                             "elif [ -e exit_code ]; then echo \"exited $(cat exit_code)\"; "
                             "else for f in exited-*; do [ -e \"$f\" ] && { echo \"exited ${f#exited-} full\"; exit 0; }; done; "
                             "[ \"$(df -Pk . 2>/dev/null | awk 'NR==2 {print $4}')\" = 0 ] && echo 'lost full' || echo lost; fi",
                             dir);
  if (!sl_target_shell_run (self->shell, command, &out, NULL, &status, cancellable, error))
    return SL_JOB_STATUS_LOST;

  g_strstrip (out);
  sl_job_set_disk_full (job, g_str_has_suffix (out, " full"));
  if (g_str_has_prefix (out, "exited "))
    {
      if (exit_code != NULL)
        *exit_code = atoi (out + strlen ("exited "));
      return SL_JOB_STATUS_EXITED;
    }
  if (g_str_has_prefix (out, "running"))
    {
      if (sl_job_get_backend_id (job) == NULL && out[7] == ' ')
        sl_job_set_backend_id (job, out + 8);
      return SL_JOB_STATUS_RUNNING;
    }
  if (g_str_equal (out, "starting"))
    return SL_JOB_STATUS_STARTING;
  if (g_str_equal (out, "missing"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The job folder %s is gone from the target"), sl_job_get_dir (job));
      return SL_JOB_STATUS_LOST;
    }
  return SL_JOB_STATUS_LOST;
}

static gboolean
stop_job (SlJobBackend  *backend,
          SlJob         *job,
          guint          grace_seconds,
          GCancellable  *cancellable,
          GError       **error)
{
  SlDirectJobBackend *self = SL_DIRECT_JOB_BACKEND (backend);
  g_autofree char *dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  int status = -1;

  /* SIGTERM to the whole process group, then SIGKILL after the grace
   * period; a job killed that way gets exit code 137 (128 + SIGKILL). */
  command = g_strdup_printf ("cd -- %s || exit 3; [ -s pid ] || exit 4; p=$(cat pid); "
                             "kill -s TERM -- \"-$p\" 2>/dev/null || { echo ended; exit 0; }; "
                             "i=0; while kill -s 0 -- \"-$p\" 2>/dev/null && [ $i -lt %u ]; do sleep 0.1; i=$((i+1)); done; "
                             "if kill -s 0 -- \"-$p\" 2>/dev/null; then kill -s KILL -- \"-$p\" 2>/dev/null; sleep 0.2; "
                             "[ -e exit_code ] || { echo 137 > exit_code.tmp && mv exit_code.tmp exit_code; }; echo killed; "
                             "else echo terminated; fi",
                             dir, grace_seconds * 10);
  if (!sl_target_shell_run (self->shell, command, &out, NULL, &status, cancellable, error))
    {
      sl_target_shell_explain_error (self->shell, _("Could not stop the job"), sl_job_get_dir (job), error);
      return FALSE;
    }

  if (status == 3 || status == 4)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Could not stop the job: %s holds no running job"), sl_job_get_dir (job));
      return FALSE;
    }
  return TRUE;
}

static GBytes *
read_log (SlJobBackend  *backend,
          SlJob         *job,
          guint64        offset,
          guint64        max_length,
          GCancellable  *cancellable,
          GError       **error)
{
  SlDirectJobBackend *self = SL_DIRECT_JOB_BACKEND (backend);
  g_autofree char *path = sl_job_dup_log_path (job);
  GError *local_error = NULL;
  GBytes *bytes;

  bytes = sl_target_shell_read (self->shell, path, offset, max_length, cancellable, &local_error);
  if (bytes == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* Not written yet. */
      g_error_free (local_error);
      return g_bytes_new (NULL, 0);
    }
  if (bytes == NULL)
    g_propagate_error (error, local_error);
  return bytes;
}

static void
job_backend_iface_init (SlJobBackendInterface *iface)
{
  iface->dup_launch_command = dup_launch_command;
  iface->launch = launch;
  iface->poll = poll_job;
  iface->stop = stop_job;
  iface->read_log = read_log;
}

static void
sl_direct_job_backend_finalize (GObject *object)
{
  SlDirectJobBackend *self = (SlDirectJobBackend *)object;

  g_clear_object (&self->shell);

  G_OBJECT_CLASS (sl_direct_job_backend_parent_class)->finalize (object);
}

static void
sl_direct_job_backend_class_init (SlDirectJobBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_direct_job_backend_finalize;
}

static void
sl_direct_job_backend_init (SlDirectJobBackend *self)
{
}

/**
 * sl_direct_job_backend_new:
 * @shell: the target's shell
 *
 * Returns: (transfer full): a backend starting jobs directly on the target
 */
SlJobBackend *
sl_direct_job_backend_new (SlTargetShell *shell)
{
  SlDirectJobBackend *self;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (shell), NULL);

  self = g_object_new (SL_TYPE_DIRECT_JOB_BACKEND, NULL);
  self->shell = g_object_ref (shell);
  return SL_JOB_BACKEND (self);
}
