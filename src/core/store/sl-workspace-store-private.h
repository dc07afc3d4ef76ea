/* sl-workspace-store-private.h: for the files of SlWorkspaceStore
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "sl-workspace-store.h"

G_BEGIN_DECLS

sqlite3 *sl_workspace_store_get_db    (SlWorkspaceStore  *self);
void     sl_workspace_store_set_error (SlWorkspaceStore  *self,
                                       GError           **error,
                                       int                rc,
                                       const char        *what);

/* Statements finalized by g_autoptr. */
static inline void
sl_workspace_store_statement_free (sqlite3_stmt *stmt)
{
  sqlite3_finalize (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sl_workspace_store_statement_free)

/* A statement of the store's database; on failure @error says @what
 * could not be done. */
static inline sqlite3_stmt *
sl_workspace_store_prepare (SlWorkspaceStore  *self,
                            const char        *sql,
                            const char        *what,
                            GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (sl_workspace_store_get_db (self), sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      sl_workspace_store_set_error (self, error, rc, what);
      return NULL;
    }
  return stmt;
}

static inline char *
column_dup (sqlite3_stmt *stmt,
            int           column)
{
  return g_strdup ((const char *)sqlite3_column_text (stmt, column));
}

static inline void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *value)
{
  if (value == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, value, -1, SQLITE_TRANSIENT);
}

/* Ids and times of 0 mean "none" in the records and NULL in the database. */
static inline void
bind_id (sqlite3_stmt *stmt,
         int           index,
         gint64        id)
{
  if (id > 0)
    sqlite3_bind_int64 (stmt, index, id);
  else
    sqlite3_bind_null (stmt, index);
}

G_END_DECLS
