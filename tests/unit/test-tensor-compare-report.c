/* test-tensor-compare-report.c: whole comparisons of runs written here
 *
 * Folders of .npy files (matched, unmatched with the reason, the first
 * divergence), MindSpore dump names, msprobe dumps in tensor mode with
 * .npy and .pt data, statistics and CRC modes with the module path and
 * stack of construct.json and stack.json, fuzzy pairing and a mapping,
 * data_name values leading out of the dump, thresholds changed after
 * loading, the JSON and CSV read back, loading on a worker with progress,
 * and cancellation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-problem.h"
#include "sl-tensor-compare-report.h"

/* ---- files ---- */

static char *
make_folder (void)
{
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp ("sl-compare-report-XXXXXX", &error);

  g_assert_no_error (error);
  return folder;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
write_bytes (const char   *folder,
             const char   *name,
             const void   *data,
             gsize         length)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

static void
write_text (const char *folder,
            const char *name,
            const char *text)
{
  write_bytes (folder, name, text, strlen (text));
}

/* A little-endian float32 .npy of one dimension. */
static void
write_npy (const char  *folder,
           const char  *name,
           const float *values,
           guint        n)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *header = g_strdup_printf ("{'descr': '<f4', 'fortran_order': False, 'shape': (%u,), }", n);
  g_autoptr(GString) padded = g_string_new (header);
  guint16 length;

  while ((10 + padded->len + 1) % 64 != 0)
    g_string_append_c (padded, ' ');
  g_string_append_c (padded, '\n');
  length = GUINT16_TO_LE (padded->len);
  g_byte_array_append (out, (const guint8 *)"\x93NUMPY\x01\x00", 8);
  g_byte_array_append (out, (const guint8 *)&length, 2);
  g_byte_array_append (out, (const guint8 *)padded->str, padded->len);
  g_byte_array_append (out, (const guint8 *)values, n * sizeof (float));
  write_bytes (folder, name, out->data, out->len);
}

/* ---- .pt files: a stored zip with the pickle torch.save writes ---- */

static void
put_u16 (GByteArray *out,
         guint       v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };

  g_byte_array_append (out, b, 2);
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (out, b, 4);
}

static void
zip_entry (GByteArray   *out,
           GByteArray   *central,
           const char   *name,
           const guint8 *data,
           gsize         length)
{
  guint32 offset = out->len;
  guint name_len = strlen (name);

  put_u32 (out, 0x04034b50);
  put_u16 (out, 20); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0);
  put_u32 (out, 0); put_u32 (out, length); put_u32 (out, length);
  put_u16 (out, name_len); put_u16 (out, 0);
  g_byte_array_append (out, (const guint8 *)name, name_len);
  g_byte_array_append (out, data, length);

  put_u32 (central, 0x02014b50);
  put_u16 (central, 20); put_u16 (central, 20); put_u16 (central, 0); put_u16 (central, 0);
  put_u16 (central, 0); put_u16 (central, 0);
  put_u32 (central, 0); put_u32 (central, length); put_u32 (central, length);
  put_u16 (central, name_len); put_u16 (central, 0); put_u16 (central, 0);
  put_u16 (central, 0); put_u16 (central, 0); put_u32 (central, 0);
  put_u32 (central, offset);
  g_byte_array_append (central, (const guint8 *)name, name_len);
}

static void
pickle_global (GByteArray *p,
               const char *module,
               const char *name)
{
  g_autofree char *text = g_strdup_printf ("c%s\n%s\n", module, name);

  g_byte_array_append (p, (const guint8 *)text, strlen (text));
}

static void
pickle_unicode (GByteArray *p,
                const char *text)
{
  g_byte_array_append (p, (const guint8 *)"X", 1);
  put_u32 (p, strlen (text));
  g_byte_array_append (p, (const guint8 *)text, strlen (text));
}

static void
pickle_int (GByteArray *p,
            guint       value)
{
  guint8 b[2] = { 'K', value };

  g_assert_cmpuint (value, <, 256);
  g_byte_array_append (p, b, 2);
}

/* A float32 tensor of @n_dims over @storage with the given strides. */
static void
write_pt (const char  *folder,
          const char  *name,
          const float *storage,
          guint        numel,
          guint        n_dims,
          const guint *shape,
          const guint *strides)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) central = g_byte_array_new ();
  guint32 cd_offset;

  g_byte_array_append (p, (const guint8 *)"\x80\x02", 2);
  pickle_global (p, "torch._utils", "_rebuild_tensor_v2");
  g_byte_array_append (p, (const guint8 *)"q\x00((", 4);
  pickle_unicode (p, "storage");
  g_byte_array_append (p, (const guint8 *)"q\x01", 2);
  pickle_global (p, "torch", "FloatStorage");
  pickle_unicode (p, "0");
  pickle_unicode (p, "cpu");
  pickle_int (p, numel);
  g_byte_array_append (p, (const guint8 *)"tQ", 2);
  pickle_int (p, 0);
  g_byte_array_append (p, (const guint8 *)"(", 1);
  for (guint i = 0; i < n_dims; i++)
    pickle_int (p, shape[i]);
  g_byte_array_append (p, (const guint8 *)"t(", 2);
  for (guint i = 0; i < n_dims; i++)
    pickle_int (p, strides[i]);
  g_byte_array_append (p, (const guint8 *)"t\x89", 2);
  pickle_global (p, "collections", "OrderedDict");
  g_byte_array_append (p, (const guint8 *)")RtR.", 5);

  zip_entry (out, central, "archive/data.pkl", p->data, p->len);
  zip_entry (out, central, "archive/byteorder", (const guint8 *)"little", 6);
  zip_entry (out, central, "archive/data/0", (const guint8 *)storage, numel * sizeof (float));
  cd_offset = out->len;
  g_byte_array_append (out, central->data, central->len);
  put_u32 (out, 0x06054b50);
  put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 3); put_u16 (out, 3);
  put_u32 (out, central->len); put_u32 (out, cd_offset); put_u16 (out, 0);
  write_bytes (folder, name, out->data, out->len);
}

/* ---- helpers ---- */

static SlTensorCompareReport *
load_report (const char           *npu,
             const char           *bench,
             SlTensorPairingFlags  flags,
             SlTensorMapping      *mapping)
{
  g_autoptr(GError) error = NULL;
  SlTensorCompareReport *report = sl_tensor_compare_report_new (npu, bench, NULL, flags, mapping);

  g_assert_true (sl_tensor_compare_report_load (report, NULL, &error));
  g_assert_no_error (error);
  return report;
}

static SlTensorCompareRow *
find_row (SlTensorCompareReport *report,
          const char            *name)
{
  for (guint i = 0; i < sl_tensor_compare_report_get_n_rows (report); i++)
    {
      SlTensorCompareRow *row = sl_tensor_compare_report_get_row (report, i);

      if (g_str_equal (sl_tensor_compare_row_get_name (row), name))
        return row;
    }
  return NULL;
}

static const SlTensorCompareUnmatched *
find_unmatched (SlTensorCompareReport *report,
                const char            *name)
{
  for (guint i = 0; i < sl_tensor_compare_report_get_n_unmatched (report); i++)
    {
      const SlTensorCompareUnmatched *u = sl_tensor_compare_report_get_unmatched (report, i);

      if (g_str_equal (u->name, name))
        return u;
    }
  return NULL;
}

static JsonObject *
report_json (SlTensorCompareReport *report,
             JsonParser            *parser)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_tensor_compare_report_write_json (report, out, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                                             g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)),
                                             &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The CSV split into rows of fields (quotes understood). */
static GPtrArray *
report_csv (SlTensorCompareReport *report)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *fields = NULL;
  g_autoptr(GString) field = g_string_new (NULL);
  const char *p, *end;
  gboolean quoted = FALSE;

  g_assert_true (sl_tensor_compare_report_write_csv (report, out, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
  p = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out));
  end = p + g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out));
  for (; p < end; p++)
    {
      if (fields == NULL)
        fields = g_ptr_array_new_with_free_func (g_free);
      if (quoted)
        {
          if (*p == '"' && p + 1 < end && p[1] == '"')
            g_string_append_c (field, *p++);
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',' || *p == '\n')
        {
          g_ptr_array_add (fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          if (*p == '\n')
            g_ptr_array_add (rows, g_steal_pointer (&fields));
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_null (fields);
  return rows;
}

static const char *
cell (GPtrArray  *rows,
      guint       row,
      const char *column)
{
  GPtrArray *header = g_ptr_array_index (rows, 0);
  GPtrArray *fields = g_ptr_array_index (rows, row);

  g_assert_cmpuint (header->len, ==, fields->len);
  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (g_ptr_array_index (header, i), column))
      return g_ptr_array_index (fields, i);
  g_error ("no column %s", column);
  return NULL;
}

static const float ones[4] = { 1, 2, 3, 4 };
static const float outlier[4] = { 1, 2, 3, 5 };
static const float flipped[4] = { -1, -2, -3, -4 };

/* ---- npy folders ---- */

static void
test_npy_folders (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) csv = NULL;
  SlTensorCompareRow *row;
  const SlTensorCompareUnmatched *u;
  JsonObject *json, *first;
  JsonArray *pairs;

  write_npy (npu, "a.npy", ones, 4);
  write_npy (bench, "a.npy", ones, 4);
  write_npy (npu, "layer/b.npy", ones, 4);
  write_npy (bench, "layer/b.npy", outlier, 4);
  write_npy (npu, "layer/c.npy", flipped, 4);
  write_npy (bench, "layer/c.npy", ones, 4);
  write_npy (npu, "only-npu.npy", ones, 4);
  write_npy (bench, "only-bench.npy", ones, 4);

  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_input (report), ==, SL_TENSOR_COMPARE_INPUT_NPY_FOLDERS);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (report)), ==, 3);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (report)) == SL_TYPE_TENSOR_COMPARE_ROW);

  row = find_row (report, "a.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpstr (sl_tensor_compare_row_get_npu_dtype (row), ==, "float32");
  g_assert_cmpfloat_with_epsilon (sl_tensor_compare_row_get_metrics (row)->cosine, 1.0, 1e-12);
  g_assert_cmpuint (sl_tensor_compare_row_get_order (row), ==, 0);
  row = find_row (report, "layer/b.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  row = find_row (report, "layer/c.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);
  g_assert_cmpuint (sl_tensor_compare_report_count_verdict (report, SL_TENSOR_VERDICT_PASS), ==, 1);
  {
    g_autofree char *shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_BENCH);

    g_assert_cmpstr (shape, ==, "[4]");
  }

  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (report), ==, 2);
  u = find_unmatched (report, "only-npu.npy");
  g_assert_nonnull (u);
  g_assert_cmpint (u->side, ==, SL_TENSOR_SIDE_NPU);
  g_assert_cmpint (u->reason, ==, SL_UNMATCHED_MISSING);
  g_assert_nonnull (strstr (u->reason_text, "relative path"));
  u = find_unmatched (report, "only-bench.npy");
  g_assert_nonnull (u);
  g_assert_cmpint (u->side, ==, SL_TENSOR_SIDE_BENCH);

  json = report_json (report, parser);
  pairs = json_object_get_array_member (json, "pairs");
  g_assert_cmpuint (json_array_get_length (pairs), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (pairs, 0), "npu_shape"), ==, "(4,)");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_array_get_object_element (pairs, 1), "rmse"),
                                  0.5, 1e-12);
  first = json_object_get_object_member (json, "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "layer/c.npy");
  g_assert_cmpint (json_object_get_int_member (first, "index"), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json, "unmatched")), ==, 2);
  /* What was compared of what there was: 3 of 4 tensors on each side. */
  g_assert_cmpuint (sl_tensor_compare_report_count_side_tensors (report, SL_TENSOR_SIDE_NPU), ==, 4);
  g_assert_cmpuint (sl_tensor_compare_report_count_side_unmatched (report, SL_TENSOR_SIDE_BENCH), ==, 1);
  {
    JsonObject *coverage = json_object_get_object_member (json, "coverage");
    g_autofree char *text = sl_tensor_compare_report_dup_coverage (report);

    g_assert_cmpint (json_object_get_int_member (coverage, "compared"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (coverage, "npu_tensors"), ==, 4);
    g_assert_cmpint (json_object_get_int_member (coverage, "npu_unmatched"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (coverage, "bench_tensors"), ==, 4);
    g_assert_cmpint (json_object_get_int_member (coverage, "bench_unmatched"), ==, 1);
    g_assert_cmpstr (text, ==, "3 of 4 NPU tensors compared; 1 unmatched, and 1 of 4 benchmark tensors unmatched");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json, "first_warning"), "name"), ==,
                     "layer/b.npy");
  }

  csv = report_csv (report);
  g_assert_cmpuint (csv->len, ==, 4);
  g_assert_cmpstr (cell (csv, 0, "NPU Name"), ==, "NPU Name");
  g_assert_cmpstr (cell (csv, 2, "NPU Name"), ==, "layer/b.npy");
  g_assert_cmpstr (cell (csv, 2, "NPU Tensor Shape"), ==, "[4]");
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 2, "RootMeanSquareError"), NULL), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 3, "Cosine"), NULL), -1.0, 1e-12);
  g_assert_cmpstr (cell (csv, 3, "Result"), ==, "error");
  g_assert_nonnull (strstr (cell (csv, 3, "Err_message"), "cosine"));

  remove_tree (root);
}

static void
test_mindspore_names (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  SlTensorCompareRow *row;

  /* The same ops at other task ids and times on the two sides. */
  write_npy (npu, "Conv2D.Default--network-conv1-Conv2D-op1.2.1.1700000002.output.0.DefaultFormat.npy", ones, 4);
  write_npy (npu, "ReLU.Default--network-relu-ReLU-op2.3.1.1700000003.output.0.DefaultFormat.npy", flipped, 4);
  write_npy (npu, "Add.Default--network-add-op9.4.1.1700000001.output.0.DefaultFormat.npy", ones, 4);
  write_npy (bench, "Conv2D.Default--network-conv1-Conv2D-op1.7.0.1600000001.output.0.DefaultFormat.npy", ones, 4);
  write_npy (bench, "ReLU.Default--network-relu-ReLU-op2.8.0.1600000002.output.0.DefaultFormat.npy", ones, 4);

  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_input (report), ==, SL_TENSOR_COMPARE_INPUT_MINDSPORE);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 2);
  row = sl_tensor_compare_report_get_row (report, 0);
  g_assert_cmpstr (sl_tensor_compare_row_get_api (row), ==, "Conv2D");
  g_assert_true (g_str_has_prefix (sl_tensor_compare_row_get_bench_name (row), "Conv2D.Default--network-conv1-Conv2D-op1.7.0"));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  row = sl_tensor_compare_report_get_first_divergence (report);
  g_assert_cmpstr (sl_tensor_compare_row_get_api (row), ==, "ReLU");
  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (report), ==, 1);
  g_assert_true (g_str_has_prefix (sl_tensor_compare_report_get_unmatched (report, 0)->name, "Add."));
  remove_tree (root);
}

/* ---- msprobe dumps ---- */

static char *
tensor_record (const char *shape,
               double      max,
               double      min,
               double      mean,
               double      norm,
               const char *extra)
{
  return g_strdup_printf ("{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": %s, "
                          "\"Max\": %.17g, \"Min\": %.17g, \"Mean\": %.17g, \"Norm\": %.17g, \"requires_grad\": false%s%s}",
                          shape, max, min, mean, norm, extra != NULL ? ", " : "", extra != NULL ? extra : "");
}

static void
write_side_files (const char *rank)
{
  write_text (rank, "construct.json",
              "{\"Functional.relu.0.forward\": \"Module.layer1.Block.forward.0\","
              " \"Functional.gelu.0.forward\": \"Module.layer1.Block.forward.0\","
              " \"Module.layer1.Block.forward.0\": \"Module.model.Net.forward.0\","
              " \"Module.model.Net.forward.0\": null}");
  write_text (rank, "stack.json",
              "{\"0\": [[\"Functional.gelu.0.forward\"], [\"File model.py, line 7, in forward, x = gelu(x)\"]]}");
}

/* relu then gelu; @gelu_data names the gelu output's data file. */
static void
write_tensor_dump (const char  *rank,
                   const char  *gelu_data,
                   const float *gelu_values,
                   const char  *extension)
{
  g_autofree char *data = g_build_filename (rank, "dump_tensor_data", NULL);
  g_autofree char *relu_in_name = g_strdup_printf ("\"data_name\": \"Functional.relu.0.forward.input.0.%s\"", extension);
  g_autofree char *relu_out_name = g_strdup_printf ("\"data_name\": \"Functional.relu.0.forward.output.0.%s\"", extension);
  g_autofree char *gelu_name = g_strdup_printf ("\"data_name\": \"%s\"", gelu_data);
  g_autofree char *relu_in = tensor_record ("[4]", 4, 1, 2.5, 5.477, relu_in_name);
  g_autofree char *relu_out = tensor_record ("[4]", 4, 1, 2.5, 5.477, relu_out_name);
  g_autofree char *gelu_out = tensor_record ("[4]", 4, 1, 2.5, 5.477, gelu_name);
  g_autofree char *json = g_strdup_printf ("{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {"
                                           "\"Functional.relu.0.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                                           "\"Functional.gelu.0.forward\": {\"input_args\": [], \"output\": [%s]}}}",
                                           relu_in, relu_out, gelu_out);
  g_autofree char *relu_in_file = g_strdup_printf ("Functional.relu.0.forward.input.0.%s", extension);
  g_autofree char *relu_out_file = g_strdup_printf ("Functional.relu.0.forward.output.0.%s", extension);
  /* 2x2, stored transposed, so the .pt reader's strides are used. */
  const guint shape[2] = { 2, 2 }, transposed[2] = { 1, 2 };
  const float transposed_ones[4] = { 1, 3, 2, 4 };

  write_text (rank, "dump.json", json);
  write_side_files (rank);
  if (g_str_equal (extension, "npy"))
    {
      write_npy (data, relu_in_file, ones, 4);
      write_npy (data, relu_out_file, ones, 4);
      if (gelu_values != NULL)
        write_npy (data, gelu_data, gelu_values, 4);
    }
  else
    {
      const guint flat[1] = { 4 }, unit[1] = { 1 };

      write_pt (data, relu_in_file, ones, 4, 1, flat, unit);
      write_pt (data, relu_out_file, transposed_ones, 4, 2, shape, transposed);
      if (gelu_values != NULL)
        write_pt (data, gelu_data, gelu_values, 4, 1, flat, unit);
    }
}

static void
test_msprobe_tensor_mode (gconstpointer data)
{
  const char *extension = data;
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", "step0", "rank0", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", "step0", "rank0", NULL);
  g_autofree char *npu_root = g_build_filename (root, "npu", NULL);
  g_autofree char *gelu = g_strdup_printf ("Functional.gelu.0.forward.output.0.%s", extension);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  SlTensorCompareRow *row;
  JsonObject *first;
  SlTensorData a, b;
  float a_last, b_last;
  g_autoptr(GObject) keep = NULL;
  g_autoptr(GError) error = NULL;

  write_tensor_dump (npu, gelu, flipped, extension);
  write_tensor_dump (bench, gelu, ones, extension);

  /* The dump root on one side, the rank folder on the other. */
  report = load_report (npu_root, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_input (report), ==, SL_TENSOR_COMPARE_INPUT_MSPROBE);
  g_assert_cmpint (sl_tensor_compare_report_get_mode (report), ==, SL_TENSOR_COMPARE_MODE_DATA);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 3);
  g_assert_cmpuint (sl_tensor_compare_report_get_problems (report)->len, ==, 0);
  row = sl_tensor_compare_report_get_row (report, 1);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (row), ==, "Functional.relu.0.forward.output.0");
  g_assert_cmpstr (sl_tensor_compare_row_get_api (row), ==, "Functional.relu");
  g_assert_cmpstr (sl_tensor_compare_row_get_npu_dtype (row), ==, "torch.float32");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpstr (sl_tensor_compare_row_get_module_path (row), ==,
                   "Module.model.Net.forward.0 > Module.layer1.Block.forward.0");

  row = sl_tensor_compare_report_get_first_divergence (report);
  g_assert_nonnull (row);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (row), ==, "Functional.gelu.0.forward.output.0");
  g_assert_cmpuint (sl_tensor_compare_row_get_order (row), ==, 2);
  g_assert_cmpfloat_with_epsilon (sl_tensor_compare_row_get_metrics (row)->cosine, -1.0, 1e-12);
  g_assert_cmpstr (sl_tensor_compare_row_get_stack (row), ==, "File model.py, line 7, in forward, x = gelu(x)");
  g_assert_true (g_str_has_suffix (sl_tensor_compare_row_get_npu_file (row), gelu));

  /* The detail views read the pair again. */
  g_assert_true (sl_tensor_compare_row_load_data (row, &a, &b, &keep, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (a.n_elements, ==, 4);
  g_assert_cmpint (a.dtype, ==, SL_TENSOR_DTYPE_FLOAT32);
  /* The data is where the .npy header ends, which need not be aligned. */
  memcpy (&a_last, a.data + 3 * sizeof (float), sizeof a_last);
  memcpy (&b_last, b.data + 3 * sizeof (float), sizeof b_last);
  g_assert_cmpfloat (a_last, ==, -4);
  g_assert_cmpfloat (b_last, ==, 4);

  /* msprobe takes max, min, mean and norm from dump.json, not the data
   * (gelu's NPU data is -1..-4, its record says 4 and 1). */
  {
    g_autoptr(GPtrArray) csv = report_csv (report);

    g_assert_cmpfloat (g_ascii_strtod (cell (csv, 3, "NPU max"), NULL), ==, 4);
    g_assert_cmpfloat (g_ascii_strtod (cell (csv, 3, "NPU min"), NULL), ==, 1);
    g_assert_cmpfloat (g_ascii_strtod (cell (csv, 3, "Bench l2norm"), NULL), ==, 5.477);
    g_assert_cmpstr (cell (csv, 3, "NPU_Stack_Info"), ==, "File model.py, line 7, in forward, x = gelu(x)");
  }

  first = json_object_get_object_member (report_json (report, parser), "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "module_path"), ==,
                   "Module.model.Net.forward.0 > Module.layer1.Block.forward.0");
  g_assert_cmpstr (json_object_get_string_member (first, "stack"), ==, "File model.py, line 7, in forward, x = gelu(x)");
  g_assert_cmpstr (json_object_get_string_member (first, "api"), ==, "Functional.gelu");
  remove_tree (root);
}

static void
test_msprobe_refused_data_name (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  SlTensorCompareRow *row;
  GPtrArray *problems;
  gboolean reported = FALSE;
  JsonArray *json_problems;

  /* The NPU dump's gelu points two folders up, at a file that exists. */
  write_tensor_dump (npu, "../../secret.npy", NULL, "npy");
  write_npy (root, "secret.npy", flipped, 4);
  write_tensor_dump (bench, "Functional.gelu.0.forward.output.0.npy", ones, "npy");

  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  row = find_row (report, "Functional.gelu.0.forward.output.0");
  g_assert_nonnull (row);
  g_assert_true (sl_tensor_compare_row_get_failed (row));
  g_assert_null (sl_tensor_compare_row_get_metrics (row));
  g_assert_null (sl_tensor_compare_row_get_npu_file (row));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row), "out of the dump folder"));
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "Functional.relu.0.forward.output.0")), ==,
                   SL_TENSOR_VERDICT_PASS);

  problems = sl_tensor_compare_report_get_problems (report);
  for (guint i = 0; i < problems->len; i++)
    reported |= strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), "out of the dump folder") != NULL;
  g_assert_true (reported);
  json_problems = json_object_get_array_member (report_json (report, parser), "problems");
  g_assert_cmpuint (json_array_get_length (json_problems), ==, problems->len);
  remove_tree (root);
}

static char *
stats_dump (double relu_max,
            double gelu_mean,
            const char *relu_crc,
            const char *gelu_entry)
{
  g_autofree char *relu_extra = relu_crc != NULL ? g_strdup_printf ("\"md5\": \"%s\"", relu_crc) : NULL;
  g_autofree char *gelu_extra = relu_crc != NULL ? g_strdup ("\"md5\": \"0badf00d\"") : NULL;
  g_autofree char *relu = tensor_record ("[4]", relu_max, 1, 2.5, 5.0, relu_extra);
  g_autofree char *gelu = tensor_record ("[4]", 4, 1, gelu_mean, 5.0, gelu_extra);

  return g_strdup_printf ("{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {"
                          "\"Functional.relu.0.forward\": {\"input_args\": [], \"output\": [%s]},"
                          "\"%s\": {\"input_args\": [], \"output\": [%s]}}}",
                          relu, gelu_entry, gelu);
}

static void
write_stats_dump (const char *rank,
                  const char *json)
{
  write_text (rank, "dump.json", json);
  write_side_files (rank);
}

static void
test_msprobe_stats_mode (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autofree char *npu_json = stats_dump (4, 2.5, NULL, "Functional.gelu.0.forward");
  /* The benchmark's gelu mean is 1: the NPU's differs by 150 %. */
  g_autofree char *bench_json = stats_dump (4, 1.0, NULL, "Functional.gelu.0.forward");
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(GPtrArray) csv = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  SlTensorCompareRow *row;
  const SlStatsComparison *stats;
  JsonObject *pair;

  write_stats_dump (npu, npu_json);
  write_stats_dump (bench, bench_json);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_mode (report), ==, SL_TENSOR_COMPARE_MODE_STATS);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 2);
  row = sl_tensor_compare_report_get_row (report, 0);
  g_assert_cmpint (sl_tensor_compare_row_get_mode (row), ==, SL_TENSOR_COMPARE_MODE_STATS);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_null (sl_tensor_compare_row_get_metrics (row));
  row = sl_tensor_compare_report_get_row (report, 1);
  stats = sl_tensor_compare_row_get_stats (row);
  g_assert_nonnull (stats);
  g_assert_cmpfloat_with_epsilon (stats->mean.diff, 1.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats->mean.relative, 1.5, 1e-12);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row), "mean"));
  g_assert_cmpstr (sl_tensor_compare_row_get_stack (row), ==, "File model.py, line 7, in forward, x = gelu(x)");
  /* msprobe's summary mode only warns */
  g_assert_null (sl_tensor_compare_report_get_first_divergence (report));
  /* and the verdict line points at the warning, never at an all clear */
  g_assert_true (sl_tensor_compare_report_get_first_warning (report) == row);
  {
    g_autofree char *headline = sl_tensor_compare_report_dup_headline (report);

    g_assert_cmpstr (headline, ==, "No pair is an error; first warning: Functional.gelu.0.forward.output.0 "
                                   "(2 of 2 NPU tensors compared)");
    g_free (headline);
    headline = sl_tensor_compare_report_dup_verdict (report);
    g_assert_cmpstr (headline, ==, "No pair is an error; first warning: Functional.gelu.0.forward.output.0");
  }

  csv = report_csv (report);
  g_assert_cmpuint (csv->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 2, "Mean diff"), NULL), 1.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 2, "MeanRelativeErr"), NULL), 1.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 2, "Bench mean"), NULL), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell (csv, 2, "NPU l2norm"), NULL), 5.0, 1e-12);
  g_assert_cmpstr (cell (csv, 2, "Result"), ==, "warning");
  g_assert_cmpstr (cell (csv, 2, "NPU_Stack_Info"), ==, "File model.py, line 7, in forward, x = gelu(x)");

  pair = json_array_get_object_element (json_object_get_array_member (report_json (report, parser), "pairs"), 1);
  g_assert_cmpstr (json_object_get_string_member (pair, "mode"), ==, "stats");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (
                                    json_object_get_object_member (pair, "statistics"), "mean"), "relative"), 1.5, 1e-12);
  g_assert_true (json_object_get_null_member (pair, "cosine"));
  /* The means are there without data, as the dump recorded them. */
  g_assert_cmpfloat (json_object_get_double_member (pair, "npu_mean"), ==, 2.5);
  g_assert_cmpfloat (json_object_get_double_member (pair, "bench_mean"), ==, 1.0);
  g_assert_cmpfloat (json_object_get_double_member (pair, "npu_l2norm"), ==, 5.0);
  remove_tree (root);
}

static void
test_msprobe_crc_mode (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autofree char *npu_json = stats_dump (4, 2.5, "1234abcd", "Functional.gelu.0.forward");
  g_autofree char *bench_json = stats_dump (4, 2.5, "1234ABCD", "Functional.gelu.0.forward");
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(GPtrArray) csv = NULL;
  SlTensorCompareRow *row;

  /* gelu's CRC is the same on both sides too: change the benchmark's. */
  {
    char *at = strstr (bench_json, "0badf00d");

    memcpy (at, "0badcafe", 8);
  }
  write_stats_dump (npu, npu_json);
  write_stats_dump (bench, bench_json);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_mode (report), ==, SL_TENSOR_COMPARE_MODE_CRC);
  row = sl_tensor_compare_report_get_row (report, 0);
  g_assert_true (sl_tensor_compare_row_get_crc_equal (row));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  row = sl_tensor_compare_report_get_row (report, 1);
  g_assert_false (sl_tensor_compare_row_get_crc_equal (row));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);
  g_assert_cmpstr (sl_tensor_compare_row_get_module_path (row), ==,
                   "Module.model.Net.forward.0 > Module.layer1.Block.forward.0");

  csv = report_csv (report);
  g_assert_cmpstr (cell (csv, 1, "NPU MD5"), ==, "1234abcd");
  g_assert_cmpstr (cell (csv, 1, "BENCH MD5"), ==, "1234ABCD");
  g_assert_cmpstr (cell (csv, 2, "BENCH MD5"), ==, "0badcafe");
  g_assert_cmpstr (cell (csv, 2, "Result"), ==, "error");
  g_assert_cmpstr (cell (csv, 2, "NPU_Stack_Info"), ==, "File model.py, line 7, in forward, x = gelu(x)");
  /* msprobe's md5 mode has no statistics columns. */
  for (guint i = 0; i < ((GPtrArray *) g_ptr_array_index (csv, 0))->len; i++)
    g_assert_cmpstr (g_ptr_array_index ((GPtrArray *) g_ptr_array_index (csv, 0), i), !=, "NPU max");
  remove_tree (root);
}

static void
test_requires_grad (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autofree char *npu_json = stats_dump (4, 2.5, NULL, "Functional.gelu.0.forward");
  g_autofree char *bench_json = stats_dump (4, 2.5, NULL, "Functional.gelu.0.forward");
  g_autoptr(SlTensorCompareReport) report = NULL;
  SlTensorCompareThresholds thresholds;
  SlTensorCompareRow *row;
  char *grad = strstr (bench_json, "false");

  /* relu's output needs gradients on the benchmark side only. */
  memcpy (grad, "true ", 5);
  write_stats_dump (npu, npu_json);
  write_stats_dump (bench, bench_json);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  row = sl_tensor_compare_report_get_row (report, 0);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpstr (sl_tensor_compare_row_get_reason (row), ==, "requires_grad differs: False against True.");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (sl_tensor_compare_report_get_row (report, 1)), ==,
                   SL_TENSOR_VERDICT_PASS);
  /* No threshold makes it pass. */
  sl_tensor_compare_thresholds_for_dtype (&thresholds, SL_TENSOR_DTYPE_FLOAT32);
  thresholds.cosine_min = -2;
  sl_tensor_compare_report_set_thresholds (report, &thresholds, TRUE);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);
  remove_tree (root);
}

static void
test_fuzzy_and_mapping (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autofree char *npu_json = stats_dump (4, 2.5, NULL, "Functional.gelu.0.forward");
  /* The benchmark called relu once before (call 1) and named gelu fast_gelu. */
  g_autofree char *bench_json = stats_dump (4, 2.5, NULL, "Functional.fast_gelu.0.forward");
  g_autoptr(SlTensorCompareReport) exact = NULL;
  g_autoptr(SlTensorCompareReport) fuzzy = NULL;
  g_autoptr(SlTensorCompareReport) mapped = NULL;
  g_autoptr(SlTensorMapping) mapping = NULL;
  g_autoptr(GError) error = NULL;
  const SlTensorCompareUnmatched *u;
  char *call;

  call = strstr (bench_json, "relu.0");
  call[5] = '1';
  write_stats_dump (npu, npu_json);
  write_stats_dump (bench, bench_json);

  exact = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (exact), ==, 0);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (exact), ==, 4);
  u = find_unmatched (exact, "Functional.relu.1.forward.output.0");
  g_assert_nonnull (u);
  g_assert_cmpint (u->side, ==, SL_TENSOR_SIDE_BENCH);
  g_assert_cmpint (u->reason, ==, SL_UNMATCHED_MISSING);
  g_assert_cmpstr (u->reason_text, ==, sl_unmatched_reason_describe (SL_UNMATCHED_MISSING));

  fuzzy = load_report (npu, bench, SL_TENSOR_PAIRING_FUZZY, NULL);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (fuzzy), ==, 1);
  g_assert_cmpstr (sl_tensor_compare_row_get_bench_name (sl_tensor_compare_report_get_row (fuzzy, 0)), ==,
                   "Functional.relu.1.forward.output.0");
  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (fuzzy), ==, 2);

  mapping = sl_tensor_mapping_new_from_data ("Functional.gelu: Functional.fast_gelu\n", 38, &error);
  g_assert_no_error (error);
  mapped = load_report (npu, bench, SL_TENSOR_PAIRING_FUZZY, mapping);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (mapped), ==, 2);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_unmatched (mapped), ==, 0);
  g_assert_cmpstr (sl_tensor_compare_row_get_bench_name (sl_tensor_compare_report_get_row (mapped, 1)), ==,
                   "Functional.fast_gelu.0.forward.output.0");
  remove_tree (root);
}

/* ---- thresholds, loading on a worker, cancellation ---- */

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               gpointer    user_data)
{
  guint *changes = user_data;

  (*changes)++;
}

static void
test_set_thresholds (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  SlTensorCompareThresholds thresholds;
  SlTensorCompareRow *row;
  guint changes = 0;

  write_npy (npu, "b.npy", ones, 4);
  write_npy (bench, "b.npy", outlier, 4);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  row = sl_tensor_compare_report_get_row (report, 0);
  /* cosine 0.9923 and max abs error 1: only a warning by default */
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  g_signal_connect (report, "items-changed", G_CALLBACK (count_changes), &changes);

  sl_tensor_compare_thresholds_for_dtype (&thresholds, SL_TENSOR_DTYPE_FLOAT32);
  thresholds.cosine_low = 0.999;
  sl_tensor_compare_report_set_thresholds (report, &thresholds, FALSE);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row), "Accuracy not reached"));
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);

  thresholds.cosine_low = 0.9;
  thresholds.relative_euclidean_max = 1;
  thresholds.rmse_max = 1;
  thresholds.kl_divergence_max = 1;
  sl_tensor_compare_report_set_thresholds (report, &thresholds, FALSE);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_null (sl_tensor_compare_row_get_reason (row));
  g_assert_null (sl_tensor_compare_report_get_first_divergence (report));
  remove_tree (root);
}

typedef struct {
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
  guint      notifies;
  GThread   *main_thread;
  gboolean   notified_elsewhere;
  guint      added;
} AsyncState;

static void
on_progress (GObject    *object,
             GParamSpec *pspec,
             gpointer    user_data)
{
  AsyncState *state = user_data;

  state->notifies++;
  state->notified_elsewhere |= g_thread_self () != state->main_thread;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  AsyncState *state = user_data;

  state->notified_elsewhere |= g_thread_self () != state->main_thread;
  state->added += added;
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AsyncState *state = user_data;

  state->ok = sl_tensor_compare_report_load_finish (SL_TENSOR_COMPARE_REPORT (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

/* Many small pairs for the pool, and two large ones for the engine. */
static void
write_many (const char *npu,
            const char *bench)
{
  g_autofree float *big = g_new (float, 5 * 1024 * 1024);

  for (guint i = 0; i < 5 * 1024 * 1024; i++)
    big[i] = sinf (i * 0.001f);
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%03u.npy", i);

      write_npy (npu, name, i == 150 ? flipped : ones, 4);
      write_npy (bench, name, ones, 4);
    }
  write_npy (npu, "u-big.npy", big, 5 * 1024 * 1024);
  write_npy (bench, "u-big.npy", big, 5 * 1024 * 1024);
  write_npy (bench, "v-big.npy", big, 5 * 1024 * 1024);
  big[7] += 3;
  write_npy (npu, "v-big.npy", big, 5 * 1024 * 1024);
}

static void
test_load_async (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  AsyncState state = { loop, FALSE, NULL, 0, g_thread_self (), FALSE, 0 };

  write_many (npu, bench);
  report = sl_tensor_compare_report_new (npu, bench, NULL, SL_TENSOR_PAIRING_EXACT, NULL);
  g_signal_connect (report, "notify::progress", G_CALLBACK (on_progress), &state);
  g_signal_connect (report, "items-changed", G_CALLBACK (on_items_changed), &state);
  sl_tensor_compare_report_load_async (report, NULL, on_loaded, &state);
  g_main_loop_run (loop);

  g_assert_no_error (state.error);
  g_assert_true (state.ok);
  g_assert_false (state.notified_elsewhere);
  g_assert_cmpuint (state.notifies, >=, 2);
  g_assert_cmpfloat (sl_tensor_compare_report_get_progress (report), ==, 1.0);
  g_assert_cmpuint (state.added, ==, 202);
  g_assert_cmpuint (sl_tensor_compare_report_count_verdict (report, SL_TENSOR_VERDICT_PASS), ==, 200);
  g_assert_cmpstr (sl_tensor_compare_row_get_name (sl_tensor_compare_report_get_first_divergence (report)), ==,
                   "t150.npy");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "v-big.npy")), ==, SL_TENSOR_VERDICT_ERROR);
  remove_tree (root);
}

static void
cancel_on_progress (GObject    *object,
                    GParamSpec *pspec,
                    gpointer    user_data)
{
  if (sl_tensor_compare_report_get_progress (SL_TENSOR_COMPARE_REPORT (object)) > 0)
    g_cancellable_cancel (user_data);
}

static void
test_cancel (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  write_many (npu, bench);
  report = sl_tensor_compare_report_new (npu, bench, NULL, SL_TENSOR_PAIRING_EXACT, NULL);

  /* Cancelled before: nothing is read. */
  g_cancellable_cancel (cancellable);
  g_assert_false (sl_tensor_compare_report_load (report, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 0);

  /* Cancelled at the first progress: the load stops, the model stays empty. */
  g_cancellable_reset (cancellable);
  g_signal_connect (report, "notify::progress", G_CALLBACK (cancel_on_progress), cancellable);
  g_assert_false (sl_tensor_compare_report_load (report, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (report)), ==, 0);
  g_assert_cmpfloat (sl_tensor_compare_report_get_progress (report), <, 1.0);
  remove_tree (root);
}

/* The metric engine itself stops between blocks of a large pair. */
static void
test_cancel_engine (void)
{
  g_autofree float *values = g_new0 (float, 1024 * 1024);
  const guint64 shape[1] = { 1024 * 1024 };
  SlTensorData data = { (const guint8 *)values, 1024 * 1024, SL_TENSOR_DTYPE_FLOAT32, FALSE, FALSE, 1, shape };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SlTensorComparison) done = NULL;
  g_autoptr(SlTensorComparison) stopped = NULL;
  SlTensorCompareOptions options;

  sl_tensor_compare_options_init (&options);
  options.cancellable = cancellable;
  done = sl_tensor_compare (&data, &data, &options);
  g_assert_true (done->computed);
  g_cancellable_cancel (cancellable);
  stopped = sl_tensor_compare (&data, &data, &options);
  g_assert_false (stopped->computed);
  g_assert_true (isnan (stopped->cosine));
  g_assert_cmpint (stopped->verdict, ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_nonnull (strstr (stopped->reason, "cancelled"));
}

static void
test_bad_inputs (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *file = g_build_filename (root, "npu", "a.npy", NULL);
  g_autofree char *missing = g_build_filename (root, "missing", NULL);
  g_autofree char *dump = g_build_filename (root, "dump", NULL);
  g_autofree char *json = stats_dump (4, 2.5, NULL, "Functional.gelu.0.forward");
  g_autoptr(GError) error = NULL;

  write_npy (npu, "a.npy", ones, 4);
  write_stats_dump (dump, json);
  {
    g_autoptr(SlTensorCompareReport) report = sl_tensor_compare_report_new (file, npu, NULL, 0, NULL);

    g_assert_false (sl_tensor_compare_report_load (report, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    g_autoptr(SlTensorCompareReport) report = sl_tensor_compare_report_new (dump, npu, NULL, 0, NULL);

    g_assert_false (sl_tensor_compare_report_load (report, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    /* dump.json named but absent: its own error, not a .npy pairing. */
    g_autofree char *absent = g_build_filename (root, "gone", "dump.json", NULL);
    g_autofree char *present = g_build_filename (dump, "dump.json", NULL);
    g_autoptr(SlTensorCompareReport) report = sl_tensor_compare_report_new (present, absent, NULL, 0, NULL);

    g_assert_false (sl_tensor_compare_report_load (report, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }
  {
    /* dump.json itself on both sides works as its folder does. */
    g_autofree char *present = g_build_filename (dump, "dump.json", NULL);
    g_autoptr(SlTensorCompareReport) report = sl_tensor_compare_report_new (present, dump, NULL, 0, NULL);

    g_assert_true (sl_tensor_compare_report_load (report, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 2);
  }
  {
    /* A .npy cut short: a row that failed, and its problem tells the file
     * and the offset where its data should start (after the header, whose
     * length is in bytes 8 and 9) as well as the message. */
    g_autofree char *short_npu = g_build_filename (root, "short-npu", NULL);
    g_autofree char *short_bench = g_build_filename (root, "short-bench", NULL);
    g_autofree char *cut = g_build_filename (short_npu, "a.npy", NULL);
    g_autofree char *contents = NULL;
    gsize length = 0;
    gint64 data_offset;
    g_autoptr(SlTensorCompareReport) report = NULL;
    SlTensorCompareRow *row;
    SlProblem *problem;

    write_npy (short_npu, "a.npy", ones, 4);
    write_npy (short_bench, "a.npy", ones, 4);
    g_assert_true (g_file_get_contents (cut, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (cut, contents, length - 8, NULL));
    data_offset = 10 + (guint8)contents[8] + 256 * (guint8)contents[9];
    report = sl_tensor_compare_report_new (short_npu, short_bench, NULL, 0, NULL);
    g_assert_true (sl_tensor_compare_report_load (report, NULL, &error));
    row = sl_tensor_compare_report_get_row (report, 0);
    g_assert_true (sl_tensor_compare_row_get_failed (row));
    g_assert_cmpstr (sl_tensor_compare_row_get_failed_file (row), ==, cut);
    g_assert_cmpint (sl_tensor_compare_row_get_failed_offset (row), ==, data_offset);
    g_assert_cmpuint (sl_tensor_compare_report_get_problems (report)->len, ==, 1);
    problem = g_ptr_array_index (sl_tensor_compare_report_get_problems (report), 0);
    g_assert_cmpstr (sl_problem_get_path (problem), ==, cut);
    g_assert_cmpint (sl_problem_get_offset (problem), ==, data_offset);
    /* the message is what is wrong, the file and the offset being shown
     * on their own */
    g_assert_true (g_str_has_prefix (sl_problem_get_message (problem), "the shape needs 16 bytes"));
    g_assert_nonnull (strstr (sl_problem_get_message (problem), "holds 8"));
    g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row), cut));
  }
  {
    /* A file against a missing one: a row that failed, not a failed load. */
    g_autoptr(SlTensorCompareReport) report = sl_tensor_compare_report_new (file, missing, NULL, 0, NULL);
    SlTensorCompareRow *row;

    g_assert_true (sl_tensor_compare_report_load (report, NULL, &error));
    row = sl_tensor_compare_report_get_row (report, 0);
    g_assert_true (sl_tensor_compare_row_get_failed (row));
    g_assert_cmpstr (sl_tensor_compare_row_get_failed_file (row), ==, missing);
    g_assert_cmpint (sl_tensor_compare_row_get_failed_offset (row), ==, -1);
    g_assert_cmpuint (sl_tensor_compare_report_get_problems (report)->len, ==, 1);
  }
  remove_tree (root);
}

/* ---- msprobe's rules across one API call ---- */

typedef struct {
  const char  *entry;
  guint        n_inputs;
  const float *inputs[2];
  const float *output;
  double       output_norm;   /* as recorded in dump.json */
} DumpCall;

static char *
call_tensor (const char  *rank,
             const char  *entry,
             const char  *io,
             guint        index,
             const float *values,
             double       norm)
{
  g_autofree char *data = g_build_filename (rank, "dump_tensor_data", NULL);
  g_autofree char *file = g_strdup_printf ("%s.%s.%u.npy", entry, io, index);
  g_autofree char *extra = g_strdup_printf ("\"data_name\": \"%s\"", file);

  write_npy (data, file, values, 4);
  return tensor_record ("[4]", 4, 1, 2.5, norm, extra);
}

/* A tensor-mode dump of @calls, each input recorded with the norm 5.477. */
static void
write_call_dump (const char     *rank,
                 const DumpCall *calls,
                 guint           n_calls)
{
  g_autoptr(GString) json = g_string_new ("{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {");

  for (guint c = 0; c < n_calls; c++)
    {
      g_autofree char *output = call_tensor (rank, calls[c].entry, "output", 0, calls[c].output, calls[c].output_norm);

      g_string_append_printf (json, "%s\"%s\": {\"input_args\": [", c > 0 ? ", " : "", calls[c].entry);
      for (guint i = 0; i < calls[c].n_inputs; i++)
        {
          g_autofree char *input = call_tensor (rank, calls[c].entry, "input", i, calls[c].inputs[i], 5.477);

          g_string_append_printf (json, "%s%s", i > 0 ? ", " : "", input);
        }
      g_string_append_printf (json, "], \"output\": [%s]}", output);
    }
  g_string_append (json, "}}");
  write_text (rank, "dump.json", json->str);
}

static const float slightly_off[4] = { 1.002f, 2, 3, 4 };
static const float half_a[4] = { 1, 1, 0, 0 };
static const float half_b[4] = { 1, 0, 1, 0 };

static void
test_call_rules_tensor_mode (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  /* linear: both inputs equal, the output 0.002 off in one element of
   * four, which passes alone (cosine 1) but agrees to a thousandth in
   * only 75 % of it. gelu: equal data, but the output's recorded norm 20 %
   * off while the input's is equal. add: the output's norm 0.008 % off,
   * below the floor. mul: an input already off, the output's cosine 0.5. */
  const DumpCall npu_calls[] = {
    { "Functional.linear.0.forward", 2, { ones, ones }, slightly_off, 5.477 },
    { "Functional.gelu.0.forward", 1, { ones }, ones, 6.0 },
    { "Functional.add.0.forward", 1, { ones }, ones, 5.0 },
    { "Functional.mul.0.forward", 1, { slightly_off }, half_a, 1.414 },
    { "Functional.sub.0.forward", 1, { ones }, slightly_off, 5.477 },
  };
  const DumpCall bench_calls[] = {
    { "Functional.linear.0.forward", 2, { ones, ones }, ones, 5.477 },
    { "Functional.gelu.0.forward", 1, { ones }, ones, 5.0 },
    { "Functional.add.0.forward", 1, { ones }, ones, 5.0004 },
    { "Functional.mul.0.forward", 1, { ones }, half_b, 1.414 },
    { "Functional.sub.0.forward", 1, { ones }, ones, 5.477 },
  };
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) csv = NULL;
  SlTensorCompareThresholds thresholds;
  SlTensorCompareRow *row;
  const char *reason;
  JsonObject *pair;

  write_call_dump (npu, npu_calls, G_N_ELEMENTS (npu_calls));
  write_call_dump (bench, bench_calls, G_N_ELEMENTS (bench_calls));
  /* sub: the NPU input's data is gone, so nobody knows it agrees. */
  {
    g_autofree char *gone = g_build_filename (npu, "dump_tensor_data", "Functional.sub.0.forward.input.0.npy", NULL);

    g_assert_cmpint (g_unlink (gone), ==, 0);
  }
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 11);
  g_assert_true (sl_tensor_compare_row_get_failed (find_row (report, "Functional.sub.0.forward.input.0")));
  row = find_row (report, "Functional.sub.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);

  /* Inputs agree, the output does not: an error, and where it starts. */
  row = find_row (report, "Functional.linear.0.forward.input.1");
  g_assert_cmpstr (sl_tensor_compare_row_get_call (row), ==, "Functional.linear.0.forward");
  g_assert_cmpint (sl_tensor_compare_row_get_io (row), ==, SL_MSPROBE_INPUT);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  row = find_row (report, "Functional.linear.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_io (row), ==, SL_MSPROBE_OUTPUT);
  g_assert_cmpfloat_with_epsilon (sl_tensor_compare_row_get_metrics (row)->one_thousandth_err_ratio, 0.75, 1e-12);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  reason = sl_tensor_compare_row_get_reason (row);
  g_assert_nonnull (strstr (reason, "inputs agree but this output does not"));
  g_assert_nonnull (strstr (reason, "above 0.9 (the lowest is 1)"));
  g_assert_nonnull (strstr (reason, "this output's is 0.75."));
  g_assert_true (sl_tensor_compare_report_get_first_divergence (report) == row);

  /* The recorded norm grows from 0 to 0.2 relative error. */
  row = find_row (report, "Functional.gelu.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row), "0.2 here, more than 10 times the largest input's (0)"));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "Functional.gelu.0.forward.input.0")), ==,
                   SL_TENSOR_VERDICT_PASS);
  /* 8e-5 is below the floor, however small the inputs' is. */
  row = find_row (report, "Functional.add.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_null (sl_tensor_compare_row_get_reason (row));

  /* The input does not agree, so no rule error; cosine 0.5 is an error of
   * its own, and the milder drop is not added to it. */
  row = find_row (report, "Functional.mul.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_null (strstr (sl_tensor_compare_row_get_reason (row), "inputs agree"));
  g_assert_null (strstr (sl_tensor_compare_row_get_reason (row), "cosine drops"));

  pair = json_array_get_object_element (json_object_get_array_member (report_json (report, parser), "pairs"), 2);
  g_assert_cmpstr (json_object_get_string_member (pair, "name"), ==, "Functional.linear.0.forward.output.0");
  g_assert_cmpstr (json_object_get_string_member (pair, "verdict"), ==, "error");
  g_assert_nonnull (strstr (json_object_get_string_member (pair, "reason"), "inputs agree"));
  csv = report_csv (report);
  g_assert_nonnull (strstr (cell (csv, 3, "Err_message"), "inputs agree"));
  g_assert_cmpstr (cell (csv, 3, "Result"), ==, "error");

  /* With cosine thresholds lowered the mul output stands on the drop;
   * the rules are applied again, so linear's error stays. */
  sl_tensor_compare_thresholds_for_dtype (&thresholds, SL_TENSOR_DTYPE_FLOAT32);
  thresholds.cosine_low = 0.1;
  thresholds.cosine_min = 0.1;
  sl_tensor_compare_report_set_thresholds (report, &thresholds, FALSE);
  row = find_row (report, "Functional.mul.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row),
                            "The cosine drops by 0.5 from the inputs' lowest (1) to this output (0.5), more than 0.1."));
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "Functional.linear.0.forward.output.0")), ==,
                   SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "Functional.gelu.0.forward.output.0")), ==,
                   SL_TENSOR_VERDICT_WARNING);
  remove_tree (root);
}

/* A statistics-only call: one input and one output with their norms. */
static char *
stats_call (const char *entry,
            double      input_norm,
            double      output_norm)
{
  g_autofree char *input = tensor_record ("[4]", 4, 1, 2.5, input_norm, NULL);
  g_autofree char *output = tensor_record ("[4]", 4, 1, 2.5, output_norm, NULL);

  return g_strdup_printf ("\"%s\": {\"input_args\": [%s], \"output\": [%s]}", entry, input, output);
}

static void
test_call_rules_stats_mode (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  /* linear: input norm 0.2 % off, output 20 %: 100 times. relu: 5 % then
   * 20 %: 4 times, no warning. */
  g_autofree char *npu_linear = stats_call ("Functional.linear.0.forward", 5.01, 6.0);
  g_autofree char *npu_relu = stats_call ("Functional.relu.0.forward", 5.25, 6.0);
  g_autofree char *bench_linear = stats_call ("Functional.linear.0.forward", 5.0, 5.0);
  g_autofree char *bench_relu = stats_call ("Functional.relu.0.forward", 5.0, 5.0);
  /* cat: the input records no norm (null) and the benchmark's output norm
   * is 0, so neither side of the rule has a number. */
  static const char cat_npu[] = "\"Functional.cat.0.forward\": {\"input_args\": [{\"type\": \"torch.Tensor\", "
    "\"dtype\": \"torch.bool\", \"shape\": [4], \"Max\": true, \"Min\": false, \"Mean\": null, \"Norm\": null}], "
    "\"output\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [4], "
    "\"Max\": 3, \"Min\": 0, \"Mean\": 1, \"Norm\": 3}]}";
  static const char cat_bench[] = "\"Functional.cat.0.forward\": {\"input_args\": [{\"type\": \"torch.Tensor\", "
    "\"dtype\": \"torch.bool\", \"shape\": [4], \"Max\": true, \"Min\": false, \"Mean\": null, \"Norm\": null}], "
    "\"output\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [4], "
    "\"Max\": 0, \"Min\": 0, \"Mean\": 0, \"Norm\": 0}]}";
  g_autofree char *npu_json = g_strdup_printf ("{\"task\": \"statistics\", \"data\": {%s, %s, %s}}",
                                               npu_linear, npu_relu, cat_npu);
  g_autofree char *bench_json = g_strdup_printf ("{\"task\": \"statistics\", \"data\": {%s, %s, %s}}",
                                                 bench_linear, bench_relu, cat_bench);
  g_autoptr(SlTensorCompareReport) report = NULL;
  SlTensorCompareRow *row;

  write_stats_dump (npu, npu_json);
  write_stats_dump (bench, bench_json);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpint (sl_tensor_compare_report_get_mode (report), ==, SL_TENSOR_COMPARE_MODE_STATS);
  row = find_row (report, "Functional.linear.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_nonnull (strstr (sl_tensor_compare_row_get_reason (row),
                            "0.2 here, more than 10 times the largest input's (0.002)"));
  /* Statistics have no one-thousandth ratio: no rule error, no divergence. */
  g_assert_null (sl_tensor_compare_report_get_first_divergence (report));
  row = find_row (report, "Functional.relu.0.forward.output.0");
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (row), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpint (sl_tensor_compare_row_get_verdict (find_row (report, "Functional.relu.0.forward.input.0")), ==,
                   SL_TENSOR_VERDICT_PASS);
  row = find_row (report, "Functional.cat.0.forward.output.0");
  g_assert_nonnull (row);
  g_assert_null (strstr (sl_tensor_compare_row_get_reason (row), "grows"));
  remove_tree (root);
}

/* ---- msprobe's columns ---- */

static double
number_cell (GPtrArray  *rows,
             guint       row,
             const char *column)
{
  return g_ascii_strtod (cell (rows, row, column), NULL);
}

static void
test_summary_columns (void)
{
  static const char * const header[] = {
    "NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape", "Bench Tensor Shape",
    "Cosine", "EucDist", "RelativeEuclideanDistance", "MaxAbsErr", "MeanAbsoluteError", "RootMeanSquareError",
    "MaxRelativeErr", "MeanRelativeError", "AccumulatedRelativeError", "One Thousandth Err Ratio",
    "Five Thousandths Err Ratio", "KLDivergence", "NPU Mean", "NPU Std", "Bench Mean", "Bench Std",
    "NPU max", "NPU min", "NPU mean", "NPU l2norm", "Bench max", "Bench min", "Bench mean", "Bench l2norm",
    "Result", "Err_message", "NPU_Stack_Info",
  };
  g_autofree char *root = make_folder ();
  g_autofree char *npu = g_build_filename (root, "npu", NULL);
  g_autofree char *bench = g_build_filename (root, "bench", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) csv = NULL;
  GPtrArray *names;
  JsonObject *pair;

  /* .npy files record no statistics: they are read from the data. */
  write_npy (npu, "b.npy", ones, 4);
  write_npy (bench, "b.npy", outlier, 4);
  report = load_report (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  csv = report_csv (report);
  names = g_ptr_array_index (csv, 0);
  g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (header));
  for (guint i = 0; i < G_N_ELEMENTS (header); i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, header[i]);
  g_assert_cmpfloat (number_cell (csv, 1, "NPU max"), ==, 4);
  g_assert_cmpfloat (number_cell (csv, 1, "NPU min"), ==, 1);
  g_assert_cmpfloat (number_cell (csv, 1, "NPU mean"), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (number_cell (csv, 1, "NPU l2norm"), sqrt (30), 1e-12);
  g_assert_cmpfloat (number_cell (csv, 1, "Bench max"), ==, 5);
  g_assert_cmpfloat (number_cell (csv, 1, "Bench mean"), ==, 2.75);
  g_assert_cmpfloat_with_epsilon (number_cell (csv, 1, "Bench l2norm"), sqrt (39), 1e-12);
  g_assert_cmpstr (cell (csv, 1, "NPU_Stack_Info"), ==, "");

  pair = json_array_get_object_element (json_object_get_array_member (report_json (report, parser), "pairs"), 0);
  g_assert_cmpfloat (json_object_get_double_member (pair, "npu_max"), ==, 4);
  g_assert_cmpfloat (json_object_get_double_member (pair, "npu_min"), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (pair, "npu_l2norm"), sqrt (30), 1e-12);
  g_assert_cmpfloat (json_object_get_double_member (pair, "bench_max"), ==, 5);
  g_assert_cmpfloat (json_object_get_double_member (pair, "bench_min"), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (pair, "bench_l2norm"), sqrt (39), 1e-12);
  g_assert_cmpfloat (json_object_get_double_member (pair, "npu_mean"), ==, 2.5);
  g_assert_true (json_object_get_null_member (pair, "stack"));
  remove_tree (root);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor-compare-report/npy-folders", test_npy_folders);
  g_test_add_func ("/tensor-compare-report/mindspore-names", test_mindspore_names);
  g_test_add_data_func ("/tensor-compare-report/msprobe-tensor-npy", "npy", test_msprobe_tensor_mode);
  g_test_add_data_func ("/tensor-compare-report/msprobe-tensor-pt", "pt", test_msprobe_tensor_mode);
  g_test_add_func ("/tensor-compare-report/msprobe-refused-data-name", test_msprobe_refused_data_name);
  g_test_add_func ("/tensor-compare-report/msprobe-stats", test_msprobe_stats_mode);
  g_test_add_func ("/tensor-compare-report/msprobe-crc", test_msprobe_crc_mode);
  g_test_add_func ("/tensor-compare-report/requires-grad", test_requires_grad);
  g_test_add_func ("/tensor-compare-report/fuzzy-and-mapping", test_fuzzy_and_mapping);
  g_test_add_func ("/tensor-compare-report/set-thresholds", test_set_thresholds);
  g_test_add_func ("/tensor-compare-report/load-async", test_load_async);
  g_test_add_func ("/tensor-compare-report/cancel", test_cancel);
  g_test_add_func ("/tensor-compare-report/cancel-engine", test_cancel_engine);
  g_test_add_func ("/tensor-compare-report/bad-inputs", test_bad_inputs);
  g_test_add_func ("/tensor-compare-report/call-rules-tensor", test_call_rules_tensor_mode);
  g_test_add_func ("/tensor-compare-report/call-rules-stats", test_call_rules_stats_mode);
  g_test_add_func ("/tensor-compare-report/summary-columns", test_summary_columns);
  return g_test_run ();
}
