/* test-profile.c: the profile loader on generated folders of every layout
 * (MindSpore, msprof, Ascend PyTorch, cluster, SQLite export), checking
 * values and unit conversions, damage reporting, the asynchronous path and
 * the list of timeline files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "sl-profile-loader.h"
#include "sl-trace.h"

static void
write_file (const char *dir,
            const char *rel,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
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
        g_remove (child);
    }
  g_rmdir (path);
}

static SlProfile *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* The trace's phases, bottom first: key, name pairs, NULL-terminated. */
static void
assert_phases (SlStepTrace *trace,
               ...)
{
  va_list args;
  const char *key;
  guint n = 0;

  va_start (args, trace);
  while ((key = va_arg (args, const char *)) != NULL)
    {
      const char *name = va_arg (args, const char *);

      g_assert_cmpuint (sl_step_trace_get_n_phases (trace), >, n);
      g_assert_cmpstr (sl_step_trace_get_phase_key (trace, n), ==, key);
      g_assert_cmpstr (sl_step_trace_get_phase_name (trace, n), ==, name);
      g_assert_cmpint (sl_step_trace_find_phase (trace, key), ==, (int)n);
      n++;
    }
  va_end (args);
  g_assert_cmpuint (sl_step_trace_get_n_phases (trace), ==, n);
}

static SlOpRow *
find_row (GListModel *model,
          const char *name,
          const char *core_type)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (model, i);

      if (g_str_equal (sl_op_row_get_name (row), name) &&
          (core_type == NULL || g_str_equal (sl_op_row_get_core_type (row), core_type)))
        return row;
    }
  return NULL;
}

static const char ms_step_trace[] =
  "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,"
  "stream_10_parallel_0_start_point,stream_10_parallel_0_end_point,stream_10_parallel_0\n"
  "1,1000,5000,4000,1000,3000,0,2000,2000,1100,1200,100\n"
  "2,5000,12000,7000,8000,10000,3000,2000,2000,8100,8300,200\n"
  "-,3000,8500,5500,4500,6500,1500,2000,2000,4600,4750,150\n";

static void
test_profile_mindspore (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "profiler", NULL);
  g_autoptr(SlProfile) profile = NULL;
  const SlProfileRank *rank;
  const SlStep *step, *average;
  SlStep computed;
  SlOpRow *row;

  write_file (dir, "step_trace_raw_0_detail_time.csv", ms_step_trace);
  write_file (dir, "aicore_intermediate_0_type.csv",
              "kernel_type,total_time,execution_frequency,percent\nMatMul,1.085,9,73.80\nCast,0.25,2,26.20\n");
  write_file (dir, "aicore_intermediate_0_detail.csv",
              "full_kernel_name,execution_time,execution_frequency\n"
              "Default/fc3-Dense/MatMul-op9,0.370864,2\nDefault/Cast-op6,0.125,2\n");
  /* Cube and vector units apart, padded as MindSpore writes them. */
  write_file (dir, "flops_0.txt",
              "full_kernel_name, MFLOPs(10^6 cube), GFLOPS(10^9 cube), MFLOPs(10^6 vector), GFLOPS(10^9 vector)\n"
              "Default/fc3-Dense/MatMul-op9, 2.5, 10.0, 0.5, 1.5\n"
              "Default/not-an-op, 1, 1, 1, 1\n");
  write_file (dir, "aicpu_intermediate_0.csv",
              "serial_number,kernel_type,total_time,dispatch_time,execution_time,run_start,run_end\n"
              "1,GetNext,0.888,0.132,0.22,1,2\n2,GetNext,0.112,0.1,0.1,3,4\n");
  write_file (dir, "framework_raw_0.csv",
              "task_id,stream_id,block_dim,full_kernel_name,op_name,kernel_name,kernel_type,subgraph,op_info\n"
              "7,3,32,Default/fc3-Dense/MatMul-op9,x,MatMul-op9,MatMul,Default,"
              "\"{\"\"input_0\"\": {\"\"format\"\": \"\"NCHW\"\", \"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": \"\"32,120\"\"},"
              " \"\"input_1\"\": {\"\"format\"\": \"\"FRACTAL_NZ\"\", \"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": \"\"84,120\"\"},"
              " \"\"output_0\"\": {\"\"format\"\": \"\"NCHW\"\", \"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT32\"\", \"\"shape\"\": \"\"32,84\"\"}}\"\n");
  write_file (dir, "ascend_timeline_summary_0.json",
              "{\"total_time\": 23147.0, \"num_of_streams\": 4, \"num_of_ops\": 213, \"op_exe_times\": 112}");
  write_file (dir, "profiler_info_0.json", "{\"rank_id\": 3, \"rank_size\": 8, \"ms_version\": \"2.2\"}");
  /* A second device with only a step trace, and a damaged one. */
  write_file (dir, "step_trace_raw_1_detail_time.csv", ms_step_trace);
  write_file (dir, "aicore_intermediate_2_type.csv", "kernel_type,total_time\nMatMul,abc\nAdd,1.5\n");

  profile = load (dir);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 3);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpint (rank->layout, ==, SL_PROFILE_LAYOUT_MINDSPORE);
  g_assert_cmpint (rank->device_id, ==, 0);
  g_assert_cmpint (rank->rank_id, ==, 3);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "ms_version"), ==, "2.2");

  /* Steps: ticks of 10 ns, the "-" row is the file's average, not a step. */
  g_assert_nonnull (rank->steps);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 2);
  step = sl_step_trace_get_step (rank->steps, 1);
  g_assert_cmpint (step->step, ==, 2);
  g_assert_cmpint (step->start_ns, ==, 50000);
  g_assert_cmpint (step->end_ns, ==, 120000);
  g_assert_cmpint (step->total_ns, ==, 70000);
  g_assert_cmpint (step->data_wait_ns, ==, 30000);
  g_assert_cmpint (step->fp_bp_ns, ==, 20000);
  g_assert_cmpint (step->tail_ns, ==, 20000);
  g_assert_cmpint (step->data_wait_ns + step->fp_bp_ns + step->tail_ns, ==, step->total_ns);
  g_assert_cmpuint (sl_step_trace_get_n_extra_columns (rank->steps), ==, 4);
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 2), ==, "stream_10_parallel_0");
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 1, 2), ==, 2000);
  /* The reduce stream's points give the step's communication */
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 3), ==, SL_STEP_EXTRA_COMMUNICATION);
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 1, 3), ==, 2000);
  average = sl_step_trace_get_file_average (rank->steps);
  g_assert_nonnull (average);
  g_assert_cmpint (average->total_ns, ==, 55000);
  sl_step_trace_compute_average (rank->steps, &computed);
  g_assert_cmpint (computed.total_ns, ==, 55000);
  /* Step 1's iteration interval is 0 by construction (it starts at its
   * forward pass): not a measured wait, so the mean is step 2's alone. */
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->data_wait_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (computed.data_wait_ns, ==, 30000);
  /* iteration_interval, fp_and_bp and tail are the data wait, FP+BP and tail. */
  assert_phases (rank->steps, "data_wait", "Data wait", "fp_bp", "FP+BP", "tail", "Tail", NULL);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 1, 2), ==, 20000);
  g_assert_cmpint (sl_step_trace_get_phase_average (rank->steps, 0), ==, 30000);

  /* Types: ms to ns, percent kept; AI CPU types added from executions. */
  row = find_row (sl_op_table_get_types (rank->ops), "MatMul", "AI_CORE");
  g_assert_nonnull (row);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 1085000);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 9);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 73.8, 1e-9);
  row = find_row (sl_op_table_get_types (rank->ops), "GetNext", "AI_CPU");
  g_assert_nonnull (row);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 1000000);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 112000);
  g_assert_cmpint (sl_op_row_get_max_ns (row), ==, 888000);

  /* Instances: the detail time is an average; framework_raw adds the rest. */
  row = find_row (sl_op_table_get_instances (rank->ops), "Default/fc3-Dense/MatMul-op9", NULL);
  g_assert_nonnull (row);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 741728);
  g_assert_cmpint (sl_op_row_get_avg_ns (row), ==, 370864);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 32);
  g_assert_cmpint (sl_op_row_get_stream_id (row), ==, 3);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "MatMul");
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,120;84,120");
  g_assert_cmpstr (sl_op_row_get_input_formats (row), ==, "NCHW;FRACTAL_NZ");
  g_assert_cmpstr (sl_op_row_get_output_dtypes (row), ==, "NUMBER_TYPE_FLOAT32");
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_mflops (row), 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_gflops_rate (row), 11.5, 1e-9);
  row = find_row (sl_op_table_get_instances (rank->ops), "Default/Cast-op6", NULL);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "Cast");
  g_assert_cmpfloat (sl_op_row_get_mflops (row), <, 0);

  /* The list model's rows are objects with properties. */
  {
    g_autoptr(SlOpRow) first = g_list_model_get_item (sl_op_table_get_types (rank->ops), 0);
    gint64 total = 0;

    g_assert_true (g_list_model_get_item_type (sl_op_table_get_types (rank->ops)) == SL_TYPE_OP_ROW);
    g_object_get (first, "total-ns", &total, NULL);
    g_assert_cmpint (total, ==, 1085000);
  }

  g_assert_cmpint (rank->summary.total_ns, ==, 110000);
  g_assert_cmpuint (rank->summary.n_streams, ==, 4);
  /* MindSpore's files measure no core time: the AI_CORE ops' task time
   * is given as that, never as an AI Core time. */
  g_assert_cmpint (rank->summary.core_busy_ns, ==, -1);
  g_assert_cmpint (rank->summary.aicore_ops_ns, ==, 1335000);
  g_assert_cmpuint (rank->summary.n_op_executions, ==, 13);

  g_assert_cmpint (sl_profile_get_rank (profile, 1)->device_id, ==, 1);
  g_assert_cmpuint (sl_step_trace_get_n_steps (sl_profile_get_rank (profile, 1)->steps), ==, 2);

  /* The damaged row is reported with its offset, the good one kept. */
  rank = sl_profile_get_rank (profile, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
  {
    g_autoptr(SlProblem) problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);

    g_assert_true (g_str_has_suffix (sl_problem_get_path (problem), "aicore_intermediate_2_type.csv"));
    g_assert_cmpint (sl_problem_get_offset (problem), ==, 23);
  }

  remove_tree (tmp);
}

/* Older MindSpore step traces name each communication op:
 * stream_<s>_<k>_<Op>-op<N> with its start and end points. The time the
 * step spends in communication is the union of the ops' spans. */
static void
test_profile_mindspore_comm_ops (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autoptr(SlProfile) profile = NULL;
  const SlProfileRank *rank;
  int comm = -1;

  write_file (tmp, "profiler/step_trace_raw_4_detail_time.csv",
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,"
              "stream_11_0_Receive-op2068,stream_11_0_Receive-op2068_start_point,stream_11_0_Receive-op2068_end_point,"
              "stream_50_0_AllReduce-op17460,stream_50_0_AllReduce-op17460_start_point,stream_50_0_AllReduce-op17460_end_point,"
              "stream_51_0_AllReduce-op17470,stream_51_0_AllReduce-op17470_start_point,stream_51_0_AllReduce-op17470_end_point\n"
              /* Receive 1100-1600; AllReduces 3000-3400 and 3200-3900 overlap: 500 + 900 ticks */
              "1,1000,5000,4000,1000,3000,0,2000,2000,500,1100,1600,400,3000,3400,700,3200,3900\n"
              /* An op past the step's end is cut at the end; one without points is left out */
              "2,5000,9000,4000,5000,7000,0,2000,2000,100,5100,5200,3000,8500,11500,0,0,0\n"
              /* No op with points at all */
              "3,9000,9500,500,9000,9200,0,200,300,0,0,0,0,0,0,0,0,0\n"
              "-,5000,7833,2833,5000,6400,0,1400,1433,200,1000,1100,200,3000,3200,200,3200,3400\n");

  profile = load (tmp);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 3);
  for (guint c = 0; c < sl_step_trace_get_n_extra_columns (rank->steps); c++)
    if (g_str_equal (sl_step_trace_get_extra_name (rank->steps, c), SL_STEP_EXTRA_COMMUNICATION))
      comm = (int)c;
  g_assert_cmpint (comm, ==, 9);

  /* Ticks of 10 ns */
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, comm), ==, (500 + 900) * 10);
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 1, comm), ==, (100 + 500) * 10);
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 2, comm), ==, SL_STEP_NO_TIME);
  /* The ops stay extras as the file names them */
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 3), ==, "stream_50_0_AllReduce-op17460");
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, 3), ==, 4000);

  remove_tree (tmp);
}

static void
test_profile_msprof (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *prof = g_build_filename (tmp, "PROF_000001_20240101_ABC", NULL);
  g_autoptr(SlProfile) profile = NULL;
  const SlProfileRank *rank;
  const SlStep *step;
  SlOpRow *row;

  write_file (prof, "device_0/info.json.0", "{\"hostname\": \"node1\", \"DeviceInfo\": [{\"id\": 0, \"ai_core_num\": 32}]}");
  write_file (prof, "mindstudio_profiler_output/op_summary_20240101.csv",
              "Device_id,Model Name,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),"
              "Block Num,Input Shapes,Stream ID,aicore_time(us)\n"
              "0,m,MatMul1,MatMul,AI_CORE,1000.5,10.5,1.25,24,\"\"\"32,64\"\"\",3,9.5\n"
              "0,m,MatMul1,MatMul,AI_CORE,1020.5,11.5,0.75,24,\"\"\"32,64\"\"\",3,10.5\n"
              "0,m,Add2,Add,AI_VECTOR_CORE,1040,2,N/A,8,\"\"\"4\"\"\",4,N/A\n");
  write_file (prof, "mindstudio_profiler_output/op_statistic_20240101.csv",
              "Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Avg Time(us),Min Time(us),Max Time(us),Ratio(%)\n"
              "0,m,MatMul,AI_CORE,2,22,11,10.5,11.5,91.67\n0,m,Add,AI_VECTOR_CORE,1,2,2,2,2,8.33\n");
  write_file (prof, "mindstudio_profiler_output/step_trace_20240101.csv",
              "Device_id,Iteration ID,FP Start(us),BP End(us),Iteration End(us),Iteration Time(us),FP to BP Time(us),"
              "Iteration Refresh(us),Data Aug Bound(us),Model ID,Reduce Start(us),Reduce Duration(us)\n"
              "0,1,1000,1040,1050,60,40,10,10,1,1041,5\n");
  write_file (prof, "mindstudio_profiler_output/api_statistic_20240101.csv",
              "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n0,acl,aclopCompile,30.5,3,10.2,7,14,1\n");
  write_file (prof, "mindstudio_profiler_output/msprof_20240101.json", "[]");

  profile = load (tmp);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpint (rank->layout, ==, SL_PROFILE_LAYOUT_MSPROF);
  g_assert_cmpint (rank->device_id, ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "DeviceInfo.0.ai_core_num"), ==, "32");

  step = sl_step_trace_get_step (rank->steps, 0);
  g_assert_cmpint (step->total_ns, ==, 60000);
  g_assert_cmpint (step->fp_bp_ns, ==, 40000);
  g_assert_cmpint (step->tail_ns, ==, 10000);
  g_assert_cmpint (step->data_wait_ns, ==, 10000);
  g_assert_cmpint (step->start_ns, ==, 990000);
  /* Data Aug Bound, FP to BP Time and Iteration Refresh: the same phases as MindSpore's. */
  assert_phases (rank->steps, "data_wait", "Data wait", "fp_bp", "FP+BP", "tail", "Tail", NULL);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 0), ==, 10000);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 1), ==, 40000);
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, 1), ==, 5000);

  /* op_statistic replaces the types summed from op_summary. */
  row = find_row (sl_op_table_get_types (rank->ops), "MatMul", "AI_CORE");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 22000);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 10500);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 91.67, 1e-9);

  row = find_row (sl_op_table_get_instances (rank->ops), "MatMul1", NULL);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 22000);
  g_assert_cmpint (sl_op_row_get_wait_ns (row), ==, 2000);
  g_assert_cmpint (sl_op_row_get_aicore_ns (row), ==, 20000);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 24);
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,64");
  row = find_row (sl_op_table_get_instances (rank->ops), "Add2", NULL);
  g_assert_cmpint (sl_op_row_get_wait_ns (row), ==, -1);

  /* The AI Core time is MatMul1's, and its share is of MatMul1's own task
   * duration (22 µs), not of every op's (24 µs). */
  g_assert_cmpint (rank->summary.core_busy_ns, ==, 20000);
  g_assert_cmpint (rank->summary.core_task_ns, ==, 22000);
  g_assert_cmpint (rank->summary.aicore_ops_ns, ==, -1);
  g_assert_cmpint (rank->summary.task_ns, ==, 24000);
  g_assert_cmpuint (rank->summary.n_streams, ==, 2);
  row = find_row (sl_op_table_get_types (rank->apis), "aclopCompile", "acl");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 30500);

  remove_tree (tmp);
}

static void
test_profile_ascend_pt (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *unit = g_build_filename (tmp, "node_123_ascend_pt", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GPtrArray) timelines = NULL;
  const SlProfileRank *rank;
  const SlStep *step;
  const SlProfileCounter *counter;
  SlOpRow *row;

  write_file (unit, "profiler_info_5.json", "{\"config\": {\"common_config\": {\"record_shapes\": true}}}");
  write_file (unit, "ASCEND_PROFILER_OUTPUT/kernel_details.csv",
              "Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),"
              "Block Dim,Input Shapes,Input Data Types\n"
              "1,4294967295,1,2,trans_TransData_0,TransData,AI_VECTOR_CORE,1736408883704643.212\t,53.741,0,32,"
              "\"\"\"32,3,224,224\"\"\",FLOAT\n"
              "1,4294967295,N/A,N/A,hcom_broadcast_1,hcom_broadcast_,HCCL,1736408883704700.5,300.25,2.5,0,N/A,N/A\n");
  write_file (unit, "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
              "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\n"
              "50,8873.756,101963.203,4028.675,105991.878,25744.05,136581.0,0,101963.203,17902.5\n");
  write_file (unit, "ASCEND_PROFILER_OUTPUT/memory_record.csv",
              "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
              "PTA,1736408883573957.920\t,100.5,200,,,NPU:0\nPTA,1736408883593933.920\t,120.5,200,,,NPU:0\n");
  write_file (unit, "ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
  /* The raw data the text files were made from: skipped. */
  write_file (unit, "PROF_000001/mindstudio_profiler_output/op_summary_1.csv", "Op Name,Task Duration(us)\nX,1\n");

  profile = load (unit);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpint (rank->layout, ==, SL_PROFILE_LAYOUT_ASCEND_PT);
  g_assert_cmpint (rank->rank_id, ==, 5);

  step = sl_step_trace_get_step (rank->steps, 0);
  g_assert_cmpint (step->step, ==, 50);
  /* torch_npu's phases under their own names; it measures no data wait,
   * forward+backward or tail. */
  assert_phases (rank->steps, "computing", "Computing", "communication_not_overlapped",
                 "Communication(Not Overlapped)", "free", "Free", NULL);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 0), ==, 8873756);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 1), ==, 101963203);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 2), ==, 25744050);
  g_assert_cmpint (step->fp_bp_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->tail_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->data_wait_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->total_ns, ==, 8873756 + 101963203 + 25744050);
  g_assert_cmpint (step->start_ns, ==, SL_STEP_NO_TIME);
  /* The columns that do not stack stay extras, named as in the file. */
  g_assert_cmpuint (sl_step_trace_get_n_extra_columns (rank->steps), ==, 6);
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 0), ==, "Overlapped");
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, 0), ==, 4028675);
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 5), ==, "Preparing");
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, 5), ==, 17902500);

  row = find_row (sl_op_table_get_instances (rank->ops), "trans_TransData_0", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 53741);
  g_assert_cmpstr (sl_op_row_get_core_type (row), ==, "AI_VECTOR_CORE");
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,3,224,224");
  g_assert_cmpint (sl_op_row_get_stream_id (row), ==, 2);
  row = find_row (sl_op_table_get_types (rank->ops), "hcom_broadcast_", "HCCL");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 300250);
  g_assert_cmpint (sl_op_row_get_wait_ns (row), ==, 2500);
  g_assert_null (find_row (sl_op_table_get_instances (rank->ops), "X", NULL));

  g_assert_cmpuint (rank->counters->len, ==, 2);
  counter = g_ptr_array_index (rank->counters, 0);
  g_assert_cmpstr (counter->name, ==, "PTA Total Allocated");
  g_assert_cmpuint (counter->ts_ns->len, ==, 2);
  g_assert_cmpint (g_array_index (counter->ts_ns, gint64, 0), ==, G_GINT64_CONSTANT (1736408883573957920));
  g_assert_cmpfloat (g_array_index (counter->values, double, 1), ==, 120.5);

  timelines = sl_profile_list_timeline_files (tmp);
  g_assert_cmpuint (timelines->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (timelines, 0), "trace_view.json"));

  remove_tree (tmp);
}

static void
test_profile_cluster (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autoptr(SlProfile) profile = NULL;

  write_file (tmp, "cluster_analysis_output/cluster_step_trace_time.csv",
              "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive)\n"
              ",rank,0,80.5,683.25,5.5,689,990.125,1754.6,0.0,683.25\n"
              ",rank,1,80.25,133.5,0.5,134,1488.5,1702.4,0.0,133.5\n");

  profile = load (tmp);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 2);
  g_assert_cmpint (sl_profile_get_rank (profile, 1)->rank_id, ==, 1);
  g_assert_cmpint (sl_profile_get_rank (profile, 1)->layout, ==, SL_PROFILE_LAYOUT_CLUSTER);
  g_assert_cmpint (sl_step_trace_get_step (sl_profile_get_rank (profile, 1)->steps, 0)->total_ns, ==,
                   80250 + 133500 + 1488500);
  assert_phases (sl_profile_get_rank (profile, 1)->steps, "computing", "Computing", "communication_not_overlapped",
                 "Communication(Not Overlapped)", "free", "Free", NULL);
  g_assert_cmpint (sl_step_trace_get_phase_average (sl_profile_get_rank (profile, 1)->steps, 2), ==, 1488500);
  g_assert_cmpint (sl_step_trace_get_step (sl_profile_get_rank (profile, 1)->steps, 0)->data_wait_ns, ==,
                   SL_STEP_NO_TIME);
  g_assert_cmpint (sl_profile_get_rank (profile, 0)->summary.total_ns, ==, 80500 + 683250 + 990125);

  remove_tree (tmp);
}

static void
exec_sql (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static void
test_profile_database (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (tmp, "r_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *path = g_build_filename (out, "ascend_pytorch_profiler_0.db", NULL);
  g_autoptr(SlProfile) profile = NULL;
  const SlProfileRank *rank;
  SlTrace *trace;
  guint n_slices = 0, device_tracks = 0, host_tracks = 0;
  sqlite3 *db;
  SlOpRow *row;

  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec_sql (db,
            "CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
            "INSERT INTO STRING_IDS VALUES (1, 'MatMul_1'), (2, 'MatMul'), (3, 'AI_CORE'), (4, 'KERNEL_AICORE'),"
            " (5, 'aclnnMatmul'), (6, 'hcom_allReduce_1'), (7, 'group0'), (8, 'hcom_allReduce_'), (9, '32,64'),"
            /* A level-0 export: op details "N/A", the type in the kernel's name or not at all. */
            " (10, 'N/A'), (11, 'aclnnMm_MatMulCommon_MatMulV2'), (12, 'ReduceSum147'), (13, 'KERNEL_AIVEC');"
            /* No modelId, blockDim under its older name: tolerated. */
            "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,"
            " globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER);"
            "INSERT INTO TASK VALUES (1000000000000000000, 1000000000000010000, 0, 1, 1, 7, 4, 0, 2, 11),"
            " (1000000000000020000, 1000000000000025000, 0, 2, 2, 7, 4, 0, 2, 12),"
            " (1000000000000030000, 1000000000000031000, 0, 3, 3, 7, 4, 0, 5, 13),"
            " (1000000000000032000, 1000000000000033000, 0, 5, 4, 7, 13, 0, 2, 14),"
            " (1000000000000034000, 1000000000000035000, 0, 6, 5, 7, 13, 0, 2, 15);"
            "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER, blockNum INTEGER, taskType INTEGER,"
            " opType INTEGER, inputShapes INTEGER);"
            "INSERT INTO COMPUTE_TASK_INFO VALUES (1, 1, 24, 3, 2, 9), (1, 2, 24, 3, 2, 9),"
            " (11, 4, 8, 10, 10, 10), (12, 5, 8, 10, 10, 10);"
            "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,"
            " connectionId INTEGER, name INTEGER);"
            "INSERT INTO CANN_API VALUES (999999999999990000, 999999999999995000, 20000, 30064771077, 1, 5);"
            "CREATE TABLE ENUM_API_TYPE (id INTEGER, name TEXT); INSERT INTO ENUM_API_TYPE VALUES (20000, 'acl');"
            "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,"
            " groupName INTEGER, opId INTEGER, opType INTEGER);"
            "INSERT INTO COMMUNICATION_OP VALUES (6, 1000000000000040000, 1000000000000050000, 4, 7, 1, 8);"
            "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
            "INSERT INTO STEP_TIME VALUES (3, 999999999999990000, 1000000000000060000);"
            "CREATE TABLE NPU_INFO (id INTEGER, name TEXT); INSERT INTO NPU_INFO VALUES (0, 'Ascend910B');");
  sqlite3_close (db);
  /* The folder is read-only, as on a shared mount: immutable=1 still opens it. */
  g_chmod (out, 0555);

  profile = load (tmp);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "NPU_INFO.0"), ==, "Ascend910B");

  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->total_ns, ==, 70000);

  row = find_row (sl_op_table_get_instances (rank->ops), "MatMul_1", NULL);
  g_assert_nonnull (row);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 15000);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 24);
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,64");
  g_assert_cmpstr (sl_op_row_get_core_type (row), ==, "AI_CORE");
  row = find_row (sl_op_table_get_types (rank->ops), "hcom_allReduce_", "HCCL");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 10000);
  /* Level 0: the type from the kernel's name, else the task type. */
  row = find_row (sl_op_table_get_instances (rank->ops), "aclnnMm_MatMulCommon_MatMulV2", NULL);
  g_assert_nonnull (row);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "MatMulV2");
  g_assert_cmpstr (sl_op_row_get_core_type (row), ==, "KERNEL_AIVEC");
  row = find_row (sl_op_table_get_instances (rank->ops), "ReduceSum147", NULL);
  g_assert_nonnull (row);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "KERNEL_AIVEC");
  row = find_row (sl_op_table_get_types (rank->apis), "aclnnMatmul", "acl");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 5000);
  /* Each call kept with its time, for the statistics of a step. */
  g_assert_nonnull (rank->api_calls);
  g_assert_cmpuint (sl_api_calls_get_n_calls (rank->api_calls), ==, 1);

  trace = SL_TRACE (rank->trace);
  g_assert_nonnull (trace);
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);
      const char *pid = sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, t));

      n_slices += slices != NULL ? slices->n_slices : 0;
      device_tracks += g_str_has_prefix (pid, "device");
      if (g_str_equal (pid, "host 7"))
        {
          host_tracks++;
          g_assert_cmpstr (sl_trace_get_track_tid (trace, t), ==, "5");
        }
    }
  /* 5 tasks on streams 2 and 5, one API call, one communication op. */
  g_assert_cmpuint (n_slices, ==, 7);
  g_assert_cmpuint (device_tracks, ==, 2);
  g_assert_cmpuint (host_tracks, ==, 1);

  g_chmod (out, 0755);
  remove_tree (tmp);
}

/* op_statistic cells out of range: each is a problem at its line and
 * column, and none reaches a total, a count or a ratio. */
static void
test_profile_out_of_range_cells (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *prof = g_build_filename (tmp, "PROF_000001_20240101_ABC", NULL);
  g_autofree char *csv = g_build_filename (prof, "mindstudio_profiler_output", "op_statistic_20240101.csv", NULL);
  g_autoptr(SlProfile) profile = NULL;
  GListModel *problems, *types;
  const SlProfileRank *rank;
  SlOpRow *row;
  guint n_refused = 0, n_skipped = 0;

  write_file (prof, "device_0/info.json.0", "{\"DeviceInfo\": [{\"id\": 0}]}");
  write_file (prof, "mindstudio_profiler_output/op_statistic_20240101.csv",
              "Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Avg Time(us),Min Time(us),Max Time(us),Ratio(%)\n"
              "0,m,MatMul,AI_CORE,2,30,15,10,20,18446744073709551616\n"
              "0,m,Add,AI_VECTOR_CORE,1,1e308,2,2,2,nan\n"
              "0,m,Cast,AI_CORE,18446744073709551616,10,inf,-inf,1e308,25\n"
              "0,m,Mul,AI_CORE,1,1,1,1,1,250\n");
  write_file (prof, "mindstudio_profiler_output/msprof_20240101.json", "[]");

  profile = load (tmp);
  rank = sl_profile_get_rank (profile, 0);
  types = sl_op_table_get_types (rank->ops);
  g_assert_null (find_row (types, "Add", NULL));

  /* the refused ratios are computed from the totals instead */
  row = find_row (types, "MatMul", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 30000);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 100.0 * 30 / 41, 1e-9);
  row = find_row (types, "Mul", NULL);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 100.0 * 1 / 41, 1e-9);
  row = find_row (types, "Cast", NULL);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 0);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, -1);
  g_assert_cmpint (sl_op_row_get_max_ns (row), ==, -1);
  g_assert_cmpfloat (sl_op_row_get_ratio (row), ==, 25);

  problems = sl_profile_get_problems (profile);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      const char *message = sl_problem_get_message (problem);

      g_assert_cmpstr (sl_problem_get_path (problem), ==, csv);
      if (strstr (message, "out of range or not finite") != NULL)
        {
          guint line = sl_problem_get_line (problem), column = sl_problem_get_column (problem);

          g_assert_true ((line == 2 && column == 10) || (line == 3 && column == 6) ||
                         (line == 4 && (column == 5 || column == 8 || column == 9)));
          n_refused++;
        }
      else if (strstr (message, "is out of range; the row is skipped") != NULL)
        n_skipped++;
      else
        g_assert_cmpstr (message, ==, "Line 5: “Ratio(%)” is 250, not a percentage; it is left out");
    }
  g_assert_cmpuint (n_refused, ==, 5);
  g_assert_cmpuint (n_skipped, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 7);

  remove_tree (tmp);
}

static void
test_profile_damaged_db (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlProblem) problem = NULL;

  write_file (tmp, "msprof_1.db", "this is not a database, only text that is long enough to look like a header....");
  profile = load (tmp);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_null (sl_profile_get_rank (profile, 0)->trace);

  remove_tree (tmp);
}

/* CANN_API with a row that lost its times and name, a name written as
 * text, a call that ends before it starts and a type no ENUM_API_TYPE
 * names: the good calls are kept, the bad row is reported with its row. */
static void
test_profile_damaged_cann_api (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "msprof_1.db", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlProblem) problem = NULL;
  const SlProfileRank *rank;
  sqlite3 *db;
  SlOpRow *row;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec_sql (db,
            "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,"
            " connectionId INTEGER, name INTEGER);"
            "INSERT INTO CANN_API VALUES (1000, 1700, 20000, 1, 1, 'aclnnMm'), (NULL, NULL, NULL, NULL, 2, NULL),"
            " (3000, 2000, 20000, 1, 3, 'aclnnMm'), (4000, 4100, 20000, 1, 4, NULL);");
  sqlite3_close (db);

  profile = load (tmp);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpstr (sl_problem_get_message (problem), ==,
                   "CANN_API: 2 rows without a start, an end or a name were skipped (the first is row 2)");

  row = find_row (sl_op_table_get_types (rank->apis), "aclnnMm", "20000");
  g_assert_nonnull (row);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 700);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 0);
  g_assert_cmpuint (sl_api_calls_get_n_calls (rank->api_calls), ==, 2);

  remove_tree (tmp);
}

/* PYTORCH_API (times as text, as torch_npu writes them): its ops are the
 * framework level and slices of a PyTorch process; the step marker is a
 * slice but no call; queue rows and rows without times are neither. */
static void
test_profile_framework_api (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "ascend_pytorch_profiler_0.db", NULL);
  g_autoptr(SlProfile) profile = NULL;
  const SlProfileRank *rank;
  SlTrace *trace;
  guint n_slices = 0;
  sqlite3 *db;
  SlOpRow *row;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec_sql (db,
            "CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
            "INSERT INTO STRING_IDS VALUES (1, 'ProfilerStep#1'), (2, 'aten::mm'), (3, 'Enqueue');"
            "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
            "INSERT INTO ENUM_API_TYPE VALUES (50001, 'op'), (50002, 'queue');"
            "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,"
            " name INTEGER, type INTEGER);"
            "INSERT INTO PYTORCH_API VALUES ('1736407067942010500', '1736407067943010500', 30064771077, 0, 1, 50001),"
            " ('1736407067942020500', '1736407067942030500', 30064771077, 1, 2, 50001),"
            " ('1736407067942040500', '1736407067942042500', 30064771077, 2, 2, 50001),"
            " ('1736407067942050500', '1736407067942060500', 30064771077, 3, 3, 50002),"
            " (NULL, '1736407067942060500', 30064771077, 4, 2, 50001);");
  sqlite3_close (db);

  profile = load (tmp);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->apis)), ==, 1);
  row = find_row (sl_op_table_get_types (rank->apis), "aten::mm", "framework");
  g_assert_nonnull (row);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 12000);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 2000);
  g_assert_cmpuint (sl_api_calls_get_n_calls (rank->api_calls), ==, 2);

  trace = SL_TRACE (rank->trace);
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);

      n_slices += slices != NULL ? slices->n_slices : 0;
      g_assert_cmpstr (sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, t)), ==, "pytorch 7");
    }
  /* The step marker and the two ops: exact nanoseconds from the text. */
  g_assert_cmpuint (n_slices, ==, 3);
  g_assert_cmpint (sl_trace_get_start_ns (trace), ==, 1736407067942010500);
  g_assert_cmpint (sl_trace_get_end_ns (trace), ==, 1736407067943010500);

  remove_tree (tmp);
}

/* One profiler table opened on its own is a profile of what it holds;
 * the info problem names the profile's files that are not beside it. */
static void
test_profile_single_files (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *op_summary = g_build_filename (tmp, "alone", "op_summary_0_1.csv", NULL);
  g_autofree char *kernels = g_build_filename (tmp, "pt", "kernel_details.csv", NULL);
  g_autofree char *ms_step = g_build_filename (tmp, "ms", "step_trace_raw_3_detail_time.csv", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlProblem) problem = NULL;
  const SlProfileRank *rank;

  write_file (tmp, "alone/op_summary_0_1.csv",
              "Device_id,Model Name,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us)\n"
              "0,m,MatMul1,MatMul,AI_CORE,1000.5,10.5,1.25\n");
  write_file (tmp, "pt/kernel_details.csv",
              "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)\n"
              "1,MatMul1,MatMul,AI_CORE,1000,10,0\n");
  write_file (tmp, "pt/op_statistic.csv",
              "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
              "MatMul,AI_CORE,1,10,10,10,10,100\n");
  write_file (tmp, "ms/step_trace_raw_3_detail_time.csv", ms_step_trace);

  profile = load (op_summary);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_nonnull (find_row (sl_op_table_get_instances (rank->ops), "MatMul1", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_INFO);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, op_summary);
  g_assert_cmpstr (sl_problem_get_message (problem), ==,
                   "Only op_summary_0_1.csv was opened; the profile’s other files (op_statistic_*.csv, "
                   "step_trace_*.csv, task_time_*.csv, api_statistic_*.csv, msprof_*.json) are not beside it.");
  g_clear_object (&problem);
  g_clear_object (&profile);

  /* Companions that are beside it are not named */
  profile = load (kernels);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "(step_trace_time.csv, api_statistic.csv"));
  g_assert_null (strstr (sl_problem_get_message (problem), "op_statistic.csv"));
  g_clear_object (&problem);
  g_clear_object (&profile);

  /* MindSpore's names carry the rank of the opened file */
  profile = load (ms_step);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), >, 0);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "aicore_intermediate_3_type.csv"));
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "profiler_info_3.json"));
  g_clear_object (&problem);
  g_clear_object (&profile);

  /* The folder is a whole profile: no such problem */
  profile = load (tmp);
  for (guint i = 0; i < g_list_model_get_n_items (sl_profile_get_problems (profile)); i++)
    {
      g_autoptr(SlProblem) other = g_list_model_get_item (sl_profile_get_problems (profile), i);

      g_assert_false (g_str_has_prefix (sl_problem_get_message (other), "Only "));
    }

  remove_tree (tmp);
}

static void
test_profile_errors (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  write_file (tmp, "notes.txt", "nothing here");
  g_assert_null (sl_profile_load (tmp, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  g_assert_null (sl_profile_load ("/nonexistent/profiler", NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  write_file (tmp, "step_trace_raw_0_detail_time.csv", ms_step_trace);
  g_cancellable_cancel (cancellable);
  g_assert_null (sl_profile_load (tmp, cancellable, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  remove_tree (tmp);
}

typedef struct {
  GMainLoop *loop;
  SlProfile *profile;
  guint      n_progress;
  double     last_fraction;
  GThread   *main_thread;
} AsyncData;

static void
progress_cb (double      fraction,
             const char *path,
             gpointer    user_data)
{
  AsyncData *data = user_data;

  g_assert_true (g_thread_self () == data->main_thread);
  g_assert_cmpfloat (fraction, >=, data->last_fraction);
  data->last_fraction = fraction;
  data->n_progress++;
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  AsyncData *data = user_data;
  g_autoptr(GError) error = NULL;

  data->profile = sl_profile_load_finish (result, &error);
  g_assert_no_error (error);
  g_main_loop_quit (data->loop);
}

static void
test_profile_async (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-XXXXXX", NULL);
  g_autofree char *file = NULL;
  AsyncData data = { g_main_loop_new (NULL, FALSE), NULL, 0, 0, g_thread_self () };

  write_file (tmp, "step_trace_raw_0_detail_time.csv", ms_step_trace);
  write_file (tmp, "aicore_intermediate_0_type.csv", "kernel_type,total_time,execution_frequency,percent\nAdd,1,1,100\n");
  write_file (tmp, "ascend_timeline_display_0.json", "[]");
  write_file (tmp, "device_0/timeline/task_time_0_1_1.json", "[]");

  sl_profile_load_async (tmp, NULL, progress_cb, &data, NULL, loaded_cb, &data);
  g_main_loop_run (data.loop);
  /* Progress updates queued before the result have all run by now. */
  while (g_main_context_iteration (NULL, FALSE));

  g_assert_nonnull (data.profile);
  g_assert_cmpuint (sl_profile_get_n_ranks (data.profile), ==, 1);
  g_assert_cmpuint (data.n_progress, ==, 3);
  g_assert_cmpfloat (data.last_fraction, ==, 1.0);

  /* A file inside the folder loads that file alone. */
  file = g_build_filename (tmp, "step_trace_raw_0_detail_time.csv", NULL);
  {
    g_autoptr(SlProfile) single = load (file);
    g_autoptr(GPtrArray) timelines = sl_profile_list_timeline_files (tmp);

    g_assert_cmpuint (sl_profile_get_n_ranks (single), ==, 1);
    g_assert_cmpuint (sl_step_trace_get_n_steps (sl_profile_get_rank (single, 0)->steps), ==, 2);
    g_assert_true (sl_op_table_is_empty (sl_profile_get_rank (single, 0)->ops));
    g_assert_cmpuint (timelines->len, ==, 2);
    g_assert_true (g_str_has_suffix (g_ptr_array_index (timelines, 0), "ascend_timeline_display_0.json"));
    g_assert_true (g_str_has_suffix (g_ptr_array_index (timelines, 1), "task_time_0_1_1.json"));
  }

  g_object_unref (data.profile);
  g_main_loop_unref (data.loop);
  remove_tree (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/mindspore", test_profile_mindspore);
  g_test_add_func ("/profile/mindspore-comm-ops", test_profile_mindspore_comm_ops);
  g_test_add_func ("/profile/msprof", test_profile_msprof);
  g_test_add_func ("/profile/ascend-pt", test_profile_ascend_pt);
  g_test_add_func ("/profile/cluster", test_profile_cluster);
  g_test_add_func ("/profile/database", test_profile_database);
  g_test_add_func ("/profile/out-of-range-cells", test_profile_out_of_range_cells);
  g_test_add_func ("/profile/damaged-database", test_profile_damaged_db);
  g_test_add_func ("/profile/damaged-cann-api", test_profile_damaged_cann_api);
  g_test_add_func ("/profile/framework-api", test_profile_framework_api);
  g_test_add_func ("/profile/errors", test_profile_errors);
  g_test_add_func ("/profile/single-files", test_profile_single_files);
  g_test_add_func ("/profile/async", test_profile_async);

  return g_test_run ();
}
