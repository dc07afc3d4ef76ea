/* sl-series-smoother.c
 *
 * Follows TensorBoard's scalar card exactly: last starts at 0, and every
 * finite value v gives last = last * w + (1 - w) * v, divided by the
 * debias weight 1 - w^n. Non-finite values pass through unchanged and do
 * not advance the average.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-series-smoother.h"

void
sl_series_smoother_init (SlSeriesSmoother *self,
                         double            weight)
{
  g_return_if_fail (self != NULL);

  self->weight = CLAMP (weight, 0.0, 1.0);
  self->last = 0.0;
  self->num_accum = 0;
  self->constant = TRUE;
  self->constant_value = NAN;
}

/**
 * sl_series_smoother_feed:
 * @values: the next @n raw values
 * @smoothed: (out caller-allocates): @n smoothed values; may be @values
 *
 * Smooths the next points, continuing from the earlier ones.
 */
void
sl_series_smoother_feed (SlSeriesSmoother *self,
                         const double     *values,
                         guint             n,
                         double           *smoothed)
{
  double w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (n == 0 || (values != NULL && smoothed != NULL));

  w = self->weight;
  for (guint i = 0; i < n; i++)
    {
      double v = values[i];
      double debias = 1.0;

      if (!isfinite (v))
        {
          smoothed[i] = v;
          continue;
        }

      if (self->num_accum == 0)
        self->constant_value = v;
      else if (v != self->constant_value)
        self->constant = FALSE;

      self->last = self->last * w + (1.0 - w) * v;
      self->num_accum++;
      if (w != 1.0)
        debias = 1.0 - pow (w, self->num_accum);
      smoothed[i] = self->constant ? v : self->last / debias;
    }
}

/**
 * sl_series_smooth:
 * @weight: 0 (no smoothing) to 1
 * @smoothed: (out caller-allocates): @n values; may be @values
 */
void
sl_series_smooth (double        weight,
                  const double *values,
                  guint         n,
                  double       *smoothed)
{
  SlSeriesSmoother smoother;

  sl_series_smoother_init (&smoother, weight);
  sl_series_smoother_feed (&smoother, values, n, smoothed);
}
