/* sl-workspace-salvage.c
 *
 * Salvage copies a damaged database into a new one table by table and row
 * by row, the way SQLite's own .dump does and a little further: a table
 * is read in rowid order until a damaged page stops it, then backwards
 * from its end, then the rowids in between are looked up one by one
 * (a seek lands on the pages that are left). The rowids every complete
 * index of the table lists say how many rows could not be read.
 *
 * Table and column names come from the new database's own schema (this
 * build's migrations) and are quoted; values are bound, never pasted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-workspace-salvage.h"

/* Rowids looked up one by one between the last row read forwards and the
 * first row read backwards: a damaged leaf holds a few hundred at most. */
#define MAX_PROBES 100000

/* Headers of the files */

static gboolean
read_prefix (const char *path,
             guint8     *buffer,
             gsize       length)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  gsize n_read = 0;

  return stream != NULL &&
         g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, length, &n_read, NULL, NULL) &&
         n_read == length;
}

/**
 * sl_workspace_read_db_header:
 * @page_size: (out): the page size of the database
 * @wal_mode: (out): whether the file says it is in write-ahead log mode
 *
 * Returns: whether @db_path starts with the header of an SQLite database
 */
gboolean
sl_workspace_read_db_header (const char *db_path,
                             guint32    *page_size,
                             gboolean   *wal_mode)
{
  guint8 header[100];
  guint32 size;

  if (!read_prefix (db_path, header, sizeof header) ||
      memcmp (header, "SQLite format 3", 16) != 0)
    return FALSE;

  size = ((guint32)header[16] << 8) | header[17];
  *page_size = size == 1 ? 65536 : size;
  /* Bytes 18 and 19 are the write and read versions: 2 is WAL. */
  *wal_mode = header[18] == 2 && header[19] == 2;
  return TRUE;
}

static guint32
read_be32 (const guint8 *bytes)
{
  return ((guint32)bytes[0] << 24) | ((guint32)bytes[1] << 16) | ((guint32)bytes[2] << 8) | bytes[3];
}

static guint32
read_le32 (const guint8 *bytes)
{
  return ((guint32)bytes[3] << 24) | ((guint32)bytes[2] << 16) | ((guint32)bytes[1] << 8) | bytes[0];
}

/**
 * sl_workspace_wal_header_fits:
 * @db_page_size: the page size of the database the log lies beside
 * @reason: (out) (optional): why not, for the user
 *
 * Whether @wal_path has the header of an SQLite write-ahead log whose
 * checksum holds and whose pages have the database's size. A log that
 * does not is never one SQLite wrote for this database.
 */
gboolean
sl_workspace_wal_header_fits (const char  *wal_path,
                              guint32      db_page_size,
                              char       **reason)
{
  guint8 header[32];
  guint32 magic, s0 = 0, s1 = 0;
  gboolean big_endian;

  if (!read_prefix (wal_path, header, sizeof header))
    {
      if (reason != NULL)
        *reason = g_strdup (_("it is too short to be a write-ahead log"));
      return FALSE;
    }

  magic = read_be32 (header);
  if ((magic & 0xfffffffe) != 0x377f0682 || read_be32 (header + 4) != 3007000)
    {
      if (reason != NULL)
        *reason = g_strdup (_("it is not an SQLite write-ahead log"));
      return FALSE;
    }

  /* The checksum of the first 24 bytes, in the byte order the magic
   * number names. */
  big_endian = (magic & 1) != 0;
  for (guint i = 0; i < 24; i += 8)
    {
      guint32 x0 = big_endian ? read_be32 (header + i) : read_le32 (header + i);
      guint32 x1 = big_endian ? read_be32 (header + i + 4) : read_le32 (header + i + 4);

      s0 += x0 + s1;
      s1 += x1 + s0;
    }
  if (s0 != read_be32 (header + 24) || s1 != read_be32 (header + 28))
    {
      if (reason != NULL)
        *reason = g_strdup (_("its header is damaged"));
      return FALSE;
    }

  if (read_be32 (header + 8) != db_page_size)
    {
      if (reason != NULL)
        *reason = g_strdup_printf (_("its pages are %u bytes long, the database’s %u"),
                                   read_be32 (header + 8), db_page_size);
      return FALSE;
    }

  return TRUE;
}

/* Salvage */

static char *
quote (const char *name)
{
  char *quoted = sqlite3_mprintf ("\"%w\"", name);
  char *copy = g_strdup (quoted);

  sqlite3_free (quoted);
  return copy;
}

static sqlite3_stmt *
prepare (sqlite3    *db,
         const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

/* Column names of @table in @db, in order; the primary key's columns in
 * @key when asked. NULL when the schema cannot be read. */
static GPtrArray *
list_columns (sqlite3     *db,
              const char  *table,
              GPtrArray  **key)
{
  g_autofree char *quoted = quote (table);
  g_autofree char *sql = g_strdup_printf ("PRAGMA table_info (%s)", quoted);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) by_key = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = prepare (db, sql);
  int rc;

  if (stmt == NULL)
    return NULL;

  g_ptr_array_set_size (by_key, 8);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *)sqlite3_column_text (stmt, 1);
      int pk = sqlite3_column_int (stmt, 5);

      g_ptr_array_add (columns, g_strdup (name));
      if (pk > 0 && pk <= 8)
        g_ptr_array_index (by_key, pk - 1) = g_strdup (name);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE || columns->len == 0)
    return NULL;

  if (key != NULL)
    {
      *key = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < by_key->len && g_ptr_array_index (by_key, i) != NULL; i++)
        g_ptr_array_add (*key, g_strdup (g_ptr_array_index (by_key, i)));
    }
  return g_steal_pointer (&columns);
}

/* 1 when @table exists, 0 when not, -1 when the schema cannot be read */
static int
table_exists (sqlite3    *db,
              const char *table)
{
  sqlite3_stmt *stmt = prepare (db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  int rc;

  if (stmt == NULL)
    return -1;
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

typedef struct {
  sqlite3     *from;
  sqlite3     *to;
  const char  *table;
  char        *quoted;
  char        *column_list;   /* quoted, comma separated */
  guint        n_columns;
  sqlite3_stmt *insert;
  GHashTable  *seen;          /* rowids read, as gint64 */
  guint64      recovered;
  guint64      rejected;      /* read, but the new database refused them */
} TableCopy;

static void
table_copy_clear (TableCopy *copy)
{
  g_free (copy->quoted);
  g_free (copy->column_list);
  sqlite3_finalize (copy->insert);
  g_clear_pointer (&copy->seen, g_hash_table_unref);
}

/* Copies the row @stmt is on, whose columns start at @first. */
static void
copy_row (TableCopy    *copy,
          sqlite3_stmt *stmt,
          int           first)
{
  int rc;

  sqlite3_reset (copy->insert);
  for (guint i = 0; i < copy->n_columns; i++)
    sqlite3_bind_value (copy->insert, (int)i + 1, sqlite3_column_value (stmt, first + (int)i));
  rc = sqlite3_step (copy->insert);
  if (rc == SQLITE_DONE && sqlite3_changes (copy->to) > 0)
    copy->recovered++;
  else
    copy->rejected++;
}

/* Reads rows with @sql (rowid first, bound to @bound at ?1) until the end
 * or an error; the last rowid read in @last. Returns whether it reached
 * the end. */
static gboolean
copy_rowid_rows (TableCopy  *copy,
                 const char *sql,
                 gint64      bound,
                 guint       limit,
                 gint64     *last,
                 gboolean   *any)
{
  sqlite3_stmt *stmt = prepare (copy->from, sql);
  guint n = 0;
  int rc = SQLITE_ERROR;

  *any = FALSE;
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, bound);
  while ((limit == 0 || n < limit) && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);

      n++;
      *last = rowid;
      *any = TRUE;
      if (g_hash_table_contains (copy->seen, &rowid))
        continue;
      g_hash_table_add (copy->seen, g_memdup2 (&rowid, sizeof rowid));
      copy_row (copy, stmt, 1);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || (limit > 0 && n == limit);
}

/* The rowids an index of the table lists, read from the index alone.
 * NULL when it cannot be read to its end. */
static GHashTable *
index_rowids (TableCopy  *copy,
              const char *index)
{
  g_autofree char *quoted_index = quote (index);
  g_autofree char *sql = g_strdup_printf ("SELECT rowid FROM %s INDEXED BY %s", copy->quoted, quoted_index);
  g_autoptr(GHashTable) rowids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  sqlite3_stmt *stmt = prepare (copy->from, sql);
  int rc;

  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);

      g_hash_table_add (rowids, g_memdup2 (&rowid, sizeof rowid));
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? g_steal_pointer (&rowids) : NULL;
}

/* Every rowid some complete index lists; NULL when no index of the table
 * could be read to its end. */
static GHashTable *
indexed_rowids (TableCopy *copy)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA index_list (%s)", copy->quoted);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GHashTable *all = NULL;
  sqlite3_stmt *stmt = prepare (copy->from, sql);

  if (stmt == NULL)
    return NULL;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (names, g_strdup ((const char *)sqlite3_column_text (stmt, 1)));
  sqlite3_finalize (stmt);

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(GHashTable) rowids = index_rowids (copy, g_ptr_array_index (names, i));
      GHashTableIter iter;
      gpointer key;

      if (rowids == NULL)
        continue;
      if (all == NULL)
        all = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_hash_table_iter_init (&iter, rowids);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (all, key))
          g_hash_table_add (all, g_memdup2 (key, sizeof (gint64)));
    }
  return all;
}

/* Returns the rows known lost, or -1. */
static gint64
salvage_rowid_table (TableCopy *copy)
{
  g_autofree char *forward = g_strdup_printf ("SELECT rowid, %s FROM %s WHERE rowid > ?1 ORDER BY rowid",
                                              copy->column_list, copy->quoted);
  g_autofree char *backward = g_strdup_printf ("SELECT rowid, %s FROM %s WHERE rowid > ?1 ORDER BY rowid DESC",
                                               copy->column_list, copy->quoted);
  g_autofree char *seek = g_strdup_printf ("SELECT rowid, %s FROM %s WHERE rowid >= ?1 ORDER BY rowid LIMIT 1",
                                           copy->column_list, copy->quoted);
  g_autofree char *exact = g_strdup_printf ("SELECT rowid, %s FROM %s WHERE rowid = ?1",
                                            copy->column_list, copy->quoted);
  g_autoptr(GHashTable) listed = NULL;
  gint64 last_forward = G_MININT64, first_backward = G_MAXINT64, row = 0;
  gboolean any = FALSE;
  GHashTableIter iter;
  gpointer key;
  gint64 lost = 0;

  if (copy_rowid_rows (copy, forward, G_MININT64, 0, &last_forward, &any))
    return (gint64)copy->rejected;

  /* A damaged page stopped the scan: the rows after it, from the end. */
  if (copy_rowid_rows (copy, backward, last_forward, 0, &row, &any) || any)
    first_backward = any ? row : G_MAXINT64;

  /* The rows in between, where a seek finds readable pages (ids start
   * at 1 when nothing could be read from the start). */
  for (gint64 next = last_forward == G_MININT64 ? 1 : last_forward + 1, probes = 0;
       probes < MAX_PROBES && next < first_backward; probes++)
    {
      gint64 found = 0;
      gboolean ended = copy_rowid_rows (copy, seek, next, 1, &found, &any);

      if (any)
        next = found + 1;
      else if (ended)
        break;
      else
        next++;
    }

  /* And whatever an index still knows of. */
  listed = indexed_rowids (copy);
  if (listed == NULL)
    return -1;

  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gint64 found = 0;

      if (g_hash_table_contains (copy->seen, key))
        continue;
      copy_rowid_rows (copy, exact, *(gint64 *)key, 1, &found, &any);
      if (!any)
        lost++;
    }

  return lost + (gint64)copy->rejected;
}

/* Tables without rowid: forwards in key order, then backwards. */
static gint64
salvage_keyed_table (TableCopy *copy,
                     GPtrArray *key)
{
  g_autofree char *forward = g_strdup_printf ("SELECT %s FROM %s", copy->column_list, copy->quoted);
  g_autoptr(GString) backward = g_string_new (NULL);
  sqlite3_stmt *stmt;
  guint64 n_forward = 0;
  int rc = SQLITE_ERROR;

  if ((stmt = prepare (copy->from, forward)) != NULL)
    {
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          copy_row (copy, stmt, 0);
          n_forward++;
        }
      sqlite3_finalize (stmt);
    }
  if (rc == SQLITE_DONE)
    return (gint64)copy->rejected;

  if (key == NULL || key->len == 0)
    return -1;

  g_string_printf (backward, "SELECT %s FROM %s ORDER BY ", copy->column_list, copy->quoted);
  for (guint i = 0; i < key->len; i++)
    {
      g_autofree char *column = quote (g_ptr_array_index (key, i));

      g_string_append_printf (backward, "%s%s DESC", i > 0 ? ", " : "", column);
    }
  /* Rows met again are refused by the key and not counted twice. */
  if ((stmt = prepare (copy->from, backward->str)) != NULL)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        copy_row (copy, stmt, 0);
      sqlite3_finalize (stmt);
    }
  return -1;
}

static char *
join_quoted (GPtrArray *names)
{
  g_autoptr(GString) list = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *quoted = quote (g_ptr_array_index (names, i));

      g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", quoted);
    }
  return g_string_free (g_steal_pointer (&list), FALSE);
}

static void
salvage_table (sqlite3             *from,
               sqlite3             *to,
               const char          *table,
               gboolean             without_rowid,
               SlWorkspaceRecovery *report)
{
  g_autoptr(GPtrArray) new_columns = list_columns (to, table, NULL);
  g_autoptr(GPtrArray) old_columns = NULL;
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) key = NULL;
  g_autofree char *delete = NULL;
  g_autofree char *insert = NULL;
  g_autofree char *placeholders = NULL;
  TableCopy copy = { from, to, table };
  gint64 lost;

  /* An older workspace did not have every table yet: nothing lost. */
  if (table_exists (from, table) == 0)
    return;

  /* The columns both have; newer ones take their defaults. */
  old_columns = list_columns (from, table, &key);
  if (new_columns != NULL && old_columns != NULL)
    for (guint i = 0; i < new_columns->len; i++)
      if (g_ptr_array_find_with_equal_func (old_columns, g_ptr_array_index (new_columns, i), g_str_equal, NULL))
        g_ptr_array_add (columns, g_strdup (g_ptr_array_index (new_columns, i)));
  if (columns->len == 0)
    {
      sl_workspace_recovery_set_table (report, table, 0, -1);
      return;
    }

  copy.quoted = quote (table);
  copy.column_list = join_quoted (columns);
  copy.n_columns = columns->len;
  copy.seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  /* What the new database starts with (the Local target) gives way to
   * what the old one had. */
  delete = g_strdup_printf ("DELETE FROM %s", copy.quoted);
  sqlite3_exec (to, delete, NULL, NULL, NULL);

  placeholders = g_strnfill (columns->len * 2 - 1, ',');
  for (guint i = 0; i < columns->len; i++)
    placeholders[i * 2] = '?';
  insert = g_strdup_printf ("INSERT OR IGNORE INTO %s (%s) VALUES (%s)", copy.quoted, copy.column_list, placeholders);
  copy.insert = prepare (to, insert);
  if (copy.insert == NULL)
    {
      sl_workspace_recovery_set_table (report, table, 0, -1);
      table_copy_clear (&copy);
      return;
    }

  lost = without_rowid ? salvage_keyed_table (&copy, key) : salvage_rowid_table (&copy);
  sl_workspace_recovery_set_table (report, table, copy.recovered, lost);
  table_copy_clear (&copy);
}

/* Rows whose parent was lost: references that may be empty are emptied,
 * rows that cannot live without their parent go, and count as lost. */
static void
drop_dangling_references (sqlite3             *to,
                          const char          *table,
                          SlWorkspaceRecovery *report)
{
  g_autofree char *quoted = quote (table);
  g_autofree char *sql = g_strdup_printf ("PRAGMA foreign_key_list (%s)", quoted);
  sqlite3_stmt *stmt = prepare (to, sql);
  g_autoptr(GPtrArray) fixes = g_ptr_array_new_with_free_func (g_free);

  if (stmt == NULL)
    return;

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_autofree char *parent = quote ((const char *)sqlite3_column_text (stmt, 2));
      g_autofree char *column = quote ((const char *)sqlite3_column_text (stmt, 3));
      g_autofree char *parent_column = sqlite3_column_text (stmt, 4) != NULL
                                       ? quote ((const char *)sqlite3_column_text (stmt, 4)) : g_strdup ("rowid");
      const char *on_delete = (const char *)sqlite3_column_text (stmt, 6);
      const char *dangling = "IS NOT NULL AND";

      if (g_strcmp0 (on_delete, "SET NULL") == 0)
        g_ptr_array_add (fixes, g_strdup_printf ("UPDATE %s SET %s = NULL WHERE %s %s %s NOT IN (SELECT %s FROM %s)",
                                                 quoted, column, column, dangling, column, parent_column, parent));
      else
        g_ptr_array_add (fixes, g_strdup_printf ("DELETE FROM %s WHERE %s %s %s NOT IN (SELECT %s FROM %s)",
                                                 quoted, column, dangling, column, parent_column, parent));
    }
  sqlite3_finalize (stmt);

  for (guint i = 0; i < fixes->len; i++)
    {
      const char *fix = g_ptr_array_index (fixes, i);
      guint64 recovered = 0;
      gint64 lost = 0;
      int removed;

      if (sqlite3_exec (to, fix, NULL, NULL, NULL) != SQLITE_OK || !g_str_has_prefix (fix, "DELETE"))
        continue;
      removed = sqlite3_changes (to);
      if (removed > 0 && sl_workspace_recovery_lookup_table (report, table, &recovered, &lost))
        sl_workspace_recovery_set_table (report, table, recovered - MIN (recovered, (guint64)removed),
                                         lost < 0 ? -1 : lost + removed);
    }
}

/**
 * sl_workspace_salvage:
 * @from: the damaged database, opened read-only
 * @to: a new, empty workspace database of the latest schema
 * @report: gets the rows recovered and lost of each table
 *
 * Copies every row of @from that can be read into @to, in one
 * transaction. Damage only shows in @report; @error is for @to.
 */
gboolean
sl_workspace_salvage (sqlite3              *from,
                      sqlite3              *to,
                      SlWorkspaceRecovery  *report,
                      GError              **error)
{
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) without_rowid = g_array_new (FALSE, FALSE, sizeof (gboolean));
  sqlite3_stmt *stmt;
  gboolean schema_readable;

  stmt = prepare (to, "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                      "AND name NOT LIKE 'sqlite_%' AND name <> 'meta' ORDER BY rowid");
  g_return_val_if_fail (stmt != NULL, FALSE);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gboolean keyed = strstr ((const char *)sqlite3_column_text (stmt, 1), "WITHOUT ROWID") != NULL;

      g_ptr_array_add (tables, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
      g_array_append_val (without_rowid, keyed);
    }
  sqlite3_finalize (stmt);

  /* With a damaged first page nothing can be found. */
  stmt = prepare (from, "SELECT count(*) FROM sqlite_master");
  schema_readable = stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);

  /* Rows come in any order: their references are checked at the end. */
  if (sqlite3_exec (to, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec (to, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    goto failed;

  for (guint i = 0; i < tables->len; i++)
    {
      if (schema_readable)
        salvage_table (from, to, g_ptr_array_index (tables, i), g_array_index (without_rowid, gboolean, i), report);
      else
        sl_workspace_recovery_set_table (report, g_ptr_array_index (tables, i), 0, -1);
    }
  for (guint i = 0; i < tables->len; i++)
    drop_dangling_references (to, g_ptr_array_index (tables, i), report);

  /* Jobs can always run on this computer. */
  sqlite3_exec (to, "INSERT OR IGNORE INTO targets (name, kind) SELECT 'Local', 'local' "
                    "WHERE NOT EXISTS (SELECT 1 FROM targets WHERE kind = 'local')", NULL, NULL, NULL);

  if (sqlite3_exec (to, "COMMIT", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec (to, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK)
    goto failed;
  return TRUE;

failed:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", sqlite3_errmsg (to));
  if (!sqlite3_get_autocommit (to))
    sqlite3_exec (to, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_exec (to, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
  return FALSE;
}
