/* test-run-dialog-slurm.c: the Run dialog's Slurm options: the backend
 * choice, the fields read into SlSlurmOptions, the exact batch script and
 * command shown before anything runs, refused values keeping Run
 * disabled; screenshots in light and dark style; the Slurm choices kept
 * in a run configuration; Slurm jobs nobody follows refreshed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-project-dialog.h"
#include "sl-run-dialog.h"
#include "sl-slurm-config.h"
#include "sl-workspace.h"

static SlWindow *window;
static SlApplication *app;

static gboolean
moment_passed (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

/* A few frames, so the style change is painted. */
static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (moment_passed, &until, 1000);
}

static GtkScrolledWindow *
find_scrolled (GtkWidget *widget)
{
  if (GTK_IS_SCROLLED_WINDOW (widget))
    return GTK_SCROLLED_WINDOW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkScrolledWindow *found = find_scrolled (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
scroll_to_end (SlRunDialog *dialog)
{
  GtkScrolledWindow *scrolled = find_scrolled (GTK_WIDGET (dialog));
  GtkAdjustment *adjustment;

  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (scrolled);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
}

static gpointer
child (SlRunDialog *dialog,
       const char  *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), SL_TYPE_RUN_DIALOG, name);

  g_assert_nonnull (object);
  return object;
}

static void
set_text (SlRunDialog *dialog,
          const char  *name,
          const char  *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, name)), text);
}

static gboolean
run_enabled (SlRunDialog *dialog)
{
  return gtk_widget_is_sensitive (child (dialog, "run_button"));
}

static guint
count_occurrences (const char *text,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The script once, then only the sbatch call from the job folder the
 * script's job name names. */
static void
assert_script_shown_once (const char *preview)
{
  const char *name = strstr (preview, "#SBATCH --job-name=sightline-");
  const char *call = strstr (preview, "by this command:\ncd -- ");
  g_autofree char *job_id = NULL;
  g_autofree char *folder = NULL;

  g_assert_cmpuint (count_occurrences (preview, "#!/bin/sh"), ==, 1);
  g_assert_cmpuint (count_occurrences (preview, "#SBATCH --nodes=2"), ==, 1);
  g_assert_cmpuint (count_occurrences (preview, "finish $?"), ==, 1);
  g_assert_true (g_str_has_prefix (preview, "This batch script is submitted with sbatch:\n#!/bin/sh\n"));
  g_assert_nonnull (call);
  g_assert_true (g_str_has_suffix (preview, " job.sbatch"));
  g_assert_null (strchr (call + strlen ("by this command:\n"), '\n'));
  g_assert_nonnull (name);
  job_id = g_strndup (name + strlen ("#SBATCH --job-name=sightline-"),
                      strcspn (name + strlen ("#SBATCH --job-name=sightline-"), "\n"));
  folder = g_strdup_printf ("/jobs/%s' && sbatch --parsable", job_id);
  g_assert_nonnull (strstr (call, folder));
}

static void
test_slurm_fields (void)
{
  g_autofree char *project = g_dir_make_tmp ("sl-run-slurm-XXXXXX", NULL);
  g_autoptr(SlSlurmOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  AdwStyleManager *manager = adw_style_manager_get_default ();
  SlRunDialog *dialog;
  const char *preview;

  dialog = sl_run_dialog_new (project);
  sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (sl_application_get_workspace (app)), 0);
  sl_run_dialog_set_command (dialog, "python3 train.py --epochs 3");
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (dialog), 640, 980);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, dialog, 10000));

  /* Started directly on this computer: no Slurm fields, no preview. */
  g_assert_false (gtk_widget_get_visible (child (dialog, "slurm_group")));
  g_assert_null (sl_run_dialog_get_command_preview (dialog));
  g_assert_null (sl_run_dialog_dup_slurm_options (dialog, &error));
  g_clear_error (&error);

  sl_run_dialog_set_slurm (dialog, TRUE);
  g_assert_true (gtk_widget_get_visible (child (dialog, "slurm_group")));
  set_text (dialog, "nodes_row", "2");
  set_text (dialog, "ntasks_row", "16");
  set_text (dialog, "per_node_row", "8");
  set_text (dialog, "devices_row", "8");
  set_text (dialog, "gres_row", "npu");
  set_text (dialog, "partition_row", "ascend");
  set_text (dialog, "time_row", "2:00:00");
  set_text (dialog, "account_row", "team-a");
  adw_combo_row_set_selected (child (dialog, "launcher_row"), SL_SLURM_LAUNCHER_MSRUN);
  gtk_switch_set_active (child (dialog, "per_task_switch"), TRUE);

  options = sl_run_dialog_dup_slurm_options (dialog, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (options->nodes, ==, 2);
  g_assert_cmpuint (options->ntasks, ==, 16);
  g_assert_cmpuint (options->ntasks_per_node, ==, 8);
  g_assert_cmpuint (options->devices_per_node, ==, 8);
  g_assert_cmpstr (options->device_gres, ==, "npu");
  g_assert_cmpstr (options->partition, ==, "ascend");
  g_assert_cmpstr (options->time_limit, ==, "2:00:00");
  g_assert_cmpstr (options->account, ==, "team-a");
  g_assert_cmpint (options->launcher, ==, SL_SLURM_LAUNCHER_MSRUN);
  g_assert_true (options->per_task_logs);
  g_assert_true (run_enabled (dialog));

  /* The exact script and command, before anything runs, on this computer
   * as the login node. */
  preview = sl_run_dialog_get_command_preview (dialog);
  g_assert_nonnull (preview);
  g_assert_nonnull (strstr (preview, "#SBATCH --nodes=2\n#SBATCH --ntasks=16\n#SBATCH --ntasks-per-node=8\n"
                                     "#SBATCH --gres=npu:8\n#SBATCH --partition=ascend\n#SBATCH --time=2:00:00\n"
                                     "#SBATCH --account=team-a\n"));
  g_assert_nonnull (strstr (preview, "exec msrun --worker_num=$((SLURM_JOB_NUM_NODES * 8)) --local_worker_num=8"));
  g_assert_nonnull (strstr (preview, "sbatch --parsable --output="));
  assert_script_shown_once (preview);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  light = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, "run-dialog-slurm.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  dark = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, "run-dialog-slurm-dark.png");
  /* The end of the page: the launcher, the per-task logs and the script. */
  scroll_to_end (dialog);
  settle ();
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "run-dialog-slurm-script-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "run-dialog-slurm-script.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  {
    LumaStats light_box = capture_luma_stats (light, 20, 200, 200, 60);
    LumaStats dark_box = capture_luma_stats (dark, 20, 200, 200, 60);

    g_assert_cmpfloat (dark_box.median + 80, <, light_box.median);
  }

  /* Values that could not be Slurm's keep Run disabled, with the reason. */
  set_text (dialog, "partition_row", "ascend; rm -rf ~");
  g_assert_false (run_enabled (dialog));
  g_assert_true (gtk_widget_get_visible (child (dialog, "error_label")));
  g_assert_nonnull (strstr (gtk_label_get_label (child (dialog, "error_label")), "partition"));
  g_assert_null (sl_run_dialog_get_command_preview (dialog));
  set_text (dialog, "partition_row", "ascend");
  set_text (dialog, "nodes_row", "two");
  g_assert_false (run_enabled (dialog));
  set_text (dialog, "nodes_row", "0");
  g_assert_false (run_enabled (dialog));
  set_text (dialog, "nodes_row", "2");
  set_text (dialog, "gres_row", "");
  g_assert_false (run_enabled (dialog));
  set_text (dialog, "devices_row", "");
  g_assert_true (run_enabled (dialog));
  set_text (dialog, "ntasks_row", "17");
  g_assert_false (run_enabled (dialog));
  set_text (dialog, "ntasks_row", "");
  g_assert_true (run_enabled (dialog));

  /* Back to starting directly: the fields go, the command runs here. */
  sl_run_dialog_set_slurm (dialog, FALSE);
  g_assert_false (gtk_widget_get_visible (child (dialog, "slurm_group")));
  g_assert_true (run_enabled (dialog));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_rmdir (project);
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

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static SlProjectRecord *
stored_project (SlWorkspace *workspace)
{
  g_autoptr(GPtrArray) projects = sl_workspace_run_sync (workspace, list_projects_func, NULL, NULL);

  g_assert_nonnull (projects);
  g_assert_cmpuint (projects->len, ==, 1);
  return g_object_ref (g_ptr_array_index (projects, 0));
}

static gboolean
stored_partition_is (gpointer data)
{
  SlWorkspace *workspace = sl_application_get_workspace (app);
  g_autoptr(SlProjectRecord) project = stored_project (workspace);
  g_autoptr(SlSlurmOptions) options = sl_slurm_config_read (sl_project_record_get_run_config (project, 0), NULL);

  return options != NULL && g_strcmp0 (options->partition, data) == 0;
}

/* A run configuration's Slurm choices fill the dialog; what a run used
 * is saved back into it, shown in the Project dialog, and a
 * configuration without any starts directly with empty fields. */
static void
test_config_keeps_choices (void)
{
  SlWorkspace *workspace = sl_application_get_workspace (app);
  g_autofree char *folder = g_dir_make_tmp ("sl-run-config-XXXXXX", NULL);
  g_autoptr(SlProjectRecord) project = sl_project_record_new ("resnet", folder);
  g_autoptr(SlRunConfigRecord) train = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "train", "true");
  g_autoptr(SlRunConfigRecord) plain = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "plain", "true");
  g_autoptr(SlSlurmOptions) saved = sl_slurm_options_new ();
  g_autoptr(SlProjectRecord) stored = NULL;
  g_autoptr(SlSlurmOptions) kept = NULL;
  g_autoptr(JsonObject) profile = NULL;
  SlProjectDialog *project_dialog;
  SlRunDialog *dialog;
  GtkWidget *slurm_row;
  gboolean enabled = TRUE;
  gboolean done = FALSE;

  saved->nodes = 2;
  saved->ntasks = 4;
  saved->partition = g_strdup ("ascend");
  saved->time_limit = g_strdup ("30");
  saved->launcher = SL_SLURM_LAUNCHER_TORCHRUN;
  saved->per_task_logs = TRUE;
  sl_run_config_record_set_options (train, "{\"profile\":{\"level\":\"l1\"}}");
  g_assert_true (sl_slurm_config_write (train, saved, TRUE));
  sl_project_record_add_run_config (project, train);
  sl_project_record_add_run_config (project, plain);
  sl_workspace_save_project_async (workspace, project, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  dialog = find_toplevel (SL_TYPE_RUN_DIALOG);
  g_assert_nonnull (dialog);
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, dialog, 10000));

  sl_run_dialog_select_config (dialog, 0);
  g_assert_true (gtk_widget_get_visible (child (dialog, "slurm_group")));
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "nodes_row")), ==, "2");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "ntasks_row")), ==, "4");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "per_node_row")), ==, "");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "partition_row")), ==, "ascend");
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "time_row")), ==, "30");
  g_assert_cmpuint (adw_combo_row_get_selected (child (dialog, "launcher_row")), ==, SL_SLURM_LAUNCHER_TORCHRUN);
  g_assert_true (gtk_switch_get_active (child (dialog, "per_task_switch")));

  /* Another configuration, saved without Slurm: direct, fields empty. */
  sl_run_dialog_select_config (dialog, 1);
  g_assert_false (gtk_widget_get_visible (child (dialog, "slurm_group")));
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "partition_row")), ==, "");
  g_assert_false (gtk_switch_get_active (child (dialog, "per_task_switch")));
  g_assert_false (sl_run_dialog_keep_slurm_choices (dialog));

  /* Back to train; this run changes the partition and starts directly
   * on this computer, which is what the configuration keeps. */
  sl_run_dialog_select_config (dialog, 0);
  set_text (dialog, "partition_row", "debug");
  sl_run_dialog_set_slurm (dialog, FALSE);
  g_assert_true (run_enabled (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "run.run", NULL));
  g_assert_true (wait_until (stored_partition_is, (gpointer)"debug", 10000));

  stored = stored_project (workspace);
  kept = sl_slurm_config_read (sl_project_record_get_run_config (stored, 0), &enabled);
  g_assert_false (enabled);
  g_assert_cmpuint (kept->nodes, ==, 2);
  g_assert_cmpint (kept->launcher, ==, SL_SLURM_LAUNCHER_TORCHRUN);
  profile = sl_run_config_record_dup_option_group (sl_project_record_get_run_config (stored, 0), "profile");
  g_assert_nonnull (profile);
  g_assert_null (sl_run_config_record_dup_option_group (sl_project_record_get_run_config (stored, 1),
                                                        SL_SLURM_CONFIG_GROUP));

  /* The next Run dialog starts from it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  dialog = find_toplevel (SL_TYPE_RUN_DIALOG);
  g_assert_nonnull (dialog);
  sl_run_dialog_select_config (dialog, 0);
  g_assert_false (gtk_widget_get_visible (child (dialog, "slurm_group")));
  g_assert_cmpstr (gtk_editable_get_text (child (dialog, "partition_row")), ==, "debug");
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* The Project dialog shows them, read-only. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.projects", NULL));
  project_dialog = find_toplevel (SL_TYPE_PROJECT_DIALOG);
  g_assert_nonnull (project_dialog);
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, project_dialog, 10000));
  g_assert_true (sl_project_dialog_select_project (project_dialog, sl_project_record_get_id (stored)));
  slurm_row = find_named (GTK_WIDGET (project_dialog), "run-slurm");
  g_assert_nonnull (slurm_row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (slurm_row)), ==, "Started directly");
  gtk_window_destroy (GTK_WINDOW (project_dialog));
}

static gboolean
newest_job_running (gpointer data)
{
  g_autoptr(SlJobRecord) job = g_list_model_get_item (sl_workspace_get_jobs (data), 0);

  return job != NULL && g_strcmp0 (sl_job_record_get_backend_state (job), "RUNNING") == 0;
}

/* A Slurm job submitted elsewhere (the command line) is refreshed by
 * the window's Refresh Slurm Jobs with one squeue call: the history, and
 * with it the Jobs list, says RUNNING. */
static void
test_refresh_unfollowed (void)
{
  SlWorkspace *workspace = sl_application_get_workspace (app);
  g_autofree char *dir = g_dir_make_tmp ("sl-refresh-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *squeue = g_build_filename (bin, "squeue", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, old_path);
  g_autoptr(SlJobRecord) job = sl_job_record_new ("srun python3 train.py", sl_workspace_get_local_target_id (workspace));
  g_autoptr(SlJobRecord) shown = NULL;
  gboolean done = FALSE;

  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  g_assert_true (g_file_set_contents (squeue, "#!/bin/sh\necho 'squeue 9001 RUNNING None'\n", -1, NULL));
  g_assert_cmpint (g_chmod (squeue, 0755), ==, 0);
  g_setenv ("PATH", path, TRUE);

  sl_job_record_set_backend (job, SL_JOB_BACKEND_SLURM);
  sl_job_record_set_backend_job_id (job, "9001");
  sl_job_record_set_backend_state (job, "PENDING", "Priority");
  sl_job_record_set_state (job, SL_JOB_STATE_QUEUED);
  sl_job_record_set_log_path (job, "/nonexistent/sightline-job/log");
  sl_workspace_add_job_async (workspace, job, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));
  g_assert_false (newest_job_running (workspace));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.refresh-jobs", NULL));
  g_assert_true (wait_until (newest_job_running, workspace, 10000));
  shown = g_list_model_get_item (sl_workspace_get_jobs (workspace), 0);
  g_assert_cmpint (sl_job_record_get_state (shown), ==, SL_JOB_STATE_RUNNING);
  g_assert_null (sl_job_record_get_backend_reason (shown));

  g_setenv ("PATH", old_path, TRUE);
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  make_test_home ("sightline-run-slurm-XXXXXX");
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  window = start_application (&app);

  g_test_add_func ("/run-dialog/slurm", test_slurm_fields);
  g_test_add_func ("/run-dialog/slurm-config", test_config_keeps_choices);
  g_test_add_func ("/jobs/slurm-refresh", test_refresh_unfollowed);
  status = g_test_run ();

  g_clear_object (&app);
  return status;
}
