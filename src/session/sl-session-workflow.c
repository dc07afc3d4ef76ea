/* sl-session-workflow.c: a workflow's run as a job of the session
 *
 * The Profile, Convert and MindX workflows run their job on a worker and
 * say its log and messages there. The session hands them to its own
 * context, where they come out as its job signals, as a job of the
 * controller does; the job history is read again when the job has
 * started and when it ended, so every window's Jobs list shows it at
 * once with its start and end times.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "sl-local-target.h"
#include "sl-main-thread.h"
#include "sl-session-private.h"

static SlSessionRun *
run_ref (SlSessionRun *run)
{
  g_atomic_ref_count_inc (&run->ref_count);
  return run;
}

static void
run_unref (gpointer data)
{
  SlSessionRun *run = data;

  if (!g_atomic_ref_count_dec (&run->ref_count))
    return;
  g_clear_object (&run->session);
  g_clear_object (&run->workflow);
  g_clear_object (&run->cancellable);
  g_free (run->title);
  g_free (run);
}

typedef struct {
  SlSessionRun *run;
  GBytes       *output;   /* the log, or NULL for a message */
  char         *message;
} RunEvent;

static void
run_event_free (gpointer data)
{
  RunEvent *event = data;

  run_unref (event->run);
  g_clear_pointer (&event->output, g_bytes_unref);
  g_free (event->message);
  g_free (event);
}

static gboolean
run_event_cb (gpointer data)
{
  RunEvent *event = data;
  SlSessionRun *run = event->run;
  SlSession *self = run->session;

  if (run->ended)
    return G_SOURCE_REMOVE;
  if (event->output != NULL)
    {
      /* The job is in the history once it writes: the Jobs lists show it. */
      if (!run->seen_output)
        {
          run->seen_output = TRUE;
          sl_workspace_reload_jobs (self->workspace);
        }
      g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_OUTPUT], 0, event->output);
    }
  else
    g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_MESSAGE], 0, event->message);
  return G_SOURCE_REMOVE;
}

static void
dispatch (SlSessionRun *run,
          GBytes       *output,
          char         *message)
{
  RunEvent *event = g_new0 (RunEvent, 1);

  event->run = run_ref (run);
  event->output = output;
  event->message = message;
  sl_main_context_dispatch (run->session->context, run_event_cb, event, run_event_free);
}

/* On the workflow's worker. */
static void
workflow_log_cb (GObject      *workflow,
                 GBytes       *data,
                 SlSessionRun *run)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);
  char *text = g_utf8_make_valid (bytes, size);

  dispatch (run, g_bytes_new_take (text, strlen (text)), NULL);
}

static void
workflow_message_cb (GObject      *workflow,
                     const char   *message,
                     SlSessionRun *run)
{
  dispatch (run, NULL, g_strdup (message));
}

/**
 * _sl_session_begin_run:
 * @workflow: an #SlProfileWorkflow, #SlConvertWorkflow or #SlMindxWorkflow
 *   not started yet
 * @cancellable: (nullable): what the Console's Stop cancels
 *
 * Returns: (transfer none): the run, owned by the session until
 *   _sl_session_end_run()
 */
SlSessionRun *
_sl_session_begin_run (SlSession    *self,
                       GObject      *workflow,
                       const char   *title,
                       GCancellable *cancellable)
{
  SlSessionRun *run = g_new0 (SlSessionRun, 1);

  g_atomic_ref_count_init (&run->ref_count);
  run->session = g_object_ref (self);
  run->workflow = g_object_ref (workflow);
  run->title = g_strdup (title);
  run->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  run->log_id = g_signal_connect_data (workflow, "log", G_CALLBACK (workflow_log_cb), run_ref (run),
                                       (GClosureNotify)(void (*) (void))run_unref, 0);
  run->message_id = g_signal_connect_data (workflow, "message", G_CALLBACK (workflow_message_cb), run_ref (run),
                                           (GClosureNotify)(void (*) (void))run_unref, 0);
  g_ptr_array_add (self->runs, run);

  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_STARTED], 0, title, NULL);
  g_object_notify (G_OBJECT (self), "n-runs");
  g_object_notify (G_OBJECT (self), "current-job");
  _sl_session_update_busy (self);
  return run;
}

/**
 * _sl_session_run_status:
 *
 * A new stage of the run: the Console says it, and the history is read
 * again (the stage may have started the job).
 */
void
_sl_session_run_status (SlSessionRun *run,
                        const char   *status)
{
  if (run->ended)
    return;
  sl_workspace_reload_jobs (run->session->workspace);
  g_signal_emit (run->session, _sl_session_signals[SL_SESSION_JOB_STATUS], 0, status);
}

guint
_sl_session_count_errors (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

void
_sl_session_end_run (SlSessionRun *run,
                     int           exit_code,
                     GPtrArray    *problems,
                     const GError *error)
{
  SlSession *self = g_object_ref (run->session);
  guint errors = _sl_session_count_errors (problems);
  g_autofree char *reason = NULL;

  g_return_if_fail (!run->ended);

  run->ended = TRUE;
  g_clear_signal_handler (&run->log_id, run->workflow);
  g_clear_signal_handler (&run->message_id, run->workflow);
  sl_session_add_problems (self, problems);

  if (error != NULL)
    {
      reason = g_strdup (error->message);
      exit_code = -1;
    }
  else if (errors > 0 && exit_code >= 0)
    {
      reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exited with code %d; %u error in Problems",
                                             "exited with code %d; %u errors in Problems", errors), exit_code, errors);
      exit_code = -1;
    }
  else if (errors > 0)
    reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "did not run to its end; %u error in Problems",
                                           "did not run to its end; %u errors in Problems", errors), errors);

  /* The workflow recorded its job and its verdict in the history itself. */
  sl_workspace_reload_jobs (self->workspace);
  g_ptr_array_remove (self->runs, run);
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_FINISHED], 0, exit_code, reason);
  g_object_notify (G_OBJECT (self), "n-runs");
  g_object_notify (G_OBJECT (self), "current-job");
  _sl_session_update_busy (self);
  run_unref (run);
  g_object_unref (self);
}

/**
 * sl_session_create_target:
 * @target_id: a target of the workspace, or 0 for this computer
 *
 * Returns: (transfer full): the target, this computer's when @target_id
 *   is not among the workspace's targets
 */
SlTarget *
sl_session_create_target (SlSession  *self,
                          gint64      target_id,
                          GError    **error)
{
  GListModel *targets;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  targets = sl_workspace_get_targets (self->workspace);
  for (guint i = 0; target_id > 0 && i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      if (sl_target_record_get_id (record) == target_id)
        return sl_target_new_from_record (record, error);
    }
  return sl_local_target_new ();
}
