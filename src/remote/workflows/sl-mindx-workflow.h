/* sl-mindx-workflow.h: runs a MindX SDK app on a target, from the pipeline check to the pulled output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-mindx-settings.h"
#include "sl-target.h"
#include "sl-workflow.h"

G_BEGIN_DECLS

typedef enum {
  SL_MINDX_STAGE_IDLE,
  SL_MINDX_STAGE_CHECKING,
  SL_MINDX_STAGE_RUNNING,
  SL_MINDX_STAGE_DONE,
} SlMindxStage;

/* An SlWorkflow: its "stage" is an SlMindxStage, and its events (stage,
 * log, message, problem, finished) come as SlWorkflow says. */
#define SL_TYPE_MINDX_WORKFLOW (sl_mindx_workflow_get_type ())
G_DECLARE_FINAL_TYPE (SlMindxWorkflow, sl_mindx_workflow, SL, MINDX_WORKFLOW, SlWorkflow)

SlMindxWorkflow *sl_mindx_workflow_new             (SlTarget              *target,
                                                    const char            *project_dir,
                                                    const SlMindxSettings *settings,
                                                    const char * const    *args);
/* A run configuration's settings, arguments and output folders. */
SlMindxWorkflow *sl_mindx_workflow_new_for_config  (SlTarget              *target,
                                                    const char            *project_dir,
                                                    SlRunConfigRecord     *config);
void             sl_mindx_workflow_set_env_script  (SlMindxWorkflow       *self,
                                                    const char            *env_script);
/* NAME=VALUE pairs exported after the SDK's, such as ASCEND_RT_VISIBLE_DEVICES. */
void             sl_mindx_workflow_set_environment (SlMindxWorkflow       *self,
                                                    const char * const    *environment);
void             sl_mindx_workflow_set_remote_dir  (SlMindxWorkflow       *self,
                                                    const char            *remote_dir);
void             sl_mindx_workflow_set_pull_dirs   (SlMindxWorkflow       *self,
                                                    const char * const    *pull_dirs);
void             sl_mindx_workflow_set_excludes    (SlMindxWorkflow       *self,
                                                    const char * const    *excludes);
void             sl_mindx_workflow_set_store_path  (SlMindxWorkflow       *self,
                                                    const char            *store_path);

/* The environment as NAME=VALUE, in the order it is exported. */
GStrv            sl_mindx_workflow_dup_environment (SlMindxWorkflow       *self);
/* The job's set-up lines: the environment script sourced, then exports. */
char            *sl_mindx_workflow_dup_env_setup   (SlMindxWorkflow       *self,
                                                    GError               **error);
/* The app's command: python3 ENTRY ARGS. */
GStrv            sl_mindx_workflow_dup_argv        (SlMindxWorkflow       *self,
                                                    GError               **error);
/* The environment and the command, as a person would read them. */
char            *sl_mindx_workflow_dup_preview     (SlMindxWorkflow       *self,
                                                    GError               **error);
/* The preview and the exact command that starts the job. */
char            *sl_mindx_workflow_dup_dry_run     (SlMindxWorkflow       *self,
                                                    GError               **error);
/* The pipeline checked as the SDK would; the problems are kept. FALSE
 * when one is an error. Reads the disk. */
gboolean         sl_mindx_workflow_check_pipeline  (SlMindxWorkflow       *self);

/* FALSE with @error only when nothing could be tried; otherwise TRUE,
 * and the outcome is in the problems. */
gboolean         sl_mindx_workflow_run             (SlMindxWorkflow       *self,
                                                    GCancellable          *cancellable,
                                                    GError               **error);
void             sl_mindx_workflow_run_async       (SlMindxWorkflow       *self,
                                                    GCancellable          *cancellable,
                                                    GAsyncReadyCallback    callback,
                                                    gpointer               user_data);
gboolean         sl_mindx_workflow_run_finish      (SlMindxWorkflow       *self,
                                                    GAsyncResult          *result,
                                                    GError               **error);

SlMindxStage     sl_mindx_workflow_get_stage       (SlMindxWorkflow       *self);
const char      *sl_mindx_stage_to_label           (SlMindxStage           stage);
const char      *sl_mindx_workflow_get_log_path    (SlMindxWorkflow       *self);
const char      *sl_mindx_workflow_get_local_log   (SlMindxWorkflow       *self);
/* The output folders pulled into the cache (transfer none). */
const char * const *sl_mindx_workflow_get_pulled   (SlMindxWorkflow       *self);
int              sl_mindx_workflow_get_exit_code   (SlMindxWorkflow       *self);
/* SlProblem items (transfer none). */
GPtrArray       *sl_mindx_workflow_get_problems    (SlMindxWorkflow       *self);
gboolean         sl_mindx_workflow_succeeded       (SlMindxWorkflow       *self);

G_END_DECLS
