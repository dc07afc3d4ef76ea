/* sl-trace-track.c: the columns of one track of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-track.h"
#include "sl-trace-private.h"

/* Growable columns: grow by a quarter, compact exactly before sorting. */

static inline gsize
next_capacity (gsize capacity)
{
  return capacity < 16 ? 16 : capacity + capacity / 4;
}

static inline gsize
n_blocks (gsize n)
{
  return (n + SL_TRACE_SLICES_BLOCK - 1) >> SL_TRACE_SLICES_BLOCK_SHIFT;
}

SlTraceTrack *
sl_trace_track_new (SlTraceTrackKind  kind,
                    guint             process,
                    guint             builder_index,
                    const char       *tid,
                    guint32           name_id,
                    guint32           category_id,
                    guint32           series_id)
{
  SlTraceTrack *track = g_new0 (SlTraceTrack, 1);

  track->kind = kind;
  track->process = process;
  track->builder_index = builder_index;
  track->tid = tid != NULL ? sl_trace_text_keep (track->tid_here, sizeof track->tid_here, tid) : NULL;
  track->name_id = name_id;
  track->category_id = category_id;
  track->series_id = series_id;
  return track;
}

void
sl_trace_track_free (SlTraceTrack *track)
{
  if (track == NULL)
    return;

  sl_trace_text_drop (track->tid, track->tid_here);
  sl_trace_text_drop (track->name, track->name_here);
  if (track->shared_columns != NULL)
    g_free (track->shared_columns);
  else
    {
      g_free (track->start_base);
      g_free (track->start_offset);
      g_free (track->dur);
      g_free (track->name_ids);
      g_free (track->category_code);
      g_free (track->flags);
      g_free (track->args_base);
      g_free (track->args_delta);
      g_free (track->args_length);
    }
  if (track->category_palette != track->palette_here)
    g_free (track->category_palette);
  sl_trace_text_drop (track->depth, track->depth_here);
  sl_trace_text_drop (track->depth_min, track->depth_min_here);
  g_clear_pointer (&track->start_escapes, g_array_unref);
  g_clear_pointer (&track->dur_escapes, g_array_unref);
  g_clear_pointer (&track->self_escapes, g_array_unref);
  g_clear_pointer (&track->parent_escapes, g_array_unref);
  g_clear_pointer (&track->category_escapes, g_array_unref);
  g_clear_pointer (&track->depth_escapes, g_array_unref);
  g_clear_pointer (&track->args_offset_escapes, g_array_unref);
  g_clear_pointer (&track->args_length_escapes, g_array_unref);
  g_free (track->ts_ns);
  g_free (track->value);
  g_clear_pointer (&track->open, g_array_unref);
  g_free (track);
}

/* ------------------------------------------------------------------ */
/* Packing: every put stores slice @i, in increasing order of @i since the
 * last time the column's escapes were cleared, so escapes stay sorted. */

static void
escape_push (GArray  **escapes,
             gsize     i,
             guint64   value)
{
  SlTraceSlicesEscape escape = { (guint32) i, 0, value };

  if (*escapes == NULL)
    *escapes = g_array_new (FALSE, FALSE, sizeof (SlTraceSlicesEscape));
  g_array_append_val (*escapes, escape);
}

static void
escapes_clear (GArray *escapes)
{
  if (escapes != NULL)
    g_array_set_size (escapes, 0);
}

static SlTraceSlicesEscapes
escapes_view (GArray *escapes)
{
  if (escapes == NULL || escapes->len == 0)
    return (SlTraceSlicesEscapes) { NULL, 0 };
  return (SlTraceSlicesEscapes) { (const SlTraceSlicesEscape *) (gconstpointer) escapes->data, escapes->len };
}

/* A block's base is its first slice's start: once sorted, the smallest. */
static inline void
put_start (SlTraceTrack *t,
           gsize         i,
           gint64        start_ns)
{
  gsize block = i >> SL_TRACE_SLICES_BLOCK_SHIFT;
  gint64 base, delta;

  if ((i & (SL_TRACE_SLICES_BLOCK - 1)) == 0)
    t->start_base[block] = start_ns;
  base = t->start_base[block];
  /* the difference without signed overflow: both in range or escaped */
  delta = (gint64) ((guint64) start_ns - (guint64) base);
  if ((start_ns >= base) == (delta >= 0) &&
      delta > SL_TRACE_SLICES_START_ESCAPE && delta <= G_MAXINT32)
    t->start_offset[i] = (gint32) delta;
  else
    {
      t->start_offset[i] = SL_TRACE_SLICES_START_ESCAPE;
      escape_push (&t->start_escapes, i, (guint64) start_ns);
    }
}

static inline void
put_u32 (guint32  *column,
         GArray  **escapes,
         gsize     i,
         gint64    value)
{
  if (value >= 0 && value < SL_TRACE_SLICES_U32_ESCAPE)
    column[i] = (guint32) value;
  else
    {
      column[i] = SL_TRACE_SLICES_U32_ESCAPE;
      escape_push (escapes, i, (guint64) value);
    }
}

static inline void
put_category (SlTraceTrack *t,
              gsize         i,
              guint32       category_id)
{
  guint code;

  for (code = 0; code < t->n_categories; code++)
    if (t->category_palette[code] == category_id)
      break;
  if (code == t->n_categories && code < SL_TRACE_SLICES_MAX_CATEGORIES)
    {
      if (code == 0)
        t->category_palette = t->palette_here;
      else if (code == G_N_ELEMENTS (t->palette_here))
        {
          t->category_palette = g_new (guint32, SL_TRACE_SLICES_MAX_CATEGORIES);
          memcpy (t->category_palette, t->palette_here, sizeof t->palette_here);
        }
      t->category_palette[t->n_categories++] = category_id;
    }
  if (code < t->n_categories)
    t->category_code[i] = (guint8) code;
  else
    {
      t->category_code[i] = SL_TRACE_SLICES_CATEGORY_ESCAPE;
      escape_push (&t->category_escapes, i, category_id);
    }
}

/* A block's args base is its first slice's byte offset (0 when it has
 * none): the slices of a block were written near each other. */
static inline void
put_args_offset (SlTraceTrack *t,
                 gsize         i,
                 guint64       args_offset)
{
  gsize block = i >> SL_TRACE_SLICES_BLOCK_SHIFT;
  gint64 byte = (gint64) (args_offset & G_GUINT64_CONSTANT (0xffffffffffff));
  guint64 source = args_offset & ~G_GUINT64_CONSTANT (0xffffffffffff);
  gint64 delta;

  if ((i & (SL_TRACE_SLICES_BLOCK - 1)) == 0)
    t->args_base[block] = args_offset == SL_TRACE_NO_ARGS ? 0 : byte;
  if (args_offset == SL_TRACE_NO_ARGS)
    {
      t->args_delta[i] = SL_TRACE_SLICES_ARGS_NONE;
      return;
    }
  if (!t->has_args_source)
    {
      t->args_source = source;
      t->has_args_source = TRUE;
    }
  /* both are 48-bit, so the difference cannot overflow */
  delta = byte - t->args_base[block];
  if (source == t->args_source && delta > SL_TRACE_SLICES_ARGS_NONE && delta <= G_MAXINT32)
    t->args_delta[i] = (gint32) delta;
  else
    {
      t->args_delta[i] = SL_TRACE_SLICES_ARGS_ESCAPE;
      escape_push (&t->args_offset_escapes, i, args_offset);
    }
}

static inline void
put_args_length (SlTraceTrack *t,
                 gsize         i,
                 guint32       args_length)
{
  if (args_length < SL_TRACE_SLICES_U16_ESCAPE)
    t->args_length[i] = (guint16) args_length;
  else
    {
      t->args_length[i] = SL_TRACE_SLICES_U16_ESCAPE;
      escape_push (&t->args_length_escapes, i, args_length);
    }
}

/* Points the read-only views at the columns as they are now. */
static void
track_publish (SlTraceTrack *t)
{
  t->slices_view = (SlTraceSlices) {
    .n_slices = t->n,
    .nested_depths = t->nested_depths,
    .start_base = t->start_base,
    .start_offset = t->start_offset,
    .dur = t->dur,
    .name_ids = t->name_ids,
    .category_code = t->category_code,
    .category_palette = t->category_palette,
    .depth8 = t->depth,
    .flag_bits = t->flags,
    .args_base = t->args_base,
    .args_delta = t->args_delta,
    .args_source = t->args_source,
    .args_length16 = t->args_length,
    .depth_mins = t->depth_mins,
    .start_escapes = escapes_view (t->start_escapes),
    .dur_escapes = escapes_view (t->dur_escapes),
    .self_escapes = escapes_view (t->self_escapes),
    .parent_escapes = escapes_view (t->parent_escapes),
    .category_escapes = escapes_view (t->category_escapes),
    .depth_escapes = escapes_view (t->depth_escapes),
    .args_offset_escapes = escapes_view (t->args_offset_escapes),
    .args_length_escapes = escapes_view (t->args_length_escapes),
  };
  t->counter_view = (SlTraceCounter) {
    .n_points = t->n_points,
    .ts_ns = t->ts_ns,
    .value = t->value,
    .min_value = t->min_value,
    .max_value = t->max_value,
  };
}

/* Up to this many slices, a track's nine columns share one allocation:
 * most tracks of a small trace have a few slices, and nine allocations
 * (and nine more to compact them) took longer than reading them. */
#define SHARED_CAPACITY 16

/* A track's columns of slices: each column's name, its type, and whether
 * it has an entry a slice (SLICE) or a block of slices (BLOCK) */
#define SLICE_COLUMNS(X)                 \
  X (start_base, gint64, BLOCK)          \
  X (args_base, gint64, BLOCK)           \
  X (start_offset, gint32, SLICE)        \
  X (dur, guint32, SLICE)                \
  X (name_ids, guint32, SLICE)           \
  X (args_delta, gint32, SLICE)          \
  X (args_length, guint16, SLICE)        \
  X (category_code, guint8, SLICE)       \
  X (flags, guint8, SLICE)

/* Entries of a column for @capacity slices, and of those @n slices use */
#define ENTRIES_SLICE(capacity) (capacity)
#define ENTRIES_BLOCK(capacity) MAX (n_blocks (capacity), 1)
#define USED_SLICE(n)           (n)
#define USED_BLOCK(n)           n_blocks (n)

static inline gsize
align8 (gsize size)
{
  return (size + 7) & ~(gsize) 7;
}

/* The columns of @capacity slices in one block, the n slices there are
 * copied from where they were. */
static void
track_share_columns (SlTraceTrack *t,
                     gsize         capacity)
{
  gsize size = 0;
  guint8 *block, *at;
  gsize n = t->n;

#define ADD_SIZE(column, type, per) size += align8 (ENTRIES_##per (capacity) * sizeof (type));
  SLICE_COLUMNS (ADD_SIZE)
#undef ADD_SIZE
  block = at = g_malloc (size);

#define TAKE(column, type, per)                                     \
  {                                                                 \
    type *column_ = (type *) (gpointer) at;                         \
    if (USED_##per (n) > 0)                                         \
      memcpy (column_, t->column, USED_##per (n) * sizeof (type));  \
    t->column = column_;                                            \
    at += align8 (ENTRIES_##per (capacity) * sizeof (type));        \
  }
  SLICE_COLUMNS (TAKE)
#undef TAKE
  g_free (t->shared_columns);
  t->shared_columns = block;
}

static void
track_reserve_slices (SlTraceTrack *t,
                      gsize         capacity)
{
  if (capacity <= SHARED_CAPACITY && (t->shared_columns != NULL || t->capacity == 0))
    {
      track_share_columns (t, capacity);
      t->capacity = capacity;
      return;
    }
  if (t->shared_columns != NULL)
    {
      /* out of the shared block into columns of their own */
      gsize n = t->n;

#define OWN(column, type, per)                                      \
  {                                                                 \
    type *column_ = g_new (type, ENTRIES_##per (capacity));         \
    if (USED_##per (n) > 0)                                         \
      memcpy (column_, t->column, USED_##per (n) * sizeof (type));  \
    t->column = column_;                                            \
  }
      SLICE_COLUMNS (OWN)
#undef OWN
      g_clear_pointer (&t->shared_columns, g_free);
      t->capacity = capacity;
      return;
    }
#define RENEW(column, type, per) t->column = g_renew (type, t->column, ENTRIES_##per (capacity));
  SLICE_COLUMNS (RENEW)
#undef RENEW
  t->capacity = capacity;
}

void
sl_trace_track_append_slice (SlTraceTrack *track,
                             gint64        start_ns,
                             gint64        dur_ns,
                             guint32       name_id,
                             guint32       category_id,
                             guint8        flags,
                             guint64       args_offset,
                             guint32       args_length)
{
  gsize i;

  g_return_if_fail (track != NULL);
  g_return_if_fail (track->n < G_MAXUINT32);

  if (track->n == track->capacity)
    track_reserve_slices (track, next_capacity (track->capacity));

  i = track->n++;
  put_start (track, i, start_ns);
  put_u32 (track->dur, &track->dur_escapes, i, dur_ns);
  track->name_ids[i] = name_id;
  put_category (track, i, category_id);
  track->flags[i] = flags;
  put_args_offset (track, i, args_offset);
  put_args_length (track, i, args_length);
}

void
sl_trace_track_append_point (SlTraceTrack *track,
                             gint64        ts_ns,
                             double        value)
{
  g_return_if_fail (track != NULL);

  if (track->n_points == track->points_capacity)
    {
      track->points_capacity = next_capacity (track->points_capacity);
      track->ts_ns = g_renew (gint64, track->ts_ns, track->points_capacity);
      track->value = g_renew (double, track->value, track->points_capacity);
    }
  track->ts_ns[track->n_points] = ts_ns;
  track->value[track->n_points] = value;
  track->n_points++;
}

static void
track_compact (SlTraceTrack *t)
{
  if (t->n != t->capacity)
    track_reserve_slices (t, MAX (t->n, 1));
  if (t->n_points != t->points_capacity)
    {
      t->points_capacity = MAX (t->n_points, 1);
      t->ts_ns = g_renew (gint64, t->ts_ns, t->points_capacity);
      t->value = g_renew (double, t->value, t->points_capacity);
    }
}

typedef struct {
  const gint64        *start;
  const SlTraceSlices *slices;
} SliceKeys;

static int
compare_slice_order (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const SliceKeys *k = user_data;
  guint32 i = *(const guint32 *)a, j = *(const guint32 *)b;
  gint64 di, dj;

  if (k->start[i] != k->start[j])
    return k->start[i] < k->start[j] ? -1 : 1;
  di = sl_trace_slices_dur_ns (k->slices, i);
  dj = sl_trace_slices_dur_ns (k->slices, j);
  if (di != dj)
    return di > dj ? -1 : 1;
  return i < j ? -1 : (i > j);
}

static int
compare_point_order (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const SlTraceTrack *t = user_data;
  guint32 i = *(const guint32 *)a, j = *(const guint32 *)b;

  if (t->ts_ns[i] != t->ts_ns[j])
    return t->ts_ns[i] < t->ts_ns[j] ? -1 : 1;
  return i < j ? -1 : (i > j);
}

#define PERMUTE(type, column, perm, n, scratch)                    \
  G_STMT_START {                                                   \
    type *tmp_ = (type *) (scratch);                               \
    for (gsize k_ = 0; k_ < (n); k_++)                             \
      tmp_[k_] = (column)[(perm)[k_]];                             \
    memcpy ((column), tmp_, sizeof (type) * (n));                  \
  } G_STMT_END

/* Unsorted tracks (B/E pairs end children before their parents) are
 * decoded, permuted and packed again, one column at a time. */
static void
track_sort_slices (SlTraceTrack *t)
{
  const SlTraceSlices *s = &t->slices_view;
  g_autofree guint32 *perm = NULL;
  g_autofree guint64 *scratch = NULL;
  g_autofree gint64 *start = NULL;
  gboolean sorted = TRUE;
  gsize n = t->n;

  for (gsize i = 1; i < n && sorted; i++)
    {
      gint64 a = sl_trace_slices_start_ns (s, i - 1), b = sl_trace_slices_start_ns (s, i);

      if (b < a || (b == a && sl_trace_slices_dur_ns (s, i) > sl_trace_slices_dur_ns (s, i - 1)))
        sorted = FALSE;
    }
  if (sorted)
    return;

  /* the starts whole while sorting: 12 bytes a slice for the moment */
  start = g_new (gint64, n);
  for (gsize i = 0; i < n; i++)
    start[i] = sl_trace_slices_start_ns (s, i);
  perm = g_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    perm[i] = i;
  g_qsort_with_data (perm, n, sizeof (guint32), compare_slice_order, &(SliceKeys) { start, s });

  escapes_clear (t->start_escapes);
  for (gsize k = 0; k < n; k++)
    put_start (t, k, start[perm[k]]);
  g_clear_pointer (&start, g_free);

  scratch = g_new (guint64, n);
  for (gsize k = 0; k < n; k++)
    scratch[k] = sl_trace_slices_dur_ns (s, perm[k]);
  escapes_clear (t->dur_escapes);
  for (gsize k = 0; k < n; k++)
    put_u32 (t->dur, &t->dur_escapes, k, (gint64) scratch[k]);
  track_publish (t);

  PERMUTE (guint32, t->name_ids, perm, n, scratch);
  PERMUTE (guint8, t->flags, perm, n, scratch);

  for (gsize k = 0; k < n; k++)
    scratch[k] = sl_trace_slices_category_id (s, perm[k]);
  escapes_clear (t->category_escapes);
  for (gsize k = 0; k < n; k++)
    put_category (t, k, (guint32) scratch[k]);
  track_publish (t);

  for (gsize k = 0; k < n; k++)
    scratch[k] = sl_trace_slices_args_length (s, perm[k]);
  escapes_clear (t->args_length_escapes);
  for (gsize k = 0; k < n; k++)
    put_args_length (t, k, (guint32) scratch[k]);
  track_publish (t);

  for (gsize k = 0; k < n; k++)
    scratch[k] = sl_trace_slices_args_offset (s, perm[k]);
  escapes_clear (t->args_offset_escapes);
  for (gsize k = 0; k < n; k++)
    put_args_offset (t, k, scratch[k]);
  track_publish (t);
}
static void
track_sort_points (SlTraceTrack *t)
{
  g_autofree guint32 *perm = NULL;
  g_autofree gint64 *scratch = NULL;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < t->n_points && sorted; i++)
    if (t->ts_ns[i] < t->ts_ns[i - 1])
      sorted = FALSE;

  if (!sorted)
    {
      perm = g_new (guint32, t->n_points);
      for (gsize i = 0; i < t->n_points; i++)
        perm[i] = i;
      g_qsort_with_data (perm, t->n_points, sizeof (guint32), compare_point_order, t);
      scratch = g_new (gint64, t->n_points);
      PERMUTE (gint64, t->ts_ns, perm, t->n_points, scratch);
      PERMUTE (double, t->value, perm, t->n_points, scratch);
    }

  t->min_value = t->n_points ? t->value[0] : 0;
  t->max_value = t->min_value;
  for (gsize i = 0; i < t->n_points; i++)
    {
      /* NaN never wins a comparison, so it cannot poison the range. */
      if (t->value[i] < t->min_value || t->min_value != t->min_value)
        t->min_value = t->value[i];
      if (t->value[i] > t->max_value || t->max_value != t->max_value)
        t->max_value = t->value[i];
    }
}

typedef struct {
  gint64 end;
  guint  lane;
} LaneEnd;

static inline gboolean
lane_before (const LaneEnd *a,
             const LaneEnd *b)
{
  return a->end < b->end || (a->end == b->end && a->lane < b->lane);
}

static void
lane_heap_sift_up (LaneEnd *heap,
                   gsize    i)
{
  while (i > 0)
    {
      gsize parent = (i - 1) / 2;
      LaneEnd tmp;

      if (!lane_before (&heap[i], &heap[parent]))
        break;
      tmp = heap[i];
      heap[i] = heap[parent];
      heap[parent] = tmp;
      i = parent;
    }
}

static void
lane_heap_sift_down (LaneEnd *heap,
                     gsize    n,
                     gsize    i)
{
  for (;;)
    {
      gsize smallest = i, l = 2 * i + 1, r = 2 * i + 2;
      LaneEnd tmp;

      if (l < n && lane_before (&heap[l], &heap[smallest]))
        smallest = l;
      if (r < n && lane_before (&heap[r], &heap[smallest]))
        smallest = r;
      if (smallest == i)
        break;
      tmp = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = tmp;
      i = smallest;
    }
}

typedef struct {
  guint32 slice;
  gint64  self;   /* the duration less the children so far */
} OpenSlice;

static int
compare_escapes (gconstpointer a,
                 gconstpointer b)
{
  const SlTraceSlicesEscape *x = a, *y = b;

  return x->index < y->index ? -1 : (x->index > y->index);
}

/* A slice closed once slice @next starts keeps its self time in the
 * escapes when finding it from its children would read many slices, or
 * when it is nested so deep that depths no longer tell its children from
 * theirs. */
static void
close_slice (SlTraceTrack    *t,
             const OpenSlice *open,
             guint            depth,
             gsize            next)
{
  if (next - open->slice > SL_TRACE_SLICES_SELF_READ || depth >= SL_TRACE_SLICES_DEEP - 1)
    escape_push (&t->self_escapes, open->slice, (guint64) open->self);
}

/* Packs the depths a byte a slice and sums them up, level by level, for
 * the searches of sl-trace-slices.c. */
static void
track_pack_depths (SlTraceTrack  *t,
                   const guint16 *depth)
{
  SlTraceSlicesDepthMins *m = &t->depth_mins;
  guint total = 0;

  g_clear_pointer (&t->depth_escapes, g_array_unref);
  sl_trace_text_drop (t->depth, t->depth_here);
  sl_trace_text_drop (t->depth_min, t->depth_min_here);
  t->depth = NULL;
  t->depth_min = NULL;
  memset (m, 0, sizeof *m);
  /* a track of counters or of nothing has no depths to keep */
  if (t->n == 0)
    return;
  t->depth = t->n <= G_N_ELEMENTS (t->depth_here) ? t->depth_here : g_new (guint8, t->n);
  for (gsize i = 0; i < t->n; i++)
    if (depth[i] < SL_TRACE_SLICES_DEPTH_ESCAPE)
      t->depth[i] = (guint8) depth[i];
    else
      {
        t->depth[i] = SL_TRACE_SLICES_DEPTH_ESCAPE;
        escape_push (&t->depth_escapes, i, depth[i]);
      }

  for (gsize n = t->n; n > 0 && m->n_levels < SL_TRACE_SLICES_MAX_LEVELS; )
    {
      n = n_blocks (n);
      m->first[m->n_levels] = total;
      m->n[m->n_levels] = n;
      m->n_levels++;
      total += n;
      if (n <= SL_TRACE_SLICES_BLOCK)
        break;
    }
  t->depth_min = total <= G_N_ELEMENTS (t->depth_min_here) ? t->depth_min_here : g_new (guint16, total);
  for (guint level = 0; level < m->n_levels; level++)
    {
      guint16 *min = t->depth_min + m->first[level];
      const guint16 *below = level == 0 ? depth : t->depth_min + m->first[level - 1];
      gsize n_below = level == 0 ? t->n : m->n[level - 1];

      for (guint e = 0; e < m->n[level]; e++)
        {
          gsize first = (gsize) e << SL_TRACE_SLICES_BLOCK_SHIFT;
          gsize last = MIN (first + SL_TRACE_SLICES_BLOCK, n_below);
          guint16 lowest = G_MAXUINT16;

          for (gsize k = first; k < last; k++)
            lowest = MIN (lowest, below[k]);
          min[e] = lowest;
        }
    }
  m->min = t->depth_min;
}

/* Nesting: a slice that starts inside the innermost open one and ends
 * within it is its child; one that starts inside but ends after overlaps
 * a sibling without nesting and goes to an overflow lane, placed after
 * the deepest nesting level once that is known. Parents and self times
 * are not kept: sl-trace-slices.c finds them from the depths. */
static void
track_nest (SlTraceTrack *t)
{
  const SlTraceSlices *s = &t->slices_view;
  /* on the stack for a small track or a shallow one */
  OpenSlice stack_here[64];
  guint16 depth_here[256];
  g_autofree OpenSlice *stack_heap = NULL;
  g_autofree guint16 *depth_heap = t->n > G_N_ELEMENTS (depth_here) ? g_new (guint16, t->n) : NULL;
  g_autoptr(GArray) lane_ends = NULL;
  OpenSlice *stack = stack_here;
  gsize stack_len = 0, stack_size = G_N_ELEMENTS (stack_here);
  guint16 *depth = depth_heap != NULL ? depth_heap : depth_here;
  guint max_depth = 0;
  gboolean any_overflow = FALSE;

  g_clear_pointer (&t->self_escapes, g_array_unref);
  g_clear_pointer (&t->parent_escapes, g_array_unref);
  t->n_depths = 0;

  for (gsize i = 0; i < t->n; i++)
    {
      gint64 start = sl_trace_slices_start_ns (s, i);
      gint64 dur = sl_trace_slices_dur_ns (s, i);
      gint64 end = start + dur;
      guint32 top = SL_TRACE_NO_PARENT;

      t->flags[i] &= ~SL_TRACE_SLICE_OVERFLOW;

      while (stack_len > 0)
        {
          const OpenSlice *open = &stack[stack_len - 1];

          top = open->slice;
          if (sl_trace_slices_start_ns (s, top) + sl_trace_slices_dur_ns (s, top) > start)
            break;
          close_slice (t, open, depth[top], i);
          stack_len--;
          top = SL_TRACE_NO_PARENT;
        }

      if (top != SL_TRACE_NO_PARENT)
        {
          OpenSlice *open = &stack[stack_len - 1];

          if (end > sl_trace_slices_start_ns (s, top) + sl_trace_slices_dur_ns (s, top))
            {
              t->flags[i] |= SL_TRACE_SLICE_OVERFLOW;
              any_overflow = TRUE;
              continue;
            }
          /* it never goes below zero: children fit in their parent */
          open->self = MAX (open->self - dur, 0);
        }

      depth[i] = MIN (stack_len, SL_TRACE_SLICES_DEEP);
      if (depth[i] >= SL_TRACE_SLICES_DEEP)
        escape_push (&t->parent_escapes, i, top);
      max_depth = MAX (max_depth, depth[i]);
      if (stack_len == stack_size)
        {
          stack_size *= 2;
          if (stack_heap == NULL)
            {
              stack_heap = g_new (OpenSlice, stack_size);
              memcpy (stack_heap, stack_here, sizeof stack_here);
            }
          else
            stack_heap = g_renew (OpenSlice, stack_heap, stack_size);
          stack = stack_heap;
        }
      stack[stack_len++] = (OpenSlice) { i, dur };
    }
  while (stack_len > 0)
    {
      const OpenSlice *open = &stack[stack_len - 1];

      close_slice (t, open, depth[open->slice], t->n);
      stack_len--;
    }
  /* slices close after those inside them: sorted by slice for the lookups */
  if (t->self_escapes != NULL)
    g_array_sort (t->self_escapes, compare_escapes);

  t->n_depths = t->n > 0 ? max_depth + 1 : 0;
  t->nested_depths = t->n_depths;

  if (any_overflow)
    {
      /* Interval partitioning: reuse the lane that frees up first, so
       * the number of lanes is the most slices overlapping at once,
       * found in n log n even when everything overlaps. */
      guint n_lanes = 0;

      lane_ends = g_array_new (FALSE, FALSE, sizeof (LaneEnd));
      for (gsize i = 0; i < t->n; i++)
        {
          LaneEnd *heap = (LaneEnd *) (gpointer) lane_ends->data;
          gint64 start = sl_trace_slices_start_ns (s, i);
          LaneEnd entry = { start + sl_trace_slices_dur_ns (s, i), 0 };

          if (!(t->flags[i] & SL_TRACE_SLICE_OVERFLOW))
            continue;
          if (lane_ends->len > 0 && heap[0].end <= start)
            {
              entry.lane = heap[0].lane;
              heap[0] = entry;
              lane_heap_sift_down (heap, lane_ends->len, 0);
            }
          else
            {
              entry.lane = n_lanes++;
              g_array_append_val (lane_ends, entry);
              heap = (LaneEnd *) (gpointer) lane_ends->data;
              lane_heap_sift_up (heap, lane_ends->len - 1);
            }
          depth[i] = MIN (t->n_depths + entry.lane, G_MAXUINT16);
        }
      t->n_depths = MIN (t->n_depths + n_lanes, G_MAXUINT16 + 1u);
    }

  track_pack_depths (t, depth);
}

/* Escape tables keep no room to grow once sealed. */
static void
escapes_compact (GArray **escapes)
{
  GArray *exact;

  if (*escapes == NULL)
    return;
  if ((*escapes)->len == 0)
    {
      g_clear_pointer (escapes, g_array_unref);
      return;
    }
  exact = g_array_sized_new (FALSE, FALSE, sizeof (SlTraceSlicesEscape), (*escapes)->len);
  g_array_append_vals (exact, (*escapes)->data, (*escapes)->len);
  g_array_unref (*escapes);
  *escapes = exact;
}

void
sl_trace_track_seal (SlTraceTrack *track)
{
  g_return_if_fail (track != NULL);

  track_compact (track);
  /* one slice or none is in order already */
  if (track->n > 1)
    {
      track_publish (track);
      track_sort_slices (track);
    }
  track_publish (track);
  track_nest (track);
  track_sort_points (track);
  escapes_compact (&track->start_escapes);
  escapes_compact (&track->dur_escapes);
  escapes_compact (&track->self_escapes);
  escapes_compact (&track->parent_escapes);
  escapes_compact (&track->category_escapes);
  escapes_compact (&track->depth_escapes);
  escapes_compact (&track->args_offset_escapes);
  escapes_compact (&track->args_length_escapes);
  track_publish (track);
}

/* Names the track @name, or by its thread id again when NULL. */
void
sl_trace_track_set_name (SlTraceTrack *track,
                         const char   *name)
{
  g_return_if_fail (track != NULL);

  if (name == track->name)
    return;
  sl_trace_text_drop (track->name, track->name_here);
  track->name = name != NULL ? sl_trace_text_keep (track->name_here, sizeof track->name_here, name) : NULL;
}

const char *
sl_trace_track_get_name (const SlTraceTrack *track)
{
  g_return_val_if_fail (track != NULL, "");

  /* a thread named "" shows its id rather than nothing */
  if (track->name != NULL && (*track->name != '\0' || track->tid == NULL))
    return track->name;
  return track->tid != NULL ? track->tid : "";
}

guint32
sl_trace_track_find_enclosing (const SlTraceTrack *t,
                               gint64              ts_ns)
{
  const SlTraceSlices *s = &t->slices_view;
  gsize lo = 0, hi = t->n;
  guint32 i;

  /* last slice starting at or before ts */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (sl_trace_slices_start_ns (s, mid) <= ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return SL_TRACE_NO_PARENT;

  i = lo - 1;
  /* Overflow slices have no parent chain: step back to a nested one. */
  while (i != SL_TRACE_NO_PARENT && (t->flags[i] & SL_TRACE_SLICE_OVERFLOW))
    {
      if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) >= ts_ns)
        return i;
      i = i > 0 ? i - 1 : SL_TRACE_NO_PARENT;
    }
  while (i != SL_TRACE_NO_PARENT)
    {
      if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) >= ts_ns)
        return i;
      i = sl_trace_slices_parent (s, i);
    }
  return SL_TRACE_NO_PARENT;
}

guint32
sl_trace_track_find_next (const SlTraceTrack *t,
                          gint64              ts_ns)
{
  const SlTraceSlices *s = &t->slices_view;
  gsize lo = 0, hi = t->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (sl_trace_slices_start_ns (s, mid) < ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < t->n ? (guint32) lo : SL_TRACE_NO_PARENT;
}

static gsize
escapes_size (const GArray *escapes)
{
  return escapes != NULL ? escapes->len * sizeof (SlTraceSlicesEscape) : 0;
}

gsize
sl_trace_track_get_memory_size (const SlTraceTrack *track)
{
  g_return_val_if_fail (track != NULL, 0);

  /* start offset, dur, name, category, depth, flags, args */
  return sizeof *track
         + n_blocks (track->n) * 2 * sizeof (gint64)
         + track->n * (4 + 4 + 4 + 1 + 1 + 1 + 4 + 2)
         + (track->depth_mins.n_levels > 0 ? track->depth_mins.first[track->depth_mins.n_levels - 1]
                                             + track->depth_mins.n[track->depth_mins.n_levels - 1] : 0) * sizeof (guint16)
         + escapes_size (track->start_escapes) + escapes_size (track->dur_escapes)
         + escapes_size (track->self_escapes) + escapes_size (track->parent_escapes)
         + escapes_size (track->category_escapes) + escapes_size (track->depth_escapes)
         + escapes_size (track->args_offset_escapes) + escapes_size (track->args_length_escapes)
         + track->n_points * (8 + 8);
}
