/* sl-job-backend.h: starting, watching and stopping jobs on a target
 *
 * A job runs detached from Sightline under a job folder on the target,
 * <base>/.sightline/jobs/<id>/, with its command line in "cmd" and its
 * output in "log"; it goes on when the connection breaks or Sightline
 * quits, and is found again from that folder. A backend decides how the
 * job is started and watched: SlDirectJobBackend starts it as its own
 * process group; a batch scheduler (Slurm: sbatch, squeue, scancel)
 * would be another implementation of the same interface, so nothing that
 * shows jobs needs to change.
 *
 * The plain calls block, for worker threads and the command line; the
 * *_async() variants run them on a thread and report in the caller's
 * thread-default main context.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-job.h"

G_BEGIN_DECLS

typedef enum {
  SL_JOB_STATUS_STARTING,   /* launched, not running yet */
  SL_JOB_STATUS_RUNNING,
  SL_JOB_STATUS_EXITED,     /* ended with an exit code */
  SL_JOB_STATUS_LOST,       /* gone without an exit code (killed, server restarted) */
} SlJobStatus;

#define SL_JOB_DEFAULT_STOP_GRACE_SECONDS 10

/**
 * SlJobLogFunc:
 * @data: the next bytes of the log
 * @offset: the log offset of the first byte of @data
 */
typedef void (*SlJobLogFunc) (GBytes   *data,
                              guint64   offset,
                              gpointer  user_data);

#define SL_TYPE_JOB_BACKEND (sl_job_backend_get_type ())
G_DECLARE_INTERFACE (SlJobBackend, sl_job_backend, SL, JOB_BACKEND, GObject)

struct _SlJobBackendInterface
{
  GTypeInterface parent_iface;

  char        *(*dup_launch_command) (SlJobBackend  *self,
                                      SlJob         *job,
                                      GError       **error);
  gboolean     (*launch)             (SlJobBackend  *self,
                                      SlJob         *job,
                                      GCancellable  *cancellable,
                                      GError       **error);
  SlJobStatus  (*poll)               (SlJobBackend  *self,
                                      SlJob         *job,
                                      int           *exit_code,
                                      GCancellable  *cancellable,
                                      GError       **error);
  gboolean     (*stop)               (SlJobBackend  *self,
                                      SlJob         *job,
                                      guint          grace_seconds,
                                      GCancellable  *cancellable,
                                      GError       **error);
  GBytes      *(*read_log)           (SlJobBackend  *self,
                                      SlJob         *job,
                                      guint64        offset,
                                      guint64        max_length,
                                      GCancellable  *cancellable,
                                      GError       **error);
};

char        *sl_job_backend_dup_launch_command (SlJobBackend  *self,
                                                SlJob         *job,
                                                GError       **error);
gboolean     sl_job_backend_launch             (SlJobBackend  *self,
                                                SlJob         *job,
                                                GCancellable  *cancellable,
                                                GError       **error);
SlJobStatus  sl_job_backend_poll               (SlJobBackend  *self,
                                                SlJob         *job,
                                                int           *exit_code,
                                                GCancellable  *cancellable,
                                                GError       **error);
gboolean     sl_job_backend_stop               (SlJobBackend  *self,
                                                SlJob         *job,
                                                guint          grace_seconds,
                                                GCancellable  *cancellable,
                                                GError       **error);
GBytes      *sl_job_backend_read_log           (SlJobBackend  *self,
                                                SlJob         *job,
                                                guint64        offset,
                                                guint64        max_length,
                                                GCancellable  *cancellable,
                                                GError       **error);
SlJobStatus  sl_job_backend_attach_log         (SlJobBackend  *self,
                                                SlJob         *job,
                                                guint64       *offset,
                                                gboolean       follow,
                                                SlJobLogFunc   func,
                                                gpointer       user_data,
                                                int           *exit_code,
                                                GCancellable  *cancellable,
                                                GError       **error);

void         sl_job_backend_launch_async       (SlJobBackend        *self,
                                                SlJob               *job,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean     sl_job_backend_launch_finish      (SlJobBackend        *self,
                                                GAsyncResult        *result,
                                                GError             **error);
void         sl_job_backend_stop_async         (SlJobBackend        *self,
                                                SlJob               *job,
                                                guint                grace_seconds,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean     sl_job_backend_stop_finish        (SlJobBackend        *self,
                                                GAsyncResult        *result,
                                                GError             **error);
void         sl_job_backend_attach_log_async   (SlJobBackend        *self,
                                                SlJob               *job,
                                                guint64              offset,
                                                SlJobLogFunc         func,
                                                gpointer             func_data,
                                                GDestroyNotify       func_data_destroy,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
SlJobStatus  sl_job_backend_attach_log_finish  (SlJobBackend        *self,
                                                GAsyncResult        *result,
                                                guint64             *offset,
                                                int                 *exit_code,
                                                GError             **error);

G_END_DECLS
