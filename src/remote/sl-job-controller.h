/* sl-job-controller.h: starts jobs on this computer or on a target,
 * follows them and keeps them in the job history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-job-record.h"
#include "sl-remote-run.h"
#include "sl-slurm-options.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_JOB_CONTROLLER (sl_job_controller_get_type ())
G_DECLARE_FINAL_TYPE (SlJobController, sl_job_controller, SL, JOB_CONTROLLER, GObject)

SlJobController *sl_job_controller_new            (SlWorkspace         *workspace);
gboolean         sl_job_controller_is_running     (SlJobController     *self);
gboolean         sl_job_controller_get_job_outlives_follower (SlJobController *self);
const char      *sl_job_controller_get_title      (SlJobController     *self);
const char      *sl_job_controller_get_working_dir (SlJobController    *self);
gboolean         sl_job_controller_run_local      (SlJobController     *self,
                                                   const char * const  *argv,
                                                   const char          *working_dir,
                                                   GError             **error);
gboolean         sl_job_controller_run_on_target  (SlJobController     *self,
                                                   gint64               target_id,
                                                   const char          *command_line,
                                                   const char          *project_dir,
                                                   const char          *pull_dirs,
                                                   const char          *remote_dir,
                                                   const char * const  *excludes,
                                                   GError             **error);
gboolean         sl_job_controller_run_on_target_full (SlJobController  *self,
                                                   gint64               target_id,
                                                   const char          *command_line,
                                                   const char          *project_dir,
                                                   const char          *pull_dirs,
                                                   const char          *remote_dir,
                                                   const char * const  *excludes,
                                                   const SlSlurmOptions *slurm,
                                                   GError             **error);
gboolean         sl_job_controller_follow_again   (SlJobController     *self,
                                                   SlJobRecord         *job,
                                                   GError             **error);
gboolean         sl_job_controller_follow_unfinished (SlJobController  *self);
gint64           sl_job_controller_get_remote_job_id (SlJobController  *self);
gboolean         sl_job_controller_run_remote_sync (SlJobController    *self,
                                                   SlRemoteRun         *run,
                                                   const char          *command_line,
                                                   SlJobStatus         *status,
                                                   int                 *exit_code,
                                                   GError             **error);
/* A workflow's job, followed beside the Console's; returns its number. */
guint            sl_job_controller_follow_run_async (SlJobController   *self,
                                                   SlRemoteRun         *run,
                                                   const char          *title,
                                                   const char          *command_line,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean         sl_job_controller_follow_run_finish (SlJobController  *self,
                                                   GAsyncResult        *result,
                                                   SlJobStatus         *status,
                                                   int                 *exit_code,
                                                   GError             **error);
/* The same from a worker, waiting for the end. */
gboolean         sl_job_controller_follow_run_sync (SlJobController    *self,
                                                   GMainContext        *context,
                                                   SlRemoteRun         *run,
                                                   const char          *title,
                                                   const char          *command_line,
                                                   guint               *job,
                                                   SlJobStatus         *status,
                                                   int                 *exit_code,
                                                   GError             **error);
void             sl_job_controller_end_job        (SlJobController     *self,
                                                   guint                job,
                                                   int                  exit_code,
                                                   const char          *reason);
/* The Console's job's number, or 0 when it follows none. */
guint            sl_job_controller_get_console_job (SlJobController   *self);
/* The jobs followed, the Console's and the workflows'. */
guint            sl_job_controller_get_n_jobs     (SlJobController     *self);
void             sl_job_controller_stop           (SlJobController     *self);
void             sl_job_controller_stop_job       (SlJobController     *self,
                                                   guint                job);
void             sl_job_controller_read_log_async (SlJobController     *self,
                                                   SlJobRecord         *job,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
GBytes          *sl_job_controller_read_log_finish (SlJobController    *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
char            *sl_job_controller_quote_argv     (const char * const  *argv);

G_END_DECLS
