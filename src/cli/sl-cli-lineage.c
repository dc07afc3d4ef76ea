/* sl-cli-lineage.c: `sightline-cli lineage PATH [--json | --csv]`
 *
 * Prints the lineage of every run below PATH: hyperparameters, metrics,
 * user-defined values, dataset and model. `--json` gives `runs[]` with
 * `name`, `path`, `hyperparameters{}`, `metrics{}`, `user_defined{}`,
 * `dataset{}` and `model{}` (values of numeric columns as numbers, the
 * others as strings), `columns[]` with each column's `id`, `group`, `key`
 * and `type`, and `problems[]`. `--csv` gives one row a run: `name`, then
 * one field a column, headed by the column's id ("group/key").
 * Exit status: 1 when PATH cannot be read or a file is damaged beyond
 * reading, 0 otherwise, 2 on bad usage.
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
#include "sl-lineage-table.h"

static void
add_value (JsonBuilder           *builder,
           const SlLineageColumn *column,
           const char            *text)
{
  double number;

  json_builder_set_member_name (builder, column->key);
  /* Whole numbers print as integers, up to where doubles stay exact. */
  if (column->type == SL_LINEAGE_COLUMN_NUMERIC && sl_lineage_parse_number (text, &number) &&
      number == floor (number) && fabs (number) <= 9007199254740992.0)
    json_builder_add_int_value (builder, (gint64) number);
  else if (column->type == SL_LINEAGE_COLUMN_NUMERIC && sl_lineage_parse_number (text, &number))
    json_builder_add_double_value (builder, number);
  else
    json_builder_add_string_value (builder, text);
}

static void
add_run (JsonBuilder    *builder,
         SlLineageTable *table,
         guint           run)
{
  SlLineageRun *lineage = sl_lineage_table_get_run (table, run);

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "name", sl_lineage_run_get_name (lineage));
  sl_cli_json_add_string (builder, "path", sl_lineage_run_get_path (lineage));
  for (guint group = 0; group < SL_LINEAGE_N_GROUPS; group++)
    {
      json_builder_set_member_name (builder, sl_lineage_group_to_string (group));
      json_builder_begin_object (builder);
      for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
        {
          const SlLineageColumn *column = sl_lineage_table_get_column (table, c);
          const char *text = sl_lineage_table_get_text (table, run, c);

          if (column->group == group && text != NULL)
            add_value (builder, column, text);
        }
      json_builder_end_object (builder);
    }
  sl_cli_json_add_string (builder, "has_dataset_graph",
                          sl_lineage_run_get_dataset_graph (lineage) != NULL ? "yes" : "no");
  json_builder_end_object (builder);
}

static void
print_json (SlLineageTable *table)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "runs");
  json_builder_begin_array (builder);
  for (guint r = 0; r < sl_lineage_table_get_n_runs (table); r++)
    add_run (builder, table, r);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "columns");
  json_builder_begin_array (builder);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    {
      const SlLineageColumn *column = sl_lineage_table_get_column (table, c);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "id", column->id);
      sl_cli_json_add_string (builder, "group", sl_lineage_group_to_string (column->group));
      sl_cli_json_add_string (builder, "key", column->key);
      sl_cli_json_add_string (builder, "type", column->type == SL_LINEAGE_COLUMN_NUMERIC ? "numeric" : "categorical");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  sl_cli_json_add_problems (builder, sl_lineage_table_get_problems (table), 0);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  puts (text);
}

/* RFC 4180: quoted when the field holds a comma, a quote or a line break. */
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
print_csv (SlLineageTable *table)
{
  fputs ("name", stdout);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    {
      putchar (',');
      print_csv_field (sl_lineage_table_get_column (table, c)->id);
    }
  putchar ('\n');

  for (guint r = 0; r < sl_lineage_table_get_n_runs (table); r++)
    {
      print_csv_field (sl_lineage_run_get_name (sl_lineage_table_get_run (table, r)));
      for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
        {
          putchar (',');
          print_csv_field (sl_lineage_table_get_text (table, r, c));
        }
      putchar ('\n');
    }
}

static void
print_text (SlLineageTable *table)
{
  GPtrArray *problems = sl_lineage_table_get_problems (table);

  for (guint r = 0; r < sl_lineage_table_get_n_runs (table); r++)
    {
      SlLineageRun *run = sl_lineage_table_get_run (table, r);
      SlLineageGroup shown = SL_LINEAGE_N_GROUPS;

      printf ("%s\n", sl_lineage_run_get_name (run));
      for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
        {
          const SlLineageColumn *column = sl_lineage_table_get_column (table, c);
          const char *text = sl_lineage_table_get_text (table, r, c);

          if (text == NULL)
            continue;
          if (column->group != shown)
            printf ("  %s\n", sl_lineage_group_to_label (shown = column->group));
          printf ("    %-24s %s\n", column->key, text);
        }
    }
  if (sl_lineage_table_get_n_runs (table) == 0)
    printf ("%s\n", _("No run here has lineage or HParams data."));
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *location = sl_problem_dup_location (problems->pdata[i]);

      printf ("%s: %s\n", location, sl_problem_get_message (problems->pdata[i]));
    }
}

int
sl_cli_lineage (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new (_("PATH — print every run's hyperparameters, metrics, dataset and model"));
  g_autoptr(SlLineageTable) table = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE, csv = FALSE, failed = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print one CSV row a run"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 2 || (json && csv))
    {
      sl_cli_print_error (_("%s needs one PATH and at most one of --json and --csv"), "lineage");
      return 2;
    }

  if (!(table = sl_lineage_table_load (argv[1], NULL, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (json)
    print_json (table);
  else if (csv)
    print_csv (table);
  else
    print_text (table);

  for (guint i = 0; i < sl_lineage_table_get_problems (table)->len; i++)
    failed = failed || sl_problem_get_severity (sl_lineage_table_get_problems (table)->pdata[i]) == SL_SEVERITY_ERROR;
  return failed ? 1 : 0;
}
