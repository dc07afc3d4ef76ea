/* sl-cli-pipeline-check.c: `sightline-cli pipeline-check FILE... [--json]`
 *
 * Reads MindX SDK pipelines and prints their streams and what the SDK
 * would reject, one problem a line as file:line:column: severity:
 * element: message. Exit status: 1 when any file has an error (or cannot
 * be read), 0 otherwise, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"

typedef struct {
  char       *path;
  SlPipeline *pipeline;   /* NULL when the file could not be read */
  GPtrArray  *problems;   /* SlProblem */
} Checked;

static void
checked_free (gpointer data)
{
  Checked *checked = data;

  g_free (checked->path);
  g_clear_object (&checked->pipeline);
  g_ptr_array_unref (checked->problems);
  g_free (checked);
}

static Checked *
check_file (const char *path,
            const char *project_dir,
            GHashTable *plugins)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  Checked *checked = g_new0 (Checked, 1);

  checked->path = g_strdup (path);
  checked->pipeline = sl_pipeline_reader_read_file (file, NULL, &error);
  if (checked->pipeline == NULL)
    {
      checked->problems = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (checked->problems,
                       sl_problem_new (SL_SEVERITY_ERROR, _("MindX SDK pipeline"), path, -1, error->message));
      return checked;
    }
  checked->problems = sl_pipeline_check (checked->pipeline, project_dir, plugins);
  return checked;
}

static gboolean
has_error (const Checked *checked)
{
  for (guint i = 0; i < checked->problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (checked->problems, i)) == SL_SEVERITY_ERROR)
      return TRUE;
  return FALSE;
}

static void
print_text (const Checked *checked)
{
  guint n_streams = checked->pipeline != NULL ? sl_pipeline_get_n_streams (checked->pipeline) : 0;

  for (guint s = 0; s < n_streams; s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (checked->pipeline, s);
      guint n = stream->elements->len;

      printf (g_dngettext (GETTEXT_PACKAGE, "%s: stream %s: %u element\n", "%s: stream %s: %u elements\n", n),
              checked->path, stream->name, n);
    }

  for (guint i = 0; i < checked->problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (checked->problems, i);
      const char *subject = sl_problem_get_subject (problem);
      g_autoptr(GString) line = g_string_new (checked->path);

      if (sl_problem_get_line (problem) > 0)
        g_string_append_printf (line, ":%u:%u", sl_problem_get_line (problem), sl_problem_get_column (problem));
      g_string_append_printf (line, ": %s: ", sl_severity_to_string (sl_problem_get_severity (problem)));
      if (subject != NULL)
        g_string_append_printf (line, "%s: ", subject);
      g_string_append (line, sl_problem_get_message (problem));
      printf ("%s\n", line->str);
    }
}

static void
add_problem_json (JsonBuilder *builder,
                  SlProblem   *problem)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "severity");
  json_builder_add_string_value (builder, sl_severity_to_string (sl_problem_get_severity (problem)));
  json_builder_set_member_name (builder, "element");
  if (sl_problem_get_subject (problem) != NULL)
    json_builder_add_string_value (builder, sl_problem_get_subject (problem));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "line");
  if (sl_problem_get_line (problem) > 0)
    json_builder_add_int_value (builder, sl_problem_get_line (problem));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "column");
  if (sl_problem_get_column (problem) > 0)
    json_builder_add_int_value (builder, sl_problem_get_column (problem));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, sl_problem_get_message (problem));
  json_builder_end_object (builder);
}

static void
add_file_json (JsonBuilder   *builder,
               const Checked *checked)
{
  guint n_streams = checked->pipeline != NULL ? sl_pipeline_get_n_streams (checked->pipeline) : 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, checked->path);

  json_builder_set_member_name (builder, "streams");
  json_builder_begin_array (builder);
  for (guint s = 0; s < n_streams; s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (checked->pipeline, s);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, stream->name);
      json_builder_set_member_name (builder, "elements");
      json_builder_add_int_value (builder, stream->elements->len);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < checked->problems->len; i++)
    add_problem_json (builder, g_ptr_array_index (checked->problems, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
print_json (GPtrArray *files)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; i < files->len; i++)
    add_file_json (builder, g_ptr_array_index (files, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static GHashTable *
load_plugins (void)
{
  g_autoptr(GError) error = NULL;
  GHashTable *plugins = sl_pipeline_check_load_user_plugins (&error);

  if (plugins == NULL)
    {
      /* the SDK's own plugins are still known */
      sl_cli_print_error (_("Your plugin list cannot be read: %s"), error->message);
      plugins = g_hash_table_new (g_str_hash, g_str_equal);
    }
  return plugins;
}

int
sl_cli_pipeline_check (int    argc,
                       char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("FILE… — check MindX SDK pipelines for what the SDK would reject"));
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (checked_free);
  g_autoptr(GHashTable) plugins = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project_dir = NULL;
  gboolean json = FALSE, any_error = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_dir,
      N_("Look up model and config paths from this folder (default: the folder above pipeline/)"), N_("DIR") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc < 2)
    {
      sl_cli_print_error (_("%s needs a FILE"), "pipeline-check");
      return 2;
    }

  plugins = load_plugins ();
  for (int i = 1; i < argc; i++)
    {
      Checked *checked = check_file (argv[i], project_dir, plugins);

      any_error = any_error || has_error (checked);
      g_ptr_array_add (files, checked);
    }

  if (json)
    print_json (files);
  else
    for (guint i = 0; i < files->len; i++)
      print_text (g_ptr_array_index (files, i));

  return any_error ? 1 : 0;
}
