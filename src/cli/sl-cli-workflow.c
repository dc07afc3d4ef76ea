/* sl-cli-workflow.c: what profile-run, convert and job run --kind mindx share
 *
 * The preflight on the target, the run as a job of a session (as the
 * windows run it, so the job history keeps it the same way), the log and
 * other files pulled into the cache, and the problems printed as text or
 * as JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cache.h"
#include "sl-cli.h"
#include "sl-job-controller.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-session.h"
#include "sl-shell-quote.h"
#include "sl-workflow-preflight.h"

/* Sourcing the environment script, then exports, as the job's set-up. */
char *
sl_cli_workflow_dup_env_setup (const char         *env_script,
                               const char * const *environment)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (env_script != NULL)
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (env_script);

      g_string_append_printf (out, ". %s\n", quoted);
    }
  for (guint i = 0; environment != NULL && environment[i] != NULL; i++)
    {
      const char *equals = strchr (environment[i], '=');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (equals == NULL)
        continue;
      name = g_strndup (environment[i], equals - environment[i]);
      value = sl_shell_quote (equals + 1);
      g_string_append_printf (out, "export %s=%s\n", name, value);
    }
  /* The job wrapper ends each set-up line itself. */
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/* Runs the preflight; its problems go to @problems. FALSE when one is an error. */
gboolean
sl_cli_workflow_preflight (SlTargetShell         *shell,
                           const SlPreflightSpec *spec,
                           GPtrArray             *problems)
{
  g_autofree char *script = sl_preflight_dup_script (spec);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  int status = -1;

  if (!sl_target_shell_run (shell, script, &out, &err, &status, NULL, &error))
    {
      g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, "preflight", NULL, -1, error->message));
      return FALSE;
    }
  found = sl_preflight_parse (spec, out);
  for (guint i = 0; i < found->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (found, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        ok = FALSE;
      g_ptr_array_add (problems, g_object_ref (problem));
    }
  return ok;
}

static const char *
hint_or_empty (SlProblem *problem)
{
  return sl_problem_get_hint (problem) ? sl_problem_get_hint (problem) : "";
}

void
sl_cli_workflow_print_problems (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *where = NULL;

      if (sl_problem_get_path (problem) != NULL && sl_problem_get_line (problem) > 0)
        where = g_strdup_printf ("%s:%u: ", sl_problem_get_path (problem), sl_problem_get_line (problem));
      g_printerr ("%s%s: %s%s%s%s%s\n", where ? where : "", sl_severity_to_string (sl_problem_get_severity (problem)),
                  sl_problem_get_code (problem) ? sl_problem_get_code (problem) : "",
                  sl_problem_get_code (problem) ? " " : "",
                  sl_problem_get_subject (problem) ? sl_problem_get_subject (problem) : "",
                  sl_problem_get_subject (problem) ? ": " : "", sl_problem_get_message (problem));
      if (sl_problem_get_hint (problem) != NULL)
        g_printerr ("  %s\n", hint_or_empty (problem));
    }
}

void
sl_cli_workflow_add_problems (JsonBuilder *builder,
                              GPtrArray   *problems)
{
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "severity", sl_severity_to_string (sl_problem_get_severity (problem)));
      sl_cli_json_add_string (builder, "source", sl_problem_get_source (problem));
      sl_cli_json_add_string (builder, "code", sl_problem_get_code (problem));
      sl_cli_json_add_string (builder, "message", sl_problem_get_message (problem));
      sl_cli_json_add_string (builder, "option", sl_problem_get_subject (problem));
      sl_cli_json_add_string (builder, "log", sl_problem_get_path (problem));
      sl_cli_json_add_string (builder, "local_log", sl_problem_get_local_copy (problem));
      sl_cli_json_add_int (builder, "line", sl_problem_get_line (problem));
      sl_cli_json_add_string (builder, "hint", sl_problem_get_hint (problem));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

gboolean
sl_cli_workflow_has_error (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR)
      return TRUE;
  return FALSE;
}

/**
 * sl_cli_workflow_run:
 * @workflow: set up, with the workspace database it records its job in
 *
 * Runs @workflow as a job of a session on its workspace, as the
 * windows' Profile, Convert and MindX do, while this thread waits for it
 * and for Ctrl+C, which cancels the run (a started job is stopped on its
 * target and seen to end first).
 *
 * Returns: %FALSE with @error only when nothing could be tried or the
 *   run was interrupted
 */
gboolean
sl_cli_workflow_run (SlWorkflow  *workflow,
                     GError     **error)
{
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (sl_workflow_get_store_path (workflow));
  g_autoptr(SlSession) session = sl_session_new (workspace);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SlCliInterrupt interrupt = { 0 };
  gboolean ok;

  sl_cli_interrupt_begin (&interrupt, cancellable);
  ok = sl_session_run_workflow_sync (session, workflow, cancellable, error);
  sl_cli_interrupt_end (&interrupt);
  sl_workspace_flush (workspace);
  return ok;
}
