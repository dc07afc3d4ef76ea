/* sl-summary-follow.c: following growing files in a worker while the
 * runs already read stay with their views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-summary-reader-private.h"

/* A reader over the same path that continues where @self stopped: every
 * run and file with its reading state, no points. */
static SlSummaryReader *
new_continuation (SlSummaryReader *self)
{
  SlSummaryReader *copy = sl_summary_reader_new (self->path);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < self->runs->len; i++)
    g_ptr_array_add (copy->runs, sl_summary_run_dup_reading_state (g_ptr_array_index (self->runs, i)));

  g_hash_table_iter_init (&iter, self->tb_plugins);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy->tb_plugins, g_strdup (key), g_strdup (value));

  return copy;
}

/**
 * sl_summary_reader_follow_async:
 *
 * Like sl_summary_reader_update_async(), but the worker stats, reads and
 * decodes into a copy of the reading state, never into the runs of @self:
 * views may go on drawing them meanwhile. sl_summary_reader_follow_finish()
 * then appends what was decoded, in the calling thread. One follow or
 * update at a time.
 */
void
sl_summary_reader_follow_async (SlSummaryReader     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_SUMMARY_READER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_summary_reader_follow_async);
  g_task_set_task_data (task, new_continuation (self), g_object_unref);
  g_task_run_in_thread (task, sl_summary_reader_update_thread);
}

/**
 * sl_summary_reader_follow_finish:
 *
 * Appends to the runs of @self what the worker read: points to existing
 * series, new tags and new runs (kept sorted by name). Nothing is read or
 * decoded here.
 *
 * Returns: %FALSE when the opened path could not be read or the follow
 *   was cancelled; the runs are unchanged then
 */
gboolean
sl_summary_reader_follow_finish (SlSummaryReader  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  SlSummaryReader *copy;
  GHashTableIter iter;
  gpointer key, value;
  gboolean added = FALSE;

  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  copy = g_task_get_task_data (G_TASK (result));
  for (guint i = 0; i < copy->runs->len; i++)
    {
      SlSummaryRun *delta = g_ptr_array_index (copy->runs, i);
      SlSummaryRun *run = sl_summary_reader_lookup_run (self, sl_summary_run_get_name (delta));

      if (run != NULL)
        sl_summary_run_absorb (run, delta);
      else
        {
          /* Nobody has seen this run's series yet: take it as it is. */
          g_ptr_array_add (self->runs, g_object_ref (delta));
          added = TRUE;
        }
    }
  if (added)
    g_ptr_array_sort (self->runs, sl_summary_reader_compare_runs);

  g_hash_table_iter_init (&iter, copy->tb_plugins);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (self->tb_plugins, g_strdup (key), g_strdup (value));

  return TRUE;
}
