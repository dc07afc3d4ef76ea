/* sl-workflow.c: what the Convert, Profile and MindX workflows share, so each keeps only its stages
 *
 * A workflow runs its stages (a preflight, a job on the target, reading
 * what came out) and keeps what went wrong as Problems with hints, never
 * as a bare error, so the CLI and the window show the same. This base
 * holds what they all have: the target, the project and the places on
 * the target, the stage, the problems, the job's log, exit code and
 * history entry, and the run itself.
 *
 * Run synchronously, the events (the stage, the log as it streams, the
 * messages, each problem, the end) are emitted at once in the calling
 * thread. Run asynchronously, the stages run on a thread of their own and
 * every event is queued, in order, for the thread-default main context
 * of the caller, never emitted on the worker: the Console and the dialogs
 * connect to them as they are.
 *
 * The worker follows its job on a main context of its own, so what it
 * queued there (the job history's reload once the job ended) is delivered
 * before that context is dropped; otherwise it would keep the run's
 * workspace, its writer thread and its database connection alive for
 * good. The result is handed to the caller's context and the thread keeps
 * no reference afterwards: the workflow, and the SSH session its shell
 * holds, are never finalized on the thread after the caller heard the run
 * had ended (while it quits, say), only where the caller drops them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-cache.h"
#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-main-thread.h"
#include "sl-shell-quote.h"
#include "sl-transfer.h"
#include "sl-workflow-private.h"
#include "sl-workspace.h"
#include "sl-workspace-store.h"

typedef struct
{
  SlTarget      *target;
  SlTargetShell *shell;
  char          *project_dir;
  char          *env_script;
  char          *remote_dir;
  char          *store_path;

  /* The caller's context while an async run goes on; NULL when the
   * events are emitted at once. Set and cleared in the caller's thread,
   * before the worker starts and after it ended. */
  GMainContext  *notify_context;
  int            stage;            /* as notified: read and written where the events go */
  gboolean       running;          /* likewise */
  GPtrArray     *problems;
  GString       *log;
  char          *log_path;
  char          *local_log;
  int            exit_code;
  gint64         job_id;
  gboolean       verdict_recorded;  /* the verdict on the job was recorded (or tried) */
  SlJobController *jobs;           /* follows the job when set; used in the caller's context */
  guint          controller_job;   /* the job's number there: set in the caller's context */  /* the verdict on the job was recorded (or tried) */
} SlWorkflowPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (SlWorkflow, sl_workflow, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STAGE,
  PROP_RUNNING,
  PROP_TARGET,
  PROP_PROJECT_DIR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  LOG,
  MESSAGE,
  PROBLEM,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Events */

typedef enum {
  EVENT_STAGE,
  EVENT_LOG,
  EVENT_MESSAGE,
  EVENT_PROBLEM,
  EVENT_JOB_END,
  EVENT_FINISHED,
} EventKind;

typedef struct {
  SlWorkflow *self;
  EventKind   kind;
  int         stage;
  GBytes     *bytes;
  char       *text;
  SlProblem  *problem;
  guint       job;
  int         exit_code;
} Event;

static void
event_free (gpointer data)
{
  Event *event = data;

  g_object_unref (event->self);
  g_clear_pointer (&event->bytes, g_bytes_unref);
  g_free (event->text);
  g_clear_object (&event->problem);
  g_free (event);
}

static gboolean
deliver_event_cb (gpointer data)
{
  Event *event = data;
  SlWorkflow *self = event->self;
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  switch (event->kind)
    {
    case EVENT_STAGE:
      /* Each change carries its own stage, so a quick run still reports
       * every stage it went through, in order. */
      priv->stage = event->stage;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGE]);
      break;
    case EVENT_LOG:
      g_signal_emit (self, signals[LOG], 0, event->bytes);
      break;
    case EVENT_MESSAGE:
      g_signal_emit (self, signals[MESSAGE], 0, event->text);
      break;
    case EVENT_PROBLEM:
      g_signal_emit (self, signals[PROBLEM], 0, event->problem);
      break;
    case EVENT_JOB_END:
      /* The job ends in the Console with the run's verdict. */
      sl_job_controller_end_job (priv->jobs, event->job, event->exit_code, event->text);
      break;
    case EVENT_FINISHED:
      priv->running = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
      g_signal_emit (self, signals[FINISHED], 0);
      break;
    default:
      g_assert_not_reached ();
    }
  return G_SOURCE_REMOVE;
}

static void
post_event (SlWorkflow *self,
            Event      *event)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  event->self = g_object_ref (self);
  if (priv->notify_context == NULL)
    {
      deliver_event_cb (event);
      event_free (event);
      return;
    }
  /* Queued even when the caller's context happens to be free: a handler
   * never runs on the worker. */
  sl_main_context_dispatch (priv->notify_context, deliver_event_cb, event, event_free);
}

static Event *
event_new (EventKind kind)
{
  Event *event = g_new0 (Event, 1);

  event->kind = kind;
  return event;
}

void
sl_workflow_set_stage (SlWorkflow *self,
                       int         stage)
{
  Event *event;

  g_return_if_fail (SL_IS_WORKFLOW (self));

  event = event_new (EVENT_STAGE);
  event->stage = stage;
  post_event (self, event);
}

void
sl_workflow_emit_message (SlWorkflow *self,
                          const char *text)
{
  Event *event;

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (text != NULL);

  event = event_new (EVENT_MESSAGE);
  event->text = g_strdup (text);
  post_event (self, event);
}

static void
keep_problem (SlWorkflow *self,
              SlProblem  *problem)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  Event *event = event_new (EVENT_PROBLEM);

  g_ptr_array_add (priv->problems, problem);
  event->problem = g_object_ref (problem);
  post_event (self, event);
}

void
sl_workflow_add_problem (SlWorkflow *self,
                         SlProblem  *problem,
                         const char *hint)
{
  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  if (hint != NULL)
    sl_problem_set_hint (problem, hint);
  keep_problem (self, problem);
}

gboolean
sl_workflow_add_problems (SlWorkflow *self,
                          GPtrArray  *problems)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      ok = ok && sl_problem_get_severity (problem) != SL_SEVERITY_ERROR;
      keep_problem (self, g_object_ref (problem));
    }
  return ok;
}

/* The run */

static void
reset_outcome (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_ptr_array_set_size (priv->problems, 0);
  g_string_truncate (priv->log, 0);
  g_clear_pointer (&priv->log_path, g_free);
  g_clear_pointer (&priv->local_log, g_free);
  priv->exit_code = -1;
  priv->job_id = 0;
  priv->verdict_recorded = FALSE;
  priv->controller_job = 0;
  if (SL_WORKFLOW_GET_CLASS (self)->reset != NULL)
    SL_WORKFLOW_GET_CLASS (self)->reset (self);
}

/* A job whose program exited with 0 in a run that failed (no profile
 * came out, ATC's model is missing) is recorded as failed, with why: the
 * job history says what the Console and Problems say. */
static void
record_verdict (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  guint errors;

  if (priv->job_id <= 0 || priv->exit_code != 0 || priv->verdict_recorded || sl_workflow_succeeded (self))
    return;

  errors = sl_workflow_count_errors (self);
  if (errors > 0)
    reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exit 0, but the run found %u error",
                                           "exit 0, but the run found %u errors", errors), errors);
  else
    reason = g_strdup (_("exit 0, but the run did not finish"));
  if (!sl_workflow_record_failure (self, reason, &error))
    sl_workflow_add_problem (self, sl_problem_new (SL_SEVERITY_WARNING, "job", priv->store_path, -1, error->message),
                             _("The job history may show this run as succeeded; Problems holds its errors."));
}

/* The job followed by the controller ends with the run: failed, with
 * why, when the run found errors, whatever the exit code. */
static void
end_controller_job (SlWorkflow   *self,
                    const GError *error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  guint errors = sl_workflow_count_errors (self);
  int exit_code = priv->exit_code;
  Event *event;

  if (priv->controller_job == 0)
    return;
  event = event_new (EVENT_JOB_END);
  if (error != NULL)
    {
      event->text = g_strdup (error->message);
      exit_code = -1;
    }
  else if (errors > 0 && exit_code >= 0)
    {
      event->text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exited with code %d; %u error in Problems",
                                                  "exited with code %d; %u errors in Problems", errors),
                                     exit_code, errors);
      exit_code = -1;
    }
  else if (errors > 0)
    event->text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "did not run to its end; %u error in Problems",
                                                "did not run to its end; %u errors in Problems", errors), errors);
  else if (exit_code < 0)
    event->text = g_strdup (_("did not run to its end"));
  event->job = priv->controller_job;
  event->exit_code = exit_code;
  post_event (self, event);
}

/* The stages, then the done stage and the end, in the running thread. */
static gboolean
run_in_this_thread (SlWorkflow    *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  SlWorkflowClass *klass = SL_WORKFLOW_GET_CLASS (self);
  gboolean ok;

  reset_outcome (self);
  if (sl_workflow_set_error_if_interrupted_before (self, cancellable, error))
    ok = FALSE;
  else
    ok = klass->run_stages (self, cancellable, error);
  /* An interrupted run says what became of its job in @error. */
  if (ok && !g_cancellable_is_cancelled (cancellable))
    record_verdict (self);
  end_controller_job (self, error != NULL ? *error : NULL);
  sl_workflow_set_stage (self, klass->done_stage);
  post_event (self, event_new (EVENT_FINISHED));
  return ok;
}

static void
mark_running (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  priv->running = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

gboolean
sl_workflow_run (SlWorkflow    *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autoptr(GMainContext) context = NULL;
  gboolean acquired;
  gboolean ok;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  g_return_val_if_fail (SL_WORKFLOW_GET_CLASS (self)->run_stages != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (!priv->running, FALSE);

  g_clear_pointer (&priv->notify_context, g_main_context_unref);
  /* The handlers run in the caller's thread-default context: it is held
   * meanwhile, when no other thread runs it. */
  context = g_main_context_ref_thread_default ();
  acquired = g_main_context_acquire (context);
  mark_running (self);
  ok = run_in_this_thread (self, cancellable, error);
  if (acquired)
    g_main_context_release (context);
  return ok;
}

typedef struct {
  GTask    *task;
  gboolean  ok;
  GError   *error;
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

  /* The notify context stays until the next run: a handler of "finished"
   * may already have started one. */
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
  run->ok = run_in_this_thread (g_task_get_source_object (run->task), g_task_get_cancellable (run->task),
                                &run->error);
  deliver_pending (context);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);

  /* From here on the run belongs to the caller's context, after the
   * events queued there. */
  sl_main_context_dispatch (g_task_get_context (run->task), return_in_caller, run, thread_run_free);
  return NULL;
}

void
sl_workflow_run_async (SlWorkflow          *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *thread_name = NULL;
  ThreadRun *run;

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (SL_WORKFLOW_GET_CLASS (self)->run_stages != NULL);
  g_return_if_fail (!priv->running);

  g_clear_pointer (&priv->notify_context, g_main_context_unref);
  priv->notify_context = g_main_context_ref_thread_default ();
  mark_running (self);

  run = g_new0 (ThreadRun, 1);
  run->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (run->task, sl_workflow_run_async);
  /* The outcome is read after the callback, so a cancelled run still
   * returns once its job has stopped; the workflow's own error says what
   * a cancel did to its job (stopped, never started, may still be
   * running), not a bare "cancelled". */
  g_task_set_return_on_cancel (run->task, FALSE);
  g_task_set_check_cancellable (run->task, FALSE);
  thread_name = g_ascii_strdown (G_OBJECT_TYPE_NAME (self), -1);
  g_thread_unref (g_thread_new (thread_name, thread_main, run));
}

gboolean
sl_workflow_run_finish (SlWorkflow    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_workflow_is_running (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  return priv->running;
}

/* The job */

SlTargetShell *
sl_workflow_ensure_shell (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);

  if (priv->shell == NULL)
    priv->shell = sl_target_shell_new_for_target (priv->target);
  return priv->shell;
}

GString *
sl_workflow_get_log (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  return priv->log;
}

char *
sl_workflow_dup_source_line (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);

  if (priv->env_script == NULL)
    return NULL;
  quoted = sl_shell_quote_remote_path (priv->env_script);
  return g_strdup_printf (". %s", quoted);
}

SlRemoteRun *
sl_workflow_create_run (SlWorkflow         *self,
                        const char * const *argv,
                        const char         *env_setup)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  SlRemoteRun *run;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  g_return_val_if_fail (argv != NULL, NULL);

  run = sl_remote_run_new (priv->target, priv->project_dir, argv);
  sl_remote_run_set_remote_dir (run, priv->remote_dir);
  sl_remote_run_set_env_setup (run, env_setup);
  sl_remote_run_set_store_path (run, priv->store_path);
  return run;
}

gboolean
sl_workflow_run_preflight (SlWorkflow            *self,
                           const SlPreflightSpec *spec,
                           GCancellable          *cancellable)
{
  g_autofree char *script = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  script = sl_preflight_dup_script (spec);
  if (!sl_target_shell_run (sl_workflow_ensure_shell (self), script, &out, NULL, &status, cancellable, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_workflow_add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "preflight", NULL, -1, error->message), NULL);
      return FALSE;
    }
  found = sl_preflight_parse (spec, out);
  return sl_workflow_add_problems (self, found);
}

static void
stop_run_cb (GCancellable *cancellable,
             SlRemoteRun  *run)
{
  sl_remote_run_request_stop (run);
}

void
sl_workflow_append_log (SlWorkflow *self,
                        GBytes     *data)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  gsize size = 0;
  const char *bytes;
  Event *event;

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (data != NULL);

  bytes = g_bytes_get_data (data, &size);
  g_string_append_len (priv->log, bytes, size);
  event = event_new (EVENT_LOG);
  event->bytes = g_bytes_ref (data);
  post_event (self, event);
}

static void
run_log_cb (SlRemoteRun *run,
            GBytes      *data,
            SlWorkflow  *self)
{
  sl_workflow_append_log (self, data);
}

static void
run_message_cb (SlRemoteRun *run,
                const char  *text,
                SlWorkflow  *self)
{
  sl_workflow_emit_message (self, text);
}

/* Following the job with the controller set: it lives in the caller's
 * context, so the job is handed there and the worker waits for its end;
 * the run's signals come in that context too. */
static gboolean
follow_with_controller (SlWorkflow   *self,
                        SlRemoteRun  *run,
                        const char   *command_line,
                        SlJobStatus  *status,
                        int          *exit_code,
                        GError      **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *title = NULL;
  g_auto(GStrv) argv = NULL;

  argv = g_strsplit (command_line, " ", 2);
  /* TRANSLATORS: the Console's title for a job; the first %s is a command, the second a target */
  title = g_strdup_printf (_("%s on %s"), argv[0], sl_target_get_name (priv->target));
  /* A run in this thread: the controller's context is this one. */
  return sl_job_controller_follow_run_sync (priv->jobs, priv->notify_context, run, title, command_line,
                                            &priv->controller_job, status, exit_code, error);
}

/* A cancel stops the job (before it started, it is never started) and
 * waits until it is seen to end; the error then says what became of it:
 * G_IO_ERROR_CANCELLED when nothing is left running on the target,
 * another code (with how to stop it) when it may be. */
SlWorkflowJobOutcome
sl_workflow_run_job (SlWorkflow          *self,
                     SlRemoteRun         *run,
                     const char * const  *argv,
                     GCancellable        *cancellable,
                     GError             **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(SlJobController) jobs = NULL;
  g_autoptr(GError) job_error = NULL;
  g_autofree char *command_line = NULL;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  gulong log_id, message_id, stop_id;
  gboolean ok;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), SL_WORKFLOW_JOB_NOT_RUN);
  g_return_val_if_fail (SL_IS_REMOTE_RUN (run), SL_WORKFLOW_JOB_NOT_RUN);
  g_return_val_if_fail (argv != NULL, SL_WORKFLOW_JOB_NOT_RUN);

  command_line = sl_job_controller_quote_argv (argv);
  log_id = g_signal_connect (run, "log", G_CALLBACK (run_log_cb), self);
  message_id = g_signal_connect (run, "message", G_CALLBACK (run_message_cb), self);
  stop_id = cancellable ? g_cancellable_connect (cancellable, G_CALLBACK (stop_run_cb), run, NULL) : 0;
  if (priv->jobs != NULL)
    ok = follow_with_controller (self, run, command_line, &status, &priv->exit_code, &job_error);
  else
    {
      /* Without one (the command line), a controller of its own follows it. */
      workspace = sl_workspace_new (priv->store_path);
      jobs = sl_job_controller_new (workspace);
      ok = sl_job_controller_run_remote_sync (jobs, run, command_line, &status, &priv->exit_code, &job_error);
    }
  g_cancellable_disconnect (cancellable, stop_id);
  g_signal_handler_disconnect (run, log_id);
  g_signal_handler_disconnect (run, message_id);
  if (workspace != NULL)
    sl_workspace_flush (workspace);
  priv->job_id = sl_remote_run_get_job_id (run);
  if (ok && status != SL_JOB_STATUS_EXITED)
    priv->exit_code = -1;

  if (g_cancellable_is_cancelled (cancellable))
    {
      sl_remote_run_set_interrupted_error (run, ok, status, priv->exit_code, job_error, error);
      priv->exit_code = -1;
      return SL_WORKFLOW_JOB_INTERRUPTED;
    }
  if (!ok)
    {
      priv->exit_code = -1;
      g_propagate_error (error, g_steal_pointer (&job_error));
      return SL_WORKFLOW_JOB_NOT_RUN;
    }
  return SL_WORKFLOW_JOB_ENDED;
}

char *
sl_workflow_dup_cache_path (SlWorkflow  *self,
                            const char  *remote_path,
                            GError     **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *cache_dir = NULL;
  const char *cache_name;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  g_return_val_if_fail (remote_path != NULL, NULL);

  cache_dir = sl_cache_dup_dir (NULL);
  cache_name = sl_target_get_id (priv->target) > 0 ? sl_target_get_name (priv->target) : "local";
  return sl_transfer_dup_cache_dir (cache_dir, cache_name, remote_path, error);
}

/* The log as it streamed, written into the cache beside the pulled
 * results, so a Problem can name a file on this computer. */
static char *
save_log (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *local = NULL;
  g_autofree char *dir = NULL;

  if (priv->log_path == NULL || !(local = sl_workflow_dup_cache_path (self, priv->log_path, NULL)))
    return NULL;
  dir = g_path_get_dirname (local);
  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_file_set_contents (local, priv->log->str, priv->log->len, NULL))
    return NULL;
  return g_steal_pointer (&local);
}

void
sl_workflow_keep_log (SlWorkflow  *self,
                      SlRemoteRun *run,
                      gboolean     copy_when_local)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (SL_IS_REMOTE_RUN (run));

  g_free (priv->log_path);
  priv->log_path = g_strdup (sl_remote_run_get_log_path (run));
  g_free (priv->local_log);
  /* On this computer the job's log is already a local file. */
  if (!copy_when_local && priv->log_path != NULL && SL_IS_LOCAL_TARGET (priv->target))
    priv->local_log = g_strdup (priv->log_path);
  else
    priv->local_log = save_log (self);
}

guint
sl_workflow_count_log_lines (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  guint n = 0;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), 0);

  for (gsize i = 0; i < priv->log->len; i++)
    n += priv->log->str[i] == '\n';
  return n;
}

gboolean
sl_workflow_record_failure (SlWorkflow  *self,
                            const char  *reason,
                            GError     **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  g_autofree char *path = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);
  g_return_val_if_fail (priv->job_id > 0, FALSE);

  /* Tried once: what failed is a problem already. */
  priv->verdict_recorded = TRUE;
  path = priv->store_path != NULL ? g_strdup (priv->store_path) : sl_workspace_store_dup_default_path ();
  if (!(store = sl_workspace_store_new_for_path (path, error)))
    return FALSE;
  return sl_workspace_store_set_job_outcome (store, priv->job_id, SL_JOB_STATE_FAILED, reason, error);
}

gboolean
sl_workflow_set_error_if_interrupted_before (SlWorkflow    *self,
                                             GCancellable  *cancellable,
                                             GError       **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);

  if (!g_cancellable_is_cancelled (cancellable))
    return FALSE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
               _("Interrupted before the job started: nothing ran on %s"), sl_target_get_name (priv->target));
  return TRUE;
}

/* @left: (nullable): where the job's output stays on the target */
gboolean
sl_workflow_set_error_if_interrupted_after (SlWorkflow    *self,
                                            GCancellable  *cancellable,
                                            const char    *left,
                                            GError       **error)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  const char *name;
  g_autofree char *ended = NULL;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);

  if (!g_cancellable_is_cancelled (cancellable))
    return FALSE;
  name = sl_target_get_name (priv->target);
  ended = priv->exit_code >= 0
    ? g_strdup_printf (_("the job had ended on %s (exit code %d)"), name, priv->exit_code)
    : g_strdup_printf (_("the job had ended on %s"), name);
  if (left != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after %s: nothing more was done; its output stays in %s"), ended, left);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after %s: nothing more was done"), ended);
  return TRUE;
}

/* What the caller reads */

int
sl_workflow_get_stage (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), 0);
  return priv->stage;
}

const char *
sl_workflow_get_stage_label (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  SlWorkflowClass *klass;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), "");

  klass = SL_WORKFLOW_GET_CLASS (self);
  return klass->stage_label != NULL ? klass->stage_label (self, priv->stage) : "";
}

GPtrArray *
sl_workflow_get_problems (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  return priv->problems;
}

guint
sl_workflow_count_errors (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);
  guint n = 0;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), 0);

  for (guint i = 0; i < priv->problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (priv->problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

gboolean
sl_workflow_succeeded (SlWorkflow *self)
{
  SlWorkflowClass *klass;

  g_return_val_if_fail (SL_IS_WORKFLOW (self), FALSE);

  klass = SL_WORKFLOW_GET_CLASS (self);
  if (klass->succeeded != NULL)
    return klass->succeeded (self);
  return sl_workflow_count_errors (self) == 0;
}

#define DEFINE_STRING_GETTER(field) \
  const char * \
  sl_workflow_get_##field (SlWorkflow *self) \
  { \
    SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self); \
    g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL); \
    return priv->field; \
  }

DEFINE_STRING_GETTER (project_dir)
DEFINE_STRING_GETTER (env_script)
DEFINE_STRING_GETTER (remote_dir)
DEFINE_STRING_GETTER (store_path)
DEFINE_STRING_GETTER (log_path)
DEFINE_STRING_GETTER (local_log)

#undef DEFINE_STRING_GETTER

SlTarget *
sl_workflow_get_target (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  return priv->target;
}

int
sl_workflow_get_exit_code (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), -1);
  return priv->exit_code;
}

gint64
sl_workflow_get_job_id (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), 0);
  return priv->job_id;
}

/* An empty text is none. */
static void
set_string (char       **field,
            const char  *value)
{
  g_free (*field);
  *field = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
}

void
sl_workflow_set_env_script (SlWorkflow *self,
                            const char *env_script)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  set_string (&priv->env_script, env_script);
}

void
sl_workflow_set_remote_dir (SlWorkflow *self,
                            const char *remote_dir)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  set_string (&priv->remote_dir, remote_dir);
}

void
sl_workflow_set_store_path (SlWorkflow *self,
                            const char *store_path)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  set_string (&priv->store_path, store_path);
}

void
sl_workflow_set_job_controller (SlWorkflow      *self,
                                SlJobController *jobs)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_return_if_fail (jobs == NULL || SL_IS_JOB_CONTROLLER (jobs));
  g_return_if_fail (!priv->running);
  g_set_object (&priv->jobs, jobs);
}

SlJobController *
sl_workflow_get_job_controller (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), NULL);
  return priv->jobs;
}

guint
sl_workflow_get_controller_job (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_val_if_fail (SL_IS_WORKFLOW (self), 0);
  return priv->controller_job;
}

void
sl_workflow_set_shell (SlWorkflow    *self,
                       SlTargetShell *shell)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_return_if_fail (SL_IS_WORKFLOW (self));
  g_set_object (&priv->shell, shell);
}

/* The object */

static void
sl_workflow_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SlWorkflow *self = SL_WORKFLOW (object);
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_STAGE:
      g_value_set_int (value, priv->stage);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, priv->running);
      break;
    case PROP_TARGET:
      g_value_set_object (value, priv->target);
      break;
    case PROP_PROJECT_DIR:
      g_value_set_string (value, priv->project_dir);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_workflow_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SlWorkflow *self = SL_WORKFLOW (object);
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_TARGET:
      priv->target = g_value_dup_object (value);
      break;
    case PROP_PROJECT_DIR:
      priv->project_dir = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_workflow_finalize (GObject *object)
{
  SlWorkflow *self = SL_WORKFLOW (object);
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  g_clear_object (&priv->target);
  g_clear_object (&priv->shell);
  g_clear_object (&priv->jobs);
  g_clear_pointer (&priv->notify_context, g_main_context_unref);
  g_clear_pointer (&priv->problems, g_ptr_array_unref);
  g_string_free (priv->log, TRUE);
  g_free (priv->project_dir);
  g_free (priv->env_script);
  g_free (priv->remote_dir);
  g_free (priv->store_path);
  g_free (priv->log_path);
  g_free (priv->local_log);

  G_OBJECT_CLASS (sl_workflow_parent_class)->finalize (object);
}

static void
sl_workflow_class_init (SlWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_workflow_get_property;
  object_class->set_property = sl_workflow_set_property;
  object_class->finalize = sl_workflow_finalize;

  /* The subclass's stage enum; notified where the events go. */
  properties[PROP_STAGE] =
    g_param_spec_int ("stage", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* From the call to run until the end was delivered. */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TARGET] =
    g_param_spec_object ("target", NULL, NULL, SL_TYPE_TARGET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The project folder on this computer, uploaded for the job. */
  properties[PROP_PROJECT_DIR] =
    g_param_spec_string ("project-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The job's log as it streams. */
  signals[LOG] = g_signal_new ("log", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                               G_TYPE_NONE, 1, G_TYPE_BYTES);
  /* A line about what is being done. */
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);
  /* A problem as it is found; the run keeps it in its problems too. */
  signals[PROBLEM] = g_signal_new ("problem", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, SL_TYPE_PROBLEM);
  /* The run ended: its outcome can be read. Before the async callback. */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 0);
}

static void
sl_workflow_init (SlWorkflow *self)
{
  SlWorkflowPrivate *priv = sl_workflow_get_instance_private (self);

  priv->problems = g_ptr_array_new_with_free_func (g_object_unref);
  priv->log = g_string_new (NULL);
  priv->exit_code = -1;
}
