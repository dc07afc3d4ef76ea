/* sl-profile.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-profile.h"

struct _SlProfile
{
  GObject     parent_instance;
  char       *path;
  GPtrArray  *ranks;
  GListStore *problems;
};

G_DEFINE_FINAL_TYPE (SlProfile, sl_profile, G_TYPE_OBJECT)

static void
counter_free (SlProfileCounter *counter)
{
  g_free (counter->name);
  g_free (counter->unit);
  g_array_unref (counter->ts_ns);
  g_array_unref (counter->values);
  g_free (counter);
}

static void
rank_free (SlProfileRank *rank)
{
  g_free (rank->label);
  g_free (rank->dir);
  g_ptr_array_unref (rank->info_keys);
  g_hash_table_unref (rank->info);
  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  g_clear_object (&rank->ops);
  g_clear_object (&rank->apis);
  g_clear_object (&rank->api_calls);
  g_ptr_array_unref (rank->counters);
  g_clear_object (&rank->trace);
  g_clear_object (&rank->communication);
  g_clear_object (&rank->memory);
  g_ptr_array_unref (rank->files);
  g_free (rank);
}

static void
sl_profile_finalize (GObject *object)
{
  SlProfile *self = (SlProfile *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->ranks, g_ptr_array_unref);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (sl_profile_parent_class)->finalize (object);
}

static void
sl_profile_class_init (SlProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_profile_finalize;
}

static void
sl_profile_init (SlProfile *self)
{
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify)rank_free);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

SlProfile *
sl_profile_new (const char *path)
{
  SlProfile *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_PROFILE, NULL);
  self->path = g_strdup (path);
  return self;
}

const char *
sl_profile_get_path (SlProfile *self)
{
  g_return_val_if_fail (SL_IS_PROFILE (self), NULL);
  return self->path;
}

guint
sl_profile_get_n_ranks (SlProfile *self)
{
  g_return_val_if_fail (SL_IS_PROFILE (self), 0);
  return self->ranks->len;
}

const SlProfileRank *
sl_profile_get_rank (SlProfile *self,
                     guint      index)
{
  g_return_val_if_fail (SL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->ranks->len, NULL);

  return g_ptr_array_index (self->ranks, index);
}

/**
 * sl_profile_get_problems:
 *
 * Returns: (transfer none): damaged or unreadable files, as SlProblem
 */
GListModel *
sl_profile_get_problems (SlProfile *self)
{
  g_return_val_if_fail (SL_IS_PROFILE (self), NULL);
  return G_LIST_MODEL (self->problems);
}

const char *
sl_profile_layout_to_string (SlProfileLayout layout)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_MINDSPORE: return "mindspore";
    case SL_PROFILE_LAYOUT_MSPROF: return "msprof";
    case SL_PROFILE_LAYOUT_ASCEND_PT: return "ascend-pt";
    case SL_PROFILE_LAYOUT_DATABASE: return "database";
    case SL_PROFILE_LAYOUT_CLUSTER: return "cluster";
    default: return "unknown";
    }
}

/**
 * sl_profile_add_rank:
 *
 * Returns: (transfer none): a new, empty rank owned by @self
 */
SlProfileRank *
sl_profile_add_rank (SlProfile       *self,
                     const char      *dir,
                     SlProfileLayout  layout)
{
  SlProfileRank *rank;

  g_return_val_if_fail (SL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  rank = g_new0 (SlProfileRank, 1);
  rank->dir = g_strdup (dir);
  rank->label = g_path_get_basename (dir);
  rank->layout = layout;
  rank->rank_id = -1;
  rank->device_id = -1;
  rank->info_keys = g_ptr_array_new_with_free_func (g_free);
  rank->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  rank->ops = sl_op_table_new ();
  rank->apis = sl_op_table_new ();
  rank->counters = g_ptr_array_new_with_free_func ((GDestroyNotify)counter_free);
  rank->files = g_ptr_array_new_with_free_func (g_free);
  rank->summary.total_ns = -1;
  rank->summary.core_busy_ns = -1;
  rank->summary.core_task_ns = -1;
  rank->summary.aicore_ops_ns = -1;
  g_ptr_array_add (self->ranks, rank);
  return rank;
}

void
sl_profile_rank_set_info (SlProfileRank *rank,
                          const char    *key,
                          const char    *value)
{
  g_return_if_fail (rank != NULL);
  g_return_if_fail (key != NULL);

  if (!g_hash_table_contains (rank->info, key))
    g_ptr_array_add (rank->info_keys, g_strdup (key));
  g_hash_table_insert (rank->info, g_strdup (key), g_strdup (value != NULL ? value : ""));
}

/**
 * sl_profile_rank_get_counter:
 *
 * Returns: (transfer none): the counter called @name, created when missing
 */
SlProfileCounter *
sl_profile_rank_get_counter (SlProfileRank *rank,
                             const char    *name,
                             const char    *unit)
{
  SlProfileCounter *counter;

  g_return_val_if_fail (rank != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < rank->counters->len; i++)
    {
      counter = g_ptr_array_index (rank->counters, i);
      if (g_str_equal (counter->name, name))
        return counter;
    }

  counter = g_new0 (SlProfileCounter, 1);
  counter->name = g_strdup (name);
  counter->unit = g_strdup (unit != NULL ? unit : "");
  counter->ts_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  counter->values = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (rank->counters, counter);
  return counter;
}

static guint
count_streams (SlOpTable *ops)
{
  GListModel *instances = sl_op_table_get_instances (ops);
  g_autoptr(GHashTable) streams = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n = g_list_model_get_n_items (instances);

  g_array_set_size (ids, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (instances, i);

      g_array_index (ids, gint64, i) = sl_op_row_get_stream_id (row);
      if (g_array_index (ids, gint64, i) >= 0)
        g_hash_table_add (streams, &g_array_index (ids, gint64, i));
    }

  return g_hash_table_size (streams);
}

/* The AI Core time and the task duration of the same ops: each execution
 * counts the larger of its aicore_time and aiv_time, at most its task's
 * duration (the loader's core busy time). */
static void
core_time (SlOpTable *ops,
           gint64    *busy_ns,
           gint64    *task_ns)
{
  GListModel *instances = sl_op_table_get_instances (ops);

  *busy_ns = *task_ns = -1;
  for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (instances, i);
      gint64 busy = sl_op_row_get_core_busy_ns (row);

      if (busy < 0)
        continue;
      *busy_ns = MAX (*busy_ns, 0) + busy;
      *task_ns = MAX (*task_ns, 0) + MAX (sl_op_row_get_total_ns (row), 0);
    }
}

/* The task time of the ops that ran on the AI Core, by their core type. */
static gint64
aicore_ops_time (SlOpTable *ops)
{
  GListModel *types = sl_op_table_get_types (ops);
  gint64 total = -1;

  for (guint i = 0; i < g_list_model_get_n_items (types); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (types, i);

      if (g_ascii_strcasecmp (sl_op_row_get_core_type (row), "AI_CORE") == 0)
        total = MAX (total, 0) + sl_op_row_get_total_ns (row);
    }
  return total;
}

const char *
sl_profile_core_time_definition (void)
{
  return _("AI Core time: the time the cores were busy, from the aicore_time column (aiv_time for vector ops, the "
           "larger of the two for mixed ops), at most the task's duration, summed over every execution of the ops "
           "that have it.");
}

const char *
sl_profile_core_share_definition (void)
{
  return _("AI Core time ÷ the task duration of the same ops. Well below 100 % the tasks wait with idle cores: on "
           "data (MTE2, memory), on other streams or on the host.");
}

const char *
sl_profile_aicore_ops_definition (void)
{
  return _("No op has a measured core time (aicore_time or aiv_time): this is the task duration of the ops whose "
           "core type is AI_CORE, not the time their cores were busy.");
}

/**
 * sl_profile_rank_finish:
 *
 * Freezes the op tables and computes the summary figures and the
 * memory peak.
 */
void
sl_profile_rank_finish (SlProfileRank *rank)
{
  SlProfileSummary *summary;

  g_return_if_fail (rank != NULL);

  summary = &rank->summary;
  sl_op_table_finish (rank->ops);
  sl_op_table_finish (rank->apis);
  if (rank->memory != NULL)
    sl_memory_profile_finish (rank->memory);
  if (rank->api_calls != NULL)
    sl_api_calls_finish (rank->api_calls);

  summary->n_op_executions = sl_op_table_get_n_executions (rank->ops);
  summary->n_op_types = g_list_model_get_n_items (sl_op_table_get_types (rank->ops));
  summary->n_op_instances = g_list_model_get_n_items (sl_op_table_get_instances (rank->ops));
  summary->task_ns = sl_op_table_get_total_ns (rank->ops);
  summary->n_streams = MAX (summary->n_streams, count_streams (rank->ops));
  core_time (rank->ops, &summary->core_busy_ns, &summary->core_task_ns);
  summary->aicore_ops_ns = summary->core_busy_ns < 0 ? aicore_ops_time (rank->ops) : -1;

  if (rank->steps != NULL && sl_step_trace_get_n_steps (rank->steps) > 0)
    {
      gint64 total = 0;

      for (guint i = 0; i < sl_step_trace_get_n_steps (rank->steps); i++)
        {
          const SlStep *step = sl_step_trace_get_step (rank->steps, i);

          if (step->total_ns != SL_STEP_NO_TIME)
            total += step->total_ns;
        }
      summary->total_ns = total;
    }
}

void
sl_profile_add_problem (SlProfile *self,
                        SlProblem *problem)
{
  g_return_if_fail (SL_IS_PROFILE (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}
