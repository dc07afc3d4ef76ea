/* sl-window-jobs.c: the Console shows what the job controller runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-window-private.h"

static void
report_run_error (SlWindow   *self,
                  const char *working_dir,
                  const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, _("Run"), working_dir, -1, message);

  sl_problems_panel_add (self->problems_panel, problem);
  sl_console_panel_append (self->console_panel, message, -1);
  sl_console_panel_append (self->console_panel, "\n", -1);
  sl_window_show_toast (self, message);
}

/**
 * sl_window_run_argv:
 * @working_dir: (nullable): where to run; folders opened in the workspace
 *   that contain it, or are inside it, are scanned again when the job ends
 *
 * Runs a program on this computer, its output streamed into the Console
 * and the job kept in the history.
 */
void
sl_window_run_argv (SlWindow           *self,
                    const char * const *argv,
                    const char         *working_dir)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);

  panel_dock_set_reveal_area (self->dock, PANEL_AREA_BOTTOM, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));

  if (!sl_job_controller_run_local (self->jobs, argv, working_dir, &error))
    report_run_error (self, working_dir, error->message);
}

/**
 * sl_window_run_command:
 * @command_line: a command with arguments quoted as in a POSIX shell
 */
void
sl_window_run_command (SlWindow   *self,
                       const char *command_line,
                       const char *working_dir)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (command_line != NULL);

  if (!g_shell_parse_argv (command_line, NULL, &argv, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The command “%s” could not be read: %s"), command_line, error->message);

      report_run_error (self, working_dir, message);
      return;
    }

  sl_window_run_argv (self, (const char * const *)argv, working_dir);
}

/**
 * sl_window_run_on_target:
 * @target_id: an SSH target of the workspace
 * @project_dir: the local folder uploaded and run in
 * @pull_dirs: (nullable): output folders under it, space-separated
 * @remote_dir: (nullable): where it goes on the target
 * @excludes: (nullable): patterns not to upload, instead of the defaults
 *
 * Uploads @project_dir, starts @command_line there as a detached job,
 * streams its log into the Console, pulls the output folders into the
 * cache while it runs and opens them in the Workspace.
 *
 * Returns: %TRUE when the job was started
 */
gboolean
sl_window_run_on_target (SlWindow           *self,
                         gint64              target_id,
                         const char         *command_line,
                         const char         *project_dir,
                         const char         *pull_dirs,
                         const char         *remote_dir,
                         const char * const *excludes,
                         GError            **error)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return sl_job_controller_run_on_target (self->jobs, target_id, command_line, project_dir, pull_dirs,
                                          remote_dir, excludes, error);
}

/**
 * sl_window_run_on_slurm:
 * @target_id: the login node's target (this computer's included)
 * @options: how the job asks Slurm for nodes and tasks
 *
 * As sl_window_run_on_target(), with the job submitted to Slurm.
 *
 * Returns: %TRUE when the run began
 */
gboolean
sl_window_run_on_slurm (SlWindow             *self,
                        gint64                target_id,
                        const char           *command_line,
                        const char           *project_dir,
                        const char           *pull_dirs,
                        const char           *remote_dir,
                        const char * const   *excludes,
                        const SlSlurmOptions *options,
                        GError              **error)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  panel_dock_set_reveal_area (self->dock, PANEL_AREA_BOTTOM, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));
  return sl_job_controller_run_on_target_full (self->jobs, target_id, command_line, project_dir, pull_dirs,
                                               remote_dir, excludes, options, error);
}

static void
job_started_cb (SlWindow        *self,
                const char      *title,
                const char      *command_line,
                SlJobController *jobs)
{
  g_autofree char *line = g_strdup_printf ("$ %s\n", command_line);

  sl_console_panel_begin_job (self->console_panel, title);
  sl_console_panel_append (self->console_panel, line, -1);
}

static void
job_output_cb (SlWindow        *self,
               GBytes          *data,
               SlJobController *jobs)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  sl_console_panel_append (self->console_panel, bytes, size);
}

static void
job_message_cb (SlWindow        *self,
                const char      *text,
                SlJobController *jobs)
{
  g_autofree char *line = g_strdup_printf ("[%s]\n", text);

  sl_console_panel_append (self->console_panel, line, -1);
}

static void
job_status_cb (SlWindow        *self,
               const char      *status,
               SlJobController *jobs)
{
  sl_console_panel_set_job_status (self->console_panel, status);
}

/* Pulled output appears in the Workspace; later pulls that brought new
 * files rescan it (open views follow their files by themselves). */
static void
job_pulled_cb (SlWindow        *self,
               const char      *local_dir,
               guint            n_changed,
               SlJobController *jobs)
{
  SlFolder *folder = sl_workspace_lookup_folder (self->workspace, local_dir);

  if (folder == NULL)
    sl_window_open_path (self, local_dir);
  else if (n_changed > 0)
    sl_workspace_rescan (self->workspace, folder);
}

/* A job's outputs (summaries, profiles) appear in the workspace when it
 * ends: folders it ran in, or that it ran inside, are scanned again. */
static void
job_finished_cb (SlWindow        *self,
                 int              exit_code,
                 const char      *reason,
                 SlJobController *jobs)
{
  const char *working_dir = sl_job_controller_get_working_dir (jobs);

  sl_console_panel_end_job (self->console_panel, exit_code, reason);
  if (working_dir != NULL)
    sl_workspace_rescan_around (self->workspace, working_dir);
}

static void
console_stop_requested_cb (SlWindow       *self,
                           SlConsolePanel *console)
{
  sl_job_controller_stop (self->jobs);
}

static void
read_job_log_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(SlWindow) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data;

  if (!(bytes = sl_job_controller_read_log_finish (SL_JOB_CONTROLLER (object), result, &error)))
    {
      g_autofree char *line = g_strdup_printf (_("[The log could not be read: %s]\n"), error->message);

      sl_console_panel_append (self->console_panel, line, -1);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size > 0)
    sl_console_panel_append (self->console_panel, data, size);
  sl_console_panel_append (self->console_panel, _("[end of the log]\n"), -1);
}

/**
 * sl_window_show_job_log:
 * @job: a job of the history
 *
 * Reads the job's log (on its server for a remote job) into the Console.
 */
void
sl_window_show_job_log (SlWindow    *self,
                        SlJobRecord *job)
{
  g_autofree char *header = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  header = g_strdup_printf (_("\n[Log of job %lld: %s]\n"), (long long)sl_job_record_get_id (job),
                            sl_job_record_get_command (job));
  sl_console_panel_append (self->console_panel, header, -1);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));
  sl_job_controller_read_log_async (self->jobs, job, NULL, read_job_log_cb, g_object_ref (self));
}

/* A Slurm job submitted before the window was last closed is followed
 * again once the history is read. */
static void
jobs_loaded_cb (SlWindow   *self,
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
follow_unfinished_jobs (SlWindow *self)
{
  GListModel *jobs = sl_workspace_get_jobs (self->workspace);

  if (g_list_model_get_n_items (jobs) > 0)
    sl_job_controller_follow_unfinished (self->jobs);
  else
    g_signal_connect_object (jobs, "items-changed", G_CALLBACK (jobs_loaded_cb), self, G_CONNECT_SWAPPED);
}

/* Every so often, while the Jobs list can be seen, Slurm is asked
 * about the jobs nobody follows; quick enough for PENDING to turn
 * RUNNING in view, rare enough for a login node shared by many. */
#define SLURM_REFRESH_SECONDS 20

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
 * sl_window_refresh_slurm_jobs:
 *
 * Asks Slurm now about the unfinished Slurm jobs of the history that
 * are not followed here; the Jobs list shows what it says.
 */
void
sl_window_refresh_slurm_jobs (SlWindow *self)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  sl_slurm_refresher_set_followed_job (self->slurm_refresher, sl_job_controller_get_remote_job_id (self->jobs));
  sl_slurm_refresher_refresh_async (self->slurm_refresher, NULL, slurm_refreshed_cb, NULL);
}

static gboolean
slurm_refresh_tick (gpointer data)
{
  SlWindow *self = data;

  sl_slurm_refresher_set_followed_job (self->slurm_refresher, sl_job_controller_get_remote_job_id (self->jobs));
  if (gtk_widget_get_mapped (GTK_WIDGET (self->workspace_panel)) &&
      sl_slurm_refresher_count_unfollowed (self->slurm_refresher) > 0)
    sl_window_refresh_slurm_jobs (self);
  return G_SOURCE_CONTINUE;
}

static void
refresh_jobs_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  sl_window_refresh_slurm_jobs (SL_WINDOW (widget));
}

void
_sl_window_class_add_job_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.refresh-jobs", NULL, refresh_jobs_action);
}

void
_sl_window_connect_jobs (SlWindow *self)
{
  self->slurm_refresher = sl_slurm_refresher_new (self->workspace);
  self->slurm_refresh_source = g_timeout_add_seconds (SLURM_REFRESH_SECONDS, slurm_refresh_tick, self);
  g_signal_connect_object (self->console_panel, "stop-requested", G_CALLBACK (console_stop_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "started", G_CALLBACK (job_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "output", G_CALLBACK (job_output_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "message", G_CALLBACK (job_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "status", G_CALLBACK (job_status_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "pulled", G_CALLBACK (job_pulled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "finished", G_CALLBACK (job_finished_cb), self, G_CONNECT_SWAPPED);
  follow_unfinished_jobs (self);
}

/* Closing while a job runs */

static void
close_after_job_cb (SlWindow        *self,
                    int              exit_code,
                    const char      *reason,
                    SlJobController *jobs)
{
  g_signal_handlers_disconnect_by_func (jobs, close_after_job_cb, self);
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
close_when_idle_cb (gpointer data)
{
  SL_WINDOW (data)->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   SlWindow         *self)
{
  if (g_str_equal (response, "keep") || !sl_job_controller_is_running (self->jobs))
    {
      /* Once the question, which belongs to this window, has gone. */
      if (!g_str_equal (response, "cancel"))
        g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_when_idle_cb, g_object_ref (self), g_object_unref);
      return;
    }
  if (!g_str_equal (response, "stop"))
    return;

  /* The window stays until the job is seen to end: the Console says how
   * the stop went, and a job that cannot be stopped is not hidden. */
  self->close_after_stop = TRUE;
  g_signal_connect_object (self->jobs, "finished", G_CALLBACK (close_after_job_cb), self, G_CONNECT_SWAPPED);
  sl_window_show_toast (self, _("Stopping the job: the window closes once it has ended"));
  sl_job_controller_stop (self->jobs);
}

/**
 * _sl_window_ask_before_closing:
 *
 * A running job is never left behind unsaid: a job detached on a target
 * may keep running (and is followed again at the next start) or be
 * stopped first; a program of this computer is stopped first.
 *
 * Returns: %TRUE when the window must not close now
 */
gboolean
_sl_window_ask_before_closing (SlWindow *self)
{
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;
  const char *title;
  gboolean detached;

  if (self->close_confirmed || !sl_job_controller_is_running (self->jobs))
    return FALSE;
  if (self->close_after_stop)
    {
      sl_window_show_toast (self, _("Stopping the job: the window closes once it has ended"));
      return TRUE;
    }

  detached = sl_job_controller_get_job_outlives_follower (self->jobs);
  title = sl_job_controller_get_title (self->jobs);
  body = detached
    ? g_strdup_printf (_("“%s” goes on running on its target without this window; Sightline follows it again at its next start. Keep it running, or stop it first?"),
                       title != NULL ? title : "")
    : g_strdup_printf (_("“%s” is a program of this computer: it is stopped before the window closes."),
                       title != NULL ? title : "");
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("A Job Is Running"), body));
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
  if (detached)
    adw_message_dialog_add_response (dialog, "keep", _("_Keep Running"));
  adw_message_dialog_add_response (dialog, "stop", _("_Stop and Close"));
  adw_message_dialog_set_response_appearance (dialog, "stop", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}
