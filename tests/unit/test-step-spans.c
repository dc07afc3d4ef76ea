/* test-step-spans.c: steps of a step table placed on a timeline: by the
 * table's own times, moved from another clock, by the timeline's step
 * slices, and the first device activity
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-step-spans.h"

/* A host thread with a slice at 100 ns, an "Ascend Hardware" stream with
 * kernels from 1000 ns, and the given step slices on the host. */
static SlTrace *
make_trace (const char * const *step_names,
            const gint64       *step_starts,
            guint               n_step_slices)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  guint host = sl_trace_builder_get_process (builder, "1");
  guint device = sl_trace_builder_get_process (builder, "2");
  guint host_track = sl_trace_builder_get_thread_track (builder, host, "1");
  guint device_track = sl_trace_builder_get_thread_track (builder, device, "7");

  sl_trace_builder_set_process_name (builder, device, "Ascend Hardware");
  sl_trace_builder_add_slice (builder, host_track, 100, 50, sl_trace_builder_intern (builder, "launch", -1), 0,
                              SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  for (int k = 0; k < 3; k++)
    sl_trace_builder_add_slice (builder, device_track, 1000 + k * 1000, 400,
                                sl_trace_builder_intern (builder, "MatMul", -1), 0,
                                SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  for (guint i = 0; i < n_step_slices; i++)
    sl_trace_builder_add_slice (builder, host_track, step_starts[i], 900,
                                sl_trace_builder_intern (builder, step_names[i], -1), 0,
                                SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  return sl_trace_builder_finish (builder, NULL);
}

static SlStepTrace *
make_table (const gint64 *numbers,
            const gint64 *starts,
            guint         n_steps)
{
  SlStepTrace *table = sl_step_trace_new ("steps.csv", SL_STEP_SOURCE_MINDSPORE);

  for (guint i = 0; i < n_steps; i++)
    {
      SlStep step = {
        .step = numbers[i],
        .start_ns = starts != NULL ? starts[i] : SL_STEP_NO_TIME,
        .end_ns = starts != NULL ? starts[i] + 800 : SL_STEP_NO_TIME,
        .fp_ns = SL_STEP_NO_TIME, .bp_ns = SL_STEP_NO_TIME,
        .total_ns = 800,
        .data_wait_ns = SL_STEP_NO_TIME, .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME,
      };

      sl_step_trace_add_step (table, &step);
    }
  return table;
}

static void
assert_span (SlStepSpans *spans,
             guint        index,
             gint64       step,
             gint64       start,
             gint64       end)
{
  const SlStepSpan *span = sl_step_spans_get_step (spans, index);

  g_assert_cmpint (span->step, ==, step);
  g_assert_cmpint (span->start_ns, ==, start);
  g_assert_cmpint (span->end_ns, ==, end);
}

static void
test_table_times (void)
{
  static const gint64 numbers[] = { 1, 2, 3 };
  static const gint64 starts[] = { 1000, 2000, 3000 };
  g_autoptr(SlTrace) trace = make_trace (NULL, NULL, 0);
  g_autoptr(SlStepTrace) table = make_table (numbers, starts, 3);
  g_autoptr(SlStepSpans) spans = sl_step_spans_new (trace, table);

  g_assert_cmpint (sl_step_spans_get_source (spans), ==, SL_STEP_SPANS_FROM_TABLE);
  g_assert_cmpuint (sl_step_spans_get_n_steps (spans), ==, 3);
  assert_span (spans, 0, 1, 1000, 1800);
  assert_span (spans, 1, 2, 2000, 2800);
  assert_span (spans, 2, 3, 3000, 3800);
  /* The host slice at 100 ns is earlier, but not on the device. */
  g_assert_cmpint (sl_step_spans_get_first_device_ns (spans), ==, 1000);
}

/* MindSpore's step table counts device ticks from boot, its timeline
 * starts near 0: the first step goes to the first kernel. */
static void
test_table_on_another_clock (void)
{
  static const gint64 numbers[] = { 1, 2 };
  static const gint64 starts[] = { 500000000, 500001000 };
  g_autoptr(SlTrace) trace = make_trace (NULL, NULL, 0);
  g_autoptr(SlStepTrace) table = make_table (numbers, starts, 2);
  g_autoptr(SlStepSpans) spans = sl_step_spans_new (trace, table);

  g_assert_cmpint (sl_step_spans_get_source (spans), ==, SL_STEP_SPANS_FROM_SHIFTED_TABLE);
  assert_span (spans, 0, 1, 1000, 1800);
  assert_span (spans, 1, 2, 2000, 2800);
}

/* torch_npu's step table has durations only; its timeline has the
 * ProfilerStep#N slices. Matched by number, not position; a step with no
 * slice is left unplaced. */
static void
test_timeline_slices (void)
{
  static const char * const names[] = { "ProfilerStep#8", "ProfilerStep#7", "ProfilerStep#x", "Iteration 10" };
  static const gint64 slice_starts[] = { 2100, 1100, 50, 4000 };
  static const gint64 numbers[] = { 7, 8, 9, 10 };
  g_autoptr(SlTrace) trace = make_trace (names, slice_starts, 4);
  g_autoptr(SlStepTrace) table = make_table (numbers, NULL, 4);
  g_autoptr(SlStepSpans) spans = sl_step_spans_new (trace, table);

  g_assert_cmpint (sl_step_spans_get_source (spans), ==, SL_STEP_SPANS_FROM_TIMELINE);
  g_assert_cmpuint (sl_step_spans_get_n_steps (spans), ==, 4);
  assert_span (spans, 0, 7, 1100, 2000);
  assert_span (spans, 1, 8, 2100, 3000);
  assert_span (spans, 2, 9, -1, -1);
  assert_span (spans, 3, 10, 4000, 4900);
}

/* Without a table there are no steps, only the anchor; a trace with no
 * device process anchors at its first slice. */
static void
test_no_table (void)
{
  g_autoptr(SlTrace) trace = make_trace (NULL, NULL, 0);
  g_autoptr(SlStepSpans) spans = sl_step_spans_new (trace, NULL);
  SlTraceBuilder *builder = sl_trace_builder_new ("host only");
  guint process = sl_trace_builder_get_process (builder, "1");
  guint track = sl_trace_builder_get_thread_track (builder, process, "1");
  g_autoptr(SlTrace) host_only = NULL;
  g_autoptr(SlStepSpans) host_spans = NULL;

  g_assert_cmpint (sl_step_spans_get_source (spans), ==, SL_STEP_SPANS_NONE);
  g_assert_cmpuint (sl_step_spans_get_n_steps (spans), ==, 0);
  g_assert_cmpint (sl_step_spans_get_first_device_ns (spans), ==, 1000);

  sl_trace_builder_add_slice (builder, track, 300, 10, sl_trace_builder_intern (builder, "a", -1), 0,
                              SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  sl_trace_builder_add_slice (builder, track, 200, 10, sl_trace_builder_intern (builder, "b", -1), 0,
                              SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  host_only = sl_trace_builder_finish (builder, NULL);
  host_spans = sl_step_spans_new (host_only, NULL);
  g_assert_cmpint (sl_step_spans_get_first_device_ns (host_spans), ==, 200);
}

/* A table without times and a timeline without step slices: nothing is
 * placed, every step says so. */
static void
test_nothing_to_place (void)
{
  static const gint64 numbers[] = { 1, 2 };
  g_autoptr(SlTrace) trace = make_trace (NULL, NULL, 0);
  g_autoptr(SlStepTrace) table = make_table (numbers, NULL, 2);
  g_autoptr(SlStepSpans) spans = sl_step_spans_new (trace, table);

  g_assert_cmpint (sl_step_spans_get_source (spans), ==, SL_STEP_SPANS_NONE);
  assert_span (spans, 0, 1, -1, -1);
  assert_span (spans, 1, 2, -1, -1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/step-spans/table-times", test_table_times);
  g_test_add_func ("/step-spans/table-on-another-clock", test_table_on_another_clock);
  g_test_add_func ("/step-spans/timeline-slices", test_timeline_slices);
  g_test_add_func ("/step-spans/no-table", test_no_table);
  g_test_add_func ("/step-spans/nothing-to-place", test_nothing_to_place);
  return g_test_run ();
}
