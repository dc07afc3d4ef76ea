/* test-datasets-profile.c: the profile loader on every real profiler folder
 *
 * The folder comes from SL_DATASETS_DIR; every test is skipped when it is
 * absent. Expected counts and values were established independently of
 * this loader, by reading the CSV files with Python's csv module (exact
 * decimals) and the SQLite export with Python's sqlite3; the same reading
 * runs as check-datasets-profile.py against `sightline-cli profile --json`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-profile-loader.h"
#include "sl-trace.h"

#define MI "mindspore-ai__mindinsight/tests/utils/resource/"
#define PT "Ascend__msinsight/test/data/pytorch/"

/* Returns: (transfer full) (nullable): the loaded folder, or %NULL when skipped */
static SlProfile *
load_dataset (const char *relative)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  SlProfile *profile;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return NULL;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);
      g_test_skip (message);
      return NULL;
    }

  profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

static const SlProfileRank *
find_rank (SlProfile  *profile,
           const char *label)
{
  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      if (g_str_equal (rank->label, label))
        return rank;
    }
  g_error ("no rank %s", label);
  return NULL;
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
  g_error ("no row %s", name);
  return NULL;
}

static gint64
sum_totals (SlStepTrace *steps)
{
  gint64 sum = 0;

  for (guint i = 0; i < sl_step_trace_get_n_steps (steps); i++)
    sum += sl_step_trace_get_step (steps, i)->total_ns;
  return sum;
}

static guint
n_problems (SlProfile *profile)
{
  return g_list_model_get_n_items (sl_profile_get_problems (profile));
}

static void
test_mindspore_profiler (void)
{
  g_autoptr(SlProfile) profile = load_dataset (MI "profiler");
  const SlProfileRank *rank;
  SlOpRow *row;

  if (profile == NULL)
    return;

  /* Devices 0, 1 and 10, and the msprof PROF_ folder inside. */
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 4);
  g_assert_cmpuint (n_problems (profile), ==, 0);

  rank = find_rank (profile, "device 0");
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 20);
  g_assert_nonnull (sl_step_trace_get_file_average (rank->steps));
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->total_ns, ==, 40030470);
  g_assert_cmpint (sum_totals (rank->steps), ==, G_GINT64_CONSTANT (2518696570));
  g_assert_cmpuint (sl_step_trace_get_n_extra_columns (rank->steps), >, 0);
  g_assert_cmpuint (rank->summary.n_streams, ==, 2);
  /* MindSpore's iteration_interval, fp_and_bp and tail, as they were. */
  g_assert_cmpuint (sl_step_trace_get_n_phases (rank->steps), ==, 3);
  g_assert_cmpstr (sl_step_trace_get_phase_key (rank->steps, 0), ==, "data_wait");
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 2), ==, sl_step_trace_get_step (rank->steps, 0)->tail_ns);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->tail_ns, ==, 23001030);

  rank = find_rank (profile, "device 10");
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 40);
  g_assert_cmpint (sum_totals (rank->steps), ==, G_GINT64_CONSTANT (5129485890));

  rank = find_rank (profile, "device 1");
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 5);
  row = find_row (sl_op_table_get_types (rank->ops), "MatMul", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 1085000);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 9);
  /* "full_kernel_time" in this file's header, a name MindSpore really wrote. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 10);
  row = find_row (sl_op_table_get_instances (rank->ops),
                  "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9", NULL);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 1);
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,120;84,120;84");

  rank = find_rank (profile, "PROF_000001_20230818142704322_COJGGGCANRMICFBC");
  g_assert_cmpint (rank->layout, ==, SL_PROFILE_LAYOUT_MSPROF);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "hostname"), ==, "A2007104679");
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "DeviceInfo.0.ai_core_num"), ==, "32");
}

static void
test_mindspore_run_2 (void)
{
  g_autoptr(SlProfile) profile = load_dataset (MI "run_2/normal_run/profiler");
  const SlProfileRank *rank;
  SlOpRow *row;

  if (profile == NULL)
    return;

  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  g_assert_cmpuint (n_problems (profile), ==, 0);
  rank = sl_profile_get_rank (profile, 0);

  /* Older MindSpore ended with an all-zero averages row. */
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->total_ns, ==, 23709050);
  g_assert_nonnull (sl_step_trace_get_file_average (rank->steps));

  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 21 + 3);
  row = find_row (sl_op_table_get_types (rank->ops), "MatMul", "AI_CORE");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 20657740);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 9);
  row = find_row (sl_op_table_get_types (rank->ops), "GetNext", "AI_CPU");
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 1181000);

  /* 105 AI Core instances (old "full_op_name" header) and 3 AI CPU kernels. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 105 + 3);
  row = find_row (sl_op_table_get_instances (rank->ops),
                  "Default/network-TrainOneStepCell/optimizer-Momentum/ApplyMomentum-op83", NULL);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 18);
  g_assert_cmpint (sl_op_row_get_stream_id (row), ==, 519);
  g_assert_cmpstr (sl_op_row_get_input_formats (row), !=, "");
}

static void
test_mindspore_cluster (void)
{
  g_autoptr(SlProfile) profile = load_dataset (MI "cluster_propose");
  const SlProfileRank *rank;

  if (profile == NULL)
    return;

  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 5);
  g_assert_cmpint (sum_totals (rank->steps), ==, G_GINT64_CONSTANT (2881305530));
  /* Newer reduce columns: stream_<sid>_<k>_<Op>-op<N> and their points. */
  g_assert_cmpstr (sl_step_trace_get_extra_name (rank->steps, 0), ==, "stream_11_0_Receive-op2068");
  g_assert_cmpint (sl_step_trace_get_extra (rank->steps, 0, 0), ==, G_GINT64_CONSTANT (1991210660));
}

static void
test_ascend_pt_text (void)
{
  g_autoptr(SlProfile) profile = load_dataset (PT "text/level1/rank0_ascend_pt");
  const SlProfileRank *rank;
  const SlStep *step;
  SlOpRow *row;

  if (profile == NULL)
    return;

  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  g_assert_cmpuint (n_problems (profile), ==, 0);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpint (rank->rank_id, ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "config.experimental_config._profiler_level"), ==, "Level1");

  step = sl_step_trace_get_step (rank->steps, 0);
  g_assert_cmpint (step->step, ==, 50);
  /* 101.963 ms of communication not overlapped by computing: under its
   * own name, not as a tail; Free is not a data wait. */
  g_assert_cmpuint (sl_step_trace_get_n_phases (rank->steps), ==, 3);
  g_assert_cmpstr (sl_step_trace_get_phase_name (rank->steps, 0), ==, "Computing");
  g_assert_cmpstr (sl_step_trace_get_phase_name (rank->steps, 1), ==, "Communication(Not Overlapped)");
  g_assert_cmpstr (sl_step_trace_get_phase_name (rank->steps, 2), ==, "Free");
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 0), ==, 8873756);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 1), ==, 101963203);
  g_assert_cmpint (sl_step_trace_get_phase (rank->steps, 0, 2), ==, 25744050);
  g_assert_cmpint (step->fp_bp_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->tail_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->data_wait_ns, ==, SL_STEP_NO_TIME);
  g_assert_cmpint (step->total_ns, ==, 8873756 + 101963203 + 25744050);

  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 33);
  row = find_row (sl_op_table_get_types (rank->ops), "TransData", "AI_VECTOR_CORE");
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 57);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 1423208);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 82);
  row = find_row (sl_op_table_get_instances (rank->ops), "trans_TransData_0", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 53741);
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,3,224,224");
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->apis)), ==, 57);

  /* memory_record.csv: 1004 rows of four components. */
  {
    guint points = 0;

    for (guint i = 0; i < rank->counters->len; i++)
      {
        const SlProfileCounter *counter = g_ptr_array_index (rank->counters, i);

        if (g_str_has_suffix (counter->name, "Total Reserved"))
          points += counter->ts_ns->len;
      }
    g_assert_cmpuint (points, ==, 1004);
  }
}

static void
test_ascend_pt_database (void)
{
  g_autoptr(SlProfile) profile = load_dataset (PT "db/level0/rank0_ascend_pt");
  const SlProfileRank *rank;
  SlTrace *trace;
  guint64 n_slices = 0;

  if (profile == NULL)
    return;

  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  g_assert_cmpuint (n_problems (profile), ==, 0);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpstr (g_hash_table_lookup (rank->info, "NPU_INFO.0"), ==, "Ascend910B");

  /* 187 compute tasks of 78 ops, and 4 communication ops. */
  g_assert_cmpuint (rank->summary.n_op_executions, ==, 187 + 4);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 78 + 4);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
  /* Level 0 leaves opType "N/A": communication ops get kernel_details' type. */
  g_assert_cmpuint (sl_op_row_get_count (find_row (sl_op_table_get_types (rank->ops), "hcom_allReduce_", "HCCL")), ==, 4);

  trace = SL_TRACE (rank->trace);
  g_assert_nonnull (trace);
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);

      n_slices += slices != NULL ? slices->n_slices : 0;
    }
  /* TASK 550, CANN_API 713, COMMUNICATION_OP 4, PYTORCH_API's ops 860 */
  g_assert_cmpuint (n_slices, ==, 550 + 713 + 4 + 860);

  /* The API statistics: 57 CANN APIs in 713 calls, and 133 framework ops
   * in 859 calls (the step marker is not one), each call kept. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->apis)), ==, 57 + 133);
  g_assert_cmpuint (sl_op_table_get_n_executions (rank->apis), ==, 713 + 859);
  g_assert_cmpuint (sl_api_calls_get_n_calls (rank->api_calls), ==, 713 + 859);
  g_assert_cmpint (sl_op_row_get_total_ns (find_row (sl_op_table_get_types (rank->apis), "aclopCompileAndExecute", "acl")),
                   ==, 9543420);
}

static void
test_msprof_analyze (void)
{
  g_autoptr(SlProfile) kernels = load_dataset ("Ascend__msprof-analyze/test/ut/advisor/advisor_backend/compute_advice");
  g_autoptr(SlProfile) cluster = load_dataset ("Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output");
  const SlProfileRank *rank;
  SlOpRow *row;

  if (kernels == NULL || cluster == NULL)
    return;

  rank = sl_profile_get_rank (kernels, 0);
  g_assert_cmpuint (rank->summary.n_op_executions, ==, 591);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 201);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 44);
  row = find_row (sl_op_table_get_types (rank->ops), "MatMul", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 14070560);
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 9);

  /* Eight ranks and one pipeline stage. */
  g_assert_cmpuint (sl_profile_get_n_ranks (cluster), ==, 9);
  rank = find_rank (cluster, "rank 1");
  g_assert_cmpint (rank->rank_id, ==, 1);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
}

static void
test_op_summary (void)
{
  g_autoptr(SlProfile) profile = load_dataset ("Ascend__msinsight/server/src/test/test_data/test_kernel_parse");
  g_autoptr(SlProblem) problem = NULL;
  const SlProfileRank *rank;
  SlOpRow *row;

  if (profile == NULL)
    return;

  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (rank->summary.n_op_executions, ==, 21);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 13);
  row = find_row (sl_op_table_get_types (rank->ops), "FlashAttentionScore", NULL);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 21114692);

  /* One row of this real file is one field short: reported, kept. */
  g_assert_cmpuint (n_problems (profile), ==, 1);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, 4428);
}

/* Every profiler folder of the datasets loads without failing. */
static void
test_all_folders (void)
{
  static const char *folders[] = {
    MI "profiler", MI "run_2/normal_run/profiler", MI "cluster_propose",
    MI "profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC",
    PT "text/level1/rank0_ascend_pt", PT "db/level0/rank0_ascend_pt", PT,
    "Ascend__msprof-analyze/test/ut/advisor/advisor_backend/compute_advice",
    "Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output",
    "Ascend__msinsight/server/src/test/test_data/test_kernel_parse",
  };

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autoptr(SlProfile) profile = load_dataset (folders[i]);
      g_autoptr(GPtrArray) timelines = NULL;

      if (profile == NULL)
        return;
      g_assert_cmpuint (sl_profile_get_n_ranks (profile), >, 0);

      timelines = sl_profile_list_timeline_files (sl_profile_get_path (profile));
      if (i == 0)
        {
          /* ascend/gpu timeline_display, and device_0/timeline of the PROF_ folder */
          g_assert_cmpuint (timelines->len, ==, 2 + 5);
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/profile/mindspore", test_mindspore_profiler);
  g_test_add_func ("/datasets/profile/mindspore-run-2", test_mindspore_run_2);
  g_test_add_func ("/datasets/profile/mindspore-cluster", test_mindspore_cluster);
  g_test_add_func ("/datasets/profile/ascend-pt-text", test_ascend_pt_text);
  g_test_add_func ("/datasets/profile/ascend-pt-database", test_ascend_pt_database);
  g_test_add_func ("/datasets/profile/msprof-analyze", test_msprof_analyze);
  g_test_add_func ("/datasets/profile/op-summary", test_op_summary);
  g_test_add_func ("/datasets/profile/all", test_all_folders);

  return g_test_run ();
}
