/* sl-tensor-view.h: one tensor tag of one run, step by step, through a
 * NumPy slice, as a table, a heatmap or a histogram with statistics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-tensor-frame.h"
#include "sl-tensor-series.h"

G_BEGIN_DECLS

typedef enum {
  SL_TENSOR_STAT_MIN,
  SL_TENSOR_STAT_MAX,
  SL_TENSOR_STAT_MEAN,
  SL_TENSOR_STAT_STD,
  SL_TENSOR_STAT_NAN,
  SL_TENSOR_STAT_POS_INF,
  SL_TENSOR_STAT_NEG_INF,
  SL_TENSOR_STAT_ZERO,
  SL_TENSOR_STAT_COUNT,
} SlTensorStat;

/* Above this much work (values read, about three passes over the cells of
 * the view), statistics are computed in a worker. */
#define SL_TENSOR_VIEW_INLINE_LIMIT (1 << 20)

#define SL_TYPE_TENSOR_VIEW (sl_tensor_view_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorView, sl_tensor_view, SL, TENSOR_VIEW, GtkBox)

GtkWidget     *sl_tensor_view_new             (SlTensorSeries *series,
                                               const char     *run_name);
SlTensorSeries *sl_tensor_view_get_series     (SlTensorView   *self);
const char    *sl_tensor_view_get_tag         (SlTensorView   *self);
void           sl_tensor_view_update          (SlTensorView   *self);
void           sl_tensor_view_set_mode        (SlTensorView   *self,
                                               const char     *mode);
const char    *sl_tensor_view_get_mode        (SlTensorView   *self);
void           sl_tensor_view_set_slice       (SlTensorView   *self,
                                               const char     *text);
const char    *sl_tensor_view_get_slice_error (SlTensorView   *self);
void           sl_tensor_view_set_step_index  (SlTensorView   *self,
                                               guint           index);
guint          sl_tensor_view_get_step_index  (SlTensorView   *self);
void           sl_tensor_view_set_precision   (SlTensorView   *self,
                                               guint           digits);
gboolean       sl_tensor_view_is_busy         (SlTensorView   *self);
SlTensorFrame *sl_tensor_view_get_frame       (SlTensorView   *self);
const char    *sl_tensor_view_get_stat_text   (SlTensorView   *self,
                                               gboolean        of_view,
                                               SlTensorStat    stat);
const char    *sl_tensor_view_get_shape_text  (SlTensorView   *self);
GtkWidget     *sl_tensor_view_get_grid        (SlTensorView   *self);
GtkWidget     *sl_tensor_view_get_plot        (SlTensorView   *self,
                                               const char     *mode);
GVariant      *sl_tensor_view_save_state      (SlTensorView   *self);
void           sl_tensor_view_restore_state   (SlTensorView   *self,
                                               GVariant       *state);

G_END_DECLS
