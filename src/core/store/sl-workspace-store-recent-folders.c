/* sl-workspace-store-recent-folders.c: the recent_folders table
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

static gboolean
forget_old_recent_folders (SlWorkspaceStore  *self,
                           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = prepare (self,
                  "DELETE FROM recent_folders WHERE id NOT IN "
                  "  (SELECT id FROM recent_folders ORDER BY opened_at DESC LIMIT ?1)",
                  error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int (stmt, 1, SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS);
  return step_done (self, stmt, _("Cannot save the recent folders"), error);
}

static gboolean
upsert_recent_folder (SlWorkspaceStore  *self,
                      const char        *path,
                      GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  /* Never earlier than the newest entry, so the order stays right when
   * the clock steps back or two folders open within a microsecond. */
  stmt = prepare (self,
                  "INSERT INTO recent_folders (path, opened_at) "
                  "VALUES (?1, max (?2, (SELECT ifnull (max (opened_at), 0) + 1 FROM recent_folders))) "
                  "ON CONFLICT (path) DO UPDATE SET opened_at = excluded.opened_at",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, path);
  sqlite3_bind_int64 (stmt, 2, g_get_real_time ());
  return step_done (self, stmt, _("Cannot save the recent folders"), error);
}

/**
 * sl_workspace_store_note_recent_folder:
 * @path: a folder that was just opened
 *
 * Puts @path first in the recent folders and forgets the oldest beyond
 * %SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_note_recent_folder (SlWorkspaceStore  *self,
                                       const char        *path,
                                       GError           **error)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL && path[0] != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* One entry per folder, however it was spelled when opened. */
  canonical = g_canonicalize_filename (path, NULL);

  if (!begin_transaction (self, error))
    return FALSE;

  if (!upsert_recent_folder (self, canonical, error) ||
      !forget_old_recent_folders (self, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_remove_recent_folder:
 *
 * Forgets @path; a folder that is not in the list is not an error.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_remove_recent_folder (SlWorkspaceStore  *self,
                                         const char        *path,
                                         GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL && path[0] != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  canonical = g_canonicalize_filename (path, NULL);
  if (!(stmt = prepare (self, "DELETE FROM recent_folders WHERE path = ?1", error)))
    return FALSE;

  bind_text (stmt, 1, canonical);
  return step_done (self, stmt, _("Cannot save the recent folders"), error);
}

static gpointer
recent_folder_from_row (SlWorkspaceStore  *self,
                        sqlite3_stmt      *stmt,
                        gpointer           data,
                        GError           **error)
{
  return sl_recent_folder_record_new (column_text (stmt, 0), sqlite3_column_int64 (stmt, 1));
}

/**
 * sl_workspace_store_list_recent_folders:
 *
 * Returns: (transfer full) (element-type SlRecentFolderRecord): the
 *   recent folders, most recently opened first
 */
GPtrArray *
sl_workspace_store_list_recent_folders (SlWorkspaceStore  *self,
                                        GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT path, opened_at FROM recent_folders ORDER BY opened_at DESC, id DESC", error);
  if (stmt == NULL)
    return NULL;

  return sl_workspace_store_read_rows (self, stmt, recent_folder_from_row, NULL, g_object_unref,
                                       _("Cannot read the recent folders"), error);
}
