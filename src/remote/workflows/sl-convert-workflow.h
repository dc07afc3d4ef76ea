/* sl-convert-workflow.h: converts a model with ATC on a target, from the preflight to the located .om
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-atc-command.h"
#include "sl-target.h"
#include "sl-workflow.h"
#include "sl-target-shell.h"

G_BEGIN_DECLS

typedef enum {
  SL_CONVERT_STAGE_IDLE,
  SL_CONVERT_STAGE_PREFLIGHT,
  SL_CONVERT_STAGE_CONVERTING,
  SL_CONVERT_STAGE_PULLING_LOGS,
  SL_CONVERT_STAGE_DONE,
} SlConvertStage;

/* An SlWorkflow: its "stage" is an SlConvertStage, and its events (stage,
 * log, message, problem, finished) come as SlWorkflow says. */
#define SL_TYPE_CONVERT_WORKFLOW (sl_convert_workflow_get_type ())
G_DECLARE_FINAL_TYPE (SlConvertWorkflow, sl_convert_workflow, SL, CONVERT_WORKFLOW, SlWorkflow)

SlConvertWorkflow *sl_convert_workflow_new              (SlTarget           *target,
                                                         const char         *project_dir,
                                                         SlAtcCommand       *command);
void               sl_convert_workflow_set_env_script   (SlConvertWorkflow  *self,
                                                         const char         *env_script);
void               sl_convert_workflow_set_remote_dir   (SlConvertWorkflow  *self,
                                                         const char         *remote_dir);
void               sl_convert_workflow_set_store_path   (SlConvertWorkflow  *self,
                                                         const char         *store_path);
void               sl_convert_workflow_set_shell        (SlConvertWorkflow  *self,
                                                         SlTargetShell      *shell);
/* The preflight and the conversion, as they would run. */
char              *sl_convert_workflow_dup_dry_run      (SlConvertWorkflow  *self,
                                                         GError            **error);

/* FALSE with @error only when nothing could be tried or the run was
 * cancelled; otherwise TRUE, and the outcome is in the problems and the
 * output. */
gboolean           sl_convert_workflow_run              (SlConvertWorkflow  *self,
                                                         GCancellable       *cancellable,
                                                         GError            **error);
void               sl_convert_workflow_run_async        (SlConvertWorkflow  *self,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
gboolean           sl_convert_workflow_run_finish       (SlConvertWorkflow  *self,
                                                         GAsyncResult       *result,
                                                         GError            **error);

SlConvertStage     sl_convert_workflow_get_stage        (SlConvertWorkflow  *self);
const char        *sl_convert_stage_to_label            (SlConvertStage      stage);
/* The .om on the target once ATC said it succeeded and the file is there. */
const char        *sl_convert_workflow_get_output       (SlConvertWorkflow  *self);
/* The same on this computer, when the target is this computer. */
const char        *sl_convert_workflow_get_local_output (SlConvertWorkflow  *self);
/* The model ATC read, on this computer, or NULL when it is not here. */
char              *sl_convert_workflow_dup_local_source (SlConvertWorkflow  *self);
/* The job's log (ATC's stdout) on the target and its copy here. */
const char        *sl_convert_workflow_get_log_path     (SlConvertWorkflow  *self);
const char        *sl_convert_workflow_get_local_log    (SlConvertWorkflow  *self);
/* The plog files the run wrote, on the target, and their copies here
 * (the same length; an entry is "" where the copy failed). */
const char * const *sl_convert_workflow_get_plogs       (SlConvertWorkflow  *self);
const char * const *sl_convert_workflow_get_local_plogs (SlConvertWorkflow  *self);
int                sl_convert_workflow_get_exit_code    (SlConvertWorkflow  *self);
/* SlProblem items (transfer none). */
GPtrArray         *sl_convert_workflow_get_problems     (SlConvertWorkflow  *self);
gboolean           sl_convert_workflow_succeeded        (SlConvertWorkflow  *self);

G_END_DECLS
