/* test-problems-panel.c: the Problems panel in the shared table: errors
 * first, positions sorted as numbers, the toolbar's filter, a row copied,
 * the File column cut in the middle with the whole path in its tooltip,
 * the position in view beside the message in a narrow panel,
 * and a row activated revealing its problem
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-folder.h"
#include "sl-problems-panel.h"
#include "sl-tooltip.h"

static SlProblem *activated;

static void
problem_activated_cb (SlProblemsPanel *panel,
                      SlProblem       *problem)
{
  g_set_object (&activated, problem);
}

static SlProblem *
row_at (SlDataTable *table,
        guint        position)
{
  static SlProblem *row;

  g_clear_object (&row);
  row = g_list_model_get_item (sl_data_table_get_rows (table), position);
  return row;
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

int
main (int    argc,
      char **argv)
{
  const char *run = "/data/runs/2024-05-01-resnet50-very-long-experiment-name/rank_3";
  g_autofree char *long_path = g_build_filename (run, "PROF_000001_20240501_ascend_pt/device_3/data/trace.json", NULL);
  g_autoptr(GListStore) folders = g_list_store_new (SL_TYPE_FOLDER);
  g_autoptr(SlFolder) folder = sl_folder_new ("/data/runs");
  g_autoptr(SlProblem) line_9 = sl_problem_new_at_line (SL_SEVERITY_WARNING, "yaml", "/p/a.yaml", 9, "Unknown key");
  g_autoptr(SlProblem) line_10 = sl_problem_new_at_line (SL_SEVERITY_WARNING, "yaml", "/p/a.yaml", 10, "Unknown key");
  g_autoptr(SlProblem) broken = sl_problem_new (SL_SEVERITY_ERROR, "summary", long_path, 1234,
                                                "The record's length is past the end of the file");
  g_autoptr(SlProblem) note = sl_problem_new (SL_SEVERITY_INFO, "scan", "/p/b.txt", -1, "Skipped");
  g_autofree char *row_text = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *file_label = NULL;
  LabelWait wait;
  GtkWidget *window;
  GtkWidget *panel_widget;
  GtkWidget *label;
  SlProblemsPanel *panel;
  g_autoptr(GListStore) shown = g_list_store_new (SL_TYPE_PROBLEM);
  SlDataTable *table;
  GtkWidget *toggle;

  if (skip_without_display ())
    return 77;
  gtk_init ();
  adw_init ();
  panel_init ();

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 400);
  panel_widget = sl_problems_panel_new ();
  panel = SL_PROBLEMS_PANEL (panel_widget);
  gtk_window_set_child (GTK_WINDOW (window), panel_widget);
  g_list_store_append (folders, folder);
  sl_problems_panel_set_folders (panel, G_LIST_MODEL (folders));
  g_signal_connect (panel, "problem-activated", G_CALLBACK (problem_activated_cb), NULL);
  gtk_window_present (GTK_WINDOW (window));

  /* Added out of order: shown errors first, then warnings, then messages. */
  g_list_store_append (shown, line_10);
  g_list_store_append (shown, note);
  g_list_store_append (shown, line_9);
  g_list_store_append (shown, broken);
  sl_problems_panel_set_problems (panel, G_LIST_MODEL (shown));
  table = sl_problems_panel_get_table (panel);
  g_assert_cmpuint (g_list_model_get_n_items (sl_data_table_get_rows (table)), ==, 4);
  g_assert_true (row_at (table, 0) == broken);
  g_assert_cmpint (sl_problem_get_severity (row_at (table, 1)), ==, SL_SEVERITY_WARNING);
  g_assert_cmpint (sl_problem_get_severity (row_at (table, 2)), ==, SL_SEVERITY_WARNING);
  g_assert_true (row_at (table, 3) == note);

  /* Positions sort as numbers: line 9 before line 10; none last. */
  sl_data_table_sort_by (table, "position", GTK_SORT_ASCENDING);
  g_assert_true (row_at (table, 0) == line_9);
  g_assert_true (row_at (table, 1) == line_10);
  g_assert_true (row_at (table, 2) == broken);
  g_assert_true (row_at (table, 3) == note);
  sl_data_table_sort_by (table, "severity", GTK_SORT_ASCENDING);

  /* The file: relative to its folder, cut in the middle, whole on hover. */
  file_label = sl_problems_panel_dup_file_label (panel, broken);
  g_assert_true (g_str_has_prefix (file_label, "2024-05-01-resnet50"));
  wait.root = GTK_WIDGET (sl_data_table_get_column_view (table));
  wait.text = file_label;
  g_assert_true (wait_until (label_shown, &wait, 30000));
  wait_for_frames (window);
  label = find_label (wait.root, file_label);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (label)), ==, PANGO_ELLIPSIZE_MIDDLE);
  g_assert_cmpstr (sl_widget_get_long_tooltip (label), ==, long_path);

  /* A long message starts no wider than its cap, leaving the file and
   * the position in view; the file column too. */
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (sl_data_table_get_column (table, "message")), ==, 240);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (sl_data_table_get_column (table, "file")), ==, 220);
  g_assert_true (gtk_column_view_column_get_expand (sl_data_table_get_column (table, "message")));

  /* A row copied: severity, message, position, file, source by tabs. */
  sl_data_table_select (table, 0);
  row_text = sl_data_table_dup_row_text (table, 0);
  {
    g_autofree char *expected = g_strdup_printf ("Error\tThe record's length is past the end of the file\tbyte 1234\t%s\tsummary",
                                                 file_label);

    g_assert_cmpstr (row_text, ==, expected);
  }
  g_assert_true (sl_data_table_copy_row (table));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (window), NULL, text_read, &copied);
  g_assert_true (wait_until (text_ready, &copied, 10000));
  g_assert_cmpstr (copied, ==, row_text);

  /* The CSV has the whole path, where the cell has the part that tells
   * the rows apart. */
  {
    g_autofree char *root = g_dir_make_tmp ("sightline-problems-XXXXXX", NULL);
    g_autofree char *csv_path = g_build_filename (root, "problems.csv", NULL);
    g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *csv = NULL;
    g_autofree char *expected = g_strdup_printf ("Error,The record's length is past the end of the file,byte 1234,%s,summary",
                                                 long_path);

    sl_data_table_export_csv_async (table, csv_file, NULL, store_result, &result);
    g_assert_true (sl_data_table_export_csv_finish (table, wait_for_result (&result), &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
    g_assert_true (g_str_has_prefix (csv, "Severity,Message,Position,File,Source"));
    g_assert_nonnull (strstr (csv, expected));
    g_assert_cmpint (g_unlink (csv_path), ==, 0);
    g_assert_cmpint (g_rmdir (root), ==, 0);
  }

  /* The toolbar's toggles filter the rows. */
  toggle = gtk_widget_get_first_child (gtk_widget_get_first_child (gtk_widget_get_first_child (panel_widget)));
  g_assert_true (GTK_IS_TOGGLE_BUTTON (toggle));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (sl_data_table_get_rows (table)), ==, 3);
  g_assert_cmpint (sl_problem_get_severity (row_at (table, 0)), ==, SL_SEVERITY_WARNING);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (sl_data_table_get_rows (table)), ==, 4);

  /* Activating a row reveals its problem. */
  g_signal_emit_by_name (table, "row-activated", 1);
  g_assert_true (activated == row_at (table, 1));

  /* In the bottom panel of a 1024 × 640 window, about 520 pixels wide,
   * the position of a problem with a long message and a long path is in
   * view, whole, beside the message. */
  gtk_window_set_default_size (GTK_WINDOW (window), 520, 300);
  wait_for_frames (window);
  wait_for_frames (window);
  g_assert_cmpint (gtk_widget_get_width (panel_widget), <=, 520);
  {
    GtkWidget *view = GTK_WIDGET (sl_data_table_get_column_view (table));
    GtkWidget *position = find_label (view, "byte 1234");
    graphene_rect_t bounds;
    int natural = 0;

    g_assert_nonnull (position);
    g_assert_true (gtk_widget_compute_bounds (position, panel_widget, &bounds));
    g_assert_cmpfloat (bounds.origin.x, >=, 0);
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (panel_widget));
    gtk_widget_measure (position, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
    g_assert_cmpint (gtk_widget_get_width (position), >=, natural);
  }

  g_clear_object (&activated);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
