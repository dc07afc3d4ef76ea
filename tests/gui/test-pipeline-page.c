/* test-pipeline-page.c: a generated pipeline in its page: the stream's
 * graph, the check's problems in Problems with their positions, Details of
 * an element, a prop edited and saved with its backup; the dataset graphs
 * of the real lineage runs side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-dataset-graph-page.h"
#include "sl-details-panel.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-page.h"
#include "sl-pipeline-reader.h"
#include "sl-problems-panel.h"
#include "sl-window.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

#define PIPELINE \
  "{\n" \
  "    \"detect\": {\n" \
  "        \"stream_config\": {\n" \
  "            \"deviceId\": \"0\"\n" \
  "        },\n" \
  "        \"appsrc0\": {\n" \
  "            \"props\": {\n" \
  "                \"blocksize\": \"409600\"\n" \
  "            },\n" \
  "            \"factory\": \"appsrc\",\n" \
  "            \"next\": \"mxpi_tensorinfer0\"\n" \
  "        },\n" \
  "        \"mxpi_tensorinfer0\": {\n" \
  "            \"factory\": \"mxpi_tensorinfer\",\n" \
  "            \"next\": \"appsink0\"\n" \
  "        },\n" \
  "        \"appsink0\": {\n" \
  "            \"factory\": \"appsink\"\n" \
  "        }\n" \
  "    },\n" \
  "    \"second\": {\n" \
  "        \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n" \
  "        \"appsink0\": {\"factory\": \"appsink\"}\n" \
  "    }\n" \
  "}\n"

static gboolean
document_settled (gpointer data)
{
  SlDocument *document = data;

  return sl_document_get_state (document) != SL_DOCUMENT_LOADING &&
         !panel_widget_get_busy (PANEL_WIDGET (document));
}

static gboolean
page_modified (gpointer data)
{
  return sl_pipeline_page_get_modified (data) && !panel_widget_get_busy (PANEL_WIDGET (data));
}

static gboolean
page_saved (gpointer data)
{
  return !sl_pipeline_page_get_modified (data) && !panel_widget_get_busy (PANEL_WIDGET (data));
}

/* What the check says of the file, on a thread of its own: it looks at
 * the disk. */
static gpointer
check_thread (gpointer path)
{
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data (path, (const guint8 *)PIPELINE, strlen (PIPELINE));

  return sl_pipeline_check (pipeline, NULL, NULL);
}

static void
test_pipeline_page (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "app", "pipeline", NULL);
  g_autofree char *path = g_build_filename (dir, "detect.pipeline", NULL);
  g_autofree char *backup = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  SlProblemsPanel *problems_panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  guint errors_before = sl_problems_panel_count (problems_panel, SL_SEVERITY_ERROR);
  guint expected_errors = 0;
  const SlGraphSceneBox *boxes;
  SlGraphScene *scene;
  GListModel *problems;
  SlPipelinePage *page;
  SlDocument *document;
  guint n_boxes;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, PIPELINE, -1, NULL));
  expected = g_thread_join (g_thread_new ("check", check_thread, path));
  for (guint i = 0; i < expected->len; i++)
    expected_errors += sl_problem_get_severity (g_ptr_array_index (expected, i)) == SL_SEVERITY_ERROR;
  /* modelPath is required by mxpi_tensorinfer. */
  g_assert_cmpuint (expected_errors, >=, 1);

  document = sl_window_open_document (window, "pipeline", path, NULL);
  g_assert_true (SL_IS_PIPELINE_PAGE (document));
  page = SL_PIPELINE_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (document)), ==, "Pipeline: detect.pipeline");

  /* The first stream's graph: its three elements by index. */
  scene = sl_graph_canvas_get_scene (sl_pipeline_page_get_canvas (page));
  g_assert_nonnull (scene);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  g_assert_cmpuint (n_boxes, ==, 3);
  g_assert_cmpstr (boxes[0].label, ==, "appsrc0");
  g_assert_cmpstr (boxes[1].label, ==, "mxpi_tensorinfer0");
  g_assert_cmpstr (boxes[1].detail, ==, "mxpi_tensorinfer");
  g_assert_true (boxes[1].flags & SL_GRAPH_BOX_ERROR);
  g_assert_cmpuint (sl_graph_scene_get_edges (scene, NULL) != NULL, ==, TRUE);

  /* The check's problems, with their lines and columns, in Problems. */
  problems = sl_document_get_problems (document);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      g_autoptr(SlProblem) shown = g_list_model_get_item (problems, i);
      SlProblem *want = g_ptr_array_index (expected, i);

      g_assert_cmpuint (sl_problem_get_line (shown), ==, sl_problem_get_line (want));
      g_assert_cmpuint (sl_problem_get_column (shown), ==, sl_problem_get_column (want));
      g_assert_cmpstr (sl_problem_get_message (shown), ==, sl_problem_get_message (want));
      g_assert_cmpuint (sl_problem_get_line (shown), >, 0);
    }
  g_assert_cmpuint (sl_problems_panel_count (problems_panel, SL_SEVERITY_ERROR), ==, errors_before + expected_errors);

  /* Details of an element: factory, props, its next as a link. */
  sl_pipeline_page_select_element (page, 0);
  wait_for_frames (GTK_WIDGET (window));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Factory"), ==, "appsrc");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Stream"), ==, "detect");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Next"), ==, "mxpi_tensorinfer0");

  /* An edit shows at once, unsaved; the file is untouched until saved. */
  sl_pipeline_page_set_prop (page, "blocksize", "8 \"k\"");
  g_assert_true (wait_until (page_modified, page, 20000));
  g_assert_nonnull (strstr (panel_widget_get_title (PANEL_WIDGET (document)), "(unsaved)"));
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (sl_pipeline_stream_get_element (
                     sl_pipeline_get_stream (sl_pipeline_page_get_pipeline (page), 0), 0), "blocksize")->text,
                   ==, "8 \"k\"");
  g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, PIPELINE);
  g_clear_pointer (&kept, g_free);

  /* A new prop on the element without props, entered in Details as
   * name=value, then Ctrl+S's action. */
  sl_pipeline_page_select_element (page, 1);
  {
    GtkWidget *entry = sl_details_panel_get_value_widget (details, "New property");

    g_assert_true (GTK_IS_ENTRY (entry));
    g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (entry)), ==, "name=value");
    gtk_editable_set_text (GTK_EDITABLE (entry), "modelPath=../model/yolo.om");
    g_signal_emit_by_name (entry, "activate");
  }
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "pipeline.save", NULL));
  g_assert_true (wait_until (page_saved, page, 20000));
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (document)), ==, "Pipeline: detect.pipeline");

  backup = g_strconcat (path, "~", NULL);
  g_assert_true (g_file_get_contents (backup, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, PIPELINE);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "                \"blocksize\": \"8 \\\"k\\\"\"\n"));
  g_assert_nonnull (strstr (saved, "            \"next\": \"appsink0\",\n"
                                   "            \"props\": {\n"
                                   "                \"modelPath\": \"../model/yolo.om\"\n"
                                   "            }\n"));

  /* Checked again: the missing modelPath error is gone (a warning that
   * the model file is missing may take its place). */
  g_assert_cmpuint (g_list_model_get_n_items (problems), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (g_strcmp0 (sl_problem_get_subject (problem), "mxpi_tensorinfer0") == 0)
        g_assert_cmpint (sl_problem_get_severity (problem), !=, SL_SEVERITY_ERROR);
    }

  /* The panel shows the check of the saved file, not every check made. */
  {
    guint errors = 0;

    for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
      {
        g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
        errors += sl_problem_get_severity (problem) == SL_SEVERITY_ERROR;
      }
    g_assert_cmpuint (sl_problems_panel_count (problems_panel, SL_SEVERITY_ERROR), ==, errors_before + errors);
  }

  /* The second stream through the switcher. */
  sl_pipeline_page_set_stream (page, 1);
  scene = sl_graph_canvas_get_scene (sl_pipeline_page_get_canvas (page));
  sl_graph_scene_get_boxes (scene, &n_boxes);
  g_assert_cmpuint (n_boxes, ==, 2);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "pipeline-page");

  panel_widget_close (PANEL_WIDGET (document));
  g_unlink (backup);
}

static void
test_dataset_graph_page (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *runs = NULL;
  SlDocument *document;
  SlDatasetGraphPage *page;
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));

  if (datasets == NULL ||
      !g_file_test ((runs = g_build_filename (datasets, "generated__mindinsight-writers", "run_lineage", NULL)),
                    G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the datasets folder is not here");
      return;
    }

  document = sl_window_open_document (window, "dataset-graph", runs, NULL);
  page = SL_DATASET_GRAPH_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_dataset_graph_page_get_n_runs (page), ==, 6);
  for (guint r = 0; r < 6; r++)
    {
      guint n_boxes = 0;

      sl_graph_scene_get_boxes (sl_graph_canvas_get_scene (sl_dataset_graph_page_get_canvas (page, r)), &n_boxes);
      g_assert_cmpuint (n_boxes, ==, sl_dataset_graph_get_n_nodes (sl_dataset_graph_page_get_graph (page, r)));
      g_assert_cmpuint (n_boxes, >=, 2);
    }

  /* The root of the first run; the same place selected in the others. */
  sl_dataset_graph_page_select (page, 0, 0);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (sl_dataset_graph_page_get_canvas (page, 1)), ==, 0);
  g_assert_cmpstr (sl_details_panel_lookup (details, "Run"), ==, "run_01");
  g_assert_nonnull (sl_details_panel_lookup (details, "op_type"));
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "dataset-graph-page");
  panel_widget_close (PANEL_WIDGET (document));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-pipeline-page-XXXXXX");

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/pipeline-page/edit-and-save", test_pipeline_page);
  g_test_add_func ("/dataset-graph-page/runs-side-by-side", test_dataset_graph_page);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
