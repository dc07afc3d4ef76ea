/* sl-workspace-store.c: opening and closing the workspace database
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-file-lock.h"

#include <gio/gio.h>

#include "sl-workspace-schema.h"
#include "sl-workspace-store-private.h"

/* Long enough for another Sightline window to finish a write, short
 * enough that a stuck one does not look like a hang. */
#define BUSY_TIMEOUT_MSEC 5000

G_DEFINE_FINAL_TYPE (SlWorkspaceStore, sl_workspace_store, G_TYPE_OBJECT)
G_DEFINE_QUARK (sl-workspace-store-error-quark, sl_workspace_store_error)

/* Opening */

void
sl_workspace_store_close_database (SlWorkspaceStore *self)
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
note_opened_by_this_version (SlWorkspaceStore  *self,
                             GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(sqlite3_stmt) check = NULL;

  /* Read first: a store opened by the same version writes nothing, so
   * opening never waits for the write lock while another program keeps
   * writing (a tuning run commits one trial after another). */
  check = prepare (self, "SELECT 1 FROM meta WHERE key = 'last_opened_by_version' AND value = ?1", error);
  if (check == NULL)
    return FALSE;
  bind_text (check, 1, PACKAGE_VERSION);
  switch (sqlite3_step (check))
    {
    case SQLITE_ROW:
      return TRUE;
    case SQLITE_DONE:
      break;
    default:
      sl_workspace_store_set_error (self, error, sqlite3_errcode (self->db), _("Cannot read the workspace database"));
      return FALSE;
    }

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

gboolean
sl_workspace_store_open_connection (SlWorkspaceStore  *self,
                                    const char        *filename,
                                    int                flags,
                                    GError           **error)
{
  int rc = sqlite3_open_v2 (filename, &self->db, flags, NULL);

  if (rc != SQLITE_OK)
    {
      sl_workspace_store_set_error (self, error, rc, _("Cannot open the workspace database"));
      return FALSE;
    }

  sqlite3_extended_result_codes (self->db, TRUE);
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MSEC);
  return TRUE;
}

/* Whether the open database is a workspace this build can use, without
 * writing anything. */
gboolean
sl_workspace_store_check_contents (SlWorkspaceStore  *self,
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

gboolean
sl_workspace_store_open_database (SlWorkspaceStore  *self,
                                  GError           **error)
{
  const char *what = _("Cannot open the workspace database");
  guint latest = sl_workspace_schema_get_latest_version ();
  gint64 version = 0;

  if (!sl_workspace_store_open_connection (self, self->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error) ||
      !sl_workspace_store_check_contents (self, &version, error) ||
      !enable_write_ahead_log (self, error) ||
      !exec_sql (self, "PRAGMA foreign_keys = ON", what, error) ||
      (version < latest && !sl_workspace_store_migrate (self, error)) ||
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
gboolean
sl_workspace_store_database_in_use (SlWorkspaceStore *self,
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

/* GObject */

static void
sl_workspace_store_finalize (GObject *object)
{
  SlWorkspaceStore *self = (SlWorkspaceStore *)object;

  if (self->counted)
    {
      G_LOCK (open_databases);
      sl_workspace_store_close_database (self);
      uncount_open_database (self->key);
      G_UNLOCK (open_databases);
    }
  sl_workspace_store_close_database (self);
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
  opened = sl_workspace_store_open_or_recover (self, error);
  if (opened)
    {
      /* The file may be new, or a new one made in a recovery. */
      g_free (self->key);
      self->key = dup_database_key (path);
      count_open_database (self->key);
      self->counted = TRUE;
    }
  else
    sl_workspace_store_close_database (self);
  G_UNLOCK (open_databases);

  if (!opened)
    return NULL;

  if (self->recovery != NULL)
    sl_workspace_store_save_recovery (self);
  else
    sl_workspace_store_load_recovery (self);

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

  sl_workspace_store_set_recovery (self, NULL);
  return TRUE;
}
