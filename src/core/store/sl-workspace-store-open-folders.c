/* sl-workspace-store-open-folders.c: the open_folders table
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

/**
 * sl_workspace_store_set_open_folders:
 * @paths: (nullable): the folders of the Workspace, in order
 *
 * Replaces the list of folders to show again on the next start.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_set_open_folders (SlWorkspaceStore   *self,
                                     const char * const *paths,
                                     GError            **error)
{
  g_autoptr(sqlite3_stmt) insert_stmt = NULL;
  const char *what = _("Cannot save the folders of the Workspace");

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!(insert_stmt = prepare (self, "INSERT OR IGNORE INTO open_folders (path, position) VALUES (?1, ?2)", error)))
    return FALSE;

  if (!begin_transaction (self, error))
    return FALSE;

  if (!exec_sql (self, "DELETE FROM open_folders", what, error))
    goto failed;

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      sqlite3_reset (insert_stmt);
      bind_text (insert_stmt, 1, paths[i]);
      sqlite3_bind_int64 (insert_stmt, 2, i);
      if (!step_done (self, insert_stmt, what, error))
        goto failed;
    }

  if (commit_transaction (self, error))
    return TRUE;

failed:
  rollback_transaction (self);
  return FALSE;
}

/* The column is NOT NULL: a path is never %NULL. */
static gpointer
path_from_row (SlWorkspaceStore  *self,
               sqlite3_stmt      *stmt,
               gpointer           data,
               GError           **error)
{
  return column_dup (stmt, 0);
}

/**
 * sl_workspace_store_list_open_folders:
 *
 * Returns: (transfer full): the folders of the Workspace when it was last
 *   changed, in order, or %NULL on error
 */
char **
sl_workspace_store_list_open_folders (SlWorkspaceStore  *self,
                                      GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) paths = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self, "SELECT path FROM open_folders ORDER BY position", error)))
    return NULL;

  paths = sl_workspace_store_read_rows (self, stmt, path_from_row, NULL, g_free,
                                        _("Cannot read the folders of the Workspace"), error);
  if (paths == NULL)
    return NULL;

  g_ptr_array_add (paths, NULL);
  return (char **)g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}
