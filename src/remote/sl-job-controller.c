/* sl-job-controller.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-main-thread.h"
#include "sl-remote-run.h"
#include "sl-slurm-state.h"
#include "sl-target-shell.h"

#define READ_CHUNK 8192
#define JOB_LOG_TAIL_BYTES (4 * 1024 * 1024)

/*
 * One job at a time is the Console's: a program on this computer (its
 * output read from a pipe) or a run on a target (SlRemoteRun: upload,
 * start detached, stream the log, pull). A workflow's job (Profile,
 * Convert, MindX) is followed beside it. Everything a job says comes out
 * as signals in the main context, with the job's number, for the Console
 * or a terminal.
 */
struct _SlJobController
{
  GObject       parent_instance;

  SlWorkspace  *workspace;
  char         *working_dir;
  char         *title;

  /* A local job: it ends once it exited and its output is read. */
  GSubprocess  *subprocess;
  SlJobRecord  *record;
  GCancellable *read_cancellable;
  gboolean      output_done;
  gboolean      exited;
  guint         drain_source;

  /* The Console's job on a target */
  SlRemoteRun  *remote_run;
  GCancellable *remote_cancellable;
  guint         remote_job;

  /* Every job followed on a target (RemoteJob), the Console's included */
  GPtrArray    *remote_jobs;
  guint         local_job;
  guint         last_job;           /* the number the newest job was given */

  /* How the last remote run ended, for sl_job_controller_run_remote_sync() */
  gboolean      remote_done;
  SlJobStatus   remote_status;
  int           remote_exit_code;
  GError       *remote_error;
};

G_DEFINE_FINAL_TYPE (SlJobController, sl_job_controller, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

enum {
  STARTED,
  OUTPUT,
  MESSAGE,
  STATUS,
  PULLED,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

gboolean
sl_job_controller_is_running (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);

  return self->subprocess != NULL || self->remote_run != NULL;
}

/**
 * sl_job_controller_get_title:
 *
 * Returns: (nullable): what the job followed is called in the Console,
 *   such as "python3 on ascend-01"
 */
const char *
sl_job_controller_get_title (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), NULL);

  return sl_job_controller_is_running (self) ? self->title : NULL;
}

/**
 * sl_job_controller_get_job_outlives_follower:
 *
 * Returns: %TRUE when the job followed runs detached on its target, so
 *   it goes on when nothing follows it and can be followed again; %FALSE
 *   for a program of this computer, which ends with Sightline
 */
gboolean
sl_job_controller_get_job_outlives_follower (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);

  return self->remote_run != NULL;
}

/**
 * sl_job_controller_get_working_dir:
 *
 * Returns: (nullable): where the last local job ran
 */
const char *
sl_job_controller_get_working_dir (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), NULL);

  return self->working_dir;
}

/**
 * sl_job_controller_quote_argv:
 *
 * Returns: (transfer full): @argv as a POSIX shell reads it back, words
 *   left bare when they need no quotes
 */
char *
sl_job_controller_quote_argv (const char * const *argv)
{
  GString *str = g_string_new (NULL);

  g_return_val_if_fail (argv != NULL, NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;
      gboolean plain = argv[i][0] != '\0';

      for (const char *p = argv[i]; *p && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("-_./=:,+@%", *p) != NULL;

      quoted = plain ? g_strdup (argv[i]) : g_shell_quote (argv[i]);
      g_string_append_printf (str, "%s%s", i ? " " : "", quoted);
    }

  return g_string_free (str, FALSE);
}

static void
notify_running (SlJobController *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* A local job */

static void read_next_chunk (SlJobController *self,
                             GInputStream    *stream);
static void finish_local_job (SlJobController *self);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlJobController) self = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      self->output_done = TRUE;
      finish_local_job (self);
      return;
    }

  g_signal_emit (self, signals[OUTPUT], 0, self->local_job, bytes);
  read_next_chunk (self, G_INPUT_STREAM (object));
}

static void
read_next_chunk (SlJobController *self,
                 GInputStream    *stream)
{
  g_input_stream_read_bytes_async (stream, READ_CHUNK, G_PRIORITY_DEFAULT, self->read_cancellable, read_cb,
                                   g_object_ref (self));
}

static void
record_end (SlJobController *self,
            SlJobRecord     *record,
            GSubprocess     *subprocess)
{
  SlJobState state = SL_JOB_STATE_CANCELLED;

  if (g_subprocess_get_if_exited (subprocess))
    {
      int code = g_subprocess_get_exit_status (subprocess);

      sl_job_record_set_exit_code (record, code);
      state = code == 0 ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED;
    }

  sl_job_record_set_finished_at (record, g_get_real_time () / G_USEC_PER_SEC);
  sl_job_record_set_state (record, state);
  sl_workspace_finish_job (self->workspace, record);
}

static void
finish_local_job (SlJobController *self)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  int exit_code = -1;

  if (!self->output_done || !self->exited || self->subprocess == NULL)
    return;

  g_clear_handle_id (&self->drain_source, g_source_remove);
  subprocess = g_steal_pointer (&self->subprocess);
  record = g_steal_pointer (&self->record);
  if (record != NULL)
    record_end (self, record, subprocess);

  if (g_subprocess_get_if_exited (subprocess))
    exit_code = g_subprocess_get_exit_status (subprocess);

  notify_running (self);
  g_signal_emit (self, signals[FINISHED], 0, self->local_job, exit_code,
                 exit_code < 0 ? _("stopped") : NULL);
}

static gboolean
give_up_on_output_cb (gpointer data)
{
  SlJobController *self = data;

  self->drain_source = 0;
  g_cancellable_cancel (self->read_cancellable);
  self->output_done = TRUE;
  finish_local_job (self);
  return G_SOURCE_REMOVE;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlJobController) self = user_data;
  GSubprocess *subprocess = G_SUBPROCESS (object);

  if (!g_subprocess_wait_finish (subprocess, result, NULL) || subprocess != self->subprocess)
    return;

  self->exited = TRUE;
  if (!self->output_done)
    {
      /* A child left in the background can keep the pipe open: do not
       * wait for it past a moment. */
      g_clear_handle_id (&self->drain_source, g_source_remove);
      self->drain_source = g_timeout_add_seconds (2, give_up_on_output_cb, self);
      return;
    }
  finish_local_job (self);
}

static void
job_added_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!sl_workspace_change_finish (SL_WORKSPACE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not add the job to the history: %s", error->message);
}

/**
 * sl_job_controller_run_local:
 * @working_dir: (nullable): where to run
 *
 * Runs a program on this computer; its output (stderr merged) comes as
 * #SlJobController::output and it is kept in the job history.
 *
 * Returns: %TRUE when it started
 */
gboolean
sl_job_controller_run_local (SlJobController     *self,
                             const char * const  *argv,
                             const char          *working_dir,
                             GError             **error)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) spawn_error = NULL;
  g_autofree char *command_line = NULL;

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  if (sl_job_controller_is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("The Console is following another job; stop it or wait for it to end"));
      return FALSE;
    }

  target = sl_local_target_new ();
  if (!(subprocess = sl_target_spawn (target, argv, working_dir, NULL, &spawn_error)))
    {
      g_set_error (error, spawn_error->domain, spawn_error->code, _("“%s” could not be started in %s: %s"),
                   argv[0], working_dir ? working_dir : ".", spawn_error->message);
      return FALSE;
    }

  command_line = sl_job_controller_quote_argv (argv);
  g_free (self->title);
  self->title = g_path_get_basename (argv[0]);
  g_free (self->working_dir);
  self->working_dir = g_strdup (working_dir);
  self->subprocess = g_object_ref (subprocess);

  self->record = sl_job_record_new (command_line, MAX (sl_workspace_get_local_target_id (self->workspace), 0));
  sl_job_record_set_started_at (self->record, g_get_real_time () / G_USEC_PER_SEC);
  sl_job_record_set_state (self->record, SL_JOB_STATE_RUNNING);
  sl_job_record_set_remote_folder (self->record, working_dir);
  sl_workspace_add_job_async (self->workspace, self->record, NULL, job_added_cb, NULL);

  self->local_job = ++self->last_job;
  notify_running (self);
  g_signal_emit (self, signals[STARTED], 0, self->local_job, self->title, command_line);

  g_clear_object (&self->read_cancellable);
  self->read_cancellable = g_cancellable_new ();
  self->output_done = self->exited = FALSE;
  read_next_chunk (self, g_subprocess_get_stdout_pipe (subprocess));
  g_subprocess_wait_async (subprocess, NULL, wait_cb, g_object_ref (self));

  return TRUE;
}

/* A job on a target
 *
 * The Console's job (run_on_target, follow_again, run_remote_sync) is
 * one at a time; a run handed over by a workflow (follow_run_async) is
 * followed beside it. Each is a RemoteJob with its own number, which
 * every signal about it carries. */

typedef struct {
  SlJobStatus status;
  int         exit_code;
} JobEnd;

typedef struct {
  SlJobController *self;
  guint            id;
  SlRemoteRun     *run;
  GCancellable    *cancellable;
  GTask           *task;      /* follow_run_async's, or NULL for the Console's job */
  SlJobStatus      status;
  int              exit_code;
} RemoteJob;

static void
remote_job_free (RemoteJob *job)
{
  g_signal_handlers_disconnect_by_data (job->run, job);
  g_clear_object (&job->self);
  g_clear_object (&job->run);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->task);
  g_free (job);
}

static void
remote_message_cb (SlRemoteRun *run,
                   const char  *text,
                   RemoteJob   *job)
{
  g_signal_emit (job->self, signals[MESSAGE], 0, job->id, text);
}

static void
remote_log_cb (SlRemoteRun *run,
               GBytes      *data,
               RemoteJob   *job)
{
  if (g_bytes_get_size (data) > 0)
    g_signal_emit (job->self, signals[OUTPUT], 0, job->id, data);
}

static void
remote_connection_cb (SlRemoteRun *run,
                      int          state,
                      const char  *detail,
                      RemoteJob   *job)
{
  SlJobController *self = job->self;
  g_autofree char *line = NULL;

  switch (state)
    {
    case SL_TARGET_SHELL_RECONNECTING:
      line = g_strdup_printf (_("The connection dropped (%s); reconnecting. The job goes on on the server."), detail);
      g_signal_emit (self, signals[STATUS], 0, job->id, _("reconnecting…"));
      break;
    case SL_TARGET_SHELL_CONNECTED:
      line = g_strdup (_("Connected again; the log goes on from where it stopped."));
      g_signal_emit (self, signals[STATUS], 0, job->id, _("running"));
      break;
    default:
      line = g_strdup_printf (_("Gave up reconnecting: %s"), detail);
      break;
    }
  g_signal_emit (self, signals[MESSAGE], 0, job->id, line);
}

static void
remote_pulled_cb (SlRemoteRun *run,
                  const char  *local_dir,
                  guint        n_changed,
                  RemoteJob   *job)
{
  g_signal_emit (job->self, signals[PULLED], 0, job->id, local_dir, n_changed);
}

static void
remote_job_started_cb (SlRemoteRun *run,
                       gint64       job_id,
                       const char  *remote_dir,
                       const char  *log_path,
                       RemoteJob   *job)
{
  g_signal_emit (job->self, signals[STATUS], 0, job->id, _("running"));
  sl_workspace_reload_jobs (job->self->workspace);
}

/* A batch job's state, with why it waits, as the Console's status. */
static void
remote_backend_state_cb (SlRemoteRun *run,
                         const char  *state,
                         const char  *reason,
                         RemoteJob   *job)
{
  g_autofree char *words = sl_slurm_describe_state (state, reason);

  g_signal_emit (job->self, signals[STATUS], 0, job->id, words);
  sl_workspace_reload_jobs (job->self->workspace);
}

static void
remote_progress_cb (SlRemoteRun              *run,
                    const SlTransferProgress *progress,
                    RemoteJob                *job)
{
  g_autofree char *done = g_format_size (progress->bytes_done);
  g_autofree char *total = g_format_size (progress->bytes_total);
  g_autofree char *rate = g_format_size ((guint64)progress->bytes_per_second);
  g_autofree char *status = NULL;

  if (progress->seconds_left >= 0)
    status = g_strdup_printf (_("uploading %llu of %llu files, %s of %s, %s/s, %d s left"),
                              (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                              done, total, rate, (int)(progress->seconds_left + 0.5));
  else
    status = g_strdup_printf (_("uploading %llu of %llu files, %s of %s"),
                              (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                              done, total);
  g_signal_emit (job->self, signals[STATUS], 0, job->id, status);
}

static void
remote_run_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  RemoteJob *job = user_data;
  g_autoptr(SlJobController) self = g_object_ref (job->self);
  SlRemoteRun *run = SL_REMOTE_RUN (object);
  g_autoptr(GError) error = NULL;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  int exit_code = -1;
  gboolean ok = sl_remote_run_execute_finish (run, result, &status, &exit_code, &error);
  gboolean console_job = job->task == NULL;
  g_autofree char *reason = NULL;

  g_signal_handlers_disconnect_by_data (run, job);
  if (console_job)
    {
      self->remote_done = TRUE;
      self->remote_status = status;
      self->remote_exit_code = exit_code;
      g_clear_error (&self->remote_error);
      if (!ok)
        self->remote_error = g_error_copy (error);
    }
  job->status = status;
  job->exit_code = exit_code;

  if (!ok)
    reason = g_strdup (error->message);
  else if (sl_remote_run_get_stopped (run))
    reason = status == SL_JOB_STATUS_EXITED
      ? g_strdup_printf (_("stopped: the job ended on the target with exit code %d"), exit_code)
      : g_strdup (_("stopped: the job is gone from the target"));
  else if (status != SL_JOB_STATUS_EXITED)
    {
      g_autofree char *why = sl_remote_run_dup_lost_reason (run);

      reason = g_strdup_printf (_("ended without an exit code (%s)"), why);
    }
  else if (sl_remote_run_explain_exit (exit_code) != NULL)
    g_signal_emit (self, signals[MESSAGE], 0, job->id, sl_remote_run_explain_exit (exit_code));

  if (reason != NULL)
    exit_code = -1;

  g_ptr_array_remove (self->remote_jobs, job);
  if (console_job)
    {
      g_clear_object (&self->remote_run);
      g_clear_object (&self->remote_cancellable);
    }
  sl_workspace_reload_jobs (self->workspace);
  notify_running (self);
  /* A workflow's job ends with the workflow's verdict: sl_job_controller_end_job(). */
  if (console_job)
    g_signal_emit (self, signals[FINISHED], 0, job->id, exit_code, reason);
  else if (reason != NULL)
    g_signal_emit (self, signals[MESSAGE], 0, job->id, reason);

  if (job->task != NULL)
    {
      JobEnd *end = g_task_get_task_data (job->task);

      /* The caller hears how the run ended, as sl_remote_run_execute() says it. */
      end->status = status;
      end->exit_code = job->exit_code;
      if (ok)
        g_task_return_boolean (job->task, TRUE);
      else
        g_task_return_error (job->task, g_steal_pointer (&error));
    }
  remote_job_free (job);
}

/* Connects to @run, starts it, and reports it as a job of the controller. */
static RemoteJob *
start_remote_job (SlJobController *self,
                  SlRemoteRun     *run,
                  const char      *title,
                  const char      *command_line,
                  GCancellable    *cancellable,
                  GTask           *task)
{
  RemoteJob *job = g_new0 (RemoteJob, 1);

  job->self = g_object_ref (self);
  job->id = ++self->last_job;
  job->run = g_object_ref (run);
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  job->task = task != NULL ? g_object_ref (task) : NULL;
  job->status = SL_JOB_STATUS_LOST;
  job->exit_code = -1;
  g_ptr_array_add (self->remote_jobs, job);

  g_signal_connect (run, "message", G_CALLBACK (remote_message_cb), job);
  g_signal_connect (run, "log", G_CALLBACK (remote_log_cb), job);
  g_signal_connect (run, "connection", G_CALLBACK (remote_connection_cb), job);
  g_signal_connect (run, "pulled", G_CALLBACK (remote_pulled_cb), job);
  g_signal_connect (run, "job-started", G_CALLBACK (remote_job_started_cb), job);
  g_signal_connect (run, "transfer-progress", G_CALLBACK (remote_progress_cb), job);
  g_signal_connect (run, "backend-state", G_CALLBACK (remote_backend_state_cb), job);

  notify_running (self);
  g_signal_emit (self, signals[STARTED], 0, job->id, title, command_line);
  sl_remote_run_execute_async (run, job->cancellable, remote_run_done_cb, job);
  return job;
}

/* Starts @run as the Console's job. */
static void
follow_remote_run (SlJobController *self,
                   SlRemoteRun     *run,
                   const char      *title,
                   const char      *command_line)
{
  g_set_object (&self->remote_run, run);
  g_free (self->title);
  self->title = g_strdup (title);
  g_clear_object (&self->remote_cancellable);
  self->remote_cancellable = g_cancellable_new ();
  /* Known before "started" says it. */
  self->remote_job = self->last_job + 1;
  start_remote_job (self, run, title, command_line, self->remote_cancellable, NULL);
}

/**
 * sl_job_controller_follow_run_async:
 * @run: a run set up by the caller (a workflow's job), not started
 * @title: what the job is called in the Console
 * @command_line: the command, as the history and the Console show it
 * @cancellable: (nullable): stops following (sl_remote_run_request_stop()
 *   stops the job itself)
 *
 * Follows @run as a job of the controller beside the one the Console
 * follows: its start, log, messages, state and end come out as the
 * controller's signals with their own job number, and it is kept in
 * the history. @callback is called, in the thread-default main context,
 * after #SlJobController::finished.
 *
 * Returns: the job's number in the signals
 */
guint
sl_job_controller_follow_run_async (SlJobController     *self,
                                    SlRemoteRun         *run,
                                    const char          *title,
                                    const char          *command_line,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), 0);
  g_return_val_if_fail (SL_IS_REMOTE_RUN (run), 0);
  g_return_val_if_fail (title != NULL && command_line != NULL, 0);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_job_controller_follow_run_async);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, g_new0 (JobEnd, 1), g_free);
  return start_remote_job (self, run, title, command_line, cancellable, task)->id;
}

/* A run handed to the controller from another thread: the controller
 * lives in its context, so the run is started there and the thread
 * waits for its end. */
typedef struct {
  GMutex           mutex;
  GCond            cond;
  gboolean         done;
  SlJobController *self;
  SlRemoteRun     *run;
  const char      *title;
  const char      *command_line;
  guint           *job;
  gboolean         ok;
  SlJobStatus      status;
  int              exit_code;
  GError          *error;
} Handoff;

static void
handoff_followed_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      data)
{
  Handoff *handoff = data;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  int exit_code = -1;
  GError *error = NULL;
  gboolean ok = sl_job_controller_follow_run_finish (SL_JOB_CONTROLLER (source), result, &status, &exit_code, &error);

  g_mutex_lock (&handoff->mutex);
  handoff->ok = ok;
  handoff->status = status;
  handoff->exit_code = exit_code;
  handoff->error = error;
  handoff->done = TRUE;
  g_cond_signal (&handoff->cond);
  g_mutex_unlock (&handoff->mutex);
}

static gboolean
handoff_start_cb (gpointer data)
{
  Handoff *handoff = data;
  guint job;

  /* Known before "started" says it, as the Console's job is. */
  if (handoff->job != NULL)
    *handoff->job = handoff->self->last_job + 1;
  job = sl_job_controller_follow_run_async (handoff->self, handoff->run, handoff->title, handoff->command_line,
                                            NULL, handoff_followed_cb, handoff);
  if (handoff->job != NULL)
    *handoff->job = job;
  return G_SOURCE_REMOVE;
}

/**
 * sl_job_controller_follow_run_sync:
 * @context: (nullable): the main context the controller is used in,
 *   iterated by another thread meanwhile; %NULL when it is this thread's
 *   thread-default, which is then iterated here
 * @job: (out) (optional): the job's number, written in @context when it
 *   started there
 *
 * For a worker: follows @run as sl_job_controller_follow_run_async()
 * does, from another thread, and waits until it ended. Stop it with
 * sl_remote_run_request_stop(); end the job with
 * sl_job_controller_end_job() in @context.
 *
 * Returns: %FALSE when the run failed before an exit code (with @error)
 */
gboolean
sl_job_controller_follow_run_sync (SlJobController  *self,
                                   GMainContext     *context,
                                   SlRemoteRun      *run,
                                   const char       *title,
                                   const char       *command_line,
                                   guint            *job,
                                   SlJobStatus      *status,
                                   int              *exit_code,
                                   GError          **error)
{
  Handoff handoff = { 0 };

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SL_IS_REMOTE_RUN (run), FALSE);

  g_mutex_init (&handoff.mutex);
  g_cond_init (&handoff.cond);
  handoff.self = self;
  handoff.run = run;
  handoff.title = title;
  handoff.command_line = command_line;
  handoff.job = job;

  if (context == NULL)
    {
      handoff_start_cb (&handoff);
      while (!handoff.done)
        g_main_context_iteration (g_main_context_get_thread_default (), TRUE);
    }
  else
    {
      sl_main_context_dispatch (context, handoff_start_cb, &handoff, NULL);
      g_mutex_lock (&handoff.mutex);
      while (!handoff.done)
        g_cond_wait (&handoff.cond, &handoff.mutex);
      g_mutex_unlock (&handoff.mutex);
    }
  g_mutex_clear (&handoff.mutex);
  g_cond_clear (&handoff.cond);

  if (status != NULL)
    *status = handoff.status;
  if (exit_code != NULL)
    *exit_code = handoff.exit_code;
  if (!handoff.ok)
    {
      g_propagate_error (error, handoff.error);
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_job_controller_end_job:
 * @job: a job of sl_job_controller_follow_run_async() whose run ended
 * @exit_code: the job's, or -1 when the run failed whatever it was
 * @reason: (nullable): why it did not end well, when the code does not say
 *
 * Ends @job as its owner judged the run (the program may have exited
 * with 0 in a run that failed): the history is read again and
 * #SlJobController::finished says it.
 */
void
sl_job_controller_end_job (SlJobController *self,
                           guint            job,
                           int              exit_code,
                           const char      *reason)
{
  g_return_if_fail (SL_IS_JOB_CONTROLLER (self));
  g_return_if_fail (job > 0);

  sl_workspace_reload_jobs (self->workspace);
  g_signal_emit (self, signals[FINISHED], 0, job, exit_code, reason);
}

/**
 * sl_job_controller_follow_run_finish:
 *
 * Answers as sl_remote_run_execute() does.
 *
 * Returns: %FALSE when the run failed before an exit code (with @error)
 */
gboolean
sl_job_controller_follow_run_finish (SlJobController  *self,
                                     GAsyncResult     *result,
                                     SlJobStatus      *status,
                                     int              *exit_code,
                                     GError          **error)
{
  JobEnd *end;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  end = g_task_get_task_data (G_TASK (result));
  if (status != NULL)
    *status = end->status;
  if (exit_code != NULL)
    *exit_code = end->exit_code;
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sl_job_controller_run_on_target:
 * @target_id: an SSH target of the workspace
 * @project_dir: the local folder uploaded and run in
 * @pull_dirs: (nullable): output folders under it, space-separated
 * @remote_dir: (nullable): where it goes on the target (default: under the
 *   target's base folder)
 * @excludes: (nullable): patterns not to upload, instead of the defaults
 *
 * Uploads @project_dir, starts @command_line there as a detached job,
 * streams its log and pulls the output folders while it runs.
 *
 * Returns: %TRUE when the run began
 */
gboolean
sl_job_controller_run_on_target (SlJobController     *self,
                                 gint64               target_id,
                                 const char          *command_line,
                                 const char          *project_dir,
                                 const char          *pull_dirs,
                                 const char          *remote_dir,
                                 const char * const  *excludes,
                                 GError             **error)
{
  return sl_job_controller_run_on_target_full (self, target_id, command_line, project_dir, pull_dirs, remote_dir,
                                               excludes, NULL, error);
}

/**
 * sl_job_controller_run_on_target_full:
 * @slurm: (nullable): submit the job to Slurm with these options (the
 *   target is a login node, or this computer with Slurm on its PATH);
 *   %NULL starts it directly
 *
 * sl_job_controller_run_on_target(), with the choice of backend.
 *
 * Returns: %TRUE when the run began
 */
gboolean
sl_job_controller_run_on_target_full (SlJobController      *self,
                                      gint64                target_id,
                                      const char           *command_line,
                                      const char           *project_dir,
                                      const char           *pull_dirs,
                                      const char           *remote_dir,
                                      const char * const   *excludes,
                                      const SlSlurmOptions *slurm,
                                      GError              **error)
{
  SlTargetRecord *record;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) pulls = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);
  g_return_val_if_fail (command_line != NULL && project_dir != NULL, FALSE);

  if (sl_job_controller_is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("The Console is following another job; stop it or wait for it to end"));
      return FALSE;
    }
  if (!g_shell_parse_argv (command_line, NULL, &argv, error))
    return FALSE;
  if (pull_dirs != NULL && pull_dirs[0] != '\0' && !g_shell_parse_argv (pull_dirs, NULL, &pulls, error))
    return FALSE;

  if (!sl_workspace_has_store (self->workspace) ||
      !(record = sl_workspace_lookup_target (self->workspace, target_id)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("That target is no longer in the workspace"));
      return FALSE;
    }
  if (!(target = sl_target_new_from_record (record, error)))
    return FALSE;

  run = sl_remote_run_new (target, project_dir, (const char * const *)argv);
  sl_remote_run_set_pull_dirs (run, (const char * const *)pulls);
  sl_remote_run_set_remote_dir (run, remote_dir);
  if (excludes != NULL && excludes[0] != NULL)
    sl_remote_run_set_excludes (run, excludes);
  sl_remote_run_set_store_path (run, sl_workspace_get_db_path (self->workspace));
  sl_remote_run_set_slurm_options (run, slurm);

  /* TRANSLATORS: the Console's title for a job; the first %s is a command, the second a target */
  title = g_strdup_printf (_("%s on %s"), argv[0], sl_target_get_name (target));
  follow_remote_run (self, run, title, command_line);
  return TRUE;
}

/**
 * sl_job_controller_follow_again:
 * @job: a job of the history that was started detached and has not
 *   ended, such as a Slurm job submitted before Sightline was closed
 *
 * Follows @job again as if it had just started: its log into the
 * Console from the start, its state, and its end into the history.
 *
 * Returns: %TRUE when following began
 */
gboolean
sl_job_controller_follow_again (SlJobController  *self,
                                SlJobRecord      *job,
                                GError          **error)
{
  SlTargetRecord *record;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SL_IS_JOB_RECORD (job), FALSE);

  if (sl_job_controller_is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("The Console is following another job; stop it or wait for it to end"));
      return FALSE;
    }
  if (sl_job_record_get_log_path (job) == NULL || sl_job_state_is_finished (sl_job_record_get_state (job)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("That job has ended or kept no log"));
      return FALSE;
    }
  if (!sl_workspace_has_store (self->workspace) ||
      !(record = sl_workspace_lookup_target (self->workspace, sl_job_record_get_target_id (job))))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The job’s target is no longer in the workspace"));
      return FALSE;
    }
  if (!(target = sl_target_new_from_record (record, error)))
    return FALSE;

  run = sl_remote_run_new_for_record (target, job);
  sl_remote_run_set_store_path (run, sl_workspace_get_db_path (self->workspace));
  title = g_strdup_printf (_("%s on %s"), sl_job_record_get_command (job), sl_target_get_name (target));
  follow_remote_run (self, run, title, sl_job_record_get_command (job));
  return TRUE;
}

/**
 * sl_job_controller_follow_unfinished:
 *
 * Follows again the newest Slurm job of the history that had not ended
 * when Sightline was closed, if there is one.
 *
 * Returns: %TRUE when one is followed
 */
gboolean
sl_job_controller_follow_unfinished (SlJobController *self)
{
  GListModel *jobs;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);

  if (sl_job_controller_is_running (self))
    return FALSE;
  jobs = sl_workspace_get_jobs (self->workspace);
  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (jobs, i);

      if (!sl_job_record_is_slurm (job) || sl_job_state_is_finished (sl_job_record_get_state (job)) ||
          sl_job_record_get_log_path (job) == NULL)
        continue;
      if (sl_job_controller_follow_again (self, job, &error))
        return TRUE;
      g_warning ("Could not follow job %lld again: %s", (long long)sl_job_record_get_id (job), error->message);
      g_clear_error (&error);
    }
  return FALSE;
}

/**
 * sl_job_controller_get_remote_job_id:
 *
 * Returns: the history id of the job on a target being followed, or 0
 */
gint64
sl_job_controller_get_remote_job_id (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), 0);

  if (self->remote_run == NULL || !sl_job_controller_is_running (self))
    return 0;
  return sl_remote_run_get_job_id (self->remote_run);
}

/**
 * sl_job_controller_run_remote_sync:
 * @run: a run set up by the caller (detached, compared by content, ...)
 * @command_line: the command, as the history and the Console show it
 *
 * Follows @run as sl_job_controller_run_on_target() does, for programs
 * without a main loop: iterates the thread-default main context until
 * the run ends, and answers as sl_remote_run_execute() does.
 *
 * Returns: %FALSE when the run failed before an exit code (with @error)
 */
gboolean
sl_job_controller_run_remote_sync (SlJobController  *self,
                                   SlRemoteRun      *run,
                                   const char       *command_line,
                                   SlJobStatus      *status,
                                   int              *exit_code,
                                   GError          **error)
{
  g_autofree char *title = NULL;
  GMainContext *context = g_main_context_ref_thread_default ();

  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SL_IS_REMOTE_RUN (run), FALSE);

  if (sl_job_controller_is_running (self))
    {
      g_main_context_unref (context);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("Another job is being followed"));
      return FALSE;
    }

  title = g_strdup (sl_target_get_name (sl_remote_run_get_target (run)));
  self->remote_done = FALSE;
  follow_remote_run (self, run, title, command_line);
  while (!self->remote_done)
    g_main_context_iteration (context, TRUE);
  g_main_context_unref (context);

  if (status != NULL)
    *status = self->remote_status;
  if (exit_code != NULL)
    *exit_code = self->remote_exit_code;
  if (self->remote_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->remote_error));
      return FALSE;
    }
  return TRUE;
}

guint
sl_job_controller_get_console_job (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), 0);

  if (self->subprocess != NULL)
    return self->local_job;
  return self->remote_run != NULL ? self->remote_job : 0;
}

guint
sl_job_controller_get_n_jobs (SlJobController *self)
{
  g_return_val_if_fail (SL_IS_JOB_CONTROLLER (self), 0);

  return self->remote_jobs->len + (self->subprocess != NULL ? 1 : 0);
}

/**
 * sl_job_controller_stop:
 *
 * Stops the job followed: a local program is killed; before a remote job
 * started the upload is cancelled, after it the job is stopped on the
 * server (SIGTERM, then SIGKILL).
 */
void
sl_job_controller_stop (SlJobController *self)
{
  g_return_if_fail (SL_IS_JOB_CONTROLLER (self));

  /* The run decides, on its worker, whether the job had started: there
   * is no moment at which this thread could know it for sure. */
  if (self->subprocess != NULL)
    g_subprocess_force_exit (self->subprocess);
  else if (self->remote_run != NULL)
    sl_remote_run_request_stop (self->remote_run);
}

/**
 * sl_job_controller_stop_job:
 * @job: a job's number, from its signals
 *
 * Stops that job as sl_job_controller_stop() stops the Console's; a job
 * that ended is left alone.
 */
void
sl_job_controller_stop_job (SlJobController *self,
                            guint            job)
{
  g_return_if_fail (SL_IS_JOB_CONTROLLER (self));

  if (job == 0)
    return;
  if (self->subprocess != NULL && job == self->local_job)
    {
      g_subprocess_force_exit (self->subprocess);
      return;
    }
  for (guint i = 0; i < self->remote_jobs->len; i++)
    {
      RemoteJob *followed = g_ptr_array_index (self->remote_jobs, i);

      if (followed->id == job)
        sl_remote_run_request_stop (followed->run);
    }
}

/* Logs of old jobs */

typedef struct {
  SlTarget *target;
  char     *log_path;
} LogRead;

static void
log_read_free (gpointer data)
{
  LogRead *read = data;

  g_clear_object (&read->target);
  g_free (read->log_path);
  g_free (read);
}

static void
read_log_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  LogRead *read = task_data;
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_for_target (read->target);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size, offset;
  GBytes *bytes;

  /* The end of a long log is what people look for. */
  if (!(info = sl_target_shell_stat (shell, read->log_path, cancellable, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  size = (guint64)g_file_info_get_size (info);
  offset = size > JOB_LOG_TAIL_BYTES ? size - JOB_LOG_TAIL_BYTES : 0;
  bytes = sl_target_shell_read (shell, read->log_path, offset, size - offset, cancellable, &error);

  if (bytes == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify)g_bytes_unref);
}

/**
 * sl_job_controller_read_log_async:
 * @job: a job of the history
 *
 * Reads the end of @job's log, from its server for a remote job, in a
 * worker.
 */
void
sl_job_controller_read_log_async (SlJobController     *self,
                                  SlJobRecord         *job,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LogRead *read;

  g_return_if_fail (SL_IS_JOB_CONTROLLER (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_job_controller_read_log_async);

  if (sl_job_record_get_log_path (job) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This job kept no log"));
      return;
    }

  read = g_new0 (LogRead, 1);
  read->log_path = g_strdup (sl_job_record_get_log_path (job));
  if (sl_job_record_get_target_id (job) > 0 &&
      sl_job_record_get_target_id (job) != sl_workspace_get_local_target_id (self->workspace))
    {
      SlTargetRecord *record = sl_workspace_lookup_target (self->workspace, sl_job_record_get_target_id (job));

      /* Reading a server's path here would only mislead. */
      if (record == NULL || !(read->target = sl_target_new_from_record (record, NULL)))
        {
          log_read_free (read);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                   _("The job’s target is no longer in the workspace"));
          return;
        }
    }
  else
    read->target = sl_local_target_new ();

  g_task_set_task_data (task, read, log_read_free);
  g_task_run_in_thread (task, read_log_thread);
}

/**
 * sl_job_controller_read_log_finish:
 *
 * Returns: (transfer full): the end of the log
 */
GBytes *
sl_job_controller_read_log_finish (SlJobController  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* GObject */

static void
sl_job_controller_dispose (GObject *object)
{
  SlJobController *self = (SlJobController *)object;

  g_clear_handle_id (&self->drain_source, g_source_remove);
  /* A job on a server goes on without us; only following it stops. */
  if (self->remote_cancellable != NULL)
    g_cancellable_cancel (self->remote_cancellable);
  if (self->read_cancellable != NULL)
    g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->remote_cancellable);
  g_clear_object (&self->remote_run);

  G_OBJECT_CLASS (sl_job_controller_parent_class)->dispose (object);
}

static void
sl_job_controller_finalize (GObject *object)
{
  SlJobController *self = (SlJobController *)object;

  g_clear_object (&self->workspace);
  g_clear_object (&self->subprocess);
  g_clear_object (&self->record);
  g_clear_object (&self->read_cancellable);
  g_clear_error (&self->remote_error);
  g_clear_pointer (&self->remote_jobs, g_ptr_array_unref);
  g_free (self->working_dir);
  g_free (self->title);

  G_OBJECT_CLASS (sl_job_controller_parent_class)->finalize (object);
}

static void
sl_job_controller_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SlJobController *self = SL_JOB_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, sl_job_controller_is_running (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_job_controller_class_init (SlJobControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_job_controller_dispose;
  object_class->finalize = sl_job_controller_finalize;
  object_class->get_property = sl_job_controller_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Each signal's first argument is the job's number, given when it
   * started: jobs followed at once tell theirs apart by it. */
  /* job, title, command line */
  signals[STARTED] = g_signal_new ("started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING);
  /* job, what it wrote */
  signals[OUTPUT] = g_signal_new ("output", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BYTES);
  /* job, a note about it, not its output */
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  /* job, a short state: running, reconnecting, upload progress */
  signals[STATUS] = g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  /* job, local folder, files changed */
  signals[PULLED] = g_signal_new ("pulled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_UINT);
  /* job, exit code (-1 for none), why it has none (or NULL) */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_INT, G_TYPE_STRING);
}

static void
sl_job_controller_init (SlJobController *self)
{
  /* A job's entry goes when its run ended, in remote_run_done_cb(). */
  self->remote_jobs = g_ptr_array_new ();
}

SlJobController *
sl_job_controller_new (SlWorkspace *workspace)
{
  SlJobController *self;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  self = g_object_new (SL_TYPE_JOB_CONTROLLER, NULL);
  self->workspace = g_object_ref (workspace);
  return self;
}
