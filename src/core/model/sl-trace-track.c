/* sl-trace-track.c: the columns of one track of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-track.h"

/* Growable columns: grow by half, compact exactly before sorting. */

static inline gsize
next_capacity (gsize capacity)
{
  return capacity < 4 ? 4 : capacity + capacity / 2;
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
  track->tid = g_strdup (tid);
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

  g_free (track->tid);
  g_free (track->name);
  g_free (track->start_ns);
  g_free (track->dur_ns);
  g_free (track->self_ns);
  g_free (track->name_ids);
  g_free (track->category_ids);
  g_free (track->parent);
  g_free (track->depth);
  g_free (track->flags);
  g_free (track->args_offset);
  g_free (track->args_length);
  g_free (track->ts_ns);
  g_free (track->value);
  g_clear_pointer (&track->open, g_array_unref);
  g_free (track);
}

static void
track_reserve_slices (SlTraceTrack *t,
                      gsize         capacity)
{
  t->start_ns = g_renew (gint64, t->start_ns, capacity);
  t->dur_ns = g_renew (gint64, t->dur_ns, capacity);
  t->name_ids = g_renew (guint32, t->name_ids, capacity);
  t->category_ids = g_renew (guint32, t->category_ids, capacity);
  t->flags = g_renew (guint8, t->flags, capacity);
  t->args_offset = g_renew (guint64, t->args_offset, capacity);
  t->args_length = g_renew (guint32, t->args_length, capacity);
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

  if (track->n == track->capacity)
    track_reserve_slices (track, next_capacity (track->capacity));

  i = track->n++;
  track->start_ns[i] = start_ns;
  track->dur_ns[i] = dur_ns;
  track->name_ids[i] = name_id;
  track->category_ids[i] = category_id;
  track->flags[i] = flags;
  track->args_offset[i] = args_offset;
  track->args_length[i] = args_length;
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

static int
compare_slice_order (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const SlTraceTrack *t = user_data;
  guint32 i = *(const guint32 *)a, j = *(const guint32 *)b;

  if (t->start_ns[i] != t->start_ns[j])
    return t->start_ns[i] < t->start_ns[j] ? -1 : 1;
  if (t->dur_ns[i] != t->dur_ns[j])
    return t->dur_ns[i] > t->dur_ns[j] ? -1 : 1;
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

static void
track_sort_slices (SlTraceTrack *t)
{
  g_autofree guint32 *perm = NULL;
  g_autofree gint64 *scratch = NULL;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < t->n && sorted; i++)
    if (t->start_ns[i] < t->start_ns[i - 1] ||
        (t->start_ns[i] == t->start_ns[i - 1] && t->dur_ns[i] > t->dur_ns[i - 1]))
      sorted = FALSE;
  if (sorted)
    return;

  perm = g_new (guint32, t->n);
  for (gsize i = 0; i < t->n; i++)
    perm[i] = i;
  g_qsort_with_data (perm, t->n, sizeof (guint32), compare_slice_order, t);

  scratch = g_new (gint64, t->n);
  PERMUTE (gint64, t->start_ns, perm, t->n, scratch);
  PERMUTE (gint64, t->dur_ns, perm, t->n, scratch);
  PERMUTE (guint32, t->name_ids, perm, t->n, scratch);
  PERMUTE (guint32, t->category_ids, perm, t->n, scratch);
  PERMUTE (guint8, t->flags, perm, t->n, scratch);
  PERMUTE (guint64, t->args_offset, perm, t->n, scratch);
  PERMUTE (guint32, t->args_length, perm, t->n, scratch);
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

/* Nesting: a slice that starts inside the innermost open one and ends
 * within it is its child; one that starts inside but ends after overlaps
 * a sibling without nesting and goes to an overflow lane, placed after
 * the deepest nesting level once that is known. */
static void
track_nest (SlTraceTrack *t)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) lane_ends = g_array_new (FALSE, FALSE, sizeof (LaneEnd));
  guint max_depth = 0;
  gboolean any_overflow = FALSE;

  t->self_ns = g_new (gint64, MAX (t->n, 1));
  t->parent = g_new (guint32, MAX (t->n, 1));
  t->depth = g_new (guint16, MAX (t->n, 1));
  t->n_depths = 0;

  for (gsize i = 0; i < t->n; i++)
    {
      gint64 start = t->start_ns[i];
      gint64 end = start + t->dur_ns[i];

      t->self_ns[i] = t->dur_ns[i];
      t->parent[i] = SL_TRACE_NO_PARENT;
      t->flags[i] &= ~SL_TRACE_SLICE_OVERFLOW;

      while (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (t->start_ns[top] + t->dur_ns[top] > start)
            break;
          g_array_set_size (stack, stack->len - 1);
        }

      if (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (end > t->start_ns[top] + t->dur_ns[top])
            {
              t->flags[i] |= SL_TRACE_SLICE_OVERFLOW;
              any_overflow = TRUE;
              continue;
            }
          t->parent[i] = top;
          t->self_ns[top] -= t->dur_ns[i];
        }

      t->depth[i] = MIN (stack->len, G_MAXUINT16 - 1);
      max_depth = MAX (max_depth, t->depth[i]);
      g_array_append_val (stack, (guint32) { i });
    }

  t->n_depths = t->n > 0 ? max_depth + 1 : 0;

  if (any_overflow)
    {
      /* Interval partitioning: reuse the lane that frees up first, so
       * the number of lanes is the most slices overlapping at once,
       * found in n log n even when everything overlaps. */
      guint n_lanes = 0;

      for (gsize i = 0; i < t->n; i++)
        {
          LaneEnd *heap = (LaneEnd *) (gpointer) lane_ends->data;
          LaneEnd entry = { t->start_ns[i] + t->dur_ns[i], 0 };

          if (!(t->flags[i] & SL_TRACE_SLICE_OVERFLOW))
            continue;
          if (lane_ends->len > 0 && heap[0].end <= t->start_ns[i])
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
          t->depth[i] = MIN (t->n_depths + entry.lane, G_MAXUINT16);
        }
      t->n_depths = MIN (t->n_depths + n_lanes, G_MAXUINT16 + 1u);
    }

  for (gsize i = 0; i < t->n; i++)
    if (t->self_ns[i] < 0)
      t->self_ns[i] = 0;
}

static void
track_publish (SlTraceTrack *t)
{
  t->slices_view = (SlTraceSlices) {
    .n_slices = t->n,
    .start_ns = t->start_ns,
    .dur_ns = t->dur_ns,
    .self_ns = t->self_ns,
    .name_id = t->name_ids,
    .category_id = t->category_ids,
    .parent = t->parent,
    .depth = t->depth,
    .flags = t->flags,
    .args_offset = t->args_offset,
    .args_length = t->args_length,
  };
  t->counter_view = (SlTraceCounter) {
    .n_points = t->n_points,
    .ts_ns = t->ts_ns,
    .value = t->value,
    .min_value = t->min_value,
    .max_value = t->max_value,
  };
}

void
sl_trace_track_seal (SlTraceTrack *track)
{
  g_return_if_fail (track != NULL);

  track_compact (track);
  track_sort_slices (track);
  track_nest (track);
  track_sort_points (track);
  track_publish (track);
}

const char *
sl_trace_track_get_name (const SlTraceTrack *track)
{
  g_return_val_if_fail (track != NULL, "");

  if (track->name != NULL)
    return track->name;
  return track->tid != NULL ? track->tid : "";
}

guint32
sl_trace_track_find_enclosing (const SlTraceTrack *t,
                               gint64              ts_ns)
{
  gsize lo = 0, hi = t->n;
  guint32 i;

  /* last slice starting at or before ts */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (t->start_ns[mid] <= ts_ns)
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
      if (t->start_ns[i] + t->dur_ns[i] >= ts_ns)
        return i;
      i = i > 0 ? i - 1 : SL_TRACE_NO_PARENT;
    }
  while (i != SL_TRACE_NO_PARENT)
    {
      if (t->start_ns[i] + t->dur_ns[i] >= ts_ns)
        return i;
      i = t->parent[i];
    }
  return SL_TRACE_NO_PARENT;
}

guint32
sl_trace_track_find_next (const SlTraceTrack *t,
                          gint64              ts_ns)
{
  gsize lo = 0, hi = t->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (t->start_ns[mid] < ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < t->n ? (guint32) lo : SL_TRACE_NO_PARENT;
}

gsize
sl_trace_track_get_memory_size (const SlTraceTrack *track)
{
  g_return_val_if_fail (track != NULL, 0);

  return sizeof *track
         + track->n * (8 + 8 + 8 + 4 + 4 + 4 + 2 + 1 + 8 + 4)
         + track->n_points * (8 + 8);
}
