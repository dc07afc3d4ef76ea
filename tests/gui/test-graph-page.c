/* test-graph-page.c: the generated LLM graph in its page: the first view,
 * expanding a scope with the clicked node kept in place on screen and
 * collapsing back to the exact earlier drawing, search reaching inside
 * collapsed scopes and opening the path to a hit, Details of an op, the
 * bookkeeping filter, a link from a profile by op name, damaged files,
 * an ONNX model's Details, the demo job's graph linked to its profile and timeline,
 * and the node menus of two graphs open at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-count-format.h"
#include "sl-details-panel.h"
#include "sl-graph-page.h"
#include "sl-graph-reader.h"
#include "sl-op-stats-view.h"
#include "sl-profile-page.h"
#include "sl-timeline-page.h"
#include "sl-tooltip.h"
#include "sl-tensor-compare-row.h"
#include "sl-window.h"
#include "../graph-fixture.h"

#define LAYERS "Default/network-TrainOneStepCell/network-WithLossCell/_backbone-LlamaForCausalLM/model-LlamaModel/layers-CellList"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

static gboolean
document_settled (gpointer data)
{
  SlDocument *document = data;

  return sl_document_get_state (document) != SL_DOCUMENT_LOADING &&
         !panel_widget_get_busy (PANEL_WIDGET (document));
}

typedef struct {
  SlGraphPage  *page;
  SlGraphScene *old_scene;
} SceneWait;

/* A new scene is shown and nothing is being laid out. */
static gboolean
scene_changed (gpointer data)
{
  SceneWait *wait = data;
  SlGraphScene *scene = sl_graph_canvas_get_scene (sl_graph_page_get_canvas (wait->page));

  return scene != NULL && scene != wait->old_scene && !panel_widget_get_busy (PANEL_WIDGET (wait->page));
}

static SlGraphScene *
wait_for_new_scene (SlGraphPage  *page,
                    SlGraphScene *old_scene)
{
  SceneWait wait = { page, old_scene };

  g_assert_true (wait_until (scene_changed, &wait, 20000));
  return sl_graph_canvas_get_scene (sl_graph_page_get_canvas (page));
}

static const SlGraphSceneBox *
box_of (SlGraphScene *scene,
        guint         item)
{
  guint box = sl_graph_scene_lookup_id (scene, item);

  g_assert_cmpuint (box, !=, SL_GRAPH_SCENE_NONE);
  return &sl_graph_scene_get_boxes (scene, NULL)[box];
}

static gboolean
has_results (gpointer data)
{
  return sl_graph_page_get_results (data)->len > 0;
}

static char *
write_llm (const char *name)
{
  g_autoptr(GBytes) bytes = graph_fixture_llm (3, NULL);
  char *path = g_build_filename (tmp_root, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The toolbar's counts are a short form that is never cut; the long one,
 * with the boxes drawn, is in the tooltip. */
static void
assert_stats_readable (SlGraphPage *page)
{
  SlGraph *graph = sl_graph_page_get_graph (page);
  GtkWidget *stats = find_named (GTK_WIDGET (page), "graph-stats");
  g_autofree char *n_ops = sl_count_format (sl_graph_get_n_ops (graph));
  g_autofree char *n_params = sl_count_format (sl_graph_get_n_parameters (graph));
  g_autofree char *expected = g_strdup_printf ("%s ops · %s params", n_ops, n_params);
  g_autofree char *long_form = g_strdup_printf ("%s ops, %s parameters; ", n_ops, n_params);
  int natural = 0;

  g_assert_nonnull (stats);
  g_assert_true (gtk_widget_get_mapped (stats));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (stats)), ==, expected);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (stats)), ==, PANGO_ELLIPSIZE_NONE);
  gtk_widget_measure (stats, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_width (stats), >=, natural);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (stats))));
  g_assert_true (g_str_has_prefix (sl_widget_get_long_tooltip (stats), long_form));
  g_assert_nonnull (strstr (sl_widget_get_long_tooltip (stats), "boxes drawn"));
}

static void
test_graph_page (void)
{
  g_autofree char *path = write_llm ("llm.pb");
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  g_autoptr(SlGraphScene) first = NULL;
  g_autoptr(SlGraphScene) expanded = NULL;
  SlGraphScene *scene;
  SlGraphCanvas *canvas;
  SlDocument *document;
  SlGraphPage *page;
  SlGraph *graph;
  const SlGraphSceneBox *before, *after, *boxes;
  double bx, by, ax, ay;
  guint layers, n_first, n_boxes, first_hit;
  g_autofree char *hit_path = NULL;

  document = sl_window_open_document (window, "graph", path, NULL);
  g_assert_true (SL_IS_GRAPH_PAGE (document));
  page = SL_GRAPH_PAGE (document);
  canvas = sl_graph_page_get_canvas (page);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (document)), ==, "Graph: llm.pb");
  graph = sl_graph_page_get_graph (page);
  g_assert_nonnull (graph);

  /* The first view: the top level, Default collapsed. */
  first = g_object_ref (wait_for_new_scene (page, NULL));
  wait_for_frames (GTK_WIDGET (window));
  assert_stats_readable (page);
  g_assert_cmpuint (box_of (first, sl_graph_find_item (graph, "Default"))->shape, ==, SL_GRAPH_SHAPE_COLLAPSED);
  sl_graph_scene_get_boxes (first, &n_first);

  /* Open the path to the layers, then expand the layer list with a
   * "double-click": the list's box stays where it was on screen. */
  layers = sl_graph_find_item (graph, LAYERS);
  g_assert_cmpuint (layers, !=, SL_GRAPH_NONE);
  sl_graph_page_reveal (page, layers);
  g_clear_object (&first);
  first = g_object_ref (wait_for_new_scene (page, NULL));
  wait_for_frames (GTK_WIDGET (window));
  before = box_of (first, layers);
  g_assert_cmpuint (before->shape, ==, SL_GRAPH_SHAPE_COLLAPSED);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, layers);
  g_assert_cmpstr (sl_details_panel_lookup (details, "Path"), ==, LAYERS);
  sl_graph_canvas_scene_to_widget (canvas, before->x, before->y, &bx, &by);
  sl_graph_scene_get_boxes (first, &n_first);

  g_signal_emit_by_name (canvas, "activated", layers);
  expanded = g_object_ref (wait_for_new_scene (page, first));
  after = box_of (expanded, layers);
  g_assert_cmpuint (after->shape, ==, SL_GRAPH_SHAPE_CONTAINER);
  sl_graph_canvas_scene_to_widget (canvas, after->x, after->y, &ax, &ay);
  g_assert_cmpfloat (fabs (ax - bx), <, 1e-6);
  g_assert_cmpfloat (fabs (ay - by), <, 1e-6);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-page-expanded.png");

  /* Collapsing gives back the earlier drawing exactly. */
  g_signal_emit_by_name (canvas, "activated", layers);
  scene = wait_for_new_scene (page, expanded);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  g_assert_cmpuint (n_boxes, ==, n_first);
  for (guint i = 0; i < n_boxes; i++)
    {
      const SlGraphSceneBox *old = &sl_graph_scene_get_boxes (first, NULL)[i];

      g_assert_cmpuint (boxes[i].id, ==, old->id);
      g_assert_cmpfloat (boxes[i].x, ==, old->x);
      g_assert_cmpfloat (boxes[i].y, ==, old->y);
    }

  /* Search reaches ops inside collapsed scopes; the first hit opens. */
  sl_graph_page_search (page, "rmsnorm/mul-op", FALSE);
  g_assert_true (wait_until (has_results, page, 20000));
  first_hit = g_array_index (sl_graph_page_get_results (page), guint32, 0);
  hit_path = sl_graph_item_dup_path (graph, first_hit);
  g_assert_nonnull (strstr (hit_path, "RMSNorm"));
  g_assert_cmpuint (sl_graph_scene_lookup_id (sl_graph_canvas_get_scene (canvas), first_hit), ==, SL_GRAPH_SCENE_NONE);
  sl_graph_page_reveal (page, first_hit);
  scene = wait_for_new_scene (page, scene);
  g_assert_cmpuint (sl_graph_scene_lookup_id (scene, first_hit), !=, SL_GRAPH_SCENE_NONE);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, first_hit);
  wait_for_frames (GTK_WIDGET (window));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Op type"), ==, "Mul");
  g_assert_nonnull (sl_details_panel_lookup (details, "Input 0"));
  g_assert_nonnull (sl_details_panel_lookup (details, "Output 0"));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-page-search.png");

  /* A bad expression says so instead of finding nothing. */
  sl_graph_page_search (page, "([", TRUE);
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);

  /* Hiding bookkeeping ops removes them from the drawing. */
  g_object_set (page, "hide-bookkeeping", TRUE, NULL);
  scene = wait_for_new_scene (page, scene);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    g_assert_false (boxes[i].flags & SL_GRAPH_BOX_BOOKKEEPING);
  g_object_set (page, "hide-bookkeeping", FALSE, NULL);
  scene = wait_for_new_scene (page, scene);

  /* A link from a profile names the op as profiles do. */
  {
    guint target = SL_GRAPH_NONE;
    g_autofree char *name = NULL;

    /* The fixture numbers ops itself: find a MatMul of layer 2's wq. */
    for (guint e = 0; e < sl_graph_get_n_ops (graph) && target == SL_GRAPH_NONE; e++)
      {
        g_autofree char *full = sl_graph_element_dup_name (graph, e);

        if (strstr (full, "2-LLamaDecodeLayer/attention-LLamaAttention/wq-Linear/MatMul-op") != NULL &&
            g_str_has_prefix (full, "Default/"))
          {
            target = sl_graph_element_get_item (graph, e);
            name = g_steal_pointer (&full);
          }
      }
    g_assert_cmpuint (target, !=, SL_GRAPH_NONE);
    sl_document_request (document, g_variant_new ("(s)", name));
    scene = wait_for_new_scene (page, scene);
    g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, target);
    g_assert_cmpuint (sl_graph_scene_lookup_id (scene, target), !=, SL_GRAPH_SCENE_NONE);

    /* A comparison whose dump of that op failed tints it red, and the
     * collapsed scopes holding it too; clearing gives the op colour back. */
    {
      g_autoptr(GListStore) rows = g_list_store_new (SL_TYPE_TENSOR_COMPARE_ROW);
      g_auto(GStrv) parts = g_strsplit (name, "/", -1);
      g_autofree char *scope = g_strjoinv ("--", parts);
      g_autofree char *dump = g_strdup_printf ("MatMul.%s.1.0.100.output.0.DefaultFormat.npy", scope);
      SlTensorCompareRowInit init = { .name = dump, .mode = SL_TENSOR_COMPARE_MODE_DATA,
                                      .npu_bytes = -1, .bench_bytes = -1,
                                      .npu_requires_grad = -1, .bench_requires_grad = -1 };
      g_autoptr(SlTensorCompareRow) row = sl_tensor_compare_row_new (&init);
      SlGraphRenderer *renderer = sl_graph_canvas_get_renderer (canvas);
      guint box = sl_graph_scene_lookup_id (scene, target);
      double plain[3], tinted[3];
      AdwStyleManager *manager = adw_style_manager_get_default ();

      sl_graph_renderer_get_box_color (renderer, box, plain);
      sl_tensor_compare_row_fail (row, "unreadable");
      g_list_store_append (rows, row);
      g_assert_cmpuint (sl_graph_page_set_node_verdicts (page, G_LIST_MODEL (rows)), ==, 1);
      sl_graph_renderer_get_box_color (renderer, box, tinted);
      g_assert_cmpfloat (tinted[0], >, tinted[2]);
      g_assert_cmpfloat (fabs (tinted[0] - plain[0]) + fabs (tinted[2] - plain[2]), >, 0.1);
      wait_for_frames (GTK_WIDGET (window));
      save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-page-verdicts.png");
      adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
      wait_for_frames (GTK_WIDGET (window));
      save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-page-verdicts-dark.png");
      adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
      wait_for_frames (GTK_WIDGET (window));

      g_assert_cmpuint (sl_graph_page_set_node_verdicts (page, NULL), ==, 0);
      sl_graph_renderer_get_box_color (renderer, box, tinted);
      g_assert_cmpfloat (fabs (tinted[0] - plain[0]) + fabs (tinted[2] - plain[2]), <, 1e-6);

      /* The Compare document's "Colour Open Graphs" goes through the
       * workspace, which every open graph listens to. */
      g_assert_nonnull (sl_document_get_workspace (document));
      sl_workspace_publish_tensor_verdicts (sl_document_get_workspace (document), G_LIST_MODEL (rows));
      sl_graph_renderer_get_box_color (renderer, box, tinted);
      g_assert_cmpfloat (tinted[0], >, tinted[2]);
      sl_workspace_publish_tensor_verdicts (sl_document_get_workspace (document), NULL);
      sl_graph_renderer_get_box_color (renderer, box, tinted);
      g_assert_cmpfloat (fabs (tinted[0] - plain[0]) + fabs (tinted[2] - plain[2]), <, 1e-6);
    }
  }
}

static void
test_graph_page_damaged (void)
{
  g_autofree char *junk = g_build_filename (tmp_root, "junk.pb", NULL);
  g_autofree char *cut = g_build_filename (tmp_root, "cut.pb", NULL);
  g_autoptr(GBytes) bytes = graph_fixture_llm (1, NULL);
  SlDocument *document;

  /* Not protobuf at all: the page fails and says why. */
  g_assert_true (g_file_set_contents (junk, "\xff\xff\xff\xff\xff\xff\xff\xff", 8, NULL));
  document = sl_window_open_document (window, "graph", junk, NULL);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_FAILED);
  g_assert_nonnull (sl_document_get_error (document));

  /* Cut in the middle: what was read is shown, the damage is listed. */
  g_assert_true (g_file_set_contents (cut, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes) / 2, NULL));
  document = sl_window_open_document (window, "graph", cut, NULL);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (document)), >, 0);
  g_assert_cmpuint (sl_graph_get_n_ops (sl_graph_page_get_graph (SL_GRAPH_PAGE (document))), >, 0);
}

/* A run whose graph record fails its checksum: no graph is shown, and
 * the Problems panel says which file and byte lost it. */
static void
test_graph_page_damaged_run (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "damaged-run", NULL);
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProblem) problem = NULL;
  SlDocument *document;
  GListModel *problems;
  gsize length, offset = 0, largest = 0, largest_at = 0;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  path = graph_fixture_write_llm_summary (folder, 1, NULL, &error);
  g_assert_no_error (error);

  /* Each record is an 8-byte length, its checksum, the payload and its
   * checksum; the graph's is the largest. */
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  while (offset + 12 <= length)
    {
      guint64 size;

      memcpy (&size, data + offset, sizeof size);
      size = GUINT64_FROM_LE (size);
      if (size > largest)
        {
          largest = size;
          largest_at = offset;
        }
      offset += 12 + size + 4;
    }
  g_assert_cmpuint (offset, ==, length);
  data[largest_at + 12 + largest / 2] ^= 0x5a;
  g_assert_true (g_file_set_contents (path, data, length, NULL));

  document = sl_window_open_document (window, "graph", folder, NULL);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_EMPTY);
  problems = sl_document_get_problems (document);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) largest_at);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
}

/* A folder of models one of which cannot be read: the others show, and
 * the Problems panel names the one that could not be read. */
static void
test_graph_page_unreadable_model (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "models", NULL);
  g_autofree char *good = g_build_filename (folder, "good.pb", NULL);
  g_autofree char *junk = g_build_filename (folder, "junk.onnx", NULL);
  g_autoptr(GBytes) bytes = graph_fixture_llm (1, NULL);
  g_autoptr(SlProblem) problem = NULL;
  SlDocument *document;
  GListModel *problems;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (good, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  g_assert_true (g_file_set_contents (junk, "\xff\xff\xff\xff\xff\xff\xff\xff", 8, NULL));

  document = sl_window_open_document (window, "graph", folder, NULL);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  problems = sl_document_get_problems (document);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, junk);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
}

/* An ONNX model: Details of the graph itself (nothing selected) give
 * the producer and opset imports; its scoped node opens by search. */
static void
test_graph_page_onnx (void)
{
  g_autofree char *path = g_build_filename (tmp_root, "tiny.onnx", NULL);
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(GByteArray) node = g_byte_array_new ();
  g_autoptr(GByteArray) input = g_byte_array_new ();
  g_autoptr(GByteArray) opset = g_byte_array_new ();
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  SlDocument *document;
  SlGraphPage *page;
  SlGraph *onnx;
  guint relu;

  /* ModelProto { ir_version 1, producer_name 2, graph 7 { node 1 { input 1,
   * output 2, name 3, op_type 4 }, input 11, output 12 }, opset_import 8 } */
  fx_string (node, 1, "x");
  fx_string (node, 2, "y");
  fx_string (node, 3, "/block/Relu");
  fx_string (node, 4, "Relu");
  fx_message (graph, 1, node);
  fx_string (graph, 2, "tiny");
  fx_string (input, 1, "x");
  fx_message (graph, 11, input);
  g_byte_array_set_size (input, 0);
  fx_string (input, 1, "y");
  fx_message (graph, 12, input);
  fx_uint (model, 1, 8);
  fx_string (model, 2, "sightline-test");
  fx_message (model, 7, graph);
  fx_uint (opset, 2, 17);
  fx_message (model, 8, opset);
  g_assert_true (g_file_set_contents (path, (const char *) model->data, model->len, NULL));

  document = sl_window_open_document (window, "graph", path, NULL);
  g_assert_true (wait_until (document_settled, document, 20000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  page = SL_GRAPH_PAGE (document);
  onnx = sl_graph_page_get_graph (page);
  g_assert_cmpuint (sl_graph_get_n_ops (onnx), ==, 1);
  wait_for_new_scene (page, NULL);
  wait_for_frames (GTK_WIDGET (window));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Producer"), ==, "sightline-test");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Opset imports"), ==, "ai.onnx 17");

  relu = sl_graph_find_item (onnx, "block/Relu");
  g_assert_cmpuint (relu, !=, SL_GRAPH_NONE);
  sl_graph_page_reveal (page, relu);
  wait_for_new_scene (page, sl_graph_canvas_get_scene (sl_graph_page_get_canvas (page)));
  wait_for_frames (GTK_WIDGET (window));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Op type"), ==, "Relu");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Name in the file"), ==, "/block/Relu");
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-page-onnx.png");
}

static gboolean
scans_done (gpointer data)
{
  return sl_workspace_get_n_scanning (sl_window_get_workspace (data)) == 0;
}

static gboolean
timeline_landed (gpointer data)
{
  SlTimelinePage *timeline = data;

  return !sl_timeline_page_is_busy (timeline) && sl_document_get_state (SL_DOCUMENT (timeline)) == SL_DOCUMENT_READY
         && sl_timeline_view_get_selected (sl_timeline_page_get_view (timeline), NULL, NULL)
         && gtk_widget_get_width (GTK_WIDGET (sl_timeline_page_get_view (timeline))) > 0;
}

/* The timeline selected the op: its slice, framed in the window and in
 * the tracks' scrolled area. */
static void
assert_landed_on (SlTimelinePage *timeline,
                  const char     *name)
{
  SlTimelineView *view = sl_timeline_page_get_view (timeline);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  GtkAdjustment *vadj = sl_timeline_view_get_vadjustment (view);
  const SlTraceSlices *s;
  gint64 start, end;
  guint track;
  guint32 slice;
  double y;

  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  s = sl_trace_get_slices (trace, track);
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, slice)), ==, name);
  sl_timeline_view_get_window (view, &start, &end);
  g_assert_cmpint (sl_trace_slices_start_ns (s, slice), >=, start);
  g_assert_cmpint (sl_trace_slices_start_ns (s, slice) + sl_trace_slices_dur_ns (s, slice), <=, end);
  g_assert_true (sl_timeline_renderer_get_slice_y (sl_timeline_view_get_renderer (view), track, slice, &y));
  g_assert_cmpfloat (y, >=, gtk_adjustment_get_value (vadj));
  g_assert_cmpfloat (y, <=, gtk_adjustment_get_value (vadj) + gtk_adjustment_get_page_size (vadj));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (timeline), >, 1);
}

/* The demo job writes its graph and its profile with the same op ids:
 * from the graph's dense2 MatMul to its Operators row, from there to its
 * slices on the timeline, and from the graph to the timeline directly. */
static void
test_demo_links (void)
{
  const char *demo = g_getenv ("SIGHTLINE_DEMO_TRAIN");
  g_autofree char *root = g_build_filename (tmp_root, "demo", NULL);
  g_autofree char *summary = g_build_filename (root, "train", "summary", NULL);
  g_autofree char *profiler = g_build_filename (root, "train", "profiler", NULL);
  const char *argv[] = { demo, "--summary-dir", summary, "--profile", profiler, "--epochs", "1", NULL };
  const char *op = "Default/network-WithLossCell/_backbone-MLP/dense2-Dense/MatMul-op4";
  g_autoptr(GError) error = NULL;
  int status = 0;
  SlFolder *folder;
  SlFinding *run = NULL;
  SlDocument *graph_doc, *profile_doc = NULL;
  SlTimelinePage *timeline;
  SlOpStatsView *ops;
  SlOpRow *row;
  g_autofree char *timeline_id = NULL;

  g_assert_nonnull (demo);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  folder = sl_window_open_path (window, root);
  g_assert_true (wait_until (scans_done, window, 30000));
  for (guint i = 0; i < g_list_model_get_n_items (sl_folder_get_findings (folder)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_folder_get_findings (folder), i);

      if (sl_finding_get_kind (finding) == SL_FINDING_SUMMARY_RUN)
        run = finding;
    }
  g_assert_nonnull (run);
  graph_doc = sl_window_open_document (window, "graph", sl_finding_get_path (run), G_OBJECT (run));
  g_assert_true (wait_until (document_settled, graph_doc, 30000));
  g_assert_cmpint (sl_document_get_state (graph_doc), ==, SL_DOCUMENT_READY);

  /* The graph's op, selected, then "Show in Profile" */
  g_assert_cmpuint (sl_graph_lookup_op (sl_graph_page_get_graph (SL_GRAPH_PAGE (graph_doc)), op), !=, SL_GRAPH_NONE);
  sl_document_request (graph_doc, g_variant_new ("(s)", op));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph_doc), "graph-page.show-in-profile", NULL));
  for (guint i = 0; i < g_list_model_get_n_items (sl_folder_get_findings (folder)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_folder_get_findings (folder), i);
      g_autofree char *id = g_strdup_printf ("profile:%s", sl_finding_get_path (finding));

      if (profile_doc == NULL && SL_IS_DOCUMENT (sl_window_find_document (window, id)))
        {
          profile_doc = SL_DOCUMENT (sl_window_find_document (window, id));
          timeline_id = g_strdup_printf ("timeline:%s", sl_finding_get_path (finding));
        }
    }
  g_assert_true (SL_IS_PROFILE_PAGE (profile_doc));
  g_assert_true (wait_until (document_settled, profile_doc, 30000));
  g_assert_cmpstr (sl_profile_page_get_view (SL_PROFILE_PAGE (profile_doc)), ==, "ops");
  ops = sl_profile_page_get_ops_view (SL_PROFILE_PAGE (profile_doc));
  row = sl_op_stats_view_get_selected (ops);
  g_assert_nonnull (row);
  g_assert_cmpstr (sl_op_row_get_name (row), ==, op);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "demo-graph-to-profile.png");

  /* The row, activated: its slices on the timeline, the first framed */
  g_signal_emit_by_name (ops, "op-activated", sl_op_row_get_name (row), sl_op_row_get_op_type (row));
  timeline = SL_TIMELINE_PAGE (sl_window_find_document (window, timeline_id));
  g_assert_true (SL_IS_TIMELINE_PAGE (timeline));
  g_assert_true (wait_until (timeline_landed, timeline, 30000));
  assert_landed_on (timeline, "MatMul-op4");
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "demo-profile-to-timeline.png");

  /* A type's row names every op of the type: the demo's 8 MatMuls (3
   * forward, 3 weight and 2 input gradients) in each of its 32 steps */
  sl_op_stats_view_set_by_instance (ops, FALSE);
  g_signal_emit_by_name (ops, "op-activated", NULL, "MatMul");
  g_assert_true (wait_until (timeline_landed, timeline, 30000));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (timeline), ==, 8 * 32);
  {
    SlTimelineView *view = sl_timeline_page_get_view (timeline);
    guint track;
    guint32 slice;

    g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
    g_assert_true (g_str_has_prefix (sl_trace_get_string (sl_timeline_view_get_trace (view),
                                                          sl_trace_slices_name_id (sl_trace_get_slices (sl_timeline_view_get_trace (view), track), slice)),
                                     "MatMul-op"));
  }

  /* The graph's "Show on Timeline" lands on the same op */
  sl_timeline_view_select (sl_timeline_page_get_view (timeline), G_MAXUINT, 0);
  sl_timeline_view_fit (sl_timeline_page_get_view (timeline));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph_doc), "graph-page.show-on-timeline", NULL));
  g_assert_true (wait_until (timeline_landed, timeline, 30000));
  assert_landed_on (timeline, "MatMul-op4");
}

/* What the page's "Copy Name" put on the clipboard. */
static char *
dup_clipboard_text (SlGraphPage *page)
{
  GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (page)));
  g_auto(GValue) value = G_VALUE_INIT;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  return g_value_dup_string (&value);
}

static char *
copy_name (SlGraphPage *page)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (page)), "");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "graph-page.copy-name", NULL));
  return dup_clipboard_text (page);
}

static char *
dup_op_name (SlGraphPage *page,
             guint        item)
{
  SlGraph *graph = sl_graph_page_get_graph (page);

  return sl_graph_element_dup_name (graph, sl_graph_item_get_element (graph, item));
}

/* The @n-th op item of @page's graph. */
static guint
nth_op_item (SlGraphPage *page,
             guint        n)
{
  SlGraph *graph = sl_graph_page_get_graph (page);

  for (guint item = 0; item < sl_graph_get_n_items (graph); item++)
    if (sl_graph_item_get_kind (graph, item) == SL_GRAPH_ITEM_OP && n-- == 0)
      return item;
  g_assert_not_reached ();
}

static GtkPopover *
node_menu_of (SlGraphPage *page)
{
  GtkWidget *canvas = GTK_WIDGET (sl_graph_page_get_canvas (page));

  for (GtkWidget *child = gtk_widget_get_first_child (canvas); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return GTK_POPOVER (child);
  g_assert_not_reached ();
}

/* Two graphs open at once, the node menu used in each: each page's menu
 * acts on the node it was opened on, and a page whose menu is closed acts
 * on its own selection, whatever the other page's menu holds. */
static void
test_graph_page_two_menus (void)
{
  g_autofree char *path_a = write_llm ("menu-a.pb");
  g_autofree char *path_b = write_llm ("menu-b.pb");
  SlDocument *doc_a = sl_window_open_document (window, "graph", path_a, NULL);
  SlDocument *doc_b = sl_window_open_document (window, "graph", path_b, NULL);
  SlGraphPage *a, *b;
  guint in_a, selected_b, in_b;
  g_autofree char *name_a = NULL;
  g_autofree char *name_selected_b = NULL;
  g_autofree char *name_b = NULL;
  char *copied;

  g_assert_true (doc_a != doc_b);
  g_assert_true (wait_until (document_settled, doc_a, 20000));
  g_assert_true (wait_until (document_settled, doc_b, 20000));
  g_assert_cmpint (sl_document_get_state (doc_a), ==, SL_DOCUMENT_READY);
  g_assert_cmpint (sl_document_get_state (doc_b), ==, SL_DOCUMENT_READY);
  a = SL_GRAPH_PAGE (doc_a);
  b = SL_GRAPH_PAGE (doc_b);
  in_a = nth_op_item (a, 3);
  selected_b = nth_op_item (b, 7);
  in_b = nth_op_item (b, 11);
  name_a = dup_op_name (a, in_a);
  name_selected_b = dup_op_name (b, selected_b);
  name_b = dup_op_name (b, in_b);
  g_assert_cmpstr (name_a, !=, name_selected_b);
  g_assert_cmpstr (name_a, !=, name_b);
  g_assert_cmpstr (name_selected_b, !=, name_b);

  sl_graph_page_reveal (b, selected_b);
  wait_for_new_scene (b, NULL);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (sl_graph_page_get_canvas (b)), ==, selected_b);

  /* The menu, opened in A on an op: A's Copy Name copies that op; B,
   * whose menu is closed, copies its selection. */
  g_signal_emit_by_name (sl_graph_page_get_canvas (a), "context-menu", in_a, 10.0, 10.0);
  copied = copy_name (a);
  g_assert_cmpstr (copied, ==, name_a);
  g_free (copied);
  copied = copy_name (b);
  g_assert_cmpstr (copied, ==, name_selected_b);
  g_free (copied);

  /* The menu, opened in B too, on another op: each page keeps its own. */
  g_signal_emit_by_name (sl_graph_page_get_canvas (b), "context-menu", in_b, 10.0, 10.0);
  wait_for_frames (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (node_menu_of (b))));
  copied = copy_name (b);
  g_assert_cmpstr (copied, ==, name_b);
  g_free (copied);
  copied = copy_name (a);
  g_assert_cmpstr (copied, ==, name_a);
  g_free (copied);

  /* A's menu closes: B's still acts on its node. */
  gtk_popover_popdown (node_menu_of (a));
  wait_for_frames (GTK_WIDGET (window));
  copied = copy_name (b);
  g_assert_cmpstr (copied, ==, name_b);
  g_free (copied);
  gtk_popover_popdown (node_menu_of (b));
  wait_for_frames (GTK_WIDGET (window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-graph-page-XXXXXX");

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/graph-page/expand-search-link", test_graph_page);
  g_test_add_func ("/graph-page/damaged", test_graph_page_damaged);
  g_test_add_func ("/graph-page/damaged-run", test_graph_page_damaged_run);
  g_test_add_func ("/graph-page/unreadable-model", test_graph_page_unreadable_model);
  g_test_add_func ("/graph-page/onnx", test_graph_page_onnx);
  g_test_add_func ("/graph-page/demo-links", test_demo_links);
  g_test_add_func ("/graph-page/two-menus", test_graph_page_two_menus);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
