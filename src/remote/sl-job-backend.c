/* sl-job-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-job-backend.h"

#define LOG_CHUNK        (256 * 1024)
#define FOLLOW_PAUSE_MS  300

G_DEFINE_INTERFACE (SlJobBackend, sl_job_backend, G_TYPE_OBJECT)

static void
sl_job_backend_default_init (SlJobBackendInterface *iface)
{
}

/**
 * sl_job_backend_dup_launch_command:
 *
 * Returns: (transfer full): the exact command sent to the target to start
 *   @job, to show before a configuration's first run
 */
char *
sl_job_backend_dup_launch_command (SlJobBackend  *self,
                                   SlJob         *job,
                                   GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), NULL);
  g_return_val_if_fail (job != NULL && sl_job_get_argv (job) != NULL, NULL);

  return SL_JOB_BACKEND_GET_IFACE (self)->dup_launch_command (self, job, error);
}

/**
 * sl_job_backend_launch:
 *
 * Starts @job detached on the target. Safe to repeat: a job whose folder
 * shows it was started is not started twice.
 */
gboolean
sl_job_backend_launch (SlJobBackend  *self,
                       SlJob         *job,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), FALSE);
  g_return_val_if_fail (job != NULL && sl_job_get_argv (job) != NULL, FALSE);

  return SL_JOB_BACKEND_GET_IFACE (self)->launch (self, job, cancellable, error);
}

/**
 * sl_job_backend_poll:
 * @exit_code: (out) (optional): set when the job exited
 *
 * Returns: how the job is doing; %SL_JOB_STATUS_LOST with @error set when
 *   the target could not be asked
 */
SlJobStatus
sl_job_backend_poll (SlJobBackend  *self,
                     SlJob         *job,
                     int           *exit_code,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), SL_JOB_STATUS_LOST);
  g_return_val_if_fail (job != NULL, SL_JOB_STATUS_LOST);

  return SL_JOB_BACKEND_GET_IFACE (self)->poll (self, job, exit_code, cancellable, error);
}

/**
 * sl_job_backend_stop:
 * @grace_seconds: how long the job has to end after SIGTERM before it is
 *   killed
 */
gboolean
sl_job_backend_stop (SlJobBackend  *self,
                     SlJob         *job,
                     guint          grace_seconds,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), FALSE);
  g_return_val_if_fail (job != NULL, FALSE);

  return SL_JOB_BACKEND_GET_IFACE (self)->stop (self, job, grace_seconds, cancellable, error);
}

/**
 * sl_job_backend_read_log:
 *
 * Returns: (transfer full): up to @max_length bytes of the log from
 *   @offset; empty at its end or when there is no log yet
 */
GBytes *
sl_job_backend_read_log (SlJobBackend  *self,
                         SlJob         *job,
                         guint64        offset,
                         guint64        max_length,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), NULL);
  g_return_val_if_fail (job != NULL, NULL);

  return SL_JOB_BACKEND_GET_IFACE (self)->read_log (self, job, offset, max_length, cancellable, error);
}

static gboolean
read_log_once (SlJobBackend  *self,
               SlJob         *job,
               guint64       *offset,
               SlJobLogFunc   func,
               gpointer       user_data,
               gboolean      *got_any,
               GCancellable  *cancellable,
               GError       **error)
{
  for (;;)
    {
      g_autoptr(GBytes) data = sl_job_backend_read_log (self, job, *offset, LOG_CHUNK, cancellable, error);
      gsize size;

      if (data == NULL)
        return FALSE;

      size = g_bytes_get_size (data);
      if (size == 0)
        return TRUE;

      func (data, *offset, user_data);
      *offset += size;
      *got_any = TRUE;
      if (size < LOG_CHUNK)
        return TRUE;
    }
}

/**
 * sl_job_backend_attach_log:
 * @offset: (inout): the log offset to start from, moved past what was
 *   passed to @func; keep it to attach again later without losing or
 *   repeating a byte
 * @follow: keep reading until the job ends, instead of stopping at the
 *   current end of the log
 * @func: receives the log in order, on the calling thread
 * @exit_code: (out) (optional): set when the job exited
 *
 * Reads the job's log from @offset. Reconnections happen underneath; the
 * reading goes on from the offset it had reached.
 *
 * Returns: the job's status when it stopped reading (%SL_JOB_STATUS_LOST
 *   with @error set on failure)
 */
SlJobStatus
sl_job_backend_attach_log (SlJobBackend  *self,
                           SlJob         *job,
                           guint64       *offset,
                           gboolean       follow,
                           SlJobLogFunc   func,
                           gpointer       user_data,
                           int           *exit_code,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_return_val_if_fail (SL_IS_JOB_BACKEND (self), SL_JOB_STATUS_LOST);
  g_return_val_if_fail (job != NULL, SL_JOB_STATUS_LOST);
  g_return_val_if_fail (offset != NULL, SL_JOB_STATUS_LOST);
  g_return_val_if_fail (func != NULL, SL_JOB_STATUS_LOST);

  for (;;)
    {
      GError *local_error = NULL;
      gboolean got_any = FALSE;
      SlJobStatus status;

      /* The status is taken before reading, so output written just
       * before the end is still read on this pass. */
      status = sl_job_backend_poll (self, job, exit_code, cancellable, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return SL_JOB_STATUS_LOST;
        }

      if (!read_log_once (self, job, offset, func, user_data, &got_any, cancellable, error))
        return SL_JOB_STATUS_LOST;

      if (!follow || status == SL_JOB_STATUS_EXITED || status == SL_JOB_STATUS_LOST)
        return status;

      if (!got_any)
        {
          for (guint waited = 0; waited < FOLLOW_PAUSE_MS; waited += 50)
            {
              if (g_cancellable_set_error_if_cancelled (cancellable, error))
                return SL_JOB_STATUS_LOST;
              g_usleep (50 * G_TIME_SPAN_MILLISECOND);
            }
        }
    }
}

/* Async variants: the plain calls on a GTask thread. */

typedef struct {
  SlJob          *job;
  guint           grace_seconds;
  guint64         offset;
  guint64         delivered_offset;   /* in the caller's context */
  int             exit_code;
  SlJobLogFunc    func;
  gpointer        func_data;
  GDestroyNotify  func_data_destroy;
  GMainContext   *context;
} AsyncData;

static void
async_data_free (gpointer data)
{
  AsyncData *async = data;

  sl_job_unref (async->job);
  if (async->func_data_destroy != NULL)
    async->func_data_destroy (async->func_data);
  g_clear_pointer (&async->context, g_main_context_unref);
  g_free (async);
}

static GTask *
async_task_new (SlJobBackend        *self,
                SlJob               *job,
                gpointer             source_tag,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  AsyncData *async = g_new0 (AsyncData, 1);

  async->job = sl_job_ref (job);
  async->exit_code = -1;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, async, async_data_free);
  return task;
}

static void
launch_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  AsyncData *async = data;
  GError *error = NULL;

  if (sl_job_backend_launch (source, async->job, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_job_backend_launch_async:
 *
 * sl_job_backend_launch() on a thread.
 */
void
sl_job_backend_launch_async (SlJobBackend        *self,
                             SlJob               *job,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_JOB_BACKEND (self));
  g_return_if_fail (job != NULL && sl_job_get_argv (job) != NULL);

  task = async_task_new (self, job, sl_job_backend_launch_async, cancellable, callback, user_data);
  g_task_run_in_thread (task, launch_thread);
}

gboolean
sl_job_backend_launch_finish (SlJobBackend  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
stop_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AsyncData *async = data;
  GError *error = NULL;

  if (sl_job_backend_stop (source, async->job, async->grace_seconds, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_job_backend_stop_async:
 *
 * sl_job_backend_stop() on a thread.
 */
void
sl_job_backend_stop_async (SlJobBackend        *self,
                           SlJob               *job,
                           guint                grace_seconds,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_JOB_BACKEND (self));
  g_return_if_fail (job != NULL);

  task = async_task_new (self, job, sl_job_backend_stop_async, cancellable, callback, user_data);
  ((AsyncData *)g_task_get_task_data (task))->grace_seconds = grace_seconds;
  g_task_run_in_thread (task, stop_thread);
}

gboolean
sl_job_backend_stop_finish (SlJobBackend  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct {
  GTask   *task;
  GBytes  *data;
  guint64  offset;
} LogChunk;

static gboolean
deliver_chunk (gpointer data)
{
  LogChunk *chunk = data;
  AsyncData *async = g_task_get_task_data (chunk->task);

  /* After a cancellation nothing more is passed on, and the offset given
   * back is the end of what was, so attaching again loses nothing. */
  if (!g_cancellable_is_cancelled (g_task_get_cancellable (chunk->task)))
    {
      async->func (chunk->data, chunk->offset, async->func_data);
      async->delivered_offset = chunk->offset + g_bytes_get_size (chunk->data);
    }
  return G_SOURCE_REMOVE;
}

static void
log_chunk_free (gpointer data)
{
  LogChunk *chunk = data;

  g_object_unref (chunk->task);
  g_bytes_unref (chunk->data);
  g_free (chunk);
}

/* On the thread: passes each piece of the log to the caller's context,
 * where it arrives in order and before the task completes. */
static void
forward_chunk (GBytes   *data,
               guint64   offset,
               gpointer  user_data)
{
  GTask *task = user_data;
  AsyncData *async = g_task_get_task_data (task);
  LogChunk *chunk = g_new0 (LogChunk, 1);
  GSource *source = g_idle_source_new ();

  chunk->task = g_object_ref (task);
  chunk->data = g_bytes_ref (data);
  chunk->offset = offset;
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver_chunk, chunk, log_chunk_free);
  g_source_set_static_name (source, "[sightline] job log");
  g_source_attach (source, async->context);
  g_source_unref (source);
}

static void
attach_log_thread (GTask        *task,
                   gpointer      source,
                   gpointer      data,
                   GCancellable *cancellable)
{
  AsyncData *async = data;
  GError *error = NULL;
  SlJobStatus status;

  status = sl_job_backend_attach_log (source, async->job, &async->offset, TRUE, forward_chunk, task,
                                      &async->exit_code, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, status);
}

/**
 * sl_job_backend_attach_log_async:
 * @offset: the log offset to start from
 * @func: receives the log in order, in the caller's thread-default main
 *   context, before @callback
 *
 * Follows the job's log until the job ends, on a thread. Cancel to stop
 * following (the job goes on); sl_job_backend_attach_log_finish() gives
 * the offset reached, to attach again later from there.
 */
void
sl_job_backend_attach_log_async (SlJobBackend        *self,
                                 SlJob               *job,
                                 guint64              offset,
                                 SlJobLogFunc         func,
                                 gpointer             func_data,
                                 GDestroyNotify       func_data_destroy,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AsyncData *async;

  g_return_if_fail (SL_IS_JOB_BACKEND (self));
  g_return_if_fail (job != NULL);
  g_return_if_fail (func != NULL);

  task = async_task_new (self, job, sl_job_backend_attach_log_async, cancellable, callback, user_data);
  async = g_task_get_task_data (task);
  async->offset = offset;
  async->delivered_offset = offset;
  async->func = func;
  async->func_data = func_data;
  async->func_data_destroy = func_data_destroy;
  async->context = g_main_context_ref_thread_default ();
  g_task_run_in_thread (task, attach_log_thread);
}

/**
 * sl_job_backend_attach_log_finish:
 * @offset: (out) (optional): the log offset reached
 * @exit_code: (out) (optional): set when the job exited
 *
 * Returns: the job's status when following stopped
 */
SlJobStatus
sl_job_backend_attach_log_finish (SlJobBackend  *self,
                                  GAsyncResult  *result,
                                  guint64       *offset,
                                  int           *exit_code,
                                  GError       **error)
{
  AsyncData *async;
  gssize status;

  g_return_val_if_fail (g_task_is_valid (result, self), SL_JOB_STATUS_LOST);

  async = g_task_get_task_data (G_TASK (result));
  if (offset != NULL)
    *offset = async->delivered_offset;
  if (exit_code != NULL)
    *exit_code = async->exit_code;

  status = g_task_propagate_int (G_TASK (result), error);
  return status < 0 ? SL_JOB_STATUS_LOST : (SlJobStatus)status;
}
