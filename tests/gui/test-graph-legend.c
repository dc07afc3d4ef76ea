/* test-graph-legend.c: the legend of a graph tinted by a tensor
 * comparison: shown with the count of ops per verdict and the swatches in
 * the colours the ops are drawn in, hidden by its close button with the
 * tint kept, back with the next verdicts, and gone with the tint by its
 * clear button or when the comparison is withdrawn; light and dark
 * screenshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gui-test-util.h"

#include "sl-application.h"
#include "sl-graph-page.h"
#include "sl-tensor-compare-row.h"
#include "sl-window.h"
#include "../graph-fixture.h"

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

static gboolean
scene_shows (gpointer data)
{
  SlGraphPage *page = data;
  SlGraphScene *scene = sl_graph_canvas_get_scene (sl_graph_page_get_canvas (page));
  guint32 selected = sl_graph_canvas_get_selected_id (sl_graph_page_get_canvas (page));

  return scene != NULL && !panel_widget_get_busy (PANEL_WIDGET (page)) &&
         sl_graph_scene_lookup_id (scene, selected) != SL_GRAPH_SCENE_NONE;
}

/* The wq MatMul of decoder layer @layer, by its full name. */
static guint
find_matmul (SlGraph    *graph,
             guint       layer,
             char      **name)
{
  g_autofree char *needle = g_strdup_printf ("/%u-LLamaDecodeLayer/attention-LLamaAttention/wq-Linear/MatMul-op", layer);

  for (guint e = 0; e < sl_graph_get_n_ops (graph); e++)
    {
      g_autofree char *full = sl_graph_element_dup_name (graph, e);

      if (strstr (full, needle) != NULL && g_str_has_prefix (full, "Default/"))
        {
          *name = g_steal_pointer (&full);
          return e;
        }
    }
  g_assert_not_reached ();
  return 0;
}

/* A row as a MindSpore dump names the op's output, with @verdict. */
static SlTensorCompareRow *
row_for (const char      *op_name,
         SlTensorVerdict  verdict)
{
  g_auto(GStrv) parts = g_strsplit (op_name, "/", -1);
  g_autofree char *scope = g_strjoinv ("--", parts);
  g_autofree char *dump = g_strdup_printf ("MatMul.%s.1.0.100.output.0.DefaultFormat.npy", scope);
  SlTensorCompareRowInit init = { .name = dump, .mode = SL_TENSOR_COMPARE_MODE_DATA,
                                  .npu_bytes = -1, .bench_bytes = -1,
                                  .npu_requires_grad = -1, .bench_requires_grad = -1 };
  SlTensorCompareRow *row = sl_tensor_compare_row_new (&init);

  if (verdict == SL_TENSOR_VERDICT_ERROR)
    sl_tensor_compare_row_fail (row, "unreadable");
  else if (verdict == SL_TENSOR_VERDICT_WARNING)
    sl_tensor_compare_row_raise_verdict (row, SL_TENSOR_VERDICT_WARNING, "worth a look");
  return row;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *tooltip)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, tooltip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
assert_same_rgb (const double a[3],
                 const double b[3])
{
  for (guint i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (a[i], b[i], 1e-9);
}

static gboolean
legend_visible (SlGraphVerdictLegend *legend)
{
  return gtk_widget_get_visible (GTK_WIDGET (legend)) && gtk_widget_get_mapped (GTK_WIDGET (legend));
}

static void
test_graph_legend (void)
{
  g_autoptr(GBytes) bytes = graph_fixture_llm (3, NULL);
  g_autofree char *path = g_build_filename (tmp_root, "llm.pb", NULL);
  g_autoptr(GListStore) rows = g_list_store_new (SL_TYPE_TENSOR_COMPARE_ROW);
  g_autofree char *pass_name = NULL, *warning_name = NULL, *error_name = NULL;
  AdwStyleManager *manager = adw_style_manager_get_default ();
  SlGraphVerdictLegend *legend;
  SlGraphRenderer *renderer;
  SlDocument *document;
  SlGraphPage *page;
  SlGraph *graph;
  guint error_item, box, n_ops;
  double plain[3], tinted[3], fill[3], stroke[3];

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  document = sl_window_open_document (window, "graph", path, NULL);
  page = SL_GRAPH_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 20000));
  graph = sl_graph_page_get_graph (page);
  n_ops = sl_graph_get_n_ops (graph);
  renderer = sl_graph_canvas_get_renderer (sl_graph_page_get_canvas (page));
  legend = sl_graph_page_get_verdict_legend (page);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (legend)));

  find_matmul (graph, 0, &pass_name);
  find_matmul (graph, 1, &warning_name);
  error_item = sl_graph_element_get_item (graph, find_matmul (graph, 2, &error_name));
  sl_document_request (document, g_variant_new ("(s)", error_name));
  g_assert_true (wait_until (scene_shows, page, 20000));
  box = sl_graph_scene_lookup_id (sl_graph_canvas_get_scene (sl_graph_page_get_canvas (page)), error_item);
  sl_graph_renderer_get_box_color (renderer, box, plain);

  {
    const char *names[] = { pass_name, warning_name, error_name };

    for (SlTensorVerdict v = SL_TENSOR_VERDICT_PASS; v <= SL_TENSOR_VERDICT_ERROR; v++)
      {
        g_autoptr(SlTensorCompareRow) row = row_for (names[v], v);

        g_list_store_append (rows, row);
      }
  }
  g_assert_cmpuint (sl_graph_page_set_node_verdicts (page, G_LIST_MODEL (rows)), ==, 3);
  wait_for_frames (GTK_WIDGET (window));

  /* One op of each verdict; every other op was not compared. */
  g_assert_true (legend_visible (legend));
  g_assert_cmpuint (sl_graph_verdict_legend_get_count (legend, SL_GRAPH_LEGEND_PASS), ==, 1);
  g_assert_cmpuint (sl_graph_verdict_legend_get_count (legend, SL_GRAPH_LEGEND_WARNING), ==, 1);
  g_assert_cmpuint (sl_graph_verdict_legend_get_count (legend, SL_GRAPH_LEGEND_ERROR), ==, 1);
  g_assert_cmpuint (sl_graph_verdict_legend_get_count (legend, SL_GRAPH_LEGEND_NOT_COMPARED), ==, n_ops - 3);

  /* The swatches are the colours the ops are drawn in, in both styles. */
  sl_graph_renderer_get_box_color (renderer, box, tinted);
  sl_graph_renderer_get_verdict_colors (FALSE, SL_TENSOR_VERDICT_ERROR, fill, stroke);
  assert_same_rgb (tinted, fill);
  sl_graph_renderer_get_verdict_colors (FALSE, -1, fill, stroke);
  assert_same_rgb (plain, fill);
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-legend.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  wait_for_frames (GTK_WIDGET (window));
  sl_graph_renderer_get_box_color (renderer, box, tinted);
  sl_graph_renderer_get_verdict_colors (TRUE, SL_TENSOR_VERDICT_ERROR, fill, stroke);
  assert_same_rgb (tinted, fill);
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "graph-legend-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  wait_for_frames (GTK_WIDGET (window));

  /* Its close button hides only the legend. */
  g_signal_emit_by_name (find_button (GTK_WIDGET (legend), "Hide the Legend"), "clicked");
  wait_for_frames (GTK_WIDGET (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (legend)));
  sl_graph_renderer_get_box_color (renderer, box, tinted);
  g_assert_cmpfloat (fabs (tinted[0] - plain[0]) + fabs (tinted[2] - plain[2]), >, 0.1);

  /* The next comparison brings it back, through the workspace too. */
  sl_workspace_publish_tensor_verdicts (sl_document_get_workspace (document), G_LIST_MODEL (rows));
  wait_for_frames (GTK_WIDGET (window));
  g_assert_true (legend_visible (legend));

  /* Its clear button takes the tint away with it. */
  g_signal_emit_by_name (find_button (GTK_WIDGET (legend), "Clear the Verdict Colours"), "clicked");
  wait_for_frames (GTK_WIDGET (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (legend)));
  sl_graph_renderer_get_box_color (renderer, box, tinted);
  assert_same_rgb (tinted, plain);

  /* A comparison withdrawn clears both as well. */
  g_assert_cmpuint (sl_graph_page_set_node_verdicts (page, G_LIST_MODEL (rows)), ==, 3);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (legend)));
  sl_workspace_publish_tensor_verdicts (sl_document_get_workspace (document), NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (legend)));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-graph-legend-XXXXXX");

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/graph-legend/counts-dismiss-clear", test_graph_legend);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
