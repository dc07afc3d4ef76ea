/* sl-workflow-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-cache.h"
#include "sl-job-controller.h"
#include "sl-transfer.h"
#include "sl-workflow-job.h"
#include "sl-workspace.h"
#include "sl-workspace-store.h"

static void
stop_run_cb (GCancellable *cancellable,
             SlRemoteRun  *run)
{
  sl_remote_run_request_stop (run);
}

/**
 * sl_workflow_run_job:
 *
 * Runs @run as the job @argv, recorded in the history at @store_path. A
 * cancel of @cancellable stops the job (before it started, it is never
 * started) and waits until it is seen to end.
 *
 * Returns: %TRUE when the job ran to its end uninterrupted; %FALSE with
 *   @error otherwise. When @cancellable was cancelled @error says what
 *   became of the job: %G_IO_ERROR_CANCELLED when nothing is left running
 *   on the target, another code (with how to stop it) when it may be.
 */
gboolean
sl_workflow_run_job (SlRemoteRun         *run,
                     const char          *store_path,
                     const char * const  *argv,
                     GCancellable        *cancellable,
                     int                 *exit_code,
                     GError             **error)
{
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(SlJobController) jobs = NULL;
  g_autoptr(GError) job_error = NULL;
  g_autofree char *command_line = NULL;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  gulong stop_id;
  gboolean ok;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (run), FALSE);
  g_return_val_if_fail (argv != NULL, FALSE);
  g_return_val_if_fail (exit_code != NULL, FALSE);

  workspace = sl_workspace_new (store_path);
  jobs = sl_job_controller_new (workspace);
  command_line = sl_job_controller_quote_argv (argv);
  stop_id = cancellable ? g_cancellable_connect (cancellable, G_CALLBACK (stop_run_cb), run, NULL) : 0;
  ok = sl_job_controller_run_remote_sync (jobs, run, command_line, &status, exit_code, &job_error);
  g_cancellable_disconnect (cancellable, stop_id);
  sl_workspace_flush (workspace);
  if (ok && status != SL_JOB_STATUS_EXITED)
    *exit_code = -1;

  if (g_cancellable_is_cancelled (cancellable))
    {
      sl_remote_run_set_interrupted_error (run, ok, status, *exit_code, job_error, error);
      return FALSE;
    }
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&job_error));
  return ok;
}

gboolean
sl_workflow_record_outcome (const char  *store_path,
                            gint64       job_id,
                            gboolean     succeeded,
                            const char  *reason,
                            GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;

  g_return_val_if_fail (job_id > 0, FALSE);

  path = store_path != NULL ? g_strdup (store_path) : sl_workspace_store_dup_default_path ();
  if (!(store = sl_workspace_store_new_for_path (path, error)))
    return FALSE;
  return sl_workspace_store_set_job_outcome (store, job_id, succeeded ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED,
                                             reason, error);
}

char *
sl_workflow_dup_cache_path (SlTarget    *target,
                            const char  *remote_path,
                            GError     **error)
{
  g_autofree char *cache_dir = NULL;
  const char *cache_name;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (remote_path != NULL, NULL);

  cache_dir = sl_cache_dup_dir (NULL);
  cache_name = sl_target_get_id (target) > 0 ? sl_target_get_name (target) : "local";
  return sl_transfer_dup_cache_dir (cache_dir, cache_name, remote_path, error);
}

char *
sl_workflow_save_log (SlTarget   *target,
                      const char *remote_log,
                      GString    *log)
{
  g_autofree char *local = NULL;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (log != NULL, NULL);

  if (remote_log == NULL || !(local = sl_workflow_dup_cache_path (target, remote_log, NULL)))
    return NULL;
  dir = g_path_get_dirname (local);
  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_file_set_contents (local, log->str, log->len, NULL))
    return NULL;
  return g_steal_pointer (&local);
}

guint
sl_workflow_count_lines (GString *text)
{
  guint n = 0;

  g_return_val_if_fail (text != NULL, 0);

  for (gsize i = 0; i < text->len; i++)
    n += text->str[i] == '\n';
  return n;
}

/**
 * sl_workflow_set_error_if_interrupted_before:
 *
 * Returns: %TRUE, with @error saying that nothing ran on @target, when
 *   @cancellable was cancelled before the workflow's job started
 */
gboolean
sl_workflow_set_error_if_interrupted_before (GCancellable  *cancellable,
                                             SlTarget      *target,
                                             GError       **error)
{
  if (!g_cancellable_is_cancelled (cancellable))
    return FALSE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
               _("Interrupted before the job started: nothing ran on %s"), sl_target_get_name (target));
  return TRUE;
}

/**
 * sl_workflow_set_error_if_interrupted_after:
 * @exit_code: the job's, or -1
 * @left: (nullable): where its output stays on the target
 *
 * Returns: %TRUE, with @error saying the job had ended and what was not
 *   done, when @cancellable was cancelled after the workflow's job ended
 */
gboolean
sl_workflow_set_error_if_interrupted_after (GCancellable  *cancellable,
                                            SlTarget      *target,
                                            int            exit_code,
                                            const char    *left,
                                            GError       **error)
{
  g_autofree char *ended = NULL;

  if (!g_cancellable_is_cancelled (cancellable))
    return FALSE;
  ended = exit_code >= 0
    ? g_strdup_printf (_("the job had ended on %s (exit code %d)"), sl_target_get_name (target), exit_code)
    : g_strdup_printf (_("the job had ended on %s"), sl_target_get_name (target));
  if (left != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after %s: nothing more was done; its output stays in %s"), ended, left);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after %s: nothing more was done"), ended);
  return TRUE;
}
