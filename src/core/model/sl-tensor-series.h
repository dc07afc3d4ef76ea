/* sl-tensor-series.h: one tensor tag of one run, every step kept
 *
 * Per point the step, wall time, data type (MindSpore's DataType numbers),
 * dimensions and values converted to doubles, in flat arrays.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_TENSOR_SERIES (sl_tensor_series_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorSeries, sl_tensor_series, SL, TENSOR_SERIES, GObject)

SlTensorSeries *sl_tensor_series_new             (const char     *tag);
const char     *sl_tensor_series_get_tag         (SlTensorSeries *self);
guint           sl_tensor_series_get_n_points    (SlTensorSeries *self);
const gint64   *sl_tensor_series_get_steps       (SlTensorSeries *self);
const double   *sl_tensor_series_get_wall_times  (SlTensorSeries *self);
int             sl_tensor_series_get_dtype       (SlTensorSeries *self,
                                                  guint           index);
guint           sl_tensor_series_get_dims        (SlTensorSeries *self,
                                                  guint           index,
                                                  const gint64  **dims);
gsize           sl_tensor_series_get_values      (SlTensorSeries *self,
                                                  guint           index,
                                                  const double  **values);
void            sl_tensor_series_append          (SlTensorSeries *self,
                                                  gint64          step,
                                                  double          wall_time,
                                                  int             dtype,
                                                  guint           n_dims,
                                                  const gint64   *dims,
                                                  gsize           n_values,
                                                  const double   *values);
guint           sl_tensor_series_get_n_restarts  (SlTensorSeries *self);
void            sl_tensor_series_absorb          (SlTensorSeries *self,
                                                  SlTensorSeries *delta);

G_END_DECLS
