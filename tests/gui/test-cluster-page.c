/* test-cluster-page.c: the Cluster document on a generated 8-rank cluster
 *
 * torch_npu rank folders side by side, rank 5 computing longer, the link
 * 2-3 at a quarter of the others' bandwidth, rank 6 the last to join the
 * all-reduce: the detector names the folder a cluster, the document opens
 * for it, shows the slow rank in its banner and bars, the slow link named
 * and outlined with its values on hover, the straggler outlined; a rank
 * opens its Profile; two ranks' timelines show together. Screenshots in
 * light and dark style.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"
#include "sl-data-table.h"
#include "sl-cluster-bars.h"
#include "sl-cluster-page.h"
#include "sl-comm-matrix-view.h"
#include "sl-compare-timelines.h"
#include "sl-detector.h"
#include "sl-document-registry.h"

#define N_RANKS 8

static const char step_header[] =
  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n";

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
write_rank (const char *root,
            guint       rank)
{
  g_autofree char *unit = g_strdup_printf ("%s/worker%u_ascend_pt", root, rank);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *info_name = g_strdup_printf ("profiler_info_%u.json", rank);
  g_autofree char *info = g_strdup_printf ("{\"rank_id\": %u}", rank);
  g_autoptr(GString) steps = g_string_new (step_header);
  g_autoptr(GString) trace = g_string_new ("[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}},\n"
                                           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"Ascend Hardware\"}}");
  g_autofree char *ops = NULL;
  g_autofree char *matrix = NULL;
  double computing = rank == 5 ? 1300 : 1000 + rank * 5;
  double link_ms = rank == 2 ? 2.0 : 0.5;

  for (guint s = 1; s <= 3; s++)
    {
      g_string_append_printf (steps, "%u,%g,%u,40,%u,%u,0,0\n", s, computing, 300 + rank * 3, 340 + rank * 3, 200 + rank);
      /* Rank r starts r × 100 µs late: the view aligns the steps. */
      g_string_append_printf (trace, ",\n{\"ph\":\"X\",\"name\":\"ProfilerStep#%u\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":1900}",
                              s, s * 2000 + rank * 100);
      g_string_append_printf (trace, ",\n{\"ph\":\"X\",\"name\":\"MatMul%u\",\"pid\":2,\"tid\":7,\"ts\":%u,\"dur\":%g}", s,
                              s * 2000 + rank * 100 + 50, computing);
    }
  /* Rank 5's trace was cut off in the middle of an event (an array of
   * events may end without its bracket, so the cut is inside one): the
   * events before are whole, and the reader says where the file ends. */
  if (rank != 5)
    g_string_append (trace, "]\n");
  else
    g_string_append (trace, ",\n{\"ph\":\"X\",\"name\":\"Mat");
  ops = g_strdup_printf ("{\"step1\": {\"p2p\": {}, \"collective\": {\"hcom_allReduce__1_0_1@5\": {\"Communication Time Info\": "
                         "{\"Elapse Time(ms)\": %g, \"Transit Time(ms)\": 0.4, \"Wait Time(ms)\": %g, "
                         "\"Synchronization Time(ms)\": 0.1, \"Idle Time(ms)\": 0}, \"Communication Bandwidth Info\": {}}}}}",
                         rank == 6 ? 0.5 : 1.5 + rank * 0.1, rank == 6 ? 0.05 : 1.0 + rank * 0.1);
  matrix = g_strdup_printf ("{\"step1\": {\"p2p\": {}, \"collective\": {\"allreduce-top1@5\": {"
                            "\"%u-%u\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 10, \"Transit Time(ms)\": %g, "
                            "\"Bandwidth(GB/s)\": %g}}}}}",
                            rank, (rank + 1) % N_RANKS, link_ms, 10 / link_ms);
  write_file (unit, info_name, info);
  write_file (output, "step_trace_time.csv", steps->str);
  write_file (output, "trace_view.json", trace->str);
  write_file (output, "communication.json", ops);
  write_file (output, "communication_matrix.json", matrix);
}

/* The problems in @page's list about @path. */
static guint
count_problems (SlClusterPage *page,
                const char    *path,
                SlProblem    **last)
{
  GListModel *problems = sl_document_get_problems (SL_DOCUMENT (page));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) != 0)
        continue;
      n++;
      if (last != NULL)
        g_set_object (last, problem);
    }
  return n;
}

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
}

static gboolean
widget_visible (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static gboolean
timelines_ready (gpointer data)
{
  for (guint side = 0; side < 2; side++)
    if (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (data, side)) != SL_TIMELINE_PANE_READY)
      return FALSE;
  return sl_compare_timelines_get_note (data) != NULL;
}

static gboolean
document_open (gpointer data)
{
  gpointer *args = data;

  return sl_window_find_document (args[0], args[1]) != NULL;
}

static void
screenshots (GtkWidget  *window,
             const char *name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light = g_strdup_printf ("%s-light.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);
  g_autoptr(Capture) light_capture = NULL;
  g_autoptr(Capture) dark_capture = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  wait_for_frames (window);
  light_capture = capture_window (window, SCREENSHOT_DIR, light);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  wait_for_frames (window);
  dark_capture = capture_window (window, SCREENSHOT_DIR, dark);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  g_assert_cmpfloat (capture_luma (dark_capture, 5, dark_capture->height - 5), <,
                     capture_luma (light_capture, 5, light_capture->height - 5));
}

static GtkScrolledWindow *
page_window (GtkWidget *child)
{
  GtkWidget *window = gtk_widget_get_ancestor (child, GTK_TYPE_SCROLLED_WINDOW);

  /* The outermost scrolled window is the page's own. */
  while (window != NULL && gtk_widget_get_ancestor (gtk_widget_get_parent (window), GTK_TYPE_SCROLLED_WINDOW) != NULL)
    window = gtk_widget_get_ancestor (gtk_widget_get_parent (window), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (window);
  return GTK_SCROLLED_WINDOW (window);
}

static void
scroll_to_end (GtkWidget *child)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (page_window (child));

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

static void
scroll_to (GtkWidget *page,
           GtkWidget *child)
{
  GtkWidget *window = gtk_widget_get_ancestor (child, GTK_TYPE_SCROLLED_WINDOW);
  graphene_point_t point;

  /* The outermost scrolled window is the page's own. */
  while (window != NULL && gtk_widget_get_ancestor (gtk_widget_get_parent (window), GTK_TYPE_SCROLLED_WINDOW) != NULL)
    window = gtk_widget_get_ancestor (gtk_widget_get_parent (window), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (window);
  g_assert_true (gtk_widget_compute_point (child, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (window)),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (window)), point.y - 40);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = make_test_home ("sightline-cluster-page-XXXXXX");
  g_autofree char *cluster = g_build_filename (root, "job", NULL);
  g_autoptr(SlApplication) app = NULL;
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *profile_id = NULL;
  g_autofree char *trace5 = NULL;
  const SlDocumentKind *kind;
  SlClusterSummary *summary;
  SlClusterPage *page;
  SlCompareTimelines *timelines;
  GtkSelectionModel *selection;
  gint64 anchors[2];
  SlWindow *window;
  SlFinding *finding;
  double x, y;
  gpointer args[2];

  if (skip_without_display ())
    return 77;
  gtk_init ();

  for (guint r = 0; r < N_RANKS; r++)
    write_rank (cluster, r);

  /* The detector names the folder a cluster; the registry opens it here. */
  detector = sl_detector_new (cluster);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  finding = sl_detection_lookup_finding (detection, SL_FINDING_CLUSTER, ".");
  g_assert_nonnull (finding);

  window = start_application (&app);
  kind = sl_document_registry_lookup_finding (SL_FINDING_CLUSTER);
  g_assert_nonnull (kind);
  g_assert_cmpstr (kind->id, ==, "cluster");
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  page = SL_CLUSTER_PAGE (sl_window_open_document (window, "cluster", cluster, G_OBJECT (finding)));
  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 60000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (page)), ==, "Cluster: job");

  /* Rank 5's cut trace is not read before its timeline is shown. */
  trace5 = g_build_filename (cluster, "worker5_ascend_pt", "ASCEND_PROFILER_OUTPUT", "trace_view.json", NULL);
  g_assert_cmpuint (count_problems (page, trace5, NULL), ==, 0);

  summary = sl_cluster_page_get_summary (page);
  g_assert_nonnull (summary);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (summary->cluster), ==, N_RANKS);
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpuint (summary->slow_rank.slow_index, ==, 5);
  g_assert_true (gtk_widget_has_css_class (sl_cluster_page_get_banner (page), "warning"));

  /* One bar per rank; the slow rank's tells its parts. */
  g_assert_cmpuint (sl_cluster_bars_get_n_bars (SL_CLUSTER_BARS (sl_cluster_page_get_bars (page))), ==, N_RANKS);
  tooltip = sl_cluster_bars_describe_bar (SL_CLUSTER_BARS (sl_cluster_page_get_bars (page)), 5);
  g_assert_nonnull (strstr (tooltip, "rank 5"));
  g_assert_nonnull (strstr (tooltip, "1.3 ms"));
  g_assert_nonnull (strstr (tooltip, "communication not overlapped"));
  g_clear_pointer (&tooltip, g_free);

  /* The slow link named, and its cell's values on hover. */
  g_assert_true (summary->slow_link.found);
  g_assert_cmpstr (summary->slow_link.link->first->key, ==, "2-3");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (sl_cluster_page_get_link_label (page))), "2-3"));
  tooltip = sl_comm_matrix_view_describe_cell (SL_COMM_MATRIX_VIEW (sl_cluster_page_get_matrix (page)), 2, 3);
  g_assert_nonnull (strstr (tooltip, "2 → 3"));
  g_assert_nonnull (strstr (tooltip, "Bandwidth: 5 GB/s"));
  g_clear_pointer (&tooltip, g_free);
  g_assert_null (sl_comm_matrix_view_describe_cell (SL_COMM_MATRIX_VIEW (sl_cluster_page_get_matrix (page)), 3, 2));

  /* The all-reduce's straggler: rank 6, the shortest. */
  tooltip = sl_cluster_bars_describe_bar (SL_CLUSTER_BARS (sl_cluster_page_get_collective_bars (page)), 6);
  g_assert_nonnull (strstr (tooltip, "rank 6"));
  g_assert_nonnull (strstr (tooltip, "0.5 ms"));
  g_clear_pointer (&tooltip, g_free);
  g_assert_cmpuint (sl_cluster_summary_count_straggling (summary, 6), ==, 1);

  wait_for_frames (GTK_WIDGET (window));
  screenshots (GTK_WIDGET (window), "cluster-page");
  scroll_to (GTK_WIDGET (page), sl_cluster_page_get_matrix (page));
  screenshots (GTK_WIDGET (window), "cluster-page-matrix");

  /* Two ranks' timelines together: selecting two rows of the table picks
   * them for the comparison. */
  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (sl_cluster_page_get_rank_table (page)));
  gtk_selection_model_select_item (selection, 0, TRUE);
  gtk_selection_model_select_item (selection, 5, FALSE);
  /* The two rows copied, one a line, rank first. */
  {
    SlDataTable *table = SL_DATA_TABLE (gtk_widget_get_ancestor (sl_cluster_page_get_rank_table (page),
                                                                 SL_TYPE_DATA_TABLE));
    g_autofree char *first = sl_data_table_dup_row_text (table, 0);
    g_autofree char *ranks = sl_data_table_dup_column_text (table, "rank");

    g_assert_true (g_str_has_prefix (first, "0\t"));
    g_assert_true (g_str_has_prefix (ranks, "Rank\n0\n1\n"));
    g_assert_cmpuint (sl_data_table_get_selected_position (table), ==, 0);
  }
  sl_cluster_page_compare_selected (page);
  timelines = SL_COMPARE_TIMELINES (sl_cluster_page_get_timelines (page));
  g_assert_true (wait_until (widget_visible, timelines, 30000));
  g_assert_nonnull (sl_compare_timelines_get_link (timelines));
  /* Laid out first, so its place is known. */
  wait_for_frames (GTK_WIDGET (window));
  scroll_to_end (GTK_WIDGET (timelines));
  g_assert_true (wait_until (timelines_ready, timelines, 30000));

  /* Each side named after its rank, not "Baseline" and "Comparison". */
  g_assert_cmpstr (sl_compare_timelines_get_label (timelines, 0), ==, "Rank 0");
  g_assert_cmpstr (sl_compare_timelines_get_label (timelines, 1), ==, "Rank 5");
  g_assert_cmpstr (sl_timeline_pane_get_heading (sl_compare_timelines_get_pane (timelines, 0)), ==, "Rank 0");
  g_assert_cmpstr (sl_timeline_pane_get_heading (sl_compare_timelines_get_pane (timelines, 1)), ==, "Rank 5");

  /* Its cut end is in the Problems panel, once, with the file and byte. */
  {
    g_autoptr(SlProblem) problem = NULL;
    g_autofree char *text = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (trace5, &text, &length, NULL));
    g_assert_cmpuint (count_problems (page, trace5, &problem), ==, 1);
    g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) length);
    g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
    g_assert_nonnull (strstr (sl_problem_get_message (problem), "ends before"));
  }

  /* Aligned on step 1's start: rank 5 starts 500 µs after rank 0, and
   * the note says by how much. */
  sl_compare_timelines_get_anchors (timelines, &anchors[0], &anchors[1]);
  g_assert_cmpint (anchors[0], ==, 2000 * 1000);
  g_assert_cmpint (anchors[1], ==, 2500 * 1000);
  g_assert_cmpint (sl_timeline_link_get_offset (sl_compare_timelines_get_link (timelines)), ==, 500 * 1000);
  g_assert_nonnull (sl_compare_timelines_get_note (timelines));
  g_assert_nonnull (strstr (sl_compare_timelines_get_note (timelines), "Offset +500 µs (Rank 5's clock minus Rank 0's)"));
  wait_for_frames (GTK_WIDGET (window));
  screenshots (GTK_WIDGET (window), "cluster-page-timelines");

  /* Clicking the slow rank's bar opens its profile. */
  g_assert_true (sl_cluster_bars_get_bar_center (SL_CLUSTER_BARS (sl_cluster_page_get_bars (page)), 5, &x, &y));
  sl_cluster_page_open_rank (page, 5);
  profile_id = g_strdup_printf ("profile:%s/worker5_ascend_pt", cluster);
  args[0] = window;
  args[1] = profile_id;
  g_assert_true (wait_until (document_open, args, 30000));

  /* MindSpore's step traces split a step into forward and backward, tail
   * and data wait: the bars' parts are named so, not as an overlap
   * analysis' computing, communication and free time. */
  {
    const char *datasets = g_getenv ("SL_DATASETS_DIR");
    g_autofree char *profiler = datasets ? g_build_filename (datasets, "mindspore-ai__mindinsight", "tests", "utils",
                                                             "resource", "profiler", NULL) : NULL;

    if (profiler != NULL && g_file_test (profiler, G_FILE_TEST_IS_DIR))
      {
        SlClusterPage *mindspore = SL_CLUSTER_PAGE (sl_window_open_document (window, "cluster", profiler, NULL));
        g_autofree char *parts = NULL;

        g_assert_nonnull (mindspore);
        g_assert_true (wait_until (page_settled, mindspore, 60000));
        g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (mindspore)), ==, SL_DOCUMENT_READY);
        parts = sl_cluster_bars_describe_bar (SL_CLUSTER_BARS (sl_cluster_page_get_bars (mindspore)), 0);
        g_assert_nonnull (parts);
        g_assert_nonnull (strstr (parts, "forward and backward"));
        g_assert_nonnull (strstr (parts, "data wait"));
        g_assert_null (strstr (parts, "communication not overlapped"));
        /* The rank table's columns of the same parts too. */
        {
          SlDataTable *table = SL_DATA_TABLE (gtk_widget_get_ancestor (sl_cluster_page_get_rank_table (mindspore),
                                                                       SL_TYPE_DATA_TABLE));

          g_assert_cmpstr (sl_data_table_get_column_title (table, 3), ==, "Forward and backward (ms)");
          g_assert_cmpstr (sl_data_table_get_column_title (table, 4), ==, "Tail (ms)");
          g_assert_cmpstr (sl_data_table_get_column_title (table, 5), ==, "Data wait (ms)");
        }
      }
  }

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
