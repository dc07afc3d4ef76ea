/* sl-cluster-rank-item.h: one row of the Cluster document's rank table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-cluster-profile.h"

G_BEGIN_DECLS

#define SL_TYPE_CLUSTER_RANK_ITEM (sl_cluster_rank_item_get_type ())
G_DECLARE_FINAL_TYPE (SlClusterRankItem, sl_cluster_rank_item, SL, CLUSTER_RANK_ITEM, GObject)

SlClusterRankItem   *sl_cluster_rank_item_new            (SlClusterProfile  *cluster,
                                                          guint              index,
                                                          guint              stragglers);
guint                sl_cluster_rank_item_get_index      (SlClusterRankItem *self);
const SlClusterRank *sl_cluster_rank_item_get_rank       (SlClusterRankItem *self);
/* How many collectives this rank was the last to join. */
guint                sl_cluster_rank_item_get_stragglers (SlClusterRankItem *self);

G_END_DECLS
