/* sl-profile-table-reader.h: reads a profiler CSV from its column spec
 *
 * Each CSV the profile loader knows is described by data: its file names,
 * the columns it needs with the header names they had across tool
 * versions, their units, and a function that maps one row into the
 * model. One reader walks every such spec: it opens the file, finds the
 * columns, refuses a file that lacks a required column (a problem naming
 * the file and the column), skips a row whose key or number is missing
 * or damaged (a problem naming its line and column), and hands the other
 * rows to the spec's row function.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-csv-reader.h"
#include "sl-profile.h"
#include "sl-profile-discovery.h"

G_BEGIN_DECLS

/* A column's unit: times become ns, exactly (decimals, not doubles). */
typedef enum {
  SL_PROFILE_UNIT_NONE,   /* text, a count or a plain number */
  SL_PROFILE_UNIT_MS,
  SL_PROFILE_UNIT_US,
  SL_PROFILE_UNIT_TICKS,  /* MindSpore's system counter: 10 ns */
} SlProfileUnit;

typedef enum {
  /* Without it the file is not read. */
  SL_PROFILE_COLUMN_REQUIRED = 1 << 0,
  /* The header must be exactly the name, case included ("FLOPs" is not
   * "FLOPS"); otherwise case, blanks and underscores are ignored. */
  SL_PROFILE_COLUMN_EXACT    = 1 << 1,
  /* The row's key: a row without it is skipped, reported as a bad value
   * of the VALUE column. At most one per table. */
  SL_PROFILE_COLUMN_KEY      = 1 << 2,
  /* The number every row needs (an integer when the unit is NONE); a row
   * without it is skipped with a problem. At most one per table. */
  SL_PROFILE_COLUMN_VALUE    = 1 << 3,
} SlProfileColumnFlags;

typedef struct {
  /* The header names across versions, '|' between, the first found wins. */
  const char           *aliases;
  /* The name a damaged value of the column is reported under. */
  const char           *name;
  /* The name a missing REQUIRED column is reported under. */
  const char           *required;
  SlProfileUnit         unit;
  SlProfileColumnFlags  flags;
} SlProfileColumn;

typedef struct _SlProfileTableRow  SlProfileTableRow;
typedef struct _SlProfileTableSpec SlProfileTableSpec;

struct _SlProfileTableSpec {
  SlProfileFileKind       kind;
  /* The files, as sl-profiler-layout's table names them. */
  const char             *files;
  const SlProfileColumn  *columns;
  guint                   n_columns;
  /* A reader whose rows do not fit the hooks below reads the file itself
   * (with sl_profile_table_open() and _close()); the others leave it NULL. */
  void                  (*read)       (const SlProfileTableSpec *spec,
                                       SlProfile                *profile,
                                       SlProfileRank            *rank,
                                       const char               *path,
                                       GCancellable             *cancellable);
  /* Optional: whether @rank still wants the file (task_time is read only
   * when no op_summary was). */
  gboolean              (*wanted)     (SlProfileRank     *rank);
  /* Optional: after the header, the file's state for the rows. */
  gpointer              (*begin)      (SlProfileTableRow *row);
  /* Each row that has its key and value. */
  void                  (*row)        (SlProfileTableRow *row);
  /* Optional: after the last row (or a cancellation). */
  void                  (*end)        (SlProfileTableRow *row);
  GDestroyNotify          free_state;
};

struct _SlProfileTableRow {
  const SlProfileTableSpec *spec;
  SlProfile                *profile;
  SlProfileRank            *rank;     /* NULL for the cluster tables */
  const char               *path;
  SlCsvReader              *reader;
  const int                *columns;  /* per spec column; SL_CSV_NO_COLUMN when absent */
  gpointer                  state;    /* from begin() */
  gint64                    value;    /* the VALUE column, in ns when a time */
};

/* Reads @path into @profile (and @rank) as @spec says. */
void         sl_profile_table_read       (const SlProfileTableSpec *spec,
                                          SlProfile                *profile,
                                          SlProfileRank            *rank,
                                          const char               *path,
                                          GCancellable             *cancellable);

/* For readers with a loop of their own: opens @path, fills @columns
 * (spec->n_columns of them) and checks the required ones. NULL (with
 * the problems added to @profile) when the file cannot be read. */
SlCsvReader *sl_profile_table_open       (const SlProfileTableSpec *spec,
                                          SlProfile                *profile,
                                          const char               *path,
                                          int                      *columns);
/* Moves the reader's problems into @profile and frees it. */
void         sl_profile_table_close      (SlProfile                *profile,
                                          SlCsvReader              *reader);
/* TRUE every few thousand rows once @cancellable is cancelled. */
gboolean     sl_profile_table_cancelled  (SlCsvReader              *reader,
                                          GCancellable             *cancellable);
/* "Line N: “NAME” is not a number (or out of range); the row is skipped" */
void         sl_profile_table_report_bad (SlCsvReader              *reader,
                                          int                       column,
                                          const char               *name);

/* The current row's cells, by the spec's column index. */
const char  *sl_profile_table_row_text   (SlProfileTableRow        *row,
                                          guint                     column);
gboolean     sl_profile_table_row_has    (SlProfileTableRow        *row,
                                          guint                     column);
/* A time in ns (by the column's unit), or @fallback. */
gint64       sl_profile_table_row_ns     (SlProfileTableRow        *row,
                                          guint                     column,
                                          gint64                    fallback);
gint64       sl_profile_table_row_int    (SlProfileTableRow        *row,
                                          guint                     column,
                                          gint64                    fallback);
gboolean     sl_profile_table_row_double (SlProfileTableRow        *row,
                                          guint                     column,
                                          double                   *value);
guint        sl_profile_table_row_line   (SlProfileTableRow        *row);

/* Adds a problem of the profile reader to @profile. */
void         sl_profile_report           (SlProfile                *profile,
                                          SlSeverity                severity,
                                          const char               *path,
                                          gint64                    offset,
                                          const char               *message);

/* Cell helpers the readers share. */
int          sl_profile_find_column_exact (SlCsvReader             *reader,
                                           const char              *name);
/* Drops the quotes and blanks around a cell ("\"32,3\"" → "32,3");
 * NULL for NULL or "N/A". */
char        *sl_profile_clean_text        (const char              *text);
gint64       sl_profile_parse_int_or      (const char              *text,
                                           gint64                   fallback);

G_END_DECLS
