/* sl-spread.h: how far apart a set of values is, as the Ascend tools judge it
 *
 * Slow rank and slow link are both found the same way: the spread
 * (max − min) / mean of the ranks' step times, or of the links'
 * bandwidths, above a threshold (5 % by default) names the outlier.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_SPREAD_DEFAULT_THRESHOLD 5.0

typedef struct {
  guint  n;          /* values taken: the finite ones */
  guint  min_index;  /* into the values given */
  guint  max_index;
  double min;
  double max;
  double mean;
  double percent;    /* 100 · (max − min) / mean; 0 when the mean is not positive */
} SlSpread;

/* Returns FALSE when fewer than two finite values are given. NAN values
 * are skipped. */
gboolean sl_spread_compute (const double *values,
                            guint         n_values,
                            SlSpread     *spread);

G_END_DECLS
