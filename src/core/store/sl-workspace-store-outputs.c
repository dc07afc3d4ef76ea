/* sl-workspace-store-outputs.c: the project_outputs table
 *
 * Part of SlWorkspaceStore. Every value is a bound parameter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-workspace-store-outputs.h"
#include "sl-workspace-store-private.h"

void
sl_project_output_row_free (SlProjectOutputRow *row)
{
  if (row == NULL)
    return;
  g_free (row->project_folder);
  g_free (row->target_name);
  g_free (row->kind);
  g_free (row->path);
  g_free (row->source);
  g_free (row);
}

static sqlite3_stmt *
prepare_outputs (SlWorkspaceStore  *self,
                 const char        *sql,
                 GError           **error)
{
  return sl_workspace_store_prepare (self, sql, _("Cannot read the project’s outputs"), error);
}

gboolean
sl_workspace_store_add_project_output (SlWorkspaceStore   *self,
                                       SlProjectOutputRow *row,
                                       GError            **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (row != NULL && row->project_folder != NULL && row->target_name != NULL, FALSE);
  g_return_val_if_fail (row->kind != NULL && row->path != NULL, FALSE);

  stmt = prepare_outputs (self,
                          "INSERT INTO project_outputs (project_folder, target_name, kind, path, source, created_at) "
                          "VALUES (?, ?, ?, ?, ?, ?) "
                          "ON CONFLICT (project_folder, target_name, path) DO UPDATE SET "
                          "kind = excluded.kind, source = excluded.source, created_at = excluded.created_at "
                          "RETURNING id",
                          error);
  if (stmt == NULL)
    return FALSE;
  row->created_at = g_get_real_time ();
  bind_text (stmt, 1, row->project_folder);
  bind_text (stmt, 2, row->target_name);
  bind_text (stmt, 3, row->kind);
  bind_text (stmt, 4, row->path);
  bind_text (stmt, 5, row->source);
  sqlite3_bind_int64 (stmt, 6, row->created_at);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot save the project’s output"));
      return FALSE;
    }
  row->id = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

static gpointer
output_from_row (SlWorkspaceStore  *self,
                 sqlite3_stmt      *stmt,
                 gpointer           data,
                 GError           **error)
{
  SlProjectOutputRow *row = g_new0 (SlProjectOutputRow, 1);

  row->id = sqlite3_column_int64 (stmt, 0);
  row->project_folder = column_dup (stmt, 1);
  row->target_name = column_dup (stmt, 2);
  row->kind = column_dup (stmt, 3);
  row->path = column_dup (stmt, 4);
  row->source = column_dup (stmt, 5);
  row->created_at = sqlite3_column_int64 (stmt, 6);
  return row;
}

GPtrArray *
sl_workspace_store_list_project_outputs (SlWorkspaceStore  *self,
                                         const char        *project_folder,
                                         GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (project_folder != NULL, NULL);

  stmt = prepare_outputs (self,
                          "SELECT id, project_folder, target_name, kind, path, source, created_at FROM project_outputs "
                          "WHERE project_folder = ? ORDER BY created_at DESC, id DESC",
                          error);
  if (stmt == NULL)
    return NULL;
  bind_text (stmt, 1, project_folder);
  return sl_workspace_store_read_rows (self, stmt, output_from_row, NULL,
                                       (GDestroyNotify)sl_project_output_row_free,
                                       _("Cannot read the project’s outputs"), error);
}
