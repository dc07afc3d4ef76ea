/* sl-cli-trace-load.c: the one place where the trace commands turn a PATH
 * into a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace-loader.h"
#include "sl-cli.h"

/**
 * sl_cli_load_trace:
 * @path: a Chrome trace file (plain or gzip), a profiler folder or a
 *   profiler SQLite export
 *
 * Returns: (transfer full): the trace, or %NULL with @error set when
 *   @path cannot be read at all (damage inside is in the trace's problems)
 */
SlTrace *
sl_cli_load_trace (const char  *path,
                   GError     **error)
{
  return sl_trace_load_path (path, NULL, NULL, NULL, error);
}

/**
 * sl_cli_print_trace_problems:
 *
 * Lists the trace's problems on stderr, one a line.
 */
void
sl_cli_print_trace_problems (SlTrace *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);

      if (location != NULL)
        fprintf (stderr, "  %s: %s (%s): %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
                 sl_problem_get_path (problem), location, sl_problem_get_message (problem));
      else
        fprintf (stderr, "  %s: %s: %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
                 sl_problem_get_path (problem), sl_problem_get_message (problem));
    }
}

/**
 * sl_cli_trace_exit_status:
 *
 * What a trace command exits with once it has done its work on a trace
 * it could open: 1 when reading it met an error (damaged JSON or gzip,
 * nesting no trace has, an empty file), whose events after the damage
 * are missing from what was printed or written; 0 when it was read whole,
 * warnings or not. As pipeline-check does for pipelines.
 */
int
sl_cli_trace_exit_status (SlTrace *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        return 1;
    }
  return 0;
}

/**
 * sl_cli_parse_trace_time:
 *
 * Parses microseconds (fractions allowed) into nanoseconds.
 */
gboolean
sl_cli_parse_trace_time (const char *text,
                         gint64     *ns)
{
  return text != NULL && sl_chrome_trace_parse_us (text, strlen (text), ns);
}
