/* sl-session-convert.c: the session follows a model's conversion
 *
 * SlConvertWorkflow runs as convert does, started by the ATC dialog that
 * shows its stages. The session follows it as one of its jobs: its log
 * streams into the Console, its job is in every Jobs list at once, and
 * when it is done every problem (each ATC error with its option, the log
 * on the target and the copy pulled here) goes to the session's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-session-private.h"

/* The source model and the .om, when both are on this computer, can be
 * opened together: the conversion document of the two, in that order,
 * with the request that opens both graphs. */
static void
offer_conversion (SlSession         *self,
                  SlConvertWorkflow *workflow)
{
  g_autofree char *source = sl_convert_workflow_dup_local_source (workflow);
  const char *om = sl_convert_workflow_get_local_output (workflow);

  if (source == NULL || om == NULL)
    {
      _sl_session_notice (self, _("The model was converted"));
      return;
    }
  {
    const char *paths[] = { source, om, NULL };

    _sl_session_offer (self, _("The model was converted"), _("Open Source and Model"), "conversion", paths,
                       g_variant_new ("(s)", "graphs"));
  }
}

static void
convert_stage_cb (SlConvertWorkflow *workflow,
                  GParamSpec        *pspec,
                  SlSessionRun      *run)
{
  SlConvertStage stage = sl_convert_workflow_get_stage (workflow);
  SlSession *self = run->session;
  GPtrArray *problems;

  if (stage != SL_CONVERT_STAGE_DONE)
    return;

  /* The stage is said on this context after the run's last change. */
  g_object_ref (self);
  g_signal_handlers_disconnect_by_func (workflow, convert_stage_cb, run);
  problems = sl_convert_workflow_get_problems (workflow);
  _sl_session_end_run (run, problems);
  if (sl_convert_workflow_succeeded (workflow))
    offer_conversion (self, workflow);
  else if (problems->len > 0)
    _sl_session_notice (self, _("The conversion failed; Problems says why"));
  g_object_unref (self);
}

/**
 * sl_session_create_convert:
 * @target_id: a target of the workspace, or 0 for this computer
 * @command: the ATC command; the workflow keeps a copy, as it was when
 *   Convert was pressed
 *
 * Returns: (transfer full): a conversion, not started, that the session
 *   follows as one of its jobs once it is run
 */
SlConvertWorkflow *
sl_session_create_convert (SlSession     *self,
                           gint64         target_id,
                           const char    *project_dir,
                           const char    *env_script,
                           SlAtcCommand  *command,
                           GError       **error)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlAtcCommand) copy = NULL;
  SlConvertWorkflow *workflow;
  SlSessionRun *run;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (command != NULL, NULL);

  if (!(target = sl_session_create_target (self, target_id, error)))
    return NULL;
  copy = sl_atc_command_copy (command);
  workflow = sl_convert_workflow_new (target, project_dir, copy);
  sl_convert_workflow_set_env_script (workflow, env_script);
  sl_convert_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));

  run = _sl_session_begin_run (self, G_OBJECT (workflow), _("Convert a Model with ATC"), NULL);
  _sl_session_follow_stages (run);
  g_signal_connect (workflow, "notify::stage", G_CALLBACK (convert_stage_cb), run);
  return workflow;
}
