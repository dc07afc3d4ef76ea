/* test-memory-view.c: the profile document's Memory page on a generated
 * torch_npu folder: the peak and its holders, the tables sorted and
 * filtered, a click on the curve asking the timeline for that time, the
 * lifetimes drawn from a bounded number of bars, light and dark
 * screenshots; and a folder without memory files saying what it needs and
 * where it looked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-data-table.h"
#include "sl-memory-row.h"
#include "sl-memory-view.h"
#include "sl-profile-page.h"

#define N_LATER_ALLOCATIONS 3000

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

/* The peak is PTA+GE's 180 MB at 1020 µs, 20 µs after the first sample;
 * aten::a (50 MB), aten::c (20 MB, never released) and cann::e (4 MB)
 * hold memory there. Everything after 1030 µs stays below it. */
static char *
make_folder (void)
{
  char *unit = g_build_filename (tmp_root, "rank0_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autoptr(GString) record = g_string_new (
    "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
    "APP,1000.000\t,,512.0,,,NPU:0\n"
    "PTA,1000.000\t,100.0,200.0,100.0,1,NPU:0\n"
    "GE,1000.000\t,10.0,20.0,,1,NPU:0\n"
    "PTA+GE,1000.000\t,110.0,220.0,110.0,1,NPU:0\n"
    "PTA,1010.500\t,150.0,200.0,150.0,1,NPU:0\n"
    "PTA+GE,1010.500\t,160.0,220.0,160.0,1,NPU:0\n"
    "GE,1020.000\t,30.0,40.0,,1,NPU:0\n"
    "PTA+GE,1020.000\t,180.0,240.0,180.0,1,NPU:0\n"
    "PTA,1030.000\t,50.0,200.0,50.0,1,NPU:0\n"
    "PTA+GE,1030.000\t,80.0,240.0,80.0,1,NPU:0\n");
  g_autoptr(GString) operators = g_string_new (
    "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),"
    "Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),"
    "Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n"
    "aten::a,51200.0,1005.000\t,1025.000\t,,20.000\t,,150.0,200.0,,130.0,200.0,,7,NPU:0\n"
    "aten::b,10240.0,1001.000\t,1015.000\t,,14.000\t,,110.0,220.0,,150.0,220.0,,7,NPU:0\n"
    "aten::c,20480.0,1012.000\t,,,,,170.0,220.0,,,,,7,NPU:0\n"
    "aten::d,1024.0,1020.000\t,1020.000\t,,0.000\t,,180.0,240.0,,179.0,240.0,,7,NPU:0\n"
    "cann::e,4096.0,1020.000\t,1021.000\t,,1.000\t,,3.0,40.0,,0.0,40.0,,,NPU:0\n");

  for (guint i = 0; i < 200; i++)
    {
      double t = 1030 + (i + 1) * 5;
      double value = 60 + 40 * (i % 20) / 20.0;

      g_string_append_printf (record, "PTA,%.3f\t,%.1f,200.0,%.1f,1,NPU:0\n", t, value, value);
      g_string_append_printf (record, "PTA+GE,%.3f\t,%.1f,240.0,%.1f,1,NPU:0\n", t, value + 20, value + 20);
    }
  /* Thousands of short allocations later on, for the lifetimes' level of detail. */
  for (guint i = 0; i < N_LATER_ALLOCATIONS; i++)
    {
      double start = 1031 + i * 0.3;

      g_string_append_printf (operators, "aten::later_%u,%u.0,%.3f\t,%.3f\t,,%.3f\t,,,,,,,,7,NPU:0\n",
                              i % 40, 64 + i % 512, start, start + 0.5 + (i % 7), 0.5 + (i % 7));
    }

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  write_file (output, "memory_record.csv", record->str);
  write_file (output, "operator_memory.csv", operators->str);
  write_file (output, "npu_module_mem.csv",
              "Component,Timestamp(us),Total Reserved(MB),Device\n"
              "SLOG,1000.000\t,0.0,NPU:0\nHCCL,1000.000\t,404.0625,NPU:0\nHCCL,1030.000\t,300.0,NPU:0\n"
              "RUNTIME,1000.000\t,92.1875,NPU:0\n");
  return unit;
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
  gint64 until = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 2000);
}

static SlMemoryView *
memory_view (SlProfilePage *profile_page)
{
  GtkWidget *widget = GTK_WIDGET (profile_page);
  GtkWidget *found = NULL;
  g_autoptr(GPtrArray) queue = g_ptr_array_new ();

  g_ptr_array_add (queue, widget);
  for (guint i = 0; i < queue->len && found == NULL; i++)
    {
      GtkWidget *w = g_ptr_array_index (queue, i);

      if (SL_IS_MEMORY_VIEW (w))
        found = w;
      for (GtkWidget *child = gtk_widget_get_first_child (w); child; child = gtk_widget_get_next_sibling (child))
        g_ptr_array_add (queue, child);
    }
  g_assert_nonnull (found);
  return SL_MEMORY_VIEW (found);
}

static SlMemoryRow *
row_at (SlMemoryView *view,
        guint         index)
{
  static SlMemoryRow *row;

  g_clear_object (&row);
  row = g_list_model_get_item (sl_memory_view_get_table (view), index);
  g_assert_nonnull (row);
  return row;
}

static void
test_peak (void)
{
  SlMemoryView *view = memory_view (page);

  sl_profile_page_show_view (page, "memory");
  settle ();
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "memory");
  g_assert_false (sl_memory_view_get_empty (view));
  g_assert_nonnull (strstr (sl_memory_view_get_peak_text (view), "Peak: 180.00 MB allocated by PTA+GE at 20 µs"));
  g_assert_nonnull (strstr (sl_memory_view_get_peak_text (view), "3 operators hold 74.00 MB there"));

  /* The holders, largest first, with their share of the peak. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_memory_view_get_table (view)), ==, 3);
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 0)), ==, "aten::a");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 1), ==, "50.00 MB");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 2), ==, "27.8%");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 1), 4), ==, "not released");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 2), 1), ==, "4.00 MB");
  /* The count says what it counts. */
  g_assert_cmpstr (sl_memory_view_get_count_text (view), ==, "3 operators");

  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-memory.png"), >, 2000);
}

static void
test_tables (void)
{
  SlMemoryView *view = memory_view (page);
  GListModel *columns;

  sl_memory_view_show_table (view, "allocations");
  g_assert_cmpuint (g_list_model_get_n_items (sl_memory_view_get_table (view)), ==, 5 + N_LATER_ALLOCATIONS);
  /* By allocation time first: b at 1 µs. */
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 0)), ==, "aten::b");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 4), ==, "14 µs");

  sl_memory_view_set_filter (view, "ATEN::");
  g_assert_cmpuint (g_list_model_get_n_items (sl_memory_view_get_table (view)), ==, 4 + N_LATER_ALLOCATIONS);
  sl_memory_view_set_filter (view, "cann");
  g_assert_cmpuint (g_list_model_get_n_items (sl_memory_view_get_table (view)), ==, 1);
  g_assert_cmpstr (sl_memory_view_get_count_text (view), ==, "1 of 3,005 allocations");
  sl_memory_view_set_filter (view, NULL);
  g_assert_cmpstr (sl_memory_view_get_count_text (view), ==, "3,005 allocations");

  /* Largest first by the Size column. */
  columns = gtk_column_view_get_columns (sl_memory_view_get_column_view (view));
  {
    g_autoptr(GtkColumnViewColumn) size = g_list_model_get_item (columns, 1);

    gtk_column_view_sort_by_column (sl_memory_view_get_column_view (view), size, GTK_SORT_DESCENDING);
  }
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 0)), ==, "aten::a");
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 1)), ==, "aten::c");

  sl_memory_view_show_table (view, "components");
  g_assert_cmpuint (g_list_model_get_n_items (sl_memory_view_get_table (view)), ==, 4);
  g_assert_cmpstr (sl_memory_view_get_count_text (view), ==, "4 components");
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 1)), ==, "PTA");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 1), 1), ==, "150.00 MB");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 1), 2), ==, "83.3%");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 3), ==, "512.00 MB");

  /* The components as CSV, from the table's own export: every column,
   * every row, with their units. */
  {
    SlDataTable *table = SL_DATA_TABLE (gtk_widget_get_ancestor (GTK_WIDGET (sl_memory_view_get_column_view (view)),
                                                                 SL_TYPE_DATA_TABLE));
    g_autofree char *path = g_build_filename (tmp_root, "components.csv", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *csv = NULL;
    g_auto(GStrv) lines = NULL;

    sl_data_table_export_csv_async (table, file, NULL, store_result, &result);
    g_assert_true (sl_data_table_export_csv_finish (table, wait_for_result (&result), &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
    lines = g_strsplit (csv, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 4 + 2);
    g_assert_cmpstr (lines[0], ==, "Component,Allocated at Peak,Share of Peak,Reserved at Peak,Max Allocated,Max Reserved");
    g_assert_true (g_str_has_prefix (lines[2], "PTA,150.00 MB,83.3%,"));
  }

  sl_memory_view_show_table (view, "modules");
  g_assert_cmpstr (sl_memory_row_get_name (row_at (view, 0)), ==, "HCCL");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 1), ==, "404.06 MB");
  g_assert_cmpstr (sl_memory_row_get_text (row_at (view, 0), 2), ==, "300.00 MB");
  settle ();
  save_window_screenshot (window, SCREENSHOT_DIR, "profile-memory-modules.png");
  sl_memory_view_show_table (view, "holders");
}

typedef struct {
  guint  n;
  gint64 start_ns;
  gint64 end_ns;
  gint64 origin_ns;
} Asked;

static void
show_on_timeline_cb (SlProfilePage *profile_page,
                     const char    *search,
                     gint64         start_ns,
                     gint64         end_ns,
                     gint64         origin_ns,
                     Asked         *asked)
{
  asked->n++;
  asked->start_ns = start_ns;
  asked->end_ns = end_ns;
  asked->origin_ns = origin_ns;
}

static void
test_click (void)
{
  SlMemoryChart *chart = sl_memory_view_get_chart (memory_view (page));
  Asked asked = { 0 };
  gulong id = g_signal_connect (page, "show-on-timeline", G_CALLBACK (show_on_timeline_cb), &asked);
  double x = sl_memory_chart_x_for_time (chart, 1020000);
  g_autofree char *tooltip = sl_memory_chart_describe_at (chart, x, 100);

  sl_memory_chart_activate_at (chart, x);
  g_signal_handler_disconnect (page, id);

  /* The clicked time, within a pixel, in the middle of what is asked. */
  g_assert_cmpuint (asked.n, ==, 1);
  g_assert_cmpint (asked.origin_ns, ==, -1);
  g_assert_cmpint (llabs ((asked.start_ns + asked.end_ns) / 2 - 1020000), <, 2000);
  g_assert_cmpint (asked.end_ns - asked.start_ns, >, 0);
  g_assert_nonnull (strstr (tooltip, "PTA+GE: 180.00 MB"));

  /* Outside the plot nothing is asked. */
  g_assert_cmpint (sl_memory_chart_time_at (chart, 2), ==, -1);
}

/* Zoomed out on thousands of allocations, the bars drawn are the joined
 * spans, a few per lane, not one per allocation. */
static void
test_level_of_detail (void)
{
  SlMemoryChart *chart = sl_memory_view_get_chart (memory_view (page));
  int width = gtk_widget_get_width (GTK_WIDGET (chart));
  gint64 start, end;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 400);
  cairo_t *cr = cairo_create (surface);

  sl_memory_chart_draw (chart, cr, 1200, 400);
  g_assert_cmpuint (sl_memory_chart_get_n_bars_drawn (chart), >, 0);
  g_assert_cmpuint (sl_memory_chart_get_n_bars_drawn (chart), <, 32 * 50);

  /* Zoomed in, the view keeps the time under the pointer. */
  sl_memory_chart_zoom_at (chart, width / 2.0, 4);
  sl_memory_chart_get_view (chart, &start, &end);
  g_assert_cmpint (end - start, <, (2000000 - 1000000) / 3);
  sl_memory_chart_set_view (chart, 0, G_MAXINT64 / 2);
  sl_memory_chart_get_view (chart, &start, &end);
  g_assert_cmpint (start, ==, 1000000);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* An operator's link asks the profile for its row: the Operators page. */
static void
test_op_link (void)
{
  SlMemoryView *view = memory_view (page);
  g_autoptr(GVariant) name = g_variant_ref_sink (g_variant_new_string ("aten::a"));

  sl_profile_page_show_view (page, "memory");
  sl_memory_view_show_table (view, "holders");
  settle ();
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "memory");
  g_assert_nonnull (sl_data_table_get_column (SL_DATA_TABLE (gtk_widget_get_ancestor (
    GTK_WIDGET (sl_memory_view_get_column_view (view)), SL_TYPE_DATA_TABLE)), "operators-link"));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), "memory.show-op", name));
  settle ();
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "ops");

  sl_profile_page_show_view (page, "memory");
  settle ();
}

static void
test_dark (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "profile-memory-dark.png"), >, 2000);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
}

/* Steps only: the page says which files it needs and where it looked. */
static void
test_no_memory (void)
{
  g_autofree char *unit = g_build_filename (tmp_root, "bare_ascend_pt", NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  GtkWidget *other = gtk_window_new ();
  SlProfilePage *bare;
  SlMemoryView *view;

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  write_file (output, "step_trace_time.csv", "Step,Computing,Free\n1,10,2\n");
  gtk_window_set_default_size (GTK_WINDOW (other), 1000, 700);
  bare = SL_PROFILE_PAGE (sl_profile_page_new (unit, "bare"));
  gtk_window_set_child (GTK_WINDOW (other), GTK_WIDGET (bare));
  gtk_window_present (GTK_WINDOW (other));
  g_assert_true (wait_until (window_mapped, other, 10000));
  g_assert_true (wait_until (page_loaded, bare, 30000));

  sl_profile_page_show_view (bare, "memory");
  settle ();
  view = memory_view (bare);
  g_assert_true (sl_memory_view_get_empty (view));
  g_assert_nonnull (strstr (sl_memory_view_get_empty_description (view), "memory_record.csv"));
  g_assert_nonnull (strstr (sl_memory_view_get_empty_description (view), "MEMORY_RECORD"));
  g_assert_nonnull (strstr (sl_memory_view_get_empty_description (view), unit));
  save_window_screenshot (other, SCREENSHOT_DIR, "profile-memory-empty.png");
  /* Not destroyed: as the main page, it is a dock panel outside a dock. */
  gtk_widget_set_visible (other, FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *data_home = NULL;

  tmp_root = g_dir_make_tmp ("sightline-memory-view-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  folder = make_folder ();
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "Sightline memory view");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  page = SL_PROFILE_PAGE (sl_profile_page_new (folder, "rank0_ascend_pt"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (window_mapped, window, 10000));
  g_assert_true (wait_until (page_loaded, page, 30000));

  g_test_add_func ("/memory-view/peak", test_peak);
  g_test_add_func ("/memory-view/tables", test_tables);
  g_test_add_func ("/memory-view/click", test_click);
  g_test_add_func ("/memory-view/op-link", test_op_link);
  g_test_add_func ("/memory-view/level-of-detail", test_level_of_detail);
  g_test_add_func ("/memory-view/dark", test_dark);
  g_test_add_func ("/memory-view/no-memory", test_no_memory);

  /* As test-profile-views: the page is a dock panel outside a dock. */
  return g_test_run ();
}
