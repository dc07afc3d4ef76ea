/* sl-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session: its workspace, its one job controller and Slurm
 * refresher, its problems, and what its windows show of them. The runs
 * are in sl-session-runs.c and the workflows in sl-session-profile.c,
 * sl-session-convert.c and sl-session-mindx.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-folder.h"
#include "sl-session-private.h"

G_DEFINE_FINAL_TYPE (SlSession, sl_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_WORKSPACE,
  PROP_BUSY,
  PROP_CURRENT_JOB,
  PROP_N_RUNS,
  PROP_N_RUNNING,
  PROP_N_SCANNING,
  PROP_SCAN_PROGRESS,
  PROP_SCAN_FOLDER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
guint _sl_session_signals[SL_SESSION_N_SIGNALS];

/* Every so often, while a Jobs list can be seen, Slurm is asked about
 * the jobs nobody follows; quick enough for PENDING to turn RUNNING in
 * view, rare enough for a login node shared by many. */
#define SLURM_REFRESH_SECONDS 20
/* How often the files a scan looked at are counted. */
#define SCAN_PROGRESS_INTERVAL_MS 100

/* State */

void
_sl_session_update_busy (SlSession *self)
{
  gboolean busy = sl_workspace_get_n_scanning (self->workspace) > 0 ||
                  sl_job_controller_is_running (self->jobs) || self->runs->len > 0;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/**
 * sl_session_get_busy:
 *
 * Returns: whether a scan, a job or a workflow is running
 */
gboolean
sl_session_get_busy (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  return self->busy;
}

/**
 * sl_session_get_current_job:
 *
 * Returns: (nullable): what the job running is called, the controller's
 *   first, else the newest workflow's
 */
const char *
sl_session_get_current_job (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (sl_job_controller_is_running (self->jobs))
    return sl_job_controller_get_title (self->jobs);
  if (self->runs->len > 0)
    return ((SlSessionRun *)g_ptr_array_index (self->runs, self->runs->len - 1))->title;
  return NULL;
}

guint
sl_session_get_n_runs (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  return self->runs->len;
}

guint
sl_session_get_n_scanning (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  return sl_workspace_get_n_scanning (self->workspace);
}

/**
 * sl_session_get_scan_progress:
 *
 * Returns: the files the running scans have looked at, counted every
 *   tenth of a second while they run
 */
guint
sl_session_get_scan_progress (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  return self->scan_progress;
}

/**
 * sl_session_get_scan_folder:
 *
 * Returns: (nullable): the name of a folder being scanned
 */
const char *
sl_session_get_scan_folder (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  return self->scan_folder;
}

SlWorkspace *
sl_session_get_workspace (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  return self->workspace;
}

/**
 * sl_session_get_jobs:
 *
 * Returns: (transfer none): the one job controller of the session
 */
SlJobController *
sl_session_get_jobs (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  return self->jobs;
}

/**
 * sl_session_get_problems:
 *
 * Returns: (transfer none): the #SlProblem items of the session's jobs
 *   and workflows, oldest first
 */
GListModel *
sl_session_get_problems (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  return G_LIST_MODEL (self->problems);
}

void
sl_session_add_problem (SlSession *self,
                        SlProblem *problem)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

/**
 * sl_session_add_problems:
 * @problems: (element-type SlProblem)
 */
void
sl_session_add_problems (SlSession *self,
                         GPtrArray *problems)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (problems != NULL && problems->len > 0)
    g_list_store_splice (self->problems, g_list_model_get_n_items (G_LIST_MODEL (self->problems)), 0,
                         problems->pdata, problems->len);
}

/**
 * sl_session_clear_problems:
 *
 * Forgets the session's problems: Clear in any window's Problems panel.
 */
void
sl_session_clear_problems (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  g_list_store_remove_all (self->problems);
}

/* What a scan met, or why it failed: once for the session, whatever the
 * number of windows showing it. */
static void
folder_scanned_cb (SlSession   *self,
                   SlFolder    *folder,
                   GError      *error,
                   SlWorkspace *workspace)
{
  if (error != NULL)
    {
      g_autoptr(SlProblem) problem = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      problem = sl_problem_new (SL_SEVERITY_ERROR, _("Workspace"), sl_folder_get_path (folder), -1, error->message);
      sl_session_add_problem (self, problem);
      return;
    }
  {
    GListModel *problems = sl_folder_get_problems (folder);
    guint n = g_list_model_get_n_items (problems);
    g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

    for (guint i = 0; i < n; i++)
      g_ptr_array_add (items, g_list_model_get_item (problems, i));
    sl_session_add_problems (self, items);
  }
}

/* The workspace's own (its database), before the session and since. */
static void
workspace_problems_cb (SlSession  *self,
                       guint       position,
                       guint       removed,
                       guint       added,
                       GListModel *problems)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_session_add_problem (self, problem);
    }
}

static void
follow_workspace_problems (SlSession *self)
{
  GListModel *problems = sl_workspace_get_problems (self->workspace);

  g_signal_connect_object (self->workspace, "folder-scanned", G_CALLBACK (folder_scanned_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (problems, "items-changed", G_CALLBACK (workspace_problems_cb), self, G_CONNECT_SWAPPED);
  workspace_problems_cb (self, 0, 0, g_list_model_get_n_items (problems), problems);
}

/**
 * sl_session_request_open:
 * @kind: a document kind ("profile", ...), "path" for a file or folder
 *   to open in the Workspace, or "panel" for a panel to bring forward
 * @path: what to open: a path, or a panel's id
 * @target: (nullable): a request the document understands
 *
 * Asks a window to show something of one path: emits
 * #SlSession::open-requested with the address of @path.
 */
void
sl_session_request_open (SlSession  *self,
                         const char *kind,
                         const char *path,
                         GVariant   *target)
{
  g_autoptr(SlDocumentAddress) address = NULL;

  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (kind != NULL && path != NULL);

  address = sl_document_address_new_for_path (path);
  sl_session_request_open_address (self, kind, address, target);
}

/**
 * sl_session_request_open_address:
 * @kind: a document kind ("compare", ...), or "path" or "panel" as for
 *   sl_session_request_open()
 * @address: what to open: the sides of a comparison in order, say
 *   (sl_document_address_new_pair())
 * @target: (nullable): a request the document understands
 *
 * Asks a window to show the document of @kind for @address: emits
 * #SlSession::open-requested.
 */
void
sl_session_request_open_address (SlSession         *self,
                                 const char        *kind,
                                 SlDocumentAddress *address,
                                 GVariant          *target)
{
  g_autoptr(GVariant) sunk = target != NULL ? g_variant_ref_sink (target) : NULL;

  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (kind != NULL && address != NULL);

  g_signal_emit (self, _sl_session_signals[SL_SESSION_OPEN_REQUESTED], 0, kind, address, sunk);
}

void
_sl_session_notice (SlSession  *self,
                    const char *text)
{
  g_signal_emit (self, _sl_session_signals[SL_SESSION_NOTICE], 0, text);
}

void
_sl_session_offer (SlSession          *self,
                   const char         *text,
                   const char         *label,
                   const char         *kind,
                   const char * const *paths,
                   GVariant           *request)
{
  g_autoptr(GVariant) sunk = g_variant_ref_sink (request != NULL ? request : g_variant_new ("()"));

  g_signal_emit (self, _sl_session_signals[SL_SESSION_OFFER], 0, text, label, kind, paths, sunk);
}

/* Scans */

static gboolean
scan_progress_cb (gpointer data)
{
  SlSession *self = data;
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint files = 0;
  const char *name = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (folders, i);

      if (sl_folder_get_state (folder) == SL_FOLDER_SCANNING)
        {
          files += sl_folder_poll_progress (folder);
          name = sl_folder_get_name (folder);
        }
    }

  if (name != NULL)
    {
      self->scan_progress = files;
      if (g_strcmp0 (self->scan_folder, name) != 0)
        {
          g_free (self->scan_folder);
          self->scan_folder = g_strdup (name);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCAN_FOLDER]);
        }
      /* Every count, changed or not: the windows' progress moves with it. */
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCAN_PROGRESS]);
    }
  return G_SOURCE_CONTINUE;
}

static void
n_scanning_changed_cb (SlSession   *self,
                       GParamSpec  *pspec,
                       SlWorkspace *workspace)
{
  gboolean scanning = sl_workspace_get_n_scanning (workspace) > 0;

  if (scanning && self->scan_source == 0)
    self->scan_source = g_timeout_add (SCAN_PROGRESS_INTERVAL_MS, scan_progress_cb, self);
  else if (!scanning)
    g_clear_handle_id (&self->scan_source, g_source_remove);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SCANNING]);
  _sl_session_update_busy (self);
}

/* The job controller's job */

static void
job_running_cb (SlSession       *self,
                GParamSpec      *pspec,
                SlJobController *jobs)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_JOB]);
  _sl_session_update_busy (self);
}

static void
job_started_cb (SlSession       *self,
                guint            job,
                const char      *title,
                const char      *command_line,
                SlJobController *jobs)
{
  /* A program of this computer's outputs are scanned again when it ends. */
  gboolean local = job == sl_job_controller_get_console_job (jobs) &&
                   !sl_job_controller_get_job_outlives_follower (jobs);

  if (local)
    self->local_job = job;
  _sl_session_job_began (self, job, title, local);
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_STARTED], 0, job, title, command_line);
}

static void
job_output_cb (SlSession       *self,
               guint            job,
               GBytes          *data,
               SlJobController *jobs)
{
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_OUTPUT], 0, job, data);
}

static void
job_message_cb (SlSession       *self,
                guint            job,
                const char      *text,
                SlJobController *jobs)
{
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_MESSAGE], 0, job, text);
}

static void
job_status_cb (SlSession       *self,
               guint            job,
               const char      *status,
               SlJobController *jobs)
{
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_STATUS], 0, job, status);
}

/* Pulled output appears in the Workspace; later pulls that brought new
 * files rescan it (open views follow their files by themselves). */
static void
job_pulled_cb (SlSession       *self,
               guint            job,
               const char      *local_dir,
               guint            n_changed,
               SlJobController *jobs)
{
  SlFolder *folder;

  /* A workflow opens what it pulled itself, once it read it. */
  if (job != sl_job_controller_get_console_job (jobs))
    return;
  folder = sl_workspace_lookup_folder (self->workspace, local_dir);
  if (folder == NULL)
    sl_session_request_open (self, "path", local_dir, NULL);
  else if (n_changed > 0)
    sl_workspace_rescan (self->workspace, folder);
}

/* A job's outputs (summaries, profiles) appear in the workspace when it
 * ends: folders it ran in, or that it ran inside, are scanned again. */
static void
job_finished_cb (SlSession       *self,
                 guint            job,
                 int              exit_code,
                 const char      *reason,
                 SlJobController *jobs)
{
  const char *working_dir = sl_job_controller_get_working_dir (jobs);

  _sl_session_job_ended (self, job);
  g_signal_emit (self, _sl_session_signals[SL_SESSION_JOB_FINISHED], 0, job, exit_code, reason);
  if (job == self->local_job && working_dir != NULL)
    sl_workspace_rescan_around (self->workspace, working_dir);
}

/* Following jobs */

/* A Slurm job submitted before Sightline was last closed is followed
 * again once the history is read. */
static void
jobs_loaded_cb (SlSession  *self,
                guint       position,
                guint       removed,
                guint       added,
                GListModel *jobs)
{
  if (added == 0)
    return;
  g_signal_handlers_disconnect_by_func (jobs, jobs_loaded_cb, self);
  sl_job_controller_follow_unfinished (self->jobs);
}

static void
slurm_refreshed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!sl_slurm_refresher_refresh_finish (SL_SLURM_REFRESHER (object), result, NULL, &error))
    g_debug ("Could not refresh the Slurm jobs: %s", error->message);
}

/**
 * sl_session_refresh_slurm_jobs:
 *
 * Asks Slurm now about the unfinished Slurm jobs of the history that
 * are not followed here; the Jobs lists show what it says.
 */
void
sl_session_refresh_slurm_jobs (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  sl_slurm_refresher_set_followed_job (self->slurm_refresher, sl_job_controller_get_remote_job_id (self->jobs));
  sl_slurm_refresher_refresh_async (self->slurm_refresher, NULL, slurm_refreshed_cb, NULL);
}

static gboolean
slurm_refresh_tick (gpointer data)
{
  SlSession *self = data;

  sl_slurm_refresher_set_followed_job (self->slurm_refresher, sl_job_controller_get_remote_job_id (self->jobs));
  if (self->jobs_shown > 0 && sl_slurm_refresher_count_unfollowed (self->slurm_refresher) > 0)
    sl_session_refresh_slurm_jobs (self);
  return G_SOURCE_CONTINUE;
}

/**
 * sl_session_follow_jobs:
 *
 * Follows again the unfinished job of the history (a Slurm job submitted
 * before the last close), and asks Slurm every so often about the jobs
 * nobody follows while a Jobs list is shown. Once per session: a second
 * call does nothing.
 */
void
sl_session_follow_jobs (SlSession *self)
{
  GListModel *jobs;

  g_return_if_fail (SL_IS_SESSION (self));

  if (self->following)
    return;
  self->following = TRUE;
  self->slurm_refresh_source = g_timeout_add_seconds (SLURM_REFRESH_SECONDS, slurm_refresh_tick, self);

  jobs = sl_workspace_get_jobs (self->workspace);
  if (g_list_model_get_n_items (jobs) > 0)
    sl_job_controller_follow_unfinished (self->jobs);
  else
    g_signal_connect_object (jobs, "items-changed", G_CALLBACK (jobs_loaded_cb), self, G_CONNECT_SWAPPED);
}

/**
 * sl_session_set_jobs_shown:
 * @shown: whether one more Jobs list is in view (%FALSE: one less)
 *
 * Slurm is asked about the jobs nobody follows only while a Jobs list
 * shows them.
 */
void
sl_session_set_jobs_shown (SlSession *self,
                           gboolean   shown)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (shown)
    self->jobs_shown++;
  else if (self->jobs_shown > 0)
    self->jobs_shown--;
}

/* The session that runs a workspace's work, for the views, which know
 * their workspace only. */
static GQuark
session_quark (void)
{
  return g_quark_from_static_string ("sl-session");
}

/**
 * sl_session_find_for_workspace:
 *
 * Returns: (transfer none) (nullable): the first session made on
 *   @workspace, while it is there
 */
SlSession *
sl_session_find_for_workspace (SlWorkspace *workspace)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  return g_object_get_qdata (G_OBJECT (workspace), session_quark ());
}

/* GObject */

static void
sl_session_constructed (GObject *object)
{
  SlSession *self = (SlSession *)object;

  G_OBJECT_CLASS (sl_session_parent_class)->constructed (object);

  g_assert (self->workspace != NULL);
  self->jobs = sl_job_controller_new (self->workspace);
  self->slurm_refresher = sl_slurm_refresher_new (self->workspace);

  g_signal_connect_object (self->jobs, "notify::running", G_CALLBACK (job_running_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "started", G_CALLBACK (job_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "output", G_CALLBACK (job_output_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "message", G_CALLBACK (job_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "status", G_CALLBACK (job_status_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "pulled", G_CALLBACK (job_pulled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "finished", G_CALLBACK (job_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace, "notify::n-scanning", G_CALLBACK (n_scanning_changed_cb), self,
                           G_CONNECT_SWAPPED);
  n_scanning_changed_cb (self, NULL, self->workspace);
  follow_workspace_problems (self);
  if (sl_session_find_for_workspace (self->workspace) == NULL)
    g_object_set_qdata (G_OBJECT (self->workspace), session_quark (), self);
}

static void
sl_session_dispose (GObject *object)
{
  SlSession *self = (SlSession *)object;

  g_clear_handle_id (&self->slurm_refresh_source, g_source_remove);
  g_clear_handle_id (&self->scan_source, g_source_remove);
  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSessionRun *run = g_ptr_array_index (self->runs, i);

      if (run->cancellable != NULL)
        g_cancellable_cancel (run->cancellable);
    }
  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_data (self->jobs, self);
  if (self->workspace != NULL && sl_session_find_for_workspace (self->workspace) == self)
    g_object_set_qdata (G_OBJECT (self->workspace), session_quark (), NULL);

  G_OBJECT_CLASS (sl_session_parent_class)->dispose (object);
}

static void
sl_session_finalize (GObject *object)
{
  SlSession *self = (SlSession *)object;

  g_clear_object (&self->slurm_refresher);
  g_clear_object (&self->jobs);
  g_clear_object (&self->workspace);
  g_clear_object (&self->problems);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->running, g_hash_table_unref);
  g_clear_pointer (&self->scan_folder, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (sl_session_parent_class)->finalize (object);
}

static void
sl_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, self->workspace);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_CURRENT_JOB:
      g_value_set_string (value, sl_session_get_current_job (self));
      break;
    case PROP_N_RUNS:
      g_value_set_uint (value, self->runs->len);
      break;
    case PROP_N_RUNNING:
      g_value_set_uint (value, sl_session_get_n_running (self));
      break;
    case PROP_N_SCANNING:
      g_value_set_uint (value, sl_session_get_n_scanning (self));
      break;
    case PROP_SCAN_PROGRESS:
      g_value_set_uint (value, self->scan_progress);
      break;
    case PROP_SCAN_FOLDER:
      g_value_set_string (value, self->scan_folder);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      self->workspace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_class_init (SlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sl_session_constructed;
  object_class->dispose = sl_session_dispose;
  object_class->finalize = sl_session_finalize;
  object_class->get_property = sl_session_get_property;
  object_class->set_property = sl_session_set_property;

  properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, SL_TYPE_WORKSPACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CURRENT_JOB] =
    g_param_spec_string ("current-job", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_RUNS] =
    g_param_spec_uint ("n-runs", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The jobs and workflow runs going on: sl_session_dup_running(). */
  properties[PROP_N_RUNNING] =
    g_param_spec_uint ("n-running", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_SCANNING] =
    g_param_spec_uint ("n-scanning", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SCAN_PROGRESS] =
    g_param_spec_uint ("scan-progress", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SCAN_FOLDER] =
    g_param_spec_string ("scan-folder", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Every job signal's first argument is the job's number in the job
   * controller: jobs running at once tell theirs apart by it. */
  /**
   * SlSession::job-started:
   * @job: the job's number
   * @title: what the job is called, such as "python3 on ascend-01"
   * @command_line: (nullable): the command, as the Console shows it
   */
  _sl_session_signals[SL_SESSION_JOB_STARTED] =
    g_signal_new ("job-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING);
  _sl_session_signals[SL_SESSION_JOB_OUTPUT] =
    g_signal_new ("job-output", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BYTES);
  _sl_session_signals[SL_SESSION_JOB_MESSAGE] =
    g_signal_new ("job-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  _sl_session_signals[SL_SESSION_JOB_STATUS] =
    g_signal_new ("job-status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  /**
   * SlSession::job-finished:
   * @job: the job's number
   * @exit_code: the job's, or -1 when it did not exit by itself
   * @reason: (nullable): why it did not end well, when the code does not say
   */
  _sl_session_signals[SL_SESSION_JOB_FINISHED] =
    g_signal_new ("job-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_INT, G_TYPE_STRING);
  /**
   * SlSession::open-requested:
   * @kind: a document kind, "path" or "panel" (see sl_session_request_open())
   * @address: (type SlDocumentAddress): what to open: one path (or a
   *   panel's id), or the sides of a comparison in order
   * @target: (nullable): a request the document understands
   */
  _sl_session_signals[SL_SESSION_OPEN_REQUESTED] =
    g_signal_new ("open-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, SL_TYPE_DOCUMENT_ADDRESS, G_TYPE_VARIANT);
  /**
   * SlSession::notice:
   * @text: a short sentence for the person at the window, such as how a
   *   run ended
   */
  _sl_session_signals[SL_SESSION_NOTICE] =
    g_signal_new ("notice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * SlSession::offer:
   * @text: a notice, as #SlSession::notice's
   * @label: a button's label for it
   * @kind: the document kind the button opens
   * @paths: the document's paths (its #SlDocumentAddress, in order)
   * @request: a request the document understands ("()" for none)
   *
   * A notice with something to open, such as a converted model beside
   * its source: a window shows it with the button.
   */
  _sl_session_signals[SL_SESSION_OFFER] =
    g_signal_new ("offer", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRV, G_TYPE_VARIANT);
}

static void
sl_session_init (SlSession *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
  self->runs = g_ptr_array_new ();
  self->running = g_hash_table_new_full (NULL, NULL, NULL, _sl_session_running_job_free);
}

SlSession *
sl_session_new (SlWorkspace *workspace)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  return g_object_new (SL_TYPE_SESSION, "workspace", workspace, NULL);
}
