/* sl-tuner-curves.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tuner-config.h"

G_BEGIN_DECLS

typedef struct _SlTunerCurves SlTunerCurves;

SlTunerCurves *sl_tuner_curves_compute        (SlTunerConfig  *config,
                                               GPtrArray      *trials,
                                               guint           best_number,
                                               GCancellable   *cancellable);
void           sl_tuner_curves_compute_async  (SlTunerConfig  *config,
                                               GPtrArray      *trials,
                                               guint           best_number,
                                               GCancellable   *cancellable,
                                               GAsyncReadyCallback callback,
                                               gpointer        user_data);
SlTunerCurves *sl_tuner_curves_compute_finish (GAsyncResult   *result,
                                               GError        **error);
void           sl_tuner_curves_free           (SlTunerCurves  *self);

guint          sl_tuner_curves_get_n_slices   (SlTunerCurves  *self);
guint          sl_tuner_curves_get_n_bands    (SlTunerCurves  *self);
guint          sl_tuner_curves_get_band       (SlTunerCurves  *self,
                                               guint           parameter,
                                               const double  **x,
                                               const double  **mean,
                                               const double  **stddev);
guint          sl_tuner_curves_get_points     (SlTunerCurves  *self,
                                               guint           parameter,
                                               const double  **x,
                                               const double  **value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTunerCurves, sl_tuner_curves_free)

G_END_DECLS
