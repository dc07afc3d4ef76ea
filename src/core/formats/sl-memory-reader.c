/* sl-memory-reader.c
 *
 * A row that cannot be placed in time (no timestamp, no allocation time)
 * or whose size is not a size (negative, NaN, infinite) is skipped and
 * reported with its line; an empty measure is simply not written, as
 * APP rows of memory_record write only the reserved total. Reports stop
 * after MAX_REPORTS per file, with a count of the rest, so a damaged
 * file of a long run does not bury every other problem.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sqlite3.h>
#include <glib/gi18n-lib.h>

#include "sl-input-file.h"
#include "sl-csv-reader.h"
#include "sl-memory-reader.h"

#define MAX_REPORTS  20
#define CANCEL_MASK  0xfff
#define BYTES_PER_MB 1048576.0
#define BYTES_PER_KB 1024.0

SlMemoryFile
sl_memory_reader_file_for_path (const char *path)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (path != NULL, SL_MEMORY_FILE_NONE);

  base = g_path_get_basename (path);
  if (g_str_equal (base, "memory_record.csv"))
    return SL_MEMORY_FILE_RECORD;
  if (g_str_equal (base, "operator_memory.csv"))
    return SL_MEMORY_FILE_OPERATORS;
  if (g_str_equal (base, "npu_module_mem.csv"))
    return SL_MEMORY_FILE_MODULES;
  return SL_MEMORY_FILE_NONE;
}

/* ------------------------------------------------------------------ */
/* CSV */

typedef struct {
  SlMemoryProfile *memory;
  SlCsvReader     *reader;
  const char      *path;
  GCancellable    *cancellable;
  GPtrArray       *problems;
  guint            n_damaged;
} Csv;

typedef enum {
  DAMAGE_NOT_A_TIME,
  DAMAGE_NOT_A_SIZE,
  DAMAGE_EMPTY,
  DAMAGE_RELEASED_BEFORE,
} Damage;

static char *
damage_message (Damage      damage,
                guint       line,
                const char *column)
{
  /* Translators: a line number, then a column name */
  switch (damage)
    {
    case DAMAGE_NOT_A_TIME: return g_strdup_printf (_("Line %u: “%s” is not a time; the row is skipped"), line, column);
    case DAMAGE_NOT_A_SIZE: return g_strdup_printf (_("Line %u: “%s” is not a size; the row is skipped"), line, column);
    case DAMAGE_EMPTY: return g_strdup_printf (_("Line %u: “%s” is empty; the row is skipped"), line, column);
    case DAMAGE_RELEASED_BEFORE:
      return g_strdup_printf (_("Line %u: “%s” is before the allocation; the row is skipped"), line, column);
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
damaged_row (Csv        *csv,
             const char *column,
             Damage      damage)
{
  g_autofree char *message = NULL;

  if (++csv->n_damaged > MAX_REPORTS)
    return;
  message = damage_message (damage, sl_csv_reader_get_row_line (csv->reader), column);
  sl_csv_reader_report (csv->reader, SL_SEVERITY_WARNING, message);
}

static void
take_problems (Csv *csv)
{
  GPtrArray *problems = sl_csv_reader_get_problems (csv->reader);

  for (guint i = 0; i < problems->len; i++)
    g_ptr_array_add (csv->problems, g_object_ref (g_ptr_array_index (problems, i)));
  if (csv->n_damaged > MAX_REPORTS)
    {
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more damaged row was skipped",
                                                               "%u more damaged rows were skipped",
                                                               csv->n_damaged - MAX_REPORTS),
                                                  csv->n_damaged - MAX_REPORTS);

      g_ptr_array_add (csv->problems, sl_problem_new (SL_SEVERITY_WARNING, _("Memory"), csv->path, -1, message));
    }
}

static gboolean
require (Csv        *csv,
         const char *names,
         int         column)
{
  g_autofree char *message = NULL;

  if (column != SL_CSV_NO_COLUMN)
    return TRUE;
  /* Translators: %s is a column name (with alternatives separated by |) */
  message = g_strdup_printf (_("The header has no column “%s”; the file is not read"), names);
  g_ptr_array_add (csv->problems, sl_problem_new (SL_SEVERITY_ERROR, _("Memory"), csv->path, 0, message));
  return FALSE;
}

static gboolean
cancelled (Csv *csv)
{
  return (sl_csv_reader_get_n_rows (csv->reader) & CANCEL_MASK) == 0 &&
         g_cancellable_is_cancelled (csv->cancellable);
}

static gboolean
is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;
  while (*text == ' ' || *text == '\t' || *text == '\r')
    text++;
  return *text == '\0';
}

/* A time in µs as ns; FALSE (and the row reported) when it is not one. */
static gboolean
read_time (Csv        *csv,
           int         column,
           const char *name,
           gint64     *ns)
{
  if (sl_csv_reader_get_scaled (csv->reader, column, 3, ns) && *ns >= 0)
    return TRUE;
  damaged_row (csv, name, DAMAGE_NOT_A_TIME);
  return FALSE;
}

/* An optional time: -1 when blank; FALSE when written but damaged. */
static gboolean
read_optional_time (Csv        *csv,
                    int         column,
                    const char *name,
                    gint64     *ns)
{
  *ns = -1;
  if (is_blank (sl_csv_reader_get_field (csv->reader, column)))
    return TRUE;
  return read_time (csv, column, name, ns);
}

/* A size: NAN when blank; FALSE when negative or not a finite number. */
static gboolean
read_size (Csv        *csv,
           int         column,
           const char *name,
           double     *value)
{
  const char *text = sl_csv_reader_get_field (csv->reader, column);

  *value = NAN;
  if (is_blank (text))
    return TRUE;
  if (sl_csv_reader_get_double (csv->reader, column, value) && *value >= 0)
    return TRUE;
  damaged_row (csv, name, DAMAGE_NOT_A_SIZE);
  return FALSE;
}

static const char *
field_or_empty (Csv *csv,
                int  column)
{
  const char *text = sl_csv_reader_get_field (csv->reader, column);

  return text != NULL ? text : "";
}

static void
read_record (Csv *csv)
{
  static const char *measures[] = { "Total Allocated(MB)", "Total Reserved(MB)", "Total Active(MB)" };
  int c_component, c_ts, c_device, c_measures[G_N_ELEMENTS (measures)];

  c_component = sl_csv_reader_find_column (csv->reader, "Component");
  c_ts = sl_csv_reader_find_column (csv->reader, "Timestamp(us)");
  c_device = sl_csv_reader_find_column (csv->reader, "Device Type|Device");
  for (guint i = 0; i < G_N_ELEMENTS (measures); i++)
    c_measures[i] = sl_csv_reader_find_column (csv->reader, measures[i]);
  if (!require (csv, "Component", c_component) || !require (csv, "Timestamp(us)", c_ts) ||
      !require (csv, "Total Allocated(MB)|Total Reserved(MB)",
                c_measures[0] != SL_CSV_NO_COLUMN ? c_measures[0] : c_measures[1]))
    return;

  while (sl_csv_reader_next_row (csv->reader) && !cancelled (csv))
    {
      double values[G_N_ELEMENTS (measures)];
      gboolean good = TRUE;
      gint64 ts;

      if (!read_time (csv, c_ts, "Timestamp(us)", &ts))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (measures) && good; i++)
        good = read_size (csv, c_measures[i], measures[i], &values[i]);
      if (!good)
        continue;
      if (isnan (values[0]) && isnan (values[1]) && isnan (values[2]))
        continue;
      sl_memory_profile_add_sample (csv->memory, field_or_empty (csv, c_component), field_or_empty (csv, c_device),
                                    ts, values[0], values[1], values[2]);
    }
}

static void
read_operators (Csv *csv)
{
  int c_name, c_size, c_alloc, c_release, c_duration, c_alloc_total, c_alloc_reserved;
  int c_release_total, c_release_reserved, c_stream, c_device;

  c_name = sl_csv_reader_find_column (csv->reader, "Name");
  c_size = sl_csv_reader_find_column (csv->reader, "Size(KB)");
  c_alloc = sl_csv_reader_find_column (csv->reader, "Allocation Time(us)");
  c_release = sl_csv_reader_find_column (csv->reader, "Release Time(us)");
  c_duration = sl_csv_reader_find_column (csv->reader, "Duration(us)");
  c_alloc_total = sl_csv_reader_find_column (csv->reader, "Allocation Total Allocated(MB)");
  c_alloc_reserved = sl_csv_reader_find_column (csv->reader, "Allocation Total Reserved(MB)");
  c_release_total = sl_csv_reader_find_column (csv->reader, "Release Total Allocated(MB)");
  c_release_reserved = sl_csv_reader_find_column (csv->reader, "Release Total Reserved(MB)");
  c_stream = sl_csv_reader_find_column (csv->reader, "Stream Ptr");
  c_device = sl_csv_reader_find_column (csv->reader, "Device Type|Device");
  if (!require (csv, "Name", c_name) || !require (csv, "Size(KB)", c_size) ||
      !require (csv, "Allocation Time(us)", c_alloc))
    return;

  while (sl_csv_reader_next_row (csv->reader) && !cancelled (csv))
    {
      SlMemoryAllocation *allocation;
      gint64 alloc_ns, release_ns, duration_ns;
      double size, totals[4];

      if (!read_size (csv, c_size, "Size(KB)", &size) ||
          !read_time (csv, c_alloc, "Allocation Time(us)", &alloc_ns) ||
          !read_optional_time (csv, c_release, "Release Time(us)", &release_ns) ||
          !read_optional_time (csv, c_duration, "Duration(us)", &duration_ns) ||
          !read_size (csv, c_alloc_total, "Allocation Total Allocated(MB)", &totals[0]) ||
          !read_size (csv, c_alloc_reserved, "Allocation Total Reserved(MB)", &totals[1]) ||
          !read_size (csv, c_release_total, "Release Total Allocated(MB)", &totals[2]) ||
          !read_size (csv, c_release_reserved, "Release Total Reserved(MB)", &totals[3]))
        continue;
      if (isnan (size))
        {
          damaged_row (csv, "Size(KB)", DAMAGE_EMPTY);
          continue;
        }
      if (release_ns >= 0 && release_ns < alloc_ns)
        {
          damaged_row (csv, "Release Time(us)", DAMAGE_RELEASED_BEFORE);
          continue;
        }

      allocation = sl_memory_profile_add_allocation (csv->memory, csv->path, field_or_empty (csv, c_name),
                                                     field_or_empty (csv, c_stream), field_or_empty (csv, c_device));
      allocation->size_kb = size;
      allocation->allocation_ns = alloc_ns;
      allocation->release_ns = release_ns >= 0 ? release_ns : SL_MEMORY_NOT_RELEASED;
      allocation->duration_ns = duration_ns >= 0 ? duration_ns : release_ns >= 0 ? release_ns - alloc_ns : -1;
      allocation->allocation_allocated_mb = totals[0];
      allocation->allocation_reserved_mb = totals[1];
      allocation->release_allocated_mb = totals[2];
      allocation->release_reserved_mb = totals[3];
      allocation->line = sl_csv_reader_get_row_line (csv->reader);
    }
}

static void
read_modules (Csv *csv)
{
  int c_component, c_ts, c_reserved, c_device;

  c_component = sl_csv_reader_find_column (csv->reader, "Component|Module");
  c_ts = sl_csv_reader_find_column (csv->reader, "Timestamp(us)");
  c_reserved = sl_csv_reader_find_column (csv->reader, "Total Reserved(MB)");
  c_device = sl_csv_reader_find_column (csv->reader, "Device|Device Type");
  if (!require (csv, "Component", c_component) || !require (csv, "Timestamp(us)", c_ts) ||
      !require (csv, "Total Reserved(MB)", c_reserved))
    return;

  while (sl_csv_reader_next_row (csv->reader) && !cancelled (csv))
    {
      double reserved;
      gint64 ts;

      if (!read_time (csv, c_ts, "Timestamp(us)", &ts) ||
          !read_size (csv, c_reserved, "Total Reserved(MB)", &reserved) || isnan (reserved))
        continue;
      sl_memory_profile_add_module_sample (csv->memory, field_or_empty (csv, c_component),
                                           field_or_empty (csv, c_device), ts, reserved);
    }
}

static gboolean
read_csv (SlMemoryProfile *memory,
          SlCsvReader     *reader,
          const char      *path,
          SlMemoryFile     kind,
          GCancellable    *cancellable,
          GPtrArray       *problems)
{
  Csv csv = { memory, reader, path, cancellable, problems, 0 };
  guint before = sl_memory_profile_get_n_curves (memory) + sl_memory_profile_get_n_modules (memory) +
                 sl_memory_profile_get_n_allocations (memory);

  sl_memory_profile_add_file (memory, path);
  if (!sl_csv_reader_read_header (reader))
    {
      take_problems (&csv);
      g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_WARNING, _("Memory"), path, 0, _("The file is empty")));
      return FALSE;
    }

  switch (kind)
    {
    case SL_MEMORY_FILE_RECORD: read_record (&csv); break;
    case SL_MEMORY_FILE_OPERATORS: read_operators (&csv); break;
    case SL_MEMORY_FILE_MODULES: read_modules (&csv); break;
    case SL_MEMORY_FILE_NONE:
    default:
      g_return_val_if_reached (FALSE);
    }
  take_problems (&csv);
  return sl_memory_profile_get_n_curves (memory) + sl_memory_profile_get_n_modules (memory) +
         sl_memory_profile_get_n_allocations (memory) > before;
}

gboolean
sl_memory_reader_read_data (SlMemoryProfile *memory,
                            const char      *path,
                            SlMemoryFile     kind,
                            const char      *data,
                            gsize            length,
                            GCancellable    *cancellable,
                            GPtrArray       *problems)
{
  g_autoptr(SlCsvReader) reader = NULL;

  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (memory), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  reader = sl_csv_reader_new_for_data (path, data ? data : "", length);
  return read_csv (memory, reader, path, kind, cancellable, problems);
}

gboolean
sl_memory_reader_read_file (SlMemoryProfile *memory,
                            const char      *path,
                            GCancellable    *cancellable,
                            GPtrArray       *problems)
{
  g_autoptr(SlCsvReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  SlMemoryFile kind;

  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (memory), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  kind = sl_memory_reader_file_for_path (path);
  if (kind == SL_MEMORY_FILE_NONE)
    return FALSE;
  reader = sl_csv_reader_new_for_path (path, &error);
  if (reader == NULL)
    {
      g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, _("Memory"), path, -1, error->message));
      return FALSE;
    }
  return read_csv (memory, reader, path, kind, cancellable, problems);
}

/* ------------------------------------------------------------------ */
/* SQLite export */

typedef struct {
  SlMemoryProfile *memory;
  sqlite3         *db;
  const char      *path;
  GCancellable    *cancellable;
  GPtrArray       *problems;
} Db;

static gboolean
db_has_table (Db         *db,
              const char *table)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found;

  if (sqlite3_prepare_v2 (db->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                          -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

static sqlite3_stmt *
db_prepare (Db         *db,
            const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_autofree char *message = g_strdup_printf (_("A memory table cannot be read: %s"), sqlite3_errmsg (db->db));

      g_ptr_array_add (db->problems, sl_problem_new (SL_SEVERITY_WARNING, _("Memory"), db->path, -1, message));
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

static gboolean
db_cancelled (Db    *db,
              guint  row)
{
  return (row & CANCEL_MASK) == 0 && g_cancellable_is_cancelled (db->cancellable);
}

/* Bytes as @unit, NAN for NULL; -1 (refused) when negative. */
static double
column_scaled (sqlite3_stmt *stmt,
               int           column,
               double        unit)
{
  double value;

  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return NAN;
  value = sqlite3_column_double (stmt, column);
  return isfinite (value) && value >= 0 ? value / unit : -1;
}

/* A total beside an allocation: a damaged one is only not shown. */
static double
column_total (sqlite3_stmt *stmt,
              int           column)
{
  double value = column_scaled (stmt, column, BYTES_PER_MB);

  return value >= 0 ? value : NAN;
}

static gint64
column_time (sqlite3_stmt *stmt,
             int           column)
{
  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return -1;
  return MAX (sqlite3_column_int64 (stmt, column), -1);
}

static char *
column_device (sqlite3_stmt *stmt,
               int           column)
{
  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return g_strdup ("");
  return g_strdup_printf ("NPU:%lld", (long long)sqlite3_column_int64 (stmt, column));
}

static const char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  const char *text = (const char *)sqlite3_column_text (stmt, column);

  return text != NULL ? text : "";
}

static void
db_report_skipped (Db         *db,
                   const char *table,
                   guint       n_skipped)
{
  g_autofree char *message = NULL;

  if (n_skipped == 0)
    return;
  /* Translators: a count, then a table name */
  message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row of %s has a negative size or no time and was skipped",
                                          "%u rows of %s have a negative size or no time and were skipped", n_skipped),
                             n_skipped, table);
  g_ptr_array_add (db->problems, sl_problem_new (SL_SEVERITY_WARNING, _("Memory"), db->path, -1, message));
}

static void
db_read_record (Db *db)
{
  sqlite3_stmt *stmt = db_prepare (db,
    "SELECT s.value, m.timestamp, m.totalAllocated, m.totalReserved, m.totalActive, m.deviceId "
    "FROM MEMORY_RECORD m LEFT JOIN STRING_IDS s ON s.id = m.component ORDER BY m.rowid");
  guint row = 0, n_skipped = 0;

  if (stmt == NULL)
    return;
  while (sqlite3_step (stmt) == SQLITE_ROW && !db_cancelled (db, ++row))
    {
      g_autofree char *device = column_device (stmt, 5);
      gint64 ts = column_time (stmt, 1);
      double allocated = column_scaled (stmt, 2, BYTES_PER_MB);
      double reserved = column_scaled (stmt, 3, BYTES_PER_MB);
      double active = column_scaled (stmt, 4, BYTES_PER_MB);

      if (ts < 0 || allocated < 0 || reserved < 0 || active < 0)
        {
          n_skipped++;
          continue;
        }
      sl_memory_profile_add_sample (db->memory, column_text (stmt, 0), device, ts, allocated, reserved, active);
    }
  sqlite3_finalize (stmt);
  db_report_skipped (db, "MEMORY_RECORD", n_skipped);
}

static void
db_read_operators (Db *db)
{
  sqlite3_stmt *stmt = db_prepare (db,
    "SELECT s.value, o.size, o.allocationTime, o.releaseTime, o.duration, o.allocationTotalAllocated, "
    "o.allocationTotalReserved, o.releaseTotalAllocated, o.releaseTotalReserved, o.streamPtr, o.deviceId "
    "FROM OP_MEMORY o LEFT JOIN STRING_IDS s ON s.id = o.name ORDER BY o.rowid");
  guint row = 0, n_skipped = 0;

  if (stmt == NULL)
    return;
  while (sqlite3_step (stmt) == SQLITE_ROW && !db_cancelled (db, ++row))
    {
      g_autofree char *device = column_device (stmt, 10);
      SlMemoryAllocation *allocation;
      double size = column_scaled (stmt, 1, BYTES_PER_KB);
      gint64 alloc_ns = column_time (stmt, 2), release_ns = column_time (stmt, 3);

      if (isnan (size) || size < 0 || alloc_ns < 0 || (release_ns >= 0 && release_ns < alloc_ns))
        {
          n_skipped++;
          continue;
        }
      allocation = sl_memory_profile_add_allocation (db->memory, db->path, column_text (stmt, 0),
                                                     column_text (stmt, 9), device);
      allocation->size_kb = size;
      allocation->allocation_ns = alloc_ns;
      allocation->release_ns = release_ns >= 0 ? release_ns : SL_MEMORY_NOT_RELEASED;
      allocation->duration_ns = column_time (stmt, 4);
      allocation->allocation_allocated_mb = column_total (stmt, 5);
      allocation->allocation_reserved_mb = column_total (stmt, 6);
      allocation->release_allocated_mb = column_total (stmt, 7);
      allocation->release_reserved_mb = column_total (stmt, 8);
    }
  sqlite3_finalize (stmt);
  db_report_skipped (db, "OP_MEMORY", n_skipped);
}

static void
db_read_modules (Db *db)
{
  gboolean named = db_has_table (db, "ENUM_MODULE");
  sqlite3_stmt *stmt = db_prepare (db, named
    ? "SELECT coalesce(e.name, m.moduleId), m.timestampNs, m.totalReserved, m.deviceId "
      "FROM NPU_MODULE_MEM m LEFT JOIN ENUM_MODULE e ON e.id = m.moduleId ORDER BY m.rowid"
    : "SELECT m.moduleId, m.timestampNs, m.totalReserved, m.deviceId FROM NPU_MODULE_MEM m ORDER BY m.rowid");
  guint row = 0, n_skipped = 0;

  if (stmt == NULL)
    return;
  while (sqlite3_step (stmt) == SQLITE_ROW && !db_cancelled (db, ++row))
    {
      g_autofree char *device = column_device (stmt, 3);
      gint64 ts = column_time (stmt, 1);
      double reserved = column_scaled (stmt, 2, BYTES_PER_MB);

      if (ts < 0 || !(reserved >= 0))
        {
          n_skipped++;
          continue;
        }
      sl_memory_profile_add_module_sample (db->memory, column_text (stmt, 0), device, ts, reserved);
    }
  sqlite3_finalize (stmt);
  db_report_skipped (db, "NPU_MODULE_MEM", n_skipped);
}

gboolean
sl_memory_reader_read_db (SlMemoryProfile *memory,
                          const char      *path,
                          GCancellable    *cancellable,
                          GPtrArray       *problems)
{
  g_autofree char *uri_path = NULL;
  g_autofree char *uri = NULL;
  Db db = { memory, NULL, path, cancellable, problems };
  gboolean any = FALSE;

  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (memory), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  /* As the export's main reader opens it: read-only, no locks. Its
   * errors on opening are that reader's to report. */
  if (!sl_input_file_check (path, NULL))
    return FALSE;
  uri_path = g_uri_escape_string (path, "/", FALSE);
  uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", uri_path);
  if (sqlite3_open_v2 (uri, &db.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
    {
      sqlite3_close (db.db);
      return FALSE;
    }

  if (db_has_table (&db, "MEMORY_RECORD"))
    {
      db_read_record (&db);
      any = TRUE;
    }
  if (db_has_table (&db, "OP_MEMORY"))
    {
      db_read_operators (&db);
      any = TRUE;
    }
  if (db_has_table (&db, "NPU_MODULE_MEM"))
    {
      db_read_modules (&db);
      any = TRUE;
    }
  if (any)
    sl_memory_profile_add_file (memory, path);
  sqlite3_close (db.db);
  return any;
}
