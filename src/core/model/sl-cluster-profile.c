/* sl-cluster-profile.c
 *
 * Ranks are looked up by id in a hash table while loading: a cluster
 * has hundreds of them, and every file of every rank asks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-cluster-profile.h"

struct _SlClusterProfile
{
  GObject     parent_instance;
  char       *path;
  char       *analysis_dir;
  GPtrArray  *ranks;      /* SlClusterRank */
  GHashTable *by_id;      /* gint64 * → SlClusterRank, while loading */
  GListStore *problems;
};

G_DEFINE_FINAL_TYPE (SlClusterProfile, sl_cluster_profile, G_TYPE_OBJECT)

static void
rank_free (SlClusterRank *rank)
{
  g_free (rank->label);
  g_free (rank->dir);
  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  g_clear_object (&rank->communication);
  g_ptr_array_unref (rank->files);
  g_free (rank);
}

static void
sl_cluster_profile_finalize (GObject *object)
{
  SlClusterProfile *self = (SlClusterProfile *)object;

  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->ranks, g_ptr_array_unref);
  g_clear_object (&self->problems);
  g_free (self->path);
  g_free (self->analysis_dir);

  G_OBJECT_CLASS (sl_cluster_profile_parent_class)->finalize (object);
}

static void
sl_cluster_profile_class_init (SlClusterProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_cluster_profile_finalize;
}

static void
sl_cluster_profile_init (SlClusterProfile *self)
{
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify)rank_free);
  self->by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

SlClusterProfile *
sl_cluster_profile_new (const char *path)
{
  SlClusterProfile *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_CLUSTER_PROFILE, NULL);
  self->path = g_strdup (path);
  return self;
}

const char *
sl_cluster_profile_get_path (SlClusterProfile *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), NULL);
  return self->path;
}

guint
sl_cluster_profile_get_n_ranks (SlClusterProfile *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), 0);
  return self->ranks->len;
}

const SlClusterRank *
sl_cluster_profile_get_rank (SlClusterProfile *self,
                             guint             index)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->ranks->len, NULL);
  return g_ptr_array_index (self->ranks, index);
}

gint
sl_cluster_profile_find_rank (SlClusterProfile *self,
                              gint64            rank_id)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), -1);

  /* Before finish() the ranks are in the order met; after it they are
   * sorted by id, and the summary asks once per op record: with tens of
   * thousands of ranks a scan each time took minutes. */
  if (self->by_id != NULL)
    {
      for (guint i = 0; i < self->ranks->len; i++)
        if (((SlClusterRank *)g_ptr_array_index (self->ranks, i))->rank_id == rank_id)
          return (gint)i;
      return -1;
    }
  for (guint lo = 0, hi = self->ranks->len; lo < hi;)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 id = ((SlClusterRank *)g_ptr_array_index (self->ranks, mid))->rank_id;

      if (id == rank_id)
        return (gint)mid;
      if (id < rank_id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

GListModel *
sl_cluster_profile_get_problems (SlClusterProfile *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), NULL);
  return G_LIST_MODEL (self->problems);
}

const char *
sl_cluster_profile_get_analysis_dir (SlClusterProfile *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), NULL);
  return self->analysis_dir;
}

void
sl_cluster_profile_set_analysis_dir (SlClusterProfile *self,
                                     const char       *dir)
{
  g_return_if_fail (SL_IS_CLUSTER_PROFILE (self));

  g_free (self->analysis_dir);
  self->analysis_dir = g_strdup (dir);
}

SlClusterRank *
sl_cluster_profile_ensure_rank (SlClusterProfile *self,
                                gint64            rank_id)
{
  SlClusterRank *rank;

  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (self), NULL);
  g_return_val_if_fail (self->by_id != NULL, NULL);

  if ((rank = g_hash_table_lookup (self->by_id, &rank_id)) != NULL)
    return rank;

  rank = g_new0 (SlClusterRank, 1);
  rank->rank_id = rank_id;
  /* Translators: a rank of a distributed job, by its number */
  rank->label = g_strdup_printf (_("rank %lld"), (long long)rank_id);
  rank->layout = SL_PROFILE_LAYOUT_CLUSTER;
  rank->files = g_ptr_array_new_with_free_func (g_free);
  sl_step_breakdown_compute (NULL, &rank->breakdown);
  g_ptr_array_add (self->ranks, rank);
  g_hash_table_insert (self->by_id, &rank->rank_id, rank);
  return rank;
}

void
sl_cluster_profile_add_problem (SlClusterProfile *self,
                                SlProblem        *problem)
{
  g_return_if_fail (SL_IS_CLUSTER_PROFILE (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

static int
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  const SlClusterRank *ra = *(const SlClusterRank **)a;
  const SlClusterRank *rb = *(const SlClusterRank **)b;

  return ra->rank_id < rb->rank_id ? -1 : ra->rank_id > rb->rank_id;
}

void
sl_cluster_profile_finish (SlClusterProfile *self)
{
  g_return_if_fail (SL_IS_CLUSTER_PROFILE (self));

  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_ptr_array_sort (self->ranks, compare_ranks);
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlClusterRank *rank = g_ptr_array_index (self->ranks, i);

      sl_step_breakdown_compute (rank->steps, &rank->breakdown);
    }
}
