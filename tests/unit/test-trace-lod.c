/* test-trace-lod.c: the timeline's level of detail
 *
 * On a generated trace of 400,000 slices: a row query reads at most a few
 * slices per pixel and returns at most about two spans per pixel, every
 * slice in view is covered by a span, no slice a pixel wide or more is
 * merged away, no gap of more than a pixel is covered (at zooms a quarter
 * apart, from the whole trace to a few slices a pixel), the slice under a point is the one a full scan finds, and
 * counter columns hold the extent of their points. The depth lists hold
 * every slice of their depth, in order, packed or (slices far apart) whole.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-trace-lod.h"
#include "../trace-fixture.h"

#define WIDTH 1000

static SlTrace *trace;
static SlTraceLod *lod;

/* The slices of @depth in start order, as the index lists them. */
static guint32 *
depth_slices (SlTraceLod *of,
              guint       track,
              guint       depth,
              guint      *n)
{
  guint32 *idx;

  *n = sl_trace_lod_get_depth_n_slices (of, track, depth);
  idx = g_new (guint32, MAX (*n, 1));
  for (guint k = 0; k < *n; k++)
    idx[k] = sl_trace_lod_get_depth_slice (of, track, depth, k);
  return idx;
}

/* Every slice of the track is listed once, at its depth, in track order. */
static void
check_depth_lists (SlTrace    *of_trace,
                   SlTraceLod *of,
                   guint       track)
{
  const SlTraceSlices *s = sl_trace_get_slices (of_trace, track);
  guint64 listed = 0;

  for (guint d = 0; d < sl_trace_lod_get_n_depths (of, track); d++)
    {
      guint n;
      g_autofree guint32 *idx = depth_slices (of, track, d, &n);
      guint32 expected = 0;

      for (guint k = 0; k < n; k++, expected++)
        {
          while (expected < s->n_slices && sl_trace_slices_depth (s, expected) != d)
            expected++;
          g_assert_cmpuint (idx[k], ==, expected);
        }
      listed += n;
    }
  g_assert_cmpuint (listed, ==, s->n_slices);
}

static void
check_row (guint   track,
           guint   depth,
           gint64  t0,
           gint64  t1,
           guint  *max_visited,
           guint  *max_spans)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  double ns_per_pixel = (double)(t1 - t0) / WIDTH;
  gint64 px = MAX ((gint64)ceil (ns_per_pixel), 1);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  guint visited = sl_trace_lod_query (lod, track, depth, t0, t1, ns_per_pixel, spans);
  guint n;
  g_autofree guint32 *idx = depth_slices (lod, track, depth, &n);
  guint sp = 0;

  *max_visited = MAX (*max_visited, visited);
  *max_spans = MAX (*max_spans, spans->len);
  g_assert_cmpuint (spans->len, <=, 2 * WIDTH + 4);
  g_assert_cmpuint (visited, <=, 40 * WIDTH);

  for (guint k = 0; k < n; k++)
    {
      guint32 i = idx[k];
      gint64 start = sl_trace_slices_start_ns (s, i), end = start + sl_trace_slices_dur_ns (s, i);
      const SlTraceLodSpan *span;

      g_assert_cmpuint (sl_trace_slices_depth (s, i), ==, depth);
      if (k > 0)
        g_assert_cmpint (start, >=, sl_trace_slices_start_ns (s, idx[k - 1]) + sl_trace_slices_dur_ns (s, idx[k - 1]));
      if (end < t0 || start > t1)
        continue;

      /* Spans are in time order: find the one holding this slice. */
      while (sp < spans->len && g_array_index (spans, SlTraceLodSpan, sp).end_ns < end)
        sp++;
      g_assert_cmpuint (sp, <, spans->len);
      span = &g_array_index (spans, SlTraceLodSpan, sp);
      g_assert_cmpint (span->start_ns, <=, start);
      g_assert_cmpint (span->end_ns, >=, end);

      if (end - start >= px)
        {
          g_assert_cmpuint (span->n_slices, ==, 1);
          g_assert_cmpuint (span->slice, ==, i);
        }
      else
        {
          /* A run is coloured like one of its own slices: that slice is
           * of this depth and lies within the run, so the run is at least
           * as long as the slice it shows. */
          gint64 shown_start = sl_trace_slices_start_ns (s, span->slice);
          gint64 shown_end = shown_start + sl_trace_slices_dur_ns (s, span->slice);

          g_assert_cmpuint (sl_trace_slices_depth (s, span->slice), ==, depth);
          g_assert_cmpint (shown_start, >=, span->start_ns);
          g_assert_cmpint (shown_end, <=, span->end_ns);
          g_assert_cmpint (span->end_ns - span->start_ns, >=, sl_trace_slices_dur_ns (s, span->slice));
        }
    }
}

static void
test_query_cost_and_coverage (void)
{
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  gint64 span = end - start;
  static const double fractions[] = { 1.0, 0.1, 0.01, 0.0001, 0.0 };
  guint n_tracks = sl_trace_get_n_tracks (trace);

  for (guint f = 0; f < G_N_ELEMENTS (fractions); f++)
    {
      gint64 width = fractions[f] > 0 ? (gint64)(span * fractions[f]) : 10000;
      gint64 t0 = start + (span - width) * 37 / 100;
      guint max_visited = 0, max_spans = 0;

      for (guint t = 0; t < n_tracks; t++)
        {
          if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
            continue;
          for (guint d = 0; d < sl_trace_lod_get_n_depths (lod, t); d++)
            check_row (t, d, t0, t0 + width, &max_visited, &max_spans);
        }
      g_test_message ("%.4f of the trace: at most %u reads and %u spans per row for %u pixels",
                      fractions[f], max_visited, max_spans, WIDTH);
    }
}

/* No span covers the middle of a gap of 1.1 pixels or more between two
 * slices of the row that follow each other. */
static void
check_gaps (guint  track,
            guint  depth,
            gint64 t0,
            gint64 t1)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  double ns_per_pixel = (double)(t1 - t0) / WIDTH;
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  guint n, sp = 0;
  g_autofree guint32 *idx = depth_slices (lod, track, depth, &n);

  sl_trace_lod_query (lod, track, depth, t0, t1, ns_per_pixel, spans);
  for (guint k = 1; k < n; k++)
    {
      gint64 end = sl_trace_slices_start_ns (s, idx[k - 1]) + sl_trace_slices_dur_ns (s, idx[k - 1]);
      gint64 start = sl_trace_slices_start_ns (s, idx[k]);
      gint64 middle = end + (start - end) / 2;

      if ((double)(start - end) < 1.1 * ns_per_pixel || middle < t0 || middle > t1)
        continue;
      while (sp < spans->len && g_array_index (spans, SlTraceLodSpan, sp).end_ns <= middle)
        sp++;
      if (sp < spans->len)
        g_assert_cmpint (g_array_index (spans, SlTraceLodSpan, sp).start_ns, >, middle);
    }
}

/* Zooms a quarter apart from the whole trace down to a few slices a
 * pixel, so that every depth is drawn from buckets as wide as a pixel,
 * from buckets up to twice as wide (query_fine_buckets) and slice by
 * slice: every row keeps its slices, its wide slices and its gaps. */
static void
test_every_zoom (void)
{
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  guint n_tracks = sl_trace_get_n_tracks (trace);
  guint n_zooms = 0;

  for (double width = (double)(end - start); width >= 100.0 * WIDTH; width /= 1.25)
    {
      gint64 t0 = start + (gint64)((end - start - width) * (0.1 + 0.8 * (n_zooms % 7) / 6.0));
      gint64 t1 = t0 + (gint64)width;
      guint max_visited = 0, max_spans = 0;

      for (guint t = 0; t < n_tracks; t++)
        {
          if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
            continue;
          for (guint d = 0; d < sl_trace_lod_get_n_depths (lod, t); d++)
            {
              check_row (t, d, t0, t1, &max_visited, &max_spans);
              check_gaps (t, d, t0, t1);
            }
        }
      n_zooms++;
    }
  g_assert_cmpuint (n_zooms, >, 20);
}

/* Where the depth's @k-th slice ends */
static gint64
slice_end_at (const SlTraceSlices *s,
              guint                track,
              guint                depth,
              guint                k)
{
  guint32 i = sl_trace_lod_get_depth_slice (lod, track, depth, k);

  return sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i);
}

/* A row query starts at the first slice of its depth that ends at or
 * after the view's left edge, the same one a scan of the whole depth
 * finds: at random edges before, through and after the trace, on bucket
 * edges and exactly on slices' ends, zoomed out (buckets) and in. */
static void
test_query_start (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261206);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  guint checked = 0;

  for (guint probe = 0; probe < 4000; probe++)
    {
      guint track = g_rand_int_range (rand, 0, sl_trace_get_n_tracks (trace));
      const SlTraceSlices *s = sl_trace_get_slices (trace, track);
      guint n, depth, first = 0;
      double ns_per_pixel = (end - start) * pow (10, -g_rand_double_range (rand, 0, 6)) / WIDTH;
      gint64 t0, t1;

      if (sl_trace_get_track_kind (trace, track) == SL_TRACE_TRACK_COUNTER)
        continue;
      depth = g_rand_int_range (rand, 0, MAX (sl_trace_lod_get_n_depths (lod, track), 1));
      n = sl_trace_lod_get_depth_n_slices (lod, track, depth);
      if (n == 0)
        continue;
      switch (probe % 3)
        {
        case 0:
          t0 = start - (end - start) / 10 + (gint64)(g_rand_double (rand) * 1.2 * (end - start));
          break;
        case 1:
          /* a slice's end exactly */
          {
            guint32 i = sl_trace_lod_get_depth_slice (lod, track, depth, g_rand_int_range (rand, 0, n));

            t0 = sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i);
          }
          break;
        default:
          /* a slice's start exactly, which is often a bucket's edge */
          t0 = sl_trace_slices_start_ns (s, sl_trace_lod_get_depth_slice (lod, track, depth, g_rand_int_range (rand, 0, n)))
               + g_rand_int_range (rand, -1, 2);
          break;
        }
      t1 = t0 + (gint64)(ns_per_pixel * WIDTH);
      while (first < n && slice_end_at (s, track, depth, first) < t0)
        first++;

      g_array_set_size (spans, 0);
      sl_trace_lod_query (lod, track, depth, t0, t1, ns_per_pixel, spans);
      if (first == n || sl_trace_slices_start_ns (s, sl_trace_lod_get_depth_slice (lod, track, depth, first)) > t1)
        {
          g_assert_cmpuint (spans->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (spans->len, >, 0);
      /* the first span holds that slice, and does not end before the
       * edge (zoomed out it may start with a bucket's earlier slices) */
      g_assert_cmpint (g_array_index (spans, SlTraceLodSpan, 0).start_ns, <=,
                       sl_trace_slices_start_ns (s, sl_trace_lod_get_depth_slice (lod, track, depth, first)));
      g_assert_cmpint (g_array_index (spans, SlTraceLodSpan, 0).end_ns, >=, t0);
      checked++;
    }
  g_assert_cmpuint (checked, >, 1000);
}

static void
test_memory (void)
{
  guint64 n_slices = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (s != NULL && sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER)
        n_slices += s->n_slices;
    }
  g_assert_cmpuint (n_slices, >, 300000);
  g_assert_cmpfloat ((double)sl_trace_lod_get_memory_size (lod) / n_slices, <=, 10.0);
}

static void
test_hit (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  guint found = 0;

  for (guint probe = 0; probe < 3000; probe++)
    {
      guint track = g_rand_int_range (rand, 0, sl_trace_get_n_tracks (trace));
      const SlTraceSlices *s = sl_trace_get_slices (trace, track);
      guint depth;
      gint64 at = start + (gint64)(g_rand_double (rand) * (end - start));
      guint32 expected = SL_TRACE_NO_PARENT, hit;
      gboolean got;

      if (sl_trace_get_track_kind (trace, track) == SL_TRACE_TRACK_COUNTER)
        continue;
      depth = g_rand_int_range (rand, 0, MAX (sl_trace_lod_get_n_depths (lod, track), 1));
      for (guint i = 0; i < s->n_slices; i++)
        if (sl_trace_slices_depth (s, i) == depth && sl_trace_slices_start_ns (s, i) <= at && at <= sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i))
          {
            expected = i;
            break;
          }

      got = sl_trace_lod_hit (lod, track, depth, at, 0, &hit);
      g_assert_cmpint (got, ==, expected != SL_TRACE_NO_PARENT);
      if (got)
        {
          /* Touching slices share an instant: either one is right. */
          g_assert_cmpint (sl_trace_slices_start_ns (s, hit), <=, at);
          g_assert_cmpint (sl_trace_slices_start_ns (s, hit) + sl_trace_slices_dur_ns (s, hit), >=, at);
          found++;
        }
    }
  g_assert_cmpuint (found, >, 100);
  g_rand_free (rand);
}

static void
test_small_trace (void)
{
  SlTraceBuilder *b = sl_trace_builder_new ("small.json");
  guint p = sl_trace_builder_get_process (b, "1");
  guint t = sl_trace_builder_get_thread_track (b, p, "1");
  guint32 outer = sl_trace_builder_intern (b, "outer", -1);
  guint32 inner = sl_trace_builder_intern (b, "inner", -1);
  g_autoptr(SlTrace) small = NULL;
  g_autoptr(SlTraceLod) small_lod = NULL;
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  const SlTraceSlices *s;
  guint32 hit;

  sl_trace_builder_add_slice (b, t, 1000, 1000, outer, 0, 0, SL_TRACE_NO_ARGS, 0);
  /* 100 tiny children of 2 ns, then one of 500 ns */
  for (guint i = 0; i < 100; i++)
    sl_trace_builder_add_slice (b, t, 1010 + i * 3, 2, inner, 0, 0, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_add_slice (b, t, 1400, 500, outer, 0, 0, SL_TRACE_NO_ARGS, 0);
  small = sl_trace_builder_finish (b, NULL);
  small_lod = sl_trace_lod_new (small, NULL);
  s = sl_trace_get_slices (small, 0);

  g_assert_cmpuint (sl_trace_lod_get_n_depths (small_lod, 0), ==, 2);

  /* At 10 ns per pixel the 100 children are one run, the long one alone. */
  sl_trace_lod_query (small_lod, 0, 1, 0, 3000, 10, spans);
  g_assert_cmpuint (spans->len, ==, 2);
  g_assert_cmpuint (g_array_index (spans, SlTraceLodSpan, 0).n_slices, ==, 100);
  g_assert_cmpint (g_array_index (spans, SlTraceLodSpan, 0).start_ns, ==, 1010);
  g_assert_cmpint (g_array_index (spans, SlTraceLodSpan, 0).end_ns, ==, 1010 + 99 * 3 + 2);
  g_assert_cmpuint (g_array_index (spans, SlTraceLodSpan, 1).n_slices, ==, 1);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, g_array_index (spans, SlTraceLodSpan, 1).slice), ==, 500);

  /* At 1 ns per pixel every child is its own span. */
  g_array_set_size (spans, 0);
  sl_trace_lod_query (small_lod, 0, 1, 0, 3000, 1, spans);
  g_assert_cmpuint (spans->len, ==, 101);

  g_assert_true (sl_trace_lod_hit (small_lod, 0, 0, 1500, 0, &hit));
  g_assert_cmpint (sl_trace_slices_start_ns (s, hit), ==, 1000);
  g_assert_true (sl_trace_lod_hit (small_lod, 0, 1, 1501, 0, &hit));
  g_assert_cmpint (sl_trace_slices_start_ns (s, hit), ==, 1400);
  g_assert_false (sl_trace_lod_hit (small_lod, 0, 1, 1350, 0, &hit));
  /* Within tolerance, the nearest */
  g_assert_true (sl_trace_lod_hit (small_lod, 0, 1, 1390, 20, &hit));
  g_assert_cmpint (sl_trace_slices_start_ns (s, hit), ==, 1400);
  g_assert_false (sl_trace_lod_hit (small_lod, 0, 0, 5000, 10, &hit));
}

/* Depth lists are packed in blocks of slices near each other in the
 * track; a depth whose slices lie far apart keeps them whole, and both
 * list every slice of their depth. */
static void
test_depth_lists (void)
{
  SlTraceBuilder *b = sl_trace_builder_new ("sparse.json");
  guint p = sl_trace_builder_get_process (b, "1");
  guint t = sl_trace_builder_get_thread_track (b, p, "1");
  guint32 outer = sl_trace_builder_intern (b, "outer", -1);
  guint32 inner = sl_trace_builder_intern (b, "inner", -1);
  g_autoptr(SlTrace) sparse = NULL;
  g_autoptr(SlTraceLod) sparse_lod = NULL;

  for (guint k = 0; k < sl_trace_get_n_tracks (trace); k++)
    if (sl_trace_get_track_kind (trace, k) != SL_TRACE_TRACK_COUNTER)
      check_depth_lists (trace, lod, k);

  /* 40 parents of 3,000 children each: 32 parents span 96,000 slices */
  for (guint i = 0; i < 40; i++)
    {
      gint64 start = (gint64)i * 10000000;

      sl_trace_builder_add_slice (b, t, start, 9000000, outer, 0, 0, SL_TRACE_NO_ARGS, 0);
      for (guint c = 0; c < 3000; c++)
        sl_trace_builder_add_slice (b, t, start + 1 + c * 2000, 1000, inner, 0, 0, SL_TRACE_NO_ARGS, 0);
    }
  sparse = sl_trace_builder_finish (b, NULL);
  sparse_lod = sl_trace_lod_new (sparse, NULL);
  g_assert_cmpuint (sl_trace_lod_get_n_depths (sparse_lod, 0), ==, 2);
  g_assert_cmpuint (sl_trace_lod_get_depth_n_slices (sparse_lod, 0, 0), ==, 40);
  g_assert_cmpuint (sl_trace_lod_get_depth_n_slices (sparse_lod, 0, 1), ==, 120000);
  check_depth_lists (sparse, sparse_lod, 0);
  g_assert_cmpuint (sl_trace_lod_get_depth_n_slices (sparse_lod, 0, 2), ==, 0);
}

static void
test_counter (void)
{
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceCounter *c;
      gint64 t0, t1;
      SlTraceLodColumn columns[100];

      if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER)
        continue;
      c = sl_trace_get_counter (trace, t);
      t0 = c->ts_ns[100];
      t1 = c->ts_ns[9000];
      sl_trace_lod_query_counter (lod, t, t0, t1, 100, columns);

      for (guint x = 0; x < 100; x++)
        {
          gint64 c0 = t0 + (t1 - t0) * x / 100, c1 = t0 + (t1 - t0) * (x + 1) / 100;
          double lo = INFINITY, hi = -INFINITY;

          for (guint i = 0; i < c->n_points; i++)
            {
              gboolean held = c->ts_ns[i] < c0 && (i + 1 == c->n_points || c->ts_ns[i + 1] >= c0);

              if (held || (c->ts_ns[i] >= c0 && c->ts_ns[i] < c1))
                {
                  lo = MIN (lo, c->value[i]);
                  hi = MAX (hi, c->value[i]);
                }
            }
          g_assert_true (columns[x].defined);
          g_assert_cmpfloat (columns[x].min, ==, lo);
          g_assert_cmpfloat (columns[x].max, ==, hi);
        }
      return;
    }
  g_assert_not_reached ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  trace = fixture_build_trace (400000, 4, 42);
  lod = sl_trace_lod_new (trace, NULL);

  g_test_add_func ("/trace-lod/query-cost-and-coverage", test_query_cost_and_coverage);
  g_test_add_func ("/trace-lod/query-start", test_query_start);
  g_test_add_func ("/trace-lod/every-zoom", test_every_zoom);
  g_test_add_func ("/trace-lod/memory", test_memory);
  g_test_add_func ("/trace-lod/hit", test_hit);
  g_test_add_func ("/trace-lod/small-trace", test_small_trace);
  g_test_add_func ("/trace-lod/depth-lists", test_depth_lists);
  g_test_add_func ("/trace-lod/counter", test_counter);

  status = g_test_run ();
  sl_trace_lod_free (lod);
  g_object_unref (trace);
  return status;
}
