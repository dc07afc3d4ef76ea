/* sl-tensor-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-tensor-series.h"

struct _SlTensorSeries
{
  GObject  parent_instance;
  char    *tag;
  GArray  *steps;
  GArray  *wall_times;
  GArray  *dtypes;
  GArray  *first_dim;    /* n_points + 1 entries */
  GArray  *first_value;  /* n_points + 1 entries */
  GArray  *dims;
  GArray  *values;
  guint    n_restarts;
  gint64   first_step;   /* of the first append, dropped or not */
  gboolean appended;
};

G_DEFINE_FINAL_TYPE (SlTensorSeries, sl_tensor_series, G_TYPE_OBJECT)

static void
sl_tensor_series_finalize (GObject *object)
{
  SlTensorSeries *self = (SlTensorSeries *)object;

  g_clear_pointer (&self->tag, g_free);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->wall_times, g_array_unref);
  g_clear_pointer (&self->dtypes, g_array_unref);
  g_clear_pointer (&self->first_dim, g_array_unref);
  g_clear_pointer (&self->first_value, g_array_unref);
  g_clear_pointer (&self->dims, g_array_unref);
  g_clear_pointer (&self->values, g_array_unref);

  G_OBJECT_CLASS (sl_tensor_series_parent_class)->finalize (object);
}

static void
sl_tensor_series_class_init (SlTensorSeriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_tensor_series_finalize;
}

static void
sl_tensor_series_init (SlTensorSeries *self)
{
  gsize zero = 0;

  self->steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->wall_times = g_array_new (FALSE, FALSE, sizeof (double));
  self->dtypes = g_array_new (FALSE, FALSE, sizeof (int));
  self->first_dim = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->first_value = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->values = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (self->first_dim, zero);
  g_array_append_val (self->first_value, zero);
}

SlTensorSeries *
sl_tensor_series_new (const char *tag)
{
  SlTensorSeries *self;

  g_return_val_if_fail (tag != NULL, NULL);

  self = g_object_new (SL_TYPE_TENSOR_SERIES, NULL);
  self->tag = g_strdup (tag);

  return self;
}

const char *
sl_tensor_series_get_tag (SlTensorSeries *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), NULL);
  return self->tag;
}

guint
sl_tensor_series_get_n_points (SlTensorSeries *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), 0);
  return self->steps->len;
}

const gint64 *
sl_tensor_series_get_steps (SlTensorSeries *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), NULL);
  return (const gint64 *) (gpointer) self->steps->data;
}

const double *
sl_tensor_series_get_wall_times (SlTensorSeries *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), NULL);
  return (const double *) (gpointer) self->wall_times->data;
}

int
sl_tensor_series_get_dtype (SlTensorSeries *self,
                            guint           index)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), 0);
  g_return_val_if_fail (index < self->steps->len, 0);
  return g_array_index (self->dtypes, int, index);
}

guint
sl_tensor_series_get_dims (SlTensorSeries  *self,
                           guint            index,
                           const gint64   **dims)
{
  gsize first;

  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), 0);
  g_return_val_if_fail (index < self->steps->len, 0);

  first = g_array_index (self->first_dim, gsize, index);
  if (dims != NULL)
    *dims = &g_array_index (self->dims, gint64, first);
  return g_array_index (self->first_dim, gsize, index + 1) - first;
}

gsize
sl_tensor_series_get_values (SlTensorSeries  *self,
                             guint            index,
                             const double   **values)
{
  gsize first;

  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), 0);
  g_return_val_if_fail (index < self->steps->len, 0);

  first = g_array_index (self->first_value, gsize, index);
  if (values != NULL)
    *values = &g_array_index (self->values, double, first);
  return g_array_index (self->first_value, gsize, index + 1) - first;
}

void
sl_tensor_series_append (SlTensorSeries *self,
                         gint64          step,
                         double          wall_time,
                         int             dtype,
                         guint           n_dims,
                         const gint64   *dims,
                         gsize           n_values,
                         const double   *values)
{
  gsize end;

  g_return_if_fail (SL_IS_TENSOR_SERIES (self));
  g_return_if_fail (n_dims == 0 || dims != NULL);
  g_return_if_fail (n_values == 0 || values != NULL);

  if (!self->appended)
    {
      self->appended = TRUE;
      self->first_step = step;
    }

  /* A restarted job: its points replace the old ones from that step on. */
  if (self->steps->len > 0 &&
      step <= g_array_index (self->steps, gint64, self->steps->len - 1))
    {
      guint keep = self->steps->len;

      while (keep > 0 && g_array_index (self->steps, gint64, keep - 1) >= step)
        keep--;
      g_array_set_size (self->steps, keep);
      g_array_set_size (self->wall_times, keep);
      g_array_set_size (self->dtypes, keep);
      g_array_set_size (self->dims, g_array_index (self->first_dim, gsize, keep));
      g_array_set_size (self->values, g_array_index (self->first_value, gsize, keep));
      g_array_set_size (self->first_dim, keep + 1);
      g_array_set_size (self->first_value, keep + 1);
      self->n_restarts++;
    }

  g_array_append_val (self->steps, step);
  g_array_append_val (self->wall_times, wall_time);
  g_array_append_val (self->dtypes, dtype);
  g_array_append_vals (self->dims, dims, n_dims);
  g_array_append_vals (self->values, values, n_values);
  end = self->dims->len;
  g_array_append_val (self->first_dim, end);
  end = self->values->len;
  g_array_append_val (self->first_value, end);
}

guint
sl_tensor_series_get_n_restarts (SlTensorSeries *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_SERIES (self), 0);
  return self->n_restarts;
}

/**
 * sl_tensor_series_absorb:
 * @delta: points read after those of @self, into a series of their own
 *
 * Appends the points of @delta as if they had been appended to @self one
 * by one in the order they were read: a step going backwards, within
 * @delta or against @self, counts as one restart either way.
 */
void
sl_tensor_series_absorb (SlTensorSeries *self,
                         SlTensorSeries *delta)
{
  guint restarts;

  g_return_if_fail (SL_IS_TENSOR_SERIES (self));
  g_return_if_fail (SL_IS_TENSOR_SERIES (delta));

  if (delta->steps->len == 0)
    return;

  /* Appending what @delta kept can restart only at its first point; what
   * really happened is its own restarts, plus one if the first step read
   * was not after the last step of @self. */
  restarts = self->n_restarts + delta->n_restarts +
             (self->steps->len > 0 && delta->first_step <= g_array_index (self->steps, gint64, self->steps->len - 1));
  for (guint i = 0; i < delta->steps->len; i++)
    {
      const gint64 *dims;
      const double *values;
      guint n_dims = sl_tensor_series_get_dims (delta, i, &dims);
      gsize n_values = sl_tensor_series_get_values (delta, i, &values);

      sl_tensor_series_append (self, g_array_index (delta->steps, gint64, i), g_array_index (delta->wall_times, double, i),
                               g_array_index (delta->dtypes, int, i), n_dims, dims, n_values, values);
    }
  self->n_restarts = restarts;
}
