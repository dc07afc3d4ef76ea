/* sl-cli-compare-tensors.c: `sightline-cli compare-tensors NPU BENCH [--json | --csv] [--dtype-aware]`
 *
 * Compares two .npy files, or two folders of .npy files matched by their
 * path relative to the folder, with sl-tensor-compare. Pairs are found
 * by a pair source (only .npy files and folders so far) that yields the
 * matched pairs in order and the unmatched files with the reason, so
 * other dump layouts can feed the same comparison and output.
 *
 * JSON: npu, bench, pairs[] {name, npu_path, bench_path, npu_dtype,
 * bench_dtype, npu_shape, bench_shape, verdict, reason, cosine_note,
 * cosine, euclidean_distance, relative_euclidean_distance, max_abs_error,
 * mean_abs_error, rmse, max_relative_error, mean_relative_error,
 * accumulated_relative_error, one_thousandth_err_ratio,
 * five_thousandth_err_ratio, kl_divergence, npu_mean, npu_std,
 * bench_mean, bench_std}, unmatched[] {name, side, reason},
 * first_divergence {index, name, reason} or null. Metrics that are
 * undefined, not finite or not computed are null. CSV: one row per pair
 * under msprobe's and the CANN compare tool's column names. Exit status:
 * 0 when no pair is an error, 1 when one is or an input cannot be read,
 * 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-npy-tensor.h"
#include "sl-tensor-compare.h"

typedef struct {
  char *name;
  char *npu_path;
  char *bench_path;
} Pair;

typedef struct {
  char       *name;
  const char *side;    /* "npu" or "bench" */
  char       *reason;
} Unmatched;

/* A compared pair: the tensors stay mapped only while compared. */
typedef struct {
  const Pair         *pair;
  SlTensorComparison *result;
  char               *npu_dtype;
  char               *bench_dtype;
  char               *npu_shape;
  char               *bench_shape;
  char               *read_error;
} Row;

static void
pair_free (Pair *pair)
{
  g_free (pair->name);
  g_free (pair->npu_path);
  g_free (pair->bench_path);
  g_free (pair);
}

static void
unmatched_free (Unmatched *unmatched)
{
  g_free (unmatched->name);
  g_free (unmatched->reason);
  g_free (unmatched);
}

static void
row_clear (Row *row)
{
  g_clear_pointer (&row->result, sl_tensor_comparison_free);
  g_clear_pointer (&row->npu_dtype, g_free);
  g_clear_pointer (&row->bench_dtype, g_free);
  g_clear_pointer (&row->npu_shape, g_free);
  g_clear_pointer (&row->bench_shape, g_free);
  g_clear_pointer (&row->read_error, g_free);
}

/* Relative paths of the .npy files under @root, into @names. */
static gboolean
list_npy_files (const char  *root,
                const char  *relative,
                GPtrArray   *names,
                guint        depth,
                GError     **error)
{
  g_autofree char *path = relative != NULL ? g_build_filename (root, relative, NULL) : g_strdup (root);
  g_autoptr(GDir) dir = NULL;
  const char *entry;

  /* Dump trees are shallow; a deeper one is most likely a link loop. */
  if (depth > 32)
    return TRUE;
  if ((dir = g_dir_open (path, 0, error)) == NULL)
    return FALSE;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = relative != NULL ? g_build_filename (relative, entry, NULL) : g_strdup (entry);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        {
          if (!list_npy_files (root, child, names, depth + 1, error))
            return FALSE;
        }
      else if (g_str_has_suffix (entry, ".npy"))
        g_ptr_array_add (names, g_steal_pointer (&child));
    }
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static void
add_unmatched (GPtrArray  *unmatched,
               const char *name,
               const char *side,
               const char *reason)
{
  Unmatched *u = g_new0 (Unmatched, 1);

  u->name = g_strdup (name);
  u->side = side;
  u->reason = g_strdup (reason);
  g_ptr_array_add (unmatched, u);
}

/* Both lists sorted, so one merge walk outer-joins them. */
static gboolean
collect_folder_pairs (const char  *npu_root,
                      const char  *bench_root,
                      GPtrArray   *pairs,
                      GPtrArray   *unmatched,
                      GError     **error)
{
  g_autoptr(GPtrArray) npu = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) bench = g_ptr_array_new_with_free_func (g_free);
  guint i = 0, j = 0;

  if (!list_npy_files (npu_root, NULL, npu, 0, error) || !list_npy_files (bench_root, NULL, bench, 0, error))
    return FALSE;
  g_ptr_array_sort (npu, compare_names);
  g_ptr_array_sort (bench, compare_names);
  while (i < npu->len || j < bench->len)
    {
      const char *a = i < npu->len ? g_ptr_array_index (npu, i) : NULL;
      const char *b = j < bench->len ? g_ptr_array_index (bench, j) : NULL;
      int order = a == NULL ? 1 : b == NULL ? -1 : strcmp (a, b);

      if (order == 0)
        {
          Pair *pair = g_new0 (Pair, 1);

          pair->name = g_strdup (a);
          pair->npu_path = g_build_filename (npu_root, a, NULL);
          pair->bench_path = g_build_filename (bench_root, b, NULL);
          g_ptr_array_add (pairs, pair);
          i++, j++;
        }
      else if (order < 0)
        add_unmatched (unmatched, g_ptr_array_index (npu, i++), "npu", _("No benchmark file has this relative path."));
      else
        add_unmatched (unmatched, g_ptr_array_index (bench, j++), "bench", _("No NPU file has this relative path."));
    }
  return TRUE;
}

/* The pair source for .npy inputs: two files or two folders. */
static gboolean
collect_npy_pairs (const char  *npu,
                   const char  *bench,
                   GPtrArray   *pairs,
                   GPtrArray   *unmatched,
                   GError     **error)
{
  gboolean npu_dir = g_file_test (npu, G_FILE_TEST_IS_DIR);
  gboolean bench_dir = g_file_test (bench, G_FILE_TEST_IS_DIR);
  Pair *pair;

  if (npu_dir && bench_dir)
    return collect_folder_pairs (npu, bench, pairs, unmatched, error);
  if (npu_dir != bench_dir)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("NPU and BENCH must both be .npy files or both be folders"));
      return FALSE;
    }
  pair = g_new0 (Pair, 1);
  pair->name = g_path_get_basename (npu);
  pair->npu_path = g_strdup (npu);
  pair->bench_path = g_strdup (bench);
  g_ptr_array_add (pairs, pair);
  return TRUE;
}

static char *
dtype_text (SlNpyTensor *tensor)
{
  const SlTensorData *view = sl_npy_tensor_get_view (tensor);

  return g_strdup (sl_tensor_dtype_get_name (view->dtype));
}

static void
compare_pair (Row                          *row,
              const SlTensorCompareOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlNpyTensor) npu = NULL;
  g_autoptr(SlNpyTensor) bench = NULL;

  npu = sl_npy_tensor_open (row->pair->npu_path, &error);
  if (npu != NULL)
    bench = sl_npy_tensor_open (row->pair->bench_path, &error);
  if (npu != NULL)
    {
      row->npu_dtype = dtype_text (npu);
      row->npu_shape = sl_npy_tensor_dup_shape (npu);
    }
  if (bench == NULL)
    {
      row->read_error = g_strdup (error->message);
      return;
    }
  row->bench_dtype = dtype_text (bench);
  row->bench_shape = sl_npy_tensor_dup_shape (bench);
  row->result = sl_tensor_compare (sl_npy_tensor_get_view (npu), sl_npy_tensor_get_view (bench), options);
}

static gboolean
row_is_error (const Row *row)
{
  return row->read_error != NULL || row->result->verdict == SL_TENSOR_VERDICT_ERROR;
}

static const char *
row_verdict (const Row *row)
{
  return row->read_error != NULL ? "error" : sl_tensor_verdict_to_string (row->result->verdict);
}

static const char *
row_reason (const Row *row)
{
  return row->read_error != NULL ? row->read_error : row->result->reason;
}

typedef struct {
  const char *json_key;
  const char *csv_column;
  gsize       offset;
} Metric;

#define METRIC(key, column) { #key, column, G_STRUCT_OFFSET (SlTensorComparison, key) }

/* msprobe's column names where it has the metric, CANN's otherwise. */
static const Metric metrics[] = {
  METRIC (cosine, "Cosine"),
  METRIC (euclidean_distance, "EucDist"),
  METRIC (relative_euclidean_distance, "RelativeEuclideanDistance"),
  METRIC (max_abs_error, "MaxAbsErr"),
  METRIC (mean_abs_error, "MeanAbsoluteError"),
  METRIC (rmse, "RootMeanSquareError"),
  METRIC (max_relative_error, "MaxRelativeErr"),
  METRIC (mean_relative_error, "MeanRelativeError"),
  METRIC (accumulated_relative_error, "AccumulatedRelativeError"),
  METRIC (one_thousandth_err_ratio, "One Thousandth Err Ratio"),
  METRIC (five_thousandth_err_ratio, "Five Thousandths Err Ratio"),
  METRIC (kl_divergence, "KLDivergence"),
  METRIC (npu_mean, "NPU Mean"),
  METRIC (npu_std, "NPU Std"),
  METRIC (bench_mean, "Bench Mean"),
  METRIC (bench_std, "Bench Std"),
};

static double
metric_value (const Row    *row,
              const Metric *metric)
{
  if (row->result == NULL || !row->result->computed)
    return NAN;
  return G_STRUCT_MEMBER (double, row->result, metric->offset);
}

static int
first_error (const Row *rows,
             guint      n_rows)
{
  for (guint i = 0; i < n_rows; i++)
    if (row_is_error (&rows[i]))
      return (int)i;
  return -1;
}

static char *
to_json (const char *npu,
         const char *bench,
         const Row  *rows,
         guint       n_rows,
         GPtrArray  *unmatched)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  int first = first_error (rows, n_rows);

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "npu", npu);
  sl_cli_json_add_string (builder, "bench", bench);
  json_builder_set_member_name (builder, "pairs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = &rows[i];

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", row->pair->name);
      sl_cli_json_add_string (builder, "npu_path", row->pair->npu_path);
      sl_cli_json_add_string (builder, "bench_path", row->pair->bench_path);
      sl_cli_json_add_string (builder, "npu_dtype", row->npu_dtype);
      sl_cli_json_add_string (builder, "bench_dtype", row->bench_dtype);
      sl_cli_json_add_string (builder, "npu_shape", row->npu_shape);
      sl_cli_json_add_string (builder, "bench_shape", row->bench_shape);
      sl_cli_json_add_string (builder, "verdict", row_verdict (row));
      sl_cli_json_add_string (builder, "reason", row_reason (row));
      sl_cli_json_add_string (builder, "cosine_note", row->result != NULL ? row->result->cosine_note : NULL);
      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        sl_cli_json_add_double (builder, metrics[m].json_key, metric_value (row, &metrics[m]));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "unmatched");
  json_builder_begin_array (builder);
  for (guint i = 0; i < unmatched->len; i++)
    {
      const Unmatched *u = g_ptr_array_index (unmatched, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", u->name);
      sl_cli_json_add_string (builder, "side", u->side);
      sl_cli_json_add_string (builder, "reason", u->reason);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "first_divergence");
  if (first < 0)
    json_builder_add_null_value (builder);
  else
    {
      json_builder_begin_object (builder);
      sl_cli_json_add_int (builder, "index", first);
      sl_cli_json_add_string (builder, "name", rows[first].pair->name);
      sl_cli_json_add_string (builder, "reason", row_reason (&rows[first]));
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static void
print_csv_field (const char *text)
{
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      fputs (text, stdout);
      return;
    }
  putchar ('"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        putchar ('"');
      putchar (*p);
    }
  putchar ('"');
}

static void
print_csv (const Row *rows,
           guint      n_rows)
{
  fputs ("NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape", stdout);
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    printf (",%s", metrics[m].csv_column);
  fputs (",Result,Err_message\n", stdout);
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = &rows[i];

      print_csv_field (row->pair->name);
      putchar (',');
      print_csv_field (row->pair->name);
      putchar (',');
      print_csv_field (row->npu_dtype);
      putchar (',');
      print_csv_field (row->bench_dtype);
      putchar (',');
      print_csv_field (row->npu_shape);
      putchar (',');
      print_csv_field (row->bench_shape);
      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        {
          double value = metric_value (row, &metrics[m]);

          /* msprobe writes NaN and inf as such */
          if (row->result != NULL && row->result->computed)
            printf (",%.17g", value);
          else
            fputs (",N/A", stdout);
        }
      putchar (',');
      print_csv_field (row_verdict (row));
      putchar (',');
      print_csv_field (row_reason (row));
      putchar ('\n');
    }
}

static void
print_text (const Row *rows,
            guint      n_rows,
            GPtrArray *unmatched)
{
  int first = first_error (rows, n_rows);

  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = &rows[i];

      printf ("%-8s %s\n", row_verdict (row), row->pair->name);
      if (row->result != NULL && row->result->computed)
        /* Translators: the main metrics of one tensor pair */
        printf (_("         cosine %.6g, max abs error %.6g, max relative error %.6g, relative Euclidean %.6g, KL %.6g\n"),
                row->result->cosine, row->result->max_abs_error, row->result->max_relative_error,
                row->result->relative_euclidean_distance, row->result->kl_divergence);
      if (row_reason (row) != NULL)
        printf ("         %s\n", row_reason (row));
    }
  for (guint i = 0; i < unmatched->len; i++)
    {
      const Unmatched *u = g_ptr_array_index (unmatched, i);

      /* Translators: a tensor without a partner, its side (npu or bench) and why */
      printf (_("unmatched (%s) %s: %s\n"), u->side, u->name, u->reason);
    }
  if (first >= 0)
    printf (_("First divergence: %s\n"), rows[first].pair->name);
  else
    printf ("%s\n", _("No pair is an error."));
}

int
sl_cli_compare_tensors (int    argc,
                        char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NPU BENCH — where does a run depart from its benchmark?"));
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func ((GDestroyNotify)pair_free);
  g_autoptr(GPtrArray) unmatched = g_ptr_array_new_with_free_func ((GDestroyNotify)unmatched_free);
  g_autoptr(GError) error = NULL;
  g_autofree Row *rows = NULL;
  gboolean json = FALSE, csv = FALSE, dtype_aware = FALSE;
  SlTensorCompareOptions options;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the comparison as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print one CSV row per pair, with msprobe's column names"), NULL },
    { "dtype-aware", 0, 0, G_OPTION_ARG_NONE, &dtype_aware, N_("Judge float16 and bfloat16 pairs by thresholds that fit their precision"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 3)
    {
      sl_cli_print_error (_("compare-tensors takes an NPU and a BENCH path"));
      return 2;
    }
  if (json && csv)
    {
      sl_cli_print_error (_("--json and --csv exclude each other"));
      return 2;
    }
  if (!collect_npy_pairs (argv[1], argv[2], pairs, unmatched, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  sl_tensor_compare_options_init (&options);
  options.dtype_aware = dtype_aware;
  rows = g_new0 (Row, MAX (pairs->len, 1));
  for (guint i = 0; i < pairs->len; i++)
    {
      rows[i].pair = g_ptr_array_index (pairs, i);
      compare_pair (&rows[i], &options);
    }

  if (json)
    {
      g_autofree char *text = to_json (argv[1], argv[2], rows, pairs->len, unmatched);

      printf ("%s\n", text);
    }
  else if (csv)
    print_csv (rows, pairs->len);
  else
    print_text (rows, pairs->len, unmatched);

  status = first_error (rows, pairs->len) >= 0 ? 1 : 0;
  for (guint i = 0; i < pairs->len; i++)
    row_clear (&rows[i]);
  return status;
}
