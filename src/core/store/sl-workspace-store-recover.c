/* sl-workspace-store-recover.c: looking at the files of the workspace
 * database before they are opened, and recovering a damaged one
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-workspace-salvage.h"

#include "sl-workspace-store-private.h"

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

  usable = sl_workspace_store_open_connection (self, filename, SQLITE_OPEN_READONLY | flags, error) &&
           sl_workspace_store_check_contents (self, &version, error);
  sl_workspace_store_close_database (self);
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

  if (sl_workspace_store_open_connection (self, copy_path, SQLITE_OPEN_READWRITE, error))
    {
      sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
      usable = sl_workspace_store_check_contents (self, &version, error);
    }
  sl_workspace_store_close_database (self);
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
  if (sl_workspace_store_database_in_use (self, TRUE))
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

void
sl_workspace_store_set_recovery (SlWorkspaceStore    *self,
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
  if (sl_workspace_store_database_in_use (self, TRUE))
    {
      g_debug ("%s was opened meanwhile: its write-ahead log stays", self->path);
      return TRUE;
    }

  g_debug ("Setting the write-ahead log of %s aside: %s", self->path, reason);
  if (!move_files_aside (self, "stale", suffixes, report, error))
    return FALSE;

  sl_workspace_store_set_recovery (self, report);
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

  sl_workspace_store_close_database (self);

  /* Files another program has open are never moved from under it. */
  if (sl_workspace_store_database_in_use (self, FALSE))
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

  if (!sl_workspace_store_open_database (self, error))
    return FALSE;

  salvage (self, report);
  sl_workspace_store_set_recovery (self, report);
  return TRUE;
}

/* The report of a recovery stays in the database until it is dismissed,
 * so that every program that opens it tells the user. */
void
sl_workspace_store_save_recovery (SlWorkspaceStore *self)
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

void
sl_workspace_store_load_recovery (SlWorkspaceStore *self)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(SlWorkspaceRecovery) recovery = NULL;
  g_autoptr(GError) error = NULL;

  stmt = prepare (self, "SELECT value FROM meta WHERE key = 'recovery'", &error);
  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW)
    return;

  if ((recovery = sl_workspace_recovery_new_from_json (column_text (stmt, 0), &error)) == NULL)
    g_debug ("%s", error->message);
  sl_workspace_store_set_recovery (self, recovery);
}

/* Opens the database, recovering it when needed. Called with the lock of
 * the open databases held (sl-workspace-store.c). */
gboolean
sl_workspace_store_open_or_recover (SlWorkspaceStore  *self,
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
      if (sl_workspace_store_open_database (self, &open_error))
        return TRUE;

      /* Closing must not checkpoint a log into a file found damaged. */
      if (self->db != NULL)
        sqlite3_db_config (self->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
      sl_workspace_store_close_database (self);
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
