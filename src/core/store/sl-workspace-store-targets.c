/* sl-workspace-store-targets.c: the targets table
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-workspace-store-private.h"

#define TARGET_COLUMNS \
  "id, name, kind, host, port, user_name, auth_method, identity_file, " \
  "known_hosts_file, remote_base_folder, setup_command"

static gboolean
validate_target (SlTargetRecord  *target,
                 GError         **error)
{
  const char *name = sl_target_record_get_name (target);
  const char *host = sl_target_record_get_host (target);
  const char *identity_file = sl_target_record_get_identity_file (target);
  guint port = sl_target_record_get_port (target);

  if (name[0] == '\0')
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                           _("A target needs a name."));
      return FALSE;
    }

  if (sl_target_record_get_kind (target) == SL_TARGET_KIND_SSH && (host == NULL || host[0] == '\0'))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The SSH target “%s” needs a host name."), name);
      return FALSE;
    }

  if (port < 1 || port > 65535)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The port of target “%s” must be between 1 and 65535."), name);
      return FALSE;
    }

  /* Keys must never end up in the database, even pasted by mistake. */
  if (identity_file != NULL &&
      (strchr (identity_file, '\n') != NULL || strstr (identity_file, "-----BEGIN") != NULL))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The identity file of target “%s” must be the path of a key file, not the key itself."), name);
      return FALSE;
    }

  return TRUE;
}

/* Binds ?1 to ?10 in the order of the columns after id in TARGET_COLUMNS. */
static void
bind_target (sqlite3_stmt   *stmt,
             SlTargetRecord *target)
{
  bind_text (stmt, 1, sl_target_record_get_name (target));
  bind_text (stmt, 2, sl_target_kind_to_id (sl_target_record_get_kind (target)));
  bind_text (stmt, 3, sl_target_record_get_host (target));
  sqlite3_bind_int (stmt, 4, (int)sl_target_record_get_port (target));
  bind_text (stmt, 5, sl_target_record_get_user (target));
  bind_text (stmt, 6, sl_target_auth_to_id (sl_target_record_get_auth (target)));
  bind_text (stmt, 7, sl_target_record_get_identity_file (target));
  bind_text (stmt, 8, sl_target_record_get_known_hosts_file (target));
  bind_text (stmt, 9, sl_target_record_get_remote_base_folder (target));
  bind_text (stmt, 10, sl_target_record_get_setup_command (target));
}

static gpointer
target_from_row (SlWorkspaceStore  *self,
                 sqlite3_stmt      *stmt,
                 gpointer           data,
                 GError           **error)
{
  SlTargetKind kind = SL_TARGET_KIND_SSH;
  SlTargetAuth auth = SL_TARGET_AUTH_AGENT;
  SlTargetRecord *target;

  sl_target_kind_from_id (column_text (stmt, 2), &kind);
  sl_target_auth_from_id (column_text (stmt, 6), &auth);

  target = sl_target_record_new (kind, column_text (stmt, 1));
  sl_target_record_set_id (target, sqlite3_column_int64 (stmt, 0));
  sl_target_record_set_host (target, column_text (stmt, 3));
  sl_target_record_set_port (target, (guint)sqlite3_column_int (stmt, 4));
  sl_target_record_set_user (target, column_text (stmt, 5));
  sl_target_record_set_auth (target, auth);
  sl_target_record_set_identity_file (target, column_text (stmt, 7));
  sl_target_record_set_known_hosts_file (target, column_text (stmt, 8));
  sl_target_record_set_remote_base_folder (target, column_text (stmt, 9));
  sl_target_record_set_setup_command (target, column_text (stmt, 10));

  return target;
}

static gboolean
step_target_write (SlWorkspaceStore  *self,
                   sqlite3_stmt      *stmt,
                   SlTargetRecord    *target,
                   GError           **error)
{
  g_autofree char *what = NULL;
  int rc = sqlite3_step (stmt);

  if (rc == SQLITE_DONE)
    return TRUE;

  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS,
                   _("A target named “%s” already exists. Choose another name."),
                   sl_target_record_get_name (target));
      return FALSE;
    }

  what = g_strdup_printf (_("Cannot save the target “%s”"), sl_target_record_get_name (target));
  sl_workspace_store_set_error (self, error, rc, what);
  return FALSE;
}

/**
 * sl_workspace_store_add_target:
 * @target: a target that is not stored yet; its id is set on success
 *
 * Returns: %TRUE on success; %SL_WORKSPACE_STORE_ERROR_EXISTS when the
 *   name is taken
 */
gboolean
sl_workspace_store_add_target (SlWorkspaceStore  *self,
                               SlTargetRecord    *target,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (target), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!validate_target (target, error))
    return FALSE;

  stmt = prepare (self,
                  "INSERT INTO targets (name, kind, host, port, user_name, auth_method, identity_file, "
                  "                     known_hosts_file, remote_base_folder, setup_command) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_target (stmt, target);
  if (!step_target_write (self, stmt, target, error))
    return FALSE;

  sl_target_record_set_id (target, sqlite3_last_insert_rowid (self->db));
  return TRUE;
}

/**
 * sl_workspace_store_update_target:
 * @target: a stored target, as returned by the store and then changed
 *
 * Saves every field but the kind, which a target keeps for its life.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_update_target (SlWorkspaceStore  *self,
                                  SlTargetRecord    *target,
                                  GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (target), FALSE);
  g_return_val_if_fail (sl_target_record_get_id (target) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!validate_target (target, error))
    return FALSE;

  stmt = prepare (self,
                  "UPDATE targets SET name = ?1, host = ?3, port = ?4, user_name = ?5, "
                  "  auth_method = ?6, identity_file = ?7, known_hosts_file = ?8, "
                  "  remote_base_folder = ?9, setup_command = ?10 "
                  "WHERE id = ?11 AND kind = ?2",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_target (stmt, target);
  sqlite3_bind_int64 (stmt, 11, sl_target_record_get_id (target));
  if (!step_target_write (self, stmt, target, error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("The target “%s” is no longer in the workspace. Add it again."),
                   sl_target_record_get_name (target));
      return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_lookup_target:
 *
 * Returns: (transfer full): the target, or %NULL with
 *   %SL_WORKSPACE_STORE_ERROR_NOT_FOUND
 */
SlTargetRecord *
sl_workspace_store_lookup_target (SlWorkspaceStore  *self,
                                  gint64             target_id,
                                  GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self, "SELECT " TARGET_COLUMNS " FROM targets WHERE id = ?1", error)))
    return NULL;

  sqlite3_bind_int64 (stmt, 1, target_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return target_from_row (self, stmt, NULL, error);

  if (rc == SQLITE_DONE)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("Target %lld is not in the workspace. Reload the list of targets."),
                 (long long)target_id);
  else
    sl_workspace_store_set_error (self, error, rc, _("Cannot read the targets"));

  return NULL;
}

/**
 * sl_workspace_store_remove_target:
 *
 * Removes an SSH target. Projects on it keep their settings without a
 * target; jobs that ran on it stay in the history under its name. The
 * Local target cannot be removed.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_remove_target (SlWorkspaceStore  *self,
                                  gint64             target_id,
                                  GError           **error)
{
  g_autoptr(SlTargetRecord) target = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!(target = sl_workspace_store_lookup_target (self, target_id, error)))
    return FALSE;

  if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("“%s” is this computer and cannot be removed."),
                   sl_target_record_get_name (target));
      return FALSE;
    }

  if (!(stmt = prepare (self, "DELETE FROM targets WHERE id = ?1", error)))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, target_id);
  what = g_strdup_printf (_("Cannot remove the target “%s”"), sl_target_record_get_name (target));
  return step_done (self, stmt, what, error);
}

/**
 * sl_workspace_store_list_targets:
 *
 * Returns: (transfer full) (element-type SlTargetRecord): the targets,
 *   Local first, then by name
 */
GPtrArray *
sl_workspace_store_list_targets (SlWorkspaceStore  *self,
                                 GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT " TARGET_COLUMNS " FROM targets ORDER BY kind <> 'local', name, id", error);
  if (stmt == NULL)
    return NULL;

  return sl_workspace_store_read_rows (self, stmt, target_from_row, NULL, g_object_unref,
                                       _("Cannot read the targets"), error);
}
