/* sl-slurm-job-backend.h: jobs submitted to Slurm with sbatch
 *
 * The job folder gets a batch script, job.sbatch, written from the
 * SlSlurmOptions: #SBATCH lines for nodes, tasks, devices, partition,
 * time limit and account, then the launch line (srun, torchrun or msrun,
 * each task with its rank in RANK, LOCAL_RANK, WORLD_SIZE, RANK_ID and
 * RANK_SIZE), and the exit status written to "exit_code". It is
 * submitted with `sbatch --parsable`, its output going to "log" (and
 * with per-task logs, each task to %x-%j-%t.out beside it); Slurm's job
 * id goes to "slurm_id", so the job is found again from its folder.
 *
 * The job is followed with squeue while Slurm has it queued or running,
 * then sacct; on clusters without accounting, scontrol show job and the
 * exit_code file tell how it ended. With per-task logs, the log read is
 * one stream: the script's log and each task's lines with their rank
 * (SlSlurmTaskLogs), as the files grow. The state word and reason of the
 * last poll are kept in the SlJob. Stopping is scancel. The target's
 * environment setup (such as "module load slurm") runs before each of
 * these commands, its output dropped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-job-backend.h"
#include "sl-slurm-options.h"
#include "sl-target-shell.h"

G_BEGIN_DECLS

#define SL_SLURM_ERROR (sl_slurm_error_quark ())

typedef enum {
  SL_SLURM_ERROR_REFUSED,     /* sbatch refused the job; the message is Slurm's */
  SL_SLURM_ERROR_NO_SLURM,    /* no sbatch on the target */
} SlSlurmError;

#define SL_TYPE_SLURM_JOB_BACKEND (sl_slurm_job_backend_get_type ())
G_DECLARE_FINAL_TYPE (SlSlurmJobBackend, sl_slurm_job_backend, SL, SLURM_JOB_BACKEND, GObject)

GQuark        sl_slurm_error_quark                    (void);
SlJobBackend *sl_slurm_job_backend_new                (SlTargetShell        *shell,
                                                       const SlSlurmOptions *options);
void          sl_slurm_job_backend_set_env_setup      (SlSlurmJobBackend    *self,
                                                       const char           *command);
char         *sl_slurm_job_backend_dup_script         (const SlSlurmOptions *options,
                                                       SlJob                *job);
char         *sl_slurm_job_backend_dup_submit_command (const SlSlurmOptions *options,
                                                       SlJob                *job);
char         *sl_slurm_job_backend_dup_sbatch_command (SlJob                *job);

G_END_DECLS
