/* test-trace-queries.c: the indexed search and range sums against a plain pass
 *
 * Generated traces (thread tracks of nested and overlapping slices and
 * instants, async tracks, counters; names that are empty, differ only in
 * case, are non-ASCII or Chinese, or are long) are searched and summed up
 * through SlTraceSearch and SlTraceAggregateIndex and by reading every
 * slice as the timeline did before the indexes; the answers must be the
 * same, match for match and row for row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-aggregate.h"
#include "sl-trace-aggregate-index.h"
#include "sl-trace-search.h"

static const char *vocabulary[] = {
  "", "MatMul", "matmul", "MATMUL", "MatMulV2", "BatchMatMul", "aclnnMatmul_MatMulCommon_MatMulV3",
  "Conv2D", "conv2d", "ReLU", "Ärger", "ärger", "École", "école", "ÉCOLE", "矩阵乘法", "卷积", "矩阵转置",
  "HcclAllReduce", "hcclallreduce", "aten::mm", "ProfilerStep#1", "Mul", "mul", "Ma", "M", "m",
  "Default/network-TrainOneStepCell/network-WithLossCell/_backbone-Net/MatMul-op42",
  "ſtraße",   /* folds to "strasse" */
};

/* Slices on @n_threads threads (nested, some overlapping, some instants),
 * two async tracks and a counter, with names from the vocabulary and
 * numbered ones so that there are many. */
static SlTrace *
build_trace (guint32 seed,
             guint   n_threads,
             guint   per_thread)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("generated.json");
  GRand *rand = g_rand_new_with_seed (seed);
  guint process = sl_trace_builder_get_process (builder, "1");
  guint counter = sl_trace_builder_get_counter_track (builder, process,
                                                      sl_trace_builder_intern (builder, "MatMul memory", -1),
                                                      sl_trace_builder_intern (builder, "bytes", -1));
  guint32 cat = sl_trace_builder_intern (builder, "op", -1);
  SlTrace *trace;

  for (guint th = 0; th < n_threads; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", 10 + th);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);
      gint64 t = g_rand_int_range (rand, 0, 1000);

      for (guint i = 0; i < per_thread; i++)
        {
          guint32 name;
          gint64 d;

          if (g_rand_int_range (rand, 0, 3) == 0)
            {
              g_autofree char *numbered = g_strdup_printf ("%sOp_%u", g_rand_boolean (rand) ? "mat" : "Conv",
                                                           g_rand_int_range (rand, 0, 400));

              name = sl_trace_builder_intern (builder, numbered, -1);
            }
          else
            name = sl_trace_builder_intern (builder, vocabulary[g_rand_int_range (rand, 0, G_N_ELEMENTS (vocabulary))], -1);

          switch (g_rand_int_range (rand, 0, 10))
            {
            case 0:   /* a long one that later slices nest in or overlap */
              d = g_rand_int_range (rand, 1000, 200000);
              sl_trace_builder_add_slice (builder, track, t, d, name, cat, 0, SL_TRACE_NO_ARGS, 0);
              t += g_rand_int_range (rand, 1, 50);
              break;
            case 1:   /* an instant */
              sl_trace_builder_add_slice (builder, track, t, 0, name, cat, SL_TRACE_SLICE_INSTANT, SL_TRACE_NO_ARGS, 0);
              t += g_rand_int_range (rand, 0, 3);
              break;
            case 2:   /* same start as the one before */
              d = g_rand_int_range (rand, 1, 100);
              sl_trace_builder_add_slice (builder, track, t, d, name, cat, 0, SL_TRACE_NO_ARGS, 0);
              break;
            default:
              d = g_rand_int_range (rand, 1, 300);
              sl_trace_builder_add_slice (builder, track, t, d, name, cat, 0, SL_TRACE_NO_ARGS, 0);
              t += d + g_rand_int_range (rand, 0, 20);
              break;
            }
          if (i % 50 == 0)
            sl_trace_builder_add_counter (builder, counter, t, i);
        }
    }

  for (guint a = 0; a < 2; a++)
    {
      guint32 name = sl_trace_builder_intern (builder, a == 0 ? "MatMul async" : "卷积 async", -1);
      guint track = sl_trace_builder_get_async_track (builder, process, cat, name);

      for (guint i = 0; i < per_thread / 4; i++)
        {
          gint64 start = g_rand_int_range (rand, 0, 400000);

          sl_trace_builder_begin_async (builder, track, i, start, name, cat, SL_TRACE_NO_ARGS, 0);
          sl_trace_builder_end_async (builder, track, i, start + g_rand_int_range (rand, 0, 5000), SL_TRACE_NO_ARGS);
        }
    }

  trace = sl_trace_builder_finish (builder, NULL);
  g_rand_free (rand);
  return trace;
}

/* The search as the timeline ran it before the index. */
typedef struct {
  guint   track;
  guint32 slice;
  gint64  start;
} PlainMatch;

static int
compare_plain (gconstpointer a,
               gconstpointer b)
{
  const PlainMatch *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

static guint8 *
plain_hits (SlTrace    *trace,
            const char *text)
{
  guint n = sl_trace_get_n_strings (trace);
  guint8 *hits = g_new0 (guint8, MAX (n, 1));
  g_autofree char *needle = g_utf8_casefold (text, -1);

  for (guint i = 1; i < n; i++)
    {
      g_autofree char *folded = g_utf8_casefold (sl_trace_get_string (trace, i), -1);

      hits[i] = strstr (folded, needle) != NULL;
    }
  return hits;
}

/* Every match, track by track, sorted by start (stable: ties stay in
 * track order, then slice order), then the earliest @max_matches kept. */
static GArray *
plain_collect (SlTrace      *trace,
               const guint8 *hits,
               guint         max_matches,
               guint64      *n_total)
{
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (PlainMatch));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER
          || (s = sl_trace_get_slices (trace, t)) == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (hits[sl_trace_slices_name_id (s, i)])
          {
            PlainMatch m = { t, i, sl_trace_slices_start_ns (s, i) };

            g_array_append_val (matches, m);
          }
    }
  g_array_sort (matches, compare_plain);
  *n_total = matches->len;
  g_array_set_size (matches, MIN (matches->len, max_matches));
  return matches;
}

static void
assert_same_matches (GArray *plain,
                     GArray *fast)
{
  g_assert_cmpuint (fast->len, ==, plain->len);
  for (guint i = 0; i < plain->len; i++)
    {
      const PlainMatch *p = &g_array_index (plain, PlainMatch, i);
      const SlTraceSearchMatch *f = &g_array_index (fast, SlTraceSearchMatch, i);

      g_assert_cmpuint (f->track, ==, p->track);
      g_assert_cmpuint (f->slice, ==, p->slice);
      g_assert_cmpint (f->start_ns, ==, p->start);
    }
}

static void
test_search_matches_plain (void)
{
  static const char *queries[] = {
    "M", "Ma", "Mat", "MatM", "MatMul", "matmul", "MATMUL", "mAtMuL", "mat", "matOp_1", "nothing-like-this",
    "ä", "Ä", "ÄRGER", "é", "ÉCOLE", "矩阵", "矩阵乘法", "卷", "strasse", "STRASSE", "op42", "", "Op_", "aten::",
  };
  static const guint caps[] = { 1000000, 5000, 100, 1, 0 };

  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(SlTrace) trace = build_trace (seed, 2 + seed, 3000 * seed);
      SlTraceSearch *index = sl_trace_search_get (trace, NULL);

      g_assert_nonnull (index);
      g_assert_true (sl_trace_search_get (trace, NULL) == index);
      g_assert_cmpuint (sl_trace_search_get_memory_size (index), >, 0);

      for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
        {
          g_autofree guint8 *expected_hits = plain_hits (trace, queries[q]);
          g_autofree guint8 *hits = sl_trace_search_match_names (index, queries[q], FALSE, NULL, NULL, NULL, NULL);
          guint64 total = 0;

          g_assert_nonnull (hits);
          g_assert_cmpmem (hits, MAX (sl_trace_get_n_strings (trace), 1), expected_hits,
                           MAX (sl_trace_get_n_strings (trace), 1));
          for (guint c = 0; c < G_N_ELEMENTS (caps); c++)
            {
              guint64 plain_total, fast_total = 0;
              g_autoptr(GArray) plain = plain_collect (trace, expected_hits, caps[c], &plain_total);
              g_autoptr(GArray) fast = sl_trace_search_collect (index, hits, caps[c], &fast_total, NULL);

              assert_same_matches (plain, fast);
              g_assert_cmpuint (fast_total, ==, plain_total);
              total = plain_total;
            }
          g_assert_cmpuint (sl_trace_search_count (index, hits), ==, total);
        }
    }
}

/* Typing on: each keystroke narrowed from the one before gives what a
 * search from scratch gives, and so does a keystroke that is not an
 * extension (deleting, or typing in the middle). */
static void
test_search_narrowing (void)
{
  static const char *typed[] = {
    "m", "ma", "mat", "matm", "matmu", "matmul", "matmulv", "matmul", "MatMulV3", "a", "ma", "xma", "矩", "矩阵乘",
    "矩阵", "É", "éc", "ÉCO", "ſ", "st", "s", "", "o", "op_", "Op_3",
  };
  g_autoptr(SlTrace) trace = build_trace (7, 3, 5000);
  SlTraceSearch *index = sl_trace_search_get (trace, NULL);
  g_autofree guint8 *last = NULL;
  const char *last_text = NULL;

  for (guint q = 0; q < G_N_ELEMENTS (typed); q++)
    {
      g_autofree guint8 *fresh = sl_trace_search_match_names (index, typed[q], FALSE, NULL, NULL, NULL, NULL);
      guint8 *narrowed = sl_trace_search_match_names (index, typed[q], FALSE, NULL, last_text, last, NULL);

      g_assert_cmpmem (narrowed, MAX (sl_trace_get_n_strings (trace), 1), fresh, MAX (sl_trace_get_n_strings (trace), 1));
      g_free (last);
      last = narrowed;
      last_text = typed[q];
    }
}

static void
test_search_regex_and_names (void)
{
  g_autoptr(SlTrace) trace = build_trace (11, 2, 4000);
  SlTraceSearch *index = sl_trace_search_get (trace, NULL);
  const char *exact[] = { "MatMul", "卷积", "", "École", NULL };
  g_autoptr(SlOpNames) names = sl_op_names_new (exact);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *hits = NULL;
  g_autofree guint8 *by_names = NULL;
  guint n = sl_trace_get_n_strings (trace);

  hits = sl_trace_search_match_names (index, "^mat.*mul$", TRUE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *folded = g_utf8_casefold (sl_trace_get_string (trace, i), -1);

      g_assert_cmpint (hits[i], ==, g_str_has_prefix (folded, "mat") && g_str_has_suffix (folded, "mul"));
    }
  g_assert_cmpint (hits[0], ==, 0);

  by_names = sl_trace_search_match_names (index, "ignored", FALSE, names, "ignored", hits, NULL);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (by_names[i], ==, sl_op_names_contains (names, sl_trace_get_string (trace, i)));
  {
    guint64 n_total;
    g_autoptr(GArray) plain = plain_collect (trace, by_names, 1000000, &n_total);
    g_autoptr(GArray) fast = sl_trace_search_collect (index, by_names, 1000000, NULL, NULL);

    g_assert_cmpuint (plain->len, >, 0);
    assert_same_matches (plain, fast);
  }

  g_assert_null (sl_trace_search_match_names (index, "(unclosed", TRUE, NULL, NULL, NULL, &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);
}

/* Threads whose slices start at the same times: ties in time go in track
 * order, then slice order, as the plain pass's stable sort leaves them. */
static void
test_search_ties (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("ties.json");
  guint process = sl_trace_builder_get_process (builder, "1");
  g_autoptr(SlTrace) trace = NULL;
  g_autofree guint8 *hits = NULL;
  SlTraceSearch *index;

  for (guint th = 0; th < 5; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", th);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);

      for (guint i = 0; i < 3000; i++)
        sl_trace_builder_add_slice (builder, track, (gint64)(i / 3) * 10, 5 + (i % 3),
                                    sl_trace_builder_intern (builder, (i + th) % 4 ? "MatMul" : "Add", -1),
                                    0, 0, SL_TRACE_NO_ARGS, 0);
    }
  trace = sl_trace_builder_finish (builder, NULL);
  index = sl_trace_search_get (trace, NULL);
  hits = sl_trace_search_match_names (index, "matmul", FALSE, NULL, NULL, NULL, NULL);
  for (guint cap = 1; cap <= 20000; cap *= 7)
    {
      guint64 plain_total, fast_total;
      g_autoptr(GArray) plain = plain_collect (trace, hits, cap, &plain_total);
      g_autoptr(GArray) fast = sl_trace_search_collect (index, hits, cap, &fast_total, NULL);

      assert_same_matches (plain, fast);
      g_assert_cmpuint (fast_total, ==, plain_total);
    }
}

/* The cap keeps the earliest matches of the whole trace, not the first
 * tracks': a thread that starts late comes first in track order, and the
 * earliest matches are on the last thread. */
static void
test_search_cap_in_time_order (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("late.json");
  guint process = sl_trace_builder_get_process (builder, "1");
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GArray) fast = NULL;
  SlTraceSearch *index;
  guint64 n_total = 0;

  for (guint th = 0; th < 4; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", th);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);

      /* thread 0 runs from 3,000,000, thread 3 from 0 */
      for (guint i = 0; i < 1000; i++)
        sl_trace_builder_add_slice (builder, track, (gint64)(3 - th) * 1000000 + i * 100, 50,
                                    sl_trace_builder_intern (builder, i % 2 ? "GeluGrad" : "Gelu", -1),
                                    0, 0, SL_TRACE_NO_ARGS, 0);
    }
  trace = sl_trace_builder_finish (builder, NULL);
  index = sl_trace_search_get (trace, NULL);

  /* one name, and two names merged */
  for (guint q = 0; q < 2; q++)
    {
      g_autofree guint8 *h = sl_trace_search_match_names (index, q == 0 ? "gelugrad" : "gelu", FALSE, NULL, NULL, NULL, NULL);

      g_clear_pointer (&fast, g_array_unref);
      fast = sl_trace_search_collect (index, h, 300, &n_total, NULL);
      g_assert_cmpuint (fast->len, ==, 300);
      g_assert_cmpuint (n_total, ==, q == 0 ? 2000 : 4000);
      for (guint i = 0; i < fast->len; i++)
        {
          const SlTraceSearchMatch *m = &g_array_index (fast, SlTraceSearchMatch, i);

          g_assert_cmpint (m->start_ns, <, 1000000);
          g_assert_cmpuint (m->slice, ==, q == 0 ? 2 * i + 1 : i);
        }
      g_assert_cmpuint (g_array_index (fast, SlTraceSearchMatch, 0).track, ==,
                        g_array_index (fast, SlTraceSearchMatch, 299).track);
    }
}

static void
test_search_cancelled (void)
{
  g_autoptr(SlTrace) trace = build_trace (5, 2, 2000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree guint8 *hits = NULL;
  SlTraceSearch *index;

  g_cancellable_cancel (cancellable);
  /* nothing is kept from a cancelled build: the next one builds it */
  g_assert_null (sl_trace_search_get (trace, cancellable));
  g_assert_null (sl_trace_search_peek (trace));
  index = sl_trace_search_get (trace, NULL);
  g_assert_true (sl_trace_search_peek (trace) == index);
  g_assert_nonnull (index);
  hits = sl_trace_search_match_names (index, "m", FALSE, NULL, NULL, NULL, NULL);
  g_assert_null (sl_trace_search_collect (index, hits, 1000000, NULL, cancellable));
}

static gpointer
build_indexes_thread (gpointer data)
{
  sl_trace_aggregate_index_get (data, NULL);
  return sl_trace_search_get (data, NULL);
}

/* Workers asking for the indexes of one trace at once share one build. */
static void
test_shared_build (void)
{
  g_autoptr(SlTrace) trace = build_trace (13, 4, 20000);
  GThread *threads[4];
  SlTraceSearch *index;

  g_assert_null (sl_trace_search_peek (trace));
  g_assert_null (sl_trace_aggregate_index_peek (trace));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("index", build_indexes_thread, trace);
  index = sl_trace_search_get (trace, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (g_thread_join (threads[i]) == index);
  g_assert_true (sl_trace_search_peek (trace) == index);
  g_assert_nonnull (sl_trace_aggregate_index_peek (trace));
  g_assert_true (sl_trace_aggregate_index_get (trace, NULL) == sl_trace_aggregate_index_peek (trace));
}

static void
test_search_empty_trace (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("empty.json");
  g_autoptr(SlTrace) trace = sl_trace_builder_finish (builder, NULL);
  SlTraceSearch *index = sl_trace_search_get (trace, NULL);
  g_autofree guint8 *hits = sl_trace_search_match_names (index, "", FALSE, NULL, NULL, NULL, NULL);
  guint64 n_total = 1;
  g_autoptr(GArray) matches = sl_trace_search_collect (index, hits, 10, &n_total, NULL);

  g_assert_cmpuint (matches->len, ==, 0);
  g_assert_cmpuint (n_total, ==, 0);
  g_assert_cmpuint (sl_trace_search_count (index, hits), ==, 0);
}

static void
assert_same_rows (GArray *plain,
                  GArray *fast)
{
  g_assert_nonnull (fast);
  g_assert_cmpuint (fast->len, ==, plain->len);
  for (guint i = 0; i < plain->len; i++)
    {
      const SlTraceAggregateRow *p = &g_array_index (plain, SlTraceAggregateRow, i);
      const SlTraceAggregateRow *f = &g_array_index (fast, SlTraceAggregateRow, i);

      g_assert_cmpuint (f->name_id, ==, p->name_id);
      g_assert_cmpuint (f->count, ==, p->count);
      g_assert_cmpint (f->total_ns, ==, p->total_ns);
      g_assert_cmpint (f->self_ns, ==, p->self_ns);
      g_assert_cmpint (f->min_ns, ==, p->min_ns);
      g_assert_cmpint (f->max_ns, ==, p->max_ns);
    }
}

static void
test_aggregate_matches_plain (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      /* tracks of several blocks of 4096, and of less than one */
      g_autoptr(SlTrace) trace = build_trace (seed, 3, seed == 3 ? 1500 : 9000 * seed);
      gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
      GRand *rand = g_rand_new_with_seed (seed);
      gint64 windows[][2] = {
        { G_MININT64, G_MAXINT64 },
        { start, end },
        { start + 1, end - 1 },
        { start - 1000, start - 1 },
        { end + 1, end + 1000 },
        { (start + end) / 2, (start + end) / 2 },           /* an instant in time */
        { start + (end - start) * 45 / 100, start + (end - start) * 55 / 100 },
        { end, start },                                     /* empty */
      };
      guint tracks[] = { 0, 2, 99, 1 };

      for (guint w = 0; w < G_N_ELEMENTS (windows) + 40; w++)
        {
          gint64 from, to;
          g_autoptr(GArray) plain = NULL;
          g_autoptr(GArray) fast = NULL;

          if (w < G_N_ELEMENTS (windows))
            from = windows[w][0], to = windows[w][1];
          else
            {
              /* windows that cut slices at both ends */
              from = start + g_rand_int_range (rand, 0, (gint32)MIN (end - start, G_MAXINT32 / 2));
              to = from + g_rand_int_range (rand, 0, 100000);
            }
          plain = sl_trace_aggregate (trace, from, to, NULL, 0, NULL);
          fast = sl_trace_aggregate_indexed (trace, from, to, NULL, 0, NULL);
          assert_same_rows (plain, fast);
          if (w == 1)
            g_assert_cmpuint (plain->len, >, 10);

          g_clear_pointer (&plain, g_array_unref);
          g_clear_pointer (&fast, g_array_unref);
          plain = sl_trace_aggregate (trace, from, to, tracks, G_N_ELEMENTS (tracks), NULL);
          fast = sl_trace_aggregate_indexed (trace, from, to, tracks, G_N_ELEMENTS (tracks), NULL);
          assert_same_rows (plain, fast);
        }
      g_assert_cmpuint (sl_trace_aggregate_index_get_memory_size (sl_trace_aggregate_index_get (trace, NULL)), >, 0);
      g_rand_free (rand);
    }
}

/* A track of all different names keeps no block sums and still sums the
 * same; hostile durations saturate the same way. */
static void
test_aggregate_unique_names (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("unique.json");
  guint process = sl_trace_builder_get_process (builder, "1");
  guint track = sl_trace_builder_get_thread_track (builder, process, "1");
  g_autoptr(SlTrace) trace = NULL;

  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *name = g_strdup_printf ("kernel_%u", i);

      sl_trace_builder_add_slice (builder, track, (gint64)i * 10, 5, sl_trace_builder_intern (builder, name, -1),
                                  0, 0, SL_TRACE_NO_ARGS, 0);
    }
  for (guint i = 0; i < 3; i++)
    sl_trace_builder_add_slice (builder, track, 200000 + i, G_MAXINT64 / 2,
                                sl_trace_builder_intern (builder, "huge", -1), 0, 0, SL_TRACE_NO_ARGS, 0);
  trace = sl_trace_builder_finish (builder, NULL);

  for (gint64 from = -10; from < 200010; from += 7919)
    {
      g_autoptr(GArray) plain = sl_trace_aggregate (trace, from, from + 30000, NULL, 0, NULL);
      g_autoptr(GArray) fast = sl_trace_aggregate_indexed (trace, from, from + 30000, NULL, 0, NULL);

      assert_same_rows (plain, fast);
    }
  {
    g_autoptr(GArray) plain = sl_trace_aggregate (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);
    g_autoptr(GArray) fast = sl_trace_aggregate_indexed (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);

    assert_same_rows (plain, fast);
    g_assert_cmpint (g_array_index (fast, SlTraceAggregateRow, 0).total_ns, ==, G_MAXINT64);
  }
}

static void
test_aggregate_cancelled (void)
{
  g_autoptr(SlTrace) trace = build_trace (3, 2, 1000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GArray) rows = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (sl_trace_aggregate_indexed (trace, G_MININT64, G_MAXINT64, NULL, 0, cancellable));
  rows = sl_trace_aggregate_indexed (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);
  g_assert_cmpuint (rows->len, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-queries/search/plain", test_search_matches_plain);
  g_test_add_func ("/trace-queries/search/narrowing", test_search_narrowing);
  g_test_add_func ("/trace-queries/search/regex-and-names", test_search_regex_and_names);
  g_test_add_func ("/trace-queries/search/ties", test_search_ties);
  g_test_add_func ("/trace-queries/search/cap-in-time-order", test_search_cap_in_time_order);
  g_test_add_func ("/trace-queries/search/cancelled", test_search_cancelled);
  g_test_add_func ("/trace-queries/search/empty-trace", test_search_empty_trace);
  g_test_add_func ("/trace-queries/shared-build", test_shared_build);
  g_test_add_func ("/trace-queries/aggregate/plain", test_aggregate_matches_plain);
  g_test_add_func ("/trace-queries/aggregate/unique-names", test_aggregate_unique_names);
  g_test_add_func ("/trace-queries/aggregate/cancelled", test_aggregate_cancelled);

  return g_test_run ();
}
