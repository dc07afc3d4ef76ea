/* sl-slurm-config.h: a run configuration's Slurm settings
 *
 * The "slurm" group of a run configuration's options holds how the
 * configuration was last submitted: whether through Slurm at all, and
 * the SlSlurmOptions. Its keys are stable (add, never rename): enabled,
 * nodes, ntasks, ntasks_per_node, devices_per_node, gres, device_env,
 * partition, time, account, launcher, per_task_logs.
 *
 * The group is read as hostile input: a member of the wrong type, a
 * count out of range or an unknown launcher is left out, so the rest of
 * what was saved still fills the dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-run-config-record.h"
#include "sl-slurm-options.h"

G_BEGIN_DECLS

#define SL_SLURM_CONFIG_GROUP "slurm"
#define SL_SLURM_CONFIG_MAX_COUNT 100000

SlSlurmOptions *sl_slurm_config_read        (SlRunConfigRecord    *config,
                                             gboolean             *enabled);
gboolean        sl_slurm_config_write       (SlRunConfigRecord    *config,
                                             const SlSlurmOptions *options,
                                             gboolean              enabled);
char           *sl_slurm_config_dup_summary (const SlSlurmOptions *options,
                                             gboolean              enabled);

G_END_DECLS
