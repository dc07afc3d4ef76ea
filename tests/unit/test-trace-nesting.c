/* test-trace-nesting.c: parents and self times, which a track finds from
 * its depths instead of storing, against the plain stack nesting of the
 * sorted slices, on generated traces: deep and wide nesting, zero-length
 * slices, equal starts and equal slices, overlaps that go to overflow
 * lanes, slices left open, durations past 32 bits, depths past a byte and
 * nesting deeper than depths can tell apart; and the range sums of self
 * times, which walk the slices once, against adding them up one by one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "sl-trace.h"
#include "sl-trace-aggregate.h"

#define TWO_32 (G_GINT64_CONSTANT (1) << 32)
#define DEEP   (G_MAXUINT16 - 1)

/* The nesting of slices sorted by start, then longer first: what a track
 * did before it found parents and self times from depths. */
static void
check_against_stack (const SlTraceSlices *s)
{
  g_autofree guint32 *parent = g_new (guint32, MAX (s->n_slices, 1));
  g_autofree gint64 *self = g_new (gint64, MAX (s->n_slices, 1));
  g_autofree guint *depth = g_new (guint, MAX (s->n_slices, 1));
  g_autofree gboolean *overflow = g_new (gboolean, MAX (s->n_slices, 1));
  g_autofree guint *n_children = g_new0 (guint, MAX (s->n_slices, 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < s->n_slices; i++)
    {
      gint64 start = sl_trace_slices_start_ns (s, i);
      gint64 end = start + sl_trace_slices_dur_ns (s, i);

      while (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (sl_trace_slices_start_ns (s, top) + sl_trace_slices_dur_ns (s, top) > start)
            break;
          g_array_set_size (stack, stack->len - 1);
        }
      parent[i] = SL_TRACE_NO_PARENT;
      self[i] = sl_trace_slices_dur_ns (s, i);
      overflow[i] = FALSE;
      if (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (end > sl_trace_slices_start_ns (s, top) + sl_trace_slices_dur_ns (s, top))
            {
              overflow[i] = TRUE;
              continue;
            }
          parent[i] = top;
          n_children[top]++;
          self[top] = MAX (self[top] - sl_trace_slices_dur_ns (s, i), 0);
        }
      depth[i] = MIN (stack->len, DEEP);
      g_array_append_val (stack, i);
    }

  for (guint i = 0; i < s->n_slices; i++)
    {
      g_assert_cmpint (!!(sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_OVERFLOW), ==, overflow[i]);
      g_assert_cmpuint (sl_trace_slices_parent (s, i), ==, parent[i]);
      g_assert_cmpint (sl_trace_slices_self_ns (s, i), ==, self[i]);
      if (!overflow[i])
        g_assert_cmpuint (sl_trace_slices_depth (s, i), ==, depth[i]);
    }

  /* the children in order, each after the one before */
  for (guint i = 0; i < s->n_slices; i++)
    {
      guint n = 0;
      guint32 previous = i;

      for (guint32 k = sl_trace_slices_next_child (s, i, i); k != G_MAXUINT32; k = sl_trace_slices_next_child (s, i, k))
        {
          g_assert_cmpuint (k, >, previous);
          g_assert_cmpuint (parent[k], ==, i);
          previous = k;
          n++;
        }
      g_assert_cmpuint (n, ==, n_children[i]);
    }
}

/* The range sums, plain and indexed, against summing self times read one
 * slice at a time (checked above against the stack) by name. */
static void
check_range_sums (SlTrace *trace,
                  gint64   from_ns,
                  gint64   to_ns)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, 0);
  g_autoptr(GArray) plain = sl_trace_aggregate (trace, from_ns, to_ns, NULL, 0, NULL);
  g_autoptr(GArray) indexed = sl_trace_aggregate_indexed (trace, from_ns, to_ns, NULL, 0, NULL);
  g_autoptr(GHashTable) self = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) count = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < s->n_slices && sl_trace_slices_start_ns (s, i) <= to_ns; i++)
    {
      gpointer name = GUINT_TO_POINTER (sl_trace_slices_name_id (s, i));
      gint64 *sum;

      if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) < from_ns)
        continue;
      sum = g_hash_table_lookup (self, name);
      if (sum == NULL)
        g_hash_table_insert (self, name, sum = g_new0 (gint64, 1));
      *sum = *sum > G_MAXINT64 - sl_trace_slices_self_ns (s, i) ? G_MAXINT64 : *sum + sl_trace_slices_self_ns (s, i);
      g_hash_table_insert (count, name, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, name)) + 1));
    }

  g_assert_cmpuint (plain->len, ==, g_hash_table_size (self));
  g_assert_cmpuint (indexed->len, ==, plain->len);
  for (guint r = 0; r < plain->len; r++)
    {
      const SlTraceAggregateRow *p = &g_array_index (plain, SlTraceAggregateRow, r);
      const SlTraceAggregateRow *x = &g_array_index (indexed, SlTraceAggregateRow, r);
      const gint64 *sum = g_hash_table_lookup (self, GUINT_TO_POINTER (p->name_id));

      g_assert_nonnull (sum);
      g_assert_cmpint (p->self_ns, ==, *sum);
      g_assert_cmpuint (p->count, ==, GPOINTER_TO_UINT (g_hash_table_lookup (count, GUINT_TO_POINTER (p->name_id))));
      g_assert_cmpuint (x->name_id, ==, p->name_id);
      g_assert_cmpuint (x->count, ==, p->count);
      g_assert_cmpint (x->total_ns, ==, p->total_ns);
      g_assert_cmpint (x->self_ns, ==, p->self_ns);
      g_assert_cmpint (x->min_ns, ==, p->min_ns);
      g_assert_cmpint (x->max_ns, ==, p->max_ns);
    }
}

static void
check_ranges (SlTrace *trace)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, 0);
  gint64 first = sl_trace_slices_start_ns (s, 0);
  gint64 last = sl_trace_slices_start_ns (s, s->n_slices - 1);

  check_range_sums (trace, G_MININT64, G_MAXINT64);
  for (guint k = 0; k < 8; k++)
    {
      gint64 a = first + (last - first) / 8 * k, b = a + (last - first) / (3 + k);

      check_range_sums (trace, a, b);
    }
}

static guint32
name (SlTraceBuilder *builder,
      GRand          *rand)
{
  g_autofree char *text = g_strdup_printf ("n%d", g_rand_int_range (rand, 0, 40));

  return sl_trace_builder_intern (builder, text, -1);
}

/* Children of [start, start + dur) placed one after another, some
 * zero-length, some as long as their parent, some overlapping the next. */
static void
add_nested (SlTraceBuilder *builder,
            GRand          *rand,
            guint           track,
            GArray         *slices,
            gint64          start,
            gint64          dur,
            guint           depth,
            guint           max_depth)
{
  gint64 at = start, end = start + dur;
  guint n = depth >= max_depth ? 0 : g_rand_int_range (rand, 0, depth < 2 ? 12 : 4);

  g_array_append_vals (slices, (gint64[]) { start, dur }, 2);
  for (guint c = 0; c < n && at <= end; c++)
    {
      gint64 left = end - at;
      gint64 child_start = at + (g_rand_boolean (rand) ? 0 : g_rand_double (rand) * left / 4);
      gint64 child_dur;

      switch (g_rand_int_range (rand, 0, 6))
        {
        case 0:
          child_dur = 0;
          break;
        case 1:
          child_start = at;
          child_dur = left;        /* equal to what is left: often the parent itself */
          break;
        default:
          child_dur = g_rand_double (rand) * (end - child_start) / 2;
          break;
        }
      add_nested (builder, rand, track, slices, child_start, child_dur, depth + 1, max_depth);
      at = child_start + child_dur;
      if (g_rand_int_range (rand, 0, 10) == 0)
        g_array_append_vals (slices, (gint64[]) { at - child_dur / 2, child_dur }, 2);   /* overlaps */
    }
}

static SlTrace *
generate (guint32  seed,
          guint    n_roots,
          gint64   scale,
          guint    max_depth,
          guint    chain)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  guint track = sl_trace_builder_get_thread_track (builder, sl_trace_builder_get_process (builder, "1"), "1");
  gint64 at = 1000;
  SlTrace *trace;

  for (guint root = 0; root < n_roots; root++)
    {
      gint64 dur = g_rand_double (rand) * scale;

      add_nested (builder, rand, track, slices, at, dur, 0, max_depth);
      at += dur + g_rand_int_range (rand, 0, 3);
    }

  /* a chain deeper than a byte, with a sibling and a zero-length child
   * now and then */
  for (guint d = 0; d < chain; d++)
    {
      g_array_append_vals (slices, (gint64[]) { at + d, 4 * (gint64) chain - 2 * d }, 2);
      if (d % 97 == 0)
        g_array_append_vals (slices, (gint64[]) { at + 4 * (gint64) chain - d - 1, 0 }, 2);
    }
  at += 4 * (gint64) chain + 10;

  /* added in a shuffled order, so the track sorts them */
  for (guint k = slices->len / 2; k > 1; k--)
    {
      guint j = g_rand_int_range (rand, 0, k);
      gint64 *v = (gint64 *) (gpointer) slices->data;
      gint64 a = v[2 * (k - 1)], b = v[2 * (k - 1) + 1];

      v[2 * (k - 1)] = v[2 * j];
      v[2 * (k - 1) + 1] = v[2 * j + 1];
      v[2 * j] = a;
      v[2 * j + 1] = b;
    }
  for (guint k = 0; k < slices->len / 2; k++)
    sl_trace_builder_add_slice (builder, track, g_array_index (slices, gint64, 2 * k),
                                g_array_index (slices, gint64, 2 * k + 1), name (builder, rand), 0,
                                SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);

  /* left open: they last to the end of the trace */
  sl_trace_builder_begin_slice (builder, track, at, name (builder, rand), 0, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_begin_slice (builder, track, at, name (builder, rand), 0, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_begin_slice (builder, track, at + 5, name (builder, rand), 0, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_end_slice (builder, track, at + 6, SL_TRACE_NO_ARGS);
  sl_trace_builder_add_slice (builder, track, at + 20, 30, name (builder, rand), 0,
                              SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);

  trace = sl_trace_builder_finish (builder, NULL);
  g_assert_nonnull (trace);
  return trace;
}

static void
test_generated (void)
{
  for (guint32 seed = 1; seed <= 24; seed++)
    {
      g_autoptr(SlTrace) trace = generate (seed, 6, seed % 3 == 0 ? TWO_32 * 64 : 50000000, 3 + seed % 9, seed % 4 == 0 ? 300 : 20);
      const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

      check_against_stack (s);
    }
}

/* tens of thousands of slices and parents far before their children, so
 * the depth searches climb levels */
static void
test_wide (void)
{
  for (guint32 seed = 100; seed < 103; seed++)
    {
      g_autoptr(SlTrace) trace = generate (seed, 300, TWO_32 * 8, 6, 20000);
      const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

      g_assert_cmpuint (s->n_slices, >, SL_TRACE_SLICES_BLOCK * SL_TRACE_SLICES_BLOCK);
      check_against_stack (s);
      check_ranges (trace);
    }
}

/* Nesting past what a depth tells apart: those keep their parents and self
 * times in the escapes. */
static void
test_deeper_than_depths (void)
{
  g_autoptr(SlTrace) trace = generate (7, 6, 1000000, 4, DEEP + 40);
  const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

  check_against_stack (s);
  check_ranges (trace);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-nesting/generated", test_generated);
  g_test_add_func ("/trace-nesting/wide", test_wide);
  g_test_add_func ("/trace-nesting/deeper-than-depths", test_deeper_than_depths);

  return g_test_run ();
}
