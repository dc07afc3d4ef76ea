/* test-scalar-chart.c: the scalar chart on a real display
 *
 * Three runs (one of a million points) in a window: the picture is not
 * blank, zoom / pan / reset / log / smoothing change the view as they
 * should, the tooltip names the nearest points, a growing series is
 * followed, and the exports are written in their formats. Light and dark
 * style are rendered and compared: background, axis and labels each in
 * the style's colours. Screenshots go to the build folder's screenshots/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "sl-main-thread.h"
#include "sl-scalar-chart.h"

static GtkWidget *window;
static SlScalarChart *chart;
static SlScalarSeries *big;
static SlScalarSeries *small;
static char *tmp_dir;

#define T0 1704103200.0


static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
chart_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
smoothing_done (gpointer data)
{
  return !sl_scalar_chart_is_smoothing_busy (data);
}

/* The curves: pixels that are neither background nor grey. */
static guint
screenshot (const char *name)
{
  return save_window_screenshot (window, SCREENSHOT_DIR, name);
}

static void
test_draws_curves (void)
{
  guint coloured = screenshot ("scalar-chart.png");

  g_assert_cmpuint (coloured, >, 2000);
}

static void
test_zoom_pan_reset (void)
{
  double x0, x1, y0, y1, z0, z1;

  sl_scalar_chart_get_view (chart, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, ==, 0);
  g_assert_cmpfloat (x1, ==, 999999);
  g_assert_cmpfloat (y0, <, y1);

  sl_scalar_chart_zoom_to (chart, 1000, 2000, NAN, NAN);
  sl_scalar_chart_get_view (chart, &z0, &z1, NULL, NULL);
  g_assert_cmpfloat (z0, ==, 1000);
  g_assert_cmpfloat (z1, ==, 2000);

  /* Dragging right by a tenth of the plot shows earlier steps. */
  {
    cairo_rectangle_t plot;

    sl_scalar_chart_renderer_get_plot_area (sl_scalar_chart_get_renderer (chart), &plot);
    sl_scalar_chart_pan (chart, plot.width / 10, 0);
    sl_scalar_chart_get_view (chart, &z0, &z1, NULL, NULL);
    g_assert_cmpfloat_with_epsilon (z0, 900, 1e-6);
    g_assert_cmpfloat_with_epsilon (z1, 1900, 1e-6);

    /* Wheel zoom in around the middle keeps the middle. */
    sl_scalar_chart_zoom_at (chart, plot.x + plot.width / 2, 0.5);
    sl_scalar_chart_get_view (chart, &z0, &z1, NULL, NULL);
    g_assert_cmpfloat_with_epsilon (z0, 1150, 1e-6);
    g_assert_cmpfloat_with_epsilon (z1, 1650, 1e-6);
  }

  sl_scalar_chart_zoom_to (chart, 0, 1000, 0.2, 0.4);
  sl_scalar_chart_get_view (chart, NULL, NULL, &z0, &z1);
  g_assert_cmpfloat (z0, ==, 0.2);
  g_assert_cmpfloat (z1, ==, 0.4);

  sl_scalar_chart_reset_view (chart);
  sl_scalar_chart_get_view (chart, &z0, &z1, NULL, NULL);
  g_assert_cmpfloat (z0, ==, x0);
  g_assert_cmpfloat (z1, ==, x1);
  settle ();
}

static void
test_log_and_outliers (void)
{
  double y0, y1, o0, o1;

  sl_scalar_chart_get_view (chart, NULL, NULL, &y0, &y1);
  /* The small run has one point at 50: the full range reaches it. */
  g_assert_cmpfloat (y1, >, 50);
  sl_scalar_chart_set_ignore_outliers (chart, TRUE);
  sl_scalar_chart_get_view (chart, NULL, NULL, &o0, &o1);
  g_assert_cmpfloat (o1, <, 5);
  settle ();
  screenshot ("scalar-chart-outliers.png");

  sl_scalar_chart_set_log_y (chart, TRUE);
  sl_scalar_chart_get_view (chart, NULL, NULL, &y0, &y1);
  g_assert_cmpfloat (y0, >, 0);
  g_assert_true (sl_scalar_chart_renderer_get_log_y (sl_scalar_chart_get_renderer (chart)));
  settle ();
  screenshot ("scalar-chart-log.png");
  sl_scalar_chart_set_log_y (chart, FALSE);
}

static void
test_smoothing_and_tooltip (void)
{
  g_autofree char *tip = NULL;
  g_autofree char *raw_tip = NULL;

  raw_tip = sl_scalar_chart_get_tooltip_at (chart, 149);
  /* The nearest point of the small run to 149 is step 100 (0.5). */
  g_assert_nonnull (strstr (raw_tip, "run-c / accuracy: smoothed 0.5, value 0.5, step 100, 10 s, 2024-01-01 10:00:10"));
  g_assert_nonnull (strstr (raw_tip, "run-a / loss"));
  g_assert_nonnull (strstr (raw_tip, "run-b / loss"));

  sl_scalar_chart_set_smoothing (chart, 0.6);
  g_assert_true (wait_until (smoothing_done, chart, 30000));
  g_assert_cmpfloat (sl_scalar_chart_renderer_get_smoothing (sl_scalar_chart_get_renderer (chart)), ==, 0.6);
  tip = sl_scalar_chart_get_tooltip_at (chart, 100);
  /* Values 0.4, 0.5: last = 0.16 then 0.296; debiased 0.296 / 0.64. */
  g_assert_nonnull (strstr (tip, "run-c / accuracy: smoothed 0.4625, value 0.5, step 100"));

  sl_scalar_chart_set_series_visible (chart, 0, FALSE);
  g_clear_pointer (&tip, g_free);
  tip = sl_scalar_chart_get_tooltip_at (chart, 100);
  g_assert_null (strstr (tip, "run-a / loss"));
  sl_scalar_chart_set_series_visible (chart, 0, TRUE);

  sl_scalar_chart_set_threshold (chart, SL_CHART_THRESHOLD_ABOVE, 0.8);
  settle ();
  g_assert_cmpuint (screenshot ("scalar-chart-smoothed.png"), >, 2000);
  sl_scalar_chart_set_threshold (chart, SL_CHART_THRESHOLD_NONE, NAN);
}

static void
test_x_modes_and_growth (void)
{
  double x0, x1;
  guint n = sl_scalar_series_get_n_points (small);

  sl_scalar_chart_set_x_mode (chart, SL_CHART_X_RELATIVE);
  sl_scalar_chart_get_view (chart, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x0, ==, 0);
  g_assert_cmpfloat_with_epsilon (x1, 999999 * 0.01, 1e-6);
  settle ();
  screenshot ("scalar-chart-relative.png");

  sl_scalar_chart_set_x_mode (chart, SL_CHART_X_WALL);
  sl_scalar_chart_get_view (chart, &x0, NULL, NULL, NULL);
  g_assert_cmpfloat (x0, ==, T0);
  sl_scalar_chart_set_x_mode (chart, SL_CHART_X_STEP);

  /* Training goes on: the small run grows past the others. */
  for (guint i = 0; i < 100; i++)
    sl_scalar_series_append (small, 1000000 + i * 1000, T0 + 20000 + i, 0.9);
  g_signal_emit_by_name (small, "changed", n);
  sl_scalar_chart_get_view (chart, NULL, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 1000000 + 99 * 1000);
  settle ();
}

static void
check_magic (const char *path,
             const char *magic)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, >, strlen (magic));
  g_assert_true (memcmp (contents, magic, strlen (magic)) == 0);
}

static void
test_exports (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *png = g_build_filename (tmp_dir, "chart.png", NULL);
  g_autofree char *svg = g_build_filename (tmp_dir, "chart.svg", NULL);
  g_autofree char *pdf = g_build_filename (tmp_dir, "chart.pdf", NULL);
  g_autofree char *csv = g_build_filename (tmp_dir, "chart.csv", NULL);
  g_autofree char *json = g_build_filename (tmp_dir, "chart.json", NULL);
  g_autofree char *csv_text = NULL;

  /* Only the small series, so the data files stay small. */
  sl_scalar_chart_set_series_visible (chart, 0, FALSE);
  sl_scalar_chart_set_series_visible (chart, 1, FALSE);

  g_assert_true (sl_scalar_chart_export (chart, png, SL_CHART_IMAGE_PNG, &error));
  g_assert_no_error (error);
  g_assert_true (sl_scalar_chart_export (chart, svg, SL_CHART_IMAGE_SVG, &error));
  g_assert_true (sl_scalar_chart_export (chart, pdf, SL_CHART_IMAGE_PDF, &error));
  /* The data is written on a worker: the drawing thread never writes. */
  gboolean was_marked = sl_main_thread_is_current ();

  sl_main_thread_mark ();
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (i == 0 ? csv : json);
      g_autoptr(GAsyncResult) result = NULL;

      sl_scalar_chart_export_data_async (chart, file, i == 0 ? SL_CHART_DATA_CSV : SL_CHART_DATA_JSON, NULL,
                                         store_result, &result);
      g_assert_true (sl_scalar_chart_export_data_finish (chart, wait_for_result (&result), &error));
      g_assert_no_error (error);
    }
  if (!was_marked)
    sl_main_thread_unmark ();

  check_magic (png, "\x89PNG");
  check_magic (svg, "<?xml");
  check_magic (pdf, "%PDF");
  check_magic (csv, "series,step,wall_time,relative_time,value,smoothed\n\"run-c / accuracy\",0,");
  check_magic (json, "[\n  {\"name\": \"run-c / accuracy\"");

  sl_scalar_chart_set_series_visible (chart, 0, TRUE);
  sl_scalar_chart_set_series_visible (chart, 1, TRUE);
}

/* The window's background in libadwaita 1.2: #fafafa light, #242424 dark;
 * its text colour black (at 80%) light, white dark. */
#define LIGHT_BG 250.0
#define DARK_BG   36.0
#define LIGHT_FG   0.0
#define DARK_FG  255.0

/* The chart in light and in dark style, compared: the background is the
 * style's, axis and labels are drawn in the style's text colour (dark on
 * light, light on dark), and the dark picture is darker where it differs. */
static void
test_dark_style (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  cairo_rectangle_t plot;
  int cx, cy, px, py, pw, ph, cw, ch;
  LumaStats light_bg, dark_bg, light_frame, dark_frame, light_labels, dark_labels;
  guint light_text = 0, dark_text = 0;
  guint darker, lighter;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  g_assert_false (adw_style_manager_get_dark (manager));
  light = capture_window (window, SCREENSHOT_DIR, "scalar-chart-light.png");

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_true (adw_style_manager_get_dark (manager));
  dark = capture_window (window, SCREENSHOT_DIR, "scalar-chart-dark.png");
  g_assert_cmpuint (dark->coloured, >, 2000);

  g_assert_cmpint (light->width, ==, dark->width);
  g_assert_cmpint (light->height, ==, dark->height);
  widget_origin_in (GTK_WIDGET (chart), window, &cx, &cy);
  cw = gtk_widget_get_width (GTK_WIDGET (chart));
  ch = gtk_widget_get_height (GTK_WIDGET (chart));
  sl_scalar_chart_renderer_get_plot_area (sl_scalar_chart_get_renderer (chart), &plot);
  px = cx + (int)plot.x;
  py = cy + (int)plot.y;
  pw = (int)plot.width;
  ph = (int)plot.height;
  g_assert_cmpint (pw, >, 600);
  g_assert_cmpint (ph, >, 300);

  /* Right of the plot's frame nothing is drawn: the window background,
   * one value throughout. */
  light_bg = capture_luma_stats (light, px + pw + 2, py, cx + cw - 2 - (px + pw + 2), ph);
  dark_bg = capture_luma_stats (dark, px + pw + 2, py, cx + cw - 2 - (px + pw + 2), ph);
  g_assert_cmpfloat_with_epsilon (light_bg.median, LIGHT_BG, 2.5);
  g_assert_cmpfloat_with_epsilon (dark_bg.median, DARK_BG, 2.5);
  g_assert_cmpfloat (light_bg.max - light_bg.min, <=, 2);
  g_assert_cmpfloat (dark_bg.max - dark_bg.min, <=, 2);
  g_assert_cmpfloat (dark_bg.median, <, 60);
  g_assert_cmpfloat (dark_bg.median, <, light_bg.median - 150);

  /* The frame's right edge: the text colour at 30% over the background,
   * darker than the background in light style and lighter in dark. */
  light_frame = capture_luma_stats (light, px + pw - 1, py + 4, 1, ph - 8);
  dark_frame = capture_luma_stats (dark, px + pw - 1, py + 4, 1, ph - 8);
  g_assert_cmpfloat_with_epsilon (light_frame.median, 0.7 * LIGHT_BG + 0.3 * LIGHT_FG, 6);
  g_assert_cmpfloat_with_epsilon (dark_frame.median, 0.7 * DARK_BG + 0.3 * DARK_FG, 6);

  /* The y labels left of the plot: only text on the background. Dark
   * style draws them light (nothing darker than the background, glyphs
   * near 70% white); light style draws them dark. */
  light_labels = capture_luma_stats (light, cx + 2, py - 8, (int)plot.x - 12, ph + 16);
  dark_labels = capture_luma_stats (dark, cx + 2, py - 8, (int)plot.x - 12, ph + 16);
  g_assert_cmpfloat_with_epsilon (light_labels.median, light_bg.median, 1);
  g_assert_cmpfloat_with_epsilon (dark_labels.median, dark_bg.median, 1);
  g_assert_cmpfloat (light_labels.max, <=, light_bg.median + 2);
  g_assert_cmpfloat (light_labels.min, <, 0.3 * LIGHT_BG + 0.7 * LIGHT_FG + 40);
  g_assert_cmpfloat (dark_labels.min, >=, dark_bg.median - 2);
  g_assert_cmpfloat (dark_labels.max, >, 0.3 * DARK_BG + 0.7 * DARK_FG - 40);
  for (int y = py - 8; y < py + ph + 8; y++)
    for (int x = cx + 2; x < cx + (int)plot.x - 10; x++)
      {
        light_text += capture_luma (light, x, y) < light_bg.median - 40;
        dark_text += capture_luma (dark, x, y) > dark_bg.median + 40;
      }
  /* The same labels in both: about as many glyph pixels. */
  g_assert_cmpuint (light_text, >, 100);
  g_assert_cmpuint (dark_text, >, 100);
  g_assert_cmpfloat ((double)dark_text / light_text, >, 0.6);
  g_assert_cmpfloat ((double)dark_text / light_text, <, 1.6);

  g_test_message ("light/dark: background %.1f/%.1f, frame %.1f/%.1f, labels %.1f–%.1f/%.1f–%.1f, "
                  "%u/%u glyph pixels", light_bg.median, dark_bg.median, light_frame.median, dark_frame.median,
                  light_labels.min, light_labels.max, dark_labels.min, dark_labels.max, light_text, dark_text);

  /* Pixel by pixel, the dark picture is darker nearly everywhere (the
   * background, the grid) and lighter only where text and lines are (the
   * run lines take a lighter shade in the dark style). */
  capture_compare (dark, light, cx, cy, cw, ch, 20, &darker, &lighter);
  g_test_message ("%u pixels darker in dark style, %u lighter", darker, lighter);
  g_assert_cmpfloat ((double)darker / ((double)cw * ch), >, 0.8);
  g_assert_cmpfloat ((double)lighter / ((double)cw * ch), <, 0.08);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  settle ();
}

static SlScalarSeries *
make_series (const char *tag,
             guint       n,
             guint       kind)
{
  SlScalarSeries *series = sl_scalar_series_new (tag);
  g_autoptr(GRand) rand = g_rand_new_with_seed (kind + 1);

  for (guint i = 0; i < n; i++)
    {
      double v;

      switch (kind)
        {
        case 0:
          v = 0.3 + 2.0 * exp (-(double)i / 150000.0) + g_rand_double_range (rand, -0.08, 0.08);
          sl_scalar_series_append (series, i, T0 + i * 0.01, v);
          break;
        case 1:
          v = (i % 500 == 7) ? NAN : 0.25 + 1.6 * exp (-(double)i / 1200.0) + g_rand_double_range (rand, -0.05, 0.05);
          sl_scalar_series_append (series, i * 200, T0 + i * 2.0, v);
          break;
        default:
          /* 0.4 and 0.5 first (the tooltip test works them out), one
           * outlier at 50, then a saturating accuracy. */
          if (i < 2)
            v = 0.4 + 0.1 * i;
          else
            v = (i == 150) ? 50 : 0.4 + 0.5 * (1 - exp (-(double)i / 40.0));
          sl_scalar_series_append (series, i * 100, T0 + i * 10.0, v);
          break;
        }
    }
  return series;
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tmp_dir = g_dir_make_tmp ("sl-chart-XXXXXX", NULL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("TZ", "UTC", TRUE);

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  adw_init ();

  big = make_series ("loss", 1000000, 0);
  small = make_series ("accuracy", 300, 2);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 480);
  chart = SL_SCALAR_CHART (sl_scalar_chart_new ());
  {
    g_autoptr(SlScalarSeries) mid = make_series ("loss", 5000, 1);

    sl_scalar_chart_add_series (chart, big, "run-a / loss");
    sl_scalar_chart_add_series (chart, mid, "run-b / loss");
    sl_scalar_chart_add_series (chart, small, "run-c / accuracy");
  }
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (chart_shown, chart, 30000));
  settle ();

  g_test_add_func ("/scalar-chart/draws-curves", test_draws_curves);
  g_test_add_func ("/scalar-chart/zoom-pan-reset", test_zoom_pan_reset);
  g_test_add_func ("/scalar-chart/log-and-outliers", test_log_and_outliers);
  g_test_add_func ("/scalar-chart/smoothing-and-tooltip", test_smoothing_and_tooltip);
  g_test_add_func ("/scalar-chart/x-modes-and-growth", test_x_modes_and_growth);
  g_test_add_func ("/scalar-chart/exports", test_exports);
  g_test_add_func ("/scalar-chart/dark-style", test_dark_style);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&big);
  g_clear_object (&small);
  return status;
}
