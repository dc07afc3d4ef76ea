/* sl-workspace-store-private.h: for the files of SlWorkspaceStore
 *
 * The store is one object in several files, one job each:
 * sl-workspace-store.c opens and closes the database, -migrate.c brings
 * it up to the latest schema, -recover.c looks at its files before it is
 * opened and recovers a damaged one, -changes.c sees what other
 * connections changed, -statements.c holds the errors every file
 * reports and the one reader of rows, and one file a table holds that
 * table's queries. The small helpers for statements below are shared by
 * all of them. Only the files of the store include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gi18n-lib.h>
#include <sqlite3.h>

#include "sl-main-thread.h"
#include "sl-workspace-store.h"

G_BEGIN_DECLS

/* How many lists sl_workspace_store_poll_changes() watches. */
#define SL_WORKSPACE_STORE_N_WATCHED_LISTS 4

struct _SlWorkspaceStore
{
  GObject              parent_instance;
  sqlite3             *db;
  char                *path;
  char                *key;                /* which file it is, among the open databases */
  gboolean             counted;            /* among the open databases */
  char                *damage;             /* what SQLite said was damaged */
  SlWorkspaceRecovery *recovery;
  char                *recovery_message;
  guint                schema_version;
  gint64               data_version;       /* 0 until the first poll */
  guint64              fingerprints[SL_WORKSPACE_STORE_N_WATCHED_LISTS];
};

/* Opening and closing (sl-workspace-store.c) */

gboolean sl_workspace_store_open_connection  (SlWorkspaceStore  *self,
                                              const char        *filename,
                                              int                flags,
                                              GError           **error);
gboolean sl_workspace_store_check_contents   (SlWorkspaceStore  *self,
                                              gint64            *version,
                                              GError           **error);
gboolean sl_workspace_store_open_database    (SlWorkspaceStore  *self,
                                              GError           **error);
void     sl_workspace_store_close_database   (SlWorkspaceStore  *self);
gboolean sl_workspace_store_database_in_use  (SlWorkspaceStore  *self,
                                              gboolean           unknown);

/* Migrations (sl-workspace-store-migrate.c) */

gboolean sl_workspace_store_migrate          (SlWorkspaceStore  *self,
                                              GError           **error);

/* Recovery (sl-workspace-store-recover.c) */

gboolean sl_workspace_store_open_or_recover  (SlWorkspaceStore  *self,
                                              GError           **error);
void     sl_workspace_store_set_recovery     (SlWorkspaceStore    *self,
                                              SlWorkspaceRecovery *recovery);
void     sl_workspace_store_save_recovery    (SlWorkspaceStore  *self);
void     sl_workspace_store_load_recovery    (SlWorkspaceStore  *self);

/* Projects (sl-workspace-store-projects.c) */

void     sl_workspace_store_set_project_write_error (SlWorkspaceStore  *self,
                                                     GError           **error,
                                                     int                rc,
                                                     SlProjectRecord   *project);

/* Run configurations, saved and read with their project
 * (sl-workspace-store-run-configs.c) */

gboolean sl_workspace_store_insert_run_configs (SlWorkspaceStore  *self,
                                                gint64             project_id,
                                                SlProjectRecord   *project,
                                                GArray            *new_ids,
                                                GError           **error);
void     sl_workspace_store_apply_run_config_ids (SlProjectRecord *project,
                                                  GArray          *new_ids);
gboolean sl_workspace_store_delete_run_configs (SlWorkspaceStore  *self,
                                                gint64             project_id,
                                                GError           **error);
gboolean sl_workspace_store_load_run_configs   (SlWorkspaceStore  *self,
                                                sqlite3_stmt      *stmt,
                                                SlProjectRecord   *project,
                                                GError           **error);
#define SL_WORKSPACE_STORE_RUN_CONFIGS_OF_PROJECT \
  "SELECT id, name, kind, command, arguments, environment, working_folder, pull_folders, options " \
  "FROM run_configs WHERE project_id = ?1 ORDER BY position, id"

/* Errors, statements and rows (sl-workspace-store-statements.c) */

sqlite3 *sl_workspace_store_get_db    (SlWorkspaceStore  *self);
/* @what is a translated sentence saying what failed; the rest of the
 * message says why and what the user can do about it. */
void     sl_workspace_store_set_error (SlWorkspaceStore  *self,
                                       GError           **error,
                                       int                rc,
                                       const char        *what);
char    *sl_workspace_store_strv_to_json   (const char * const *strv);
char   **sl_workspace_store_strv_from_json (const char         *json);

/* Makes the record of the row @stmt is on, or returns %NULL with @error
 * set. @data is what sl_workspace_store_read_rows() was given. */
typedef gpointer (*SlWorkspaceStoreRowReader) (SlWorkspaceStore  *self,
                                               sqlite3_stmt      *stmt,
                                               gpointer           data,
                                               GError           **error);

GPtrArray *sl_workspace_store_read_rows (SlWorkspaceStore           *self,
                                         sqlite3_stmt               *stmt,
                                         SlWorkspaceStoreRowReader   read_row,
                                         gpointer                    data,
                                         GDestroyNotify              free_row,
                                         const char                 *what,
                                         GError                    **error);

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

/* A statement of the store's database; on failure @error says the
 * database cannot be read. */
static inline sqlite3_stmt *
prepare (SlWorkspaceStore  *self,
         const char        *sql,
         GError           **error)
{
  return sl_workspace_store_prepare (self, sql, _("Cannot read the workspace database"), error);
}

static inline const char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  return (const char *)sqlite3_column_text (stmt, column);
}

static inline char *
column_dup (sqlite3_stmt *stmt,
            int           column)
{
  return g_strdup (column_text (stmt, column));
}

/* A list of strings, kept as a JSON array. */
static inline char **
column_strv (sqlite3_stmt *stmt,
             int           column)
{
  return sl_workspace_store_strv_from_json (column_text (stmt, column));
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

static inline void
bind_strv (sqlite3_stmt       *stmt,
           int                 index,
           const char * const *strv)
{
  g_autofree char *json = sl_workspace_store_strv_to_json (strv);

  sqlite3_bind_text (stmt, index, json, -1, SQLITE_TRANSIENT);
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

static inline gboolean
exec_sql (SlWorkspaceStore  *self,
          const char        *sql,
          const char        *what,
          GError           **error)
{
  int rc;

  SL_ASSERT_OFF_MAIN_THREAD ();
  rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    {
      sl_workspace_store_set_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

/* Runs a statement that returns no rows. */
static inline gboolean
step_done (SlWorkspaceStore  *self,
           sqlite3_stmt      *stmt,
           const char        *what,
           GError           **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

/* The statement @sql on its first row; %NULL with @error set when it
 * has none. */
static inline sqlite3_stmt *
query_row (SlWorkspaceStore  *self,
           const char        *sql,
           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = prepare (self, sql, error)))
    return NULL;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot read the workspace database"));
      return NULL;
    }

  return g_steal_pointer (&stmt);
}

static inline gboolean
query_int (SlWorkspaceStore  *self,
           const char        *sql,
           gint64            *value,
           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = query_row (self, sql, error);

  if (stmt == NULL)
    return FALSE;

  *value = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

static inline gboolean
query_text (SlWorkspaceStore  *self,
            const char        *sql,
            char             **value,
            GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = query_row (self, sql, error);

  if (stmt == NULL)
    return FALSE;

  *value = column_dup (stmt, 0);
  return TRUE;
}

static inline gboolean
begin_transaction (SlWorkspaceStore  *self,
                   GError           **error)
{
  /* IMMEDIATE takes the write lock now, so two windows saving at once
   * wait for each other instead of failing halfway. */
  return exec_sql (self, "BEGIN IMMEDIATE", _("Cannot change the workspace database"), error);
}

static inline gboolean
commit_transaction (SlWorkspaceStore  *self,
                    GError           **error)
{
  return exec_sql (self, "COMMIT", _("Cannot save the changes to the workspace database"), error);
}

static inline void
rollback_transaction (SlWorkspaceStore *self)
{
  /* Some errors end the transaction by themselves. */
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

G_END_DECLS
