/* sl-chart-axis.h: axis arithmetic for charts
 *
 * Tick positions and labels (1-2-5 steps, log decades, durations and
 * clock times), a y range that ignores outliers, and the nearest point to
 * an x for tooltips. Pure functions, so they are tested without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_CHART_X_STEP,
  SL_CHART_X_RELATIVE,
  SL_CHART_X_WALL,
} SlChartXMode;

typedef struct {
  double  value;
  char   *label;
} SlChartTick;

GArray  *sl_chart_ticks_linear     (double        min,
                                    double        max,
                                    guint         max_ticks);
GArray  *sl_chart_ticks_log        (double        min,
                                    double        max,
                                    guint         max_ticks);
GArray  *sl_chart_ticks_duration   (double        min,
                                    double        max,
                                    guint         max_ticks);
GArray  *sl_chart_ticks_wall       (double        min,
                                    double        max,
                                    guint         max_ticks);
double   sl_chart_nice_step        (double        rough);
char    *sl_chart_format_value     (double        value);
char    *sl_chart_format_duration  (double        seconds);
char    *sl_chart_format_wall      (double        seconds);
gboolean sl_chart_robust_range     (const double *values,
                                    guint         n,
                                    gboolean      log_y,
                                    double       *min,
                                    double       *max);
guint    sl_chart_find_nearest     (const double *x,
                                    guint         n,
                                    double        at);

G_END_DECLS
