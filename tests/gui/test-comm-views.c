/* test-comm-views.c: the Profile document's Communication tab and the
 * Summary's hardware on generated torch_npu and msprof folders: columns
 * and cells worked out by hand, the totals row staying last through
 * sorting and following the filter, the link types and transfer sizes of
 * the op chosen, the src × dst matrix with its tooltip, "Show on the
 * Timeline", and what each part says when its files are missing; with
 * screenshots in light and dark style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "gui-test-util.h"
#include "sl-comm-row.h"
#include "sl-profile-page.h"

static char *tmp_root;

static const char *ops_json =
  "{\"step3\": {\"p2p\": {}, \"collective\": {\n"
  "  \"hcom_allReduce__1_0_1@9\": {\"Communication Time Info\": {\"Start Timestamp(us)\": 1736408883732241.5,"
  " \"Elapse Time(ms)\": 4.5, \"Transit Time(ms)\": 1.25, \"Wait Time(ms)\": 2, \"Synchronization Time(ms)\": 0.5,"
  " \"Idle Time(ms)\": 0.75, \"Wait Time Ratio\": 0.6154},\n"
  "   \"Communication Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 40.0, \"Transit Time(ms)\": 2.5,"
  " \"Bandwidth(GB/s)\": 16.0, \"Large Packet Ratio\": 0.0, \"Size Distribution\": {\"2.0\": [12, 1.5], \"16.0\": [1, 0.8]}}}},\n"
  "  \"hcom_broadcast__1_1_1@9\": {\"Communication Time Info\": {\"Start Timestamp(us)\": 1736408883740000,"
  " \"Elapse Time(ms)\": 1.5, \"Transit Time(ms)\": 0.75, \"Wait Time(ms)\": 0.25, \"Synchronization Time(ms)\": 0,"
  " \"Idle Time(ms)\": 0.5},\n"
  "   \"Communication Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 20, \"Transit Time(ms)\": 1.5,"
  " \"Bandwidth(GB/s)\": 13.3333, \"Size Distribution\": {}},"
  " \"RDMA\": {\"Transit Size(MB)\": 6, \"Transit Time(ms)\": 0.5, \"Bandwidth(GB/s)\": 12, \"Size Distribution\": {}}}}}}}\n";

static const char *matrix_json =
  "{\"step3\": {\"p2p\": {}, \"collective\": {\n"
  " \"allreduce-top1@9\": {\"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 30, \"Transit Time(ms)\": 2,"
  " \"Bandwidth(GB/s)\": 15}},\n"
  " \"allreduce-total@9\": {\n"
  "  \"0-0\": {\"Transport Type\": \"LOCAL\", \"Transit Size(MB)\": 4, \"Transit Time(ms)\": 0.01, \"Bandwidth(GB/s)\": 400},\n"
  "  \"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 60, \"Transit Time(ms)\": 4, \"Bandwidth(GB/s)\": 15,"
  " \"Op Name\": \"hcom_allReduce__1_0_1\"},\n"
  "  \"1-0\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 40, \"Transit Time(ms)\": 4, \"Bandwidth(GB/s)\": 10}}}}}\n";

static const char *info_json =
  "{\"OS\": \"Linux-4.19.36-aarch64\", \"hostname\": \"A2007104679\", \"cpuNums\": 192, \"memoryTotal\": 791800000,"
  " \"CPU\": [{\"Id\": 0, \"Name\": \"HiSilicon\", \"Logical_CPU_Count\": 1, \"Type\": \"TaishanV110\"}],"
  " \"DeviceInfo\": [{\"id\": 0, \"ctrl_cpu_id\": \"ARMv8_Cortex_A55\", \"ctrl_cpu_core_num\": 1, \"ts_cpu_core_num\": 4,"
  " \"ai_cpu_core_num\": 14, \"ai_core_num\": 32, \"aiv_num\": 0, \"aic_frequency\": \"1000\"}], \"rank_id\": 0}";

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
}

static gboolean
page_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

typedef struct {
  GtkWidget     *window;
  SlProfilePage *page;
} Shown;

static Shown
open_profile (const char *path)
{
  Shown shown;

  shown.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (shown.window), 1300, 800);
  shown.page = SL_PROFILE_PAGE (sl_profile_page_new (path, "profile"));
  gtk_window_set_child (GTK_WINDOW (shown.window), GTK_WIDGET (shown.page));
  gtk_window_present (GTK_WINDOW (shown.window));
  g_assert_true (wait_until (window_mapped, shown.window, 10000));
  g_assert_true (wait_until (page_loaded, shown.page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (shown.page)), ==, SL_DOCUMENT_READY);
  return shown;
}

static void
screenshots (GtkWidget  *window,
             const char *name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light = g_strdup_printf ("%s-light.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);
  g_autoptr(Capture) light_capture = NULL;
  g_autoptr(Capture) dark_capture = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  light_capture = capture_window (window, SCREENSHOT_DIR, light);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  dark_capture = capture_window (window, SCREENSHOT_DIR, dark);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  /* The dark style darkens the background, not just a widget or two. */
  g_assert_cmpfloat (capture_luma (dark_capture, 5, dark_capture->height - 5), <,
                     capture_luma (light_capture, 5, light_capture->height - 5));
}

static char *
cell (SlCommView *view,
      guint       row,
      guint       column)
{
  return sl_comm_view_dup_cell_text (view, row, column);
}

static void
assert_row (SlCommView         *view,
            guint               row,
            const char * const *expected)
{
  for (guint c = 0; expected[c] != NULL; c++)
    {
      g_autofree char *text = cell (view, row, c);

      g_assert_cmpstr (text, ==, expected[c]);
    }
}

typedef struct {
  char   *name;
  gint64  start;
  gint64  end;
} Link;

static void
show_on_timeline_cb (SlCommView *view,
                     const char *name,
                     gint64      start,
                     gint64      end,
                     Link       *link)
{
  g_free (link->name);
  link->name = g_strdup (name);
  link->start = start;
  link->end = end;
}

static void
test_communication (void)
{
  static const char * const titles[] = {
    "Step", "Kind", "Name", "Elapse", "Transit", "Wait", "Synchronization", "Idle", "Wait Ratio",
    "Synchronization Ratio", "HCCS (GB/s)", "RDMA (GB/s)",
  };
  /* wait / (wait + transit) = 2 / 3.25 and 0.25 / 1; sync 0.5 / 1.75 */
  static const char * const allreduce[] = {
    "step3", "collective", "hcom_allReduce__1_0_1@9", "4.5 ms", "1.25 ms", "2 ms", "500 µs", "750 µs",
    "0.6154", "0.2857", "16", "—", NULL,
  };
  static const char * const broadcast[] = {
    "step3", "collective", "hcom_broadcast__1_1_1@9", "1.5 ms", "750 µs", "250 µs", "0 ns", "500 µs",
    "0.2500", "0.0000", "13.33", "12", NULL,
  };
  /* 6 ms, 2 ms, 2.25 ms, 0.5 ms, 1.25 ms; 2.25 / 4.25; 60 MB in 4 ms */
  static const char * const total[] = {
    "Total", "", "", "6 ms", "2 ms", "2.25 ms", "500 µs", "1.25 ms", "0.5294", "0.2000", "15", "12", NULL,
  };
  static const char * const total_broadcast[] = {
    "Total", "", "", "1.5 ms", "750 µs", "250 µs", "0 ns", "500 µs", "0.2500", "0.0000", "13.33", "12", NULL,
  };
  g_autofree char *rank = g_build_filename (tmp_root, "run_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (rank, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *tooltip = NULL;
  g_autofree char *bandwidths = NULL;
  SlCommMatrixView *matrix;
  SlCommView *view;
  Link link = { NULL, -1, -1 };
  Shown shown;

  write_file (output, "communication.json", ops_json);
  write_file (output, "communication_matrix.json", matrix_json);
  write_file (rank, "profiler_info_0.json",
              "{\"rank_id\": 0, \"torch_npu_version\": \"2.1.0\", \"cann_version\": \"8.0.RC3\"}");
  shown = open_profile (rank);
  view = sl_profile_page_get_comm_view (shown.page);
  sl_profile_page_show_view (shown.page, "communication");

  g_assert_false (sl_comm_view_get_empty (view));
  g_assert_cmpuint (sl_comm_view_get_n_columns (view), ==, G_N_ELEMENTS (titles));
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    g_assert_cmpstr (sl_comm_view_get_column_title (view, c), ==, titles[c]);

  /* Longest first, the totals last. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_comm_view_get_rows (view)), ==, 3);
  assert_row (view, 0, allreduce);
  assert_row (view, 1, broadcast);
  assert_row (view, 2, total);
  sl_comm_view_sort_by (view, "elapse", FALSE);
  assert_row (view, 0, broadcast);
  assert_row (view, 2, total);

  /* Nothing selected: the details are the totals'. */
  bandwidths = sl_comm_view_dup_bandwidth_text (view);
  g_assert_cmpstr (bandwidths, ==, "HCCS 60 4 ms 15 —\nRDMA 6 500 µs 12 —\n");
  g_assert_cmpuint (sl_comm_packet_chart_get_n_bars (sl_comm_view_get_packet_chart (view)), ==, 2);

  matrix = sl_comm_view_get_matrix_view (view);
  g_assert_nonnull (sl_comm_matrix_view_get_matrix (matrix));
  /* The whole op's matrix is shown first: ranks 0 and 1. */
  g_assert_cmpuint (sl_comm_matrix_get_n_ranks (sl_comm_matrix_view_get_matrix (matrix)), ==, 2);
  tooltip = sl_comm_matrix_view_describe_cell (matrix, 0, 1);
  g_assert_cmpstr (tooltip, ==, "0 → 1\nHCCS\nSize: 60 MB\nTime: 4 ms\nBandwidth: 15 GB/s\nhcom_allReduce__1_0_1");
  g_assert_null (sl_comm_matrix_view_describe_cell (matrix, 1, 1));

  screenshots (shown.window, "comm-view");

  /* The op chosen: its link types and transfer sizes, and the timeline. */
  sl_comm_view_sort_by (view, "elapse", TRUE);
  sl_comm_view_select (view, 0);
  g_clear_pointer (&bandwidths, g_free);
  bandwidths = sl_comm_view_dup_bandwidth_text (view);
  g_assert_cmpstr (bandwidths, ==, "HCCS 40 2.5 ms 16 0.0000\n");
  g_assert_cmpuint (sl_comm_packet_chart_get_n_bars (sl_comm_view_get_packet_chart (view)), ==, 2);
  g_signal_connect (view, "show-on-timeline", G_CALLBACK (show_on_timeline_cb), &link);
  gtk_widget_activate_action (GTK_WIDGET (view), "comm.show-on-timeline", NULL);
  g_assert_cmpstr (link.name, ==, "hcom_allReduce__1_0_1");
  g_assert_cmpint (link.start, ==, 1736408883732241500);
  g_assert_cmpint (link.end, ==, 1736408883732241500 + 4500000);
  screenshots (shown.window, "comm-view-selected");

  /* The filter: the totals follow the rows shown. */
  sl_comm_view_set_filter (view, "BROADCAST");
  g_assert_cmpuint (g_list_model_get_n_items (sl_comm_view_get_rows (view)), ==, 2);
  assert_row (view, 0, broadcast);
  assert_row (view, 1, total_broadcast);
  sl_comm_view_set_filter (view, NULL);

  /* A fixed time unit goes in the headers, the times without it; the
   * totals stay last and the sort stays by elapsed time. */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autofree char *elapse = NULL;

    g_settings_set_string (settings, "time-unit", "ms");
    g_assert_cmpstr (sl_comm_view_get_column_title (view, 3), ==, "Elapse (ms)");
    g_assert_cmpstr (sl_comm_view_get_column_title (view, 8), ==, "Wait Ratio");
    elapse = sl_comm_view_dup_cell_text (view, 0, 3);
    g_assert_cmpstr (elapse, ==, "4.500");
    g_clear_pointer (&elapse, g_free);
    elapse = sl_comm_view_dup_cell_text (view, 2, 0);
    g_assert_cmpstr (elapse, ==, "Total");
    g_settings_reset (settings, "time-unit");
    g_assert_cmpstr (sl_comm_view_get_column_title (view, 3), ==, "Elapse");
    assert_row (view, 0, allreduce);
    assert_row (view, 2, total);
  }

  /* The profile's versions in the Summary; no host in these files. */
  g_assert_cmpstr (sl_hardware_group_get_value (sl_profile_page_get_hardware_group (shown.page), "Framework"), ==,
                   "torch_npu 2.1.0");
  g_assert_cmpstr (sl_hardware_group_get_value (sl_profile_page_get_hardware_group (shown.page), "CANN version"), ==,
                   "8.0.RC3");
  g_assert_null (sl_hardware_group_get_value (sl_profile_page_get_hardware_group (shown.page), "Host name"));

  g_signal_handlers_disconnect_by_func (view, show_on_timeline_cb, &link);
  g_free (link.name);
  /* A dock panel outside a dock: torn down with the process, not here. */
  gtk_widget_set_visible (shown.window, FALSE);
}

static void
test_hardware (void)
{
  g_autofree char *prof = g_build_filename (tmp_root, "PROF_000001_20240101000000000_ABCDEFGH", NULL);
  g_autofree char *device = g_build_filename (prof, "device_0", NULL);
  SlHardwareGroup *group;
  const char *description;
  SlCommView *view;
  Shown shown;

  write_file (device, "info.json.0", info_json);
  shown = open_profile (prof);
  group = sl_profile_page_get_hardware_group (shown.page);
  g_assert_nonnull (group);
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Host name"), ==, "A2007104679");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Operating system"), ==, "Linux-4.19.36-aarch64");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "CPU"), ==, "HiSilicon TaishanV110");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Logical CPU cores"), ==, "192");
  /* 791 800 000 kB */
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Memory"), ==, "755.1\u00a0GiB");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Device 0: AI Cores"), ==, "32");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Device 0: AI CPUs"), ==, "14");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Device 0: Control CPUs"), ==, "1 × ARMv8_Cortex_A55");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Device 0: TS CPUs"), ==, "4");
  g_assert_cmpstr (sl_hardware_group_get_value (group, "Device 0: AI Core frequency"), ==, "1000 MHz");
  g_assert_null (sl_hardware_group_get_value (group, "CANN version"));
  description = adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (group));
  g_assert_true (description == NULL || description[0] == '\0');
  screenshots (shown.window, "summary-hardware");

  /* No communication files: the tab says which and where it looked. */
  view = sl_profile_page_get_comm_view (shown.page);
  g_assert_true (sl_comm_view_get_empty (view));
  g_assert_nonnull (strstr (sl_comm_view_get_empty_text (view), "communication.json"));
  g_assert_nonnull (strstr (sl_comm_view_get_empty_text (view), prof));
  g_assert_nonnull (strstr (sl_comm_view_get_empty_text (view), "hccl_raw_&lt;id&gt;.csv"));
  sl_profile_page_show_view (shown.page, "communication");
  screenshots (shown.window, "comm-view-missing");
  /* A dock panel outside a dock: torn down with the process, not here. */
  gtk_widget_set_visible (shown.window, FALSE);
}

/* A profile whose files say nothing of the hardware. */
static void
test_hardware_missing (void)
{
  g_autofree char *rank = g_build_filename (tmp_root, "bare_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (rank, "ASCEND_PROFILER_OUTPUT", NULL);
  SlHardwareGroup *group;
  const char *description;
  Shown shown;

  write_file (output, "communication.json", ops_json);
  shown = open_profile (rank);
  group = sl_profile_page_get_hardware_group (shown.page);
  g_assert_cmpuint (sl_hardware_group_get_n_shown (group), ==, 0);
  description = adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (group));
  g_assert_nonnull (description);
  g_assert_nonnull (strstr (description, "info.json."));
  g_assert_nonnull (strstr (description, "profiler_info_"));
  g_assert_nonnull (strstr (description, "NPU_INFO"));
  g_assert_nonnull (strstr (description, rank));
  sl_profile_page_show_view (shown.page, "summary");
  screenshots (shown.window, "summary-hardware-missing");
  /* No communication_matrix.json: the matrix says so, the ops are listed. */
  g_assert_null (sl_comm_matrix_view_get_matrix (sl_comm_view_get_matrix_view (sl_profile_page_get_comm_view (shown.page))));
  g_assert_false (sl_comm_view_get_empty (sl_profile_page_get_comm_view (shown.page)));
  /* A dock panel outside a dock: torn down with the process, not here. */
  gtk_widget_set_visible (shown.window, FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = NULL;

  tmp_root = g_dir_make_tmp ("sightline-comm-views-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/comm-views/communication", test_communication);
  g_test_add_func ("/comm-views/hardware", test_hardware);
  g_test_add_func ("/comm-views/hardware-missing", test_hardware_missing);
  return g_test_run ();
}
