/* sl-cluster-summary.h: what a cluster's ranks say together
 *
 * The slow rank: the spread (max − min) / mean of the ranks' mean step
 * times above the threshold names the slowest rank, with the phase its
 * gap to the fastest rank is largest in. The communication matrix: every
 * link between two ranks summed over steps and ops (sl-comm-link-sums),
 * as links of one SlCommunication that sl-comm-matrix can lay out; the
 * slow link is judged the same way, per transport type, over the links'
 * bandwidths. Per collective (step, group, op) each rank's time; as
 * msprof-analyze reads it, the rank with the shortest communication time
 * is the straggler: it arrived last, and the others waited for it.
 *
 * Every field is read-only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-cluster-profile.h"
#include "sl-comm-link-sums.h"
#include "sl-spread.h"

G_BEGIN_DECLS

typedef struct {
  guint  rank_index;   /* into the cluster's ranks */
  double elapse_ms;
  double wait_ms;
  double transit_ms;
} SlCollectiveRank;

typedef struct {
  char       *step;
  char       *group;
  char       *name;
  GArray     *ranks;       /* SlCollectiveRank, by rank */
  guint       straggler;   /* index into @ranks; G_MAXUINT with fewer than two ranks */
  double      min_ms;
  double      max_ms;
  const char *path;        /* of the first record, for the evidence */
  guint       line;
  gint64      offset;
} SlClusterCollective;

typedef struct {
  gboolean    computed;    /* two ranks or more had step times */
  gboolean    found;       /* the spread is above the threshold */
  SlSpread    spread;
  guint       n_ranks;
  guint       slow_index;  /* into the cluster's ranks */
  guint       fast_index;
  SlStepPhase phase;       /* where the slow rank loses most to the fast one */
  gint64      phase_gap_ns;
} SlClusterSlowRank;

typedef struct {
  gboolean             computed;  /* some transport had two links or more */
  gboolean             found;
  const char          *transport; /* the transport with the largest spread */
  const SlCommLinkSum *link;      /* its slowest link */
  SlSpread             spread;
  guint                n_links;
} SlClusterSlowLink;

typedef struct {
  SlClusterProfile  *cluster;
  double             threshold;   /* percent */
  SlClusterSlowRank  slow_rank;
  SlCommLinkSums    *links;
  SlCommunication   *matrix;      /* one summed link per src-dst pair and transport; step "", group "", op "total" */
  SlClusterSlowLink  slow_link;
  GPtrArray         *collectives; /* SlClusterCollective, in the order first seen */
} SlClusterSummary;

SlClusterSummary *sl_cluster_summary_new  (SlClusterProfile *cluster,
                                           double            threshold_percent);
void              sl_cluster_summary_free (SlClusterSummary *self);
/* The number of collectives whose straggler is the rank at @rank_index. */
guint             sl_cluster_summary_count_straggling (SlClusterSummary *self,
                                                       guint             rank_index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlClusterSummary, sl_cluster_summary_free)

G_END_DECLS
