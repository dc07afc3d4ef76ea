/* sl-graph-times.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-graph-times.h"
#include "sl-profile-loader.h"

typedef struct {
  char    *profile_path;
  SlGraph *graph;
} TimesJob;

static void
times_job_free (gpointer data)
{
  TimesJob *job = data;

  g_free (job->profile_path);
  g_clear_object (&job->graph);
  g_free (job);
}

static void
times_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  TimesJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (job->profile_path, cancellable, NULL, NULL, &error);
  guint n_ops = sl_graph_get_n_ops (job->graph);
  g_autofree double *times = NULL;
  guint matched = 0;

  if (profile == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  times = g_new0 (double, MAX (n_ops, 1));
  for (guint r = 0; r < sl_profile_get_n_ranks (profile) && r < 1; r++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, r);
      GListModel *instances = rank->ops != NULL ? sl_op_table_get_instances (rank->ops) : NULL;
      guint n = instances != NULL ? g_list_model_get_n_items (instances) : 0;

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(SlOpRow) row = g_list_model_get_item (instances, i);
          guint element = sl_graph_lookup_op (job->graph, sl_op_row_get_name (row));

          if (element == SL_GRAPH_NONE || element >= n_ops)
            continue;
          times[element] += sl_op_row_get_total_ns (row);
          matched++;
        }
    }
  if (matched == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("No op of the profile in %s is in this graph: it may be of another model"),
                               job->profile_path);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&times), g_free);
}

void
sl_graph_times_load_async (const char          *profile_path,
                           SlGraph             *graph,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TimesJob *job;

  g_return_if_fail (profile_path != NULL);
  g_return_if_fail (SL_IS_GRAPH (graph));

  job = g_new0 (TimesJob, 1);
  job->profile_path = g_strdup (profile_path);
  job->graph = g_object_ref (graph);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_graph_times_load_async);
  g_task_set_task_data (task, job, times_job_free);
  g_task_run_in_thread (task, times_thread);
}

double *
sl_graph_times_load_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
