/* test-mindx-config.c: MindX SDK app run configurations in the window
 *
 * The Project dialog's MindX rows (SDK home, toolkit, pipeline, entry
 * script), their checks and their round trip through the "mindx" option
 * group; light and dark screenshots of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include "sl-application.h"
#include "sl-console-panel.h"
#include "sl-exclude-row.h"
#include "sl-mindx-settings.h"
#include "sl-problems-panel.h"
#include "sl-project-dialog.h"
#include "sl-project-record.h"
#include "sl-run-config-record.h"
#include "sl-run-dialog.h"
#include "sl-window.h"
#include "sl-window.h"
#include "sl-workspace.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

#define GOOD_PIPELINE \
  "{\n" \
  "  \"detection\": {\n" \
  "    \"stream_config\": {\"deviceId\": \"0\"},\n" \
  "    \"appsrc0\": {\"props\": {\"blocksize\": \"409600\"}, \"factory\": \"appsrc\", \"next\": \"mxpi_imagedecoder0\"},\n" \
  "    \"mxpi_imagedecoder0\": {\"factory\": \"mxpi_imagedecoder\", \"next\": \"appsink0\"},\n" \
  "    \"appsink0\": {\"factory\": \"appsink\"}\n" \
  "  }\n" \
  "}\n"

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

static gboolean
dialog_sensitive (gpointer dialog)
{
  return gtk_widget_get_sensitive (dialog);
}

static GObject *
child (gpointer    dialog,
       GType       type,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), type, name);

  g_assert_nonnull (object);
  return object;
}

static void
collect_named (GtkWidget  *widget,
               const char *name,
               GPtrArray  *found)
{
  if (g_str_equal (gtk_widget_get_name (widget), name))
    g_ptr_array_add (found, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_named (c, name, found);
}

static GtkWidget *
named (gpointer    dialog,
       const char *name)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_named (GTK_WIDGET (dialog), name, found);
  g_assert_cmpuint (found->len, ==, 1);
  return g_ptr_array_index (found, 0);
}

/* What the run configuration's error row says, or NULL when it is hidden. */
static const char *
config_reason (gpointer dialog)
{
  GtkWidget *row = named (dialog, "run-error");

  return gtk_widget_get_visible (row) ? adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)) : NULL;
}

static gboolean
pipeline_read (gpointer dialog)
{
  return g_strcmp0 (config_reason (dialog), "Reading the pipeline file…") != 0;
}

/* Sets a row; the pipeline is read in a worker, so waits for its answer. */
static void
set_named (gpointer    dialog,
           const char *name,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (named (dialog, name)), text);
  g_assert_true (wait_until (pipeline_read, dialog, 10000));
}

static void
assert_reason (gpointer    dialog,
               const char *part)
{
  const char *reason = config_reason (dialog);

  g_assert_false (sl_project_dialog_get_can_save (dialog));
  g_assert_nonnull (reason);
  if (strstr (reason, part) == NULL)
    g_error ("“%s” does not say “%s”", reason, part);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
screenshots (GtkWindow  *dialog,
             const char *light_name,
             const char *dark_name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  LumaStats light_box, dark_box;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  light = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, light_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  dark = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, dark_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  light_box = capture_luma_stats (light, 40, light->height / 2, light->width - 80, 40);
  dark_box = capture_luma_stats (dark, 40, dark->height / 2, dark->width - 80, 40);
  g_assert_cmpfloat (dark_box.median, <, light_box.median - 60);
}

/* The run configurations are at the bottom of the dialog. */
static void
scroll_to_bottom (gpointer dialog)
{
  GtkWidget *group = GTK_WIDGET (child (dialog, SL_TYPE_PROJECT_DIALOG, "configs_group"));
  GtkWidget *scrolled = gtk_widget_get_ancestor (group, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

  settle ();
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  settle ();
}

static SlProjectDialog *
open_project_dialog (void)
{
  SlProjectDialog *dialog = sl_project_dialog_new (sl_window_get_workspace (window));

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (dialog), 640, 980);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));
  return dialog;
}

static const char *
config_error (SlProjectDialog *dialog)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_named (GTK_WIDGET (dialog), "run-config", found);
  g_assert_cmpuint (found->len, ==, 1);
  return gtk_widget_has_css_class (g_ptr_array_index (found, 0), "error") ? "error" : NULL;
}

static SlProjectRecord *
stored_project (const char *name)
{
  g_autoptr(GPtrArray) projects = sl_workspace_run_sync (sl_window_get_workspace (window), list_projects_func, NULL, NULL);

  g_assert_nonnull (projects);
  for (guint i = 0; i < projects->len; i++)
    if (g_str_equal (sl_project_record_get_name (g_ptr_array_index (projects, i)), name))
      return g_object_ref (g_ptr_array_index (projects, i));
  return NULL;
}

static gboolean
project_stored (gpointer name)
{
  g_autoptr(SlProjectRecord) project = stored_project (name);

  return project != NULL;
}

static void
project_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      data)
{
  g_assert_true (sl_workspace_change_finish (SL_WORKSPACE (object), result, NULL));
  *(gboolean *)data = TRUE;
}

/* A MindX configuration swaps the command row for the SDK's rows, checks
 * them (the SDK home absolute, the pipeline in the project and readable)
 * and keeps them in its "mindx" group, beside the groups of others. */
static void
test_project_dialog_mindx_rows (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "detection", NULL);
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlProjectRecord) rebuilt = NULL;
  g_autoptr(SlMindxSettings) settings = NULL;
  g_autoptr(JsonObject) other = NULL;
  const char * const args[] = { "--input", "test.jpg", NULL };
  SlRunConfigRecord *config;
  SlProjectDialog *dialog;

  write_file (folder, "pipeline/detection.pipeline", GOOD_PIPELINE);
  write_file (folder, "pipeline/broken.pipeline", "{ \"detection\": { \"appsrc0\": ");
  write_file (folder, "main.py", "print('hello')\n");

  dialog = open_project_dialog ();
  g_assert_true (sl_project_dialog_select_project (dialog, 0));
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, SL_TYPE_PROJECT_DIALOG, "name_row")), "detection");
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, SL_TYPE_PROJECT_DIALOG, "folder_row")), folder);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
  set_named (dialog, "run-name", "detect");
  set_named (dialog, "run-arguments", "--input test.jpg");

  /* Before the kind is chosen the MindX rows are not there. */
  g_assert_false (gtk_widget_get_visible (named (dialog, "mindx-sdk-home")));
  g_assert_true (gtk_widget_get_visible (named (dialog, "run-command")));
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (dialog, "run-kind")), SL_RUN_CONFIG_KIND_MINDX);
  g_assert_true (gtk_widget_get_visible (named (dialog, "mindx-sdk-home")));
  g_assert_true (gtk_widget_get_visible (named (dialog, "mindx-pipeline")));
  g_assert_true (gtk_widget_get_visible (named (dialog, "mindx-entry")));
  g_assert_false (gtk_widget_get_visible (named (dialog, "run-command")));
  g_assert_false (sl_project_dialog_get_can_save (dialog));

  /* Each field is checked in turn. */
  set_named (dialog, "mindx-sdk-home", "mxVision");
  set_named (dialog, "mindx-entry", "main.py");
  set_named (dialog, "mindx-pipeline", "pipeline/detection.pipeline");
  assert_reason (dialog, "absolute");
  g_assert_cmpstr (config_error (dialog), ==, "error");
  set_named (dialog, "mindx-sdk-home", "/usr/local/sdk_home/mx$Vision");
  assert_reason (dialog, "“$”");
  set_named (dialog, "mindx-sdk-home", "/usr/local/sdk_home/mxVision");
  g_assert_null (config_reason (dialog));
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  set_named (dialog, "mindx-pipeline", "pipeline/missing.pipeline");
  assert_reason (dialog, "There is no pipeline file pipeline/missing.pipeline");
  set_named (dialog, "mindx-pipeline", "../detection/../../outside.pipeline");
  assert_reason (dialog, "outside the project");
  set_named (dialog, "mindx-pipeline", "/etc/detection.pipeline");
  assert_reason (dialog, "relative");
  set_named (dialog, "mindx-pipeline", "");
  assert_reason (dialog, "pipeline file");
  set_named (dialog, "mindx-pipeline", "pipeline/broken.pipeline");
  assert_reason (dialog, "does not parse");
  scroll_to_bottom (dialog);
  screenshots (GTK_WINDOW (dialog), "project-dialog-mindx-refused.png", "project-dialog-mindx-refused-dark.png");
  set_named (dialog, "mindx-pipeline", "pipeline/detection.pipeline");
  set_named (dialog, "mindx-entry", "");
  assert_reason (dialog, "entry script");
  set_named (dialog, "mindx-entry", "main.py");
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  g_assert_null (config_error (dialog));
  scroll_to_bottom (dialog);
  screenshots (GTK_WINDOW (dialog), "project-dialog-mindx.png", "project-dialog-mindx-dark.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.save", NULL));
  g_assert_true (wait_until (project_stored, "detection", 10000));
  g_assert_true (wait_until (dialog_sensitive, dialog, 10000));
  gtk_window_destroy (GTK_WINDOW (dialog));

  project = stored_project ("detection");
  g_assert_cmpuint (sl_project_record_get_n_run_configs (project), ==, 1);
  config = sl_project_record_get_run_config (project, 0);
  g_assert_cmpint (sl_run_config_record_get_kind (config), ==, SL_RUN_CONFIG_KIND_MINDX);
  g_assert_cmpstr (sl_run_config_record_get_command (config), ==, "main.py");
  g_assert_cmpuint (g_strv_length ((char **)sl_run_config_record_get_arguments (config)), ==, 2);
  g_assert_cmpstr (sl_run_config_record_get_arguments (config)[1], ==, args[1]);
  settings = sl_mindx_settings_from_config (config);
  g_assert_cmpstr (settings->sdk_home, ==, "/usr/local/sdk_home/mxVision");
  g_assert_null (settings->toolkit);
  g_assert_cmpstr (settings->pipeline, ==, "pipeline/detection.pipeline");
  g_assert_cmpstr (settings->entry, ==, "main.py");

  /* Another part's group survives an edit here. */
  {
    g_autoptr(JsonObject) slurm = json_object_new ();

    json_object_set_int_member (slurm, "nodes", 2);
    sl_run_config_record_set_option_group (config, "slurm", slurm);
  }
  {
    gboolean saved = FALSE;

    sl_workspace_save_project_async (sl_window_get_workspace (window), project, NULL, project_saved_cb, &saved);
    g_assert_true (wait_until (flag_set, &saved, 10000));
  }

  /* A second dialog reads the rows back from the stored group. */
  dialog = open_project_dialog ();
  g_assert_true (sl_project_dialog_select_project (dialog, sl_project_record_get_id (project)));
  g_assert_true (wait_until (pipeline_read, dialog, 10000));
  g_assert_true (gtk_widget_get_visible (named (dialog, "mindx-sdk-home")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (dialog, "mindx-sdk-home"))), ==, "/usr/local/sdk_home/mxVision");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (dialog, "mindx-pipeline"))), ==, "pipeline/detection.pipeline");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (dialog, "mindx-entry"))), ==, "main.py");
  /* Valid, but nothing to save until something changes. */
  g_assert_false (sl_project_dialog_get_can_save (dialog));
  set_named (dialog, "mindx-toolkit", "/opt/Ascend/ascend-toolkit/latest");
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  rebuilt = sl_project_dialog_build_record (dialog, NULL);
  g_assert_nonnull (rebuilt);
  g_clear_pointer (&settings, sl_mindx_settings_free);
  settings = sl_mindx_settings_from_config (sl_project_record_get_run_config (rebuilt, 0));
  g_assert_cmpstr (settings->toolkit, ==, "/opt/Ascend/ascend-toolkit/latest");
  other = sl_run_config_record_dup_option_group (sl_project_record_get_run_config (rebuilt, 0), "slurm");
  g_assert_nonnull (other);
  g_assert_cmpint (json_object_get_int_member (other, "nodes"), ==, 2);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The first button under @widget labelled @label. */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A run configuration's title and subtitle follow its name, kind and
 * command (the entry script for a MindX app), and its Remove button
 * takes it, and only it, off the list. */
static void
test_project_dialog_config_rows (void)
{
  SlProjectDialog *dialog = open_project_dialog ();
  g_autoptr(GPtrArray) configs = g_ptr_array_new ();
  GtkWidget *remove;
  AdwExpanderRow *config;

  g_assert_true (sl_project_dialog_select_project (dialog, 0));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
  config = ADW_EXPANDER_ROW (named (dialog, "run-config"));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (config)), ==, "Unnamed run configuration");
  g_assert_cmpstr (adw_expander_row_get_subtitle (config), ==, "Train · no command yet");
  set_named (dialog, "run-name", "train");
  set_named (dialog, "run-command", "python3 train.py");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (config)), ==, "train");
  g_assert_cmpstr (adw_expander_row_get_subtitle (config), ==, "Train · python3 train.py");
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (dialog, "run-kind")), SL_RUN_CONFIG_KIND_MINDX);
  g_assert_cmpstr (adw_expander_row_get_subtitle (config), ==, "MindX SDK App · no command yet");
  set_named (dialog, "mindx-entry", "main.py");
  g_assert_cmpstr (adw_expander_row_get_subtitle (config), ==, "MindX SDK App · main.py");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
  collect_named (GTK_WIDGET (dialog), "run-config", configs);
  g_assert_cmpuint (configs->len, ==, 2);
  remove = find_button (GTK_WIDGET (config), "_Remove Run Configuration");
  g_assert_nonnull (remove);
  g_signal_emit_by_name (remove, "clicked");
  g_ptr_array_set_size (configs, 0);
  collect_named (GTK_WIDGET (dialog), "run-config", configs);
  g_assert_cmpuint (configs->len, ==, 1);
  g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (configs, 0)), ==, "Unnamed run configuration");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static char *
tools_path (const char *name)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");

  return g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", name, NULL);
}

static void
copy_app (const char *project)
{
  const char *files[] = { "main.py", "pipeline/detection.pipeline" };
  g_autofree char *app = tools_path ("mindx-app");

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *from = g_build_filename (app, files[i], NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (from, &text, NULL, NULL));
      write_file (project, files[i], text);
    }
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
run_dialog_shown (gpointer data)
{
  return find_toplevel (SL_TYPE_RUN_DIALOG) != NULL && gtk_widget_get_mapped (find_toplevel (SL_TYPE_RUN_DIALOG));
}

/* The Problems panel's problem with @code, or NULL. */
static SlProblem *
find_problem (const char *code)
{
  SlProblemsPanel *panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  GListModel *model = sl_problems_panel_get_model (panel);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (SL_IS_PROBLEM (item) && g_strcmp0 (sl_problem_get_code (SL_PROBLEM (item)), code) == 0)
        return SL_PROBLEM (item);
    }
  return NULL;
}

/* The Problems panel's problem about @subject in @path, or NULL. */
static SlProblem *
find_problem_at (const char *path,
                 const char *subject)
{
  SlProblemsPanel *panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  GListModel *model = sl_problems_panel_get_model (panel);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (SL_IS_PROBLEM (item) && g_strcmp0 (sl_problem_get_path (SL_PROBLEM (item)), path) == 0 &&
          g_strcmp0 (sl_problem_get_subject (SL_PROBLEM (item)), subject) == 0)
        return SL_PROBLEM (item);
    }
  return NULL;
}

static gboolean
workflow_done (gpointer workflow)
{
  return sl_mindx_workflow_get_stage (workflow) == SL_MINDX_STAGE_DONE;
}

static SlProjectRecord *
find_stored (const char *name)
{
  GListModel *projects = sl_workspace_get_projects (sl_window_get_workspace (window));

  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(SlProjectRecord) project = g_list_model_get_item (projects, i);

      if (g_str_equal (sl_project_record_get_name (project), name))
        return g_steal_pointer (&project);
    }
  return NULL;
}

static gboolean
stream_problems_shown (gpointer data)
{
  return find_problem ("1016") != NULL && find_problem ("6003") != NULL;
}

/* The Run dialog offers a stored MindX configuration with the exact
 * environment and command; Run runs it on this computer with the
 * stand-in SDK, and the SDK's codes in its log land in Problems with
 * their meaning, the log's line and what to try. */
static void
test_run_mindx_config_on_local (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "detection-app", NULL);
  g_autofree char *remote = g_build_filename (tmp_root, "remote", "detection-app", NULL);
  g_autofree char *sdk = tools_path ("mindx-sdk");
  g_autoptr(SlProjectRecord) project = sl_project_record_new ("detection-app", folder);
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_MINDX, "detect", "");
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_new ();
  g_autofree char *expected_home = NULL;
  const char *args[] = { "pipeline/detection.pipeline", NULL };
  const char *pull[] = { "output", NULL };
  const char *preview;
  SlRunDialog *dialog;
  SlProblem *missing;
  gboolean saved = FALSE;
  guint index = 0;

  copy_app (folder);
  settings->sdk_home = g_strdup (sdk);
  settings->pipeline = g_strdup ("pipeline/detection.pipeline");
  settings->entry = g_strdup ("main.py");
  sl_mindx_settings_store (settings, config);
  sl_run_config_record_set_arguments (config, args);
  sl_run_config_record_set_pull_folders (config, pull);
  sl_project_record_set_remote_folder (project, remote);
  sl_project_record_add_run_config (project, config);
  sl_workspace_save_project_async (sl_window_get_workspace (window), project, NULL, project_saved_cb, &saved);
  g_assert_true (wait_until (flag_set, &saved, 10000));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL);
  g_assert_true (wait_until (run_dialog_shown, NULL, 10000));
  dialog = find_toplevel (SL_TYPE_RUN_DIALOG);
  /* The configurations of all projects are offered; ours is the last. */
  {
    GListModel *projects = sl_workspace_get_projects (sl_window_get_workspace (window));

    for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
      {
        g_autoptr(SlProjectRecord) stored = g_list_model_get_item (projects, i);

        if (g_str_equal (sl_project_record_get_name (stored), "detection-app"))
          break;
        index += sl_project_record_get_n_run_configs (stored);
      }
  }
  sl_run_dialog_select_config (dialog, index);
  settle ();
  g_assert_cmpstr (sl_run_dialog_get_command (dialog), ==, "'python3' 'main.py' 'pipeline/detection.pipeline'");
  g_assert_true (sl_run_dialog_validate (dialog, NULL));
  preview = sl_run_dialog_get_command_preview (dialog);
  g_assert_nonnull (preview);
  expected_home = g_strdup_printf ("export MX_SDK_HOME='%s'\n", sdk);
  g_assert_nonnull (strstr (preview, expected_home));
  g_assert_nonnull (strstr (preview, "export LD_LIBRARY_PATH="));
  g_assert_nonnull (strstr (preview, "export GST_PLUGIN_PATH="));
  g_assert_nonnull (strstr (preview, "export PYTHONPATH="));
  g_assert_true (g_str_has_suffix (preview, "'python3' 'main.py' 'pipeline/detection.pipeline'"));
  screenshots (GTK_WINDOW (dialog), "run-dialog-mindx-config.png", "run-dialog-mindx-config-dark.png");

  /* A command typed over the configuration's is run as typed. */
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, SL_TYPE_RUN_DIALOG, "command_row")), "python3 main.py other");
  g_assert_true (sl_run_dialog_get_command_preview (dialog) == NULL ||
                 strstr (sl_run_dialog_get_command_preview (dialog), "MX_SDK_HOME") == NULL);
  sl_run_dialog_set_command (dialog, "'python3' 'main.py' 'pipeline/detection.pipeline'");
  g_assert_nonnull (strstr (sl_run_dialog_get_command_preview (dialog), "MX_SDK_HOME"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "run.run", NULL));
  if (!wait_until (stream_problems_shown, NULL, 30000))
    {
      g_autofree char *console = sl_console_panel_dup_text (SL_CONSOLE_PANEL (sl_window_find_panel (window, "console")));
      SlProblemsPanel *panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
      GListModel *model = sl_problems_panel_get_model (panel);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (model, i);

          if (SL_IS_PROBLEM (item))
            g_printerr ("problem: %s\n", sl_problem_get_message (SL_PROBLEM (item)));
        }
      g_error ("no stream codes in Problems; the Console says:\n%s", console);
    }
  missing = find_problem ("1016");
  g_assert_nonnull (strstr (sl_problem_get_message (missing), "A file or resource does not exist"));
  g_assert_nonnull (sl_problem_get_hint (missing));
  g_assert_nonnull (sl_problem_get_path (missing));
  g_assert_true (g_file_test (sl_problem_get_path (missing), G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (sl_problem_get_line (missing), >=, 1);
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "mindx-run-problems.png");

  /* A pipeline the SDK would reject stops the run: the Problem names the
   * pipeline file and the element. */
  write_file (folder, "pipeline/detection.pipeline",
              "{\"detection\": {\"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"nowhere\"},\n"
              " \"appsink0\": {\"factory\": \"appsink\"}}}\n");
  {
    g_autoptr(SlProjectRecord) stored = find_stored ("detection-app");
    g_autoptr(SlMindxWorkflow) workflow = sl_session_run_mindx (sl_window_get_session (window), stored, sl_project_record_get_run_config (stored, 0), 0, NULL);
    g_autofree char *pipeline = g_build_filename (folder, "pipeline", "detection.pipeline", NULL);
    SlProblem *dangling;

    g_assert_nonnull (workflow);
    g_assert_true (wait_until (workflow_done, workflow, 30000));
    settle ();
    dangling = find_problem_at (pipeline, "appsrc0");
    g_assert_nonnull (dangling);
    g_assert_cmpint (sl_problem_get_severity (dangling), ==, SL_SEVERITY_ERROR);
    g_assert_nonnull (strstr (sl_problem_get_message (dangling), "nowhere"));
    g_assert_null (sl_mindx_workflow_get_log_path (workflow));
  }
}

/* An exclude row's title is its pattern and follows it; the row is
 * dropped without GObject warning about it (a template binding that read
 * the row itself left a weak ref it could not find on every row). */
static void
test_exclude_row_title (void)
{
  GtkWidget *row = g_object_ref_sink (sl_exclude_row_new ("*.log"));

  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "*.log");
  g_assert_cmpstr (sl_exclude_row_get_pattern (SL_EXCLUDE_ROW (row)), ==, "*.log");
  g_object_set (row, "pattern", "build/", NULL);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "build/");
  g_assert_cmpstr (sl_exclude_row_get_pattern (SL_EXCLUDE_ROW (row)), ==, "build/");
  g_object_unref (row);
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-mindx-config-XXXXXX");
  if (skip_without_display ())
    return 77;
  {
    /* The run's log is kept in the cache: the test's own. */
    g_autofree char *cache = g_build_filename (tmp_root, "cache", NULL);

    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }

  g_test_init (&argc, &argv, NULL);
  /* The Project dialog's rows are built and dropped many times here. */
  fail_on_gobject_warnings ();
  window = start_application (&app);

  g_test_add_func ("/mindx-config/exclude-row-title", test_exclude_row_title);
  g_test_add_func ("/mindx-config/project-dialog-rows", test_project_dialog_mindx_rows);
  g_test_add_func ("/mindx-config/project-dialog-config-rows", test_project_dialog_config_rows);
  g_test_add_func ("/mindx-config/run-on-local", test_run_mindx_config_on_local);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
