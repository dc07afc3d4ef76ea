/* sightline-cli.c: the headless entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"

typedef struct {
  const char       *name;
  SlCliCommandFunc  func;
  const char       *summary;
} SlCliCommand;

static const SlCliCommand commands[] = {
  { "advise", sl_cli_advise, N_("Find what slows a profiled model down: findings with their evidence, and the rules that could not run") },
  { "cluster", sl_cli_cluster, N_("Every rank of a cluster profile together: step breakdown, slow rank, communication matrix, slow link") },
  { "compare-profiles", sl_cli_compare_profiles, N_("Compare two profiles: the step breakdown, op types and kernels, the largest regressions") },
  { "compare-tensors", sl_cli_compare_tensors, N_("Compare tensor dumps against their benchmark: accuracy metrics, verdicts and the first divergence") },
  { "conversion", sl_cli_conversion, N_("Pair a converted model's ops with its source model's: kept, fused, inserted and removed ops") },
  { "convert", sl_cli_convert, N_("Convert a model with ATC on a target; its errors explained, the .om path and logs reported") },
  { "dataset-graph", sl_cli_dataset_graph, N_("Print the dataset pipelines of training runs' lineage, several runs side by side") },
  { "detect", sl_cli_detect, N_("Recognise what a folder or file holds") },
  { "graph", sl_cli_graph, N_("Count the nodes, edges and scopes of MindSpore graphs; list the children of a scope") },
  { "job", sl_cli_job, N_("Run a command on a target with its project uploaded; list, follow and stop jobs") },
  { "lineage", sl_cli_lineage, N_("Compare training runs: every run's hyperparameters, metrics, user-defined values, dataset and model") },
  { "pipeline-check", sl_cli_pipeline_check, N_("Check MindX SDK pipelines for what the SDK would reject") },
  { "profile", sl_cli_profile, N_("Print the steps, op types and summary of profiler output") },
  { "profile-run", sl_cli_profile_run, N_("Profile a program on a target with msprof (or its framework’s profiler) and pull the result") },
  { "pull", sl_cli_pull, N_("Mirror a folder of a target into a local folder, fetching only what changed") },
  { "summary", sl_cli_summary, N_("List the runs, files and tags of training summaries") },
  { "summary-export", sl_cli_summary_export, N_("Print the points of one scalar series as CSV or JSON") },
  { "target", sl_cli_target, N_("Add SSH servers, list targets and test a connection step by step") },
  { "tensor-pairs", sl_cli_tensor_pairs, N_("Pair the tensors of two msprobe dumps by key; list what has no partner and why") },
  { "trace-slice", sl_cli_trace_slice, N_("Write a time range of a trace as Chrome trace JSON or CSV") },
  { "trace-stats", sl_cli_trace_stats, N_("Count the events of a Chrome trace and list the longest names") },
  { "tune", sl_cli_tune, N_("Search hyperparameters with a Gaussian process, running each trial as a job on a target") },
  { "workspace", sl_cli_workspace, N_("Show the workspace database: targets, projects, recent folders, jobs") },
};

void
sl_cli_print_error (const char *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("sightline-cli: %s\n", message);
}

/**
 * sl_cli_parse_path_options:
 * @summary: the parameter line of --help, "PATH — what the command does"
 *
 * Parses the options of a command that takes one PATH and --json.
 *
 * Returns: %FALSE after printing why the command line is wrong
 */
gboolean
sl_cli_parse_path_options (int           *argc,
                           char        ***argv,
                           const char    *command,
                           const char    *summary,
                           gboolean      *json,
                           const char   **path)
{
  g_autoptr(GOptionContext) context = g_option_context_new (summary);
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, json, N_("Print the result as JSON"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }

  if (*argc != 2)
    {
      if (*argc < 2)
        sl_cli_print_error (_("%s needs a PATH"), command);
      else
        sl_cli_print_error (_("%s takes a single PATH"), command);
      return FALSE;
    }

  *path = (*argv)[1];
  return TRUE;
}

/* The reason the last g_print failed: it flushes every string, so a later
 * flush of stdout has nothing left to fail on. */
static int print_errno;

/* g_print's own handler, with the reason of a failed write kept. */
static void
print_to_stdout (const char *string)
{
  g_autofree char *converted = NULL;
  const char *charset;

  if (!g_get_console_charset (&charset) &&
      (converted = g_convert_with_fallback (string, -1, charset, "UTF-8", "?", NULL, NULL, NULL)) != NULL)
    string = converted;
  if (fputs (string, stdout) == EOF || fflush (stdout) != 0)
    print_errno = errno;
}

/* Every command prints through stdout's FILE: a full disk, a closed
 * descriptor or a failing device shows here, after the command, as an
 * exit status of 1 and the reason, instead of output silently cut short. */
static int
finish_output (int status)
{
  int reason = 0;

  if (fflush (stdout) != 0)
    reason = errno;
  else if (ferror (stdout))
    reason = print_errno != 0 ? print_errno : EIO;
  if (fclose (stdout) != 0 && reason == 0)
    reason = errno;
  if (reason == 0)
    return status;

  sl_cli_print_error (_("cannot write the output to standard output: %s"), g_strerror (reason));
  return status != 0 ? status : 1;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n\n", _("Usage: sightline-cli COMMAND [OPTIONS…]"));
  fprintf (stream, "%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-12s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “sightline-cli COMMAND --help” for the options of a command."));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  /* SIGHTLINE_LOCALEDIR lets an uninstalled build find its translations. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SIGHTLINE_LOCALEDIR") ? g_getenv ("SIGHTLINE_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_print_handler (print_to_stdout);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage (argc < 2 ? stderr : stdout);
      return finish_output (argc < 2 ? 2 : 0);
    }

  if (g_str_equal (argv[1], "--version"))
    {
      printf ("sightline-cli %s\n", PACKAGE_VERSION);
      return finish_output (0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (g_str_equal (argv[1], commands[i].name))
        return finish_output (commands[i].func (argc - 1, argv + 1));
    }

  sl_cli_print_error (_("unknown command “%s”"), argv[1]);
  print_usage (stderr);
  return 2;
}
