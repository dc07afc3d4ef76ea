/* test-compare-page.c: the comparison document on two generated Ascend
 * PyTorch profiles, the second with Add 5 µs slower in each of 3 steps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-compare-entry.h"
#include "sl-compare-page.h"
#include "sl-data-table.h"
#include "sl-main-thread.h"
#include "sl-op-row.h"
#include "sl-op-stats-view.h"
#include "sl-profile-page.h"

#define US 1000

static const char kernel_header[] =
  "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes\n";
static const char step_header[] =
  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
  "Communication(Not Overlapped and Exclude Receive),Preparing\n";

static char *
write_profile (const char *root,
               const char *name,
               int         add_us)
{
  g_autofree char *unit = g_build_filename (root, name, NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *kernel_path = g_build_filename (output, "kernel_details.csv", NULL);
  g_autofree char *step_path = g_build_filename (output, "step_trace_time.csv", NULL);
  g_autoptr(GString) kernels = g_string_new (kernel_header);
  g_autoptr(GString) steps = g_string_new (step_header);

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  for (int step = 1; step <= 3; step++)
    {
      int start = (step - 1) * 1000;

      g_string_append_printf (kernels, "%d,MatMul%d,MatMul,AI_CORE,%d,40,0,20,\"2,3;3,4\"\n", step, step, start);
      g_string_append_printf (kernels, "%d,Add%d,Add,AI_VECTOR_CORE,%d,%d,0,40,\"2,4\"\n", step, step, start + 50,
                              10 + add_us);
      g_string_append_printf (steps, "%d,%d,0,0,0,950,0,0,0,0\n", step, 50 + add_us);
    }
  g_assert_true (g_file_set_contents (kernel_path, kernels->str, -1, NULL));
  g_assert_true (g_file_set_contents (step_path, steps->str, -1, NULL));
  return g_steal_pointer (&unit);
}

/* The overview's cells of one breakdown item: whether one is coloured as
 * a gain or a regression, and the tooltip of its difference, if any. */
static void
walk_item_cells (GtkWidget                *widget,
                 SlProfileCompareItemKind  kind,
                 gboolean                 *coloured,
                 char                    **tooltip)
{
  SlCompareEntry *entry = g_object_get_data (G_OBJECT (widget), "sl-data-table-item");

  if (GTK_IS_LABEL (widget) && SL_IS_COMPARE_ENTRY (entry) && sl_compare_entry_get_item (entry) != NULL &&
      sl_compare_entry_get_item (entry)->kind == kind)
    {
      const char *text = g_object_get_data (G_OBJECT (widget), "sl-long-tooltip");

      *coloured |= gtk_widget_has_css_class (widget, "error") || gtk_widget_has_css_class (widget, "success");
      if (text != NULL && *tooltip == NULL && strstr (text, "Not coloured") != NULL)
        *tooltip = g_strdup (text);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    walk_item_cells (child, kind, coloured, tooltip);
}

static gboolean
item_coloured (SlComparePage             *page,
               SlProfileCompareItemKind   kind,
               char                     **tooltip)
{
  GtkWidget *overview = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE,
                                                                   "overview_view"));
  gboolean coloured = FALSE;

  *tooltip = NULL;
  walk_item_cells (overview, kind, &coloured, tooltip);
  return coloured;
}

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
}

static SlCompareEntry *
ops_row (SlComparePage *page,
         guint          index)
{
  static SlCompareEntry *entry;

  g_clear_object (&entry);
  entry = g_list_model_get_item (sl_compare_page_get_ops_model (page), index);
  return entry;
}

static const SlProfileCompareRow *
find_row (SlComparePage *page,
          const char    *type)
{
  GListModel *model = sl_compare_page_get_ops_model (page);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      const SlProfileCompareRow *row = sl_compare_entry_get_row (ops_row (page, i));

      if (g_strcmp0 (row->type, type) == 0)
        return row;
    }
  return NULL;
}

/* The overview, in a page that scrolls, is as tall as its rows: no
 * scrollbar of its own, no row hidden below its edge. */
static gboolean
overview_fits (gpointer data)
{
  SlDataTable *overview = SL_DATA_TABLE (gtk_widget_get_template_child (GTK_WIDGET (data), SL_TYPE_COMPARE_PAGE,
                                                                       "overview_view"));
  GtkWidget *view = GTK_WIDGET (sl_data_table_get_column_view (overview));
  GtkWidget *scroller = gtk_widget_get_parent (view);
  guint n = g_list_model_get_n_items (sl_data_table_get_rows (overview));
  GtkWidget *list = NULL;
  int row_height = 0;

  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  g_assert_cmpuint (n, >=, 4);
  for (GtkWidget *child = gtk_widget_get_first_child (view); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      list = child;
  g_assert_nonnull (list);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row))
    {
      int natural = 0;

      gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
      row_height = MAX (row_height, natural);
    }
  if (row_height == 0)
    return FALSE;
  return gtk_widget_get_height (list) >= (int)n * row_height &&
         !gtk_widget_get_mapped (gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (scroller)));
}

static void
check_overview_fits (SlComparePage *page)
{
  /* The table settles on its height once laid out with its rows. */
  g_assert_true (wait_until (overview_fits, page, 10000));
}

static gboolean
export_done (gpointer data)
{
  return !sl_compare_page_is_exporting (data);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = g_dir_make_tmp ("sightline-compare-page-XXXXXX", NULL);
  g_autofree char *data_home = g_build_filename (root, "data", NULL);
  g_autofree char *base = NULL;
  g_autofree char *comparison = NULL;
  g_autoptr(SlDocumentAddress) address = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *csv_path = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(SlApplication) app = NULL;
  const SlProfileCompare *result;
  const SlProfileCompareRow *row;
  SlComparePage *page;
  SlComparePage *broken;
  SlWindow *window;

  if (skip_without_display ())
    return 77;
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();

  base = write_profile (root, "run1_ascend_pt", 0);
  comparison = write_profile (root, "run2_ascend_pt", 5);
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);

  /* Opened as the folder page's button opens it. */
  address = sl_document_address_new_pair (base, comparison);
  page = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", address, NULL));
  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 60000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpstr (sl_compare_page_get_base (page), ==, base);
  g_assert_cmpstr (sl_compare_page_get_comparison (page), ==, comparison);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (page)), ==, "Comparison: run2_ascend_pt");

  /* The op types, largest regression first: Add, 3 × 5 µs slower. */
  row = sl_compare_entry_get_row (ops_row (page, 0));
  g_assert_cmpstr (row->type, ==, "Add");
  g_assert_cmpint (row->diff_ns, ==, 15 * US);
  g_assert_cmpint (row->total_ns[0], ==, 30 * US);
  g_assert_cmpint (row->total_ns[1], ==, 45 * US);
  g_assert_cmpuint (row->count[0], ==, 3);

  /* The overview's end-to-end figures: both sides, the comparison slower. */
  result = sl_compare_page_get_result (page);
  g_assert_nonnull (result);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].source, !=, SL_PROFILE_COMPARE_FROM_NONE);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].base_ns, >, 0);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_E2E].diff_ns, ==, 5 * US);
  g_assert_cmpint (result->items[SL_PROFILE_COMPARE_COMPUTING].diff_ns, ==, 5 * US);

  /* The breakdown as CSV. */
  csv_path = g_build_filename (root, "breakdown.csv", NULL);
  {
    g_autoptr(GFile) file = g_file_new_for_path (csv_path);
    g_autoptr(GAsyncResult) export_result = NULL;

    /* written on a worker: the drawing thread never writes */
    gboolean was_marked = sl_main_thread_is_current ();

    sl_main_thread_mark ();
    sl_compare_page_export_csv_async (page, file, NULL, store_result, &export_result);
    g_assert_true (sl_compare_page_export_csv_finish (page, wait_for_result (&export_result), NULL));
    if (!was_marked)
      sl_main_thread_unmark ();
  }
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "item,base_us,comparison_us,diff_us,ratio,noise\ne2e,"));

  /* Saved from the page: progress and Cancel show under the toolbar while
   * the worker formats and writes; the same file, all rows written. */
  {
    g_autofree char *saved_path = g_build_filename (root, "saved.csv", NULL);
    g_autofree char *cancelled_path = g_build_filename (root, "cancelled.csv", NULL);
    g_autoptr(GFile) saved = g_file_new_for_path (saved_path);
    g_autoptr(GFile) cancelled = g_file_new_for_path (cancelled_path);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GAsyncResult) export_result = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *saved_csv = NULL;
    GtkRevealer *bar = GTK_REVEALER (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE, "export_bar"));

    g_assert_false (gtk_revealer_get_reveal_child (bar));
    sl_compare_page_save_csv (page, saved);
    g_assert_true (sl_compare_page_is_exporting (page));
    g_assert_true (gtk_revealer_get_reveal_child (bar));
    g_assert_true (wait_until (export_done, page, 30000));
    g_assert_false (gtk_revealer_get_reveal_child (bar));
    g_assert_cmpfloat (sl_compare_page_get_export_fraction (page), ==, 1.0);
    g_assert_true (g_file_get_contents (saved_path, &saved_csv, NULL, NULL));
    g_assert_cmpstr (saved_csv, ==, csv);

    /* Cancelled: an error saying so, and no file. */
    g_cancellable_cancel (cancellable);
    sl_compare_page_export_csv_async (page, cancelled, cancellable, store_result, &export_result);
    g_assert_false (sl_compare_page_export_csv_finish (page, wait_for_result (&export_result), &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_false (g_file_test (cancelled_path, G_FILE_TEST_EXISTS));
  }

  /* An op type's count is a link: the comparison's Add ops land in its
   * Operators page with the first selected. */
  {
    g_autofree char *id = g_strconcat ("profile:", comparison, NULL);
    SlProfilePage *profile;
    SlOpRow *selected;

    g_assert_null (sl_window_find_document (window, id));
    g_assert_true (sl_compare_page_show_ops (page, 1, "Add", NULL));
    profile = SL_PROFILE_PAGE (sl_window_find_document (window, id));
    g_assert_nonnull (profile);
    g_assert_true (wait_until (page_settled, profile, 60000));
    g_assert_cmpstr (sl_profile_page_get_view (profile), ==, "ops");
    selected = sl_op_stats_view_get_selected (sl_profile_page_get_ops_view (profile));
    g_assert_nonnull (selected);
    g_assert_cmpstr (sl_op_row_get_name (selected), ==, "Add1");
    g_assert_cmpstr (sl_op_row_get_op_type (selected), ==, "Add");

    /* A type the side does not list lands nowhere. */
    g_assert_false (sl_compare_page_show_ops (page, 0, "NoSuchOp", NULL));

    /* The count cells' action: the baseline's MatMul ops. */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "compare.show-ops", "(uss)", 0, "MatMul", ""));
    id = (g_free (id), g_strconcat ("profile:", base, NULL));
    g_assert_nonnull (sl_window_find_document (window, id));
    panel_widget_raise (PANEL_WIDGET (page));
  }

  wait_for_frames (GTK_WIDGET (window));
  check_overview_fits (page);
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "compare-page.png");

  /* Three steps a side: the end-to-end time, 5 µs slower in each with no
   * spread, is a regression; the vector kernels' 5 µs come from op table
   * totals, whose spread is unknown, so they are not coloured and say why. */
  {
    g_autofree char *tooltip = NULL;

    g_assert_true (sl_compare_page_get_result (page)->items[SL_PROFILE_COMPARE_E2E].noise_checked);
    g_assert_true (item_coloured (page, SL_PROFILE_COMPARE_E2E, &tooltip));
    g_assert_null (tooltip);
    g_assert_cmpint (sl_compare_page_get_result (page)->items[SL_PROFILE_COMPARE_VECTOR].diff_ns, ==, 5 * US);
    g_assert_false (item_coloured (page, SL_PROFILE_COMPARE_VECTOR, &tooltip));
    g_assert_nonnull (strstr (tooltip, "op table totals"));
  }
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE, "view_stack")), "operators");
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "compare-page-operators.png");

  /* Swapped: Add is 15 µs faster, so last. */
  sl_compare_page_swap (page);
  g_assert_true (wait_until (page_settled, page, 60000));
  g_assert_cmpstr (sl_compare_page_get_base (page), ==, comparison);
  row = find_row (page, "Add");
  g_assert_nonnull (row);
  g_assert_cmpint (row->diff_ns, ==, -15 * US);
  g_assert_cmpint (sl_compare_page_get_result (page)->items[SL_PROFILE_COMPARE_E2E].diff_ns, ==, -5 * US);
  g_assert_cmpstr (sl_compare_entry_get_row (ops_row (page, 0))->type, !=, "Add");

  /* Kernels: type and shapes. */
  sl_compare_page_show_kernels (page, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (sl_compare_page_get_ops_model (page)), ==,
                    sl_compare_page_get_result (page)->kernels->len);
  /* The name column says what it lists, and what is copied says so too. */
  {
    SlDataTable *table = SL_DATA_TABLE (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE,
                                                                      "ops_view"));
    g_autofree char *names = sl_data_table_dup_column_text (table, "name");

    SlDataTable *overview = SL_DATA_TABLE (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE,
                                                                         "overview_view"));
    g_autofree char *items = sl_data_table_dup_column_text (overview, "item");

    g_assert_true (g_str_has_prefix (items, "Item\nEnd to end\n"));
    g_assert_cmpstr (sl_data_table_get_column_title (table, 0), ==, "Kernel");
    g_assert_true (g_str_has_prefix (names, "Kernel\n"));
    sl_compare_page_show_kernels (page, FALSE);
    g_assert_cmpstr (sl_data_table_get_column_title (table, 0), ==, "Op Type");
    sl_compare_page_show_kernels (page, TRUE);
  }

  /* A comparison of two ranks offers them: rank 1 has Add 20 µs slower. */
  {
    g_autofree char *cluster = g_build_filename (root, "cluster", NULL);
    g_autofree char *rank0 = write_profile (cluster, "rank0_ascend_pt", 0);
    g_autofree char *rank1 = write_profile (cluster, "rank1_ascend_pt", 20);
    g_autoptr(SlDocumentAddress) ranks_address = sl_document_address_new_pair (base, cluster);
    SlComparePage *ranks = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", ranks_address, NULL));
    GtkWidget *dropdown;

    g_assert_true (wait_until (page_settled, ranks, 60000));
    g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (ranks)), ==, SL_DOCUMENT_READY);
    dropdown = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (ranks), SL_TYPE_COMPARE_PAGE, "comparison_rank_dropdown"));
    g_assert_true (gtk_widget_get_visible (dropdown));
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (ranks), SL_TYPE_COMPARE_PAGE,
                                                                                      "base_rank_dropdown"))));
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown))), ==, 2);
    g_assert_cmpuint (sl_compare_page_get_result (ranks)->comparison_rank, ==, 0);
    g_assert_cmpint (find_row (ranks, "Add")->diff_ns, ==, 0);

    sl_compare_page_choose_ranks (ranks, 0, 1);
    g_assert_true (wait_until (page_settled, ranks, 60000));
    g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (ranks)), ==, SL_DOCUMENT_READY);
    g_assert_cmpuint (sl_compare_page_get_result (ranks)->comparison_rank, ==, 1);
    g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown)), ==, 1);
    g_assert_cmpint (find_row (ranks, "Add")->diff_ns, ==, 60 * US);
    g_assert_cmpstr (sl_compare_entry_get_row (ops_row (ranks, 0))->type, ==, "Add");
    g_assert_true (g_str_has_suffix (rank0, "rank0_ascend_pt") && g_str_has_suffix (rank1, "rank1_ascend_pt"));
  }

  /* The level-0 SQLite export against the level-1 text export of one job:
   * the text side's all-reduce comes from its kernel_details.csv, and the
   * communication line compares the collectives of both. */
  {
    const char *datasets = g_getenv ("SL_DATASETS_DIR");
    g_autofree char *db = datasets ? g_build_filename (datasets, "Ascend__msinsight", "test", "data", "pytorch", "db",
                                                       "level0", "rank0_ascend_pt", NULL) : NULL;
    g_autofree char *text = datasets ? g_build_filename (datasets, "Ascend__msinsight", "test", "data", "pytorch", "text",
                                                         "level1", "rank0_ascend_pt", NULL) : NULL;

    if (db != NULL && g_file_test (db, G_FILE_TEST_IS_DIR) && g_file_test (text, G_FILE_TEST_IS_DIR))
      {
        g_autoptr(SlDocumentAddress) real_address = sl_document_address_new_pair (db, text);
        SlComparePage *real = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", real_address, NULL));
        const SlProfileCompareItem *item;
        const SlProfileCompareRow *hcom;

        g_assert_true (wait_until (page_settled, real, 120000));
        g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (real)), ==, SL_DOCUMENT_READY);
        item = &sl_compare_page_get_result (real)->items[SL_PROFILE_COMPARE_COMMUNICATION_KERNELS];
        g_assert_false (item->not_comparable);
        g_assert_cmpint (item->comparison_ns, ==, 105991876);
        hcom = find_row (real, "hcom_allReduce_");
        g_assert_true (hcom != NULL && hcom->count[1] == 4 && hcom->total_ns[1] == 105991876);
        wait_for_frames (GTK_WIDGET (window));
        check_overview_fits (real);
        save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "compare-page-db-against-text.png");

        /* One step a side: no phase's spread is known, so none is
         * coloured as a gain or a regression, and the tooltip says why. */
        {
          const SlProfileCompareItem *e2e_item =
            &sl_compare_page_get_result (real)->items[SL_PROFILE_COMPARE_E2E];
          g_autofree char *tooltip = NULL;

          g_assert_cmpuint (sl_compare_page_get_result (real)->base_steps, <, SL_PROFILE_COMPARE_MIN_NOISE_STEPS);
          g_assert_cmpint (e2e_item->source, ==, SL_PROFILE_COMPARE_FROM_STEPS);
          g_assert_cmpint (e2e_item->diff_ns, !=, 0);
          g_assert_false (item_coloured (real, SL_PROFILE_COMPARE_E2E, &tooltip));
          g_assert_nonnull (tooltip);
          g_assert_nonnull (strstr (tooltip, "cannot be told from noise"));
          /* The headline's verdict says the same. */
          g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (
                                      GTK_WIDGET (real), SL_TYPE_COMPARE_PAGE, "headline_label"))),
                                    "noise not checked"));
        }
      }
  }

  /* A bad cell in one side's kernel_details.csv: that side is compared
   * without it, and the Problems panel names the file, line and byte. */
  {
    g_autofree char *damaged = write_profile (root, "run3_ascend_pt", 5);
    g_autofree char *kernel_path = g_build_filename (damaged, "ASCEND_PROFILER_OUTPUT", "kernel_details.csv", NULL);
    g_autoptr(SlDocumentAddress) damaged_address = sl_document_address_new_pair (base, damaged);
    g_autofree char *kernels = NULL;
    g_autofree char *bad = NULL;
    g_autoptr(SlProblem) problem = NULL;
    GListModel *problems;
    SlComparePage *with_bad;
    gsize length;

    g_assert_true (g_file_get_contents (kernel_path, &kernels, &length, NULL));
    bad = g_strconcat (kernels, "3,Bad3,Add,AI_VECTOR_CORE,2900,1e999,0,40,\"2,4\"\n", NULL);
    g_assert_true (g_file_set_contents (kernel_path, bad, -1, NULL));

    g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (page))), ==, 0);
    with_bad = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", damaged_address, NULL));
    g_assert_true (wait_until (page_settled, with_bad, 60000));
    g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (with_bad)), ==, SL_DOCUMENT_READY);
    problems = sl_document_get_problems (SL_DOCUMENT (with_bad));
    for (guint i = 0; problem == NULL && i < g_list_model_get_n_items (problems); i++)
      {
        g_autoptr(SlProblem) item = g_list_model_get_item (problems, i);

        if (g_strcmp0 (sl_problem_get_path (item), kernel_path) == 0)
          problem = g_steal_pointer (&item);
      }
    g_assert_nonnull (problem);
    g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) length);
    g_assert_cmpuint (sl_problem_get_line (problem), ==, 8);
    g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  }

  /* A side that cannot be read names its path. */
  missing = g_build_filename (root, "missing", NULL);
  g_clear_pointer (&address, sl_document_address_unref);
  address = sl_document_address_new_pair (base, missing);
  broken = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", address, NULL));
  g_assert_true (wait_until (page_settled, broken, 60000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (broken)), ==, SL_DOCUMENT_FAILED);
  g_assert_nonnull (strstr (sl_document_get_error (SL_DOCUMENT (broken)), missing));

  g_clear_object (&app);
  return 0;
}
