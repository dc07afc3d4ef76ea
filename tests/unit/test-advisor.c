/* test-advisor.c: the advisor's rule book, overrides and every rule on
 * generated profiles: a case that fires, with its exact numbers and
 * evidence rows, and one that does not; rules that cannot run and where
 * they looked; damaged numbers; the loader keeping rows and pipe ratios.
 *
 * Every generated profile has two steps of 1 ms unless a test says
 * otherwise, so a total of 80 µs is 40 µs, 4 % of the step.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-advisor.h"
#include "sl-profile-loader.h"

#define US 1000
#define MS 1000000
#define OPS "/p/ASCEND_PROFILER_OUTPUT/kernel_details.csv"

static SlAdvisorRuleBook *
default_book (void)
{
  g_autoptr(GError) error = NULL;
  SlAdvisorRuleBook *book = sl_advisor_rule_book_new_default (&error);

  g_assert_no_error (error);
  g_assert_nonnull (book);
  return book;
}

static void
add_steps (SlProfileRank *rank,
           SlStepSource   source,
           guint          n,
           gint64         total_ns,
           gint64         wait_ns)
{
  /* torch_npu's overlap analysis has no data wait: @wait_ns is its Free. */
  gboolean overlap = source == SL_STEP_SOURCE_ASCEND_PT || source == SL_STEP_SOURCE_CLUSTER;

  rank->steps = sl_step_trace_new ("/p/step_trace_time.csv", source);
  if (overlap)
    {
      sl_step_trace_add_phase (rank->steps, "computing", "Computing");
      sl_step_trace_add_phase (rank->steps, "communication_not_overlapped", "Communication(Not Overlapped)");
      sl_step_trace_add_phase (rank->steps, "free", "Free");
    }
  for (guint i = 0; i < n; i++)
    {
      SlStep step = { .step = i + 1, .start_ns = i * total_ns, .end_ns = (i + 1) * total_ns, .fp_ns = SL_STEP_NO_TIME,
                      .bp_ns = SL_STEP_NO_TIME, .total_ns = total_ns,
                      .data_wait_ns = overlap ? SL_STEP_NO_TIME : wait_ns,
                      .fp_bp_ns = overlap ? SL_STEP_NO_TIME : total_ns - wait_ns,
                      .tail_ns = overlap ? SL_STEP_NO_TIME : 0 };
      guint index = sl_step_trace_add_step (rank->steps, &step);

      sl_step_trace_set_line (rank->steps, index, i + 2);
      if (overlap)
        {
          sl_step_trace_set_phase (rank->steps, index, 0, total_ns - wait_ns);
          sl_step_trace_set_phase (rank->steps, index, 1, 0);
          sl_step_trace_set_phase (rank->steps, index, 2, wait_ns);
        }
    }
}

static SlProfileRank *
new_rank (SlProfile *profile)
{
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_ASCEND_PT);

  add_steps (rank, SL_STEP_SOURCE_MSPROF, 2, 1 * MS, 0);
  return rank;
}

/* One op executed with the durations given (0-terminated), its first row at
 * @line and each further execution on the next line. */
static SlOpRow *
add_op (SlProfileRank *rank,
        const char    *name,
        const char    *type,
        const char    *core,
        guint          line,
        const gint64  *durations)
{
  SlOpRow *row = NULL;
  gint64 max = -1;

  for (guint i = 0; durations[i] != 0; i++)
    {
      row = sl_op_table_add_execution (rank->ops, name, type, core, durations[i], -1, -1);
      if (i == 0)
        sl_op_row_set_source (row, OPS, line);
      if (durations[i] > max)
        {
          max = durations[i];
          sl_op_row_set_longest_line (row, line + i);
        }
    }
  return row;
}

static SlAdvisorReport *
run (SlProfile         *profile,
     SlAdvisorRuleBook *book)
{
  g_autoptr(GError) error = NULL;
  SlAdvisorReport *report;

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    sl_profile_rank_finish ((SlProfileRank *)sl_profile_get_rank (profile, i));
  report = sl_advisor_run (profile, book, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static SlAdvisorFinding *
find (SlAdvisorReport *report,
      const char      *rule)
{
  GListModel *findings = sl_advisor_report_get_findings (report);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      if (g_str_equal (sl_advisor_finding_get_rule (finding), rule))
        return finding;   /* the report keeps it alive */
    }
  return NULL;
}

static const SlAdvisorSkip *
find_skip (SlAdvisorReport *report,
           const char      *rule)
{
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (report); i++)
    if (g_str_equal (sl_advisor_report_get_not_run (report, i)->rule, rule))
      return sl_advisor_report_get_not_run (report, i);
  return NULL;
}

static void
assert_evidence (SlAdvisorFinding *finding,
                 guint             index,
                 const char       *label,
                 const char       *file,
                 guint             row)
{
  const SlAdvisorEvidence *evidence;

  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), >, index);
  evidence = sl_advisor_finding_get_evidence (finding, index);
  g_assert_cmpstr (evidence->label, ==, label);
  g_assert_cmpstr (evidence->file, ==, file);
  g_assert_cmpuint (evidence->row, ==, row);
}

static void
assert_time (SlAdvisorFinding  *finding,
             SlAdvisorSeverity  severity,
             gint64             time_ns,
             gint64             saving_ns)
{
  g_assert_cmpint (sl_advisor_finding_get_severity (finding), ==, severity);
  g_assert_cmpint (sl_advisor_finding_get_time_ns (finding), ==, time_ns);
  g_assert_cmpint (sl_advisor_finding_get_saving_ns (finding), ==, saving_ns);
}

/* ------------------------------------------------------------------ */

static void
test_rule_book (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorRuleBook) bad = NULL;

  g_assert_cmpint (sl_advisor_rule_book_get_version (book), ==, 1);
  g_assert_cmpuint (sl_advisor_rule_book_get_n_rules (book), ==, 23);
  g_assert_true (sl_advisor_rule_book_needs (book, "trace-events"));
  g_assert_true (sl_advisor_rule_book_needs (book, "api-statistics"));
  g_assert_false (sl_advisor_rule_book_needs (book, "nothing"));
  g_assert_true (sl_advisor_rule_book_has_rule (book, "aicpu-ops"));
  g_assert_false (sl_advisor_rule_book_has_rule (book, "severity"));
  g_assert_cmpfloat (sl_advisor_rule_book_get_threshold (book, "aicpu-ops", "min_duration_us"), ==, 20.0);
  g_assert_true (isnan (sl_advisor_rule_book_get_threshold (book, "aicpu-ops", "nothing")));
  g_assert_cmpfloat (sl_advisor_rule_book_get_high_percent (book), ==, 5.0);
  g_assert_cmpfloat (sl_advisor_rule_book_get_medium_percent (book), ==, 3.0);
  g_assert_cmpint (sl_advisor_rule_book_get_policy (book, "environment"), ==, SL_ADVISOR_POLICY_FIXED_MEDIUM);

  bad = sl_advisor_rule_book_new_from_data ("{\"format\": \"other\"}", -1, &error);
  g_assert_null (bad);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  bad = sl_advisor_rule_book_new_from_data ("{\"format\": \"sightline-advisor-rules\", \"rules\": "
                                            "[{\"id\": \"a\", \"thresholds\": {\"x\": \"1\"}}]}", -1, &error);
  g_assert_null (bad);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* A rule the book names that this engine does not know is not skipped silently. */
static void
test_unknown_rule (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorRuleBook) book =
    sl_advisor_rule_book_new_from_data ("{\"format\": \"sightline-advisor-rules\", \"version\": 9, "
                                        "\"rules\": [{\"id\": \"future-rule\"}]}", -1, &error);
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;

  g_assert_no_error (error);
  new_rank (profile);
  report = run (profile, book);
  g_assert_nonnull (find_skip (report, "future-rule"));
}

static void
test_aicpu (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) quiet = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, quiet_report = NULL;
  SlProfileRank *rank = new_rank (profile), *quiet_rank = new_rank (quiet);
  SlAdvisorFinding *finding;

  add_op (rank, "NonZero", "NonZero", "AI_CPU", 5, (gint64[]) { 30 * US, 50 * US, 0 });
  add_op (rank, "MatMul1", "MatMul", "AI_CORE", 2, (gint64[]) { 100 * US, 0 });
  report = run (profile, book);

  /* 80 µs over 2 steps of 1 ms: 40 µs, 4 % (medium), saving 90 %. */
  finding = find (report, "aicpu-ops");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_MEDIUM, 40 * US, 36 * US);
  g_assert_cmpfloat_with_epsilon (sl_advisor_finding_get_step_percent (finding), 4.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (sl_advisor_finding_get_saving_percent (finding), 3.6, 1e-9);
  assert_evidence (finding, 0, "NonZero", OPS, 6);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 1);
  g_assert_cmpstr (sl_advisor_finding_get_graph_op (finding), ==, "NonZero");
  g_assert_cmpstr (sl_advisor_finding_get_filter_text (finding), ==, "AI_CPU");
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "NonZero"));
  /* One op: the singular form of the message. */
  g_assert_true (g_str_has_prefix (sl_advisor_finding_get_message (finding), "1 op ran on the AI CPU"));
  /* No input data types at all: the DOUBLE rule says so. */
  g_assert_null (find (report, "aicpu-double"));
  g_assert_nonnull (find_skip (report, "aicpu-double"));

  add_op (quiet_rank, "NonZero", "NonZero", "AI_CPU", 5, (gint64[]) { 15 * US, 19 * US, 0 });
  quiet_report = run (quiet, book);
  g_assert_null (find (quiet_report, "aicpu-ops"));
  g_assert_null (find_skip (quiet_report, "aicpu-ops"));
}

static void
test_aicpu_double (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlAdvisorFinding *finding;
  SlOpRow *row;

  row = add_op (rank, "Index", "Index", "AI_CPU", 3, (gint64[]) { 10 * US, 0 });
  sl_op_row_set_text (row, SL_OP_ROW_INPUT_DTYPES, "DOUBLE;INT64");
  row = add_op (rank, "Gather", "Gather", "AI_CPU", 4, (gint64[]) { 10 * US, 0 });
  sl_op_row_set_text (row, SL_OP_ROW_INPUT_DTYPES, "FLOAT;INT64");
  report = run (profile, book);

  finding = find (report, "aicpu-double");
  g_assert_nonnull (finding);
  /* 10 µs over two steps: 5 µs, 0.5 % (low), saving half. */
  assert_time (finding, SL_ADVISOR_SEVERITY_LOW, 5 * US, 2500);
  assert_evidence (finding, 0, "Index", OPS, 3);
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 1);
  /* Neither is longer than 20 µs. */
  g_assert_null (find (report, "aicpu-ops"));
}

static void
test_cast_transdata (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) quiet = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, quiet_report = NULL;
  SlProfileRank *rank = new_rank (profile), *quiet_rank = new_rank (quiet);
  SlAdvisorFinding *finding;

  /* 40 + 20 µs of 1000 µs: 6 % of the op time. */
  add_op (rank, "Cast1", "Cast", "AI_CORE", 2, (gint64[]) { 40 * US, 0 });
  add_op (rank, "trans_TransData_0", "TransData", "AI_VECTOR_CORE", 3, (gint64[]) { 20 * US, 0 });
  add_op (rank, "MatMul1", "MatMul", "AI_CORE", 4, (gint64[]) { 940 * US, 0 });
  report = run (profile, book);
  finding = find (report, "cast-transdata");
  g_assert_nonnull (finding);
  /* 60 µs over 2 steps = 30 µs, 3 % of the step: medium; half saved. */
  assert_time (finding, SL_ADVISOR_SEVERITY_MEDIUM, 30 * US, 15 * US);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 2);
  g_assert_cmpstr (sl_advisor_finding_get_filter_text (finding), ==, "Cast");
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "in 2 executions."));
  /* Type rows first (derived here, so no file), then the instances. */
  assert_evidence (finding, 2, "Cast1", OPS, 2);
  assert_evidence (finding, 3, "trans_TransData_0", OPS, 3);

  add_op (quiet_rank, "Cast1", "Cast", "AI_CORE", 2, (gint64[]) { 20 * US, 0 });
  add_op (quiet_rank, "MatMul1", "MatMul", "AI_CORE", 4, (gint64[]) { 980 * US, 0 });
  quiet_report = run (quiet, book);
  g_assert_null (find (quiet_report, "cast-transdata"));
}

static void
test_block_dim (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) no_cores = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, no_cores_report = NULL;
  SlProfileRank *rank = new_rank (profile), *no_cores_rank = new_rank (no_cores);
  SlAdvisorFinding *finding;
  const SlAdvisorSkip *skip;

  sl_profile_rank_set_info (rank, "DeviceInfo.0.ai_core_num", "32");
  sl_op_row_set_block_dim (add_op (rank, "Add1", "Add", "AI_CORE", 2, (gint64[]) { 100 * US, 0 }), 33);
  sl_op_row_set_block_dim (add_op (rank, "Mul1", "Mul", "AI_CORE", 3, (gint64[]) { 100 * US, 0 }), 64);
  sl_op_row_set_block_dim (add_op (rank, "Sub1", "Sub", "AI_CORE", 4, (gint64[]) { 10 * US, 0 }), 7);
  report = run (profile, book);
  finding = find (report, "block-dim");
  g_assert_nonnull (finding);
  /* 33 blocks on 32 cores: 2 waves where 1.03125 would do, so 48.4375 %
   * of 100 µs is lost; per step half of both. Sub1 is too short. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 50 * US, 24218);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 1);
  assert_evidence (finding, 0, "Add1", OPS, 2);

  sl_op_row_set_block_dim (add_op (no_cores_rank, "Add1", "Add", "AI_CORE", 2, (gint64[]) { 100 * US, 0 }), 33);
  g_ptr_array_add (no_cores_rank->files, g_strdup ("/p/profiler_info_0.json"));
  no_cores_report = run (no_cores, book);
  g_assert_null (find (no_cores_report, "block-dim"));
  skip = find_skip (no_cores_report, "block-dim");
  g_assert_nonnull (skip);
  g_assert_true (g_strv_contains ((const char *const *)skip->looked_in, "/p/profiler_info_0.json"));
  g_assert_cmpstr (skip->enable, !=, "");
}

static SlOpRow *
add_pipe_op (SlProfileRank *rank,
             const char    *name,
             const char    *type,
             gint64         duration_ns,
             double         vector,
             double         mte2)
{
  double ratios[SL_OP_N_PIPES] = { 0.1, vector, 0.2, 0.1, mte2, 0.1 };
  SlOpRow *row = add_op (rank, name, type, "AI_CORE", 2, (gint64[]) { duration_ns, 0 });

  sl_op_row_add_pipe_ratios (row, ratios, duration_ns);
  return row;
}

static void
test_pipes (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) bare = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, bare_report = NULL;
  SlProfileRank *rank = new_rank (profile), *bare_rank = new_rank (bare);
  SlAdvisorFinding *finding;
  GListModel *findings;
  guint n_unit = 0;

  add_pipe_op (rank, "Slow", "Add", 100 * US, 0.4, 0.3);        /* no bound */
  add_pipe_op (rank, "Busy", "Mul", 200 * US, 0.9, 0.3);        /* vector bound */
  add_pipe_op (rank, "Mover", "Add", 60 * US, 0.3, 0.9);        /* MTE2 bound */
  add_pipe_op (rank, "MatMul1", "MatMul", 80 * US, 0.3, 0.9);   /* MTE2 0.9 < 0.95: not bound */
  add_pipe_op (rank, "Tiny", "Add", 10 * US, 0.1, 0.1);         /* too short */
  report = run (profile, book);

  finding = find (report, "no-bound");
  g_assert_nonnull (finding);
  /* Slow: 100 µs × (1 − 0.4 / 0.8) = 50 µs saved; MatMul1 (busiest 0.9)
   * is bound enough. Per step: half. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 50 * US, 25 * US);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 1);
  assert_evidence (finding, 0, "Slow", OPS, 2);

  findings = sl_advisor_report_get_findings (report);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) item = g_list_model_get_item (findings, i);
      GPtrArray *ops = sl_advisor_finding_get_ops (item);

      if (!g_str_equal (sl_advisor_finding_get_rule (item), "unit-bound"))
        continue;
      n_unit++;
      g_assert_cmpuint (ops->len, ==, 1);
      g_assert_cmpint (sl_advisor_finding_get_saving_ns (item), ==, 0);
      if (strstr (sl_advisor_finding_get_message (item), "VECTOR") != NULL)
        g_assert_cmpstr (sl_op_row_get_name (g_ptr_array_index (ops, 0)), ==, "Busy");
      else
        {
          g_assert_nonnull (strstr (sl_advisor_finding_get_message (item), "MTE2"));
          g_assert_cmpstr (sl_op_row_get_name (g_ptr_array_index (ops, 0)), ==, "Mover");
        }
    }
  g_assert_cmpuint (n_unit, ==, 2);

  /* No ratios at all: both rules say what to collect. */
  add_op (bare_rank, "Slow", "Add", "AI_CORE", 2, (gint64[]) { 100 * US, 0 });
  bare_report = run (bare, book);
  g_assert_null (find (bare_report, "no-bound"));
  g_assert_nonnull (strstr (find_skip (bare_report, "no-bound")->enable, "PipeUtilization"));
  g_assert_nonnull (find_skip (bare_report, "unit-bound"));
  g_assert_cmpstr (find_skip (bare_report, "unit-bound")->looked_in[0], ==, "/p/op_summary_*.csv");
}

static void
test_aicore_vs_task (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlAdvisorFinding *finding;

  sl_op_row_add_core_busy (add_op (rank, "Waiter", "Add", "AI_CORE", 2, (gint64[]) { 100 * US, 0 }), 30 * US);
  sl_op_row_add_core_busy (add_op (rank, "Worker", "Add", "AI_CORE", 3, (gint64[]) { 100 * US, 0 }), 80 * US);
  sl_op_row_add_core_busy (add_op (rank, "Unmeasured", "Add", "AI_CORE", 4, (gint64[]) { 100 * US, 0 }), 0);
  report = run (profile, book);
  finding = find (report, "aicore-vs-task");
  g_assert_nonnull (finding);
  /* 70 µs idle, 35 µs a step. */
  assert_time (finding, SL_ADVISOR_SEVERITY_MEDIUM, 35 * US, 35 * US);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 1);
  assert_evidence (finding, 0, "Waiter", OPS, 2);
}

static SlOpRow *
add_tensor_op (SlProfileRank *rank,
               const char    *name,
               const char    *core,
               guint          line,
               gint64         duration,
               const char    *in_shapes,
               const char    *in_dtypes,
               const char    *out_shapes,
               const char    *out_dtypes)
{
  SlOpRow *row = add_op (rank, name, "Add", core, line, (gint64[]) { duration, 0 });

  gint64 in = sl_op_row_tensor_bytes (in_shapes, in_dtypes);
  gint64 out = sl_op_row_tensor_bytes (out_shapes, out_dtypes);

  /* As the loader does, execution by execution. */
  if (in >= 0 && out >= 0)
    sl_op_row_add_moved_bytes (row, in + out, duration);
  return row;
}

/* Bytes in and out over the duration, against 575 and 1150 GB/s. */
static void
test_vector_throughput (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) bare = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, bare_report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlProfileRank *bare_rank = new_rank (bare);
  SlAdvisorFinding *finding;

  /* 2 × 2 MiB of float16 in 100 µs: 41.9 GB/s, under the red line. */
  add_tensor_op (rank, "Slow", "AI_VECTOR_CORE", 2, 100 * US, "\"1024,1024\"", "FLOAT16", "1024,1024", "DT_FLOAT16");
  /* 2 × 40 MB of float32: 800 GB/s, between the lines. */
  add_tensor_op (rank, "Middling", "AI_VECTOR_CORE", 3, 100 * US, "10000,1000", "FLOAT", "10000,1000", "FLOAT");
  /* 200 MB: 2,000 GB/s. One dtype for two tensors; a scalar output. */
  add_tensor_op (rank, "Fast", "AI_VECTOR_CORE", 4, 100 * US, "50000,500;50000,500", "FLOAT", "", "FLOAT");
  /* Too short, on the cube, or of an unknown type: not judged. */
  add_tensor_op (rank, "Short", "AI_VECTOR_CORE", 5, 10 * US, "1024,1024", "FLOAT16", "1024,1024", "FLOAT16");
  add_tensor_op (rank, "Cube", "AI_CORE", 6, 100 * US, "1024,1024", "FLOAT16", "1024,1024", "FLOAT16");
  add_tensor_op (rank, "Odd", "AI_VECTOR_CORE", 7, 100 * US, "1024,x", "FLOAT16", "1024", "COMPLEX64");
  report = run (profile, book);
  finding = find (report, "vector-throughput");
  g_assert_nonnull (finding);
  /* 200 µs over 2 steps. At 1150 GB/s Slow would take 3,647 ns and
   * Middling 69,565 ns: 126,788 ns saved, 63,394 a step. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 100 * US, 63394);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 2);
  assert_evidence (finding, 0, "Slow", OPS, 2);
  assert_evidence (finding, 1, "Middling", OPS, 3);
  g_assert_cmpstr (sl_advisor_finding_get_evidence (finding, 0)->value, ==, "4.2\u00a0MB in 100 µs: 42 GB/s");

  /* Sizes as the profilers write them. */
  g_assert_cmpint (sl_op_row_tensor_bytes ("\"2,3;4\"", "FLOAT16;DT_INT64"), ==, 2 * 6 + 8 * 4);
  g_assert_cmpint (sl_op_row_tensor_bytes ("", "FLOAT"), ==, 4);
  g_assert_cmpint (sl_op_row_tensor_bytes ("2,0", "FLOAT"), ==, 0);
  g_assert_cmpint (sl_op_row_tensor_bytes ("2;3;4", "FLOAT;FLOAT"), ==, -1);
  g_assert_cmpint (sl_op_row_tensor_bytes ("2,-1", "FLOAT"), ==, -1);
  g_assert_cmpint (sl_op_row_tensor_bytes ("2", "COMPLEX64"), ==, -1);
  g_assert_cmpint (sl_op_row_tensor_bytes ("2", ""), ==, -1);
  g_assert_cmpint (sl_op_row_tensor_bytes (NULL, "FLOAT"), ==, -1);
  g_assert_cmpint (sl_op_row_tensor_bytes ("99999999999,99999999999,99999999999", "DOUBLE"), >, 0);

  /* No shapes anywhere: the rule says it could not run. */
  add_op (bare_rank, "Plain", "Add", "AI_VECTOR_CORE", 2, (gint64[]) { 100 * US, 0 });
  bare_report = run (bare, book);
  g_assert_null (find (bare_report, "vector-throughput"));
  g_assert_nonnull (find_skip (bare_report, "vector-throughput"));
}

static void
test_data_wait (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) quiet = sl_profile_new ("/p");
  g_autoptr(SlProfile) pt = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, quiet_report = NULL, pt_report = NULL;
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MINDSPORE);
  SlProfileRank *quiet_rank = sl_profile_add_rank (quiet, "/p", SL_PROFILE_LAYOUT_MINDSPORE);
  SlProfileRank *pt_rank = sl_profile_add_rank (pt, "/p", SL_PROFILE_LAYOUT_ASCEND_PT);
  SlAdvisorFinding *finding;

  add_steps (rank, SL_STEP_SOURCE_MINDSPORE, 4, 10 * MS, 2 * MS);
  report = run (profile, book);
  finding = find (report, "data-wait");
  g_assert_nonnull (finding);
  /* 2 ms of 10 ms: 20 %. Evidence: the steps' rows (line 2 onwards). */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 2 * MS, 2 * MS);
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 4);
  assert_evidence (finding, 0, "step 1", "/p/step_trace_time.csv", 2);
  g_assert_cmpint (sl_advisor_finding_get_range_start_ns (finding), ==, 0);
  g_assert_cmpint (sl_advisor_finding_get_range_end_ns (finding), ==, 10 * MS);

  add_steps (quiet_rank, SL_STEP_SOURCE_MINDSPORE, 4, 10 * MS, MS / 2);
  quiet_report = run (quiet, book);
  g_assert_null (find (quiet_report, "data-wait"));

  /* torch_npu's table has Free, not a data wait: that is free-time's. */
  add_steps (pt_rank, SL_STEP_SOURCE_ASCEND_PT, 2, 10 * MS, 2 * MS);
  pt_report = run (pt, book);
  g_assert_null (find (pt_report, "data-wait"));
  g_assert_nonnull (find_skip (pt_report, "data-wait"));
  finding = find (pt_report, "free-time");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 2 * MS, 2 * MS);
  g_assert_nonnull (find_skip (report, "free-time"));
}

static void
test_free_time_quiet (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_ASCEND_PT);

  add_steps (rank, SL_STEP_SOURCE_ASCEND_PT, 2, 10 * MS, MS / 2);
  report = run (profile, book);
  g_assert_null (find (report, "free-time"));
  g_assert_null (find_skip (report, "free-time"));
}

static SlOpRow *
add_api (SlProfileRank *rank,
         const char    *name,
         guint64        count,
         gint64         total_ns,
         guint          line)
{
  SlOpRow *row = sl_op_table_add_type (rank->apis, name, "acl");

  sl_op_row_set_totals (row, count, total_ns, -1, -1);
  sl_op_row_set_source (row, "/p/api_statistic.csv", line);
  return row;
}

static void
test_apis (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) quiet = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, quiet_report = NULL;
  SlProfileRank *rank = new_rank (profile), *quiet_rank = new_rank (quiet);
  SlAdvisorFinding *finding;

  add_api (rank, "aclopCompileAndExecute", 25, 4 * MS, 7);
  add_api (rank, "aclrtMallocAlign32", 100, 8 * MS, 8);
  add_api (rank, "aclrtFree", 100, 4 * MS, 9);
  report = run (profile, book);

  finding = find (report, "dynamic-shape");
  g_assert_nonnull (finding);
  g_assert_cmpint (sl_advisor_finding_get_severity (finding), ==, SL_ADVISOR_SEVERITY_MEDIUM);
  assert_evidence (finding, 0, "aclopCompileAndExecute", "/p/api_statistic.csv", 7);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "25"));

  /* 12 ms in 200 calls, 6 ms a step. */
  finding = find (report, "memory-ops");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 6 * MS, 5400 * US);
  assert_evidence (finding, 0, "aclrtMallocAlign32", "/p/api_statistic.csv", 8);
  assert_evidence (finding, 1, "aclrtFree", "/p/api_statistic.csv", 9);

  add_api (quiet_rank, "aclopCompileAndExecute", 5, 1 * MS, 7);
  add_api (quiet_rank, "aclrtFree", 100, 4 * MS, 9);
  quiet_report = run (quiet, book);
  g_assert_null (find (quiet_report, "dynamic-shape"));
  g_assert_null (find (quiet_report, "memory-ops"));
}

static void
test_environment (void)
{
  const char *contents = "{\n  \"ENV_VARIABLES\": {\n    \"ASCEND_GLOBAL_LOG_LEVEL\": \"3\",\n"
                         "    \"ASCEND_LAUNCH_BLOCKING\": \"1\",\n    \"ACLNN_CACHE_LIMIT\": \"100\"\n  }\n}\n";
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-advisor-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "profiler_metadata.json", NULL);
  SlProfileRank *rank = new_rank (profile);
  GListModel *findings;
  guint n = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_ptr_array_add (rank->files, g_strdup (path));
  sl_profile_rank_set_info (rank, "ENV_VARIABLES.ASCEND_GLOBAL_LOG_LEVEL", "3");
  sl_profile_rank_set_info (rank, "ENV_VARIABLES.ASCEND_LAUNCH_BLOCKING", "1");
  sl_profile_rank_set_info (rank, "ENV_VARIABLES.ACLNN_CACHE_LIMIT", "100");
  sl_profile_rank_set_info (rank, "ENV_VARIABLES.HCCL_ALGO", "");
  report = run (profile, book);

  findings = sl_advisor_report_get_findings (report);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);
      const SlAdvisorEvidence *evidence;

      if (!g_str_equal (sl_advisor_finding_get_rule (finding), "environment"))
        continue;
      n++;
      evidence = sl_advisor_finding_get_evidence (finding, 0);
      g_assert_cmpstr (evidence->file, ==, path);
      g_assert_cmpuint (evidence->row, ==, 0);
      g_assert_cmpint (evidence->offset, ==, strstr (contents, evidence->label) - 1 - contents);
      g_assert_true (g_str_equal (evidence->label, "ASCEND_LAUNCH_BLOCKING") ||
                     g_str_equal (evidence->label, "ACLNN_CACHE_LIMIT"));
    }
  /* The log level is 3 and HCCL_ALGO is empty: two findings. */
  g_assert_cmpuint (n, ==, 2);
  g_remove (path);
  g_rmdir (dir);
}

static void
test_slow_rank (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) even = sl_profile_new ("/p");
  g_autoptr(SlProfile) single = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, even_report = NULL, single_report = NULL;
  SlAdvisorFinding *finding;
  SlProfileRank *rank;

  rank = sl_profile_add_rank (profile, "/p/rank0", SL_PROFILE_LAYOUT_CLUSTER);
  add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, 100 * MS, 10 * MS);
  rank = sl_profile_add_rank (profile, "/p/rank1", SL_PROFILE_LAYOUT_CLUSTER);
  add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, 110 * MS, 20 * MS);
  report = run (profile, book);
  finding = find (report, "slow-rank");
  g_assert_nonnull (finding);
  /* (110 − 100) / 105 = 9.5 % > 5 %; 10 ms of the slow rank's 110 ms. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 10 * MS, 10 * MS);
  g_assert_cmpstr (sl_advisor_finding_get_rank_label (finding), ==, "rank1");
  assert_evidence (finding, 1, "rank1", "/p/step_trace_time.csv", 2);
  /* Its free time is 10 ms more, the computing the same. */
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "free time"));

  rank = sl_profile_add_rank (even, "/p/rank0", SL_PROFILE_LAYOUT_CLUSTER);
  add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, 100 * MS, 10 * MS);
  rank = sl_profile_add_rank (even, "/p/rank1", SL_PROFILE_LAYOUT_CLUSTER);
  add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, 102 * MS, 10 * MS);
  even_report = run (even, book);
  g_assert_null (find (even_report, "slow-rank"));

  new_rank (single);
  single_report = run (single, book);
  g_assert_nonnull (find_skip (single_report, "slow-rank"));
}

/* cluster_step_trace_time.csv: its stage row holds each column's maximum
 * and the ranks' own folders repeat them; only the rank rows count. */
static void
test_slow_rank_cluster (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;
  SlProfileRank *rank;

  for (guint i = 0; i < 2; i++)
    {
      rank = sl_profile_add_rank (profile, "/p/cluster_analysis_output", SL_PROFILE_LAYOUT_CLUSTER);
      rank->rank_id = i;
      add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, (100 + 10 * i) * MS, 10 * MS);
    }
  rank = sl_profile_add_rank (profile, "/p/cluster_analysis_output", SL_PROFILE_LAYOUT_CLUSTER);
  g_free (rank->label);
  rank->label = g_strdup ("stage (0, 1)");
  rank->aggregate = TRUE;
  add_steps (rank, SL_STEP_SOURCE_CLUSTER, 1, 300 * MS, 10 * MS);
  rank = sl_profile_add_rank (profile, "/p/rank9_ascend_pt", SL_PROFILE_LAYOUT_ASCEND_PT);
  add_steps (rank, SL_STEP_SOURCE_ASCEND_PT, 1, 50 * MS, 10 * MS);
  report = run (profile, book);

  finding = find (report, "slow-rank");
  g_assert_nonnull (finding);
  g_assert_cmpstr (sl_advisor_finding_get_rank_label (finding), ==, "cluster_analysis_output");
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 2);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 10 * MS, 10 * MS);
  /* The 10 ms more are in fp+bp, "computing" in this table. */
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "computing"));

  /* The stage's maxima are no rank: no rule judges them, no performance
   * report is made of them, while the ranks' are. */
  g_assert_cmpuint (sl_advisor_report_get_n_not_run (report), >, 0);
  g_assert_cmpuint (sl_performance_report_get_n_sections (sl_advisor_report_get_performance (report)), ==, 3);
  for (guint i = 0; i < g_list_model_get_n_items (sl_advisor_report_get_findings (report)); i++)
    {
      g_autoptr(SlAdvisorFinding) item = g_list_model_get_item (sl_advisor_report_get_findings (report), i);

      g_assert_cmpstr (sl_advisor_finding_get_rank_label (item), !=, "stage (0, 1)");
    }
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (report); i++)
    g_assert_cmpstr (sl_advisor_report_get_not_run (report, i)->rank_label, !=, "stage (0, 1)");
  for (guint i = 0; i < sl_performance_report_get_n_sections (sl_advisor_report_get_performance (report)); i++)
    g_assert_cmpstr (sl_performance_report_get_section (sl_advisor_report_get_performance (report), i)->rank_label,
                     !=, "stage (0, 1)");
}

static void
add_link (SlCommunication *comm,
          const char      *op,
          const char      *key,
          const char      *transport,
          double           size_mb,
          double           time_ms,
          gint64           offset)
{
  SlCommLink *link = sl_communication_add_link (comm, "/p/communication_matrix.json", "step1", "collective", op, key);

  link->transport = g_strdup (transport);
  link->size_mb = size_mb;
  link->time_ms = time_ms;
  link->offset = offset;
}

/* Three HCCS links at 20, 20 and 16 GB/s: a spread of 4 / 18.67 = 21 %. */
static void
test_slow_link (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) even = sl_profile_new ("/p");
  g_autoptr(SlProfile) lonely = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, even_report = NULL, lonely_report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlAdvisorFinding *finding;
  const SlAdvisorSkip *skip;

  rank->rank_id = 0;
  rank->communication = sl_communication_new ();
  add_link (rank->communication, "allreduce-total@1", "0-0", "LOCAL", 400, 1, 5);
  add_link (rank->communication, "allreduce-total@1", "0-1", "HCCS", 20, 1, 10);
  add_link (rank->communication, "allreduce-total@1", "0-2", "HCCS", 20, 1, 20);
  add_link (rank->communication, "allreduce-total@1", "0-3", "HCCS", 16, 1, 30);
  /* Part of the total above: not counted again. */
  add_link (rank->communication, "allreduce-top1@1", "0-3", "HCCS", 1, 1, 40);
  report = run (profile, book);
  finding = find (report, "slow-link");
  g_assert_nonnull (finding);
  /* 1 ms of transit over two steps; at the mean 18.67 GB/s its 16 MB take
   * 0.857 ms, so 0.143 ms is lost. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 500 * US, 71428);
  assert_evidence (finding, 0, "0-3 HCCS", "/p/communication_matrix.json", 0);
  g_assert_cmpint (sl_advisor_finding_get_evidence (finding, 0)->offset, ==, 30);
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 3);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "0-3 is the slowest at 16.00 GB/s"));
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "mean 18.67 GB/s"));
  g_assert_null (find_skip (report, "slow-link"));

  rank = new_rank (even);
  rank->communication = sl_communication_new ();
  add_link (rank->communication, "allreduce-total@1", "0-1", "HCCS", 20, 1, 10);
  add_link (rank->communication, "allreduce-total@1", "0-2", "HCCS", 19.5, 1, 20);
  even_report = run (even, book);
  g_assert_null (find (even_report, "slow-link"));
  g_assert_null (find_skip (even_report, "slow-link"));

  /* One link between ranks cannot be compared; no data at all says where it looked. */
  rank = new_rank (lonely);
  rank->communication = sl_communication_new ();
  add_link (rank->communication, "allreduce-total@1", "0-1", "RDMA", 20, 1, 10);
  new_rank (lonely);
  lonely_report = run (lonely, book);
  skip = find_skip (lonely_report, "slow-link");
  g_assert_nonnull (skip);
  g_assert_nonnull (strstr (skip->reason, "the data has 1"));
  g_assert_cmpuint (sl_advisor_report_get_n_not_run (lonely_report), >, 0);
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (lonely_report); i++)
    {
      const SlAdvisorSkip *other = sl_advisor_report_get_not_run (lonely_report, i);

      if (g_str_equal (other->rule, "slow-link") && other != skip)
        {
          g_assert_cmpstr (other->looked_in[0], ==, "/p/communication_matrix.json");
          g_assert_nonnull (strstr (other->enable, "Level1"));
        }
    }
}

static SlCommOp *
add_comm_op (SlCommunication *comm,
             const char      *name,
             gint64           offset)
{
  SlCommOp *op = sl_communication_add_op (comm, "/p/communication.json", "step1", "collective", name);

  op->offset = offset;
  return op;
}

/* A folder with the ranks' own profiles and cluster_analysis_output has
 * rank 0's communication twice: one finding, from the rank's folder. */
static void
test_communication_cluster_copy (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  guint n = 0;

  for (guint i = 0; i < 2; i++)
    {
      SlProfileRank *rank = sl_profile_add_rank (profile, i == 0 ? "/p/rank0_ascend_pt" : "/p/cluster_analysis_output",
                                                 i == 0 ? SL_PROFILE_LAYOUT_ASCEND_PT : SL_PROFILE_LAYOUT_CLUSTER);
      SlCommBandwidth *bandwidth;

      rank->rank_id = 0;
      add_steps (rank, SL_STEP_SOURCE_MSPROF, 2, 1 * MS, 0);
      rank->communication = sl_communication_new ();
      bandwidth = sl_comm_op_add_bandwidth (add_comm_op (rank->communication, "hcom_allReduce_1@1", 50), "HCCS");
      sl_comm_bandwidth_add_packets (bandwidth, 2, 12, 1.5);
      sl_comm_bandwidth_add_packets (bandwidth, 16, 1, 0.8);
    }
  report = run (profile, book);

  for (guint i = 0; i < g_list_model_get_n_items (sl_advisor_report_get_findings (report)); i++)
    {
      g_autoptr(SlAdvisorFinding) item = g_list_model_get_item (sl_advisor_report_get_findings (report), i);

      if (g_str_equal (sl_advisor_finding_get_rule (item), "packet-size"))
        {
          g_assert_cmpstr (sl_advisor_finding_get_rank_label (item), ==, sl_profile_get_rank (profile, 0)->label);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 1);
}

static void
test_packet_size (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlProfile) big = sl_profile_new ("/p");
  g_autoptr(SlProfile) unsized = sl_profile_new ("/p");
  g_autoptr(SlProfile) none = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL, big_report = NULL, unsized_report = NULL, none_report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlCommBandwidth *bandwidth;
  SlAdvisorFinding *finding;
  SlCommOp *op;

  rank->communication = sl_communication_new ();
  op = add_comm_op (rank->communication, "hcom_allReduce_1@1", 50);
  bandwidth = sl_comm_op_add_bandwidth (op, "HCCS");
  sl_comm_bandwidth_add_packets (bandwidth, 2, 12, 1.5);
  sl_comm_bandwidth_add_packets (bandwidth, 16, 1, 0.8);
  /* torch_npu's SDMA repeats the HCCS transfers: not counted twice. */
  sl_comm_bandwidth_add_packets (sl_comm_op_add_bandwidth (op, "SDMA"), 1, 100, 10);
  /* 2 MB is not small for RDMA (1 MB). */
  op = add_comm_op (rank->communication, "hcom_allReduce_2@1", 900);
  sl_comm_bandwidth_add_packets (sl_comm_op_add_bandwidth (op, "RDMA"), 2, 4, 1);
  report = run (profile, book);

  finding = find (report, "packet-size");
  g_assert_nonnull (finding);
  /* 12 of 13 transfers under 16 MB take 1.5 ms; at the large ones' 20 GB/s
   * their 24 MB take 1.2 ms: 0.3 ms saved, per step half of each. */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 750 * US, 150 * US);
  assert_evidence (finding, 0, "hcom_allReduce_1@1", "/p/communication.json", 0);
  g_assert_cmpint (sl_advisor_finding_get_evidence (finding, 0)->offset, ==, 50);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "12 of 13 SDMA/HCCS transfers (92.3 %"));
  g_assert_nonnull (strstr (sl_advisor_finding_get_assumption (finding), "20.00 GB/s"));
  /* Only one finding: RDMA has none under 1 MB. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_advisor_report_get_findings (report)), ==, 1);

  rank = new_rank (big);
  rank->communication = sl_communication_new ();
  bandwidth = sl_comm_op_add_bandwidth (add_comm_op (rank->communication, "op@1", 0), "SDMA");
  sl_comm_bandwidth_add_packets (bandwidth, 20, 10, 5);
  sl_comm_bandwidth_add_packets (bandwidth, 2, 1, 0.5);
  big_report = run (big, book);
  g_assert_null (find (big_report, "packet-size"));
  g_assert_null (find_skip (big_report, "packet-size"));

  rank = new_rank (unsized);
  rank->communication = sl_communication_new ();
  sl_comm_op_add_bandwidth (add_comm_op (rank->communication, "op@1", 0), "HCCS")->size_mb = 10;
  unsized_report = run (unsized, book);
  g_assert_nonnull (strstr (find_skip (unsized_report, "packet-size")->reason, "Size Distribution"));

  new_rank (none);
  none_report = run (none, book);
  g_assert_cmpstr (find_skip (none_report, "packet-size")->looked_in[0], ==, "/p/communication.json");
  g_assert_cmpstr (find_skip (none_report, "packet-size")->reason, ==, "The profile has no communication data");
}

static void
test_overrides (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-advisor-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "advisor.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "none.json", NULL);
  SlProfileRank *rank = new_rank (profile);
  const SlAdvisorOverride *override;
  GPtrArray *overridden;

  g_assert_true (g_file_set_contents (path, "{\"severity\": {\"high_step_percent\": 50},"
                                      " \"rules\": {\"aicpu-ops\": {\"min_duration_us\": 60, \"bogus\": 1},"
                                      " \"no-such-rule\": {}, \"cast-transdata\": {\"min_percent\": \"x\"}}}", -1, &error));
  g_assert_true (sl_advisor_rule_book_load_overrides (book, missing, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sl_advisor_rule_book_get_overridden (book)->len, ==, 0);
  g_assert_true (sl_advisor_rule_book_load_overrides (book, path, &error));
  g_assert_no_error (error);

  overridden = sl_advisor_rule_book_get_overridden (book);
  g_assert_cmpuint (overridden->len, ==, 2);
  override = g_ptr_array_index (overridden, 0);
  g_assert_cmpstr (override->rule, ==, "severity");
  g_assert_cmpfloat (override->value, ==, 50);
  override = g_ptr_array_index (overridden, 1);
  g_assert_cmpstr (override->rule, ==, "aicpu-ops");
  g_assert_cmpstr (override->name, ==, "min_duration_us");
  g_assert_cmpfloat (override->default_value, ==, 20);
  g_assert_cmpfloat (override->value, ==, 60);
  g_assert_cmpuint (sl_advisor_rule_book_get_warnings (book)->len, ==, 3);
  g_assert_cmpstr (sl_advisor_rule_book_get_override_path (book), ==, path);

  /* The op of test_aicpu (50 µs) no longer fires. */
  add_op (rank, "NonZero", "NonZero", "AI_CPU", 5, (gint64[]) { 30 * US, 50 * US, 0 });
  add_op (rank, "Long", "Unique", "AI_CPU", 9, (gint64[]) { 70 * US, 0 });
  report = run (profile, book);
  g_assert_nonnull (find (report, "aicpu-ops"));
  g_assert_cmpuint (sl_advisor_finding_get_ops (find (report, "aicpu-ops"))->len, ==, 1);
  /* 70 µs of 2 ms: 3.5 %, medium with the default, low with high at 50 % and medium at 3 %. */
  g_assert_cmpint (sl_advisor_finding_get_severity (find (report, "aicpu-ops")), ==, SL_ADVISOR_SEVERITY_MEDIUM);
  g_assert_true (sl_advisor_report_get_rule_book (report) == book);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_not_run_paths (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MSPROF);
  const SlAdvisorSkip *skip;

  g_ptr_array_add (rank->files, g_strdup ("/p/mindstudio_profiler_output/op_summary_1.csv"));
  report = run (profile, book);
  g_assert_cmpuint (g_list_model_get_n_items (sl_advisor_report_get_findings (report)), ==, 0);

  skip = find_skip (report, "aicpu-ops");
  g_assert_nonnull (skip);
  g_assert_cmpstr (skip->rank_label, ==, "p");
  g_assert_cmpstr (skip->looked_in[0], ==, "/p/mindstudio_profiler_output/op_summary_1.csv");
  g_assert_null (skip->looked_in[1]);
  skip = find_skip (report, "data-wait");
  g_assert_nonnull (skip);
  g_assert_cmpstr (skip->looked_in[0], ==, "/p/step_trace_raw_*_detail_time.csv");
  /* Every rule of the book either found something or said why not. */
  for (guint i = 0; i < sl_advisor_rule_book_get_n_rules (book); i++)
    g_assert_nonnull (find_skip (report, sl_advisor_rule_book_get_rule_id (book, i)));
}

/* NaN ratios, negative durations, negative and missing step totals and an
 * empty step table: nothing crashes, nothing reports NaN or a negative. */
static void
test_damaged (void)
{
  double nan_ratios[SL_OP_N_PIPES] = { NAN, NAN, -1, 2.0, INFINITY, NAN };
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MSPROF);
  SlProfileRank *empty = sl_profile_add_rank (profile, "/q", SL_PROFILE_LAYOUT_MSPROF);
  SlStep bad = { .step = 1, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME, .fp_ns = SL_STEP_NO_TIME,
                 .bp_ns = SL_STEP_NO_TIME, .total_ns = -5 * MS, .data_wait_ns = -3 * MS,
                 .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME };
  GListModel *findings;
  SlOpRow *row;

  rank->steps = sl_step_trace_new ("/p/step_trace_1.csv", SL_STEP_SOURCE_MSPROF);
  sl_step_trace_add_step (rank->steps, &bad);
  bad.total_ns = SL_STEP_NO_TIME;
  sl_step_trace_add_step (rank->steps, &bad);
  empty->steps = sl_step_trace_new ("/q/step_trace_1.csv", SL_STEP_SOURCE_MSPROF);

  row = add_op (rank, "Neg", "Cast", "AI_CPU", 2, (gint64[]) { -50 * US, 0 });
  sl_op_row_add_pipe_ratios (row, nan_ratios, -50 * US);
  sl_op_row_set_block_dim (row, -3);
  sl_op_row_add_core_busy (row, -1);
  g_assert_cmpfloat (sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_CUBE), ==, -1);
  g_assert_cmpfloat (sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_SCALAR), ==, -1);
  g_assert_cmpfloat (sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_MTE1), ==, -1);
  sl_profile_rank_set_info (rank, "DeviceInfo.0.ai_core_num", "NaN");
  report = run (profile, book);

  findings = sl_advisor_report_get_findings (report);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      g_assert_false (isnan (sl_advisor_finding_get_step_percent (finding)));
      g_assert_false (isnan (sl_advisor_finding_get_saving_percent (finding)));
      g_assert_cmpint (sl_advisor_finding_get_time_ns (finding), >=, -1);
      g_assert_cmpint (sl_advisor_finding_get_saving_ns (finding), >=, -1);
    }
  g_assert_null (find (report, "aicpu-ops"));
  g_assert_null (find (report, "data-wait"));
  g_assert_nonnull (find_skip (report, "data-wait"));
}


/* ------------------------------------------------------------------ */
/* Rules over the timeline: generated trace_view.json files in a
 * temporary *_ascend_pt folder, times in microseconds from 0. */

typedef struct {
  char    *root;   /* the temporary folder */
  char    *dir;    /* the rank's *_ascend_pt folder */
  char    *path;   /* its trace_view.json */
  GString *json;
} TraceFixture;

static void
trace_begin (TraceFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  fixture->root = g_dir_make_tmp ("test-advisor-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->dir = g_build_filename (fixture->root, "run_ascend_pt", NULL);
  output = g_build_filename (fixture->dir, "ASCEND_PROFILER_OUTPUT", NULL);
  g_assert_cmpint (g_mkdir_with_parents (output, 0700), ==, 0);
  fixture->path = g_build_filename (output, "trace_view.json", NULL);
  fixture->json = g_string_new ("[\n"
                                "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"Python\"}},\n"
                                "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 2, \"args\": {\"name\": \"CANN\"}},\n"
                                "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 3, \"args\": {\"name\": \"Ascend Hardware\"}},\n"
                                "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 3, \"tid\": 2, \"args\": {\"name\": \"Stream 2\"}},\n"
                                "{\"ph\": \"X\", \"name\": \"ProfilerStep#1\", \"cat\": \"cpu_op\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1}");
}

/* One complete event; returns its byte offset in the file. */
static gsize
trace_event (TraceFixture *fixture,
             const char   *name,
             const char   *cat,
             guint         pid,
             guint         tid,
             double        ts_us,
             double        dur_us)
{
  gsize offset;

  g_string_append (fixture->json, ",\n");
  offset = fixture->json->len;
  g_string_append_printf (fixture->json, "{\"ph\": \"X\", \"name\": \"%s\", \"cat\": \"%s\", \"pid\": %u, \"tid\": %u, "
                          "\"ts\": \"%.3f\", \"dur\": %.3f}", name, cat, pid, tid, ts_us, dur_us);
  return offset;
}

/* Writes the file (cut to @keep bytes when not 0) and makes the rank. */
static SlProfile *
trace_end (TraceFixture *fixture,
           gsize         keep)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_new (fixture->dir);
  SlProfileRank *rank = sl_profile_add_rank (profile, fixture->dir, SL_PROFILE_LAYOUT_ASCEND_PT);

  g_string_append (fixture->json, "\n]\n");
  g_file_set_contents (fixture->path, fixture->json->str, keep > 0 ? (gssize)keep : (gssize)fixture->json->len, &error);
  g_assert_no_error (error);
  add_steps (rank, SL_STEP_SOURCE_ASCEND_PT, 2, 1 * MS, 0);
  return profile;
}

static void
trace_clear (TraceFixture *fixture)
{
  g_remove (fixture->path);
  g_autofree char *output = g_path_get_dirname (fixture->path);

  g_rmdir (output);
  g_rmdir (fixture->dir);
  g_rmdir (fixture->root);
  g_free (fixture->root);
  g_free (fixture->dir);
  g_free (fixture->path);
  g_string_free (fixture->json, TRUE);
}

static void
assert_trace_evidence (SlAdvisorFinding   *finding,
                       const TraceFixture *fixture,
                       const char         *label,
                       gsize               offset)
{
  const SlAdvisorEvidence *evidence = sl_advisor_finding_get_evidence (finding, 0);

  g_assert_nonnull (evidence);
  g_assert_cmpstr (evidence->label, ==, label);
  g_assert_cmpstr (evidence->file, ==, fixture->path);
  g_assert_cmpuint (evidence->row, ==, 0);
  g_assert_cmpint (evidence->offset, ==, (gint64)offset);
}

static void
test_gc (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;
  gsize worst;

  trace_begin (&fixture);
  trace_event (&fixture, "GC", "GC", 1, 1, 100, 500);          /* under 1 ms: left out */
  worst = trace_event (&fixture, "GC", "GC", 1, 1, 1000, 3000);
  trace_event (&fixture, "gc_collect", "gc", 1, 1, 5000, 1000);
  profile = trace_end (&fixture, 0);
  report = run (profile, book);

  finding = find (report, "gc");
  g_assert_nonnull (finding);
  /* 4 ms over two steps of 1 ms; gc.freeze saves 80 % */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 2 * MS, 1600 * US);
  assert_trace_evidence (finding, &fixture, "GC", worst);
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 2);
  g_assert_cmpint (sl_advisor_finding_get_range_start_ns (finding), ==, 1000 * US);
  g_assert_cmpint (sl_advisor_finding_get_range_end_ns (finding), ==, 4000 * US);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "2 garbage collections"));
  g_assert_nonnull (strstr (sl_advisor_finding_get_recommendation (finding), "gc.freeze()"));
  /* With measured GC events, the conjecture is not needed. */
  g_assert_nonnull (find_skip (report, "conjectured-gc"));
  trace_clear (&fixture);
}

static void
test_gc_quiet (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;

  trace_begin (&fixture);
  trace_event (&fixture, "GC", "GC", 1, 1, 100, 900);
  trace_event (&fixture, "GC", "GC", 1, 1, 2000, -5000);        /* negative: no time */
  profile = trace_end (&fixture, 0);
  report = run (profile, book);
  g_assert_null (find (report, "gc"));
  g_assert_null (find_skip (report, "gc"));
  trace_clear (&fixture);
}

static void
add_device_and_api (TraceFixture *fixture,
                    guint         api_calls_in_gap)
{
  trace_event (fixture, "aclnnAdd_AddAiCore_Add", "", 3, 2, 0, 1000);
  trace_event (fixture, "AscendCL@aclnnAdd", "", 2, 7, 0, 10);
  /* 300 ms with the device idle */
  for (guint i = 0; i < api_calls_in_gap; i++)
    trace_event (fixture, "AscendCL@aclrtMemcpy", "", 2, 7, 2000 + i * 2000.0, 1000);
  trace_event (fixture, "aclnnMul_MulAiCore_Mul", "", 3, 2, 301000, 1000);
}

static void
test_conjectured_gc (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;

  trace_begin (&fixture);
  add_device_and_api (&fixture, 2);
  profile = trace_end (&fixture, 0);
  report = run (profile, book);

  finding = find (report, "conjectured-gc");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 150 * MS, 150 * MS);
  g_assert_cmpstr (sl_advisor_finding_get_evidence (finding, 0)->label, ==, "idle before aclnnMul_MulAiCore_Mul");
  g_assert_cmpint (sl_advisor_finding_get_range_start_ns (finding), ==, 1 * MS);
  g_assert_cmpint (sl_advisor_finding_get_range_end_ns (finding), ==, 301 * MS);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "conjecture"));
  /* No GC events: the GC rule says it could not tell. */
  g_assert_nonnull (find_skip (report, "gc"));
  trace_clear (&fixture);
}

static void
test_conjectured_gc_busy_host (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;

  trace_begin (&fixture);
  add_device_and_api (&fixture, 100);   /* a third of the gap in API calls */
  profile = trace_end (&fixture, 0);
  report = run (profile, book);
  g_assert_null (find (report, "conjectured-gc"));
  g_assert_null (find_skip (report, "conjectured-gc"));
  trace_clear (&fixture);
}

static void
check_syncbatchnorm (guint    calls,
                     gboolean fires)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;

  trace_begin (&fixture);
  for (guint i = 0; i < calls; i++)
    trace_event (&fixture, "SyncBatchNorm", "cpu_op", 1, 1, 10 + i * 100.0, 50);
  profile = trace_end (&fixture, 0);
  report = run (profile, book);
  finding = find (report, "syncbatchnorm");
  g_assert_true ((finding != NULL) == fires);
  if (fires)
    {
      assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, calls * 25 * US, -1);
      g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "20 times"));
    }
  g_assert_null (find_skip (report, "syncbatchnorm"));
  trace_clear (&fixture);
}

static void
test_syncbatchnorm (void)
{
  check_syncbatchnorm (20, TRUE);
  check_syncbatchnorm (19, FALSE);
}

static void
check_synchronize (gboolean blocking)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;

  trace_begin (&fixture);
  for (guint i = 0; i < 10; i++)
    {
      trace_event (&fixture, "Node@launch", "", 2, 7, i * 100.0, 5);
      /* Blocking launches wait after each one; otherwise once at the end. */
      if (blocking || i == 9)
        trace_event (&fixture, "AscendCL@aclrtSynchronizeStreamWithTimeout", "", 2, 7, i * 100.0 + 10, 40);
    }
  profile = trace_end (&fixture, 0);
  report = run (profile, book);
  finding = find (report, "synchronize-stream");
  g_assert_true ((finding != NULL) == blocking);
  if (blocking)
    {
      assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 200 * US, 200 * US);
      g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding), "10 of 10 kernel launches (1.00"));
      g_assert_nonnull (strstr (sl_advisor_finding_get_recommendation (finding), "ASCEND_LAUNCH_BLOCKING"));
    }
  trace_clear (&fixture);
}

static void
test_synchronize_stream (void)
{
  check_synchronize (TRUE);
  check_synchronize (FALSE);
}

static void
test_dataloader (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;
  gsize slow;

  trace_begin (&fixture);
  slow = trace_event (&fixture, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "cpu_op", 1, 1, 100, 15000);
  /* Its own frame inside: counted once, as the call. */
  trace_event (&fixture, "torch/utils/data/dataloader.py(625): __next__", "python_function", 1, 1, 200, 14000);
  trace_event (&fixture, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "cpu_op", 1, 1, 20000, 5000);
  profile = trace_end (&fixture, 0);
  report = run (profile, book);

  finding = find (report, "dataloader");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 7500 * US, 7500 * US);
  assert_trace_evidence (finding, &fixture, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", slow);
  g_assert_cmpuint (sl_advisor_finding_get_n_evidence (finding), ==, 1);
  trace_clear (&fixture);

  /* 5 ms calls are no finding. */
  {
    g_autoptr(SlProfile) quiet = NULL;
    g_autoptr(SlAdvisorReport) quiet_report = NULL;

    trace_begin (&fixture);
    trace_event (&fixture, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "cpu_op", 1, 1, 100, 5000);
    quiet = trace_end (&fixture, 0);
    quiet_report = run (quiet, book);
    g_assert_null (find (quiet_report, "dataloader"));
    trace_clear (&fixture);
  }
}

static void
check_memory_trace (double   each_us,
                    gboolean fires)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;

  trace_begin (&fixture);
  trace_event (&fixture, "AscendCL@aclnnAdd", "", 2, 7, 0, 10);
  for (guint i = 0; i < 4; i++)
    {
      trace_event (&fixture, "AscendCL@aclMallocMemInner", "", 2, 7, 100 + i * 10000.0, each_us);
      trace_event (&fixture, "AscendCL@aclrtFree", "", 2, 7, 5000 + i * 10000.0, each_us / 2);
    }
  profile = trace_end (&fixture, 0);
  report = run (profile, book);
  finding = find (report, "memory-ops");
  g_assert_true ((finding != NULL) == fires);
  g_assert_null (find_skip (report, "memory-ops"));
  if (fires)
    {
      /* 4 × 3 ms + 4 × 1.5 ms = 18 ms over two steps */
      assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 9 * MS, 8100 * US);
      g_assert_cmpstr (sl_advisor_finding_get_evidence (finding, 0)->label, ==, "AscendCL@aclMallocMemInner");
      g_assert_cmpstr (sl_advisor_finding_get_evidence (finding, 0)->file, ==, fixture.path);
    }
  trace_clear (&fixture);
}

static void
test_memory_ops_trace (void)
{
  check_memory_trace (3000, TRUE);
  check_memory_trace (1000, FALSE);   /* 6 ms in all: under 10 ms */
}

static void
add_rms_norm_runs (TraceFixture *fixture,
                   guint         runs)
{
  static const char *const kernels[] = { "aclnnPow_PowAiCore_Pow", "aclnnMean_ReduceMeanAiCore_ReduceMean",
                                         "aclnnRsqrt_RsqrtAiCore_Rsqrt", "aclnnMul_MulAiCore_Mul" };
  double ts = 0;

  for (guint r = 0; r < runs; r++)
    {
      for (guint k = 0; k < G_N_ELEMENTS (kernels); k++, ts += 110)
        trace_event (fixture, kernels[k], "", 3, 2, ts, 100);
      /* A task that is no kernel does not break the sequence. */
      trace_event (fixture, "EVENT_RECORD", "", 3, 2, ts, 1);
      ts += 10;
    }
}

static void
test_fusible_ops (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  GListModel *findings;
  SlAdvisorFinding *finding;
  guint n = 0;

  trace_begin (&fixture);
  add_rms_norm_runs (&fixture, 8);
  profile = trace_end (&fixture, 0);
  report = run (profile, book);

  finding = find (report, "fusible-ops");
  g_assert_nonnull (finding);
  /* 8 runs of 4 × 100 µs = 3.2 ms over two steps; fusing saves half */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 1600 * US, 800 * US);
  g_assert_nonnull (strstr (sl_advisor_finding_get_message (finding),
                            "aclnnPow_PowAiCore_Pow → aclnnMean_ReduceMeanAiCore_ReduceMean → "
                            "aclnnRsqrt_RsqrtAiCore_Rsqrt → aclnnMul_MulAiCore_Mul run one after another 8 times on Stream 2"));
  g_assert_nonnull (strstr (sl_advisor_finding_get_recommendation (finding), "torch_npu.npu_rms_norm"));
  g_assert_cmpint (sl_advisor_finding_get_range_start_ns (finding), ==, 0);
  g_assert_cmpint (sl_advisor_finding_get_range_end_ns (finding), ==, 430 * US);
  /* Its parts and rotations are the same finding, not more. */
  findings = sl_advisor_report_get_findings (report);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) item = g_list_model_get_item (findings, i);

      n += g_str_equal (sl_advisor_finding_get_rule (item), "fusible-ops");
    }
  g_assert_cmpuint (n, ==, 1);
  trace_clear (&fixture);

  /* Five runs are not more than five. */
  {
    g_autoptr(SlProfile) few = NULL;
    g_autoptr(SlAdvisorReport) few_report = NULL;

    trace_begin (&fixture);
    add_rms_norm_runs (&fixture, 5);
    few = trace_end (&fixture, 0);
    few_report = run (few, book);
    g_assert_null (find (few_report, "fusible-ops"));
    trace_clear (&fixture);
  }
}

static void
test_task_wait (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = new_rank (profile);
  SlAdvisorFinding *finding;

  /* Ten ops wait 2..11 µs; one waits 300 µs twice. */
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("Add_%u", i);
      SlOpRow *row = sl_op_table_add_execution (rank->ops, name, "Add", "AI_CORE", 10 * US, (2 + i) * US, -1);

      sl_op_row_set_source (row, OPS, 2 + i);
    }
  sl_op_row_set_source (sl_op_table_add_execution (rank->ops, "MatMul_1", "MatMul", "AI_CORE", 10 * US, 300 * US, -1), OPS, 20);
  sl_op_row_set_longest_line (sl_op_table_add_execution (rank->ops, "MatMul_1", "MatMul", "AI_CORE", 10 * US, 300 * US, -1), 21);
  report = run (profile, book);

  finding = find (report, "task-wait");
  g_assert_nonnull (finding);
  /* 600 µs of waits over two steps; down to the median of 7 µs saves 586 µs */
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 300 * US, 293 * US);
  assert_evidence (finding, 0, "MatMul_1", OPS, 21);
  g_assert_cmpuint (sl_advisor_finding_get_ops (finding)->len, ==, 1);
}

static void
test_task_wait_quiet (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = new_rank (profile);

  /* Every op waits the same 100 µs: no op stands out. */
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("Add_%u", i);

      sl_op_table_add_execution (rank->ops, name, "Add", "AI_CORE", 10 * US, 100 * US, -1);
    }
  sl_op_table_add_execution (rank->ops, "NoWait", "Add", "AI_CORE", 10 * US, -1, -1);
  report = run (profile, book);
  g_assert_null (find (report, "task-wait"));
  g_assert_null (find_skip (report, "task-wait"));
}

/* A rank without a timeline: every trace rule says where it looked and
 * which profiler setting writes the events it needs. */
static void
test_trace_not_run (void)
{
  static const struct { const char *rule; const char *enable; } rules[] = {
    { "gc", "gc_detect_threshold" }, { "conjectured-gc", "Level1" }, { "syncbatchnorm", "ProfilerActivity.CPU" },
    { "synchronize-stream", "Level1" }, { "dataloader", "ProfilerActivity.CPU" }, { "fusible-ops", "ProfilerActivity.NPU" },
    { "memory-ops", "Level1" },
  };
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/nowhere/run_ascend_pt");
  g_autoptr(SlAdvisorReport) report = NULL;

  new_rank (profile);
  g_free (((SlProfileRank *)sl_profile_get_rank (profile, 0))->dir);
  ((SlProfileRank *)sl_profile_get_rank (profile, 0))->dir = g_strdup ("/nowhere/run_ascend_pt");
  report = run (profile, book);

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      const SlAdvisorSkip *skip = find_skip (report, rules[i].rule);

      g_assert_nonnull (skip);
      g_assert_nonnull (skip->looked_in);
      g_assert_cmpstr (skip->looked_in[0], ==, "/nowhere/run_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
      g_assert_nonnull (strstr (skip->enable, rules[i].enable));
      g_assert_nonnull (strstr (skip->reason, "timeline"));
    }
}

/* A file cut in the middle of an event keeps the events before it, and
 * the finding says where the file broke. */
static void
test_trace_truncated (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  TraceFixture fixture;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorFinding *finding;
  const SlAdvisorEvidence *evidence;
  gsize cut;

  trace_begin (&fixture);
  trace_event (&fixture, "GC", "GC", 1, 1, 1000, 3000);
  cut = trace_event (&fixture, "GC", "GC", 1, 1, 9000, 9000) + 30;
  profile = trace_end (&fixture, cut);
  report = run (profile, book);

  finding = find (report, "gc");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 1500 * US, 1200 * US);
  evidence = sl_advisor_finding_get_evidence (finding, sl_advisor_finding_get_n_evidence (finding) - 1);
  g_assert_cmpstr (evidence->label, ==, "damaged timeline");
  g_assert_cmpstr (evidence->file, ==, fixture.path);
  g_assert_cmpint (evidence->offset, >, 0);
  trace_clear (&fixture);

  /* Nothing left before the damage: not run, with the damage as reason. */
  {
    g_autoptr(SlProfile) empty = NULL;
    g_autoptr(SlAdvisorReport) empty_report = NULL;
    const SlAdvisorSkip *skip;

    trace_begin (&fixture);
    g_string_assign (fixture.json, "[{\"ph\": \"X\", \"name\": \"GC\", \"ts\": NaN, \"dur\": NaN");
    empty = trace_end (&fixture, 0);
    empty_report = run (empty, book);
    skip = find_skip (empty_report, "gc");
    g_assert_nonnull (skip);
    g_assert_nonnull (strstr (skip->reason, "damage"));
    g_assert_cmpstr (skip->looked_in[0], ==, fixture.path);
    trace_clear (&fixture);
  }
}

/* A MindSpore folder holds every device's files: device 0's rules do not
 * read device 1's timeline. */
static void
test_trace_other_rank (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("test-advisor-XXXXXX", &error);
  g_autofree char *other = g_build_filename (root, "ascend_timeline_display_1.json", NULL);
  g_autofree char *expected = g_build_filename (root, "ascend_timeline_display_0.json", NULL);
  g_autoptr(SlProfile) profile = sl_profile_new (root);
  g_autoptr(SlAdvisorReport) report = NULL;
  SlProfileRank *rank = sl_profile_add_rank (profile, root, SL_PROFILE_LAYOUT_MINDSPORE);
  const SlAdvisorSkip *skip;

  g_assert_no_error (error);
  g_file_set_contents (other, "[{\"ph\": \"X\", \"name\": \"GC\", \"cat\": \"GC\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5000}]",
                       -1, &error);
  g_assert_no_error (error);
  rank->device_id = 0;
  add_steps (rank, SL_STEP_SOURCE_MINDSPORE, 2, 1 * MS, 0);
  report = run (profile, book);

  g_assert_null (find (report, "gc"));
  skip = find_skip (report, "gc");
  g_assert_nonnull (skip);
  g_assert_nonnull (strstr (skip->reason, "other ranks"));
  g_assert_cmpstr (skip->looked_in[0], ==, expected);
  g_remove (other);
  g_rmdir (root);
}

static void
test_cancel (void)
{
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;

  sl_profile_rank_finish (new_rank (profile));
  g_cancellable_cancel (cancellable);
  report = sl_advisor_run (profile, book, cancellable, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* The loader keeps what the rules need: each op's file and rows, the
 * pipe ratios (time-weighted), the core busy time and the op state. */
static void
test_loader_columns (void)
{
  const char *kernels =
    "Step Id,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,"
    "Input Data Types,aicore_time(us),aic_mac_ratio,aic_mte2_ratio,aiv_time(us),aiv_vec_ratio,aiv_mte2_ratio,"
    "Input Shapes,Output Shapes,Output Data Types\n"
    "1,Add1,Add,dynamic,AI_VECTOR_CORE,1.0,100,0,40,FLOAT,0,0,0,30,0.2,0.5,\"8,128\",\"8,128\",FLOAT\n"
    "1,Add1,Add,dynamic,AI_VECTOR_CORE,200.0,300,0,40,FLOAT,0,0,0,90,0.4,0.1,\"16,128;16,128\",\"16,128\",FLOAT\n"
    "1,Idx,Index,dynamic,AI_CPU,600.0,50,0,1,DOUBLE,N/A,N/A,N/A,N/A,N/A,N/A,\"8\",\"8\",\n";
  const char *steps = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                      "Communication(Not Overlapped and Exclude Receive),Preparing\n"
                      "1,500,0,0,0,500,0,0,0,0\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-advisor-XXXXXX", &error);
  g_autofree char *unit = g_build_filename (dir, "rank0_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *kernel_path = g_build_filename (output, "kernel_details.csv", NULL);
  g_autofree char *step_path = g_build_filename (output, "step_trace_time.csv", NULL);
  g_autoptr(SlAdvisorRuleBook) book = default_book ();
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  const SlProfileRank *rank;
  SlAdvisorFinding *finding;
  SlOpRow *add;

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  g_assert_true (g_file_set_contents (kernel_path, kernels, -1, NULL));
  g_assert_true (g_file_set_contents (step_path, steps, -1, NULL));
  profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  rank = sl_profile_get_rank (profile, 0);

  add = sl_op_table_lookup_instance (rank->ops, "Add1");
  g_assert_nonnull (add);
  g_assert_cmpstr (sl_op_row_get_source_path (add), ==, kernel_path);
  g_assert_cmpuint (sl_op_row_get_source_line (add), ==, 2);
  g_assert_cmpuint (sl_op_row_get_longest_line (add), ==, 3);
  /* (0.2 × 100 + 0.4 × 300) / 400 and (0.5 × 100 + 0.1 × 300) / 400 */
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_pipe_ratio (add, SL_OP_PIPE_VECTOR), 0.35, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_pipe_ratio (add, SL_OP_PIPE_MTE2), 0.2, 1e-12);
  g_assert_cmpfloat (sl_op_row_get_pipe_ratio (add, SL_OP_PIPE_SCALAR), ==, -1);
  g_assert_cmpint (sl_op_row_get_core_busy_ns (add), ==, 120 * US);
  g_assert_cmpstr (sl_op_row_get_op_state (add), ==, "dynamic");
  g_assert_cmpuint (sl_step_trace_get_line (rank->steps, 0), ==, 2);
  /* Each execution's own shapes: 8,192 bytes in 100 µs, then 24,576 in
   * 300 µs; Idx has no output type, so nothing is counted for it. */
  g_assert_cmpint (sl_op_row_get_moved_bytes (add), ==, 8192 + 24576);
  g_assert_cmpint (sl_op_row_get_moved_ns (add), ==, 400 * US);
  g_assert_cmpint (sl_op_row_get_moved_ns (sl_op_table_lookup_instance (rank->ops, "Idx")), ==, 0);

  report = sl_advisor_run (profile, book, NULL, &error);
  g_assert_no_error (error);
  /* Add1: 400 µs with the busiest pipe at 0.35: saves 400 × (1 − 0.35 / 0.8) = 225 µs. */
  finding = find (report, "no-bound");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 400 * US, 225 * US);
  assert_evidence (finding, 0, "Add1", kernel_path, 3);
  /* The cores were busy 120 of 400 µs. */
  finding = find (report, "aicore-vs-task");
  g_assert_nonnull (finding);
  assert_time (finding, SL_ADVISOR_SEVERITY_HIGH, 280 * US, 280 * US);
  finding = find (report, "aicpu-double");
  g_assert_nonnull (finding);
  assert_evidence (finding, 0, "Idx", kernel_path, 4);
  /* Free, half of the step, is the device idle under its own name: not a
   * wait for data, which torch_npu's table does not measure. */
  finding = find (report, "free-time");
  g_assert_nonnull (finding);
  assert_evidence (finding, 0, "step 1", step_path, 2);
  g_assert_true (g_str_has_prefix (sl_advisor_finding_get_evidence (finding, 0)->value, "device idle (Free) "));
  g_assert_null (strstr (sl_advisor_finding_get_message (finding), "data"));
  g_assert_null (find (report, "data-wait"));
  g_assert_nonnull (find_skip (report, "data-wait"));
  g_assert_nonnull (find (report, "dynamic-shape"));

  g_remove (kernel_path);
  g_remove (step_path);
  g_rmdir (output);
  g_rmdir (unit);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/advisor/rule-book", test_rule_book);
  g_test_add_func ("/advisor/unknown-rule", test_unknown_rule);
  g_test_add_func ("/advisor/aicpu-ops", test_aicpu);
  g_test_add_func ("/advisor/aicpu-double", test_aicpu_double);
  g_test_add_func ("/advisor/cast-transdata", test_cast_transdata);
  g_test_add_func ("/advisor/block-dim", test_block_dim);
  g_test_add_func ("/advisor/pipes", test_pipes);
  g_test_add_func ("/advisor/aicore-vs-task", test_aicore_vs_task);
  g_test_add_func ("/advisor/vector-throughput", test_vector_throughput);
  g_test_add_func ("/advisor/data-wait", test_data_wait);
  g_test_add_func ("/advisor/free-time-quiet", test_free_time_quiet);
  g_test_add_func ("/advisor/apis", test_apis);
  g_test_add_func ("/advisor/environment", test_environment);
  g_test_add_func ("/advisor/slow-rank", test_slow_rank);
  g_test_add_func ("/advisor/slow-rank-cluster", test_slow_rank_cluster);
  g_test_add_func ("/advisor/slow-link", test_slow_link);
  g_test_add_func ("/advisor/packet-size", test_packet_size);
  g_test_add_func ("/advisor/communication-cluster-copy", test_communication_cluster_copy);
  g_test_add_func ("/advisor/overrides", test_overrides);
  g_test_add_func ("/advisor/not-run-paths", test_not_run_paths);
  g_test_add_func ("/advisor/damaged", test_damaged);
  g_test_add_func ("/advisor/gc", test_gc);
  g_test_add_func ("/advisor/gc-quiet", test_gc_quiet);
  g_test_add_func ("/advisor/conjectured-gc", test_conjectured_gc);
  g_test_add_func ("/advisor/conjectured-gc-busy-host", test_conjectured_gc_busy_host);
  g_test_add_func ("/advisor/syncbatchnorm", test_syncbatchnorm);
  g_test_add_func ("/advisor/synchronize-stream", test_synchronize_stream);
  g_test_add_func ("/advisor/dataloader", test_dataloader);
  g_test_add_func ("/advisor/memory-ops-trace", test_memory_ops_trace);
  g_test_add_func ("/advisor/fusible-ops", test_fusible_ops);
  g_test_add_func ("/advisor/task-wait", test_task_wait);
  g_test_add_func ("/advisor/task-wait-quiet", test_task_wait_quiet);
  g_test_add_func ("/advisor/trace-not-run", test_trace_not_run);
  g_test_add_func ("/advisor/trace-truncated", test_trace_truncated);
  g_test_add_func ("/advisor/trace-other-rank", test_trace_other_rank);
  g_test_add_func ("/advisor/cancel", test_cancel);
  g_test_add_func ("/advisor/loader-columns", test_loader_columns);

  return g_test_run ();
}
