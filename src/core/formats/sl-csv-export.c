/* sl-csv-export.c: a table written as CSV on a worker thread
 *
 * The caller takes the rows on its own thread; here they are formatted,
 * a row at a time by the caller's function, into chunks of about 64 KiB
 * written into a file that replaces the target only when whole
 * (SlReplaceStream), so a failure or a cancellation leaves no file behind.
 * Progress counts the rows written; cancellation is checked after each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-csv-export.h"
#include "sl-replace-stream.h"

#define CHUNK_BYTES (64 * 1024)

typedef struct {
  GFile          *file;
  char           *header;
  guint           n_rows;
  SlCsvRowFunc    row_func;
  gpointer        data;
  GDestroyNotify  data_free;
  SlProgress     *progress;
} ExportJob;

static void
export_job_free (gpointer user_data)
{
  ExportJob *job = user_data;

  if (job->data_free != NULL)
    job->data_free (job->data);
  g_object_unref (job->file);
  g_object_unref (job->progress);
  g_free (job->header);
  g_free (job);
}

/**
 * sl_csv_append_field:
 * @text: (nullable): a field's text; %NULL for an empty field
 *
 * Appends @text to @out as one CSV field, quoted when it holds a comma, a
 * quote or a line break (RFC 4180).
 */
void
sl_csv_append_field (GString    *out,
                     const char *text)
{
  g_return_if_fail (out != NULL);

  if (text == NULL)
    text = "";
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gboolean
flush_chunk (GOutputStream  *out,
             GString        *chunk,
             GCancellable   *cancellable,
             GError        **error)
{
  if (!g_output_stream_write_all (out, chunk->str, chunk->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (chunk, 0);
  return TRUE;
}

static gboolean
write_csv (ExportJob     *job,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(SlReplaceStream) out = NULL;
  g_autoptr(GString) chunk = g_string_new (job->header);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(out = sl_replace_stream_new (job->file, cancellable, error)))
    return FALSE;

  for (guint i = 0; i < job->n_rows; i++)
    {
      job->row_func (chunk, i, job->data);
      sl_progress_report (job->progress, i + 1, job->n_rows);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;   /* the stream goes without a commit: no file */
      if (chunk->len >= CHUNK_BYTES && !flush_chunk (G_OUTPUT_STREAM (out), chunk, cancellable, error))
        return FALSE;
    }

  if (!flush_chunk (G_OUTPUT_STREAM (out), chunk, cancellable, error))
    return FALSE;
  return sl_replace_stream_commit (out, cancellable, error);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (write_csv (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_csv_export_async:
 * @source_object: (nullable): the task's source object
 * @file: where to write; replaced only when the whole table is written
 * @header: (nullable): the header line(s), ended by a newline
 * @n_rows: the number of rows
 * @row_func: formats one row, on the worker
 * @data: (transfer full): what @row_func reads
 * @data_free: (nullable): frees @data once the export is over
 * @progress: counts the rows written, of @n_rows
 *
 * Writes the table to @file on a worker thread. A failure or a
 * cancellation leaves @file as it was.
 */
void
sl_csv_export_async (gpointer             source_object,
                     GFile               *file,
                     const char          *header,
                     guint                n_rows,
                     SlCsvRowFunc         row_func,
                     gpointer             data,
                     GDestroyNotify       data_free,
                     SlProgress          *progress,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportJob *job;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (row_func != NULL || n_rows == 0);
  g_return_if_fail (SL_IS_PROGRESS (progress));

  job = g_new0 (ExportJob, 1);
  job->file = g_object_ref (file);
  job->header = g_strdup (header);
  job->n_rows = n_rows;
  job->row_func = row_func;
  job->data = data;
  job->data_free = data_free;
  job->progress = g_object_ref (progress);

  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_csv_export_async);
  g_task_set_task_data (task, job, export_job_free);
  g_task_run_in_thread (task, export_thread);
}

/**
 * sl_csv_export_finish:
 *
 * Returns: %TRUE when the file was written, else an error naming it
 *   (%G_IO_ERROR_CANCELLED when cancelled)
 */
gboolean
sl_csv_export_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sl_csv_export_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
