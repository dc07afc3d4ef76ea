/* test-demo-workspace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-demo-workspace.h"
#include "sl-detector.h"

static GBytes *
read_bytes (const char *dir,
            const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return g_file_load_bytes (file, NULL, NULL, NULL);
}

static void
test_demo_workspace_detected (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-demo-XXXXXX", NULL);
  g_autofree char *root = g_build_filename (tmp, "demo", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  GListModel *findings;
  gboolean seen[SL_FINDING_N_KINDS] = { FALSE };

  g_assert_true (sl_demo_workspace_ensure (root, &error));
  g_assert_no_error (error);

  detector = sl_detector_new (root);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (g_list_model_get_n_items (sl_detection_get_problems (detection)), ==, 0);
  findings = sl_detection_get_findings (detection);
  /* The summary run comes from the demo training job, not from here. */
  g_assert_cmpuint (g_list_model_get_n_items (findings), ==, 2);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      seen[sl_finding_get_kind (finding)] = TRUE;
      if (sl_finding_get_kind (finding) == SL_FINDING_MINDSPORE_PROFILER)
        g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
    }

  g_assert_false (seen[SL_FINDING_SUMMARY_RUN]);
  g_assert_true (seen[SL_FINDING_MINDSPORE_PROFILER]);
  g_assert_true (seen[SL_FINDING_PIPELINE]);
}

static void
test_demo_workspace_deterministic (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-demo-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (tmp, "a", NULL);
  g_autofree char *b = g_build_filename (tmp, "b", NULL);
  static const char *files[] = {
    "train/profiler/step_trace_raw_0_detail_time.csv",
    "train/profiler/ascend_timeline_display_0.json",
    "train/profiler/aicore_intermediate_0_type.csv",
  };

  g_assert_true (sl_demo_workspace_ensure (a, NULL));
  g_assert_true (sl_demo_workspace_ensure (b, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GBytes) one = read_bytes (a, files[i]);
      g_autoptr(GBytes) two = read_bytes (b, files[i]);

      g_assert_nonnull (one);
      g_assert_cmpuint (g_bytes_get_size (one), >, 100);
      g_assert_true (g_bytes_equal (one, two));
    }
}

static void
test_demo_workspace_step_trace_sums (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-demo-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_auto(GStrv) lines = NULL;
  guint rows = 0;

  g_assert_true (sl_demo_workspace_ensure (tmp, NULL));
  bytes = read_bytes (tmp, "train/profiler/step_trace_raw_0_detail_time.csv");
  lines = g_strsplit (g_bytes_get_data (bytes, NULL), "\n", -1);

  /* Each step row must satisfy the column relations MindSpore's writer keeps. */
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0' && lines[i][0] != '-'; i++)
    {
      g_auto(GStrv) col = g_strsplit (lines[i], ",", -1);
      guint64 start = g_ascii_strtoull (col[1], NULL, 10);
      guint64 end = g_ascii_strtoull (col[2], NULL, 10);
      guint64 fp = g_ascii_strtoull (col[4], NULL, 10);
      guint64 bp = g_ascii_strtoull (col[5], NULL, 10);

      g_assert_cmpuint (g_strv_length (col), ==, 9);
      g_assert_cmpuint (g_ascii_strtoull (col[3], NULL, 10), ==, end - start);
      g_assert_cmpuint (g_ascii_strtoull (col[6], NULL, 10), ==, fp - start);
      g_assert_cmpuint (g_ascii_strtoull (col[7], NULL, 10), ==, bp - fp);
      g_assert_cmpuint (g_ascii_strtoull (col[8], NULL, 10), ==, end - bp);
      rows++;
    }

  g_assert_cmpuint (rows, ==, 20);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/demo-workspace/detected", test_demo_workspace_detected);
  g_test_add_func ("/demo-workspace/deterministic", test_demo_workspace_deterministic);
  g_test_add_func ("/demo-workspace/step-trace-sums", test_demo_workspace_step_trace_sums);

  return g_test_run ();
}
