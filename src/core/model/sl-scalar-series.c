/* sl-scalar-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-scalar-series.h"

struct _SlScalarSeries
{
  GObject  parent_instance;
  char    *tag;
  GArray  *steps;
  GArray  *wall_times;
  GArray  *values;
  guint    n_restarts;
  gint64   first_step;   /* of the first append, dropped or not */
  gboolean appended;
  guint    n_dropped;
  gint64   restart_from;  /* the last restart: the step before it */
  gint64   restart_to;    /* and the step written again */
  double   min;
  double   max;
  gboolean range_valid;
};

G_DEFINE_FINAL_TYPE (SlScalarSeries, sl_scalar_series, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sl_scalar_series_finalize (GObject *object)
{
  SlScalarSeries *self = (SlScalarSeries *)object;

  g_clear_pointer (&self->tag, g_free);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->wall_times, g_array_unref);
  g_clear_pointer (&self->values, g_array_unref);

  G_OBJECT_CLASS (sl_scalar_series_parent_class)->finalize (object);
}

static void
sl_scalar_series_class_init (SlScalarSeriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_scalar_series_finalize;

  /**
   * SlScalarSeries::changed:
   * @first: the first index whose point is new or different
   *
   * Points were appended, or dropped by a restart, from @first on.
   * Emitted only by whoever fills the series (see the readers), once per
   * batch, never per point.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sl_scalar_series_init (SlScalarSeries *self)
{
  self->steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->wall_times = g_array_new (FALSE, FALSE, sizeof (double));
  self->values = g_array_new (FALSE, FALSE, sizeof (double));
}

SlScalarSeries *
sl_scalar_series_new (const char *tag)
{
  SlScalarSeries *self;

  g_return_val_if_fail (tag != NULL, NULL);

  self = g_object_new (SL_TYPE_SCALAR_SERIES, NULL);
  self->tag = g_strdup (tag);

  return self;
}

const char *
sl_scalar_series_get_tag (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), NULL);
  return self->tag;
}

guint
sl_scalar_series_get_n_points (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), 0);
  return self->steps->len;
}

/**
 * sl_scalar_series_get_steps:
 *
 * Returns: (array) (transfer none): the steps, valid until the next append
 */
const gint64 *
sl_scalar_series_get_steps (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), NULL);
  return (const gint64 *)(gpointer)self->steps->data;
}

/**
 * sl_scalar_series_get_wall_times:
 *
 * Returns: (array) (transfer none): seconds since the Unix epoch
 */
const double *
sl_scalar_series_get_wall_times (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), NULL);
  return (const double *)(gpointer)self->wall_times->data;
}

const double *
sl_scalar_series_get_values (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), NULL);
  return (const double *)(gpointer)self->values->data;
}

/* The first index whose step is >= @step (binary search: steps ascend). */
static guint
lower_bound (SlScalarSeries *self,
             gint64          step)
{
  const gint64 *steps = (const gint64 *)(gpointer)self->steps->data;
  guint lo = 0, hi = self->steps->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (steps[mid] < step)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * sl_scalar_series_append:
 *
 * Appends a point. When @step is not after the last step, the job was
 * restarted: the points from @step on are dropped first.
 */
void
sl_scalar_series_append (SlScalarSeries *self,
                         gint64          step,
                         double          wall_time,
                         double          value)
{
  guint n;

  g_return_if_fail (SL_IS_SCALAR_SERIES (self));

  if (!self->appended)
    {
      self->appended = TRUE;
      self->first_step = step;
    }

  n = self->steps->len;
  if (n > 0 && step <= g_array_index (self->steps, gint64, n - 1))
    {
      guint keep = lower_bound (self, step);

      self->n_restarts++;
      self->n_dropped += n - keep;
      self->restart_from = g_array_index (self->steps, gint64, n - 1);
      self->restart_to = step;
      g_array_set_size (self->steps, keep);
      g_array_set_size (self->wall_times, keep);
      g_array_set_size (self->values, keep);
      self->range_valid = FALSE;
    }

  g_array_append_val (self->steps, step);
  g_array_append_val (self->wall_times, wall_time);
  g_array_append_val (self->values, value);

  if (self->range_valid && isfinite (value))
    {
      self->min = MIN (self->min, value);
      self->max = MAX (self->max, value);
    }
}

/**
 * sl_scalar_series_get_n_restarts:
 *
 * Returns: how many times a step went backwards
 */
guint
sl_scalar_series_get_n_restarts (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), 0);
  return self->n_restarts;
}

/**
 * sl_scalar_series_get_n_dropped:
 *
 * Returns: how many points restarts dropped
 */
guint
sl_scalar_series_get_n_dropped (SlScalarSeries *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), 0);
  return self->n_dropped;
}

/**
 * sl_scalar_series_get_last_restart:
 * @from: (out) (optional): the last step written before the restart
 * @to: (out) (optional): the step the restarted job wrote next
 *
 * The points written before the restart from @to on were dropped; those
 * written after it are kept, as TensorBoard keeps them.
 *
 * Returns: %FALSE when no step went backwards
 */
gboolean
sl_scalar_series_get_last_restart (SlScalarSeries *self,
                                   gint64         *from,
                                   gint64         *to)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), FALSE);

  if (self->n_restarts == 0)
    return FALSE;
  if (from != NULL)
    *from = self->restart_from;
  if (to != NULL)
    *to = self->restart_to;
  return TRUE;
}

/**
 * sl_scalar_series_get_value_range:
 *
 * The range of the finite values; NaN and infinities are left out.
 *
 * Returns: %FALSE when there is no finite value
 */
gboolean
sl_scalar_series_get_value_range (SlScalarSeries *self,
                                  double         *min,
                                  double         *max)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), FALSE);

  if (!self->range_valid)
    {
      const double *values = (const double *)(gpointer)self->values->data;
      gboolean any = FALSE;

      self->min = INFINITY;
      self->max = -INFINITY;
      for (guint i = 0; i < self->values->len; i++)
        {
          if (isfinite (values[i]))
            {
              self->min = MIN (self->min, values[i]);
              self->max = MAX (self->max, values[i]);
              any = TRUE;
            }
        }
      self->range_valid = any;
      if (!any)
        return FALSE;
    }

  if (min != NULL)
    *min = self->min;
  if (max != NULL)
    *max = self->max;

  return TRUE;
}

/**
 * sl_scalar_series_find_step:
 *
 * Returns: the index of the first point at or after @step; the number of
 *   points when every step is before it
 */
guint
sl_scalar_series_find_step (SlScalarSeries *self,
                            gint64          step)
{
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (self), 0);
  return lower_bound (self, step);
}

/**
 * sl_scalar_series_absorb:
 * @delta: points read after those of @self, into a series of their own
 *
 * Appends the points of @delta as if they had been appended to @self one
 * by one in the order they were read: a step going backwards, within
 * @delta or against @self, counts as one restart either way.
 */
void
sl_scalar_series_absorb (SlScalarSeries *self,
                         SlScalarSeries *delta)
{
  guint restarts;

  g_return_if_fail (SL_IS_SCALAR_SERIES (self));
  g_return_if_fail (SL_IS_SCALAR_SERIES (delta));

  if (delta->steps->len == 0)
    return;

  /* Appending what @delta kept can restart only at its first point; what
   * really happened is its own restarts, plus one if the first step read
   * was not after the last step of @self. */
  restarts = self->n_restarts + delta->n_restarts +
             (self->steps->len > 0 && delta->first_step <= g_array_index (self->steps, gint64, self->steps->len - 1));
  for (guint i = 0; i < delta->steps->len; i++)
    sl_scalar_series_append (self, g_array_index (delta->steps, gint64, i), g_array_index (delta->wall_times, double, i),
                             g_array_index (delta->values, double, i));
  self->n_restarts = restarts;
  self->n_dropped += delta->n_dropped;
  /* @delta's own restarts came after the one against @self, if any. */
  if (delta->n_restarts > 0)
    {
      self->restart_from = delta->restart_from;
      self->restart_to = delta->restart_to;
    }
}
