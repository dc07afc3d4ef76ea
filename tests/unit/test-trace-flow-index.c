/* test-trace-flow-index.c: the flows of a trace by slice and by time
 *
 * A small trace whose flows were worked out by hand: which flows end at
 * which slice (a flow from a slice to itself once, unbound ends nowhere)
 * and which cross a time window. Then a generated trace with thousands of
 * flows, some very long, checked against reading every flow.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "sl-trace.h"

static void
add (SlTraceBuilder *builder,
     guint           track,
     const char     *name,
     gint64          start,
     gint64          dur)
{
  sl_trace_builder_add_slice (builder, track, start, dur,
                              sl_trace_builder_intern (builder, name, -1), 0,
                              SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
}

static guint32
find_slice (SlTrace    *trace,
            guint       track,
            const char *name)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);

  for (guint32 i = 0; i < s->n_slices; i++)
    if (g_str_equal (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), name))
      return i;
  g_assert_not_reached ();
  return SL_TRACE_NO_PARENT;
}

static void
assert_flows (const guint32 *flows,
              guint          n,
              const guint32 *expected,
              guint          n_expected)
{
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (flows[i], ==, expected[i]);
}

static void
assert_slice_flows (SlTrace       *trace,
                    guint          track,
                    const char    *slice,
                    const guint32 *expected,
                    guint          n_expected)
{
  guint n = G_MAXUINT;
  const guint32 *flows = sl_trace_get_slice_flows (trace, track, find_slice (trace, track, slice), &n);

  if (n_expected == 0)
    g_assert_null (flows);
  assert_flows (flows, n, expected, n_expected);
}

static void
assert_in_range (SlTrace       *trace,
                 gint64         from_ns,
                 gint64         to_ns,
                 guint          max_flows,
                 const guint32 *expected,
                 guint          n_expected)
{
  guint32 flows[16];
  guint n;

  g_assert_cmpuint (max_flows, <=, G_N_ELEMENTS (flows));
  n = sl_trace_find_flows_in_range (trace, from_ns, to_ns, flows, max_flows);
  assert_flows (flows, n, expected, n_expected);
}

/* Thread A: a0 [0, 100] holding a1 [10, 30], then a2 [200, 250].
 * Thread B: b0 [50, 60], b1 [120, 180], b2 [300, 310].
 * Flows, numbered in id order:
 *   0  id 1  a1 → b0   15 → 55
 *   1  id 2  a1 → b1   20 → 130   (s, then t)
 *   2  id 2  b1 → a2  130 → 210   (t, then f)
 *   3  id 3  b1 → b1  150 → 160   (to itself)
 *   4  id 4   - → b2  150 → 290   (no slice encloses the start; f binds the next slice)
 *   5  id 5  b2 → -   305 → 400   (nothing encloses the end) */
static SlTrace *
build_hand_trace (guint *a,
                  guint *b)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  guint process = sl_trace_builder_get_process (builder, "1");
  guint32 name = sl_trace_builder_intern (builder, "launch", -1);

  *a = sl_trace_builder_get_thread_track (builder, process, "1");
  *b = sl_trace_builder_get_thread_track (builder, process, "2");
  add (builder, *a, "a2", 200, 50);
  add (builder, *a, "a0", 0, 100);
  add (builder, *a, "a1", 10, 20);
  add (builder, *b, "b1", 120, 60);
  add (builder, *b, "b0", 50, 10);
  add (builder, *b, "b2", 300, 10);

  /* Out of file order on purpose: flows are matched by id and time. */
  sl_trace_builder_add_flow_point (builder, 'f', 2, name, 0, *a, 210, TRUE);
  sl_trace_builder_add_flow_point (builder, 's', 1, name, 0, *a, 15, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', 1, name, 0, *b, 55, TRUE);
  sl_trace_builder_add_flow_point (builder, 's', 2, name, 0, *a, 20, TRUE);
  sl_trace_builder_add_flow_point (builder, 't', 2, name, 0, *b, 130, TRUE);
  sl_trace_builder_add_flow_point (builder, 's', 3, name, 0, *b, 150, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', 3, name, 0, *b, 160, TRUE);
  sl_trace_builder_add_flow_point (builder, 's', 4, name, 0, *a, 150, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', 4, name, 0, *b, 290, FALSE);
  sl_trace_builder_add_flow_point (builder, 's', 5, name, 0, *b, 305, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', 5, name, 0, *a, 400, TRUE);
  return sl_trace_builder_finish (builder, NULL);
}

static void
test_by_slice (void)
{
  guint a, b;
  g_autoptr(SlTrace) trace = build_hand_trace (&a, &b);
  const guint32 a1[] = { 0, 1 }, a2[] = { 2 }, b0[] = { 0 }, b1[] = { 1, 2, 3 }, b2[] = { 4, 5 };
  guint n = G_MAXUINT;

  /* The numbering the expectations rely on. */
  g_assert_cmpuint (sl_trace_get_n_flows (trace), ==, 6);
  g_assert_cmpuint (sl_trace_get_flow (trace, 3)->from_slice, ==, find_slice (trace, b, "b1"));
  g_assert_cmpuint (sl_trace_get_flow (trace, 3)->to_slice, ==, find_slice (trace, b, "b1"));
  g_assert_cmpuint (sl_trace_get_flow (trace, 4)->from_slice, ==, SL_TRACE_NO_PARENT);
  g_assert_cmpuint (sl_trace_get_flow (trace, 4)->to_slice, ==, find_slice (trace, b, "b2"));
  g_assert_cmpuint (sl_trace_get_flow (trace, 5)->to_slice, ==, SL_TRACE_NO_PARENT);

  assert_slice_flows (trace, a, "a0", NULL, 0);
  assert_slice_flows (trace, a, "a1", a1, G_N_ELEMENTS (a1));
  assert_slice_flows (trace, a, "a2", a2, G_N_ELEMENTS (a2));
  assert_slice_flows (trace, b, "b0", b0, G_N_ELEMENTS (b0));
  assert_slice_flows (trace, b, "b1", b1, G_N_ELEMENTS (b1));
  assert_slice_flows (trace, b, "b2", b2, G_N_ELEMENTS (b2));

  /* An unbound end is at no slice, and there is no slice past the last. */
  g_assert_null (sl_trace_get_slice_flows (trace, a, SL_TRACE_NO_PARENT, &n));
  g_assert_cmpuint (n, ==, 0);
  n = G_MAXUINT;
  g_assert_null (sl_trace_get_slice_flows (trace, b, 3, &n));
  g_assert_cmpuint (n, ==, 0);
}

static void
test_by_time (void)
{
  guint a, b;
  g_autoptr(SlTrace) trace = build_hand_trace (&a, &b);
  const guint32 at_51[] = { 0, 1 }, at_155[] = { 2, 3, 4 }, late[] = { 5 }, all[] = { 0, 1, 2, 3, 4, 5 };

  assert_in_range (trace, 0, 10, 16, NULL, 0);
  assert_in_range (trace, 50, 52, 16, at_51, G_N_ELEMENTS (at_51));
  assert_in_range (trace, 155, 155, 16, at_155, G_N_ELEMENTS (at_155));
  /* Both ends count: 130 is where flow 1 ends and flow 2 starts. */
  assert_in_range (trace, 130, 130, 16, (const guint32[]) { 1, 2 }, 2);
  assert_in_range (trace, 300, 1000, 16, late, G_N_ELEMENTS (late));
  assert_in_range (trace, 401, 1000, 16, NULL, 0);
  assert_in_range (trace, -1000, 1000, 16, all, G_N_ELEMENTS (all));
  /* Capped: the first by earlier end (15, 20, 130). */
  assert_in_range (trace, -1000, 1000, 3, all, 3);
  assert_in_range (trace, 60, 10, 16, NULL, 0);
}

/* Thousands of flows between four threads, short ones and a few spanning
 * most of the trace, against reading every flow. */
static void
test_against_scan (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261130);
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint32 name = sl_trace_builder_intern (builder, "f", -1);
  guint tracks[4];
  guint n_flows;
  g_autofree guint32 *found = NULL;

  for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", t);

      tracks[t] = sl_trace_builder_get_thread_track (builder, process, tid);
      for (gint64 at = 0; at < 1000000; at += 1000)
        add (builder, tracks[t], "s", at + g_rand_int_range (rand, 0, 200), g_rand_int_range (rand, 100, 700));
    }
  for (guint i = 0; i < 5000; i++)
    {
      gint64 from = g_rand_int_range (rand, 0, 1000000);
      gint64 len = i % 97 == 0 ? g_rand_int_range (rand, 100000, 900000) : g_rand_int_range (rand, 0, 3000);

      sl_trace_builder_add_flow_point (builder, 's', i, name, 0, tracks[g_rand_int_range (rand, 0, 4)], from, TRUE);
      sl_trace_builder_add_flow_point (builder, 'f', i, name, 0, tracks[g_rand_int_range (rand, 0, 4)], from + len,
                                       g_rand_boolean (rand));
    }
  trace = sl_trace_builder_finish (builder, NULL);
  n_flows = sl_trace_get_n_flows (trace);
  g_assert_cmpuint (n_flows, ==, 5000);
  found = g_new (guint32, n_flows);

  for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      for (guint32 slice = 0; slice < s->n_slices; slice++)
        {
          guint n, expected = 0;
          const guint32 *flows = sl_trace_get_slice_flows (trace, t, slice, &n);

          for (guint f = 0; f < n_flows; f++)
            {
              const SlTraceFlow *flow = sl_trace_get_flow (trace, f);

              if ((flow->from_track == t && flow->from_slice == slice) || (flow->to_track == t && flow->to_slice == slice))
                {
                  g_assert_cmpuint (expected, <, n);
                  g_assert_cmpuint (flows[expected], ==, f);
                  expected++;
                }
            }
          g_assert_cmpuint (n, ==, expected);
        }
    }

  for (guint q = 0; q < 300; q++)
    {
      gint64 from = g_rand_int_range (rand, -10000, 1010000);
      gint64 to = from + (q % 3 == 0 ? 0 : g_rand_int_range (rand, 0, q % 3 == 1 ? 5000 : 400000));
      guint n = sl_trace_find_flows_in_range (trace, from, to, found, n_flows);
      g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);
      guint expected = 0;
      gint64 last_lo = G_MININT64;

      for (guint i = 0; i < n; i++)
        {
          const SlTraceFlow *flow = sl_trace_get_flow (trace, found[i]);
          gint64 lo = MIN (flow->from_ns, flow->to_ns);

          g_assert_cmpint (lo, >=, last_lo);
          last_lo = lo;
          g_assert_true (g_hash_table_add (listed, GUINT_TO_POINTER (found[i])));
        }
      for (guint f = 0; f < n_flows; f++)
        {
          const SlTraceFlow *flow = sl_trace_get_flow (trace, f);
          gboolean crosses = MAX (flow->from_ns, flow->to_ns) >= from && MIN (flow->from_ns, flow->to_ns) <= to;

          g_assert_cmpint (crosses, ==, g_hash_table_contains (listed, GUINT_TO_POINTER (f)));
          expected += crosses;
        }
      g_assert_cmpuint (n, ==, expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace/flow-index/by-slice", test_by_slice);
  g_test_add_func ("/trace/flow-index/by-time", test_by_time);
  g_test_add_func ("/trace/flow-index/against-scan", test_against_scan);

  return g_test_run ();
}
