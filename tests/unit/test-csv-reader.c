/* test-csv-reader.c: the CSV reader on quoting, line endings, BOM, ragged
 * and truncated rows, header aliases, numbers and block boundaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <sys/stat.h>
#endif

#include "sl-csv-reader.h"

static SlCsvReader *
reader_for (const char *text)
{
  return sl_csv_reader_new_for_data ("test.csv", text, strlen (text));
}

static void
test_csv_quotes (void)
{
  const char *text = "name,info,n\n"
                     "\"a,b\",\"say \"\"hi\"\"\",1\n"
                     "\"multi\nline\",\"\",2\n"
                     "plain,x\"y,3\n";
  g_autoptr(SlCsvReader) reader = reader_for (text);

  g_assert_true (sl_csv_reader_read_header (reader));
  g_assert_cmpuint (sl_csv_reader_get_n_columns (reader), ==, 3);

  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 0), ==, "a,b");
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "say \"hi\"");
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 2), ==, "1");
  g_assert_cmpint (sl_csv_reader_get_row_offset (reader), ==, 12);
  g_assert_cmpuint (sl_csv_reader_get_row_line (reader), ==, 2);

  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 0), ==, "multi\nline");
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "");
  g_assert_cmpuint (sl_csv_reader_get_row_line (reader), ==, 3);

  /* A quote inside an unquoted field is text. */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpuint (sl_csv_reader_get_row_line (reader), ==, 5);
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "x\"y");

  g_assert_false (sl_csv_reader_next_row (reader));
  g_assert_cmpuint (sl_csv_reader_get_problems (reader)->len, ==, 0);
  g_assert_cmpuint (sl_csv_reader_get_n_rows (reader), ==, 3);
}

static void
test_csv_crlf_bom_blank (void)
{
  const char *text = "\xEF\xBB\xBFStep Id,Duration(us)\r\n1,2.5\r\n\r\n2,3\r\n";
  g_autoptr(SlCsvReader) reader = reader_for (text);

  g_assert_true (sl_csv_reader_read_header (reader));
  g_assert_cmpstr (sl_csv_reader_get_column_name (reader, 0), ==, "Step Id");
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "2.5");
  /* The blank line is skipped, not a row. */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 0), ==, "2");
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "3");
  g_assert_false (sl_csv_reader_next_row (reader));
  g_assert_cmpuint (sl_csv_reader_get_problems (reader)->len, ==, 0);
}

static void
test_csv_ragged (void)
{
  GString *text = g_string_new ("a,b,c\n1,2,3\n1,2\n1,2,3,4\n");
  g_autoptr(SlCsvReader) reader = NULL;
  GPtrArray *problems;
  guint rows = 0;

  /* Past the listed limit, one summary problem counts the rest. */
  for (guint i = 0; i < 20; i++)
    g_string_append (text, "x\n");
  reader = sl_csv_reader_new_for_data ("ragged.csv", text->str, text->len);

  g_assert_true (sl_csv_reader_read_header (reader));
  while (sl_csv_reader_next_row (reader))
    {
      rows++;
      if (rows == 2)
        {
          g_assert_cmpuint (sl_csv_reader_get_n_fields (reader), ==, 2);
          g_assert_null (sl_csv_reader_get_field (reader, 2));
          g_assert_null (sl_csv_reader_get_field (reader, SL_CSV_NO_COLUMN));
        }
      if (rows == 3)
        g_assert_cmpstr (sl_csv_reader_get_field (reader, 3), ==, "4");
    }
  g_assert_cmpuint (rows, ==, 23);

  problems = sl_csv_reader_get_problems (reader);
  g_assert_cmpuint (problems->len, ==, 11);
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (problems, 0)), ==, "ragged.csv");
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, 12);
  g_assert_nonnull (strstr (sl_problem_get_message (g_ptr_array_index (problems, 0)), "2"));
  g_assert_nonnull (strstr (sl_problem_get_message (g_ptr_array_index (problems, 10)), "22"));
  g_string_free (text, TRUE);
}

static void
test_csv_truncated (void)
{
  const char *text = "a,b\n1,\"open quote\n2,3";
  g_autoptr(SlCsvReader) reader = reader_for (text);
  GPtrArray *problems;

  g_assert_true (sl_csv_reader_read_header (reader));
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 0), ==, "1");
  /* The partial field is kept. */
  g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, "open quote\n2,3");
  g_assert_false (sl_csv_reader_next_row (reader));

  problems = sl_csv_reader_get_problems (reader);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (sl_problem_get_severity (g_ptr_array_index (problems, 0)), ==, SL_SEVERITY_ERROR);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, 6);
}

static void
test_csv_empty (void)
{
  g_autoptr(SlCsvReader) empty = reader_for ("");
  g_autoptr(SlCsvReader) bom_only = reader_for ("\xEF\xBB\xBF");
  g_autoptr(SlCsvReader) header_only = reader_for ("a,b");

  g_assert_false (sl_csv_reader_read_header (empty));
  g_assert_false (sl_csv_reader_read_header (bom_only));
  g_assert_true (sl_csv_reader_read_header (header_only));
  g_assert_cmpuint (sl_csv_reader_get_n_columns (header_only), ==, 2);
  g_assert_false (sl_csv_reader_next_row (header_only));
}

static void
test_csv_header_aliases (void)
{
  g_autoptr(SlCsvReader) reader = reader_for ("Full_Kernel_Name , Task Duration(us),OP_TYPE\n");

  g_assert_true (sl_csv_reader_read_header (reader));
  g_assert_cmpint (sl_csv_reader_find_column (reader, "full kernel name"), ==, 0);
  g_assert_cmpint (sl_csv_reader_find_column (reader, "Duration(us)|task_duration(us)"), ==, 1);
  g_assert_cmpint (sl_csv_reader_find_column (reader, "kernel_type|op type"), ==, 2);
  g_assert_cmpint (sl_csv_reader_find_column (reader, "missing|also missing"), ==, SL_CSV_NO_COLUMN);
}

static void
test_csv_numbers (void)
{
  gint64 i;
  double d;

  g_assert_true (sl_csv_parse_scaled ("1736408883704643.212\t", 3, &i));
  g_assert_cmpint (i, ==, G_GINT64_CONSTANT (1736408883704643212));
  g_assert_true (sl_csv_parse_scaled ("0.370864", 6, &i));
  g_assert_cmpint (i, ==, 370864);
  g_assert_true (sl_csv_parse_scaled ("1.085", 6, &i));
  g_assert_cmpint (i, ==, 1085000);
  g_assert_true (sl_csv_parse_scaled ("2.0005", 3, &i));
  g_assert_cmpint (i, ==, 2001);
  g_assert_true (sl_csv_parse_scaled ("-3", 3, &i));
  g_assert_cmpint (i, ==, -3000);
  g_assert_true (sl_csv_parse_scaled ("1.5e3", 3, &i));
  g_assert_cmpint (i, ==, 1500000);
  g_assert_false (sl_csv_parse_scaled ("N/A", 3, &i));
  g_assert_false (sl_csv_parse_scaled ("", 3, &i));
  g_assert_false (sl_csv_parse_scaled ("12abc", 3, &i));
  g_assert_false (sl_csv_parse_scaled ("99999999999999999999", 3, &i));

  g_assert_true (sl_csv_parse_int64 (" 42 ", &i));
  g_assert_cmpint (i, ==, 42);
  g_assert_false (sl_csv_parse_int64 ("-", &i));
  g_assert_false (sl_csv_parse_int64 ("4.2", &i));
  g_assert_true (sl_csv_parse_double ("73.80", &d));
  g_assert_cmpfloat_with_epsilon (d, 73.8, 1e-12);
  g_assert_false (sl_csv_parse_double ("nan", &d));
  g_assert_false (sl_csv_parse_double ("1e308", &d));
  g_assert_false (sl_csv_parse_double ("18446744073709551616", &d));
  g_assert_true (sl_csv_parse_double ("1e18", &d));
  g_assert_false (sl_csv_parse_int64 ("18446744073709551616", &i));
}

/* Cells profilers never write but damaged files hold: numbers beyond any
 * count, size or time, and non-finite ones. Each is refused with a problem
 * at its line and column, never handed out as a value; empty, N/A and
 * words stay silent, as before. */
static void
test_csv_out_of_range (void)
{
  g_autofree char *zeros = g_strnfill (5000, '0');
  g_autofree char *huge = g_strconcat ("1", zeros, NULL);
  g_autofree char *text = g_strdup_printf ("name,total,ratio,count\n"
                                           "a,1e308,18446744073709551616,18446744073709551616\n"
                                           "b,%s,nan,inf\n"
                                           "c,-inf,Infinity,-1e400\n"
                                           "d,12.5,99.5,7\n"
                                           "e,,N/A,-\n",
                                           huge);
  g_autoptr(SlCsvReader) reader = reader_for (text);
  GPtrArray *problems;
  double d = -1;
  gint64 i = -1;

  g_assert_true (sl_csv_reader_read_header (reader));

  /* line 2: 1e308 as a time, 2^64 as a ratio and as a count */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_false (sl_csv_reader_get_scaled (reader, 1, 3, &i));
  g_assert_true (sl_csv_reader_is_refused (reader, 1));
  g_assert_false (sl_csv_reader_get_double (reader, 2, &d));
  g_assert_false (sl_csv_reader_get_int64 (reader, 3, &i));
  g_assert_false (sl_csv_reader_get_double (reader, 1, &d));
  g_assert_cmpfloat (d, ==, -1);
  g_assert_cmpint (i, ==, -1);

  /* line 3: 10^5000, nan, inf */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_false (sl_csv_reader_get_double (reader, 1, &d));
  g_assert_false (sl_csv_reader_get_scaled (reader, 1, 3, &i));
  g_assert_false (sl_csv_reader_get_double (reader, 2, &d));
  g_assert_false (sl_csv_reader_get_double (reader, 3, &d));
  g_assert_false (sl_csv_reader_is_refused (reader, 0));

  /* line 4: -inf, Infinity, -1e400 (as an integer too) */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_false (sl_csv_reader_get_double (reader, 1, &d));
  g_assert_false (sl_csv_reader_get_double (reader, 2, &d));
  g_assert_false (sl_csv_reader_get_int64 (reader, 3, &i));
  g_assert_cmpfloat (d, ==, -1);
  g_assert_cmpint (i, ==, -1);

  problems = sl_csv_reader_get_problems (reader);
  g_assert_cmpuint (problems->len, ==, 11);
  {
    static const struct { guint line, column; const char *start; } expected[] = {
      { 2, 2, "1e308 in “total”" }, { 2, 3, "18446744073709551616 in “ratio”" },
      { 2, 4, "18446744073709551616 in “count”" }, { 2, 2, "1e308 in “total”" },
      { 3, 2, "100000000000000000000000… (5001 characters) in “total”" },
      { 3, 2, "100000000000000000000000… (5001 characters) in “total”" },
      { 3, 3, "nan in “ratio”" }, { 3, 4, "inf in “count”" },
      { 4, 2, "-inf in “total”" }, { 4, 3, "Infinity in “ratio”" }, { 4, 4, "-1e400 in “count”" },
    };

    for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
      {
        SlProblem *problem = g_ptr_array_index (problems, k);

        g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
        g_assert_cmpstr (sl_problem_get_path (problem), ==, "test.csv");
        g_assert_cmpuint (sl_problem_get_line (problem), ==, expected[k].line);
        g_assert_cmpuint (sl_problem_get_column (problem), ==, expected[k].column);
        g_assert_true (g_str_has_prefix (sl_problem_get_message (problem), expected[k].start));
      }
  }

  /* line 5: good values pass; line 6: blanks and N/A are silent */
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_true (sl_csv_reader_get_scaled (reader, 1, 3, &i));
  g_assert_cmpint (i, ==, 12500);
  g_assert_true (sl_csv_reader_get_double (reader, 2, &d));
  g_assert_cmpfloat (d, ==, 99.5);
  g_assert_true (sl_csv_reader_get_int64 (reader, 3, &i));
  g_assert_cmpint (i, ==, 7);
  g_assert_false (sl_csv_reader_is_refused (reader, 1));
  g_assert_true (sl_csv_reader_next_row (reader));
  g_assert_false (sl_csv_reader_get_scaled (reader, 1, 3, &i));
  g_assert_false (sl_csv_reader_get_double (reader, 2, &d));
  g_assert_false (sl_csv_reader_get_int64 (reader, 3, &i));
  g_assert_false (sl_csv_reader_get_int64 (reader, 9, &i));
  g_assert_cmpuint (problems->len, ==, 11);
}

/* A FIFO (which would block the open for ever) and a folder are refused
 * before any open, with an error naming the file and what it is. */
static void
test_csv_not_regular (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-csv-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (sl_csv_reader_new_for_path (tmp, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_true (strstr (error->message, tmp) != NULL);
  g_assert_true (g_str_has_suffix (error->message, "is not a regular file (a folder)"));
  g_clear_error (&error);

#ifdef G_OS_UNIX
  {
    g_autofree char *fifo = g_build_filename (tmp, "op_summary.csv", NULL);
    g_autofree char *expected = g_strdup_printf ("%s is not a regular file (a FIFO)", fifo);

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    g_assert_null (sl_csv_reader_new_for_path (fifo, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
    g_assert_cmpstr (error->message, ==, expected);
    g_remove (fifo);
  }
#endif
  g_rmdir (tmp);
}

/* Rows longer than a read block, and many of them, from a real file. */
static void
test_csv_file_blocks (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-csv-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "big.csv", NULL);
  g_autoptr(GString) text = g_string_new ("id,payload\r\n");
  g_autoptr(SlCsvReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *long_field = g_strnfill (600 * 1024, 'x');
  guint64 rows = 0;

  for (guint i = 0; i < 50000; i++)
    g_string_append_printf (text, "%u,\"p,%u\"\r\n", i, i);
  g_string_append_printf (text, "50000,%s\r\n", long_field);
  g_assert_true (g_file_set_contents (path, text->str, text->len, &error));

  reader = sl_csv_reader_new_for_path (path, &error);
  g_assert_no_error (error);
  g_assert_true (sl_csv_reader_read_header (reader));
  while (sl_csv_reader_next_row (reader))
    {
      gint64 id;

      g_assert_true (sl_csv_parse_int64 (sl_csv_reader_get_field (reader, 0), &id));
      g_assert_cmpint (id, ==, (gint64)rows);
      if (rows < 50000)
        {
          g_autofree char *expected = g_strdup_printf ("p,%u", (guint)rows);
          g_assert_cmpstr (sl_csv_reader_get_field (reader, 1), ==, expected);
        }
      else
        g_assert_cmpuint (strlen (sl_csv_reader_get_field (reader, 1)), ==, 600 * 1024);
      rows++;
    }
  g_assert_cmpuint (rows, ==, 50001);
  g_assert_cmpuint (sl_csv_reader_get_bytes_read (reader), ==, text->len);
  g_assert_cmpuint (sl_csv_reader_get_problems (reader)->len, ==, 0);

  g_assert_null (sl_csv_reader_new_for_path ("/nonexistent/sl.csv", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_remove (path);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/csv/quotes", test_csv_quotes);
  g_test_add_func ("/csv/crlf-bom-blank", test_csv_crlf_bom_blank);
  g_test_add_func ("/csv/ragged", test_csv_ragged);
  g_test_add_func ("/csv/truncated", test_csv_truncated);
  g_test_add_func ("/csv/empty", test_csv_empty);
  g_test_add_func ("/csv/header-aliases", test_csv_header_aliases);
  g_test_add_func ("/csv/numbers", test_csv_numbers);
  g_test_add_func ("/csv/out-of-range", test_csv_out_of_range);
  g_test_add_func ("/csv/not-regular", test_csv_not_regular);
  g_test_add_func ("/csv/file-blocks", test_csv_file_blocks);

  return g_test_run ();
}
