/* sl-cli-compare-tensors.c: `sightline-cli compare-tensors NPU BENCH [--json | --csv] [--fuzzy] [--mapping FILE] [--dtype-aware]`
 *
 * Compares two runs' tensors with SlTensorCompareReport: two .npy or .pt
 * files, two folders of .npy files (matched by relative path, or by op
 * name and index when they are MindSpore dump names), or two msprobe
 * dumps (element metrics, statistics or CRCs by the dump's task). The
 * JSON and CSV are the report's own writers, the same the Compare
 * document exports; see sl-tensor-compare-export.c for their keys and
 * columns. Problems found on the way go to stderr. Exit status: 0 when
 * no pair is an error, 1 when one is, when an input cannot be read, or
 * when nothing could be compared and there were problems; 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-problem.h"
#include "sl-tensor-compare-report.h"

static void
print_row (SlTensorCompareRow *row)
{
  const SlTensorComparison *result = sl_tensor_compare_row_get_metrics (row);
  const SlStatsComparison *stats = sl_tensor_compare_row_get_stats (row);
  const char *reason = sl_tensor_compare_row_get_reason (row);

  printf ("%-8s %s\n", sl_tensor_verdict_to_string (sl_tensor_compare_row_get_verdict (row)),
          sl_tensor_compare_row_get_name (row));
  if (result != NULL && result->computed)
    /* Translators: the main metrics of one tensor pair */
    printf (_("         cosine %.6g, max abs error %.6g, max relative error %.6g, relative Euclidean %.6g, KL %.6g\n"),
            result->cosine, result->max_abs_error, result->max_relative_error,
            result->relative_euclidean_distance, result->kl_divergence);
  else if (stats != NULL)
    /* Translators: the relative differences of a pair's statistics */
    printf (_("         max %.3g, min %.3g, mean %.3g, norm %.3g relative difference\n"),
            stats->max.relative, stats->min.relative, stats->mean.relative, stats->norm.relative);
  if (reason != NULL)
    printf ("         %s\n", reason);
}

static void
print_text (SlTensorCompareReport *report)
{
  SlTensorCompareRow *first = sl_tensor_compare_report_get_first_divergence (report);
  g_autofree char *headline = NULL;
  g_autofree char *coverage = NULL;

  for (guint i = 0; i < sl_tensor_compare_report_get_n_rows (report); i++)
    print_row (sl_tensor_compare_report_get_row (report, i));
  for (guint i = 0; i < sl_tensor_compare_report_get_n_unmatched (report); i++)
    {
      const SlTensorCompareUnmatched *u = sl_tensor_compare_report_get_unmatched (report, i);

      /* Translators: a tensor without a partner, its side (npu or bench) and why */
      printf (_("unmatched (%s) %s: %s\n"), sl_tensor_side_to_string (u->side), u->name, u->reason_text);
    }
  if (first == NULL && sl_tensor_compare_report_get_n_rows (report) == 0)
    {
      printf ("%s\n", _("No pair could be compared."));
      return;
    }
  headline = sl_tensor_compare_report_dup_headline (report);
  coverage = sl_tensor_compare_report_dup_coverage (report);
  printf ("%s\n", headline);
  if (first == NULL)
    {
      SlTensorCompareRow *warning = sl_tensor_compare_report_get_first_warning (report);

      if (warning != NULL && sl_tensor_compare_row_get_reason (warning) != NULL)
        printf ("  %s\n", sl_tensor_compare_row_get_reason (warning));
      return;
    }
  printf ("  %s\n", coverage);
  if (sl_tensor_compare_row_get_module_path (first) != NULL)
    printf (_("  in %s\n"), sl_tensor_compare_row_get_module_path (first));
  if (sl_tensor_compare_row_get_stack (first) != NULL)
    printf ("%s\n", sl_tensor_compare_row_get_stack (first));
}

static void
print_problems (SlTensorCompareReport *report)
{
  GPtrArray *problems = sl_tensor_compare_report_get_problems (report);

  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);
      const char *path = sl_problem_get_path (problem);
      const char *message = sl_problem_get_message (problem);

      /* Messages of unreadable files start with the file and the offset
       * already. */
      if (path != NULL && g_str_has_prefix (message, path))
        {
          g_printerr ("%s\n", message);
          continue;
        }
      if (path != NULL)
        g_printerr ("%s: ", path);
      if (location != NULL)
        g_printerr ("%s: ", location);
      g_printerr ("%s\n", message);
    }
}

/* Nothing compared and something wrong on the way: the inputs could not
 * be read as they should. */
static gboolean
inputs_unreadable (SlTensorCompareReport *report)
{
  return sl_tensor_compare_report_get_n_rows (report) == 0 &&
         sl_tensor_compare_report_get_problems (report)->len > 0;
}

/* The writers take a stream; stdout gets the bytes at once. */
static gboolean
write_export (SlTensorCompareReport  *report,
              gboolean                json,
              GError                **error)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  gboolean ok = json ? sl_tensor_compare_report_write_json (report, out, NULL, error)
                     : sl_tensor_compare_report_write_csv (report, out, NULL, error);

  if (!ok || !g_output_stream_close (out, NULL, error))
    return FALSE;
  fwrite (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)), 1,
          g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), stdout);
  return TRUE;
}

int
sl_cli_compare_tensors (int    argc,
                        char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NPU BENCH — where does a run depart from its benchmark?"));
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(SlTensorMapping) mapping = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mapping_path = NULL;
  gboolean json = FALSE, csv = FALSE, dtype_aware = FALSE, fuzzy = FALSE;
  SlTensorCompareOptions options;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the comparison as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print one CSV row per pair, with msprobe's column names"), NULL },
    { "fuzzy", 0, 0, G_OPTION_ARG_NONE, &fuzzy, N_("Ignore call numbers and pair calls of the same API in order"), NULL },
    { "mapping", 0, 0, G_OPTION_ARG_FILENAME, &mapping_path, N_("A mapping file (YAML or JSON) of names renamed on the benchmark side"), N_("FILE") },
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
  if (mapping_path != NULL && (mapping = sl_tensor_mapping_new_from_file (mapping_path, &error)) == NULL)
    {
      sl_cli_print_error ("%s: %s", mapping_path, error->message);
      return 1;
    }

  sl_tensor_compare_options_init (&options);
  options.dtype_aware = dtype_aware;
  report = sl_tensor_compare_report_new (argv[1], argv[2], &options,
                                         fuzzy ? SL_TENSOR_PAIRING_FUZZY : SL_TENSOR_PAIRING_EXACT, mapping);
  if (!sl_tensor_compare_report_load (report, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  print_problems (report);

  if (json || csv)
    {
      if (!write_export (report, json, &error))
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
    }
  else
    print_text (report);
  return sl_tensor_compare_report_get_first_divergence (report) != NULL || inputs_unreadable (report) ? 1 : 0;
}
