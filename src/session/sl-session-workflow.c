/* sl-session-workflow.c: a workflow's run as a job of the session
 *
 * The Profile, Convert and MindX workflows run their job through the
 * session's one job controller: its start, log, messages and end come
 * out as the controller's signals, and so as the session's job signals,
 * as a Run job's do, and every window's Jobs list shows it at once with
 * its start and end times. The session keeps the run for what is its
 * own: busy, the current job, the Console's Stop and the problems.
 * The command line runs its workflows the same way, waiting for the end
 * (sl_session_run_workflow_sync()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-local-target.h"
#include "sl-session-private.h"

static void
run_free (SlSessionRun *run)
{
  g_clear_object (&run->session);
  g_clear_object (&run->workflow);
  g_clear_object (&run->cancellable);
  g_free (run->title);
  g_free (run);
}

/**
 * _sl_session_begin_run:
 * @workflow: an #SlProfileWorkflow, #SlConvertWorkflow or #SlMindxWorkflow
 *   not started yet
 * @cancellable: (nullable): what the Console's Stop cancels
 *
 * Returns: (transfer none): the run, owned by the session until
 *   _sl_session_end_run()
 */
SlSessionRun *
_sl_session_begin_run (SlSession    *self,
                       GObject      *workflow,
                       const char   *title,
                       GCancellable *cancellable)
{
  SlSessionRun *run = g_new0 (SlSessionRun, 1);

  run->session = g_object_ref (self);
  run->workflow = g_object_ref (workflow);
  run->title = g_strdup (title);
  run->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  sl_workflow_set_job_controller (SL_WORKFLOW (workflow), self->jobs);
  g_ptr_array_add (self->runs, run);

  g_object_notify (G_OBJECT (self), "n-runs");
  g_object_notify (G_OBJECT (self), "current-job");
  _sl_session_update_busy (self);
  _sl_session_update_running (self);
  return run;
}

static void
stage_cb (SlWorkflow   *workflow,
          GParamSpec   *pspec,
          SlSessionRun *run)
{
  int stage = sl_workflow_get_stage (workflow);

  if (stage != 0 && stage != SL_WORKFLOW_GET_CLASS (workflow)->done_stage)
    _sl_session_run_status (run, sl_workflow_get_stage_label (workflow));
}

/**
 * _sl_session_follow_stages:
 *
 * Each stage of the run but the first and the last is the status of
 * its job, until _sl_session_end_run().
 */
void
_sl_session_follow_stages (SlSessionRun *run)
{
  g_signal_connect (run->workflow, "notify::stage", G_CALLBACK (stage_cb), run);
}

/**
 * _sl_session_run_status:
 *
 * A new stage of the run: once its job started, the Console says it as
 * the job's status.
 */
void
_sl_session_run_status (SlSessionRun *run,
                        const char   *status)
{
  guint job = sl_workflow_get_controller_job (SL_WORKFLOW (run->workflow));

  if (run->ended || job == 0)
    return;
  g_signal_emit (run->session, _sl_session_signals[SL_SESSION_JOB_STATUS], 0, job, status);
}

guint
_sl_session_count_errors (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

void
_sl_session_end_run (SlSessionRun *run,
                     GPtrArray    *problems)
{
  SlSession *self = g_object_ref (run->session);

  g_return_if_fail (!run->ended);

  /* The job ended in the Console with the workflow's verdict, which the
   * workflow recorded in the history too. */
  run->ended = TRUE;
  g_signal_handlers_disconnect_by_func (run->workflow, stage_cb, run);
  sl_session_add_problems (self, problems);
  g_ptr_array_remove (self->runs, run);
  g_object_notify (G_OBJECT (self), "n-runs");
  g_object_notify (G_OBJECT (self), "current-job");
  _sl_session_update_busy (self);
  run_free (run);
  _sl_session_update_running (self);
  g_object_unref (self);
}

/**
 * sl_session_create_target:
 * @target_id: a target of the workspace, or 0 for this computer
 *
 * Returns: (transfer full): the target, this computer's when @target_id
 *   is not among the workspace's targets
 */
SlTarget *
sl_session_create_target (SlSession  *self,
                          gint64      target_id,
                          GError    **error)
{
  GListModel *targets;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  targets = sl_workspace_get_targets (self->workspace);
  for (guint i = 0; target_id > 0 && i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      if (sl_target_record_get_id (record) == target_id)
        return sl_target_new_from_record (record, error);
    }
  return sl_local_target_new ();
}

/* What a workflow's job is called where the current job is shown. */
static char *
dup_title (SlWorkflow *workflow)
{
  g_autofree char *project = NULL;

  if (SL_IS_PROFILE_WORKFLOW (workflow))
    return g_strdup (_("Profile a Program"));
  if (SL_IS_CONVERT_WORKFLOW (workflow))
    return g_strdup (_("Convert a Model with ATC"));
  project = g_path_get_basename (sl_workflow_get_project_dir (workflow));
  /* TRANSLATORS: %s is the name of a run configuration */
  return g_strdup_printf (_("MindX app %s"), project);
}

static void
sync_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  *(GAsyncResult **)data = g_object_ref (result);
}

/**
 * sl_session_run_workflow_sync:
 * @workflow: an #SlProfileWorkflow, #SlConvertWorkflow or #SlMindxWorkflow
 *   not started yet
 * @cancellable: (nullable): stops the run: a started job is stopped on
 *   its target and seen to end before this returns
 *
 * Runs @workflow as a job of the session, as the windows' Profile,
 * Convert and MindX do, for programs without a main loop (the command
 * line): iterates the thread-default main context until it ended. Its
 * job is in the history with its start, its end and the workflow's
 * verdict; its problems go to the session's. Its "log" and "message"
 * signals come in the thread-default main context as it runs.
 *
 * Returns: %FALSE with @error only when nothing could be tried or the
 *   run was cancelled; the outcome is in the workflow
 */
gboolean
sl_session_run_workflow_sync (SlSession     *self,
                              SlWorkflow    *workflow,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *title = NULL;
  SlSessionRun *run;
  gboolean ok;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (SL_IS_WORKFLOW (workflow), FALSE);
  g_return_val_if_fail (!sl_workflow_is_running (workflow), FALSE);

  title = dup_title (workflow);
  run = _sl_session_begin_run (self, G_OBJECT (workflow), title, cancellable);
  _sl_session_follow_stages (run);
  sl_workflow_run_async (workflow, cancellable, sync_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  ok = sl_workflow_run_finish (workflow, result, error);
  _sl_session_end_run (run, ok ? sl_workflow_get_problems (workflow) : NULL);
  return ok;
}
