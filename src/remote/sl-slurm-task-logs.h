/* sl-slurm-task-logs.h: one stream from the log of every task
 *
 * With per-task logs, srun writes each task's output to its own file;
 * the Console and `job logs` show one stream. This merges them: the
 * batch script's own log as it is, then each task's complete lines,
 * prefixed with "[rank N] " (or "[node N] " for a launcher that runs
 * once per node), in the order they were read. A line still being
 * written is held back until it ends, or until a round in which its
 * file did not grow (a task that ended without a newline).
 *
 * It does no I/O: the Slurm backend reads the files and feeds it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlSlurmTaskLogs SlSlurmTaskLogs;

SlSlurmTaskLogs *sl_slurm_task_logs_new          (const char      *label);
void             sl_slurm_task_logs_free         (SlSlurmTaskLogs *self);
guint            sl_slurm_task_logs_get_n_tasks  (SlSlurmTaskLogs *self);
guint64          sl_slurm_task_logs_get_offset   (SlSlurmTaskLogs *self,
                                                  guint            task);
guint64          sl_slurm_task_logs_get_main_offset (SlSlurmTaskLogs *self);
gboolean         sl_slurm_task_logs_has_pending  (SlSlurmTaskLogs *self);
void             sl_slurm_task_logs_begin_round  (SlSlurmTaskLogs *self);
void             sl_slurm_task_logs_add_main     (SlSlurmTaskLogs *self,
                                                  const guint8    *data,
                                                  gsize            length);
gboolean         sl_slurm_task_logs_add_task     (SlSlurmTaskLogs *self,
                                                  guint            task,
                                                  const guint8    *data,
                                                  gsize            length);
void             sl_slurm_task_logs_end_round    (SlSlurmTaskLogs *self);
GBytes          *sl_slurm_task_logs_take         (SlSlurmTaskLogs *self,
                                                  gsize            max_length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSlurmTaskLogs, sl_slurm_task_logs_free)

G_END_DECLS
