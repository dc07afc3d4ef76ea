/* sl-workspace-store.c
 *
 * Every value reaches SQLite as a bound parameter of a prepared
 * statement; SQL text is only ever built from constants of this file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-file-lock.h"
#include "sl-main-thread.h"

#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "sl-workspace-salvage.h"
#include "sl-workspace-schema.h"
#include "sl-workspace-store-private.h"

/* Long enough for another Sightline window to finish a write, short
 * enough that a stuck one does not look like a hang. */
#define BUSY_TIMEOUT_MSEC 5000

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

struct _SlWorkspaceStore
{
  GObject              parent_instance;
  sqlite3             *db;
  char                *path;
  char                *key;                /* which file it is, in open_databases */
  gboolean             counted;            /* in open_databases */
  char                *damage;             /* what SQLite said was damaged */
  SlWorkspaceRecovery *recovery;
  char                *recovery_message;
  guint                schema_version;
  gint64               data_version;       /* 0 until the first poll */
  guint64              fingerprints[G_N_ELEMENTS (watched_lists)];
};

G_DEFINE_FINAL_TYPE (SlWorkspaceStore, sl_workspace_store, G_TYPE_OBJECT)
G_DEFINE_QUARK (sl-workspace-store-error-quark, sl_workspace_store_error)

#define TARGET_COLUMNS \
  "id, name, kind, host, port, user_name, auth_method, identity_file, " \
  "known_hosts_file, remote_base_folder, setup_command"
#define PROJECT_COLUMNS \
  "id, name, local_folder, target_id, remote_folder, upload_excludes"
#define RUN_CONFIG_COLUMNS \
  "id, name, kind, command, arguments, environment, working_folder, pull_folders, options"
#define RUN_COLUMNS \
  "id, root_folder, kind, relative_name, path, tags, last_seen, details"
#define JOB_COLUMNS \
  "id, command, target_id, target_name, project_id, project_name, started_at, " \
  "finished_at, exit_code, log_path, remote_folder, state, backend, backend_job_id, " \
  "backend_state, backend_reason, outcome_reason"

/* Errors */

static gboolean
may_write (const char *path,
           gboolean    folder)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_ACCESS_CAN_READ ","
                                                 G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE ","
                                                 G_FILE_ATTRIBUTE_ACCESS_CAN_EXECUTE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info == NULL)
    return !folder;   /* a file that is not there yet is made */

  return g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_READ) &&
         g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE) &&
         (!folder || g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_EXECUTE));
}

/* SQLite says "read-only" of the database whichever of its files it
 * cannot write: the message names the one that is. */
static void
set_unwritable_error (SlWorkspaceStore  *self,
                      GError           **error,
                      const char        *what,
                      const char        *detail)
{
  static const char * const companions[] = { "-wal", "-shm", "-journal" };
  g_autofree char *folder = g_path_get_dirname (self->path);

  if (!may_write (folder, TRUE))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot write in the folder “%s” of the workspace database (%s). SQLite keeps the database’s journal files there: check that you may write in it."),
                   what, folder, detail);
      return;
    }

  if (!may_write (self->path, FALSE))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot open or write “%s” (%s). Check that the file and its folder exist and that you may write to them."),
                   what, self->path, detail);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      g_autofree char *companion = g_strconcat (self->path, companions[i], NULL);

      if (!may_write (companion, FALSE))
        {
          g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                       _("%s: cannot write “%s”, which SQLite keeps beside the workspace database “%s” (%s). The database stays read-only until it can: give yourself write permission on that file, or delete it while no Sightline is running."),
                       what, companion, self->path, detail);
          return;
        }
    }

  g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
               _("%s: cannot open or write “%s” (%s). Check that the file and its folder exist and that you may write to them."),
               what, self->path, detail);
}

/* @what is a translated sentence saying what failed; the rest of the
 * message says why and what the user can do about it. */
static void
set_sqlite_error (SlWorkspaceStore  *self,
                  GError           **error,
                  int                rc,
                  const char        *what)
{
  const char *detail = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);

  switch (rc & 0xff)
    {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      g_free (self->damage);
      self->damage = g_strdup (detail);
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT,
                   _("%s: the workspace database “%s” is damaged (%s)."),
                   what, self->path, detail);
      break;

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_BUSY,
                   _("%s: the workspace database “%s” is in use by another program (%s). Close other Sightline windows and try again."),
                   what, self->path, detail);
      break;

    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
    case SQLITE_AUTH:
      set_unwritable_error (self, error, what, detail);
      break;

    case SQLITE_FULL:
    case SQLITE_IOERR:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot read or write “%s” (%s). Check that the disk works and has free space."),
                   what, self->path, detail);
      break;

    default:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: the workspace database “%s” reported an error (%s). If it happens again, please report it."),
                   what, self->path, detail);
      break;
    }
}

/* Lists of strings as JSON arrays */

static char *
strv_to_json (const char * const *strv)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (builder, strv[i]);
  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

/* A value that is not a JSON array of strings reads as an empty list:
 * one odd cell should not hide the whole workspace. */
static char **
strv_from_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL))
    return g_strv_builder_end (builder);

  if (!JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    return g_strv_builder_end (builder);

  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

/* Statements */

static sqlite3_stmt *
prepare (SlWorkspaceStore  *self,
         const char        *sql,
         GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  SL_ASSERT_OFF_MAIN_THREAD ();
  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the workspace database"));
      return NULL;
    }

  return stmt;
}

static void
bind_strv (sqlite3_stmt       *stmt,
           int                 index,
           const char * const *strv)
{
  g_autofree char *json = strv_to_json (strv);

  sqlite3_bind_text (stmt, index, json, -1, SQLITE_TRANSIENT);
}

static const char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  return (const char *)sqlite3_column_text (stmt, column);
}

static char **
column_strv (sqlite3_stmt *stmt,
             int           column)
{
  return strv_from_json (column_text (stmt, column));
}

static gboolean
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
      set_sqlite_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

/* Runs a statement that returns no rows. */
static gboolean
step_done (SlWorkspaceStore  *self,
           sqlite3_stmt      *stmt,
           const char        *what,
           GError           **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, what);
      return FALSE;
    }

  return TRUE;
}

static gboolean
query_int (SlWorkspaceStore  *self,
           const char        *sql,
           gint64            *value,
           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = prepare (self, sql, error)))
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the workspace database"));
      return FALSE;
    }

  *value = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

static gboolean
query_text (SlWorkspaceStore  *self,
            const char        *sql,
            char             **value,
            GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = prepare (self, sql, error)))
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the workspace database"));
      return FALSE;
    }

  *value = g_strdup (column_text (stmt, 0));
  return TRUE;
}

static gboolean
begin_transaction (SlWorkspaceStore  *self,
                   GError           **error)
{
  /* IMMEDIATE takes the write lock now, so two windows saving at once
   * wait for each other instead of failing halfway. */
  return exec_sql (self, "BEGIN IMMEDIATE", _("Cannot change the workspace database"), error);
}

static gboolean
commit_transaction (SlWorkspaceStore  *self,
                    GError           **error)
{
  return exec_sql (self, "COMMIT", _("Cannot save the changes to the workspace database"), error);
}

static void
rollback_transaction (SlWorkspaceStore *self)
{
  /* Some errors end the transaction by themselves. */
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Opening, migrating and recovering */

static void
close_database (SlWorkspaceStore *self)
{
  g_clear_pointer (&self->db, sqlite3_close_v2);
}

static gboolean
ensure_parent_folder (const char  *path,
                      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GError) local_error = NULL;

  if (parent == NULL)
    return TRUE;

  if (g_file_make_directory_with_parents (parent, NULL, &local_error) ||
      g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    return TRUE;

  g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
               _("Cannot create the folder “%s” for the workspace database: %s. Check that you may write there."),
               g_file_peek_path (parent), local_error->message);
  return FALSE;
}

/* An SQLite file with tables but no schema version was made by another
 * program; filling it with our tables would damage it. */
static gboolean
check_is_empty (SlWorkspaceStore  *self,
                GError           **error)
{
  gint64 n_objects = 0;

  if (!query_int (self, "SELECT count(*) FROM sqlite_master", &n_objects, error))
    return FALSE;

  if (n_objects > 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_A_WORKSPACE,
                   _("“%s” is an SQLite database of another program, not a Sightline workspace. It was left unchanged: move it away or choose another file."),
                   self->path);
      return FALSE;
    }

  return TRUE;
}

/* quick_check's lines, without its heading, on one line. */
static char *
describe_damage (const char *result)
{
  g_auto(GStrv) lines = g_strsplit (result != NULL ? result : "?", "\n", -1);
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) joined = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0' && !g_str_has_prefix (lines[i], "*** in database"))
      g_strv_builder_add (kept, lines[i]);
  joined = g_strv_builder_end (kept);
  return g_strjoinv ("; ", joined);
}

static gboolean
check_integrity (SlWorkspaceStore  *self,
                 GError           **error)
{
  g_autofree char *result = NULL;

  if (!query_text (self, "PRAGMA quick_check", &result, error))
    return FALSE;

  if (g_strcmp0 (result, "ok") != 0)
    {
      g_free (self->damage);
      self->damage = describe_damage (result);
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT,
                   _("The workspace database “%s” is damaged (%s)."),
                   self->path, self->damage);
      return FALSE;
    }

  return TRUE;
}

static gboolean
enable_write_ahead_log (SlWorkspaceStore  *self,
                        GError           **error)
{
  g_autofree char *mode = NULL;

  if (!query_text (self, "PRAGMA journal_mode = WAL", &mode, error))
    return FALSE;

  /* Some network file systems cannot share the WAL index; SQLite then
   * keeps its rollback journal, which is slower but just as safe. */
  if (g_strcmp0 (mode, "wal") != 0)
    g_debug ("Workspace database %s stays in journal mode %s", self->path, mode);

  return TRUE;
}

static gboolean
apply_migrations (SlWorkspaceStore  *self,
                  guint              from_version,
                  guint              to_version,
                  GError           **error)
{
  const char *what = _("Cannot bring the workspace database up to date");
  g_autofree char *set_version = NULL;

  for (guint version = from_version + 1; version <= to_version; version++)
    {
      const char * const *steps = sl_workspace_schema_get_steps (version);

      for (guint i = 0; steps[i] != NULL; i++)
        {
          if (!exec_sql (self, steps[i], what, error))
            return FALSE;
        }
    }

  /* PRAGMA takes no bound parameters; the number is this build's own. */
  set_version = g_strdup_printf ("PRAGMA user_version = %u", to_version);
  return exec_sql (self, set_version, what, error);
}

static gboolean
migrate (SlWorkspaceStore  *self,
         GError           **error)
{
  guint latest = sl_workspace_schema_get_latest_version ();
  gint64 version = 0;

  if (!begin_transaction (self, error))
    return FALSE;

  /* Read again under the write lock: another process may have migrated
   * the file since it was opened. */
  if (!query_int (self, "PRAGMA user_version", &version, error) ||
      (version < latest && !apply_migrations (self, (guint)version, latest, error)))
    {
      rollback_transaction (self);
      return FALSE;
    }

  return commit_transaction (self, error);
}

static gboolean
note_opened_by_this_version (SlWorkspaceStore  *self,
                             GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = prepare (self,
                  "INSERT INTO meta (key, value) VALUES ('last_opened_by_version', ?1) "
                  "ON CONFLICT (key) DO UPDATE SET value = excluded.value "
                  "WHERE value <> excluded.value",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, PACKAGE_VERSION);
  return step_done (self, stmt, _("Cannot change the workspace database"), error);
}

static gboolean
open_connection (SlWorkspaceStore  *self,
                 const char        *filename,
                 int                flags,
                 GError           **error)
{
  int rc = sqlite3_open_v2 (filename, &self->db, flags, NULL);

  if (rc != SQLITE_OK)
    {
      set_sqlite_error (self, error, rc, _("Cannot open the workspace database"));
      return FALSE;
    }

  sqlite3_extended_result_codes (self->db, TRUE);
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MSEC);
  return TRUE;
}

/* Whether the open database is a workspace this build can use, without
 * writing anything. */
static gboolean
check_contents (SlWorkspaceStore  *self,
                gint64            *version,
                GError           **error)
{
  guint latest = sl_workspace_schema_get_latest_version ();

  /* Read the version before anything writes to the file: switching to
   * WAL alone changes its header, and a database of a newer Sightline
   * must stay exactly as it is. */
  if (!query_int (self, "PRAGMA user_version", version, error))
    return FALSE;

  if (*version > latest)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NEWER_VERSION,
                   _("The workspace database “%s” was written by a newer version of Sightline (format %lld; this version knows up to %u). It was left unchanged: update Sightline to use it."),
                   self->path, (long long)*version, latest);
      return FALSE;
    }

  if (*version < 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_A_WORKSPACE,
                   _("“%s” is an SQLite database of another program, not a Sightline workspace. It was left unchanged: move it away or choose another file."),
                   self->path);
      return FALSE;
    }

  return (*version != 0 || check_is_empty (self, error)) && check_integrity (self, error);
}

static gboolean
open_database (SlWorkspaceStore  *self,
               GError           **error)
{
  const char *what = _("Cannot open the workspace database");
  guint latest = sl_workspace_schema_get_latest_version ();
  gint64 version = 0;

  if (!open_connection (self, self->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error) ||
      !check_contents (self, &version, error) ||
      !enable_write_ahead_log (self, error) ||
      !exec_sql (self, "PRAGMA foreign_keys = ON", what, error) ||
      (version < latest && !migrate (self, error)) ||
      !note_opened_by_this_version (self, error))
    return FALSE;

  self->schema_version = latest;

  return TRUE;
}

/* Whether the database is in use */

/* The bytes SQLite locks, the same on every system (os_unix.c, os_win.c):
 * in the "-shm" file the eight locks of the wal-index from byte 120 and,
 * at 128, its "dead man switch", which every connection using the log
 * holds a read lock on; in the database file the pending, reserved and
 * 510 shared lock bytes from 0x40000000, where a connection in WAL mode
 * keeps a shared lock for as long as it is open. */
#define SHM_LOCKS_FIRST  120
#define SHM_LOCKS_LENGTH 9
#define DB_LOCKS_FIRST   G_GINT64_CONSTANT (0x40000000)
#define DB_LOCKS_LENGTH  512

/* The databases stores of this process have open: the file's key → how
 * many. SQLite's locks are POSIX locks, which belong to the process, and
 * closing any descriptor of a file drops all of them: reading a database
 * that another store of this process has open, even its header, would
 * take its locks away, and the next program to close the database would
 * delete the log this process is still writing to. So the files are only
 * looked at while no store of this process has them open, and the lock
 * is held from looking until the new store is counted. */
G_LOCK_DEFINE_STATIC (open_databases);
static GHashTable *open_databases;

static void
count_open_database (const char *key)
{
  guint n;

  if (open_databases == NULL)
    open_databases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (open_databases, key));
  g_hash_table_insert (open_databases, g_strdup (key), GUINT_TO_POINTER (n + 1));
}

static void
uncount_open_database (const char *key)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (open_databases, key));

  if (n > 1)
    g_hash_table_insert (open_databases, g_strdup (key), GUINT_TO_POINTER (n - 1));
  else
    g_hash_table_remove (open_databases, key);
}

/* Which file @path is: the same under every name (links, relative
 * paths) while it exists. Asking does not open it. */
static char *
dup_database_key (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_ID_FILE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);
  const char *id = info != NULL ? g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE) : NULL;

  return id != NULL ? g_strconcat ("id:", id, NULL) : g_canonicalize_filename (path, NULL);
}

/* Whether another store of this process or another program has the
 * database open. While it is open, the log beside it is that program's
 * own and in use. When that cannot be told, @unknown is the answer: a
 * log is then left alone, while a damaged file is still moved aside, as
 * systems without these locks refuse to move a file that is open. */
static gboolean
database_in_use (SlWorkspaceStore *self,
                 gboolean          unknown)
{
  g_autofree char *shm_path = NULL;
  SlFileLockState states[2];

  if (open_databases != NULL && g_hash_table_contains (open_databases, self->key))
    return TRUE;

  shm_path = g_strconcat (self->path, "-shm", NULL);
  states[0] = sl_file_lock_test (shm_path, SHM_LOCKS_FIRST, SHM_LOCKS_LENGTH);
  states[1] = sl_file_lock_test (self->path, DB_LOCKS_FIRST, DB_LOCKS_LENGTH);
  if (states[0] == SL_FILE_LOCK_HELD || states[1] == SL_FILE_LOCK_HELD)
    return TRUE;

  return states[0] == SL_FILE_LOCK_UNKNOWN || states[1] == SL_FILE_LOCK_UNKNOWN ? unknown : FALSE;
}

/* Copies of the files */

static gboolean
copy_file (const char  *from_path,
           const char  *to_path,
           GError     **error)
{
  g_autoptr(GFile) from = g_file_new_for_path (from_path);
  g_autoptr(GFile) to = g_file_new_for_path (to_path);

  return g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, error);
}

/* Removes the copy of the database and whatever SQLite made beside it,
 * and its folder. */
static void
remove_copy (const char *copy_path)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };
  g_autofree char *folder = g_path_get_dirname (copy_path);

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (copy_path, suffixes[i], NULL);

      if (g_remove (path) != 0 && errno != ENOENT)
        g_debug ("Cannot remove %s: %s", path, g_strerror (errno));
    }
  if (g_rmdir (folder) != 0)
    g_debug ("Cannot remove %s: %s", folder, g_strerror (errno));
}

/* Copies the database and its log, not the wal-index, into a new folder
 * of its own: SQLite rebuilds the index from the log. Returns the path of
 * the copy of the database. */
static char *
copy_with_log (SlWorkspaceStore  *self,
               const char        *wal_path,
               GError           **error)
{
  g_autofree char *folder = g_dir_make_tmp ("sightline-workspace-XXXXXX", error);
  g_autofree char *copy_path = NULL;
  g_autofree char *copy_wal_path = NULL;

  if (folder == NULL)
    return NULL;

  copy_path = g_build_filename (folder, "workspace.db", NULL);
  copy_wal_path = g_strconcat (copy_path, "-wal", NULL);
  if (!copy_file (self->path, copy_path, error) || !copy_file (wal_path, copy_wal_path, error))
    {
      remove_copy (copy_path);
      return NULL;
    }

  return g_steal_pointer (&copy_path);
}

/* Looking before opening for writing */

typedef enum {
  FILES_USABLE,
  FILES_FOREIGN_WAL,   /* the log beside the file is not the file's */
  FILES_DAMAGED,
} FilesState;

static goffset
file_size (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  return info != NULL ? g_file_info_get_size (info) : -1;
}

/* A read-only connection neither writes the log nor checkpoints it into
 * the file, whatever it finds. */
static gboolean
check_read_only (SlWorkspaceStore  *self,
                 const char        *filename,
                 int                flags,
                 GError           **error)
{
  gint64 version = 0;
  gboolean usable;

  usable = open_connection (self, filename, SQLITE_OPEN_READONLY | flags, error) &&
           check_contents (self, &version, error);
  close_database (self);
  return usable;
}

/* Opened for writing, the copy replays its log the way the database
 * would: a read-only connection cannot be trusted with a log left by a
 * program that stopped, as it may not rebuild the log's index. Closing
 * does not checkpoint, so the copy's file keeps the original bytes. */
static gboolean
check_copy (SlWorkspaceStore  *self,
            const char        *copy_path,
            GError           **error)
{
  gint64 version = 0;
  gboolean usable = FALSE;

  if (open_connection (self, copy_path, SQLITE_OPEN_READWRITE, error))
    {
      sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
      usable = check_contents (self, &version, error);
    }
  close_database (self);
  return usable;
}

/* The file alone, as if there were no log beside it. */
static char *
dup_immutable_uri (const char *path)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *uri = g_filename_to_uri (absolute, NULL, NULL);

  return uri != NULL ? g_strconcat (uri, "?immutable=1", NULL) : NULL;
}

static gboolean
is_judgement (const GError *error)
{
  return g_error_matches (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT) ||
         g_error_matches (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_A_WORKSPACE);
}

/* Judges the log on a copy of the database with it: when the copy is a
 * sound workspace, so is the database. When it is not but the file alone
 * is, the log is not the file's; when neither is, the file is damaged. */
static gboolean
judge_copy (SlWorkspaceStore  *self,
            const char        *wal_path,
            FilesState        *state,
            char             **reason,
            GError           **error)
{
  g_autofree char *copy_path = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GError) copy_error = NULL;
  g_autoptr(GError) wal_error = NULL;
  g_autoptr(GError) file_error = NULL;
  gboolean file_usable;

  copy_path = copy_with_log (self, wal_path, &copy_error);
  if (copy_path == NULL)
    {
      /* Not judged: opened as SQLite opens any database. */
      g_debug ("The write-ahead log of %s is not checked: %s", self->path, copy_error->message);
      return TRUE;
    }

  if (check_copy (self, copy_path, &wal_error))
    {
      remove_copy (copy_path);
      return TRUE;
    }

  /* A newer Sightline's log is left alone with its database. A copy that
   * cannot be read says nothing about the log. */
  if (!is_judgement (wal_error))
    {
      remove_copy (copy_path);
      if (g_error_matches (wal_error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NEWER_VERSION))
        {
          g_propagate_error (error, g_steal_pointer (&wal_error));
          return FALSE;
        }
      g_debug ("The write-ahead log of %s is not checked: %s", self->path, wal_error->message);
      return TRUE;
    }

  /* The copy's file is as it was: nothing was checkpointed into it. */
  uri = dup_immutable_uri (copy_path);
  file_usable = uri != NULL && check_read_only (self, uri, SQLITE_OPEN_URI, &file_error);
  remove_copy (copy_path);

  if (file_usable)
    {
      *state = FILES_FOREIGN_WAL;
      *reason = g_strdup (g_error_matches (wal_error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT)
                          ? _("applied, it would damage the database")
                          : _("applied, it would make the database another program’s"));
      return TRUE;
    }

  if (file_error == NULL || is_judgement (file_error))
    {
      *state = FILES_DAMAGED;
      *reason = g_strdup (self->damage != NULL ? self->damage : wal_error->message);
      return TRUE;
    }

  if (g_error_matches (file_error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NEWER_VERSION))
    {
      g_propagate_error (error, g_steal_pointer (&file_error));
      return FALSE;
    }

  g_debug ("The file %s alone is not checked: %s", self->path, file_error->message);
  return TRUE;
}

/* SQLite replays whatever valid log lies beside a database into it, and
 * checkpoints it into the file when the last connection closes: a log
 * left over from another copy of the file, or from another database,
 * would overwrite the user's data. So before the file is opened for
 * writing, a log nobody uses is checked: it must be a log of the file's
 * page size beside a file in WAL mode, and a copy of the database with
 * it must be a sound workspace.
 *
 * The log a program that stopped left behind is the database's own, and
 * SQLite's recovery replays it: its salts need not be the file's, and it
 * may hold frames from before a checkpoint started it over. Only what
 * SQLite itself would refuse or what makes the database unsound counts
 * against it. */
static gboolean
inspect_files (SlWorkspaceStore  *self,
               FilesState        *state,
               char             **reason,
               GError           **error)
{
  g_autofree char *wal_path = g_strconcat (self->path, "-wal", NULL);
  guint32 page_size = 0;
  gboolean wal_mode = FALSE;

  *state = FILES_USABLE;
  if (file_size (wal_path) <= 0)
    return TRUE;

  /* Another program's log is live: it is its own, and nothing of it may
   * be read or moved. */
  if (database_in_use (self, TRUE))
    {
      g_debug ("%s is in use: its write-ahead log is not checked", self->path);
      return TRUE;
    }

  if (file_size (self->path) <= 0)
    {
      *state = FILES_FOREIGN_WAL;
      *reason = g_strdup (_("the database file is empty or missing"));
      return TRUE;
    }

  if (!sl_workspace_read_db_header (self->path, &page_size, &wal_mode))
    {
      *state = FILES_DAMAGED;
      *reason = g_strdup (_("it is not an SQLite database"));
      return TRUE;
    }

  if (!wal_mode)
    {
      *state = FILES_FOREIGN_WAL;
      *reason = g_strdup (_("the database does not use a write-ahead log"));
      return TRUE;
    }

  if (!sl_workspace_wal_header_fits (wal_path, page_size, reason))
    {
      *state = FILES_FOREIGN_WAL;
      return TRUE;
    }

  return judge_copy (self, wal_path, state, reason, error);
}

/* Setting files aside */

/* A name beside @path, "@path.@word-STAMP", that neither it nor its
 * journal files' names are taken. */
static char *
find_free_aside_path (const char *path,
                      const char *word)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *base = g_strdup_printf ("%s.%s-%s", path, word, stamp);
  char *aside = g_strdup (base);

  /* Two failures within a second must not overwrite the first copy. */
  for (guint n = 2; ; n++)
    {
      g_autofree char *wal = g_strconcat (aside, "-wal", NULL);
      g_autofree char *shm = g_strconcat (aside, "-shm", NULL);

      if (!g_file_test (aside, G_FILE_TEST_EXISTS) && !g_file_test (wal, G_FILE_TEST_EXISTS) &&
          !g_file_test (shm, G_FILE_TEST_EXISTS))
        break;
      g_free (aside);
      aside = g_strdup_printf ("%s-%u", base, n);
    }

  return aside;
}

/* Moves @path@suffix to @aside@suffix, and notes it in @report. */
static gboolean
move_companion_aside (const char           *path,
                      const char           *aside,
                      const char           *suffix,
                      SlWorkspaceRecovery  *report,
                      GError              **error)
{
  g_autofree char *from_path = g_strconcat (path, suffix, NULL);
  g_autofree char *to_path = g_strconcat (aside, suffix, NULL);
  g_autoptr(GFile) from = g_file_new_for_path (from_path);
  g_autoptr(GFile) to = g_file_new_for_path (to_path);

  if (!g_file_query_exists (from, NULL))
    return TRUE;

  if (!g_file_move (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, error))
    return FALSE;

  sl_workspace_recovery_add_moved_aside (report, to_path);
  return TRUE;
}

/* Moves the files of the database named by @suffixes aside, untouched:
 * left in place, SQLite would replay the journal files into the database
 * opened next. */
static gboolean
move_files_aside (SlWorkspaceStore     *self,
                  const char           *word,
                  const char * const   *suffixes,
                  SlWorkspaceRecovery  *report,
                  GError              **error)
{
  g_autofree char *aside = find_free_aside_path (self->path, word);
  g_autoptr(GError) local_error = NULL;

  for (guint i = 0; suffixes[i] != NULL; i++)
    {
      if (!move_companion_aside (self->path, aside, suffixes[i], report, &local_error))
        {
          g_autofree char *file = g_strconcat (self->path, suffixes[i], NULL);

          g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                       _("“%s” could not be moved aside (%s), so the workspace database “%s” was not opened: it would have been changed by it. Move that file away by hand, then start Sightline again."),
                       file, local_error->message, self->path);
          return FALSE;
        }
    }

  return TRUE;
}

static void
set_recovery (SlWorkspaceStore    *self,
              SlWorkspaceRecovery *recovery)
{
  g_set_object (&self->recovery, recovery);
  g_clear_pointer (&self->recovery_message, g_free);
  if (recovery != NULL)
    self->recovery_message = sl_workspace_recovery_dup_message (recovery);
}

static gboolean
set_log_aside (SlWorkspaceStore  *self,
               const char        *reason,
               GError           **error)
{
  static const char * const suffixes[] = { "-wal", "-shm", NULL };
  g_autoptr(SlWorkspaceRecovery) report = sl_workspace_recovery_new (SL_WORKSPACE_RECOVERY_FOREIGN_WAL,
                                                                      self->path, reason);

  /* A program that opened the database since it was looked at has
   * replayed the log already: it is in use, and stays. */
  if (database_in_use (self, TRUE))
    {
      g_debug ("%s was opened meanwhile: its write-ahead log stays", self->path);
      return TRUE;
    }

  g_debug ("Setting the write-ahead log of %s aside: %s", self->path, reason);
  if (!move_files_aside (self, "stale", suffixes, report, error))
    return FALSE;

  set_recovery (self, report);
  return TRUE;
}

/* Salvages what can be read of the file moved aside into the new
 * database; only the file, as its log may not be its own. */
static void
salvage (SlWorkspaceStore    *self,
         SlWorkspaceRecovery *report)
{
  const char *aside = sl_workspace_recovery_get_moved_aside (report)[0];
  g_autofree char *uri = aside != NULL ? dup_immutable_uri (aside) : NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *from = NULL;

  if (uri == NULL ||
      sqlite3_open_v2 (uri, &from, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK ||
      !sl_workspace_salvage (from, self->db, report, &error))
    g_debug ("Nothing salvaged from %s: %s", aside, error != NULL ? error->message : sqlite3_errmsg (from));

  sqlite3_close_v2 (from);
}

static gboolean
recover_from_corruption (SlWorkspaceStore  *self,
                         const char        *reason,
                         GError           **error)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal", NULL };
  g_autoptr(SlWorkspaceRecovery) report = sl_workspace_recovery_new (SL_WORKSPACE_RECOVERY_DAMAGED,
                                                                      self->path, reason);
  g_autoptr(GError) move_error = NULL;

  close_database (self);

  /* Files another program has open are never moved from under it. */
  if (database_in_use (self, FALSE))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT,
                   _("The workspace database “%s” is damaged (%s), but another Sightline window or command, or another program, has it open, so it was left as it is. Close them, then start again to repair it."),
                   self->path, reason);
      return FALSE;
    }

  g_debug ("Moving the workspace database aside: %s", reason);
  if (!move_files_aside (self, "corrupt", suffixes, report, &move_error))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT,
                   _("The workspace database “%s” is damaged (%s) and could not be moved aside: %s"),
                   self->path, reason, move_error->message);
      return FALSE;
    }

  if (!open_database (self, error))
    return FALSE;

  salvage (self, report);
  set_recovery (self, report);
  return TRUE;
}

/* The report of a recovery stays in the database until it is dismissed,
 * so that every program that opens it tells the user. */
static void
save_recovery (SlWorkspaceStore *self)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = sl_workspace_recovery_to_json (self->recovery);

  stmt = prepare (self, "INSERT OR REPLACE INTO meta (key, value) VALUES ('recovery', ?1)", &error);
  if (stmt != NULL)
    {
      bind_text (stmt, 1, json);
      step_done (self, stmt, _("Cannot change the workspace database"), &error);
    }
  if (error != NULL)
    g_warning ("The report of the recovery of %s could not be kept: %s", self->path, error->message);
}

static void
load_recovery (SlWorkspaceStore *self)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(SlWorkspaceRecovery) recovery = NULL;
  g_autoptr(GError) error = NULL;

  stmt = prepare (self, "SELECT value FROM meta WHERE key = 'recovery'", &error);
  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW)
    return;

  if ((recovery = sl_workspace_recovery_new_from_json (column_text (stmt, 0), &error)) == NULL)
    g_debug ("%s", error->message);
  set_recovery (self, recovery);
}

/* GObject */

static void
sl_workspace_store_finalize (GObject *object)
{
  SlWorkspaceStore *self = (SlWorkspaceStore *)object;

  if (self->counted)
    {
      G_LOCK (open_databases);
      close_database (self);
      uncount_open_database (self->key);
      G_UNLOCK (open_databases);
    }
  close_database (self);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->recovery_message, g_free);
  g_clear_pointer (&self->damage, g_free);
  g_clear_object (&self->recovery);

  G_OBJECT_CLASS (sl_workspace_store_parent_class)->finalize (object);
}

static void
sl_workspace_store_class_init (SlWorkspaceStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_workspace_store_finalize;
}

static void
sl_workspace_store_init (SlWorkspaceStore *self)
{
}

/**
 * sl_workspace_store_dup_default_path:
 *
 * Returns: (transfer full): `$XDG_DATA_HOME/sightline/workspace.db`
 */
char *
sl_workspace_store_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "sightline", "workspace.db", NULL);
}

/**
 * sl_workspace_store_get_latest_schema_version:
 *
 * Returns: the schema version this build creates and migrates to
 */
guint
sl_workspace_store_get_latest_schema_version (void)
{
  return sl_workspace_schema_get_latest_version ();
}

/* Called with open_databases locked. */
static gboolean
open_or_recover (SlWorkspaceStore  *self,
                 GError           **error)
{
  g_autoptr(GError) open_error = NULL;
  g_autofree char *reason = NULL;
  FilesState state = FILES_USABLE;

  if (!inspect_files (self, &state, &reason, error))
    return FALSE;

  if (state == FILES_FOREIGN_WAL && !set_log_aside (self, reason, error))
    return FALSE;

  if (state != FILES_DAMAGED)
    {
      if (open_database (self, &open_error))
        return TRUE;

      /* Closing must not checkpoint a log into a file found damaged. */
      if (self->db != NULL)
        sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
      close_database (self);
      if (!g_error_matches (open_error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT))
        {
          g_propagate_error (error, g_steal_pointer (&open_error));
          return FALSE;
        }
      g_free (reason);
      reason = g_strdup (self->damage != NULL ? self->damage : open_error->message);
    }

  return recover_from_corruption (self, reason, error);
}

/**
 * sl_workspace_store_new_for_path:
 * @path: the database file; it and its folder are created when missing
 *
 * Opens the workspace database and brings it up to the latest schema.
 *
 * A file that is damaged or is not an SQLite database is moved aside with
 * its journal files, untouched, and what can be read of it is copied into
 * a new workspace. A write-ahead log beside the file that is not its own
 * is moved aside unapplied; a log left by a program that stopped is the
 * file's own and is replayed, and while another program has the database
 * open, its files are neither judged nor moved.
 * sl_workspace_store_get_recovery() then says what was done, in this and
 * every later opening until sl_workspace_store_dismiss_recovery(). A
 * database written by a newer Sightline is left unchanged and
 * %SL_WORKSPACE_STORE_ERROR_NEWER_VERSION is returned.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SlWorkspaceStore *
sl_workspace_store_new_for_path (const char  *path,
                                 GError     **error)
{
  g_autoptr(SlWorkspaceStore) self = NULL;
  gboolean opened;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL && path[0] != '\0', NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ensure_parent_folder (path, error))
    return NULL;

  self = g_object_new (SL_TYPE_WORKSPACE_STORE, NULL);
  self->path = g_strdup (path);

  G_LOCK (open_databases);
  self->key = dup_database_key (path);
  opened = open_or_recover (self, error);
  if (opened)
    {
      /* The file may be new, or a new one made in a recovery. */
      g_free (self->key);
      self->key = dup_database_key (path);
      count_open_database (self->key);
      self->counted = TRUE;
    }
  else
    close_database (self);
  G_UNLOCK (open_databases);

  if (!opened)
    return NULL;

  if (self->recovery != NULL)
    save_recovery (self);
  else
    load_recovery (self);

  return g_steal_pointer (&self);
}

const char *
sl_workspace_store_get_path (SlWorkspaceStore *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  return self->path;
}

guint
sl_workspace_store_get_schema_version (SlWorkspaceStore *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), 0);
  return self->schema_version;
}

/**
 * sl_workspace_store_get_recovery_message:
 *
 * Returns: (nullable): a message for the user while the report of the
 *   last recovery is not dismissed: what was wrong, where the original
 *   files are, what was recovered and what was lost
 */
const char *
sl_workspace_store_get_recovery_message (SlWorkspaceStore *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  return self->recovery_message;
}

/**
 * sl_workspace_store_get_recovery:
 *
 * Returns: (transfer none) (nullable): the report of the last recovery,
 *   until it is dismissed
 */
SlWorkspaceRecovery *
sl_workspace_store_get_recovery (SlWorkspaceStore *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  return self->recovery;
}

/**
 * sl_workspace_store_dismiss_recovery:
 *
 * Forgets the report of the last recovery: the user has read it. The
 * files it kept aside stay where they are.
 */
gboolean
sl_workspace_store_dismiss_recovery (SlWorkspaceStore  *self,
                                     GError           **error)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);

  if (!exec_sql (self, "DELETE FROM meta WHERE key = 'recovery'", _("Cannot change the workspace database"), error))
    return FALSE;

  set_recovery (self, NULL);
  return TRUE;
}

/* Changes by other connections */

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
      set_sqlite_error (self, error, rc, _("Cannot read the workspace database"));
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

/* Targets */

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

static SlTargetRecord *
target_from_row (sqlite3_stmt *stmt)
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
  set_sqlite_error (self, error, rc, what);
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
    return target_from_row (stmt);

  if (rc == SQLITE_DONE)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("Target %lld is not in the workspace. Reload the list of targets."),
                 (long long)target_id);
  else
    set_sqlite_error (self, error, rc, _("Cannot read the targets"));

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
  g_autoptr(GPtrArray) targets = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT " TARGET_COLUMNS " FROM targets ORDER BY kind <> 'local', name, id", error);
  if (stmt == NULL)
    return NULL;

  targets = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (targets, target_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the targets"));
      return NULL;
    }

  return g_steal_pointer (&targets);
}

/* Projects */

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

static void
set_project_write_error (SlWorkspaceStore  *self,
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
      set_sqlite_error (self, error, rc, what);
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

/* The new ids are only handed to the records once the transaction is
 * committed, so a failed save leaves the records as they were. */
static gboolean
insert_run_configs (SlWorkspaceStore  *self,
                    gint64             project_id,
                    SlProjectRecord   *project,
                    GArray            *new_ids,
                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint n_configs = sl_project_record_get_n_run_configs (project);

  stmt = prepare (self,
                  "INSERT INTO run_configs (project_id, position, name, kind, command, arguments, "
                  "                         environment, working_folder, pull_folders, options) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                  error);
  if (stmt == NULL)
    return FALSE;

  for (guint i = 0; i < n_configs; i++)
    {
      SlRunConfigRecord *config = sl_project_record_get_run_config (project, i);
      gint64 id;
      int rc;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, project_id);
      sqlite3_bind_int (stmt, 2, (int)i);
      bind_text (stmt, 3, sl_run_config_record_get_name (config));
      bind_text (stmt, 4, sl_run_config_kind_to_id (sl_run_config_record_get_kind (config)));
      bind_text (stmt, 5, sl_run_config_record_get_command (config));
      bind_strv (stmt, 6, sl_run_config_record_get_arguments (config));
      bind_strv (stmt, 7, sl_run_config_record_get_environment (config));
      bind_text (stmt, 8, sl_run_config_record_get_working_folder (config));
      bind_strv (stmt, 9, sl_run_config_record_get_pull_folders (config));
      bind_text (stmt, 10, sl_run_config_record_get_options (config));

      rc = sqlite3_step (stmt);
      if (rc != SQLITE_DONE)
        {
          set_project_write_error (self, error, rc, project);
          return FALSE;
        }

      id = sqlite3_last_insert_rowid (self->db);
      g_array_append_val (new_ids, id);
    }

  return TRUE;
}

static void
apply_run_config_ids (SlProjectRecord *project,
                      GArray          *new_ids)
{
  for (guint i = 0; i < new_ids->len; i++)
    sl_run_config_record_set_id (sl_project_record_get_run_config (project, i),
                                 g_array_index (new_ids, gint64, i));
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
      set_project_write_error (self, error, rc, project);
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
      !insert_run_configs (self, project_id, project, config_ids, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  sl_project_record_set_id (project, project_id);
  apply_run_config_ids (project, config_ids);
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
      set_project_write_error (self, error, rc, project);
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

static gboolean
delete_run_configs (SlWorkspaceStore  *self,
                    gint64             project_id,
                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = prepare (self, "DELETE FROM run_configs WHERE project_id = ?1", error)))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, project_id);
  return step_done (self, stmt, _("Cannot change the workspace database"), error);
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
      !delete_run_configs (self, project_id, error) ||
      !insert_run_configs (self, project_id, project, config_ids, error) ||
      !commit_transaction (self, error))
    {
      rollback_transaction (self);
      return FALSE;
    }

  apply_run_config_ids (project, config_ids);
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

static SlRunConfigRecord *
run_config_from_row (sqlite3_stmt *stmt)
{
  SlRunConfigKind kind = SL_RUN_CONFIG_KIND_TRAIN;
  SlRunConfigRecord *config;
  g_auto(GStrv) arguments = column_strv (stmt, 4);
  g_auto(GStrv) environment = column_strv (stmt, 5);
  g_auto(GStrv) pull_folders = column_strv (stmt, 7);

  sl_run_config_kind_from_id (column_text (stmt, 2), &kind);

  config = sl_run_config_record_new (kind, column_text (stmt, 1), column_text (stmt, 3));
  sl_run_config_record_set_id (config, sqlite3_column_int64 (stmt, 0));
  sl_run_config_record_set_arguments (config, (const char * const *)arguments);
  sl_run_config_record_set_environment (config, (const char * const *)environment);
  sl_run_config_record_set_working_folder (config, column_text (stmt, 6));
  sl_run_config_record_set_pull_folders (config, (const char * const *)pull_folders);
  sl_run_config_record_set_options (config, column_text (stmt, 8));

  return config;
}

static SlProjectRecord *
project_from_row (sqlite3_stmt *stmt)
{
  g_auto(GStrv) excludes = column_strv (stmt, 5);
  SlProjectRecord *project;

  project = sl_project_record_new (column_text (stmt, 1), column_text (stmt, 2));
  sl_project_record_set_id (project, sqlite3_column_int64 (stmt, 0));
  sl_project_record_set_target_id (project, sqlite3_column_int64 (stmt, 3));
  sl_project_record_set_remote_folder (project, column_text (stmt, 4));
  sl_project_record_set_upload_excludes (project, (const char * const *)excludes);

  return project;
}

static gboolean
load_run_configs (SlWorkspaceStore  *self,
                  sqlite3_stmt      *stmt,
                  SlProjectRecord   *project,
                  GError           **error)
{
  int rc;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, sl_project_record_get_id (project));

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(SlRunConfigRecord) config = run_config_from_row (stmt);

      sl_project_record_add_run_config (project, config);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the run configurations"));
      return FALSE;
    }

  return TRUE;
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
  g_autoptr(GPtrArray) projects = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self, "SELECT " PROJECT_COLUMNS " FROM projects ORDER BY name, id", error)) ||
      !(configs_stmt = prepare (self,
                                "SELECT " RUN_CONFIG_COLUMNS " FROM run_configs "
                                "WHERE project_id = ?1 ORDER BY position, id",
                                error)))
    return NULL;

  projects = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      SlProjectRecord *project = project_from_row (stmt);

      g_ptr_array_add (projects, project);
      if (!load_run_configs (self, configs_stmt, project, error))
        return NULL;
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the projects"));
      return NULL;
    }

  return g_steal_pointer (&projects);
}

/* Recent folders */

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
  g_autoptr(GPtrArray) folders = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT path, opened_at FROM recent_folders ORDER BY opened_at DESC, id DESC", error);
  if (stmt == NULL)
    return NULL;

  folders = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (folders, sl_recent_folder_record_new (column_text (stmt, 0),
                                                           sqlite3_column_int64 (stmt, 1)));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the recent folders"));
      return NULL;
    }

  return g_steal_pointer (&folders);
}

/* Run index */

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
      set_sqlite_error (self, error, rc, _("Cannot save the run index"));
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

static SlRunRecord *
run_from_row (sqlite3_stmt *stmt)
{
  g_auto(GStrv) tags = column_strv (stmt, 5);
  g_auto(GStrv) details = column_strv (stmt, 7);
  SlRunRecord *run;

  run = sl_run_record_new (column_text (stmt, 1), column_text (stmt, 2),
                           column_text (stmt, 3), column_text (stmt, 4));
  sl_run_record_set_id (run, sqlite3_column_int64 (stmt, 0));
  sl_run_record_set_tags (run, (const char * const *)tags);
  sl_run_record_set_last_seen (run, sqlite3_column_int64 (stmt, 6));
  sl_run_record_set_details (run, (const char * const *)details);

  return run;
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
      set_sqlite_error (self, error, rc, _("Cannot read the run index"));
      return FALSE;
    }

  return TRUE;
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
  g_autoptr(GPtrArray) runs = NULL;
  int rc;

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

  runs = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      SlRunRecord *run = run_from_row (stmt);

      g_ptr_array_add (runs, run);
      if (!load_run_files (self, files_stmt, run, error))
        return NULL;
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the run index"));
      return NULL;
    }

  return g_steal_pointer (&runs);
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

/* Open folders */

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
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stmt = prepare (self, "SELECT path FROM open_folders ORDER BY position", error)))
    return NULL;

  paths = g_ptr_array_new_with_free_func (g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (paths, g_strdup (column_text (stmt, 0)));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the folders of the Workspace"));
      return NULL;
    }

  g_ptr_array_add (paths, NULL);
  return (char **)g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}

/* Job history */

/**
 * sl_workspace_store_add_job:
 * @job: a job that is not stored yet; its id is set on success, and the
 *   target and project names when they were not set
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_add_job (SlWorkspaceStore  *self,
                            SlJobRecord       *job,
                            GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project_name = NULL;
  gint64 job_id = 0;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (sl_job_record_get_command (job)[0] == '\0')
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                           _("A job needs a command."));
      return FALSE;
    }

  /* The names are copied from the target and project unless given, so
   * the history keeps them when those are renamed or removed. */
  stmt = prepare (self,
                  "INSERT INTO jobs (command, target_id, target_name, project_id, project_name, "
                  "                  started_at, finished_at, exit_code, log_path, remote_folder, state, "
                  "                  backend, backend_job_id, backend_state, backend_reason) "
                  "VALUES (?1, ?2, ifnull (?3, (SELECT name FROM targets WHERE id = ?2)), "
                  "        ?4, ifnull (?5, (SELECT name FROM projects WHERE id = ?4)), "
                  "        ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
                  "RETURNING id, target_name, project_name",
                  error);
  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, sl_job_record_get_command (job));
  bind_id (stmt, 2, sl_job_record_get_target_id (job));
  bind_text (stmt, 3, sl_job_record_get_target_name (job));
  bind_id (stmt, 4, sl_job_record_get_project_id (job));
  bind_text (stmt, 5, sl_job_record_get_project_name (job));
  sqlite3_bind_int64 (stmt, 6, sl_job_record_get_started_at (job));
  bind_id (stmt, 7, sl_job_record_get_finished_at (job));
  if (sl_job_record_has_exit_code (job))
    sqlite3_bind_int (stmt, 8, sl_job_record_get_exit_code (job));
  else
    sqlite3_bind_null (stmt, 8);
  bind_text (stmt, 9, sl_job_record_get_log_path (job));
  bind_text (stmt, 10, sl_job_record_get_remote_folder (job));
  bind_text (stmt, 11, sl_job_state_to_id (sl_job_record_get_state (job)));
  bind_text (stmt, 12, sl_job_record_get_backend (job));
  bind_text (stmt, 13, sl_job_record_get_backend_job_id (job));
  bind_text (stmt, 14, sl_job_record_get_backend_state (job));
  bind_text (stmt, 15, sl_job_record_get_backend_reason (job));

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      job_id = sqlite3_column_int64 (stmt, 0);
      target_name = g_strdup (column_text (stmt, 1));
      project_name = g_strdup (column_text (stmt, 2));
      rc = sqlite3_step (stmt);
    }

  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error_literal (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                           _("The target or project of the job is not in the workspace. Choose another one."));
      return FALSE;
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot save the job history"));
      return FALSE;
    }

  sl_job_record_set_id (job, job_id);
  sl_job_record_set_target_name (job, target_name);
  sl_job_record_set_project_name (job, project_name);
  return TRUE;
}

/**
 * sl_workspace_store_finish_job:
 * @job: a stored job whose state was set to how it ended, and its exit
 *   code when it has one; a finish time of 0 is set to now
 *
 * Saves the end of @job: its state, finish time and exit code.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_finish_job (SlWorkspaceStore  *self,
                               SlJobRecord       *job,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (sl_job_record_get_id (job) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!sl_job_state_is_finished (sl_job_record_get_state (job)))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID,
                   _("The job “%s” has not ended yet: set how it ended before saving its end."),
                   sl_job_record_get_command (job));
      return FALSE;
    }

  if (sl_job_record_get_finished_at (job) == 0)
    sl_job_record_set_finished_at (job, g_get_real_time ());

  stmt = prepare (self, "UPDATE jobs SET finished_at = ?1, exit_code = ?2, state = ?3, "
                  "backend_state = ifnull (?5, backend_state), backend_reason = ?6 WHERE id = ?4", error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, sl_job_record_get_finished_at (job));
  if (sl_job_record_has_exit_code (job))
    sqlite3_bind_int (stmt, 2, sl_job_record_get_exit_code (job));
  else
    sqlite3_bind_null (stmt, 2);
  bind_text (stmt, 3, sl_job_state_to_id (sl_job_record_get_state (job)));
  sqlite3_bind_int64 (stmt, 4, sl_job_record_get_id (job));
  bind_text (stmt, 5, sl_job_record_get_backend_state (job));
  bind_text (stmt, 6, sl_job_record_get_backend_reason (job));

  if (!step_done (self, stmt, _("Cannot save the job history"), error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Job %lld is not in the job history. Reload the list of jobs."),
                   (long long)sl_job_record_get_id (job));
      return FALSE;
    }

  return TRUE;
}

/**
 * sl_workspace_store_update_job:
 * @job: a stored job that has not ended
 *
 * Saves what the backend said of @job while it waits or runs: its id
 * there, its state word and reason, and whether it is queued or running.
 * A job whose end was saved already is left as it is.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_workspace_store_update_job (SlWorkspaceStore  *self,
                               SlJobRecord       *job,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);
  g_return_val_if_fail (sl_job_record_get_id (job) > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stmt = prepare (self,
                  "UPDATE jobs SET state = ?2, backend_job_id = ifnull (?3, backend_job_id), "
                  "backend_state = ?4, backend_reason = ?5 "
                  "WHERE id = ?1 AND state IN ('queued', 'running')",
                  error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, sl_job_record_get_id (job));
  bind_text (stmt, 2, sl_job_state_to_id (sl_job_record_get_state (job)));
  bind_text (stmt, 3, sl_job_record_get_backend_job_id (job));
  bind_text (stmt, 4, sl_job_record_get_backend_state (job));
  bind_text (stmt, 5, sl_job_record_get_backend_reason (job));
  return step_done (self, stmt, _("Cannot save the job history"), error);
}

/**
 * sl_workspace_store_set_job_outcome:
 * @job_id: a job of the history that ended with an exit code
 * @state: %SL_JOB_STATE_SUCCEEDED or %SL_JOB_STATE_FAILED
 * @reason: (nullable): why, when it is not what the exit code says
 *
 * Records the verdict of the workflow that ran the job on its output. A
 * job that was stopped, or lost, keeps that state.
 *
 * Returns: %TRUE on success; %FALSE with %SL_WORKSPACE_STORE_ERROR_NOT_FOUND
 *   when no job with an exit code has that id
 */
gboolean
sl_workspace_store_set_job_outcome (SlWorkspaceStore  *self,
                                    gint64             job_id,
                                    SlJobState         state,
                                    const char        *reason,
                                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (job_id > 0, FALSE);
  g_return_val_if_fail (state == SL_JOB_STATE_SUCCEEDED || state == SL_JOB_STATE_FAILED, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stmt = prepare (self,
                  "UPDATE jobs SET state = ?2, outcome_reason = ?3 "
                  "WHERE id = ?1 AND state IN ('succeeded', 'failed') AND exit_code IS NOT NULL",
                  error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, job_id);
  bind_text (stmt, 2, sl_job_state_to_id (state));
  bind_text (stmt, 3, reason);
  if (!step_done (self, stmt, _("Cannot save the job history"), error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Job %lld is not in the job history with an exit code; its outcome was not recorded."),
                   (long long)job_id);
      return FALSE;
    }
  return TRUE;
}

static SlJobRecord *
job_from_row (sqlite3_stmt *stmt)
{
  SlJobState state = SL_JOB_STATE_LOST;
  SlJobRecord *job;

  sl_job_state_from_id (column_text (stmt, 11), &state);

  job = sl_job_record_new (column_text (stmt, 1), MAX (sqlite3_column_int64 (stmt, 2), 0));
  sl_job_record_set_id (job, sqlite3_column_int64 (stmt, 0));
  sl_job_record_set_target_name (job, column_text (stmt, 3));
  sl_job_record_set_project_id (job, MAX (sqlite3_column_int64 (stmt, 4), 0));
  sl_job_record_set_project_name (job, column_text (stmt, 5));
  sl_job_record_set_started_at (job, sqlite3_column_int64 (stmt, 6));
  sl_job_record_set_finished_at (job, sqlite3_column_int64 (stmt, 7));
  if (sqlite3_column_type (stmt, 8) != SQLITE_NULL)
    sl_job_record_set_exit_code (job, sqlite3_column_int (stmt, 8));
  sl_job_record_set_log_path (job, column_text (stmt, 9));
  sl_job_record_set_remote_folder (job, column_text (stmt, 10));
  sl_job_record_set_state (job, state);
  if (column_text (stmt, 12) != NULL)
    sl_job_record_set_backend (job, column_text (stmt, 12));
  sl_job_record_set_backend_job_id (job, column_text (stmt, 13));
  sl_job_record_set_backend_state (job, column_text (stmt, 14), column_text (stmt, 15));
  sl_job_record_set_outcome_reason (job, column_text (stmt, 16));

  return job;
}

/**
 * sl_workspace_store_list_jobs:
 * @limit: the most jobs to return, or 0 for all
 *
 * Returns: (transfer full) (element-type SlJobRecord): the job history,
 *   newest first
 */
GPtrArray *
sl_workspace_store_list_jobs (SlWorkspaceStore  *self,
                              guint              limit,
                              GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  int rc;

  g_return_val_if_fail (SL_IS_WORKSPACE_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stmt = prepare (self, "SELECT " JOB_COLUMNS " FROM jobs ORDER BY started_at DESC, id DESC LIMIT ?1", error);
  if (stmt == NULL)
    return NULL;

  /* A negative LIMIT means no limit to SQLite. */
  sqlite3_bind_int64 (stmt, 1, limit > 0 ? (sqlite3_int64)limit : -1);

  jobs = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (jobs, job_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the job history"));
      return NULL;
    }

  return g_steal_pointer (&jobs);
}

/* Run notes */

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
  g_autoptr(GPtrArray) notes = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *prefix = NULL;
  int rc;

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

  notes = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_auto(GStrv) tags = column_strv (stmt, 2);

      g_ptr_array_add (notes, sl_run_note_record_new (column_text (stmt, 0), column_text (stmt, 1),
                                                      (const char * const *) tags,
                                                      sqlite3_column_int64 (stmt, 3)));
    }
  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error, rc, _("Cannot read the runs' notes"));
      return NULL;
    }

  return g_steal_pointer (&notes);
}

/* For the parts of the store in other files (sl-workspace-store-tuner.c). */
sqlite3 *
sl_workspace_store_get_db (SlWorkspaceStore *self)
{
  SL_ASSERT_OFF_MAIN_THREAD ();
  return self->db;
}

void
sl_workspace_store_set_error (SlWorkspaceStore  *self,
                              GError           **error,
                              int                rc,
                              const char        *what)
{
  set_sqlite_error (self, error, rc, what);
}
