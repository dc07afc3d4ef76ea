/* test-dialogs-laptop.c: the dialogs on a laptop's screen
 *
 * Every dialog fits 1024 × 640 (its content scrolls); the Projects
 * dialog's remote folder says where an empty one uploads to; the Run
 * dialog's preview leads with the command typed and folds the wrapper;
 * Run…, Profile and Convert start from the project in use and its target,
 * never from a copy pulled into the cache, with the fields last closed
 * with for that project (damaged kept values left out); Convert offers
 * the run configurations; a Profile outcome says it is of the earlier
 * fields once they change. Screenshots at that size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include "sl-atc-dialog.h"
#include "sl-local-target.h"
#include "sl-preferences-window.h"
#include "sl-profile-dialog.h"
#include "sl-project-dialog.h"
#include "sl-project-record.h"
#include "sl-run-config-record.h"
#include "sl-run-dialog.h"
#include "sl-target-dialog.h"
#include "sl-target-record.h"

#define MAX_DIALOG_HEIGHT 600

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;
static char *project_dir;
static SlTargetRecord *server;    /* an SSH target never connected to */
static SlProjectRecord *project;  /* in project_dir, on the server */

static gboolean
idle_for_a_moment (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 1000);
}

static gpointer
child (gpointer    dialog,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), G_OBJECT_TYPE (dialog), name);

  g_assert_nonnull (object);
  return object;
}

static void
present (gpointer dialog)
{
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, dialog, 10000));
  settle ();
}

/* A server and a project on it, in the workspace. */
static void
add_server_and_project (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  g_autoptr(SlRunConfigRecord) train = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "train", "python3");
  const char * const args[] = { "train.py", "--epochs", "3", NULL };
  gboolean done = FALSE;

  server = sl_target_record_new (SL_TARGET_KIND_SSH, "gpu");
  sl_target_record_set_host (server, "192.0.2.10");
  sl_target_record_set_remote_base_folder (server, "~/sightline");
  sl_workspace_save_target_async (workspace, server, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));

  project_dir = g_build_filename (tmp_root, "proj", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);
  project = sl_project_record_new ("proj", project_dir);
  sl_project_record_set_target_id (project, sl_target_record_get_id (server));
  sl_run_config_record_set_arguments (train, args);
  sl_project_record_add_run_config (project, train);
  done = FALSE;
  sl_workspace_save_project_async (workspace, project, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));
}

/* Its minimum and natural heights, and the height it opens at. */
static void
assert_fits (gpointer    dialog,
             const char *screenshot)
{
  int minimum = 0, natural = 0;
  int default_width = 0, default_height = 0;

  gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
  gtk_window_get_default_size (GTK_WINDOW (dialog), &default_width, &default_height);
  g_test_message ("%s: minimum %d, natural %d, default %d, shown %d", G_OBJECT_TYPE_NAME (dialog), minimum, natural,
                  default_height, gtk_widget_get_height (GTK_WIDGET (dialog)));
  g_assert_cmpint (minimum, <=, MAX_DIALOG_HEIGHT);
  g_assert_cmpint (natural, <=, MAX_DIALOG_HEIGHT);
  g_assert_cmpint (default_height, <=, MAX_DIALOG_HEIGHT);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (dialog)), <=, MAX_DIALOG_HEIGHT);
  wait_for_frames (GTK_WIDGET (dialog));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, screenshot);
}

static GPtrArray *
all_projects (void)
{
  GListModel *model = sl_workspace_get_projects (sl_window_get_workspace (window));
  GPtrArray *projects = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (projects, g_list_model_get_item (model, i));
  return projects;
}

/* Filled in as far as they go, with their longest parts shown. */
static void
test_dialogs_fit (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  g_autoptr(GPtrArray) projects = all_projects ();

  {
    SlRunDialog *dialog = sl_run_dialog_new (project_dir);

    sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), sl_target_record_get_id (server));
    sl_run_dialog_set_projects (dialog, projects);
    sl_run_dialog_set_slurm (dialog, TRUE);
    sl_run_dialog_set_command (dialog, "python3 train.py --epochs 3");
    present (dialog);
    gtk_expander_set_expanded (child (dialog, "wrapper_expander"), TRUE);
    settle ();
    assert_fits (dialog, "laptop-run-dialog.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  {
    SlProfileDialog *dialog = sl_profile_dialog_new (project_dir);

    sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), 0);
    sl_profile_dialog_set_projects (dialog, projects);
    present (dialog);
    assert_fits (dialog, "laptop-profile-dialog.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  {
    SlAtcDialog *dialog = sl_atc_dialog_new (project_dir);

    sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), 0);
    present (dialog);
    assert_fits (dialog, "laptop-atc-dialog.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  {
    SlProjectDialog *dialog = sl_project_dialog_new (workspace);

    present (dialog);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
    settle ();
    g_assert_true (gtk_widget_get_visible (child (dialog, "configs_group")));
    assert_fits (dialog, "laptop-project-dialog.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  {
    SlTargetDialog *dialog = sl_target_dialog_new (workspace);

    present (dialog);
    assert_fits (dialog, "laptop-target-dialog.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  {
    GtkWidget *dialog = sl_preferences_window_new ();

    present (dialog);
    assert_fits (dialog, "laptop-preferences.png");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
}

/* An empty remote folder's title says the folder it means, as a run
 * works it out: the target's folder for projects, then the local
 * folder's name, without another "sightline" in between. */
static void
test_remote_folder_title (void)
{
  SlProjectDialog *dialog = sl_project_dialog_new (sl_window_get_workspace (window));
  AdwPreferencesRow *remote = child (dialog, "remote_folder_row");

  present (dialog);
  g_assert_true (sl_project_dialog_select_project (dialog, sl_project_record_get_id (project)));
  g_assert_cmpstr (adw_preferences_row_get_title (remote), ==, "Remote folder (empty: ~/sightline/proj)");
  adw_combo_row_set_selected (child (dialog, "target_row"), 0);   /* this computer */
  g_assert_cmpstr (adw_preferences_row_get_title (remote), ==,
                   "Remote folder (empty: on this computer the project runs in its local folder)");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The preview leads with the command typed and where it runs; the
 * wrapper that is sent is folded under it. */
static void
test_run_preview (void)
{
  SlRunDialog *dialog = sl_run_dialog_new (project_dir);
  GtkExpander *expander;
  const char *wrapper;

  sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (sl_window_get_workspace (window)),
                             sl_target_record_get_id (server));
  sl_run_dialog_set_command (dialog, "python3 train.py --epochs 3");
  present (dialog);

  g_assert_true (gtk_widget_get_visible (child (dialog, "preview_box")));
  g_assert_cmpstr (gtk_label_get_label (child (dialog, "preview_lead")), ==, "python3 train.py --epochs 3");
  g_assert_cmpstr (gtk_label_get_label (child (dialog, "preview_where")), ==,
                   "Runs in ~/sightline/proj on the target, after the folder is uploaded there");
  expander = child (dialog, "wrapper_expander");
  g_assert_false (gtk_expander_get_expanded (expander));
  g_assert_cmpstr (gtk_expander_get_label (expander), ==, "Wrapper script");
  wrapper = sl_run_dialog_get_command_preview (dialog);
  g_assert_nonnull (strstr (wrapper, ".sightline/jobs"));
  g_assert_nonnull (strstr (wrapper, "train.py"));
  wait_for_frames (GTK_WIDGET (dialog));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "laptop-run-preview.png");

  /* Slurm: the command first, the batch script folded. */
  sl_run_dialog_set_slurm (dialog, TRUE);
  settle ();
  g_assert_cmpstr (gtk_label_get_label (child (dialog, "preview_lead")), ==, "python3 train.py --epochs 3");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (child (dialog, "preview_where")), "Submitted to Slurm in ~/sightline/proj"));
  g_assert_true (g_str_has_prefix (sl_run_dialog_get_command_preview (dialog), "This batch script is submitted with sbatch:"));
  gtk_window_destroy (GTK_WINDOW (dialog));
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
toplevel_shown (gpointer type)
{
  gpointer dialog = find_toplevel (GPOINTER_TO_SIZE (type));

  return dialog != NULL && gtk_widget_get_mapped (dialog);
}

/* Opens a dialog as the main menu does. */
static gpointer
open_from_window (const char *action,
                  GType       type)
{
  gpointer dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  g_assert_true (wait_until (toplevel_shown, GSIZE_TO_POINTER (type), 10000));
  dialog = find_toplevel (type);
  settle ();
  return dialog;
}

static const char *
selected_string (gpointer row)
{
  GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (row));

  return gtk_string_list_get_string (GTK_STRING_LIST (model), adw_combo_row_get_selected (ADW_COMBO_ROW (row)));
}

/* As the Cancel or Close button does: it keeps the fields. */
static void
close_dialog (gpointer dialog)
{
  GType type = G_OBJECT_TYPE (dialog);

  gtk_window_close (GTK_WINDOW (dialog));
  settle ();
  g_assert_null (find_toplevel (type));
}

/* The last folder opened is a copy pulled from the server into the
 * cache: Run…, Profile and Convert start from the project in use, in
 * its folder and on its target, never in the copy on this computer. */
static void
test_start_from_project (void)
{
  g_autofree char *pulled = g_build_filename (g_get_user_cache_dir (), "sightline", "targets", "gpu", "~",
                                              "sightline", "proj", "out", NULL);
  gpointer dialog;

  g_assert_cmpint (g_mkdir_with_parents (pulled, 0700), ==, 0);
  g_assert_nonnull (sl_window_open_path (window, pulled));
  settle ();

  dialog = open_from_window ("win.run", SL_TYPE_RUN_DIALOG);
  g_assert_cmpstr (sl_run_dialog_get_folder (dialog), ==, project_dir);
  g_assert_cmpstr (selected_string (child (dialog, "target_row")), ==, "gpu (192.0.2.10)");
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "laptop-run-start.png");
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = open_from_window ("win.profile-program", SL_TYPE_PROFILE_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "folder_row")), ==, project_dir);
  g_assert_cmpstr (selected_string (child (dialog, "target_row")), ==, "gpu");
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "folder_row")), ==, project_dir);
  g_assert_cmpstr (selected_string (child (dialog, "target_row")), ==, "gpu");
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "laptop-atc-start.png");
  gtk_window_destroy (GTK_WINDOW (dialog));

  g_assert_true (sl_workspace_remove_folder (sl_window_get_workspace (window), pulled));
}

/* Convert keeps its fields from one opening to the next, per project:
 * another project starts from its own (here, none). */
static void
test_convert_keeps_fields (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  g_autofree char *other_dir = g_build_filename (tmp_root, "other", NULL);
  g_autoptr(SlProjectRecord) other = sl_project_record_new ("other", other_dir);
  gboolean done = FALSE;
  gpointer dialog;

  g_assert_cmpint (g_mkdir_with_parents (other_dir, 0700), ==, 0);
  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  adw_combo_row_set_selected (child (dialog, "framework_row"), 3);   /* ONNX */
  gtk_editable_set_text (child (dialog, "model_row"), "net.onnx");
  gtk_editable_set_text (child (dialog, "output_row"), "net");
  gtk_editable_set_text (child (dialog, "soc_row"), "Ascend310P3");
  gtk_editable_set_text (child (dialog, "env_row"), "/opt/ascend/set_env.sh");
  adw_combo_row_set_selected (child (dialog, "log_row"), 2);
  close_dialog (dialog);

  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  g_assert_cmpuint (adw_combo_row_get_selected (child (dialog, "framework_row")), ==, 3);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "model_row")), ==, "net.onnx");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "output_row")), ==, "net");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "soc_row")), ==, "Ascend310P3");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "env_row")), ==, "/opt/ascend/set_env.sh");
  g_assert_cmpuint (adw_combo_row_get_selected (child (dialog, "log_row")), ==, 2);
  g_assert_true (g_str_has_prefix (sl_atc_dialog_get_command_preview (dialog), "'atc' '--framework=5' '--model=net.onnx'"));
  close_dialog (dialog);

  /* The other project, whose folder is the one looked at now. */
  sl_project_record_set_target_id (other, sl_workspace_get_local_target_id (workspace));
  sl_workspace_save_project_async (workspace, other, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));
  g_assert_nonnull (sl_window_open_path (window, other_dir));
  settle ();
  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "folder_row")), ==, other_dir);
  g_assert_cmpstr (selected_string (child (dialog, "target_row")), ==, "This computer");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "model_row")), ==, "");
  close_dialog (dialog);

  /* Back in the first project's folder: its fields again. */
  g_assert_true (sl_workspace_remove_folder (workspace, other_dir));
  g_assert_nonnull (sl_window_open_path (window, project_dir));
  settle ();
  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "folder_row")), ==, project_dir);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "model_row")), ==, "net.onnx");
  close_dialog (dialog);

  /* Run… too. */
  dialog = open_from_window ("win.run", SL_TYPE_RUN_DIALOG);
  sl_run_dialog_set_command (dialog, "python3 train.py --epochs 5");
  close_dialog (dialog);
  dialog = open_from_window ("win.run", SL_TYPE_RUN_DIALOG);
  g_assert_cmpstr (sl_run_dialog_get_command (dialog), ==, "python3 train.py --epochs 5");
  close_dialog (dialog);
  g_assert_true (sl_workspace_remove_folder (workspace, project_dir));
}

/* Convert offers the run configurations as Run… and Profile do; a
 * Convert one fills the fields from its ATC options. */
static void
test_convert_config_picker (void)
{
  g_autoptr(SlProjectRecord) unet = sl_project_record_new ("unet", project_dir);
  g_autoptr(SlRunConfigRecord) convert = sl_run_config_record_new (SL_RUN_CONFIG_KIND_CONVERT, "om", "atc");
  g_autoptr(GPtrArray) projects = g_ptr_array_new ();
  const char * const args[] = { "--framework=1", "--model=unet.air", "--output=unet", "--soc_version=Ascend310",
                                "--precision_mode=force_fp16", "--log=error", "--unknown=kept-out", NULL };
  SlAtcDialog *dialog = sl_atc_dialog_new (tmp_root);
  GtkWidget *config_row = child (dialog, "config_row");

  sl_project_record_set_target_id (unet, sl_target_record_get_id (server));
  sl_run_config_record_set_arguments (convert, args);
  sl_project_record_add_run_config (unet, convert);
  g_ptr_array_add (projects, unet);
  sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (sl_window_get_workspace (window)), 0);
  g_assert_false (gtk_widget_get_visible (config_row));
  sl_atc_dialog_set_projects (dialog, projects);
  g_assert_true (gtk_widget_get_visible (config_row));
  present (dialog);

  g_assert_true (sl_atc_dialog_select_config (dialog, convert));
  settle ();
  g_assert_cmpstr (selected_string (config_row), ==, "unet · om");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "folder_row")), ==, project_dir);
  g_assert_cmpstr (selected_string (child (dialog, "target_row")), ==, "gpu");
  g_assert_cmpstr (sl_atc_dialog_get_command_preview (dialog), ==,
                   "'atc' '--framework=1' '--model=unet.air' '--output=unet' '--soc_version=Ascend310' "
                   "'--precision_mode=force_fp16' '--log=error'");
  wait_for_frames (GTK_WIDGET (dialog));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "laptop-atc-config.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A run that gave no profile leaves its outcome in view; once a field
 * changes it says it is of the earlier fields. */
static void
test_profile_outcome_stale (void)
{
  SlProfileDialog *dialog = sl_profile_dialog_new (project_dir);
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "msprof is not installed");
  GtkLabel *status = child (dialog, "status_label");

  sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (sl_window_get_workspace (window)), 0);
  sl_profile_dialog_set_program (dialog, "python3 main.py");
  present (dialog);
  g_assert_true (sl_profile_dialog_validate (dialog, NULL));
  workflow = sl_profile_workflow_new (target, project_dir, sl_profile_dialog_get_command (dialog));
  g_assert_nonnull (sl_profile_dialog_begin_run (dialog, workflow));
  g_assert_false (sl_profile_dialog_end_run (dialog, error));
  g_assert_cmpstr (gtk_label_get_label (status), ==, "The run could not start: msprof is not installed");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (status), "error"));

  /* Not a change: a field the run does not read. */
  adw_combo_row_set_selected (child (dialog, "config_row"), 0);
  g_assert_cmpstr (gtk_label_get_label (status), ==, "The run could not start: msprof is not installed");
  sl_profile_dialog_set_program (dialog, "python3 main.py --fast");
  g_assert_cmpstr (gtk_label_get_label (status), ==,
                   "Before the fields changed: The run could not start: msprof is not installed");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (status), "error"));
  wait_for_frames (GTK_WIDGET (dialog));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "laptop-profile-stale.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Values kept by another version, or damaged: a value of another type
 * than its field, or a choice past a combo row's end, is left out. */
static void
test_memory_of_other_types (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *key = g_strdup_printf ("convert:%s", project_dir);
  GVariantBuilder fields, all;
  gpointer dialog;

  g_variant_builder_init (&fields, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&fields, "{sv}", "model_row", g_variant_new_uint32 (7));
  g_variant_builder_add (&fields, "{sv}", "framework_row", g_variant_new_uint32 (999));
  g_variant_builder_add (&fields, "{sv}", "log_row", g_variant_new_string ("error"));
  g_variant_builder_add (&fields, "{sv}", "output_row", g_variant_new_string ("kept"));
  g_variant_builder_add (&fields, "{sv}", "no_such_row", g_variant_new_string ("x"));
  g_variant_builder_init (&all, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&all, "{sv}", key, g_variant_builder_end (&fields));
  g_variant_builder_add (&all, "{sv}", "run:", g_variant_new_string ("not a dictionary"));
  g_settings_set_value (settings, "dialog-values", g_variant_builder_end (&all));
  g_settings_set_string (settings, "dialog-project", project_dir);

  dialog = open_from_window ("win.convert-model", SL_TYPE_ATC_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "model_row")), ==, "");
  g_assert_cmpuint (adw_combo_row_get_selected (child (dialog, "framework_row")), <, 4);
  g_assert_cmpuint (adw_combo_row_get_selected (child (dialog, "log_row")), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "output_row")), ==, "kept");
  close_dialog (dialog);
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-dialogs-laptop-XXXXXX");
  if (skip_without_display ())
    return 77;
  {
    g_autofree char *cache = g_build_filename (tmp_root, "cache-home", NULL);

    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }

  g_test_init (&argc, &argv, NULL);
  if (!bind_translations ())
    {
      g_printerr ("skipped: the interface is not in %s (its locale is missing, or SIGHTLINE_LOCALEDIR has no translation)\n",
                  g_getenv ("LANGUAGE"));
      return 77;
    }
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);
  add_server_and_project ();

  g_test_add_func ("/dialogs-laptop/fit", test_dialogs_fit);
  g_test_add_func ("/dialogs-laptop/remote-folder-title", test_remote_folder_title);
  g_test_add_func ("/dialogs-laptop/run-preview", test_run_preview);
  g_test_add_func ("/dialogs-laptop/start-from-project", test_start_from_project);
  g_test_add_func ("/dialogs-laptop/convert-keeps-fields", test_convert_keeps_fields);
  g_test_add_func ("/dialogs-laptop/convert-config-picker", test_convert_config_picker);
  g_test_add_func ("/dialogs-laptop/profile-outcome-stale", test_profile_outcome_stale);
  g_test_add_func ("/dialogs-laptop/memory-of-other-types", test_memory_of_other_types);

  status = g_test_run ();

  g_clear_object (&project);
  g_clear_object (&server);
  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
