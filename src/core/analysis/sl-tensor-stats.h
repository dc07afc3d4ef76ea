/* sl-tensor-stats.h: summary statistics and histogram of tensor values
 *
 * Minimum, maximum, mean and standard deviation are over the finite
 * values (Welford's update, so large tensors keep their precision); NaN,
 * +Inf, -Inf and zeros are counted apart. The standard deviation is the
 * population one, as numpy.std computes by default.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-tensor-slice.h"

G_BEGIN_DECLS

typedef struct {
  guint64 n;          /* every value seen */
  guint64 n_finite;
  guint64 n_nan;
  guint64 n_pos_inf;
  guint64 n_neg_inf;
  guint64 n_zero;
  double  min;        /* of the finite values; NAN when there are none */
  double  max;
  double  mean;
  double  m2;         /* sum of squared deviations from the mean */
} SlTensorStats;

typedef struct {
  double   lo;        /* left edge of the first bin */
  double   hi;        /* right edge of the last bin */
  guint    n_bins;
  guint64 *counts;
  guint64  max_count;
} SlTensorHistogram;

void     sl_tensor_stats_init          (SlTensorStats       *self);
void     sl_tensor_stats_add           (SlTensorStats       *self,
                                        double               value);
void     sl_tensor_stats_add_values    (SlTensorStats       *self,
                                        const double        *values,
                                        gsize                n_values);
void     sl_tensor_stats_add_slice     (SlTensorStats       *self,
                                        const double        *values,
                                        const SlTensorSlice *slice);
void     sl_tensor_stats_merge         (SlTensorStats       *self,
                                        const SlTensorStats *other);
double   sl_tensor_stats_get_std       (const SlTensorStats *self);
double   sl_tensor_stats_get_variance  (const SlTensorStats *self);

SlTensorHistogram *sl_tensor_histogram_new_for_slice (const double        *values,
                                                      const SlTensorSlice *slice,
                                                      const SlTensorStats *stats,
                                                      guint                n_bins);
guint    sl_tensor_histogram_suggest_bins (guint64 n_finite);
void     sl_tensor_histogram_free      (SlTensorHistogram   *self);
double   sl_tensor_histogram_get_bin_width (const SlTensorHistogram *self);

const char *sl_tensor_dtype_to_string  (int                  dtype);
gboolean    sl_tensor_dtype_is_integer (int                  dtype);
void        sl_tensor_format_value     (char                *buffer,
                                        gsize                size,
                                        double               value,
                                        int                  dtype,
                                        guint                digits);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTensorHistogram, sl_tensor_histogram_free)

G_END_DECLS
