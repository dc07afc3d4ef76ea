/* sl-trace-lod.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-trace-lod.h"

#define FANOUT_BITS 4
#define FANOUT (1u << FANOUT_BITS)
#define MAX_LEVELS 6
#define MAX_BUCKET_LEVELS 24
/* The finest buckets hold eight slices on average. */
#define SLICES_PER_BUCKET 8
#define MIN_BUCKETS 64
/* How far ahead the queries ask for what they will read: buckets whose
 * last slice's place in the depth's list is fetched, and buckets or
 * slices whose start and duration are. */
#define BUCKETS_AHEAD 16
#define SLICES_AHEAD 8
/* query_fine_buckets serves zooms down to this share of a finest bucket a
 * pixel: at 10 % of 32 M slices (the top depth four to six slices a
 * pixel) frames at a new zoom each took 7 % less time than with the walk
 * (in turn in one run, 512 frames each: 7.58 against 8.10 ms and 8.66
 * against 9.30 ms); down to a quarter or an eighth of a bucket they took
 * as long as at a half, or a little longer. */
#define FINE_BUCKET_SHARE 2

/* One level of time buckets: 11 bytes each (12 at the finest), about 2.9 bytes per slice
 * over all levels. */
typedef struct {
  guint    n;
  guint32 *first;     /* first slice starting in each bucket; n + 1 entries */
  guint32 *longest;   /* the longest slice starting in each, as its index in the track */
  guint8  *bits;      /* duration class of the longest: all are below duration_bound (bits) */
  guint8  *start;     /* first start after the bucket's edge, in 1/256 of its width, rounded down */
  guint8  *end;       /* last end after the bucket's edge, in 1/64 of its width, rounded up; 255: further */
  guint8  *gap;       /* finest level only: the widest gap between two of its slices, in 1/256 of its
                       * width, rounded up; 255: that or wider */
} Buckets;

/* A depth's slices as indices in the track, in blocks of 32: each
 * block's first index whole and every slice's as a 16-bit offset from it,
 * 2.1 bytes a slice instead of 4. A depth with a block spanning more than
 * 65535 slices of the track (few slices, far apart) keeps them whole. */
#define LIST_BLOCK_SHIFT 5
#define LIST_BLOCK (1u << LIST_BLOCK_SHIFT)

typedef struct {
  guint    n;
  guint32 *slices;                  /* indices in the track, by start; NULL once packed */
  guint32 *slice_base;              /* packed: the first index of each block */
  guint16 *slice_offset;            /* packed: each index less its block's first */
  guint32 *longest[MAX_LEVELS];     /* level l: blocks of 16^(l+1), depth-local index */
  guint    n_levels;
  /* Time buckets of width bucket_ns << level from base_ns */
  gint64   base_ns;
  gint64   bucket_ns;
  guint    n_bucket_levels;
  Buckets  buckets[MAX_BUCKET_LEVELS];
} Depth;

typedef struct {
  guint   n;
  double *min[MAX_LEVELS];
  double *max[MAX_LEVELS];
  guint   n_levels;
} CounterPyramid;

typedef struct {
  const SlTraceSlices *slices;
  Depth               *depths;
  guint                n_depths;
  CounterPyramid      *counter;
} Track;

struct _SlTraceLod
{
  SlTrace *trace;
  Track   *tracks;
  guint    n_tracks;
  gsize    memory;
};

/* The @k-th slice of the depth, as its index in the track. */
static inline guint32
depth_slice (const Depth *d,
             guint        k)
{
  if (G_LIKELY (d->slice_offset != NULL))
    return d->slice_base[k >> LIST_BLOCK_SHIFT] + d->slice_offset[k];
  return d->slices[k];
}

static inline gint64
slice_start (const SlTraceSlices *s,
             const Depth         *d,
             guint                k)
{
  return sl_trace_slices_start_ns (s, depth_slice (d, k));
}

static inline gint64
track_slice_end (const SlTraceSlices *s,
                 guint32              i)
{
  return sl_trace_slices_start_ns (s, i) + MAX (sl_trace_slices_dur_ns (s, i), 0);
}

static inline gint64
slice_end (const SlTraceSlices *s,
           const Depth         *d,
           guint                k)
{
  return track_slice_end (s, depth_slice (d, k));
}

static inline gint64
slice_dur (const SlTraceSlices *s,
           const Depth         *d,
           guint                k)
{
  return sl_trace_slices_dur_ns (s, depth_slice (d, k));
}

/* Asks for the name of slice @i of the track: what the caller of a query
 * reads of every span's slice, for its colour. */
static inline void
prefetch_name (const SlTraceSlices *s,
               guint32              i)
{
  __builtin_prefetch (&s->name_ids[i]);
}

/* Asks for the start, duration and name of the @k-th slice of the depth
 * ahead of their reading: a depth's slices lie apart in the track,
 * between those of the other depths, so every one read is a cache miss. */
static inline void
prefetch_slice (const SlTraceSlices *s,
                const Depth         *d,
                guint                k)
{
  guint32 i = depth_slice (d, k);

  __builtin_prefetch (&s->start_offset[i]);
  __builtin_prefetch (&s->dur[i]);
  __builtin_prefetch (&s->name_ids[i]);
}

/* The same for the place of the @k-th slice in the depth's list. */
static inline void
prefetch_depth_slice (const Depth *d,
                      guint        k)
{
  if (G_LIKELY (d->slice_offset != NULL))
    __builtin_prefetch (&d->slice_offset[k]);
  else
    __builtin_prefetch (&d->slices[k]);
}

static void
build_depth_levels (SlTraceLod          *self,
                    const SlTraceSlices *s,
                    Depth               *d)
{
  guint n_blocks = d->n / FANOUT;

  for (guint l = 0; l < MAX_LEVELS && n_blocks > 0; l++, n_blocks /= FANOUT)
    {
      guint32 *level = g_new (guint32, n_blocks);

      for (guint b = 0; b < n_blocks; b++)
        {
          guint32 best = 0;
          gint64 best_dur = -1;

          for (guint c = 0; c < FANOUT; c++)
            {
              guint32 k = l == 0 ? b * FANOUT + c : d->longest[l - 1][b * FANOUT + c];
              gint64 dur = slice_dur (s, d, k);

              if (dur > best_dur)
                {
                  best_dur = dur;
                  best = k;
                }
            }
          level[b] = best;
        }

      d->longest[l] = level;
      d->n_levels = l + 1;
      self->memory += n_blocks * sizeof (guint32);
    }
}

/* Duration classes an eighth of an octave apart: class c holds durations
 * below 2^(c/8) ns, so a bucket's longest is known to within 9 %. The last
 * class (past 4 s) is unbounded. */
#define N_CLASSES 256

static gint64 class_bounds[N_CLASSES];

static void
init_class_bounds (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < N_CLASSES - 1; c++)
        class_bounds[c] = (gint64)ceil (pow (2.0, c / 8.0));
      class_bounds[N_CLASSES - 1] = G_MAXINT64;
      g_once_init_leave (&done, 1);
    }
}

static guint8
duration_class (gint64 dur)
{
  guint lo = 0, hi = N_CLASSES - 1;

  /* The smallest class whose bound is above @dur */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (class_bounds[mid] > dur)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Buckets in time: a query at a zoom reads one or two per pixel, in
 * order, instead of searching slice by slice. */
static void
build_depth_buckets (SlTraceLod          *self,
                     const SlTraceSlices *s,
                     Depth               *d)
{
  gint64 span;
  guint n_buckets;

  if (d->n < MIN_BUCKETS * SLICES_PER_BUCKET)
    return;

  d->base_ns = slice_start (s, d, 0);
  span = slice_start (s, d, d->n - 1) - d->base_ns + 1;
  n_buckets = d->n / SLICES_PER_BUCKET;
  d->bucket_ns = MAX ((span + n_buckets - 1) / n_buckets, 1);

  for (guint l = 0; l < MAX_BUCKET_LEVELS; l++)
    {
      gint64 width = d->bucket_ns << l;
      guint nb = (guint)((span + width - 1) / width);
      Buckets *bl = &d->buckets[l];
      guint k = 0;

      if (nb < MIN_BUCKETS && l > 0)
        break;

      bl->n = nb;
      bl->first = g_new (guint32, nb + 1);
      bl->longest = g_new0 (guint32, nb);
      bl->bits = g_new0 (guint8, nb);
      bl->start = g_new0 (guint8, nb);
      bl->end = g_new0 (guint8, nb);
      if (l == 0)
        bl->gap = g_new0 (guint8, nb);
      for (guint b = 0; b < nb; b++)
        {
          gint64 edge = d->base_ns + width * b;

          while (k < d->n && slice_start (s, d, k) < edge)
            k++;
          bl->first[b] = k;
        }
      bl->first[nb] = d->n;

      for (guint b = 0; b < nb; b++)
        {
          guint f = bl->first[b], e = bl->first[b + 1];
          gint64 origin = d->base_ns + width * b;
          gint64 best_dur = -1, end_units;
          guint32 best = depth_slice (d, f);

          if (f == e)
            continue;

          if (l == 0)
            {
              gint64 widest = 0;

              for (guint i = f + 1; i < e; i++)
                widest = MAX (widest, slice_start (s, d, i) - slice_end (s, d, i - 1));
              if (widest >= width)
                bl->gap[b] = 255;
              else if (width <= G_MAXINT64 / 256)
                bl->gap[b] = (guint8)MIN ((widest * 256 + width - 1) / width, 255);
              else
                bl->gap[b] = (guint8)MIN (ceil ((double)widest * 256 / (double)width) + 1, 255);
              for (guint i = f; i < e; i++)
                {
                  if (slice_dur (s, d, i) > best_dur)
                    {
                      best_dur = slice_dur (s, d, i);
                      best = depth_slice (d, i);
                    }
                  bl->bits[b] = MAX (bl->bits[b], duration_class (slice_dur (s, d, i)));
                }
            }
          else
            {
              const Buckets *child = &d->buckets[l - 1];

              for (guint c = 2 * b; c < 2 * b + 2 && c < child->n; c++)
                {
                  if (child->first[c] == child->first[c + 1])
                    continue;
                  bl->bits[b] = MAX (bl->bits[b], child->bits[c]);
                  if (sl_trace_slices_dur_ns (s, child->longest[c]) > best_dur)
                    {
                      best_dur = sl_trace_slices_dur_ns (s, child->longest[c]);
                      best = child->longest[c];
                    }
                }
            }

          bl->longest[b] = best;
          bl->start[b] = (guint8)MIN ((slice_start (s, d, f) - origin) * 256 / width, 255);
          /* Ends are in order within a depth: the last slice ends last. */
          end_units = ((slice_end (s, d, e - 1) - origin) * 64 + width - 1) / width;
          bl->end[b] = (guint8)MIN (end_units, 255);
        }

      d->n_bucket_levels = l + 1;
      self->memory += (gsize)nb * (2 * sizeof (guint32) + 3 + (l == 0 ? 1 : 0)) + sizeof (guint32);
    }
}

/* Packs the depth's slices in blocks when each block spans at most 65535
 * slices of the track. */
static void
pack_depth_slices (SlTraceLod *self,
                   Depth      *d)
{
  guint n_blocks = (d->n + LIST_BLOCK - 1) >> LIST_BLOCK_SHIFT;

  if (d->n == 0)
    return;
  for (guint b = 0; b < n_blocks; b++)
    {
      guint first = b << LIST_BLOCK_SHIFT, last = MIN (first + LIST_BLOCK, d->n) - 1;

      if (d->slices[last] - d->slices[first] > G_MAXUINT16)
        {
          self->memory += (gsize)d->n * sizeof (guint32);
          return;
        }
    }

  d->slice_base = g_new (guint32, n_blocks);
  d->slice_offset = g_new (guint16, d->n);
  for (guint k = 0; k < d->n; k++)
    {
      if ((k & (LIST_BLOCK - 1)) == 0)
        d->slice_base[k >> LIST_BLOCK_SHIFT] = d->slices[k];
      d->slice_offset[k] = (guint16)(d->slices[k] - d->slice_base[k >> LIST_BLOCK_SHIFT]);
    }
  g_clear_pointer (&d->slices, g_free);
  self->memory += n_blocks * sizeof (guint32) + (gsize)d->n * sizeof (guint16);
}

static void
build_slice_track (SlTraceLod          *self,
                   Track               *t,
                   guint                n_depths)
{
  const SlTraceSlices *s = t->slices;
  g_autofree guint *fill = NULL;

  /* Depths are counted from the slices too, in case a lane number goes
   * past what the track announces. */
  for (guint i = 0; i < s->n_slices; i++)
    n_depths = MAX (n_depths, (guint)sl_trace_slices_depth (s, i) + 1);

  t->n_depths = n_depths;
  t->depths = g_new0 (Depth, n_depths);
  fill = g_new0 (guint, n_depths);

  for (guint i = 0; i < s->n_slices; i++)
    t->depths[sl_trace_slices_depth (s, i)].n++;
  for (guint d = 0; d < n_depths; d++)
    t->depths[d].slices = g_new (guint32, t->depths[d].n);
  for (guint i = 0; i < s->n_slices; i++)
    {
      guint d = sl_trace_slices_depth (s, i);

      t->depths[d].slices[fill[d]++] = i;
    }

  self->memory += n_depths * sizeof (Depth);
  for (guint d = 0; d < n_depths; d++)
    {
      build_depth_levels (self, s, &t->depths[d]);
      build_depth_buckets (self, s, &t->depths[d]);
      pack_depth_slices (self, &t->depths[d]);
    }
}

static CounterPyramid *
build_counter (SlTraceLod           *self,
               const SlTraceCounter *c)
{
  CounterPyramid *p = g_new0 (CounterPyramid, 1);
  guint n_blocks = c->n_points / FANOUT;

  p->n = c->n_points;
  for (guint l = 0; l < MAX_LEVELS && n_blocks > 0; l++, n_blocks /= FANOUT)
    {
      p->min[l] = g_new (double, n_blocks);
      p->max[l] = g_new (double, n_blocks);
      for (guint b = 0; b < n_blocks; b++)
        {
          double lo = INFINITY, hi = -INFINITY;

          for (guint k = 0; k < FANOUT; k++)
            {
              guint i = b * FANOUT + k;
              double vlo = l == 0 ? c->value[i] : p->min[l - 1][i];
              double vhi = l == 0 ? c->value[i] : p->max[l - 1][i];

              if (isfinite (vlo))
                lo = MIN (lo, vlo);
              if (isfinite (vhi))
                hi = MAX (hi, vhi);
            }
          p->min[l][b] = lo;
          p->max[l][b] = hi;
        }
      p->n_levels = l + 1;
      self->memory += n_blocks * 2 * sizeof (double);
    }

  return p;
}

/**
 * sl_trace_lod_new:
 * @cancellable: (nullable): checked between tracks
 *
 * Builds the index of every track of @trace; meant for a worker thread.
 *
 * Returns: (transfer full) (nullable): the index, or %NULL when cancelled
 */
SlTraceLod *
sl_trace_lod_new (SlTrace      *trace,
                  GCancellable *cancellable)
{
  g_autoptr(SlTraceLod) self = NULL;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  init_class_bounds ();
  self = g_new0 (SlTraceLod, 1);
  self->trace = g_object_ref (trace);
  self->n_tracks = sl_trace_get_n_tracks (trace);
  self->tracks = g_new0 (Track, self->n_tracks);

  for (guint t = 0; t < self->n_tracks; t++)
    {
      Track *track = &self->tracks[t];

      if (g_cancellable_is_cancelled (cancellable))
        return NULL;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
        {
          const SlTraceCounter *c = sl_trace_get_counter (trace, t);

          if (c != NULL)
            track->counter = build_counter (self, c);
          continue;
        }

      track->slices = sl_trace_get_slices (trace, t);
      if (track->slices != NULL)
        build_slice_track (self, track, sl_trace_get_track_n_depths (trace, t));
    }

  return g_steal_pointer (&self);
}

void
sl_trace_lod_free (SlTraceLod *self)
{
  if (self == NULL)
    return;

  for (guint t = 0; t < self->n_tracks; t++)
    {
      Track *track = &self->tracks[t];

      for (guint d = 0; d < track->n_depths; d++)
        {
          g_free (track->depths[d].slices);
          g_free (track->depths[d].slice_base);
          g_free (track->depths[d].slice_offset);
          for (guint l = 0; l < track->depths[d].n_levels; l++)
            g_free (track->depths[d].longest[l]);
          for (guint l = 0; l < track->depths[d].n_bucket_levels; l++)
            {
              Buckets *bl = &track->depths[d].buckets[l];

              g_free (bl->first);
              g_free (bl->longest);
              g_free (bl->bits);
              g_free (bl->start);
              g_free (bl->end);
              g_free (bl->gap);
            }
        }
      g_free (track->depths);
      if (track->counter != NULL)
        {
          for (guint l = 0; l < track->counter->n_levels; l++)
            {
              g_free (track->counter->min[l]);
              g_free (track->counter->max[l]);
            }
          g_free (track->counter);
        }
    }
  g_free (self->tracks);
  g_clear_object (&self->trace);
  g_free (self);
}

/**
 * sl_trace_lod_get_trace:
 *
 * Returns: (transfer none): the trace the index was built for
 */
SlTrace *
sl_trace_lod_get_trace (SlTraceLod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->trace;
}

gsize
sl_trace_lod_get_memory_size (SlTraceLod *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->memory + sizeof *self + self->n_tracks * sizeof (Track);
}

guint
sl_trace_lod_get_n_depths (SlTraceLod *self,
                           guint       track)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (track < self->n_tracks, 0);

  return self->tracks[track].n_depths;
}

/**
 * sl_trace_lod_get_depth_n_slices:
 *
 * Returns: how many slices of the track are at @depth
 */
guint
sl_trace_lod_get_depth_n_slices (SlTraceLod *self,
                                 guint       track,
                                 guint       depth)
{
  g_return_val_if_fail (self != NULL, 0);

  if (track >= self->n_tracks || depth >= self->tracks[track].n_depths)
    return 0;
  return self->tracks[track].depths[depth].n;
}

/**
 * sl_trace_lod_get_depth_slice:
 *
 * Returns: the track's @k-th slice at @depth in start order, as its index
 *   in the track
 */
guint32
sl_trace_lod_get_depth_slice (SlTraceLod *self,
                              guint       track,
                              guint       depth,
                              guint       k)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (k < sl_trace_lod_get_depth_n_slices (self, track, depth), 0);

  return depth_slice (&self->tracks[track].depths[depth], k);
}

/* The first slice of the depth in [@lo, @hi) that ends at or after @at,
 * or @hi. */
static guint
lower_bound_end_in (const SlTraceSlices *s,
                    const Depth         *d,
                    guint                lo,
                    guint                hi,
                    gint64               at,
                    guint               *visited)
{
  /* Packed, the blocks' first slices are searched first: they are the
   * bases alone, and then the rest is one block of offsets. */
  if (d->slice_offset != NULL)
    {
      guint first = (lo + LIST_BLOCK - 1) >> LIST_BLOCK_SHIFT;
      guint b_lo = first, b_hi = (hi + LIST_BLOCK - 1) >> LIST_BLOCK_SHIFT;

      while (b_lo < b_hi)
        {
          guint mid = b_lo + (b_hi - b_lo) / 2;

          (*visited)++;
          if (track_slice_end (s, d->slice_base[mid]) < at)
            b_lo = mid + 1;
          else
            b_hi = mid;
        }
      /* after the first slice of the block before, up to this one's */
      hi = (guint) MIN ((gsize) hi, (gsize) b_lo << LIST_BLOCK_SHIFT);
      if (b_lo > first)
        lo = MAX (lo, ((b_lo - 1) << LIST_BLOCK_SHIFT) + 1);
    }

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      (*visited)++;
      if (slice_end (s, d, mid) < at)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first slice of the depth that ends at or after @at. Where the depth
 * has buckets, only among the slices of @at's finest bucket and the one
 * before them: a slice that starts before the bucket and is not the last
 * to do so ends before that one starts, and one that starts after the
 * bucket ends after @at. A search over the whole depth read a slice a step
 * from all over it, each step a cache miss, for every row of every tile. */
static guint
lower_bound_end (const SlTraceSlices *s,
                 const Depth         *d,
                 gint64               at,
                 guint               *visited)
{
  const Buckets *finest = &d->buckets[0];
  guint64 b;

  if (d->n_bucket_levels == 0 || finest->n == 0 || at <= d->base_ns)
    return lower_bound_end_in (s, d, 0, d->n, at, visited);
  /* at > base_ns, so the difference fits unsigned */
  b = MIN (((guint64)at - (guint64)d->base_ns) / (guint64)d->bucket_ns, (guint64)finest->n - 1);
  return lower_bound_end_in (s, d, finest->first[b] > 0 ? finest->first[b] - 1 : 0, finest->first[b + 1], at,
                             visited);
}

/* Exponential search from @from: cheap when the answer is near, which it is
 * when the run of narrow slices is short. */
static guint
gallop_end (const SlTraceSlices *s,
            const Depth         *d,
            guint                from,
            gint64               at,
            guint               *visited)
{
  guint lo = from, step = 1, hi = from;

  while (hi < d->n)
    {
      (*visited)++;
      if (slice_end (s, d, hi) >= at)
        break;
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
  hi = MIN (hi, d->n);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      (*visited)++;
      if (slice_end (s, d, mid) < at)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static inline void
consider (const SlTraceSlices *s,
          const Depth         *d,
          guint                k,
          guint               *best,
          gint64              *best_dur)
{
  gint64 dur = slice_dur (s, d, k);

  if (dur > *best_dur)
    {
      *best_dur = dur;
      *best = k;
    }
}

/* The longest slice in [i, j) of the depth, near enough for a colour:
 * whole blocks from the pyramid and the first slice, never the ragged
 * ends slice by slice (reading them would cost more than the drawing). */
static guint
longest_in (const SlTraceSlices *s,
            const Depth         *d,
            guint                i,
            guint                j,
            guint               *visited)
{
  guint best = i;
  gint64 best_dur = -1;

  consider (s, d, i, &best, &best_dur);
  (*visited)++;
  if (d->n_levels == 0 || j - i < FANOUT)
    return best;

  i = (i + FANOUT - 1) / FANOUT * FANOUT;
  while (i + FANOUT <= j)
    {
      guint level = 1;

      /* The largest aligned block that starts at i and fits. */
      while (level < d->n_levels)
        {
          guint size = 1u << (FANOUT_BITS * (level + 1));

          if (i % size != 0 || i + size > j)
            break;
          level++;
        }

      (*visited)++;
      consider (s, d, d->longest[level - 1][i >> (FANOUT_BITS * level)], &best, &best_dur);
      i += 1u << (FANOUT_BITS * level);
    }

  return best;
}

typedef struct {
  GArray *spans;
  double  ns_per_pixel;
  gint64  last_weight;   /* how long the last span's slice is (or a bound) */
} Emit;

static void
push_span (Emit    *emit,
           gint64   start,
           gint64   end,
           guint32  slice,
           guint32  n,
           gboolean mergeable,
           gint64   weight)
{
  SlTraceLodSpan span = { start, end, slice, n };
  GArray *spans = emit->spans;

  /* Narrow runs that touch on screen become one block, coloured like the
   * longer of the two. */
  if (mergeable && spans->len > 0)
    {
      SlTraceLodSpan *last = &g_array_index (spans, SlTraceLodSpan, spans->len - 1);

      if ((last->n_slices > 1 || last->end_ns - last->start_ns < emit->ns_per_pixel)
          && start - last->end_ns < emit->ns_per_pixel)
        {
          if (weight > emit->last_weight)
            {
              last->slice = slice;
              emit->last_weight = weight;
            }
          last->end_ns = MAX (last->end_ns, end);
          last->n_slices += n;
          return;
        }
    }

  g_array_append_val (spans, span);
  emit->last_weight = weight;
}

/* Whether query_buckets reads bucket @b's last slice: it is not empty
 * and its longest slice could be a pixel wide, or could end further than
 * the bucket's end column says. */
static inline gboolean
bucket_reads_last (const Buckets *bl,
                   guint          b,
                   double         p)
{
  return bl->first[b] != bl->first[b + 1] && (class_bounds[bl->bits[b]] > p || bl->end[b] == 255);
}

/* Zoomed out: walk the buckets of the coarsest level not wider than a
 * pixel, reading only the bucket columns. Slices of one depth do not
 * overlap, so a slice a pixel wide or more can only be the last to start in
 * its bucket, and only a bucket whose longest could be that wide has its
 * last slice read. */
static guint
query_buckets (const SlTraceSlices *s,
               const Depth         *d,
               guint                from,
               gint64               t1,
               Emit                *emit)
{
  double p = emit->ns_per_pixel;
  guint level = 0, visited = 0;
  const Buckets *bl;
  gint64 width;
  guint b, b_end;

  while (level + 1 < d->n_bucket_levels && (d->bucket_ns << (level + 1)) <= p)
    level++;
  bl = &d->buckets[level];
  width = d->bucket_ns << level;
  if (from >= d->n)
    return 0;
  b = (guint)((slice_start (s, d, from) - d->base_ns) / width);
  /* the buckets up to t1's */
  b_end = t1 < d->base_ns ? 0 : (guint)MIN ((guint64)bl->n, (guint64)((t1 - d->base_ns) / width) + 1);
  for (guint k = b; k < MIN (b + BUCKETS_AHEAD, b_end); k++)
    if (bucket_reads_last (bl, k, p))
      prefetch_depth_slice (d, bl->first[k + 1] - 1);

  for (; b < bl->n; b++)
    {
      guint f = bl->first[b], e = bl->first[b + 1];
      gint64 origin = d->base_ns + width * b;
      gint64 start, end, bound;
      guint32 longest;

      /* The last slices of the buckets ahead that will be read: their
       * places in the depth's list first, then, once those are here,
       * their starts and durations. */
      if (b + BUCKETS_AHEAD < b_end && bucket_reads_last (bl, b + BUCKETS_AHEAD, p))
        prefetch_depth_slice (d, bl->first[b + BUCKETS_AHEAD + 1] - 1);
      if (b + SLICES_AHEAD < b_end && bl->first[b + SLICES_AHEAD] != bl->first[b + SLICES_AHEAD + 1])
        {
          prefetch_name (s, bl->longest[b + SLICES_AHEAD]);
          if (bucket_reads_last (bl, b + SLICES_AHEAD, p))
            prefetch_slice (s, d, bl->first[b + SLICES_AHEAD + 1] - 1);
        }

      visited++;
      if (f == e)
        continue;
      if (origin > t1)
        break;

      start = origin + bl->start[b] * width / 256;
      end = origin + (bl->end[b] * width + 63) / 64;
      bound = class_bounds[bl->bits[b]];
      longest = bl->longest[b];

      if (bound > p || bl->end[b] == 255)
        {
          guint last = e - 1;
          gint64 last_start = slice_start (s, d, last);
          gint64 last_end = slice_end (s, d, last);

          visited += 2;
          if (last_end - last_start >= p)
            {
              if (f < last)
                push_span (emit, start, last_start, longest == depth_slice (d, last) ? depth_slice (d, f) : longest, last - f,
                           TRUE, 0);
              push_span (emit, last_start, last_end, depth_slice (d, last), 1, FALSE, last_end - last_start);
              continue;
            }
          end = last_end;
        }

      push_span (emit, start, end, longest, e - f, TRUE, bound);
    }

  return visited;
}

/* Whether query_fine_buckets reads bucket @b's slices one by one: one of
 * them may be a pixel wide, or two of them a pixel apart. */
static inline gboolean
fine_bucket_walked (const Buckets *bl,
                    guint          b,
                    gint64         width,
                    double         p)
{
  return class_bounds[bl->bits[b]] > p || bl->gap[b] == 255 || (double)bl->gap[b] * (double)width >= p * 256;
}

/* Zoomed out to between half a finest bucket a pixel and a whole one,
 * where a walk would read four to eight slices a pixel, each a cache
 * miss: a finest bucket whose slices are all narrower than a pixel and lie
 * less than a pixel apart is one run, from its columns alone, as in
 * query_buckets; only the slices of the others are read, one by one, and
 * pushed as the walk would (push_span merges the narrow ones that touch
 * on screen). A gap of a pixel or more between two slices is never
 * covered. */
static guint
query_fine_buckets (const SlTraceSlices *s,
                    const Depth         *d,
                    guint                from,
                    gint64               t1,
                    gint64               px,
                    Emit                *emit)
{
  double p = emit->ns_per_pixel;
  const Buckets *bl = &d->buckets[0];
  gint64 width = d->bucket_ns;
  guint visited = 1;
  guint b;

  if (from >= d->n)
    return 0;
  b = (guint)((slice_start (s, d, from) - d->base_ns) / width);
  for (; b < bl->n; b++)
    {
      guint f = bl->first[b], e = bl->first[b + 1];
      gint64 origin = d->base_ns + width * b;
      gint64 bound = class_bounds[bl->bits[b]];

      visited++;
      if (origin > t1)
        break;
      if (f == e)
        continue;

      if (!fine_bucket_walked (bl, b, width, p))
        {
          gint64 start = origin + bl->start[b] * width / 256;
          gint64 end = origin + (bl->end[b] * width + 63) / 64;

          if (bl->end[b] == 255)
            {
              end = slice_end (s, d, e - 1);
              visited++;
            }
          push_span (emit, start, end, bl->longest[b], e - f, TRUE, bound);
          continue;
        }

      for (guint k = MAX (f, from); k < e; k++)
        {
          gint64 start = slice_start (s, d, k), end = slice_end (s, d, k);

          visited++;
          if (start > t1)
            return visited;
          push_span (emit, start, end, depth_slice (d, k), 1, end - start < px, end - start);
        }
    }

  return visited;
}

/**
 * sl_trace_lod_query:
 * @t0: left edge of the view, in trace nanoseconds
 * @t1: right edge
 * @ns_per_pixel: the zoom
 * @spans: (element-type SlTraceLodSpan): appended to
 *
 * Lists what to draw in one row. Every slice at least a pixel wide comes
 * out alone; narrower ones come out merged into runs.
 *
 * Returns: how many slices and blocks were read, to check the cost
 */
guint
sl_trace_lod_query (SlTraceLod *self,
                    guint       track,
                    guint       depth,
                    gint64      t0,
                    gint64      t1,
                    double      ns_per_pixel,
                    GArray     *spans)
{
  const SlTraceSlices *s;
  const Depth *d;
  guint visited = 0;
  gint64 px = MAX ((gint64)ceil (ns_per_pixel), 1);
  Emit emit = { spans, ns_per_pixel, 0 };
  guint i, ahead, limit;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (spans != NULL, 0);

  if (track >= self->n_tracks || depth >= self->tracks[track].n_depths)
    return 0;

  s = self->tracks[track].slices;
  d = &self->tracks[track].depths[depth];

  i = lower_bound_end (s, d, t0, &visited);
  if (d->n_bucket_levels > 0 && ns_per_pixel >= d->bucket_ns)
    return visited + query_buckets (s, d, i, t1, &emit);
  if (d->n_bucket_levels > 0 && ns_per_pixel * FINE_BUCKET_SHARE >= d->bucket_ns)
    return visited + query_fine_buckets (s, d, i, t1, px, &emit);

  /* No slice after those that start in t1's finest bucket is read. */
  limit = d->n;
  if (d->n_bucket_levels > 0 && d->buckets[0].n > 0 && t1 >= d->base_ns)
    limit = d->buckets[0].first[MIN ((guint64)(t1 - d->base_ns) / (guint64)d->bucket_ns + 1,
                                     (guint64)d->buckets[0].n)];
  ahead = i;
  while (i < d->n)
    {
      gint64 start, end;
      guint j, longest;

      /* the next slices, which the walk reads one after the other unless
       * a narrow run takes it past them */
      for (ahead = MAX (ahead, i); ahead < MIN (i + SLICES_AHEAD, limit); ahead++)
        prefetch_slice (s, d, ahead);
      start = slice_start (s, d, i);
      end = slice_end (s, d, i);
      if (start > t1)
        break;
      visited++;

      if (end - start >= px)
        {
          push_span (&emit, start, end, depth_slice (d, i), 1, FALSE, end - start);
          i++;
          continue;
        }

      /* Everything from i that ends within a pixel of its start. */
      j = gallop_end (s, d, i + 1, start + px, &visited);
      longest = j - i == 1 ? i : longest_in (s, d, i, j, &visited);
      push_span (&emit, start, slice_end (s, d, j - 1), depth_slice (d, longest), j - i, TRUE, slice_dur (s, d, longest));
      i = j;
    }

  return visited;
}

/**
 * sl_trace_lod_hit:
 * @tolerance_ns: how far a narrow slice or an instant may be from @at_ns
 * @slice: (out): its index in the track
 *
 * Finds the slice of @depth under a point: the one containing @at_ns, or
 * else the nearest one within @tolerance_ns.
 *
 * Returns: whether there is one
 */
gboolean
sl_trace_lod_hit (SlTraceLod *self,
                  guint       track,
                  guint       depth,
                  gint64      at_ns,
                  gint64      tolerance_ns,
                  guint32    *slice)
{
  const SlTraceSlices *s;
  const Depth *d;
  guint visited = 0;
  guint i;
  gint64 best_distance = G_MAXINT64;
  gboolean found = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (slice != NULL, FALSE);

  if (track >= self->n_tracks || depth >= self->tracks[track].n_depths)
    return FALSE;

  s = self->tracks[track].slices;
  d = &self->tracks[track].depths[depth];
  i = lower_bound_end (s, d, at_ns - tolerance_ns, &visited);

  for (; i < d->n; i++)
    {
      gint64 start = slice_start (s, d, i);
      gint64 end = slice_end (s, d, i);
      gint64 distance = at_ns < start ? start - at_ns : at_ns > end ? at_ns - end : 0;

      if (start > at_ns + tolerance_ns)
        break;
      if (distance < best_distance)
        {
          best_distance = distance;
          *slice = depth_slice (d, i);
          found = TRUE;
          if (distance == 0)
            break;
        }
    }

  return found;
}

static guint
lower_bound_ts (const gint64 *ts,
                guint         lo,
                guint         n,
                gint64        at)
{
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ts[mid] < at)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
counter_extent (const SlTraceCounter *c,
                const CounterPyramid *p,
                guint                 i,
                guint                 j,
                double               *lo,
                double               *hi)
{
  while (i < j)
    {
      guint level = 0;

      while (level < p->n_levels)
        {
          guint size = 1u << (FANOUT_BITS * (level + 1));

          if (i % size != 0 || i + size > j)
            break;
          level++;
        }

      if (level == 0)
        {
          if (isfinite (c->value[i]))
            {
              *lo = MIN (*lo, c->value[i]);
              *hi = MAX (*hi, c->value[i]);
            }
          i++;
        }
      else
        {
          guint size = 1u << (FANOUT_BITS * level);

          *lo = MIN (*lo, p->min[level - 1][i / size]);
          *hi = MAX (*hi, p->max[level - 1][i / size]);
          i += size;
        }
    }
}

/**
 * sl_trace_lod_query_counter:
 * @width: pixel columns between @t0 and @t1
 * @columns: (array length=width) (out caller-allocates): filled
 *
 * A counter holds its value until the next point, so a column starts with
 * the value held at its left edge and widens to the points inside it.
 */
void
sl_trace_lod_query_counter (SlTraceLod       *self,
                            guint             track,
                            gint64            t0,
                            gint64            t1,
                            guint             width,
                            SlTraceLodColumn *columns)
{
  const SlTraceCounter *c;
  const CounterPyramid *p;
  double span;
  guint a;

  g_return_if_fail (self != NULL);
  g_return_if_fail (columns != NULL || width == 0);

  for (guint x = 0; x < width; x++)
    columns[x] = (SlTraceLodColumn) { NAN, NAN, NAN, FALSE };

  if (track >= self->n_tracks || self->tracks[track].counter == NULL || width == 0 || t1 <= t0)
    return;

  c = sl_trace_get_counter (self->trace, track);
  p = self->tracks[track].counter;
  span = (double)(t1 - t0);
  a = lower_bound_ts (c->ts_ns, 0, c->n_points, t0);

  for (guint x = 0; x < width; x++)
    {
      gint64 edge = t0 + (gint64)(span * (x + 1) / width);
      guint b = lower_bound_ts (c->ts_ns, a, c->n_points, edge);
      double lo = INFINITY, hi = -INFINITY;
      SlTraceLodColumn *col = &columns[x];

      if (a > 0 && isfinite (c->value[a - 1]))
        {
          col->first = c->value[a - 1];
          lo = hi = col->first;
        }
      else if (b > a)
        col->first = c->value[a];

      counter_extent (c, p, a, b, &lo, &hi);
      col->defined = lo <= hi;
      col->min = col->defined ? lo : NAN;
      col->max = col->defined ? hi : NAN;
      a = b;
    }
}
