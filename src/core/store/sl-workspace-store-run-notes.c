/* sl-workspace-store-run-notes.c: the run_notes table
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
 * sl_workspace_store_set_run_note:
 * @note: the run's note and tags; an empty one forgets the run's
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_set_run_note (SlWorkspaceStore  *self,
                                 SlRunNoteRecord   *note,
                                 GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (note), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  canonical = g_canonicalize_filename (sl_run_note_record_get_path (note), NULL);
  if (sl_run_note_record_is_empty (note))
    stmt = prepare (self, "DELETE FROM run_notes WHERE path = ?1", error);
  else
    stmt = prepare (self,
                    "INSERT INTO run_notes (path, note, tags, updated_at) VALUES (?1, ?2, ?3, ?4) "
                    "ON CONFLICT (path) DO UPDATE SET note = excluded.note, tags = excluded.tags, "
                    "updated_at = excluded.updated_at",
                    error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, canonical);
  if (!sl_run_note_record_is_empty (note))
    {
      bind_text (stmt, 2, sl_run_note_record_get_note (note));
      bind_strv (stmt, 3, sl_run_note_record_get_tags (note));
      sqlite3_bind_int64 (stmt, 4, sl_run_note_record_get_updated_at (note));
    }
  return step_done (self, stmt, _("Cannot save the run's note"), error);
}

static gpointer
run_note_from_row (SlWorkspaceStore  *self,
                   sqlite3_stmt      *stmt,
                   gpointer           data,
                   GError           **error)
{
  g_auto(GStrv) tags = column_strv (stmt, 2);

  return sl_run_note_record_new (column_text (stmt, 0), column_text (stmt, 1),
                                 (const char * const *) tags,
                                 sqlite3_column_int64 (stmt, 3));
}

/**
 * sl_workspace_store_list_run_notes:
 * @root: a folder; the notes of runs at or below it are listed
 *
 * Returns: (transfer full) (element-type SlRunNoteRecord): the notes, by path
 */
GPtrArray *
sl_workspace_store_list_run_notes (SlWorkspaceStore  *self,
                                   const char        *root,
                                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  canonical = g_canonicalize_filename (root, NULL);
  /* A prefix compared with substr, not LIKE: paths may hold % and _. */
  prefix = g_str_has_suffix (canonical, G_DIR_SEPARATOR_S) ? g_strdup (canonical)
                                                           : g_strconcat (canonical, G_DIR_SEPARATOR_S, NULL);
  stmt = prepare (self,
                  "SELECT path, note, tags, updated_at FROM run_notes "
                  "WHERE path = ?1 OR substr (path, 1, length (?2)) = ?2 ORDER BY path",
                  error);
  if (stmt == NULL)
    return NULL;
  bind_text (stmt, 1, canonical);
  bind_text (stmt, 2, prefix);

  return sl_workspace_store_read_rows (self, stmt, run_note_from_row, NULL, g_object_unref,
                                       _("Cannot read the runs' notes"), error);
}
