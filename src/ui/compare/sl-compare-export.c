/* sl-compare-export.c: a profile comparison's table written as CSV
 *
 * The entries shown are taken on the main thread (each keeps the
 * comparison it points into alive); their fields are formatted and written
 * on a worker thread into a file that replaces the target only when whole
 * (SlReplaceStream), so a failure or a cancellation leaves no file behind.
 * Times are in microseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare-entry.h"
#include "sl-compare-export.h"
#include "sl-replace-stream.h"

typedef struct {
  GPtrArray  *entries;   /* SlCompareEntry, in order */
  gboolean    overview;
  GFile      *file;
  SlProgress *progress;
} ExportJob;

static void
export_job_free (gpointer data)
{
  ExportJob *job = data;

  g_ptr_array_unref (job->entries);
  g_object_unref (job->file);
  g_object_unref (job->progress);
  g_free (job);
}

static void
append_csv_field (GString    *out,
                  const char *text)
{
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

static void
append_csv_ns (GString *out,
               gint64   ns)
{
  g_string_append_c (out, ',');
  if (ns >= 0)
    g_string_append_printf (out, "%.3f", ns / 1000.0);
}

static void
append_entry (GString        *out,
              SlCompareEntry *entry)
{
  const SlProfileCompareItem *item = sl_compare_entry_get_item (entry);
  const SlProfileCompareRow *row = sl_compare_entry_get_row (entry);
  double ratio = sl_compare_entry_get_ratio (entry);

  if (item != NULL)
    {
      g_string_append (out, sl_profile_compare_item_key (item->kind));
      append_csv_ns (out, item->base_ns);
      append_csv_ns (out, item->comparison_ns);
      g_string_append_printf (out, ",%.3f,", item->diff_ns / 1000.0);
      if (!isnan (ratio))
        g_string_append_printf (out, "%.4f", ratio);
      g_string_append_printf (out, ",%s\n", item->noise_checked ? (item->noise ? "yes" : "no") : "");
      return;
    }
  append_csv_field (out, row->type);
  g_string_append_c (out, ',');
  append_csv_field (out, row->input_shapes != NULL ? row->input_shapes : "");
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT, row->count[0], row->count[1]);
  append_csv_ns (out, row->present[0] ? row->total_ns[0] : -1);
  append_csv_ns (out, row->present[1] ? row->total_ns[1] : -1);
  g_string_append_printf (out, ",%.3f,", row->diff_ns / 1000.0);
  if (!isnan (ratio))
    g_string_append_printf (out, "%.4f", ratio);
  append_csv_ns (out, row->avg_ns[0]);
  append_csv_ns (out, row->avg_ns[1]);
  g_string_append_c (out, '\n');
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
  g_autoptr(GString) chunk = g_string_new (NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(out = sl_replace_stream_new (job->file, cancellable, error)))
    return FALSE;

  if (job->overview)
    g_string_append (chunk, "item,base_us,comparison_us,diff_us,ratio,noise\n");
  else
    g_string_append (chunk, "type,input_shapes,base_count,comparison_count,base_total_us,comparison_total_us,"
                            "diff_us,ratio,base_avg_us,comparison_avg_us\n");

  for (guint i = 0; i < job->entries->len; i++)
    {
      append_entry (chunk, g_ptr_array_index (job->entries, i));
      sl_progress_report (job->progress, i + 1, job->entries->len);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;   /* the stream goes without a commit: no file */
      if (chunk->len >= 64 * 1024 && !flush_chunk (G_OUTPUT_STREAM (out), chunk, cancellable, error))
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

void
sl_compare_export_csv_async (gpointer             source_object,
                             GPtrArray           *entries,
                             gboolean             overview,
                             GFile               *file,
                             SlProgress          *progress,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportJob *job;

  g_return_if_fail (entries != NULL);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (SL_IS_PROGRESS (progress));

  job = g_new0 (ExportJob, 1);
  job->entries = g_ptr_array_ref (entries);
  job->overview = overview;
  job->file = g_object_ref (file);
  job->progress = g_object_ref (progress);

  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_compare_export_csv_async);
  g_task_set_task_data (task, job, export_job_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
sl_compare_export_csv_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sl_compare_export_csv_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
