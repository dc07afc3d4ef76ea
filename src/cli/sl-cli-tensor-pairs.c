/* sl-cli-tensor-pairs.c: `sightline-cli tensor-pairs NPU_DUMP BENCH_DUMP [--json] [--fuzzy] [--mapping FILE]`
 *
 * Reads two msprobe dumps (dump.json, a rank folder or a dump root) and
 * lists the pairs of tensors in the NPU side's execution order, then the
 * tensors of either side that have no partner, with the reason.
 *
 * JSON: npu, bench {path, task, level, framework, tensors, problems[]
 * {offset, message}}, fuzzy, mapping, pairs[] {name, npu_key, bench_key,
 * npu_dtype, bench_dtype, npu_shape, bench_shape, npu_data_path,
 * bench_data_path, module_path, stack, statistics {max, min, mean, norm:
 * {npu, bench, diff, relative}} or null, crc {npu, bench, equal} or null},
 * unmatched[] {name, side, reason, reason_text, other}. Numbers that are
 * not finite are null. Exit status: 0 when both dumps were read, 1 when
 * one could not be, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-count-format.h"
#include "sl-cli.h"
#include "sl-msprobe-dump.h"
#include "sl-problem.h"
#include "sl-tensor-pairing.h"

static char *
format_shape (const SlMsprobeTensor *tensor)
{
  g_autoptr(GString) text = g_string_new ("[");

  for (guint i = 0; i < tensor->n_dims; i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", tensor->shape[i]);
  g_string_append_c (text, ']');
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
add_shape (JsonBuilder           *builder,
           const char            *name,
           const SlMsprobeTensor *tensor)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < tensor->n_dims; i++)
    json_builder_add_int_value (builder, tensor->shape[i]);
  json_builder_end_array (builder);
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

static void
add_dump (JsonBuilder   *builder,
          const char    *name,
          SlMsprobeDump *dump)
{
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "path", sl_msprobe_dump_get_path (dump));
  sl_cli_json_add_string (builder, "task", sl_msprobe_dump_get_task (dump));
  sl_cli_json_add_string (builder, "level", sl_msprobe_dump_get_level (dump));
  sl_cli_json_add_string (builder, "framework", sl_msprobe_dump_get_framework (dump));
  sl_cli_json_add_int (builder, "tensors", sl_msprobe_dump_get_n_tensors (dump));
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "path", sl_problem_get_path (problem));
      json_builder_set_member_name (builder, "offset");
      if (sl_problem_get_offset (problem) >= 0)
        json_builder_add_int_value (builder, sl_problem_get_offset (problem));
      else
        json_builder_add_null_value (builder);
      sl_cli_json_add_string (builder, "message", sl_problem_get_message (problem));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_pair (JsonBuilder        *builder,
          SlTensorPairing    *pairing,
          const SlTensorPair *pair)
{
  SlMsprobeDump *npu = sl_tensor_pairing_get_npu (pairing);
  g_autofree char *module_path = sl_msprobe_dump_dup_module_path (npu, pair->npu->entry);
  SlStatsComparison stats;
  gboolean equal = FALSE;

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "name", pair->npu->key);
  sl_cli_json_add_string (builder, "npu_key", pair->npu->key);
  sl_cli_json_add_string (builder, "bench_key", pair->bench->key);
  sl_cli_json_add_string (builder, "npu_dtype", pair->npu->dtype);
  sl_cli_json_add_string (builder, "bench_dtype", pair->bench->dtype);
  add_shape (builder, "npu_shape", pair->npu);
  add_shape (builder, "bench_shape", pair->bench);
  sl_cli_json_add_string (builder, "npu_data_path", pair->npu->data_path);
  sl_cli_json_add_string (builder, "bench_data_path", pair->bench->data_path);
  sl_cli_json_add_string (builder, "module_path", module_path);
  sl_cli_json_add_string (builder, "stack", sl_msprobe_dump_get_stack (npu, pair->npu->entry));

  json_builder_set_member_name (builder, "statistics");
  if (sl_tensor_pair_compare_stats (pair, &stats))
    {
      json_builder_begin_object (builder);
      add_stat (builder, "max", &stats.max);
      add_stat (builder, "min", &stats.min);
      add_stat (builder, "mean", &stats.mean);
      add_stat (builder, "norm", &stats.norm);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "crc");
  if (sl_tensor_pair_compare_crc (pair, &equal))
    {
      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "npu", pair->npu->md5);
      sl_cli_json_add_string (builder, "bench", pair->bench->md5);
      json_builder_set_member_name (builder, "equal");
      json_builder_add_boolean_value (builder, equal);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static void
add_unmatched (JsonBuilder             *builder,
               const SlTensorUnmatched *unmatched)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "name", unmatched->tensor->key);
  sl_cli_json_add_string (builder, "side", sl_tensor_side_to_string (unmatched->side));
  sl_cli_json_add_string (builder, "reason", sl_unmatched_reason_to_string (unmatched->reason));
  sl_cli_json_add_string (builder, "reason_text", sl_unmatched_reason_describe (unmatched->reason));
  sl_cli_json_add_string (builder, "other", unmatched->other != NULL ? unmatched->other->key : NULL);
  json_builder_end_object (builder);
}

static char *
pairing_to_json (SlTensorPairing *pairing,
                 gboolean         fuzzy,
                 const char      *mapping_path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  add_dump (builder, "npu", sl_tensor_pairing_get_npu (pairing));
  add_dump (builder, "bench", sl_tensor_pairing_get_bench (pairing));
  json_builder_set_member_name (builder, "fuzzy");
  json_builder_add_boolean_value (builder, fuzzy);
  sl_cli_json_add_string (builder, "mapping", mapping_path);
  json_builder_set_member_name (builder, "pairs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_tensor_pairing_get_n_pairs (pairing); i++)
    add_pair (builder, pairing, sl_tensor_pairing_get_pair (pairing, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "unmatched");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_tensor_pairing_get_n_unmatched (pairing); i++)
    add_unmatched (builder, sl_tensor_pairing_get_unmatched (pairing, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static void
print_problems (SlMsprobeDump *dump)
{
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *location = sl_problem_dup_location (g_ptr_array_index (problems, i));

      g_printerr ("%s: %s\n", location, sl_problem_get_message (g_ptr_array_index (problems, i)));
    }
}

static void
print_pair (SlTensorPairing    *pairing,
            const SlTensorPair *pair)
{
  g_autofree char *npu_shape = format_shape (pair->npu);
  g_autofree char *bench_shape = format_shape (pair->bench);
  g_autofree char *module_path = sl_msprobe_dump_dup_module_path (sl_tensor_pairing_get_npu (pairing), pair->npu->entry);
  SlStatsComparison stats;
  gboolean equal = FALSE;

  printf ("%s", pair->npu->key);
  if (!g_str_equal (pair->npu->key, pair->bench->key))
    printf (" = %s", pair->bench->key);
  printf ("\n  %s %s | %s %s", pair->npu->dtype != NULL ? pair->npu->dtype : "?", npu_shape,
          pair->bench->dtype != NULL ? pair->bench->dtype : "?", bench_shape);
  if (sl_tensor_pair_compare_crc (pair, &equal))
    printf ("  %s", equal ? _("CRC equal") : _("CRC differs"));
  else if (sl_tensor_pair_compare_stats (pair, &stats))
    printf (_("  max %g|%g  min %g|%g  mean %g|%g  norm %g|%g"),
            stats.max.npu, stats.max.bench, stats.min.npu, stats.min.bench,
            stats.mean.npu, stats.mean.bench, stats.norm.npu, stats.norm.bench);
  printf ("\n");
  if (pair->npu->data_path != NULL || pair->bench->data_path != NULL)
    printf ("  %s | %s\n", pair->npu->data_path != NULL ? pair->npu->data_path : "-",
            pair->bench->data_path != NULL ? pair->bench->data_path : "-");
  if (module_path != NULL)
    printf (_("  in %s\n"), module_path);
}

static void
print_text (SlTensorPairing *pairing)
{
  guint n_pairs = sl_tensor_pairing_get_n_pairs (pairing);
  guint n_unmatched = sl_tensor_pairing_get_n_unmatched (pairing);
  g_autofree char *pairs_text = NULL;
  g_autofree char *unmatched_text = NULL;

  for (guint i = 0; i < n_pairs; i++)
    print_pair (pairing, sl_tensor_pairing_get_pair (pairing, i));
  pairs_text = sl_count_format (n_pairs);
  unmatched_text = sl_count_format (n_unmatched);
  printf (g_dngettext (GETTEXT_PACKAGE, "%s pair", "%s pairs", n_pairs), pairs_text);
  printf (g_dngettext (GETTEXT_PACKAGE, ", %s tensor unmatched\n", ", %s tensors unmatched\n", n_unmatched),
          unmatched_text);
  for (guint i = 0; i < n_unmatched; i++)
    {
      const SlTensorUnmatched *unmatched = sl_tensor_pairing_get_unmatched (pairing, i);

      printf ("  %s %s: %s\n", unmatched->side == SL_TENSOR_SIDE_NPU ? _("NPU") : _("benchmark"),
              unmatched->tensor->key, sl_unmatched_reason_describe (unmatched->reason));
    }
}

int
sl_cli_tensor_pairs (int    argc,
                     char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NPU_DUMP BENCH_DUMP — which tensors of two msprobe dumps are compared with which"));
  g_autoptr(SlMsprobeDump) npu = NULL;
  g_autoptr(SlMsprobeDump) bench = NULL;
  g_autoptr(SlTensorMapping) mapping = NULL;
  g_autoptr(SlTensorPairing) pairing = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mapping_path = NULL;
  gboolean json = FALSE, fuzzy = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the pairs as JSON"), NULL },
    { "fuzzy", 0, 0, G_OPTION_ARG_NONE, &fuzzy, N_("Ignore call numbers and pair calls of the same API in order"), NULL },
    { "mapping", 0, 0, G_OPTION_ARG_FILENAME, &mapping_path, N_("A mapping file (YAML or JSON) of names renamed on the benchmark side"), N_("FILE") },
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
      sl_cli_print_error (_("tensor-pairs takes an NPU_DUMP and a BENCH_DUMP path"));
      return 2;
    }
  if (mapping_path != NULL && (mapping = sl_tensor_mapping_new_from_file (mapping_path, &error)) == NULL)
    {
      sl_cli_print_error ("%s: %s", mapping_path, error->message);
      return 1;
    }
  if ((npu = sl_msprobe_dump_open (argv[1], &error)) == NULL ||
      (bench = sl_msprobe_dump_open (argv[2], &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  print_problems (npu);
  print_problems (bench);

  pairing = sl_tensor_pairing_new (npu, bench, fuzzy ? SL_TENSOR_PAIRING_FUZZY : SL_TENSOR_PAIRING_EXACT, mapping);
  if (json)
    {
      g_autofree char *text = pairing_to_json (pairing, fuzzy, mapping_path);

      printf ("%s\n", text);
    }
  else
    print_text (pairing);
  return 0;
}
