/* sl-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-job.h"
#include "sl-shell-quote.h"

struct _SlJob
{
  gatomicrefcount   ref_count;
  char             *id;
  char             *dir;
  char            **argv;
  char             *working_dir;
  char             *env_setup;
  char             *backend_id;
  char             *backend_state;
  char             *backend_reason;
  gboolean          disk_full;
};

G_DEFINE_BOXED_TYPE (SlJob, sl_job, sl_job_ref, sl_job_unref)

/**
 * sl_job_dup_new_id:
 *
 * Returns: (transfer full): a new job id: the start time and a random
 *   part, safe as a file name and sorted by time
 */
char *
sl_job_dup_new_id (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%S");

  return g_strdup_printf ("%s-%06x", stamp, g_random_int () & 0xffffff);
}

/**
 * sl_job_new:
 * @argv: the program and its arguments
 * @working_dir: the folder on the target to run in
 * @base_dir: the folder on the target that holds ".sightline/jobs"
 *
 * Returns: (transfer full): a job that is not launched yet, with a new id
 */
SlJob *
sl_job_new (const char * const *argv,
            const char         *working_dir,
            const char         *base_dir)
{
  g_autofree char *id = sl_job_dup_new_id ();

  return sl_job_new_with_id (argv, working_dir, base_dir, id);
}

/**
 * sl_job_new_with_id:
 * @id: the job's id, from sl_job_dup_new_id(); the same id gives the same
 *   job folder, so what was shown before a run is what runs
 *
 * Returns: (transfer full): a job that is not launched yet
 */
SlJob *
sl_job_new_with_id (const char * const *argv,
                    const char         *working_dir,
                    const char         *base_dir,
                    const char         *id)
{
  SlJob *job;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (working_dir != NULL, NULL);
  g_return_val_if_fail (base_dir != NULL, NULL);
  g_return_val_if_fail (id != NULL && id[0] != '\0' && strchr (id, '/') == NULL, NULL);

  job = g_new0 (SlJob, 1);
  g_atomic_ref_count_init (&job->ref_count);
  job->id = g_strdup (id);
  job->dir = g_build_path ("/", base_dir, ".sightline", "jobs", job->id, NULL);
  job->argv = g_strdupv ((char **)argv);
  job->working_dir = g_strdup (working_dir);
  return job;
}

/**
 * sl_job_new_for_dir:
 * @job_dir: the folder of a launched job
 *
 * Returns: (transfer full): a job found again from its folder, to watch,
 *   read or stop
 */
SlJob *
sl_job_new_for_dir (const char *job_dir)
{
  SlJob *job;

  g_return_val_if_fail (job_dir != NULL, NULL);

  job = g_new0 (SlJob, 1);
  g_atomic_ref_count_init (&job->ref_count);
  job->id = g_path_get_basename (job_dir);
  job->dir = g_strdup (job_dir);
  return job;
}

SlJob *
sl_job_ref (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  g_atomic_ref_count_inc (&job->ref_count);
  return job;
}

void
sl_job_unref (SlJob *job)
{
  g_return_if_fail (job != NULL);

  if (!g_atomic_ref_count_dec (&job->ref_count))
    return;

  g_free (job->id);
  g_free (job->dir);
  g_strfreev (job->argv);
  g_free (job->working_dir);
  g_free (job->env_setup);
  g_free (job->backend_id);
  g_free (job->backend_state);
  g_free (job->backend_reason);
  g_free (job);
}

const char *
sl_job_get_id (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->id;
}

const char *
sl_job_get_dir (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->dir;
}

/**
 * sl_job_dup_file_path:
 * @name: "cmd", "pid", "exit_code", "log" or "run.sh"
 *
 * Returns: (transfer full): the path of that file of the job folder
 */
char *
sl_job_dup_file_path (SlJob      *job,
                      const char *name)
{
  g_return_val_if_fail (job != NULL, NULL);
  return g_build_path ("/", job->dir, name, NULL);
}

char *
sl_job_dup_log_path (SlJob *job)
{
  return sl_job_dup_file_path (job, "log");
}

const char *
sl_job_get_working_dir (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->working_dir;
}

/**
 * sl_job_get_argv:
 *
 * Returns: (nullable): the program and arguments; %NULL for a job found
 *   again from its folder
 */
const char * const *
sl_job_get_argv (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return (const char * const *)job->argv;
}

/**
 * sl_job_dup_command_line:
 *
 * Returns: (transfer full) (nullable): the program and its arguments as
 *   one shell command line, every argument quoted
 */
char *
sl_job_dup_command_line (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->argv != NULL ? sl_shell_quote_argv ((const char * const *)job->argv) : NULL;
}

const char *
sl_job_get_env_setup (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->env_setup;
}

/**
 * sl_job_set_env_setup:
 * @command: (nullable): a shell command run before the job, such as
 *   sourcing the toolkit's set_env.sh; it is the user's own shell text
 *   and is not quoted
 */
void
sl_job_set_env_setup (SlJob      *job,
                      const char *command)
{
  g_return_if_fail (job != NULL);

  g_free (job->env_setup);
  job->env_setup = command != NULL && command[0] != '\0' ? g_strdup (command) : NULL;
}

/**
 * sl_job_get_backend_id:
 *
 * Returns: (nullable): what the backend knows the job by: a process
 *   group id, a scheduler's job id
 */
const char *
sl_job_get_backend_id (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->backend_id;
}

void
sl_job_set_backend_id (SlJob      *job,
                       const char *id)
{
  g_return_if_fail (job != NULL);

  g_free (job->backend_id);
  job->backend_id = g_strdup (id);
}

/**
 * sl_job_get_backend_state:
 *
 * Returns: (nullable): the scheduler's word for how the job is doing, as
 *   last seen (Slurm's PENDING, RUNNING, COMPLETED, ...)
 */
const char *
sl_job_get_backend_state (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->backend_state;
}

/**
 * sl_job_get_backend_reason:
 *
 * Returns: (nullable): the scheduler's reason for that state, such as
 *   why a job waits
 */
const char *
sl_job_get_backend_reason (SlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->backend_reason;
}

/**
 * sl_job_get_disk_full:
 *
 * Returns: %TRUE when the job was last seen with the disk of its folder
 *   full, so that its log or exit status could not be written
 */
gboolean
sl_job_get_disk_full (SlJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);
  return job->disk_full;
}

void
sl_job_set_disk_full (SlJob    *job,
                      gboolean  disk_full)
{
  g_return_if_fail (job != NULL);
  job->disk_full = disk_full;
}

void
sl_job_set_backend_state (SlJob      *job,
                          const char *state,
                          const char *reason)
{
  g_return_if_fail (job != NULL);

  g_free (job->backend_state);
  job->backend_state = g_strdup (state);
  g_free (job->backend_reason);
  job->backend_reason = g_strdup (reason);
}
