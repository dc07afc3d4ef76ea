/* sl-remote-run.c
 *
 * One path for `sightline-cli job run` and the window's Run: upload the
 * project (incrementally), start the command as a detached job under the
 * target's base folder, follow its log from the last offset (so a dropped
 * connection neither loses nor repeats output), pull the chosen output
 * folders into the cache every few seconds, and record the job in the
 * workspace database. Events are signals emitted in the context that
 * called execute (or execute_async), so a window can show them directly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-cache.h"
#include "sl-direct-job-backend.h"
#include "sl-folder-puller.h"
#include "sl-local-target.h"
#include "sl-project-upload.h"
#include "sl-slurm-job-backend.h"
#include "sl-slurm-state.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-ssh-target.h"
#include "sl-target-shell.h"
#include "sl-transfer.h"
#include "sl-workspace-store.h"

#define DEFAULT_PULL_INTERVAL_MS 3000
#define POLL_PAUSE_US            (300 * G_TIME_SPAN_MILLISECOND)
#define STOP_GRACE_SECONDS       10
/* After SIGTERM and SIGKILL, how long the job may take to be seen gone
 * before the run says it may still be running. */
#define STOP_CONFIRM_SECONDS     30

struct _SlRemoteRun
{
  GObject        parent_instance;

  SlTarget      *target;
  char          *project_dir;
  char         **argv;
  char          *remote_dir;
  char         **pull_dirs;
  char         **fresh_dirs;
  char         **excludes;
  char          *store_path;
  char          *env_setup;
  gboolean       compare_content;
  gboolean       detach;
  guint          reconnect_limit;
  guint          pull_interval_ms;
  SlSlurmOptions *slurm;          /* NULL: started directly */
  SlJobRecord   *resumed;         /* a job of the history followed again */
  char          *job_id_text;     /* the job folder's name, shown before it runs */

  /* While executing */
  GMainContext  *context;         /* where signals are emitted */
  gboolean       in_thread;
  gint           stop_requested;  /* atomic */
  gint           stopped;         /* atomic: a stop was sent and the job ended */
  gint           started;         /* atomic: the job was launched */
  gint           disk_full;       /* atomic: seen at the job's end */
  GCancellable  *setup_cancellable; /* what comes before the job starts */
  gint64         job_id;
  char          *log_path;
  GPtrArray     *local_pull_dirs;
  GPtrArray     *set_aside;       /* where the fresh folders' earlier content went */
  GMutex         mutex;
};

G_DEFINE_FINAL_TYPE (SlRemoteRun, sl_remote_run, G_TYPE_OBJECT)

enum {
  MESSAGE,
  LOG,
  CONNECTION,
  TRANSFER_PROGRESS,
  JOB_STARTED,
  PULLED,
  BACKEND_STATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Emitting from the worker */

typedef struct {
  SlRemoteRun        *self;
  guint               signal;
  char               *text;
  char               *text2;
  GBytes             *bytes;
  gint64              number;
  SlTransferProgress  progress;
} Event;

static void
event_free (gpointer data)
{
  Event *event = data;

  g_object_unref (event->self);
  g_free (event->text);
  g_free (event->text2);
  g_clear_pointer (&event->bytes, g_bytes_unref);
  g_free ((char *)event->progress.current);
  g_free (event);
}

static gboolean
event_emit_cb (gpointer data)
{
  Event *event = data;

  switch (event->signal)
    {
    case MESSAGE:
      g_signal_emit (event->self, signals[MESSAGE], 0, event->text);
      break;
    case LOG:
      g_signal_emit (event->self, signals[LOG], 0, event->bytes);
      break;
    case CONNECTION:
      g_signal_emit (event->self, signals[CONNECTION], 0, (int)event->number, event->text);
      break;
    case TRANSFER_PROGRESS:
      g_signal_emit (event->self, signals[TRANSFER_PROGRESS], 0, &event->progress);
      break;
    case JOB_STARTED:
      g_signal_emit (event->self, signals[JOB_STARTED], 0, event->number, event->text, event->text2);
      break;
    case PULLED:
      g_signal_emit (event->self, signals[PULLED], 0, event->text, (guint)event->number);
      break;
    case BACKEND_STATE:
      g_signal_emit (event->self, signals[BACKEND_STATE], 0, event->text, event->text2);
      break;
    default:
      g_assert_not_reached ();
    }
  return G_SOURCE_REMOVE;
}

static Event *
event_new (SlRemoteRun *self,
           guint        signal)
{
  Event *event = g_new0 (Event, 1);

  event->self = g_object_ref (self);
  event->signal = signal;
  return event;
}

/* In the calling thread at once; from a worker, in the caller's context. */
static void
dispatch (Event *event)
{
  if (!event->self->in_thread)
    {
      event_emit_cb (event);
      event_free (event);
      return;
    }
  sl_main_context_dispatch (event->self->context, event_emit_cb, event, event_free);
}

static void
emit_message (SlRemoteRun *self,
              const char  *format,
              ...) G_GNUC_PRINTF (2, 3);

static void
emit_message (SlRemoteRun *self,
              const char  *format,
              ...)
{
  Event *event = event_new (self, MESSAGE);
  va_list args;

  va_start (args, format);
  event->text = g_strdup_vprintf (format, args);
  va_end (args);
  dispatch (event);
}

static void
log_cb (GBytes   *data,
        guint64   offset,
        gpointer  user_data)
{
  Event *event = event_new (user_data, LOG);

  event->bytes = g_bytes_ref (data);
  dispatch (event);
}

static void
connection_cb (SlTargetShellState  state,
               const char         *detail,
               gpointer            user_data)
{
  Event *event = event_new (user_data, CONNECTION);

  event->number = state;
  event->text = g_strdup (detail);
  dispatch (event);
}

static void
progress_cb (const SlTransferProgress *progress,
             gpointer                  user_data)
{
  Event *event = event_new (user_data, TRANSFER_PROGRESS);

  event->progress = *progress;
  event->progress.current = g_strdup (progress->current);
  dispatch (event);
}

/* Targets */

/**
 * sl_target_new_from_record:
 *
 * Returns: (transfer full): the target a workspace database row describes
 */
SlTarget *
sl_target_new_from_record (SlTargetRecord  *record,
                           GError         **error)
{
  SlTarget *target;

  g_return_val_if_fail (SL_IS_TARGET_RECORD (record), NULL);

  if (sl_target_record_get_kind (record) == SL_TARGET_KIND_SSH)
    target = sl_ssh_target_new_from_record (record, error);
  else
    target = sl_local_target_new ();

  if (target != NULL)
    {
      sl_target_set_id (target, sl_target_record_get_id (record));
      sl_target_set_name (target, sl_target_record_get_name (record));
    }
  return target;
}

/**
 * sl_target_dup_job_base_dir:
 *
 * Returns: (transfer full): the folder jobs of @target live under: the
 *   SSH target's base folder (home when unset), or a cache folder here
 */
char *
sl_target_dup_job_base_dir (SlTarget *target)
{
  if (SL_IS_SSH_TARGET (target))
    {
      const char *base = sl_ssh_target_get_base_dir (SL_SSH_TARGET (target));

      return g_strdup (base != NULL && base[0] != '\0' ? base : "~");
    }
  return g_build_filename (g_get_user_cache_dir (), "sightline", "local-jobs", NULL);
}

/**
 * sl_target_dup_project_base_dir:
 *
 * Returns: (transfer full) (nullable): the folder projects are uploaded
 *   into on @target, each into a folder named as its own: the SSH
 *   target's folder for projects, "~/sightline" when unset; %NULL for
 *   this computer, where a project runs where it is
 */
char *
sl_target_dup_project_base_dir (SlTarget *target)
{
  const char *base;

  if (!SL_IS_SSH_TARGET (target))
    return NULL;
  base = sl_ssh_target_get_base_dir (SL_SSH_TARGET (target));
  return g_strdup (base != NULL && base[0] != '\0' ? base : "~/sightline");
}

/**
 * sl_target_get_env_setup:
 *
 * Returns: (nullable): the command run before every job on @target
 */
const char *
sl_target_get_env_setup (SlTarget *target)
{
  return SL_IS_SSH_TARGET (target) ? sl_ssh_target_get_env_setup (SL_SSH_TARGET (target)) : NULL;
}

/* The target's own set-up first, then the run's (a workflow's
 * environment script), so the run's can rely on the target's. */
static char *
dup_env_setup (SlRemoteRun *self)
{
  const char *target_setup = sl_target_get_env_setup (self->target);

  if (target_setup != NULL && self->env_setup != NULL)
    return g_strconcat (target_setup, "\n", self->env_setup, NULL);
  return g_strdup (self->env_setup != NULL ? self->env_setup : target_setup);
}

/* One job id from the first preview to the launch, so the script and
 * command shown are the ones that run. */
static SlJob *
new_job (SlRemoteRun *self,
         const char  *working_dir,
         const char  *base_dir)
{
  g_autofree char *env_setup = dup_env_setup (self);
  SlJob *job;

  if (self->job_id_text == NULL)
    self->job_id_text = sl_job_dup_new_id ();
  job = sl_job_new_with_id ((const char * const *)self->argv, working_dir, base_dir, self->job_id_text);
  sl_job_set_env_setup (job, env_setup);
  return job;
}

static gboolean
is_local (SlRemoteRun *self)
{
  return !SL_IS_SSH_TARGET (self->target);
}

static void
ensure_remote_dir (SlRemoteRun *self)
{
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;

  if (self->remote_dir != NULL)
    return;

  /* This computer runs the project where it is. */
  if (is_local (self))
    {
      self->remote_dir = g_strdup (self->project_dir);
      return;
    }
  name = g_path_get_basename (self->project_dir);
  base = sl_target_dup_project_base_dir (self->target);
  self->remote_dir = g_build_path ("/", base, name, NULL);
}

/* GObject */

static void
sl_remote_run_finalize (GObject *object)
{
  SlRemoteRun *self = SL_REMOTE_RUN (object);

  g_clear_object (&self->target);
  g_free (self->project_dir);
  g_strfreev (self->argv);
  g_free (self->remote_dir);
  g_free (self->env_setup);
  g_strfreev (self->pull_dirs);
  g_strfreev (self->fresh_dirs);
  g_strfreev (self->excludes);
  g_free (self->store_path);
  g_clear_pointer (&self->slurm, sl_slurm_options_free);
  g_clear_object (&self->resumed);
  g_free (self->job_id_text);
  g_free (self->log_path);
  g_clear_pointer (&self->local_pull_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->set_aside, g_ptr_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->setup_cancellable);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (sl_remote_run_parent_class)->finalize (object);
}

static void
sl_remote_run_class_init (SlRemoteRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_remote_run_finalize;

  /**
   * SlRemoteRun::message:
   * @text: what happened, as a sentence: uploaded, started, pulled
   */
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * SlRemoteRun::log:
   * @data: the next bytes of the job's output, in order, each once
   */
  signals[LOG] = g_signal_new ("log", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                               NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BYTES);
  /**
   * SlRemoteRun::connection:
   * @state: an #SlTargetShellState (reconnecting, connected, gave up)
   */
  signals[CONNECTION] = g_signal_new ("connection", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
  /**
   * SlRemoteRun::transfer-progress:
   * @progress: (type gpointer): the upload's #SlTransferProgress, valid
   *   during the emission
   */
  signals[TRANSFER_PROGRESS] = g_signal_new ("transfer-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /**
   * SlRemoteRun::job-started:
   * @job_id: its id in the job history (0 without a database)
   * @remote_dir: where it runs
   * @log_path: its log on the target
   */
  signals[JOB_STARTED] = g_signal_new ("job-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * SlRemoteRun::pulled:
   * @local_dir: the cache folder a remote output folder is mirrored into
   * @n_changed: files written by this pull
   */
  signals[PULLED] = g_signal_new ("pulled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_UINT);
  /**
   * SlRemoteRun::backend-state:
   * @state: the scheduler's state word (PENDING, RUNNING, ...)
   * @reason: (nullable): its reason, such as why the job waits
   *
   * Emitted when a batch job's state or reason changes.
   */
  signals[BACKEND_STATE] = g_signal_new ("backend-state", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
sl_remote_run_init (SlRemoteRun *self)
{
  g_mutex_init (&self->mutex);
  self->pull_interval_ms = DEFAULT_PULL_INTERVAL_MS;
  self->reconnect_limit = SL_TARGET_SHELL_DEFAULT_RECONNECT_SECONDS;
  self->local_pull_dirs = g_ptr_array_new_with_free_func (g_free);
  self->set_aside = g_ptr_array_new_with_free_func (g_free);
  self->setup_cancellable = g_cancellable_new ();
}

/**
 * sl_remote_run_new:
 * @target: where to run (an SSH target, or Local)
 * @project_dir: the local project folder, uploaded first (Local runs it
 *   in place)
 * @argv: the command and its arguments
 */
SlRemoteRun *
sl_remote_run_new (SlTarget           *target,
                   const char         *project_dir,
                   const char * const *argv)
{
  SlRemoteRun *self;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (project_dir != NULL, NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self = g_object_new (SL_TYPE_REMOTE_RUN, NULL);
  self->target = g_object_ref (target);
  self->project_dir = g_canonicalize_filename (project_dir, NULL);
  self->argv = g_strdupv ((char **)argv);
  return self;
}

void
sl_remote_run_set_remote_dir (SlRemoteRun *self,
                              const char  *remote_dir)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_free (self->remote_dir);
  self->remote_dir = remote_dir && remote_dir[0] ? g_strdup (remote_dir) : NULL;
}

void
sl_remote_run_set_pull_dirs (SlRemoteRun        *self,
                             const char * const *pull_dirs)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_strfreev (self->pull_dirs);
  self->pull_dirs = g_strdupv ((char **)pull_dirs);
}

/**
 * sl_remote_run_set_fresh_dirs:
 * @fresh_dirs: (nullable): folders the job writes, relative to the run
 *   folder or absolute, that must start empty
 *
 * Each of them that is already there, left by an earlier job, is moved
 * aside before the job starts (to NAME.earlier-TIME, said in a message),
 * and so is the copy pulled of it onto this computer: the job's output
 * is never mixed with another's, and nothing is deleted.
 */
void
sl_remote_run_set_fresh_dirs (SlRemoteRun        *self,
                              const char * const *fresh_dirs)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_strfreev (self->fresh_dirs);
  self->fresh_dirs = g_strdupv ((char **)fresh_dirs);
}

void
sl_remote_run_set_excludes (SlRemoteRun        *self,
                            const char * const *excludes)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_strfreev (self->excludes);
  self->excludes = g_strdupv ((char **)excludes);
}

/**
 * sl_remote_run_set_env_setup:
 * @env_setup: (nullable): shell lines run before the command, after the
 *   target's own set-up (sourcing a toolkit's set_env.sh, exports)
 */
void
sl_remote_run_set_env_setup (SlRemoteRun *self,
                             const char  *env_setup)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_free (self->env_setup);
  self->env_setup = env_setup && env_setup[0] ? g_strdup (env_setup) : NULL;
}

void
sl_remote_run_set_compare_content (SlRemoteRun *self,
                                   gboolean     compare_content)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  self->compare_content = !!compare_content;
}

void
sl_remote_run_set_detach (SlRemoteRun *self,
                          gboolean     detach)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  self->detach = !!detach;
}

/**
 * sl_remote_run_set_slurm_options:
 * @options: (nullable): submit the job to Slurm with these; %NULL starts
 *   it directly
 */
void
sl_remote_run_set_slurm_options (SlRemoteRun          *self,
                                 const SlSlurmOptions *options)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_clear_pointer (&self->slurm, sl_slurm_options_free);
  if (options != NULL)
    self->slurm = sl_slurm_options_copy (options);
}

const SlSlurmOptions *
sl_remote_run_get_slurm_options (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);
  return self->slurm;
}

/**
 * sl_remote_run_new_for_record:
 * @target: where the job runs
 * @record: a job of the history that has not ended, started detached
 *
 * Returns: (transfer full): a run that follows @record again, as after a
 *   restart: no upload, no launch; its log from the start, its end saved
 */
SlRemoteRun *
sl_remote_run_new_for_record (SlTarget    *target,
                              SlJobRecord *record)
{
  const char * const argv[] = { sl_job_record_get_command (record), NULL };
  const char *folder;
  SlRemoteRun *self;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (SL_IS_JOB_RECORD (record), NULL);
  g_return_val_if_fail (sl_job_record_get_log_path (record) != NULL, NULL);

  folder = sl_job_record_get_remote_folder (record);
  self = sl_remote_run_new (target, folder != NULL ? folder : "/", argv);
  self->resumed = g_object_ref (record);
  g_free (self->remote_dir);
  self->remote_dir = g_strdup (folder);
  self->job_id = sl_job_record_get_id (record);
  if (sl_job_record_is_slurm (record))
    self->slurm = sl_slurm_options_new ();
  return self;
}

/**
 * sl_remote_run_set_store_path:
 * @db_path: (nullable): the workspace database that keeps the job history
 */
void
sl_remote_run_set_store_path (SlRemoteRun *self,
                              const char  *db_path)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_free (self->store_path);
  self->store_path = g_strdup (db_path);
}

void
sl_remote_run_set_reconnect_limit (SlRemoteRun *self,
                                   guint        seconds)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  self->reconnect_limit = seconds;
}

void
sl_remote_run_set_pull_interval (SlRemoteRun *self,
                                 guint        milliseconds)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  self->pull_interval_ms = MAX (milliseconds, 100);
}

SlTarget *
sl_remote_run_get_target (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);
  return self->target;
}

const char *
sl_remote_run_get_remote_dir (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);
  ensure_remote_dir (self);
  return self->remote_dir;
}

gint64
sl_remote_run_get_job_id (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), 0);
  return self->job_id;
}

const char *
sl_remote_run_get_log_path (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);
  return self->log_path;
}

/**
 * sl_remote_run_dup_local_pull_dirs:
 *
 * Returns: (transfer full): the cache folders the output folders are
 *   pulled into (known once the job started)
 */
GStrv
sl_remote_run_dup_local_pull_dirs (SlRemoteRun *self)
{
  GPtrArray *copy = g_ptr_array_new ();

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->local_pull_dirs->len; i++)
    g_ptr_array_add (copy, g_strdup (g_ptr_array_index (self->local_pull_dirs, i)));
  g_mutex_unlock (&self->mutex);
  g_ptr_array_add (copy, NULL);
  return (GStrv)g_ptr_array_free (copy, FALSE);
}

/**
 * sl_remote_run_dup_set_aside_dirs:
 *
 * Returns: (transfer full): where the earlier content of the fresh
 *   folders was moved, on the target and on this computer
 */
char **
sl_remote_run_dup_set_aside_dirs (SlRemoteRun *self)
{
  GPtrArray *copy = g_ptr_array_new ();

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->set_aside->len; i++)
    g_ptr_array_add (copy, g_strdup (g_ptr_array_index (self->set_aside, i)));
  g_mutex_unlock (&self->mutex);
  g_ptr_array_add (copy, NULL);
  return (char **)g_ptr_array_free (copy, FALSE);
}

/**
 * sl_remote_run_request_stop:
 *
 * Asks the run to stop, from any thread and at any moment. Before the
 * job started, what is under way (the upload) is cancelled and the job
 * is never started: the run fails with %G_IO_ERROR_CANCELLED. After it
 * started, the job is stopped on the target (SIGTERM to its process
 * group, SIGKILL after a grace period, or scancel) and followed until it
 * is seen to end: the run then succeeds and sl_remote_run_get_stopped()
 * is %TRUE; when its end cannot be confirmed the run fails with a message
 * that says the job may still be running and how to stop it.
 *
 * Cancelling the cancellable given to sl_remote_run_execute() is not a
 * stop: it only ends the following (a started job goes on, and can be
 * followed again).
 */
void
sl_remote_run_request_stop (SlRemoteRun *self)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_atomic_int_set (&self->stop_requested, 1);
  g_cancellable_cancel (self->setup_cancellable);
}

/**
 * sl_remote_run_get_started:
 *
 * Returns: %TRUE once the job was started on the target (or followed
 *   again): from then on it may run without anyone following it
 */
gboolean
sl_remote_run_get_started (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), FALSE);
  return g_atomic_int_get (&self->started);
}

/**
 * sl_remote_run_dup_lost_reason:
 *
 * Returns: (transfer full): why the job ended without an exit code, as
 *   far as can be told: a full disk where its folder is, or else that it
 *   was killed or the target restarted
 */
char *
sl_remote_run_dup_lost_reason (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  if (g_atomic_int_get (&self->disk_full))
    return g_strdup_printf (_("the disk holding the job’s folder on %s is full, so its exit status could not be written"),
                            sl_target_get_name (self->target));
  return g_strdup (_("killed, or the target restarted"));
}

/**
 * sl_remote_run_get_stopped:
 *
 * Returns: %TRUE when a stop was sent to the job and the job was then
 *   seen to end on the target
 */
gboolean
sl_remote_run_get_stopped (SlRemoteRun *self)
{
  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), FALSE);
  return g_atomic_int_get (&self->stopped);
}

/**
 * sl_remote_run_dup_launch_command:
 *
 * Returns: (transfer full): the exact shell command that starts the job,
 *   as shown before a configuration's first run
 */
char *
sl_remote_run_dup_launch_command (SlRemoteRun  *self,
                                  GError      **error)
{
  g_autoptr(SlJob) job = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  /* No connection: it is only text, shown while the user types. */
  ensure_remote_dir (self);
  base = sl_target_dup_job_base_dir (self->target);
  job = new_job (self, self->remote_dir, base);
  if (self->slurm != NULL)
    {
      if (!sl_slurm_options_validate (self->slurm, error))
        return NULL;
      return sl_slurm_job_backend_dup_submit_command (self->slurm, job);
    }
  return sl_direct_job_backend_dup_launch_command (job);
}

/**
 * sl_remote_run_dup_batch_script:
 *
 * Returns: (transfer full) (nullable): the batch script a Slurm run
 *   submits, as shown before it runs; %NULL for a run started directly
 */
char *
sl_remote_run_dup_batch_script (SlRemoteRun *self)
{
  g_autoptr(SlJob) job = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  if (self->slurm == NULL)
    return NULL;
  ensure_remote_dir (self);
  base = sl_target_dup_job_base_dir (self->target);
  job = new_job (self, self->remote_dir, base);
  return sl_slurm_job_backend_dup_script (self->slurm, job);
}

/**
 * sl_remote_run_dup_slurm_preview:
 * @script: (out): the batch script
 * @sbatch: (out): the sbatch call that submits it from the job folder
 *
 * Both of one job, so the job name in the script and the folder in the
 * call agree, and the script is shown once.
 *
 * Returns: %FALSE for a run started directly, or with @error set when
 *   the options cannot be submitted
 */
gboolean
sl_remote_run_dup_slurm_preview (SlRemoteRun  *self,
                                 char        **script,
                                 char        **sbatch,
                                 GError      **error)
{
  g_autoptr(SlJob) job = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), FALSE);
  g_return_val_if_fail (script != NULL && sbatch != NULL, FALSE);

  *script = *sbatch = NULL;
  if (self->slurm == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("The job is started directly"));
      return FALSE;
    }
  if (!sl_slurm_options_validate (self->slurm, error))
    return FALSE;
  ensure_remote_dir (self);
  base = sl_target_dup_job_base_dir (self->target);
  job = new_job (self, self->remote_dir, base);
  *script = sl_slurm_job_backend_dup_script (self->slurm, job);
  *sbatch = sl_slurm_job_backend_dup_sbatch_command (job);
  return TRUE;
}

/**
 * sl_remote_run_explain_exit:
 *
 * Returns: (nullable): what an exit code of a shell job usually means
 */
const char *
sl_remote_run_explain_exit (int exit_code)
{
  if (exit_code == 127)
    return _("the command was not found on the target: check its name, PATH and the target’s environment setup");
  if (exit_code == 126)
    return _("the command could not be run: check the working folder and that the program is executable");
  if (exit_code == 143)
    return _("the job was stopped (SIGTERM)");
  if (exit_code == 137)
    return _("the job was killed (SIGKILL)");
  return NULL;
}

/**
 * sl_remote_run_set_interrupted_error:
 * @ran: what sl_remote_run_execute() returned
 * @job_error: (nullable): the error it set
 *
 * Says what an interrupted run made of its job, in words that say only
 * what was seen: never started, stopped and seen to end, ended on its
 * own, or possibly still running (the run's own message, which says how
 * to stop it). The error is %G_IO_ERROR_CANCELLED when nothing is left
 * running on the target.
 */
void
sl_remote_run_set_interrupted_error (SlRemoteRun  *run,
                                     gboolean      ran,
                                     SlJobStatus   status,
                                     int           exit_code,
                                     GError       *job_error,
                                     GError      **error)
{
  const char *target = sl_target_get_name (sl_remote_run_get_target (run));

  if (!ran && g_error_matches (job_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted before the job started: nothing ran on %s"), target);
  else if (!ran)
    g_propagate_error (error, g_error_copy (job_error));
  else if (sl_remote_run_get_stopped (run) && status == SL_JOB_STATUS_EXITED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted: the job was stopped on %s and has ended (exit code %d)"), target, exit_code);
  else if (sl_remote_run_get_stopped (run))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted: the job was stopped on %s and is gone"), target);
  else if (status == SL_JOB_STATUS_EXITED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after the job had ended on %s by itself (exit code %d)"), target, exit_code);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Interrupted after the job had ended on %s by itself, without an exit code"), target);
}

/* Running */

typedef struct {
  char *remote;
  char *local;
} Pull;

static void
pull_free (gpointer data)
{
  Pull *pull = data;

  g_free (pull->remote);
  g_free (pull->local);
  g_free (pull);
}

static void
pull_all (SlRemoteRun   *self,
          SlTargetShell *shell,
          GPtrArray     *pulls,
          gboolean       last)
{
  for (guint i = 0; i < pulls->len; i++)
    {
      Pull *pull = g_ptr_array_index (pulls, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(SlPullResult) result = NULL;
      Event *event;

      result = sl_folder_pull (shell, pull->remote, pull->local, NULL, NULL, NULL, &error);
      if (result == NULL)
        {
          /* Not there yet is normal while a job starts. */
          if (last || !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            emit_message (self, _("Could not pull %s: %s"), pull->remote, error->message);
          continue;
        }

      for (guint r = 0; last && r < result->refused->len; r++)
        emit_message (self, _("Left out while pulling: %s"), (const char *)g_ptr_array_index (result->refused, r));
      if (last)
        emit_message (self, _("Pulled %s into %s"), pull->remote, pull->local);

      event = event_new (self, PULLED);
      event->text = g_strdup (pull->local);
      event->number = result->changed->len;
      dispatch (event);
    }
}

/**
 * sl_job_state_for_exit:
 *
 * Returns: the job history state of a job that ended with @status
 */
SlJobState
sl_job_state_for_exit (SlJobStatus status,
                       int         exit_code)
{
  if (status == SL_JOB_STATUS_LOST)
    return SL_JOB_STATE_LOST;
  return exit_code == 0 ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED;
}

/* The history's state for a batch job that ended: Slurm's word decides
 * between cancelled and failed, the exit code between failed and not. */
static SlJobState
state_for_slurm_end (SlJob       *job,
                     SlJobStatus  status,
                     int          exit_code)
{
  const char *word = sl_job_get_backend_state (job);

  if (g_strcmp0 (word, "CANCELLED") == 0)
    return SL_JOB_STATE_CANCELLED;
  if (word != NULL && status == SL_JOB_STATUS_EXITED && !g_str_equal (word, "COMPLETED"))
    return SL_JOB_STATE_FAILED;
  return sl_job_state_for_exit (status, exit_code);
}

/* The history's state for a job that ended: a job stopped on request
 * was cancelled, whatever its exit code says. */
static SlJobState
end_state (SlRemoteRun *self,
           SlJob       *job,
           SlJobStatus  status,
           int          exit_code)
{
  if (g_atomic_int_get (&self->stopped))
    return SL_JOB_STATE_CANCELLED;
  if (self->slurm != NULL)
    return state_for_slurm_end (job, status, exit_code);
  return sl_job_state_for_exit (status, exit_code);
}

static void
save_backend_state (SlRemoteRun      *self,
                    SlWorkspaceStore *store,
                    SlJobRecord      *record,
                    SlJob            *job)
{
  g_autoptr(GError) error = NULL;
  SlJobStatus status = sl_slurm_state_to_status (sl_job_get_backend_state (job));

  if (record == NULL)
    return;
  sl_job_record_set_backend_job_id (record, sl_job_get_backend_id (job));
  sl_job_record_set_backend_state (record, sl_job_get_backend_state (job), sl_job_get_backend_reason (job));
  if (status == SL_JOB_STATUS_STARTING)
    sl_job_record_set_state (record, SL_JOB_STATE_QUEUED);
  else if (status == SL_JOB_STATUS_RUNNING)
    sl_job_record_set_state (record, SL_JOB_STATE_RUNNING);
  if (store != NULL && !sl_workspace_store_update_job (store, record, &error))
    emit_message (self, "%s", error->message);
}

/* Tells a batch job's new state word or reason, in words. */
static void
report_backend_state (SlRemoteRun      *self,
                      SlWorkspaceStore *store,
                      SlJobRecord      *record,
                      SlJob            *job,
                      char            **last_seen)
{
  g_autofree char *seen = NULL;
  g_autofree char *words = NULL;
  Event *event;

  if (sl_job_get_backend_state (job) == NULL)
    return;
  seen = g_strdup_printf ("%s|%s", sl_job_get_backend_state (job),
                          sl_job_get_backend_reason (job) ? sl_job_get_backend_reason (job) : "");
  if (g_strcmp0 (seen, *last_seen) == 0)
    return;
  g_free (*last_seen);
  *last_seen = g_steal_pointer (&seen);

  words = sl_slurm_describe_state (sl_job_get_backend_state (job), sl_job_get_backend_reason (job));
  emit_message (self, _("Slurm job %s: %s"), sl_job_get_backend_id (job) ? sl_job_get_backend_id (job) : "?", words);
  event = event_new (self, BACKEND_STATE);
  event->text = g_strdup (sl_job_get_backend_state (job));
  event->text2 = g_strdup (sl_job_get_backend_reason (job));
  dispatch (event);

  if (sl_slurm_state_to_status (sl_job_get_backend_state (job)) != SL_JOB_STATUS_EXITED)
    save_backend_state (self, store, record, job);
}

static void
save_end (SlRemoteRun      *self,
          SlWorkspaceStore *store,
          SlJobRecord      *record,
          SlJobState        state,
          gboolean          has_exit_code,
          int               exit_code)
{
  g_autoptr(GError) error = NULL;

  if (store == NULL || record == NULL)
    return;

  sl_job_record_set_state (record, state);
  if (has_exit_code)
    sl_job_record_set_exit_code (record, exit_code);
  sl_job_record_set_finished_at (record, 0);
  if (!sl_workspace_store_finish_job (store, record, &error))
    emit_message (self, "%s", error->message);
}

/* Says the job may still be running, and how to stop it by hand. */
static void
set_may_still_run_error (SlRemoteRun  *self,
                         SlJob        *job,
                         const char   *why,
                         GError      **error)
{
  const char *backend_id = sl_job_get_backend_id (job);
  g_autofree char *how = NULL;

  if (self->slurm != NULL && backend_id != NULL)
    how = g_strdup_printf ("scancel %s", backend_id);
  else if (self->job_id > 0)
    how = g_strdup_printf ("sightline-cli job stop %lld", (long long)self->job_id);
  else if (backend_id != NULL)
    how = g_strdup_printf ("kill -KILL -- -%s", backend_id);
  else
    how = g_strdup_printf ("kill -KILL -- -$(cat %s/pid)", sl_job_get_dir (job));

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               _("The job may still be running on %s: %s. Stop it there with “%s”."),
               sl_target_get_name (self->target), why, how);
}

/* Follows the log until the job ends, pulling every few seconds. A stop
 * request is passed on (again while the target does not take it) and the
 * job followed until it is seen to end; cancelling @cancellable only
 * ends the following, unless a stop was sent: from then on nothing but
 * the job's end, or a deadline, ends it. */
static SlJobStatus
follow_job (SlRemoteRun      *self,
            SlTargetShell    *shell,
            SlJobBackend     *backend,
            SlJob            *job,
            GPtrArray        *pulls,
            SlWorkspaceStore *store,
            SlJobRecord      *record,
            int              *exit_code,
            GCancellable     *cancellable,
            GError          **error)
{
  gint64 last_pull = g_get_monotonic_time ();
  g_autofree char *last_state = NULL;
  g_autofree char *stop_failure = NULL;
  gboolean stop_sent = FALSE;
  gint64 stop_deadline = 0;
  guint64 offset = 0;

  for (;;)
    {
      g_autoptr(GError) follow_error = NULL;
      SlJobStatus status;

      /* Once a stop went out, its end is waited for whatever else is
       * cancelled: the caller is told only what was seen. */
      status = sl_job_backend_attach_log (backend, job, &offset, FALSE, log_cb, self, exit_code,
                                          stop_sent ? NULL : cancellable, &follow_error);

      report_backend_state (self, store, record, job, &last_state);

      if (follow_error == NULL && (status == SL_JOB_STATUS_EXITED || status == SL_JOB_STATUS_LOST))
        {
          if (stop_sent)
            g_atomic_int_set (&self->stopped, 1);
          return status;
        }
      if (follow_error != NULL && !stop_sent)
        {
          if (g_atomic_int_get (&self->stop_requested) &&
              g_error_matches (follow_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_clear_error (&follow_error);   /* the stop comes next */
          else
            {
              g_propagate_error (error, g_steal_pointer (&follow_error));
              return status;
            }
        }

      if (g_atomic_int_get (&self->stop_requested) &&
          (!stop_sent || (stop_failure != NULL && g_get_monotonic_time () < stop_deadline)))
        {
          g_autoptr(GError) stop_error = NULL;

          if (!stop_sent)
            {
              stop_sent = TRUE;
              stop_deadline = g_get_monotonic_time () + (STOP_GRACE_SECONDS + STOP_CONFIRM_SECONDS) * G_USEC_PER_SEC;
              if (self->slurm != NULL)
                emit_message (self, _("Cancelling Slurm job %s (scancel)"), sl_job_get_backend_id (job));
              else
                emit_message (self, _("Stopping the job: SIGTERM now, SIGKILL after %u s"), STOP_GRACE_SECONDS);
            }
          g_clear_pointer (&stop_failure, g_free);
          if (!sl_job_backend_stop (backend, job, STOP_GRACE_SECONDS, NULL, &stop_error))
            stop_failure = g_strdup (stop_error->message);
        }

      if (stop_sent && g_get_monotonic_time () >= stop_deadline)
        {
          g_autofree char *why = stop_failure != NULL
            ? g_strdup_printf (_("it could not be stopped (%s)"), stop_failure)
            : follow_error != NULL
            ? g_strdup_printf (_("its end could not be seen (%s)"), follow_error->message)
            : g_strdup_printf (_("it had not ended %u s after the stop"), STOP_GRACE_SECONDS + STOP_CONFIRM_SECONDS);

          set_may_still_run_error (self, job, why, error);
          return SL_JOB_STATUS_LOST;
        }

      if (pulls->len > 0 && g_get_monotonic_time () - last_pull > (gint64)self->pull_interval_ms * 1000)
        {
          pull_all (self, shell, pulls, FALSE);
          last_pull = g_get_monotonic_time ();
        }
      g_usleep (POLL_PAUSE_US);
    }
}

/* Moves what an earlier job left in the fresh folders aside, on the
 * target and in this computer's pulled copy. */
static gboolean
set_aside_fresh_dirs (SlRemoteRun    *self,
                      SlTargetShell  *shell,
                      const char     *resolved_remote,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autofree char *cache_dir = sl_cache_dup_dir (NULL);
  const char *cache_name = sl_target_get_id (self->target) > 0 ? sl_target_get_name (self->target) : "local";
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%S");

  for (guint i = 0; self->fresh_dirs != NULL && self->fresh_dirs[i] != NULL; i++)
    {
      g_autofree char *remote = g_path_is_absolute (self->fresh_dirs[i])
                                ? g_strdup (self->fresh_dirs[i])
                                : g_build_path ("/", resolved_remote, self->fresh_dirs[i], NULL);
      g_autofree char *aside = NULL;
      g_autoptr(GFileInfo) info = NULL;
      g_autoptr(GError) stat_error = NULL;

      while (g_str_has_suffix (remote, "/") && strlen (remote) > 1)
        remote[strlen (remote) - 1] = '\0';
      aside = g_strdup_printf ("%s.earlier-%s", remote, stamp);

      info = sl_target_shell_stat (shell, remote, cancellable, &stat_error);
      if (info != NULL)
        {
          if (sl_target_shell_is_local (shell))
            {
              if (g_rename (remote, aside) != 0)
                {
                  int saved = errno;

                  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                               _("Could not move the earlier output %s aside to %s: %s"),
                               remote, aside, g_strerror (saved));
                  return FALSE;
                }
            }
          else
            {
              g_autofree char *quoted = sl_shell_quote (remote);
              g_autofree char *quoted_aside = sl_shell_quote (aside);
              g_autofree char *command = g_strdup_printf ("mv -- %s %s", quoted, quoted_aside);
              g_autofree char *err = NULL;
              int status = 0;

              if (!sl_target_shell_run (shell, command, NULL, &err, &status, cancellable, error))
                return FALSE;
              if (status != 0)
                {
                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("Could not move the earlier output %s aside to %s: %s"),
                               remote, aside, err != NULL ? g_strstrip (err) : "");
                  return FALSE;
                }
            }
          emit_message (self, _("Moved the earlier output %s aside to %s"), remote, aside);
          g_mutex_lock (&self->mutex);
          g_ptr_array_add (self->set_aside, g_strdup (aside));
          g_mutex_unlock (&self->mutex);
        }
      else if (!g_error_matches (stat_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&stat_error));
          return FALSE;
        }

      /* The copy pulled of it before, which pulling would only add to. */
      if (!is_local (self))
        {
          g_autofree char *local = sl_transfer_dup_cache_dir (cache_dir, cache_name, remote, NULL);
          g_autofree char *local_aside = local != NULL ? g_strdup_printf ("%s.earlier-%s", local, stamp) : NULL;

          if (local != NULL && g_file_test (local, G_FILE_TEST_EXISTS))
            {
              if (g_rename (local, local_aside) != 0)
                {
                  int saved = errno;

                  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                               _("Could not move the earlier output %s aside to %s: %s"),
                               local, local_aside, g_strerror (saved));
                  return FALSE;
                }
              emit_message (self, _("Moved the earlier output %s aside to %s"), local, local_aside);
              g_mutex_lock (&self->mutex);
              g_ptr_array_add (self->set_aside, g_strdup (local_aside));
              g_mutex_unlock (&self->mutex);
            }
        }
    }
  return TRUE;
}

static gboolean
prepare_pulls (SlRemoteRun  *self,
               const char   *resolved_remote,
               GPtrArray    *pulls,
               GError      **error)
{
  g_autofree char *cache_dir = sl_cache_dup_dir (NULL);
  const char *cache_name = sl_target_get_id (self->target) > 0 ? sl_target_get_name (self->target) : "local";

  for (guint i = 0; self->pull_dirs != NULL && self->pull_dirs[i] != NULL; i++)
    {
      Pull *pull = g_new0 (Pull, 1);

      pull->remote = g_build_path ("/", resolved_remote, self->pull_dirs[i], NULL);
      pull->local = sl_transfer_dup_cache_dir (cache_dir, cache_name, pull->remote, error);
      if (pull->local == NULL)
        {
          pull_free (pull);
          return FALSE;
        }
      g_ptr_array_add (pulls, pull);

      g_mutex_lock (&self->mutex);
      g_ptr_array_add (self->local_pull_dirs, g_strdup (pull->local));
      g_mutex_unlock (&self->mutex);
    }
  return TRUE;
}

static SlJobRecord *
record_start (SlRemoteRun      *self,
              SlWorkspaceStore *store,
              SlJob            *job,
              const char       *resolved_remote,
              GError          **error)
{
  g_autofree char *command_line = sl_job_dup_command_line (job);
  g_autoptr(SlJobRecord) record = sl_job_record_new (command_line, MAX (sl_target_get_id (self->target), 0));

  sl_job_record_set_target_name (record, sl_target_get_name (self->target));
  sl_job_record_set_started_at (record, g_get_real_time ());
  sl_job_record_set_log_path (record, self->log_path);
  sl_job_record_set_remote_folder (record, resolved_remote);
  sl_job_record_set_state (record, self->slurm != NULL ? SL_JOB_STATE_QUEUED : SL_JOB_STATE_RUNNING);
  if (self->slurm != NULL)
    sl_job_record_set_backend (record, SL_JOB_BACKEND_SLURM);
  if (!sl_workspace_store_add_job (store, record, error))
    return NULL;
  return g_steal_pointer (&record);
}

static void
save_slurm_end_state (SlJobRecord *record,
                      SlJob       *job)
{
  if (record != NULL && sl_job_get_backend_state (job) != NULL)
    sl_job_record_set_backend_state (record, sl_job_get_backend_state (job), sl_job_get_backend_reason (job));
}

/* A full disk where the job's folder is cuts its log and status short:
 * said once, and kept for sl_remote_run_dup_lost_reason(). */
static void
note_disk_full (SlRemoteRun *self,
                SlJob       *job)
{
  if (!sl_job_get_disk_full (job))
    return;
  g_atomic_int_set (&self->disk_full, 1);
  emit_message (self, _("The disk holding the job’s folder %s on %s is full: the job’s log and exit status may be cut short"),
                sl_job_get_dir (job), sl_target_get_name (self->target));
}

/* A job of the history followed again: from its folder, with what the
 * history knows of it. */
static gboolean
follow_again (SlRemoteRun      *self,
              SlWorkspaceStore *store,
              SlTargetShell    *shell,
              SlJobBackend     *backend,
              SlJobStatus      *status,
              int              *exit_code,
              GCancellable     *cancellable,
              GError          **error)
{
  g_autoptr(GPtrArray) pulls = g_ptr_array_new_with_free_func (pull_free);
  g_autofree char *dir = g_path_get_dirname (sl_job_record_get_log_path (self->resumed));
  g_autoptr(SlJob) job = sl_job_new_for_dir (dir);
  SlJobStatus end;
  int code = -1;

  sl_job_set_backend_id (job, sl_job_record_get_backend_job_id (self->resumed));
  g_atomic_int_set (&self->started, 1);
  self->log_path = g_strdup (sl_job_record_get_log_path (self->resumed));
  emit_message (self, _("Following job %lld again on %s (log: %s)"), (long long)self->job_id,
                sl_target_get_name (self->target), self->log_path);
  {
    Event *event = event_new (self, JOB_STARTED);

    event->number = self->job_id;
    event->text = g_strdup (self->remote_dir);
    event->text2 = g_strdup (self->log_path);
    dispatch (event);
  }

  end = follow_job (self, shell, backend, job, pulls, store, self->resumed, &code, cancellable, error);
  note_disk_full (self, job);
  if (error != NULL && *error != NULL)
    return FALSE;

  save_slurm_end_state (self->resumed, job);
  save_end (self, store, self->resumed, end_state (self, job, end, code), end == SL_JOB_STATUS_EXITED, code);
  if (status != NULL)
    *status = end;
  if (exit_code != NULL)
    *exit_code = code;
  return TRUE;
}

/* A run stopped before its job started: nothing ran. */
static gboolean
set_stopped_before_start (SlRemoteRun       *self,
                          SlWorkspaceStore  *store,
                          SlJobRecord       *record,
                          GError           **error)
{
  save_end (self, store, record, SL_JOB_STATE_CANCELLED, FALSE, 0);
  g_clear_error (error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
               _("Stopped before the job started: nothing ran on %s"), sl_target_get_name (self->target));
  return FALSE;
}

static gboolean
stop_wanted (SlRemoteRun *self)
{
  return g_atomic_int_get (&self->stop_requested) || g_cancellable_is_cancelled (self->setup_cancellable);
}

static gboolean
execute_job (SlRemoteRun   *self,
             SlJobStatus   *status,
             int           *exit_code,
             GCancellable  *cancellable,
             GError       **error)
{
  GCancellable *setup = self->setup_cancellable;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJob) job = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(GPtrArray) pulls = g_ptr_array_new_with_free_func (pull_free);
  g_autofree char *base_dir = NULL;
  g_autofree char *resolved_base = NULL;
  g_autofree char *resolved_remote = NULL;
  SlJobStatus end = SL_JOB_STATUS_LOST;
  int code = -1;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->context == NULL)
    self->context = g_main_context_ref_thread_default ();

  if (self->store_path != NULL && !(store = sl_workspace_store_new_for_path (self->store_path, error)))
    return FALSE;

  ensure_remote_dir (self);
  shell = sl_target_shell_new_for_target (self->target);
  sl_target_shell_set_state_func (shell, connection_cb, self);
  sl_target_shell_set_reconnect_limit (shell, self->reconnect_limit);
  if (self->slurm != NULL)
    {
      backend = sl_slurm_job_backend_new (shell, self->slurm);
      sl_slurm_job_backend_set_env_setup (SL_SLURM_JOB_BACKEND (backend), sl_target_get_env_setup (self->target));
    }
  else
    backend = sl_direct_job_backend_new (shell);
  base_dir = sl_target_dup_job_base_dir (self->target);

  if (self->resumed != NULL)
    return follow_again (self, store, shell, backend, status, exit_code, cancellable, error);

  if (!(resolved_base = sl_target_shell_resolve_dir (shell, base_dir, TRUE, setup, error)))
    return stop_wanted (self) ? set_stopped_before_start (self, NULL, NULL, error) : FALSE;

  if (!is_local (self) || !g_str_equal (self->remote_dir, self->project_dir))
    {
      SlUploadStats stats = { 0 };
      g_autofree char *size = NULL;

      emit_message (self, _("Uploading %s to %s…"), self->project_dir, self->remote_dir);
      if (!sl_project_upload (shell, self->project_dir, self->remote_dir, (const char * const *)self->excludes,
                              self->compare_content, progress_cb, self, &stats, setup, error))
        return stop_wanted (self) ? set_stopped_before_start (self, NULL, NULL, error) : FALSE;
      size = g_format_size (stats.bytes_sent);
      emit_message (self, _("Uploaded %u files (%s), %u unchanged, %u left out"),
                    stats.files_sent, size, stats.files_unchanged, stats.files_excluded);
    }

  if (!(resolved_remote = sl_target_shell_resolve_dir (shell, self->remote_dir, TRUE, setup, error)))
    return stop_wanted (self) ? set_stopped_before_start (self, NULL, NULL, error) : FALSE;

  if (!set_aside_fresh_dirs (self, shell, resolved_remote, setup, error))
    return stop_wanted (self) ? set_stopped_before_start (self, NULL, NULL, error) : FALSE;

  job = new_job (self, resolved_remote, resolved_base);
  self->log_path = sl_job_dup_log_path (job);

  if (store != NULL && !(record = record_start (self, store, job, resolved_remote, error)))
    return FALSE;
  self->job_id = record ? sl_job_record_get_id (record) : 0;

  if (stop_wanted (self))
    return set_stopped_before_start (self, store, record, error);
  /* Not cancellable: a launch cut short could leave a job nobody knows
   * of. A stop that comes meanwhile is carried out once it started. */
  if (!sl_job_backend_launch (backend, job, NULL, error))
    {
      save_end (self, store, record, SL_JOB_STATE_FAILED, FALSE, 0);
      return FALSE;
    }
  g_atomic_int_set (&self->started, 1);
  if (self->slurm != NULL)
    {
      emit_message (self, _("Submitted Slurm job %s"), sl_job_get_backend_id (job));
      save_backend_state (self, store, record, job);
    }

  {
    Event *event = event_new (self, JOB_STARTED);

    event->number = self->job_id;
    event->text = g_strdup (resolved_remote);
    event->text2 = g_strdup (self->log_path);
    dispatch (event);
  }
  emit_message (self, _("Job started on %s in %s (log: %s)"), sl_target_get_name (self->target),
                resolved_remote, self->log_path);

  if (self->detach && !g_atomic_int_get (&self->stop_requested))
    {
      if (status != NULL)
        *status = SL_JOB_STATUS_RUNNING;
      return TRUE;
    }

  if (!prepare_pulls (self, resolved_remote, pulls, error))
    return FALSE;

  end = follow_job (self, shell, backend, job, pulls, store, record, &code, cancellable, error);
  note_disk_full (self, job);
  if (error != NULL && *error != NULL)
    return FALSE;

  pull_all (self, shell, pulls, TRUE);
  save_slurm_end_state (record, job);
  save_end (self, store, record, end_state (self, job, end, code), end == SL_JOB_STATUS_EXITED, code);

  if (status != NULL)
    *status = end;
  if (exit_code != NULL)
    *exit_code = code;
  return TRUE;
}

static void
cancel_setup_cb (GCancellable *cancellable,
                 GCancellable *setup)
{
  g_cancellable_cancel (setup);
}

/**
 * sl_remote_run_execute:
 * @status: (out) (optional): how the job ended
 * @exit_code: (out) (optional): its exit code, when it exited
 * @cancellable: (nullable): ends the run: before the job started nothing
 *   is started; after it, only the following ends and the job goes on
 *   (sl_remote_run_request_stop() stops the job itself)
 *
 * Uploads, starts, follows and pulls in the calling thread, emitting the
 * signals there; with detach set it returns once the job started.
 *
 * Returns: %TRUE when the job started and was followed to its end (or
 *   detached); %FALSE with @error set otherwise
 */
gboolean
sl_remote_run_execute (SlRemoteRun   *self,
                       SlJobStatus   *status,
                       int           *exit_code,
                       GCancellable  *cancellable,
                       GError       **error)
{
  gulong cancel_id = 0;
  gboolean ok;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_setup_cb),
                                       g_object_ref (self->setup_cancellable), g_object_unref);
  ok = execute_job (self, status, exit_code, cancellable, error);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, cancel_id);
  return ok;
}

typedef struct {
  SlJobStatus status;
  int         exit_code;
} Outcome;

static void
execute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SlRemoteRun *self = source_object;
  Outcome *outcome = g_new0 (Outcome, 1);
  g_autoptr(GError) error = NULL;

  if (!sl_remote_run_execute (self, &outcome->status, &outcome->exit_code, cancellable, &error))
    {
      g_free (outcome);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, outcome, g_free);
}

/**
 * sl_remote_run_execute_async:
 *
 * Runs sl_remote_run_execute() in a worker; the signals are emitted in
 * the calling thread's main context, in order.
 */
void
sl_remote_run_execute_async (SlRemoteRun         *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_REMOTE_RUN (self));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  self->in_thread = TRUE;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_remote_run_execute_async);
  /* What the run found out is returned as it is: a job stopped after
   * its caller cancelled is a stopped job, not a cancelled call. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, execute_thread);
}

gboolean
sl_remote_run_execute_finish (SlRemoteRun   *self,
                              GAsyncResult  *result,
                              SlJobStatus   *status,
                              int           *exit_code,
                              GError       **error)
{
  g_autofree Outcome *outcome = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  outcome = g_task_propagate_pointer (G_TASK (result), error);
  if (outcome == NULL)
    return FALSE;
  if (status != NULL)
    *status = outcome->status;
  if (exit_code != NULL)
    *exit_code = outcome->exit_code;
  return TRUE;
}
