/* sl-job-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-job-record.h"

#include "sl-record-fields.h"

struct _SlJobRecord
{
  GObject     parent_instance;
  gint64      id;
  gint64      target_id;
  gint64      project_id;
  gint64      started_at;
  gint64      finished_at;
  int         exit_code;
  guint       has_exit_code : 1;
  SlJobState  state;
  char       *command;
  char       *target_name;
  char       *project_name;
  char       *log_path;
  char       *remote_folder;
  char       *backend;
  char       *backend_job_id;
  char       *backend_state;
  char       *backend_reason;
  char       *outcome_reason;
};

G_DEFINE_FINAL_TYPE (SlJobRecord, sl_job_record, G_TYPE_OBJECT)

/* The ids are what the database stores; they never change once released. */
static const char * const state_ids[] = {
  [SL_JOB_STATE_QUEUED] = "queued",
  [SL_JOB_STATE_RUNNING] = "running",
  [SL_JOB_STATE_SUCCEEDED] = "succeeded",
  [SL_JOB_STATE_FAILED] = "failed",
  [SL_JOB_STATE_CANCELLED] = "cancelled",
  [SL_JOB_STATE_LOST] = "lost",
};

static void
sl_job_record_finalize (GObject *object)
{
  SlJobRecord *self = (SlJobRecord *)object;

  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->target_name, g_free);
  g_clear_pointer (&self->project_name, g_free);
  g_clear_pointer (&self->log_path, g_free);
  g_clear_pointer (&self->remote_folder, g_free);
  g_clear_pointer (&self->backend, g_free);
  g_clear_pointer (&self->backend_job_id, g_free);
  g_clear_pointer (&self->backend_state, g_free);
  g_clear_pointer (&self->backend_reason, g_free);
  g_clear_pointer (&self->outcome_reason, g_free);

  G_OBJECT_CLASS (sl_job_record_parent_class)->finalize (object);
}

static void
sl_job_record_class_init (SlJobRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_job_record_finalize;
}

static void
sl_job_record_init (SlJobRecord *self)
{
  self->state = SL_JOB_STATE_RUNNING;
  self->started_at = g_get_real_time ();
  self->backend = g_strdup (SL_JOB_BACKEND_DIRECT);
}

/**
 * sl_job_record_new:
 * @command: the command line as the user would type it
 * @target_id: the target it runs on
 *
 * Returns: (transfer full): a running job, started now, not stored yet
 */
SlJobRecord *
sl_job_record_new (const char *command,
                   gint64      target_id)
{
  SlJobRecord *self;

  g_return_val_if_fail (command != NULL, NULL);
  g_return_val_if_fail (target_id >= 0, NULL);

  self = g_object_new (SL_TYPE_JOB_RECORD, NULL);
  self->command = g_strdup (command);
  self->target_id = target_id;

  return self;
}

gint64
sl_job_record_get_id (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), 0);
  return self->id;
}

void
sl_job_record_set_id (SlJobRecord *self,
                      gint64       id)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  self->id = id;
}

const char *
sl_job_record_get_command (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->command;
}

/**
 * sl_job_record_get_target_id:
 *
 * Returns: the target's id, or 0 when the target was removed since
 */
gint64
sl_job_record_get_target_id (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), 0);
  return self->target_id;
}

void
sl_job_record_set_target_id (SlJobRecord *self,
                             gint64       target_id)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  g_return_if_fail (target_id >= 0);
  self->target_id = target_id;
}

/**
 * sl_job_record_get_target_name:
 *
 * Returns: (nullable): the target's name when the job started; it stays
 *   in the history after the target is renamed or removed
 */
const char *
sl_job_record_get_target_name (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->target_name;
}

void
sl_job_record_set_target_name (SlJobRecord *self,
                               const char  *name)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->target_name, name);
}

gint64
sl_job_record_get_project_id (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), 0);
  return self->project_id;
}

/**
 * sl_job_record_set_project_id:
 * @project_id: the project the job belongs to, or 0 for none
 */
void
sl_job_record_set_project_id (SlJobRecord *self,
                              gint64       project_id)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  g_return_if_fail (project_id >= 0);
  self->project_id = project_id;
}

const char *
sl_job_record_get_project_name (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->project_name;
}

void
sl_job_record_set_project_name (SlJobRecord *self,
                                const char  *name)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->project_name, name);
}

/**
 * sl_job_record_get_started_at:
 *
 * Returns: microseconds since the Unix epoch (as g_get_real_time())
 */
gint64
sl_job_record_get_started_at (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), 0);
  return self->started_at;
}

void
sl_job_record_set_started_at (SlJobRecord *self,
                              gint64       started_at)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  self->started_at = started_at;
}

/**
 * sl_job_record_get_finished_at:
 *
 * Returns: microseconds since the Unix epoch, or 0 while the job runs
 */
gint64
sl_job_record_get_finished_at (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), 0);
  return self->finished_at;
}

void
sl_job_record_set_finished_at (SlJobRecord *self,
                               gint64       finished_at)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  self->finished_at = finished_at;
}

/**
 * sl_job_record_has_exit_code:
 *
 * Returns: %FALSE while the job runs, or when it ended without one (it
 *   was lost or killed by a signal)
 */
gboolean
sl_job_record_has_exit_code (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), FALSE);
  return self->has_exit_code;
}

int
sl_job_record_get_exit_code (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), -1);
  return self->has_exit_code ? self->exit_code : -1;
}

void
sl_job_record_set_exit_code (SlJobRecord *self,
                             int          exit_code)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  self->exit_code = exit_code;
  self->has_exit_code = TRUE;
}

const char *
sl_job_record_get_log_path (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->log_path;
}

/**
 * sl_job_record_set_log_path:
 * @path: (nullable): the local copy of the job's output
 */
void
sl_job_record_set_log_path (SlJobRecord *self,
                            const char  *path)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->log_path, path);
}

const char *
sl_job_record_get_remote_folder (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->remote_folder;
}

/**
 * sl_job_record_set_remote_folder:
 * @folder: (nullable): the job's own folder on the target
 */
void
sl_job_record_set_remote_folder (SlJobRecord *self,
                                 const char  *folder)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->remote_folder, folder);
}

SlJobState
sl_job_record_get_state (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), SL_JOB_STATE_QUEUED);
  return self->state;
}

void
sl_job_record_set_state (SlJobRecord *self,
                         SlJobState   state)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  g_return_if_fail (state < G_N_ELEMENTS (state_ids));
  self->state = state;
}

const char *
sl_job_state_to_id (SlJobState state)
{
  g_return_val_if_fail (state < G_N_ELEMENTS (state_ids), NULL);
  return state_ids[state];
}

gboolean
sl_job_state_from_id (const char *id,
                      SlJobState *state)
{
  g_return_val_if_fail (state != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (state_ids); i++)
    {
      if (g_str_equal (id, state_ids[i]))
        {
          *state = (SlJobState)i;
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
sl_job_state_is_finished (SlJobState state)
{
  return state != SL_JOB_STATE_QUEUED && state != SL_JOB_STATE_RUNNING;
}

/**
 * sl_job_record_get_backend:
 *
 * Returns: how the job was started: %SL_JOB_BACKEND_DIRECT (its own
 *   process group) or %SL_JOB_BACKEND_SLURM
 */
const char *
sl_job_record_get_backend (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->backend;
}

void
sl_job_record_set_backend (SlJobRecord *self,
                           const char  *backend)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  g_return_if_fail (backend != NULL);
  sl_record_replace_string (&self->backend, backend);
}

gboolean
sl_job_record_is_slurm (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), FALSE);
  return g_strcmp0 (self->backend, SL_JOB_BACKEND_SLURM) == 0;
}

/**
 * sl_job_record_get_backend_job_id:
 *
 * Returns: (nullable): what the backend knows the job by, such as
 *   Slurm's job id
 */
const char *
sl_job_record_get_backend_job_id (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->backend_job_id;
}

void
sl_job_record_set_backend_job_id (SlJobRecord *self,
                                  const char  *id)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->backend_job_id, id);
}

/**
 * sl_job_record_get_backend_state:
 *
 * Returns: (nullable): the scheduler's state word as last seen
 *   (PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, ...)
 */
const char *
sl_job_record_get_backend_state (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->backend_state;
}

/**
 * sl_job_record_get_backend_reason:
 *
 * Returns: (nullable): the scheduler's reason for that state, such as
 *   why the job waits
 */
const char *
sl_job_record_get_backend_reason (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->backend_reason;
}

void
sl_job_record_set_backend_state (SlJobRecord *self,
                                 const char  *state,
                                 const char  *reason)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->backend_state, state);
  sl_record_replace_string (&self->backend_reason, reason);
}

/**
 * sl_job_record_get_state_word:
 *
 * Returns: the word lists show for the job: the scheduler's state word
 *   when it has one, else the history's state id; the state id when the
 *   outcome was judged apart from how the job ended (see
 *   sl_job_record_get_outcome_reason())
 */
const char *
sl_job_record_get_state_word (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  if (self->backend_state != NULL && self->outcome_reason == NULL)
    return self->backend_state;
  return sl_job_state_to_id (self->state);
}

/**
 * sl_job_record_get_outcome_reason:
 *
 * Returns: (nullable): why the job's state is not what its exit code
 *   says, when the workflow that ran it judged its output, such as
 *   "exit 0, but the log holds 3 SDK errors"
 */
const char *
sl_job_record_get_outcome_reason (SlJobRecord *self)
{
  g_return_val_if_fail (SL_IS_JOB_RECORD (self), NULL);
  return self->outcome_reason;
}

void
sl_job_record_set_outcome_reason (SlJobRecord *self,
                                  const char  *reason)
{
  g_return_if_fail (SL_IS_JOB_RECORD (self));
  sl_record_replace_string (&self->outcome_reason, reason);
}
