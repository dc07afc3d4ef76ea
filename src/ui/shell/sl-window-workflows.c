/* sl-window-workflows.c: the "session" actions: Run, Profile a Program,
 * Convert a Model and a MindX app
 *
 * Each window holds the dialogs; the session runs what they start, so a
 * job started here shows in every window's Console and Jobs list. The
 * Profile dialog shows its run's stages and its Cancel stops it; the
 * ATC dialog runs the conversion the session follows and offers the
 * model to the project's pipelines. The old "win." names are aliases.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "sl-atc-dialog.h"
#include "sl-profile-dialog.h"
#include "sl-run-dialog.h"
#include "sl-window-private.h"

/* The folder Details shows, or the one opened last. */
const char *
_sl_window_current_folder_path (SlWindow *self)
{
  GObject *item = sl_details_panel_get_item (self->details_panel);
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint n = g_list_model_get_n_items (folders);
  g_autoptr(SlFolder) last = NULL;

  if (SL_IS_FOLDER (item))
    return sl_folder_get_path (SL_FOLDER (item));
  if (n == 0)
    return NULL;

  last = g_list_model_get_item (folders, n - 1);
  return sl_folder_get_path (last);
}

static const char *
last_folder (SlWindow *self)
{
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint n = g_list_model_get_n_items (folders);
  g_autoptr(SlFolder) last = n > 0 ? g_list_model_get_item (folders, n - 1) : NULL;

  return last ? sl_folder_get_path (last) : NULL;
}

static GPtrArray *
dup_projects (SlWindow *self)
{
  GListModel *model = sl_workspace_get_projects (self->workspace);
  GPtrArray *projects = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (projects, g_list_model_get_item (model, i));
  return projects;
}

/* Profile a Program */

typedef struct {
  SlWindow          *window;
  SlProfileWorkflow *workflow;
  GWeakRef           dialog;  /* follows the run while it is open */
} ProfileRun;

static void
profile_run_free (ProfileRun *run)
{
  g_object_unref (run->window);
  g_object_unref (run->workflow);
  g_weak_ref_clear (&run->dialog);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProfileRun, profile_run_free)

/* The session took the problems and opened the pulled folder as a
 * Profile; the dialog says how it ended and closes. */
static void
profile_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  g_autoptr(ProfileRun) run = data;
  g_autoptr(SlProfileDialog) dialog = g_weak_ref_get (&run->dialog);
  g_autoptr(GError) error = NULL;
  gboolean ok = sl_session_run_profile_finish (SL_SESSION (source), result, &error);
  gboolean close_dialog = dialog != NULL && sl_profile_dialog_end_run (dialog, error);

  if (!ok)
    return;
  if (sl_profile_workflow_get_profile (run->workflow) == NULL && dialog == NULL)
    sl_window_show_toast (run->window, _("No profile came out; Problems says why"));
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
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  ProfileRun *run;

  workflow = sl_session_create_profile (self->session, target_id, project_dir, env_script,
                                        sl_profile_dialog_get_command (dialog), &error);
  if (workflow == NULL)
    {
      sl_window_show_toast (self, error->message);
      return;
    }
  cancellable = sl_profile_dialog_begin_run (dialog, workflow);
  run = g_new0 (ProfileRun, 1);
  run->window = g_object_ref (self);
  run->workflow = g_object_ref (workflow);
  g_weak_ref_init (&run->dialog, dialog);
  sl_session_run_profile (self->session, workflow, cancellable, profile_done_cb, run);
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

/* The Profile dialog, filled from @config when it is given. */
static void
open_profile_dialog (SlWindow          *self,
                     SlRunConfigRecord *config)
{
  SlProfileDialog *dialog = sl_profile_dialog_new (last_folder (self));
  g_autoptr(GPtrArray) projects = dup_projects (self);

  sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  sl_profile_dialog_set_projects (dialog, projects);
  sl_profile_dialog_start_from (dialog, self->workspace, last_folder (self));
  if (config != NULL)
    sl_profile_dialog_select_config (dialog, config);
  g_signal_connect_object (dialog, "start", G_CALLBACK (profile_start_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "config-saved", G_CALLBACK (profile_config_saved_cb), self, G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Convert a Model */

static void
convert_pipeline_checked_cb (SlWindow    *self,
                             const char  *path,
                             GPtrArray   *problems,
                             SlAtcDialog *dialog)
{
  sl_session_add_problems (self->session, problems);
}

static void
atc_convert_cb (SlWindow    *self,
                gint64       target_id,
                const char  *project_dir,
                const char  *env_script,
                SlAtcDialog *dialog)
{
  g_autoptr(SlConvertWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;

  workflow = sl_session_create_convert (self->session, target_id, project_dir, env_script,
                                        sl_atc_dialog_get_command (dialog), &error);
  if (workflow == NULL)
    {
      sl_window_show_toast (self, error->message);
      return;
    }
  sl_atc_dialog_follow (dialog, workflow, project_dir);
}

static void
open_convert_dialog (SlWindow *self)
{
  SlAtcDialog *dialog = sl_atc_dialog_new (last_folder (self));
  g_autoptr(GPtrArray) projects = dup_projects (self);

  sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  sl_atc_dialog_set_projects (dialog, projects);
  sl_atc_dialog_start_from (dialog, self->workspace, last_folder (self));
  g_signal_connect_object (dialog, "convert", G_CALLBACK (atc_convert_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "pipeline-checked", G_CALLBACK (convert_pipeline_checked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Run */

/* The next run of the chosen configuration starts from what this one
 * ran with. */
static void
keep_run_choices (SlWindow    *self,
                  SlRunDialog *dialog)
{
  SlProjectRecord *project = sl_run_dialog_get_project (dialog);

  if (project != NULL && sl_run_dialog_keep_slurm_choices (dialog))
    sl_workspace_save_project_async (self->workspace, project, NULL, NULL, NULL);
}

static void
run_on (SlWindow       *self,
        SlRunDialog    *dialog,
        gint64          target_id,
        const char     *command_line,
        const char     *project_dir,
        const char     *pull_dirs,
        SlSlurmOptions *slurm)
{
  SlProjectRecord *project = sl_run_dialog_get_project (dialog);
  g_autoptr(GError) error = NULL;

  keep_run_choices (self, dialog);
  if (slurm != NULL)
    sl_window_show_console (self);
  if (!sl_session_run_on_target (self->session, target_id, command_line, project_dir, pull_dirs,
                                 project ? sl_project_record_get_remote_folder (project) : NULL,
                                 project ? sl_project_record_get_upload_excludes (project) : NULL, slurm, &error))
    sl_window_show_toast (self, error->message);
}

static void
run_on_target_cb (SlWindow    *self,
                  gint64       target_id,
                  const char  *command_line,
                  const char  *project_dir,
                  const char  *pull_dirs,
                  SlRunDialog *dialog)
{
  run_on (self, dialog, target_id, command_line, project_dir, pull_dirs, NULL);
}

static void
run_on_slurm_cb (SlWindow       *self,
                 gint64          target_id,
                 const char     *command_line,
                 const char     *project_dir,
                 const char     *pull_dirs,
                 SlSlurmOptions *options,
                 SlRunDialog    *dialog)
{
  run_on (self, dialog, target_id, command_line, project_dir, pull_dirs, options);
}

static void
run_mindx_cb (SlWindow          *self,
              SlProjectRecord   *project,
              SlRunConfigRecord *config,
              gint64             target_id,
              SlRunDialog       *dialog)
{
  g_autoptr(GError) error = NULL;
  /* The session keeps its own reference until the run ends. */
  g_autoptr(SlMindxWorkflow) workflow = sl_session_run_mindx (self->session, project, config, target_id, &error);

  if (workflow == NULL)
    sl_window_show_toast (self, error->message);
}

static void
run_profile_cb (SlWindow          *self,
                SlProjectRecord   *project,
                SlRunConfigRecord *config,
                SlRunDialog       *dialog)
{
  open_profile_dialog (self, config);
}

static void
run_dialog_response_cb (SlWindow    *self,
                        const char  *command_line,
                        const char  *working_dir,
                        SlRunDialog *dialog)
{
  keep_run_choices (self, dialog);
  sl_window_run_command (self, command_line, working_dir);
}

static void
open_run_dialog (SlWindow *self)
{
  SlRunDialog *dialog = sl_run_dialog_new (_sl_window_current_folder_path (self));
  g_autoptr(GPtrArray) projects = dup_projects (self);

  g_signal_connect_object (dialog, "run", G_CALLBACK (run_dialog_response_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "run-on-target", G_CALLBACK (run_on_target_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "run-on-slurm", G_CALLBACK (run_on_slurm_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "run-mindx", G_CALLBACK (run_mindx_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "run-profile", G_CALLBACK (run_profile_cb), self, G_CONNECT_SWAPPED);
  sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  sl_run_dialog_set_projects (dialog, projects);
  sl_run_dialog_start_from (dialog, self->workspace, _sl_window_current_folder_path (self));
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The "session" action group */

static void
run_action (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  open_run_dialog (SL_WINDOW (user_data));
}

static void
profile_program_action (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  open_profile_dialog (SL_WINDOW (user_data), NULL);
}

static void
convert_model_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  open_convert_dialog (SL_WINDOW (user_data));
}

/* "(xux)": a project's id, the index of its MindX configuration and the
 * target (0: this computer). */
static void
run_mindx_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  SlWindow *self = SL_WINDOW (user_data);
  GListModel *projects = sl_workspace_get_projects (self->workspace);
  gint64 project_id = 0;
  gint64 target_id = 0;
  guint index = 0;

  g_variant_get (param, "(xux)", &project_id, &index, &target_id);
  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(SlProjectRecord) project = g_list_model_get_item (projects, i);

      if (sl_project_record_get_id (project) == project_id && index < sl_project_record_get_n_run_configs (project))
        {
          run_mindx_cb (self, project, sl_project_record_get_run_config (project, index), target_id, NULL);
          return;
        }
    }
}

void
_sl_window_insert_session_actions (SlWindow *self)
{
  static const GActionEntry entries[] = {
    { "run", run_action },
    { "profile-program", profile_program_action },
    { "convert-model", convert_model_action },
    { "run-mindx", run_mindx_action, "(xux)" },
  };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "session", G_ACTION_GROUP (group));
}

/* The names the actions had in the window, kept for menus and scripts. */
static void
alias_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  g_autofree char *name = g_strconcat ("session.", action_name + strlen ("win."), NULL);

  gtk_widget_activate_action_variant (widget, name, param);
}

void
_sl_window_class_add_session_aliases (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.run", NULL, alias_action);
  gtk_widget_class_install_action (widget_class, "win.profile-program", NULL, alias_action);
  gtk_widget_class_install_action (widget_class, "win.convert-model", NULL, alias_action);
}
