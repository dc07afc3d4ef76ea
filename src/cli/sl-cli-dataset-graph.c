/* sl-cli-dataset-graph.c: `sightline-cli dataset-graph RUN_OR_FILE... [--json]`
 *
 * Prints the dataset pipeline each run's lineage recorded: its nodes in
 * pre-order with op type, parameters and children (indices into the
 * run's nodes). Several runs are printed side by side in one `runs[]`;
 * with more than one, each node lists in `differs` the parameters in
 * which it differs from the node at the same place in another run.
 * Exit status: 1 when a path cannot be read, holds no dataset graph or
 * a graph is damaged, 0 otherwise, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-dataset-graph-reader.h"
#include "sl-summary-reader.h"

typedef struct {
  char           *name;
  char           *path;
  SlDatasetGraph *graph;
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  g_free (run->name);
  g_free (run->path);
  g_clear_object (&run->graph);
  g_free (run);
}

/* The lineage file of a run, to name it in problems. */
static char *
dup_lineage_path (SlSummaryRun *run)
{
  for (guint i = 0; i < sl_summary_run_get_n_files (run); i++)
    {
      SlSummaryFile *file = sl_summary_run_get_file (run, i);

      if (file->kind == SL_SUMMARY_FILE_LINEAGE)
        return g_strdup (file->path);
    }
  return g_strdup (sl_summary_run_get_path (run));
}

static gboolean
read_path (const char *path,
           GPtrArray  *runs)
{
  g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (path);
  g_autoptr(GError) error = NULL;
  GPtrArray *found;
  gboolean any = FALSE;

  if (!sl_summary_reader_update (reader, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }

  found = sl_summary_reader_get_runs (reader);
  for (guint i = 0; i < found->len; i++)
    {
      SlSummaryRun *summary = g_ptr_array_index (found, i);
      GBytes *bytes = sl_summary_run_get_dataset_graph (summary);
      Run *run;

      if (bytes == NULL)
        continue;
      run = g_new0 (Run, 1);
      /* A run that is the path itself is called by its folder's name. */
      if (g_strcmp0 (sl_summary_run_get_name (summary), ".") == 0)
        run->name = g_path_get_basename (sl_summary_run_get_path (summary));
      else
        run->name = g_strdup (sl_summary_run_get_name (summary));
      run->path = dup_lineage_path (summary);
      run->graph = sl_dataset_graph_reader_decode_bytes (run->path, bytes);
      g_ptr_array_add (runs, run);
      any = TRUE;
    }

  if (!any)
    sl_cli_print_error (_("%s: no run with a dataset graph"), path);
  return any;
}

static void
add_value (JsonBuilder              *builder,
           const SlDatasetParameter *parameter)
{
  switch (parameter->type)
    {
    case SL_DATASET_VALUE_NULL:
      json_builder_add_null_value (builder);
      break;
    case SL_DATASET_VALUE_STRING_LIST:
      json_builder_begin_array (builder);
      for (guint i = 0; parameter->list != NULL && parameter->list[i] != NULL; i++)
        json_builder_add_string_value (builder, parameter->list[i]);
      json_builder_end_array (builder);
      break;
    case SL_DATASET_VALUE_BOOLEAN:
      json_builder_add_boolean_value (builder, g_str_equal (parameter->text, "true"));
      break;
    case SL_DATASET_VALUE_INTEGER:
      json_builder_add_int_value (builder, g_ascii_strtoll (parameter->text, NULL, 10));
      break;
    case SL_DATASET_VALUE_DOUBLE:
      {
        double value = g_ascii_strtod (parameter->text, NULL);

        if (isfinite (value))
          json_builder_add_double_value (builder, value);
        else
          json_builder_add_string_value (builder, parameter->text);
      }
      break;
    default:
      json_builder_add_string_value (builder, parameter->text);
      break;
    }
}

static void
add_parameters (JsonBuilder *builder,
                GPtrArray   *parameters)
{
  json_builder_set_member_name (builder, "parameters");
  json_builder_begin_object (builder);
  for (guint i = 0; i < parameters->len; i++)
    {
      const SlDatasetParameter *parameter = g_ptr_array_index (parameters, i);

      json_builder_set_member_name (builder, parameter->key);
      add_value (builder, parameter);
    }
  json_builder_end_object (builder);
}

static void
add_run_json (JsonBuilder    *builder,
              const Run      *run,
              SlDatasetGraph **graphs,
              guint           n_graphs)
{
  SlDatasetGraph *graph = run->graph;
  GListModel *problems = sl_dataset_graph_get_problems (graph);

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "name", run->name);
  sl_cli_json_add_string (builder, "path", run->path);
  json_builder_set_member_name (builder, "nodes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_dataset_graph_get_n_nodes (graph); i++)
    {
      const SlDatasetNode *node = sl_dataset_graph_get_node (graph, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", sl_dataset_node_get_label (node));
      sl_cli_json_add_string (builder, "op_type", node->op_type);
      sl_cli_json_add_string (builder, "kind", node->kind == SL_DATASET_NODE_SAMPLER ? "sampler" : "operation");
      add_parameters (builder, node->parameters);
      json_builder_set_member_name (builder, "operations");
      json_builder_begin_array (builder);
      for (guint o = 0; o < node->operations->len; o++)
        {
          const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);

          json_builder_begin_object (builder);
          sl_cli_json_add_string (builder, "name", operation->name);
          add_parameters (builder, operation->parameters);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "children");
      json_builder_begin_array (builder);
      for (guint c = 0; c < node->children->len; c++)
        json_builder_add_int_value (builder, g_array_index (node->children, guint, c));
      json_builder_end_array (builder);
      if (n_graphs > 1)
        {
          g_autoptr(GPtrArray) keys = sl_dataset_graph_dup_differences (graph, i, graphs, n_graphs);

          json_builder_set_member_name (builder, "differs");
          json_builder_begin_array (builder);
          for (guint k = 0; k < keys->len; k++)
            json_builder_add_string_value (builder, g_ptr_array_index (keys, k));
          json_builder_end_array (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  sl_cli_json_add_problem_list (builder, problems, 0);
  json_builder_end_object (builder);
}

static void
print_json (GPtrArray       *runs,
            SlDatasetGraph **graphs)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "runs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < runs->len; i++)
    add_run_json (builder, g_ptr_array_index (runs, i), graphs, runs->len);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static void
print_text (GPtrArray *runs)
{
  for (guint r = 0; r < runs->len; r++)
    {
      const Run *run = g_ptr_array_index (runs, r);
      GListModel *problems = sl_dataset_graph_get_problems (run->graph);
      guint n = sl_dataset_graph_get_n_nodes (run->graph);

      printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u node\n", "%s: %u nodes\n", n), run->name, n);
      /* Pre-order, so the depth indents a tree. */
      for (guint i = 0; i < n; i++)
        {
          const SlDatasetNode *node = sl_dataset_graph_get_node (run->graph, i);
          g_autoptr(GString) line = g_string_new (NULL);

          for (guint d = 0; d < MIN (node->depth, 40u); d++)
            g_string_append (line, "  ");
          g_string_append_printf (line, "  %u %s", i, sl_dataset_node_get_label (node));
          for (guint p = 0; p < node->parameters->len; p++)
            {
              const SlDatasetParameter *parameter = g_ptr_array_index (node->parameters, p);

              if (g_str_equal (parameter->key, "op_type") || g_str_equal (parameter->key, "sampler_name"))
                continue;
              g_string_append_printf (line, " %s=%s", parameter->key,
                                      parameter->text != NULL ? parameter->text : "null");
            }
          for (guint o = 0; o < node->operations->len; o++)
            {
              const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);

              g_string_append_printf (line, " [%s]", operation->name != NULL ? operation->name : "?");
            }
          printf ("%s\n", line->str);
        }
      for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
        {
          g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

          fprintf (stderr, "%s: %s: %s\n", sl_problem_get_path (problem),
                   sl_severity_to_string (sl_problem_get_severity (problem)), sl_problem_get_message (problem));
        }
    }
}

int
sl_cli_dataset_graph (int    argc,
                      char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new (_("RUN_OR_FILE… — print the dataset pipelines recorded in training lineage"));
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func (run_free);
  g_autoptr(GError) error = NULL;
  g_autofree SlDatasetGraph **graphs = NULL;
  gboolean json = FALSE, failed = FALSE;
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
  if (argc < 2)
    {
      sl_cli_print_error (_("%s needs a PATH"), "dataset-graph");
      return 2;
    }

  for (int i = 1; i < argc; i++)
    failed = !read_path (argv[i], runs) || failed;

  graphs = g_new0 (SlDatasetGraph *, runs->len + 1);
  for (guint i = 0; i < runs->len; i++)
    {
      const Run *run = g_ptr_array_index (runs, i);

      graphs[i] = run->graph;
      for (guint p = 0; p < g_list_model_get_n_items (sl_dataset_graph_get_problems (run->graph)); p++)
        {
          g_autoptr(SlProblem) problem = g_list_model_get_item (sl_dataset_graph_get_problems (run->graph), p);

          failed = failed || sl_problem_get_severity (problem) == SL_SEVERITY_ERROR;
        }
    }

  if (json)
    print_json (runs, graphs);
  else
    print_text (runs);

  return failed ? 1 : 0;
}
