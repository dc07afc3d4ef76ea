/* sl-scalar-series.h: one scalar tag of one run, every point kept
 *
 * Columnar arrays (step, wall time, value), appended as a run is read and
 * while training writes it. A step that goes backwards (a restarted job)
 * drops the points written before it from that step on and keeps those
 * written after it, as TensorBoard does, and is counted so views can say
 * so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_SCALAR_SERIES (sl_scalar_series_get_type ())
G_DECLARE_FINAL_TYPE (SlScalarSeries, sl_scalar_series, SL, SCALAR_SERIES, GObject)

SlScalarSeries *sl_scalar_series_new              (const char     *tag);
const char     *sl_scalar_series_get_tag          (SlScalarSeries *self);
guint           sl_scalar_series_get_n_points     (SlScalarSeries *self);
const gint64   *sl_scalar_series_get_steps        (SlScalarSeries *self);
const double   *sl_scalar_series_get_wall_times   (SlScalarSeries *self);
const double   *sl_scalar_series_get_values       (SlScalarSeries *self);
void            sl_scalar_series_append           (SlScalarSeries *self,
                                                   gint64          step,
                                                   double          wall_time,
                                                   double          value);
guint           sl_scalar_series_get_n_restarts   (SlScalarSeries *self);
guint           sl_scalar_series_get_n_dropped    (SlScalarSeries *self);
gboolean        sl_scalar_series_get_last_restart (SlScalarSeries *self,
                                                   gint64         *from,
                                                   gint64         *to);
gboolean        sl_scalar_series_get_value_range  (SlScalarSeries *self,
                                                   double         *min,
                                                   double         *max);
guint           sl_scalar_series_find_step        (SlScalarSeries *self,
                                                   gint64          step);
void            sl_scalar_series_absorb           (SlScalarSeries *self,
                                                   SlScalarSeries *delta);

G_END_DECLS
