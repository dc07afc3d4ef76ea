/* sl-remote-run.h: a command run as a job on a target, from upload to pull
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-job-backend.h"
#include "sl-job-record.h"
#include "sl-slurm-options.h"
#include "sl-target.h"
#include "sl-target-record.h"
#include "sl-transfer.h"

G_BEGIN_DECLS

#define SL_TYPE_REMOTE_RUN (sl_remote_run_get_type ())
G_DECLARE_FINAL_TYPE (SlRemoteRun, sl_remote_run, SL, REMOTE_RUN, GObject)

SlTarget    *sl_target_new_from_record          (SlTargetRecord      *record,
                                                 GError             **error);
char        *sl_target_dup_job_base_dir         (SlTarget            *target);
char        *sl_target_dup_project_base_dir     (SlTarget            *target);
const char  *sl_target_get_env_setup            (SlTarget            *target);

SlRemoteRun *sl_remote_run_new                  (SlTarget            *target,
                                                 const char          *project_dir,
                                                 const char * const  *argv);
SlRemoteRun *sl_remote_run_new_for_record       (SlTarget            *target,
                                                 SlJobRecord         *record);
void         sl_remote_run_set_slurm_options    (SlRemoteRun         *self,
                                                 const SlSlurmOptions *options);
const SlSlurmOptions *sl_remote_run_get_slurm_options (SlRemoteRun   *self);
char        *sl_remote_run_dup_batch_script     (SlRemoteRun         *self);
gboolean     sl_remote_run_dup_slurm_preview    (SlRemoteRun         *self,
                                                 char               **script,
                                                 char               **sbatch,
                                                 GError             **error);
void         sl_remote_run_set_remote_dir       (SlRemoteRun         *self,
                                                 const char          *remote_dir);
void         sl_remote_run_set_pull_dirs        (SlRemoteRun         *self,
                                                 const char * const  *pull_dirs);
void         sl_remote_run_set_fresh_dirs       (SlRemoteRun         *self,
                                                 const char * const  *fresh_dirs);
char       **sl_remote_run_dup_set_aside_dirs   (SlRemoteRun         *self);
void         sl_remote_run_set_excludes         (SlRemoteRun         *self,
                                                 const char * const  *excludes);
void         sl_remote_run_set_env_setup        (SlRemoteRun         *self,
                                                 const char          *env_setup);
void         sl_remote_run_set_compare_content  (SlRemoteRun         *self,
                                                 gboolean             compare_content);
void         sl_remote_run_set_detach           (SlRemoteRun         *self,
                                                 gboolean             detach);
void         sl_remote_run_set_store_path       (SlRemoteRun         *self,
                                                 const char          *db_path);
void         sl_remote_run_set_reconnect_limit  (SlRemoteRun         *self,
                                                 guint                seconds);
void         sl_remote_run_set_pull_interval    (SlRemoteRun         *self,
                                                 guint                milliseconds);

SlTarget    *sl_remote_run_get_target           (SlRemoteRun         *self);
const char  *sl_remote_run_get_remote_dir       (SlRemoteRun         *self);
char        *sl_remote_run_dup_launch_command   (SlRemoteRun         *self,
                                                 GError             **error);
gint64       sl_remote_run_get_job_id           (SlRemoteRun         *self);
const char  *sl_remote_run_get_log_path         (SlRemoteRun         *self);
GStrv        sl_remote_run_dup_local_pull_dirs  (SlRemoteRun         *self);
void         sl_remote_run_request_stop         (SlRemoteRun         *self);
gboolean     sl_remote_run_get_started          (SlRemoteRun         *self);
char        *sl_remote_run_dup_lost_reason      (SlRemoteRun         *self);
gboolean     sl_remote_run_get_stopped          (SlRemoteRun         *self);
void         sl_remote_run_set_interrupted_error (SlRemoteRun        *run,
                                                 gboolean             ran,
                                                 SlJobStatus          status,
                                                 int                  exit_code,
                                                 GError              *job_error,
                                                 GError             **error);

gboolean     sl_remote_run_execute              (SlRemoteRun         *self,
                                                 SlJobStatus         *status,
                                                 int                 *exit_code,
                                                 GCancellable        *cancellable,
                                                 GError             **error);
void         sl_remote_run_execute_async        (SlRemoteRun         *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean     sl_remote_run_execute_finish       (SlRemoteRun         *self,
                                                 GAsyncResult        *result,
                                                 SlJobStatus         *status,
                                                 int                 *exit_code,
                                                 GError             **error);

const char  *sl_remote_run_explain_exit         (int                  exit_code);
SlJobState   sl_job_state_for_exit              (SlJobStatus          status,
                                                 int                  exit_code);

G_END_DECLS
