/* test-workflow-dialogs.c: the Profile and ATC dialogs
 *
 * The exact command as the fields are filled in, refusals of hostile
 * paths, ATC's per-field checks marking their rows, and light and dark
 * screenshots of both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include "sl-application.h"
#include "sl-atc-dialog.h"
#include "sl-problem.h"
#include "sl-profile-dialog.h"
#include "sl-project-record.h"
#include "sl-run-config-record.h"
#include "sl-run-dialog.h"
#include "sl-window.h"
#include "sl-workspace.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

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
set_text (gpointer    dialog,
          GType       type,
          const char *name,
          const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, type, name)), text);
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
  wait_for_frames (GTK_WIDGET (dialog));
  light = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, light_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  wait_for_frames (GTK_WIDGET (dialog));
  dark = capture_window (GTK_WIDGET (dialog), SCREENSHOT_DIR, dark_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  /* The page follows the style: its middle is darker in the dark one. */
  light_box = capture_luma_stats (light, 40, light->height / 2, light->width - 80, 40);
  dark_box = capture_luma_stats (dark, 40, dark->height / 2, dark->width - 80, 40);
  g_assert_cmpfloat (dark_box.median, <, light_box.median - 60);
}

static void
test_profile_dialog (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  SlProfileDialog *dialog = sl_profile_dialog_new (tmp_root);
  GType type = SL_TYPE_PROFILE_DIALOG;
  const char *preview;
  gboolean started = FALSE;

  sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), 0);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));

  /* Nothing typed yet: no command, no error, nothing to start. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (child (dialog, type, "error_label"))));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "start_button"))));

  sl_profile_dialog_set_program (dialog, "python3 main.py --pipeline 'pipeline/unet.pipeline'");
  sl_profile_dialog_set_env_script (dialog, "/usr/local/Ascend/ascend-toolkit/set_env.sh");
  settle ();
  preview = sl_profile_dialog_get_command_preview (dialog);
  g_assert_cmpstr (preview, ==,
                   ". '/usr/local/Ascend/ascend-toolkit/set_env.sh'\n"
                   "'msprof' '--output=sightline-profile' '--task-time=on' '--ai-core=on' '--aicpu=off' "
                   "'--ascendcl=on' '--runtime-api=off' '--hccl=off' '--aic-metrics=PipeUtilization' "
                   "'python3' 'main.py' '--pipeline' 'pipeline/unet.pipeline'");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "start_button"))));
  screenshots (GTK_WINDOW (dialog), "profile-dialog.png", "profile-dialog-dark.png");

  /* A hostile output folder is refused, with the reason shown. */
  set_text (dialog, type, "output_row", "out;rm -rf ~");
  settle ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, type, "error_label"))));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (child (dialog, type, "error_label"))), "“;”"));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "start_button"))));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "profile-dialog-refused.png");

  /* MindSpore's profiler comes through its environment variable. */
  set_text (dialog, type, "output_row", "/data/prof");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, type, "profiler_row")), SL_PROFILER_MINDSPORE);
  settle ();
  preview = sl_profile_dialog_get_command_preview (dialog);
  g_assert_nonnull (strstr (preview, "export MS_PROFILER_OPTIONS='{\"start\": true, \"output_path\": \"/data/prof\""));
  g_assert_true (g_str_has_suffix (preview, "'python3' 'main.py' '--pipeline' 'pipeline/unet.pipeline'"));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "system_group"))));

  g_signal_connect_swapped (dialog, "start", G_CALLBACK (g_nullify_pointer), &started);
  started = TRUE;
  gtk_widget_activate_action (GTK_WIDGET (dialog), "profile.start", NULL);
  g_assert_false (started);
}

static void
test_atc_dialog (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  SlAtcDialog *dialog = sl_atc_dialog_new (tmp_root);
  GType type = SL_TYPE_ATC_DIALOG;
  GtkWidget *soc_row = GTK_WIDGET (child (dialog, type, "soc_row"));
  GtkWidget *weight_row = GTK_WIDGET (child (dialog, type, "weight_row"));

  sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), 0);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));

  /* The walkthrough's conversion. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, type, "framework_row")), 1);
  set_text (dialog, type, "model_row", "unet_hw960_bs1.air");
  set_text (dialog, type, "output_row", "unet_hw960_bs1");
  set_text (dialog, type, "format_row", "NCHW");
  set_text (dialog, type, "soc_row", "Ascend310");
  set_text (dialog, type, "aipp_row", "aipp_unet_simple_opencv.cfg");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, type, "log_row")), 4); /* error */
  settle ();
  g_assert_cmpstr (sl_atc_dialog_get_command_preview (dialog), ==,
                   "'atc' '--framework=1' '--model=unet_hw960_bs1.air' '--output=unet_hw960_bs1' "
                   "'--input_format=NCHW' '--soc_version=Ascend310' '--insert_op_conf=aipp_unet_simple_opencv.cfg' '--log=error'");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "convert_button"))));
  g_assert_false (gtk_widget_get_visible (weight_row));
  screenshots (GTK_WINDOW (dialog), "atc-dialog.png", "atc-dialog-dark.png");

  /* Caffe needs weights; a bad SoC version and shape mark their rows. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, type, "framework_row")), 0);
  set_text (dialog, type, "soc_row", "310P3");
  set_text (dialog, type, "shape_row", "data:1,3,x,224");
  settle ();
  g_assert_true (gtk_widget_get_visible (weight_row));
  g_assert_true (gtk_widget_has_css_class (soc_row, "error"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (child (dialog, type, "shape_row")), "error"));
  /* Empty and not reached yet: listed, but the row is not marked. */
  g_assert_false (gtk_widget_has_css_class (weight_row, "error"));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, type, "convert_button"))));
  {
    GPtrArray *problems = sl_atc_dialog_get_problems (dialog);
    guint errors = 0;

    for (guint i = 0; i < problems->len; i++)
      errors += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
    g_assert_cmpuint (errors, ==, 3);
  }
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (child (dialog, type, "error_label"))), "--soc_version: "));
  screenshots (GTK_WINDOW (dialog), "atc-dialog-errors.png", "atc-dialog-errors-dark.png");

  set_text (dialog, type, "soc_row", "Ascend310P3");
  settle ();
  g_assert_false (gtk_widget_has_css_class (soc_row, "error"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* An inference configuration with MX_SDK_HOME is a MindX app: the Run
 * dialog gives it the SDK's environment, as the SDK's run.sh does. */
static void
test_mindx_run_config (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  g_autoptr(SlProjectRecord) project = sl_project_record_new ("unet", tmp_root);
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_INFER, "unet app", "main.py");
  g_autoptr(GPtrArray) projects = g_ptr_array_new ();
  const char *args[] = { "--pipeline", "pipeline/unet.pipeline", NULL };
  const char *env[] = { "MX_SDK_HOME=/opt/mxVision", NULL };
  SlRunDialog *dialog;
  g_auto(GStrv) argv = NULL;

  sl_run_config_record_set_arguments (config, args);
  sl_run_config_record_set_environment (config, env);
  sl_project_record_add_run_config (project, config);
  g_ptr_array_add (projects, project);

  dialog = sl_run_dialog_new (tmp_root);
  sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (workspace), 0);
  sl_run_dialog_set_projects (dialog, projects);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));
  sl_run_dialog_select_config (dialog, 0);
  settle ();

  g_assert_true (g_shell_parse_argv (sl_run_dialog_get_command (dialog), NULL, &argv, NULL));
  g_assert_cmpuint (g_strv_length (argv), ==, 3);
  g_assert_cmpstr (argv[0], ==, "sh");
  g_assert_true (g_str_has_prefix (argv[2], "export MX_SDK_HOME='/opt/mxVision'; "));
  g_assert_nonnull (strstr (argv[2], "export GST_PLUGIN_PATH='/opt/mxVision/opensource/lib/gstreamer-1.0:/opt/mxVision/lib/plugins'; "));
  g_assert_nonnull (strstr (argv[2], "export PYTHONPATH='/opt/mxVision/python'\"${PYTHONPATH:+:$PYTHONPATH}\"; "));
  g_assert_true (g_str_has_suffix (argv[2], "exec 'python3' 'main.py' '--pipeline' 'pipeline/unet.pipeline'"));
  g_assert_true (sl_run_dialog_validate (dialog, NULL));
  screenshots (GTK_WINDOW (dialog), "run-dialog-mindx.png", "run-dialog-mindx-dark.png");
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
profile_dialog_shown (gpointer data)
{
  return find_toplevel (SL_TYPE_PROFILE_DIALOG) != NULL;
}

static gboolean
atc_dialog_shown (gpointer data)
{
  return find_toplevel (SL_TYPE_ATC_DIALOG) != NULL;
}

/* The main menu's entries open the dialogs over the window. */
static void
test_window_actions (void)
{
  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile-program", NULL);
  g_assert_true (wait_until (profile_dialog_shown, NULL, 10000));
  g_assert_true (gtk_window_get_transient_for (find_toplevel (SL_TYPE_PROFILE_DIALOG)) == GTK_WINDOW (window));
  gtk_window_destroy (find_toplevel (SL_TYPE_PROFILE_DIALOG));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.convert-model", NULL);
  g_assert_true (wait_until (atc_dialog_shown, NULL, 10000));
  gtk_window_destroy (find_toplevel (SL_TYPE_ATC_DIALOG));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-workflow-dialogs-XXXXXX");
  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/workflow-dialogs/profile", test_profile_dialog);
  g_test_add_func ("/workflow-dialogs/atc", test_atc_dialog);
  g_test_add_func ("/workflow-dialogs/window-actions", test_window_actions);
  g_test_add_func ("/workflow-dialogs/mindx-run-config", test_mindx_run_config);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
