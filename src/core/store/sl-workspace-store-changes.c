/* sl-workspace-store-changes.c: what other connections changed
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-store-private.h"

/* The lists another connection's changes are looked for in, with the
 * queries whose rows they show. */
static const struct {
  SlWorkspaceStoreLists  list;
  const char            *queries[3];
} watched_lists[] = {
  { SL_WORKSPACE_STORE_LIST_TARGETS, { "SELECT * FROM targets ORDER BY id", NULL } },
  { SL_WORKSPACE_STORE_LIST_PROJECTS, { "SELECT * FROM projects ORDER BY id",
                                        "SELECT * FROM run_configs ORDER BY id", NULL } },
  { SL_WORKSPACE_STORE_LIST_RECENT_FOLDERS, { "SELECT * FROM recent_folders ORDER BY id", NULL } },
  { SL_WORKSPACE_STORE_LIST_JOBS, { "SELECT * FROM jobs ORDER BY id", NULL } },
};

G_STATIC_ASSERT (G_N_ELEMENTS (watched_lists) == SL_WORKSPACE_STORE_N_WATCHED_LISTS);

/* FNV-1a over every value of the rows of @sql. */
static gboolean
fingerprint_rows (SlWorkspaceStore  *self,
                  const char        *sql,
                  guint64           *hash,
                  GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = prepare (self, sql, error)))
    return FALSE;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    for (int i = 0; i < sqlite3_column_count (stmt); i++)
      {
        const guint8 *bytes = sqlite3_column_blob (stmt, i);
        int length = sqlite3_column_bytes (stmt, i);
        guint8 type = (guint8)sqlite3_column_type (stmt, i);

        *hash = (*hash ^ type) * G_GUINT64_CONSTANT (0x100000001b3);
        for (int j = 0; j < length; j++)
          *hash = (*hash ^ bytes[j]) * G_GUINT64_CONSTANT (0x100000001b3);
      }

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot read the workspace database"));
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_workspace_store_poll_changes:
 *
 * Says which lists other connections (another window, the command line)
 * changed since the last call; the first call only takes note of them.
 * Cheap when nothing changed: SQLite's data_version is read and nothing
 * else. This connection's own changes are not reported.
 *
 * Returns: the lists that changed, or 0 (with @error set on failure)
 */
SlWorkspaceStoreLists
sl_workspace_store_poll_changes (SlWorkspaceStore  *self,
                                 GError           **error)
{
  SlWorkspaceStoreLists changed = 0;
  gboolean first;
  gint64 version = 0;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), 0);

  if (!query_int (self, "PRAGMA data_version", &version, error))
    return 0;

  first = self->data_version == 0;
  if (!first && version == self->data_version)
    return 0;

  if (!exec_sql (self, "BEGIN", _("Cannot read the workspace database"), error))
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (watched_lists); i++)
    {
      guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);

      for (guint j = 0; watched_lists[i].queries[j] != NULL; j++)
        if (!fingerprint_rows (self, watched_lists[i].queries[j], &hash, error))
          {
            rollback_transaction (self);
            return 0;
          }

      if (!first && hash != self->fingerprints[i])
        changed |= watched_lists[i].list;
      self->fingerprints[i] = hash;
    }
  rollback_transaction (self);

  self->data_version = version;
  return changed;
}
