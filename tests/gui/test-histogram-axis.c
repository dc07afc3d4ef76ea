/* test-histogram-axis.c: the histogram chart's ridges by step carry their
 * axis's name and unit along the right edge, beside the step numbers, and
 * the overlay (one baseline, no step axis) does not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <math.h>

#include "gui-test-util.h"
#include "sl-histogram-chart.h"
#include "sl-scalar-chart-renderer.h"

#define WIDTH 480
#define HEIGHT 240
#define STRIP 13   /* the right edge's last pixels, past the step numbers */

/* Pixels painted in the right edge's strip, over the plot's height. */
static guint
painted_at_right_edge (SlHistogramChart *chart)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  int stride;
  guint painted = 0;

  sl_histogram_chart_draw (chart, cr, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 12; y < HEIGHT - 28; y++)
    for (int x = WIDTH - STRIP; x < WIDTH; x++)
      if (((const guint32 *) (data + y * stride))[x] >> 24 > 0)   /* ARGB32's alpha */
        painted++;
  cairo_surface_destroy (surface);
  return painted;
}

static double
luminance (const double rgb[3])
{
  double c[3];

  for (guint i = 0; i < 3; i++)
    c[i] = rgb[i] <= 0.03928 ? rgb[i] / 12.92 : pow ((rgb[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static double
contrast (const double a[3],
          const double b[3])
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* Every run colour stands out at least 3:1 from the chart's background in
 * both styles (white; #303030, the dark card), and the style in use picks
 * its shade, so charts and legend swatches agree. */
static void
check_run_colours (void)
{
  const double backgrounds[2][3] = { { 1, 1, 1 }, { 0x30 / 255., 0x30 / 255., 0x30 / 255. } };

  for (guint dark = 0; dark < 2; dark++)
    {
      adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                          dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      for (guint i = 0; i < sl_scalar_chart_renderer_get_palette_size (); i++)
        {
          double rgb[3], shown[3];

          sl_scalar_chart_renderer_get_theme_palette_color (i, dark, rgb);
          g_assert_cmpfloat (contrast (rgb, backgrounds[dark]), >=, 3.0);
          sl_scalar_chart_renderer_get_palette_color (i, shown);
          g_assert_cmpmem (rgb, sizeof rgb, shown, sizeof shown);
        }
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlHistogramSeries) series = sl_histogram_series_new ("w");
  const double lefts[] = { -1.0, 0.0 };
  const double widths[] = { 1.0, 1.0 };
  SlHistogramStats stats = { 0 };
  GtkWidget *chart;

  if (skip_without_display ())
    return 77;
  gtk_init ();
  adw_init ();

  for (int step = 0; step < 5; step++)
    {
      const double counts[] = { 3.0 + step, 5.0 - step };

      sl_histogram_series_append (series, step, step, &stats, 2, lefts, widths, counts);
    }
  check_run_colours ();
  chart = g_object_ref_sink (sl_histogram_chart_new (series, 0));

  sl_histogram_chart_set_mode (SL_HISTOGRAM_CHART (chart), SL_HISTOGRAM_OFFSET);
  g_assert_cmpuint (painted_at_right_edge (SL_HISTOGRAM_CHART (chart)), >, 20);

  sl_histogram_chart_set_mode (SL_HISTOGRAM_CHART (chart), SL_HISTOGRAM_OVERLAY);
  g_assert_cmpuint (painted_at_right_edge (SL_HISTOGRAM_CHART (chart)), ==, 0);

  g_object_unref (chart);

  /* 26 steps, 0 to 200: the labels between the first and the last never
   * crowd the last ("192" above "200"): each is a line of text apart. */
  {
    g_autoptr(SlHistogramSeries) many = sl_histogram_series_new ("w");
    g_autoptr(GArray) baselines = NULL;
    g_auto(GStrv) labels = NULL;
    guint n;

    for (int step = 0; step <= 200; step += 8)
      {
        const double counts[] = { 3.0, 5.0 };

        sl_histogram_series_append (many, step, step, &stats, 2, lefts, widths, counts);
      }
    chart = g_object_ref_sink (sl_histogram_chart_new (many, 0));
    sl_histogram_chart_set_mode (SL_HISTOGRAM_CHART (chart), SL_HISTOGRAM_OFFSET);
    labels = sl_histogram_chart_get_step_labels (SL_HISTOGRAM_CHART (chart), HEIGHT, &baselines);
    n = g_strv_length (labels);
    g_assert_cmpuint (n, >=, 3);
    g_assert_cmpuint (n, ==, baselines->len);
    g_assert_cmpstr (labels[0], ==, "0");
    g_assert_cmpstr (labels[n - 1], ==, "200");
    for (guint i = 1; i < n; i++)
      g_assert_cmpfloat (g_array_index (baselines, double, i) - g_array_index (baselines, double, i - 1), >=, 12);
    g_object_unref (chart);
  }
  return 0;
}
