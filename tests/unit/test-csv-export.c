/* test-csv-export.c: the one CSV writer of the tables' exports
 *
 * Rows are formatted by the caller's function on a worker, in chunks,
 * into a file that replaces the target only when whole: the file holds
 * the header and every row in order, progress reaches the last row, a
 * cancellation from inside the export leaves the previous file as it was,
 * and fields with commas, quotes and line breaks are quoted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-csv-export.h"

#define OLD "the previous contents\n"

typedef struct {
  guint         cancel_at;   /* 0: never */
  GCancellable *cancellable;
  GThread      *main_thread;
  gboolean      on_main_thread;
  gint          freed;   /* atomic: the worker may drop the last reference */
} Rows;

static void
append_row (GString  *out,
            guint     index,
            gpointer  data)
{
  Rows *rows = data;

  rows->on_main_thread |= g_thread_self () == rows->main_thread;
  g_string_append_printf (out, "%u,row %u\n", index, index);
  if (rows->cancel_at != 0 && index + 1 == rows->cancel_at)
    g_cancellable_cancel (rows->cancellable);
}

static void
rows_free (gpointer data)
{
  g_atomic_int_set (&((Rows *) data)->freed, TRUE);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The worker's reference to the export may go a moment after its answer. */
static void
wait_freed (Rows *rows)
{
  while (!g_atomic_int_get (&rows->freed))
    g_usleep (1000);
}

static GAsyncResult *
run_export (GFile        *file,
            guint         n_rows,
            Rows         *rows,
            SlProgress   *progress,
            GCancellable *cancellable)
{
  GAsyncResult *result = NULL;

  sl_csv_export_async (NULL, file, "index,name\n", n_rows, append_row, rows, rows_free, progress, cancellable,
                       done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  /* The worker's last progress report was queued before its answer. */
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  return result;
}

static char *
make_target (char **dir)
{
  g_autoptr(GError) error = NULL;
  char *path;

  *dir = g_dir_make_tmp ("sl-csv-export-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (*dir, "table.csv", NULL);
  g_file_set_contents (path, OLD, -1, &error);
  g_assert_no_error (error);
  return path;
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (listing != NULL && g_dir_read_name (listing) != NULL)
    n++;
  return n;
}

/* Enough rows for several 64 KiB chunks. */
#define N_ROWS 20000

static void
test_writes_every_row (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = make_target (&dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SlProgress) progress = sl_progress_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Rows rows = { 0, NULL, g_thread_self (), FALSE, FALSE };

  result = run_export (file, N_ROWS, &rows, progress, NULL);
  g_assert_true (sl_csv_export_finish (result, &error));
  g_assert_no_error (error);
  /* What the rows were read from goes with the export. */
  g_clear_object (&result);
  wait_freed (&rows);
  g_assert_false (rows.on_main_thread);
  g_assert_cmpfloat (sl_progress_get_fraction (progress), ==, 1.0);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, N_ROWS + 2);   /* header, rows, "" after the last newline */
  g_assert_cmpstr (lines[0], ==, "index,name");
  g_assert_cmpstr (lines[1], ==, "0,row 0");
  g_assert_cmpstr (lines[N_ROWS], ==, "19999,row 19999");
  g_assert_cmpstr (lines[N_ROWS + 1], ==, "");
  g_assert_cmpuint (count_files (dir), ==, 1);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_cancel_keeps_previous_file (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = make_target (&dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SlProgress) progress = sl_progress_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  Rows rows = { N_ROWS / 2, cancellable, g_thread_self (), FALSE, FALSE };

  result = run_export (file, N_ROWS, &rows, progress, cancellable);
  g_assert_false (sl_csv_export_finish (result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&result);
  wait_freed (&rows);
  /* Stopped at the row that cancelled it. */
  g_assert_cmpfloat (sl_progress_get_fraction (progress), ==, 0.5);

  g_file_get_contents (path, &contents, NULL, NULL);
  g_assert_cmpstr (contents, ==, OLD);
  g_assert_cmpuint (count_files (dir), ==, 1);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_fields_quoted (void)
{
  g_autoptr(GString) out = g_string_new (NULL);

  sl_csv_append_field (out, "plain");
  g_string_append_c (out, ',');
  sl_csv_append_field (out, "a,b");
  g_string_append_c (out, ',');
  sl_csv_append_field (out, "say \"hi\"");
  g_string_append_c (out, ',');
  sl_csv_append_field (out, "two\nlines");
  g_string_append_c (out, ',');
  sl_csv_append_field (out, "");
  g_string_append_c (out, ',');
  sl_csv_append_field (out, NULL);
  g_assert_cmpstr (out->str, ==, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/csv-export/writes-every-row", test_writes_every_row);
  g_test_add_func ("/csv-export/cancel-keeps-previous-file", test_cancel_keeps_previous_file);
  g_test_add_func ("/csv-export/fields-quoted", test_fields_quoted);

  return g_test_run ();
}
