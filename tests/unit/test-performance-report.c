/* test-performance-report.c: the model performance report from a
 * kernel_details.csv read by the real loader, every figure against the
 * value worked out by hand; a profile without the metrics (each figure
 * says what to collect); damaged numbers; and the advisor attaching one
 * section per rank.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-advisor.h"
#include "sl-performance-report.h"
#include "sl-profile-loader.h"

/* MatMul: 100 µs, 80 µs on the cube cores, block dim 20 on 16 cores (two
 * waves, 62.5 % used); 8e6 cube operations; 100 GB/s read and 50 GB/s
 * written for 80 µs (8 MB, 4 MB) against 4 KB of tensors.
 * Add: 300 µs, 150 µs on the vector cores, block dim 32 on 32 cores;
 * 3e6 vector operations; 20 GB/s each way for 150 µs (3 MB, 3 MB) against
 * 12 KB of tensors. The AI CPU op measured nothing. */
static const char metrics_csv[] =
  "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,"
  "Input Shapes,Input Data Types,Output Shapes,Output Data Types,aicore_time(us),aiv_time(us),"
  "aic_mac_ratio,aiv_vec_ratio,aic_scalar_ratio,aiv_scalar_ratio,aic_mte1_ratio,aic_mte2_ratio,aiv_mte2_ratio,aiv_mte3_ratio,"
  "aic_cube_fops,aiv_vector_fops,aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s),"
  "aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s)\n"
  "1,MatMul_1,MatMul,AI_CORE,0,100,0,20,\"1024\",FLOAT16,\"1024\",FLOAT16,80,,"
  "0.9,,0.1,,0.2,0.5,,,8000000,0,100,50,,\n"
  "1,Add_1,Add,AI_VECTOR_CORE,200,300,0,32,\"1000;1000\",FLOAT;FLOAT,\"1000\",FLOAT,,150,"
  ",0.3,,0.1,,,0.6,0.2,,3000000,,,20,20\n"
  "1,Where_1,Where,AI_CPU,600,50,0,1,\"8\",INT64,\"8\",INT64,,,,,,,,,,,,,,,,\n";

static char *
write_profile (const char *csv)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-performance-XXXXXX", &error);
  g_autofree char *output = g_build_filename (dir, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *path = g_build_filename (output, "kernel_details.csv", NULL);

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, csv, -1, NULL));
  return dir;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static GPtrArray *
load_instances (const char  *dir,
                SlProfile  **profile_out)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  const SlProfileRank *rank;
  GListModel *model;
  GPtrArray *rows;

  g_assert_no_error (error);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  model = sl_op_table_get_instances (rank->ops);
  rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (rows, g_list_model_get_item (model, i));
  *profile_out = profile;
  return rows;
}

static const SlPerformanceItem *
item (const SlPerformanceSection *section,
      const char                 *key)
{
  const SlPerformanceItem *found = sl_performance_section_lookup (section, key);

  g_assert_nonnull (found);
  g_assert_nonnull (found->how);
  g_assert_cmpstr (found->how, !=, "");
  return found;
}

static void
assert_value (const SlPerformanceSection *section,
              const char                 *key,
              double                      expected,
              SlPerformanceStatus         status,
              guint                       n_ops)
{
  const SlPerformanceItem *found = item (section, key);

  g_test_message ("%s = %g (expected %g)", key, found->value, expected);
  g_assert_true (isfinite (found->value));
  g_assert_cmpfloat_with_epsilon (found->value, expected, fabs (expected) * 1e-9 + 1e-12);
  g_assert_cmpint (found->status, ==, status);
  g_assert_cmpuint (found->n_ops, ==, n_ops);
  g_assert_null (found->missing);
}

static void
test_figures (void)
{
  g_autofree char *dir = write_profile (metrics_csv);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GPtrArray) rows = load_instances (dir, &profile);
  g_autoptr(SlPerformanceReport) report = sl_performance_report_new ();
  SlPerformanceCores cores = { .cube_cores = 16, .vector_cores = 32 };
  const SlPerformanceSection *section;
  const SlPerformanceItem *found;
  g_autofree char *text = NULL;

  sl_performance_report_add_rank (report, "rank 0", rows, &cores);
  g_assert_cmpuint (sl_performance_report_get_n_sections (report), ==, 1);
  section = sl_performance_report_get_section (report, 0);
  g_assert_cmpstr (section->rank_label, ==, "rank 0");

  /* 8e6 operations in 80 µs, 3e6 in 150 µs. */
  assert_value (section, "cube_throughput_gops", 100.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "vector_throughput_gops", 20.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "aicore_time_us", 230.0, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "task_duration_us", 400.0, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "aicore_task_percent", 57.5, SL_PERFORMANCE_STATUS_NONE, 2);
  /* MatMul (62.5 %, 100 µs) and Add (100 %, 300 µs). */
  assert_value (section, "block_dim_usage_percent", 90.625, SL_PERFORMANCE_STATUS_NONE, 2);
  found = item (section, "block_dim_usage_percent");
  g_assert_cmpstr (found->worst_ops[0], ==, "MatMul_1");
  g_assert_null (found->worst_ops[1]);
  /* Busiest pipes 0.9 and 0.6 weighted 100 and 300: red below 80 %. */
  assert_value (section, "pipeline_utilization_percent", 67.5, SL_PERFORMANCE_STATUS_BAD, 2);
  found = item (section, "pipeline_utilization_percent");
  g_assert_cmpstr (found->worst_ops[0], ==, "Add_1");
  g_assert_null (found->worst_ops[1]);
  g_assert_nonnull (found->threshold);
  assert_value (section, "cube_ratio_percent", 90.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "vector_ratio_percent", 30.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "scalar_ratio_percent", 10.0, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "mte1_ratio_percent", 20.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "mte2_ratio_percent", 57.5, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "mte3_ratio_percent", 20.0, SL_PERFORMANCE_STATUS_NONE, 1);
  /* (0.5 x 100 + 0.6 x 300) / (0.9 x 100 + 0.3 x 300) */
  assert_value (section, "memory_bound", 230.0 / 180.0, SL_PERFORMANCE_STATUS_BAD, 2);
  found = item (section, "memory_bound");
  g_assert_cmpstr (found->worst_ops[0], ==, "Add_1");
  g_assert_null (found->worst_ops[1]);
  /* 4,096 + 12,000 bytes of tensors against 18 MB really moved. */
  assert_value (section, "memory_redundancy_percent", 100.0 * 16096.0 / 18e6, SL_PERFORMANCE_STATUS_BAD, 2);
  found = item (section, "memory_redundancy_percent");
  g_assert_cmpstr (found->worst_ops[0], ==, "Add_1");
  g_assert_cmpstr (found->worst_ops[1], ==, "MatMul_1");
  assert_value (section, "memory_read_gb", 0.011, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "memory_write_gb", 0.007, SL_PERFORMANCE_STATUS_NONE, 2);
  g_assert_true (g_str_has_suffix (found->file, "kernel_details.csv"));

  text = sl_performance_item_format_value (item (section, "pipeline_utilization_percent"));
  g_assert_cmpstr (text, ==, "67.5 %");
  g_clear_pointer (&text, g_free);
  text = sl_performance_item_format_value (item (section, "aicore_time_us"));
  g_assert_cmpstr (text, ==, "230 µs");

  remove_tree (dir);
}

/* Only what every kernel_details.csv has: each figure says why it is
 * missing and names the metric set to collect. */
static void
test_missing_metrics (void)
{
  g_autofree char *dir = write_profile ("Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
                                        "MatMul_1,MatMul,AI_CORE,0,100\n"
                                        "Add_1,Add,AI_VECTOR_CORE,200,300\n");
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GPtrArray) rows = load_instances (dir, &profile);
  g_autoptr(SlPerformanceReport) report = sl_performance_report_new ();
  const SlPerformanceSection *section;

  sl_performance_report_add_rank (report, "rank 0", rows, NULL);
  section = sl_performance_report_get_section (report, 0);
  g_assert_cmpuint (section->items->len, >=, 17);
  for (guint i = 0; i < section->items->len; i++)
    {
      const SlPerformanceItem *missing = g_ptr_array_index (section->items, i);
      g_autofree char *text = sl_performance_item_format_value (missing);

      g_test_message ("%s: %s", missing->key, missing->missing);
      g_assert_false (isfinite (missing->value));
      g_assert_cmpint (missing->status, ==, SL_PERFORMANCE_STATUS_NONE);
      g_assert_cmpuint (missing->n_ops, ==, 0);
      g_assert_nonnull (missing->missing);
      g_assert_cmpstr (text, ==, "—");
    }
  g_assert_nonnull (strstr (item (section, "pipeline_utilization_percent")->missing, "PipeUtilization"));
  g_assert_nonnull (strstr (item (section, "cube_throughput_gops")->missing, "ArithmeticUtilization"));
  g_assert_nonnull (strstr (item (section, "memory_redundancy_percent")->missing, "aic-metrics=Memory"));
  g_assert_nonnull (strstr (item (section, "aicore_time_us")->missing, "aicore_time"));
  g_assert_nonnull (strstr (item (section, "block_dim_usage_percent")->missing, "Block Dim"));

  remove_tree (dir);
}

/* NaN, negative and out-of-range metrics are not measurements, and the
 * cores are never busy longer than the task (a file had minutes of
 * aicore_time on a 2 µs task). */
static void
test_damaged_numbers (void)
{
  g_autofree char *dir = write_profile (
    "Name,Type,Accelerator Core,Duration(us),Block Dim,aicore_time(us),aic_mac_ratio,aic_mte2_ratio,"
    "aic_cube_fops,aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s)\n"
    "A_1,A,AI_CORE,2,8,242610690,NaN,1.5,-5,nan,-1\n"
    "B_1,B,AI_CORE,10,-3,5,0.5,0.25,inf,10,N/A\n");
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GPtrArray) rows = load_instances (dir, &profile);
  g_autoptr(SlPerformanceReport) report = sl_performance_report_new ();
  SlPerformanceCores cores = { .cube_cores = 8, .vector_cores = -1 };
  const SlPerformanceSection *section;

  sl_performance_report_add_rank (report, "rank 0", rows, &cores);
  section = sl_performance_report_get_section (report, 0);
  /* A: 2 µs of core time at most; B: 5 µs. */
  assert_value (section, "aicore_time_us", 7.0, SL_PERFORMANCE_STATUS_NONE, 2);
  assert_value (section, "aicore_task_percent", 100.0 * 7.0 / 12.0, SL_PERFORMANCE_STATUS_NONE, 2);
  /* Only B's ratios are measurements. */
  assert_value (section, "cube_ratio_percent", 50.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "mte2_ratio_percent", 25.0, SL_PERFORMANCE_STATUS_NONE, 1);
  assert_value (section, "memory_bound", 0.5, SL_PERFORMANCE_STATUS_GOOD, 1);
  /* A negative block dim is no block dim: only A counts (8 on 8 cores). */
  assert_value (section, "block_dim_usage_percent", 100.0, SL_PERFORMANCE_STATUS_NONE, 1);
  /* No finite, non-negative operation count at all. */
  g_assert_nonnull (item (section, "cube_throughput_gops")->missing);
  /* B read 10 GB/s for 5 µs; its write and all of A's are damaged. */
  assert_value (section, "memory_read_gb", 10e9 * 5e-6 / 1e9, SL_PERFORMANCE_STATUS_NONE, 1);

  remove_tree (dir);
}

/* Measured traffic 500 times smaller than the tensors, as a real Memory
 * run gave: 49,944.7 % redundancy graded green next to 0.000 GB read. It
 * cannot be physical, so it is reported with its rows, never graded. */
static void
test_suspect_traffic (void)
{
  g_autofree char *dir = write_profile (
    "Name,Type,Accelerator Core,Duration(us),aicore_time(us),Input Shapes,Input Data Types,Output Shapes,"
    "Output Data Types,aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s)\n"
    "Mul_1,Mul,AI_CORE,100,80,\"1024,1024\",FLOAT16,\"1024,1024\",FLOAT16,0.05,0.05\n"
    "Add_1,Add,AI_CORE,100,80,\"1024\",FLOAT16,\"1024\",FLOAT16,100,50\n");
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GPtrArray) rows = load_instances (dir, &profile);
  g_autoptr(SlPerformanceReport) report = sl_performance_report_new ();
  const SlPerformanceSection *section;
  const char *keys[] = { "memory_redundancy_percent", "memory_read_gb", "memory_write_gb" };

  sl_performance_report_add_rank (report, "rank 0", rows, NULL);
  section = sl_performance_report_get_section (report, 0);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const SlPerformanceItem *found = item (section, keys[i]);

      g_assert_true (isnan (found->value));
      g_assert_cmpint (found->status, ==, SL_PERFORMANCE_STATUS_NONE);
      g_assert_null (found->threshold);
      g_assert_null (found->missing);
      g_assert_nonnull (found->suspect);
      /* Mul_1 (line 2: 4 MB of tensors, 8 KB measured) is named with its row; Add_1 is not. */
      g_assert_nonnull (strstr (found->suspect, "kernel_details.csv:2 (Mul_1): tensors 4.194 MB, measured traffic 0.008 MB"));
      g_assert_null (strstr (found->suspect, "Add_1"));
    }
  g_assert_true (g_str_has_prefix (item (section, "memory_redundancy_percent")->suspect, "Suspect data: 1 op measured"));
  /* The other figures are graded as before. */
  g_assert_true (isfinite (item (section, "aicore_time_us")->value));

  remove_tree (dir);
}

static void
test_advisor_attaches_sections (void)
{
  g_autofree char *dir = write_profile (metrics_csv);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_autoptr(SlAdvisorRuleBook) book = sl_advisor_rule_book_new_default (&error);
  g_autoptr(SlAdvisorReport) report = NULL;
  SlPerformanceReport *performance;
  const SlPerformanceSection *section;

  g_assert_no_error (error);
  report = sl_advisor_run (profile, book, NULL, &error);
  g_assert_no_error (error);
  performance = sl_advisor_report_get_performance (report);
  g_assert_cmpuint (sl_performance_report_get_n_sections (performance), ==, 1);
  section = sl_performance_report_get_section (performance, 0);
  g_assert_cmpstr (section->rank_label, ==, sl_profile_get_rank (profile, 0)->label);
  assert_value (section, "pipeline_utilization_percent", 67.5, SL_PERFORMANCE_STATUS_BAD, 2);
  /* No device info: block dim usage says so instead of guessing. */
  g_assert_nonnull (strstr (item (section, "block_dim_usage_percent")->missing, "ai_core_num"));

  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/performance-report/figures", test_figures);
  g_test_add_func ("/performance-report/missing-metrics", test_missing_metrics);
  g_test_add_func ("/performance-report/damaged-numbers", test_damaged_numbers);
  g_test_add_func ("/performance-report/advisor-attaches-sections", test_advisor_attaches_sections);
  g_test_add_func ("/performance-report/suspect-traffic", test_suspect_traffic);

  return g_test_run ();
}
