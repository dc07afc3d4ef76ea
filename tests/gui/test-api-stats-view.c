/* test-api-stats-view.c: the profile document's APIs tab on a generated
 * SQLite export (levels, per-level subtotals and shares, sorting,
 * filtering, tooltips, the step chooser, the calls shown and marked on the
 * timeline), on a generated api_statistic.csv with its timeline, and on a
 * profile without API data; screenshots in light and dark style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sqlite3.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-api-stats-view.h"
#include "sl-document-registry.h"
#include "sl-profile-page.h"
#include "sl-timeline-page.h"

/* Step 1 is [T, T + 1 ms), step 2 [T + 1 ms, T + 2 ms); calls at T + µs.
 * By hand: AscendCL 120 + 10 + 400 = 530 µs in 6 calls, HCCL 200 µs in
 * 1, Node 60 µs in 4; aclnnMm is 120 / 530 = 22.64% of its level and
 * 120 / 2000 = 6.00% of the two steps. In step 1 it is 2 calls, 60 µs,
 * 60 / 465 = 12.90% of AscendCL there; in step 2 one call of 60 µs,
 * 60 / 65 = 92.31%. */
#define T "1000000000000000000"
static const char database_sql[] =
  "CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
  "INSERT INTO STRING_IDS VALUES (1, 'aclnnMm'), (2, 'launch'), (3, 'Launch_Ffts'),"
  " (4, 'aclnnMmGetWorkspaceSize'), (5, 'aclrtSynchronizeStream');"
  "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
  "INSERT INTO ENUM_API_TYPE VALUES (5000, 'runtime'), (5500, 'hccl'), (10000, 'node'), (20000, 'acl');"
  "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
  "INSERT INTO STEP_TIME VALUES (1, " T ", " T " + 1000000), (2, " T " + 1000000, " T " + 2000000);"
  "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,"
  " connectionId INTEGER PRIMARY KEY, name INTEGER);";

typedef struct {
  int         type;
  int         name;
  int         start_us;
  int         duration_us;
} Call;

static const Call calls[] = {
  { 20000, 1, 100, 20 }, { 20000, 1, 300, 40 }, { 20000, 1, 1100, 60 },
  { 20000, 4, 90, 5 }, { 20000, 4, 1090, 5 },
  { 20000, 5, 500, 400 },
  { 10000, 2, 130, 10 }, { 10000, 2, 330, 10 }, { 10000, 2, 1130, 10 }, { 10000, 2, 1330, 30 },
  { 5500, 3, 1500, 200 },
};

static char *tmp_root;
static SlWindow *window;

static void
exec_sql (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static char *
make_database (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "db_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  char *path = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  sqlite3 *db;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec_sql (db, database_sql);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autofree char *sql = g_strdup_printf ("INSERT INTO CANN_API VALUES (" T " + %d, " T " + %d, %d, %lld, %u, %d);",
                                              calls[i].start_us * 1000,
                                              (calls[i].start_us + calls[i].duration_us) * 1000,
                                              calls[i].type, (7LL << 32) | 9, i, calls[i].name);

      exec_sql (db, sql);
    }
  sqlite3_close (db);
  return path;
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

/* torch_npu's text output: the statistics and a timeline whose CANN
 * slices carry the level in their names. */
static char *
make_text_profile (void)
{
  char *unit = g_build_filename (tmp_root, "text_ascend_pt", NULL);
  g_autofree char *out = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);

  write_file (out, "api_statistic.csv",
              "Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
              "acl,aclnnMm,75.05,6,12.508,10.29,14.53,2.215\n"
              "acl,aclnnMmGetWorkspaceSize,24.95,2,12.475,11.0,13.95,1.0\n"
              "hccl,Launch_Ffts,474.41,4,118.603,89.18,138.75,389.155\n");
  write_file (out, "trace_view.json",
              "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"args\":{\"name\":\"CANN\"}},\n"
              "{\"ph\":\"X\",\"name\":\"AscendCL@aclnnMm\",\"pid\":5,\"tid\":1,\"ts\":10,\"dur\":12},\n"
              "{\"ph\":\"X\",\"name\":\"AscendCL@aclnnMm\",\"pid\":5,\"tid\":1,\"ts\":40,\"dur\":12},\n"
              "{\"ph\":\"X\",\"name\":\"AscendCL@aclnnMmGetWorkspaceSize\",\"pid\":5,\"tid\":1,\"ts\":60,\"dur\":12},\n"
              "{\"ph\":\"X\",\"name\":\"HCCL@Launch_Ffts\",\"pid\":5,\"tid\":1,\"ts\":80,\"dur\":100}]\n");
  return unit;
}

static char *
make_profile_without_apis (void)
{
  char *unit = g_build_filename (tmp_root, "bare_ascend_pt", NULL);
  g_autofree char *out = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);

  write_file (out, "kernel_details.csv",
              "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
              "1,MatMul1,MatMul,AI_CORE,100,40,0,20\n");
  return unit;
}

static gboolean
document_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
}

static gboolean
view_idle (gpointer data)
{
  return !sl_api_stats_view_is_busy (data);
}

static gboolean
idle_for_a_moment (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 1000);
}

static SlProfilePage *
open_profile (const char *path)
{
  SlProfilePage *page = SL_PROFILE_PAGE (sl_window_open_document (window, "profile", path, NULL));

  g_assert_nonnull (page);
  g_assert_true (wait_until (document_settled, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  sl_profile_page_show_view (page, "apis");
  return page;
}

static SlOpRow *
row_at (SlApiStatsView *view,
        guint           index)
{
  static SlOpRow *row;

  g_clear_object (&row);
  row = g_list_model_get_item (sl_api_stats_view_get_rows (view), index);
  return row;
}

static guint
position_of (SlApiStatsView *view,
             const char     *name)
{
  GListModel *rows = sl_api_stats_view_get_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      if (g_strcmp0 (sl_op_row_get_op_type (row_at (view, i)), name) == 0)
        return i;
    }
  g_assert_not_reached ();
}

static void
assert_cell (SlApiStatsView *view,
             const char     *name,
             const char     *column,
             const char     *expected)
{
  g_autofree char *text = sl_api_stats_view_dup_cell (view, row_at (view, position_of (view, name)), column);

  g_assert_cmpstr (text, ==, expected);
}

static SlTimelinePage *
find_timeline (const char *path)
{
  g_autofree char *id = sl_document_registry_dup_id (sl_document_registry_lookup ("timeline"), path);
  PanelWidget *page = sl_window_find_document (window, id);

  return page != NULL ? SL_TIMELINE_PAGE (page) : NULL;
}

typedef struct {
  const char *path;
  guint       matches;
} MatchWait;

static gboolean
timeline_matches (gpointer data)
{
  MatchWait *wait = data;
  SlTimelinePage *timeline = find_timeline (wait->path);

  return timeline != NULL && sl_document_get_state (SL_DOCUMENT (timeline)) == SL_DOCUMENT_READY &&
         !sl_timeline_page_is_busy (timeline) && sl_timeline_page_get_n_matches (timeline) == wait->matches;
}

static void
test_database (void)
{
  g_autofree char *path = make_database ();
  SlProfilePage *page = open_profile (path);
  SlApiStatsView *view = sl_profile_page_get_apis_view (page);
  g_autofree char *tooltip = NULL;
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  MatchWait wait = { path, 3 };
  GListModel *rows;

  g_assert_false (sl_api_stats_view_is_empty (view));
  rows = sl_api_stats_view_get_rows (view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  g_assert_cmpuint (sl_api_stats_view_get_n_levels (view), ==, 3);
  g_assert_cmpstr (sl_api_stats_view_get_levels_text (view), ==,
                   "AscendCL 530 µs in 6 calls · HCCL 200 µs in 1 call · Node 60 µs in 4 calls");
  /* The shares of a step are shown: the export has step times. */
  g_assert_cmpuint (sl_api_stats_view_get_n_columns (view), ==, 9);
  g_assert_cmpstr (sl_api_stats_view_get_column_title (view, 8), ==, "Of Step");

  /* Longest first, as read. */
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "aclrtSynchronizeStream");
  assert_cell (view, "aclnnMm", "level", "AscendCL");
  assert_cell (view, "aclnnMm", "count", "3");
  assert_cell (view, "aclnnMm", "total", "120 µs");
  assert_cell (view, "aclnnMm", "average", "40 µs");
  assert_cell (view, "aclnnMm", "min", "20 µs");
  assert_cell (view, "aclnnMm", "max", "60 µs");
  assert_cell (view, "aclnnMm", "level-share", "22.64%");
  assert_cell (view, "aclnnMm", "step-share", "6.00%");
  assert_cell (view, "Launch_Ffts", "level-share", "100.00%");
  assert_cell (view, "launch", "level", "Node");

  tooltip = sl_api_stats_view_dup_tooltip (view, row_at (view, position_of (view, "aclnnMm")));
  g_assert_cmpstr (tooltip, ==,
                   "aclnnMm\n"
                   "Level: AscendCL (acl)\n"
                   "3 calls, 120 µs in all, 40 µs on average\n"
                   "Shortest 20 µs, longest 60 µs\n"
                   "22.64% of the level's API time\n"
                   "6.00% of the steps' time");

  /* Sorting by count, then by name. */
  sl_api_stats_view_sort_by (view, "count", TRUE);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "launch");
  sl_api_stats_view_sort_by (view, "name", FALSE);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "Launch_Ffts");
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 1)), ==, "aclnnMm");
  sl_api_stats_view_sort_by (view, "level-share", TRUE);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "Launch_Ffts");

  /* A level, then a filter within it (by name or by level). */
  sl_api_stats_view_set_level (view, "acl");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 3);
  sl_api_stats_view_set_filter (view, "ACLNNMM");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  sl_api_stats_view_set_level (view, NULL);
  sl_api_stats_view_set_filter (view, "node");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "launch");
  sl_api_stats_view_set_filter (view, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  sl_api_stats_view_sort_by (view, "total", TRUE);

  /* A fixed time unit goes in the headers, not beside every number,
   * where a narrow column cut it off. */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_set_string (settings, "time-unit", "ms");
    g_assert_cmpstr (sl_api_stats_view_get_column_title (view, 3), ==, "Total (ms)");
    g_assert_cmpstr (sl_api_stats_view_get_column_title (view, 2), ==, "Count");
    assert_cell (view, "aclnnMm", "total", "0.120");
    sl_api_stats_view_sort_by (view, "total", TRUE);
    g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "aclrtSynchronizeStream");
    g_settings_reset (settings, "time-unit");
    g_assert_cmpstr (sl_api_stats_view_get_column_title (view, 3), ==, "Total");
    sl_api_stats_view_sort_by (view, "total", TRUE);
  }

  /* Step 1, then step 2: summed from each call's time in a worker. */
  g_assert_true (sl_api_stats_view_has_steps (view));
  sl_api_stats_view_set_step (view, 0);
  g_assert_true (wait_until (view_idle, view, 10000));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  g_assert_cmpstr (sl_api_stats_view_get_levels_text (view), ==, "AscendCL 465 µs in 4 calls · Node 20 µs in 2 calls");
  assert_cell (view, "aclnnMm", "count", "2");
  assert_cell (view, "aclnnMm", "total", "60 µs");
  assert_cell (view, "aclnnMm", "average", "30 µs");
  assert_cell (view, "aclnnMm", "max", "40 µs");
  assert_cell (view, "aclnnMm", "level-share", "12.90%");
  assert_cell (view, "aclnnMm", "step-share", "6.00%");
  assert_cell (view, "aclrtSynchronizeStream", "step-share", "40.00%");
  tooltip = (g_free (tooltip), sl_api_stats_view_dup_tooltip (view, row_at (view, position_of (view, "aclnnMm"))));
  g_assert_true (g_str_has_suffix (tooltip, "\n6.00% of the step's time"));

  sl_api_stats_view_set_step (view, 1);
  g_assert_true (wait_until (view_idle, view, 10000));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  assert_cell (view, "aclnnMm", "count", "1");
  assert_cell (view, "aclnnMm", "level-share", "92.31%");
  assert_cell (view, "Launch_Ffts", "step-share", "20.00%");
  assert_cell (view, "launch", "total", "40 µs");
  g_assert_cmpuint (position_of (view, "Launch_Ffts"), ==, 0);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  light = capture_window (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  dark = capture_window (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  /* The table follows the style: the dark picture is darker in its middle. */
  {
    int x, y;
    LumaStats light_box, dark_box;

    widget_origin_in (GTK_WIDGET (view), GTK_WIDGET (window), &x, &y);
    light_box = capture_luma_stats (light, x + 20, y + 120, 200, 60);
    dark_box = capture_luma_stats (dark, x + 20, y + 120, 200, 60);
    g_assert_cmpfloat (dark_box.median + 80, <, light_box.median);
  }

  /* Show Calls on the Timeline: the timeline opens and finds aclnnMm's
   * three calls, not aclnnMmGetWorkspaceSize's. */
  sl_api_stats_view_set_step (view, SL_API_STATS_ALL_STEPS);
  g_assert_true (wait_until (view_idle, view, 10000));
  sl_api_stats_view_select (view, position_of (view, "aclnnMm"));
  g_assert_null (find_timeline (path));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "apis.show-on-timeline", NULL));
  g_assert_true (wait_until (timeline_matches, &wait, 30000));

  /* With the timeline open, selecting another API marks its calls there. */
  panel_widget_raise (PANEL_WIDGET (page));
  sl_api_stats_view_select (view, position_of (view, "launch"));
  wait.matches = 4;
  g_assert_true (wait_until (timeline_matches, &wait, 30000));
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-timeline.png");
  panel_widget_raise (PANEL_WIDGET (find_timeline (path)));
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-timeline-marked.png");
}

static void
test_text_profile (void)
{
  g_autofree char *path = make_text_profile ();
  SlProfilePage *page = open_profile (path);
  SlApiStatsView *view = sl_profile_page_get_apis_view (page);
  g_autofree char *tooltip = NULL;
  g_autofree char *csv = NULL;
  MatchWait wait = { path, 2 };

  g_assert_cmpuint (g_list_model_get_n_items (sl_api_stats_view_get_rows (view)), ==, 3);
  /* Totals only: no step chooser, no share of a step. */
  g_assert_false (sl_api_stats_view_has_steps (view));
  g_assert_cmpuint (sl_api_stats_view_get_n_columns (view), ==, 8);
  assert_cell (view, "aclnnMm", "total", "75.05 µs");
  assert_cell (view, "aclnnMm", "average", "12.51 µs");
  /* 75.05 of the 100 µs AscendCL takes. */
  assert_cell (view, "aclnnMm", "level-share", "75.05%");
  tooltip = sl_api_stats_view_dup_tooltip (view, row_at (view, position_of (view, "aclnnMm")));
  csv = g_build_filename (path, "ASCEND_PROFILER_OUTPUT", "api_statistic.csv", NULL);
  g_assert_true (g_str_has_suffix (tooltip, csv) || strstr (tooltip, csv) != NULL);
  g_assert_nonnull (strstr (tooltip, ", line 2"));

  /* Its timeline names the calls "AscendCL@aclnnMm". */
  sl_api_stats_view_select (view, position_of (view, "aclnnMm"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "apis.show-on-timeline", NULL));
  g_assert_true (wait_until (timeline_matches, &wait, 30000));
}

static void
test_without_apis (void)
{
  g_autofree char *path = make_profile_without_apis ();
  SlProfilePage *page = open_profile (path);
  SlApiStatsView *view = sl_profile_page_get_apis_view (page);
  const char *text = sl_api_stats_view_get_empty_text (view);

  g_assert_true (sl_api_stats_view_is_empty (view));
  /* Which files it needs, and where it looked. */
  g_assert_nonnull (strstr (text, "api_statistic*.csv"));
  g_assert_nonnull (strstr (text, "CANN_API"));
  g_assert_nonnull (strstr (text, path));
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-empty.png");
}

/* The real level-0 export of the datasets (sqlite3, by hand): CANN_API
 * holds 713 calls of 57 APIs, 712 of 56 starting inside its one step;
 * PYTORCH_API 859 framework op calls of 133 ops besides the step marker,
 * all in the step. aclopCompileAndExecute: 19 calls, 9,543.42 µs. */
static void
test_real_database (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  AdwStyleManager *manager = adw_style_manager_get_default ();
  SlApiStatsView *view;
  GListModel *rows;
  guint64 n_calls = 0;

  if (datasets == NULL ||
      !g_file_test ((path = g_build_filename (datasets, "Ascend__msinsight", "test", "data", "pytorch", "db", "level0",
                                              "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT",
                                              "ascend_pytorch_profiler_0.db", NULL)),
                    G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the datasets folder is absent");
      return;
    }

  view = sl_profile_page_get_apis_view (open_profile (path));
  rows = sl_api_stats_view_get_rows (view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 57 + 133);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    n_calls += sl_op_row_get_count (row_at (view, i));
  g_assert_cmpuint (n_calls, ==, 713 + 859);
  assert_cell (view, "aten::item", "level", "Framework");
  assert_cell (view, "aclopCompileAndExecute", "count", "19");
  g_assert_cmpint (sl_op_row_get_total_ns (row_at (view, position_of (view, "aclopCompileAndExecute"))), ==, 9543420);

  g_assert_true (sl_api_stats_view_has_steps (view));
  sl_api_stats_view_set_step (view, 0);
  g_assert_true (wait_until (view_idle, view, 30000));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 56 + 133);
  n_calls = 0;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    n_calls += sl_op_row_get_count (row_at (view, i));
  g_assert_cmpuint (n_calls, ==, 712 + 859);
  /* The CANN levels alone. */
  sl_api_stats_view_set_level (view, "acl");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 54);
  sl_api_stats_view_set_level (view, NULL);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-real.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-real-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  /* A framework op's 27 calls, found on the export's own timeline. */
  {
    MatchWait wait = { path, 27 };

    sl_api_stats_view_select (view, position_of (view, "aten::item"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "apis.show-on-timeline", NULL));
    g_assert_true (wait_until (timeline_matches, &wait, 60000));
    settle ();
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-apis-real-timeline.png");
  }
}

static GtkWidget *
find_action_row (GtkWidget  *widget,
                 const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Summary's AI Core time is the Advisor's: 8.336 ms, 94.0 % of the
 * same ops' task duration on the level-1 export, never the aicore_time
 * column alone over every op (2.729 ms, 30.8 %); the tooltip says so. */
static void
test_real_text_summary (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  SlProfilePage *page;
  GtkWidget *row, *value;

  if (datasets == NULL ||
      !g_file_test ((path = g_build_filename (datasets, "Ascend__msinsight", "test", "data", "pytorch", "text", "level1",
                                              "rank0_ascend_pt", NULL)),
                    G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the datasets folder is absent");
      return;
    }

  page = open_profile (path);
  sl_profile_page_show_view (page, "summary");
  settle ();
  row = find_action_row (GTK_WIDGET (page), "AI Core time");
  g_assert_nonnull (row);
  value = gtk_widget_get_last_child (gtk_widget_get_first_child (row));
  while (value != NULL && !GTK_IS_LABEL (value))
    value = gtk_widget_get_last_child (value);
  g_assert_nonnull (value);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (value)), ==, "8.336 ms (94.0 % of those ops' task duration)");
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (row), "aiv_time for vector ops"));
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "profile-summary-ai-core.png");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlApplication) app = NULL;
  int status;

  tmp_root = make_test_home ("sightline-api-stats-XXXXXX");
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);

  g_test_add_func ("/api-stats-view/database", test_database);
  g_test_add_func ("/api-stats-view/text-profile", test_text_profile);
  g_test_add_func ("/api-stats-view/without-apis", test_without_apis);
  g_test_add_func ("/api-stats-view/real-database", test_real_database);
  g_test_add_func ("/api-stats-view/real-text-summary", test_real_text_summary);
  status = g_test_run ();

  g_clear_object (&app);
  return status;
}
