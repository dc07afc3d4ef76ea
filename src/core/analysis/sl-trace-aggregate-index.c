/* sl-trace-aggregate-index.c: partial sums by name, to sum up a range fast
 *
 * A slice is in a range [from, to] when it starts at or before to and ends
 * at or after from. Slices are in start order, so those starting at or
 * before to are the first of the track; of these a block counts whole when
 * its earliest end is at or after from, and not at all when its latest end
 * is before it. A block of many names (more than a quarter of its slices)
 * keeps no sums and is always read slice by slice, so that the index stays
 * small on traces of unique names: at most 10 bytes a slice, far less on
 * traces of repeated ops.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-trace-index-slot.h"
#include "sl-trace-aggregate-index.h"

#define BLOCK 4096
#define NO_ROWS G_MAXUINT32

typedef struct {
  guint32 name_id;
  guint32 count;
  gint64  total_ns;
  gint64  self_ns;
  gint64  min_ns;
  gint64  max_ns;
} Partial;

typedef struct {
  gint64  min_end;
  gint64  max_end;
  guint32 first_row;
  guint32 n_rows;     /* NO_ROWS: read slice by slice */
} Block;

typedef struct {
  gboolean  indexed;   /* slices with starts in order and sums kept */
  gint64    min_end;
  guint     n_blocks;
  Block    *blocks;
  Partial  *rows;      /* the blocks', then the whole track's */
  guint32   track_first_row;
  guint32   track_n_rows;
} TrackIndex;

struct _SlTraceAggregateIndex
{
  SlTrace    *trace;   /* not owned: the index lives in the trace's data */
  guint       n_tracks;
  TrackIndex *tracks;
  gsize       memory;
};

/* The only reads of slice columns here, so that they are easy to find.
 * A self time is found from the slice's children, so it is read only for
 * slices that count. */
static inline void
read_slice (const SlTraceSlices *s,
            guint32              i,
            guint32             *name,
            gint64              *start,
            gint64              *dur)
{
  *name = sl_trace_slices_name_id (s, i);
  *start = sl_trace_slices_start_ns (s, i);
  *dur = sl_trace_slices_dur_ns (s, i);
}

static inline gint64
read_self (const SlTraceSlices *s,
           guint32              i)
{
  return sl_trace_slices_self_ns (s, i);
}

static inline gint64
read_start (const SlTraceSlices *s,
            guint32              i)
{
  return sl_trace_slices_start_ns (s, i);
}

/* sums of hostile durations saturate instead of overflowing */
static inline gint64
add_saturated (gint64 a,
               gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  return a + b;
}

/* the end as the plain sum computes it, wrapping on hostile values */
static inline gint64
end_of (gint64 start,
        gint64 dur)
{
  return (gint64)((guint64)start + (guint64)dur);
}

static void
index_free (SlTraceAggregateIndex *self)
{
  for (guint t = 0; t < self->n_tracks; t++)
    {
      g_free (self->tracks[t].blocks);
      g_free (self->tracks[t].rows);
    }
  g_free (self->tracks);
  g_free (self);
}

static Partial *
partial_for (GArray  *rows,
             guint32 *row_of_name,
             guint32  name)
{
  if (row_of_name[name] == 0)
    {
      Partial fresh = { name, 0, 0, 0, G_MAXINT64, G_MININT64 };

      g_array_append_val (rows, fresh);
      row_of_name[name] = rows->len;
    }
  return &g_array_index (rows, Partial, row_of_name[name] - 1);
}

static void
partial_add (Partial       *into,
             const Partial *p)
{
  into->count += p->count;
  into->total_ns = add_saturated (into->total_ns, p->total_ns);
  into->self_ns = add_saturated (into->self_ns, p->self_ns);
  into->min_ns = MIN (into->min_ns, p->min_ns);
  into->max_ns = MAX (into->max_ns, p->max_ns);
}

static void
build_track (TrackIndex          *ti,
             const SlTraceSlices *s,
             guint32             *block_row,
             guint32             *track_row)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Partial));
  GArray *track_rows = g_array_new (FALSE, FALSE, sizeof (Partial));
  gint64 previous = G_MININT64;

  ti->indexed = TRUE;
  ti->min_end = G_MAXINT64;
  ti->n_blocks = (s->n_slices + BLOCK - 1) / BLOCK;
  ti->blocks = g_new (Block, MAX (ti->n_blocks, 1));
  for (guint b = 0; b < ti->n_blocks && ti->indexed; b++)
    {
      Block *blk = &ti->blocks[b];
      guint32 first = b * BLOCK, last = MIN (first + BLOCK, s->n_slices);

      blk->min_end = G_MAXINT64;
      blk->max_end = G_MININT64;
      blk->first_row = rows->len;
      for (guint32 i = first; i < last; i++)
        {
          guint32 name;
          gint64 start, dur, end;
          Partial *p;

          read_slice (s, i, &name, &start, &dur);
          if (start < previous)
            {
              ti->indexed = FALSE;   /* out of order: read it all as the plain sum does */
              break;
            }
          previous = start;
          end = end_of (start, dur);
          blk->min_end = MIN (blk->min_end, end);
          blk->max_end = MAX (blk->max_end, end);
          p = partial_for (rows, block_row, name);
          p->count++;
          p->total_ns = add_saturated (p->total_ns, dur);
          p->self_ns = add_saturated (p->self_ns, read_self (s, i));
          p->min_ns = MIN (p->min_ns, dur);
          p->max_ns = MAX (p->max_ns, dur);
        }
      blk->n_rows = rows->len - blk->first_row;
      ti->min_end = MIN (ti->min_end, blk->min_end);
      for (guint32 r = blk->first_row; r < rows->len; r++)
        {
          const Partial *p = &g_array_index (rows, Partial, r);

          block_row[p->name_id] = 0;
          partial_add (partial_for (track_rows, track_row, p->name_id), p);
        }
      if (blk->n_rows > BLOCK / 4)
        {
          g_array_set_size (rows, blk->first_row);
          blk->n_rows = NO_ROWS;
        }
    }

  for (guint32 r = 0; r < track_rows->len; r++)
    track_row[g_array_index (track_rows, Partial, r).name_id] = 0;
  if (!ti->indexed)
    {
      g_clear_pointer (&ti->blocks, g_free);
      ti->n_blocks = 0;
      g_array_set_size (rows, 0);
      g_array_set_size (track_rows, 0);
    }
  ti->track_first_row = rows->len;
  ti->track_n_rows = track_rows->len;
  g_array_append_vals (rows, track_rows->data, track_rows->len);
  g_array_unref (track_rows);
  ti->rows = (Partial *)(gpointer)g_array_free (rows, FALSE);
}

static SlTraceAggregateIndex *
index_build (SlTrace      *trace,
             GCancellable *cancellable)
{
  SlTraceAggregateIndex *self = g_new0 (SlTraceAggregateIndex, 1);
  g_autofree guint32 *block_row = g_new0 (guint32, sl_trace_get_n_strings (trace) + 1);
  g_autofree guint32 *track_row = g_new0 (guint32, sl_trace_get_n_strings (trace) + 1);

  self->trace = trace;
  self->n_tracks = sl_trace_get_n_tracks (trace);
  self->tracks = g_new0 (TrackIndex, MAX (self->n_tracks, 1));
  self->memory = sizeof *self + sizeof (TrackIndex) * self->n_tracks;
  for (guint t = 0; t < self->n_tracks; t++)
    {
      const SlTraceSlices *s;

      if (g_cancellable_is_cancelled (cancellable))
        {
          index_free (self);
          return NULL;
        }
      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER
          || (s = sl_trace_get_slices (trace, t)) == NULL)
        continue;
      build_track (&self->tracks[t], s, block_row, track_row);
      self->memory += sizeof (Block) * self->tracks[t].n_blocks
                      + sizeof (Partial) * (self->tracks[t].track_first_row + self->tracks[t].track_n_rows);
    }
  return self;
}

static gpointer
build_cb (SlTrace      *trace,
          GCancellable *cancellable)
{
  return index_build (trace, cancellable);
}

static void
free_cb (gpointer index)
{
  index_free (index);
}

/**
 * sl_trace_aggregate_index_get:
 *
 * The index of @trace, built on the first call (in the calling thread:
 * call it on a worker) and kept as long as the trace. Concurrent first
 * calls build it once.
 *
 * Returns: (transfer none) (nullable): the index, or %NULL when
 *   @cancellable was cancelled while building it
 */
SlTraceAggregateIndex *
sl_trace_aggregate_index_get (SlTrace      *trace,
                              GCancellable *cancellable)
{
  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  return sl_trace_index_slot_get (trace, "sl-trace-aggregate-index", build_cb, free_cb, cancellable);
}

/**
 * sl_trace_aggregate_index_peek:
 *
 * Returns: (transfer none) (nullable): the index of @trace if it is
 *   built, without building it or waiting for a build
 */
SlTraceAggregateIndex *
sl_trace_aggregate_index_peek (SlTrace *trace)
{
  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  return sl_trace_index_slot_peek (trace, "sl-trace-aggregate-index");
}

gsize
sl_trace_aggregate_index_get_memory_size (SlTraceAggregateIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->memory;
}

static void
add_partials (const Partial *p,
              guint32        n,
              GArray        *rows,
              guint32       *row_of_name)
{
  for (guint32 r = 0; r < n; r++)
    {
      SlTraceAggregateRow *row;

      if (row_of_name[p[r].name_id] == 0)
        {
          SlTraceAggregateRow fresh = { p[r].name_id, 0, 0, 0, G_MAXINT64, G_MININT64 };

          g_array_append_val (rows, fresh);
          row_of_name[p[r].name_id] = rows->len;
        }
      row = &g_array_index (rows, SlTraceAggregateRow, row_of_name[p[r].name_id] - 1);
      row->count += p[r].count;
      row->total_ns = add_saturated (row->total_ns, p[r].total_ns);
      row->self_ns = add_saturated (row->self_ns, p[r].self_ns);
      row->min_ns = MIN (row->min_ns, p[r].min_ns);
      row->max_ns = MAX (row->max_ns, p[r].max_ns);
    }
}

/* Slice by slice, [first, last) of those starting at or before @to_ns. */
static void
add_slices (const SlTraceSlices *s,
            guint32              first,
            guint32              last,
            gint64               from_ns,
            gint64               to_ns,
            GArray              *rows,
            guint32             *row_of_name)
{
  for (guint32 i = first; i < last; i++)
    {
      Partial one;
      gint64 start;

      read_slice (s, i, &one.name_id, &start, &one.total_ns);
      if (start > to_ns)
        break;
      if (end_of (start, one.total_ns) < from_ns)
        continue;
      one.self_ns = read_self (s, i);
      one.count = 1;
      one.min_ns = one.max_ns = one.total_ns;
      add_partials (&one, 1, rows, row_of_name);
    }
}

static guint32
first_after (const SlTraceSlices *s,
             gint64               to_ns)
{
  guint32 lo = 0, hi = s->n_slices;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (read_start (s, mid) <= to_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * sl_trace_aggregate_index_add_track:
 * @rows: #SlTraceAggregateRow to add to
 * @row_of_name: per name id, its row in @rows plus one, or 0
 *
 * Adds the slices of @track that overlap [@from_ns, @to_ns] to @rows,
 * with the same sums as reading them one by one.
 */
void
sl_trace_aggregate_index_add_track (SlTraceAggregateIndex *self,
                                    guint                  track,
                                    gint64                 from_ns,
                                    gint64                 to_ns,
                                    GArray                *rows,
                                    guint32               *row_of_name)
{
  const TrackIndex *ti;
  const SlTraceSlices *s;
  guint32 hi;

  g_return_if_fail (self != NULL);
  g_return_if_fail (track < self->n_tracks);

  ti = &self->tracks[track];
  s = sl_trace_get_slices (self->trace, track);
  if (s == NULL || s->n_slices == 0)
    return;
  if (!ti->indexed)
    {
      add_slices (s, 0, s->n_slices, from_ns, to_ns, rows, row_of_name);
      return;
    }

  hi = first_after (s, to_ns);
  if (hi == s->n_slices && ti->min_end >= from_ns)
    {
      add_partials (ti->rows + ti->track_first_row, ti->track_n_rows, rows, row_of_name);
      return;
    }
  for (guint b = 0; b < ti->n_blocks && b * BLOCK < hi; b++)
    {
      const Block *blk = &ti->blocks[b];
      guint32 first = b * BLOCK, last = MIN (first + BLOCK, s->n_slices);

      if (blk->max_end < from_ns)
        continue;
      if (last <= hi && blk->min_end >= from_ns && blk->n_rows != NO_ROWS)
        add_partials (ti->rows + blk->first_row, blk->n_rows, rows, row_of_name);
      else
        add_slices (s, first, MIN (last, hi), from_ns, to_ns, rows, row_of_name);
    }
}
