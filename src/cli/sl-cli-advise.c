/* sl-cli-advise.c: `sightline-cli advise PATH [--json | --markdown]`
 *
 * Loads a profiler output folder, runs the advisor's rule book over it
 * (with the user's threshold overrides from the config folder, or the
 * file given with --settings) and prints the findings, most severe
 * first, and the rules that could not run with the reason.
 *
 * JSON: path, rule_book_version, settings_file, overridden[] {rule,
 * threshold, default, value}, settings_warnings[], findings[] {rule, rank,
 * severity, title, message, recommendation, assumption, time_us,
 * step_percent, saving_us, saving_percent, evidence[] {label, value,
 * file, row | offset}, ops[] (the 20 longest: name, type, core_type,
 * count, total_us, file, row), ops_total, jump {filter, start_ns, end_ns,
 * graph_op}}, not_run[] {rule, rank, reason, enable, looked_in[]},
 * performance[] {rank, items[] {key, label, value, unit, status (good,
 * bad or none), threshold, how, missing, ops, file, worst_ops[]}}: the
 * model performance report of each rank.
 * Unknown numbers are null. Exit status: 0 when the advisor ran, 1 when
 * the profile or the settings could not be read, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-advisor.h"
#include "sl-cli.h"
#include "sl-profile-loader.h"
#include "sl-time-format.h"

#define JSON_MAX_OPS 20
#define MARKDOWN_MAX_OPS 5

static void
add_percent (JsonBuilder *builder,
             const char  *name,
             double       percent)
{
  json_builder_set_member_name (builder, name);
  if (percent < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, percent);
}

static void
add_evidence (JsonBuilder      *builder,
              SlAdvisorFinding *finding)
{
  json_builder_set_member_name (builder, "evidence");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_advisor_finding_get_n_evidence (finding); i++)
    {
      const SlAdvisorEvidence *evidence = sl_advisor_finding_get_evidence (finding, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "label", evidence->label);
      sl_cli_json_add_string (builder, "value", evidence->value);
      sl_cli_json_add_string (builder, "file", evidence->file);
      if (evidence->row > 0)
        sl_cli_json_add_int (builder, "row", evidence->row);
      else if (evidence->offset >= 0)
        sl_cli_json_add_int (builder, "offset", evidence->offset);
      else
        {
          json_builder_set_member_name (builder, "row");
          json_builder_add_null_value (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_ops (JsonBuilder      *builder,
         SlAdvisorFinding *finding)
{
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);

  json_builder_set_member_name (builder, "ops");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ops->len && i < JSON_MAX_OPS; i++)
    {
      SlOpRow *row = g_ptr_array_index (ops, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", sl_op_row_get_name (row));
      sl_cli_json_add_string (builder, "type", sl_op_row_get_op_type (row));
      sl_cli_json_add_string (builder, "core_type", sl_op_row_get_core_type (row));
      sl_cli_json_add_int (builder, "count", (gint64)sl_op_row_get_count (row));
      sl_cli_json_add_us (builder, "total_us", sl_op_row_get_total_ns (row));
      sl_cli_json_add_string (builder, "file", sl_op_row_get_source_path (row));
      sl_cli_json_add_int (builder, "row", sl_op_row_get_longest_line (row));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  sl_cli_json_add_int (builder, "ops_total", ops->len);
}

static void
add_finding (JsonBuilder      *builder,
             SlAdvisorFinding *finding)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "rule", sl_advisor_finding_get_rule (finding));
  sl_cli_json_add_string (builder, "rank", sl_advisor_finding_get_rank_label (finding));
  sl_cli_json_add_string (builder, "severity", sl_advisor_severity_to_string (sl_advisor_finding_get_severity (finding)));
  sl_cli_json_add_string (builder, "title", sl_advisor_finding_get_title (finding));
  sl_cli_json_add_string (builder, "message", sl_advisor_finding_get_message (finding));
  sl_cli_json_add_string (builder, "recommendation", sl_advisor_finding_get_recommendation (finding));
  sl_cli_json_add_string (builder, "assumption", sl_advisor_finding_get_assumption (finding));
  sl_cli_json_add_us (builder, "time_us", sl_advisor_finding_get_time_ns (finding));
  add_percent (builder, "step_percent", sl_advisor_finding_get_step_percent (finding));
  sl_cli_json_add_us (builder, "saving_us", sl_advisor_finding_get_saving_ns (finding));
  add_percent (builder, "saving_percent", sl_advisor_finding_get_saving_percent (finding));
  add_evidence (builder, finding);
  add_ops (builder, finding);

  json_builder_set_member_name (builder, "jump");
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "filter", sl_advisor_finding_get_filter_text (finding));
  sl_cli_json_add_int (builder, "start_ns", sl_advisor_finding_get_range_start_ns (finding));
  sl_cli_json_add_int (builder, "end_ns", sl_advisor_finding_get_range_end_ns (finding));
  sl_cli_json_add_string (builder, "graph_op", sl_advisor_finding_get_graph_op (finding));
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

static void
add_settings (JsonBuilder       *builder,
              SlAdvisorRuleBook *book)
{
  GPtrArray *overridden = sl_advisor_rule_book_get_overridden (book);
  GPtrArray *warnings = sl_advisor_rule_book_get_warnings (book);

  sl_cli_json_add_int (builder, "rule_book_version", sl_advisor_rule_book_get_version (book));
  sl_cli_json_add_string (builder, "settings_file", sl_advisor_rule_book_get_override_path (book));
  json_builder_set_member_name (builder, "overridden");
  json_builder_begin_array (builder);
  for (guint i = 0; i < overridden->len; i++)
    {
      const SlAdvisorOverride *override = g_ptr_array_index (overridden, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "rule", override->rule);
      sl_cli_json_add_string (builder, "threshold", override->name);
      json_builder_set_member_name (builder, "default");
      json_builder_add_double_value (builder, override->default_value);
      json_builder_set_member_name (builder, "value");
      json_builder_add_double_value (builder, override->value);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "settings_warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < warnings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (warnings, i));
  json_builder_end_array (builder);
}

static void
add_performance_item (JsonBuilder             *builder,
                      const SlPerformanceItem *item)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "key", item->key);
  sl_cli_json_add_string (builder, "label", item->label);
  json_builder_set_member_name (builder, "value");
  if (isfinite (item->value))
    json_builder_add_double_value (builder, item->value);
  else
    json_builder_add_null_value (builder);
  sl_cli_json_add_string (builder, "unit", item->unit);
  sl_cli_json_add_string (builder, "status", sl_performance_status_to_string (item->status));
  sl_cli_json_add_string (builder, "threshold", item->threshold);
  sl_cli_json_add_string (builder, "how", item->how);
  sl_cli_json_add_string (builder, "missing", item->missing);
  sl_cli_json_add_string (builder, "suspect", item->suspect);
  sl_cli_json_add_int (builder, "ops", item->n_ops);
  sl_cli_json_add_string (builder, "file", item->file);
  json_builder_set_member_name (builder, "worst_ops");
  json_builder_begin_array (builder);
  for (guint i = 0; item->worst_ops[i] != NULL; i++)
    json_builder_add_string_value (builder, item->worst_ops[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_performance (JsonBuilder         *builder,
                 SlPerformanceReport *performance)
{
  json_builder_set_member_name (builder, "performance");
  json_builder_begin_array (builder);
  for (guint s = 0; s < sl_performance_report_get_n_sections (performance); s++)
    {
      const SlPerformanceSection *section = sl_performance_report_get_section (performance, s);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "rank", section->rank_label);
      json_builder_set_member_name (builder, "items");
      json_builder_begin_array (builder);
      for (guint i = 0; i < section->items->len; i++)
        add_performance_item (builder, g_ptr_array_index (section->items, i));
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static char *
report_to_json (SlAdvisorReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  GListModel *findings = sl_advisor_report_get_findings (report);

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "path", sl_advisor_report_get_path (report));
  add_settings (builder, sl_advisor_report_get_rule_book (report));

  json_builder_set_member_name (builder, "findings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      add_finding (builder, finding);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "not_run");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (report); i++)
    {
      const SlAdvisorSkip *skip = sl_advisor_report_get_not_run (report, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "rule", skip->rule);
      sl_cli_json_add_string (builder, "rank", skip->rank_label);
      sl_cli_json_add_string (builder, "reason", skip->reason);
      sl_cli_json_add_string (builder, "enable", skip->enable);
      json_builder_set_member_name (builder, "looked_in");
      json_builder_begin_array (builder);
      for (guint p = 0; skip->looked_in[p] != NULL; p++)
        json_builder_add_string_value (builder, skip->looked_in[p]);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_performance (builder, sl_advisor_report_get_performance (report));
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static char *
format_saving (SlAdvisorFinding *finding)
{
  gint64 saving = sl_advisor_finding_get_saving_ns (finding);

  g_autofree char *time = NULL;

  if (saving < 0)
    return g_strdup ("-");
  time = sl_time_format_ns (saving, SL_TIME_UNIT_AUTO);
  return g_strdup_printf ("%s (%.1f %%)", time, MAX (sl_advisor_finding_get_saving_percent (finding), 0));
}

static void
print_evidence_line (const SlAdvisorEvidence *evidence)
{
  if (evidence->row > 0)
    printf ("  - %s: %s — `%s`:%u\n", evidence->label, evidence->value, evidence->file, evidence->row);
  else if (evidence->offset >= 0)
    /* Translators: evidence placed at a byte offset of a file */
    printf (_("  - %s: %s — `%s`, byte %lld\n"), evidence->label, evidence->value, evidence->file,
            (long long)evidence->offset);
  else
    printf ("  - %s: %s — `%s`\n", evidence->label, evidence->value, evidence->file);
}

static void
print_finding (SlAdvisorFinding *finding)
{
  g_autofree char *saving = format_saving (finding);
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);
  const char *rank = sl_advisor_finding_get_rank_label (finding);

  printf ("### %s (%s%s%s)\n\n", sl_advisor_finding_get_title (finding), sl_advisor_finding_get_rule (finding),
          rank[0] != '\0' ? ", " : "", rank);
  printf ("%s\n\n", sl_advisor_finding_get_message (finding));
  printf ("**%s** %s\n\n", _("Recommendation:"), sl_advisor_finding_get_recommendation (finding));
  printf ("**%s** %s — %s\n\n", _("Estimated saving per step:"), saving, sl_advisor_finding_get_assumption (finding));
  if (sl_advisor_finding_get_n_evidence (finding) > 0)
    {
      printf ("%s\n\n", _("Evidence:"));
      for (guint i = 0; i < sl_advisor_finding_get_n_evidence (finding); i++)
        print_evidence_line (sl_advisor_finding_get_evidence (finding, i));
      printf ("\n");
    }
  if (ops->len > MARKDOWN_MAX_OPS)
    {
      /* Translators: how many ops a finding involves beyond those listed */
      printf (g_dngettext (GETTEXT_PACKAGE, "%u op in all (all of them with --json, the 20 longest).\n\n",
                           "%u ops in all (all of them with --json, the 20 longest).\n\n", ops->len),
              ops->len);
    }
}

static const char *
status_mark (SlPerformanceStatus status)
{
  switch (status)
    {
    /* Translators: the status of a figure of the performance report, in a Markdown table */
    case SL_PERFORMANCE_STATUS_GOOD: return _("green");
    /* Translators: the status of a figure of the performance report, in a Markdown table */
    case SL_PERFORMANCE_STATUS_BAD: return _("**red**");
    case SL_PERFORMANCE_STATUS_NONE:
    default: return "";
    }
}

/* Only the figures the profile could give; the others are summed up in
 * one line with what to collect. */
static void
print_performance (SlPerformanceReport *performance)
{
  for (guint s = 0; s < sl_performance_report_get_n_sections (performance); s++)
    {
      const SlPerformanceSection *section = sl_performance_report_get_section (performance, s);
      g_autoptr(GPtrArray) missing = g_ptr_array_new ();

      /* Translators: a heading, %s is a rank's label */
      printf (_("## Model performance (%s)\n\n"), section->rank_label);
      printf ("| %s | %s | %s | %s |\n|---|---|---|---|\n", _("Figure"), _("Value"), _("Status"), _("Ops"));
      for (guint i = 0; i < section->items->len; i++)
        {
          const SlPerformanceItem *item = g_ptr_array_index (section->items, i);
          g_autofree char *value = sl_performance_item_format_value (item);

          if (item->missing != NULL || item->suspect != NULL)
            {
              g_ptr_array_add (missing, (gpointer)item);
              continue;
            }
          printf ("| %s | %s | %s | %u |\n", item->label, value, status_mark (item->status), item->n_ops);
        }
      printf ("\n");
      for (guint i = 0; i < missing->len; i++)
        {
          const SlPerformanceItem *item = g_ptr_array_index (missing, i);

          printf ("- %s: %s\n", item->label, item->suspect != NULL ? item->suspect : item->missing);
        }
      if (missing->len > 0)
        printf ("\n");
    }
}

static void
print_markdown (SlAdvisorReport *report)
{
  static const SlAdvisorSeverity order[] = { SL_ADVISOR_SEVERITY_HIGH, SL_ADVISOR_SEVERITY_MEDIUM, SL_ADVISOR_SEVERITY_LOW };
  const char *headings[] = { _("High"), _("Medium"), _("Low") };
  GListModel *findings = sl_advisor_report_get_findings (report);
  SlAdvisorRuleBook *book = sl_advisor_report_get_rule_book (report);
  GPtrArray *overridden = sl_advisor_rule_book_get_overridden (book);

  /* Translators: the heading of the report, %s is the profile's path */
  printf (_("# Advisor report for `%s`\n\n"), sl_advisor_report_get_path (report));
  print_performance (sl_advisor_report_get_performance (report));
  if (g_list_model_get_n_items (findings) == 0)
    printf ("%s\n\n", _("No rule found anything to improve."));

  for (guint s = 0; s < G_N_ELEMENTS (order); s++)
    {
      gboolean heading = FALSE;

      for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
        {
          g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

          if (sl_advisor_finding_get_severity (finding) != order[s])
            continue;
          if (!heading)
            printf ("## %s\n\n", headings[s]);
          heading = TRUE;
          print_finding (finding);
        }
    }

  if (sl_advisor_report_get_n_not_run (report) > 0)
    {
      printf ("## %s\n\n", _("Rules that could not run"));
      for (guint i = 0; i < sl_advisor_report_get_n_not_run (report); i++)
        {
          const SlAdvisorSkip *skip = sl_advisor_report_get_not_run (report, i);
          g_autofree char *paths = g_strjoinv ("`, `", skip->looked_in);

          if (skip->rank_label[0] != '\0')
            printf ("- **%s** (%s): %s.", skip->rule, skip->rank_label, skip->reason);
          else
            printf ("- **%s**: %s.", skip->rule, skip->reason);
          if (skip->looked_in[0] != NULL)
            /* Translators: followed by the paths the advisor looked in */
            printf (_(" Looked in `%s`."), paths);
          if (skip->enable[0] != '\0')
            printf (" %s", skip->enable);
          printf ("\n");
        }
      printf ("\n");
    }

  /* Translators: the rule book's version */
  printf (_("Rule book version %lld.\n"), (long long)sl_advisor_rule_book_get_version (book));
  for (guint i = 0; i < overridden->len; i++)
    {
      const SlAdvisorOverride *override = g_ptr_array_index (overridden, i);

      /* Translators: a threshold a settings file changed: rule, threshold, the default, the value used, the file */
      printf (_("Overridden: %s %s = %g (default %g) by `%s`\n"), override->rule, override->name, override->value,
              override->default_value, sl_advisor_rule_book_get_override_path (book));
    }
}

int
sl_cli_advise (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("PATH — find what slows a profiled model down, with the evidence"));
  g_autoptr(SlAdvisorRuleBook) book = NULL;
  g_autoptr(SlAdvisorReport) report = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;
  gboolean json = FALSE, markdown = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the report as JSON"), NULL },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, N_("Print the report as Markdown (the default)"), NULL },
    { "settings", 0, 0, G_OPTION_ARG_FILENAME, &settings, N_("Threshold overrides to use instead of the config folder's advisor.json"), N_("FILE") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 2 || (json && markdown))
    {
      sl_cli_print_error (argc != 2 ? _("advise takes a single PATH") : _("--json and --markdown exclude each other"));
      return 2;
    }

  if ((book = sl_advisor_rule_book_new_default (&error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  if (settings == NULL)
    settings = sl_advisor_rule_book_dup_user_path ();
  if (!sl_advisor_rule_book_load_overrides (book, settings, &error))
    {
      sl_cli_print_error ("%s: %s", settings, error->message);
      return 1;
    }

  if ((profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  if ((report = sl_advisor_run (profile, book, NULL, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *text = report_to_json (report);

      printf ("%s\n", text);
    }
  else
    print_markdown (report);
  return 0;
}
