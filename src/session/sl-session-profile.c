/* sl-session-profile.c: the session profiles a program
 *
 * SlProfileWorkflow runs as profile-run does: the preflight, the job, the
 * export of raw-only data and the pull. Its log streams into the
 * Console, its job is in every Jobs list at once, its problems, with
 * their hints, go to the session's, and the pulled folder is asked to be
 * opened as a Profile.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-session-private.h"

/**
 * sl_session_create_profile:
 * @target_id: a target of the workspace, or 0 for this computer
 * @command: the msprof command; the workflow keeps a copy, so the dialog
 *   that made it can change it for the next run
 *
 * Returns: (transfer full): a profile workflow, not started, that
 *   records its job in the workspace's history
 */
SlProfileWorkflow *
sl_session_create_profile (SlSession        *self,
                           gint64            target_id,
                           const char       *project_dir,
                           const char       *env_script,
                           SlMsprofCommand  *command,
                           GError          **error)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlMsprofCommand) copy = NULL;
  SlProfileWorkflow *workflow;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (command != NULL, NULL);

  if (!(target = sl_session_create_target (self, target_id, error)))
    return NULL;
  copy = sl_msprof_command_copy (command);
  workflow = sl_profile_workflow_new (target, project_dir, copy);
  sl_profile_workflow_set_env_script (workflow, env_script);
  sl_profile_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));
  return workflow;
}

static void
profile_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  SlProfileWorkflow *workflow = SL_PROFILE_WORKFLOW (source);
  g_autoptr(GTask) task = data;
  SlSessionRun *run = g_task_get_task_data (task);
  SlSession *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!sl_profile_workflow_run_finish (workflow, result, &error))
    {
      _sl_session_end_run (run, NULL);
      _sl_session_notice (self, error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  _sl_session_end_run (run, sl_profile_workflow_get_problems (workflow));
  if (sl_profile_workflow_get_profile (workflow) != NULL)
    sl_session_request_open (self, "profile", sl_profile_workflow_get_profile (workflow), NULL);
  g_task_return_boolean (task, TRUE);
}

/**
 * sl_session_run_profile:
 * @workflow: from sl_session_create_profile()
 * @cancellable: (nullable): stops the run (its job too)
 *
 * Runs @workflow as a job of the session. @callback is called once the
 * problems are the session's and the profile was asked to be opened.
 */
void
sl_session_run_profile (SlSession           *self,
                        SlProfileWorkflow   *workflow,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = NULL;
  SlSessionRun *run;

  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (workflow));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_session_run_profile);
  /* The workflow's own error says what became of a cancelled job. */
  g_task_set_check_cancellable (task, FALSE);
  /* The dialog's Cancel stops it, and so does the Console's Stop. */
  title = g_strdup (_("Profile a Program"));
  run = _sl_session_begin_run (self, G_OBJECT (workflow), title, cancellable);
  g_task_set_task_data (task, run, NULL);
  _sl_session_follow_stages (run);
  sl_profile_workflow_run_async (workflow, cancellable, profile_done_cb, g_steal_pointer (&task));
}

/**
 * sl_session_run_profile_finish:
 *
 * Returns: %FALSE with @error only when nothing could be tried or the
 *   run was cancelled; the outcome is in the workflow
 */
gboolean
sl_session_run_profile_finish (SlSession     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
