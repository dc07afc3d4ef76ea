/* sl-workflow-private.h: what a workflow's stages call on SlWorkflow
 *
 * For the subclasses only: these run in the thread that runs the
 * workflow, and queue the events for the caller's context.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-remote-run.h"
#include "sl-workflow.h"
#include "sl-workflow-preflight.h"

G_BEGIN_DECLS

typedef enum {
  SL_WORKFLOW_JOB_ENDED,        /* ran to its end: the exit code is kept */
  SL_WORKFLOW_JOB_NOT_RUN,      /* could not start or was lost: @error says why */
  SL_WORKFLOW_JOB_INTERRUPTED,  /* cancelled: @error says what became of it */
} SlWorkflowJobOutcome;

void                 sl_workflow_set_stage       (SlWorkflow            *self,
                                                  int                    stage);
void                 sl_workflow_emit_message    (SlWorkflow            *self,
                                                  const char            *text);
/* Takes @problem, with @hint set when not NULL. */
void                 sl_workflow_add_problem     (SlWorkflow            *self,
                                                  SlProblem             *problem,
                                                  const char            *hint);
/* Adds each of @problems; FALSE when one is an error. */
gboolean             sl_workflow_add_problems    (SlWorkflow            *self,
                                                  GPtrArray             *problems);
SlTargetShell       *sl_workflow_ensure_shell    (SlWorkflow            *self);
/* The job's log as it streamed; appending emits "log". */
GString             *sl_workflow_get_log         (SlWorkflow            *self);
void                 sl_workflow_append_log      (SlWorkflow            *self,
                                                  GBytes                *data);
/* ". SCRIPT" for the environment script, or NULL without one. */
char                *sl_workflow_dup_source_line (SlWorkflow            *self);
/* The job @argv in the project folder, with @env_setup, the remote folder
 * and the history set. */
SlRemoteRun         *sl_workflow_create_run      (SlWorkflow            *self,
                                                  const char * const    *argv,
                                                  const char            *env_setup);
/* Runs the preflight; its problems are kept. FALSE when one is an error
 * (or it could not run: a problem says so unless it was cancelled). */
gboolean             sl_workflow_run_preflight   (SlWorkflow            *self,
                                                  const SlPreflightSpec *spec,
                                                  GCancellable          *cancellable);
/* Runs @run as the job @argv recorded in the history: its log and
 * messages become the workflow's, a cancel stops it and waits for its
 * end. The exit code is -1 unless it ended. */
SlWorkflowJobOutcome sl_workflow_run_job         (SlWorkflow            *self,
                                                  SlRemoteRun           *run,
                                                  const char * const    *argv,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
/* Keeps the job's log path and its copy in the cache; on this computer
 * the log itself is the copy unless @copy_when_local. */
void                 sl_workflow_keep_log        (SlWorkflow            *self,
                                                  SlRemoteRun           *run,
                                                  gboolean               copy_when_local);
guint                sl_workflow_count_log_lines (SlWorkflow            *self);
/* Records the workflow's verdict on its job: failed, with @reason. */
gboolean             sl_workflow_record_failure  (SlWorkflow            *self,
                                                  const char            *reason,
                                                  GError               **error);
/* Where a file of the target goes in the cache. */
char                *sl_workflow_dup_cache_path  (SlWorkflow            *self,
                                                  const char            *remote_path,
                                                  GError               **error);
/* A cancel before the job started, or after it ended, in words. */
gboolean             sl_workflow_set_error_if_interrupted_before (SlWorkflow    *self,
                                                                  GCancellable  *cancellable,
                                                                  GError       **error);
gboolean             sl_workflow_set_error_if_interrupted_after  (SlWorkflow    *self,
                                                                  GCancellable  *cancellable,
                                                                  const char    *left,
                                                                  GError       **error);

/* The calls each workflow keeps under its own name, forwarded to the
 * base: SL_WORKFLOW_DEFINE_CALLS (SlConvertWorkflow, sl_convert_workflow,
 * SL_IS_CONVERT_WORKFLOW) defines sl_convert_workflow_run() and the rest. */
#define SL_WORKFLOW_DEFINE_CALLS(TypeName, type_name, IS_TYPE) \
  gboolean \
  type_name##_run (TypeName *self, GCancellable *cancellable, GError **error) \
  { \
    g_return_val_if_fail (IS_TYPE (self), FALSE); \
    return sl_workflow_run (SL_WORKFLOW (self), cancellable, error); \
  } \
  void \
  type_name##_run_async (TypeName *self, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) \
  { \
    g_return_if_fail (IS_TYPE (self)); \
    sl_workflow_run_async (SL_WORKFLOW (self), cancellable, callback, user_data); \
  } \
  gboolean \
  type_name##_run_finish (TypeName *self, GAsyncResult *result, GError **error) \
  { \
    g_return_val_if_fail (IS_TYPE (self), FALSE); \
    return sl_workflow_run_finish (SL_WORKFLOW (self), result, error); \
  } \
  const char * \
  type_name##_get_log_path (TypeName *self) \
  { \
    g_return_val_if_fail (IS_TYPE (self), NULL); \
    return sl_workflow_get_log_path (SL_WORKFLOW (self)); \
  } \
  const char * \
  type_name##_get_local_log (TypeName *self) \
  { \
    g_return_val_if_fail (IS_TYPE (self), NULL); \
    return sl_workflow_get_local_log (SL_WORKFLOW (self)); \
  } \
  int \
  type_name##_get_exit_code (TypeName *self) \
  { \
    g_return_val_if_fail (IS_TYPE (self), -1); \
    return sl_workflow_get_exit_code (SL_WORKFLOW (self)); \
  } \
  GPtrArray * \
  type_name##_get_problems (TypeName *self) \
  { \
    g_return_val_if_fail (IS_TYPE (self), NULL); \
    return sl_workflow_get_problems (SL_WORKFLOW (self)); \
  } \
  gboolean \
  type_name##_succeeded (TypeName *self) \
  { \
    g_return_val_if_fail (IS_TYPE (self), FALSE); \
    return sl_workflow_succeeded (SL_WORKFLOW (self)); \
  } \
  void \
  type_name##_set_env_script (TypeName *self, const char *env_script) \
  { \
    g_return_if_fail (IS_TYPE (self)); \
    sl_workflow_set_env_script (SL_WORKFLOW (self), env_script); \
  } \
  void \
  type_name##_set_remote_dir (TypeName *self, const char *remote_dir) \
  { \
    g_return_if_fail (IS_TYPE (self)); \
    sl_workflow_set_remote_dir (SL_WORKFLOW (self), remote_dir); \
  } \
  void \
  type_name##_set_store_path (TypeName *self, const char *store_path) \
  { \
    g_return_if_fail (IS_TYPE (self)); \
    sl_workflow_set_store_path (SL_WORKFLOW (self), store_path); \
  }

G_END_DECLS
