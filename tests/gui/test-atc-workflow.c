/* test-atc-workflow.c: the ATC dialog's conversion, end to end on this computer
 *
 * The stand-in atc of tests/integration/workflow-tools goes on the PATH
 * through an environment script. An ONNX model with an opset ATC cannot
 * read fails with E19010, which must reach Problems with its option, the
 * job log and the copy pulled here; a good conversion is kept among the
 * project's outputs and its model is set as a pipeline's modelPath; a
 * slow one is stopped. Light and dark screenshots of the dialog filled
 * in, running, failed and converted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include "sl-atc-dialog.h"
#include "sl-console-panel.h"
#include "sl-document-registry.h"
#include "sl-problem.h"
#include "sl-problems-panel.h"
#include "sl-workspace-store-outputs.h"

static const char pipeline_text[] =
  "{\n"
  "  \"unet\": {\n"
  "    \"stream_config\": {\"deviceId\": \"0\"},\n"
  "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0\"},\n"
  "    \"mxpi_tensorinfer0\": {\"props\": {\"modelPath\": \"model/old.om\"}, \"factory\": \"mxpi_tensorinfer\", \"next\": \"appsink0\"},\n"
  "    \"appsink0\": {\"factory\": \"appsink\"}\n"
  "  }\n"
  "}\n";

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;
static char *project;
static char *fast_script;
static char *slow_script;

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
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), SL_TYPE_ATC_DIALOG, name);

  g_assert_nonnull (object);
  return object;
}

static void
set_text (gpointer    dialog,
          const char *name,
          const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, name)), text);
}

static const char *
label_of (gpointer    dialog,
          const char *name)
{
  return gtk_label_get_label (GTK_LABEL (child (dialog, name)));
}

static void
screenshots (GtkWindow  *dialog,
             const char *name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light_name = g_strdup_printf ("%s.png", name);
  g_autofree char *dark_name = g_strdup_printf ("%s-dark.png", name);
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

  /* The dialog follows the style: its middle is darker in the dark one. */
  light_box = capture_luma_stats (light, 40, light->height / 2, light->width - 80, 40);
  dark_box = capture_luma_stats (dark, 40, dark->height / 2, dark->width - 80, 40);
  g_assert_cmpfloat (dark_box.median, <, light_box.median - 60);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
link_tool (const char *bin,
           const char *name,
           const char *source)
{
  g_autofree char *link = g_build_filename (bin, name, NULL);

  g_assert_cmpint (symlink (source, link), ==, 0);
}

static char *
write_env_script (const char *bin,
                  const char *name,
                  const char *extra)
{
  g_autofree char *toolkit = g_path_get_dirname (bin);
  g_autofree char *plogs = g_build_filename (tmp_root, "ascend-log", NULL);
  g_autofree char *text = g_strdup_printf ("export PATH=%s:/usr/bin:/bin\nexport ASCEND_TOOLKIT_HOME=%s\n"
                                           "export ASCEND_PROCESS_LOG_PATH=%s\n%s",
                                           bin, toolkit, plogs, extra);

  write_file (tmp_root, name, text);
  return g_build_filename (tmp_root, name, NULL);
}

/* A project with the models and a pipeline, and the toolkit's stand-ins. */
static void
make_project (void)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *atc = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", "atc", NULL);
  g_autofree char *bin = g_build_filename (tmp_root, "toolkit", "bin", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");

  project = g_build_filename (tmp_root, "unet-project", NULL);
  write_file (project, "unet_hw960_bs1.air", "air");
  write_file (project, "net_opset18.onnx", "onnx");
  write_file (project, "aipp_unet_simple_opencv.cfg", "aipp_op {}\n");
  write_file (project, "pipeline/unet.pipeline", pipeline_text);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  g_assert_nonnull (python);
  link_tool (bin, "atc", atc);
  link_tool (bin, "python", python);
  fast_script = write_env_script (bin, "set_env.sh", "");
  slow_script = write_env_script (bin, "set_env_slow.sh", "export SL_STUB_ATC_SECONDS=20\n");
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
atc_dialog_shown (gpointer data)
{
  return find_toplevel (SL_TYPE_ATC_DIALOG) != NULL;
}

static gboolean
run_ended (gpointer data)
{
  return !sl_atc_dialog_is_running (data);
}

static gboolean
widget_visible (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static SlAtcDialog *
open_dialog (void)
{
  SlAtcDialog *dialog;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.convert-model", NULL);
  g_assert_true (wait_until (atc_dialog_shown, NULL, 10000));
  dialog = find_toplevel (SL_TYPE_ATC_DIALOG);
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));
  set_text (dialog, "folder_row", project);
  return dialog;
}

static void
fill_in (SlAtcDialog *dialog,
         const char  *script,
         guint        framework,
         const char  *model,
         const char  *output,
         const char  *aipp)
{
  set_text (dialog, "env_row", script);
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, "framework_row")), framework);
  set_text (dialog, "model_row", model);
  set_text (dialog, "output_row", output);
  set_text (dialog, "format_row", "NCHW");
  set_text (dialog, "soc_row", "Ascend310");
  set_text (dialog, "aipp_row", aipp);
  settle ();
}

static GListModel *
problems_model (void)
{
  PanelWidget *panel = sl_window_find_panel (window, "problems");

  g_assert_true (SL_IS_PROBLEMS_PANEL (panel));
  return sl_problems_panel_get_model (SL_PROBLEMS_PANEL (panel));
}

static SlProblem *
find_problem (const char *code)
{
  GListModel *model = problems_model ();

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);

      if (g_strcmp0 (sl_problem_get_code (problem), code) == 0)
        return problem;  /* the model keeps it */
    }
  return NULL;
}

static gboolean
label_has (gpointer data)
{
  return strstr (gtk_label_get_label (data), "E19010") != NULL;
}

/* E19010 reaches Problems with its option, the job log and the copy here
 * at the line ATC printed it; the dialog names the logs. */
static void
test_failed_conversion (void)
{
  SlAtcDialog *dialog = open_dialog ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *log = NULL;
  SlProblem *problem;

  fill_in (dialog, slow_script, 3, "net_opset18.onnx", "net", "");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "convert_button"))));
  screenshots (GTK_WINDOW (dialog), "atc-run-filled");

  /* Slow enough to be seen running. */
  set_text (dialog, "env_row", slow_script);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.convert", NULL);
  g_assert_true (sl_atc_dialog_is_running (dialog));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "convert_button"))));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "fields_page"))));
  screenshots (GTK_WINDOW (dialog), "atc-run-running");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (child (dialog, "cancel_button"))), ==, "_Stop");

  /* Stop it: nothing is written, and it says so. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.cancel", NULL);
  g_assert_true (wait_until (run_ended, dialog, 15000));
  g_assert_true (g_str_has_prefix (label_of (dialog, "stage_label"), "Stopped"));
  g_assert_null (find_problem ("E19010"));

  /* Again, at full speed. */
  set_text (dialog, "env_row", fast_script);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.convert", NULL);
  g_assert_true (wait_until (run_ended, dialog, 30000));

  problem = find_problem ("E19010");
  g_assert_nonnull (problem);
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, "--model");
  g_assert_true (g_str_has_suffix (sl_problem_get_path (problem), "/log"));
  g_assert_nonnull (sl_problem_get_local_copy (problem));
  g_assert_true (g_file_get_contents (sl_problem_get_local_copy (problem), &log, NULL, NULL));
  lines = g_strsplit (log, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[sl_problem_get_line (problem) - 1], "E19010: "));

  g_assert_true (g_str_has_prefix (label_of (dialog, "stage_label"), "The conversion failed with 1 error"));
  g_assert_nonnull (strstr (label_of (dialog, "outcome_label"), sl_problem_get_path (problem)));
  g_assert_nonnull (strstr (label_of (dialog, "outcome_label"), sl_problem_get_local_copy (problem)));
  g_assert_nonnull (strstr (label_of (dialog, "outcome_label"), "Detail log: "));
  g_assert_true (g_str_has_prefix (label_of (dialog, "outcome_label"),
                                   "E19010 --model: No parser is registered for Op [Conv_0, optype [ai.onnx::18::Conv]].\n"));

  /* Activating the problem shows the pulled log at its line. */
  {
    PanelWidget *problems = sl_window_find_panel (window, "problems");
    PanelWidget *details = sl_window_find_panel (window, "details");
    GtkLabel *snippet = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (details), G_OBJECT_TYPE (details), "snippet"));
    g_autofree char *marked = g_strdup_printf ("\u25b6%u E19010: ", sl_problem_get_line (problem));

    g_signal_emit_by_name (problems, "problem-activated", problem);
    g_assert_true (wait_until (label_has, (gpointer)snippet, 10000));
    g_assert_nonnull (strstr (gtk_label_get_label (snippet), marked));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "atc-run-problems.png");
  }
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "open_log_button"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "pipeline_box"))));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "convert_button"))));
  screenshots (GTK_WINDOW (dialog), "atc-run-failed");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Read on the workspace's writer thread, as the application does. */
static gpointer
list_outputs_func (SlWorkspaceStore  *store,
                   gpointer           folder,
                   GCancellable      *cancellable,
                   GError           **error)
{
  return sl_workspace_store_list_project_outputs (store, folder, error);
}

typedef struct {
  char *kind;
  char *path;
  char *request;
} Offer;

static void
offer_cb (SlSession   *session,
          const char  *text,
          const char  *label,
          const char  *kind,
          const char **paths,
          GVariant    *request,
          Offer       *offer)
{
  g_free (offer->kind);
  g_free (offer->path);
  g_free (offer->request);
  offer->kind = g_strdup (kind);
  offer->path = g_strjoinv ("|", (char **) paths);
  offer->request = g_variant_print (request, FALSE);
}

static gboolean
offered (gpointer data)
{
  return ((Offer *) data)->kind != NULL;
}

static gboolean
element_path_is (gpointer data)
{
  SlAtcDialog *dialog = find_toplevel (SL_TYPE_ATC_DIALOG);

  return dialog && g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (child (dialog, "element_row"))), data) == 0;
}

static gboolean
label_shown (gpointer data)
{
  return gtk_widget_get_visible (data) && gtk_label_get_label (data)[0] != '\0';
}

/* The walkthrough's conversion: the .om is kept among the project's
 * outputs, and the offer rewrites the pipeline's modelPath and checks it. */
static void
test_good_conversion (void)
{
  SlAtcDialog *dialog = open_dialog ();
  g_autofree char *om = g_build_filename (project, "unet_hw960_bs1.om", NULL);
  g_autofree char *pipeline = g_build_filename (project, "pipeline", "unet.pipeline", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) expected = g_string_new (pipeline_text);
  g_autofree char *air = g_build_filename (project, "unet_hw960_bs1.air", NULL);
  g_autofree char *models = g_strconcat (air, "|", om, NULL);
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (air, om);
  g_autofree char *conversion_id = NULL;
  g_autoptr(GPtrArray) outputs = NULL;
  SlSession *session = sl_application_get_session (app);
  Offer offer = { NULL, NULL, NULL };
  gulong offer_handler = g_signal_connect (session, "offer", G_CALLBACK (offer_cb), &offer);
  GListModel *elements;

  fill_in (dialog, fast_script, 1, "unet_hw960_bs1.air", "unet_hw960_bs1", "aipp_unet_simple_opencv.cfg");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.convert", NULL);
  g_assert_true (wait_until (run_ended, dialog, 30000));
  g_assert_cmpstr (label_of (dialog, "stage_label"), ==, "Converted");
  g_assert_true (g_file_test (om, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (label_of (dialog, "outcome_label"), om));

  /* The model read and the .om written are both here: the session's
   * notice offers them, and so does the dialog, whose button opens the
   * conversion document and both graphs. */
  g_assert_true (wait_until (offered, &offer, 10000));
  g_signal_handler_disconnect (session, offer_handler);
  g_assert_cmpstr (offer.kind, ==, "conversion");
  conversion_id = sl_document_registry_dup_address_id (sl_document_registry_lookup ("conversion"), address);
  g_assert_cmpstr (offer.path, ==, models);
  g_assert_cmpstr (offer.request, ==, "('graphs',)");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "open_models_button"))));
  g_assert_null (sl_window_find_document (window, conversion_id));
  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.open-models", NULL);
  g_assert_nonnull (sl_window_find_document (window, conversion_id));
  g_free (offer.kind);
  g_free (offer.path);
  g_free (offer.request);

  /* ATC's output streamed into the Console, as a job's does. */
  {
    g_autofree char *console = sl_console_panel_dup_text (SL_CONSOLE_PANEL (sl_window_find_panel (window, "console")));

    g_assert_nonnull (strstr (console, "ATC run success"));
  }

  outputs = sl_workspace_run_sync (sl_window_get_workspace (window), list_outputs_func, project, NULL);
  g_assert_cmpuint (outputs->len, ==, 1);
  g_assert_cmpstr (((SlProjectOutputRow *)g_ptr_array_index (outputs, 0))->path, ==, om);

  /* The project's pipeline and its inference element are offered. */
  g_assert_true (wait_until (widget_visible, child (dialog, "pipeline_box"), 10000));
  elements = adw_combo_row_get_model (ADW_COMBO_ROW (child (dialog, "element_row")));
  g_assert_cmpuint (g_list_model_get_n_items (elements), ==, 1);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (elements), 0), ==,
                   "unet / mxpi_tensorinfer0");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (child (dialog, "element_row"))), ==,
                   "modelPath now: model/old.om");
  screenshots (GTK_WINDOW (dialog), "atc-run-converted");

  gtk_widget_activate_action (GTK_WIDGET (dialog), "atc.set-model-path", NULL);
  g_assert_true (wait_until (label_shown, child (dialog, "pipeline_label"), 10000));
  g_assert_cmpstr (label_of (dialog, "pipeline_label"), ==,
                   "unet.pipeline now uses unet_hw960_bs1.om; the pipeline check finds no error.");
  g_string_replace (expected, "\"model/old.om\"", "\"unet_hw960_bs1.om\"", 1);
  g_assert_true (g_file_get_contents (pipeline, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expected->str);
  /* Offered again as it now is; the outcome stays in view. */
  g_assert_true (wait_until (element_path_is, "modelPath now: unet_hw960_bs1.om", 10000));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "pipeline_label"))));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "atc-run-model-path.png");

  /* Another model: the outcome shown is the earlier fields', and says so;
   * the offer for its model goes. The same fields again keep it stale. */
  set_text (dialog, "model_row", "other.air");
  settle ();
  g_assert_cmpstr (label_of (dialog, "stage_label"), ==,
                   "Before the fields changed: Converted. Convert again for these.");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "pipeline_box"))));
  set_text (dialog, "model_row", "unet_hw960_bs1.air");
  settle ();
  g_assert_true (g_str_has_prefix (label_of (dialog, "stage_label"), "Before the fields changed: "));
  screenshots (GTK_WINDOW (dialog), "atc-run-stale");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-atc-workflow-XXXXXX");
  if (skip_without_display ())
    return 77;
  {
    g_autofree char *cache = g_build_filename (tmp_root, "cache-home", NULL);

    /* The pulled logs go into the test's own cache. */
    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }
  make_project ();

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/atc-workflow/failed", test_failed_conversion);
  g_test_add_func ("/atc-workflow/good", test_good_conversion);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
