/* test-profile-compare.c: the profile comparison on generated profiles
 *
 * A profile against itself differs nowhere; a copy with one op type made
 * slower by a known amount has that type as its top regression by exactly
 * that amount; noise is told from regressions with hand-computed median
 * absolute deviations; damaged input (no steps, no ops, NaN and negative
 * durations in a file, ranks that do not exist) does not crash; two
 * timelines are aligned op by op within their first steps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-profile-compare.h"
#include "sl-profile-loader.h"
#include "sl-trace-builder.h"

#define US 1000

/* @totals in µs, 0-terminated; every step is all forward and backward. */
static void
add_steps (SlProfileRank *rank,
           const gint64  *totals)
{
  gint64 start = 0;

  rank->steps = sl_step_trace_new ("/p/step_trace_time.csv", SL_STEP_SOURCE_MSPROF);
  for (guint i = 0; totals[i] != 0; i++)
    {
      SlStep step = { .step = i + 1, .start_ns = start, .end_ns = start + totals[i] * US,
                      .fp_ns = SL_STEP_NO_TIME, .bp_ns = SL_STEP_NO_TIME, .total_ns = totals[i] * US,
                      .data_wait_ns = 0, .fp_bp_ns = totals[i] * US, .tail_ns = 0 };

      sl_step_trace_add_step (rank->steps, &step);
      start += totals[i] * US;
    }
}

static void
add_op (SlProfileRank *rank,
        const char    *name,
        const char    *type,
        const char    *core,
        guint          n,
        gint64         duration_ns)
{
  for (guint i = 0; i < n; i++)
    sl_op_table_add_execution (rank->ops, name, type, core, duration_ns, -1, -1);
}

/* Three steps of 1 ms; MatMul on the cube, Add on the vector units and an
 * all-reduce; @add_extra_ns is added to every Add execution. */
static SlProfile *
make_profile (gint64 add_extra_ns)
{
  static const gint64 steps[] = { 1000, 1000, 1000, 0 };
  SlProfile *profile = sl_profile_new ("/p");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MSPROF);

  add_steps (rank, steps);
  add_op (rank, "MatMul-op1", "MatMul", "AI_CORE", 6, 50 * US);
  add_op (rank, "Add-op2", "Add", "AI_VECTOR_CORE", 3, 10 * US + add_extra_ns);
  add_op (rank, "Add-op3", "Add", "AI_VECTOR_CORE", 3, 20 * US + add_extra_ns);
  add_op (rank, "hcom_allReduce__1", "hcom_allReduce_", "HCCL", 3, 100 * US);
  add_op (rank, "Cast-op4", "Cast", "AI_CPU", 3, 5 * US);
  sl_profile_rank_finish (rank);
  return profile;
}

static SlProfileCompare *
compare (SlProfile *base,
         SlProfile *comparison)
{
  g_autoptr(GError) error = NULL;
  SlProfileCompare *result = sl_profile_compare_compute (base, comparison, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static const SlProfileCompareRow *
find_row (GPtrArray  *rows,
          const char *type)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->type, type))
        return row;
    }
  return NULL;
}

static void
test_self (void)
{
  g_autoptr(SlProfile) profile = make_profile (0);
  g_autoptr(SlProfileCompare) result = compare (profile, profile);

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      const SlProfileCompareItem *item = &result->items[i];

      if (i == SL_PROFILE_COMPARE_UNCOVERED_COMMUNICATION || i == SL_PROFILE_COMPARE_FREE)
        {
          g_assert_nonnull (item->reason);
          continue;
        }
      g_assert_cmpint (item->source, !=, SL_PROFILE_COMPARE_FROM_NONE);
      g_assert_null (item->reason);
      g_assert_cmpint (item->base_ns, ==, item->comparison_ns);
      g_assert_cmpint (item->diff_ns, ==, 0);
      g_assert_cmpfloat (item->ratio, ==, 1.0);
      g_assert_false (item->noise);
    }
  /* Per step: (6 × 50 µs) / 3 steps of cube, (3 × 10 + 3 × 20) / 3 of vector. */
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_CUBE].base_ns, ==, 100 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_VECTOR].base_ns, ==, 30 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_COMMUNICATION_KERNELS].base_ns, ==, 100 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_OTHER_KERNELS].base_ns, ==, 5 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_COMPUTING].base_ns, ==, 135 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].base_ns, ==, 1000 * US);
  g_assert_true (result->items[SL_PROFILE_COMPARE_E2E].noise_checked);

  g_assert_cmpuint (result->op_types->len, ==, 4);
  g_assert_cmpuint (result->kernels->len, ==, 4);
  for (guint t = 0; t < 2; t++)
    {
      GPtrArray *rows = t == 0 ? result->op_types : result->kernels;

      for (guint i = 0; i < rows->len; i++)
        {
          const SlProfileCompareRow *row = g_ptr_array_index (rows, i);

          g_assert_cmpint (row->diff_ns, ==, 0);
          g_assert_cmpfloat (row->ratio, ==, 1.0);
          g_assert_cmpuint (row->count[0], ==, row->count[1]);
          g_assert_cmpint (row->avg_ns[0], ==, row->avg_ns[1]);
          g_assert_cmpint (row->min_ns[0], ==, row->min_ns[1]);
          g_assert_cmpint (row->max_ns[0], ==, row->max_ns[1]);
        }
    }
  g_assert_cmpuint (result->steps->len, ==, 3);
  /* Op tables only: no per-execution order to align. */
  g_assert_false (result->alignment.computed);
  g_assert_nonnull (result->alignment.reason);
  g_assert_nonnull (strstr (result->alignment.reason, ".db"));
}

static void
test_slower (void)
{
  g_autoptr(SlProfile) base = make_profile (0);
  g_autoptr(SlProfile) slower = make_profile (7 * US);
  g_autoptr(SlProfileCompare) result = compare (base, slower);
  const SlProfileCompareRow *top = g_ptr_array_index (result->op_types, 0);
  const SlProfileCompareRow *kernel = g_ptr_array_index (result->kernels, 0);
  const SlProfileCompareRow *matmul = find_row (result->op_types, "MatMul");

  /* Six Add executions, 7 µs each. */
  g_assert_cmpstr (top->type, ==, "Add");
  g_assert_cmpint (top->diff_ns, ==, 42 * US);
  g_assert_cmpint (top->total_ns[0], ==, 90 * US);
  g_assert_cmpint (top->total_ns[1], ==, 132 * US);
  g_assert_cmpfloat_with_epsilon (top->ratio, 132.0 / 90.0, 1e-12);
  g_assert_cmpint (top->avg_ns[1], ==, 22 * US);
  g_assert_cmpint (top->min_ns[1], ==, 17 * US);
  g_assert_cmpint (top->max_ns[1], ==, 27 * US);
  g_assert_cmpstr (kernel->type, ==, "Add");
  g_assert_cmpint (kernel->diff_ns, ==, 42 * US);
  g_assert_nonnull (matmul);
  g_assert_cmpint (matmul->diff_ns, ==, 0);
  for (guint i = 1; i < result->op_types->len; i++)
    g_assert_cmpint (((SlProfileCompareRow *)g_ptr_array_index (result->op_types, i))->diff_ns, ==, 0);
  /* 42 µs over three steps, all vector. */
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_VECTOR].diff_ns, ==, 14 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_COMPUTING].diff_ns, ==, 14 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_CUBE].diff_ns, ==, 0);

  /* The other way round it is an improvement, listed last. */
  {
    g_autoptr(SlProfileCompare) reverse = compare (slower, base);
    const SlProfileCompareRow *last = g_ptr_array_index (reverse->op_types, reverse->op_types->len - 1);

    g_assert_cmpstr (last->type, ==, "Add");
    g_assert_cmpint (last->diff_ns, ==, -42 * US);
  }
}

static SlProfile *
profile_with_steps (const gint64 *totals)
{
  SlProfile *profile = sl_profile_new ("/p");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MINDSPORE);

  add_steps (rank, totals);
  sl_profile_rank_finish (rank);
  return profile;
}

static void
test_noise (void)
{
  /* Medians 100 and 105, deviations 0, 10, 10, 5, 5 on each side: the
   * pooled median absolute deviation is 5 µs, so 3 MADs are 15 µs. */
  static const gint64 base_steps[] = { 100, 110, 90, 105, 95, 0 };
  static const gint64 near_steps[] = { 105, 115, 95, 110, 100, 0 };
  static const gint64 far_steps[] = { 130, 140, 120, 135, 125, 0 };
  static const gint64 short_steps[] = { 105, 115, 0 };
  g_autoptr(SlProfile) base = profile_with_steps (base_steps);
  g_autoptr(SlProfile) near = profile_with_steps (near_steps);
  g_autoptr(SlProfile) far = profile_with_steps (far_steps);
  g_autoptr(SlProfile) two = profile_with_steps (short_steps);
  g_autoptr(SlProfileCompare) noise = compare (base, near);
  g_autoptr(SlProfileCompare) regression = compare (base, far);
  g_autoptr(SlProfileCompare) unchecked = compare (base, two);
  const SlProfileCompareItem *item;

  item = &noise->items[SL_PROFILE_COMPARE_E2E];
  g_assert_cmpint (item->diff_ns, ==, 5 * US);
  g_assert_true (item->noise_checked);
  g_assert_cmpint (item->mad_ns, ==, 5 * US);
  g_assert_true (item->noise);
  g_assert_true (noise->items[SL_PROFILE_COMPARE_FP_BP].noise);

  item = &regression->items[SL_PROFILE_COMPARE_E2E];
  g_assert_cmpint (item->diff_ns, ==, 30 * US);
  g_assert_true (item->noise_checked);
  g_assert_cmpint (item->mad_ns, ==, 5 * US);
  g_assert_false (item->noise);

  /* Two steps are too few to tell. */
  item = &unchecked->items[SL_PROFILE_COMPARE_E2E];
  g_assert_false (item->noise_checked);
  g_assert_false (item->noise);
  g_assert_cmpint (item->mad_ns, ==, -1);
  g_assert_cmpint (item->diff_ns, ==, 10 * US);
  g_assert_cmpuint (unchecked->steps->len, ==, 5);
  g_assert_cmpint (g_array_index (unchecked->steps, SlProfileCompareStep, 4).comparison_step, ==, -1);
  g_assert_cmpint (g_array_index (unchecked->steps, SlProfileCompareStep, 4).base_ns[SL_PROFILE_COMPARE_E2E], ==, 95 * US);
  g_assert_cmpint (g_array_index (unchecked->steps, SlProfileCompareStep, 4).comparison_ns[SL_PROFILE_COMPARE_E2E], ==, -1);
  g_assert_cmpuint (unchecked->notes->len, >, 0);
  /* No op tables on either side: kernel items say why. */
  g_assert_nonnull (unchecked->items[SL_PROFILE_COMPARE_CUBE].reason);
  g_assert_cmpuint (unchecked->op_types->len, ==, 0);
}

static void
test_empty (void)
{
  g_autoptr(SlProfile) empty = sl_profile_new ("/e");
  g_autoptr(SlProfile) full = make_profile (0);
  g_autoptr(SlProfileCompare) result = NULL;
  g_autoptr(GError) error = NULL;
  SlProfileRank *rank = sl_profile_add_rank (empty, "/e", SL_PROFILE_LAYOUT_MINDSPORE);
  SlProfileCompareOptions options = { .base_rank = 0, .comparison_rank = 3 };
  SlStep odd = { .step = 1, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME, .fp_ns = SL_STEP_NO_TIME,
                 .bp_ns = SL_STEP_NO_TIME, .total_ns = -5, .data_wait_ns = SL_STEP_NO_TIME,
                 .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME };

  /* An empty step table and a step with a negative total. */
  rank->steps = sl_step_trace_new ("/e/step.csv", SL_STEP_SOURCE_MINDSPORE);
  sl_step_trace_add_step (rank->steps, &odd);
  add_op (rank, "Neg", "Neg", "AI_CORE", 2, -7);
  sl_profile_rank_finish (rank);

  result = compare (empty, full);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].source, ==, SL_PROFILE_COMPARE_FROM_NONE);
  g_assert_nonnull (result->items[SL_PROFILE_COMPARE_E2E].reason);
  for (guint i = 0; i < result->op_types->len; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (result->op_types, i);

      g_assert_cmpint (row->total_ns[0], >=, 0);
      g_assert_cmpint (row->total_ns[1], >=, 0);
    }
  g_clear_pointer (&result, sl_profile_compare_free);
  result = compare (full, empty);
  g_assert_nonnull (result->notes);
  g_clear_pointer (&result, sl_profile_compare_free);

  result = sl_profile_compare_compute (full, empty, &options, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_null (result);
  g_clear_error (&error);

  {
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();

    g_cancellable_cancel (cancellable);
    result = sl_profile_compare_compute (full, full, NULL, cancellable, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_null (result);
  }
}

/* A kernel_details.csv with NaN, negative and empty durations, loaded. */
static void
test_damaged_files (void)
{
  const char *kernels =
    "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
    "1,Add1,Add,AI_VECTOR_CORE,1.0,nan,0,40\n"
    "1,Add1,Add,AI_VECTOR_CORE,200.0,-30,0,40\n"
    "1,Mul1,Mul,AI_VECTOR_CORE,300.0,,0,40\n"
    "1,Mul1,Mul,AI_VECTOR_CORE,400.0,12,0,40\n";
  const char *steps = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                      "Communication(Not Overlapped and Exclude Receive),Preparing\n"
                      "1,nan,-3,0,0,500,0,0,0,0\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-profile-compare-XXXXXX", &error);
  g_autofree char *unit = g_build_filename (dir, "rank0_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *kernel_path = g_build_filename (output, "kernel_details.csv", NULL);
  g_autofree char *step_path = g_build_filename (output, "step_trace_time.csv", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlProfile) none = NULL;
  g_autoptr(SlProfileCompare) result = NULL;

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  g_assert_true (g_file_set_contents (kernel_path, kernels, -1, NULL));
  g_assert_true (g_file_set_contents (step_path, steps, -1, NULL));
  profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  result = compare (profile, profile);
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      const SlProfileCompareItem *item = &result->items[i];

      if (item->source == SL_PROFILE_COMPARE_FROM_NONE)
        continue;
      g_assert_cmpint (item->base_ns, >=, 0);
      g_assert_cmpint (item->diff_ns, ==, 0);
      g_assert_false (isnan (item->ratio));
    }
  for (guint i = 0; i < result->kernels->len; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (result->kernels, i);

      g_assert_cmpint (row->total_ns[0], >=, 0);
      g_assert_cmpint (row->diff_ns, ==, 0);
    }
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_FREE].base_ns, ==, 500 * US);

  none = sl_profile_load (missing, NULL, NULL, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (error);

  g_remove (kernel_path);
  g_remove (step_path);
  g_rmdir (output);
  g_rmdir (unit);
  g_rmdir (dir);
}

/* A timeline of @names (NULL-terminated) on stream 7, 10 µs apart from
 * @start_ns, the second step's ops after "|" and, on stream 8, @extra. */
static SlProfile *
profile_with_timeline (const char * const *names,
                       const char * const *extra)
{
  static const gint64 steps[] = { 1000, 1000, 0 };
  SlProfile *profile = sl_profile_new ("/db");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/db", SL_PROFILE_LAYOUT_DATABASE);
  SlTraceBuilder *builder = sl_trace_builder_new ("/db/msprof_0.db");
  guint process = sl_trace_builder_get_process (builder, "device 0");
  guint stream = sl_trace_builder_get_thread_track (builder, process, "7");
  guint other = sl_trace_builder_get_thread_track (builder, process, "8");
  guint32 category = sl_trace_builder_intern (builder, "KERNEL_AICORE", -1);
  gint64 ts = 0;

  sl_trace_builder_set_process_name (builder, process, "Ascend Hardware (NPU 0)");
  add_steps (rank, steps);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *type = NULL;

      if (g_str_equal (names[i], "|"))
        {
          ts = 1000 * US;
          continue;
        }
      type = g_strndup (names[i], strcspn (names[i], "-"));
      sl_trace_builder_add_slice (builder, stream, ts, 5 * US, sl_trace_builder_intern (builder, names[i], -1),
                                  category, SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
      add_op (rank, names[i], type, "AI_CORE", 1, 5 * US);
      ts += 10 * US;
    }
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    sl_trace_builder_add_slice (builder, other, i * 10 * US, 5 * US, sl_trace_builder_intern (builder, extra[i], -1),
                                category, SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
  rank->trace = G_OBJECT (sl_trace_builder_finish (builder, NULL));
  sl_profile_rank_finish (rank);
  return profile;
}

static void
test_alignment (void)
{
  static const char * const base_names[] = { "MatMul-op1", "Add-op2", "Cast-op3", "Add-op4", "|", "Sub-op5", NULL };
  static const char * const comparison_names[] = { "MatMul-op10", "Add-op20", "Mul-op25", "Cast-op30", "Add-op40",
                                                   "|", "Div-op50", "Div-op51", NULL };
  static const char * const extra[] = { "Send-op1", "Recv-op2", NULL };
  g_autoptr(SlProfile) base = profile_with_timeline (base_names, extra);
  g_autoptr(SlProfile) comparison = profile_with_timeline (comparison_names, NULL);
  g_autoptr(SlProfileCompare) result = compare (base, comparison);
  g_autoptr(SlProfileCompare) same = compare (base, base);

  /* The first steps: four ops in common (their indices differ), Mul only
   * in the comparison; stream 8 only in the baseline. */
  g_assert_true (result->alignment.computed);
  g_assert_null (result->alignment.reason);
  g_assert_cmpint (result->alignment.method, ==, SL_SEQUENCE_ALIGN_EXACT);
  g_assert_cmpuint (result->alignment.matched, ==, 4);
  g_assert_cmpuint (result->alignment.only_comparison, ==, 1);
  g_assert_cmpuint (result->alignment.only_base, ==, 2);
  g_assert_cmpuint (result->alignment.n_streams, ==, 1);
  g_assert_cmpstr (result->alignment.scope, ==, "step 1 against step 1");

  g_assert_cmpuint (same->alignment.matched, ==, 6);
  g_assert_cmpuint (same->alignment.only_base, ==, 0);
  g_assert_cmpuint (same->alignment.only_comparison, ==, 0);
  g_assert_cmpuint (same->alignment.n_streams, ==, 2);
}

/* A MindSpore profiler folder (op type totals) against an Ascend PyTorch
 * one (every execution): the kinds are named, op types compare by name,
 * and a type only one side has shows zero on the other. */
static void
test_mismatched_kinds (void)
{
  static const gint64 steps[] = { 1000, 1000, 1000, 0 };
  g_autoptr(SlProfile) mindspore = sl_profile_new ("/ms");
  g_autoptr(SlProfile) pytorch = sl_profile_new ("/pt");
  g_autoptr(SlProfileCompare) result = NULL;
  SlProfileRank *rank = sl_profile_add_rank (mindspore, "/ms", SL_PROFILE_LAYOUT_MINDSPORE);
  const SlProfileCompareRow *row;
  gboolean named = FALSE;
  SlOpRow *type;

  add_steps (rank, steps);
  type = sl_op_table_add_type (rank->ops, "MatMul", "AI_CORE");
  sl_op_row_set_totals (type, 18, 900 * US, -1, -1);
  type = sl_op_table_add_type (rank->ops, "BiasAdd", "AI_CORE");
  sl_op_row_set_totals (type, 3, 30 * US, -1, -1);
  sl_profile_rank_finish (rank);

  rank = sl_profile_add_rank (pytorch, "/pt", SL_PROFILE_LAYOUT_ASCEND_PT);
  add_steps (rank, steps);
  add_op (rank, "MatMul-op1", "MatMul", "AI_CORE", 18, 60 * US);
  add_op (rank, "Add-op2", "Add", "AI_VECTOR_CORE", 3, 10 * US);
  sl_profile_rank_finish (rank);

  result = compare (mindspore, pytorch);
  for (guint i = 0; i < result->notes->len; i++)
    named |= strstr (g_ptr_array_index (result->notes, i), "different kinds") != NULL;
  g_assert_true (named);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].source, ==, SL_PROFILE_COMPARE_FROM_STEPS);

  if ((row = find_row (result->op_types, "MatMul")) == NULL)
    g_error ("no %s row", "MatMul");
  g_assert_cmpint (row->total_ns[0], ==, 900 * US);
  g_assert_cmpint (row->total_ns[1], ==, 18 * 60 * US);
  if ((row = find_row (result->op_types, "BiasAdd")) == NULL)
    g_error ("no %s row", "BiasAdd");
  g_assert_cmpint (row->total_ns[1], ==, 0);
  if ((row = find_row (result->op_types, "Add")) == NULL)
    g_error ("no %s row", "Add");
  g_assert_cmpint (row->total_ns[0], ==, 0);
  /* MatMul is the largest difference: 1080 - 900 µs over the profile. */
  g_assert_cmpstr (((const SlProfileCompareRow *)g_ptr_array_index (result->op_types, 0))->type, ==, "MatMul");
}

/* Like make_profile (0), but as op_statistic.csv and kernel_details.csv
 * give it: the types table lists no communication op, the executions do;
 * a BroadcastTo on the vector units is computing, not a collective. With
 * @with_communication FALSE the export holds no communication op at all. */
static SlProfile *
make_text_export (gboolean with_communication)
{
  static const gint64 steps[] = { 1000, 1000, 1000, 0 };
  static const struct { const char *type, *core; guint n; gint64 each_ns; } types[] = {
    { "MatMul", "AI_CORE", 6, 50 * US }, { "Add", "AI_VECTOR_CORE", 6, 15 * US },
    { "Cast", "AI_CPU", 3, 5 * US }, { "BroadcastTo", "AI_VECTOR_CORE", 1, 2 * US },
  };
  SlProfile *profile = sl_profile_new ("/t");
  SlProfileRank *rank = sl_profile_add_rank (profile, "/t", SL_PROFILE_LAYOUT_ASCEND_PT);

  add_steps (rank, steps);
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    sl_op_row_set_totals (sl_op_table_add_type (rank->ops, types[i].type, types[i].core), types[i].n,
                          types[i].n * types[i].each_ns, types[i].each_ns, types[i].each_ns);
  add_op (rank, "MatMul-op1", "MatMul", "AI_CORE", 6, 50 * US);
  add_op (rank, "Add-op2", "Add", "AI_VECTOR_CORE", 3, 10 * US);
  add_op (rank, "Add-op3", "Add", "AI_VECTOR_CORE", 3, 20 * US);
  add_op (rank, "Cast-op4", "Cast", "AI_CPU", 3, 5 * US);
  add_op (rank, "BroadcastTo-op5", "BroadcastTo", "AI_VECTOR_CORE", 1, 2 * US);
  if (with_communication)
    add_op (rank, "hcom_allReduce__1", "hcom_allReduce_", "HCCL", 3, 100 * US);
  sl_profile_rank_finish (rank);
  return profile;
}

static void
test_communication (void)
{
  g_autoptr(SlProfile) base = make_profile (0);
  g_autoptr(SlProfile) text = make_text_export (TRUE);
  g_autoptr(SlProfile) bare = make_text_export (FALSE);
  g_autoptr(SlProfileCompare) like = compare (base, text);
  g_autoptr(SlProfileCompare) unlike = compare (base, bare);
  const SlProfileCompareItem *item = &like->items[SL_PROFILE_COMPARE_COMMUNICATION_KERNELS];
  const SlProfileCompareRow *row = find_row (like->op_types, "hcom_allReduce_");

  /* The executions' all-reduce is listed and counted although the type
   * table leaves it out; BroadcastTo is a vector kernel. */
  g_assert_true (row != NULL && row->count[1] == 3 && row->total_ns[1] == 300 * US);
  g_assert_null (item->reason);
  g_assert_false (item->not_comparable);
  g_assert_cmpint (item->base_ns, ==, 100 * US);
  g_assert_cmpint (item->comparison_ns, ==, 100 * US);
  g_assert_cmpint (like->items[SL_PROFILE_COMPARE_VECTOR].comparison_ns, ==, (90 + 2) * US / 3);

  /* A side without any communication op is not a 0.000× gain. */
  item = &unlike->items[SL_PROFILE_COMPARE_COMMUNICATION_KERNELS];
  g_assert_true (item->not_comparable);
  g_assert_true (item->reason != NULL && g_str_has_prefix (item->reason, "Not comparable"));
  g_assert_cmpint (item->diff_ns, ==, -1);
  g_assert_true (isnan (item->ratio));
  g_assert_false (unlike->items[SL_PROFILE_COMPARE_VECTOR].not_comparable);
}

static void
test_op_key (void)
{
  g_autofree char *a = sl_profile_compare_op_key ("Default/network/layer3/MatMul-op123", "MatMul", "2,3");
  g_autofree char *b = sl_profile_compare_op_key ("Default/network/layer7/MatMul-op9", "MatMul", "2,3");
  g_autofree char *c = sl_profile_compare_op_key ("Add_12", "Add", NULL);
  g_autofree char *d = sl_profile_compare_op_key ("123", "", "");

  g_assert_cmpstr (a, ==, "MatMul|MatMul|2,3");
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (c, ==, "Add|Add|");
  g_assert_cmpstr (d, ==, "123||");
}

/* A MindSpore profiler folder holding @step_trace as device 0's step trace. */
static SlProfile *
load_mindspore_steps (const char *step_trace,
                      char      **dir_out)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-profile-compare-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "step_trace_raw_0_detail_time.csv", NULL);
  SlProfile *profile;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, step_trace, -1, NULL));
  profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  *dir_out = dir;
  return profile;
}

/* MindSpore writes the first step's iteration interval as 0 (the step
 * starts at its forward pass): it is not a wait of 0, so a side with that
 * step alone has no data wait to compare, and says why. */
static void
test_mindspore_first_step (void)
{
  const char *header = "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n";
  g_autofree char *three = g_strconcat (header,
                                        "1,1000,5000,4000,1000,3000,0,2000,2000\n"
                                        "2,5000,12000,7000,8000,10000,3000,2000,2000\n"
                                        "3,12000,19000,7000,15000,17000,3000,2000,2000\n", NULL);
  g_autofree char *one = g_strconcat (header, "1,1000,5000,4000,1000,3000,0,2000,2000\n", NULL);
  g_autofree char *base_dir = NULL;
  g_autofree char *comparison_dir = NULL;
  g_autoptr(SlProfile) base = load_mindspore_steps (three, &base_dir);
  g_autoptr(SlProfile) comparison = load_mindspore_steps (one, &comparison_dir);
  g_autoptr(SlProfileCompare) result = compare (base, comparison);
  g_autoptr(SlProfileCompare) same = compare (base, base);
  const SlProfileCompareItem *wait = &result->items[SL_PROFILE_COMPARE_DATA_WAIT];
  const SlProfileCompareItem *tail = &result->items[SL_PROFILE_COMPARE_TAIL];

  g_assert_cmpint (wait->source, ==, SL_PROFILE_COMPARE_FROM_NONE);
  g_assert_nonnull (strstr (wait->reason, "first step"));
  g_assert_nonnull (strstr (wait->reason, "comparison"));
  g_assert_cmpint (wait->base_ns, ==, -1);
  /* The other phases of that step are measured and compared. */
  g_assert_cmpint (tail->source, ==, SL_PROFILE_COMPARE_FROM_STEPS);
  g_assert_cmpint (tail->comparison_ns, ==, 20000);
  /* Steps 2 and 3 waited 30 µs each; step 1's 0 is not in the mean. */
  g_assert_cmpint (same->items[SL_PROFILE_COMPARE_DATA_WAIT].base_ns, ==, 30000);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *path = g_build_filename (i == 0 ? base_dir : comparison_dir,
                                                "step_trace_raw_0_detail_time.csv", NULL);

      g_remove (path);
    }
  g_rmdir (base_dir);
  g_rmdir (comparison_dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile-compare/self", test_self);
  g_test_add_func ("/profile-compare/slower", test_slower);
  g_test_add_func ("/profile-compare/noise", test_noise);
  g_test_add_func ("/profile-compare/empty", test_empty);
  g_test_add_func ("/profile-compare/damaged-files", test_damaged_files);
  g_test_add_func ("/profile-compare/alignment", test_alignment);
  g_test_add_func ("/profile-compare/op-key", test_op_key);
  g_test_add_func ("/profile-compare/communication", test_communication);
  g_test_add_func ("/profile-compare/mismatched-kinds", test_mismatched_kinds);
  g_test_add_func ("/profile-compare/mindspore-first-step", test_mindspore_first_step);
  return g_test_run ();
}
