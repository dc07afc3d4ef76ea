/* sl-scalar-chart-renderer.h: draws scalar series into any cairo context
 *
 * Holds the series of one chart (x arrays per mode, smoothed values and
 * the level of detail of both) and the view (ranges, scales, threshold).
 * sl_scalar_chart_renderer_prepare() does the per-frame work for a size;
 * sl_scalar_chart_renderer_draw() then only reads what it prepared, so the
 * widget, the exports and the benchmark draw through the same code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "sl-chart-axis.h"
#include "sl-scalar-series.h"
#include "sl-series-smoother.h"

G_BEGIN_DECLS

typedef enum {
  SL_CHART_THRESHOLD_NONE,
  SL_CHART_THRESHOLD_ABOVE,
  SL_CHART_THRESHOLD_BELOW,
} SlChartThreshold;

typedef enum {
  SL_CHART_IMAGE_PNG,
  SL_CHART_IMAGE_SVG,
  SL_CHART_IMAGE_PDF,
} SlChartImageFormat;

typedef enum {
  SL_CHART_DATA_CSV,
  SL_CHART_DATA_JSON,
} SlChartDataFormat;

#define SL_TYPE_SCALAR_CHART_RENDERER (sl_scalar_chart_renderer_get_type ())
G_DECLARE_FINAL_TYPE (SlScalarChartRenderer, sl_scalar_chart_renderer, SL, SCALAR_CHART_RENDERER, GObject)

SlScalarChartRenderer *sl_scalar_chart_renderer_new                 (void);
guint                  sl_scalar_chart_renderer_add_series          (SlScalarChartRenderer *self,
                                                                     SlScalarSeries        *series,
                                                                     const char            *name);
void                   sl_scalar_chart_renderer_clear               (SlScalarChartRenderer *self);
guint                  sl_scalar_chart_renderer_get_n_series        (SlScalarChartRenderer *self);
SlScalarSeries        *sl_scalar_chart_renderer_get_series          (SlScalarChartRenderer *self,
                                                                     guint                  index);
const char            *sl_scalar_chart_renderer_get_series_name     (SlScalarChartRenderer *self,
                                                                     guint                  index);
void                   sl_scalar_chart_renderer_set_series_visible  (SlScalarChartRenderer *self,
                                                                     guint                  index,
                                                                     gboolean               visible);
gboolean               sl_scalar_chart_renderer_get_series_visible  (SlScalarChartRenderer *self,
                                                                     guint                  index);
void                   sl_scalar_chart_renderer_set_x_mode          (SlScalarChartRenderer *self,
                                                                     SlChartXMode           mode);
SlChartXMode           sl_scalar_chart_renderer_get_x_mode          (SlScalarChartRenderer *self);
void                   sl_scalar_chart_renderer_set_smoothing       (SlScalarChartRenderer *self,
                                                                     double                 weight);
double                 sl_scalar_chart_renderer_get_smoothing       (SlScalarChartRenderer *self);
void                   sl_scalar_chart_renderer_install_smoothed    (SlScalarChartRenderer  *self,
                                                                     guint                   index,
                                                                     const SlSeriesSmoother *state,
                                                                     const double           *smoothed,
                                                                     guint                   n);
void                   sl_scalar_chart_renderer_set_log_y           (SlScalarChartRenderer *self,
                                                                     gboolean               log_y);
gboolean               sl_scalar_chart_renderer_get_log_y           (SlScalarChartRenderer *self);
void                   sl_scalar_chart_renderer_set_ignore_outliers (SlScalarChartRenderer *self,
                                                                     gboolean               ignore);
gboolean               sl_scalar_chart_renderer_get_ignore_outliers (SlScalarChartRenderer *self);
void                   sl_scalar_chart_renderer_set_threshold       (SlScalarChartRenderer *self,
                                                                     SlChartThreshold       mode,
                                                                     double                 value);
void                   sl_scalar_chart_renderer_set_dark            (SlScalarChartRenderer *self,
                                                                     gboolean               dark,
                                                                     const double           foreground[3]);
void                   sl_scalar_chart_renderer_set_font            (SlScalarChartRenderer *self,
                                                                     const PangoFontDescription *font);
void                   sl_scalar_chart_renderer_set_x_view          (SlScalarChartRenderer *self,
                                                                     double                 x_min,
                                                                     double                 x_max);
void                   sl_scalar_chart_renderer_set_y_view          (SlScalarChartRenderer *self,
                                                                     double                 y_min,
                                                                     double                 y_max);
void                   sl_scalar_chart_renderer_reset_view          (SlScalarChartRenderer *self);
void                   sl_scalar_chart_renderer_get_view            (SlScalarChartRenderer *self,
                                                                     double                *x_min,
                                                                     double                *x_max,
                                                                     double                *y_min,
                                                                     double                *y_max);
void                   sl_scalar_chart_renderer_get_data_extent     (SlScalarChartRenderer *self,
                                                                     double                *x_min,
                                                                     double                *x_max);
void                   sl_scalar_chart_renderer_prepare             (SlScalarChartRenderer *self,
                                                                     int                    width,
                                                                     int                    height);
void                   sl_scalar_chart_renderer_draw                (SlScalarChartRenderer *self,
                                                                     cairo_t               *cr);
void                   sl_scalar_chart_renderer_get_plot_area       (SlScalarChartRenderer *self,
                                                                     cairo_rectangle_t     *area);
double                 sl_scalar_chart_renderer_pixel_to_x          (SlScalarChartRenderer *self,
                                                                     double                 px);
double                 sl_scalar_chart_renderer_pixel_to_y          (SlScalarChartRenderer *self,
                                                                     double                 py);
int                    sl_scalar_chart_renderer_legend_hit          (SlScalarChartRenderer *self,
                                                                     double                 px,
                                                                     double                 py);
void                   sl_scalar_chart_renderer_set_hover           (SlScalarChartRenderer *self,
                                                                     double                 x);
void                   sl_scalar_chart_renderer_set_selection       (SlScalarChartRenderer *self,
                                                                     const cairo_rectangle_t *box);
char                  *sl_scalar_chart_renderer_describe_at         (SlScalarChartRenderer *self,
                                                                     double                 x);
gboolean               sl_scalar_chart_renderer_export_image        (SlScalarChartRenderer *self,
                                                                     const char            *path,
                                                                     SlChartImageFormat     format,
                                                                     int                    width,
                                                                     int                    height,
                                                                     GError               **error);
GBytes                *sl_scalar_chart_renderer_format_data         (SlScalarChartRenderer *self,
                                                                     SlChartDataFormat      format);

void                   sl_scalar_chart_renderer_set_series_palette_index (SlScalarChartRenderer *self,
                                                                          guint                  index,
                                                                          guint                  palette_index);
guint                  sl_scalar_chart_renderer_get_palette_size         (void);
void                   sl_scalar_chart_renderer_get_palette_color        (guint                  index,
                                                                          double                 rgb[3]);
void                   sl_scalar_chart_renderer_get_theme_palette_color  (guint                  index,
                                                                          gboolean               dark,
                                                                          double                 rgb[3]);

G_END_DECLS
