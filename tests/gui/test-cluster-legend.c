/* test-cluster-legend.c: the step time chart's legend stays inside it
 *
 * The Cluster document's chart names computing, communication not
 * overlapped and free time above its bars. In a document 500 px wide
 * (a 1024 × 640 window with its side panels) the third name ran past
 * the chart's right edge and was cut. Each entry now ends inside the
 * chart, entries on a row do not overlap, and the bars start below the
 * legend's last row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"
#include "sl-cluster-bars.h"

static void
check_legend (int width)
{
  static const double values[] = { 20, 25, 85, 0, 0, 0, 21, 24, 86 };
  static const char *const series[] = { "computing", "communication not overlapped", "free time" };
  static const char *const labels[] = { "rank 0", "rank 1", "rank 10" };
  GtkWidget *window = gtk_window_new ();
  GtkWidget *bars = sl_cluster_bars_new ();
  double previous_end = -1, previous_y = -1, bottom = 0, plot_top = 0, x, y;

  sl_cluster_bars_set_data (SL_CLUSTER_BARS (bars), 3, 3, values, series, labels);
  gtk_window_set_child (GTK_WINDOW (window), bars);
  gtk_window_set_default_size (GTK_WINDOW (window), width, 240);
  gtk_window_present (GTK_WINDOW (window));
  wait_for_frames (window);
  g_assert_cmpint (gtk_widget_get_width (bars), <=, width);

  for (guint s = 0; s < G_N_ELEMENTS (series); s++)
    {
      double x0, x1, row;

      g_assert_true (sl_cluster_bars_get_legend_extent (SL_CLUSTER_BARS (bars), s, &x0, &x1, &row, &plot_top));
      g_assert_cmpfloat (x0, >=, 0);
      g_assert_cmpfloat (x1, <=, gtk_widget_get_width (bars));
      g_assert_cmpfloat (row, >=, previous_y);
      if (row == previous_y)
        g_assert_cmpfloat (x0, >, previous_end);
      previous_end = x1;
      previous_y = row;
      bottom = MAX (bottom, row + 10);
    }
  g_assert_false (sl_cluster_bars_get_legend_extent (SL_CLUSTER_BARS (bars), 3, &x, &x, &x, &x));
  g_assert_cmpfloat (plot_top, >, bottom);
  g_assert_true (sl_cluster_bars_get_bar_center (SL_CLUSTER_BARS (bars), 0, &x, &y));
  g_assert_cmpfloat (y, >, plot_top);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_legend_fits_narrow (void)
{
  check_legend (480);
}

static void
test_legend_fits_very_narrow (void)
{
  check_legend (200);
}

static void
test_legend_one_row_when_wide (void)
{
  double x0, x1, first_row, row, top;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *bars = sl_cluster_bars_new ();
  static const double values[] = { 20, 25, 85 };
  static const char *const series[] = { "computing", "communication not overlapped", "free time" };
  static const char *const labels[] = { "rank 0" };

  sl_cluster_bars_set_data (SL_CLUSTER_BARS (bars), 1, 3, values, series, labels);
  gtk_window_set_child (GTK_WINDOW (window), bars);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 240);
  gtk_window_present (GTK_WINDOW (window));
  wait_for_frames (window);
  g_assert_true (sl_cluster_bars_get_legend_extent (SL_CLUSTER_BARS (bars), 0, &x0, &x1, &first_row, &top));
  g_assert_true (sl_cluster_bars_get_legend_extent (SL_CLUSTER_BARS (bars), 2, &x0, &x1, &row, &top));
  g_assert_cmpfloat (row, ==, first_row);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  if (skip_without_display ())
    return 77;
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cluster-bars/legend/narrow", test_legend_fits_narrow);
  g_test_add_func ("/cluster-bars/legend/very-narrow", test_legend_fits_very_narrow);
  g_test_add_func ("/cluster-bars/legend/one-row-when-wide", test_legend_one_row_when_wide);
  return g_test_run ();
}
