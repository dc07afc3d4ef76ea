/* test-step-export.c: "Export This Step's Timeline…" of the Steps chart
 *
 * A generated torch_npu profile (a step table of durations, a timeline
 * with ProfilerStep#N slices) is opened in the profile document. The
 * chart's menu action asks for the step clicked; the export reads the
 * timeline on a worker the first time and keeps it, and the written file
 * holds exactly the slices that overlap the step. A step that cannot be
 * placed, a profile without timeline files and a cancelled export say why
 * and write nothing. Screenshots of the Steps tab in light and dark style.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gui-test-util.h"
#include "sl-profile-page.h"
#include "sl-step-timeline-export.h"
#include "sl-step-trace-chart.h"

#define N_STEPS 5

static GtkWidget *window;
static SlProfilePage *page;
static char *tmp_root;
static char *folder;

static char *
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  return path;
}

/* Steps of 900 µs every 1000 µs, two ops and a kernel each, and one op
 * across the end of step 1 and the start of step 2. */
static char *
make_profile (const char *name,
              gboolean    with_timeline)
{
  g_autofree char *output = g_build_filename (tmp_root, name, "ASCEND_PROFILER_OUTPUT", NULL);
  GString *csv = g_string_new ("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n");
  g_autofree char *csv_path = NULL;

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  for (guint n = 0; n < N_STEPS; n++)
    g_string_append_printf (csv, "%u,700,0,0,0,200,900,0\n", n);
  csv_path = write_file (output, "step_trace_time.csv", csv->str);
  g_string_free (csv, TRUE);

  if (with_timeline)
    {
      GString *json = g_string_new ("[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":\"Ascend Hardware\"}},\n");
      g_autofree char *json_path = NULL;

      for (guint n = 0; n < N_STEPS; n++)
        {
          guint t = 1000 + n * 1000;

          g_string_append_printf (json, "{\"name\":\"ProfilerStep#%u\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":900},\n", n, t);
          g_string_append_printf (json, "{\"name\":\"op-%u-a\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":200},\n", n, t + 100);
          g_string_append_printf (json, "{\"name\":\"op-%u-b\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":300},\n", n, t + 500);
          g_string_append_printf (json, "{\"name\":\"k-%u\",\"ph\":\"X\",\"pid\":2,\"tid\":7,\"ts\":%u,\"dur\":100},\n", n, t + 150);
        }
      g_string_append (json, "{\"name\":\"straddle\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":2800,\"dur\":400}\n]\n");
      json_path = write_file (output, "trace_view.json", json->str);
      g_string_free (json, TRUE);
    }
  return g_build_filename (tmp_root, name, NULL);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

/* The names of the X events of a written file, sorted and joined. */
static char *
written_slices (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  JsonArray *events;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "ph", ""), "X") == 0)
        g_ptr_array_add (names, (gpointer)json_object_get_string_member (event, "name"));
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **)names->pdata);
}

static gboolean
page_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static gboolean
export_idle (gpointer data)
{
  return !sl_step_timeline_export_is_busy (data);
}

static SlStepTrace *
page_steps (void)
{
  return sl_profile_get_rank (sl_profile_page_get_profile (page), 0)->steps;
}

static void
record_index (SlStepTraceChart *chart,
              guint             index,
              gpointer          user_data)
{
  *(int *)user_data = (int)index;
}

/* The menu's items are actions of the chart taking the step's index. */
static void
test_menu_actions (void)
{
  SlStepTraceChart *chart = sl_profile_page_get_step_chart (page);
  int exported = -1, shown = -1;
  gulong export_id, show_id;

  g_assert_nonnull (sl_step_trace_chart_get_menu (chart));
  export_id = g_signal_connect (chart, "export-requested", G_CALLBACK (record_index), &exported);
  show_id = g_signal_connect (chart, "step-activated", G_CALLBACK (record_index), &shown);
  /* Blocks the page's own handler, which would ask for a file */
  g_signal_handlers_block_matched (chart, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, page);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "steps.export-timeline", "u", 2));
  g_assert_cmpint (exported, ==, 2);
  g_assert_cmpint (shown, ==, -1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "steps.show-on-timeline", "u", 3));
  g_assert_cmpint (shown, ==, 3);
  /* a step the chart does not have asks for nothing */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "steps.export-timeline", "u", 99));
  g_assert_cmpint (exported, ==, 2);

  g_signal_handlers_unblock_matched (chart, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, page);
  g_signal_handler_disconnect (chart, export_id);
  g_signal_handler_disconnect (chart, show_id);
}

static void
test_export_step (void)
{
  SlStepTimelineExport *export = sl_profile_page_get_step_export (page);
  g_autofree char *path = g_build_filename (tmp_root, "step-2.json", NULL);
  g_autofree char *path3 = g_build_filename (tmp_root, "step-3.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) file3 = g_file_new_for_path (path3);
  g_autofree char *names = NULL;
  g_autofree char *names3 = NULL;
  g_autofree char *expected = NULL;
  SlTrace *trace;

  /* the JSON timeline is not read with the profile */
  g_assert_null (sl_step_timeline_export_get_trace (export));
  sl_step_timeline_export_start (export, page_steps (), 2, file);
  g_assert_true (sl_step_timeline_export_is_busy (export));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (export)));
  g_assert_true (wait_until (export_idle, export, 30000));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (export)));

  expected = g_strdup_printf ("6 events of step 2 written to %s", path);
  g_assert_cmpstr (sl_step_timeline_export_get_message (export), ==, expected);
  names = written_slices (path);
  g_assert_cmpstr (names, ==, "ProfilerStep#2 k-2 op-2-a op-2-b straddle");

  /* the timeline read serves the next step */
  trace = sl_step_timeline_export_get_trace (export);
  g_assert_nonnull (trace);
  sl_step_timeline_export_start (export, page_steps (), 3, file3);
  g_assert_true (wait_until (export_idle, export, 30000));
  g_assert_true (sl_step_timeline_export_get_trace (export) == trace);
  names3 = written_slices (path3);
  g_assert_cmpstr (names3, ==, "ProfilerStep#3 k-3 op-3-a op-3-b");
}

static void
test_cannot_place (void)
{
  SlStepTimelineExport *export = sl_profile_page_get_step_export (page);
  g_autoptr(SlStepTrace) steps = sl_step_trace_new ("other_steps.csv", SL_STEP_SOURCE_MSPROF);
  g_autofree char *path = g_build_filename (tmp_root, "never.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SlStep step = {
    .step = 42, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME,
    .fp_ns = SL_STEP_NO_TIME, .bp_ns = SL_STEP_NO_TIME, .total_ns = 1000,
    .data_wait_ns = SL_STEP_NO_TIME, .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME,
  };

  sl_step_trace_add_step (steps, &step);
  sl_step_timeline_export_start (export, steps, 0, file);
  g_assert_true (wait_until (export_idle, export, 30000));
  g_assert_nonnull (strstr (sl_step_timeline_export_get_message (export), "other_steps.csv"));
  g_assert_nonnull (strstr (sl_step_timeline_export_get_message (export), "ProfilerStep#42"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* A profile with a step table and no timeline: the read says so. */
static void
test_no_timeline (void)
{
  g_autofree char *bare = make_profile ("bare_ascend_pt", FALSE);
  g_autoptr(SlStepTimelineExport) export = g_object_ref_sink (SL_STEP_TIMELINE_EXPORT (sl_step_timeline_export_new ()));
  g_autofree char *path = g_build_filename (tmp_root, "bare.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  sl_step_timeline_export_set_profile (export, bare, NULL);
  sl_step_timeline_export_start (export, page_steps (), 1, file);
  g_assert_true (wait_until (export_idle, export, 30000));
  g_assert_nonnull (strstr (sl_step_timeline_export_get_message (export), "bare_ascend_pt"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_null (sl_step_timeline_export_get_trace (export));
}

static void
test_cancelled (void)
{
  g_autoptr(SlStepTimelineExport) export = g_object_ref_sink (SL_STEP_TIMELINE_EXPORT (sl_step_timeline_export_new ()));
  g_autofree char *path = g_build_filename (tmp_root, "cancelled.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  sl_step_timeline_export_set_profile (export, folder, NULL);
  sl_step_timeline_export_start (export, page_steps (), 1, file);
  sl_step_timeline_export_cancel (export);
  g_assert_true (wait_until (export_idle, export, 30000));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (sl_step_timeline_export_get_message (export), !=, NULL);
  g_assert_null (strstr (sl_step_timeline_export_get_message (export), "written"));
}

static void
test_screenshots (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  sl_profile_page_show_view (page, "steps");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-steps-export-light.png"), >, 1000);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-steps-export-dark.png"), >, 1000);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = NULL;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  tmp_root = g_dir_make_tmp ("sightline-step-export-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  fail_on_gobject_warnings ();
  adw_init ();

  folder = make_profile ("train_ascend_pt", TRUE);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  page = SL_PROFILE_PAGE (sl_profile_page_new (folder, "train"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_nonnull (page_steps ());
  g_assert_cmpuint (sl_step_trace_get_n_steps (page_steps ()), ==, N_STEPS);

  g_test_add_func ("/step-export/menu-actions", test_menu_actions);
  g_test_add_func ("/step-export/export-step", test_export_step);
  g_test_add_func ("/step-export/cannot-place", test_cannot_place);
  g_test_add_func ("/step-export/no-timeline", test_no_timeline);
  g_test_add_func ("/step-export/cancelled", test_cancelled);
  g_test_add_func ("/step-export/screenshots", test_screenshots);

  /* The page is a dock panel outside a dock: left to the process exit. */
  return g_test_run ();
}
