/* sl-chart-axis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "sl-chart-axis.h"

/* The largest sample the outlier range sorts; larger series are sampled
 * at an even stride, which moves a percentile by a negligible amount. */
#define ROBUST_SAMPLE 200000u

static void
tick_clear (gpointer data)
{
  SlChartTick *tick = data;

  g_clear_pointer (&tick->label, g_free);
}

static GArray *
ticks_new (void)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (SlChartTick));

  g_array_set_clear_func (ticks, tick_clear);
  return ticks;
}

static void
ticks_add (GArray *ticks,
           double  value,
           char   *label)
{
  SlChartTick tick = { value, label };

  g_array_append_val (ticks, tick);
}

/**
 * sl_chart_nice_step:
 *
 * Returns: the smallest 1, 2 or 5 times a power of ten that is >= @rough
 */
double
sl_chart_nice_step (double rough)
{
  double mag, f;

  if (!(rough > 0) || !isfinite (rough))
    return 1.0;

  mag = pow (10.0, floor (log10 (rough)));
  f = rough / mag;
  /* A little slack: 1.0000001 must not become 2. */
  if (f <= 1.0 + 1e-9)
    return mag;
  if (f <= 2.0 + 1e-9)
    return 2 * mag;
  if (f <= 5.0 + 1e-9)
    return 5 * mag;
  return 10 * mag;
}

/**
 * sl_chart_format_value:
 *
 * Short enough for tooltips and exact enough to tell points apart: four
 * significant digits.
 */
char *
sl_chart_format_value (double value)
{
  if (isnan (value))
    return g_strdup ("NaN");
  if (isinf (value))
    return g_strdup (value > 0 ? "+Inf" : "-Inf");
  if (value == 0)
    return g_strdup ("0");
  return g_strdup_printf ("%.4g", value);
}

static guint
precision_for_step (double step)
{
  if (step >= 1)
    return 0;
  return (guint) MIN (12, ceil (-log10 (step) - 1e-9));
}

/**
 * sl_chart_ticks_linear:
 *
 * Returns: (transfer full) (element-type SlChartTick): at most about
 *   @max_ticks ticks at a 1-2-5 step inside [@min, @max]
 */
GArray *
sl_chart_ticks_linear (double min,
                       double max,
                       guint  max_ticks)
{
  GArray *ticks = ticks_new ();
  double step, first;
  guint prec;
  gboolean big;

  if (!isfinite (min) || !isfinite (max) || max <= min || max_ticks < 2)
    return ticks;

  step = sl_chart_nice_step ((max - min) / max_ticks);
  first = ceil (min / step - 1e-9) * step;
  prec = precision_for_step (step);
  big = MAX (fabs (min), fabs (max)) >= 1e7 || step < 1e-6;

  for (guint i = 0; i < 1000; i++)
    {
      double v = first + i * step;

      if (v > max + step * 1e-9)
        break;
      if (fabs (v) < step * 1e-9)
        v = 0;
      ticks_add (ticks, v, big ? g_strdup_printf ("%.3g", v) : g_strdup_printf ("%.*f", (int)prec, v));
    }

  return ticks;
}

/**
 * sl_chart_ticks_log:
 *
 * Returns: (transfer full) (element-type SlChartTick): powers of ten, every
 *   k-th decade when there are many, or 1-2-5 within a single decade
 */
GArray *
sl_chart_ticks_log (double min,
                    double max,
                    guint  max_ticks)
{
  GArray *ticks = ticks_new ();
  int lo, hi, every;

  if (!(min > 0) || !isfinite (max) || max <= min || max_ticks < 2)
    return ticks;

  lo = (int)ceil (log10 (min) - 1e-9);
  hi = (int)floor (log10 (max) + 1e-9);

  if (hi - lo < 1)
    {
      /* Less than two decades shown: 1, 2 and 5 times the decades. */
      static const double mult[] = { 1, 2, 5 };

      for (int d = lo - 1; d <= hi; d++)
        for (guint m = 0; m < G_N_ELEMENTS (mult); m++)
          {
            double v = mult[m] * pow (10.0, d);

            if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9))
              ticks_add (ticks, v, sl_chart_format_value (v));
          }
      return ticks;
    }

  every = MAX (1, (hi - lo + 1 + (int)max_ticks - 1) / (int)max_ticks);
  for (int d = lo; d <= hi; d++)
    {
      double v;

      if (d % every != 0)
        continue;
      v = pow (10.0, d);
      ticks_add (ticks, v, sl_chart_format_value (v));
    }

  return ticks;
}

/* Steps a person reads a clock in, in seconds. */
static const double time_steps[] = {
  0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
  1, 2, 5, 10, 15, 30,
  60, 120, 300, 600, 900, 1800,
  3600, 7200, 10800, 21600, 43200,
  86400, 172800, 604800, 1209600, 2592000, 7776000, 31536000,
};

static double
time_step (double min,
           double max,
           guint  max_ticks)
{
  double rough = (max - min) / MAX (1, max_ticks - 1);

  for (guint i = 0; i < G_N_ELEMENTS (time_steps); i++)
    if (time_steps[i] >= rough)
      return time_steps[i];
  return sl_chart_nice_step (rough / 31536000) * 31536000;
}

/**
 * sl_chart_format_duration:
 *
 * Returns: a duration in the largest unit it fills: "45 s", "1.5 min",
 *   "2 h", "3 d"
 */
char *
sl_chart_format_duration (double seconds)
{
  double a = fabs (seconds);

  if (!isfinite (seconds))
    return sl_chart_format_value (seconds);
  if (a == 0)
    /* TRANSLATORS: zero seconds on a time axis */
    return g_strdup (_("0 s"));
  if (a < 60)
    /* TRANSLATORS: a duration in seconds */
    return g_strdup_printf (_("%.4g s"), seconds);
  if (a < 3600)
    /* TRANSLATORS: a duration in minutes */
    return g_strdup_printf (_("%.4g min"), seconds / 60);
  if (a < 86400)
    /* TRANSLATORS: a duration in hours */
    return g_strdup_printf (_("%.4g h"), seconds / 3600);
  /* TRANSLATORS: a duration in days */
  return g_strdup_printf (_("%.4g d"), seconds / 86400);
}

/* @seconds in the unit sl_chart_format_duration() gives @like. */
static char *
format_duration_like (double seconds,
                      double like)
{
  double a = fabs (like);

  if (seconds == 0)
    seconds = 0; /* not "-0" */
  if (a < 60)
    return g_strdup_printf (_("%.4g s"), seconds);
  if (a < 3600)
    return g_strdup_printf (_("%.4g min"), seconds / 60);
  if (a < 86400)
    return g_strdup_printf (_("%.4g h"), seconds / 3600);
  return g_strdup_printf (_("%.4g d"), seconds / 86400);
}

/**
 * sl_chart_ticks_duration:
 *
 * Returns: (transfer full) (element-type SlChartTick): ticks at whole
 *   seconds, minutes, hours or days for a relative time axis
 */
GArray *
sl_chart_ticks_duration (double min,
                         double max,
                         guint  max_ticks)
{
  GArray *ticks = ticks_new ();
  double step, top = 0;

  if (!isfinite (min) || !isfinite (max) || max <= min || max_ticks < 2)
    return ticks;

  step = time_step (min, max, max_ticks);
  for (double v = ceil (min / step - 1e-9) * step; v <= max + step * 1e-9; v += step)
    ticks_add (ticks, v, NULL);

  /* One unit for the whole axis, the one its largest tick fills:
   * "0 min", "1 min", never "0 s" under "1 min". */
  for (guint i = 0; i < ticks->len; i++)
    top = MAX (top, fabs (g_array_index (ticks, SlChartTick, i).value));
  for (guint i = 0; i < ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (ticks, SlChartTick, i);

      tick->label = format_duration_like (tick->value, top);
    }

  return ticks;
}

/**
 * sl_chart_format_wall:
 *
 * Returns: the local date and time of @seconds since the epoch
 */
char *
sl_chart_format_wall (double seconds)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local ((gint64)floor (seconds));

  if (dt == NULL)
    return sl_chart_format_value (seconds);
  return g_date_time_format (dt, "%Y-%m-%d %H:%M:%S");
}

/**
 * sl_chart_ticks_wall:
 *
 * Returns: (transfer full) (element-type SlChartTick): ticks at round
 *   local clock times; the label shows the date when the step is a day
 *   or more, the seconds when it is under a minute
 */
GArray *
sl_chart_ticks_wall (double min,
                     double max,
                     guint  max_ticks)
{
  GArray *ticks = ticks_new ();
  g_autoptr(GDateTime) origin = NULL;
  double step, offset;
  const char *format;

  if (!isfinite (min) || !isfinite (max) || max <= min || max_ticks < 2)
    return ticks;

  step = time_step (min, max, max_ticks);
  /* Round in local time: a tick at 00:00 local, not UTC. */
  origin = g_date_time_new_from_unix_local ((gint64)floor (min));
  offset = origin ? (double)g_date_time_get_utc_offset (origin) / G_TIME_SPAN_SECOND : 0;
  if (step >= 86400)
    format = "%b %d";
  else if (step >= 60)
    format = "%H:%M";
  else
    format = "%H:%M:%S";

  for (double v = ceil ((min + offset) / step - 1e-9) * step - offset; v <= max + step * 1e-9; v += step)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local ((gint64)round (v));

      if (dt != NULL)
        ticks_add (ticks, v, g_date_time_format (dt, format));
    }

  return ticks;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/**
 * sl_chart_robust_range:
 *
 * The y range ignoring outliers: from the 2nd to the 98th percentile of
 * the drawable values, widened by 10 % of that span on each side (on a
 * log axis, in decades). Sorts a copy, or an evenly strided sample of a
 * long series.
 *
 * Returns: %FALSE when there is no drawable value
 */
gboolean
sl_chart_robust_range (const double *values,
                       guint         n,
                       gboolean      log_y,
                       double       *min,
                       double       *max)
{
  g_autofree double *sample = NULL;
  guint stride = MAX (1, n / ROBUST_SAMPLE);
  guint m = 0, lo_i, hi_i;
  double lo, hi, margin;

  g_return_val_if_fail (n == 0 || values != NULL, FALSE);

  sample = g_new (double, n / stride + 1);
  for (guint i = 0; i < n; i += stride)
    {
      double v = values[i];

      if (isfinite (v) && (!log_y || v > 0))
        sample[m++] = log_y ? log10 (v) : v;
    }
  if (m == 0)
    return FALSE;

  qsort (sample, m, sizeof (double), compare_double);
  lo_i = (guint)floor (0.02 * (m - 1));
  hi_i = (guint)ceil (0.98 * (m - 1));
  lo = sample[lo_i];
  hi = sample[hi_i];
  margin = (hi - lo) * 0.1;
  if (margin == 0)
    margin = log_y ? 0.5 : MAX (fabs (lo) * 0.1, 0.5);
  lo -= margin;
  hi += margin;

  if (log_y)
    {
      lo = pow (10.0, lo);
      hi = pow (10.0, hi);
    }
  if (min != NULL)
    *min = lo;
  if (max != NULL)
    *max = hi;

  return TRUE;
}

/**
 * sl_chart_find_nearest:
 * @x: ascending
 *
 * Returns: the index of the point whose x is nearest to @at (the earlier
 *   one on a tie); G_MAXUINT when @n is 0
 */
guint
sl_chart_find_nearest (const double *x,
                       guint         n,
                       double        at)
{
  guint lo = 0, hi = n;

  if (n == 0)
    return G_MAXUINT;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (x[mid] < at)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo == 0)
    return 0;
  if (lo == n)
    return n - 1;
  return (at - x[lo - 1] <= x[lo] - at) ? lo - 1 : lo;
}
