/* sl-tensor-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tensor-stats.h"

void
sl_tensor_stats_init (SlTensorStats *self)
{
  g_return_if_fail (self != NULL);

  *self = (SlTensorStats) { 0 };
  self->min = NAN;
  self->max = NAN;
}

void
sl_tensor_stats_add (SlTensorStats *self,
                     double         value)
{
  double delta;

  self->n++;

  if (G_UNLIKELY (!isfinite (value)))
    {
      if (isnan (value))
        self->n_nan++;
      else if (value > 0)
        self->n_pos_inf++;
      else
        self->n_neg_inf++;
      return;
    }

  self->n_zero += value == 0;
  if (self->n_finite == 0)
    {
      self->min = value;
      self->max = value;
    }
  else
    {
      self->min = MIN (self->min, value);
      self->max = MAX (self->max, value);
    }

  self->n_finite++;
  delta = value - self->mean;
  self->mean += delta / self->n_finite;
  self->m2 += delta * (value - self->mean);
}

void
sl_tensor_stats_add_values (SlTensorStats *self,
                            const double  *values,
                            gsize          n_values)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (n_values == 0 || values != NULL);

  for (gsize i = 0; i < n_values; i++)
    sl_tensor_stats_add (self, values[i]);
}

/**
 * sl_tensor_stats_add_slice:
 * @values: the whole tensor, flat and row-major
 *
 * Adds the values the view @slice selects.
 */
void
sl_tensor_stats_add_slice (SlTensorStats       *self,
                           const double        *values,
                           const SlTensorSlice *slice)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (slice != NULL);

  for (gint64 r = 0; r < slice->n_rows; r++)
    for (gint64 c = 0; c < slice->n_cols; c++)
      sl_tensor_stats_add (self, values[sl_tensor_slice_offset (slice, r, c)]);
}

/* Chan et al.'s combination of two partial results, for statistics
 * gathered in parts. */
void
sl_tensor_stats_merge (SlTensorStats       *self,
                       const SlTensorStats *other)
{
  guint64 n;
  double delta;

  g_return_if_fail (self != NULL);
  g_return_if_fail (other != NULL);

  self->n += other->n;
  self->n_nan += other->n_nan;
  self->n_pos_inf += other->n_pos_inf;
  self->n_neg_inf += other->n_neg_inf;
  self->n_zero += other->n_zero;

  if (other->n_finite == 0)
    return;
  if (self->n_finite == 0)
    {
      self->n_finite = other->n_finite;
      self->min = other->min;
      self->max = other->max;
      self->mean = other->mean;
      self->m2 = other->m2;
      return;
    }

  n = self->n_finite + other->n_finite;
  delta = other->mean - self->mean;
  self->mean += delta * other->n_finite / n;
  self->m2 += other->m2 + delta * delta * ((double)self->n_finite * other->n_finite / n);
  self->n_finite = n;
  self->min = MIN (self->min, other->min);
  self->max = MAX (self->max, other->max);
}

double
sl_tensor_stats_get_variance (const SlTensorStats *self)
{
  g_return_val_if_fail (self != NULL, NAN);
  return self->n_finite > 0 ? self->m2 / self->n_finite : NAN;
}

double
sl_tensor_stats_get_std (const SlTensorStats *self)
{
  g_return_val_if_fail (self != NULL, NAN);
  return sqrt (sl_tensor_stats_get_variance (self));
}

/* Square root of the count, as a picture reads well with it, within a
 * range a chart can show; at least ten when there are that many values. */
guint
sl_tensor_histogram_suggest_bins (guint64 n_finite)
{
  double bins = MAX (ceil (sqrt ((double)n_finite)), MIN ((double)n_finite, 10));

  return (guint)CLAMP (bins, 1, 100);
}

/**
 * sl_tensor_histogram_new_for_slice:
 * @stats: the statistics of the same view, for its range
 * @n_bins: 0 to choose from the count
 *
 * Bins of equal width over the finite values of the view. A view whose
 * values are all equal gets one bin of width 1 around them.
 *
 * Returns: (transfer full): the histogram
 */
SlTensorHistogram *
sl_tensor_histogram_new_for_slice (const double        *values,
                                   const SlTensorSlice *slice,
                                   const SlTensorStats *stats,
                                   guint                n_bins)
{
  SlTensorHistogram *self;
  double scale;

  g_return_val_if_fail (slice != NULL, NULL);
  g_return_val_if_fail (stats != NULL, NULL);

  if (n_bins == 0)
    n_bins = sl_tensor_histogram_suggest_bins (stats->n_finite);

  self = g_new0 (SlTensorHistogram, 1);
  if (stats->n_finite == 0)
    {
      self->lo = 0;
      self->hi = 1;
      self->n_bins = 0;
      return self;
    }

  if (stats->max > stats->min)
    {
      self->lo = stats->min;
      self->hi = stats->max;
    }
  else
    {
      self->lo = stats->min - 0.5;
      self->hi = stats->max + 0.5;
      n_bins = 1;
    }

  self->n_bins = n_bins;
  self->counts = g_new0 (guint64, n_bins);
  scale = n_bins / (self->hi - self->lo);
  /* The range of two huge values of opposite sign can overflow. */
  if (!isfinite (scale) || scale <= 0)
    {
      self->n_bins = 1;
      scale = 0;
    }

  for (gint64 r = 0; r < slice->n_rows; r++)
    for (gint64 c = 0; c < slice->n_cols; c++)
      {
        double v = values[sl_tensor_slice_offset (slice, r, c)];
        gint64 bin;

        if (!isfinite (v))
          continue;
        bin = (gint64)((v - self->lo) * scale);
        bin = CLAMP (bin, 0, (gint64)self->n_bins - 1);
        self->counts[bin]++;
      }

  for (guint b = 0; b < self->n_bins; b++)
    self->max_count = MAX (self->max_count, self->counts[b]);

  return self;
}

void
sl_tensor_histogram_free (SlTensorHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->counts);
  g_free (self);
}

double
sl_tensor_histogram_get_bin_width (const SlTensorHistogram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_bins > 0 ? (self->hi - self->lo) / self->n_bins : 0;
}

/* MindSpore's DataType numbers (mindspore_anf_ir.proto); TensorBoard's
 * are converted to them when read. */
const char *
sl_tensor_dtype_to_string (int dtype)
{
  static const char * const names[] = {
    "undefined", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64",
  };

  if (dtype >= 0 && dtype < (int)G_N_ELEMENTS (names))
    return names[dtype];
  return "unknown";
}

gboolean
sl_tensor_dtype_is_integer (int dtype)
{
  return dtype >= 1 && dtype <= 9;
}

/**
 * sl_tensor_format_value:
 * @digits: significant digits of floating-point values
 *
 * Writes @value as NumPy prints it: "nan", "inf", integers whole, booleans
 * as True and False, other values with @digits significant digits.
 */
void
sl_tensor_format_value (char   *buffer,
                        gsize   size,
                        double  value,
                        int     dtype,
                        guint   digits)
{
  g_return_if_fail (buffer != NULL && size > 0);

  if (isnan (value))
    g_strlcpy (buffer, "nan", size);
  else if (isinf (value))
    g_strlcpy (buffer, value > 0 ? "inf" : "-inf", size);
  else if (dtype == 1)
    g_strlcpy (buffer, value != 0 ? "True" : "False", size);
  else if (sl_tensor_dtype_is_integer (dtype))
    g_snprintf (buffer, size, "%.0f", value);
  else
    g_snprintf (buffer, size, "%.*g", (int)CLAMP (digits, 1, 17), value);
}
