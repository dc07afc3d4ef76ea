/* test-trace-model.c: the trace builder's sorting, nesting and binding, and
 * the aggregation of slices by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "sl-trace.h"
#include "sl-trace-aggregate.h"

static guint
find_track (SlTrace    *trace,
            const char *name)
{
  for (guint i = 0; i < sl_trace_get_n_tracks (trace); i++)
    {
      const char *track_name = sl_trace_get_track_name (trace, i);

      if (track_name == NULL)
        track_name = sl_trace_get_track_tid (trace, i);
      if (g_strcmp0 (track_name, name) == 0)
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

static guint
find_slice (SlTrace             *trace,
            const SlTraceSlices *slices,
            const char          *name)
{
  for (guint i = 0; i < slices->n_slices; i++)
    if (g_str_equal (sl_trace_get_string (trace, sl_trace_slices_name_id (slices, i)), name))
      return i;
  g_assert_not_reached ();
  return 0;
}

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

static void
test_nesting_and_self_time (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint track = sl_trace_builder_get_thread_track (builder, process, "1");
  guint a, b, c, d, e, f;

  /* Given out of order on purpose: sorting must put parents first. */
  add (builder, track, "c", 20, 10);
  add (builder, track, "a", 0, 100);
  add (builder, track, "b", 10, 50);
  add (builder, track, "d", 60, 30);
  add (builder, track, "e", 10, 50);   /* same start and length as b: nests inside */
  add (builder, track, "f", 200, 5);

  trace = sl_trace_builder_finish (builder, NULL);
  g_assert_nonnull (trace);
  s = sl_trace_get_slices (trace, track);
  g_assert_cmpuint (s->n_slices, ==, 6);
  for (guint i = 1; i < s->n_slices; i++)
    g_assert_cmpint (sl_trace_slices_start_ns (s, i - 1), <=, sl_trace_slices_start_ns (s, i));

  a = find_slice (trace, s, "a");
  b = find_slice (trace, s, "b");
  c = find_slice (trace, s, "c");
  d = find_slice (trace, s, "d");
  e = find_slice (trace, s, "e");
  f = find_slice (trace, s, "f");
  g_assert_cmpuint (sl_trace_slices_depth (s, a), ==, 0);
  g_assert_cmpuint (sl_trace_slices_depth (s, b), ==, 1);
  g_assert_cmpuint (sl_trace_slices_depth (s, e), ==, 2);
  g_assert_cmpuint (sl_trace_slices_depth (s, c), ==, 3);
  g_assert_cmpuint (sl_trace_slices_depth (s, d), ==, 1);
  g_assert_cmpuint (sl_trace_slices_depth (s, f), ==, 0);
  g_assert_cmpuint (sl_trace_slices_parent (s, a), ==, SL_TRACE_NO_PARENT);
  g_assert_cmpuint (sl_trace_slices_parent (s, b), ==, a);
  g_assert_cmpuint (sl_trace_slices_parent (s, e), ==, b);
  g_assert_cmpuint (sl_trace_slices_parent (s, c), ==, e);
  g_assert_cmpuint (sl_trace_slices_parent (s, d), ==, a);
  /* self = duration minus direct children only */
  g_assert_cmpint (sl_trace_slices_self_ns (s, a), ==, 100 - 50 - 30);
  g_assert_cmpint (sl_trace_slices_self_ns (s, b), ==, 0);
  g_assert_cmpint (sl_trace_slices_self_ns (s, e), ==, 40);
  g_assert_cmpint (sl_trace_slices_self_ns (s, c), ==, 10);
  g_assert_cmpuint (sl_trace_get_track_n_depths (trace, track), ==, 4);
  g_assert_cmpint (sl_trace_get_start_ns (trace), ==, 0);
  g_assert_cmpint (sl_trace_get_end_ns (trace), ==, 205);
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (trace)), ==, 0);
}

static void
test_overflow_lane (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint track = sl_trace_builder_get_thread_track (builder, process, "1");
  guint a, b, c, x;

  add (builder, track, "a", 0, 100);
  add (builder, track, "b", 10, 20);
  add (builder, track, "c", 50, 100);   /* starts in a, ends after it */
  add (builder, track, "x", 60, 100);   /* overlaps c too: second overflow lane */
  trace = sl_trace_builder_finish (builder, NULL);
  s = sl_trace_get_slices (trace, track);

  a = find_slice (trace, s, "a");
  b = find_slice (trace, s, "b");
  c = find_slice (trace, s, "c");
  x = find_slice (trace, s, "x");
  g_assert_false (sl_trace_slices_flags (s, a) & SL_TRACE_SLICE_OVERFLOW);
  g_assert_false (sl_trace_slices_flags (s, b) & SL_TRACE_SLICE_OVERFLOW);
  g_assert_true (sl_trace_slices_flags (s, c) & SL_TRACE_SLICE_OVERFLOW);
  g_assert_true (sl_trace_slices_flags (s, x) & SL_TRACE_SLICE_OVERFLOW);
  /* nesting uses depths 0 and 1; overflow lanes come after them */
  g_assert_cmpuint (sl_trace_slices_depth (s, b), ==, 1);
  g_assert_cmpuint (sl_trace_slices_depth (s, c), ==, 2);
  g_assert_cmpuint (sl_trace_slices_depth (s, x), ==, 3);
  g_assert_cmpuint (sl_trace_slices_parent (s, c), ==, SL_TRACE_NO_PARENT);
  g_assert_cmpint (sl_trace_slices_self_ns (s, a), ==, 80);
  g_assert_cmpint (sl_trace_slices_self_ns (s, c), ==, 100);
  g_assert_cmpuint (sl_trace_get_track_n_depths (trace, track), ==, 4);
}

static void
test_unbalanced_begin_end (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("trace.json");
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;
  GListModel *problems;
  guint process = sl_trace_builder_get_process (builder, "7");
  guint track = sl_trace_builder_get_thread_track (builder, process, "8");
  guint32 outer = sl_trace_builder_intern (builder, "outer", -1);
  guint32 inner = sl_trace_builder_intern (builder, "inner", -1);
  guint source = sl_trace_builder_add_source (builder, "trace.json");
  gboolean saw_end_offset = FALSE, saw_begin_offset = FALSE;
  guint o, i;

  sl_trace_builder_end_slice (builder, track, 5, SL_TRACE_ARGS_OFFSET (source, 11)); /* E without B */
  sl_trace_builder_begin_slice (builder, track, 10, outer, 0, SL_TRACE_ARGS_OFFSET (source, 40), 20);
  sl_trace_builder_begin_slice (builder, track, 20, inner, 0, SL_TRACE_ARGS_OFFSET (source, 80), 20);
  sl_trace_builder_end_slice (builder, track, 30, SL_TRACE_ARGS_OFFSET (source, 120));
  add (builder, track, "late", 90, 10);
  trace = sl_trace_builder_finish (builder, NULL);
  s = sl_trace_get_slices (trace, track);

  g_assert_cmpuint (s->n_slices, ==, 3);
  o = find_slice (trace, s, "outer");
  i = find_slice (trace, s, "inner");
  g_assert_true (sl_trace_slices_flags (s, o) & SL_TRACE_SLICE_UNFINISHED);
  g_assert_false (sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_UNFINISHED);
  g_assert_cmpint (sl_trace_slices_start_ns (s, o) + sl_trace_slices_dur_ns (s, o), ==, 100);  /* extends to the trace end */
  g_assert_cmpint (sl_trace_slices_dur_ns (s, i), ==, 10);
  g_assert_cmpuint (sl_trace_slices_parent (s, i), ==, o);
  g_assert_cmpuint (SL_TRACE_ARGS_BYTE (sl_trace_slices_args_offset (s, o)), ==, 40);

  problems = sl_trace_get_problems (trace);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 2);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, k);

      g_assert_cmpstr (sl_problem_get_path (problem), ==, "trace.json");
      saw_end_offset |= sl_problem_get_offset (problem) == 11;
      saw_begin_offset |= sl_problem_get_offset (problem) == 40;
    }
  g_assert_true (saw_end_offset);
  g_assert_true (saw_begin_offset);
}

static void
test_async (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint32 name = sl_trace_builder_intern (builder, "load", -1);
  guint32 cat = sl_trace_builder_intern (builder, "io", -1);
  guint track = sl_trace_builder_get_async_track (builder, process, cat, name);
  guint64 big = G_GUINT64_CONSTANT (18446744073709551557);

  sl_trace_builder_begin_async (builder, track, big, 0, name, cat, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_begin_async (builder, track, 2, 5, name, cat, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_end_async (builder, track, 2, 50, SL_TRACE_NO_ARGS);
  sl_trace_builder_end_async (builder, track, big, 20, SL_TRACE_NO_ARGS);
  trace = sl_trace_builder_finish (builder, NULL);

  g_assert_cmpuint (sl_trace_get_track_kind (trace, track), ==, SL_TRACE_TRACK_ASYNC);
  g_assert_cmpstr (sl_trace_get_track_name (trace, track), ==, "load");
  s = sl_trace_get_slices (trace, track);
  g_assert_cmpuint (s->n_slices, ==, 2);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, 20);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 1), ==, 45);
  /* they overlap without nesting */
  g_assert_true (sl_trace_slices_flags (s, 1) & SL_TRACE_SLICE_OVERFLOW);
}

static void
test_flows (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint t1 = sl_trace_builder_get_thread_track (builder, process, "1");
  guint t2 = sl_trace_builder_get_thread_track (builder, process, "2");
  guint32 name = sl_trace_builder_intern (builder, "launch", -1);
  guint64 id = G_GUINT64_CONSTANT (9007199254740993); /* 2^53 + 1 */
  const SlTraceSlices *s1, *s2;
  const SlTraceFlow *flow;

  add (builder, t1, "outer", 0, 100);
  add (builder, t1, "inner", 10, 20);
  add (builder, t2, "kernel-a", 200, 10);
  add (builder, t2, "kernel-b", 300, 10);
  add (builder, t2, "host", 100, 50);
  sl_trace_builder_add_flow_point (builder, 's', id, name, 0, t1, 15, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', id, name, 0, t2, 250, FALSE);  /* next slice: kernel-b */
  sl_trace_builder_add_flow_point (builder, 's', 5, name, 0, t1, 50, TRUE);
  sl_trace_builder_add_flow_point (builder, 'f', 5, name, 0, t2, 120, TRUE);    /* enclosing: host */
  sl_trace_builder_add_flow_point (builder, 'f', 77, name, 0, t2, 120, TRUE);   /* no start */
  trace = sl_trace_builder_finish (builder, NULL);

  s1 = sl_trace_get_slices (trace, t1);
  s2 = sl_trace_get_slices (trace, t2);
  g_assert_cmpuint (sl_trace_get_n_flows (trace), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      flow = sl_trace_get_flow (trace, i);
      g_assert_cmpuint (flow->from_track, ==, t1);
      g_assert_cmpuint (flow->to_track, ==, t2);
      if (flow->id == id)
        {
          g_assert_cmpuint (flow->from_slice, ==, find_slice (trace, s1, "inner"));
          g_assert_cmpuint (flow->to_slice, ==, find_slice (trace, s2, "kernel-b"));
          g_assert_cmpint (flow->from_ns, ==, 15);
          g_assert_cmpint (flow->to_ns, ==, 250);
        }
      else
        {
          g_assert_cmpuint (flow->id, ==, 5);
          g_assert_cmpuint (flow->from_slice, ==, find_slice (trace, s1, "outer"));
          g_assert_cmpuint (flow->to_slice, ==, find_slice (trace, s2, "host"));
        }
    }
  /* the dangling end is reported, not drawn */
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (trace)), ==, 1);
  g_assert_cmpuint (sl_trace_find_enclosing_slice (trace, t1, 25), ==, find_slice (trace, s1, "inner"));
  g_assert_cmpuint (sl_trace_find_enclosing_slice (trace, t1, 500), ==, SL_TRACE_NO_PARENT);
}

static void
test_counters (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint32 mem = sl_trace_builder_intern (builder, "memory", -1);
  guint32 used = sl_trace_builder_intern (builder, "used", -1);
  guint32 value = sl_trace_builder_intern (builder, "value", -1);
  guint a = sl_trace_builder_get_counter_track (builder, process, mem, used);
  guint b = sl_trace_builder_get_counter_track (builder, process, mem, value);
  const SlTraceCounter *c;

  g_assert_cmpuint (sl_trace_builder_get_counter_track (builder, process, mem, used), ==, a);
  sl_trace_builder_add_counter (builder, a, 30, 5.0);
  sl_trace_builder_add_counter (builder, a, 10, -2.5);
  sl_trace_builder_add_counter (builder, a, 20, 9.0);
  sl_trace_builder_add_counter (builder, b, 20, 1.0);
  trace = sl_trace_builder_finish (builder, NULL);

  /* finish() reorders tracks for display: find them by name */
  a = find_track (trace, "memory used");
  b = find_track (trace, "memory");
  g_assert_cmpuint (b, <, a);
  g_assert_cmpuint (sl_trace_get_counter (trace, b)->n_points, ==, 1);
  c = sl_trace_get_counter (trace, a);
  g_assert_cmpuint (c->n_points, ==, 3);
  g_assert_cmpint (c->ts_ns[0], ==, 10);
  g_assert_cmpint (c->ts_ns[2], ==, 30);
  g_assert_cmpfloat (c->value[1], ==, 9.0);
  g_assert_cmpfloat (c->min_value, ==, -2.5);
  g_assert_cmpfloat (c->max_value, ==, 9.0);
}

/* Texts of every length around the room a process or track keeps for
 * them in itself, renamed from long to short and back, and the depths of
 * tracks small enough to keep theirs in themselves and of larger ones. */
static void
test_texts_and_depths_in_place (void)
{
  static const gsize lengths[] = { 0, 1, 15, 16, 17, 23, 24, 25, 31, 32, 33, 200 };
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  guint32 series = sl_trace_builder_intern (builder, "a series with a name longer than any room", -1);

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      /* each text unique, of exactly its length */
      char *text = g_strnfill (lengths[i], 'a' + i);
      char *pid = g_strdup_printf ("p%u%s", i, text);
      char *tid = g_strdup_printf ("t%u%s", i, text);
      guint process = sl_trace_builder_get_process (builder, pid);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);
      guint32 counter = sl_trace_builder_intern (builder, pid, -1);

      g_assert_cmpuint (sl_trace_builder_get_process (builder, pid), ==, process);
      g_assert_cmpuint (sl_trace_builder_get_thread_track (builder, process, tid), ==, track);
      sl_trace_builder_set_process_name (builder, process, "a process name that is longer than its room");
      sl_trace_builder_set_process_name (builder, process, text);
      sl_trace_builder_set_track_name (builder, track, "x");
      sl_trace_builder_set_track_name (builder, track, "a thread name that is longer than its room");
      sl_trace_builder_set_track_name (builder, track, text);
      sl_trace_builder_add_counter (builder, sl_trace_builder_get_counter_track (builder, process, counter, series),
                                    1, 1.0);
      /* i slices one inside the next: 16 fit in a track, 200 do not */
      for (guint k = 0; k < lengths[i]; k++)
        add (builder, track, "s", k, 2 * (lengths[i] - k));
      g_ptr_array_add (texts, pid);
      g_ptr_array_add (texts, tid);
      g_ptr_array_add (texts, text);
    }
  trace = sl_trace_builder_finish (builder, NULL);

  g_assert_cmpuint (sl_trace_get_n_processes (trace), ==, G_N_ELEMENTS (lengths));
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      const char *pid = g_ptr_array_index (texts, 3 * i);
      const char *tid = g_ptr_array_index (texts, 3 * i + 1);
      const char *text = g_ptr_array_index (texts, 3 * i + 2);
      g_autofree char *counter_name = g_strdup_printf ("%s a series with a name longer than any room", pid);
      gboolean found_process = FALSE, found_thread = FALSE, found_counter = FALSE;

      for (guint p = 0; p < sl_trace_get_n_processes (trace); p++)
        if (g_str_equal (sl_trace_get_process_pid (trace, p), pid))
          {
            g_assert_cmpstr (sl_trace_get_process_name (trace, p), ==, text);
            found_process = TRUE;
          }
      for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
        if (g_strcmp0 (sl_trace_get_track_tid (trace, t), tid) == 0)
          {
            const SlTraceSlices *s = sl_trace_get_slices (trace, t);

            /* an empty name shows the tid */
            g_assert_cmpstr (sl_trace_get_track_name (trace, t), ==, lengths[i] > 0 ? text : tid);
            g_assert_cmpuint (s->n_slices, ==, lengths[i]);
            g_assert_cmpuint (sl_trace_get_track_n_depths (trace, t), ==, lengths[i]);
            for (guint k = 0; k < s->n_slices; k++)
              g_assert_cmpuint (sl_trace_slices_depth (s, k), ==, k);
            if (s->n_slices > 0)
              {
                g_assert_cmpuint (sl_trace_slices_find_depth_from (s, 0, 0), ==, 0);
                g_assert_cmpuint (sl_trace_slices_find_depth_before (s, s->n_slices, 0), ==, 0);
              }
            found_thread = TRUE;
          }
        else if (g_strcmp0 (sl_trace_get_track_name (trace, t), counter_name) == 0)
          found_counter = TRUE;
      g_assert_true (found_process);
      g_assert_true (found_thread);
      g_assert_true (found_counter);
    }
}

static void
test_track_order (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  guint p10 = sl_trace_builder_get_process (builder, "10");
  guint p9 = sl_trace_builder_get_process (builder, "9");
  guint pfirst = sl_trace_builder_get_process (builder, "200");
  guint32 name = sl_trace_builder_intern (builder, "n", -1);
  guint c;

  c = sl_trace_builder_get_counter_track (builder, p9, name, 0);
  sl_trace_builder_get_thread_track (builder, p10, "3");
  sl_trace_builder_get_thread_track (builder, p9, "12");
  sl_trace_builder_get_thread_track (builder, p9, "2");
  sl_trace_builder_set_track_sort_index (builder, sl_trace_builder_get_thread_track (builder, p9, "99"), -1);
  sl_trace_builder_get_async_track (builder, p9, 0, name);
  sl_trace_builder_set_track_name (builder, sl_trace_builder_get_thread_track (builder, pfirst, "1"), "main");
  sl_trace_builder_set_process_sort_index (builder, pfirst, -5);
  sl_trace_builder_set_process_name (builder, pfirst, "first");
  sl_trace_builder_add_counter (builder, c, 0, 1);
  trace = sl_trace_builder_finish (builder, NULL);

  /* process "200" (sort index -5), then 9 before 10 numerically; inside
   * 9: sort index -1 first, then threads by tid, async, counter */
  g_assert_cmpuint (sl_trace_get_n_tracks (trace), ==, 7);
  g_assert_cmpstr (sl_trace_get_track_name (trace, 0), ==, "main");
  g_assert_cmpstr (sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, 0)), ==, "first");
  g_assert_cmpstr (sl_trace_get_track_tid (trace, 1), ==, "99");
  g_assert_cmpstr (sl_trace_get_track_tid (trace, 2), ==, "2");
  g_assert_cmpstr (sl_trace_get_track_tid (trace, 3), ==, "12");
  g_assert_cmpuint (sl_trace_get_track_kind (trace, 4), ==, SL_TRACE_TRACK_ASYNC);
  g_assert_cmpuint (sl_trace_get_track_kind (trace, 5), ==, SL_TRACE_TRACK_COUNTER);
  g_assert_cmpuint (sl_trace_get_counter (trace, 5)->n_points, ==, 1);
  g_assert_cmpstr (sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, 6)), ==, "10");
}

static void
test_cancel_and_strings (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint32 a = sl_trace_builder_intern (builder, "abc", 3);
  guint32 b = sl_trace_builder_intern (builder, "abcdef", 3);
  guint32 ids[5000];

  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (sl_trace_builder_intern (builder, "", 0), ==, 0);
  /* many strings force the table to grow and keep ids stable */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *s = g_strdup_printf ("name-%u", i);
      ids[i] = sl_trace_builder_intern (builder, s, -1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *s = g_strdup_printf ("name-%u", i);
      g_assert_cmpuint (sl_trace_builder_intern (builder, s, -1), ==, ids[i]);
    }

  g_cancellable_cancel (cancellable);
  g_assert_null (sl_trace_builder_finish (builder, cancellable));
}

static const SlTraceAggregateRow *
find_row (SlTrace    *trace,
          GArray     *rows,
          const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const SlTraceAggregateRow *row = &g_array_index (rows, SlTraceAggregateRow, i);

      if (g_str_equal (sl_trace_get_string (trace, row->name_id), name))
        return row;
    }
  g_error ("no row for %s", name);
}

static void
test_aggregate (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) range = NULL;
  g_autoptr(GArray) one = NULL;
  guint process = sl_trace_builder_get_process (builder, "1");
  guint t1 = sl_trace_builder_get_thread_track (builder, process, "1");
  guint t2 = sl_trace_builder_get_thread_track (builder, process, "2");
  const SlTraceAggregateRow *row;

  add (builder, t1, "step", 0, 100);
  add (builder, t1, "op", 10, 20);
  add (builder, t1, "op", 50, 40);
  add (builder, t1, "step", 200, 50);
  add (builder, t2, "op", 0, 5);
  sl_trace_builder_add_slice (builder, t2, 300, 0, sl_trace_builder_intern (builder, "mark", -1), 0,
                              SL_TRACE_SLICE_INSTANT, SL_TRACE_NO_ARGS, 0);
  trace = sl_trace_builder_finish (builder, NULL);

  all = sl_trace_aggregate (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);
  g_assert_cmpuint (all->len, ==, 3);
  /* longest total first */
  g_assert_cmpstr (sl_trace_get_string (trace, g_array_index (all, SlTraceAggregateRow, 0).name_id), ==, "step");
  row = find_row (trace, all, "step");
  g_assert_cmpuint (row->count, ==, 2);
  g_assert_cmpint (row->total_ns, ==, 150);
  g_assert_cmpint (row->self_ns, ==, 40 + 50);
  g_assert_cmpint (row->min_ns, ==, 50);
  g_assert_cmpint (row->max_ns, ==, 100);
  g_assert_cmpfloat (sl_trace_aggregate_row_average (row), ==, 75.0);
  row = find_row (trace, all, "op");
  g_assert_cmpuint (row->count, ==, 3);
  g_assert_cmpint (row->total_ns, ==, 65);
  g_assert_cmpuint (find_row (trace, all, "mark")->count, ==, 1);

  /* slices overlapping [40, 60] count whole */
  range = sl_trace_aggregate (trace, 40, 60, NULL, 0, NULL);
  g_assert_cmpuint (range->len, ==, 2);
  g_assert_cmpuint (find_row (trace, range, "op")->count, ==, 1);
  g_assert_cmpint (find_row (trace, range, "op")->total_ns, ==, 40);
  g_assert_cmpuint (find_row (trace, range, "step")->count, ==, 1);

  one = sl_trace_aggregate (trace, G_MININT64, G_MAXINT64, &t2, 1, NULL);
  g_assert_cmpuint (one->len, ==, 2);
  g_assert_cmpuint (find_row (trace, one, "op")->count, ==, 1);

  sl_trace_aggregate_sort (trace, all, SL_TRACE_AGGREGATE_BY_COUNT, TRUE);
  g_assert_cmpstr (sl_trace_get_string (trace, g_array_index (all, SlTraceAggregateRow, 0).name_id), ==, "op");
  sl_trace_aggregate_sort (trace, all, SL_TRACE_AGGREGATE_BY_NAME, FALSE);
  g_assert_cmpstr (sl_trace_get_string (trace, g_array_index (all, SlTraceAggregateRow, 0).name_id), ==, "mark");
  sl_trace_aggregate_sort (trace, all, SL_TRACE_AGGREGATE_BY_MAX, FALSE);
  g_assert_cmpstr (sl_trace_get_string (trace, g_array_index (all, SlTraceAggregateRow, 0).name_id), ==, "mark");
  sl_trace_aggregate_sort (trace, all, SL_TRACE_AGGREGATE_BY_SELF, TRUE);
  g_assert_cmpstr (sl_trace_get_string (trace, g_array_index (all, SlTraceAggregateRow, 0).name_id), ==, "step");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace/model/nesting", test_nesting_and_self_time);
  g_test_add_func ("/trace/model/overflow", test_overflow_lane);
  g_test_add_func ("/trace/model/unbalanced", test_unbalanced_begin_end);
  g_test_add_func ("/trace/model/async", test_async);
  g_test_add_func ("/trace/model/flows", test_flows);
  g_test_add_func ("/trace/model/counters", test_counters);
  g_test_add_func ("/trace/model/track-order", test_track_order);
  g_test_add_func ("/trace/model/texts-and-depths-in-place", test_texts_and_depths_in_place);
  g_test_add_func ("/trace/model/cancel", test_cancel_and_strings);
  g_test_add_func ("/trace/model/aggregate", test_aggregate);

  return g_test_run ();
}
