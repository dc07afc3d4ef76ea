/* sl-cluster-profile.h: every rank of a distributed job's profile
 *
 * One entry per rank with what its summary needs: its step trace (the
 * rank's own, or its rows of msprof-analyze's cluster_step_trace_time.csv),
 * the mean step broken down, its communication (the rank's own files or
 * the cluster-wide ones, then shared by every rank), and the folder of
 * its own profile, opened as a Profile document. Timelines and op tables
 * are not read: they are opened per rank when asked for. Built by
 * sl-cluster-loader; immutable afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-communication.h"
#include "sl-problem.h"
#include "sl-profile.h"
#include "sl-step-breakdown.h"
#include "sl-step-trace.h"

G_BEGIN_DECLS

typedef struct {
  gint64           rank_id;
  char            *label;          /* "rank 3" */
  char            *dir;            /* the rank's own profile folder; NULL when only the cluster's files name it */
  SlProfileLayout  layout;         /* of @dir, or SL_PROFILE_LAYOUT_CLUSTER */
  SlStepTrace     *steps;          /* nullable */
  SlCommunication *communication;  /* nullable; cluster-wide files are shared by the ranks */
  SlStepBreakdown  breakdown;      /* of @steps */
  GPtrArray       *files;          /* paths read for this rank */
} SlClusterRank;

#define SL_TYPE_CLUSTER_PROFILE (sl_cluster_profile_get_type ())
G_DECLARE_FINAL_TYPE (SlClusterProfile, sl_cluster_profile, SL, CLUSTER_PROFILE, GObject)

SlClusterProfile    *sl_cluster_profile_new          (const char       *path);
const char          *sl_cluster_profile_get_path     (SlClusterProfile *self);
/* Sorted by rank id once loaded. */
guint                sl_cluster_profile_get_n_ranks  (SlClusterProfile *self);
const SlClusterRank *sl_cluster_profile_get_rank     (SlClusterProfile *self,
                                                      guint             index);
/* Returns: the index of @rank_id, or -1 */
gint                 sl_cluster_profile_find_rank    (SlClusterProfile *self,
                                                      gint64            rank_id);
/* SlProblem, in the order found */
GListModel          *sl_cluster_profile_get_problems (SlClusterProfile *self);
/* The cluster_analysis_output folder read, or NULL. */
const char          *sl_cluster_profile_get_analysis_dir (SlClusterProfile *self);

/* Building (the loader) */
SlClusterRank       *sl_cluster_profile_ensure_rank  (SlClusterProfile *self,
                                                      gint64            rank_id);
void                 sl_cluster_profile_set_analysis_dir (SlClusterProfile *self,
                                                      const char       *dir);
void                 sl_cluster_profile_add_problem  (SlClusterProfile *self,
                                                      SlProblem        *problem);
/* Sorts the ranks and breaks their steps down. */
void                 sl_cluster_profile_finish       (SlClusterProfile *self);

G_END_DECLS
