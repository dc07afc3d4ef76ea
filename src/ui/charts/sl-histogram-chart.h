/* sl-histogram-chart.h: weight and gradient distributions over steps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-histogram-series.h"

G_BEGIN_DECLS

typedef enum {
  SL_HISTOGRAM_OFFSET,   /* ridgeline: one curve per step, older steps behind */
  SL_HISTOGRAM_OVERLAY,  /* every step on one baseline, the chosen one on top */
} SlHistogramMode;

#define SL_TYPE_HISTOGRAM_CHART (sl_histogram_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlHistogramChart, sl_histogram_chart, SL, HISTOGRAM_CHART, GtkWidget)

GtkWidget *sl_histogram_chart_new            (SlHistogramSeries *series,
                                              guint              palette_index);
void       sl_histogram_chart_set_mode       (SlHistogramChart  *self,
                                              SlHistogramMode    mode);
void       sl_histogram_chart_set_step_index (SlHistogramChart  *self,
                                              guint              index);
guint      sl_histogram_chart_get_n_drawn    (SlHistogramChart  *self);
gboolean   sl_histogram_chart_refresh        (SlHistogramChart  *self);
guint      sl_histogram_chart_get_step_index (SlHistogramChart  *self);
guint      sl_histogram_chart_get_n_steps    (SlHistogramChart  *self);
char      *sl_histogram_chart_describe_at    (SlHistogramChart  *self,
                                              double             x,
                                              double             y);
GStrv      sl_histogram_chart_get_step_labels (SlHistogramChart *self,
                                               int               height,
                                               GArray          **baselines);
void       sl_histogram_chart_draw           (SlHistogramChart  *self,
                                              cairo_t           *cr,
                                              int                width,
                                              int                height);

G_END_DECLS
