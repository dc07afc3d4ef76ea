/* test-tensor-compare-page.c: the tensor Compare document on two folders
 * of .npy files and on two small msprobe dumps written here: rows and
 * verdicts as the report has them, the filters, the first divergence
 * selected, the detail pane, new thresholds, both exports, the folder
 * page's sides; screenshots in light and dark style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "gui-test-util.h"
#include "sl-data-table.h"
#include "sl-folder.h"
#include "sl-tensor-compare-button.h"
#include "sl-tensor-compare-page.h"
#include "sl-tensor-overlay-chart.h"
#include "sl-tooltip.h"

#define ROWS 4
#define COLS 8
#define N (ROWS * COLS)

/* A version 1.0 .npy file of float32 values, C order. */
static void
write_npy (const char  *dir,
           const char  *name,
           const float *values,
           guint        rows,
           guint        cols)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *dict = g_strdup_printf ("{'descr': '<f4', 'fortran_order': False, 'shape': (%u, %u), }", rows, cols);
  g_autoptr(GString) header = g_string_new (dict);
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint16 length;

  /* The header pads to a multiple of 64 bytes, ending in a newline. */
  while ((10 + header->len + 1) % 64 != 0)
    g_string_append_c (header, ' ');
  g_string_append_c (header, '\n');
  length = GUINT16_TO_LE ((guint16)header->len);
  g_byte_array_append (bytes, (const guint8 *)"\x93NUMPY\x01\x00", 8);
  g_byte_array_append (bytes, (const guint8 *)&length, 2);
  g_byte_array_append (bytes, (const guint8 *)header->str, header->len);
  for (guint i = 0; i < rows * cols; i++)
    {
      guint32 bits;

      memcpy (&bits, &values[i], 4);
      bits = GUINT32_TO_LE (bits);
      g_byte_array_append (bytes, (const guint8 *)&bits, 4);
    }
  g_assert_true (g_file_set_contents (path, (const char *)bytes->data, bytes->len, NULL));
}

static void
write_text (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
base_values (float *values,
             guint  seed)
{
  for (guint i = 0; i < N; i++)
    values[i] = ((int)((i * 37 + seed * 11) % 17) - 8) / 4.0f;
}

static char *
write_side (const char *root,
            const char *name,
            gboolean    npu)
{
  g_autofree char *dir = g_build_filename (root, name, NULL);
  float values[N];

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  /* 00_embed: identical */
  base_values (values, 1);
  write_npy (dir, "00_embed.npy", values, ROWS, COLS);
  /* 01_attn: one element 5 off at [2, 5] on the NPU side: an error */
  base_values (values, 2);
  if (npu)
    values[2 * COLS + 5] += 5;
  write_npy (dir, "01_attn.npy", values, ROWS, COLS);
  /* 02_mlp: identical */
  base_values (values, 3);
  write_npy (dir, "02_mlp.npy", values, ROWS, COLS);
  /* one tensor on each side only */
  base_values (values, 4);
  write_npy (dir, npu ? "03_npu_only.npy" : "03_bench_only.npy", values, ROWS, COLS);
  return g_steal_pointer (&dir);
}

/* An msprobe dump of two APIs, relu then linear; the NPU side's linear
 * output differs by 2 in one element. */
static char *
write_dump_of (const char *root,
               const char *name,
               const char *task,
               gboolean    npu,
               guint       relu_call)
{
  g_autofree char *rank = g_build_filename (root, name, "step0", "rank0", NULL);
  g_autofree char *data = g_build_filename (rank, "dump_tensor_data", NULL);
  g_autofree char *relu = g_strdup_printf ("Functional.relu.%u.forward", relu_call);
  g_autofree char *relu_in = g_strconcat (relu, ".input.0", NULL);
  g_autofree char *relu_out = g_strconcat (relu, ".output.0", NULL);
  const char *keys[] = {
    relu_in, relu_out, "Functional.linear.0.forward.input.0", "Functional.linear.0.forward.output.0",
  };
  gboolean with_data = g_str_equal (task, "tensor");
  g_autoptr(GString) json = g_string_new (NULL);
  float values[N];

  g_string_printf (json, "{\"task\": \"%s\", \"level\": \"L1\", \"framework\": \"pytorch\", "
                   "\"dump_data_dir\": \"dump_tensor_data\", \"data\": {", task);
  g_assert_cmpint (g_mkdir_with_parents (data, 0755), ==, 0);
  for (guint k = 0; with_data && k < G_N_ELEMENTS (keys); k++)
    {
      g_autofree char *file = g_strconcat (keys[k], ".npy", NULL);

      base_values (values, k + 5);
      if (npu && k == 3)
        values[7] += 2;
      write_npy (data, file, values, ROWS, COLS);
    }
  for (guint api = 0; api < 2; api++)
    {
      const char *entry = api == 0 ? relu : "Functional.linear.0.forward";

      g_string_append_printf (json, "%s\"%s\": {", api ? ", " : "", entry);
      for (guint io = 0; io < 2; io++)
        {
          g_autofree char *data_name = with_data ? g_strdup_printf (", \"data_name\": \"%s.npy\"", keys[api * 2 + io])
                                                 : g_strdup ("");

          g_string_append_printf (json, "%s\"%s\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", "
                                  "\"shape\": [%d, %d], \"Max\": %g, \"Min\": -2.0, \"Mean\": 0.0, \"Norm\": 4.0, "
                                  "\"requires_grad\": false%s}]",
                                  io ? ", " : "", io ? "output" : "input_args", ROWS, COLS,
                                  npu && api == 1 && io == 1 ? 9.0 : 2.0, data_name);
        }
      g_string_append (json, "}");
    }
  g_string_append (json, "}}");
  write_text (rank, "dump.json", json->str);
  write_text (rank, "construct.json",
                                      "{\"Functional.relu.0.forward\": \"Module.encoder.Block.forward.0\","
                                      " \"Functional.linear.0.forward\": \"Module.head.Linear.forward.0\","
                                      " \"Module.encoder.Block.forward.0\": null, \"Module.head.Linear.forward.0\": null}");
  write_text (rank, "stack.json",
                                      "{\"0\": [[\"Functional.linear.0.forward\"], [\"File model.py, line 7, in forward, y = self.fc(x)\"]],"
                                      " \"1\": [[\"Functional.relu.0.forward\"], [\"File model.py, line 3, in forward, x = relu(x)\"]]}");
  return g_build_filename (root, name, NULL);
}

static char *
write_dump (const char *root,
            const char *name,
            gboolean    npu,
            guint       relu_call)
{
  return write_dump_of (root, name, "tensor", npu, relu_call);
}

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state != SL_DOCUMENT_LOADING;
}

static gboolean
pane_filled (gpointer data)
{
  SlTensorPairPane *pane = data;

  return !sl_tensor_pair_pane_is_busy (pane) &&
         (sl_tensor_pair_pane_get_detail (pane) != NULL || sl_tensor_pair_pane_get_message (pane) != NULL);
}

static SlTensorCompareRow *
row_at (GListModel *model,
        guint       i)
{
  static SlTensorCompareRow *row;

  g_clear_object (&row);
  row = g_list_model_get_item (model, i);
  return row;
}

static guint
count_listed (SlTensorComparePage *page,
              SlTensorVerdict      verdict)
{
  GListModel *rows = sl_tensor_compare_page_get_rows (page);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    n += sl_tensor_compare_row_get_verdict (row_at (rows, i)) == verdict;
  return n;
}

static SlTensorComparePage *
open_comparison (SlWindow   *window,
                 const char *npu,
                 const char *bench)
{
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (npu, bench);
  SlTensorComparePage *page = SL_TENSOR_COMPARE_PAGE (sl_window_open_address (window, "tensor-compare", address, NULL));

  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 60000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  return page;
}

/* The header names both sides, one above the other, each whole when
 * there is room and with its whole path as tooltip. */
static void
assert_sides_shown (SlTensorComparePage *page,
                    const char          *npu_name,
                    const char          *bench_name)
{
  GtkWidget *npu = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE, "npu_label"));
  GtkWidget *bench = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE, "bench_label"));
  graphene_point_t top = GRAPHENE_POINT_INIT (0, 0), below = GRAPHENE_POINT_INIT (0, 0);

  g_assert_nonnull (npu);
  g_assert_nonnull (bench);
  wait_for_frames (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (page))));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (npu)), ==, npu_name);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (bench)), ==, bench_name);
  g_assert_cmpstr (sl_widget_get_long_tooltip (npu), ==, sl_tensor_compare_page_get_npu_path (page));
  g_assert_cmpstr (sl_widget_get_long_tooltip (bench), ==, sl_tensor_compare_page_get_bench_path (page));
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (npu)), ==, PANGO_ELLIPSIZE_MIDDLE);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (bench)), ==, PANGO_ELLIPSIZE_MIDDLE);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (npu))));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (bench))));
  g_assert_true (gtk_widget_compute_point (npu, GTK_WIDGET (page), &top, &top));
  g_assert_true (gtk_widget_compute_point (bench, GTK_WIDGET (page), &below, &below));
  g_assert_cmpfloat (below.y, >=, top.y + gtk_widget_get_height (npu));
}

static void
assert_export (SlTensorComparePage *page,
               const char          *root)
{
  g_autofree char *csv_path = g_build_filename (root, "pairs.csv", NULL);
  g_autofree char *json_path = g_build_filename (root, "pairs.json", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  g_assert_true (sl_tensor_compare_page_export (page, SL_TENSOR_COMPARE_EXPORT_CSV, csv_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_nonnull (strstr (csv, "01_attn.npy"));
  g_assert_nonnull (strchr (csv, '\n'));

  g_assert_true (sl_tensor_compare_page_export (page, SL_TENSOR_COMPARE_EXPORT_JSON, json_path, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, json_path, &error));
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "pairs")), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "unmatched")), ==, 2);
  g_assert_true (json_object_has_member (object, "first_divergence"));

  /* A folder that cannot be written to is an error, not a crash. */
  {
    g_autofree char *bad = g_build_filename (root, "missing", "pairs.csv", NULL);

    g_assert_false (sl_tensor_compare_page_export (page, SL_TENSOR_COMPARE_EXPORT_CSV, bad, &error));
    g_assert_nonnull (error);
  }
}

static void
test_npy_folders (SlWindow   *window,
                  const char *root)
{
  g_autofree char *npu = write_side (root, "npu", TRUE);
  g_autofree char *bench = write_side (root, "bench", FALSE);
  SlTensorComparePage *page = open_comparison (window, npu, bench);
  SlTensorCompareReport *report = sl_tensor_compare_page_get_report (page);
  GListModel *rows = sl_tensor_compare_page_get_rows (page);
  SlTensorPairPane *pane = sl_tensor_compare_page_get_pair_pane (page);
  SlTensorCompareRow *first;
  const SlTensorPairDetail *detail;
  AdwStyleManager *manager = adw_style_manager_get_default ();

  g_assert_nonnull (report);
  g_assert_cmpstr (sl_tensor_compare_page_get_npu_path (page), ==, npu);
  g_assert_cmpstr (sl_tensor_compare_page_get_bench_path (page), ==, bench);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (page)), ==, "Tensors: npu");

  /* Every pair in execution order, verdicts as the report has them. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (report)), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(SlTensorCompareRow) expected = g_list_model_get_item (G_LIST_MODEL (report), i);

      g_assert_true (row_at (rows, i) == expected);
      g_assert_cmpuint (sl_tensor_compare_row_get_order (expected), ==, i);
    }
  g_assert_cmpstr (sl_tensor_compare_row_get_name (row_at (rows, 0)), ==, "00_embed.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row_at (rows, 0)), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (row_at (rows, 1)), ==, "01_attn.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row_at (rows, 1)), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpuint (sl_tensor_compare_report_count_verdict (report, SL_TENSOR_VERDICT_ERROR), ==, 1);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (report), ==, 2);

  /* The verdict sorts by severity, not by its word, and copies as
   * shown. */
  {
    SlDataTable *table = SL_DATA_TABLE (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                      "pairs_view"));
    g_autofree char *verdicts = NULL;

    sl_data_table_sort_by (table, "verdict", GTK_SORT_DESCENDING);
    g_assert_cmpint (sl_tensor_compare_row_get_verdict (row_at (rows, 0)), ==, SL_TENSOR_VERDICT_ERROR);
    verdicts = sl_data_table_dup_column_text (table, "verdict");
    g_assert_cmpstr (verdicts, ==, "Verdict\nError\nPass\nPass\n");
    sl_data_table_sort_by (table, "order", GTK_SORT_ASCENDING);
    g_assert_cmpstr (sl_tensor_compare_row_get_name (row_at (rows, 0)), ==, "00_embed.npy");
  }

  /* Only failures; a search; nothing left. */
  sl_tensor_compare_page_set_show (page, SL_TENSOR_COMPARE_SHOW_ERRORS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  g_assert_cmpuint (count_listed (page, SL_TENSOR_VERDICT_ERROR), ==, 1);
  sl_tensor_compare_page_set_show (page, SL_TENSOR_COMPARE_SHOW_ALL);
  sl_tensor_compare_page_set_search (page, "MLP");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (row_at (rows, 0)), ==, "02_mlp.npy");

  /* The first divergence, hidden by the search, is one click away. */
  first = sl_tensor_compare_report_get_first_divergence (report);
  g_assert_nonnull (first);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (first), ==, "01_attn.npy");
  g_assert_true (sl_tensor_compare_page_show_first_divergence (page));
  g_assert_true (sl_tensor_compare_page_get_selected (page) == first);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 3);

  /* The detail: the outlier first, at [2, 5]. */
  g_assert_true (wait_until (pane_filled, pane, 30000));
  detail = sl_tensor_pair_pane_get_detail (pane);
  g_assert_nonnull (detail);
  g_assert_true (detail->comparable);
  g_assert_cmpuint (detail->largest->len, ==, 1);
  {
    g_autofree char *index = sl_tensor_pair_detail_format_index (detail, g_array_index (detail->largest, SlTensorDifference, 0).position);

    g_assert_cmpstr (index, ==, "[2, 5]");
  }
  g_assert_cmpfloat (g_array_index (detail->largest, SlTensorDifference, 0).abs_error, ==, 5);
  g_assert_nonnull (sl_tensor_pair_pane_get_error_frame (pane));
  g_assert_cmpint (sl_tensor_pair_pane_get_error_frame (pane)->slice->n_rows, ==, ROWS);
  g_assert_cmpfloat (sl_tensor_frame_get_cell (sl_tensor_pair_pane_get_error_frame (pane), 2, 5), ==, 5);

  /* Another slice: row 2 only. */
  sl_tensor_pair_pane_set_slice (pane, "2, :");
  g_assert_true (wait_until (pane_filled, pane, 30000));
  g_assert_cmpint (sl_tensor_pair_pane_get_error_frame (pane)->slice->n_rows, ==, 1);
  g_assert_cmpfloat (sl_tensor_frame_get_cell (sl_tensor_pair_pane_get_error_frame (pane), 0, 5), ==, 5);

  assert_export (page, root);

  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare-dark.png");
  /* Both distributions are drawn; the pointer over a bin names both counts. */
  {
    GtkWidget *chart = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (pane), SL_TYPE_TENSOR_PAIR_PANE,
                                                                 "overlay_chart"));
    g_autofree char *text = NULL;

    g_assert_true (sl_tensor_overlay_chart_has_data (SL_TENSOR_OVERLAY_CHART (chart)));
    text = sl_tensor_overlay_chart_describe_at (SL_TENSOR_OVERLAY_CHART (chart), gtk_widget_get_width (chart) / 2.0,
                                                gtk_widget_get_height (chart) / 2.0);
    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "NPU: "));
    g_assert_nonnull (strstr (text, "Benchmark: "));
  }

  /* The largest differences, below the charts. */
  {
    GtkWidget *scrolled = gtk_widget_get_first_child (GTK_WIDGET (pane));
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
    wait_for_frames (GTK_WIDGET (window));
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    wait_for_frames (GTK_WIDGET (window));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare-detail.png");
  }
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  /* Thresholds loose enough for a 5 off: no error left, and no divergence. */
  {
    SlTensorCompareThresholds loose = { 0, 1e6, -1, 1e6, 1e6, 1e6, 1e6, 1e6 };

    sl_tensor_compare_page_set_thresholds (page, &loose, FALSE);
    g_assert_cmpuint (sl_tensor_compare_report_count_verdict (report, SL_TENSOR_VERDICT_ERROR), ==, 0);
    g_assert_true (sl_tensor_compare_page_get_selected (page) == first);
    g_assert_null (sl_tensor_compare_report_get_first_divergence (report));
    g_assert_false (sl_tensor_compare_page_show_first_divergence (page));
    sl_tensor_compare_page_set_show (page, SL_TENSOR_COMPARE_SHOW_FAILURES);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, count_listed (page, SL_TENSOR_VERDICT_WARNING));
    sl_tensor_compare_page_set_show (page, SL_TENSOR_COMPARE_SHOW_ALL);
  }
}

static void
test_msprobe_dumps (SlWindow   *window,
                    const char *root)
{
  g_autofree char *npu = write_dump (root, "dump_npu", TRUE, 0);
  g_autofree char *bench = write_dump (root, "dump_gpu", FALSE, 0);
  g_autofree char *renumbered = write_dump (root, "dump_cpu", FALSE, 1);
  SlTensorComparePage *page = open_comparison (window, npu, bench);
  SlTensorCompareReport *report = sl_tensor_compare_page_get_report (page);
  GListModel *rows = sl_tensor_compare_page_get_rows (page);
  SlTensorCompareRow *first = sl_tensor_compare_report_get_first_divergence (report);
  SlTensorPairPane *pane = sl_tensor_compare_page_get_pair_pane (page);

  assert_sides_shown (page, "dump_npu", "dump_gpu");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  g_assert_nonnull (first);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (first), ==, "Functional.linear.0.forward.output.0");
  g_assert_cmpstr (sl_tensor_compare_row_get_api (first), ==, "Functional.linear");
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_module_path (first), "Module.head.Linear.forward.0"));
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_stack (first), "self.fc(x)"));

  /* By API, by module path. */
  sl_tensor_compare_page_set_api (page, "Functional.relu");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  g_assert_cmpstr (sl_tensor_compare_row_get_api (row_at (rows, 0)), ==, "Functional.relu");
  sl_tensor_compare_page_set_api (page, NULL);
  sl_tensor_compare_page_set_module_filter (page, "head");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  g_assert_true (sl_tensor_compare_page_show_first_divergence (page));
  g_assert_true (sl_tensor_compare_page_get_selected (page) == first);

  g_assert_true (wait_until (pane_filled, pane, 30000));
  g_assert_nonnull (sl_tensor_pair_pane_get_detail (pane));
  {
    g_autofree char *index = sl_tensor_pair_detail_format_index (sl_tensor_pair_pane_get_detail (pane),
      g_array_index (sl_tensor_pair_pane_get_detail (pane)->largest, SlTensorDifference, 0).position);

    g_assert_cmpstr (index, ==, "[0, 7]");
  }

  /* The banner shows where the divergence is, with its stack open. */
  {
    GtkExpander *expander = GTK_EXPANDER (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                        "divergence_stack_expander"));
    GtkLabel *module = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                "divergence_module"));
    AdwStyleManager *manager = adw_style_manager_get_default ();

    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (expander)));
    g_assert_nonnull (strstr (gtk_label_get_text (module), "Module.head.Linear.forward.0"));
    gtk_expander_set_expanded (expander, TRUE);
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
    wait_for_frames (GTK_WIDGET (window));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare-msprobe.png");
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
    wait_for_frames (GTK_WIDGET (window));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare-msprobe-dark.png");
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  }

  /* relu called once more before on the CPU: exact pairing leaves its
   * tensors unmatched, fuzzy pairing finds them. */
  {
    SlTensorComparePage *other = open_comparison (window, npu, renumbered);
    GtkToggleButton *fuzzy = GTK_TOGGLE_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (other), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                             "fuzzy_toggle"));

    g_assert_cmpuint (g_list_model_get_n_items (sl_tensor_compare_page_get_rows (other)), ==, 2);
    g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (sl_tensor_compare_page_get_report (other)), ==, 4);
    gtk_toggle_button_set_active (fuzzy, TRUE);
    g_assert_true (wait_until (page_settled, other, 60000));
    g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (other)), ==, SL_DOCUMENT_READY);
    g_assert_cmpuint (g_list_model_get_n_items (sl_tensor_compare_page_get_rows (other)), ==, 4);
    g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (sl_tensor_compare_page_get_report (other)), ==, 0);
  }

  /* In a 1024 × 640 window, with the side panels open, the banner's
   * headline is a sentence read whole: it wraps rather than lose its
   * middle to an ellipsis. */
  {
    GtkLabel *title = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                               "divergence_title"));

    gtk_label_set_text (title, "No compared pair fails, but not every tensor was compared");
    panel_widget_raise (PANEL_WIDGET (page));
    gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);
    wait_for_frames (GTK_WIDGET (window));
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (title)));
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (page)), <, 700);
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (title)));
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (title)), <=, gtk_widget_get_width (GTK_WIDGET (page)));
    gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
    wait_for_frames (GTK_WIDGET (window));
  }
}

/* Statistics-only dumps: rows without elements, and a pane that says so. */
static void
test_statistics_dumps (SlWindow   *window,
                       const char *root)
{
  g_autofree char *npu = write_dump_of (root, "stats_npu", "statistics", TRUE, 0);
  g_autofree char *bench = write_dump_of (root, "stats_gpu", "statistics", FALSE, 0);
  SlTensorComparePage *page = open_comparison (window, npu, bench);
  SlTensorPairPane *pane = sl_tensor_compare_page_get_pair_pane (page);
  GListModel *rows = sl_tensor_compare_page_get_rows (page);

  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  g_assert_cmpint (sl_tensor_compare_row_get_mode (row_at (rows, 0)), ==, SL_TENSOR_COMPARE_MODE_STATS);
  sl_tensor_compare_page_select (page, 0);
  g_assert_true (sl_tensor_pair_pane_get_row (pane) == row_at (rows, 0));
  g_assert_false (sl_tensor_pair_pane_is_busy (pane));
  g_assert_null (sl_tensor_pair_pane_get_detail (pane));
  g_assert_nonnull (strstr (sl_tensor_pair_pane_get_message (pane), "statistics"));

  /* The pair's statistics side by side with their differences, as
   * msprobe's summary CSV has them: linear's output has Max 9 against 2. */
  sl_tensor_compare_page_select (page, 3);
  {
    GtkGrid *grid = sl_tensor_pair_pane_get_stats_grid (pane);
    const char *expected[][5] = {
      { "Statistic", "NPU", "Benchmark", "Difference", "Relative" },
      { "Max", "9", "2", "7", "3.5" },
      { "Min", "-2", "-2", "0", "0" },
      { "Mean", "0", "0", "0", "0" },
      { "L2 norm", "4", "4", "0", "0" },
    };

    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (grid)));
    for (guint r = 0; r < G_N_ELEMENTS (expected); r++)
      for (guint c = 0; c < 5; c++)
        g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (grid, c, r))), ==, expected[r][c]);
  }
  /* The banner points at the warning instead of giving an all clear. */
  {
    GtkLabel *title = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                "divergence_title"));
    GtkLabel *module = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TENSOR_COMPARE_PAGE,
                                                                 "divergence_module"));

    g_assert_cmpstr (gtk_label_get_text (title), ==, "No pair is an error; first warning: Functional.linear.0.forward.output.0");
    g_assert_nonnull (strstr (gtk_label_get_text (module), "4 of 4 NPU tensors compared"));
    wait_for_frames (GTK_WIDGET (window));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tensor-compare-statistics.png");
  }
}

/* A path of one side only, and a side that does not exist: the document
 * fails with a reason instead of showing an empty table. */
static void
test_bad_sides (SlWindow   *window,
                const char *root)
{
  g_autofree char *missing = g_build_filename (root, "no-such-dump", NULL);
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (npu, missing);
  g_autofree char *export_path = g_build_filename (root, "absent.json", NULL);
  SlDocument *one = sl_window_open_document (window, "tensor-compare", npu, NULL);
  SlDocument *absent;

  g_assert_true (wait_until (page_settled, one, 30000));
  g_assert_cmpint (sl_document_get_state (one), ==, SL_DOCUMENT_FAILED);
  g_assert_nonnull (sl_document_get_error (one));

  absent = sl_window_open_address (window, "tensor-compare", address, NULL);
  g_assert_true (wait_until (page_settled, absent, 60000));
  g_assert_cmpint (sl_document_get_state (absent), ==, SL_DOCUMENT_FAILED);
  g_assert_nonnull (sl_document_get_error (absent));
  g_assert_null (sl_tensor_compare_page_get_report (SL_TENSOR_COMPARE_PAGE (absent)));
  g_assert_false (sl_tensor_compare_page_export (SL_TENSOR_COMPARE_PAGE (absent), SL_TENSOR_COMPARE_EXPORT_JSON,
                                                 export_path, NULL));
  g_assert_false (g_file_test (export_path, G_FILE_TEST_EXISTS));
}

/* The folder page offers the sides it found, the benchmark guessed by name. */
static gboolean
folder_ready (gpointer data)
{
  return sl_folder_get_state (data) != SL_FOLDER_SCANNING;
}

static void
test_folder_sides (SlWindow   *window,
                   const char *root)
{
  SlFolder *folder = sl_window_open_path (window, root);
  g_autoptr(GPtrArray) sides = NULL;
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  SlFindingKind group;
  GtkWidget *button;
  gboolean has_npu = FALSE, has_bench = FALSE;

  g_assert_nonnull (folder);
  g_assert_true (wait_until (folder_ready, folder, 30000));
  sides = sl_tensor_compare_list_sides (sl_folder_get_findings (folder));
  g_assert_cmpuint (sides->len, >=, 2);
  for (guint i = 0; i < sides->len; i++)
    {
      has_npu |= g_strcmp0 (g_ptr_array_index (sides, i), npu) == 0;
      has_bench |= g_strcmp0 (g_ptr_array_index (sides, i), bench) == 0;
    }
  g_assert_true (has_npu && has_bench);
  g_assert_cmpstr (g_ptr_array_index (sides, sl_tensor_compare_guess_bench (sides)), ==, bench);

  button = sl_tensor_compare_button_new (sl_folder_get_findings (folder), root, &group);
  g_assert_nonnull (button);
  g_object_unref (g_object_ref_sink (button));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = NULL;
  g_autofree char *dumps = NULL;
  g_autoptr(SlApplication) app = NULL;
  SlWindow *window;

  if (skip_without_display ())
    return 77;
  root = make_test_home ("sightline-tensor-compare-XXXXXX");
  gtk_init ();

  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  test_npy_folders (window, root);
  dumps = g_build_filename (root, "dumps", NULL);
  test_msprobe_dumps (window, dumps);
  test_statistics_dumps (window, dumps);
  test_folder_sides (window, root);
  test_bad_sides (window, root);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
