/* sl-workspace-store-runs.c: the run index, in the runs and run_files tables
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

#define RUN_COLUMNS \
  "id, root_folder, kind, relative_name, path, tags, last_seen, details"

static gboolean
upsert_run_row (SlWorkspaceStore  *self,
                SlRunRecord       *run,
                gint64            *run_id,
                GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = prepare (self,
                  "INSERT INTO runs (root_folder, kind, relative_name, path, tags, last_seen, details) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                  "ON CONFLICT (root_folder, path) DO UPDATE SET "
                  "  kind = excluded.kind, relative_name = excluded.relative_name, "
                  "  tags = excluded.tags, last_seen = excluded.last_seen, "
                  "  details = excluded.details "
                  "RETURNING id",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, sl_run_record_get_root_folder (run));
  bind_text (stmt, 2, sl_run_record_get_kind_id (run));
  bind_text (stmt, 3, sl_run_record_get_relative_name (run));
  bind_text (stmt, 4, sl_run_record_get_path (run));
  bind_strv (stmt, 5, sl_run_record_get_tags (run));
  sqlite3_bind_int64 (stmt, 6, sl_run_record_get_last_seen (run));
  bind_strv (stmt, 7, sl_run_record_get_details (run));

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *run_id = sqlite3_column_int64 (stmt, 0);
      rc = sqlite3_step (stmt);
    }

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot save the run index"));
      return FALSE;
    }

  return TRUE;
}

static gboolean
replace_run_files (SlWorkspaceStore  *self,
                   gint64             run_id,
                   SlRunRecord       *run,
                   GError           **error)
{
  g_autoptr(sqlite3_stmt) delete_stmt = NULL;
  g_autoptr(sqlite3_stmt) insert_stmt = NULL;
  const char *what = _("Cannot save the run index");
  guint n_files = sl_run_record_get_n_files (run);

  if (!(delete_stmt = prepare (self, "DELETE FROM run_files WHERE run_id = ?1", error)) ||
      !(insert_stmt = prepare (self,
                               "INSERT INTO run_files (run_id, path, size, read_offset) "
                               "VALUES (?1, ?2, ?3, ?4)",
                               error)))
    return FALSE;

  sqlite3_bind_int64 (delete_stmt, 1, run_id);
  if (!step_done (self, delete_stmt, what, error))
    return FALSE;

  for (guint i = 0; i < n_files; i++)
    {
      const char *path = NULL;
      guint64 size = 0;
      guint64 read_offset = 0;

      sl_run_record_get_file (run, i, &path, &size, &read_offset);

      sqlite3_reset (insert_stmt);
      sqlite3_bind_int64 (insert_stmt, 1, run_id);
      bind_text (insert_stmt, 2, path);
      sqlite3_bind_int64 (insert_stmt, 3, (sqlite3_int64)MIN (size, G_MAXINT64));
      sqlite3_bind_int64 (insert_stmt, 4, (sqlite3_int64)MIN (read_offset, G_MAXINT64));
      if (!step_done (self, insert_stmt, what, error))
        return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_upsert_run:
 * @run: a run; one with the same root folder and path is replaced
 *
 * Stores @run with its files and their read offsets; the run's id is set
 * on success.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_upsert_run (SlWorkspaceStore  *self,
                               SlRunRecord       *run,
                               GError           **error)
{
  gint64 run_id = 0;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_RUN_RECORD (run), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!begin_transaction (self, error))
    return FALSE;

  if (!upsert_run_row (self, run, &run_id, error) ||
      !replace_run_files (self, run_id, run, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  sl_run_record_set_id (run, run_id);
  return TRUE;
}

static gboolean
load_run_files (SlWorkspaceStore  *self,
                sqlite3_stmt      *stmt,
                SlRunRecord       *run,
                GError           **error)
{
  int rc;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, sl_run_record_get_id (run));

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    sl_run_record_set_file (run, column_text (stmt, 0),
                            (guint64)MAX (sqlite3_column_int64 (stmt, 1), 0),
                            (guint64)MAX (sqlite3_column_int64 (stmt, 2), 0));

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot read the run index"));
      return FALSE;
    }

  return TRUE;
}

/* A run of the row @stmt is on, with its files, which @data reads. */
static gpointer
run_from_row (SlWorkspaceStore  *self,
              sqlite3_stmt      *stmt,
              gpointer           data,
              GError           **error)
{
  g_auto(GStrv) tags = column_strv (stmt, 5);
  g_auto(GStrv) details = column_strv (stmt, 7);
  g_autoptr(SlRunRecord) run = NULL;

  run = sl_run_record_new (column_text (stmt, 1), column_text (stmt, 2),
                           column_text (stmt, 3), column_text (stmt, 4));
  sl_run_record_set_id (run, sqlite3_column_int64 (stmt, 0));
  sl_run_record_set_tags (run, (const char * const *)tags);
  sl_run_record_set_last_seen (run, sqlite3_column_int64 (stmt, 6));
  sl_run_record_set_details (run, (const char * const *)details);

  if (!load_run_files (self, data, run, error))
    return NULL;

  return g_steal_pointer (&run);
}

/**
 * sl_workspace_store_list_runs:
 * @root_folder: an opened folder
 *
 * Returns: (transfer full) (element-type SlRunRecord): the runs found in
 *   @root_folder, by relative name, each with its files
 */
GPtrArray *
sl_workspace_store_list_runs (SlWorkspaceStore  *self,
                              const char        *root_folder,
                              GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(sqlite3_stmt) files_stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (root_folder != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self,
                        "SELECT " RUN_COLUMNS " FROM runs WHERE root_folder = ?1 "
                        "ORDER BY relative_name, id",
                        error)) ||
      !(files_stmt = prepare (self,
                              "SELECT path, size, read_offset FROM run_files "
                              "WHERE run_id = ?1 ORDER BY path",
                              error)))
    return NULL;

  bind_text (stmt, 1, root_folder);
  return sl_workspace_store_read_rows (self, stmt, run_from_row, files_stmt, g_object_unref,
                                       _("Cannot read the run index"), error);
}

/**
 * sl_workspace_store_prune_runs:
 * @seen_before: runs of @root_folder last seen before this time (in
 *   microseconds since the Unix epoch) are forgotten
 *
 * Called after a rescan of @root_folder, with the time it started, to drop
 * runs that are gone.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_prune_runs (SlWorkspaceStore  *self,
                               const char        *root_folder,
                               gint64             seen_before,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (root_folder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stmt = prepare (self, "DELETE FROM runs WHERE root_folder = ?1 AND last_seen < ?2", error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, root_folder);
  sqlite3_bind_int64 (stmt, 2, seen_before);
  return step_done (self, stmt, _("Cannot save the run index"), error);
}

/**
 * sl_workspace_store_note_run_read:
 * @run_path: the folder of a run, as the run index names it
 * @tags: (nullable): the run's tags, or %NULL to keep them
 * @files: (array length=n_files): files of the run that were read
 * @offsets: (array length=n_files): how many bytes of each were read
 *
 * Remembers what a reader learnt about a run (in every opened folder that
 * holds it) so the next start can show its tags and go on from the
 * offsets. Files the index does not list are ignored.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_note_run_read (SlWorkspaceStore   *self,
                                  const char         *run_path,
                                  const char * const *tags,
                                  const char * const *files,
                                  const guint64      *offsets,
                                  guint               n_files,
                                  GError            **error)
{
  g_autoptr(sqlite3_stmt) tags_stmt = NULL;
  g_autoptr(sqlite3_stmt) offset_stmt = NULL;
  const char *what = _("Cannot save the run index");

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (run_path != NULL, FALSE);
  g_return_val_if_fail (n_files == 0 || (files != NULL && offsets != NULL), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!(tags_stmt = prepare (self, "UPDATE runs SET tags = ?2 WHERE path = ?1", error)) ||
      !(offset_stmt = prepare (self,
                               "UPDATE run_files SET read_offset = ?3 "
                               "WHERE path = ?2 AND run_id IN (SELECT id FROM runs WHERE path = ?1)",
                               error)))
    return FALSE;

  if (!begin_transaction (self, error))
    return FALSE;

  if (tags != NULL)
    {
      bind_text (tags_stmt, 1, run_path);
      bind_strv (tags_stmt, 2, tags);
      if (!step_done (self, tags_stmt, what, error))
        goto failed;
    }

  for (guint i = 0; i < n_files; i++)
    {
      sqlite3_reset (offset_stmt);
      bind_text (offset_stmt, 1, run_path);
      bind_text (offset_stmt, 2, files[i]);
      sqlite3_bind_int64 (offset_stmt, 3, (sqlite3_int64)MIN (offsets[i], G_MAXINT64));
      if (!step_done (self, offset_stmt, what, error))
        goto failed;
    }

  if (commit_transaction (self, error))
    return TRUE;

failed:
  rollback_transaction (self);
  return FALSE;
}
