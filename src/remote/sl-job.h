/* sl-job.h: one job and its folder on a target
 *
 * What is known of a job without asking the target: its id, the job
 * folder <base>/.sightline/jobs/<id>/, the command line, the folder it
 * runs in, the environment setup, and the backend's own id for it.
 * Reference counted; see sl-job-backend.h for running it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _SlJob SlJob;

GType        sl_job_get_type             (void) G_GNUC_CONST;
SlJob       *sl_job_new                  (const char * const *argv,
                                          const char         *working_dir,
                                          const char         *base_dir);
SlJob       *sl_job_new_with_id          (const char * const *argv,
                                          const char         *working_dir,
                                          const char         *base_dir,
                                          const char         *id);
SlJob       *sl_job_new_for_dir          (const char         *job_dir);
SlJob       *sl_job_ref                  (SlJob              *job);
void         sl_job_unref                (SlJob              *job);
const char  *sl_job_get_id               (SlJob              *job);
const char  *sl_job_get_dir              (SlJob              *job);
char        *sl_job_dup_log_path         (SlJob              *job);
char        *sl_job_dup_file_path        (SlJob              *job,
                                          const char         *name);
const char  *sl_job_get_working_dir      (SlJob              *job);
const char * const *sl_job_get_argv      (SlJob              *job);
char        *sl_job_dup_command_line     (SlJob              *job);
const char  *sl_job_get_env_setup        (SlJob              *job);
void         sl_job_set_env_setup        (SlJob              *job,
                                          const char         *command);
const char  *sl_job_get_backend_id       (SlJob              *job);
void         sl_job_set_backend_id       (SlJob              *job,
                                          const char         *id);
const char  *sl_job_get_backend_state    (SlJob              *job);
const char  *sl_job_get_backend_reason   (SlJob              *job);
void         sl_job_set_backend_state    (SlJob              *job,
                                          const char         *state,
                                          const char         *reason);
gboolean     sl_job_get_disk_full        (SlJob              *job);
void         sl_job_set_disk_full        (SlJob              *job,
                                          gboolean            disk_full);
char        *sl_job_dup_new_id           (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlJob, sl_job_unref)

G_END_DECLS
