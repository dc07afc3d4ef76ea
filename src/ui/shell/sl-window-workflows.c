/* sl-window-workflows.c: the window's Profile a Program and Convert a Model
 *
 * Profiling runs SlProfileWorkflow, as profile-run does: the preflight,
 * the job, the export of raw-only data and the pull, its stages shown in
 * the Profile dialog (whose Cancel stops it), its problems put into
 * Problems and the dialog, and the pulled folder opened as a Profile.
 * Converting runs SlConvertWorkflow, as convert does, followed by the
 * ATC dialog itself: its problems go into Problems, and the dialog offers
 * the model to the project's pipelines.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-atc-dialog.h"
#include "sl-convert-workflow.h"
#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-profile-workflow.h"
#include "sl-remote-run.h"
#include "sl-profile-dialog.h"
#include "sl-shell-quote.h"
#include "sl-window-private.h"

static SlTarget *
create_target (SlWindow  *self,
               gint64     target_id,
               GError   **error)
{
  GListModel *targets = sl_workspace_get_targets (self->workspace);

  for (guint i = 0; target_id > 0 && i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      if (sl_target_record_get_id (record) == target_id)
        return sl_target_new_from_record (record, error);
    }
  return sl_local_target_new ();
}

typedef struct {
  SlWindow *window;
  GWeakRef  dialog;  /* follows the run while it is open */
} ProfileRun;

static void
profile_run_free (ProfileRun *run)
{
  g_object_unref (run->window);
  g_weak_ref_clear (&run->dialog);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProfileRun, profile_run_free)

/* The problems, with their hints, go to Problems and the dialog; the
 * pulled folder opens as a Profile and the dialog closes. */
static void
profile_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  SlProfileWorkflow *workflow = SL_PROFILE_WORKFLOW (source);
  g_autoptr(ProfileRun) run = data;
  g_autoptr(SlProfileDialog) dialog = g_weak_ref_get (&run->dialog);
  SlWindow *self = run->window;
  g_autoptr(GError) error = NULL;
  gboolean ok = sl_profile_workflow_run_finish (workflow, result, &error);
  gboolean close_dialog = dialog != NULL && sl_profile_dialog_end_run (dialog, error);
  GPtrArray *problems;

  if (!ok)
    {
      sl_window_show_toast (self, error->message);
      return;
    }
  problems = sl_profile_workflow_get_problems (workflow);
  for (guint i = 0; i < problems->len; i++)
    sl_window_add_problem (self, g_ptr_array_index (problems, i));
  if (sl_profile_workflow_get_profile (workflow) != NULL)
    sl_window_open_document (self, "profile", sl_profile_workflow_get_profile (workflow), NULL);
  else if (dialog == NULL)
    sl_window_show_toast (self, _("No profile came out; Problems says why"));
  if (close_dialog)
    gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
profile_start_cb (SlWindow        *self,
                  gint64           target_id,
                  const char      *project_dir,
                  const char      *env_script,
                  SlProfileDialog *dialog)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(SlMsprofCommand) command = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  ProfileRun *run;

  if (!(target = create_target (self, target_id, &error)))
    {
      sl_window_show_toast (self, error->message);
      return;
    }
  /* A copy: the dialog's fields can be changed for the next run while
   * this one goes on. */
  command = sl_msprof_command_copy (sl_profile_dialog_get_command (dialog));
  workflow = sl_profile_workflow_new (target, project_dir, command);
  sl_profile_workflow_set_env_script (workflow, env_script);
  sl_profile_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));
  cancellable = sl_profile_dialog_begin_run (dialog, workflow);
  run = g_new0 (ProfileRun, 1);
  run->window = g_object_ref (self);
  g_weak_ref_init (&run->dialog, dialog);
  sl_profile_workflow_run_async (workflow, cancellable, profile_done_cb, run);
}

/* Every problem of the run goes to Problems: each ATC error with its
 * option, the log on the target and the copy pulled here. */
static void
convert_finished_cb (SlWindow          *self,
                     SlConvertWorkflow *workflow,
                     SlAtcDialog       *dialog)
{
  GPtrArray *problems = sl_convert_workflow_get_problems (workflow);

  for (guint i = 0; i < problems->len; i++)
    sl_window_add_problem (self, g_ptr_array_index (problems, i));
  if (sl_convert_workflow_succeeded (workflow))
    sl_window_show_toast (self, _("The model was converted"));
  else if (problems->len > 0)
    sl_window_show_toast (self, _("The conversion failed; Problems says why"));
}

static void
convert_pipeline_checked_cb (SlWindow    *self,
                             const char  *path,
                             GPtrArray   *problems,
                             SlAtcDialog *dialog)
{
  for (guint i = 0; i < problems->len; i++)
    sl_window_add_problem (self, g_ptr_array_index (problems, i));
}

static void
atc_convert_cb (SlWindow    *self,
                gint64       target_id,
                const char  *project_dir,
                const char  *env_script,
                SlAtcDialog *dialog)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlConvertWorkflow) workflow = NULL;
  g_autoptr(SlAtcCommand) command = NULL;
  g_autoptr(GError) error = NULL;

  if (!(target = create_target (self, target_id, &error)))
    {
      sl_window_show_toast (self, error->message);
      return;
    }
  /* The run keeps the command as it was when Convert was pressed. */
  command = sl_atc_command_copy (sl_atc_dialog_get_command (dialog));
  workflow = sl_convert_workflow_new (target, project_dir, command);
  sl_convert_workflow_set_env_script (workflow, env_script);
  sl_convert_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));
  sl_atc_dialog_follow (dialog, workflow, project_dir);
}

static const char *
current_folder (SlWindow *self)
{
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint n = g_list_model_get_n_items (folders);
  g_autoptr(SlFolder) last = n > 0 ? g_list_model_get_item (folders, n - 1) : NULL;

  return last ? sl_folder_get_path (last) : NULL;
}

/* A configuration saved from the dialog stays with its project. */
static void
profile_config_saved_cb (SlWindow          *self,
                         SlProjectRecord   *project,
                         SlRunConfigRecord *config,
                         SlProfileDialog   *dialog)
{
  sl_workspace_save_project_async (self->workspace, project, NULL, NULL, NULL);
  sl_window_show_toast (self, _("Saved as a run configuration of the project"));
}

void
_sl_window_open_profile_dialog (SlWindow          *self,
                                SlRunConfigRecord *config)
{
  SlProfileDialog *dialog = sl_profile_dialog_new (current_folder (self));
  GListModel *model = sl_workspace_get_projects (self->workspace);
  g_autoptr(GPtrArray) projects = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (projects, g_list_model_get_item (model, i));
  sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  sl_profile_dialog_set_projects (dialog, projects);
  sl_profile_dialog_start_from (dialog, self->workspace, current_folder (self));
  if (config != NULL)
    sl_profile_dialog_select_config (dialog, config);
  g_signal_connect_object (dialog, "start", G_CALLBACK (profile_start_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "config-saved", G_CALLBACK (profile_config_saved_cb), self, G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
profile_program_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  _sl_window_open_profile_dialog (SL_WINDOW (widget), NULL);
}

static void
convert_model_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlAtcDialog *dialog = sl_atc_dialog_new (current_folder (self));

  GListModel *model = sl_workspace_get_projects (self->workspace);
  g_autoptr(GPtrArray) projects = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (projects, g_list_model_get_item (model, i));
  sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  sl_atc_dialog_set_projects (dialog, projects);
  sl_atc_dialog_start_from (dialog, self->workspace, current_folder (self));
  g_signal_connect_object (dialog, "convert", G_CALLBACK (atc_convert_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "finished", G_CALLBACK (convert_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "pipeline-checked", G_CALLBACK (convert_pipeline_checked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_sl_window_class_add_workflow_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.profile-program", NULL, profile_program_action);
  gtk_widget_class_install_action (widget_class, "win.convert-model", NULL, convert_model_action);
}
