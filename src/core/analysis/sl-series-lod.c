/* sl-series-lod.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-series-lod.h"

/* Level l holds the extents of blocks of 16^(l+1) points: 16, 256, 4096
 * and 65536. A range then costs at most 15 points at each end and 15
 * blocks per level. */
#define N_LEVELS 4
#define FANOUT 16u

/* The extent of a block. The positive minimum serves log axes, where the
 * non-positive values cannot be drawn. */
typedef struct {
  double min;
  double max;
  double min_pos;
  double max_pos;
  guint  n_finite;
  guint  n_pos;
} Block;

struct _SlSeriesLod
{
  GArray *values;
  GArray *levels[N_LEVELS];
};

static inline guint
block_size (guint level)
{
  return 1u << (4 * (level + 1));
}

static void
block_clear (Block *b)
{
  b->min = b->min_pos = INFINITY;
  b->max = b->max_pos = -INFINITY;
  b->n_finite = b->n_pos = 0;
}

static inline void
block_add_value (Block  *b,
                 double  v)
{
  if (!isfinite (v))
    return;
  b->n_finite++;
  b->min = MIN (b->min, v);
  b->max = MAX (b->max, v);
  if (v > 0)
    {
      b->n_pos++;
      b->min_pos = MIN (b->min_pos, v);
      b->max_pos = MAX (b->max_pos, v);
    }
}

static inline void
block_merge (Block       *b,
             const Block *o)
{
  b->n_finite += o->n_finite;
  b->n_pos += o->n_pos;
  b->min = MIN (b->min, o->min);
  b->max = MAX (b->max, o->max);
  b->min_pos = MIN (b->min_pos, o->min_pos);
  b->max_pos = MAX (b->max_pos, o->max_pos);
}

static inline gboolean
drawable (double   v,
          gboolean log_y)
{
  return isfinite (v) && (!log_y || v > 0);
}

SlSeriesLod *
sl_series_lod_new (void)
{
  SlSeriesLod *self = g_new0 (SlSeriesLod, 1);

  self->values = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint l = 0; l < N_LEVELS; l++)
    self->levels[l] = g_array_new (FALSE, FALSE, sizeof (Block));

  return self;
}

void
sl_series_lod_free (SlSeriesLod *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->values);
  for (guint l = 0; l < N_LEVELS; l++)
    g_array_unref (self->levels[l]);
  g_free (self);
}

/* Adds the blocks that became complete; earlier ones never change. */
static void
extend_levels (SlSeriesLod *self)
{
  const double *v = (const double *)(gpointer)self->values->data;
  guint n = self->values->len;

  for (guint b = self->levels[0]->len; b < n / FANOUT; b++)
    {
      Block block;

      block_clear (&block);
      for (guint i = b * FANOUT; i < (b + 1) * FANOUT; i++)
        block_add_value (&block, v[i]);
      g_array_append_val (self->levels[0], block);
    }

  for (guint l = 1; l < N_LEVELS; l++)
    for (guint b = self->levels[l]->len; b < n / block_size (l); b++)
      {
        const Block *below = &g_array_index (self->levels[l - 1], Block, b * FANOUT);
        Block block;

        block_clear (&block);
        for (guint i = 0; i < FANOUT; i++)
          block_merge (&block, &below[i]);
        g_array_append_val (self->levels[l], block);
      }
}

/**
 * sl_series_lod_append:
 *
 * Appends values; only the blocks they complete are computed.
 */
void
sl_series_lod_append (SlSeriesLod  *self,
                      const double *values,
                      guint         n)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (n == 0 || values != NULL);

  g_array_append_vals (self->values, values, n);
  extend_levels (self);
}

/**
 * sl_series_lod_truncate:
 *
 * Keeps the first @n_points values, as after a restarted job.
 */
void
sl_series_lod_truncate (SlSeriesLod *self,
                        guint        n_points)
{
  g_return_if_fail (self != NULL);

  if (n_points >= self->values->len)
    return;

  g_array_set_size (self->values, n_points);
  for (guint l = 0; l < N_LEVELS; l++)
    g_array_set_size (self->levels[l], n_points / block_size (l));
}

guint
sl_series_lod_get_n_points (SlSeriesLod *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->values->len;
}

const double *
sl_series_lod_get_values (SlSeriesLod *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const double *)(gpointer)self->values->data;
}

/**
 * sl_series_lod_range:
 * @column: (out caller-allocates): the extent of the values in
 *   [@start, @end)
 *
 * Whole blocks come from the pyramid; only the ragged ends are read.
 */
void
sl_series_lod_range (SlSeriesLod *self,
                     guint        start,
                     guint        end,
                     gboolean     log_y,
                     SlLodColumn *column)
{
  const double *v;
  Block acc;
  guint i, n_finite = 0;

  g_return_if_fail (self != NULL);
  g_return_if_fail (column != NULL);

  end = MIN (end, self->values->len);
  v = (const double *)(gpointer)self->values->data;
  column->min = column->max = column->first = column->last = NAN;
  column->n = column->n_skipped = 0;
  if (start >= end)
    return;

  block_clear (&acc);
  i = start;
  while (i < end)
    {
      int l;

      /* The largest block that starts here and fits. */
      for (l = N_LEVELS - 1; l >= 0; l--)
        {
          guint size = block_size (l);

          if (i % size == 0 && i + size <= end)
            break;
        }
      if (l >= 0)
        {
          block_merge (&acc, &g_array_index (self->levels[l], Block, i / block_size (l)));
          i += block_size (l);
        }
      else
        {
          block_add_value (&acc, v[i]);
          i++;
        }
    }

  n_finite = log_y ? acc.n_pos : acc.n_finite;
  column->n = n_finite;
  column->n_skipped = (end - start) - n_finite;
  if (n_finite == 0)
    return;

  column->min = log_y ? acc.min_pos : acc.min;
  column->max = log_y ? acc.max_pos : acc.max;

  for (i = start; i < end; i++)
    if (drawable (v[i], log_y))
      {
        column->first = v[i];
        break;
      }
  for (i = end; i > start; i--)
    if (drawable (v[i - 1], log_y))
      {
        column->last = v[i - 1];
        break;
      }
}

/**
 * sl_lod_column_edge:
 *
 * Returns: the x where @column starts; column c holds the points with
 *   edge (c) <= x < edge (c + 1)
 */
double
sl_lod_column_edge (double x_min,
                    double x_max,
                    guint  width,
                    guint  column)
{
  if (column >= width)
    return x_max;
  return x_min + (x_max - x_min) * ((double)column / (double)width);
}

/**
 * sl_lod_lower_bound:
 * @x: ascending
 *
 * Returns: the first index whose x is >= @at; @n when there is none
 */
guint
sl_lod_lower_bound (const double *x,
                    guint         n,
                    double        at)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (x[mid] < at)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * sl_series_lod_query:
 * @x: ascending x of every point (steps or seconds)
 * @columns: (out caller-allocates): @width columns
 *
 * One column per pixel over [@x_min, @x_max). Costs O(width × log n)
 * plus the pyramid reads, whatever the number of points in view.
 */
void
sl_series_lod_query (SlSeriesLod  *self,
                     const double *x,
                     double        x_min,
                     double        x_max,
                     guint         width,
                     gboolean      log_y,
                     SlLodColumn  *columns)
{
  guint n, start;

  g_return_if_fail (self != NULL);
  g_return_if_fail (width == 0 || columns != NULL);

  n = self->values->len;
  g_return_if_fail (n == 0 || x != NULL);

  start = sl_lod_lower_bound (x, n, x_min);
  for (guint c = 0; c < width; c++)
    {
      double edge = sl_lod_column_edge (x_min, x_max, width, c + 1);
      guint end;

      guint step = 1, lo;

      /* The edge is near the previous one: gallop from there, so the
       * search stays in cache and costs log (points per column). */
      while (start + step < n && x[start + step] < edge)
        step *= 2;
      lo = start + step / 2;
      end = lo + sl_lod_lower_bound (x + lo, MIN (start + step + 1, n) - lo, edge);
      sl_series_lod_range (self, start, end, log_y, &columns[c]);
      start = end;
    }
}
