/* sl-cli-json.c: JSON members the commands write the same way
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "sl-cli.h"
#include "sl-problem.h"

/* What @builder built, indented, on stdout. */
void
sl_cli_json_print (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

/* A string member, null when there is none. */
void
sl_cli_json_add_string (JsonBuilder *builder,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value == NULL)
    json_builder_add_null_value (builder);
  else
    json_builder_add_string_value (builder, value);
}

void
sl_cli_json_add_int (JsonBuilder *builder,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* An integer member, null when it is not @known. */
void
sl_cli_json_add_known_int (JsonBuilder *builder,
                           const char  *name,
                           gboolean     known,
                           gint64       value)
{
  json_builder_set_member_name (builder, name);
  if (known)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* A duration in microseconds, null when negative (unknown). */
void
sl_cli_json_add_us (JsonBuilder *builder,
                    const char  *name,
                    gint64       ns)
{
  json_builder_set_member_name (builder, name);
  if (ns < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, ns / 1000.0);
}

/* A number, null when it is NaN or infinite (JSON has neither). */
void
sl_cli_json_add_double (JsonBuilder *builder,
                        const char  *name,
                        double       value)
{
  json_builder_set_member_name (builder, name);
  if (!isfinite (value))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}

static void
add_problem (JsonBuilder        *builder,
             SlProblem          *problem,
             SlCliProblemFields  fields)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "severity", sl_severity_to_string (sl_problem_get_severity (problem)));
  sl_cli_json_add_string (builder, "path", sl_problem_get_path (problem));
  sl_cli_json_add_int (builder, "offset", sl_problem_get_offset (problem));
  if (fields & SL_CLI_PROBLEM_LINE)
    sl_cli_json_add_int (builder, "line", sl_problem_get_line (problem));
  sl_cli_json_add_string (builder, "message", sl_problem_get_message (problem));
  json_builder_end_object (builder);
}

void
sl_cli_json_add_problems (JsonBuilder        *builder,
                          GPtrArray          *problems,
                          SlCliProblemFields  fields)
{
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < problems->len; i++)
    add_problem (builder, g_ptr_array_index (problems, i), fields);
  json_builder_end_array (builder);
}

void
sl_cli_json_add_problem_list (JsonBuilder        *builder,
                              GListModel         *problems,
                              SlCliProblemFields  fields)
{
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      add_problem (builder, problem, fields);
    }
  json_builder_end_array (builder);
}
