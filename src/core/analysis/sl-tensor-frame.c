/* sl-tensor-frame.c
 *
 * The values are shared (a GBytes) between the frames of one step, so
 * another slice of the same step costs no copy, and the statistics of the
 * whole tensor can be handed on instead of computed again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tensor-frame.h"

/* Viridis, sampled; sequential and readable by colour-blind people. */
static const double sequential_stops[][3] = {
  { 0.267, 0.005, 0.329 },
  { 0.283, 0.141, 0.458 },
  { 0.254, 0.265, 0.530 },
  { 0.207, 0.372, 0.553 },
  { 0.164, 0.471, 0.558 },
  { 0.128, 0.567, 0.551 },
  { 0.135, 0.659, 0.518 },
  { 0.267, 0.749, 0.441 },
  { 0.478, 0.821, 0.318 },
  { 0.741, 0.873, 0.150 },
  { 0.993, 0.906, 0.144 },
};

/* ColorBrewer's RdBu, reversed: negative blue, zero white, positive red. */
static const double diverging_stops[][3] = {
  { 0.020, 0.188, 0.380 },
  { 0.129, 0.400, 0.675 },
  { 0.263, 0.576, 0.765 },
  { 0.573, 0.773, 0.871 },
  { 0.820, 0.898, 0.941 },
  { 0.969, 0.969, 0.969 },
  { 0.992, 0.859, 0.780 },
  { 0.957, 0.647, 0.510 },
  { 0.839, 0.376, 0.302 },
  { 0.698, 0.094, 0.169 },
  { 0.404, 0.000, 0.122 },
};

SlTensorFrame *
sl_tensor_frame_new (gint64               step,
                     int                  dtype,
                     const gint64        *dims,
                     guint                n_dims,
                     GBytes              *values,
                     const SlTensorSlice *slice)
{
  SlTensorFrame *self;

  g_return_val_if_fail (n_dims <= SL_TENSOR_MAX_DIMS, NULL);
  g_return_val_if_fail (n_dims == 0 || dims != NULL, NULL);
  g_return_val_if_fail (values != NULL, NULL);
  g_return_val_if_fail (slice != NULL, NULL);

  self = g_new0 (SlTensorFrame, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->step = step;
  self->dtype = dtype;
  self->n_dims = n_dims;
  for (guint i = 0; i < n_dims; i++)
    self->dims[i] = dims[i];
  self->values = g_bytes_ref (values);
  self->slice = sl_tensor_slice_copy (slice);
  sl_tensor_stats_init (&self->full);
  sl_tensor_stats_init (&self->view);

  return self;
}

SlTensorFrame *
sl_tensor_frame_ref (SlTensorFrame *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sl_tensor_frame_unref (SlTensorFrame *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_bytes_unref (self->values);
  sl_tensor_slice_free (self->slice);
  sl_tensor_histogram_free (self->histogram);
  g_free (self->image);
  g_free (self);
}

const double *
sl_tensor_frame_get_values (SlTensorFrame *self,
                            gsize         *n_values)
{
  gsize size;
  const double *values;

  g_return_val_if_fail (self != NULL, NULL);

  values = g_bytes_get_data (self->values, &size);
  if (n_values != NULL)
    *n_values = size / sizeof (double);
  return values;
}

double
sl_tensor_frame_get_cell (SlTensorFrame *self,
                          gint64         row,
                          gint64         col)
{
  const double *values;
  gsize n;
  gint64 offset;

  g_return_val_if_fail (self != NULL, NAN);

  values = sl_tensor_frame_get_values (self, &n);
  offset = sl_tensor_slice_offset (self->slice, row, col);
  g_return_val_if_fail (offset >= 0 && (gsize)offset < n, NAN);
  return values[offset];
}

static void
interpolate (const double (*stops)[3],
             guint         n_stops,
             double        t,
             double       *rgb)
{
  double x = CLAMP (isnan (t) ? 0 : t, 0, 1) * (n_stops - 1);
  guint i = MIN ((guint)x, n_stops - 2);
  double f = x - i;

  for (guint k = 0; k < 3; k++)
    rgb[k] = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f;
}

/**
 * sl_tensor_palette_color:
 * @t: 0 for the lowest value, 1 for the highest
 * @rgb: (out caller-allocates) (array fixed-size=3): red, green, blue
 */
void
sl_tensor_palette_color (SlTensorPalette  palette,
                         double           t,
                         double          *rgb)
{
  if (palette == SL_TENSOR_PALETTE_DIVERGING)
    interpolate (diverging_stops, G_N_ELEMENTS (diverging_stops), t, rgb);
  else
    interpolate (sequential_stops, G_N_ELEMENTS (sequential_stops), t, rgb);
}

/* Colours no palette uses, so a NaN or an infinity never passes for a
 * large value. */
void
sl_tensor_special_color (SlTensorSpecial  special,
                         double          *rgb)
{
  static const double colors[][3] = {
    { 0.90, 0.10, 0.85 },  /* NaN: magenta */
    { 1.00, 0.55, 0.00 },  /* +Inf: orange */
    { 0.00, 0.85, 0.95 },  /* -Inf: cyan */
  };

  for (guint k = 0; k < 3; k++)
    rgb[k] = colors[special][k];
}

static guint32
pack (const double *rgb)
{
  return 0xff000000u | ((guint32)(rgb[0] * 255 + 0.5) << 16) | ((guint32)(rgb[1] * 255 + 0.5) << 8) |
         (guint32)(rgb[2] * 255 + 0.5);
}

guint32
sl_tensor_frame_color_of (SlTensorFrame *self,
                          double         value)
{
  double rgb[3];

  if (isnan (value))
    sl_tensor_special_color (SL_TENSOR_SPECIAL_NAN, rgb);
  else if (isinf (value))
    sl_tensor_special_color (value > 0 ? SL_TENSOR_SPECIAL_POS_INF : SL_TENSOR_SPECIAL_NEG_INF, rgb);
  else
    sl_tensor_palette_color (self->palette, (value - self->color_lo) / (self->color_hi - self->color_lo), rgb);

  return pack (rgb);
}

static void
choose_palette (SlTensorFrame *self)
{
  const SlTensorStats *stats = &self->view;

  if (stats->n_finite == 0)
    {
      self->palette = SL_TENSOR_PALETTE_SEQUENTIAL;
      self->color_lo = 0;
      self->color_hi = 1;
    }
  else if (stats->min < 0 && stats->max > 0)
    {
      /* Centred at 0, so white means zero whatever the spread. */
      double extent = MAX (-stats->min, stats->max);

      self->palette = SL_TENSOR_PALETTE_DIVERGING;
      self->color_lo = -extent;
      self->color_hi = extent;
    }
  else
    {
      self->palette = SL_TENSOR_PALETTE_SEQUENTIAL;
      self->color_lo = stats->min;
      self->color_hi = stats->max;
      if (!(self->color_hi > self->color_lo))
        {
          self->color_lo -= 0.5;
          self->color_hi += 0.5;
        }
    }
}

static gboolean
render_image (SlTensorFrame *self,
              const double  *values,
              GCancellable  *cancellable)
{
  const SlTensorSlice *slice = self->slice;

  self->image_width = (guint)MIN (slice->n_cols, SL_TENSOR_FRAME_MAX_IMAGE_SIDE);
  self->image_height = (guint)MIN (slice->n_rows, SL_TENSOR_FRAME_MAX_IMAGE_SIDE);
  if (self->image_width == 0 || self->image_height == 0)
    return TRUE;

  self->image = g_new (guint32, (gsize)self->image_width * self->image_height);
  for (guint y = 0; y < self->image_height; y++)
    {
      gint64 row = (gint64)y * slice->n_rows / self->image_height;
      guint32 *line = self->image + (gsize)y * self->image_width;

      if ((y & 63) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;

      for (guint x = 0; x < self->image_width; x++)
        {
          gint64 col = (gint64)x * slice->n_cols / self->image_width;

          line[x] = sl_tensor_frame_color_of (self, values[sl_tensor_slice_offset (slice, row, col)]);
        }
    }

  return TRUE;
}

/**
 * sl_tensor_frame_compute:
 * @full: (nullable): the statistics of the whole tensor when already known
 *   (another slice of the same values)
 *
 * Computes the statistics, the histogram and the heatmap image. Safe to
 * call in a worker: the frame is not shared until it returns.
 *
 * Returns: %FALSE when cancelled
 */
gboolean
sl_tensor_frame_compute (SlTensorFrame       *self,
                         const SlTensorStats *full,
                         GCancellable        *cancellable)
{
  const double *values;
  gsize n_values;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->computed, FALSE);

  values = sl_tensor_frame_get_values (self, &n_values);

  if (full != NULL)
    self->full = *full;
  else
    {
      /* In blocks, so a cancelled request stops soon. */
      for (gsize i = 0; i < n_values; i += 1 << 18)
        {
          if (g_cancellable_is_cancelled (cancellable))
            return FALSE;
          sl_tensor_stats_add_values (&self->full, values + i, MIN (n_values - i, (gsize)1 << 18));
        }
    }

  sl_tensor_stats_add_slice (&self->view, values, self->slice);
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;

  self->histogram = sl_tensor_histogram_new_for_slice (values, self->slice, &self->view, 0);
  choose_palette (self);
  if (!render_image (self, values, cancellable))
    return FALSE;

  self->computed = TRUE;
  return TRUE;
}
