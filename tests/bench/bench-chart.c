/* bench-chart.c: drawing time of the scalar chart
 *
 * 4 series × 1,000,000 points into a 1600 × 400 image surface, through the
 * renderer the widget and the exports use: each frame sets the view,
 * prepares (level-of-detail columns from the pyramid) and draws. Zoom
 * levels: everything, 10 %, 1 %, 0.01 % and a few points. The peer, in the
 * same run, is what a simple chart does: cairo line_to through every
 * point in view, then one stroke.
 *
 * Goal (from the scalars issue): at most 4 ms per frame, median over the
 * zoom levels.
 *
 * Usage: bench-chart [FRAMES] [PNG]  (PNG: the full view, for a look)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib.h>

#include "sl-scalar-chart-renderer.h"

#define N_SERIES 4
#define N_POINTS 1000000
#define WIDTH 1600
#define HEIGHT 400
#define GOAL_MS 4.0

typedef struct {
  const char *name;
  double      fraction;   /* of the steps in view; 0: a few points */
} Level;

static const Level levels[] = {
  { "full", 1.0 },
  { "10%", 0.1 },
  { "1%", 0.01 },
  { "0.01%", 0.0001 },
  { "few points", 0 },
};

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
worst (const double *v,
       guint         n)
{
  double w = 0;

  for (guint i = 0; i < n; i++)
    w = MAX (w, v[i]);
  return w;
}

static void
view_for (const Level *level,
          double      *x_min,
          double      *x_max)
{
  double span = level->fraction > 0 ? level->fraction * N_POINTS : 8;
  double centre = 0.37 * N_POINTS;

  if (level->fraction >= 1)
    {
      *x_min = 0;
      *x_max = N_POINTS - 1;
      return;
    }
  *x_min = centre - span / 2;
  *x_max = centre + span / 2;
}

/* The peer: every point in view, in the same plot area and scales. */
static void
draw_naive (cairo_t           *cr,
            SlScalarSeries   **series,
            double             x_min,
            double             x_max,
            double             y_min,
            double             y_max,
            cairo_rectangle_t *plot)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_line_width (cr, 1.5);
  for (guint s = 0; s < N_SERIES; s++)
    {
      const gint64 *steps = sl_scalar_series_get_steps (series[s]);
      const double *values = sl_scalar_series_get_values (series[s]);
      guint n = sl_scalar_series_get_n_points (series[s]);
      guint start = sl_scalar_series_find_step (series[s], (gint64)floor (x_min));
      guint end = sl_scalar_series_find_step (series[s], (gint64)ceil (x_max) + 1);

      start = start > 0 ? start - 1 : 0;
      end = MIN (end + 1, n);
      cairo_set_source_rgb (cr, 0.1 * s, 0.4, 0.7);
      for (guint i = start; i < end; i++)
        {
          double px = plot->x + (steps[i] - x_min) / (x_max - x_min) * plot->width;
          double py = plot->y + plot->height * (1 - (values[i] - y_min) / (y_max - y_min));

          if (i == start)
            cairo_move_to (cr, px, py);
          else
            cairo_line_to (cr, px, py);
        }
      cairo_stroke (cr);
    }
  cairo_surface_flush (cairo_get_target (cr));
}

int
main (int   argc,
      char *argv[])
{
  guint frames = argc > 1 ? (guint)atoi (argv[1]) : 40;
  const char *png = argc > 2 ? argv[2] : NULL;
  g_autoptr(SlScalarChartRenderer) renderer = sl_scalar_chart_renderer_new ();
  SlScalarSeries *series[N_SERIES];
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  double level_median[G_N_ELEMENTS (levels)], peer_median[G_N_ELEMENTS (levels)];
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gint64 t;
  double overall, peer_overall;

  frames = MAX (frames, 3);

  t = g_get_monotonic_time ();
  for (guint s = 0; s < N_SERIES; s++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u / loss", s);

      series[s] = sl_scalar_series_new ("loss");
      for (guint i = 0; i < N_POINTS; i++)
        sl_scalar_series_append (series[s], i, 1.7e9 + i * 0.05,
                                 0.2 + (1.5 + 0.3 * s) * exp (-(double)i / 2e5) + g_rand_double_range (rand, -0.05, 0.05));
      sl_scalar_chart_renderer_add_series (renderer, series[s], name);
    }
  g_print ("Scalar chart: %u series x %u points, %d x %d px, %u frames per level\n",
           N_SERIES, N_POINTS, WIDTH, HEIGHT, frames);
  g_print ("  series loaded and pyramids built in %.0f ms\n", (g_get_monotonic_time () - t) / 1000.0);

  g_print ("\n  %-11s %10s %10s %10s %10s %10s %10s %8s\n", "zoom", "points", "median ms", "worst ms",
           "of it LOD", "peer med", "peer worst", "ratio");
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      g_autofree double *ours = g_new (double, frames);
      g_autofree double *peer = g_new (double, frames);
      g_autofree double *prep = g_new (double, frames);
      /* Drawing every point of a dense view takes seconds a frame: three do. */
      guint peer_frames = levels[l].fraction >= 0.1 ? 3 : frames;
      double x_min, x_max, y_min, y_max, w_ours, w_peer;
      cairo_rectangle_t plot;

      view_for (&levels[l], &x_min, &x_max);
      for (guint f = 0; f < frames; f++)
        {
          /* Alternate the view slightly so no frame is a cache replay. */
          double shift = (f % 2) * (x_max - x_min) * 0.001;

          t = g_get_monotonic_time ();
          sl_scalar_chart_renderer_set_x_view (renderer, x_min + shift, x_max + shift);
          sl_scalar_chart_renderer_prepare (renderer, WIDTH, HEIGHT);
          prep[f] = (g_get_monotonic_time () - t) / 1000.0;
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_paint (cr);
          sl_scalar_chart_renderer_draw (renderer, cr);
          cairo_surface_flush (surface);
          ours[f] = (g_get_monotonic_time () - t) / 1000.0;
        }
      if (png != NULL && l == 0)
        cairo_surface_write_to_png (surface, png);

      sl_scalar_chart_renderer_get_view (renderer, NULL, NULL, &y_min, &y_max);
      sl_scalar_chart_renderer_get_plot_area (renderer, &plot);
      for (guint f = 0; f < peer_frames; f++)
        {
          double shift = (f % 2) * (x_max - x_min) * 0.001;

          t = g_get_monotonic_time ();
          draw_naive (cr, series, x_min + shift, x_max + shift, y_min, y_max, &plot);
          peer[f] = (g_get_monotonic_time () - t) / 1000.0;
        }

      w_ours = worst (ours, frames);
      w_peer = worst (peer, peer_frames);
      level_median[l] = median (ours, frames);
      peer_median[l] = median (peer, peer_frames);
      g_print ("  %-11s %10.0f %10.3f %10.3f %10.3f %10.3f %10.3f %7.1fx\n", levels[l].name,
               levels[l].fraction > 0 ? levels[l].fraction * N_POINTS : 8.0,
               level_median[l], w_ours, median (prep, frames), peer_median[l], w_peer, peer_median[l] / MAX (level_median[l], 1e-6));
    }

  overall = median (level_median, G_N_ELEMENTS (levels));
  peer_overall = median (peer_median, G_N_ELEMENTS (levels));
  g_print ("\n  median over zoom levels: %.3f ms per frame (peer %.3f ms, %.1fx faster)\n",
           overall, peer_overall, peer_overall / MAX (overall, 1e-6));
  g_print ("  goal <= %.0f ms: %s\n", GOAL_MS, overall <= GOAL_MS ? "met" : "missed");

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  for (guint s = 0; s < N_SERIES; s++)
    g_object_unref (series[s]);
  return 0;
}
