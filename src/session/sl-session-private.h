/* sl-session-private.h: what the session's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-session.h"
#include "sl-slurm-refresher.h"

G_BEGIN_DECLS

struct _SlSession
{
  GObject           parent_instance;

  GMainContext     *context;          /* where the session's signals are emitted */
  SlWorkspace      *workspace;
  SlJobController  *jobs;
  guint             local_job;        /* the newest program of this computer's job */
  SlSlurmRefresher *slurm_refresher;  /* Slurm jobs nobody follows */
  guint             slurm_refresh_source;
  guint             jobs_shown;       /* Jobs lists in view */
  gboolean          following;        /* unfinished jobs followed again, once */
  GListStore       *problems;
  GPtrArray        *runs;             /* SlSessionRun: workflows running */
  GHashTable       *running;          /* the controller's jobs running: number → RunningJob */
  guint             n_running;        /* as last notified */
  guint             scan_source;
  guint             scan_progress;
  char             *scan_folder;
  gboolean          busy;
};

enum {
  SL_SESSION_JOB_STARTED,
  SL_SESSION_JOB_OUTPUT,
  SL_SESSION_JOB_MESSAGE,
  SL_SESSION_JOB_STATUS,
  SL_SESSION_JOB_FINISHED,
  SL_SESSION_OPEN_REQUESTED,
  SL_SESSION_NOTICE,
  SL_SESSION_OFFER,
  SL_SESSION_N_SIGNALS
};

extern guint _sl_session_signals[SL_SESSION_N_SIGNALS];

void _sl_session_update_busy   (SlSession  *self);
/* Notifies "n-running" when what the session runs changed. */
void _sl_session_update_running (SlSession *self);
void _sl_session_job_began     (SlSession  *self,
                                guint       job,
                                const char *title,
                                gboolean    local);
void _sl_session_job_ended     (SlSession  *self,
                                guint       job);
void _sl_session_running_job_free (gpointer data);
void _sl_session_notice        (SlSession  *self,
                                const char *text);
/* A notice with a button that opens a document (#SlSession::offer). */
void _sl_session_offer         (SlSession          *self,
                                const char         *text,
                                const char         *label,
                                const char         *kind,
                                const char * const *paths,
                                GVariant           *request);

/* A workflow run as a job of the session: its job goes through the
 * session's job controller, whose signals are the session's; the run
 * is kept for busy, the current job, Stop and its problems. */
typedef struct _SlSessionRun SlSessionRun;

struct _SlSessionRun
{
  SlSession       *session;
  GObject         *workflow;
  char            *title;
  GCancellable    *cancellable;       /* stopped by the Console's Stop, or NULL */
  gboolean         ended;
};

SlSessionRun *_sl_session_begin_run   (SlSession     *self,
                                       GObject       *workflow,
                                       const char    *title,
                                       GCancellable  *cancellable);
void          _sl_session_run_status  (SlSessionRun  *run,
                                       const char    *status);
/* Each stage of the run becomes its job's status. */
void          _sl_session_follow_stages (SlSessionRun *run);
/* Ends the run: its problems go to the session's (the workflow ended
 * its job in the Console with its verdict). */
void          _sl_session_end_run     (SlSessionRun  *run,
                                       GPtrArray     *problems);
guint         _sl_session_count_errors (GPtrArray    *problems);

G_END_DECLS
