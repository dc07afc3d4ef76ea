/* sl-workflow-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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
  ok = sl_job_controller_run_remote_sync (jobs, run, command_line, &status, exit_code, error);
  g_cancellable_disconnect (cancellable, stop_id);
  sl_workspace_flush (workspace);
  if (ok && status != SL_JOB_STATUS_EXITED)
    *exit_code = -1;
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
