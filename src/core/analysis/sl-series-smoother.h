/* sl-series-smoother.h: TensorBoard's scalar smoothing
 *
 * An exponential moving average with TensorBoard's debiasing, so the first
 * smoothed points are not pulled towards zero. The state can be kept to
 * smooth points appended later without starting over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double weight;
  double last;
  guint  num_accum;
  /* Only finite values equal to the first one so far: TensorBoard then
   * shows the values unchanged, free of rounding noise. */
  gboolean constant;
  double   constant_value;
} SlSeriesSmoother;

void sl_series_smoother_init (SlSeriesSmoother *self,
                              double            weight);
void sl_series_smoother_feed (SlSeriesSmoother *self,
                              const double     *values,
                              guint             n,
                              double           *smoothed);
void sl_series_smooth        (double            weight,
                              const double     *values,
                              guint             n,
                              double           *smoothed);

G_END_DECLS
