/* sl-workflow-thread.c: runs a workflow on a thread of its own for its async call
 *
 * The run follows its job on the thread's own main context, so what it
 * queued there (the job history's reload once the job ended) is delivered
 * before that context is dropped; otherwise it would keep the run's
 * workspace, its writer thread and its database connection alive for
 * good. The result is handed to the task in the caller's context and the
 * thread keeps no reference afterwards: the workflow, and the SSH session
 * its shell holds, are never finalized on the thread after the caller
 * heard the run had ended (while it quits, say), only where the caller
 * drops them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"
#include "sl-workflow-thread.h"

typedef struct {
  GTask             *task;
  SlWorkflowRunFunc  func;
  gboolean           ok;
  GError            *error;
} ThreadRun;

static void
thread_run_free (gpointer data)
{
  ThreadRun *run = data;

  g_clear_error (&run->error);
  g_object_unref (run->task);
  g_free (run);
}

static gboolean
return_in_caller (gpointer data)
{
  ThreadRun *run = data;

  if (run->ok)
    g_task_return_boolean (run->task, TRUE);
  else
    g_task_return_error (run->task, g_steal_pointer (&run->error));
  return G_SOURCE_REMOVE;
}

static void
deliver_pending (GMainContext *context)
{
  while (g_main_context_iteration (context, FALSE))
    ;
}

static gpointer
thread_main (gpointer data)
{
  ThreadRun *run = data;
  GMainContext *context = g_main_context_new ();

  g_main_context_push_thread_default (context);
  run->ok = run->func (g_task_get_source_object (run->task), g_task_get_cancellable (run->task), &run->error);
  deliver_pending (context);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);

  /* From here on the run belongs to the caller's context. */
  sl_main_context_dispatch (g_task_get_context (run->task), return_in_caller, run, thread_run_free);
  return NULL;
}

/**
 * sl_workflow_thread_run:
 * @task: the async call's task; its source object is the workflow
 * @func: the workflow's blocking run
 *
 * Runs @func on a new thread, with a main context of its own pushed, and
 * returns its outcome to @task in the context @task was made in.
 */
void
sl_workflow_thread_run (GTask             *task,
                        const char        *thread_name,
                        SlWorkflowRunFunc  func)
{
  ThreadRun *run;

  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (func != NULL);

  /* The workflow's own error says what a cancel did to its job (stopped,
   * never started, may still be running): it is returned as it is, not
   * replaced by a bare "cancelled". */
  g_task_set_check_cancellable (task, FALSE);
  run = g_new0 (ThreadRun, 1);
  run->task = g_object_ref (task);
  run->func = func;
  g_thread_unref (g_thread_new (thread_name, thread_main, run));
}
