/* sl-slurm-state.h: what squeue, sacct and scontrol say about a job
 *
 * The answers of Slurm's commands, parsed: the state word (PENDING,
 * RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL,
 * OUT_OF_MEMORY, PREEMPTED, ...), the reason a job waits, and the exit
 * code with the signal that ended it. The text comes from a target and
 * is treated as hostile: unknown words are kept as they are, and
 * anything unreadable is refused, never guessed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-job-backend.h"

G_BEGIN_DECLS

typedef struct {
  char *state;      /* Slurm's word, upper case; NULL when unknown */
  char *reason;     /* why it waits or ended; NULL for "None" */
  int   exit_code;  /* -1 when not known */
  int   signal;     /* 0 when none */
} SlSlurmJobInfo;

void         sl_slurm_job_info_clear        (SlSlurmJobInfo  *info);

gboolean     sl_slurm_parse_exit_code       (const char      *text,
                                             int             *exit_code,
                                             int             *signal);
gboolean     sl_slurm_parse_squeue_line     (const char      *line,
                                             SlSlurmJobInfo  *info);
gboolean     sl_slurm_parse_sacct_line      (const char      *line,
                                             SlSlurmJobInfo  *info);
gboolean     sl_slurm_parse_scontrol        (const char      *text,
                                             SlSlurmJobInfo  *info);
char        *sl_slurm_parse_job_id          (const char      *sbatch_output);

SlJobStatus  sl_slurm_state_to_status       (const char      *state);
gboolean     sl_slurm_state_is_known        (const char      *state);
int          sl_slurm_job_info_get_exit     (const SlSlurmJobInfo *info);
const char  *sl_slurm_describe_reason       (const char      *reason);
char        *sl_slurm_describe_state        (const char      *state,
                                             const char      *reason);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlSlurmJobInfo, sl_slurm_job_info_clear)

G_END_DECLS
