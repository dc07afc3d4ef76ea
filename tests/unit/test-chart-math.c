/* test-chart-math.c: smoothing, level of detail and axes of the charts
 *
 * The level of detail is compared with a naive min/max per pixel column
 * over random data, ranges and widths; smoothing with values worked out
 * by hand from TensorBoard's formula.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib.h>

#include "sl-chart-axis.h"
#include "sl-series-lod.h"
#include "sl-series-smoother.h"

static void
test_smooth_hand_computed (void)
{
  const double values[] = { 1, 2, 3, NAN, 4 };
  double out[G_N_ELEMENTS (values)];

  /* w = 0.5: last 0.5 / 0.5 = 1; last 1.25 / 0.75; last 2.125 / 0.875;
   * NaN passes; last 3.0625 / 0.9375. */
  sl_series_smooth (0.5, values, G_N_ELEMENTS (values), out);
  g_assert_cmpfloat_with_epsilon (out[0], 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[1], 1.25 / 0.75, 1e-12);
  g_assert_cmpfloat_with_epsilon (out[2], 2.125 / 0.875, 1e-12);
  g_assert_true (isnan (out[3]));
  g_assert_cmpfloat_with_epsilon (out[4], 3.0625 / 0.9375, 1e-12);

  /* No smoothing gives the values back. */
  sl_series_smooth (0.0, values, G_N_ELEMENTS (values), out);
  g_assert_cmpfloat (out[1], ==, 2.0);
  g_assert_cmpfloat (out[4], ==, 4.0);
}

static void
test_smooth_constant_and_incremental (void)
{
  const double constant[] = { 0.1, 0.1, 0.1, 0.1 };
  double values[100], whole[100], parts[100];
  SlSeriesSmoother smoother;
  double out[4];

  sl_series_smooth (0.9, constant, 4, out);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (out[i], ==, 0.1);

  for (guint i = 0; i < 100; i++)
    values[i] = (i % 7 == 3) ? INFINITY : sin (i * 0.3) * 10 + i;
  sl_series_smooth (0.95, values, 100, whole);
  sl_series_smoother_init (&smoother, 0.95);
  sl_series_smoother_feed (&smoother, values, 37, parts);
  sl_series_smoother_feed (&smoother, values + 37, 63, parts + 37);
  for (guint i = 0; i < 100; i++)
    g_assert_cmpfloat (whole[i], ==, parts[i]);
  g_assert_true (isinf (whole[3]));
}

static gboolean
drawable (double v, gboolean log_y)
{
  return isfinite (v) && (!log_y || v > 0);
}

/* A pixel column the obvious way, for comparison. */
static void
naive_columns (const double *x,
               const double *y,
               guint         n,
               double        x_min,
               double        x_max,
               guint         width,
               gboolean      log_y,
               SlLodColumn  *columns)
{
  for (guint c = 0; c < width; c++)
    {
      double lo = sl_lod_column_edge (x_min, x_max, width, c);
      double hi = sl_lod_column_edge (x_min, x_max, width, c + 1);
      SlLodColumn *col = &columns[c];

      col->min = col->max = col->first = col->last = NAN;
      col->n = col->n_skipped = 0;
      for (guint i = 0; i < n; i++)
        {
          if (!(x[i] >= lo && x[i] < hi))
            continue;
          if (!drawable (y[i], log_y))
            {
              col->n_skipped++;
              continue;
            }
          if (col->n == 0)
            {
              col->min = col->max = col->first = y[i];
            }
          col->min = MIN (col->min, y[i]);
          col->max = MAX (col->max, y[i]);
          col->last = y[i];
          col->n++;
        }
    }
}

static void
assert_same_double (double a, double b)
{
  if (isnan (a))
    g_assert_true (isnan (b));
  else
    g_assert_cmpfloat (a, ==, b);
}

static void
test_lod_matches_naive (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint n = 20000;
  g_autofree double *x = g_new (double, n);
  g_autofree double *y = g_new (double, n);
  g_autoptr(SlSeriesLod) lod = sl_series_lod_new ();

  for (guint i = 0; i < n; i++)
    {
      double r = g_rand_double (rand);

      x[i] = i * 2.5 + (i % 3);
      y[i] = r < 0.01 ? NAN : r < 0.02 ? -INFINITY : g_rand_double_range (rand, -5, 100);
    }
  /* Appended in uneven pieces, as a live series grows. */
  sl_series_lod_append (lod, y, 1000);
  sl_series_lod_append (lod, y + 1000, 4097);
  sl_series_lod_append (lod, y + 5097, n - 5097);
  g_assert_cmpuint (sl_series_lod_get_n_points (lod), ==, n);

  for (guint round = 0; round < 60; round++)
    {
      guint width = g_rand_int_range (rand, 1, 400);
      double a = g_rand_double_range (rand, -100, x[n - 1] + 100);
      double b = g_rand_double_range (rand, -100, x[n - 1] + 100);
      gboolean log_y = round % 2;
      g_autofree SlLodColumn *got = g_new (SlLodColumn, width);
      g_autofree SlLodColumn *want = g_new (SlLodColumn, width);

      if (round == 0)
        a = x[0], b = x[n - 1] + 1;
      if (a > b)
        {
          double t = a;
          a = b;
          b = t;
        }

      sl_series_lod_query (lod, x, a, b, width, log_y, got);
      naive_columns (x, y, n, a, b, width, log_y, want);
      for (guint c = 0; c < width; c++)
        {
          g_assert_cmpuint (got[c].n, ==, want[c].n);
          g_assert_cmpuint (got[c].n_skipped, ==, want[c].n_skipped);
          assert_same_double (got[c].min, want[c].min);
          assert_same_double (got[c].max, want[c].max);
          assert_same_double (got[c].first, want[c].first);
          assert_same_double (got[c].last, want[c].last);
        }
    }

  /* After a restart the pyramid shrinks and grows again consistently. */
  sl_series_lod_truncate (lod, 4100);
  sl_series_lod_append (lod, y + 4100, n - 4100);
  {
    SlLodColumn got[7], want[7];

    sl_series_lod_query (lod, x, 10, 40000, 7, FALSE, got);
    naive_columns (x, y, n, 10, 40000, 7, FALSE, want);
    for (guint c = 0; c < 7; c++)
      {
        g_assert_cmpuint (got[c].n, ==, want[c].n);
        assert_same_double (got[c].min, want[c].min);
        assert_same_double (got[c].max, want[c].max);
      }
  }
}

static void
test_lod_nan_only (void)
{
  const double x[] = { 0, 1, 2, 3 };
  const double y[] = { NAN, NAN, -1, 0 };
  g_autoptr(SlSeriesLod) lod = sl_series_lod_new ();
  SlLodColumn col;

  sl_series_lod_append (lod, y, 4);
  sl_series_lod_range (lod, 0, 4, TRUE, &col);
  g_assert_cmpuint (col.n, ==, 0);
  g_assert_cmpuint (col.n_skipped, ==, 4);
  g_assert_true (isnan (col.min));
  sl_series_lod_range (lod, 0, 4, FALSE, &col);
  g_assert_cmpuint (col.n, ==, 2);
  g_assert_cmpfloat (col.min, ==, -1);
  g_assert_cmpfloat (col.max, ==, 0);
  g_assert_cmpfloat (col.first, ==, -1);
  g_assert_cmpfloat (col.last, ==, 0);
  g_assert_cmpuint (sl_lod_lower_bound (x, 4, 2.5), ==, 3);
}

static void
assert_ticks (GArray *ticks, const double *values, const char * const *labels, guint n)
{
  g_assert_cmpuint (ticks->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      SlChartTick *t = &g_array_index (ticks, SlChartTick, i);

      g_assert_cmpfloat_with_epsilon (t->value, values[i], fabs (values[i]) * 1e-9 + 1e-12);
      g_assert_cmpstr (t->label, ==, labels[i]);
    }
}

static void
test_ticks (void)
{
  g_autoptr(GArray) lin = sl_chart_ticks_linear (0.03, 0.97, 6);
  g_autoptr(GArray) lin2 = sl_chart_ticks_linear (-1000, 9000, 6);
  g_autoptr(GArray) logt = sl_chart_ticks_log (0.05, 2000, 8);
  g_autoptr(GArray) dur = sl_chart_ticks_duration (0, 300, 6);
  g_autoptr(GArray) hours = sl_chart_ticks_duration (0, 4 * 3600, 5);
  const double lin_v[] = { 0.2, 0.4, 0.6, 0.8 };
  const char *lin_l[] = { "0.2", "0.4", "0.6", "0.8" };
  const double lin2_v[] = { 0, 2000, 4000, 6000, 8000 };
  const char *lin2_l[] = { "0", "2000", "4000", "6000", "8000" };
  const double log_v[] = { 0.1, 1, 10, 100, 1000 };
  const char *log_l[] = { "0.1", "1", "10", "100", "1000" };
  const double dur_v[] = { 0, 60, 120, 180, 240, 300 };
  const char *dur_l[] = { "0 min", "1 min", "2 min", "3 min", "4 min", "5 min" };
  const double h_v[] = { 0, 3600, 7200, 10800, 14400 };
  const char *h_l[] = { "0 h", "1 h", "2 h", "3 h", "4 h" };

  assert_ticks (lin, lin_v, lin_l, G_N_ELEMENTS (lin_v));
  assert_ticks (lin2, lin2_v, lin2_l, G_N_ELEMENTS (lin2_v));
  assert_ticks (logt, log_v, log_l, G_N_ELEMENTS (log_v));
  assert_ticks (dur, dur_v, dur_l, G_N_ELEMENTS (dur_v));
  assert_ticks (hours, h_v, h_l, G_N_ELEMENTS (h_v));

  g_assert_cmpfloat (sl_chart_nice_step (0.13), ==, 0.2);
  g_assert_cmpfloat (sl_chart_nice_step (3), ==, 5);
  g_assert_cmpfloat (sl_chart_nice_step (7), ==, 10);
  g_assert_cmpfloat (sl_chart_nice_step (1), ==, 1);
}

static void
test_wall_ticks (void)
{
  /* TZ is UTC in this test (see main). 2024-01-01 10:00:00 UTC. */
  double t0 = 1704103200;
  g_autoptr(GArray) ticks = sl_chart_ticks_wall (t0 + 10, t0 + 3 * 3600, 4);
  const double v[] = { t0 + 3600, t0 + 7200, t0 + 10800 };
  const char *l[] = { "11:00", "12:00", "13:00" };
  g_autofree char *full = sl_chart_format_wall (t0 + 5);

  assert_ticks (ticks, v, l, G_N_ELEMENTS (v));
  g_assert_cmpstr (full, ==, "2024-01-01 10:00:05");
}

static void
test_robust_range (void)
{
  double values[101];
  double lo, hi;

  for (guint i = 0; i <= 100; i++)
    values[i] = i;
  values[100] = 1e9;  /* an outlier */
  values[50] = NAN;

  /* Sorted finite values 0..99 and 1e9 (100 values): 2nd percentile at
   * index floor (0.02 * 99) = 1, 98th at ceil (0.98 * 99) = 98. */
  g_assert_true (sl_chart_robust_range (values, 101, FALSE, &lo, &hi));
  g_assert_cmpfloat_with_epsilon (lo, 1 - 9.8, 1e-9);
  g_assert_cmpfloat_with_epsilon (hi, 99 + 9.8, 1e-9);

  g_assert_false (sl_chart_robust_range (values + 50, 1, FALSE, &lo, &hi));
  values[0] = -1;
  g_assert_true (sl_chart_robust_range (values, 1, TRUE, &lo, &hi) == FALSE);
}

static void
test_nearest (void)
{
  const double x[] = { 0, 10, 20, 30 };

  g_assert_cmpuint (sl_chart_find_nearest (x, 4, -5), ==, 0);
  g_assert_cmpuint (sl_chart_find_nearest (x, 4, 14), ==, 1);
  g_assert_cmpuint (sl_chart_find_nearest (x, 4, 15), ==, 1);
  g_assert_cmpuint (sl_chart_find_nearest (x, 4, 16), ==, 2);
  g_assert_cmpuint (sl_chart_find_nearest (x, 4, 99), ==, 3);
  g_assert_cmpuint (sl_chart_find_nearest (x, 0, 1), ==, G_MAXUINT);
}

int
main (int argc, char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_setenv ("LC_ALL", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/smooth/hand-computed", test_smooth_hand_computed);
  g_test_add_func ("/chart/smooth/constant-incremental", test_smooth_constant_and_incremental);
  g_test_add_func ("/chart/lod/matches-naive", test_lod_matches_naive);
  g_test_add_func ("/chart/lod/nan", test_lod_nan_only);
  g_test_add_func ("/chart/axis/ticks", test_ticks);
  g_test_add_func ("/chart/axis/wall-ticks", test_wall_ticks);
  g_test_add_func ("/chart/axis/robust-range", test_robust_range);
  g_test_add_func ("/chart/axis/nearest", test_nearest);

  return g_test_run ();
}
