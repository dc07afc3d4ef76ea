/* sl-histogram-series.h: one histogram tag of one run, every step kept
 *
 * Columnar: per point the step, wall time and summary statistics, and
 * the buckets of all points in flat arrays (left edge, width, count) with
 * each point's first bucket index. A step that goes backwards drops the
 * later points, as for scalars.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
  double min;
  double max;
  double sum;
  gint64 count;
  gint64 nan_count;
  gint64 pos_inf_count;
  gint64 neg_inf_count;
} SlHistogramStats;

#define SL_TYPE_HISTOGRAM_SERIES (sl_histogram_series_get_type ())
G_DECLARE_FINAL_TYPE (SlHistogramSeries, sl_histogram_series, SL, HISTOGRAM_SERIES, GObject)

SlHistogramSeries      *sl_histogram_series_new              (const char             *tag);
const char             *sl_histogram_series_get_tag          (SlHistogramSeries      *self);
guint                   sl_histogram_series_get_n_points     (SlHistogramSeries      *self);
const gint64           *sl_histogram_series_get_steps        (SlHistogramSeries      *self);
const double           *sl_histogram_series_get_wall_times   (SlHistogramSeries      *self);
const SlHistogramStats *sl_histogram_series_get_stats        (SlHistogramSeries      *self,
                                                              guint                   index);
guint                   sl_histogram_series_get_buckets      (SlHistogramSeries      *self,
                                                              guint                   index,
                                                              const double          **lefts,
                                                              const double          **widths,
                                                              const double          **counts);
void                    sl_histogram_series_append           (SlHistogramSeries      *self,
                                                              gint64                  step,
                                                              double                  wall_time,
                                                              const SlHistogramStats *stats,
                                                              guint                   n_buckets,
                                                              const double           *lefts,
                                                              const double           *widths,
                                                              const double           *counts);
guint                   sl_histogram_series_get_n_restarts   (SlHistogramSeries      *self);
void                    sl_histogram_series_absorb           (SlHistogramSeries      *self,
                                                              SlHistogramSeries      *delta);

G_END_DECLS
