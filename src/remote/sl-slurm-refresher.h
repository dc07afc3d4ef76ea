/* sl-slurm-refresher.h: the states of Slurm jobs nobody follows
 *
 * A Slurm job submitted with `job run --detach`, or followed by a window
 * that was closed, keeps in the history the state it was last seen in.
 * The refresher asks Slurm about all of them with one squeue and one
 * sacct call per target, and writes what changed into the history; the
 * workspace's jobs model then changes, and the Jobs list with it. A job
 * a controller follows is left to it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-slurm-state.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_SLURM_REFRESHER (sl_slurm_refresher_get_type ())
G_DECLARE_FINAL_TYPE (SlSlurmRefresher, sl_slurm_refresher, SL, SLURM_REFRESHER, GObject)

SlSlurmRefresher *sl_slurm_refresher_new             (SlWorkspace          *workspace);
void              sl_slurm_refresher_set_followed_job (SlSlurmRefresher    *self,
                                                      gint64               job_id);
gboolean          sl_slurm_refresher_get_refreshing  (SlSlurmRefresher     *self);
guint             sl_slurm_refresher_count_unfollowed (SlSlurmRefresher    *self);
void              sl_slurm_refresher_refresh_async   (SlSlurmRefresher     *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean          sl_slurm_refresher_refresh_finish  (SlSlurmRefresher     *self,
                                                      GAsyncResult         *result,
                                                      guint                *n_changed,
                                                      GError              **error);

char             *sl_slurm_refresher_dup_command     (const char * const   *ids);
GHashTable       *sl_slurm_refresher_parse           (const char           *output);

G_END_DECLS
