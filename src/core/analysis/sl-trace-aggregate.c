/* sl-trace-aggregate.c: slices of a time range summed up by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-aggregate.h"
#include "sl-trace-aggregate-index.h"

/* sums of hostile durations saturate instead of overflowing */
static inline gint64
add_saturated (gint64 a,
               gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  return a + b;
}

static void
aggregate_track (SlTrace    *trace,
                 guint       track,
                 gint64      from_ns,
                 gint64      to_ns,
                 GArray     *rows,
                 guint32    *row_of_name)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);

  for (guint i = 0; i < s->n_slices && sl_trace_slices_start_ns (s, i) <= to_ns; i++)
    {
      SlTraceAggregateRow *row;
      guint32 name = sl_trace_slices_name_id (s, i);

      if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) < from_ns)
        continue;

      if (row_of_name[name] == 0)
        {
          SlTraceAggregateRow fresh = { name, 0, 0, 0, G_MAXINT64, G_MININT64 };

          g_array_append_val (rows, fresh);
          row_of_name[name] = rows->len;
        }
      row = &g_array_index (rows, SlTraceAggregateRow, row_of_name[name] - 1);
      row->count++;
      row->total_ns = add_saturated (row->total_ns, sl_trace_slices_dur_ns (s, i));
      row->self_ns = add_saturated (row->self_ns, sl_trace_slices_self_ns (s, i));
      row->min_ns = MIN (row->min_ns, sl_trace_slices_dur_ns (s, i));
      row->max_ns = MAX (row->max_ns, sl_trace_slices_dur_ns (s, i));
    }
}

/* Adds one track's slices in [from_ns, to_ns) to the rows. */
typedef void (*AddTrack) (SlTrace *trace,
                          gpointer index,
                          guint    track,
                          gint64   from_ns,
                          gint64   to_ns,
                          GArray  *rows,
                          guint32 *row_of_name);

static void
add_track_read (SlTrace *trace,
                gpointer index,
                guint    track,
                gint64   from_ns,
                gint64   to_ns,
                GArray  *rows,
                guint32 *row_of_name)
{
  aggregate_track (trace, track, from_ns, to_ns, rows, row_of_name);
}

static void
add_track_indexed (SlTrace *trace,
                   gpointer index,
                   guint    track,
                   gint64   from_ns,
                   gint64   to_ns,
                   GArray  *rows,
                   guint32 *row_of_name)
{
  sl_trace_aggregate_index_add_track (index, track, from_ns, to_ns, rows, row_of_name);
}

/* The rows of @tracks (every track when %NULL; counters and tracks past
 * the end skipped), each added by @add_track, by total descending. */
static GArray *
aggregate_tracks (SlTrace      *trace,
                  gint64        from_ns,
                  gint64        to_ns,
                  const guint  *tracks,
                  guint         n_tracks,
                  AddTrack      add_track,
                  gpointer      index,
                  GCancellable *cancellable)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SlTraceAggregateRow));
  g_autofree guint32 *row_of_name = g_new0 (guint32, sl_trace_get_n_strings (trace) + 1);   /* name id → row + 1 */
  guint n = tracks != NULL ? n_tracks : sl_trace_get_n_tracks (trace);

  for (guint i = 0; i < n; i++)
    {
      guint track = tracks != NULL ? tracks[i] : i;

      if (track >= sl_trace_get_n_tracks (trace) ||
          sl_trace_get_track_kind (trace, track) == SL_TRACE_TRACK_COUNTER)
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      add_track (trace, index, track, from_ns, to_ns, rows, row_of_name);
    }

  sl_trace_aggregate_sort (trace, rows, SL_TRACE_AGGREGATE_BY_TOTAL, TRUE);
  return g_steal_pointer (&rows);
}

GArray *
sl_trace_aggregate (SlTrace      *trace,
                    gint64        from_ns,
                    gint64        to_ns,
                    const guint  *tracks,
                    guint         n_tracks,
                    GCancellable *cancellable)
{
  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  return aggregate_tracks (trace, from_ns, to_ns, tracks, n_tracks, add_track_read, NULL, cancellable);
}

/**
 * sl_trace_aggregate_indexed:
 *
 * The same rows as sl_trace_aggregate(), from the trace's
 * #SlTraceAggregateIndex (built on the first call: call it on a worker),
 * so that a range costs its edges rather than its slices.
 *
 * Returns: (transfer full) (nullable): the rows, or %NULL when cancelled
 */
GArray *
sl_trace_aggregate_indexed (SlTrace      *trace,
                            gint64        from_ns,
                            gint64        to_ns,
                            const guint  *tracks,
                            guint         n_tracks,
                            GCancellable *cancellable)
{
  SlTraceAggregateIndex *index;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  index = sl_trace_aggregate_index_get (trace, cancellable);
  if (index == NULL)
    return NULL;
  return aggregate_tracks (trace, from_ns, to_ns, tracks, n_tracks, add_track_indexed, index, cancellable);
}

double
sl_trace_aggregate_row_average (const SlTraceAggregateRow *row)
{
  return row->count > 0 ? (double) row->total_ns / (double) row->count : 0.0;
}

typedef struct {
  SlTrace              *trace;
  SlTraceAggregateSort  sort;
  gboolean              descending;
} SortContext;

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortContext *ctx = user_data;
  const SlTraceAggregateRow *ra = a, *rb = b;
  int cmp = 0;

  switch (ctx->sort)
    {
    case SL_TRACE_AGGREGATE_BY_NAME:
      cmp = g_utf8_collate (sl_trace_get_string (ctx->trace, ra->name_id),
                            sl_trace_get_string (ctx->trace, rb->name_id));
      break;
    case SL_TRACE_AGGREGATE_BY_COUNT:
      cmp = CMP (ra->count, rb->count);
      break;
    case SL_TRACE_AGGREGATE_BY_TOTAL:
      cmp = CMP (ra->total_ns, rb->total_ns);
      break;
    case SL_TRACE_AGGREGATE_BY_SELF:
      cmp = CMP (ra->self_ns, rb->self_ns);
      break;
    case SL_TRACE_AGGREGATE_BY_AVERAGE:
      cmp = CMP (sl_trace_aggregate_row_average (ra), sl_trace_aggregate_row_average (rb));
      break;
    case SL_TRACE_AGGREGATE_BY_MIN:
      cmp = CMP (ra->min_ns, rb->min_ns);
      break;
    case SL_TRACE_AGGREGATE_BY_MAX:
      cmp = CMP (ra->max_ns, rb->max_ns);
      break;
    default:
      g_assert_not_reached ();
    }
  if (ctx->descending)
    cmp = -cmp;
  /* ties: by name, always ascending, so the order is stable across runs */
  if (cmp == 0 && ctx->sort != SL_TRACE_AGGREGATE_BY_NAME)
    cmp = strcmp (sl_trace_get_string (ctx->trace, ra->name_id),
                  sl_trace_get_string (ctx->trace, rb->name_id));
  return cmp;
}

void
sl_trace_aggregate_sort (SlTrace              *trace,
                         GArray               *rows,
                         SlTraceAggregateSort  sort,
                         gboolean              descending)
{
  SortContext ctx = { trace, sort, descending };

  g_return_if_fail (SL_IS_TRACE (trace));
  g_return_if_fail (rows != NULL);

  g_array_sort_with_data (rows, compare_rows, &ctx);
}
