/* sl-cli-compare-profiles.c: `sightline-cli compare-profiles BASE COMPARISON [--json | --csv] [--by kernel]`
 *
 * Loads two profiler output folders and compares one rank of each
 * (sl-profile-compare): the breakdown per step and averaged, the op-type
 * and kernel tables, the op-level alignment or why it could not be done,
 * and the largest regressions.
 *
 * JSON: base, comparison {path, rank, label, layout, steps},
 * breakdown {noise_mads, min_noise_steps, average {ITEM: {base_us,
 * comparison_us, diff_us, ratio, source, noise_checked, noise, mad_us,
 * reason, not_comparable}}, steps[] {base_step, comparison_step, ITEM: {base_us,
 * comparison_us, diff_us}}, not_computed[] {item, reason}}, op_types[] and
 * kernels[] {type, [input_shapes,] core_type, base_count, comparison_count,
 * base_total_us, comparison_total_us, diff_us, ratio, base_avg_us,
 * comparison_avg_us, base_min_us, comparison_min_us, base_max_us,
 * comparison_max_us}, alignment {matched, only_base, only_comparison,
 * method | reason, streams, scope}, top_regressions[] {name, type, base_us,
 * comparison_us, diff_us, ratio} (diff_us > 0, largest first, by op type
 * unless --by kernel), notes[]. Unknown numbers are null. CSV: the op-type
 * table, or the kernel table with --by kernel. Exit status: 0 when both
 * were compared, 1 when a profile could not be read or has no such rank,
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

#include "sl-count-format.h"
#include "sl-cli.h"
#include "sl-profile-compare.h"
#include "sl-profile-loader.h"
#include "sl-time-format.h"

#define TOP_REGRESSIONS 20
#define TEXT_ROWS 15

/* A difference may be negative; unknown is marked by @known. */
static void
add_diff_us (JsonBuilder *builder,
             const char  *name,
             gboolean     known,
             gint64       ns)
{
  json_builder_set_member_name (builder, name);
  if (!known)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, ns / 1000.0);
}

static void
add_ratio (JsonBuilder *builder,
           double       ratio)
{
  json_builder_set_member_name (builder, "ratio");
  if (isnan (ratio) || isinf (ratio))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, ratio);
}

static void
add_side (JsonBuilder *builder,
          const char  *member,
          const char  *path,
          guint        rank,
          const char  *label,
          SlProfileLayout layout,
          guint        steps)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "path", path);
  sl_cli_json_add_int (builder, "rank", rank);
  sl_cli_json_add_string (builder, "label", label);
  sl_cli_json_add_string (builder, "layout", sl_profile_layout_to_string (layout));
  sl_cli_json_add_int (builder, "steps", steps);
  json_builder_end_object (builder);
}

static void
add_breakdown (JsonBuilder      *builder,
               SlProfileCompare *result)
{
  json_builder_set_member_name (builder, "breakdown");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "noise_mads");
  json_builder_add_double_value (builder, SL_PROFILE_COMPARE_NOISE_MADS);
  sl_cli_json_add_int (builder, "min_noise_steps", SL_PROFILE_COMPARE_MIN_NOISE_STEPS);

  json_builder_set_member_name (builder, "average");
  json_builder_begin_object (builder);
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      const SlProfileCompareItem *item = &result->items[i];
      gboolean known = item->source != SL_PROFILE_COMPARE_FROM_NONE;

      json_builder_set_member_name (builder, sl_profile_compare_item_key (i));
      json_builder_begin_object (builder);
      sl_cli_json_add_us (builder, "base_us", item->base_ns);
      sl_cli_json_add_us (builder, "comparison_us", item->comparison_ns);
      add_diff_us (builder, "diff_us", known, item->diff_ns);
      add_ratio (builder, item->ratio);
      sl_cli_json_add_string (builder, "source", sl_profile_compare_source_to_string (item->source));
      json_builder_set_member_name (builder, "noise_checked");
      json_builder_add_boolean_value (builder, item->noise_checked);
      json_builder_set_member_name (builder, "noise");
      json_builder_add_boolean_value (builder, item->noise);
      sl_cli_json_add_us (builder, "mad_us", item->mad_ns);
      sl_cli_json_add_string (builder, "reason", item->reason);
      json_builder_set_member_name (builder, "not_comparable");
      json_builder_add_boolean_value (builder, item->not_comparable);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint s = 0; s < result->steps->len; s++)
    {
      const SlProfileCompareStep *step = &g_array_index (result->steps, SlProfileCompareStep, s);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "base_step");
      if (step->base_step < 0)
        json_builder_add_null_value (builder);
      else
        json_builder_add_int_value (builder, step->base_step);
      json_builder_set_member_name (builder, "comparison_step");
      if (step->comparison_step < 0)
        json_builder_add_null_value (builder);
      else
        json_builder_add_int_value (builder, step->comparison_step);
      for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
        {
          if (step->base_ns[i] < 0 && step->comparison_ns[i] < 0)
            continue;
          json_builder_set_member_name (builder, sl_profile_compare_item_key (i));
          json_builder_begin_object (builder);
          sl_cli_json_add_us (builder, "base_us", step->base_ns[i]);
          sl_cli_json_add_us (builder, "comparison_us", step->comparison_ns[i]);
          add_diff_us (builder, "diff_us", step->base_ns[i] >= 0 && step->comparison_ns[i] >= 0,
                       step->comparison_ns[i] - step->base_ns[i]);
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "not_computed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    if (result->items[i].reason != NULL)
      {
        json_builder_begin_object (builder);
        sl_cli_json_add_string (builder, "item", sl_profile_compare_item_key (i));
        sl_cli_json_add_string (builder, "reason", result->items[i].reason);
        json_builder_end_object (builder);
      }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_rows (JsonBuilder *builder,
          const char  *member,
          GPtrArray   *rows,
          gboolean     kernels)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < rows->len; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (rows, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "type", row->type);
      if (kernels)
        sl_cli_json_add_string (builder, "input_shapes", row->input_shapes);
      sl_cli_json_add_string (builder, "core_type", row->core_type);
      sl_cli_json_add_int (builder, "base_count", row->count[0]);
      sl_cli_json_add_int (builder, "comparison_count", row->count[1]);
      sl_cli_json_add_us (builder, "base_total_us", row->total_ns[0]);
      sl_cli_json_add_us (builder, "comparison_total_us", row->total_ns[1]);
      add_diff_us (builder, "diff_us", TRUE, row->diff_ns);
      add_ratio (builder, row->ratio);
      sl_cli_json_add_us (builder, "base_avg_us", row->avg_ns[0]);
      sl_cli_json_add_us (builder, "comparison_avg_us", row->avg_ns[1]);
      sl_cli_json_add_us (builder, "base_min_us", row->min_ns[0]);
      sl_cli_json_add_us (builder, "comparison_min_us", row->min_ns[1]);
      sl_cli_json_add_us (builder, "base_max_us", row->max_ns[0]);
      sl_cli_json_add_us (builder, "comparison_max_us", row->max_ns[1]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static char *
row_name (const SlProfileCompareRow *row,
          gboolean                   kernels)
{
  if (kernels && row->input_shapes != NULL && row->input_shapes[0] != '\0')
    return g_strdup_printf ("%s [%s]", row->type, row->input_shapes);
  return g_strdup (row->type);
}

static char *
result_to_json (SlProfileCompare *result,
                const char       *paths[2],
                gboolean          kernels)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  GPtrArray *rows = kernels ? result->kernels : result->op_types;
  const SlProfileCompareAlignment *alignment = &result->alignment;

  json_builder_begin_object (builder);
  add_side (builder, "base", paths[0], result->base_rank, result->base_label, result->base_layout, result->base_steps);
  add_side (builder, "comparison", paths[1], result->comparison_rank, result->comparison_label,
            result->comparison_layout, result->comparison_steps);
  add_breakdown (builder, result);
  add_rows (builder, "op_types", result->op_types, FALSE);
  add_rows (builder, "kernels", result->kernels, TRUE);

  json_builder_set_member_name (builder, "alignment");
  json_builder_begin_object (builder);
  sl_cli_json_add_int (builder, "matched", alignment->matched);
  sl_cli_json_add_int (builder, "only_base", alignment->only_base);
  sl_cli_json_add_int (builder, "only_comparison", alignment->only_comparison);
  if (alignment->computed)
    {
      sl_cli_json_add_string (builder, "method", sl_sequence_align_method_to_string (alignment->method));
      sl_cli_json_add_int (builder, "streams", alignment->n_streams);
      sl_cli_json_add_string (builder, "scope", alignment->scope);
    }
  else
    sl_cli_json_add_string (builder, "reason", alignment->reason);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "top_regressions");
  json_builder_begin_array (builder);
  for (guint i = 0, n = 0; i < rows->len && n < TOP_REGRESSIONS; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (rows, i);
      g_autofree char *name = row_name (row, kernels);

      if (row->diff_ns <= 0)
        break;
      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", name);
      sl_cli_json_add_string (builder, "type", row->type);
      sl_cli_json_add_us (builder, "base_us", row->total_ns[0]);
      sl_cli_json_add_us (builder, "comparison_us", row->total_ns[1]);
      add_diff_us (builder, "diff_us", TRUE, row->diff_ns);
      add_ratio (builder, row->ratio);
      json_builder_end_object (builder);
      n++;
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < result->notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (result->notes, i));
  json_builder_end_array (builder);
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
print_csv_us (gint64 ns)
{
  putchar (',');
  if (ns >= 0)
    printf ("%.3f", ns / 1000.0);
}

static void
print_csv (SlProfileCompare *result,
           gboolean          kernels)
{
  GPtrArray *rows = kernels ? result->kernels : result->op_types;

  printf ("type,%score_type,base_count,comparison_count,base_total_us,comparison_total_us,diff_us,ratio,"
          "base_avg_us,comparison_avg_us,base_min_us,comparison_min_us,base_max_us,comparison_max_us\n",
          kernels ? "input_shapes," : "");
  for (guint i = 0; i < rows->len; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (rows, i);

      print_csv_field (row->type);
      putchar (',');
      if (kernels)
        {
          print_csv_field (row->input_shapes);
          putchar (',');
        }
      print_csv_field (row->core_type);
      printf (",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT, row->count[0], row->count[1]);
      print_csv_us (row->total_ns[0]);
      print_csv_us (row->total_ns[1]);
      printf (",%.3f,", row->diff_ns / 1000.0);
      if (!isnan (row->ratio))
        printf ("%.6f", row->ratio);
      print_csv_us (row->avg_ns[0]);
      print_csv_us (row->avg_ns[1]);
      print_csv_us (row->min_ns[0]);
      print_csv_us (row->min_ns[1]);
      print_csv_us (row->max_ns[0]);
      print_csv_us (row->max_ns[1]);
      putchar ('\n');
    }
}

static char *
format_time (gint64 ns)
{
  if (ns < 0)
    return g_strdup ("-");
  return sl_time_format_ns (ns, SL_TIME_UNIT_AUTO);
}

static char *
format_diff (gint64 ns)
{
  g_autofree char *magnitude = sl_time_format_ns (ABS (ns), SL_TIME_UNIT_AUTO);

  return g_strdup_printf ("%s%s", ns > 0 ? "+" : ns < 0 ? "-" : "", magnitude);
}

static char *
format_ratio (double ratio)
{
  if (isnan (ratio))
    return g_strdup ("-");
  return g_strdup_printf ("%.3f", ratio);
}

static void
print_text (SlProfileCompare *result,
            const char       *paths[2],
            gboolean          kernels)
{
  GPtrArray *rows = kernels ? result->kernels : result->op_types;
  const SlProfileCompareAlignment *alignment = &result->alignment;

  /* Translators: the baseline's path, rank label and number of steps */
  printf (ngettext ("Baseline:   %s (%s, %u step)\n", "Baseline:   %s (%s, %u steps)\n", result->base_steps),
          paths[0], result->base_label, result->base_steps);
  /* Translators: the comparison's path, rank label and number of steps */
  printf (ngettext ("Comparison: %s (%s, %u step)\n\n", "Comparison: %s (%s, %u steps)\n\n", result->comparison_steps),
          paths[1], result->comparison_label, result->comparison_steps);

  printf ("%s\n", _("Breakdown, average per step:"));
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      const SlProfileCompareItem *item = &result->items[i];
      g_autofree char *base = NULL, *comparison = NULL, *diff = NULL, *ratio = NULL;

      if (item->source == SL_PROFILE_COMPARE_FROM_NONE)
        continue;
      base = format_time (item->base_ns);
      comparison = format_time (item->comparison_ns);
      diff = format_diff (item->diff_ns);
      ratio = format_ratio (item->ratio);
      printf ("  %-26s %12s %12s %12s %8s%s\n", sl_profile_compare_item_label (i), base, comparison, diff, ratio,
              item->noise ? _("  (noise)") : "");
    }
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    if (result->items[i].reason != NULL && result->items[i].not_comparable)
      /* Translators: an item of the breakdown whose sides measure different things, and why */
      printf (_("  %s: %s\n"), sl_profile_compare_item_label (i), result->items[i].reason);
    else if (result->items[i].reason != NULL)
      /* Translators: an item of the breakdown that was not computed, and why */
      printf (_("  %s: not computed: %s\n"), sl_profile_compare_item_label (i), result->items[i].reason);

  printf ("\n%s\n", kernels ? _("Largest kernel regressions:") : _("Largest op type regressions:"));
  for (guint i = 0, n = 0; i < rows->len && n < TEXT_ROWS; i++)
    {
      const SlProfileCompareRow *row = g_ptr_array_index (rows, i);
      g_autofree char *name = row_name (row, kernels);
      g_autofree char *base = format_time (row->total_ns[0]);
      g_autofree char *comparison = format_time (row->total_ns[1]);
      g_autofree char *diff = format_diff (row->diff_ns);
      g_autofree char *ratio = format_ratio (row->ratio);

      if (row->diff_ns <= 0)
        break;
      printf ("  %-40s %12s %12s %12s %8s\n", name, base, comparison, diff, ratio);
      n++;
    }

  printf ("\n");
  if (alignment->computed)
    {
      g_autofree char *matched = sl_count_format (alignment->matched);
      g_autofree char *only_base = sl_count_format (alignment->only_base);
      g_autofree char *only_comparison = sl_count_format (alignment->only_comparison);

      /* Translators: op-level alignment counts, the method and what was aligned */
      printf (_("Op alignment (%s, %s): %s matched, %s only in the baseline, %s only in the comparison\n"),
              sl_sequence_align_method_to_string (alignment->method), alignment->scope,
              matched, only_base, only_comparison);
    }
  else
    /* Translators: why ops could not be aligned */
    printf (_("Op alignment: %s\n"), alignment->reason);
  for (guint i = 0; i < result->notes->len; i++)
    printf ("%s\n", (const char *)g_ptr_array_index (result->notes, i));
}

int
sl_cli_compare_profiles (int    argc,
                         char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("BASE COMPARISON — is the comparison run faster, and where?"));
  g_autoptr(SlProfile) base = NULL;
  g_autoptr(SlProfile) comparison = NULL;
  g_autoptr(SlProfileCompare) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *by = NULL;
  gboolean json = FALSE, csv = FALSE, kernels;
  int base_rank = 0, comparison_rank = 0;
  SlProfileCompareOptions options = { 0 };
  const char *paths[2];
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the comparison as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the op type table (or the kernel table) as CSV"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, N_("Rank regressions by “type” (the default) or “kernel”"), N_("WHAT") },
    { "base-rank", 0, 0, G_OPTION_ARG_INT, &base_rank, N_("Index of the baseline's rank to compare (0)"), N_("N") },
    { "comparison-rank", 0, 0, G_OPTION_ARG_INT, &comparison_rank, N_("Index of the comparison's rank to compare (0)"), N_("N") },
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
      sl_cli_print_error (_("compare-profiles takes a BASE and a COMPARISON path"));
      return 2;
    }
  if (json && csv)
    {
      sl_cli_print_error (_("--json and --csv exclude each other"));
      return 2;
    }
  if (by != NULL && !g_str_equal (by, "kernel") && !g_str_equal (by, "type"))
    {
      sl_cli_print_error (_("--by takes “type” or “kernel”"));
      return 2;
    }
  if (base_rank < 0 || comparison_rank < 0)
    {
      sl_cli_print_error (_("a rank index cannot be negative"));
      return 2;
    }
  kernels = by != NULL && g_str_equal (by, "kernel");
  paths[0] = argv[1];
  paths[1] = argv[2];

  if ((base = sl_profile_load (paths[0], NULL, NULL, NULL, &error)) == NULL ||
      (comparison = sl_profile_load (paths[1], NULL, NULL, NULL, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  options.base_rank = base_rank;
  options.comparison_rank = comparison_rank;
  if ((result = sl_profile_compare_compute (base, comparison, &options, NULL, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *text = result_to_json (result, paths, kernels);

      printf ("%s\n", text);
    }
  else if (csv)
    print_csv (result, kernels);
  else
    print_text (result, paths, kernels);
  return 0;
}
