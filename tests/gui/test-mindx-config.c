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
#include "sl-mindx-settings.h"
#include "sl-project-dialog.h"
#include "sl-project-record.h"
#include "sl-run-config-record.h"
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
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  set_named (dialog, "mindx-toolkit", "/opt/Ascend/ascend-toolkit/latest");
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

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-mindx-config-XXXXXX");
  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/mindx-config/project-dialog-rows", test_project_dialog_mindx_rows);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
