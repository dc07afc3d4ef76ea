/* sl-profile-workflow.h: profiles a program on a target, from the preflight to the pulled folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-msprof-command.h"
#include "sl-target.h"
#include "sl-workflow.h"
#include "sl-target-shell.h"

G_BEGIN_DECLS

typedef enum {
  SL_PROFILE_STAGE_IDLE,
  SL_PROFILE_STAGE_PREFLIGHT,
  SL_PROFILE_STAGE_UPLOADING,  /* the project uploaded, the job started */
  SL_PROFILE_STAGE_RUNNING,
  SL_PROFILE_STAGE_EXPORTING,
  SL_PROFILE_STAGE_PULLING,
  SL_PROFILE_STAGE_DONE,
} SlProfileStage;

/* An SlWorkflow: its "stage" is an SlProfileStage, and its events (stage,
 * log, message, problem, finished) come as SlWorkflow says. */
#define SL_TYPE_PROFILE_WORKFLOW (sl_profile_workflow_get_type ())
G_DECLARE_FINAL_TYPE (SlProfileWorkflow, sl_profile_workflow, SL, PROFILE_WORKFLOW, SlWorkflow)

SlProfileWorkflow *sl_profile_workflow_new            (SlTarget           *target,
                                                       const char         *project_dir,
                                                       SlMsprofCommand    *command);
void               sl_profile_workflow_set_env_script (SlProfileWorkflow  *self,
                                                       const char         *env_script);
void               sl_profile_workflow_set_remote_dir (SlProfileWorkflow  *self,
                                                       const char         *remote_dir);
void               sl_profile_workflow_set_device     (SlProfileWorkflow  *self,
                                                       int                 device_id);
void               sl_profile_workflow_set_store_path (SlProfileWorkflow  *self,
                                                       const char         *store_path);
void               sl_profile_workflow_set_shell      (SlProfileWorkflow  *self,
                                                       SlTargetShell      *shell);
/* The preflight, profile and export commands, as they would run. */
char              *sl_profile_workflow_dup_dry_run    (SlProfileWorkflow  *self,
                                                       GError            **error);

/* FALSE with @error only when nothing could be tried or @cancellable
 * was cancelled (G_IO_ERROR_CANCELLED; a started job is stopped first);
 * otherwise TRUE, and the outcome is in the problems and the profile
 * folder. */
gboolean           sl_profile_workflow_run            (SlProfileWorkflow  *self,
                                                       GCancellable       *cancellable,
                                                       GError            **error);
void               sl_profile_workflow_run_async      (SlProfileWorkflow  *self,
                                                       GCancellable       *cancellable,
                                                       GAsyncReadyCallback callback,
                                                       gpointer            user_data);
gboolean           sl_profile_workflow_run_finish     (SlProfileWorkflow  *self,
                                                       GAsyncResult       *result,
                                                       GError            **error);

SlProfileStage     sl_profile_workflow_get_stage      (SlProfileWorkflow  *self);
const char        *sl_profile_stage_to_label          (SlProfileStage      stage);
/* The pulled folder on this computer, or NULL when none came. */
const char        *sl_profile_workflow_get_profile    (SlProfileWorkflow  *self);
const char        *sl_profile_workflow_get_remote     (SlProfileWorkflow  *self);
const char        *sl_profile_workflow_get_log_path   (SlProfileWorkflow  *self);
const char        *sl_profile_workflow_get_local_log  (SlProfileWorkflow  *self);
int                sl_profile_workflow_get_exit_code  (SlProfileWorkflow  *self);
/* SlProblem items (transfer none). */
GPtrArray         *sl_profile_workflow_get_problems   (SlProfileWorkflow  *self);
gboolean           sl_profile_workflow_succeeded      (SlProfileWorkflow  *self);

G_END_DECLS
