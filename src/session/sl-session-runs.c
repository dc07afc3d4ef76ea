/* sl-session-runs.c: the session runs programs, here or on a target
 *
 * Every job goes through the session's one job controller: it is kept
 * in the history (and so in every window's Jobs list) and its output
 * comes out as the session's job signals. What runs now, the jobs and
 * the workflows' runs, is asked about before the last window closes,
 * and can be stopped all at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-session-private.h"

/* What could not be run is a Problem of the session too. */
static gboolean
report_run_error (SlSession   *self,
                  const char  *working_dir,
                  GError     **error)
{
  g_autoptr(SlProblem) problem = NULL;

  if (error == NULL || *error == NULL)
    return FALSE;
  problem = sl_problem_new (SL_SEVERITY_ERROR, _("Run"), working_dir, -1, (*error)->message);
  sl_session_add_problem (self, problem);
  return FALSE;
}

/**
 * sl_session_run_argv:
 * @working_dir: (nullable): where to run; folders opened in the workspace
 *   that contain it, or are inside it, are scanned again when the job ends
 *
 * Runs a program on this computer, its output coming out as
 * #SlSession::job-output and the job kept in the history. What could
 * not be started goes to the session's problems too.
 *
 * Returns: %TRUE when it started
 */
gboolean
sl_session_run_argv (SlSession           *self,
                     const char * const  *argv,
                     const char          *working_dir,
                     GError             **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  if (sl_job_controller_run_local (self->jobs, argv, working_dir, &local_error))
    return TRUE;
  report_run_error (self, working_dir, &local_error);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * sl_session_run_command:
 * @command_line: a command with arguments quoted as in a POSIX shell
 *
 * Returns: %TRUE when it started
 */
gboolean
sl_session_run_command (SlSession   *self,
                        const char  *command_line,
                        const char  *working_dir,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (command_line != NULL, FALSE);

  if (!g_shell_parse_argv (command_line, NULL, &argv, &local_error))
    {
      g_autoptr(GError) unread = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                              _("The command “%s” could not be read: %s"),
                                              command_line, local_error->message);

      report_run_error (self, working_dir, &unread);
      g_propagate_error (error, g_steal_pointer (&unread));
      return FALSE;
    }

  return sl_session_run_argv (self, (const char * const *)argv, working_dir, error);
}

/**
 * sl_session_run_on_target:
 * @target_id: the target (for Slurm, the login node's; this computer's
 *   included)
 * @project_dir: the local folder uploaded and run in
 * @pull_dirs: (nullable): output folders under it, space-separated
 * @remote_dir: (nullable): where it goes on the target
 * @excludes: (nullable): patterns not to upload, instead of the defaults
 * @slurm: (nullable): submit the job to Slurm with these options; %NULL
 *   starts it directly
 *
 * Uploads @project_dir, starts @command_line there as a detached job,
 * streams its log, pulls the output folders into the cache while it runs
 * and asks for them to be opened in the Workspace.
 *
 * Returns: %TRUE when the run began
 */
gboolean
sl_session_run_on_target (SlSession            *self,
                          gint64                target_id,
                          const char           *command_line,
                          const char           *project_dir,
                          const char           *pull_dirs,
                          const char           *remote_dir,
                          const char * const   *excludes,
                          const SlSlurmOptions *slurm,
                          GError              **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  return sl_job_controller_run_on_target_full (self->jobs, target_id, command_line, project_dir, pull_dirs,
                                               remote_dir, excludes, slurm, error);
}

/**
 * sl_session_run_remote_sync:
 * @run: a run set up by the caller
 *
 * Follows @run with the session's job controller for programs without a
 * main loop (the command line): returns once it ended, as
 * sl_job_controller_run_remote_sync() does.
 *
 * Returns: %FALSE when the run failed before an exit code (with @error)
 */
gboolean
sl_session_run_remote_sync (SlSession    *self,
                            SlRemoteRun  *run,
                            const char   *command_line,
                            SlJobStatus  *status,
                            int          *exit_code,
                            GError      **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  return sl_job_controller_run_remote_sync (self->jobs, run, command_line, status, exit_code, error);
}

/**
 * sl_session_stop_job:
 * @job: a job's number, from the job signals
 *
 * Stops that job: a workflow's run is cancelled (its job stopped, and
 * nothing more done), another job is stopped as sl_session_stop() does.
 */
void
sl_session_stop_job (SlSession *self,
                     guint      job)
{
  g_return_if_fail (SL_IS_SESSION (self));

  for (guint i = 0; job != 0 && i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);

      if (sl_workflow_get_controller_job (SL_WORKFLOW (run->workflow)) == job && run->cancellable != NULL)
        {
          g_cancellable_cancel (run->cancellable);
          return;
        }
    }
  sl_job_controller_stop_job (self->jobs, job);
}

/**
 * sl_session_stop:
 *
 * Stops what the Console follows: the controller's job (a local program
 * is killed, a job on a target gets SIGTERM, then SIGKILL), and the
 * MindX and Profile runs (a conversion is stopped from its dialog).
 */
void
sl_session_stop (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  sl_job_controller_stop (self->jobs);
  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);

      if (run->cancellable != NULL)
        g_cancellable_cancel (run->cancellable);
    }
}

/* What runs now */

typedef struct {
  char     *title;
  gboolean  local;
} RunningJob;

void
_sl_session_running_job_free (gpointer data)
{
  RunningJob *running = data;

  g_free (running->title);
  g_free (running);
}

void
_sl_session_job_began (SlSession  *self,
                       guint       job,
                       const char *title,
                       gboolean    local)
{
  RunningJob *running = g_new0 (RunningJob, 1);

  running->title = g_strdup (title);
  running->local = local;
  g_hash_table_replace (self->running, GUINT_TO_POINTER (job), running);
  _sl_session_update_running (self);
}

void
_sl_session_job_ended (SlSession *self,
                       guint      job)
{
  g_hash_table_remove (self->running, GUINT_TO_POINTER (job));
  _sl_session_update_running (self);
}

/* The workflow run whose job @job is, or NULL. */
static SlSessionRun *
find_run_of_job (SlSession *self,
                 guint      job)
{
  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);

      if (sl_workflow_get_controller_job (SL_WORKFLOW (run->workflow)) == job)
        return run;
    }
  return NULL;
}

static int
compare_jobs (gconstpointer a,
              gconstpointer b)
{
  guint first = GPOINTER_TO_UINT (*(gpointer *)a);
  guint second = GPOINTER_TO_UINT (*(gpointer *)b);

  return first < second ? -1 : first > second;
}

/* The controller's jobs running, oldest first. */
static GPtrArray *
dup_jobs (SlSession *self)
{
  GPtrArray *jobs = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer job;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, &job, NULL))
    g_ptr_array_add (jobs, job);
  g_ptr_array_sort (jobs, compare_jobs);
  return jobs;
}

/* Those that are no workflow's. */
static GPtrArray *
dup_own_jobs (SlSession *self)
{
  g_autoptr(GPtrArray) jobs = dup_jobs (self);
  GPtrArray *own = g_ptr_array_new ();

  for (guint i = 0; i < jobs->len; i++)
    if (find_run_of_job (self, GPOINTER_TO_UINT (g_ptr_array_index (jobs, i))) == NULL)
      g_ptr_array_add (own, g_ptr_array_index (jobs, i));
  return own;
}

void
_sl_session_update_running (SlSession *self)
{
  guint n = sl_session_get_n_running (self);

  if (n == self->n_running)
    return;
  self->n_running = n;
  g_object_notify (G_OBJECT (self), "n-running");
}

/**
 * sl_session_get_n_running:
 *
 * Returns: how many jobs and workflow runs the session runs now; a
 *   workflow's job is its run's
 */
guint
sl_session_get_n_running (SlSession *self)
{
  g_autoptr(GPtrArray) own = NULL;

  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  own = dup_own_jobs (self);
  return own->len + self->runs->len;
}

/**
 * sl_session_dup_running:
 * @kinds: (out) (optional) (element-type SlSessionWork): what each is
 *
 * Returns: (transfer full): what each job and workflow run the session
 *   runs now is called, the jobs first
 */
char **
sl_session_dup_running (SlSession  *self,
                        GArray    **kinds)
{
  g_autoptr(GStrvBuilder) titles = g_strv_builder_new ();
  g_autoptr(GPtrArray) own = NULL;
  GArray *what = g_array_new (FALSE, FALSE, sizeof (SlSessionWork));

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  own = dup_own_jobs (self);
  for (guint i = 0; i < own->len; i++)
    {
      RunningJob *running = g_hash_table_lookup (self->running, g_ptr_array_index (own, i));
      SlSessionWork kind = running->local ? SL_SESSION_WORK_LOCAL : SL_SESSION_WORK_DETACHED;

      g_strv_builder_add (titles, running->title);
      g_array_append_val (what, kind);
    }
  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);
      SlSessionWork kind = SL_SESSION_WORK_WORKFLOW;

      g_strv_builder_add (titles, run->title);
      g_array_append_val (what, kind);
    }
  if (kinds != NULL)
    *kinds = what;
  else
    g_array_unref (what);
  return g_strv_builder_end (titles);
}

/**
 * sl_session_stop_all:
 *
 * Stops everything the session runs: each job of its controller (a
 * local program is killed, a job on a target gets SIGTERM, then
 * SIGKILL) and each workflow's run. "n-running" comes down to 0 as
 * each is seen to end.
 */
void
sl_session_stop_all (SlSession *self)
{
  g_autoptr(GPtrArray) jobs = NULL;

  g_return_if_fail (SL_IS_SESSION (self));

  jobs = dup_jobs (self);
  for (guint i = 0; i < jobs->len; i++)
    sl_job_controller_stop_job (self->jobs, GPOINTER_TO_UINT (g_ptr_array_index (jobs, i)));
  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);

      if (run->cancellable != NULL)
        g_cancellable_cancel (run->cancellable);
    }
}
