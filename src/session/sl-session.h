/* sl-session.h: the work of one running Sightline, shown by its windows
 *
 * A session owns the workspace, the one job controller that starts and
 * follows jobs, the one Slurm refresher that asks about the jobs nobody
 * follows, and the runs of the Profile, Convert and MindX workflows. What
 * a window shows of it are properties (busy, the current job, the scan's
 * progress), a problems model and signals; the windows observe it, and
 * the command line drives the same object.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-atc-command.h"
#include "sl-convert-workflow.h"
#include "sl-document-address.h"
#include "sl-job-controller.h"
#include "sl-mindx-workflow.h"
#include "sl-msprof-command.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-project-record.h"
#include "sl-remote-run.h"
#include "sl-slurm-options.h"
#include "sl-tuner-study.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_SESSION (sl_session_get_type ())
G_DECLARE_FINAL_TYPE (SlSession, sl_session, SL, SESSION, GObject)

SlSession       *sl_session_new                (SlWorkspace          *workspace);
SlWorkspace     *sl_session_get_workspace      (SlSession            *self);
SlSession       *sl_session_find_for_workspace (SlWorkspace          *workspace);
SlJobController *sl_session_get_jobs           (SlSession            *self);
GListModel      *sl_session_get_problems       (SlSession            *self);
void             sl_session_add_problem        (SlSession            *self,
                                                SlProblem            *problem);
void             sl_session_add_problems       (SlSession            *self,
                                                GPtrArray            *problems);
void             sl_session_clear_problems     (SlSession            *self);

gboolean         sl_session_get_busy           (SlSession            *self);
const char      *sl_session_get_current_job    (SlSession            *self);
guint            sl_session_get_n_runs         (SlSession            *self);
guint            sl_session_get_n_scanning     (SlSession            *self);
guint            sl_session_get_scan_progress  (SlSession            *self);
const char      *sl_session_get_scan_folder    (SlSession            *self);
void             sl_session_request_open       (SlSession            *self,
                                                const char           *kind,
                                                const char           *path,
                                                GVariant             *target);
void             sl_session_request_open_address (SlSession          *self,
                                                  const char         *kind,
                                                  SlDocumentAddress  *address,
                                                  GVariant           *target);

/* Following jobs: once per session (the program's, not the command line's) */
void             sl_session_follow_jobs        (SlSession            *self);
void             sl_session_set_jobs_shown     (SlSession            *self,
                                                gboolean              shown);
void             sl_session_refresh_slurm_jobs (SlSession            *self);

/* Runs (sl-session-runs.c) */
gboolean         sl_session_run_argv           (SlSession            *self,
                                                const char * const   *argv,
                                                const char           *working_dir,
                                                GError              **error);
gboolean         sl_session_run_command        (SlSession            *self,
                                                const char           *command_line,
                                                const char           *working_dir,
                                                GError              **error);
gboolean         sl_session_run_on_target      (SlSession            *self,
                                                gint64                target_id,
                                                const char           *command_line,
                                                const char           *project_dir,
                                                const char           *pull_dirs,
                                                const char           *remote_dir,
                                                const char * const   *excludes,
                                                const SlSlurmOptions *slurm,
                                                GError              **error);
gboolean         sl_session_run_remote_sync    (SlSession            *self,
                                                SlRemoteRun          *run,
                                                const char           *command_line,
                                                SlJobStatus          *status,
                                                int                  *exit_code,
                                                GError              **error);
void             sl_session_stop               (SlSession            *self);
void             sl_session_stop_job           (SlSession            *self,
                                                guint                 job);

/* What the session runs now (sl-session-runs.c): each job of its job
 * controller and each workflow's run, as the window asks about them
 * before the last one closes. */
typedef enum {
  SL_SESSION_WORK_DETACHED,   /* a job on a target: it goes on without Sightline */
  SL_SESSION_WORK_LOCAL,      /* a program of this computer: it ends with Sightline */
  SL_SESSION_WORK_WORKFLOW,   /* a workflow's run: what it has not done yet ends with Sightline */
} SlSessionWork;

guint            sl_session_get_n_running      (SlSession            *self);
char           **sl_session_dup_running        (SlSession            *self,
                                                GArray              **kinds);
void             sl_session_stop_all           (SlSession            *self);

/* The target a workflow runs on: @target_id's, or this computer's for 0. */
SlTarget        *sl_session_create_target      (SlSession            *self,
                                                gint64                target_id,
                                                GError              **error);

/* Profile (sl-session-profile.c) */
SlProfileWorkflow *sl_session_create_profile   (SlSession            *self,
                                                gint64                target_id,
                                                const char           *project_dir,
                                                const char           *env_script,
                                                SlMsprofCommand      *command,
                                                GError              **error);
void             sl_session_run_profile        (SlSession            *self,
                                                SlProfileWorkflow    *workflow,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean         sl_session_run_profile_finish (SlSession            *self,
                                                GAsyncResult         *result,
                                                GError              **error);

/* Convert (sl-session-convert.c): the session follows a conversion that
 * its dialog runs. */
SlConvertWorkflow *sl_session_create_convert   (SlSession            *self,
                                                gint64                target_id,
                                                const char           *project_dir,
                                                const char           *env_script,
                                                SlAtcCommand         *command,
                                                GError              **error);

/* Any of them, waited for (sl-session-workflow.c): the command line's */
gboolean         sl_session_run_workflow_sync  (SlSession            *self,
                                                SlWorkflow           *workflow,
                                                GCancellable         *cancellable,
                                                GError              **error);

/* Tuner studies (sl-session-tuner.c): each trial a job of the session */
void             sl_session_run_study          (SlSession            *self,
                                                SlTunerStudy         *study,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean         sl_session_run_study_sync     (SlSession            *self,
                                                SlTunerStudy         *study,
                                                GError              **error);

/* MindX (sl-session-mindx.c) */
SlMindxWorkflow *sl_session_run_mindx          (SlSession            *self,
                                                SlProjectRecord      *project,
                                                SlRunConfigRecord    *config,
                                                gint64                target_id,
                                                GError              **error);

G_END_DECLS
