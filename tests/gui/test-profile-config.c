/* test-profile-config.c: the Profile dialog wrapping a run configuration, and profile configurations
 *
 * Choosing a project's run configuration in the Profile dialog fills the
 * program, its arguments and environment and the working folder; "Save
 * as Run Configuration" keeps the profiling choices in a profile
 * configuration of the project, in the workspace database; choosing that
 * configuration in the Run dialog opens the Profile dialog filled from
 * it, ready to start. Light and dark screenshots of the dialog so filled.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-profile-dialog.h"
#include "sl-profile-settings.h"
#include "sl-run-dialog.h"
#include "sl-workspace.h"

static SlWindow *window;
static SlApplication *app;

static gboolean
moment_passed (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (moment_passed, &until, 1000);
}

static gpointer
child (gpointer    dialog,
       GType       type,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), type, name);

  g_assert_nonnull (object);
  return object;
}

#define PROFILE_CHILD(dialog, name) child ((dialog), SL_TYPE_PROFILE_DIALOG, (name))

static const char *
text_of (gpointer dialog,
         const char *name)
{
  return gtk_editable_get_text (GTK_EDITABLE (PROFILE_CHILD (dialog, name)));
}

static gpointer
find_toplevel (GType type)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
profile_dialog_shown (gpointer data)
{
  SlProfileDialog *dialog = find_toplevel (SL_TYPE_PROFILE_DIALOG);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
no_profile_dialog (gpointer data)
{
  return find_toplevel (SL_TYPE_PROFILE_DIALOG) == NULL;
}

static SlProjectRecord *
stored_project (void)
{
  g_autoptr(GPtrArray) projects = sl_workspace_run_sync (sl_application_get_workspace (app), list_projects_func, NULL, NULL);

  g_assert_nonnull (projects);
  g_assert_cmpuint (projects->len, ==, 1);
  return g_object_ref (g_ptr_array_index (projects, 0));
}

static gboolean
stored_configs_are (gpointer data)
{
  g_autoptr(SlProjectRecord) project = stored_project ();

  return sl_project_record_get_n_run_configs (project) == GPOINTER_TO_UINT (data);
}

static SlProfileDialog *
open_profile_dialog (void)
{
  SlProfileDialog *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.profile-program", NULL));
  g_assert_true (wait_until (profile_dialog_shown, NULL, 10000));
  dialog = find_toplevel (SL_TYPE_PROFILE_DIALOG);
  g_assert_nonnull (dialog);
  return dialog;
}

static void
close_profile_dialog (SlProfileDialog *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (wait_until (no_profile_dialog, NULL, 10000));
}

static void
test_round_trip (void)
{
  static const char * const args[] = { "--epochs", "2", NULL };
  static const char * const env[] = { "ASCEND_RT_VISIBLE_DEVICES=1", NULL };
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *folder = g_dir_make_tmp ("sl-profile-config-XXXXXX", NULL);
  g_autofree char *data_dir = g_build_filename (folder, "data", NULL);
  g_autoptr(SlProjectRecord) project = sl_project_record_new ("resnet", folder);
  g_autoptr(SlRunConfigRecord) train = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "train", "python3 train.py");
  g_autoptr(SlProjectRecord) stored = NULL;
  g_autoptr(SlMsprofCommand) saved = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *saved_env = NULL;
  g_autofree char *program_line = NULL;
  g_autofree char *preview = NULL;
  g_auto(GStrv) saved_argv = NULL;
  SlRunConfigRecord *profile;
  SlProfileDialog *dialog;
  SlRunDialog *run_dialog;
  gboolean done = FALSE;

  g_assert_cmpint (g_mkdir (data_dir, 0700), ==, 0);
  sl_run_config_record_set_arguments (train, args);
  sl_run_config_record_set_environment (train, env);
  sl_run_config_record_set_working_folder (train, "data");
  sl_project_record_add_run_config (project, train);
  sl_workspace_save_project_async (sl_application_get_workspace (app), project, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));

  /* Wrapping the training configuration: its program, arguments,
   * environment and folder; the profiling options stay as they were. */
  dialog = open_profile_dialog ();
  g_assert_true (gtk_widget_get_visible (PROFILE_CHILD (dialog, "config_row")));
  g_assert_false (gtk_widget_is_sensitive (PROFILE_CHILD (dialog, "save_button")));
  adw_combo_row_set_selected (PROFILE_CHILD (dialog, "config_row"), 1);
  program_line = g_strdup (text_of (dialog, "program_row"));
  g_assert_nonnull (strstr (program_line, "ASCEND_RT_VISIBLE_DEVICES=1"));
  g_assert_nonnull (strstr (program_line, "train.py"));
  g_assert_nonnull (strstr (program_line, "--epochs"));
  g_assert_true (g_str_has_suffix (text_of (dialog, "folder_row"), "/data"));
  g_assert_cmpuint (adw_combo_row_get_selected (PROFILE_CHILD (dialog, "metrics_row")), ==, 2);
  preview = g_strdup (sl_profile_dialog_get_command_preview (dialog));
  g_assert_nonnull (strstr (preview, "msprof"));
  g_assert_nonnull (strstr (preview, "train.py"));

  /* The choices made here, saved as a profile configuration. */
  adw_combo_row_set_selected (PROFILE_CHILD (dialog, "metrics_row"), 4);
  gtk_editable_set_text (GTK_EDITABLE (PROFILE_CHILD (dialog, "host_row")), "cpu,mem");
  gtk_editable_set_text (GTK_EDITABLE (PROFILE_CHILD (dialog, "env_row")), "/usr/local/Ascend/ascend-toolkit/set_env.sh");
  gtk_editable_set_text (GTK_EDITABLE (PROFILE_CHILD (dialog, "output_row")), "prof-out");
  g_assert_true (gtk_widget_is_sensitive (PROFILE_CHILD (dialog, "save_button")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "profile.save-config", NULL));
  g_assert_true (wait_until (stored_configs_are, GUINT_TO_POINTER (2), 10000));
  /* The new configuration is the chosen one; the fields stay as typed. */
  g_assert_cmpuint (adw_combo_row_get_selected (PROFILE_CHILD (dialog, "config_row")), ==, 2);
  g_assert_cmpstr (text_of (dialog, "host_row"), ==, "cpu,mem");

  stored = stored_project ();
  profile = sl_project_record_get_run_config (stored, 1);
  g_assert_cmpint (sl_run_config_record_get_kind (profile), ==, SL_RUN_CONFIG_KIND_PROFILE);
  g_assert_cmpstr (sl_run_config_record_get_name (profile), ==, "Profile train.py");
  g_assert_cmpstr (sl_run_config_record_get_command (profile), ==, "python3");
  g_assert_cmpstr (sl_run_config_record_get_environment (profile)[0], ==, "ASCEND_RT_VISIBLE_DEVICES=1");
  g_assert_cmpstr (sl_run_config_record_get_working_folder (profile), ==, "data");
  saved = sl_profile_settings_load (profile, &saved_env, &problems);
  g_assert_null (problems);
  g_assert_cmpstr (saved_env, ==, "/usr/local/Ascend/ascend-toolkit/set_env.sh");
  g_assert_cmpstr (sl_msprof_command_get_aic_metrics (saved), ==, sl_msprof_aic_metrics ()[3]);
  g_assert_cmpstr (sl_msprof_command_get_host_sys (saved), ==, "cpu,mem");
  g_assert_cmpstr (sl_msprof_command_get_output (saved), ==, "prof-out");
  saved_argv = sl_msprof_command_dup_argv (saved, NULL);
  g_assert_nonnull (saved_argv);
  close_profile_dialog (dialog);

  /* The Run dialog hands the profile configuration to the Profile dialog. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  run_dialog = find_toplevel (SL_TYPE_RUN_DIALOG);
  g_assert_nonnull (run_dialog);
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, run_dialog, 10000));
  sl_run_dialog_select_config (run_dialog, 1);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (child (run_dialog, SL_TYPE_RUN_DIALOG, "config_row")),
                            "Profile dialog"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run_dialog), "run.run", NULL));
  g_assert_true (wait_until (profile_dialog_shown, NULL, 10000));
  dialog = find_toplevel (SL_TYPE_PROFILE_DIALOG);
  g_assert_null (find_toplevel (SL_TYPE_RUN_DIALOG));

  g_assert_cmpuint (adw_combo_row_get_selected (PROFILE_CHILD (dialog, "config_row")), ==, 2);
  g_assert_cmpstr (text_of (dialog, "program_row"), ==, program_line);
  g_assert_true (g_str_has_suffix (text_of (dialog, "folder_row"), "/data"));
  g_assert_cmpstr (text_of (dialog, "env_row"), ==, "/usr/local/Ascend/ascend-toolkit/set_env.sh");
  g_assert_cmpstr (text_of (dialog, "host_row"), ==, "cpu,mem");
  g_assert_cmpstr (text_of (dialog, "output_row"), ==, "prof-out");
  g_assert_cmpuint (adw_combo_row_get_selected (PROFILE_CHILD (dialog, "metrics_row")), ==, 4);
  /* Every saved choice was taken: no notice under the configuration. */
  g_assert_cmpstr (adw_action_row_get_subtitle (PROFILE_CHILD (dialog, "config_row")), ==, "");
  g_assert_true (gtk_widget_is_sensitive (PROFILE_CHILD (dialog, "start_button")));
  {
    g_auto(GStrv) argv = sl_msprof_command_dup_argv (sl_profile_dialog_get_command (dialog), NULL);

    g_assert_true (g_strv_equal ((const char * const *)argv, (const char * const *)saved_argv));
  }

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "profile-config.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "profile-config-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  close_profile_dialog (dialog);

  g_rmdir (data_dir);
  g_rmdir (folder);
}

int
main (int    argc,
      char **argv)
{
  int status;

  make_test_home ("sightline-profile-config-XXXXXX");
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  window = start_application (&app);

  g_test_add_func ("/profile-dialog/run-config", test_round_trip);
  status = g_test_run ();

  g_clear_object (&app);
  return status;
}
