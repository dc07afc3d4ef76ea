/* sl-job-record.h: one command run on a target, kept in the job history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_JOB_STATE_QUEUED,
  SL_JOB_STATE_RUNNING,
  SL_JOB_STATE_SUCCEEDED,
  SL_JOB_STATE_FAILED,
  SL_JOB_STATE_CANCELLED,
  SL_JOB_STATE_LOST,        /* the target went away before the job ended */
} SlJobState;

#define SL_TYPE_JOB_RECORD (sl_job_record_get_type ())
G_DECLARE_FINAL_TYPE (SlJobRecord, sl_job_record, SL, JOB_RECORD, GObject)

/* The backend ids the job history stores. */
#define SL_JOB_BACKEND_DIRECT "direct"
#define SL_JOB_BACKEND_SLURM  "slurm"

SlJobRecord *sl_job_record_new               (const char  *command,
                                              gint64       target_id);
gint64       sl_job_record_get_id            (SlJobRecord *self);
void         sl_job_record_set_id            (SlJobRecord *self,
                                              gint64       id);
const char  *sl_job_record_get_command       (SlJobRecord *self);
gint64       sl_job_record_get_target_id     (SlJobRecord *self);
void         sl_job_record_set_target_id     (SlJobRecord *self,
                                              gint64       target_id);
const char  *sl_job_record_get_target_name   (SlJobRecord *self);
void         sl_job_record_set_target_name   (SlJobRecord *self,
                                              const char  *name);
gint64       sl_job_record_get_project_id    (SlJobRecord *self);
void         sl_job_record_set_project_id    (SlJobRecord *self,
                                              gint64       project_id);
const char  *sl_job_record_get_project_name  (SlJobRecord *self);
void         sl_job_record_set_project_name  (SlJobRecord *self,
                                              const char  *name);
gint64       sl_job_record_get_started_at    (SlJobRecord *self);
void         sl_job_record_set_started_at    (SlJobRecord *self,
                                              gint64       started_at);
gint64       sl_job_record_get_finished_at   (SlJobRecord *self);
void         sl_job_record_set_finished_at   (SlJobRecord *self,
                                              gint64       finished_at);
gboolean     sl_job_record_has_exit_code     (SlJobRecord *self);
int          sl_job_record_get_exit_code     (SlJobRecord *self);
void         sl_job_record_set_exit_code     (SlJobRecord *self,
                                              int          exit_code);
const char  *sl_job_record_get_log_path      (SlJobRecord *self);
void         sl_job_record_set_log_path      (SlJobRecord *self,
                                              const char  *path);
const char  *sl_job_record_get_remote_folder (SlJobRecord *self);
void         sl_job_record_set_remote_folder (SlJobRecord *self,
                                              const char  *folder);
SlJobState   sl_job_record_get_state         (SlJobRecord *self);
void         sl_job_record_set_state         (SlJobRecord *self,
                                              SlJobState   state);

const char  *sl_job_record_get_backend      (SlJobRecord *self);
void         sl_job_record_set_backend      (SlJobRecord *self,
                                             const char  *backend);
gboolean     sl_job_record_is_slurm         (SlJobRecord *self);
const char  *sl_job_record_get_backend_job_id (SlJobRecord *self);
void         sl_job_record_set_backend_job_id (SlJobRecord *self,
                                             const char  *id);
const char  *sl_job_record_get_backend_state (SlJobRecord *self);
const char  *sl_job_record_get_backend_reason (SlJobRecord *self);
void         sl_job_record_set_backend_state (SlJobRecord *self,
                                             const char  *state,
                                             const char  *reason);
const char  *sl_job_record_get_state_word   (SlJobRecord *self);
const char  *sl_job_record_get_outcome_reason (SlJobRecord *self);
void         sl_job_record_set_outcome_reason (SlJobRecord *self,
                                             const char  *reason);

const char  *sl_job_state_to_id              (SlJobState   state);
gboolean     sl_job_state_from_id            (const char  *id,
                                              SlJobState  *state);
gboolean     sl_job_state_is_finished        (SlJobState   state);

G_END_DECLS
