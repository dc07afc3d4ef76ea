/* test-lineage-page.c: the Lineage view of generated runs: the table,
 * sorting and filters, brushing in the parallel coordinates marks runs in
 * the table and the table's selection in the chart, importance to a
 * target, a note kept in the workspace database, a run's Scalars opened;
 * light and dark screenshots of each view, the runs' table as the shared
 * data table (sorting, CSV export), and the real lineage runs' dataset
 * pipelines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-details-panel.h"
#include "sl-lineage-page.h"
#include "sl-lineage-row.h"
#include "sl-summary-writer.h"
#include "sl-window.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

static const float learning_rates[] = { 0.001f, 0.002f, 0.004f, 0.008f, 0.016f, 0.032f };
static const int batch_sizes[] = { 32, 64, 32, 64, 128, 128 };
static const char *optimizers[] = { "SGD", "Momentum", "Adam", "Adam", "Momentum", "SGD" };
static const double accuracies[] = { 0.81, 0.84, 0.88, 0.90, 0.93, 0.91 };

static gboolean
document_settled (gpointer data)
{
  SlDocument *document = data;

  return sl_document_get_state (document) != SL_DOCUMENT_LOADING &&
         !panel_widget_get_busy (PANEL_WIDGET (document));
}

static gboolean
idle_for_a_moment (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *) data;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 1000);
}

static char *
write_runs_in (const char *folder)
{
  char *root = g_build_filename (tmp_root, folder, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (learning_rates); i++)
    {
      g_autofree char *name = g_strdup_printf ("trial_%02u", i + 1);
      g_autofree char *dir = g_build_filename (root, name, NULL);
      g_autofree char *metric = g_strdup_printf ("{\"Accuracy\": %.2f, \"F1\": %.3f}", accuracies[i], accuracies[i] - 0.05);
      g_autoptr(SlSummaryWriter) writer = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      writer = sl_summary_writer_new (dir, 1700000000 + i, "host", &error);
      g_assert_no_error (error);
      for (gint64 step = 1; step <= 5; step++)
        g_assert_true (sl_summary_writer_add_scalar (writer, step, 1700000000.0 + step, "loss",
                                                     1.0f / (step * (i + 1)), &error));
      g_assert_true (sl_summary_writer_add_train_lineage (writer, 1700000100.0, optimizers[i], learning_rates[i],
                                                          "SoftmaxCrossEntropyWithLogits", 10 + 5 * (i % 3),
                                                          batch_sizes[i], "LeNet5", 1.0f - accuracies[i], &error));
      g_assert_true (sl_summary_writer_add_eval_lineage (writer, 1700000200.0, metric, "/data/mnist/test", 10000, &error));
      g_assert_true (sl_summary_writer_close (writer, &error));
      g_assert_no_error (error);
    }
  return root;
}

static char *
write_runs (void)
{
  return write_runs_in ("sweep");
}

static gint
column_of (SlLineageTable *table,
           const char     *id)
{
  gint column = sl_lineage_table_find_column (table, id);

  g_assert_cmpint (column, >=, 0);
  return column;
}

static void
screenshot_both (const char *name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light = g_strdup_printf ("%s.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);
  g_autoptr(Capture) light_capture = NULL;
  g_autoptr(Capture) dark_capture = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  wait_for_frames (GTK_WIDGET (window));
  light_capture = capture_window (GTK_WIDGET (window), SCREENSHOT_DIR, light);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  wait_for_frames (GTK_WIDGET (window));
  dark_capture = capture_window (GTK_WIDGET (window), SCREENSHOT_DIR, dark);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  /* Something was drawn in colour: lines, points or bars. */
  g_assert_cmpuint (light_capture->coloured, >, 0);
  g_assert_cmpuint (dark_capture->coloured, >, 0);
}

static gpointer
list_notes_func (SlWorkspaceStore  *store,
                 gpointer           data,
                 GCancellable      *cancellable,
                 GError           **error)
{
  return sl_workspace_store_list_run_notes (store, data, error);
}

static GtkEntry *
find_entry_with_tooltip (GtkWidget  *widget,
                         const char *tooltip)
{
  if (GTK_IS_ENTRY (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return GTK_ENTRY (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkEntry *found = find_entry_with_tooltip (child, tooltip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The note entry's placeholder fits it whole; the full wording is its
 * tooltip. */
static void
assert_note_placeholder_fits (SlLineagePage *page)
{
  GtkEntry *entry = find_entry_with_tooltip (GTK_WIDGET (page), "Note on the selected run (Enter keeps it)");
  g_autoptr(PangoLayout) layout = NULL;
  int text_width;

  g_assert_nonnull (entry);
  /* On a laptop's screen. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);
  wait_for_frames (GTK_WIDGET (window));
  wait_for_frames (GTK_WIDGET (window));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (entry), gtk_entry_get_placeholder_text (entry));
  pango_layout_get_pixel_size (layout, &text_width, NULL);
  /* The entry's frame and padding take 9 px a side in Adwaita. */
  g_assert_cmpint (text_width + 18, <=, gtk_widget_get_width (GTK_WIDGET (entry)));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  wait_for_frames (GTK_WIDGET (window));
}

static void
test_lineage_page (void)
{
  g_autofree char *root = write_runs ();
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  SlDocument *document;
  SlLineagePage *page;
  SlLineageTable *table;
  SlParallelCoordinates *parallel;
  gint lr, accuracy, optimizer;
  guint n_marked = 0;

  document = sl_window_open_document (window, "lineage", root, NULL);
  page = SL_LINEAGE_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  table = sl_lineage_page_get_table (page);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, 6);
  g_assert_cmpuint (sl_lineage_page_get_n_shown (page), ==, 6);
  lr = column_of (table, "hyperparameters/learning_rate");
  accuracy = column_of (table, "metrics/Accuracy");
  optimizer = column_of (table, "hyperparameters/optimizer");

  /* Accuracy rises with the learning rate but for the last run. */
  sl_lineage_page_set_target (page, accuracy);
  /* learning_rate, epoch, batch_size and valid_dataset_size: not F1 or loss. */
  g_assert_cmpuint (sl_lineage_page_get_n_importance_rows (page), ==, 4);

  /* Sorting by learning rate, largest first: trial_06 at the top. */
  sl_lineage_page_sort_by (page, lr, TRUE);
  sl_lineage_page_select_run (page, 5);
  g_assert_cmpint (sl_lineage_page_get_selected_run (page), ==, 5);
  g_assert_cmpstr (sl_details_panel_lookup (details, "optimizer"), ==, "SGD");

  /* Brushing the upper half of the learning rate axis marks the runs
   * with a learning rate above the middle of its range. */
  parallel = sl_lineage_page_get_parallel (page);
  g_assert_cmpuint (sl_parallel_coordinates_get_n_axes (parallel), >=, 6);
  {
    g_autoptr(GArray) axes = NULL;
    guint axis = 0;

    for (guint c = 0, a = 0; c < sl_lineage_table_get_n_columns (table); c++)
      {
        const SlLineageColumn *column = sl_lineage_table_get_column (table, c);

        if (g_str_has_suffix (column->key, "path"))
          continue;
        if ((gint) c == lr)
          axis = a;
        a++;
      }
    (void) axes;
    sl_parallel_coordinates_set_brush (parallel, axis, 0.5, 1.0);
  }
  for (guint r = 0; r < 6; r++)
    {
      gboolean expected = learning_rates[r] >= (0.001f + 0.032f) / 2;

      g_assert_cmpint (sl_lineage_page_is_run_marked (page, r), ==, expected);
      n_marked += expected;
    }
  g_assert_cmpuint (n_marked, ==, 1);
  sl_parallel_coordinates_set_brush (parallel, 0, 0.0, 1.0);   /* the optimizer axis: all of it */

  sl_lineage_page_show_view (page, "parallel");
  screenshot_both ("lineage-parallel");
  sl_lineage_page_show_view (page, "table");
  screenshot_both ("lineage-table");
  sl_lineage_page_show_view (page, "importance");
  screenshot_both ("lineage-importance");
  sl_lineage_page_show_view (page, "scatter");
  screenshot_both ("lineage-scatter");
  sl_parallel_coordinates_clear_brushes (parallel);
  g_assert_false (sl_lineage_page_is_run_marked (page, 5));

  /* A value filter and a range filter. */
  {
    const char *adam[] = { "Adam", NULL };

    sl_lineage_table_set_value_filter (table, optimizer, adam);
    sl_lineage_page_filters_changed (page);
    g_assert_cmpuint (sl_lineage_page_get_n_shown (page), ==, 2);
    sl_lineage_table_set_range_filter (table, lr, 0.003, 0.005);
    sl_lineage_page_filters_changed (page);
    g_assert_cmpuint (sl_lineage_page_get_n_shown (page), ==, 1);
    sl_lineage_table_clear_filters (table);
    sl_lineage_page_filters_changed (page);
    g_assert_cmpuint (sl_lineage_page_get_n_shown (page), ==, 6);
  }

  /* A note on trial_03, kept in the workspace database. */
  sl_lineage_page_select_run (page, 2);
  assert_note_placeholder_fits (page);
  sl_lineage_page_set_note (page, "best Adam so far", "adam, keep");
  g_assert_cmpstr (sl_lineage_page_get_note (page, 2), ==, "best Adam so far");
  {
    SlWorkspace *workspace = sl_window_get_workspace (window);
    g_autoptr(GPtrArray) notes = NULL;
    g_autoptr(GError) error = NULL;

    sl_workspace_flush (workspace);
    notes = sl_workspace_run_sync (workspace, list_notes_func, root, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (notes->len, ==, 1);
    g_assert_cmpstr (sl_run_note_record_get_note (g_ptr_array_index (notes, 0)), ==, "best Adam so far");
    g_assert_cmpstr (sl_run_note_record_get_tags (g_ptr_array_index (notes, 0))[1], ==, "keep");
  }

  /* Opening the run opens its Scalars. */
  sl_lineage_page_open_selected_run (page);
  {
    g_autofree char *run_path = g_build_filename (root, "trial_03", NULL);
    g_autofree char *id = g_strconcat ("scalars:", run_path, NULL);
    PanelWidget *scalars = sl_window_find_document (window, id);

    g_assert_nonnull (scalars);
    panel_widget_close (scalars);
  }
  panel_widget_close (PANEL_WIDGET (document));
}

/* The first widget under @root of @type whose label is @label. */
static GtkWidget *
find_labelled (GtkWidget  *root,
               GType       type,
               const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    {
      g_autofree char *text = NULL;

      g_object_get (root, "label", &text, NULL);
      if (g_strcmp0 (text, label) == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, type, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Columns popover lists every column under its group's heading;
 * unticking a column hides it in the table, and showing it from code
 * ticks it again. */
static void
test_column_chooser (void)
{
  g_autofree char *root = write_runs_in ("columns");
  SlDocument *document = sl_window_open_document (window, "lineage", root, NULL);
  SlLineagePage *page = SL_LINEAGE_PAGE (document);
  SlLineageTable *table;
  GtkColumnViewColumn *column;
  GtkWidget *button, *popover, *check;
  gint lr;

  g_assert_true (wait_until (document_settled, document, 30000));
  table = sl_lineage_page_get_table (page);
  lr = column_of (table, "hyperparameters/learning_rate");
  column = sl_data_table_get_column (sl_lineage_page_get_data_table (page), sl_lineage_table_get_column (table, lr)->id);
  g_assert_true (gtk_column_view_column_get_visible (column));

  button = find_labelled (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON, "Columns");
  g_assert_nonnull (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  settle ();
  g_assert_true (gtk_widget_get_mapped (popover));
  g_assert_nonnull (find_labelled (popover, GTK_TYPE_LABEL, "Hyperparameters"));
  check = find_labelled (popover, GTK_TYPE_CHECK_BUTTON, "learning_rate");
  g_assert_nonnull (check);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  save_window_screenshot (popover, SCREENSHOT_DIR, "lineage-columns.png");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  g_assert_false (gtk_column_view_column_get_visible (column));
  sl_lineage_page_set_column_shown (page, lr, TRUE);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_true (gtk_column_view_column_get_visible (column));

  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  panel_widget_close (PANEL_WIDGET (document));
}

/* The runs shown, top to bottom, as indexes into the lineage table. */
static GArray *
dup_shown_runs (SlDataTable *data_table)
{
  GListModel *rows = sl_data_table_get_rows (data_table);
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlLineageRow) row = g_list_model_get_item (rows, i);
      guint run = sl_lineage_row_get_run (row);

      g_array_append_val (runs, run);
    }
  return runs;
}

/* A CSV line's fields (quoted fields may hold commas and doubled quotes). */
static GStrv
split_csv_line (const char *line)
{
  g_autoptr(GStrvBuilder) fields = g_strv_builder_new ();
  g_autoptr(GString) field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_strv_builder_add (fields, field->str);
          g_string_truncate (field, 0);
        }
      else
        g_string_append_c (field, *p);
    }
  g_strv_builder_add (fields, field->str);
  return g_strv_builder_end (fields);
}

/* Exports the table to @name and returns its lines, the header first. */
static GPtrArray *
export_lines (SlDataTable *data_table,
              const char  *name)
{
  g_autofree char *path = g_build_filename (tmp_root, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  sl_data_table_export_csv_async (data_table, file, NULL, store_result, &result);
  g_assert_true (sl_data_table_export_csv_finish (data_table, wait_for_result (&result), &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (lines[i][0] != '\0')
        g_ptr_array_add (parsed, split_csv_line (lines[i]));
    }
  return parsed;
}

static guint
field_of (GStrv       header,
          const char *title)
{
  for (guint i = 0; header[i] != NULL; i++)
    if (g_strcmp0 (header[i], title) == 0)
      return i;
  g_error ("no column %s in the CSV", title);
  return 0;
}

/* The runs' table is the shared SlDataTable: it sorts a metric by value
 * and a column of numbers as numbers (128 after 64), and exports every
 * run with every column shown, then every column, in the order shown,
 * a missing value empty. */
static void
test_data_table_csv (void)
{
  g_autofree char *root = write_runs_in ("exported");
  static const guint by_accuracy[] = { 4, 5, 3, 2, 1, 0 };
  SlDocument *document;
  SlLineagePage *page;
  SlLineageTable *table;
  SlDataTable *data_table;
  g_autoptr(GArray) order = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  GStrv header;
  guint n_shown = 0, accuracy, batch;

  document = sl_window_open_document (window, "lineage", root, NULL);
  page = SL_LINEAGE_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  table = sl_lineage_page_get_table (page);
  data_table = sl_lineage_page_get_data_table (page);
  g_assert_true (SL_IS_DATA_TABLE (data_table));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (data_table), GTK_WIDGET (page)));
  g_assert_cmpuint (sl_data_table_get_n_columns (data_table), ==, sl_lineage_table_get_n_columns (table) + 3);

  /* The metric, best first, through the page and through the table. */
  sl_lineage_page_sort_by (page, column_of (table, "metrics/Accuracy"), TRUE);
  order = dup_shown_runs (data_table);
  g_assert_cmpuint (order->len, ==, 6);
  for (guint i = 0; i < order->len; i++)
    g_assert_cmpuint (g_array_index (order, guint, i), ==, by_accuracy[i]);
  g_clear_pointer (&order, g_array_unref);
  sl_data_table_sort_by (data_table, "metrics/Accuracy", GTK_SORT_ASCENDING);
  order = dup_shown_runs (data_table);
  for (guint i = 0; i < order->len; i++)
    g_assert_cmpuint (g_array_index (order, guint, i), ==, by_accuracy[G_N_ELEMENTS (by_accuracy) - 1 - i]);
  g_clear_pointer (&order, g_array_unref);

  /* Numbers as numbers: 32, 32, 64, 64, 128, 128 (as text 128 comes first). */
  sl_data_table_sort_by (data_table, "hyperparameters/batch_size", GTK_SORT_ASCENDING);
  order = dup_shown_runs (data_table);
  for (guint i = 1; i < order->len; i++)
    g_assert_cmpint (batch_sizes[g_array_index (order, guint, i - 1)], <=, batch_sizes[g_array_index (order, guint, i)]);
  g_clear_pointer (&order, g_array_unref);

  /* The CSV: the rows in the order shown, the columns shown. */
  sl_lineage_page_sort_by (page, column_of (table, "metrics/Accuracy"), TRUE);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    n_shown += gtk_column_view_column_get_visible (sl_data_table_get_column (data_table, sl_lineage_table_get_column (table, c)->id));
  g_assert_cmpuint (n_shown, <, sl_lineage_table_get_n_columns (table));
  lines = export_lines (data_table, "runs-shown.csv");
  g_assert_cmpuint (lines->len, ==, 1 + 6);
  header = g_ptr_array_index (lines, 0);
  g_assert_cmpuint (g_strv_length (header), ==, n_shown + 3);
  g_assert_cmpstr (header[0], ==, "Run");
  accuracy = field_of (header, "metrics/Accuracy");
  for (guint r = 1; r < lines->len; r++)
    {
      GStrv fields = g_ptr_array_index (lines, r);
      g_autofree char *label = g_strdup_printf ("./trial_%02u", by_accuracy[r - 1] + 1);
      g_autofree char *value = g_strdup_printf ("%.2f", accuracies[by_accuracy[r - 1]]);

      g_assert_cmpuint (g_strv_length (fields), ==, n_shown + 3);
      g_assert_cmpstr (fields[0], ==, label);
      g_assert_cmpfloat_with_epsilon (g_ascii_strtod (fields[accuracy], NULL), g_ascii_strtod (value, NULL), 1e-6);
    }
  g_clear_pointer (&lines, g_ptr_array_unref);

  /* Every column once all are shown; a path column has the run's value. */
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    sl_lineage_page_set_column_shown (page, c, TRUE);
  lines = export_lines (data_table, "runs-all.csv");
  g_assert_cmpuint (lines->len, ==, 1 + 6);
  header = g_ptr_array_index (lines, 0);
  g_assert_cmpuint (g_strv_length (header), ==, sl_lineage_table_get_n_columns (table) + 3);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    g_assert_cmpuint (field_of (header, sl_lineage_table_get_column (table, c)->id), ==, c + 1);
  g_assert_cmpstr (header[sl_lineage_table_get_n_columns (table) + 1], ==, "Note");
  g_assert_cmpstr (header[sl_lineage_table_get_n_columns (table) + 2], ==, "Tags");
  batch = field_of (header, "hyperparameters/batch_size");
  for (guint r = 1; r < lines->len; r++)
    {
      GStrv fields = g_ptr_array_index (lines, r);
      g_autofree char *size = g_strdup_printf ("%d", batch_sizes[by_accuracy[r - 1]]);

      g_assert_cmpuint (g_strv_length (fields), ==, sl_lineage_table_get_n_columns (table) + 3);
      g_assert_cmpstr (fields[batch], ==, size);
      for (guint f = 0; fields[f] != NULL; f++)
        g_assert_cmpstr (fields[f], !=, "—");
    }
  panel_widget_close (PANEL_WIDGET (document));
}

/* Too few runs: the importance says so. */
static void
test_too_few_runs (void)
{
  g_autofree char *root = write_runs ();
  g_autofree char *one = g_build_filename (root, "trial_01", NULL);
  SlDocument *document = sl_window_open_document (window, "lineage", one, NULL);

  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (sl_lineage_page_get_table (SL_LINEAGE_PAGE (document))), ==, 1);
  sl_lineage_page_show_view (SL_LINEAGE_PAGE (document), "importance");
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "lineage-too-few.png");
  panel_widget_close (PANEL_WIDGET (document));
}

static GtkWidget *find_button_labelled (GtkWidget  *widget,
                                        const char *label);

static void
test_dataset_lineage (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *runs = NULL;
  SlDocument *document;

  if (datasets == NULL ||
      !g_file_test ((runs = g_build_filename (datasets, "generated__mindinsight-writers", "run_lineage", NULL)),
                    G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the datasets folder is not here");
      return;
    }

  document = sl_window_open_document (window, "lineage", runs, NULL);
  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (sl_lineage_page_get_table (SL_LINEAGE_PAGE (document))), ==, 6);
  sl_lineage_page_show_view (SL_LINEAGE_PAGE (document), "datasets");
  screenshot_both ("lineage-datasets");
  {
    /* Open Dataset Graphs opens the runs' pipelines as one document. */
    GtkWidget *open = find_button_labelled (GTK_WIDGET (document), "Open Dataset Graphs");
    g_autoptr(GVariant) expected = g_variant_ref_sink (g_variant_new ("(ssv)", "dataset-graph", runs, g_variant_new ("()")));
    g_autofree char *id = g_strdup_printf ("dataset-graph:%s", runs);
    PanelWidget *graphs;

    g_assert_nonnull (open);
    g_assert_true (gtk_widget_get_visible (open));
    g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (open)), ==, "win.open-document");
    g_assert_true (g_variant_equal (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (open)), expected));
    g_signal_emit_by_name (open, "clicked");
    graphs = sl_window_find_document (window, id);
    g_assert_nonnull (graphs);
    panel_widget_close (graphs);
  }
  sl_lineage_page_show_view (SL_LINEAGE_PAGE (document), "parallel");
  screenshot_both ("lineage-real-parallel");
  panel_widget_close (PANEL_WIDGET (document));
}

/* Runs whose lineage holds no dataset graph, one with a record whose
 * checksum fails: nothing to draw, but the Problems panel names the file
 * and the byte where that record starts. */
static void
test_dataset_graph_damaged (void)
{
  g_autofree char *root = write_runs_in ("damaged");
  g_autofree char *run = g_build_filename (root, "trial_03", NULL);
  g_autoptr(GDir) dir = g_dir_open (run, 0, NULL);
  g_autoptr(SlProblem) problem = NULL;
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  const char *name;
  SlDocument *document;
  GListModel *problems;
  guint64 size;
  gsize length, offset;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, "_lineage"))
      path = g_build_filename (run, name, NULL);
  g_assert_nonnull (path);

  /* The payload of the lineage file's second record changed: its
   * checksum fails. Each record is an 8-byte length, its checksum, the
   * payload and its checksum. */
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  memcpy (&size, data, sizeof size);
  offset = 12 + GUINT64_FROM_LE (size) + 4;
  memcpy (&size, data + offset, sizeof size);
  g_assert_cmpuint (offset + 12 + GUINT64_FROM_LE (size) + 4, <=, length);
  data[offset + 12 + GUINT64_FROM_LE (size) / 2] ^= 0x5a;
  g_assert_true (g_file_set_contents (path, data, length, NULL));

  document = sl_window_open_document (window, "dataset-graph", root, NULL);
  g_assert_true (wait_until (document_settled, document, 30000));
  problems = sl_document_get_problems (document);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) offset);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  panel_widget_close (PANEL_WIDGET (document));
}

static gboolean
folder_page_open (gpointer data)
{
  g_autofree char *id = g_strdup_printf ("folder:%s", (const char *) data);
  SlFolder *folder = sl_workspace_lookup_folder (sl_window_get_workspace (window), data);

  return folder != NULL && sl_folder_get_state (folder) != SL_FOLDER_SCANNING &&
         sl_window_find_document (window, id) != NULL;
}

static GtkWidget *
find_button_labelled (GtkWidget  *widget,
                      const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_labelled (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The folder of runs offers, as the kinds declare it, Lineage, the runs'
 * datasets and their curves, in that order, each opening its document on
 * the folder. */
static void
test_folder_buttons (void)
{
  g_autofree char *root = write_runs ();
  g_autofree char *id = g_strdup_printf ("folder:%s", root);
  g_autofree char *runs_label = g_strdup_printf ("Compare All %u Runs", (guint) G_N_ELEMENTS (learning_rates));
  g_autofree char *datasets_label = g_strdup_printf ("Compare %u Datasets", (guint) G_N_ELEMENTS (learning_rates));
  const char *labels[] = { "Lineage", datasets_label, runs_label };
  const char *kinds[] = { "lineage", "dataset-graph", "scalars" };
  GtkWidget *page;
  GtkWidget *button;

  sl_window_open_path (window, root);
  g_assert_true (wait_until (folder_page_open, root, 30000));
  page = GTK_WIDGET (sl_window_find_document (window, id));

  button = find_button_labelled (page, labels[0]);
  g_assert_nonnull (button);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autoptr(GVariant) expected = g_variant_ref_sink (g_variant_new ("(ssv)", kinds[i], root, g_variant_new ("()")));

      g_assert_nonnull (button);
      g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, labels[i]);
      g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-document");
      g_assert_true (g_variant_equal (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button)), expected));
      button = gtk_widget_get_next_sibling (button);
    }
  g_assert_null (button);
  panel_widget_close (PANEL_WIDGET (sl_window_find_document (window, id)));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-lineage-page-XXXXXX");

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);

  g_test_add_func ("/lineage-page/table-brush-note", test_lineage_page);
  g_test_add_func ("/lineage-page/column-chooser", test_column_chooser);
  g_test_add_func ("/lineage-page/data-table-csv", test_data_table_csv);
  g_test_add_func ("/lineage-page/too-few-runs", test_too_few_runs);
  g_test_add_func ("/lineage-page/dataset-lineage", test_dataset_lineage);
  g_test_add_func ("/lineage-page/dataset-graph-damaged", test_dataset_graph_damaged);
  g_test_add_func ("/lineage-page/folder-buttons", test_folder_buttons);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
