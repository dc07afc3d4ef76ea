/* sl-cli-conversion.c: `sightline-cli conversion SOURCE CONVERTED [--json]`
 *
 * The ops of a model ATC wrote (an .om, or any graph the graph reader
 * reads) against the model it read: each converted op with its type, its
 * status (kept, fused, inserted) and the source ops it stands for, then
 * the source ops no converted op stands for. JSON keys (stable):
 * `source`, `converted`, `ops[]` with `name`, `type`, `status`,
 * `source_ops[]`; `removed[]` with `name`, `type`; `counts` with `kept`,
 * `fused`, `inserted`, `removed`. Exit status: 1 when a model cannot be
 * read or holds no op, 2 on bad usage, 0 otherwise.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-count-format.h"
#include "sl-cli.h"
#include "sl-conversion-match.h"

static void
print_json (SlConversionMatch *match,
            const char        *source,
            const char        *converted)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "source", source);
  sl_cli_json_add_string (builder, "converted", converted);
  json_builder_set_member_name (builder, "ops");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_conversion_match_get_n_ops (match); i++)
    {
      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", sl_conversion_match_get_op_name (match, i));
      sl_cli_json_add_string (builder, "type", sl_conversion_match_get_op_type (match, i));
      sl_cli_json_add_string (builder, "status",
                              sl_conversion_status_to_string (sl_conversion_match_get_op_status (match, i)));
      json_builder_set_member_name (builder, "source_ops");
      json_builder_begin_array (builder);
      for (guint s = 0; s < sl_conversion_match_get_op_n_sources (match, i); s++)
        json_builder_add_string_value (builder, sl_conversion_match_get_op_source (match, i, s, NULL));
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "removed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_conversion_match_get_n_removed (match); i++)
    {
      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", sl_conversion_match_get_removed_name (match, i));
      sl_cli_json_add_string (builder, "type", sl_conversion_match_get_removed_type (match, i));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "counts");
  json_builder_begin_object (builder);
  for (SlConversionStatus s = 0; s < SL_CONVERSION_N_STATUSES; s++)
    sl_cli_json_add_int (builder, sl_conversion_status_to_string (s), sl_conversion_match_count (match, s));
  sl_cli_json_add_int (builder, "removed", sl_conversion_match_get_n_removed (match));
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static void
print_text (SlConversionMatch *match)
{
  g_autofree char *kept = sl_count_format (sl_conversion_match_count (match, SL_CONVERSION_KEPT));
  g_autofree char *fused = sl_count_format (sl_conversion_match_count (match, SL_CONVERSION_FUSED));
  g_autofree char *inserted = sl_count_format (sl_conversion_match_count (match, SL_CONVERSION_INSERTED));
  g_autofree char *removed = sl_count_format (sl_conversion_match_get_n_removed (match));

  /* Translators: the counts of a conversion's ops */
  printf (_("%s kept, %s fused, %s inserted, %s removed\n"), kept, fused, inserted, removed);
  for (guint i = 0; i < sl_conversion_match_get_n_ops (match); i++)
    {
      g_autofree char *sources = sl_conversion_match_dup_op_sources (match, i);

      printf ("%-8s %s (%s)%s%s\n", sl_conversion_status_to_string (sl_conversion_match_get_op_status (match, i)),
              sl_conversion_match_get_op_name (match, i), sl_conversion_match_get_op_type (match, i),
              sources[0] != '\0' ? " ← " : "", sources);
    }
  for (guint i = 0; i < sl_conversion_match_get_n_removed (match); i++)
    printf ("%-8s %s (%s)\n", "removed", sl_conversion_match_get_removed_name (match, i),
            sl_conversion_match_get_removed_type (match, i));
}

int
sl_cli_conversion (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new (_("SOURCE CONVERTED — the converted model’s ops against the source model’s: kept, fused, inserted, removed"));
  g_autoptr(SlConversionMatch) match = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
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
      sl_cli_print_error (_("conversion takes a SOURCE model and the CONVERTED model (.om)"));
      return 2;
    }

  if (!(match = sl_conversion_match_load (argv[1], argv[2], NULL, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  if (json)
    print_json (match, argv[1], argv[2]);
  else
    print_text (match);
  return 0;
}
