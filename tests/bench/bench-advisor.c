/* bench-advisor.c: the advisor over a profile of a million kernels
 *
 * Builds one rank through the model's builder API: 1,000,000 executions
 * of 200,000 ops (a few AI CPU, uneven block dims, pipe ratios and core
 * busy times on every one, Cast and TransData among them), 1,000 steps
 * and host API statistics, then runs the default rule book on it. The
 * goal is under 2 s for the advisor; building the profile is not timed.
 *
 * Usage: bench-advisor [N_EXECUTIONS]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sl-advisor.h"

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
  for (guint i = 0; i < 1000; i++)
    {
      SlStep step = { .step = i, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME, .fp_ns = SL_STEP_NO_TIME,
                      .bp_ns = SL_STEP_NO_TIME, .total_ns = 100000000, .data_wait_ns = 12000000,
                      .fp_bp_ns = 80000000, .tail_ns = 8000000 };

      sl_step_trace_set_line (rank->steps, sl_step_trace_add_step (rank->steps, &step), i + 2);
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

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint)strtoul (argv[1], NULL, 10) : 1000000;
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
  return 0;
}
