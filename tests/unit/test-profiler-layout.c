/* test-profiler-layout.c: the table of profiler folder and file names
 *
 * Every layout: known names give the expected role, and names that look
 * alike do not match. Then the timeline answer of findings, which is
 * built on the same table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-detector.h"
#include "sl-profile-loader.h"
#include "sl-profiler-layout.h"

typedef struct {
  SlProfileLayout  layout;
  const char      *path;
  SlProfilerRole   role;
  gint64           id;
} FileCase;

static const FileCase file_cases[] = {
  /* MindSpore profiler* folders */
  { SL_PROFILE_LAYOUT_MINDSPORE, "step_trace_raw_0_detail_time.csv", SL_PROFILER_ROLE_STEP_TRACE, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "aicore_intermediate_1_type.csv", SL_PROFILER_ROLE_OP_STATISTIC, 1 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "aicore_intermediate_1_detail.csv", SL_PROFILER_ROLE_OP_SUMMARY, 1 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "aicpu_intermediate_1.csv", SL_PROFILER_ROLE_AICPU, 1 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "framework_raw_10.csv", SL_PROFILER_ROLE_FRAMEWORK, 10 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "ascend_timeline_display_0.json", SL_PROFILER_ROLE_TIMELINE, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "gpu_timeline_display_2.json", SL_PROFILER_ROLE_TIMELINE, 2 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "timeline_display_3.json.gz", SL_PROFILER_ROLE_TIMELINE, 3 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "ascend_timeline_summary_1.json", SL_PROFILER_ROLE_TIMELINE_SUMMARY, 1 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "timeline_summary_4.json", SL_PROFILER_ROLE_TIMELINE_SUMMARY, 4 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "flops_0.txt", SL_PROFILER_ROLE_FLOPS, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "flops_summary_0.json", SL_PROFILER_ROLE_FLOPS_SUMMARY, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "hccl_raw_2.csv", SL_PROFILER_ROLE_COMMUNICATION, 2 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "minddata_pipeline_raw_0.csv", SL_PROFILER_ROLE_DATA_PREPARATION, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "pipeline_profiling_0.json", SL_PROFILER_ROLE_DATA_PREPARATION, 0 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "profiler_info_3.json", SL_PROFILER_ROLE_INFO, 3 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "step_trace_point_info.json", SL_PROFILER_ROLE_STEP_TRACE_POINTS, -1 },
  { SL_PROFILE_LAYOUT_MINDSPORE, "output_format_data_hwts_1.txt", SL_PROFILER_ROLE_RAW, 1 },
  /* msprof PROF_ folders */
  { SL_PROFILE_LAYOUT_MSPROF, "PROF_1/device_0/timeline/msprof_0_2_1.json", SL_PROFILER_ROLE_TIMELINE, 0 },
  { SL_PROFILE_LAYOUT_MSPROF, "PROF_1/device_0/timeline/hccl_0_2_1.json", SL_PROFILER_ROLE_TIMELINE, 0 },
  { SL_PROFILE_LAYOUT_MSPROF, "PROF_1/device_0/timeline/task_time_0_2_1.json.gz", SL_PROFILER_ROLE_TIMELINE, 0 },
  { SL_PROFILE_LAYOUT_MSPROF, "mindstudio_profiler_output/msprof_20240101.json", SL_PROFILER_ROLE_TIMELINE, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "op_summary_20240101.csv", SL_PROFILER_ROLE_OP_SUMMARY, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "op_statistic_20240101.csv", SL_PROFILER_ROLE_OP_STATISTIC, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "api_statistic_20240101.csv", SL_PROFILER_ROLE_API_STATISTIC, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "task_time_20240101.csv", SL_PROFILER_ROLE_TASK_TIME, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "step_trace_20240101.csv", SL_PROFILER_ROLE_STEP_TRACE, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "info.json.0", SL_PROFILER_ROLE_INFO, 0 },
  { SL_PROFILE_LAYOUT_MSPROF, "info.json.0.done", SL_PROFILER_ROLE_OTHER, -1 },
  { SL_PROFILE_LAYOUT_MSPROF, "training_trace.46.dev.profiler_default_tag.1.slice_0", SL_PROFILER_ROLE_RAW, 1 },
  { SL_PROFILE_LAYOUT_MSPROF, "hwts.slice_0", SL_PROFILER_ROLE_RAW, -1 },
  /* torch_npu and MindSpore ASCEND_PROFILER_OUTPUT */
  { SL_PROFILE_LAYOUT_ASCEND_PT, "trace_view.json", SL_PROFILER_ROLE_TIMELINE, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "kernel_details.csv", SL_PROFILER_ROLE_OP_SUMMARY, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "op_statistic.csv", SL_PROFILER_ROLE_OP_STATISTIC, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "api_statistic.csv", SL_PROFILER_ROLE_API_STATISTIC, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "step_trace_time.csv", SL_PROFILER_ROLE_STEP_TRACE, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "memory_record.csv", SL_PROFILER_ROLE_MEMORY, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "operator_memory.csv", SL_PROFILER_ROLE_MEMORY, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "communication.json", SL_PROFILER_ROLE_COMMUNICATION, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "communication_matrix.json", SL_PROFILER_ROLE_COMMUNICATION, -1 },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "profiler_metadata.json", SL_PROFILER_ROLE_INFO, -1 },
  /* SQLite exports */
  { SL_PROFILE_LAYOUT_DATABASE, "msprof_20240101120000.db", SL_PROFILER_ROLE_DB, -1 },
  { SL_PROFILE_LAYOUT_DATABASE, "ascend_pytorch_profiler_0.db", SL_PROFILER_ROLE_DB, -1 },
  { SL_PROFILE_LAYOUT_DATABASE, "ascend_mindspore_profiler_1.db", SL_PROFILER_ROLE_DB, -1 },
  /* msprof-analyze */
  { SL_PROFILE_LAYOUT_CLUSTER, "cluster_step_trace_time.csv", SL_PROFILER_ROLE_CLUSTER_STEP, -1 },
  { SL_PROFILE_LAYOUT_CLUSTER, "cluster_communication_matrix.json", SL_PROFILER_ROLE_COMMUNICATION, -1 },
};

/* Names that look like profiler output of that layout and are not. */
static const FileCase non_matches[] = {
  { SL_PROFILE_LAYOUT_MINDSPORE, "step_trace_raw_x_detail_time.csv" },
  { SL_PROFILE_LAYOUT_MINDSPORE, "flops.txt" },
  { SL_PROFILE_LAYOUT_MINDSPORE, "my_ascend_timeline_display_0.json" },
  { SL_PROFILE_LAYOUT_MINDSPORE, "notes.txt" },
  { SL_PROFILE_LAYOUT_MSPROF, "timeline/msprof.csv" },
  { SL_PROFILE_LAYOUT_MSPROF, "device_0/summary/op_summary.txt" },
  { SL_PROFILE_LAYOUT_MSPROF, "other/timeline/task_time_0_1_1.json" },
  { SL_PROFILE_LAYOUT_MSPROF, "ts_track.data.3.slice_0.done" },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "trace_view.json.bak" },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "my_trace_view.json" },
  { SL_PROFILE_LAYOUT_ASCEND_PT, "kernel_details.txt" },
  { SL_PROFILE_LAYOUT_DATABASE, "cache.db" },
  { SL_PROFILE_LAYOUT_DATABASE, "msprof_1.db-journal" },
  { SL_PROFILE_LAYOUT_CLUSTER, "step_trace_time.csv" },
};

static void
test_files (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (file_cases); i++)
    {
      const FileCase *c = &file_cases[i];
      const SlProfilerEntry *entry;
      gint64 id = -2;

      g_test_message ("%s", c->path);
      g_assert_cmpstr (sl_profiler_role_to_string (sl_profiler_layout_classify_file (c->layout, c->path)), ==,
                       sl_profiler_role_to_string (c->role));
      entry = sl_profiler_layout_lookup_file (c->path, &id);
      g_assert_nonnull (entry);
      /* Names both msprof and torch_npu write (op_statistic*.csv) come
       * back as the first layout's; the role is the same. */
      g_assert_cmpint (entry->role, ==, c->role);
      g_assert_cmpint (id, ==, c->id);
    }

  for (guint i = 0; i < G_N_ELEMENTS (non_matches); i++)
    {
      g_test_message ("%s", non_matches[i].path);
      g_assert_cmpint (sl_profiler_layout_classify_file (non_matches[i].layout, non_matches[i].path), ==,
                       SL_PROFILER_ROLE_NONE);
    }
}

static void
test_folders (void)
{
  static const struct {
    const char      *name;
    SlProfilerRole   role;
    SlProfileLayout  layout;
    gint64           id;
  } cases[] = {
    { "profiler", SL_PROFILER_ROLE_PROFILE_FOLDER, SL_PROFILE_LAYOUT_MINDSPORE, -1 },
    { "profiler_gpu", SL_PROFILER_ROLE_PROFILE_FOLDER, SL_PROFILE_LAYOUT_MINDSPORE, -1 },
    { "PROF_000001_20230818142704322_COJGGGCANRMICFBC", SL_PROFILER_ROLE_PROFILE_FOLDER, SL_PROFILE_LAYOUT_MSPROF, -1 },
    { "JOB3", SL_PROFILER_ROLE_RAW_FOLDER, SL_PROFILE_LAYOUT_MSPROF, -1 },
    { "device_12", SL_PROFILER_ROLE_DEVICE_FOLDER, SL_PROFILE_LAYOUT_MSPROF, 12 },
    { "host", SL_PROFILER_ROLE_DEVICE_FOLDER, SL_PROFILE_LAYOUT_MSPROF, -1 },
    { "mindstudio_profiler_output", SL_PROFILER_ROLE_OUTPUT_FOLDER, SL_PROFILE_LAYOUT_MSPROF, -1 },
    { "rank0_ascend_pt", SL_PROFILER_ROLE_PROFILE_FOLDER, SL_PROFILE_LAYOUT_ASCEND_PT, -1 },
    { "node0_1234_20240101_ascend_ms", SL_PROFILER_ROLE_PROFILE_FOLDER, SL_PROFILE_LAYOUT_ASCEND_PT, -1 },
    { "ASCEND_PROFILER_OUTPUT", SL_PROFILER_ROLE_OUTPUT_FOLDER, SL_PROFILE_LAYOUT_ASCEND_PT, -1 },
    { "cluster_analysis_output", SL_PROFILER_ROLE_OUTPUT_FOLDER, SL_PROFILE_LAYOUT_CLUSTER, -1 },
  };
  static const char * const non_folders[] = {
    "my_profiler", "prof_1", "device_x", "devices", "_ascend_pt", "rank0_ascend_pt_old", "ascend_profiler_output",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlProfileLayout layout = SL_PROFILE_LAYOUT_CLUSTER + 1;
      gint64 id = -2;

      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (sl_profiler_layout_classify_dir (cases[i].name, &layout, &id), ==, cases[i].role);
      g_assert_cmpint (layout, ==, cases[i].layout);
      g_assert_cmpint (id, ==, cases[i].id);
    }

  for (guint i = 0; i < G_N_ELEMENTS (non_folders); i++)
    g_assert_cmpint (sl_profiler_layout_classify_dir (non_folders[i], NULL, NULL), ==, SL_PROFILER_ROLE_NONE);
}

static void
test_markers (void)
{
  gint64 id;

  g_assert_true (sl_profiler_layout_is_marker ("hccl_raw_3.csv", &id));
  g_assert_cmpint (id, ==, 3);
  g_assert_true (sl_profiler_layout_is_marker ("minddata_aicpu_0.txt", &id));
  g_assert_true (sl_profiler_layout_is_marker ("device_queue_profiling_1.txt", &id));
  g_assert_true (sl_profiler_layout_is_marker ("step_trace_point_info.json", &id));
  g_assert_cmpint (id, ==, -1);
  g_assert_false (sl_profiler_layout_is_marker ("trace_view.json", NULL));
  g_assert_false (sl_profiler_layout_is_marker ("kernel_details.csv", NULL));
  g_assert_false (sl_profiler_layout_is_marker ("ascend_timeline_display_.json", NULL));
}

static void
test_skip (void)
{
  g_assert_true (sl_profiler_layout_skip_dir ("rank0_ascend_pt", "PROF_000001", TRUE));
  g_assert_false (sl_profiler_layout_skip_dir ("rank0_ascend_pt", "PROF_000001", FALSE));
  g_assert_false (sl_profiler_layout_skip_dir ("profiler", "PROF_000001", TRUE));
  g_assert_false (sl_profiler_layout_skip_dir ("rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", TRUE));
  g_assert_true (sl_profiler_layout_skip_dir ("anything", ".hidden", FALSE));
}

/* Every entry's pattern compiles and is reached by some name: a later
 * entry hidden behind an earlier one would be dead. */
static void
test_entries (void)
{
  guint n_entries;
  const SlProfilerEntry *entries = sl_profiler_layout_get_entries (&n_entries);

  g_assert_cmpuint (n_entries, >, 0);
  for (guint i = 0; i < n_entries; i++)
    {
      g_assert_nonnull (entries[i].pattern);
      g_assert_nonnull (sl_profiler_role_to_string (entries[i].role));
      if ((entries[i].flags & SL_PROFILER_ENTRY_FOLDER) != 0)
        g_assert_cmpint (entries[i].role, <, SL_PROFILER_ROLE_TIMELINE);
      else
        g_assert_cmpint (entries[i].role, >=, SL_PROFILER_ROLE_TIMELINE);
    }
}

static char *
write_file (const char *dir,
            const char *relative,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static SlFinding *
find_finding (SlDetection   *detection,
              SlFindingKind  kind)
{
  for (guint i = 0; i < g_list_model_get_n_items (sl_detection_get_findings (detection)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_detection_get_findings (detection), i);

      if (sl_finding_get_kind (finding) == kind)
        return finding;
    }
  g_error ("no finding of kind %s", sl_finding_kind_to_id (kind));
  return NULL;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }
  g_remove (path);
}

/* The finding records its timeline files; the loader lists the same
 * traces, and the raw PROF_ copy inside an *_ascend_pt folder counts for
 * neither. */
static void
test_finding_timelines (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-layout-XXXXXX", NULL);
  g_autofree char *unit = g_build_filename (tmp, "rank0_ascend_pt", NULL);
  g_autofree char *trace = write_file (unit, "ASCEND_PROFILER_OUTPUT/trace_view.json", "[{\"ph\": \"X\"}]");
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GPtrArray) timelines = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;

  g_free (write_file (unit, "ASCEND_PROFILER_OUTPUT/kernel_details.csv", "Name\n"));
  g_free (write_file (unit, "PROF_000001/mindstudio_profiler_output/msprof_1.json", "[]"));

  detector = sl_detector_new (tmp);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  finding = find_finding (detection, SL_FINDING_ASCEND_PROFILER);

  g_assert_cmpstr (sl_finding_lookup_detail (finding, SL_FINDING_DETAIL_TIMELINE_FILES), ==, "1");
  g_assert_true (sl_finding_has_timeline (finding));
  timelines = sl_finding_dup_timeline_files (finding);
  g_assert_cmpuint (timelines->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (timelines, 0), ==, trace);

  listed = sl_profile_list_timeline_files (unit);
  g_assert_cmpuint (listed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (listed, 0), ==, trace);

  remove_tree (tmp);
}

/* A SQLite export is a timeline; a folder with tables only is not. */
static void
test_finding_without_timeline (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-layout-XXXXXX", NULL);
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlFinding) stored = NULL;
  SlFinding *finding;

  g_free (write_file (tmp, "profiler/step_trace_raw_0_detail_time.csv", "step_num\n"));
  g_free (write_file (tmp, "profiler/flops_0.txt", "x\n"));

  detector = sl_detector_new (tmp);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  finding = find_finding (detection, SL_FINDING_MINDSPORE_PROFILER);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, SL_FINDING_DETAIL_TIMELINE_FILES), ==, "0");
  g_assert_false (sl_finding_has_timeline (finding));

  /* A finding stored before the detail existed: its file names answer. */
  stored = sl_finding_new (SL_FINDING_ASCEND_PROFILER, "/p/rank0_ascend_pt", "rank0_ascend_pt");
  sl_finding_add_file (stored, "/p/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db", 10);
  g_assert_true (sl_finding_has_timeline (stored));

  remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profiler-layout/files", test_files);
  g_test_add_func ("/profiler-layout/folders", test_folders);
  g_test_add_func ("/profiler-layout/markers", test_markers);
  g_test_add_func ("/profiler-layout/skip", test_skip);
  g_test_add_func ("/profiler-layout/entries", test_entries);
  g_test_add_func ("/profiler-layout/finding-timelines", test_finding_timelines);
  g_test_add_func ("/profiler-layout/finding-without-timeline", test_finding_without_timeline);

  return g_test_run ();
}
