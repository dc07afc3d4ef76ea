/* sl-csv-reader.h: a streaming reader for the CSV files profilers write
 *
 * RFC 4180 with the damage real files have: a UTF-8 byte order mark, CRLF
 * or LF, quoted fields with embedded commas, newlines and doubled quotes,
 * rows with too few or too many fields (reported, never fatal), a file that
 * ends inside a quote (reported, the partial row kept). The file is read in
 * blocks, so a 100 MB op_summary costs one row of memory. Header columns are
 * found by name, ignoring case, spaces and underscores, with alternatives
 * separated by '|'.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_CSV_NO_COLUMN (-1)

typedef struct _SlCsvReader SlCsvReader;

SlCsvReader *sl_csv_reader_new_for_path    (const char    *path,
                                            GError       **error);
/* @data is not copied and must outlive the reader; @path names it in problems. */
SlCsvReader *sl_csv_reader_new_for_data    (const char    *path,
                                            const char    *data,
                                            gsize          length);
void         sl_csv_reader_free            (SlCsvReader   *self);

/* Reads the first row as the header; FALSE when the file is empty. */
gboolean     sl_csv_reader_read_header     (SlCsvReader   *self);
guint        sl_csv_reader_get_n_columns   (SlCsvReader   *self);
const char  *sl_csv_reader_get_column_name (SlCsvReader   *self,
                                            guint          column);
/* "Task Duration(us)|Duration(us)": the first alternative present wins. */
int          sl_csv_reader_find_column     (SlCsvReader   *self,
                                            const char    *names);

/* Reads the next row; FALSE at the end of the file or on a read error
 * (reported as a problem). Blank lines are skipped. */
gboolean     sl_csv_reader_next_row        (SlCsvReader   *self);
guint        sl_csv_reader_get_n_fields    (SlCsvReader   *self);
/* The field of the current row, or NULL when the row is shorter or
 * @column is SL_CSV_NO_COLUMN. Valid until the next row. */
const char  *sl_csv_reader_get_field       (SlCsvReader   *self,
                                            int            column);
gint64       sl_csv_reader_get_row_offset  (SlCsvReader   *self);
guint        sl_csv_reader_get_row_line    (SlCsvReader   *self);
guint64      sl_csv_reader_get_n_rows      (SlCsvReader   *self);
guint64      sl_csv_reader_get_bytes_read  (SlCsvReader   *self);
const char  *sl_csv_reader_get_path        (SlCsvReader   *self);

/* Adds a problem located at the current row. */
void         sl_csv_reader_report          (SlCsvReader   *self,
                                            SlSeverity     severity,
                                            const char    *message);
/* Problems found so far (SlProblem), in file order. */
GPtrArray   *sl_csv_reader_get_problems    (SlCsvReader   *self);

/* The current row's cell at @column as a number (as the sl_csv_parse_*()
 * below). FALSE when the cell is missing or holds no number, and also
 * when it holds a number out of range (beyond 2^63 in magnitude or what
 * the type holds, nan, inf), which is then reported as a problem at its
 * line and column: such a value never reaches a sum or a ratio. */
gboolean     sl_csv_reader_get_int64       (SlCsvReader   *self,
                                            int            column,
                                            gint64        *value);
gboolean     sl_csv_reader_get_double      (SlCsvReader   *self,
                                            int            column,
                                            double        *value);
gboolean     sl_csv_reader_get_scaled      (SlCsvReader   *self,
                                            int            column,
                                            guint          scale,
                                            gint64        *value);
gboolean     sl_csv_reader_is_refused      (SlCsvReader   *self,
                                            int            column);

/* Number parsing shared by the profile readers: surrounding blanks and
 * tabs are ignored; "", "N/A", "-", garbage and numbers out of range
 * (see above) give FALSE. */
gboolean     sl_csv_parse_int64            (const char    *text,
                                            gint64        *value);
gboolean     sl_csv_parse_double           (const char    *text,
                                            double        *value);
/* A decimal like "1736408883704643.212" times 10^@scale, exactly, as an
 * integer (µs → ns is @scale 3); digits past the scale are rounded. */
gboolean     sl_csv_parse_scaled           (const char    *text,
                                            guint          scale,
                                            gint64        *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCsvReader, sl_csv_reader_free)

G_END_DECLS
