/* test-cluster-many.c: the Cluster document with 64 and 512 ranks
 *
 * Generated torch_npu ranks (info, step trace, a ring of links), rank 37
 * computing longer and the link 11-12 at a quarter of the bandwidth: the
 * document opens, names both, draws one bar per rank with every label
 * it shows whole inside the chart (the last one was cut in half), says each rank's parts on hover, and
 * lays out the matrix with a cell per pair. Screenshots of the top and
 * of the matrix in light and dark style.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"
#include "sl-cluster-bars.h"
#include "sl-cluster-page.h"
#include "sl-comm-matrix-view.h"

#define SLOW_RANK 37

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
            guint       rank,
            guint       n_ranks)
{
  g_autofree char *unit = g_strdup_printf ("%s/node%u_worker%u_ascend_pt", root, rank / 8, rank);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *info_name = g_strdup_printf ("profiler_info_%u.json", rank);
  g_autofree char *info = g_strdup_printf ("{\"rank_id\": %u}", rank);
  double computing = rank == SLOW_RANK ? 1300 : 1000 + rank % 7;
  double link_ms = rank == 11 ? 2.0 : 0.5;
  g_autofree char *steps = g_strdup_printf ("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
                                            "Stage,Bubble\n1,%g,300,40,340,200,0,0\n2,%g,302,40,342,201,0,0\n",
                                            computing, computing);
  g_autofree char *matrix = g_strdup_printf ("{\"step1\": {\"p2p\": {}, \"collective\": {\"allreduce-top1@5\": {"
                                             "\"%u-%u\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 10, "
                                             "\"Transit Time(ms)\": %g, \"Bandwidth(GB/s)\": %g}}}}}",
                                             rank, (rank + 1) % n_ranks, link_ms, 10 / link_ms);

  write_file (unit, info_name, info);
  write_file (output, "step_trace_time.csv", steps);
  write_file (output, "communication_matrix.json", matrix);
}

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
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

static void
scroll_to (GtkWidget *child)
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

static void
check_cluster (SlWindow   *window,
               const char *root,
               guint       n_ranks)
{
  g_autofree char *dir = g_strdup_printf ("%s/cluster%u", root, n_ranks);
  g_autofree char *name = g_strdup_printf ("cluster-%u-ranks", n_ranks);
  g_autofree char *matrix_name = g_strdup_printf ("cluster-%u-ranks-matrix", n_ranks);
  g_autofree char *tooltip = NULL;
  g_autofree char *last = g_strdup_printf ("rank %u", n_ranks - 1);
  SlClusterSummary *summary;
  SlClusterPage *page;
  SlClusterBars *bars;
  double x, y, previous_end = -1;
  guint n_labels = 0;

  for (guint r = 0; r < n_ranks; r++)
    write_rank (dir, r, n_ranks);
  page = SL_CLUSTER_PAGE (sl_window_open_document (window, "cluster", dir, NULL));
  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 120000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);

  summary = sl_cluster_page_get_summary (page);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (summary->cluster), ==, n_ranks);
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpuint (summary->slow_rank.slow_index, ==, SLOW_RANK);
  g_assert_true (summary->slow_link.found);
  g_assert_cmpstr (summary->slow_link.link->first->key, ==, "11-12");

  /* One bar per rank, each inside the chart, the last one's too. */
  bars = SL_CLUSTER_BARS (sl_cluster_page_get_bars (page));
  wait_for_frames (GTK_WIDGET (window));
  g_assert_cmpuint (sl_cluster_bars_get_n_bars (bars), ==, n_ranks);
  g_assert_true (sl_cluster_bars_get_bar_center (bars, n_ranks - 1, &x, &y));
  g_assert_cmpfloat (x, <, gtk_widget_get_width (GTK_WIDGET (bars)));
  g_assert_true (sl_cluster_bars_get_bar_center (bars, 0, &x, &y));
  g_assert_cmpfloat (x, >, 0);
  /* The labels drawn are whole, the first and the last one too, and
   * none overlaps the one before. */
  for (guint b = 0; b < n_ranks; b++)
    {
      double x0, x1;

      if (!sl_cluster_bars_get_label_extent (bars, b, &x0, &x1))
        continue;
      n_labels++;
      g_assert_cmpfloat (x0, >=, 0);
      g_assert_cmpfloat (x1, <=, gtk_widget_get_width (GTK_WIDGET (bars)));
      g_assert_cmpfloat (x0, >, previous_end);
      previous_end = x1;
    }
  g_assert_cmpuint (n_labels, >=, 8);
  tooltip = sl_cluster_bars_describe_bar (bars, n_ranks - 1);
  g_assert_nonnull (strstr (tooltip, last));
  g_clear_pointer (&tooltip, g_free);
  tooltip = sl_comm_matrix_view_describe_cell (SL_COMM_MATRIX_VIEW (sl_cluster_page_get_matrix (page)), 11, 12);
  g_assert_nonnull (strstr (tooltip, "11 → 12"));

  screenshots (GTK_WIDGET (window), name);
  scroll_to (sl_cluster_page_get_matrix (page));
  screenshots (GTK_WIDGET (window), matrix_name);
  panel_widget_close (PANEL_WIDGET (page));
  wait_for_frames (GTK_WIDGET (window));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = make_test_home ("sightline-cluster-many-XXXXXX");
  g_autoptr(SlApplication) app = NULL;
  SlWindow *window;

  if (skip_without_display ())
    return 77;
  gtk_init ();

  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  check_cluster (window, root, 64);
  check_cluster (window, root, 512);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
