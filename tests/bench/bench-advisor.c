/* bench-advisor.c: the advisor over a profile of a million kernels
 *
 * Builds one rank through the model's builder API: 1,000,000 executions
 * of 200,000 ops (a few AI CPU, uneven block dims, pipe ratios and core
 * busy times on every one, Cast and TransData among them), 1,000 steps
 * and host API statistics, then runs the default rule book on it. The
 * goal is under 2 s for the advisor; building the profile is not timed.
 * That profile has no timeline, so the trace rules only say so.
 *
 * The second case gives a rank a timeline of N_TRACE_EVENTS events (as
 * the SQLite export does): kernels on four streams repeating a layer of
 * 24, launches each followed by a synchronisation, framework ops with
 * data loader calls and GC pauses, and prints the trace rules' time.
 *
 * Usage: bench-advisor [N_EXECUTIONS [N_TRACE_EVENTS]]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sl-advisor.h"
#include "sl-trace.h"

#define GOAL_S 2.0
#define EXECUTIONS_PER_OP 5

static const char *types[] = { "MatMul", "Add", "Cast", "TransData", "Mul", "ReduceSum", "Conv2D", "NonZero" };

static SlProfile *
build (guint n_executions)
{
  SlProfile *profile = sl_profile_new ("/bench");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/bench", SL_PROFILE_LAYOUT_ASCEND_PT);
  guint n_ops = MAX (n_executions / EXECUTIONS_PER_OP, 1);

  sl_profile_rank_set_info (rank, "DeviceInfo.0.ai_core_num", "24");
  sl_profile_rank_set_info (rank, "DeviceInfo.0.aiv_num", "48");
  rank->steps = sl_step_trace_new ("/bench/step_trace_time.csv", SL_STEP_SOURCE_ASCEND_PT);
  /* torch_npu's phases: computing, exposed communication, free. */
  sl_step_trace_add_phase (rank->steps, "computing", "Computing");
  sl_step_trace_add_phase (rank->steps, "communication_not_overlapped", "Communication(Not Overlapped)");
  sl_step_trace_add_phase (rank->steps, "free", "Free");
  for (guint i = 0; i < 1000; i++)
    {
      SlStep step = { .step = i, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME, .fp_ns = SL_STEP_NO_TIME,
                      .bp_ns = SL_STEP_NO_TIME, .total_ns = 100000000, .data_wait_ns = SL_STEP_NO_TIME,
                      .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME };
      guint index = sl_step_trace_add_step (rank->steps, &step);

      sl_step_trace_set_line (rank->steps, index, i + 2);
      sl_step_trace_set_phase (rank->steps, index, 0, 80000000);
      sl_step_trace_set_phase (rank->steps, index, 1, 8000000);
      sl_step_trace_set_phase (rank->steps, index, 2, 12000000);
    }

  for (guint e = 0; e < n_executions; e++)
    {
      guint op = e % n_ops;
      const char *type = types[op % G_N_ELEMENTS (types)];
      gboolean aicpu = g_str_equal (type, "NonZero");
      char name[64];
      gint64 duration = 5000 + (gint64)(op % 97) * 1000;
      double ratios[SL_OP_N_PIPES] = { (op % 10) / 10.0, (op % 7) / 7.0, 0.1, 0.2, (op % 11) / 11.0, 0.1 };
      SlOpRow *row;

      g_snprintf (name, sizeof name, "%s_%u", type, op);
      row = sl_op_table_add_execution (rank->ops, name, type, aicpu ? "AI_CPU" : "AI_CORE", duration, -1, -1);
      sl_op_row_add_pipe_ratios (row, ratios, duration);
      sl_op_row_add_core_busy (row, duration * (op % 5 + 1) / 6);
      if (e < n_ops)
        {
          sl_op_row_set_source (row, "/bench/ASCEND_PROFILER_OUTPUT/kernel_details.csv", e + 2);
          sl_op_row_set_block_dim (row, 8 + op % 40);
          sl_op_row_set_text (row, SL_OP_ROW_INPUT_DTYPES, aicpu && op % 3 == 0 ? "DOUBLE" : "FLOAT16");
          sl_op_row_set_text (row, SL_OP_ROW_OP_STATE, "dynamic");
        }
    }

  sl_op_row_set_totals (sl_op_table_add_type (rank->apis, "aclopCompileAndExecute", "acl"), 400, 90000000, -1, -1);
  sl_op_row_set_totals (sl_op_table_add_type (rank->apis, "aclrtMalloc", "acl"), 3000, 40000000, -1, -1);
  sl_profile_rank_finish (rank);
  return profile;
}

static const char *layer[] = { "aclnnPow_PowAiCore_Pow", "aclnnMean_ReduceMeanAiCore_ReduceMean", "aclnnAdd_AddAiCore_Add",
                               "aclnnRsqrt_RsqrtAiCore_Rsqrt", "aclnnMul_MulAiCore_Mul", "aclnnMul_MulAiCore_Mul",
                               "aclnnMm_MatMulCommon_MatMulV2", "aclnnNeg_NegAiCore_Neg", "aclnnCat_ConcatD_ConcatD",
                               "aclnnMul_MulAiCore_Mul", "aclnnAdd_AddAiCore_Add", "aclnnBatchMatMul_BatchMatMulV2",
                               "aclnnSoftmax_SoftmaxV2AiCore_SoftmaxV2", "aclnnBatchMatMul_BatchMatMulV2",
                               "aclnnMm_MatMulCommon_MatMulV2", "aclnnAdd_AddAiCore_Add", "aclnnSilu_SwishAiCore_Swish",
                               "aclnnMul_MulAiCore_Mul", "aclnnMm_MatMulCommon_MatMulV2", "aclnnAdd_AddAiCore_Add",
                               "aclnnCast_CastAiCore_Cast", "EVENT_RECORD", "aclnnInplaceCopy_TensorMoveAiCore_TensorMove",
                               "Notify Wait" };

static void
add_slice (SlTraceBuilder *builder,
           guint           track,
           gint64          start_ns,
           gint64          dur_ns,
           const char     *name,
           const char     *category,
           guint64         offset)
{
  sl_trace_builder_add_slice (builder, track, start_ns, dur_ns, sl_trace_builder_intern (builder, name, -1),
                              sl_trace_builder_intern (builder, category, -1), SL_TRACE_SLICE_NONE, offset, 100);
}

/* A quarter of the events each: kernels, launches and synchronisations,
 * framework ops (a data loader call and a GC pause now and then), and
 * other CANN calls (a memory allocation now and then). */
static SlProfile *
build_traced (guint n_events)
{
  SlProfile *profile = sl_profile_new ("/bench-trace");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/bench-trace", SL_PROFILE_LAYOUT_DATABASE);
  SlTraceBuilder *builder = sl_trace_builder_new ("/bench-trace/ascend_pytorch_profiler_0.db");
  guint device = sl_trace_builder_get_process (builder, "device");
  guint cann = sl_trace_builder_get_process (builder, "cann");
  guint python = sl_trace_builder_get_process (builder, "python");
  guint streams[4], host, api;
  guint quarter = MAX (n_events / 4, 1);
  gint64 ts = 0;

  sl_trace_builder_set_process_name (builder, device, "Ascend Hardware");
  sl_trace_builder_set_process_name (builder, cann, "CANN");
  sl_trace_builder_set_process_name (builder, python, "Python");
  for (guint s = 0; s < G_N_ELEMENTS (streams); s++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", s);

      streams[s] = sl_trace_builder_get_thread_track (builder, device, tid);
    }
  host = sl_trace_builder_get_thread_track (builder, python, "1");
  api = sl_trace_builder_get_thread_track (builder, cann, "1");

  for (guint i = 0; i < quarter; i++, ts += 2000)
    {
      add_slice (builder, streams[i % 4], ts, 1500, layer[(i / 4) % G_N_ELEMENTS (layer)], "", i * 400);
      add_slice (builder, api, ts, 200, i % 2 == 0 ? "Node@launch" : "AscendCL@aclrtSynchronizeStream", "", i * 400 + 100);
      add_slice (builder, host, ts, 1000, i % 5000 == 0 ? "GC" : i % 997 == 0 ? "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
                                                                        : "aten::add", i % 5000 == 0 ? "GC" : "cpu_op", i * 400 + 200);
      add_slice (builder, api, ts + 300, 100, i % 1000 == 0 ? "AscendCL@aclMallocMemInner" : "AscendCL@aclnnAdd", "", i * 400 + 300);
    }
  rank->trace = G_OBJECT (sl_trace_builder_finish (builder, NULL));
  rank->steps = sl_step_trace_new ("/bench-trace/step_trace_time.csv", SL_STEP_SOURCE_ASCEND_PT);
  sl_step_trace_add_phase (rank->steps, "computing", "Computing");
  sl_step_trace_add_phase (rank->steps, "communication_not_overlapped", "Communication(Not Overlapped)");
  sl_step_trace_add_phase (rank->steps, "free", "Free");
  for (guint i = 0; i < 100; i++)
    {
      SlStep step = { .step = i, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME, .fp_ns = SL_STEP_NO_TIME,
                      .bp_ns = SL_STEP_NO_TIME, .total_ns = ts / 100, .data_wait_ns = SL_STEP_NO_TIME,
                      .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME };
      guint index = sl_step_trace_add_step (rank->steps, &step);

      sl_step_trace_set_line (rank->steps, index, i + 2);
      sl_step_trace_set_phase (rank->steps, index, 0, ts / 100);
      sl_step_trace_set_phase (rank->steps, index, 1, 0);
      sl_step_trace_set_phase (rank->steps, index, 2, 0);
    }
  sl_profile_rank_finish (rank);
  return profile;
}

static void
bench_traced (SlAdvisorRuleBook *book,
              guint              n_events)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  GListModel *findings;
  gint64 start, built, done;

  start = g_get_monotonic_time ();
  profile = build_traced (n_events);
  built = g_get_monotonic_time ();
  report = sl_advisor_run (profile, book, NULL, &error);
  done = g_get_monotonic_time ();
  if (report == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return;
    }

  findings = sl_advisor_report_get_findings (report);
  printf ("trace: %u events, built in %.2f s\n", n_events, (built - start) / 1e6);
  printf ("trace rules: %.3f s for %u findings:", (done - built) / 1e6, g_list_model_get_n_items (findings));
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      printf (" %s", sl_advisor_finding_get_rule (finding));
    }
  printf ("\n");
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint)strtoul (argv[1], NULL, 10) : 1000000;
  guint n_events = argc > 2 ? (guint)strtoul (argv[2], NULL, 10) : 1000000;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorRuleBook) book = sl_advisor_rule_book_new_default (&error);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  gint64 start, built, done;
  double seconds;

  if (book == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  start = g_get_monotonic_time ();
  profile = build (n);
  built = g_get_monotonic_time ();
  report = sl_advisor_run (profile, book, NULL, &error);
  done = g_get_monotonic_time ();
  if (report == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  seconds = (done - built) / 1e6;
  printf ("profile: %u executions of %u ops, built in %.2f s\n", n, MAX (n / EXECUTIONS_PER_OP, 1),
          (built - start) / 1e6);
  printf ("advisor: %.3f s for %u findings and %u rules not run (goal %.1f s: %s)\n", seconds,
          g_list_model_get_n_items (sl_advisor_report_get_findings (report)),
          sl_advisor_report_get_n_not_run (report), GOAL_S, seconds < GOAL_S ? "met" : "MISSED");

  bench_traced (book, n_events);
  return 0;
}
