/* sl-slurm-task-logs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-slurm-task-logs.h"

/* A line longer than this is passed on in pieces, each prefixed, so a
 * task printing without newlines cannot hold memory without bound. */
#define MAX_HELD_LINE (64 * 1024)
/* srun's %t of one job; beyond it a task number is not believed. */
#define MAX_TASKS 65536

typedef struct {
  guint64     offset;   /* bytes of its file read */
  GByteArray *tail;     /* the line not yet ended */
  gboolean    grew;     /* read something this round */
  gboolean    held;     /* the tail was there at the round's start */
} TaskLog;

struct _SlSlurmTaskLogs
{
  char       *label;
  GArray     *tasks;        /* TaskLog */
  guint64     main_offset;
  GByteArray *pending;      /* merged output not yet taken */
};

static void
task_log_clear (gpointer data)
{
  TaskLog *task = data;

  g_clear_pointer (&task->tail, g_byte_array_unref);
}

/**
 * sl_slurm_task_logs_new:
 * @label: the word before each task's number: "rank" or "node"
 */
SlSlurmTaskLogs *
sl_slurm_task_logs_new (const char *label)
{
  SlSlurmTaskLogs *self = g_new0 (SlSlurmTaskLogs, 1);

  self->label = g_strdup (label != NULL ? label : "rank");
  self->tasks = g_array_new (FALSE, TRUE, sizeof (TaskLog));
  g_array_set_clear_func (self->tasks, task_log_clear);
  self->pending = g_byte_array_new ();
  return self;
}

void
sl_slurm_task_logs_free (SlSlurmTaskLogs *self)
{
  if (self == NULL)
    return;
  g_free (self->label);
  g_array_unref (self->tasks);
  g_byte_array_unref (self->pending);
  g_free (self);
}

guint
sl_slurm_task_logs_get_n_tasks (SlSlurmTaskLogs *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tasks->len;
}

/**
 * sl_slurm_task_logs_get_offset:
 *
 * Returns: how much of @task's file was read: where to read it next
 */
guint64
sl_slurm_task_logs_get_offset (SlSlurmTaskLogs *self,
                               guint            task)
{
  g_return_val_if_fail (self != NULL, 0);
  return task < self->tasks->len ? g_array_index (self->tasks, TaskLog, task).offset : 0;
}

guint64
sl_slurm_task_logs_get_main_offset (SlSlurmTaskLogs *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->main_offset;
}

gboolean
sl_slurm_task_logs_has_pending (SlSlurmTaskLogs *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->pending->len > 0;
}

void
sl_slurm_task_logs_begin_round (SlSlurmTaskLogs *self)
{
  g_return_if_fail (self != NULL);

  for (guint i = 0; i < self->tasks->len; i++)
    {
      TaskLog *task = &g_array_index (self->tasks, TaskLog, i);

      task->grew = FALSE;
      task->held = task->tail->len > 0;
    }
}

void
sl_slurm_task_logs_add_main (SlSlurmTaskLogs *self,
                             const guint8    *data,
                             gsize            length)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || length == 0);

  g_byte_array_append (self->pending, data, length);
  self->main_offset += length;
}

static void
emit_line (SlSlurmTaskLogs *self,
           guint            number,
           const guint8    *data,
           gsize            length)
{
  g_autofree char *prefix = g_strdup_printf ("[%s %u] ", self->label, number);

  g_byte_array_append (self->pending, (const guint8 *)prefix, strlen (prefix));
  g_byte_array_append (self->pending, data, length);
  if (length == 0 || data[length - 1] != '\n')
    g_byte_array_append (self->pending, (const guint8 *)"\n", 1);
}

/**
 * sl_slurm_task_logs_add_task:
 * @task: the task's number; the next one after the last known adds it
 *
 * Returns: %FALSE when @task skips numbers (or is beyond any job), so
 *   the data is not taken
 */
gboolean
sl_slurm_task_logs_add_task (SlSlurmTaskLogs *self,
                             guint            task,
                             const guint8    *data,
                             gsize            length)
{
  TaskLog *log;
  gsize start = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (task > self->tasks->len || task >= MAX_TASKS)
    return FALSE;
  if (task == self->tasks->len)
    {
      TaskLog added = { 0, g_byte_array_new (), FALSE, FALSE };

      g_array_append_val (self->tasks, added);
    }
  log = &g_array_index (self->tasks, TaskLog, task);
  log->offset += length;
  if (length == 0)
    return TRUE;
  log->grew = TRUE;

  for (gsize i = 0; i < length; i++)
    {
      if (data[i] != '\n')
        continue;
      if (log->tail->len > 0)
        {
          g_byte_array_append (log->tail, data + start, i + 1 - start);
          emit_line (self, task, log->tail->data, log->tail->len);
          g_byte_array_set_size (log->tail, 0);
        }
      else
        emit_line (self, task, data + start, i + 1 - start);
      start = i + 1;
    }
  g_byte_array_append (log->tail, data + start, length - start);
  if (log->tail->len >= MAX_HELD_LINE)
    {
      emit_line (self, task, log->tail->data, log->tail->len);
      g_byte_array_set_size (log->tail, 0);
    }
  return TRUE;
}

/* A line held since the last round whose file did not grow is the end
 * of a task that printed no final newline: it is passed on. */
void
sl_slurm_task_logs_end_round (SlSlurmTaskLogs *self)
{
  g_return_if_fail (self != NULL);

  for (guint i = 0; i < self->tasks->len; i++)
    {
      TaskLog *task = &g_array_index (self->tasks, TaskLog, i);

      if (task->held && !task->grew && task->tail->len > 0)
        {
          emit_line (self, i, task->tail->data, task->tail->len);
          g_byte_array_set_size (task->tail, 0);
        }
    }
}

/**
 * sl_slurm_task_logs_take:
 *
 * Returns: (transfer full): up to @max_length bytes of the merged output
 *   not taken yet; empty when there is none
 */
GBytes *
sl_slurm_task_logs_take (SlSlurmTaskLogs *self,
                         gsize            max_length)
{
  gsize n;
  GBytes *bytes;

  g_return_val_if_fail (self != NULL, NULL);

  n = MIN (max_length, self->pending->len);
  bytes = g_bytes_new (self->pending->data, n);
  g_byte_array_remove_range (self->pending, 0, n);
  return bytes;
}
