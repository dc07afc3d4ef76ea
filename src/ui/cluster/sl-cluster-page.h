/* sl-cluster-page.h: every rank of a cluster profile together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-cluster-summary.h"
#include "sl-document.h"

G_BEGIN_DECLS

#define SL_TYPE_CLUSTER_PAGE (sl_cluster_page_get_type ())
G_DECLARE_FINAL_TYPE (SlClusterPage, sl_cluster_page, SL, CLUSTER_PAGE, SlDocument)

/* NULL until loaded. */
SlClusterSummary *sl_cluster_page_get_summary      (SlClusterPage *self);
/* For tests: the parts of the page. */
GtkWidget        *sl_cluster_page_get_rank_table   (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_bars         (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_matrix       (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_banner       (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_link_label   (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_collective_bars (SlClusterPage *self);
GtkWidget        *sl_cluster_page_get_timelines    (SlClusterPage *self);
/* Shows the timelines of the ranks at these indices together. */
void              sl_cluster_page_compare_selected (SlClusterPage *self);
void              sl_cluster_page_compare_ranks    (SlClusterPage *self,
                                                    guint          first,
                                                    guint          second);
/* Opens the Profile document of the rank at @index. */
void              sl_cluster_page_open_rank        (SlClusterPage *self,
                                                    guint          index);

G_END_DECLS
