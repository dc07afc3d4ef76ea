/* sl-csv-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-input-file.h"
#include "sl-csv-reader.h"

#define BLOCK_SIZE        (256 * 1024)
#define MAX_ROW_BYTES     (16 * 1024 * 1024)
#define MAX_RAGGED_LISTED 10
#define MAX_PROBLEMS      100

struct _SlCsvReader
{
  char          *path;
  GInputStream  *stream;

  /* The current block: owned when read from a stream. */
  const char    *data;
  gsize          length;
  gsize          pos;
  gint64         block_offset;
  char          *block;
  gboolean       eof;
  gboolean       failed;
  gboolean       started;

  /* The current row: fields NUL-separated in @row, starts in @starts. */
  GString       *row;
  GArray        *starts;
  gint64         row_offset;
  guint          line;
  guint          row_line;
  guint64        n_rows;

  char         **header;
  char         **header_keys;
  guint          n_columns;

  guint64        n_ragged;
  GPtrArray     *problems;

  /* the last cell refused as out of range */
  guint          refused_line;
  int            refused_column;
};

static void
add_problem (SlCsvReader *self,
             SlSeverity   severity,
             gint64       offset,
             const char  *message)
{
  if (self->problems->len == MAX_PROBLEMS)
    {
      g_ptr_array_add (self->problems,
                       sl_problem_new (SL_SEVERITY_WARNING, _("CSV reader"), self->path, offset,
                                       _("Too many problems in this file; the rest are not listed")));
      return;
    }
  if (self->problems->len > MAX_PROBLEMS)
    return;

  g_ptr_array_add (self->problems, sl_problem_new (severity, _("CSV reader"), self->path, offset, message));
}

static SlCsvReader *
reader_new (const char *path)
{
  SlCsvReader *self = g_new0 (SlCsvReader, 1);

  self->path = g_strdup (path);
  self->row = g_string_sized_new (256);
  self->starts = g_array_new (FALSE, FALSE, sizeof (guint));
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->line = 1;
  self->refused_column = SL_CSV_NO_COLUMN;
  return self;
}

/**
 * sl_csv_reader_new_for_path:
 *
 * Returns: (transfer full) (nullable): a reader, or %NULL when @path cannot be opened
 */
SlCsvReader *
sl_csv_reader_new_for_path (const char  *path,
                            GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  SlCsvReader *self;

  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_path (path);
  stream = sl_input_file_read (file, NULL, error);
  if (stream == NULL)
    return NULL;

  self = reader_new (path);
  self->stream = G_INPUT_STREAM (g_steal_pointer (&stream));
  self->block = g_malloc (BLOCK_SIZE);
  self->data = self->block;
  return self;
}

SlCsvReader *
sl_csv_reader_new_for_data (const char *path,
                            const char *data,
                            gsize       length)
{
  SlCsvReader *self;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  self = reader_new (path != NULL ? path : "");
  self->data = data != NULL ? data : "";
  self->length = length;
  self->eof = TRUE; /* no block after this one */
  return self;
}

void
sl_csv_reader_free (SlCsvReader *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->stream);
  g_clear_pointer (&self->block, g_free);
  g_clear_pointer (&self->path, g_free);
  g_string_free (self->row, TRUE);
  g_array_unref (self->starts);
  g_strfreev (self->header);
  g_strfreev (self->header_keys);
  g_ptr_array_unref (self->problems);
  g_free (self);
}

/* Loads the next block; FALSE at the end of the input. */
static gboolean
refill (SlCsvReader *self)
{
  g_autoptr(GError) error = NULL;
  gssize n;

  if (self->eof || self->failed)
    return FALSE;

  self->block_offset += self->length;
  self->pos = 0;
  self->length = 0;

  n = g_input_stream_read (self->stream, self->block, BLOCK_SIZE, NULL, &error);
  if (n < 0)
    {
      g_autofree char *message = g_strdup_printf (_("Read error: %s"), error->message);

      add_problem (self, SL_SEVERITY_ERROR, self->block_offset, message);
      self->failed = TRUE;
      return FALSE;
    }
  if (n == 0)
    {
      self->eof = TRUE;
      return FALSE;
    }

  self->length = n;
  return TRUE;
}

/* -1 at the end of the input. */
static inline int
next_byte (SlCsvReader *self)
{
  if (self->pos == self->length && !refill (self))
    return -1;
  return (guchar)self->data[self->pos++];
}

static inline int
peek_byte (SlCsvReader *self)
{
  if (self->pos == self->length && !refill (self))
    return -1;
  return (guchar)self->data[self->pos];
}

static void
skip_bom (SlCsvReader *self)
{
  static const guchar bom[3] = { 0xEF, 0xBB, 0xBF };

  self->started = TRUE;
  if (self->pos == self->length)
    refill (self);
  /* A BOM split over blocks cannot happen: the first block is larger. */
  if (self->length - self->pos >= 3 && memcmp (self->data + self->pos, bom, 3) == 0)
    self->pos += 3;
}

static inline gint64
current_offset (SlCsvReader *self)
{
  return self->block_offset + (gint64)self->pos;
}

static void
end_field (SlCsvReader *self)
{
  g_string_append_c (self->row, '\0');
}

static void
start_field (SlCsvReader *self)
{
  guint start = self->row->len;

  g_array_append_val (self->starts, start);
}

/* Reads one physical row (which may span lines inside quotes). Returns
 * FALSE at the end of the input with nothing read. */
static gboolean
read_row (SlCsvReader *self)
{
  gboolean quoted = FALSE;
  gboolean at_field_start = TRUE;
  gint64 quote_offset = 0;
  int c;

  g_string_truncate (self->row, 0);
  g_array_set_size (self->starts, 0);

  if (!self->started)
    skip_bom (self);

  if (peek_byte (self) < 0)
    return FALSE;

  self->row_offset = current_offset (self);
  self->row_line = self->line;
  start_field (self);

  for (;;)
    {
      c = next_byte (self);

      if (c < 0)
        {
          if (quoted)
            add_problem (self, SL_SEVERITY_ERROR, quote_offset,
                         _("The file ends inside a quoted field; the last row is incomplete"));
          break;
        }

      if (G_UNLIKELY (self->row->len > MAX_ROW_BYTES))
        {
          add_problem (self, SL_SEVERITY_ERROR, self->row_offset,
                       _("A row is longer than 16 MiB; the rest of the file is not read"));
          self->failed = TRUE;
          self->eof = TRUE;
          self->length = self->pos;
          break;
        }

      if (quoted)
        {
          if (c == '"')
            {
              if (peek_byte (self) == '"')
                {
                  self->pos++;
                  g_string_append_c (self->row, '"');
                }
              else
                quoted = FALSE;
            }
          else
            {
              if (c == '\n')
                self->line++;
              g_string_append_c (self->row, (char)c);
            }
          continue;
        }

      if (c == '"' && at_field_start)
        {
          quoted = TRUE;
          at_field_start = FALSE;
          quote_offset = current_offset (self) - 1;
          continue;
        }

      if (c == ',')
        {
          end_field (self);
          start_field (self);
          at_field_start = TRUE;
          continue;
        }

      if (c == '\r' || c == '\n')
        {
          if (c == '\r' && peek_byte (self) == '\n')
            self->pos++;
          self->line++;
          break;
        }

      /* A stray quote inside an unquoted field is kept as text, as
       * spreadsheet programs do. */
      at_field_start = FALSE;
      g_string_append_c (self->row, (char)c);
    }

  end_field (self);
  return TRUE;
}

static gboolean
row_is_blank (SlCsvReader *self)
{
  return self->starts->len == 1 && self->row->len == 1;
}

/* Lower case, without blanks and underscores: "Task_ID" == "task id". */
static char *
column_key (const char *name)
{
  GString *key = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == ' ' || *p == '_' || *p == '\t')
        continue;
      g_string_append_c (key, g_ascii_tolower (*p));
    }
  return g_string_free (key, FALSE);
}

gboolean
sl_csv_reader_read_header (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  do
    {
      if (!read_row (self))
        return FALSE;
    }
  while (row_is_blank (self));

  g_strfreev (self->header);
  g_strfreev (self->header_keys);
  self->n_columns = self->starts->len;
  self->header = g_new0 (char *, self->n_columns + 1);
  self->header_keys = g_new0 (char *, self->n_columns + 1);
  for (guint i = 0; i < self->n_columns; i++)
    {
      self->header[i] = g_strstrip (g_strdup (self->row->str + g_array_index (self->starts, guint, i)));
      self->header_keys[i] = column_key (self->header[i]);
    }

  return TRUE;
}

guint
sl_csv_reader_get_n_columns (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_columns;
}

const char *
sl_csv_reader_get_column_name (SlCsvReader *self,
                               guint        column)
{
  g_return_val_if_fail (self != NULL, NULL);
  return column < self->n_columns ? self->header[column] : NULL;
}

int
sl_csv_reader_find_column (SlCsvReader *self,
                           const char  *names)
{
  g_auto(GStrv) alternatives = NULL;

  g_return_val_if_fail (self != NULL, SL_CSV_NO_COLUMN);
  g_return_val_if_fail (names != NULL, SL_CSV_NO_COLUMN);

  alternatives = g_strsplit (names, "|", -1);
  for (guint a = 0; alternatives[a] != NULL; a++)
    {
      g_autofree char *key = column_key (alternatives[a]);

      for (guint i = 0; i < self->n_columns; i++)
        {
          if (g_str_equal (self->header_keys[i], key))
            return (int)i;
        }
    }

  return SL_CSV_NO_COLUMN;
}

static void
report_ragged (SlCsvReader *self)
{
  g_autofree char *message = NULL;

  self->n_ragged++;
  if (self->n_ragged > MAX_RAGGED_LISTED)
    return;

  /* Translators: a CSV row's number of fields, then the header's */
  message = g_strdup_printf (_("Line %u has %u fields where the header has %u"),
                             self->row_line, self->starts->len, self->n_columns);
  add_problem (self, SL_SEVERITY_WARNING, self->row_offset, message);
}

gboolean
sl_csv_reader_next_row (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  for (;;)
    {
      if (!read_row (self))
        {
          if (self->n_ragged > MAX_RAGGED_LISTED)
            {
              g_autofree char *message =
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%llu row in all has a different number of fields from the header",
                                              "%llu rows in all have a different number of fields from the header",
                                              self->n_ragged),
                                 (unsigned long long)self->n_ragged);

              add_problem (self, SL_SEVERITY_WARNING, current_offset (self), message);
              self->n_ragged = MAX_RAGGED_LISTED;
            }
          return FALSE;
        }
      if (!row_is_blank (self))
        break;
    }

  self->n_rows++;
  if (self->n_columns > 0 && self->starts->len != self->n_columns)
    report_ragged (self);

  return TRUE;
}

guint
sl_csv_reader_get_n_fields (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->starts->len;
}

const char *
sl_csv_reader_get_field (SlCsvReader *self,
                         int          column)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (column < 0 || (guint)column >= self->starts->len)
    return NULL;
  return self->row->str + g_array_index (self->starts, guint, column);
}

gint64
sl_csv_reader_get_row_offset (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->row_offset;
}

guint
sl_csv_reader_get_row_line (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->row_line;
}

guint64
sl_csv_reader_get_n_rows (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

guint64
sl_csv_reader_get_bytes_read (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return current_offset (self);
}

const char *
sl_csv_reader_get_path (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

void
sl_csv_reader_report (SlCsvReader *self,
                      SlSeverity   severity,
                      const char  *message)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (message != NULL);

  add_problem (self, severity, self->row_offset, message);
}

GPtrArray *
sl_csv_reader_get_problems (SlCsvReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->problems;
}

static const char *
skip_blanks (const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
    p++;
  return p;
}

static gboolean
only_blanks (const char *p)
{
  return *skip_blanks (p) == '\0';
}

/* What a cell holds: nothing usable ("", "N/A", "-", words), a number,
 * or a number no profiler value can be. The last is damage worth telling:
 * 1e308 or 2^64 would overflow every sum and ratio it reached, and "nan"
 * or "inf" would poison them. */
typedef enum {
  NUMBER_NONE,
  NUMBER_OK,
  NUMBER_OUT_OF_RANGE,
} NumberStatus;

/* 2^63: beyond any count, byte size or nanosecond time a profiler writes,
 * and sums of a billion such values still fit a double. */
#define MAX_MAGNITUDE 9223372036854775808.0

static NumberStatus
parse_double (const char *text,
              double     *value)
{
  const char *p, *digits;
  char *end = NULL;
  double v;

  if (text == NULL)
    return NUMBER_NONE;
  p = skip_blanks (text);
  digits = *p == '-' || *p == '+' ? p + 1 : p;
  if (g_ascii_strncasecmp (digits, "nan", 3) == 0 || g_ascii_strncasecmp (digits, "inf", 3) == 0)
    {
      g_ascii_strtod (p, &end);
      return end != p && only_blanks (end) ? NUMBER_OUT_OF_RANGE : NUMBER_NONE;
    }
  if (!(g_ascii_isdigit (*digits) || *digits == '.'))
    return NUMBER_NONE;

  v = g_ascii_strtod (p, &end);
  if (end == p || !only_blanks (end))
    return NUMBER_NONE;
  if (!isfinite (v) || fabs (v) >= MAX_MAGNITUDE)
    return NUMBER_OUT_OF_RANGE;

  *value = v;
  return NUMBER_OK;
}

static NumberStatus
parse_int64 (const char *text,
             gint64     *value)
{
  const char *p;
  char *end = NULL;
  double d;
  gint64 v;

  if (text == NULL)
    return NUMBER_NONE;
  p = skip_blanks (text);
  if (*p == '\0' || !(g_ascii_isdigit (*p) || *p == '-' || *p == '+'))
    return parse_double (text, &d) == NUMBER_OUT_OF_RANGE ? NUMBER_OUT_OF_RANGE : NUMBER_NONE;

  errno = 0;
  v = g_ascii_strtoll (p, &end, 10);
  if (end == p || !only_blanks (end))
    /* "1e400" is a number, just not an integer one */
    return parse_double (text, &d) == NUMBER_OUT_OF_RANGE ? NUMBER_OUT_OF_RANGE : NUMBER_NONE;
  if (errno == ERANGE)
    return NUMBER_OUT_OF_RANGE;
  if (errno != 0)
    return NUMBER_NONE;

  *value = v;
  return NUMBER_OK;
}

static NumberStatus
parse_scaled (const char *text,
              guint       scale,
              gint64     *value)
{
  const char *p;
  gboolean negative = FALSE;
  gboolean any_digit = FALSE;
  gboolean overflow = FALSE;
  guint64 v = 0;
  guint decimals = 0;

  if (text == NULL)
    return NUMBER_NONE;
  p = skip_blanks (text);
  if (*p == '-' || *p == '+')
    negative = *p++ == '-';

  for (; g_ascii_isdigit (*p); p++)
    {
      if (v > (G_MAXINT64 - 9) / 10)
        overflow = TRUE;
      else
        v = v * 10 + (guint64)(*p - '0');
      any_digit = TRUE;
    }

  if (*p == '.')
    {
      p++;
      for (; g_ascii_isdigit (*p); p++)
        {
          any_digit = TRUE;
          if (decimals < scale)
            {
              if (v > (G_MAXINT64 - 9) / 10)
                overflow = TRUE;
              else
                v = v * 10 + (guint64)(*p - '0');
              decimals++;
            }
          else if (decimals == scale)
            {
              /* Round half up on the first dropped digit. */
              if (*p >= '5')
                v++;
              decimals++;
            }
        }
    }

  if (!any_digit)
    return parse_double (text, &(double){ 0 }) == NUMBER_OUT_OF_RANGE ? NUMBER_OUT_OF_RANGE : NUMBER_NONE;

  /* Exponents ("1.5e+03") are rare in these files: go through double. */
  if (*p == 'e' || *p == 'E')
    {
      NumberStatus status;
      double d = 0;

      if ((status = parse_double (text, &d)) != NUMBER_OK)
        return status;
      for (guint i = 0; i < scale; i++)
        d *= 10;
      if (!(d > (double)G_MININT64 && d < (double)G_MAXINT64))
        return NUMBER_OUT_OF_RANGE;
      *value = (gint64)(d < 0 ? d - 0.5 : d + 0.5);
      return NUMBER_OK;
    }

  if (!only_blanks (p))
    return NUMBER_NONE;
  if (overflow)
    return NUMBER_OUT_OF_RANGE;

  for (; decimals < scale; decimals++)
    {
      if (v > (guint64)G_MAXINT64 / 10)
        return NUMBER_OUT_OF_RANGE;
      v *= 10;
    }
  if (v > (guint64)G_MAXINT64)
    return NUMBER_OUT_OF_RANGE;

  *value = negative ? -(gint64)v : (gint64)v;
  return NUMBER_OK;
}

gboolean
sl_csv_parse_int64 (const char *text,
                    gint64     *value)
{
  g_return_val_if_fail (value != NULL, FALSE);
  return parse_int64 (text, value) == NUMBER_OK;
}

gboolean
sl_csv_parse_double (const char *text,
                     double     *value)
{
  g_return_val_if_fail (value != NULL, FALSE);
  return parse_double (text, value) == NUMBER_OK;
}

gboolean
sl_csv_parse_scaled (const char *text,
                     guint       scale,
                     gint64     *value)
{
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (scale <= 12, FALSE);
  return parse_scaled (text, scale, value) == NUMBER_OK;
}

/* Reports the current row's cell at @column as out of range. */
static void
refuse_cell (SlCsvReader *self,
             int          column,
             const char  *text)
{
  g_autofree char *shown = NULL;
  g_autofree char *message = NULL;
  const char *name = (guint) column < self->n_columns ? self->header[column] : "";
  const char *p = skip_blanks (text);
  gsize length = strlen (p);

  self->refused_line = self->row_line;
  self->refused_column = column;

  while (length > 0 && (p[length - 1] == ' ' || p[length - 1] == '\t' || p[length - 1] == '\r' || p[length - 1] == '\n'))
    length--;
  /* 10^5000 written out is 5001 digits: show its start and its length */
  if (length > 32)
    shown = g_strdup_printf (_("%.*s… (%zu characters)"), 24, p, length);
  else
    shown = g_strndup (p, length);

  /* Translators: the cell's text, then the column's name */
  message = g_strdup_printf (_("%s in “%s” is out of range or not finite; the value is left out"), shown, name);
  if (self->problems->len >= MAX_PROBLEMS)
    {
      add_problem (self, SL_SEVERITY_WARNING, self->row_offset, message);
      return;
    }
  g_ptr_array_add (self->problems,
                   sl_problem_new_at_position (SL_SEVERITY_WARNING, _("CSV reader"), self->path, self->row_offset,
                                               self->row_line, (guint) column + 1, name, message));
}

/* The cell's number, or FALSE: silently when the cell holds none, with a
 * problem at its line and column when it holds one out of range. */
#define GET_NUMBER(self, column, call)                                   \
  G_STMT_START {                                                         \
    const char *text_ = sl_csv_reader_get_field (self, column);          \
    NumberStatus status_ = call;                                         \
                                                                         \
    if (status_ == NUMBER_OUT_OF_RANGE)                                  \
      refuse_cell (self, column, text_);                                 \
    return status_ == NUMBER_OK;                                         \
  } G_STMT_END

gboolean
sl_csv_reader_get_int64 (SlCsvReader *self,
                         int          column,
                         gint64      *value)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  GET_NUMBER (self, column, parse_int64 (text_, value));
}

gboolean
sl_csv_reader_get_double (SlCsvReader *self,
                          int          column,
                          double      *value)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  GET_NUMBER (self, column, parse_double (text_, value));
}

gboolean
sl_csv_reader_get_scaled (SlCsvReader *self,
                          int          column,
                          guint        scale,
                          gint64      *value)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (scale <= 12, FALSE);
  GET_NUMBER (self, column, parse_scaled (text_, scale, value));
}

/**
 * sl_csv_reader_is_refused:
 *
 * Returns: whether the current row's cell at @column was reported out of
 *   range by a sl_csv_reader_get_*() call, so that a caller that skips
 *   the row need not report the cell again
 */
gboolean
sl_csv_reader_is_refused (SlCsvReader *self,
                          int          column)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return column != SL_CSV_NO_COLUMN && self->refused_line == self->row_line && self->refused_column == column;
}
