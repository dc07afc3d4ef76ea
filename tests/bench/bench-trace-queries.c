/* bench-trace-queries.c: search per keystroke and range statistics
 *
 * A deterministic trace of 32,000,000 slices is built in memory through
 * SlTraceBuilder: 16 threads of training steps, each step running the
 * same sequence of ~3,000 ops (some with nested children) drawn with a
 * skew from ~4,000 distinct names as Ascend and Kineto traces have them
 * (aclnn kernels, graph-mode scope paths of 150 characters, aten ops,
 * templated CUDA kernels), plus two async tracks and a counter.
 *
 * Search: the queries "M", "Ma", "Mat", "MatM", "MatMul", "matmul",
 * "MATMUL", one with no match and "GeluGrad" (1.2 M matches of many
 * names spread over every thread, of which the earliest 1,000,000 are
 * kept) are
 * typed in turn, each keystroke run as the timeline page runs it
 * (SlTimelineSearch on a worker, from the keystroke until the first page
 * of results is listed and the count is known, and until all 10,000 rows
 * are), beside the worker's part alone (from scratch, without reusing the
 * last keystroke's matches) and the names-only step that gives the count.
 * The page lists the first 200 results at once with the count, and the
 * rest while idle. The peer, in the same run, alternating with it: a
 * linear pass over every slice comparing its name with strcasestr,
 * collecting the matches and sorting them by start.
 *
 * Range statistics: the whole trace and a 10 % window in the middle,
 * through sl_trace_aggregate_indexed() (what the range table runs), and
 * sl_trace_aggregate() reading every slice (as before the index); the
 * peer sums durations by name into a GHashTable slice by slice.
 *
 * The one-off index builds are timed on their own, with their memory in
 * bytes per slice. Medians and worst, ms; ratio = peer / ours.
 *
 * Goals (issue 29): search over 32 M names in at most 100 ms per
 * keystroke; range statistics over the whole trace in at most 200 ms.
 *
 * Usage: bench-trace-queries [SLICES] [ROUNDS]   (32000000, 5)
 * (BENCH_NO_PEER=1 leaves the peers out, for profiling). The 32 M case
 * needs about 2.6 GB of memory; with the peers, 5 rounds take about 6
 * minutes on two cores.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "bench-stats.h"
#include "sl-timeline-search.h"
#include "sl-trace-aggregate.h"
#include "sl-trace-aggregate-index.h"
#include "sl-trace-search.h"

#define N_THREADS 16
#define N_NAMES 4000
#define SEQUENCE 3000
#define GOAL_SEARCH_MS 100.0
#define GOAL_STATS_MS 200.0

static const char *ops[] = {
  "MatMul", "BatchMatMul", "MatMulV2", "Conv2D", "Conv2DBackpropInput", "LayerNorm", "LayerNormGrad",
  "Softmax", "SoftmaxGrad", "Add", "Mul", "RealDiv", "Cast", "Transpose", "GatherV2", "ReduceSum",
  "DropOutDoMask", "FlashAttentionScore", "FlashAttentionScoreGrad", "HcomAllReduce", "HcomAllGather",
  "TransData", "Sigmoid", "Gelu", "GeluGrad", "AdamApplyOneWithDecay", "Slice", "ConcatD", "Reshape", "Tile",
};

static const char *queries[] = {
  "M", "Ma", "Mat", "MatM", "MatMul", "matmul", "MATMUL", "no_such_op", "GeluGrad",
};

/* About 4,000 distinct names in the shapes real traces have. */
static char **
make_names (void)
{
  char **names = g_new0 (char *, N_NAMES + 1);

  for (guint i = 0; i < N_NAMES; i++)
    {
      const char *op = ops[(i * 7 + i / 30) % G_N_ELEMENTS (ops)];

      switch (i % 5)
        {
        case 0:
          names[i] = g_strdup_printf ("aclnn%s_%s%u_%s", op, op, i % 13, ops[(i / 5) % G_N_ELEMENTS (ops)]);
          break;
        case 1:
          names[i] = g_strdup_printf ("Default/network-TrainOneStepCell/network-WithLossCell/_backbone-GPTModel/"
                                      "transformer-Transformer/layers-%u/attention-SelfAttention/%s-op%u",
                                      i / 40, op, i);
          break;
        case 2:
          names[i] = g_strdup_printf ("aten::%s_%u", op, i / 5);
          break;
        case 3:
          names[i] = g_strdup_printf ("void at::native::vectorized_elementwise_kernel<4, at::native::%sFunctor<float>,"
                                      " at::detail::Array<char*, %u> >(int, at::native::%sFunctor<float>)",
                                      op, i / 5, op);
          break;
        default:
          names[i] = g_strdup_printf ("%s_%u", op, i);
          break;
        }
    }
  return names;
}

static SlTrace *
build_trace (guint64 n_slices)
{
  g_autoptr(SlTraceBuilder) builder = sl_trace_builder_new ("generated.json");
  g_auto(GStrv) names = make_names ();
  guint32 ids[N_NAMES];
  guint32 sequence[SEQUENCE];
  GRand *rand = g_rand_new_with_seed (29);
  guint process = sl_trace_builder_get_process (builder, "1");
  guint32 cat = sl_trace_builder_intern (builder, "kernel", -1);
  guint counter = sl_trace_builder_get_counter_track (builder, process, sl_trace_builder_intern (builder, "HBM", -1),
                                                      sl_trace_builder_intern (builder, "bytes", -1));
  guint64 per_thread = n_slices * 99 / 100 / N_THREADS;
  guint64 n_async = n_slices - per_thread * N_THREADS;
  gint64 last = 0;
  SlTrace *trace;

  for (guint i = 0; i < N_NAMES; i++)
    ids[i] = sl_trace_builder_intern (builder, names[i], -1);
  /* a step's ops: common names often, rare ones now and then */
  for (guint j = 0; j < SEQUENCE; j++)
    sequence[j] = ids[(guint)(N_NAMES * pow (g_rand_double (rand), 2.5))];

  for (guint th = 0; th < N_THREADS; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", 100 + th);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);
      guint64 budget = per_thread;
      gint64 t = 1700000000000000000 + g_rand_int_range (rand, 0, 1000);

      for (guint step = 0; budget > 0; step++)
        {
          g_autofree char *step_name = g_strdup_printf ("ProfilerStep#%u", step);
          gint64 step_start = t;

          t += 1000;
          for (guint j = 0; j < SEQUENCE && budget > 1; j++)
            {
              gint64 d = g_rand_int_range (rand, 500, 20000);

              sl_trace_builder_add_slice (builder, track, t, d, sequence[j], cat, 0, SL_TRACE_NO_ARGS, 0);
              budget--;
              if (j % 4 == 0 && budget > 1)
                {
                  sl_trace_builder_add_slice (builder, track, t + d / 8, d / 2, sequence[(j * 31 + 7) % SEQUENCE], cat,
                                              0, SL_TRACE_NO_ARGS, 0);
                  budget--;
                }
              t += d + g_rand_int_range (rand, 10, 2000);
            }
          sl_trace_builder_add_slice (builder, track, step_start, t - step_start,
                                      sl_trace_builder_intern (builder, step_name, -1), cat, 0, SL_TRACE_NO_ARGS, 0);
          budget--;
          t += 5000;
        }
      last = MAX (last, t);
    }

  for (guint64 i = 0; i < n_async; i++)
    {
      guint32 name = ids[i % 7];
      guint track = sl_trace_builder_get_async_track (builder, process, cat, name);
      gint64 start = 1700000000000000000 + (gint64)((double)(last - 1700000000000000000) * i / n_async);

      sl_trace_builder_begin_async (builder, track, i, start, name, cat, SL_TRACE_NO_ARGS, 0);
      sl_trace_builder_end_async (builder, track, i, start + g_rand_int_range (rand, 1000, 100000000), SL_TRACE_NO_ARGS);
    }
  for (guint i = 0; i < 20000; i++)
    sl_trace_builder_add_counter (builder, counter, 1700000000000000000 + (last - 1700000000000000000) / 20000 * i, i);

  trace = sl_trace_builder_finish (g_steal_pointer (&builder), NULL);
  g_rand_free (rand);
  return trace;
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* The page's search: a worker, then the list of results filled. */
typedef struct {
  gboolean done;
  guint    n_matches;
  double   done_ms;
} Waiter;

static double now_ms (void);

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Waiter *w = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *hits = sl_timeline_search_run_finish (SL_TIMELINE_SEARCH (object), result, &error);

  g_assert_no_error (error);
  w->n_matches = sl_timeline_search_get_n_matches (SL_TIMELINE_SEARCH (object));
  w->done = TRUE;
  w->done_ms = now_ms ();
}

/* Returns the matches; @first_ms: until the first page is listed and the
 * count known, @all_listed_ms: until the list holds all it lists. */
static guint
page_search (SlTimelineSearch *search,
             SlTrace          *trace,
             const char       *text,
             double           *first_ms,
             double           *all_listed_ms)
{
  double t0 = now_ms ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GListModel *results = sl_timeline_search_get_results (search);
  Waiter w = { 0 };

  sl_timeline_search_run_async (search, trace, text, FALSE, NULL, cancellable, search_done_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  while (g_list_model_get_n_items (results) < MIN (w.n_matches, 10000))
    g_main_context_iteration (NULL, TRUE);
  *all_listed_ms = now_ms () - t0;
  *first_ms = w.done_ms - t0;
  return w.n_matches;
}

typedef struct {
  guint   track;
  guint32 slice;
  gint64  start;
} PeerMatch;

static int
compare_peer (const void *a,
              const void *b)
{
  const PeerMatch *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

/* Every slice's name compared, the matches sorted by start. */
static guint64
peer_search (SlTrace    *trace,
             const char *text)
{
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (PeerMatch));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || (s = sl_trace_get_slices (trace, t)) == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (strcasestr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), text) != NULL)
          {
            PeerMatch m = { t, i, sl_trace_slices_start_ns (s, i) };

            g_array_append_val (matches, m);
          }
    }
  qsort (matches->data, matches->len, sizeof (PeerMatch), compare_peer);
  return matches->len;
}

typedef struct {
  guint64 count;
  gint64  total;
  gint64  self;
  gint64  min;
  gint64  max;
} PeerRow;

static guint
peer_aggregate (SlTrace *trace,
                gint64   from,
                gint64   to)
{
  g_autoptr(GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || (s = sl_trace_get_slices (trace, t)) == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices && sl_trace_slices_start_ns (s, i) <= to; i++)
        {
          const char *name = sl_trace_get_string (trace, sl_trace_slices_name_id (s, i));
          PeerRow *row;

          if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) < from)
            continue;
          row = g_hash_table_lookup (rows, name);
          if (row == NULL)
            {
              row = g_new0 (PeerRow, 1);
              row->min = G_MAXINT64;
              row->max = G_MININT64;
              g_hash_table_insert (rows, (gpointer)name, row);
            }
          row->count++;
          row->total += sl_trace_slices_dur_ns (s, i);
          row->self += sl_trace_slices_self_ns (s, i);
          row->min = MIN (row->min, sl_trace_slices_dur_ns (s, i));
          row->max = MAX (row->max, sl_trace_slices_dur_ns (s, i));
        }
    }
  return g_hash_table_size (rows);
}

static void
report (const char   *what,
        const double *ours,
        const double *peer,
        guint         n,
        double        goal)
{
  double m = bench_median (ours, n);

  if (peer != NULL)
    g_print ("  %-34s ours %8.2f ms (worst %8.2f)   peer %9.2f ms (worst %9.2f)   ratio %7.1f x   %s\n", what, m,
             bench_worst (ours, n), bench_median (peer, n), bench_worst (peer, n), bench_median (peer, n) / MAX (m, 0.001),
             goal <= 0 ? "" : m <= goal && bench_worst (ours, n) <= goal ? "goal met" : "GOAL MISSED");
  else
    g_print ("  %-34s ours %8.2f ms (worst %8.2f)   %s\n", what, m, bench_worst (ours, n),
             goal <= 0 ? "" : m <= goal && bench_worst (ours, n) <= goal ? "goal met" : "GOAL MISSED");
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_slices = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 32000000;
  guint rounds = argc > 2 ? (guint)atoi (argv[2]) : 5;
  gboolean with_peer = g_getenv ("BENCH_NO_PEER") == NULL;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(SlTimelineSearch) search = sl_timeline_search_new ();
  guint nq = G_N_ELEMENTS (queries);
  g_autofree double *t_page = g_new0 (double, nq * rounds);
  g_autofree double *t_count = g_new0 (double, nq * rounds);
  g_autofree double *t_worker = g_new0 (double, nq * rounds);
  g_autofree double *t_listed = g_new0 (double, nq * rounds);
  g_autofree double *t_peer = g_new0 (double, nq * rounds);
  guint n_matches[G_N_ELEMENTS (queries)] = { 0 };
  guint64 n_total[G_N_ELEMENTS (queries)] = { 0 };
  guint64 n_peer[G_N_ELEMENTS (queries)] = { 0 };
  guint64 n_indexed = 0;
  SlTraceSearch *index;
  SlTraceAggregateIndex *agg_index;
  gint64 start, end;
  double t0, t_build;
  struct { const char *name; gint64 from, to; } ranges[2];
  double *t_stats[2], *t_plain[2], *t_stats_peer[2];

  rounds = MAX (rounds, 1);
  g_print ("Building %" G_GUINT64_FORMAT " slices on %u threads with %u names...\n", n_slices, N_THREADS, N_NAMES);
  t0 = now_ms ();
  trace = build_trace (n_slices);
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER && sl_trace_get_slices (trace, t) != NULL)
      n_indexed += sl_trace_get_slices (trace, t)->n_slices;
  g_print ("  built in %.1f s: %" G_GUINT64_FORMAT " slices, %u strings, %.1f bytes a slice\n",
           (now_ms () - t0) / 1000, n_indexed, sl_trace_get_n_strings (trace),
           (double)sl_trace_get_memory_size (trace) / MAX (n_indexed, 1));

  t0 = now_ms ();
  index = sl_trace_search_get (trace, NULL);
  t_build = now_ms () - t0;
  g_print ("Search index: built once in %.0f ms on a worker (the page's, when its search bar is first entered), %.2f bytes a slice\n", t_build,
           (double)sl_trace_search_get_memory_size (index) / MAX (n_indexed, 1));
  t0 = now_ms ();
  agg_index = sl_trace_aggregate_index_get (trace, NULL);
  t_build = now_ms () - t0;
  g_print ("Range statistics index: built once in %.0f ms on the same worker, %.2f bytes a slice\n", t_build,
           (double)sl_trace_aggregate_index_get_memory_size (agg_index) / MAX (n_indexed, 1));

  g_print ("\nSearch, per keystroke (%u rounds; typed in order, each narrowing from the one before)\n", rounds);
  for (guint r = 0; r < rounds; r++)
    for (guint q = 0; q < nq; q++)
      {
        g_autofree guint8 *hits = NULL;

        /* the count alone: every name matched once */
        t0 = now_ms ();
        hits = sl_trace_search_match_names (index, queries[q], FALSE, NULL, NULL, NULL, NULL);
        n_total[q] = sl_trace_search_count (index, hits);
        t_count[q * rounds + r] = now_ms () - t0;
        {
          g_autoptr(GArray) m = NULL;

          /* the worker's part: names, then the matches in time order */
          t0 = now_ms ();
          g_free (sl_trace_search_match_names (index, queries[q], FALSE, NULL, NULL, NULL, NULL));
          m = sl_trace_search_collect (index, hits, 1000000, NULL, NULL);
          t_worker[q * rounds + r] = now_ms () - t0;
        }

        n_matches[q] = page_search (search, trace, queries[q], &t_page[q * rounds + r], &t_listed[q * rounds + r]);

        if (with_peer)
          {
            t0 = now_ms ();
            n_peer[q] = peer_search (trace, queries[q]);
            t_peer[q * rounds + r] = now_ms () - t0;
          }
      }
  for (guint q = 0; q < nq; q++)
    {
      g_autofree char *what = g_strdup_printf ("\"%s\" first page + count (%u of %" G_GUINT64_FORMAT ")", queries[q],
                                               n_matches[q], n_total[q]);
      g_autofree char *count = g_strdup_printf ("\"%s\" count only", queries[q]);
      g_autofree char *listed = g_strdup_printf ("\"%s\" all %u rows listed", queries[q], MIN (n_matches[q], 10000));
      g_autofree char *worker = g_strdup_printf ("\"%s\" worker's part", queries[q]);

      report (what, t_page + q * rounds, with_peer ? t_peer + q * rounds : NULL, rounds, GOAL_SEARCH_MS);
      report (listed, t_listed + q * rounds, NULL, rounds, 0);
      report (worker, t_worker + q * rounds, NULL, rounds, 0);
      report (count, t_count + q * rounds, NULL, rounds, 0);
      if (with_peer && n_peer[q] != n_total[q] && g_str_is_ascii (queries[q]))
        g_print ("  (the peer found %" G_GUINT64_FORMAT ")\n", n_peer[q]);
    }
  {
    g_autofree double *all_page = g_memdup2 (t_page, nq * rounds * sizeof (double));

    g_print ("  every keystroke: median %.2f ms, worst %.2f ms (goal %.0f ms)\n", bench_median (all_page, nq * rounds),
             bench_worst (all_page, nq * rounds), GOAL_SEARCH_MS);
  }

  start = sl_trace_get_start_ns (trace);
  end = sl_trace_get_end_ns (trace);
  ranges[0].name = "whole trace";
  ranges[0].from = start;
  ranges[0].to = end;
  ranges[1].name = "10 % window";
  ranges[1].from = start + (end - start) * 45 / 100;
  ranges[1].to = start + (end - start) * 55 / 100;

  g_print ("\nRange statistics (%u rounds)\n", rounds);
  for (guint g = 0; g < 2; g++)
    {
      guint n_rows = 0, n_peer_rows = 0;
      g_autofree char *plain_what = g_strdup_printf ("%s, reading every slice", ranges[g].name);

      t_stats[g] = g_new0 (double, rounds);
      t_plain[g] = g_new0 (double, rounds);
      t_stats_peer[g] = g_new0 (double, rounds);
      for (guint r = 0; r < rounds; r++)
        {
          g_autoptr(GArray) rows = NULL;
          g_autoptr(GArray) plain = NULL;

          t0 = now_ms ();
          rows = sl_trace_aggregate_indexed (trace, ranges[g].from, ranges[g].to, NULL, 0, NULL);
          t_stats[g][r] = now_ms () - t0;
          n_rows = rows->len;

          t0 = now_ms ();
          plain = sl_trace_aggregate (trace, ranges[g].from, ranges[g].to, NULL, 0, NULL);
          t_plain[g][r] = now_ms () - t0;
          g_assert_cmpuint (plain->len, ==, rows->len);

          if (with_peer)
            {
              t0 = now_ms ();
              n_peer_rows = peer_aggregate (trace, ranges[g].from, ranges[g].to);
              t_stats_peer[g][r] = now_ms () - t0;
            }
        }
      {
        g_autofree char *what = g_strdup_printf ("%s (%u names%s)", ranges[g].name, n_rows,
                                                 with_peer && n_peer_rows != n_rows ? ", peer differs" : "");

        report (what, t_stats[g], with_peer ? t_stats_peer[g] : NULL, rounds, GOAL_STATS_MS);
        report (plain_what, t_plain[g], NULL, rounds, 0);
      }
      g_free (t_stats[g]);
      g_free (t_plain[g]);
      g_free (t_stats_peer[g]);
    }
  return 0;
}
