/* sl-workspace-store-tuner.c: the tuner's tables (schema version 3)
 *
 * Part of SlWorkspaceStore. Every value is a bound parameter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-workspace-store-private.h"
#include "sl-workspace-store-tuner.h"

#define STUDY_COLUMNS \
  "id, config_path, config_text, target_name, project_folder, seed, max_trials, parallel, created_at, state"
#define TRIAL_COLUMNS \
  "study_id, number, name, params, point, state, value, reason, job_id, summary_dir, started_at, finished_at"

void
sl_tuner_study_row_free (SlTunerStudyRow *row)
{
  if (row == NULL)
    return;
  g_free (row->config_path);
  g_free (row->config_text);
  g_free (row->target_name);
  g_free (row->project_folder);
  g_free (row->state);
  g_free (row);
}

static sqlite3_stmt *
prepare_study (SlWorkspaceStore  *self,
               const char        *sql,
               GError           **error)
{
  return sl_workspace_store_prepare (self, sql, _("Cannot read the tuner studies"), error);
}

static gboolean
step_study_done (SlWorkspaceStore  *self,
                 sqlite3_stmt      *stmt,
                 GError           **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot save the tuner study"));
      return FALSE;
    }
  return TRUE;
}

static SlTunerStudyRow *
study_from_row (sqlite3_stmt *stmt)
{
  SlTunerStudyRow *row = g_new0 (SlTunerStudyRow, 1);

  row->id = sqlite3_column_int64 (stmt, 0);
  row->config_path = column_dup (stmt, 1);
  row->config_text = column_dup (stmt, 2);
  row->target_name = column_dup (stmt, 3);
  row->project_folder = column_dup (stmt, 4);
  row->seed = (guint32)sqlite3_column_int64 (stmt, 5);
  row->max_trials = (guint)sqlite3_column_int64 (stmt, 6);
  row->parallel = (guint)sqlite3_column_int64 (stmt, 7);
  row->created_at = sqlite3_column_int64 (stmt, 8);
  row->state = column_dup (stmt, 9);
  return row;
}

/* One row or none; FALSE only on an error. */
static gboolean
step_study (SlWorkspaceStore  *self,
            sqlite3_stmt      *stmt,
            SlTunerStudyRow  **row,
            GError           **error)
{
  int rc = sqlite3_step (stmt);

  *row = NULL;
  if (rc == SQLITE_ROW)
    *row = study_from_row (stmt);
  else if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot read the tuner studies"));
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_workspace_store_add_tuner_study:
 * @row: its id is set on success
 */
gboolean
sl_workspace_store_add_tuner_study (SlWorkspaceStore  *self,
                                    SlTunerStudyRow   *row,
                                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (row != NULL && row->config_path != NULL && row->config_text != NULL, FALSE);
  g_return_val_if_fail (row->target_name != NULL && row->project_folder != NULL, FALSE);

  if (row->created_at == 0)
    row->created_at = g_get_real_time ();
  if (row->state == NULL)
    row->state = g_strdup ("running");

  stmt = prepare_study (self, "INSERT INTO tuner_studies (config_path, config_text, target_name, project_folder, seed, "
                        "max_trials, parallel, created_at, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
                        "RETURNING id", error);
  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, 1, row->config_path);
  bind_text (stmt, 2, row->config_text);
  bind_text (stmt, 3, row->target_name);
  bind_text (stmt, 4, row->project_folder);
  sqlite3_bind_int64 (stmt, 5, row->seed);
  sqlite3_bind_int64 (stmt, 6, row->max_trials);
  sqlite3_bind_int64 (stmt, 7, row->parallel);
  sqlite3_bind_int64 (stmt, 8, row->created_at);
  bind_text (stmt, 9, row->state);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      sl_workspace_store_set_error (self, error, sqlite3_errcode (sl_workspace_store_get_db (self)),
                                    _("Cannot save the tuner study"));
      return FALSE;
    }
  row->id = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

/**
 * sl_workspace_store_find_tuner_study:
 *
 * Returns: (transfer full) (nullable): the newest study of the same
 *   configuration file, text and target, whatever its state: running it
 *   again continues it; %NULL without @error when there is none
 */
SlTunerStudyRow *
sl_workspace_store_find_tuner_study (SlWorkspaceStore  *self,
                                     const char        *config_path,
                                     const char        *config_text,
                                     const char        *target_name,
                                     GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  SlTunerStudyRow *row = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);

  stmt = prepare_study (self, "SELECT " STUDY_COLUMNS " FROM tuner_studies WHERE config_path = ?1 AND config_text = ?2 "
                        "AND target_name = ?3 ORDER BY id DESC LIMIT 1", error);
  if (stmt == NULL)
    return NULL;
  bind_text (stmt, 1, config_path);
  bind_text (stmt, 2, config_text);
  bind_text (stmt, 3, target_name);
  step_study (self, stmt, &row, error);
  return row;
}

/**
 * sl_workspace_store_find_latest_tuner_study:
 *
 * Returns: (transfer full) (nullable): the newest study of the
 *   configuration file on any target, %NULL without @error when none
 */
SlTunerStudyRow *
sl_workspace_store_find_latest_tuner_study (SlWorkspaceStore  *self,
                                            const char        *config_path,
                                            GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  SlTunerStudyRow *row = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);

  stmt = prepare_study (self, "SELECT " STUDY_COLUMNS " FROM tuner_studies WHERE config_path = ?1 ORDER BY id DESC LIMIT 1",
                        error);
  if (stmt == NULL)
    return NULL;
  bind_text (stmt, 1, config_path);
  step_study (self, stmt, &row, error);
  return row;
}

SlTunerStudyRow *
sl_workspace_store_lookup_tuner_study (SlWorkspaceStore  *self,
                                       gint64             id,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  SlTunerStudyRow *row = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);

  stmt = prepare_study (self, "SELECT " STUDY_COLUMNS " FROM tuner_studies WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  if (step_study (self, stmt, &row, error) && row == NULL)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("There is no tuner study %lld"), (long long)id);
  return row;
}

/* The state and the limits change; what the study is does not. */
gboolean
sl_workspace_store_update_tuner_study (SlWorkspaceStore  *self,
                                       SlTunerStudyRow   *row,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (row != NULL && row->id > 0, FALSE);

  stmt = prepare_study (self, "UPDATE tuner_studies SET state = ?2, max_trials = ?3, parallel = ?4 WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, row->id);
  bind_text (stmt, 2, row->state);
  sqlite3_bind_int64 (stmt, 3, row->max_trials);
  sqlite3_bind_int64 (stmt, 4, row->parallel);
  return step_study_done (self, stmt, error);
}

gboolean
sl_workspace_store_save_tuner_trial (SlWorkspaceStore   *self,
                                     const SlTunerTrial *trial,
                                     GError            **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (trial != NULL && trial->study_id > 0 && trial->name != NULL, FALSE);

  stmt = prepare_study (self, "INSERT OR REPLACE INTO tuner_trials (" TRIAL_COLUMNS ") "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, (SELECT id FROM jobs WHERE id = ?9), ?10, ?11, ?12)",
                        error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, trial->study_id);
  sqlite3_bind_int64 (stmt, 2, trial->number);
  bind_text (stmt, 3, trial->name);
  bind_text (stmt, 4, trial->params != NULL ? trial->params : "{}");
  bind_text (stmt, 5, trial->point != NULL ? trial->point : "[]");
  bind_text (stmt, 6, sl_tuner_trial_state_to_id (trial->state));
  if (trial->has_value)
    sqlite3_bind_double (stmt, 7, trial->value);
  else
    sqlite3_bind_null (stmt, 7);
  bind_text (stmt, 8, trial->reason);
  bind_id (stmt, 9, trial->job_id);
  bind_text (stmt, 10, trial->summary_dir);
  bind_id (stmt, 11, trial->started_at);
  bind_id (stmt, 12, trial->finished_at);
  return step_study_done (self, stmt, error);
}

static gpointer
trial_from_row (SlWorkspaceStore  *self,
                sqlite3_stmt      *stmt,
                gpointer           data,
                GError           **error)
{
  SlTunerTrial *trial = g_new0 (SlTunerTrial, 1);

  trial->study_id = sqlite3_column_int64 (stmt, 0);
  trial->number = (guint)sqlite3_column_int64 (stmt, 1);
  trial->name = column_dup (stmt, 2);
  trial->params = column_dup (stmt, 3);
  trial->point = column_dup (stmt, 4);
  if (!sl_tuner_trial_state_from_id (column_text (stmt, 5), &trial->state))
    trial->state = SL_TUNER_TRIAL_FAILED;
  trial->has_value = sqlite3_column_type (stmt, 6) != SQLITE_NULL;
  trial->value = sqlite3_column_double (stmt, 6);
  trial->reason = column_dup (stmt, 7);
  trial->job_id = sqlite3_column_int64 (stmt, 8);
  trial->summary_dir = column_dup (stmt, 9);
  trial->started_at = sqlite3_column_int64 (stmt, 10);
  trial->finished_at = sqlite3_column_int64 (stmt, 11);
  return trial;
}

/**
 * sl_workspace_store_list_tuner_trials:
 *
 * Returns: (transfer container) (element-type SlTunerTrial): the trials
 *   in order of their number
 */
GPtrArray *
sl_workspace_store_list_tuner_trials (SlWorkspaceStore  *self,
                                      gint64             study_id,
                                      GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);

  stmt = prepare_study (self, "SELECT " TRIAL_COLUMNS " FROM tuner_trials WHERE study_id = ?1 ORDER BY number", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, study_id);

  return sl_workspace_store_read_rows (self, stmt, trial_from_row, NULL, (GDestroyNotify)sl_tuner_trial_free,
                                       _("Cannot read the tuner studies"), error);
}
