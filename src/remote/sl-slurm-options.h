/* sl-slurm-options.h: how a job asks Slurm for its nodes and tasks
 *
 * What a run configuration says about a batch job: nodes, tasks, tasks
 * per node, devices per node (as a GRES such as "npu" or "gpu", or in an
 * environment variable such as ASCEND_RT_VISIBLE_DEVICES), partition,
 * time limit, account, whether every task writes its own log, and the
 * launcher that starts the command in each task.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_SLURM_LAUNCHER_SRUN,      /* srun runs the command once per task */
  SL_SLURM_LAUNCHER_TORCHRUN,  /* srun runs torchrun once per node */
  SL_SLURM_LAUNCHER_MSRUN,     /* srun runs MindSpore's msrun once per node */
  SL_SLURM_LAUNCHER_NONE,      /* the batch script runs the command itself */
} SlSlurmLauncher;

typedef struct {
  guint            nodes;             /* 0: Slurm's default */
  guint            ntasks;
  guint            ntasks_per_node;
  guint            devices_per_node;
  char            *device_gres;       /* "npu", "gpu"; NULL: device_env */
  char            *device_env;        /* "ASCEND_RT_VISIBLE_DEVICES" */
  char            *partition;
  char            *time_limit;        /* "30", "1:00:00", "2-00:00:00" */
  char            *account;
  SlSlurmLauncher  launcher;
  gboolean         per_task_logs;     /* %x-%j-%t.out in the job folder */
} SlSlurmOptions;

#define SL_TYPE_SLURM_OPTIONS (sl_slurm_options_get_type ())

GType            sl_slurm_options_get_type      (void) G_GNUC_CONST;
SlSlurmOptions  *sl_slurm_options_new           (void);
SlSlurmOptions  *sl_slurm_options_copy          (const SlSlurmOptions *options);
void             sl_slurm_options_free          (SlSlurmOptions       *options);
gboolean         sl_slurm_options_validate      (const SlSlurmOptions *options,
                                                 GError              **error);
const char      *sl_slurm_launcher_to_id        (SlSlurmLauncher       launcher);
gboolean         sl_slurm_launcher_from_id      (const char           *id,
                                                 SlSlurmLauncher      *launcher);
guint            sl_slurm_options_get_tasks_per_node (const SlSlurmOptions *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSlurmOptions, sl_slurm_options_free)

G_END_DECLS
