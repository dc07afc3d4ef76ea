/* test-data-table.c: the shared table, with rows made up here
 *
 * Column widths against the widths of the values drawn, numeric sort,
 * the filter, the tooltip of a cut cell, copying a row and a column to the
 * clipboard, and the CSV export: written off the drawing thread, quoted,
 * and leaving no file behind when cancelled or failing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-data-table.h"
#include "sl-main-thread.h"
#include "sl-tooltip.h"

#define N_ROWS      1000
#define WIDE_ROW    500        /* neither among the first nor the last rows */
#define WIDE_VALUE  98765432109876.5
#define LONG_NAME   "Default/network-WithLossCell/_backbone-ResNet/layer4-SequentialCell/0-ResidualBlock/conv3-Conv2d/Conv2D-op4217_with_a_long_tail"

/* A row: a name and a value, the value also a property. */
#define TEST_TYPE_ROW (test_row_get_type ())
G_DECLARE_FINAL_TYPE (TestRow, test_row, TEST, ROW, GObject)

struct _TestRow
{
  GObject  parent_instance;
  char    *name;
  double   value;
};

G_DEFINE_FINAL_TYPE (TestRow, test_row, G_TYPE_OBJECT)

enum { PROP_0, PROP_COUNT };

static void
test_row_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  g_value_set_uint (value, (guint)TEST_ROW (object)->value % 7);
}

static void
test_row_finalize (GObject *object)
{
  g_free (TEST_ROW (object)->name);
  G_OBJECT_CLASS (test_row_parent_class)->finalize (object);
}

static void
test_row_class_init (TestRowClass *klass)
{
  G_OBJECT_CLASS (klass)->get_property = test_row_get_property;
  G_OBJECT_CLASS (klass)->finalize = test_row_finalize;
  g_object_class_install_property (G_OBJECT_CLASS (klass), PROP_COUNT,
                                   g_param_spec_uint ("count", NULL, NULL, 0, G_MAXUINT, 0,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
test_row_init (TestRow *self)
{
}

static TestRow *
test_row_new (const char *name,
              double      value)
{
  TestRow *row = g_object_new (TEST_TYPE_ROW, NULL);

  row->name = g_strdup (name);
  row->value = value;
  return row;
}

static GtkWidget *window;
static SlDataTable *table;
static char *tmp_root;
static GThread *main_thread;
static gboolean csv_on_main_thread;
static GCancellable *cancel_at_row_3;
static guint csv_calls;

static char *
name_text (gpointer item,
           gpointer user_data)
{
  return g_strdup (TEST_ROW (item)->name);
}

static char *
value_text (gpointer item,
            gpointer user_data)
{
  return g_strdup_printf ("%.3f", TEST_ROW (item)->value);
}

static double
value_number (gpointer item,
              gpointer user_data)
{
  return TEST_ROW (item)->value;
}

/* The CSV field of the value: notes which thread formats it, and cancels
 * the export at the third row when the test asks. */
static char *
value_csv (gpointer item,
           gpointer user_data)
{
  if (g_thread_self () == main_thread)
    csv_on_main_thread = TRUE;
  if (++csv_calls == 3 && cancel_at_row_3 != NULL)
    g_cancellable_cancel (cancel_at_row_3);
  return g_strdup_printf ("%g", TEST_ROW (item)->value);
}

static const SlDataColumn name_column = {
  .id = "name", .title = "Name", .flags = SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_ELLIPSIZE_MIDDLE,
  .text = name_text,
};
static const SlDataColumn value_column = {
  .id = "value", .title = "Value", .unit = "ms", .flags = SL_DATA_COLUMN_NUMERIC,
  .text = value_text, .number = value_number, .csv = value_csv, .csv_title = "value (ms)",
};
static const SlDataColumn count_column = {
  .id = "count", .title = "Count", .flags = SL_DATA_COLUMN_NUMERIC, .property = "count",
};

static const char *
big_style (gpointer item,
           gpointer user_data)
{
  return TEST_ROW (item)->value >= 100 ? "error" : NULL;
}

static const SlDataColumn styled_column = {
  .id = "styled", .title = "Styled", .unit = "ms", .flags = SL_DATA_COLUMN_NUMERIC,
  .text = value_text, .number = value_number, .style = big_style,
};

static GListStore *
make_rows (void)
{
  GListStore *store = g_list_store_new (TEST_TYPE_ROW);

  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *name = g_strdup_printf ("op-%04u", i);
      g_autoptr(TestRow) row = NULL;

      if (i == 0)
        row = test_row_new (LONG_NAME, 9);
      else if (i == 1)
        row = test_row_new ("alpha, \"quoted\"", 10);
      else if (i == 2)
        row = test_row_new ("ALPHA\ttabbed", 100);
      else if (i == WIDE_ROW)
        row = test_row_new (name, WIDE_VALUE);
      else
        row = test_row_new (name, 1000 + i);
      g_list_store_append (store, row);
    }
  return store;
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct {
  GtkWidget  *root;
  const char *text;
} LabelWait;

static gboolean
label_shown (gpointer data)
{
  LabelWait *wait = data;

  return find_label (wait->root, wait->text) != NULL;
}

/* The label showing @text once the rows are bound and laid out; however
 * slow the machine, only a label that never comes fails. */
static GtkWidget *
wait_for_label (GtkWidget  *root,
                const char *text)
{
  LabelWait wait = { root, text };

  g_assert_true (wait_until (label_shown, &wait, 60000));
  wait_for_frames (GTK_WIDGET (gtk_widget_get_root (root)));
  return find_label (root, text);
}

static void
collect_titles (GtkWidget *widget,
                GPtrArray *titles)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkColumnViewTitle"))
    g_ptr_array_add (titles, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_titles (child, titles);
}

/* The header of column @index: its width is the column's. */
static GtkWidget *
column_title (guint index)
{
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();

  collect_titles (GTK_WIDGET (sl_data_table_get_column_view (table)), titles);
  g_assert_cmpuint (index, <, titles->len);
  return g_ptr_array_index (titles, index);
}

static TestRow *
row_at (guint position)
{
  static TestRow *row;

  g_clear_object (&row);
  row = g_list_model_get_item (sl_data_table_get_rows (table), position);
  return row;
}

/* Shows the first rows: the list keeps the row it showed in view when it
 * is sorted again. */
static void
settle (void)
{
  GtkWidget *scroller = gtk_widget_get_first_child (GTK_WIDGET (table));

  wait_for_frames (window);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 0);
  wait_for_frames (window);
}

static gboolean
export_to (const char    *path,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  gboolean ok;

  csv_calls = 0;
  sl_main_thread_mark ();
  sl_data_table_export_csv_async (table, file, cancellable, store_result, &result);
  ok = sl_data_table_export_csv_finish (table, wait_for_result (&result), error);
  sl_main_thread_unmark ();
  return ok;
}

/* The widest number sits in row 500, not among the rows at either end:
 * its text is whole and inside its column (a cell wider than its column
 * would spill over the next one). */
static void
test_sizing (void)
{
  g_autofree char *wide = g_strdup_printf ("%.3f", WIDE_VALUE);
  GtkWidget *label;
  GtkWidget *title;
  graphene_rect_t label_bounds, title_bounds;
  int natural = 0;

  g_assert_cmpstr (sl_data_table_get_column_title (table, 1), ==, "Value (ms)");

  sl_data_table_sort_by (table, "value", GTK_SORT_DESCENDING);
  settle ();
  label = wait_for_label (GTK_WIDGET (sl_data_table_get_column_view (table)), wide);
  g_assert_nonnull (label);
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, >, 0);
  g_assert_cmpint (gtk_widget_get_width (label), >=, natural);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (label)), ==, PANGO_ELLIPSIZE_NONE);

  title = column_title (1);
  g_assert_true (gtk_widget_compute_bounds (label, GTK_WIDGET (table), &label_bounds));
  g_assert_true (gtk_widget_compute_bounds (title, GTK_WIDGET (table), &title_bounds));
  g_assert_cmpfloat (label_bounds.origin.x, >=, title_bounds.origin.x);
  g_assert_cmpfloat (label_bounds.origin.x + natural, <=, title_bounds.origin.x + title_bounds.size.width);
}

/* As numbers, 9 < 10 < 100; as text "10" < "100" < "9". */
static void
test_sort (void)
{
  sl_data_table_sort_by (table, "value", GTK_SORT_ASCENDING);
  g_assert_cmpfloat (row_at (0)->value, ==, 9);
  g_assert_cmpfloat (row_at (1)->value, ==, 10);
  g_assert_cmpfloat (row_at (2)->value, ==, 100);
  g_assert_cmpfloat (row_at (N_ROWS - 1)->value, ==, WIDE_VALUE);

  sl_data_table_sort_by (table, "value", GTK_SORT_DESCENDING);
  g_assert_cmpfloat (row_at (0)->value, ==, WIDE_VALUE);
  g_assert_cmpfloat (row_at (N_ROWS - 1)->value, ==, 9);

  /* A property column sorts by its number too: counts 0..6. */
  sl_data_table_sort_by (table, "count", GTK_SORT_DESCENDING);
  {
    guint first = (guint)row_at (0)->value % 7;
    guint last = (guint)row_at (N_ROWS - 1)->value % 7;

    g_assert_cmpuint (first, ==, 6);
    g_assert_cmpuint (last, ==, 0);
  }

  sl_data_table_sort_by (table, "name", GTK_SORT_ASCENDING);
  g_assert_cmpstr (row_at (0)->name, ==, "ALPHA\ttabbed");
}

/* Values that are not numbers (NAN) go after the numbers. */
static void
test_sort_unknown (void)
{
  g_autoptr(GListStore) store = g_list_store_new (TEST_TYPE_ROW);
  const double values[] = { 2, NAN, 1, NAN };
  SlDataTable *small = SL_DATA_TABLE (g_object_ref_sink (sl_data_table_new ()));
  GListModel *rows = sl_data_table_get_rows (small);
  g_autoptr(TestRow) first = NULL, second = NULL, third = NULL, fourth = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *name = g_strdup_printf ("row %u", i);
      g_autoptr(TestRow) row = test_row_new (name, values[i]);

      g_list_store_append (store, row);
    }
  sl_data_table_append_column (small, &name_column, NULL, NULL);
  sl_data_table_append_column (small, &value_column, NULL, NULL);
  sl_data_table_set_model (small, G_LIST_MODEL (store));
  sl_data_table_sort_by (small, "value", GTK_SORT_ASCENDING);

  first = g_list_model_get_item (rows, 0);
  second = g_list_model_get_item (rows, 1);
  third = g_list_model_get_item (rows, 2);
  fourth = g_list_model_get_item (rows, 3);
  g_assert_cmpfloat (first->value, ==, 1);
  g_assert_cmpfloat (second->value, ==, 2);
  g_assert_true (isnan (third->value) && isnan (fourth->value));
  g_assert_cmpstr (third->name, ==, "row 1");
  g_assert_cmpstr (fourth->name, ==, "row 3");
  g_object_unref (small);
}

static gboolean
is_total (gpointer item,
          gpointer user_data)
{
  return g_str_equal (TEST_ROW (item)->name, "Total");
}

/* A totals row stays last, in bold, whatever the sort and the filter,
 * and its number, the widest, sizes its column. */
static void
test_footer (void)
{
  g_autoptr(GListStore) store = g_list_store_new (TEST_TYPE_ROW);
  g_autoptr(GListStore) footer = g_list_store_new (TEST_TYPE_ROW);
  g_autoptr(TestRow) total = test_row_new ("Total", 123456789012.5);
  g_autoptr(TestRow) last = NULL;
  GtkWidget *small_window = gtk_window_new ();
  SlDataTable *small = SL_DATA_TABLE (sl_data_table_new ());
  GListModel *rows = sl_data_table_get_rows (small);
  GtkWidget *label;
  graphene_rect_t label_bounds, title_bounds;
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  int natural = 0;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("row %u", i);
      g_autoptr(TestRow) row = test_row_new (name, i + 1);

      g_list_store_append (store, row);
    }
  g_list_store_append (footer, total);
  sl_data_table_append_column (small, &name_column, NULL, NULL);
  sl_data_table_append_column (small, &value_column, NULL, NULL);
  sl_data_table_set_model (small, G_LIST_MODEL (store));
  sl_data_table_set_footer (small, G_LIST_MODEL (footer));
  sl_data_table_set_emphasis_func (small, is_total, NULL);
  gtk_window_set_default_size (GTK_WINDOW (small_window), 400, 300);
  gtk_window_set_child (GTK_WINDOW (small_window), GTK_WIDGET (small));
  gtk_window_present (GTK_WINDOW (small_window));

  for (guint order = 0; order < 2; order++)
    {
      sl_data_table_sort_by (small, "value", order == 0 ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
      g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
      g_clear_object (&last);
      last = g_list_model_get_item (rows, 3);
      g_assert_true (last == total);
    }
  sl_data_table_set_filter_text (small, "row 1");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  g_clear_object (&last);
  last = g_list_model_get_item (rows, 1);
  g_assert_true (last == total);
  sl_data_table_set_filter_text (small, NULL);

  label = wait_for_label (GTK_WIDGET (small), "123456789012.500");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (label, "emphasis"));
  g_assert_false (gtk_widget_has_css_class (find_label (GTK_WIDGET (small), "1.000"), "emphasis"));
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  collect_titles (GTK_WIDGET (small), titles);
  g_assert_true (gtk_widget_compute_bounds (label, GTK_WIDGET (small), &label_bounds));
  g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (titles, 1), GTK_WIDGET (small), &title_bounds));
  g_assert_cmpfloat (label_bounds.origin.x + natural, <=, title_bounds.origin.x + title_bounds.size.width);

  gtk_window_destroy (GTK_WINDOW (small_window));
}

static void
text_read (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(char **)user_data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
}

static gboolean
text_ready (gpointer data)
{
  return *(char **)data != NULL;
}

static char *
read_clipboard (void)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (window), NULL, text_read, &text);
  g_assert_true (wait_until (text_ready, &text, 10000));
  return text;
}

/* A cell's CSS class follows its row as rows are bound again; a renamed
 * column keeps its unit, in the header and in what is copied. */
static void
test_style_and_rename (void)
{
  g_autoptr(GListStore) store = g_list_store_new (TEST_TYPE_ROW);
  g_autoptr(TestRow) small_row = test_row_new ("small", 5);
  g_autoptr(TestRow) big_row = test_row_new ("big", 500);
  GtkWidget *styled_window = gtk_window_new ();
  SlDataTable *styled = SL_DATA_TABLE (sl_data_table_new ());
  g_autofree char *column = NULL;

  g_list_store_append (store, small_row);
  g_list_store_append (store, big_row);
  sl_data_table_append_column (styled, &name_column, NULL, NULL);
  sl_data_table_append_column (styled, &styled_column, NULL, NULL);
  sl_data_table_set_model (styled, G_LIST_MODEL (store));
  gtk_window_set_child (GTK_WINDOW (styled_window), GTK_WIDGET (styled));
  gtk_window_present (GTK_WINDOW (styled_window));

  for (guint order = 0; order < 2; order++)
    {
      sl_data_table_sort_by (styled, "styled", order == 0 ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
      g_assert_true (gtk_widget_has_css_class (wait_for_label (GTK_WIDGET (styled), "500.000"), "error"));
      g_assert_false (gtk_widget_has_css_class (find_label (GTK_WIDGET (styled), "5.000"), "error"));
    }

  sl_data_table_set_column_title (styled, "styled", "Renamed");
  g_assert_cmpstr (sl_data_table_get_column_title (styled, 1), ==, "Renamed (ms)");
  g_assert_cmpstr (gtk_column_view_column_get_title (sl_data_table_get_column (styled, "styled")), ==, "Renamed (ms)");
  column = sl_data_table_dup_column_text (styled, "styled");
  g_assert_cmpstr (column, ==, "Renamed (ms)\n500.000\n5.000\n");

  /* Several rows selected (a table that allows it): one a line. */
  sl_data_table_set_multiple (styled, TRUE);
  gtk_selection_model_select_all (gtk_column_view_get_model (sl_data_table_get_column_view (styled)));
  g_assert_true (sl_data_table_copy_row (styled));
  {
    g_autofree char *rows = read_clipboard ();

    g_assert_cmpstr (rows, ==, "big\t500.000\nsmall\t5.000");
  }
  sl_data_table_select (styled, 1);
  g_assert_cmpuint (sl_data_table_get_selected_position (styled), ==, 1);
  g_assert_true (sl_data_table_copy_row (styled));
  {
    g_autofree char *row = read_clipboard ();

    g_assert_cmpstr (row, ==, "small\t5.000");
  }

  gtk_window_destroy (GTK_WINDOW (styled_window));
}

static void
test_filter (void)
{
  GListModel *rows = sl_data_table_get_rows (table);

  /* Any case; only the searchable name, not the numbers. */
  sl_data_table_set_filter_text (table, "alpha");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  sl_data_table_set_filter_text (table, "1000");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  sl_data_table_set_filter_text (table, "OP-00");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 97);
  sl_data_table_set_filter_text (table, "");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, N_ROWS);
}

/* The long name is cut in its narrow column; its tooltip is all of it. */
static void
test_tooltip (void)
{
  GtkWidget *label;

  sl_data_table_sort_by (table, "value", GTK_SORT_ASCENDING);
  settle ();
  label = wait_for_label (GTK_WIDGET (sl_data_table_get_column_view (table)), LONG_NAME);
  g_assert_nonnull (label);
  g_assert_true (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  /* in a tooltip that wraps at a readable width */
  g_assert_cmpstr (sl_widget_get_long_tooltip (label), ==, LONG_NAME);
  g_assert_true (gtk_widget_get_has_tooltip (label));
}

static void
test_copy (void)
{
  g_autofree char *row = NULL;
  g_autofree char *column = NULL;
  g_autofree char *expected = NULL;

  sl_data_table_sort_by (table, "value", GTK_SORT_ASCENDING);
  sl_data_table_set_filter_text (table, "alpha");

  /* The selected row through the action Ctrl+C and the menu use; a tab
   * inside a value becomes a space. */
  sl_data_table_select (table, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (table), "table.copy-row", NULL));
  row = read_clipboard ();
  g_assert_cmpstr (row, ==, "ALPHA tabbed\t100.000\t2");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (table), "table.copy-column", "s", "value"));
  column = read_clipboard ();
  g_assert_cmpstr (column, ==, "Value (ms)\n10.000\n100.000\n");

  /* Nothing selected: nothing copied. */
  sl_data_table_select (table, GTK_INVALID_LIST_POSITION);
  g_assert_false (sl_data_table_copy_row (table));
  g_assert_null (sl_data_table_dup_column_text (table, "no-such-column"));

  sl_data_table_set_filter_text (table, NULL);
}

static void
test_export (void)
{
  g_autofree char *path = g_build_filename (tmp_root, "table.csv", NULL);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  sl_data_table_sort_by (table, "value", GTK_SORT_ASCENDING);
  sl_data_table_set_filter_text (table, "alpha");

  csv_on_main_thread = FALSE;
  g_assert_true (export_to (path, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (csv_on_main_thread);
  g_assert_cmpuint (csv_calls, ==, 2);
  g_assert_cmpfloat (sl_data_table_get_export_fraction (table), ==, 1.0);

  g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
  g_assert_cmpstr (csv, ==,
                   "Name,value (ms),Count\n"
                   "\"alpha, \"\"quoted\"\"\",10,3\n"
                   "ALPHA\ttabbed,100,2\n");

  /* All rows, in the order shown. */
  sl_data_table_set_filter_text (table, NULL);
  g_clear_pointer (&csv, g_free);
  g_assert_true (export_to (path, NULL, &error));
  g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, N_ROWS + 2);
  g_assert_true (g_str_has_prefix (lines[1], "Default/network-WithLossCell"));
  g_assert_true (g_str_has_prefix (lines[N_ROWS], "op-0500,9.87654e+13,"));
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (handle != NULL && g_dir_read_name (handle) != NULL)
    n++;
  return n;
}

/* Cancelled at the third row: a new file is never created, an old one is
 * left as it was, and no temporary file stays behind. */
static void
test_export_cancel (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "cancel", NULL);
  g_autofree char *fresh = g_build_filename (dir, "fresh.csv", NULL);
  g_autofree char *old = g_build_filename (dir, "old.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (old, "before\n", -1, NULL));

  cancel_at_row_3 = g_cancellable_new ();
  g_assert_false (export_to (fresh, cancel_at_row_3, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (csv_calls, ==, 3);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  g_clear_object (&cancel_at_row_3);

  cancel_at_row_3 = g_cancellable_new ();
  g_assert_false (export_to (old, cancel_at_row_3, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&cancel_at_row_3);
  g_assert_true (g_file_get_contents (old, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "before\n");

  g_assert_cmpuint (count_files (dir), ==, 1);
}

/* A folder that does not exist: the error names the file. */
static void
test_export_error (void)
{
  g_autofree char *path = g_build_filename (tmp_root, "no-such-folder", "lost.csv", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (export_to (path, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "lost.csv"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* A folder chosen as the file: refused, named, left alone. */
  {
    g_autofree char *folder = g_build_filename (tmp_root, "a-folder.csv", NULL);
    g_autofree char *base = NULL;

    g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
    g_assert_false (export_to (folder, NULL, &error));
    g_assert_nonnull (error);
    base = g_path_get_basename (folder);
    g_assert_nonnull (strstr (error->message, base));
    g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
    g_clear_error (&error);
  }

  /* Nothing shown: the header alone. */
  {
    g_autofree char *empty = g_build_filename (tmp_root, "empty.csv", NULL);
    g_autofree char *csv = NULL;

    sl_data_table_set_filter_text (table, "no row has this");
    g_assert_true (export_to (empty, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (empty, &csv, NULL, NULL));
    g_assert_cmpstr (csv, ==, "Name,value (ms),Count\n");
    sl_data_table_set_filter_text (table, NULL);
  }
}

static gboolean
export_finished (gpointer data)
{
  return !sl_data_table_is_exporting (data);
}

/* The export as the menu runs it: the bar under the table shows while it
 * runs and goes when it ends; a second export replaces the first. */
static void
test_save (void)
{
  g_autofree char *first = g_build_filename (tmp_root, "first.csv", NULL);
  g_autofree char *second = g_build_filename (tmp_root, "second.csv", NULL);
  g_autoptr(GFile) first_file = g_file_new_for_path (first);
  g_autoptr(GFile) second_file = g_file_new_for_path (second);
  g_autofree char *csv = NULL;
  GtkWidget *bar = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (table)));

  sl_data_table_set_filter_text (table, "alpha");
  sl_data_table_sort_by (table, "value", GTK_SORT_DESCENDING);
  g_assert_false (sl_data_table_is_exporting (table));

  sl_data_table_save_csv (table, first_file);
  g_assert_true (sl_data_table_is_exporting (table));
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (bar)));
  sl_data_table_save_csv (table, second_file);
  g_assert_true (wait_until (export_finished, table, 60000));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (bar)));

  g_assert_true (g_file_get_contents (second, &csv, NULL, NULL));
  g_assert_cmpstr (csv, ==,
                   "Name,value (ms),Count\n"
                   "ALPHA\ttabbed,100,2\n"
                   "\"alpha, \"\"quoted\"\"\",10,3\n");
  sl_data_table_set_filter_text (table, NULL);
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* A button column: a button where the row has a target, activating the
 * column's action with it; nothing where it has none; what it opens is
 * what a copy holds. */
static char *
button_text (gpointer item,
             gpointer user_data)
{
  return g_strdup ("Open");
}

static char *
button_csv (gpointer item,
            gpointer user_data)
{
  return g_strdup_printf ("/runs/%s", TEST_ROW (item)->name);
}

static GVariant *
button_target (gpointer item,
               gpointer user_data)
{
  return TEST_ROW (item)->value > 10 ? g_variant_new_string (TEST_ROW (item)->name) : NULL;
}

static const SlDataColumn button_column = {
  .id = "open", .title = "Open", .flags = SL_DATA_COLUMN_BUTTON,
  .text = button_text, .csv = button_csv, .tooltip = button_csv,
  .action = "test.open", .action_target = button_target,
};

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_free (*(char **)user_data);
  *(char **)user_data = g_variant_dup_string (parameter, NULL);
}

static void
collect_buttons (GtkWidget *widget,
                 GPtrArray *buttons)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "test.open") == 0 &&
      gtk_widget_get_visible (widget))
    g_ptr_array_add (buttons, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_buttons (child, buttons);
}

static void
test_button (void)
{
  g_autoptr(GListStore) store = g_list_store_new (TEST_TYPE_ROW);
  g_autoptr(TestRow) small_row = test_row_new ("small", 5);
  g_autoptr(TestRow) big_row = test_row_new ("big", 500);
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) open = g_simple_action_new ("open", G_VARIANT_TYPE_STRING);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autofree char *opened = NULL;
  g_autofree char *row = NULL;
  GtkWidget *button_window = gtk_window_new ();
  SlDataTable *buttoned = SL_DATA_TABLE (sl_data_table_new ());

  g_signal_connect (open, "activate", G_CALLBACK (open_action), &opened);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (open));
  gtk_widget_insert_action_group (button_window, "test", G_ACTION_GROUP (group));
  g_list_store_append (store, small_row);
  g_list_store_append (store, big_row);
  sl_data_table_append_column (buttoned, &name_column, NULL, NULL);
  sl_data_table_append_column (buttoned, &button_column, NULL, NULL);
  sl_data_table_set_model (buttoned, G_LIST_MODEL (store));
  gtk_window_set_child (GTK_WINDOW (button_window), GTK_WIDGET (buttoned));
  gtk_window_present (GTK_WINDOW (button_window));
  wait_for_label (GTK_WIDGET (buttoned), "small");

  /* Only the row with a target has a button; it opens that row. */
  collect_buttons (GTK_WIDGET (buttoned), buttons);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (sl_widget_get_long_tooltip (g_ptr_array_index (buttons, 0)), ==, "/runs/big");
  g_assert_cmpint (gtk_widget_get_width (g_ptr_array_index (buttons, 0)), <=,
                   gtk_column_view_column_get_fixed_width (sl_data_table_get_column (buttoned, "open")));
  g_signal_emit_by_name (g_ptr_array_index (buttons, 0), "clicked");
  g_assert_cmpstr (opened, ==, "big");

  /* A copy holds what the button opens, not its label. */
  row = sl_data_table_dup_row_text (buttoned, 1);
  g_assert_cmpstr (row, ==, "big\t/runs/big");

  gtk_window_destroy (GTK_WINDOW (button_window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GListStore) rows = NULL;
  int status;

  if (skip_without_display ())
    return 77;

  tmp_root = g_dir_make_tmp ("sightline-data-table-XXXXXX", NULL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  main_thread = g_thread_self ();

  table = SL_DATA_TABLE (sl_data_table_new ());
  sl_data_table_append_column (table, &name_column, NULL, NULL);
  sl_data_table_append_column (table, &value_column, NULL, NULL);
  sl_data_table_append_column (table, &count_column, NULL, NULL);
  rows = make_rows ();
  sl_data_table_set_model (table, G_LIST_MODEL (rows));

  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "Sightline data table");
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 480);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (table));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (window_mapped, window, 10000));

  g_test_add_func ("/data-table/sizing", test_sizing);
  g_test_add_func ("/data-table/sort", test_sort);
  g_test_add_func ("/data-table/sort-unknown", test_sort_unknown);
  g_test_add_func ("/data-table/footer", test_footer);
  g_test_add_func ("/data-table/style-and-rename", test_style_and_rename);
  g_test_add_func ("/data-table/filter", test_filter);
  g_test_add_func ("/data-table/tooltip", test_tooltip);
  g_test_add_func ("/data-table/copy", test_copy);
  g_test_add_func ("/data-table/export", test_export);
  g_test_add_func ("/data-table/export-cancel", test_export_cancel);
  g_test_add_func ("/data-table/export-error", test_export_error);
  g_test_add_func ("/data-table/save", test_save);
  g_test_add_func ("/data-table/button", test_button);

  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  g_free (tmp_root);
  return status;
}
