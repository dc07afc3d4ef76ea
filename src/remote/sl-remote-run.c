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

#include <glib/gi18n.h>

#include "sl-cache.h"
#include "sl-direct-job-backend.h"
#include "sl-folder-puller.h"
#include "sl-local-target.h"
#include "sl-project-upload.h"
#include "sl-remote-run.h"
#include "sl-ssh-target.h"
#include "sl-target-shell.h"
#include "sl-workspace-store.h"

#define DEFAULT_PULL_INTERVAL_MS 3000
#define POLL_PAUSE_US            (300 * G_TIME_SPAN_MILLISECOND)
#define STOP_GRACE_SECONDS       10

struct _SlRemoteRun
{
  GObject        parent_instance;

  SlTarget      *target;
  char          *project_dir;
  char         **argv;
  char          *remote_dir;
  char         **pull_dirs;
  char         **excludes;
  char          *store_path;
  char          *env_setup;
  gboolean       compare_content;
  gboolean       detach;
  guint          reconnect_limit;
  guint          pull_interval_ms;

  /* While executing */
  GMainContext  *context;         /* where signals are emitted */
  gboolean       in_thread;
  gint           stop_requested;  /* atomic */
  gint64         job_id;
  char          *log_path;
  GPtrArray     *local_pull_dirs;
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
  base = sl_target_dup_job_base_dir (self->target);
  self->remote_dir = g_build_path ("/", base, "sightline", name, NULL);
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
  g_strfreev (self->excludes);
  g_free (self->store_path);
  g_free (self->log_path);
  g_clear_pointer (&self->local_pull_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
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
}

static void
sl_remote_run_init (SlRemoteRun *self)
{
  g_mutex_init (&self->mutex);
  self->pull_interval_ms = DEFAULT_PULL_INTERVAL_MS;
  self->reconnect_limit = SL_TARGET_SHELL_DEFAULT_RECONNECT_SECONDS;
  self->local_pull_dirs = g_ptr_array_new_with_free_func (g_free);
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
 * sl_remote_run_request_stop:
 *
 * Asks the running job to stop: SIGTERM to its process group, SIGKILL
 * after a grace period. The run goes on until the job has ended.
 */
void
sl_remote_run_request_stop (SlRemoteRun *self)
{
  g_return_if_fail (SL_IS_REMOTE_RUN (self));
  g_atomic_int_set (&self->stop_requested, 1);
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
  g_autofree char *env_setup = NULL;

  g_return_val_if_fail (SL_IS_REMOTE_RUN (self), NULL);

  /* No connection: it is only text, shown while the user types. */
  ensure_remote_dir (self);
  base = sl_target_dup_job_base_dir (self->target);
  job = sl_job_new ((const char * const *)self->argv, self->remote_dir, base);
  env_setup = dup_env_setup (self);
  sl_job_set_env_setup (job, env_setup);
  return sl_direct_job_backend_dup_launch_command (job);
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

/* Follows the log until the job ends, pulling every few seconds. A stop
 * request is passed on once and the job followed to its end. */
static SlJobStatus
follow_job (SlRemoteRun   *self,
            SlTargetShell *shell,
            SlJobBackend  *backend,
            SlJob         *job,
            GPtrArray     *pulls,
            int           *exit_code,
            GCancellable  *cancellable,
            GError       **error)
{
  gint64 last_pull = g_get_monotonic_time ();
  gboolean stop_sent = FALSE;
  guint64 offset = 0;

  for (;;)
    {
      SlJobStatus status = sl_job_backend_attach_log (backend, job, &offset, FALSE, log_cb, self,
                                                      exit_code, cancellable, error);

      if (status == SL_JOB_STATUS_EXITED || status == SL_JOB_STATUS_LOST)
        return status;
      if (error != NULL && *error != NULL)
        return status;

      if (!stop_sent && g_atomic_int_get (&self->stop_requested))
        {
          g_autoptr(GError) stop_error = NULL;

          stop_sent = TRUE;
          emit_message (self, _("Stopping the job: SIGTERM now, SIGKILL after %u s"), STOP_GRACE_SECONDS);
          if (!sl_job_backend_stop (backend, job, STOP_GRACE_SECONDS, cancellable, &stop_error))
            emit_message (self, _("Could not stop the job: %s"), stop_error->message);
        }

      if (pulls->len > 0 && g_get_monotonic_time () - last_pull > (gint64)self->pull_interval_ms * 1000)
        {
          pull_all (self, shell, pulls, FALSE);
          last_pull = g_get_monotonic_time ();
        }
      g_usleep (POLL_PAUSE_US);
    }
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
  sl_job_record_set_state (record, SL_JOB_STATE_RUNNING);
  if (!sl_workspace_store_add_job (store, record, error))
    return NULL;
  return g_steal_pointer (&record);
}

/**
 * sl_remote_run_execute:
 * @status: (out) (optional): how the job ended
 * @exit_code: (out) (optional): its exit code, when it exited
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
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJob) job = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(GPtrArray) pulls = g_ptr_array_new_with_free_func (pull_free);
  g_autofree char *base_dir = NULL;
  g_autofree char *resolved_base = NULL;
  g_autofree char *resolved_remote = NULL;
  g_autofree char *env_setup = NULL;
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
  backend = sl_direct_job_backend_new (shell);
  base_dir = sl_target_dup_job_base_dir (self->target);

  if (!(resolved_base = sl_target_shell_resolve_dir (shell, base_dir, TRUE, cancellable, error)))
    return FALSE;

  if (!is_local (self) || !g_str_equal (self->remote_dir, self->project_dir))
    {
      SlUploadStats stats = { 0 };
      g_autofree char *size = NULL;

      emit_message (self, _("Uploading %s to %s…"), self->project_dir, self->remote_dir);
      if (!sl_project_upload (shell, self->project_dir, self->remote_dir, (const char * const *)self->excludes,
                              self->compare_content, progress_cb, self, &stats, cancellable, error))
        return FALSE;
      size = g_format_size (stats.bytes_sent);
      emit_message (self, _("Uploaded %u files (%s), %u unchanged, %u left out"),
                    stats.files_sent, size, stats.files_unchanged, stats.files_excluded);
    }

  if (!(resolved_remote = sl_target_shell_resolve_dir (shell, self->remote_dir, TRUE, cancellable, error)))
    return FALSE;

  job = sl_job_new ((const char * const *)self->argv, resolved_remote, resolved_base);
  env_setup = dup_env_setup (self);
  sl_job_set_env_setup (job, env_setup);
  self->log_path = sl_job_dup_log_path (job);

  if (store != NULL && !(record = record_start (self, store, job, resolved_remote, error)))
    return FALSE;
  self->job_id = record ? sl_job_record_get_id (record) : 0;

  if (!sl_job_backend_launch (backend, job, cancellable, error))
    {
      save_end (self, store, record, SL_JOB_STATE_FAILED, FALSE, 0);
      return FALSE;
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

  if (self->detach)
    {
      if (status != NULL)
        *status = SL_JOB_STATUS_RUNNING;
      return TRUE;
    }

  if (!prepare_pulls (self, resolved_remote, pulls, error))
    return FALSE;

  end = follow_job (self, shell, backend, job, pulls, &code, cancellable, error);
  if (error != NULL && *error != NULL)
    return FALSE;

  pull_all (self, shell, pulls, TRUE);
  save_end (self, store, record, sl_job_state_for_exit (end, code), end == SL_JOB_STATUS_EXITED, code);

  if (status != NULL)
    *status = end;
  if (exit_code != NULL)
    *exit_code = code;
  return TRUE;
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
