/* sl-workflow.h: what the Convert, Profile and MindX workflows share, so each keeps only its stages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-job-controller.h"
#include "sl-problem.h"
#include "sl-target.h"
#include "sl-target-shell.h"

G_BEGIN_DECLS

#define SL_TYPE_WORKFLOW (sl_workflow_get_type ())
G_DECLARE_DERIVABLE_TYPE (SlWorkflow, sl_workflow, SL, WORKFLOW, GObject)

struct _SlWorkflowClass
{
  GObjectClass parent_class;

  /* The stage a finished run is in; stage 0 is idle. */
  int          done_stage;

  /* The stages, in the thread that runs the workflow. FALSE with @error
   * only when nothing could be tried or the run was interrupted; what
   * went wrong otherwise is kept as problems. */
  gboolean   (*run_stages)     (SlWorkflow    *self,
                                GCancellable  *cancellable,
                                GError       **error);
  /* Forgets what the subclass kept of an earlier run. */
  void       (*reset)          (SlWorkflow    *self);
  /* The verdict; by default, no problem is an error. */
  gboolean   (*succeeded)      (SlWorkflow    *self);
  const char *(*stage_label)   (SlWorkflow    *self,
                                int            stage);

  gpointer     padding[8];
};

SlTarget       *sl_workflow_get_target      (SlWorkflow          *self);
const char     *sl_workflow_get_project_dir (SlWorkflow          *self);
void            sl_workflow_set_env_script  (SlWorkflow          *self,
                                             const char          *env_script);
const char     *sl_workflow_get_env_script  (SlWorkflow          *self);
void            sl_workflow_set_remote_dir  (SlWorkflow          *self,
                                             const char          *remote_dir);
const char     *sl_workflow_get_remote_dir  (SlWorkflow          *self);
/* The job history the job is recorded in (the default one when NULL). */
void            sl_workflow_set_store_path  (SlWorkflow          *self,
                                             const char          *store_path);
const char     *sl_workflow_get_store_path  (SlWorkflow          *self);
/* The controller that follows the job, with the Console's and every
 * other job of the program; without one (the command line), a run
 * follows its job by itself. Used in the caller's context. */
void            sl_workflow_set_job_controller (SlWorkflow       *self,
                                             SlJobController     *jobs);
SlJobController *sl_workflow_get_job_controller (SlWorkflow      *self);
/* The job's number in the controller's signals, once it started there;
 * 0 otherwise. Read in the caller's context. */
guint           sl_workflow_get_controller_job (SlWorkflow       *self);
/* The shell the stages use on the target; one is made when none is set. */
void            sl_workflow_set_shell       (SlWorkflow          *self,
                                             SlTargetShell       *shell);

/* Runs the stages in the calling thread; the events are emitted at once,
 * with the thread-default main context held when no other thread runs it.
 * FALSE with @error only when nothing could be tried or @cancellable was
 * cancelled (a started job is stopped first). */
gboolean        sl_workflow_run             (SlWorkflow          *self,
                                             GCancellable        *cancellable,
                                             GError             **error);
/* Runs the stages on a worker thread; the events and @callback come in
 * the thread-default main context of the caller. */
void            sl_workflow_run_async       (SlWorkflow          *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean        sl_workflow_run_finish      (SlWorkflow          *self,
                                             GAsyncResult        *result,
                                             GError             **error);
gboolean        sl_workflow_is_running      (SlWorkflow          *self);

/* The stage as last notified, and its words. */
int             sl_workflow_get_stage       (SlWorkflow          *self);
const char     *sl_workflow_get_stage_label (SlWorkflow          *self);
/* SlProblem items (transfer none), in the order they were found. */
GPtrArray      *sl_workflow_get_problems    (SlWorkflow          *self);
guint           sl_workflow_count_errors    (SlWorkflow          *self);
gboolean        sl_workflow_succeeded       (SlWorkflow          *self);
/* The job's log on the target, and its copy here. */
const char     *sl_workflow_get_log_path    (SlWorkflow          *self);
const char     *sl_workflow_get_local_log   (SlWorkflow          *self);
/* The job's exit code, -1 unless it exited. */
int             sl_workflow_get_exit_code   (SlWorkflow          *self);
/* The job in the history, or 0 when none started. */
gint64          sl_workflow_get_job_id      (SlWorkflow          *self);

G_END_DECLS
