/* test-tensor-view.c: the Tensors tab on a real display
 *
 * The demo training job writes its last layer's weights as a tensor; the
 * Scalars page lists it under Tensors, and the view is driven through its
 * three modes, a slice, a wrong slice and a live step. A 1024 × 1024
 * tensor with NaN and infinities checks that the table only lays out what
 * is visible and that large tensors are analysed in a worker.
 * Screenshots of each mode go to the build folder's screenshots/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <math.h>
#include <string.h>
#include <adwaita.h>
#include <libpanel.h>
#include <glib/gstdio.h>

#include "sl-scalars-page.h"
#include "sl-tensor-grid.h"
#include "sl-tensor-plot.h"
#include "sl-tensor-view.h"

static char *tmp_root;
static GtkWidget *window;

static void
settle (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static guint
screenshot (const char *name)
{
  settle (150);
  return save_window_screenshot (window, SCREENSHOT_DIR, name);
}

static gboolean
page_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static gboolean
view_idle (gpointer data)
{
  return !sl_tensor_view_is_busy (data) && sl_tensor_view_get_frame (data) != NULL;
}

static gboolean
widget_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static void
write_demo_run (const char *summary_dir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *epochs = g_strdup ("--epochs=10");
  g_autofree char *dir_arg = g_strdup_printf ("--summary-dir=%s", summary_dir);
  const char *program = g_getenv ("SIGHTLINE_DEMO_TRAIN");
  const char *argv[] = { program, epochs, dir_arg, NULL };
  int status = 0;

  g_assert_nonnull (program);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* What the strip should say, computed here from the series directly. */
static void
reference_stats (SlTensorSeries *series,
                 guint           index,
                 SlTensorStats  *stats)
{
  const double *values;
  gsize n = sl_tensor_series_get_values (series, index, &values);

  sl_tensor_stats_init (stats);
  sl_tensor_stats_add_values (stats, values, n);
}

static void
assert_stat (SlTensorView *view,
             gboolean      of_view,
             SlTensorStat  stat,
             double        expected)
{
  char text[64];

  sl_tensor_format_value (text, sizeof text, expected, 12, 4);
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, of_view, stat), ==, text);
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

/* Every group of the card's controls lies inside the card, and the card
 * inside the part of the page that shows it; returns the groups' rows. */
static guint
assert_controls_inside (SlTensorView *view)
{
  const char *groups[] = { "step-group", "slice-group", "digits-group", "mode-group" };
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t card;
  double last_y = -1;
  guint rows = 0;

  g_assert_nonnull (scroller);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (view), scroller, &card));
  g_test_message ("card %.0f+%.0f in %d", card.origin.x, card.size.width, gtk_widget_get_width (scroller));
  g_assert_cmpfloat (card.origin.x, >=, 0);
  g_assert_cmpfloat (card.origin.x + card.size.width, <=, gtk_widget_get_width (scroller));
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    {
      GtkWidget *group = find_named (GTK_WIDGET (view), groups[i]);
      graphene_rect_t bounds;

      g_assert_nonnull (group);
      g_assert_true (gtk_widget_get_mapped (group));
      g_assert_true (gtk_widget_compute_bounds (group, GTK_WIDGET (view), &bounds));
      g_assert_cmpfloat (bounds.origin.x, >=, 0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (view)));
      if (bounds.origin.y > last_y)
        rows++;
      last_y = bounds.origin.y;
    }
  return rows;
}

static void
test_demo_weight_tensor (void)
{
  g_autofree char *summary_dir = g_build_filename (tmp_root, "demo", NULL);
  SlScalarsPage *page;
  SlTensorView *view;
  SlTensorSeries *series;
  SlTensorFrame *frame;
  SlTensorStats reference;
  const gint64 *dims;
  guint n_dims, n_steps, last;
  g_autofree char *hover = NULL;

  write_demo_run (summary_dir);

  page = SL_SCALARS_PAGE (sl_scalars_page_new (summary_dir, "demo"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_scalars_page_get_n_tensor_views (page), ==, 1);

  sl_scalars_page_show_view (page, "tensors");
  view = SL_TENSOR_VIEW (sl_scalars_page_get_tensor_view (page, ".", "dense3.weight"));
  g_assert_nonnull (view);
  g_assert_true (wait_until (widget_shown, view, 10000));
  g_assert_true (wait_until (view_idle, view, 10000));

  /* Epochs 1, 5 and 10 wrote the weights; the newest step is shown. */
  series = sl_tensor_view_get_series (view);
  n_steps = sl_tensor_series_get_n_points (series);
  g_assert_cmpuint (n_steps, ==, 3);
  last = n_steps - 1;
  g_assert_cmpuint (sl_tensor_view_get_step_index (view), ==, last);
  n_dims = sl_tensor_series_get_dims (series, last, &dims);
  g_assert_cmpuint (n_dims, ==, 2);
  g_assert_cmpint (dims[0], ==, 2);
  g_assert_cmpint (dims[1], ==, 16);
  g_assert_nonnull (strstr (sl_tensor_view_get_shape_text (view), "(2, 16)"));
  g_assert_nonnull (strstr (sl_tensor_view_get_shape_text (view), "float32"));

  /* The strip against statistics computed here. */
  reference_stats (series, last, &reference);
  assert_stat (view, FALSE, SL_TENSOR_STAT_MIN, reference.min);
  assert_stat (view, FALSE, SL_TENSOR_STAT_MAX, reference.max);
  assert_stat (view, FALSE, SL_TENSOR_STAT_MEAN, reference.mean);
  assert_stat (view, FALSE, SL_TENSOR_STAT_STD, sl_tensor_stats_get_std (&reference));
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, FALSE, SL_TENSOR_STAT_NAN), ==, "0");
  /* The whole tensor is in view. */
  assert_stat (view, TRUE, SL_TENSOR_STAT_MEAN, reference.mean);

  /* The controls wrap onto more rows in a narrow window instead of
   * running past the card's edge. */
  {
    guint wide_rows, narrow_rows;

    wide_rows = assert_controls_inside (view);
    gtk_window_set_default_size (GTK_WINDOW (window), 600, 760);
    wait_for_frames (window);
    settle (200);
    narrow_rows = assert_controls_inside (view);
    g_assert_cmpuint (narrow_rows, >, wide_rows);
    /* As wide as the Scalars document is in a 1024 × 640 window with
     * the Workspace and Details beside it: the card still fits. */
    gtk_window_set_default_size (GTK_WINDOW (window), 406, 760);
    wait_for_frames (window);
    settle (200);
    assert_controls_inside (view);
    gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
    wait_for_frames (window);
    settle (200);
  }

  sl_tensor_view_set_mode (view, "table");
  g_assert_cmpuint (screenshot ("tensor-table.png"), >, 0);
  g_assert_cmpuint (sl_tensor_grid_get_n_drawn_cells (SL_TENSOR_GRID (sl_tensor_view_get_grid (view))), >, 0);

  /* Weights of both signs: a diverging palette centred at 0. */
  sl_tensor_view_set_mode (view, "heatmap");
  settle (200);
  frame = sl_tensor_view_get_frame (view);
  g_assert_cmpint (frame->palette, ==, SL_TENSOR_PALETTE_DIVERGING);
  g_assert_cmpfloat (frame->color_lo, ==, -frame->color_hi);
  sl_tensor_plot_set_hover (SL_TENSOR_PLOT (sl_tensor_view_get_plot (view, "heatmap")), 60, 60);
  hover = sl_tensor_plot_describe_at (SL_TENSOR_PLOT (sl_tensor_view_get_plot (view, "heatmap")), 60, 60);
  g_assert_nonnull (hover);
  g_assert_true (g_str_has_prefix (hover, "[0, "));
  g_assert_cmpuint (screenshot ("tensor-heatmap.png"), >, 2000);

  sl_tensor_view_set_mode (view, "histogram");
  settle (200);
  g_assert_cmpuint (frame->histogram->n_bins, >, 1);
  g_clear_pointer (&hover, g_free);
  hover = sl_tensor_plot_describe_at (SL_TENSOR_PLOT (sl_tensor_view_get_plot (view, "histogram")), 200, 150);
  g_assert_nonnull (hover);
  g_assert_true (g_str_has_prefix (hover, "["));
  sl_tensor_plot_set_hover (SL_TENSOR_PLOT (sl_tensor_view_get_plot (view, "histogram")), 200, 150);
  g_assert_cmpuint (screenshot ("tensor-histogram.png"), >, 1000);

  /* A slice: the second output's weights, every other input. */
  sl_tensor_view_set_slice (view, "1, ::2");
  g_assert_true (wait_until (view_idle, view, 10000));
  g_assert_null (sl_tensor_view_get_slice_error (view));
  frame = sl_tensor_view_get_frame (view);
  g_assert_cmpint (frame->slice->n_rows, ==, 1);
  g_assert_cmpint (frame->slice->n_cols, ==, 8);
  g_assert_cmpuint (frame->view.n, ==, 8);
  {
    const double *values;
    SlTensorStats expected;

    sl_tensor_series_get_values (series, last, &values);
    sl_tensor_stats_init (&expected);
    for (guint c = 0; c < 16; c += 2)
      sl_tensor_stats_add (&expected, values[16 + c]);
    assert_stat (view, TRUE, SL_TENSOR_STAT_MIN, expected.min);
    assert_stat (view, TRUE, SL_TENSOR_STAT_MAX, expected.max);
    assert_stat (view, TRUE, SL_TENSOR_STAT_STD, sl_tensor_stats_get_std (&expected));
    /* The whole tensor's line does not change with the slice. */
    assert_stat (view, FALSE, SL_TENSOR_STAT_MEAN, reference.mean);
  }
  sl_tensor_view_set_mode (view, "heatmap");
  screenshot ("tensor-heatmap-slice.png");

  /* A wrong slice says where; the last good picture stays. */
  sl_tensor_view_set_slice (view, "1, x");
  g_assert_nonnull (sl_tensor_view_get_slice_error (view));
  g_assert_nonnull (strstr (sl_tensor_view_get_slice_error (view), "4"));
  g_assert_true (sl_tensor_view_get_frame (view) == frame);
  sl_tensor_view_set_mode (view, "table");
  screenshot ("tensor-slice-error.png");
  sl_tensor_view_set_slice (view, "5");
  g_assert_nonnull (strstr (sl_tensor_view_get_slice_error (view), "out of range"));
  sl_tensor_view_set_slice (view, ":, 4:12");
  g_assert_null (sl_tensor_view_get_slice_error (view));

  /* An earlier step through the slider. */
  sl_tensor_view_set_step_index (view, 0);
  g_assert_true (wait_until (view_idle, view, 10000));
  g_assert_cmpint (sl_tensor_view_get_frame (view)->step, ==, sl_tensor_series_get_steps (series)[0]);

  /* Closing the page frees its image cards too, which must leave the
   * series' PNG bytes alone. */
  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

/* 1024 × 1024 values around 0 with a few NaN and infinities. */
static SlTensorSeries *
make_big_series (guint n_steps)
{
  SlTensorSeries *series = sl_tensor_series_new ("big/weight");
  const gint64 dims[] = { 1024, 1024 };
  gsize n = 1024 * 1024;
  g_autofree double *values = g_new (double, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint s = 0; s < n_steps; s++)
    {
      for (gsize i = 0; i < n; i++)
        values[i] = sin (i / 1024 * 0.02) * cos ((i % 1024) * 0.03) + g_rand_double_range (rand, -0.1, 0.1) + s;
      values[5] = NAN;
      values[1024 * 7 + 9] = INFINITY;
      values[1024 * 500 + 500] = -INFINITY;
      sl_tensor_series_append (series, 100 * (s + 1), 1.7e9 + s, 11, 2, dims, n, values);
    }
  return series;
}

static void
test_big_tensor (void)
{
  g_autoptr(SlTensorSeries) series = make_big_series (2);
  gint64 start = g_get_monotonic_time ();
  SlTensorView *view = SL_TENSOR_VIEW (sl_tensor_view_new (series, "synthetic"));
  SlTensorGrid *grid = SL_TENSOR_GRID (sl_tensor_view_get_grid (view));
  SlTensorFrame *frame;
  double elapsed_ms;
  guint drawn;

  /* Over a million values: analysed in a worker, the view answers at once. */
  elapsed_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_test_message ("1024 x 1024 view created in %.1f ms (values copied, worker started)", elapsed_ms);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  g_assert_true (sl_tensor_view_is_busy (view));
  g_assert_true (wait_until (view_idle, view, 20000));
  g_test_message ("1024 x 1024 statistics, bins and colours ready after %.1f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  frame = sl_tensor_view_get_frame (view);
  g_assert_cmpuint (frame->full.n, ==, 1024 * 1024);
  g_assert_cmpuint (frame->full.n_nan, ==, 1);
  g_assert_cmpuint (frame->full.n_pos_inf, ==, 1);
  g_assert_cmpuint (frame->full.n_neg_inf, ==, 1);
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, FALSE, SL_TENSOR_STAT_NAN), ==, "1");
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, TRUE, SL_TENSOR_STAT_NEG_INF), ==, "1");

  /* The table lays out only what is on screen. */
  sl_tensor_view_set_mode (view, "table");
  g_assert_true (wait_until (widget_shown, grid, 10000));
  settle (100);
  sl_tensor_grid_scroll_to (grid, 495, 495);
  screenshot ("tensor-big-table.png");
  /* The cost of one frame of the table, as when scrolling. */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < 20; i++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      sl_tensor_grid_scroll_to (grid, 495 + i, 495 + i);
      GTK_WIDGET_GET_CLASS (grid)->snapshot (GTK_WIDGET (grid), snapshot);
      gsk_render_node_unref (gtk_snapshot_free_to_node (snapshot));
    }
  elapsed_ms = (g_get_monotonic_time () - start) / 1000.0 / 20;
  drawn = sl_tensor_grid_get_n_drawn_cells (grid);
  g_test_message ("1024 x 1024 table: %u cells laid out per frame, %.2f ms per frame", drawn, elapsed_ms);
  g_assert_cmpuint (drawn, >, 50);
  g_assert_cmpuint (drawn, <, 5000);

  sl_tensor_view_set_mode (view, "heatmap");
  g_assert_cmpuint (screenshot ("tensor-big-heatmap.png"), >, 10000);
  sl_tensor_view_set_mode (view, "histogram");
  screenshot ("tensor-big-histogram.png");

  /* Another slice of the same step reuses the whole tensor's statistics
   * and is quick enough to compute at once. */
  sl_tensor_view_set_slice (view, "100:200, -50:");
  g_assert_false (sl_tensor_view_is_busy (view));
  frame = sl_tensor_view_get_frame (view);
  g_assert_cmpint (frame->slice->n_rows, ==, 100);
  g_assert_cmpint (frame->slice->n_cols, ==, 50);
  g_assert_cmpuint (frame->full.n, ==, 1024 * 1024);

  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

static void
test_live_steps (void)
{
  g_autoptr(SlTensorSeries) series = sl_tensor_series_new ("live");
  const gint64 dims[] = { 3, 4 };
  double values[12];
  SlTensorView *view;

  for (guint i = 0; i < 12; i++)
    values[i] = i;
  sl_tensor_series_append (series, 1, 0, 11, 2, dims, 12, values);
  view = SL_TENSOR_VIEW (sl_tensor_view_new (series, "live"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  g_assert_true (wait_until (view_idle, view, 5000));
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, FALSE, SL_TENSOR_STAT_MAX), ==, "11");

  /* A new step while the newest is shown: followed. */
  values[3] = 100;
  sl_tensor_series_append (series, 2, 1, 11, 2, dims, 12, values);
  sl_tensor_view_update (view);
  g_assert_cmpuint (sl_tensor_view_get_step_index (view), ==, 1);
  g_assert_cmpstr (sl_tensor_view_get_stat_text (view, FALSE, SL_TENSOR_STAT_MAX), ==, "100");

  /* Looking at an older step: it stays. */
  sl_tensor_view_set_step_index (view, 0);
  sl_tensor_series_append (series, 3, 2, 11, 2, dims, 12, values);
  sl_tensor_view_update (view);
  g_assert_cmpuint (sl_tensor_view_get_step_index (view), ==, 0);
  g_assert_cmpint (sl_tensor_view_get_frame (view)->step, ==, 1);

  /* What the user chose survives a rebuild of the view. */
  sl_tensor_view_set_slice (view, "1:, ::2");
  sl_tensor_view_set_mode (view, "histogram");
  sl_tensor_view_set_precision (view, 7);
  {
    g_autoptr(GVariant) state = g_variant_ref_sink (sl_tensor_view_save_state (view));
    SlTensorView *rebuilt = SL_TENSOR_VIEW (sl_tensor_view_new (series, "live"));

    g_object_ref_sink (rebuilt);
    g_assert_cmpuint (sl_tensor_view_get_step_index (rebuilt), ==, 2);
    sl_tensor_view_restore_state (rebuilt, state);
    g_assert_cmpuint (sl_tensor_view_get_step_index (rebuilt), ==, 0);
    g_assert_cmpstr (sl_tensor_view_get_mode (rebuilt), ==, "histogram");
    g_assert_cmpint (sl_tensor_view_get_frame (rebuilt)->slice->n_rows, ==, 2);
    g_assert_cmpint (sl_tensor_view_get_frame (rebuilt)->slice->n_cols, ==, 2);
    g_object_unref (rebuilt);
  }

  /* A shape the values do not fill is reported, not read out of bounds. */
  sl_tensor_series_append (series, 4, 3, 11, 2, dims, 5, values);
  sl_tensor_view_update (view);
  sl_tensor_view_set_step_index (view, 3);
  g_assert_nonnull (sl_tensor_view_get_slice_error (view));
  g_assert_nonnull (strstr (sl_tensor_view_get_slice_error (view), "(3, 4)"));

  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  adw_init ();
  panel_init ();

  /* The application's style sheet, so cards look as they do there. */
  {
    g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (provider, RESOURCE_PREFIX "/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  tmp_root = g_dir_make_tmp ("sl-tensor-XXXXXX", NULL);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (widget_shown, window, 10000));

  g_test_add_func ("/tensor-view/demo-weight-tensor", test_demo_weight_tensor);
  g_test_add_func ("/tensor-view/big-tensor", test_big_tensor);
  g_test_add_func ("/tensor-view/live-steps", test_live_steps);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
