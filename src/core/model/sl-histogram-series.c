/* sl-histogram-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-histogram-series.h"

struct _SlHistogramSeries
{
  GObject  parent_instance;
  char    *tag;
  GArray  *steps;
  GArray  *wall_times;
  GArray  *stats;
  GArray  *first_bucket;  /* n_points + 1 entries */
  GArray  *lefts;
  GArray  *widths;
  GArray  *counts;
  guint    n_restarts;
  gint64   first_step;   /* of the first append, dropped or not */
  gboolean appended;
};

G_DEFINE_FINAL_TYPE (SlHistogramSeries, sl_histogram_series, G_TYPE_OBJECT)

static void
sl_histogram_series_finalize (GObject *object)
{
  SlHistogramSeries *self = (SlHistogramSeries *)object;

  g_clear_pointer (&self->tag, g_free);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->wall_times, g_array_unref);
  g_clear_pointer (&self->stats, g_array_unref);
  g_clear_pointer (&self->first_bucket, g_array_unref);
  g_clear_pointer (&self->lefts, g_array_unref);
  g_clear_pointer (&self->widths, g_array_unref);
  g_clear_pointer (&self->counts, g_array_unref);

  G_OBJECT_CLASS (sl_histogram_series_parent_class)->finalize (object);
}

static void
sl_histogram_series_class_init (SlHistogramSeriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_histogram_series_finalize;
}

static void
sl_histogram_series_init (SlHistogramSeries *self)
{
  guint zero = 0;

  self->steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->wall_times = g_array_new (FALSE, FALSE, sizeof (double));
  self->stats = g_array_new (FALSE, FALSE, sizeof (SlHistogramStats));
  self->first_bucket = g_array_new (FALSE, FALSE, sizeof (guint));
  self->lefts = g_array_new (FALSE, FALSE, sizeof (double));
  self->widths = g_array_new (FALSE, FALSE, sizeof (double));
  self->counts = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (self->first_bucket, zero);
}

SlHistogramSeries *
sl_histogram_series_new (const char *tag)
{
  SlHistogramSeries *self;

  g_return_val_if_fail (tag != NULL, NULL);

  self = g_object_new (SL_TYPE_HISTOGRAM_SERIES, NULL);
  self->tag = g_strdup (tag);

  return self;
}

const char *
sl_histogram_series_get_tag (SlHistogramSeries *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), NULL);
  return self->tag;
}

guint
sl_histogram_series_get_n_points (SlHistogramSeries *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), 0);
  return self->steps->len;
}

const gint64 *
sl_histogram_series_get_steps (SlHistogramSeries *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), NULL);
  return (const gint64 *) (gpointer) self->steps->data;
}

const double *
sl_histogram_series_get_wall_times (SlHistogramSeries *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), NULL);
  return (const double *) (gpointer) self->wall_times->data;
}

const SlHistogramStats *
sl_histogram_series_get_stats (SlHistogramSeries *self,
                               guint              index)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), NULL);
  g_return_val_if_fail (index < self->stats->len, NULL);
  return &g_array_index (self->stats, SlHistogramStats, index);
}

/**
 * sl_histogram_series_get_buckets:
 * @lefts: (out) (optional): left edges
 * @widths: (out) (optional): widths
 * @counts: (out) (optional): counts
 *
 * Returns: the number of buckets of point @index
 */
guint
sl_histogram_series_get_buckets (SlHistogramSeries  *self,
                                 guint               index,
                                 const double      **lefts,
                                 const double      **widths,
                                 const double      **counts)
{
  guint first, last;

  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), 0);
  g_return_val_if_fail (index < self->steps->len, 0);

  first = g_array_index (self->first_bucket, guint, index);
  last = g_array_index (self->first_bucket, guint, index + 1);
  if (lefts != NULL)
    *lefts = &g_array_index (self->lefts, double, first);
  if (widths != NULL)
    *widths = &g_array_index (self->widths, double, first);
  if (counts != NULL)
    *counts = &g_array_index (self->counts, double, first);

  return last - first;
}

static void
truncate_to (SlHistogramSeries *self,
             guint              n_points)
{
  guint n_buckets = g_array_index (self->first_bucket, guint, n_points);

  g_array_set_size (self->steps, n_points);
  g_array_set_size (self->wall_times, n_points);
  g_array_set_size (self->stats, n_points);
  g_array_set_size (self->first_bucket, n_points + 1);
  g_array_set_size (self->lefts, n_buckets);
  g_array_set_size (self->widths, n_buckets);
  g_array_set_size (self->counts, n_buckets);
}

void
sl_histogram_series_append (SlHistogramSeries      *self,
                            gint64                  step,
                            double                  wall_time,
                            const SlHistogramStats *stats,
                            guint                   n_buckets,
                            const double           *lefts,
                            const double           *widths,
                            const double           *counts)
{
  guint end;

  g_return_if_fail (SL_IS_HISTOGRAM_SERIES (self));
  g_return_if_fail (stats != NULL);
  g_return_if_fail (n_buckets == 0 || (lefts != NULL && widths != NULL && counts != NULL));

  if (!self->appended)
    {
      self->appended = TRUE;
      self->first_step = step;
    }

  /* A restarted job writes steps again: its new points replace the old
   * ones from that step on. */
  if (self->steps->len > 0 &&
      step <= g_array_index (self->steps, gint64, self->steps->len - 1))
    {
      guint keep = self->steps->len;

      while (keep > 0 && g_array_index (self->steps, gint64, keep - 1) >= step)
        keep--;
      truncate_to (self, keep);
      self->n_restarts++;
    }

  g_array_append_val (self->steps, step);
  g_array_append_val (self->wall_times, wall_time);
  g_array_append_val (self->stats, *stats);
  g_array_append_vals (self->lefts, lefts, n_buckets);
  g_array_append_vals (self->widths, widths, n_buckets);
  g_array_append_vals (self->counts, counts, n_buckets);
  end = self->lefts->len;
  g_array_append_val (self->first_bucket, end);
}

guint
sl_histogram_series_get_n_restarts (SlHistogramSeries *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (self), 0);
  return self->n_restarts;
}

/**
 * sl_histogram_series_absorb:
 * @delta: points read after those of @self, into a series of their own
 *
 * Appends the points of @delta as if they had been appended to @self one
 * by one in the order they were read: a step going backwards, within
 * @delta or against @self, counts as one restart either way.
 */
void
sl_histogram_series_absorb (SlHistogramSeries *self,
                            SlHistogramSeries *delta)
{
  guint restarts;

  g_return_if_fail (SL_IS_HISTOGRAM_SERIES (self));
  g_return_if_fail (SL_IS_HISTOGRAM_SERIES (delta));

  if (delta->steps->len == 0)
    return;

  /* Appending what @delta kept can restart only at its first point; what
   * really happened is its own restarts, plus one if the first step read
   * was not after the last step of @self. */
  restarts = self->n_restarts + delta->n_restarts +
             (self->steps->len > 0 && delta->first_step <= g_array_index (self->steps, gint64, self->steps->len - 1));
  for (guint i = 0; i < delta->steps->len; i++)
    {
      const double *lefts, *widths, *counts;
      guint n_buckets = sl_histogram_series_get_buckets (delta, i, &lefts, &widths, &counts);

      sl_histogram_series_append (self, g_array_index (delta->steps, gint64, i), g_array_index (delta->wall_times, double, i),
                                  sl_histogram_series_get_stats (delta, i), n_buckets, lefts, widths, counts);
    }
  self->n_restarts = restarts;
}
