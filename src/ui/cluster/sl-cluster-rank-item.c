/* sl-cluster-rank-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-cluster-rank-item.h"

struct _SlClusterRankItem
{
  GObject           parent_instance;
  SlClusterProfile *cluster;
  guint             index;
  guint             stragglers;
};

G_DEFINE_FINAL_TYPE (SlClusterRankItem, sl_cluster_rank_item, G_TYPE_OBJECT)

static void
sl_cluster_rank_item_finalize (GObject *object)
{
  g_clear_object (&SL_CLUSTER_RANK_ITEM (object)->cluster);
  G_OBJECT_CLASS (sl_cluster_rank_item_parent_class)->finalize (object);
}

static void
sl_cluster_rank_item_class_init (SlClusterRankItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_cluster_rank_item_finalize;
}

static void
sl_cluster_rank_item_init (SlClusterRankItem *self)
{
}

SlClusterRankItem *
sl_cluster_rank_item_new (SlClusterProfile *cluster,
                          guint             index,
                          guint             stragglers)
{
  SlClusterRankItem *self;

  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (cluster), NULL);
  g_return_val_if_fail (index < sl_cluster_profile_get_n_ranks (cluster), NULL);

  self = g_object_new (SL_TYPE_CLUSTER_RANK_ITEM, NULL);
  self->cluster = g_object_ref (cluster);
  self->index = index;
  self->stragglers = stragglers;
  return self;
}

guint
sl_cluster_rank_item_get_index (SlClusterRankItem *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_RANK_ITEM (self), 0);
  return self->index;
}

const SlClusterRank *
sl_cluster_rank_item_get_rank (SlClusterRankItem *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_RANK_ITEM (self), NULL);
  return sl_cluster_profile_get_rank (self->cluster, self->index);
}

guint
sl_cluster_rank_item_get_stragglers (SlClusterRankItem *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_RANK_ITEM (self), 0);
  return self->stragglers;
}
