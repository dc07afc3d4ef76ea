/* sl-workspace-store-run-configs.c: the run_configs table, saved and read with each project
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

/* The new ids are only handed to the records once the transaction is
 * committed, so a failed save leaves the records as they were. */
gboolean
sl_workspace_store_insert_run_configs (SlWorkspaceStore  *self,
                                       gint64             project_id,
                                       SlProjectRecord   *project,
                                       GArray            *new_ids,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint n_configs = sl_project_record_get_n_run_configs (project);

  stmt = prepare (self,
                  "INSERT INTO run_configs (project_id, position, name, kind, command, arguments, "
                  "                         environment, working_folder, pull_folders, options) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                  error);
  if (stmt == NULL)
    return FALSE;

  for (guint i = 0; i < n_configs; i++)
    {
      SlRunConfigRecord *config = sl_project_record_get_run_config (project, i);
      gint64 id;
      int rc;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, project_id);
      sqlite3_bind_int (stmt, 2, (int)i);
      bind_text (stmt, 3, sl_run_config_record_get_name (config));
      bind_text (stmt, 4, sl_run_config_kind_to_id (sl_run_config_record_get_kind (config)));
      bind_text (stmt, 5, sl_run_config_record_get_command (config));
      bind_strv (stmt, 6, sl_run_config_record_get_arguments (config));
      bind_strv (stmt, 7, sl_run_config_record_get_environment (config));
      bind_text (stmt, 8, sl_run_config_record_get_working_folder (config));
      bind_strv (stmt, 9, sl_run_config_record_get_pull_folders (config));
      bind_text (stmt, 10, sl_run_config_record_get_options (config));

      rc = sqlite3_step (stmt);
      if (rc != SQLITE_DONE)
        {
          sl_workspace_store_set_project_write_error (self, error, rc, project);
          return FALSE;
        }

      id = sqlite3_last_insert_rowid (self->db);
      g_array_append_val (new_ids, id);
    }

  return TRUE;
}

void
sl_workspace_store_apply_run_config_ids (SlProjectRecord *project,
                                         GArray          *new_ids)
{
  for (guint i = 0; i < new_ids->len; i++)
    sl_run_config_record_set_id (sl_project_record_get_run_config (project, i),
                                 g_array_index (new_ids, gint64, i));
}

gboolean
sl_workspace_store_delete_run_configs (SlWorkspaceStore  *self,
                                       gint64             project_id,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = prepare (self, "DELETE FROM run_configs WHERE project_id = ?1", error)))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, project_id);
  return step_done (self, stmt, _("Cannot change the workspace database"), error);
}

static gpointer
run_config_from_row (SlWorkspaceStore  *self,
                     sqlite3_stmt      *stmt,
                     gpointer           data,
                     GError           **error)
{
  SlRunConfigKind kind = SL_RUN_CONFIG_KIND_TRAIN;
  SlRunConfigRecord *config;
  g_auto(GStrv) arguments = column_strv (stmt, 4);
  g_auto(GStrv) environment = column_strv (stmt, 5);
  g_auto(GStrv) pull_folders = column_strv (stmt, 7);

  sl_run_config_kind_from_id (column_text (stmt, 2), &kind);

  config = sl_run_config_record_new (kind, column_text (stmt, 1), column_text (stmt, 3));
  sl_run_config_record_set_id (config, sqlite3_column_int64 (stmt, 0));
  sl_run_config_record_set_arguments (config, (const char * const *)arguments);
  sl_run_config_record_set_environment (config, (const char * const *)environment);
  sl_run_config_record_set_working_folder (config, column_text (stmt, 6));
  sl_run_config_record_set_pull_folders (config, (const char * const *)pull_folders);
  sl_run_config_record_set_options (config, column_text (stmt, 8));

  return config;
}

/* Adds the run configurations of @project to it; @stmt is
 * %SL_WORKSPACE_STORE_RUN_CONFIGS_OF_PROJECT. */
gboolean
sl_workspace_store_load_run_configs (SlWorkspaceStore  *self,
                                     sqlite3_stmt      *stmt,
                                     SlProjectRecord   *project,
                                     GError           **error)
{
  g_autoptr(GPtrArray) configs = NULL;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, sl_project_record_get_id (project));

  configs = sl_workspace_store_read_rows (self, stmt, run_config_from_row, NULL, g_object_unref,
                                          _("Cannot read the run configurations"), error);
  if (configs == NULL)
    return FALSE;

  for (guint i = 0; i < configs->len; i++)
    sl_project_record_add_run_config (project, g_ptr_array_index (configs, i));

  return TRUE;
}
