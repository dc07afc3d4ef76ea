/* fuzz-csv.c: libFuzzer harness for the CSV reader
 *
 * Each input is read as a CSV file: the header, a column lookup with
 * alternatives, every row and every field through the number parsers the
 * profile readers use. Rows must never hold more fields than bytes read,
 * and every problem must point inside the input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sl-csv-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlCsvReader) reader = sl_csv_reader_new_for_data ("fuzz.csv", (const char *)data, size);
  GPtrArray *problems;

  if (sl_csv_reader_read_header (reader))
    {
      int column = sl_csv_reader_find_column (reader, "Task Duration(us)|duration|a");

      while (sl_csv_reader_next_row (reader))
        {
          guint n = sl_csv_reader_get_n_fields (reader);

          if (n > size + 1 || (guint64)sl_csv_reader_get_row_offset (reader) > size)
            abort ();
          for (guint i = 0; i < n; i++)
            {
              const char *field = sl_csv_reader_get_field (reader, (int)i);
              gint64 value;
              double number;

              if (field == NULL)
                abort ();
              sl_csv_parse_int64 (field, &value);
              sl_csv_parse_double (field, &number);
              sl_csv_parse_scaled (field, 3, &value);
              sl_csv_parse_scaled (field, 6, &value);
            }
          (void)sl_csv_reader_get_field (reader, column);
        }
    }

  problems = sl_csv_reader_get_problems (reader);
  for (guint i = 0; i < problems->len; i++)
    {
      gint64 offset = sl_problem_get_offset (g_ptr_array_index (problems, i));

      if (offset < -1 || offset > (gint64)size)
        abort ();
    }

  return 0;
}
