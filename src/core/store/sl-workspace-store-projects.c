/* sl-workspace-store-projects.c: the projects table
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

#define PROJECT_COLUMNS \
  "id, name, local_folder, target_id, remote_folder, upload_excludes"

static gboolean
validate_project (SlProjectRecord  *project,
                  GError          **error)
{
  const char *name = sl_project_record_get_name (project);
  guint n_configs = sl_project_record_get_n_run_configs (project);

  if (name[0] == '\0')
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                           _("A project needs a name."));
      return FALSE;
    }

  if (sl_project_record_get_local_folder (project)[0] == '\0')
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The project “%s” needs a local folder."), name);
      return FALSE;
    }

  for (guint i = 0; i < n_configs; i++)
    {
      const char *config_name = sl_run_config_record_get_name (sl_project_record_get_run_config (project, i));

      if (config_name[0] == '\0')
        {
          g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                       _("Every run configuration of project “%s” needs a name."), name);
          return FALSE;
        }

      for (guint j = 0; j < i; j++)
        {
          SlRunConfigRecord *other = sl_project_record_get_run_config (project, j);

          if (g_str_equal (config_name, sl_run_config_record_get_name (other)))
            {
              g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS,
                           _("The project “%s” has two run configurations named “%s”. Give each its own name."),
                           name, config_name);
              return FALSE;
            }
        }
    }

  return TRUE;
}

/* Says why @project, or one of its run configurations, was not saved. */
void
sl_workspace_store_set_project_write_error (SlWorkspaceStore  *self,
                                            GError           **error,
                                            int                rc,
                                            SlProjectRecord   *project)
{
  const char *name = sl_project_record_get_name (project);
  g_autofree char *what = NULL;

  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS,
                 _("A project named “%s” already exists. Choose another name."), name);
  else if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("The target chosen for project “%s” is not in the workspace. Choose another target."), name);
  else
    {
      what = g_strdup_printf (_("Cannot save the project “%s”"), name);
      sl_workspace_store_set_error (self, error, rc, what);
    }
}

/* Binds ?1 to ?5 in the order of the columns after id in PROJECT_COLUMNS. */
static void
bind_project (sqlite3_stmt    *stmt,
              SlProjectRecord *project)
{
  bind_text (stmt, 1, sl_project_record_get_name (project));
  bind_text (stmt, 2, sl_project_record_get_local_folder (project));
  bind_id (stmt, 3, sl_project_record_get_target_id (project));
  bind_text (stmt, 4, sl_project_record_get_remote_folder (project));
  bind_strv (stmt, 5, sl_project_record_get_upload_excludes (project));
}

static gboolean
insert_project (SlWorkspaceStore  *self,
                SlProjectRecord   *project,
                gint64            *project_id,
                GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = prepare (self,
                  "INSERT INTO projects (name, local_folder, target_id, remote_folder, upload_excludes) "
                  "VALUES (?1, ?2, ?3, ?4, ?5)",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_project (stmt, project);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_project_write_error (self, error, rc, project);
      return FALSE;
    }

  *project_id = sqlite3_last_insert_rowid (self->db);
  return TRUE;
}

/**
 * sl_workspace_store_add_project:
 * @project: a project that is not stored yet, with its run
 *   configurations; the ids are set on success
 *
 * Returns: %TRUE on success; %SL_WORKSPACE_STORE_ERROR_EXISTS when the
 *   name is taken
 */
gboolean
sl_workspace_store_add_project (SlWorkspaceStore  *self,
                                SlProjectRecord   *project,
                                GError           **error)
{
  g_autoptr(GArray) config_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 project_id = 0;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (project), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!validate_project (project, error) || !begin_transaction (self, error))
    return FALSE;

  if (!insert_project (self, project, &project_id, error) ||
      !sl_workspace_store_insert_run_configs (self, project_id, project, config_ids, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  sl_project_record_set_id (project, project_id);
  sl_workspace_store_apply_run_config_ids (project, config_ids);
  return TRUE;
}

static gboolean
update_project_row (SlWorkspaceStore  *self,
                    SlProjectRecord   *project,
                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = prepare (self,
                  "UPDATE projects SET name = ?1, local_folder = ?2, target_id = ?3, "
                  "  remote_folder = ?4, upload_excludes = ?5 "
                  "WHERE id = ?6",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_project (stmt, project);
  sqlite3_bind_int64 (stmt, 6, sl_project_record_get_id (project));
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_project_write_error (self, error, rc, project);
      return FALSE;
    }

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("The project “%s” is no longer in the workspace. Add it again."),
                   sl_project_record_get_name (project));
      return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_update_project:
 * @project: a stored project, as returned by the store and then changed
 *
 * Saves the project and replaces its run configurations with those of
 * @project.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_update_project (SlWorkspaceStore  *self,
                                   SlProjectRecord   *project,
                                   GError           **error)
{
  g_autoptr(GArray) config_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 project_id;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (project), FALSE);
  g_return_val_if_fail (sl_project_record_get_id (project) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!validate_project (project, error) || !begin_transaction (self, error))
    return FALSE;

  project_id = sl_project_record_get_id (project);
  if (!update_project_row (self, project, error) ||
      !sl_workspace_store_delete_run_configs (self, project_id, error) ||
      !sl_workspace_store_insert_run_configs (self, project_id, project, config_ids, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  sl_workspace_store_apply_run_config_ids (project, config_ids);
  return TRUE;
}

/**
 * sl_workspace_store_remove_project:
 *
 * Removes the project and its run configurations. Its jobs stay in the
 * history under its name.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_remove_project (SlWorkspaceStore  *self,
                                   gint64             project_id,
                                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!(stmt = prepare (self, "DELETE FROM projects WHERE id = ?1", error)))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, project_id);
  if (!step_done (self, stmt, _("Cannot remove the project"), error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Project %lld is not in the workspace. Reload the list of projects."),
                   (long long)project_id);
      return FALSE;
    }

  return TRUE;
}

/* A project of the row @stmt is on, with its run configurations, which
 * @data, %SL_WORKSPACE_STORE_RUN_CONFIGS_OF_PROJECT, reads. */
static gpointer
project_from_row (SlWorkspaceStore  *self,
                  sqlite3_stmt      *stmt,
                  gpointer           data,
                  GError           **error)
{
  g_auto(GStrv) excludes = column_strv (stmt, 5);
  g_autoptr(SlProjectRecord) project = NULL;

  project = sl_project_record_new (column_text (stmt, 1), column_text (stmt, 2));
  sl_project_record_set_id (project, sqlite3_column_int64 (stmt, 0));
  sl_project_record_set_target_id (project, sqlite3_column_int64 (stmt, 3));
  sl_project_record_set_remote_folder (project, column_text (stmt, 4));
  sl_project_record_set_upload_excludes (project, (const char * const *)excludes);

  if (!sl_workspace_store_load_run_configs (self, data, project, error))
    return NULL;

  return g_steal_pointer (&project);
}

/**
 * sl_workspace_store_list_projects:
 *
 * Returns: (transfer full) (element-type SlProjectRecord): the projects
 *   by name, each with its run configurations
 */
GPtrArray *
sl_workspace_store_list_projects (SlWorkspaceStore  *self,
                                  GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(sqlite3_stmt) configs_stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self, "SELECT " PROJECT_COLUMNS " FROM projects ORDER BY name, id", error)) ||
      !(configs_stmt = prepare (self, SL_WORKSPACE_STORE_RUN_CONFIGS_OF_PROJECT, error)))
    return NULL;

  return sl_workspace_store_read_rows (self, stmt, project_from_row, configs_stmt, g_object_unref,
                                       _("Cannot read the projects"), error);
}
