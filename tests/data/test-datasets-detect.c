/* test-datasets-detect.c: the detector on real files written by the tools
 *
 * The folder comes from SL_DATASETS_DIR; every test is skipped when it is
 * absent. Expected values were read off the files themselves (see the
 * datasets' SOURCES.md and generated__mindinsight-writers/README.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-detector.h"

typedef struct {
  SlFindingKind  kind;
  const char    *name;
  guint          n_files;
} Expected;

static char *
dataset_path (const char *relative)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return NULL;
    }

  return g_build_filename (dir, relative, NULL);
}

/* Returns: (transfer full) (nullable): the detection, or %NULL when the
 * test was skipped */
static SlDetection *
detect_dataset (const char *relative)
{
  g_autofree char *path = dataset_path (relative);
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(GError) error = NULL;
  SlDetection *detection;

  if (path == NULL)
    return NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);
      g_test_skip (message);
      return NULL;
    }

  detector = sl_detector_new (path);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (detection);

  return detection;
}

static guint
n_findings (SlDetection *detection)
{
  return g_list_model_get_n_items (sl_detection_get_findings (detection));
}

static guint
n_problems (SlDetection *detection)
{
  return g_list_model_get_n_items (sl_detection_get_problems (detection));
}

static guint
count_kind (SlDetection   *detection,
            SlFindingKind  kind)
{
  return sl_detection_count_kind (detection, kind);
}

/* Returns: (transfer none): the finding */
static SlFinding *
get_finding (SlDetection   *detection,
             SlFindingKind  kind,
             const char    *name)
{
  SlFinding *finding = sl_detection_lookup_finding (detection, kind, name);

  if (finding == NULL)
    g_error ("no %s finding named “%s”", sl_finding_kind_to_id (kind), name);
  return finding;
}

static void
assert_expected (SlDetection    *detection,
                 const Expected *expected,
                 guint           n_expected)
{
  g_assert_cmpuint (n_findings (detection), ==, n_expected);

  for (guint i = 0; i < n_expected; i++)
    {
      SlFinding *finding = get_finding (detection, expected[i].kind, expected[i].name);

      g_assert_cmpuint (sl_finding_get_n_files (finding), ==, expected[i].n_files);
    }
}

static void
assert_problem (SlDetection *detection,
                const char  *basename,
                SlSeverity   severity,
                gint64       offset)
{
  GListModel *problems = sl_detection_get_problems (detection);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *name = g_path_get_basename (sl_problem_get_path (problem));

      if (g_str_equal (name, basename))
        {
          g_assert_cmpint (sl_problem_get_severity (problem), ==, severity);
          g_assert_cmpint (sl_problem_get_offset (problem), ==, offset);
          return;
        }
    }

  g_error ("no problem about %s", basename);
}

static guint
count_lineage_runs (const char *relative)
{
  g_autofree char *path = dataset_path (relative);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_prefix (name, "run_");

  return n;
}

static void
test_mindinsight_writers (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("generated__mindinsight-writers");
  guint n_lineage_runs;
  SlFinding *run;

  if (detection == NULL)
    return;

  /* run_07 and run_08 may be kept aside: count what is there */
  n_lineage_runs = count_lineage_runs ("generated__mindinsight-writers/run_lineage");
  g_assert_cmpuint (n_lineage_runs, >=, 6);
  g_assert_cmpuint (n_findings (detection), ==, 6 + n_lineage_runs);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_SUMMARY_RUN), ==, 6 + n_lineage_runs);

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_small");
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 1);
  g_assert_cmpuint (sl_finding_get_size (run), ==, 72392);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "has_lineage"), ==, "no");
  /* MindInsight's generators write no version record */
  g_assert_null (sl_finding_lookup_detail (run, "version"));

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_large");
  g_assert_cmpuint (sl_finding_get_size (run), ==, 48433960);

  g_assert_cmpuint (sl_finding_get_n_files (get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_graphs/cyclic")), ==, 1);
  g_assert_cmpuint (sl_finding_get_n_files (get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_graphs/high_degree")), ==, 1);
  g_assert_cmpuint (sl_finding_get_n_files (get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_landscape")), ==, 1);

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "run_lineage/run_01");
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "summary_files"), ==, "0");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "lineage_files"), ==, "1");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "has_lineage"), ==, "yes");

  /* The intact source and both damaged copies form one run */
  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "robustness");
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 3);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "summary_files"), ==, "3");

  /* Only the damaged copies have problems: the flipped byte is in
   * record 100 (offset 4200), the cut in record 150 (offset 6500). */
  g_assert_cmpuint (n_problems (detection), ==, 2);
  assert_problem (detection, "events.out.events.summary.1796008984.vm_MS.corrupt", SL_SEVERITY_ERROR, 4200);
  assert_problem (detection, "events.out.events.summary.1796008984.vm_MS.truncated", SL_SEVERITY_WARNING, 6500);
}

static void
test_damaged_summaries (void)
{
  static const char * const names[] = {
    "events.out.events.summary.1796008984.vm_MS",
    "events.out.events.summary.1796008984.vm_MS.corrupt",
    "events.out.events.summary.1796008984.vm_MS.truncated",
  };
  static const guint expected_problems[] = { 0, 1, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *relative = g_build_filename ("generated__mindinsight-writers", "robustness", names[i], NULL);
      g_autoptr(SlDetection) detection = detect_dataset (relative);

      if (detection == NULL)
        return;

      g_assert_cmpuint (n_findings (detection), ==, 1);
      g_assert_cmpuint (sl_finding_get_n_files (get_finding (detection, SL_FINDING_SUMMARY_RUN, names[i])), ==, 1);
      g_assert_cmpuint (n_problems (detection), ==, expected_problems[i]);
    }
}

static void
test_tensorboard_reducer (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("janosh__tensorboard-reducer/tests/runs");
  static const Expected expected[] = {
    { SL_FINDING_TENSORBOARD_RUN, "duplicate_steps/run_1", 1 },
    { SL_FINDING_TENSORBOARD_RUN, "lax/run_1", 1 },
    { SL_FINDING_TENSORBOARD_RUN, "strict/run_1", 1 },
    { SL_FINDING_TENSORBOARD_RUN, "strict/run_2", 1 },
  };

  if (detection == NULL)
    return;

  assert_expected (detection, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (detection), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      SlFinding *run = get_finding (detection, SL_FINDING_TENSORBOARD_RUN, expected[i].name);

      g_assert_cmpstr (sl_finding_lookup_detail (run, "version"), ==, "brain.Event:2");
    }

  g_assert_cmpuint (sl_finding_get_size (get_finding (detection, SL_FINDING_TENSORBOARD_RUN, "duplicate_steps/run_1")), ==, 21600);
}

static void
test_mindinsight_profiler (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("mindspore-ai__mindinsight/tests/utils/resource");
  static const Expected expected[] = {
    { SL_FINDING_MINDSPORE_PROFILER, "profiler", 23 },
    /* Devices 0, 1 and 10 in one folder: a cluster too, of the same files */
    { SL_FINDING_CLUSTER, "profiler", 23 },
    { SL_FINDING_MINDSPORE_PROFILER, "run_2/normal_run/profiler", 10 },
    { SL_FINDING_MINDSPORE_PROFILER, "cluster_propose", 2 },
    { SL_FINDING_MSPROF, "JOB1", 5 },
    { SL_FINDING_MSPROF, "JOB3", 6 },
    { SL_FINDING_GRAPH, "graph_pb/lenet.pb", 1 },
  };
  SlFinding *finding;

  if (detection == NULL)
    return;

  assert_expected (detection, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (detection), ==, 0);

  /* Files are suffixed with ids 0, 1 and 10; the PROF_ folder inside
   * belongs to the profiler folder, and so do its timeline traces. */
  finding = get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "profiler");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "ranks"), ==, "0,1,10");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "msprof_folders"), ==, "PROF_000001_20230818142704322_COJGGGCANRMICFBC");
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 0);

  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "run_2/normal_run/profiler"), "ranks"), ==, "1");
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "cluster_propose"), "ranks"), ==, "2");

  finding = get_finding (detection, SL_FINDING_MSPROF, "JOB3");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "layout"), ==, "raw");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "devices"), ==, "1");
}

static void
test_msprof_folder (void)
{
  g_autoptr(SlDetection) detection =
    detect_dataset ("mindspore-ai__mindinsight/tests/utils/resource/profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC");
  SlFinding *finding;

  if (detection == NULL)
    return;

  g_assert_cmpuint (n_findings (detection), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 0);
  finding = get_finding (detection, SL_FINDING_MSPROF, ".");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 11);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "layout"), ==, "device");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "devices"), ==, "0");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "timelines"), ==, "5");
}

static void
test_catapult_traces (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("catapult-project__catapult/tracing/test_data");
  static const Expected expected[] = {
    { SL_FINDING_TRACE, "async_begin_end.json", 1 },
    { SL_FINDING_TRACE, "big_trace.json", 1 },
    { SL_FINDING_TRACE, "flow_simple.json", 1 },
    { SL_FINDING_TRACE, "google_highlight.json", 1 },
    { SL_FINDING_TRACE, "nanoseconds.json", 1 },
    { SL_FINDING_TRACE, "nestable_async.json", 1 },
    { SL_FINDING_TRACE, "simple_trace.json", 1 },
    { SL_FINDING_TRACE, "trivial_trace.json", 1 },
  };

  if (detection == NULL)
    return;

  assert_expected (detection, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (detection), ==, 0);
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_TRACE, "big_trace.json"), "form"), ==, "array");
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_TRACE, "google_highlight.json"), "form"), ==, "object");
  g_assert_cmpuint (sl_finding_get_size (get_finding (detection, SL_FINDING_TRACE, "google_highlight.json")), ==, 1779424);
}

static void
test_hta_and_kineto_traces (void)
{
  g_autoptr(SlDetection) hta = detect_dataset ("facebookresearch__HolisticTraceAnalysis/tests/data");
  g_autoptr(SlDetection) kineto = NULL;
  static const Expected expected[] = {
    { SL_FINDING_TRACE, "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 1 },
    { SL_FINDING_TRACE, "call_stack/backward_thread.json", 1 },
    /* "traceEvents" starts past 16 KiB of decompressed metadata here */
    { SL_FINDING_TRACE, "cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 1 },
    { SL_FINDING_TRACE, "critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz", 1 },
    { SL_FINDING_TRACE, "trace_compare/base/base.json.gz", 1 },
    { SL_FINDING_TRACE, "triton_example/triton_example.json.gz", 1 },
  };

  if (hta == NULL)
    return;

  assert_expected (hta, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (hta), ==, 0);
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (hta, SL_FINDING_TRACE, "trace_compare/base/base.json.gz"), "compressed"), ==, "gzip");
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (hta, SL_FINDING_TRACE, "call_stack/backward_thread.json"), "compressed"), ==, "no");

  kineto = detect_dataset ("pytorch__kineto/tb_plugin/test/gpu_metrics_input.json");
  if (kineto == NULL)
    return;
  g_assert_cmpuint (n_findings (kineto), ==, 1);
  g_assert_cmpuint (sl_finding_get_n_files (get_finding (kineto, SL_FINDING_TRACE, "gpu_metrics_input.json")), ==, 1);
}

static void
test_msinsight (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("Ascend__msinsight");
  static const Expected expected[] = {
    { SL_FINDING_TRACE, "server/src/test/fuzz/test_data/trace_view_tiny.json", 1 },
    { SL_FINDING_TRACE, "server/src/test/test_data/heatMap/trace_view.json", 1 },
    { SL_FINDING_MSPROF, "server/src/test/test_data/test_kernel_parse/op_summary_1.csv", 1 },
    { SL_FINDING_ASCEND_PROFILER, "test/data/pytorch/db/level0/rank0_ascend_pt", 2 },
    { SL_FINDING_ASCEND_PROFILER, "test/data/pytorch/text/level1/rank0_ascend_pt", 13 },
  };
  SlFinding *finding;

  if (detection == NULL)
    return;

  assert_expected (detection, expected, G_N_ELEMENTS (expected));

  /* An op summary on its own in a test folder is a profile of its ops,
   * with the rest of an msprof profile named as not beside it */
  g_assert_cmpuint (n_problems (detection), ==, 1);
  finding = get_finding (detection, SL_FINDING_MSPROF, "server/src/test/test_data/test_kernel_parse/op_summary_1.csv");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "table"), ==, "op-summary");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "missing_files"), ==,
                   "op_statistic_*.csv, step_trace_*.csv, task_time_*.csv, api_statistic_*.csv, msprof_*.json");

  /* The SQLite export stays inside its profiler folder */
  g_assert_cmpuint (count_kind (detection, SL_FINDING_PROFILER_DB), ==, 0);
  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "test/data/pytorch/db/level0/rank0_ascend_pt");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "export"), ==, "db");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "PyTorch");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "ranks"), ==, "0");
  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "test/data/pytorch/text/level1/rank0_ascend_pt");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "export"), ==, "text");
}

/* Profiler tables opened on their own: a profile of what each holds */
static void
test_single_profiler_files (void)
{
  static const struct {
    const char    *path;
    SlFindingKind  kind;
    const char    *table;
    const char    *missing;
  } files[] = {
    { "mindspore-ai__mindinsight/tests/utils/resource/profiler/step_trace_raw_0_detail_time.csv",
      SL_FINDING_MINDSPORE_PROFILER, "step-trace",
      "aicore_intermediate_0_type.csv, aicore_intermediate_0_detail.csv, aicpu_intermediate_0.csv, hccl_raw_0.csv, profiler_info_0.json" },
    { "mindspore-ai__mindinsight/tests/utils/resource/run_2/normal_run/profiler/aicore_intermediate_1_type.csv",
      SL_FINDING_MINDSPORE_PROFILER, "op-statistic", "hccl_raw_1.csv, profiler_info_1.json" },
    { "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
      SL_FINDING_ASCEND_PROFILER, "op-summary", NULL },
    { "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
      SL_FINDING_ASCEND_PROFILER, "step-trace", NULL },
    { "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json",
      SL_FINDING_ASCEND_PROFILER, "communication", NULL },
    { "Ascend__msprof-analyze/test/ut/advisor/advisor_backend/compute_advice/kernel_details.csv",
      SL_FINDING_ASCEND_PROFILER, "op-summary",
      "op_statistic.csv, step_trace_time.csv, api_statistic.csv, operator_memory.csv, communication.json, trace_view.json" },
    { "Ascend__msinsight/server/src/test/test_data/test_kernel_parse/op_summary_1.csv",
      SL_FINDING_MSPROF, "op-summary",
      "op_statistic_*.csv, step_trace_*.csv, task_time_*.csv, api_statistic_*.csv, msprof_*.json" },
    { "Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output/cluster_step_trace_time.csv",
      SL_FINDING_ASCEND_PROFILER, "cluster-step", "cluster_communication.json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(SlDetection) detection = detect_dataset (files[i].path);
      g_autofree char *name = g_path_get_basename (files[i].path);
      SlFinding *finding;

      if (detection == NULL)
        return;

      g_assert_cmpuint (n_findings (detection), ==, 1);
      finding = get_finding (detection, files[i].kind, name);
      g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
      g_assert_cmpstr (sl_finding_lookup_detail (finding, "table"), ==, files[i].table);
      g_assert_cmpstr (sl_finding_lookup_detail (finding, "missing_files"), ==, files[i].missing);
      g_assert_cmpuint (n_problems (detection), ==, files[i].missing != NULL ? 1 : 0);
      if (files[i].missing != NULL)
        {
          g_autoptr(SlProblem) problem = g_list_model_get_item (sl_detection_get_problems (detection), 0);

          g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_INFO);
          g_assert_true (g_str_has_prefix (sl_problem_get_message (problem), "Only "));
          g_assert_nonnull (strstr (sl_problem_get_message (problem), files[i].missing));
        }
    }
}

static void
test_profiler_db_file (void)
{
  g_autoptr(SlDetection) detection =
    detect_dataset ("Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
  SlFinding *finding;

  if (detection == NULL)
    return;

  g_assert_cmpuint (n_findings (detection), ==, 1);
  finding = get_finding (detection, SL_FINDING_PROFILER_DB, "ascend_pytorch_profiler_0.db");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "producer"), ==, "Ascend PyTorch profiler");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "page_size"), ==, "4096");
  g_assert_cmpuint (sl_finding_get_size (finding), ==, 679936);
}

static void
test_msprobe_and_tensors (void)
{
  g_autoptr(SlDetection) msprobe = detect_dataset ("Ascend__msprobe/test/msprobe_test");
  g_autoptr(SlDetection) mstt = NULL;
  g_autoptr(SlDetection) numpy = NULL;
  static const Expected expected[] = {
    { SL_FINDING_MSPROBE_DUMP, "mindspore_ut/compare/dump_file/mindspore_data", 1 },
    { SL_FINDING_MSPROBE_DUMP, "mindspore_ut/compare/dump_file/pytorch_data", 1 },
    { SL_FINDING_TENSOR, "mindspore_ut/api_accuracy_checker/files/2_3_input.npy", 1 },
  };
  SlFinding *finding;

  if (msprobe == NULL)
    return;

  assert_expected (msprobe, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (msprobe), ==, 0);

  finding = get_finding (msprobe, SL_FINDING_MSPROBE_DUMP, "mindspore_ut/compare/dump_file/mindspore_data");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "task"), ==, "statistics");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "level"), ==, "mix");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "mindspore");
  finding = get_finding (msprobe, SL_FINDING_MSPROBE_DUMP, "mindspore_ut/compare/dump_file/pytorch_data");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "pytorch");

  finding = get_finding (msprobe, SL_FINDING_TENSOR, "mindspore_ut/api_accuracy_checker/files/2_3_input.npy");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "dtype"), ==, "<f4");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "shape"), ==, "(2, 3)");

  mstt = detect_dataset ("xiaobingling93-pixel__Ascend-mstt/debug/accuracy_tools/msprobe/test/mindspore_ut/api_accuracy_checker/files/input.npy");
  if (mstt == NULL)
    return;
  g_assert_cmpuint (n_findings (mstt), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (mstt, SL_FINDING_TENSOR, "input.npy"), "shape"), ==, "(2, 3)");

  /* An object array is refused, never unpickled */
  numpy = detect_dataset ("numpy__numpy/numpy/lib/tests/data");
  if (numpy == NULL)
    return;
  g_assert_cmpuint (n_findings (numpy), ==, 0);
  g_assert_cmpuint (n_problems (numpy), ==, 1);
  assert_problem (numpy, "py3-objarr.npy", SL_SEVERITY_ERROR, 10);
}

static void
test_pipelines (void)
{
  g_autoptr(SlDetection) detection = detect_dataset ("Ascend__ascend_community_projects");
  static const Expected expected[] = {
    { SL_FINDING_PIPELINE, "2D_LiDAR_Pedestrain_Detection/pipelines/dr_spaam_drow_e40.pipeline", 1 },
    { SL_FINDING_PIPELINE, "AlphaPose/pipeline/video.pipeline", 1 },
    { SL_FINDING_PIPELINE, "PointPillars/pipeline/pfe.pipeline", 1 },
    { SL_FINDING_PIPELINE, "Video-ReID/pipeline/video.pipeline", 1 },
    { SL_FINDING_PIPELINE, "deepsort/pipeline/deepsort.pipeline", 1 },
    { SL_FINDING_PIPELINE, "kws/pipeline/crnn_ctc.pipeline", 1 },
  };
  static const struct {
    const char *name;
    const char *streams;
    const char *elements;
  } details[] = {
    { "2D_LiDAR_Pedestrain_Detection/pipelines/dr_spaam_drow_e40.pipeline", "detection0", "3" },
    { "AlphaPose/pipeline/video.pipeline", "alphapose", "9" },
    { "PointPillars/pipeline/pfe.pipeline", "pfe", "10" },
    { "Video-ReID/pipeline/video.pipeline", "queryVideoProcess", "24" },
    { "deepsort/pipeline/deepsort.pipeline", "encoder", "20" },
    { "kws/pipeline/crnn_ctc.pipeline", "kws", "4" },
  };

  if (detection == NULL)
    return;

  assert_expected (detection, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (n_problems (detection), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (details); i++)
    {
      SlFinding *finding = get_finding (detection, SL_FINDING_PIPELINE, details[i].name);

      g_assert_cmpstr (sl_finding_lookup_detail (finding, "streams"), ==, details[i].streams);
      g_assert_cmpstr (sl_finding_lookup_detail (finding, "elements"), ==, details[i].elements);
    }
}

static void
on_run_finished (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlDetection **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sl_detector_run_finish (SL_DETECTOR (object), result, &error);
  g_assert_no_error (error);
}

/* The whole folder in a worker thread, as the GUI does it: every kind
 * that has a standalone file in the datasets is there, and it stays fast
 * because nothing is parsed in full. */
static void
test_whole_folder (void)
{
  g_autofree char *path = dataset_path (".");
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  gint64 start;

  if (path == NULL)
    return;

  detector = sl_detector_new (path);
  start = g_get_monotonic_time ();
  sl_detector_run_async (detector, NULL, on_run_finished, &detection);
  while (detection == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), >=, 114);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_SUMMARY_RUN), >=, 12);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSORBOARD_RUN), >=, 4);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MINDSPORE_PROFILER), >=, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MSPROF), >=, 2);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_ASCEND_PROFILER), >=, 2);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), >=, 17);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_GRAPH), >=, 1);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSOR), >=, 2);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MSPROBE_DUMP), >=, 2);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_PIPELINE), >=, 6);
  g_assert_cmpuint (n_problems (detection), >=, 3);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/detect/mindinsight-writers", test_mindinsight_writers);
  g_test_add_func ("/datasets/detect/damaged-summaries", test_damaged_summaries);
  g_test_add_func ("/datasets/detect/tensorboard-reducer", test_tensorboard_reducer);
  g_test_add_func ("/datasets/detect/mindinsight-profiler", test_mindinsight_profiler);
  g_test_add_func ("/datasets/detect/msprof-folder", test_msprof_folder);
  g_test_add_func ("/datasets/detect/catapult-traces", test_catapult_traces);
  g_test_add_func ("/datasets/detect/hta-and-kineto-traces", test_hta_and_kineto_traces);
  g_test_add_func ("/datasets/detect/msinsight", test_msinsight);
  g_test_add_func ("/datasets/detect/profiler-db-file", test_profiler_db_file);
  g_test_add_func ("/datasets/detect/single-profiler-files", test_single_profiler_files);
  g_test_add_func ("/datasets/detect/msprobe-and-tensors", test_msprobe_and_tensors);
  g_test_add_func ("/datasets/detect/pipelines", test_pipelines);
  g_test_add_func ("/datasets/detect/whole-folder", test_whole_folder);

  return g_test_run ();
}
