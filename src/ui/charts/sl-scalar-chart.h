/* sl-scalar-chart.h: a chart of scalar series (training curves)
 *
 * Draws runs × tags overlaid, with a legend to toggle them, TensorBoard
 * smoothing, step / relative / wall time, linear or log y, an
 * outlier-free y range, box zoom (secondary button or Shift+drag), pan
 * (drag), Ctrl+wheel zoom, double-click reset, a hover tooltip and
 * threshold highlighting. Exports the picture and the data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-scalar-chart-renderer.h"

G_BEGIN_DECLS

#define SL_TYPE_SCALAR_CHART (sl_scalar_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlScalarChart, sl_scalar_chart, SL, SCALAR_CHART, GtkWidget)

GtkWidget             *sl_scalar_chart_new                 (void);
SlScalarChartRenderer *sl_scalar_chart_get_renderer        (SlScalarChart      *self);
guint                  sl_scalar_chart_add_series          (SlScalarChart      *self,
                                                            SlScalarSeries     *series,
                                                            const char         *name);
void                   sl_scalar_chart_set_series_visible  (SlScalarChart      *self,
                                                            guint               index,
                                                            gboolean            visible);
void                   sl_scalar_chart_set_x_mode          (SlScalarChart      *self,
                                                            SlChartXMode        mode);
void                   sl_scalar_chart_set_smoothing       (SlScalarChart      *self,
                                                            double              weight);
gboolean               sl_scalar_chart_is_smoothing_busy   (SlScalarChart      *self);
void                   sl_scalar_chart_set_log_y           (SlScalarChart      *self,
                                                            gboolean            log_y);
void                   sl_scalar_chart_set_ignore_outliers (SlScalarChart      *self,
                                                            gboolean            ignore);
void                   sl_scalar_chart_set_threshold       (SlScalarChart      *self,
                                                            SlChartThreshold    mode,
                                                            double              value);
void                   sl_scalar_chart_zoom_to             (SlScalarChart      *self,
                                                            double              x_min,
                                                            double              x_max,
                                                            double              y_min,
                                                            double              y_max);
void                   sl_scalar_chart_zoom_at             (SlScalarChart      *self,
                                                            double              px,
                                                            double              factor);
void                   sl_scalar_chart_pan                 (SlScalarChart      *self,
                                                            double              dx,
                                                            double              dy);
void                   sl_scalar_chart_reset_view          (SlScalarChart      *self);
void                   sl_scalar_chart_get_view            (SlScalarChart      *self,
                                                            double             *x_min,
                                                            double             *x_max,
                                                            double             *y_min,
                                                            double             *y_max);
char                  *sl_scalar_chart_get_tooltip_at      (SlScalarChart      *self,
                                                            double              x);
gboolean               sl_scalar_chart_export              (SlScalarChart      *self,
                                                            const char         *path,
                                                            SlChartImageFormat  format,
                                                            GError            **error);
void                   sl_scalar_chart_export_data_async  (SlScalarChart       *self,
                                                           GFile               *file,
                                                           SlChartDataFormat    format,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean               sl_scalar_chart_export_data_finish (SlScalarChart       *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

G_END_DECLS
