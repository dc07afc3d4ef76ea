/* sl-session-mindx.c: the session runs a MindX SDK app configuration
 *
 * The Run dialog hands a MindX configuration to the session;
 * SlMindxWorkflow runs it in a worker, as sightline-cli job run --config
 * does. Its log and messages reach the session's context (and the
 * Console) through the session, its stages are the Console's status, the
 * Console's Stop cancels it, and the problems, with their hints, go to
 * the session's when the run ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-session-private.h"

static void
show_outcome (SlSession       *self,
              SlMindxWorkflow *workflow)
{
  GPtrArray *problems = sl_mindx_workflow_get_problems (workflow);
  guint errors = _sl_session_count_errors (problems);
  const char * const *pulled = sl_mindx_workflow_get_pulled (workflow);
  g_autofree char *text = NULL;

  if (errors > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The MindX app failed: %u problem, in Problems",
                                         "The MindX app failed: %u problems, in Problems", errors), errors);
  else if (pulled != NULL && pulled[0] != NULL)
    text = g_strdup_printf (_("The MindX app ran; its output is in %s"), pulled[0]);
  else
    text = g_strdup (_("The MindX app ran"));
  _sl_session_notice (self, text);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  SlMindxWorkflow *workflow = SL_MINDX_WORKFLOW (source);
  SlSessionRun *run = data;
  g_autoptr(SlSession) self = g_object_ref (run->session);
  g_autoptr(GError) error = NULL;
  GPtrArray *problems;

  if (!sl_mindx_workflow_run_finish (workflow, result, &error))
    {
      _sl_session_end_run (run, NULL);
      _sl_session_notice (self, error->message);
      return;
    }
  problems = sl_mindx_workflow_get_problems (workflow);
  /* The samples print the SDK's code and exit with 0: the job is said to
   * have failed when the problems hold errors, whatever the exit code. */
  _sl_session_end_run (run, problems);
  if (_sl_session_count_errors (problems) > 0)
    sl_session_request_open (self, "panel", "problems", NULL);
  show_outcome (self, workflow);
}

/**
 * sl_session_run_mindx:
 * @target_id: a target of the workspace, or 0 for this computer
 *
 * Starts the MindX workflow for @config of @project as a job of the
 * session.
 *
 * Returns: (transfer full): the workflow, or %NULL with @error when the
 *   target cannot be made
 */
SlMindxWorkflow *
sl_session_run_mindx (SlSession          *self,
                      SlProjectRecord    *project,
                      SlRunConfigRecord  *config,
                      gint64              target_id,
                      GError            **error)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autofree char *title = NULL;
  SlSessionRun *run;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (project), NULL);
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  if (!(target = sl_session_create_target (self, target_id, error)))
    return NULL;
  workflow = sl_mindx_workflow_new_for_config (target, sl_project_record_get_local_folder (project), config);
  sl_mindx_workflow_set_remote_dir (workflow, sl_project_record_get_remote_folder (project));
  sl_mindx_workflow_set_excludes (workflow, sl_project_record_get_upload_excludes (project));
  sl_mindx_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));

  cancellable = g_cancellable_new ();
  /* TRANSLATORS: %s is the name of a run configuration */
  title = g_strdup_printf (_("MindX app %s"), sl_run_config_record_get_name (config));
  run = _sl_session_begin_run (self, G_OBJECT (workflow), title, cancellable);
  /* The Console shows the run; toasts would queue up behind its end. */
  _sl_session_follow_stages (run);
  sl_mindx_workflow_run_async (workflow, cancellable, done_cb, run);
  return g_steal_pointer (&workflow);
}
