/* sl-profile-table-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-profile-table-reader.h"

#define CANCEL_MASK 0xfff

/* At most this many columns in a spec. */
#define MAX_COLUMNS 32

/* ------------------------------------------------------------------ */
/* Problems */

void
sl_profile_report (SlProfile  *profile,
                   SlSeverity  severity,
                   const char *path,
                   gint64      offset,
                   const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Profile reader"), path, offset, message);

  sl_profile_add_problem (profile, problem);
}

static void
take_csv_problems (SlProfile   *profile,
                   SlCsvReader *reader)
{
  GPtrArray *problems = sl_csv_reader_get_problems (reader);

  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (profile, g_ptr_array_index (problems, i));
}

static SlCsvReader *
open_csv (SlProfile  *profile,
          const char *path)
{
  g_autoptr(GError) error = NULL;
  SlCsvReader *reader = sl_csv_reader_new_for_path (path, &error);

  if (reader == NULL)
    {
      sl_profile_report (profile, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  if (!sl_csv_reader_read_header (reader))
    {
      take_csv_problems (profile, reader);
      sl_profile_report (profile, SL_SEVERITY_WARNING, path, 0, _("The file is empty"));
      sl_csv_reader_free (reader);
      return NULL;
    }
  return reader;
}

static gboolean
require_column (SlProfile   *profile,
                SlCsvReader *reader,
                const char  *names,
                int          column)
{
  g_autofree char *message = NULL;

  if (column != SL_CSV_NO_COLUMN)
    return TRUE;

  /* Translators: %s is a column name (with alternatives separated by |) */
  message = g_strdup_printf (_("The header has no column “%s”; the file is not read"), names);
  sl_profile_report (profile, SL_SEVERITY_ERROR, sl_csv_reader_get_path (reader), 0, message);
  return FALSE;
}

gboolean
sl_profile_table_cancelled (SlCsvReader  *reader,
                            GCancellable *cancellable)
{
  return (sl_csv_reader_get_n_rows (reader) & CANCEL_MASK) == 0 &&
         g_cancellable_is_cancelled (cancellable);
}

void
sl_profile_table_report_bad (SlCsvReader *reader,
                             int          column,
                             const char  *name)
{
  g_autofree char *message = NULL;

  /* Translators: %s is a column name */
  if (sl_csv_reader_is_refused (reader, column))
    message = g_strdup_printf (_("Line %u: “%s” is out of range; the row is skipped"),
                               sl_csv_reader_get_row_line (reader), name);
  else
    message = g_strdup_printf (_("Line %u: “%s” is not a number; the row is skipped"),
                               sl_csv_reader_get_row_line (reader), name);
  sl_csv_reader_report (reader, SL_SEVERITY_WARNING, message);
}

/* ------------------------------------------------------------------ */
/* Cells */

int
sl_profile_find_column_exact (SlCsvReader *reader,
                              const char  *name)
{
  for (guint c = 0; c < sl_csv_reader_get_n_columns (reader); c++)
    {
      g_autofree char *header = g_strstrip (g_strdup (sl_csv_reader_get_column_name (reader, c)));

      if (g_str_equal (header, name))
        return (int)c;
    }
  return SL_CSV_NO_COLUMN;
}

/* kernel_details writes shapes as "\"32,3,224,224\"": drop the quotes. */
char *
sl_profile_clean_text (const char *text)
{
  gsize len;

  if (text == NULL)
    return NULL;
  while (*text == ' ' || *text == '"')
    text++;
  len = strlen (text);
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '"' || text[len - 1] == '\t'))
    len--;
  if (len == 3 && strncmp (text, "N/A", 3) == 0)
    return NULL;
  return g_strndup (text, len);
}

gint64
sl_profile_parse_int_or (const char *text,
                         gint64      fallback)
{
  gint64 value;

  return sl_csv_parse_int64 (text, &value) ? value : fallback;
}

static guint
unit_scale (SlProfileUnit unit)
{
  switch (unit)
    {
    case SL_PROFILE_UNIT_MS: return 6;
    case SL_PROFILE_UNIT_US: return 3;
    case SL_PROFILE_UNIT_TICKS: return 1; /* a tick is one decimal place of ns */
    case SL_PROFILE_UNIT_NONE:
    default:
      return 0;
    }
}

/* The cell as the column's unit says: ns for a time, else an integer. */
static gboolean
get_number (SlCsvReader           *reader,
            const SlProfileColumn *column,
            int                    index,
            gint64                *value)
{
  if (column->unit == SL_PROFILE_UNIT_NONE)
    return sl_csv_reader_get_int64 (reader, index, value);
  return sl_csv_reader_get_scaled (reader, index, unit_scale (column->unit), value);
}

const char *
sl_profile_table_row_text (SlProfileTableRow *row,
                           guint              column)
{
  g_return_val_if_fail (column < row->spec->n_columns, NULL);
  return sl_csv_reader_get_field (row->reader, row->columns[column]);
}

gboolean
sl_profile_table_row_has (SlProfileTableRow *row,
                          guint              column)
{
  g_return_val_if_fail (column < row->spec->n_columns, FALSE);
  return row->columns[column] != SL_CSV_NO_COLUMN;
}

gint64
sl_profile_table_row_ns (SlProfileTableRow *row,
                         guint              column,
                         gint64             fallback)
{
  gint64 value;

  g_return_val_if_fail (column < row->spec->n_columns, fallback);
  return get_number (row->reader, &row->spec->columns[column], row->columns[column], &value) ? value : fallback;
}

gint64
sl_profile_table_row_int (SlProfileTableRow *row,
                          guint              column,
                          gint64             fallback)
{
  gint64 value;

  g_return_val_if_fail (column < row->spec->n_columns, fallback);
  return sl_csv_reader_get_int64 (row->reader, row->columns[column], &value) ? value : fallback;
}

gboolean
sl_profile_table_row_double (SlProfileTableRow *row,
                             guint              column,
                             double            *value)
{
  g_return_val_if_fail (column < row->spec->n_columns, FALSE);
  return sl_csv_reader_get_double (row->reader, row->columns[column], value);
}

guint
sl_profile_table_row_line (SlProfileTableRow *row)
{
  return sl_csv_reader_get_row_line (row->reader);
}

/* ------------------------------------------------------------------ */
/* Reading */

SlCsvReader *
sl_profile_table_open (const SlProfileTableSpec *spec,
                       SlProfile                *profile,
                       const char               *path,
                       int                      *columns)
{
  SlCsvReader *reader;

  g_return_val_if_fail (spec->n_columns <= MAX_COLUMNS, NULL);

  if ((reader = open_csv (profile, path)) == NULL)
    return NULL;

  for (guint i = 0; i < spec->n_columns; i++)
    {
      const SlProfileColumn *column = &spec->columns[i];

      /* "FLOPs" and "FLOPS" differ only in case, which column lookup ignores. */
      if (column->flags & SL_PROFILE_COLUMN_EXACT)
        columns[i] = sl_profile_find_column_exact (reader, column->aliases);
      else
        columns[i] = sl_csv_reader_find_column (reader, column->aliases);
    }
  for (guint i = 0; i < spec->n_columns; i++)
    {
      const SlProfileColumn *column = &spec->columns[i];

      if ((column->flags & SL_PROFILE_COLUMN_REQUIRED) &&
          !require_column (profile, reader, column->required, columns[i]))
        {
          sl_profile_table_close (profile, reader);
          return NULL;
        }
    }
  return reader;
}

void
sl_profile_table_close (SlProfile   *profile,
                        SlCsvReader *reader)
{
  if (reader == NULL)
    return;
  take_csv_problems (profile, reader);
  sl_csv_reader_free (reader);
}

static int
find_flagged (const SlProfileTableSpec *spec,
              SlProfileColumnFlags      flag)
{
  for (guint i = 0; i < spec->n_columns; i++)
    if (spec->columns[i].flags & flag)
      return (int)i;
  return -1;
}

void
sl_profile_table_read (const SlProfileTableSpec *spec,
                       SlProfile                *profile,
                       SlProfileRank            *rank,
                       const char               *path,
                       GCancellable             *cancellable)
{
  int columns[MAX_COLUMNS];
  int key = find_flagged (spec, SL_PROFILE_COLUMN_KEY);
  int value = find_flagged (spec, SL_PROFILE_COLUMN_VALUE);
  SlProfileTableRow row = { spec, profile, rank, path, NULL, columns, NULL, 0 };

  g_return_if_fail (spec != NULL);

  if (spec->read != NULL)
    {
      spec->read (spec, profile, rank, path, cancellable);
      return;
    }
  g_return_if_fail (spec->row != NULL);
  if (spec->wanted != NULL && !spec->wanted (rank))
    return;
  if ((row.reader = sl_profile_table_open (spec, profile, path, columns)) == NULL)
    return;

  if (spec->begin != NULL)
    row.state = spec->begin (&row);

  while (sl_csv_reader_next_row (row.reader))
    {
      if (sl_profile_table_cancelled (row.reader, cancellable))
        break;
      if (value >= 0 &&
          ((key >= 0 && sl_csv_reader_get_field (row.reader, columns[key]) == NULL) ||
           !get_number (row.reader, &spec->columns[value], columns[value], &row.value)))
        {
          sl_profile_table_report_bad (row.reader, columns[value], spec->columns[value].name);
          continue;
        }
      spec->row (&row);
    }

  if (spec->end != NULL)
    spec->end (&row);
  if (row.state != NULL && spec->free_state != NULL)
    spec->free_state (row.state);
  sl_profile_table_close (profile, row.reader);
}
