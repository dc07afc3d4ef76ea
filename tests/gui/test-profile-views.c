/* test-profile-views.c: the profile document on a generated MindSpore
 * profiler folder: summary, op statistics (sorting, filtering, tooltips,
 * CSV export) and the step trace, with screenshots of each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-main-thread.h"
#include "sl-op-stats-view.h"
#include "sl-profile-page.h"
#include "sl-step-trace-chart.h"
#include "sl-tooltip.h"

#define LONG_OP_NAME "Default/network-WithLossCell/_backbone-ResNet50/layer4-SequentialCell/0-ResidualBlock/conv3-Conv2d/Conv2D-op211"

/* What the fixture below says of the long op, worked out by hand: 0.325 ms
 * on average over 20 runs is 6.5 ms in all, 74.29% of the 8.75 ms the four
 * instances take (6.5 + 10 × 0.125 + 20 × 0.01 + 20 × 0.04); 333 MFLOPs
 * and 444 GFLOPS from flops_0.txt; block dim, shape, data type and format
 * from framework_raw_0.csv. */
#define LONG_OP_TOOLTIP \
  LONG_OP_NAME "\n" \
  "Type: Conv2D\n" \
  "20 calls, 6.5 ms in all, 325 µs on average\n" \
  "Share of Op Time (%): 74.29 — The op's share of the total time of every op in this table, on every core type.\n" \
  "333 million floating point operations, 444 GFLOPS\n" \
  "Input Shapes: 32,1,32,32\n" \
  "Input Data Types: NUMBER_TYPE_FLOAT16\n" \
  "Input Formats: NC1HWC0"

/* The by-op table's columns (those with values in this profile) and the
 * long op's row in them. */
static const char * const instance_columns[] = {
  "Name", "Type", "Count", "Total", "Average", "Min", "Max", "Share of Op Time (%)", "Block Dim",
  "MFLOPs", "GFLOPS", "Input Shapes", "Input Data Types", "Input Formats",
};
static const char * const long_op_cells[] = {
  LONG_OP_NAME, "Conv2D", "20", "6.5 ms", "325 µs", "325 µs", "325 µs", "74.29%", "32",
  "333", "444", "32,1,32,32", "NUMBER_TYPE_FLOAT16", "NC1HWC0",
};

static char *tmp_root;
static GtkWidget *window;
static SlProfilePage *page;

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

/* Ticks of 10 ns: step 1 starts at 1 000 000 ticks (10 ms). */
static char *
make_profiler_folder (void)
{
  char *dir = g_build_filename (tmp_root, "profiler", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  write_file (dir, "step_trace_raw_0_detail_time.csv",
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n"
              "1,1000000,1400000,400000,1000000,1300000,0,300000,100000\n"
              "2,1400000,1900000,500000,1500000,1800000,100000,300000,100000\n"
              "3,1900000,2350000,450000,1950000,2250000,50000,300000,100000\n"
              "4,2350000,2800000,450000,2400000,2700000,50000,300000,100000\n"
              "5,2800000,3300000,500000,2900000,3200000,100000,300000,100000\n"
              "-,-,-,460000,-,-,60000,300000,100000\n");
  write_file (dir, "aicore_intermediate_0_type.csv",
              "kernel_type,total_time,execution_frequency,percent\n"
              "Conv2D,6.5,20,65.0\n"
              "MatMul,2.5,10,25.0\n"
              "Cast,1.0,40,10.0\n");
  write_file (dir, "aicore_intermediate_0_detail.csv",
              "full_kernel_name,execution_time,execution_frequency\n"
              LONG_OP_NAME ",0.325,20\n"
              "Default/MatMul-op1,0.125,10\n"
              "Default/Cast-op2,0.01,20\n"
              "Default/Cast-op3,0.04,20\n");
  /* The older flops layout, where FLOPs and FLOPS differ only in case. */
  write_file (dir, "flops_0.txt",
              "full_kernel_name, FLOPs, FLOPS, FLOPS utilization\n"
              LONG_OP_NAME ", 333, 444, 33\n");
  write_file (dir, "framework_raw_0.csv",
              "task_id,stream_id,block_dim,full_kernel_name,op_name,kernel_name,kernel_type,subgraph,op_info\n"
              "1,0,32," LONG_OP_NAME "," LONG_OP_NAME ",Conv2D-op211,Conv2D,Default,"
              "\"{\"\"input_0\"\": {\"\"format\"\": \"\"NC1HWC0\"\", \"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": \"\"32,1,32,32\"\"}}\"\n"
              "2,0,8,Default/MatMul-op1,Default/MatMul-op1,MatMul-op1,MatMul,Default,"
              "\"{\"\"input_0\"\": {\"\"format\"\": \"\"FRACTAL_NZ\"\", \"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": \"\"64,128\"\"}}\"\n");
  return dir;
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

static gboolean
idle_for_a_moment (gpointer data)
{
  gint64 *until = data;

  return g_get_monotonic_time () > *until;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 1000);
}

static SlOpRow *
row_at (SlOpStatsView *view,
        guint          index)
{
  static SlOpRow *row;

  g_clear_object (&row);
  row = g_list_model_get_item (sl_op_stats_view_get_rows (view), index);
  return row;
}

static void
test_summary (void)
{
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_profile_get_n_ranks (sl_profile_page_get_profile (page)), ==, 1);
  g_assert_cmpuint (sl_profile_page_get_n_summary_rows (page), >=, 8);

  sl_profile_page_show_view (page, "summary");
  settle ();
  /* Text only: nothing coloured to count, the PNG is for people. */
  save_window_screenshot (window, SCREENSHOT_DIR, "profile-summary.png");
}

/* The long op's row, every figure the fixture gives it. */
static void
check_long_op_row (SlOpRow *row)
{
  g_assert_cmpstr (sl_op_row_get_name (row), ==, LONG_OP_NAME);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "Conv2D");
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 20);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 6500000);
  g_assert_cmpint (sl_op_row_get_avg_ns (row), ==, 325000);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 325000);
  g_assert_cmpint (sl_op_row_get_max_ns (row), ==, 325000);
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 100.0 * 6.5 / 8.75, 1e-9);
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 32);
  g_assert_cmpint (sl_op_row_get_stream_id (row), ==, 0);
  g_assert_cmpfloat (sl_op_row_get_mflops (row), ==, 333);
  g_assert_cmpfloat (sl_op_row_get_gflops_rate (row), ==, 444);
  g_assert_cmpstr (sl_op_row_get_input_shapes (row), ==, "32,1,32,32");
  g_assert_cmpstr (sl_op_row_get_input_dtypes (row), ==, "NUMBER_TYPE_FLOAT16");
  g_assert_cmpstr (sl_op_row_get_input_formats (row), ==, "NC1HWC0");
  g_assert_cmpstr (sl_op_row_get_output_shapes (row), ==, "");
}

static void
test_op_statistics (void)
{
  SlOpStatsView *view = sl_profile_page_get_ops_view (page);
  g_autofree char *csv_path = g_build_filename (tmp_root, "ops.csv", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *tooltip = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *rows = sl_op_stats_view_get_rows (view);

  sl_profile_page_show_view (page, "ops");

  /* By type, longest total first. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 3);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "Conv2D");

  sl_op_stats_view_sort_by (view, "count", TRUE);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "Cast");
  sl_op_stats_view_sort_by (view, "type", FALSE);
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 0)), ==, "Cast");
  g_assert_cmpstr (sl_op_row_get_op_type (row_at (view, 2)), ==, "MatMul");
  /* The types' ratios are the type file's percent, a share of the AI Core
   * ops' time only; the column and the tooltip say so. */
  {
    gboolean found = FALSE;

    for (guint i = 0; i < sl_op_stats_view_get_n_columns (view); i++)
      {
        g_assert_cmpstr (sl_op_stats_view_get_column_title (view, i), !=, "Ratio");
        found |= g_strcmp0 (sl_op_stats_view_get_column_title (view, i), "Share of AI Core Time (%)") == 0;
      }
    g_assert_true (found);
  }
  {
    g_autofree char *type_tooltip = sl_op_stats_view_dup_tooltip (view, row_at (view, 2));

    g_assert_nonnull (strstr (type_tooltip, "Share of AI Core Time (%): 25.00 — The op's share of the time of the ops "
                                            "that ran on the AI Core"));
  }

  /* By op: the long name is whole in the tooltip, with its shapes. */
  sl_op_stats_view_set_by_instance (view, TRUE);
  rows = sl_op_stats_view_get_rows (view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  g_assert_cmpstr (sl_op_row_get_name (row_at (view, 0)), ==, LONG_OP_NAME);
  tooltip = sl_op_stats_view_dup_tooltip (view, row_at (view, 0));
  g_assert_nonnull (strstr (tooltip, LONG_OP_NAME));
  g_assert_nonnull (strstr (tooltip, "32,1,32,32"));
  g_assert_nonnull (strstr (tooltip, "NC1HWC0"));
  g_assert_cmpfloat (sl_op_row_get_mflops (row_at (view, 0)), ==, 333);
  g_assert_cmpfloat (sl_op_row_get_gflops_rate (row_at (view, 0)), ==, 444);
  g_assert_nonnull (strstr (tooltip, "444 GFLOPS"));
  g_assert_cmpstr (tooltip, ==, LONG_OP_TOOLTIP);
  check_long_op_row (row_at (view, 0));
  g_assert_cmpuint (sl_op_stats_view_get_n_columns (view), ==, G_N_ELEMENTS (instance_columns));
  for (guint i = 0; i < G_N_ELEMENTS (instance_columns); i++)
    g_assert_cmpstr (sl_op_stats_view_get_column_title (view, i), ==, instance_columns[i]);

  sl_op_stats_view_set_filter (view, "CAST");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  sl_op_stats_view_set_filter (view, "");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);

  /* The export is the table as shown, times in microseconds. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (csv_path);
    g_autoptr(GAsyncResult) result = NULL;

    /* written on a worker: the drawing thread never writes */
    gboolean was_marked = sl_main_thread_is_current ();

    sl_main_thread_mark ();
    sl_op_stats_view_export_csv_async (view, file, NULL, store_result, &result);
    g_assert_true (sl_op_stats_view_export_csv_finish (view, wait_for_result (&result), &error));
    g_assert_no_error (error);
    if (!was_marked)
      sl_main_thread_unmark ();
  }
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (g_strchomp (csv), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_true (g_str_has_prefix (lines[0], "name,type"));
  g_assert_nonnull (strstr (lines[0], "total (us)"));
  g_assert_true (g_str_has_prefix (lines[1], LONG_OP_NAME ",Conv2D"));
  g_assert_nonnull (strstr (lines[1], ",325.000"));

  settle ();
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-ops.png"), >, 100);
  sl_op_stats_view_set_by_instance (view, FALSE);
  settle ();
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-op-types.png"), >, 100);
}

static gboolean
run_tool (const char * const *argv,
          char              **output)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, output, NULL, &status, &error))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static GdkPixbuf *
grab_screen (const char *name)
{
  g_autofree char *path = g_build_filename (SCREENSHOT_DIR, name, NULL);
  const char *argv[] = { "import", "-window", "root", path, NULL };

  g_mkdir_with_parents (SCREENSHOT_DIR, 0755);
  g_assert_true (run_tool (argv, NULL));
  return gdk_pixbuf_new_from_file (path, NULL);
}

static guint
count_changed_pixels (GdkPixbuf *a,
                      GdkPixbuf *b)
{
  int w = MIN (gdk_pixbuf_get_width (a), gdk_pixbuf_get_width (b));
  int h = MIN (gdk_pixbuf_get_height (a), gdk_pixbuf_get_height (b));
  int na = gdk_pixbuf_get_n_channels (a), nb = gdk_pixbuf_get_n_channels (b);
  const guchar *pa = gdk_pixbuf_read_pixels (a), *pb = gdk_pixbuf_read_pixels (b);
  guint changed = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guchar *ca = pa + y * gdk_pixbuf_get_rowstride (a) + x * na;
        const guchar *cb = pb + y * gdk_pixbuf_get_rowstride (b) + x * nb;

        changed += ca[0] != cb[0] || ca[1] != cb[1] || ca[2] != cb[2];
      }
  return changed;
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_label_with_text (GtkWidget  *widget,
                      const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_with_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
collect_numeric_labels (GtkWidget *widget,
                        GPtrArray *labels,
                        GPtrArray *titles)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkColumnViewTitle"))
    g_ptr_array_add (titles, widget);
  else if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "numeric"))
    g_ptr_array_add (labels, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_numeric_labels (child, labels, titles);
}

/* At 1024 × 640 with every column of the ops by op: every number is whole
 * and inside its own column, and a fixed time unit is in the header. */
static void
test_op_numbers_whole (void)
{
  SlOpStatsView *view = sl_profile_page_get_ops_view (page);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  GtkWidget *table;
  GtkWidget *total = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);
  sl_profile_page_show_view (page, "ops");
  sl_op_stats_view_set_by_instance (view, TRUE);
  sl_op_stats_view_sort_by (view, "total", TRUE);
  g_settings_set_string (settings, "time-unit", "ms");
  settle ();
  g_assert_cmpint (gtk_widget_get_width (window), <=, 1024);

  g_assert_cmpstr (sl_op_stats_view_get_column_title (view, 3), ==, "Total (ms)");
  table = find_descendant (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW);
  collect_numeric_labels (table, labels, titles);
  g_assert_cmpuint (labels->len, >=, 4 * 9);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      graphene_rect_t bounds;
      gboolean inside = FALSE;
      int natural = 0;

      if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), "6.500") == 0)
        total = label;
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_assert_true (gtk_widget_compute_bounds (label, table, &bounds));
      for (guint t = 0; t < titles->len; t++)
        {
          graphene_rect_t title;

          g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (titles, t), table, &title));
          if (bounds.origin.x >= title.origin.x && bounds.origin.x < title.origin.x + title.size.width)
            inside = bounds.origin.x + natural <= title.origin.x + title.size.width;
        }
      g_assert_true (inside);
    }
  /* The long op's total, 6.5 ms, without its unit beside it. */
  g_assert_nonnull (total);

  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-ops-1024.png"), >, 100);
  g_settings_reset (settings, "time-unit");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  settle ();
}

/* The tooltip GTK shows for @window: a popup that is one of its children,
 * or NULL when none is open. */
static GtkWidget *
find_open_tooltip (GtkWidget *window)
{
  for (GtkWidget *child = gtk_widget_get_first_child (window); child; child = gtk_widget_get_next_sibling (child))
    {
      if (g_str_equal (G_OBJECT_TYPE_NAME (child), "GtkTooltipWindow") && gtk_widget_get_mapped (child))
        return child;
    }
  return NULL;
}

static gboolean
tooltip_open (gpointer data)
{
  return find_open_tooltip (data) != NULL;
}

/* A real pointer over a cut-off op name, through the X server: the
 * tooltip with the full name and shapes must open, as users see it. */
static void
test_op_tooltip_on_screen (void)
{
  SlOpStatsView *view = sl_profile_page_get_ops_view (page);
  const char *search[] = { "xdotool", "search", "--name", "^Sightline profile views$", NULL };
  g_autofree char *ids = NULL;
  g_autofree char *geometry = NULL;
  g_autoptr(GdkPixbuf) before = NULL;
  g_autoptr(GdkPixbuf) after = NULL;
  graphene_rect_t bounds;
  GtkWidget *column_view;
  GtkWidget *name_label;
  double px, py;
  int wx = 0, wy = 0;
  gint64 until;

  if (!g_find_program_in_path ("xdotool") || !g_find_program_in_path ("import"))
    {
      g_test_skip ("xdotool and imagemagick are needed to hover for real");
      return;
    }

  sl_profile_page_show_view (page, "ops");
  sl_op_stats_view_set_by_instance (view, TRUE);
  sl_op_stats_view_sort_by (view, "total", TRUE);
  settle ();

  /* Where the window is on the screen, and the first row in it. */
  g_assert_true (run_tool (search, &ids));
  g_strstrip (ids);
  {
    const char *geometry_argv[] = { "xdotool", "getwindowgeometry", "--shell", ids, NULL };
    g_auto(GStrv) lines = NULL;

    g_assert_true (run_tool (geometry_argv, &geometry));
    lines = g_strsplit (geometry, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      {
        if (g_str_has_prefix (lines[i], "X="))
          wx = atoi (lines[i] + 2);
        else if (g_str_has_prefix (lines[i], "Y="))
          wy = atoi (lines[i] + 2);
      }
  }
  /* The long op's name cell in the table (not the type bars beside it). */
  column_view = find_descendant (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (column_view);
  name_label = find_label_with_text (column_view, LONG_OP_NAME);
  g_assert_nonnull (name_label);
  g_assert_true (gtk_widget_compute_bounds (name_label, window, &bounds));
  g_assert_cmpfloat (bounds.size.width, >, 100);
  px = bounds.origin.x + 60;
  py = bounds.origin.y + bounds.size.height / 2;

  {
    g_autofree char *x = g_strdup_printf ("%d", wx + (int)px);
    g_autofree char *y = g_strdup_printf ("%d", wy + (int)py);
    const char *away[] = { "xdotool", "mousemove", "--sync", "0", "0", NULL };
    const char *over[] = { "xdotool", "mousemove", "--sync", x, y, NULL };

    g_assert_true (run_tool (away, NULL));
    settle ();
    before = grab_screen ("profile-ops-before-hover.png");
    g_assert_true (run_tool (over, NULL));
  }

  /* GTK opens tooltips after a short hover. */
  until = g_get_monotonic_time () + 1500 * G_TIME_SPAN_MILLISECOND;
  wait_until (idle_for_a_moment, &until, 3000);
  after = grab_screen ("profile-ops-tooltip.png");
  g_assert_nonnull (before);
  g_assert_nonnull (after);
  g_assert_cmpuint (count_changed_pixels (before, after), >, 3000);

  /* Under the pointer is the long op's name, cut off in its column, with
   * the whole description as its tooltip. */
  {
    GtkWidget *picked = gtk_widget_pick (window, px, py, GTK_PICK_DEFAULT);
    GtkWidget *cell, *row, *list;
    graphene_rect_t row_bounds;
    guint n = 0;

    g_assert_true (picked == name_label);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (name_label)), ==, LONG_OP_NAME);
    g_assert_true (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (name_label))));
    g_assert_cmpstr (sl_widget_get_long_tooltip (name_label), ==, LONG_OP_TOOLTIP);

    /* Its row is the table's first (the longest total), and says, cell by
     * cell, what the fixture has for the op. */
    cell = gtk_widget_get_parent (name_label);
    row = gtk_widget_get_parent (cell);
    list = gtk_widget_get_parent (row);
    g_assert_true (gtk_widget_compute_bounds (row, list, &row_bounds));
    for (GtkWidget *other = gtk_widget_get_first_child (list); other; other = gtk_widget_get_next_sibling (other))
      {
        graphene_rect_t other_bounds;

        if (other == row || !gtk_widget_get_visible (other) || G_OBJECT_TYPE (other) != G_OBJECT_TYPE (row))
          continue;
        g_assert_true (gtk_widget_compute_bounds (other, list, &other_bounds));
        g_assert_cmpfloat (other_bounds.origin.y, >, row_bounds.origin.y);
      }
    for (GtkWidget *c = gtk_widget_get_first_child (row); c; c = gtk_widget_get_next_sibling (c), n++)
      {
        GtkWidget *cell_label = find_descendant (c, GTK_TYPE_LABEL);

        g_assert_cmpuint (n, <, G_N_ELEMENTS (long_op_cells));
        g_assert_nonnull (cell_label);
        g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell_label)), ==, long_op_cells[n]);
        /* Every cell of the row tells the same. */
        g_assert_cmpstr (sl_widget_get_long_tooltip (cell_label), ==, LONG_OP_TOOLTIP);
      }
    g_assert_cmpuint (n, ==, G_N_ELEMENTS (long_op_cells));
  }

  /* The tooltip GTK opened says exactly that. */
  g_assert_true (wait_until (tooltip_open, window, 3000));
  {
    /* in the label of a tooltip that wraps at a readable width */
    GtkWidget *tooltip_label = find_label_with_text (find_open_tooltip (window), LONG_OP_TOOLTIP);

    g_assert_nonnull (tooltip_label);
    g_assert_true (gtk_widget_get_mapped (tooltip_label));
    g_assert_true (gtk_label_get_wrap (GTK_LABEL (tooltip_label)));
  }
}

static void
shown_cb (SlProfilePage *emitter,
          const char    *search,
          gint64         start_ns,
          gint64         end_ns,
          gint64         origin_ns,
          gint64        *range)
{
  range[0] = start_ns;
  range[1] = end_ns;
  range[2] = origin_ns;
}

static void
test_step_trace (void)
{
  SlStepTraceChart *chart = sl_profile_page_get_step_chart (page);
  g_autofree char *first = NULL;
  gint64 range[3] = { 0, 0, 0 };
  gulong handler;

  sl_profile_page_show_view (page, "steps");
  settle ();

  first = sl_step_trace_chart_describe_step (chart, 1);
  g_assert_nonnull (first);
  g_assert_nonnull (strstr (first, "2"));
  /* Step 2 of the fixture: 500 000 ticks of 10 ns, of which 100 000 data
   * wait, 300 000 forward and backward and 100 000 tail. */
  g_assert_cmpstr (first, ==,
                   "Step 2\n"
                   "Total: 5 ms\n"
                   "Data wait: 1 ms (20.0%)\n"
                   "FP+BP: 3 ms (60.0%)\n"
                   "Tail: 1 ms (20.0%)\n"
                   "Click to show this step on the timeline");
  g_assert_null (sl_step_trace_chart_describe_step (chart, 5));

  /* The time axis labels every tick in one unit: "0 ms", not "0 ns". */
  {
    g_auto(GStrv) labels = sl_step_trace_chart_get_axis_labels (chart);

    g_assert_cmpuint (g_strv_length (labels), >=, 3);
    g_assert_cmpstr (labels[0], ==, "0 ms");
    for (guint i = 0; labels[i] != NULL; i++)
      g_assert_true (g_str_has_suffix (labels[i], " ms"));
  }

  /* Clicking a step asks for it on the timeline: 10 ns ticks. */
  handler = g_signal_connect (page, "show-on-timeline", G_CALLBACK (shown_cb), range);
  g_signal_emit_by_name (chart, "step-activated", 1u);
  g_signal_handler_disconnect (page, handler);
  g_assert_cmpint (range[0], ==, 14000000);
  g_assert_cmpint (range[1], ==, 19000000);
  g_assert_cmpint (range[2], ==, 10000000);

  g_assert_cmpint (sl_step_trace_chart_step_at (chart, -5, -5), ==, -1);
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-steps.png"), >, 1000);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-steps-dark.png"), >, 1000);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* torch_npu's step_trace_time.csv (the row of the Ascend PyTorch sample
 * rank0_ascend_pt): its step split as torch_npu splits it, 101.963 ms of
 * communication not overlapped by computing under that name, and no data
 * wait or tail, which that table does not measure. */
static void
test_step_trace_torch_npu (void)
{
  g_autofree char *unit = g_build_filename (tmp_root, "pt", "rank0_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  GtkWidget *pt_window = gtk_window_new ();
  SlProfilePage *pt;
  SlStepTraceChart *chart;
  g_autofree char *text = NULL;

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  write_file (output, "step_trace_time.csv",
              "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\n"
              "50,8873.756000000001,101963.203,4028.6750000000175,105991.87800000001,25744.050000000003,136581.0,0,"
              "101963.203,17902.5\n");
  pt = SL_PROFILE_PAGE (sl_profile_page_new (unit, "rank0_ascend_pt"));
  gtk_window_set_default_size (GTK_WINDOW (pt_window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (pt_window), GTK_WIDGET (pt));
  gtk_window_present (GTK_WINDOW (pt_window));
  g_assert_true (wait_until (page_loaded, pt, 30000));
  sl_profile_page_show_view (pt, "steps");
  settle ();

  chart = sl_profile_page_get_step_chart (pt);
  text = sl_step_trace_chart_describe_step (chart, 0);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "Step 50\nTotal: "));
  g_assert_nonnull (strstr (text, "\nComputing: "));
  g_assert_nonnull (strstr (text, "\nCommunication(Not Overlapped): 102 ms (74.7%)\n"));
  g_assert_nonnull (strstr (text, "\nFree: "));
  /* The columns that do not stack are listed too, by their own names. */
  g_assert_nonnull (strstr (text, "\nOverlapped: "));
  g_assert_nonnull (strstr (text, "\nPreparing: "));
  g_assert_null (strstr (text, "Tail"));
  g_assert_null (strstr (text, "Data wait"));
  g_assert_null (strstr (text, "FP+BP"));

  g_assert_cmpuint (save_window_screenshot (pt_window, SCREENSHOT_DIR, "profile-steps-ascend-pt.png"), >, 1000);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_cmpuint (save_window_screenshot (pt_window, SCREENSHOT_DIR, "profile-steps-ascend-pt-dark.png"), >, 1000);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

static gboolean
scrolled_down (gpointer data)
{
  return gtk_adjustment_get_value (data) > 0;
}

/* A link to an op (the graph's "(ss)" request) selects its row and
 * scrolls the table to it, clearing a filter that hid it; one to an op
 * the profile lacks changes nothing. */
static void
test_op_link (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "many", "profiler", NULL);
  GtkWidget *many_window = gtk_window_new ();
  GString *csv = g_string_new ("full_kernel_name,execution_time,execution_frequency\n");
  SlProfilePage *many;
  SlOpStatsView *view;
  GtkWidget *scrolled;
  SlOpRow *selected;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  /* 300 ops, the shortest last */
  for (guint i = 1; i <= 300; i++)
    g_string_append_printf (csv, "Default/net/layer%u/MatMul-op%u,%.3f,1\n", i, i, (301 - i) / 1000.0);
  write_file (dir, "aicore_intermediate_0_detail.csv", csv->str);
  g_string_free (csv, TRUE);
  write_file (dir, "aicore_intermediate_0_type.csv", "kernel_type,total_time,execution_frequency,percent\n"
                                                      "MatMul,45.15,300,100\n");

  many = SL_PROFILE_PAGE (sl_profile_page_new (dir, "many"));
  gtk_window_set_default_size (GTK_WINDOW (many_window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (many_window), GTK_WIDGET (many));
  gtk_window_present (GTK_WINDOW (many_window));
  g_assert_true (wait_until (page_loaded, many, 30000));
  settle ();
  view = sl_profile_page_get_ops_view (many);
  sl_op_stats_view_set_by_instance (view, TRUE);
  sl_op_stats_view_set_filter (view, "layer1/");

  sl_document_request (SL_DOCUMENT (many), g_variant_new ("(ss)", "op", "Default/net/layer290/MatMul-op290"));
  g_assert_cmpstr (sl_profile_page_get_view (many), ==, "ops");
  selected = sl_op_stats_view_get_selected (view);
  g_assert_nonnull (selected);
  g_assert_cmpstr (sl_op_row_get_name (selected), ==, "Default/net/layer290/MatMul-op290");
  /* Not "MatMul-op29", whose name begins the same */
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_stats_view_get_rows (view)), ==, 300);
  scrolled = gtk_widget_get_ancestor (find_descendant (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_true (wait_until (scrolled_down, gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), 5000));
  settle ();
  save_window_screenshot (many_window, SCREENSHOT_DIR, "profile-op-link.png");

  /* A name the profile lacks, or one holding regular expression
   * characters: no row, the selection stays. */
  sl_document_request (SL_DOCUMENT (many), g_variant_new ("(ss)", "op", "Default/net/layer.*/MatMul-op[0-9]+"));
  g_assert_true (sl_op_stats_view_get_selected (view) == selected);
  g_assert_false (sl_op_stats_view_select_op (view, "MatMul-op3000"));
  /* The short name of a full one is the same op */
  g_assert_true (sl_op_stats_view_select_op (view, "MatMul-op7"));
  g_assert_cmpstr (sl_op_row_get_name (sl_op_stats_view_get_selected (view)), ==, "Default/net/layer7/MatMul-op7");
}

/* Two ranks, one 30% slower: the summary lists both and names the slow one. */
static GtkLabel *
find_label_containing (GtkWidget  *widget,
                       const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_containing (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every label of @widget keeps words whole: no hyphen is inserted where
 * a long name wraps. */
static void
assert_no_hyphens (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    {
      PangoAttrList *attrs = gtk_label_get_attributes (GTK_LABEL (widget));
      PangoAttrIterator *it;
      PangoAttribute *hyphens;

      g_assert_nonnull (attrs);
      it = pango_attr_list_get_iterator (attrs);
      hyphens = pango_attr_iterator_get (it, PANGO_ATTR_INSERT_HYPHENS);
      g_assert_nonnull (hyphens);
      g_assert_false (((PangoAttrInt *) hyphens)->value);
      pango_attr_iterator_destroy (it);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    assert_no_hyphens (child);
}

static void
test_cluster_summary (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "cluster", "profiler", NULL);
  GtkWidget *cluster_window = gtk_window_new ();
  SlProfilePage *cluster;
  guint rows_one_rank;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  write_file (dir, "step_trace_raw_0_detail_time.csv",
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n"
              "1,1000000,1100000,100000,1010000,1090000,10000,80000,10000\n");
  write_file (dir, "step_trace_raw_1_detail_time.csv",
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n"
              "1,1000000,1130000,130000,1040000,1120000,40000,80000,10000\n");

  rows_one_rank = sl_profile_page_get_n_summary_rows (page);
  cluster = SL_PROFILE_PAGE (sl_profile_page_new (dir, "cluster"));
  gtk_window_set_default_size (GTK_WINDOW (cluster_window), 1000, 800);
  gtk_window_set_child (GTK_WINDOW (cluster_window), GTK_WIDGET (cluster));
  gtk_window_present (GTK_WINDOW (cluster_window));
  g_assert_true (wait_until (page_loaded, cluster, 30000));
  g_assert_cmpuint (sl_profile_get_n_ranks (sl_profile_page_get_profile (cluster)), ==, 2);
  /* A row per rank beside the rank's own summary. */
  g_assert_cmpuint (sl_profile_page_get_n_summary_rows (cluster), >=, 2 + 5);
  g_assert_cmpuint (rows_one_rank, >, 0);
  settle ();
  save_window_screenshot (cluster_window, SCREENSHOT_DIR, "profile-cluster.png");
  /* A rank's step and its phases read whole in a narrow window: the
   * row wraps rather than cut the phases' figures out of its middle. */
  gtk_window_set_default_size (GTK_WINDOW (cluster_window), 420, 800);
  settle ();
  {
    GtkLabel *step = find_label_containing (GTK_WIDGET (cluster), " a step (");

    g_assert_nonnull (step);
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (step)));
    g_assert_nonnull (strstr (gtk_label_get_text (step), "Tail"));
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (step)));
    /* nor is its title (a PROF_… folder name) broken with a hyphen */
    assert_no_hyphens (gtk_widget_get_ancestor (GTK_WIDGET (step), ADW_TYPE_ACTION_ROW));
  }
  sl_profile_page_set_rank (cluster, 1);
  g_assert_cmpuint (sl_step_trace_get_step (sl_profile_get_rank (sl_profile_page_get_profile (cluster), 1)->steps, 0)->total_ns,
                    ==, 1300000);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *data_home = NULL;
  int status;

  if (skip_without_display ())
    return 77;
  tmp_root = g_dir_make_tmp ("sightline-profile-views-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  folder = make_profiler_folder ();
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "Sightline profile views");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  page = SL_PROFILE_PAGE (sl_profile_page_new (folder, "profiler"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (window_mapped, window, 10000));
  g_assert_true (wait_until (page_loaded, page, 30000));

  g_test_add_func ("/profile-views/summary", test_summary);
  g_test_add_func ("/profile-views/op-statistics", test_op_statistics);
  g_test_add_func ("/profile-views/op-tooltip-on-screen", test_op_tooltip_on_screen);
  g_test_add_func ("/profile-views/op-numbers-whole", test_op_numbers_whole);
  g_test_add_func ("/profile-views/step-trace", test_step_trace);
  g_test_add_func ("/profile-views/step-trace-torch-npu", test_step_trace_torch_npu);
  g_test_add_func ("/profile-views/cluster-summary", test_cluster_summary);
  g_test_add_func ("/profile-views/op-link", test_op_link);
  status = g_test_run ();

  /* The page is a dock panel outside a dock here: leave tearing down to
   * the process exit rather than to a dock that is not there. */
  return status;
}
