/* sl-tensor-compare-export.c: a tensor comparison report as JSON and CSV
 *
 * The writers of sl-tensor-compare-report.h, kept apart from the loading.
 *
 * JSON: npu, bench, input, mode, pairs[] {name, bench_name, api,
 * module_path, stack, order, mode, npu_path, bench_path, npu_dtype,
 * bench_dtype, npu_shape, bench_shape, verdict, reason, cosine_note, the
 * metrics (see below), npu_max, npu_min, npu_l2norm, bench_max,
 * bench_min, bench_l2norm (as recorded or read from the data; npu_mean
 * and bench_mean fall back to them where no data was compared),
 * statistics {max, min, mean, norm: {npu, bench, diff, relative}} or
 * null, crc {npu, bench, equal} or null},
 * unmatched[] {name, side, reason, reason_code}, first_divergence and
 * first_warning {index, name, bench_name, api, module_path, stack,
 * reason} or null, coverage {compared, npu_tensors, npu_unmatched,
 * bench_tensors, bench_unmatched}, headline (the verdict line, translated),
 * problems[] {path, offset, message}. Numbers that are undefined, not
 * finite or not computed are null. Shapes are written as NumPy writes
 * them, "(2, 3)".
 *
 * CSV: msprobe's columns for the report's mode: the element metrics
 * (msprobe's names where it has the metric, the CANN compare tool's
 * otherwise) then both sides' max, min, mean and l2norm, the statistics
 * of summary mode, or the CRCs of md5 mode; then Result, Err_message and
 * NPU_Stack_Info. Columns are only ever added, so scripts reading them by
 * name keep working.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-problem.h"
#include "sl-tensor-compare-report.h"

typedef struct {
  const char *json_key;
  const char *csv_column;
  gsize       offset;
} Metric;

#define METRIC(key, column) { #key, column, G_STRUCT_OFFSET (SlTensorComparison, key) }

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

static const char * const diff_columns[] = {
  "Max diff", "Min diff", "Mean diff", "L2norm diff",
  "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr",
};

/* Both sides' statistics, in every mode msprobe writes them. */
static const char * const summary_columns[] = {
  "NPU max", "NPU min", "NPU mean", "NPU l2norm",
  "Bench max", "Bench min", "Bench mean", "Bench l2norm",
};

#define STACK_COLUMN "NPU_Stack_Info"

static double
metric_value (const SlTensorComparison *result,
              const Metric             *metric)
{
  if (result == NULL || !result->computed)
    return NAN;
  return G_STRUCT_MEMBER (double, result, metric->offset);
}

/* ---- JSON ---- */

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_number (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* NumPy's notation, as compare-tensors has always printed: "(4,)". */
static char *
numpy_shape (const guint64 *shape,
             guint          n_dims)
{
  GString *text = g_string_new ("(");

  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (text, i == 0 ? "%" G_GUINT64_FORMAT : ", %" G_GUINT64_FORMAT, shape[i]);
  if (n_dims == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

static void
add_shape (JsonBuilder        *builder,
           const char         *name,
           SlTensorCompareRow *row,
           SlTensorSide        side)
{
  guint n_dims = 0;
  const guint64 *shape = side == SL_TENSOR_SIDE_NPU ? sl_tensor_compare_row_get_npu_shape (row, &n_dims)
                                                    : sl_tensor_compare_row_get_bench_shape (row, &n_dims);
  const char *dtype = side == SL_TENSOR_SIDE_NPU ? sl_tensor_compare_row_get_npu_dtype (row)
                                                 : sl_tensor_compare_row_get_bench_dtype (row);
  g_autofree char *text = NULL;

  /* A file that could not be read has no shape to tell. */
  if (dtype == NULL && n_dims == 0)
    {
      add_string (builder, name, NULL);
      return;
    }
  text = numpy_shape (shape, n_dims);
  add_string (builder, name, text);
}

static void
add_stat (JsonBuilder      *builder,
          const char       *name,
          const SlStatDiff *diff)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  add_number (builder, "npu", diff->npu);
  add_number (builder, "bench", diff->bench);
  add_number (builder, "diff", diff->diff);
  add_number (builder, "relative", diff->relative);
  json_builder_end_object (builder);
}

/* npu_mean and bench_mean are metrics, but a pair compared by its
 * statistics still has both means. */
static double
metric_or_summary (const SlTensorComparison *result,
                   const SlStatsComparison  *summary,
                   const Metric             *metric)
{
  if ((result == NULL || !result->computed) && summary != NULL)
    {
      if (metric->offset == G_STRUCT_OFFSET (SlTensorComparison, npu_mean))
        return summary->mean.npu;
      if (metric->offset == G_STRUCT_OFFSET (SlTensorComparison, bench_mean))
        return summary->mean.bench;
    }
  return metric_value (result, metric);
}

static void
add_summary (JsonBuilder             *builder,
             const SlStatsComparison *summary)
{
  add_number (builder, "npu_max", summary != NULL ? summary->max.npu : NAN);
  add_number (builder, "npu_min", summary != NULL ? summary->min.npu : NAN);
  add_number (builder, "npu_l2norm", summary != NULL ? summary->norm.npu : NAN);
  add_number (builder, "bench_max", summary != NULL ? summary->max.bench : NAN);
  add_number (builder, "bench_min", summary != NULL ? summary->min.bench : NAN);
  add_number (builder, "bench_l2norm", summary != NULL ? summary->norm.bench : NAN);
}

static void
add_row (JsonBuilder        *builder,
         SlTensorCompareRow *row)
{
  const SlTensorComparison *result = sl_tensor_compare_row_get_metrics (row);
  const SlStatsComparison *stats = sl_tensor_compare_row_get_stats (row);
  const SlStatsComparison *summary = sl_tensor_compare_row_get_summary (row);

  json_builder_begin_object (builder);
  add_string (builder, "name", sl_tensor_compare_row_get_name (row));
  add_string (builder, "bench_name", sl_tensor_compare_row_get_bench_name (row));
  add_string (builder, "api", sl_tensor_compare_row_get_api (row));
  add_string (builder, "module_path", sl_tensor_compare_row_get_module_path (row));
  add_string (builder, "stack", sl_tensor_compare_row_get_stack (row));
  add_int (builder, "order", sl_tensor_compare_row_get_order (row));
  add_string (builder, "mode", sl_tensor_compare_mode_to_string (sl_tensor_compare_row_get_mode (row)));
  add_string (builder, "npu_path", sl_tensor_compare_row_get_npu_file (row));
  add_string (builder, "bench_path", sl_tensor_compare_row_get_bench_file (row));
  add_string (builder, "npu_dtype", sl_tensor_compare_row_get_npu_dtype (row));
  add_string (builder, "bench_dtype", sl_tensor_compare_row_get_bench_dtype (row));
  add_shape (builder, "npu_shape", row, SL_TENSOR_SIDE_NPU);
  add_shape (builder, "bench_shape", row, SL_TENSOR_SIDE_BENCH);
  add_string (builder, "verdict", sl_tensor_verdict_to_string (sl_tensor_compare_row_get_verdict (row)));
  add_string (builder, "reason", sl_tensor_compare_row_get_reason (row));
  add_string (builder, "cosine_note", result != NULL ? result->cosine_note : NULL);
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    add_number (builder, metrics[m].json_key, metric_or_summary (result, summary, &metrics[m]));
  add_summary (builder, summary);

  json_builder_set_member_name (builder, "statistics");
  if (stats != NULL)
    {
      json_builder_begin_object (builder);
      add_stat (builder, "max", &stats->max);
      add_stat (builder, "min", &stats->min);
      add_stat (builder, "mean", &stats->mean);
      add_stat (builder, "norm", &stats->norm);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "crc");
  if (sl_tensor_compare_row_get_mode (row) == SL_TENSOR_COMPARE_MODE_CRC)
    {
      json_builder_begin_object (builder);
      add_string (builder, "npu", sl_tensor_compare_row_get_npu_crc (row));
      add_string (builder, "bench", sl_tensor_compare_row_get_bench_crc (row));
      json_builder_set_member_name (builder, "equal");
      json_builder_add_boolean_value (builder, sl_tensor_compare_row_get_crc_equal (row));
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static void
add_unmatched (JsonBuilder                    *builder,
               const SlTensorCompareUnmatched *unmatched)
{
  json_builder_begin_object (builder);
  add_string (builder, "name", unmatched->name);
  add_string (builder, "side", sl_tensor_side_to_string (unmatched->side));
  add_string (builder, "reason", unmatched->reason_text);
  add_string (builder, "reason_code", sl_unmatched_reason_to_string (unmatched->reason));
  json_builder_end_object (builder);
}

static void
add_first_row (JsonBuilder        *builder,
               const char         *key,
               SlTensorCompareRow *row)
{
  json_builder_set_member_name (builder, key);
  if (row == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_object (builder);
  add_int (builder, "index", sl_tensor_compare_row_get_order (row));
  add_string (builder, "name", sl_tensor_compare_row_get_name (row));
  add_string (builder, "bench_name", sl_tensor_compare_row_get_bench_name (row));
  add_string (builder, "api", sl_tensor_compare_row_get_api (row));
  add_string (builder, "module_path", sl_tensor_compare_row_get_module_path (row));
  add_string (builder, "stack", sl_tensor_compare_row_get_stack (row));
  add_string (builder, "reason", sl_tensor_compare_row_get_reason (row));
  json_builder_end_object (builder);
}

static void
add_coverage (JsonBuilder           *builder,
              SlTensorCompareReport *self)
{
  g_autofree char *headline = sl_tensor_compare_report_dup_headline (self);

  json_builder_set_member_name (builder, "coverage");
  json_builder_begin_object (builder);
  add_int (builder, "compared", sl_tensor_compare_report_get_n_rows (self));
  add_int (builder, "npu_tensors", sl_tensor_compare_report_count_side_tensors (self, SL_TENSOR_SIDE_NPU));
  add_int (builder, "npu_unmatched", sl_tensor_compare_report_count_side_unmatched (self, SL_TENSOR_SIDE_NPU));
  add_int (builder, "bench_tensors", sl_tensor_compare_report_count_side_tensors (self, SL_TENSOR_SIDE_BENCH));
  add_int (builder, "bench_unmatched", sl_tensor_compare_report_count_side_unmatched (self, SL_TENSOR_SIDE_BENCH));
  json_builder_end_object (builder);
  add_string (builder, "headline", headline);
}

static void
add_problems (JsonBuilder *builder,
              GPtrArray   *problems)
{
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      json_builder_begin_object (builder);
      add_string (builder, "path", sl_problem_get_path (problem));
      json_builder_set_member_name (builder, "offset");
      if (sl_problem_get_offset (problem) >= 0)
        json_builder_add_int_value (builder, sl_problem_get_offset (problem));
      else
        json_builder_add_null_value (builder);
      add_string (builder, "message", sl_problem_get_message (problem));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static const char *
input_to_string (SlTensorCompareInput input)
{
  switch (input)
    {
    case SL_TENSOR_COMPARE_INPUT_FILES: return "files";
    case SL_TENSOR_COMPARE_INPUT_NPY_FOLDERS: return "npy_folders";
    case SL_TENSOR_COMPARE_INPUT_MINDSPORE: return "mindspore_dump";
    case SL_TENSOR_COMPARE_INPUT_MSPROBE: return "msprobe_dump";
    case SL_TENSOR_COMPARE_INPUT_UNKNOWN:
    default:
      return NULL;
    }
}

static JsonNode *
report_to_json (SlTensorCompareReport *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n_rows = sl_tensor_compare_report_get_n_rows (self);

  json_builder_begin_object (builder);
  add_string (builder, "npu", sl_tensor_compare_report_get_npu_path (self));
  add_string (builder, "bench", sl_tensor_compare_report_get_bench_path (self));
  add_string (builder, "input", input_to_string (sl_tensor_compare_report_get_input (self)));
  add_string (builder, "mode", sl_tensor_compare_mode_to_string (sl_tensor_compare_report_get_mode (self)));
  json_builder_set_member_name (builder, "pairs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_rows; i++)
    add_row (builder, sl_tensor_compare_report_get_row (self, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "unmatched");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_tensor_compare_report_get_n_unmatched (self); i++)
    add_unmatched (builder, sl_tensor_compare_report_get_unmatched (self, i));
  json_builder_end_array (builder);
  add_first_row (builder, "first_divergence", sl_tensor_compare_report_get_first_divergence (self));
  add_first_row (builder, "first_warning", sl_tensor_compare_report_get_first_warning (self));
  add_coverage (builder, self);
  add_problems (builder, sl_tensor_compare_report_get_problems (self));
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

gboolean
sl_tensor_compare_report_write_json (SlTensorCompareReport  *self,
                                     GOutputStream          *out,
                                     GCancellable           *cancellable,
                                     GError                **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  root = report_to_json (self);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);
  return g_output_stream_write_all (out, text, length, NULL, cancellable, error) &&
         g_output_stream_write_all (out, "\n", 1, NULL, cancellable, error);
}

/* ---- CSV ---- */

/* The text written so far, and where the current line starts. */
typedef struct {
  GString *text;
  gsize    line_start;
} Csv;

static void
csv_end_line (Csv *csv)
{
  g_string_append_c (csv->text, '\n');
  csv->line_start = csv->text->len;
}

static void
csv_field (Csv        *csv,
           const char *text)
{
  GString *line = csv->text;

  if (line->len > csv->line_start)
    g_string_append_c (line, ',');
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (line, text);
      return;
    }
  g_string_append_c (line, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}

/* msprobe writes NaN and inf as such; N/A where nothing was computed. */
static void
csv_number (Csv     *line,
            double   value,
            gboolean computed)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!computed)
    csv_field (line, "N/A");
  else if (isnan (value))
    csv_field (line, "nan");
  else if (isinf (value))
    csv_field (line, value > 0 ? "inf" : "-inf");
  else
    csv_field (line, g_ascii_formatd (buffer, sizeof buffer, "%.17g", value));
}

static void
csv_header (Csv                 *line,
            SlTensorCompareMode  mode)
{
  static const char * const names[] = {
    "NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape", "Bench Tensor Shape",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    csv_field (line, names[i]);
  if (mode == SL_TENSOR_COMPARE_MODE_STATS)
    for (guint i = 0; i < G_N_ELEMENTS (diff_columns); i++)
      csv_field (line, diff_columns[i]);
  else if (mode == SL_TENSOR_COMPARE_MODE_CRC)
    {
      csv_field (line, "NPU MD5");
      csv_field (line, "BENCH MD5");
    }
  else
    for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
      csv_field (line, metrics[m].csv_column);
  if (mode != SL_TENSOR_COMPARE_MODE_CRC)
    for (guint i = 0; i < G_N_ELEMENTS (summary_columns); i++)
      csv_field (line, summary_columns[i]);
  csv_field (line, "Result");
  csv_field (line, "Err_message");
  csv_field (line, STACK_COLUMN);
  csv_end_line (line);
}

static void
csv_diffs (Csv                     *line,
           const SlStatsComparison *stats)
{
  const SlStatDiff *diffs[] = { &stats->max, &stats->min, &stats->mean, &stats->norm };

  for (guint i = 0; i < 4; i++)
    csv_number (line, diffs[i]->diff, TRUE);
  for (guint i = 0; i < 4; i++)
    csv_number (line, diffs[i]->relative, TRUE);
}

static void
csv_summary (Csv                     *line,
             const SlStatsComparison *summary)
{
  const SlStatDiff *diffs[4];

  if (summary == NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (summary_columns); i++)
        csv_field (line, "N/A");
      return;
    }
  diffs[0] = &summary->max, diffs[1] = &summary->min, diffs[2] = &summary->mean, diffs[3] = &summary->norm;
  for (guint i = 0; i < 4; i++)
    csv_number (line, diffs[i]->npu, TRUE);
  for (guint i = 0; i < 4; i++)
    csv_number (line, diffs[i]->bench, TRUE);
}

static void
csv_row (Csv                 *line,
         SlTensorCompareRow  *row,
         SlTensorCompareMode  mode)
{
  g_autofree char *npu_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_NPU);
  g_autofree char *bench_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_BENCH);
  const SlTensorComparison *result = sl_tensor_compare_row_get_metrics (row);
  const SlStatsComparison *stats = sl_tensor_compare_row_get_stats (row);

  csv_field (line, sl_tensor_compare_row_get_name (row));
  csv_field (line, sl_tensor_compare_row_get_bench_name (row));
  csv_field (line, sl_tensor_compare_row_get_npu_dtype (row));
  csv_field (line, sl_tensor_compare_row_get_bench_dtype (row));
  csv_field (line, npu_shape);
  csv_field (line, bench_shape);
  if (mode == SL_TENSOR_COMPARE_MODE_STATS)
    {
      if (stats != NULL)
        csv_diffs (line, stats);
      else
        for (guint i = 0; i < G_N_ELEMENTS (diff_columns); i++)
          csv_field (line, "N/A");
    }
  else if (mode == SL_TENSOR_COMPARE_MODE_CRC)
    {
      csv_field (line, sl_tensor_compare_row_get_npu_crc (row));
      csv_field (line, sl_tensor_compare_row_get_bench_crc (row));
    }
  else
    for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
      csv_number (line, metric_value (result, &metrics[m]), result != NULL && result->computed);
  if (mode != SL_TENSOR_COMPARE_MODE_CRC)
    csv_summary (line, sl_tensor_compare_row_get_summary (row));
  csv_field (line, sl_tensor_verdict_to_string (sl_tensor_compare_row_get_verdict (row)));
  csv_field (line, sl_tensor_compare_row_get_reason (row));
  csv_field (line, sl_tensor_compare_row_get_stack (row));
  csv_end_line (line);
}

gboolean
sl_tensor_compare_report_write_csv (SlTensorCompareReport  *self,
                                    GOutputStream          *out,
                                    GCancellable           *cancellable,
                                    GError                **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  Csv csv = { text, 0 };
  SlTensorCompareMode mode;
  guint n_rows;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  mode = sl_tensor_compare_report_get_mode (self);
  n_rows = sl_tensor_compare_report_get_n_rows (self);
  csv_header (&csv, mode);
  for (guint i = 0; i < n_rows; i++)
    {
      csv_row (&csv, sl_tensor_compare_report_get_row (self, i), mode);
      /* Written in pieces so a large report does not sit in memory twice. */
      if (text->len > 64 * 1024)
        {
          if (!g_output_stream_write_all (out, text->str, text->len, NULL, cancellable, error))
            return FALSE;
          g_string_truncate (text, 0);
          csv.line_start = 0;
        }
    }
  return g_output_stream_write_all (out, text->str, text->len, NULL, cancellable, error);
}
