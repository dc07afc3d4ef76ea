/* sl-tensor-overlay-chart.h: the NPU and benchmark distributions of a
 * tensor pair, overlaid on common bins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-tensor-pair-detail.h"

G_BEGIN_DECLS

#define SL_TYPE_TENSOR_OVERLAY_CHART (sl_tensor_overlay_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorOverlayChart, sl_tensor_overlay_chart, SL, TENSOR_OVERLAY_CHART, GtkWidget)

GtkWidget *sl_tensor_overlay_chart_new           (void);
/* Copies the bins; NULL clears the chart. */
void       sl_tensor_overlay_chart_set_histogram (SlTensorOverlayChart        *self,
                                                  const SlTensorPairHistogram *histogram);
gboolean   sl_tensor_overlay_chart_has_data      (SlTensorOverlayChart        *self);
char      *sl_tensor_overlay_chart_describe_at   (SlTensorOverlayChart        *self,
                                                  double                       x,
                                                  double                       y);
void       sl_tensor_overlay_chart_draw          (SlTensorOverlayChart        *self,
                                                  cairo_t                     *cr,
                                                  int                          width,
                                                  int                          height);

G_END_DECLS
