/* sl-workspace-store-jobs.c: the job history, in the jobs table
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

#define JOB_COLUMNS \
  "id, command, target_id, target_name, project_id, project_name, started_at, " \
  "finished_at, exit_code, log_path, remote_folder, state, backend, backend_job_id, " \
  "backend_state, backend_reason, outcome_reason"

/**
 * sl_workspace_store_add_job:
 * @job: a job that is not stored yet; its id is set on success, and the
 *   target and project names when they were not set
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_add_job (SlWorkspaceStore  *self,
                            SlJobRecord       *job,
                            GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project_name = NULL;
  gint64 job_id = 0;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (sl_job_record_get_command (job)[0] == '\0')
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                           _("A job needs a command."));
      return FALSE;
    }

  /* The names are copied from the target and project unless given, so
   * the history keeps them when those are renamed or removed. */
  stmt = prepare (self,
                  "INSERT INTO jobs (command, target_id, target_name, project_id, project_name, "
                  "                  started_at, finished_at, exit_code, log_path, remote_folder, state, "
                  "                  backend, backend_job_id, backend_state, backend_reason) "
                  "VALUES (?1, ?2, ifnull (?3, (SELECT name FROM targets WHERE id = ?2)), "
                  "        ?4, ifnull (?5, (SELECT name FROM projects WHERE id = ?4)), "
                  "        ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
                  "RETURNING id, target_name, project_name",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, sl_job_record_get_command (job));
  bind_id (stmt, 2, sl_job_record_get_target_id (job));
  bind_text (stmt, 3, sl_job_record_get_target_name (job));
  bind_id (stmt, 4, sl_job_record_get_project_id (job));
  bind_text (stmt, 5, sl_job_record_get_project_name (job));
  sqlite3_bind_int64 (stmt, 6, sl_job_record_get_started_at (job));
  bind_id (stmt, 7, sl_job_record_get_finished_at (job));
  if (sl_job_record_has_exit_code (job))
    sqlite3_bind_int (stmt, 8, sl_job_record_get_exit_code (job));
  else
    sqlite3_bind_null (stmt, 8);
  bind_text (stmt, 9, sl_job_record_get_log_path (job));
  bind_text (stmt, 10, sl_job_record_get_remote_folder (job));
  bind_text (stmt, 11, sl_job_state_to_id (sl_job_record_get_state (job)));
  bind_text (stmt, 12, sl_job_record_get_backend (job));
  bind_text (stmt, 13, sl_job_record_get_backend_job_id (job));
  bind_text (stmt, 14, sl_job_record_get_backend_state (job));
  bind_text (stmt, 15, sl_job_record_get_backend_reason (job));

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      job_id = sqlite3_column_int64 (stmt, 0);
      target_name = g_strdup (column_text (stmt, 1));
      project_name = g_strdup (column_text (stmt, 2));
      rc = sqlite3_step (stmt);
    }

  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                           _("The target or project of the job is not in the workspace. Choose another one."));
      return FALSE;
    }

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot save the job history"));
      return FALSE;
    }

  sl_job_record_set_id (job, job_id);
  sl_job_record_set_target_name (job, target_name);
  sl_job_record_set_project_name (job, project_name);
  return TRUE;
}

/**
 * sl_workspace_store_finish_job:
 * @job: a stored job whose state was set to how it ended, and its exit
 *   code when it has one; a finish time of 0 is set to now
 *
 * Saves the end of @job: its state, finish time and exit code.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_finish_job (SlWorkspaceStore  *self,
                               SlJobRecord       *job,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (sl_job_record_get_id (job) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!sl_job_state_is_finished (sl_job_record_get_state (job)))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The job “%s” has not ended yet: set how it ended before saving its end."),
                   sl_job_record_get_command (job));
      return FALSE;
    }

  if (sl_job_record_get_finished_at (job) == 0)
    sl_job_record_set_finished_at (job, g_get_real_time ());

  stmt = prepare (self, "UPDATE jobs SET finished_at = ?1, exit_code = ?2, state = ?3, "
                  "backend_state = ifnull (?5, backend_state), backend_reason = ?6 WHERE id = ?4", error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, sl_job_record_get_finished_at (job));
  if (sl_job_record_has_exit_code (job))
    sqlite3_bind_int (stmt, 2, sl_job_record_get_exit_code (job));
  else
    sqlite3_bind_null (stmt, 2);
  bind_text (stmt, 3, sl_job_state_to_id (sl_job_record_get_state (job)));
  sqlite3_bind_int64 (stmt, 4, sl_job_record_get_id (job));
  bind_text (stmt, 5, sl_job_record_get_backend_state (job));
  bind_text (stmt, 6, sl_job_record_get_backend_reason (job));

  if (!step_done (self, stmt, _("Cannot save the job history"), error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Job %lld is not in the job history. Reload the list of jobs."),
                   (long long)sl_job_record_get_id (job));
      return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_update_job:
 * @job: a stored job that has not ended
 *
 * Saves what the backend said of @job while it waits or runs: its id
 * there, its state word and reason, and whether it is queued or running.
 * A job whose end was saved already is left as it is.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_update_job (SlWorkspaceStore  *self,
                               SlJobRecord       *job,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (sl_job_record_get_id (job) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stmt = prepare (self,
                  "UPDATE jobs SET state = ?2, backend_job_id = ifnull (?3, backend_job_id), "
                  "backend_state = ?4, backend_reason = ?5 "
                  "WHERE id = ?1 AND state IN ('queued', 'running')",
                  error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, sl_job_record_get_id (job));
  bind_text (stmt, 2, sl_job_state_to_id (sl_job_record_get_state (job)));
  bind_text (stmt, 3, sl_job_record_get_backend_job_id (job));
  bind_text (stmt, 4, sl_job_record_get_backend_state (job));
  bind_text (stmt, 5, sl_job_record_get_backend_reason (job));
  return step_done (self, stmt, _("Cannot save the job history"), error);
}

/**
 * sl_workspace_store_set_job_outcome:
 * @job_id: a job of the history that ended with an exit code
 * @state: %SL_JOB_STATE_SUCCEEDED or %SL_JOB_STATE_FAILED
 * @reason: (nullable): why, when it is not what the exit code says
 *
 * Records the verdict of the workflow that ran the job on its output. A
 * job that was stopped, or lost, keeps that state.
 *
 * Returns: %TRUE on success; %FALSE with %SL_WORKSPACE_STORE_ERROR_NOT_FOUND
 *   when no job with an exit code has that id
 */
gboolean
sl_workspace_store_set_job_outcome (SlWorkspaceStore  *self,
                                    gint64             job_id,
                                    SlJobState         state,
                                    const char        *reason,
                                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (job_id > 0, FALSE);
  g_return_val_if_fail (state == SL_JOB_STATE_SUCCEEDED || state == SL_JOB_STATE_FAILED, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stmt = prepare (self,
                  "UPDATE jobs SET state = ?2, outcome_reason = ?3 "
                  "WHERE id = ?1 AND state IN ('succeeded', 'failed') AND exit_code IS NOT NULL",
                  error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, job_id);
  bind_text (stmt, 2, sl_job_state_to_id (state));
  bind_text (stmt, 3, reason);
  if (!step_done (self, stmt, _("Cannot save the job history"), error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Job %lld is not in the job history with an exit code; its outcome was not recorded."),
                   (long long)job_id);
      return FALSE;
    }
  return TRUE;
}

static gpointer
job_from_row (SlWorkspaceStore  *self,
              sqlite3_stmt      *stmt,
              gpointer           data,
              GError           **error)
{
  SlJobState state = SL_JOB_STATE_LOST;
  SlJobRecord *job;

  sl_job_state_from_id (column_text (stmt, 11), &state);

  job = sl_job_record_new (column_text (stmt, 1), MAX (sqlite3_column_int64 (stmt, 2), 0));
  sl_job_record_set_id (job, sqlite3_column_int64 (stmt, 0));
  sl_job_record_set_target_name (job, column_text (stmt, 3));
  sl_job_record_set_project_id (job, MAX (sqlite3_column_int64 (stmt, 4), 0));
  sl_job_record_set_project_name (job, column_text (stmt, 5));
  sl_job_record_set_started_at (job, sqlite3_column_int64 (stmt, 6));
  sl_job_record_set_finished_at (job, sqlite3_column_int64 (stmt, 7));
  if (sqlite3_column_type (stmt, 8) != SQLITE_NULL)
    sl_job_record_set_exit_code (job, sqlite3_column_int (stmt, 8));
  sl_job_record_set_log_path (job, column_text (stmt, 9));
  sl_job_record_set_remote_folder (job, column_text (stmt, 10));
  sl_job_record_set_state (job, state);
  if (column_text (stmt, 12) != NULL)
    sl_job_record_set_backend (job, column_text (stmt, 12));
  sl_job_record_set_backend_job_id (job, column_text (stmt, 13));
  sl_job_record_set_backend_state (job, column_text (stmt, 14), column_text (stmt, 15));
  sl_job_record_set_outcome_reason (job, column_text (stmt, 16));

  return job;
}

/**
 * sl_workspace_store_list_jobs:
 * @limit: the most jobs to return, or 0 for all
 *
 * Returns: (transfer full) (element-type SlJobRecord): the job history,
 *   newest first
 */
GPtrArray *
sl_workspace_store_list_jobs (SlWorkspaceStore  *self,
                              guint              limit,
                              GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT " JOB_COLUMNS " FROM jobs ORDER BY started_at DESC, id DESC LIMIT ?1", error);
  if (stmt == NULL)
    return NULL;

  /* A negative LIMIT means no limit to SQLite. */
  sqlite3_bind_int64 (stmt, 1, limit > 0 ? (sqlite3_int64)limit : -1);

  return sl_workspace_store_read_rows (self, stmt, job_from_row, NULL, g_object_unref,
                                       _("Cannot read the job history"), error);
}
