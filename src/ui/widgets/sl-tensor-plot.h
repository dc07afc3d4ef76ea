/* sl-tensor-plot.h: a tensor view drawn as a heatmap or a histogram
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-tensor-frame.h"

G_BEGIN_DECLS

typedef enum {
  SL_TENSOR_PLOT_HEATMAP,
  SL_TENSOR_PLOT_HISTOGRAM,
} SlTensorPlotMode;

#define SL_TYPE_TENSOR_PLOT (sl_tensor_plot_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorPlot, sl_tensor_plot, SL, TENSOR_PLOT, GtkWidget)

GtkWidget *sl_tensor_plot_new           (SlTensorPlotMode  mode);
void       sl_tensor_plot_set_mode      (SlTensorPlot     *self,
                                         SlTensorPlotMode  mode);
void       sl_tensor_plot_set_frame     (SlTensorPlot     *self,
                                         SlTensorFrame    *frame);
void       sl_tensor_plot_set_precision (SlTensorPlot     *self,
                                         guint             digits);
char      *sl_tensor_plot_describe_at   (SlTensorPlot     *self,
                                         double            x,
                                         double            y);
void       sl_tensor_plot_set_hover     (SlTensorPlot     *self,
                                         double            x,
                                         double            y);

G_END_DECLS
