/* sl-window-jobs.c: the Console shows what the session runs
 *
 * Each job of the session (a Run, a profile, a conversion, a MindX app)
 * streams into a log view of its own, found by the job's number in the
 * session's job signals, so jobs running at once never mix; Stop stops
 * the job shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-window-private.h"

/**
 * sl_window_show_console:
 *
 * Brings the Console forward, its area shown.
 */
void
sl_window_show_console (SlWindow *self)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  panel_dock_set_reveal_area (self->dock, PANEL_AREA_BOTTOM, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));
}

/* The session keeps the Problem; the Console and a toast say it here. */
static void
report_run_error (SlWindow   *self,
                  const char *message)
{
  sl_console_panel_append (self->console_panel, message, -1);
  sl_console_panel_append (self->console_panel, "\n", -1);
  sl_window_show_toast (self, message);
}

/**
 * sl_window_run_argv:
 * @working_dir: (nullable): where to run
 *
 * Runs a program on this computer as a job of the session, the Console
 * in front.
 */
void
sl_window_run_argv (SlWindow           *self,
                    const char * const *argv,
                    const char         *working_dir)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);

  sl_window_show_console (self);
  if (!sl_session_run_argv (self->session, argv, working_dir, &error))
    report_run_error (self, error->message);
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

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (command_line != NULL);

  sl_window_show_console (self);
  if (!sl_session_run_command (self->session, command_line, working_dir, &error))
    report_run_error (self, error->message);
}

/* The Console's log of the session's @job (0 when it was dropped); a
 * job that started before this window gets one as it goes on. */
static guint
lookup_console_job (SlWindow *self,
                    guint     job)
{
  SlJobController *jobs = sl_session_get_jobs (self->session);
  gpointer log;
  const char *title;

  if (g_hash_table_lookup_extended (self->console_jobs, GUINT_TO_POINTER (job), NULL, &log))
    return GPOINTER_TO_UINT (log);
  title = job == sl_job_controller_get_console_job (jobs) ? sl_job_controller_get_title (jobs)
                                                          : sl_session_get_current_job (self->session);
  log = GUINT_TO_POINTER (sl_console_panel_add_job (self->console_panel, title != NULL ? title : ""));
  g_hash_table_insert (self->console_jobs, GUINT_TO_POINTER (job), log);
  return GPOINTER_TO_UINT (log);
}

static void
job_started_cb (SlWindow   *self,
                guint       job,
                const char *title,
                const char *command_line,
                SlSession  *session)
{
  guint log = sl_console_panel_add_job (self->console_panel, title);

  g_hash_table_insert (self->console_jobs, GUINT_TO_POINTER (job), GUINT_TO_POINTER (log));
  if (command_line != NULL)
    {
      g_autofree char *line = g_strdup_printf ("$ %s\n", command_line);

      sl_console_panel_append_to_job (self->console_panel, log, line, -1);
    }
}

static void
job_output_cb (SlWindow  *self,
               guint      job,
               GBytes    *data,
               SlSession *session)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  sl_console_panel_append_to_job (self->console_panel, lookup_console_job (self, job), bytes, size);
}

static void
job_message_cb (SlWindow   *self,
                guint       job,
                const char *text,
                SlSession  *session)
{
  g_autofree char *line = g_strdup_printf ("[%s]\n", text);

  sl_console_panel_append_to_job (self->console_panel, lookup_console_job (self, job), line, -1);
}

static void
job_status_cb (SlWindow   *self,
               guint       job,
               const char *status,
               SlSession  *session)
{
  sl_console_panel_set_status_of_job (self->console_panel, lookup_console_job (self, job), status);
}

static void
job_finished_cb (SlWindow   *self,
                 guint       job,
                 int         exit_code,
                 const char *reason,
                 SlSession  *session)
{
  gpointer log;

  if (g_hash_table_lookup_extended (self->console_jobs, GUINT_TO_POINTER (job), NULL, &log))
    sl_console_panel_end_job_with_id (self->console_panel, GPOINTER_TO_UINT (log), exit_code, reason);
  g_hash_table_remove (self->console_jobs, GUINT_TO_POINTER (job));
}

/* Stop stops the job whose log is shown. */
static void
console_stop_requested_cb (SlWindow       *self,
                           SlConsolePanel *console)
{
  guint shown = sl_console_panel_get_shown_job (console);
  GHashTableIter iter;
  gpointer job, log;

  g_hash_table_iter_init (&iter, self->console_jobs);
  while (g_hash_table_iter_next (&iter, &job, &log))
    if (GPOINTER_TO_UINT (log) == shown)
      {
        sl_session_stop_job (self->session, GPOINTER_TO_UINT (job));
        return;
      }
}

typedef struct {
  SlWindow *window;
  guint     log;     /* its view in the Console */
} LogRead;

static void
read_job_log_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  LogRead *read = user_data;
  g_autoptr(SlWindow) self = read->window;
  guint log = read->log;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data;

  g_free (read);
  if (!(bytes = sl_job_controller_read_log_finish (SL_JOB_CONTROLLER (object), result, &error)))
    {
      g_autofree char *line = g_strdup_printf (_("[The log could not be read: %s]\n"), error->message);

      sl_console_panel_append_to_job (self->console_panel, log, line, -1);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size > 0)
    sl_console_panel_append_to_job (self->console_panel, log, data, size);
  sl_console_panel_append_to_job (self->console_panel, log, _("[end of the log]\n"), -1);
}

/**
 * sl_window_show_job_log:
 * @job: a job of the history
 *
 * Reads the job's log (on its server for a remote job) into a log view
 * of its own in the Console, beside the running jobs'.
 */
void
sl_window_show_job_log (SlWindow    *self,
                        SlJobRecord *job)
{
  g_autofree char *header = NULL;
  LogRead *read;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  header = g_strdup_printf (_("\n[Log of job %lld: %s]\n"), (long long)sl_job_record_get_id (job),
                            sl_job_record_get_command (job));
  read = g_new0 (LogRead, 1);
  read->window = g_object_ref (self);
  read->log = sl_console_panel_add_log (self->console_panel, sl_job_record_get_command (job));
  sl_console_panel_append_to_job (self->console_panel, read->log, header, -1);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));
  sl_job_controller_read_log_async (sl_session_get_jobs (self->session), job, NULL, read_job_log_cb, read);
}

/**
 * sl_window_show_request:
 * @kind: a document kind, "path" (a file or folder for the Workspace) or
 *   "panel" (a dock panel's id)
 * @address: what the document shows; for "path" and "panel", one path
 *   or id
 * @target: (nullable): a request the document understands
 *
 * Shows what the session asked for (#SlSession::open-requested).
 */
void
sl_window_show_request (SlWindow          *self,
                        const char        *kind,
                        SlDocumentAddress *address,
                        GVariant          *target)
{
  const char *path;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (kind != NULL && address != NULL);

  path = sl_document_address_get_path (address, 0);

  if (g_str_equal (kind, "path"))
    sl_window_open_path (self, path);
  else if (g_str_equal (kind, "panel"))
    {
      PanelWidget *panel = sl_window_find_panel (self, path);

      if (panel != NULL)
        panel_widget_raise (panel);
    }
  else
    {
      SlDocument *document = sl_window_open_address (self, kind, address, NULL);

      if (document != NULL && target != NULL)
        sl_document_request (document, g_variant_ref (target));
    }
}

/* Slurm is asked about the jobs nobody follows while a Jobs list shows. */
static void
jobs_list_mapped_cb (SlWindow  *self,
                     GtkWidget *panel)
{
  sl_session_set_jobs_shown (self->session, TRUE);
}

static void
jobs_list_unmapped_cb (SlWindow  *self,
                       GtkWidget *panel)
{
  sl_session_set_jobs_shown (self->session, FALSE);
}

static void
refresh_jobs_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  sl_session_refresh_slurm_jobs (SL_WINDOW (widget)->session);
}

void
_sl_window_class_add_job_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.refresh-jobs", NULL, refresh_jobs_action);
}

void
_sl_window_connect_jobs (SlWindow *self)
{
  g_signal_connect_object (self->console_panel, "stop-requested", G_CALLBACK (console_stop_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace_panel, "map", G_CALLBACK (jobs_list_mapped_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace_panel, "unmap", G_CALLBACK (jobs_list_unmapped_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "job-started", G_CALLBACK (job_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "job-output", G_CALLBACK (job_output_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "job-message", G_CALLBACK (job_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "job-status", G_CALLBACK (job_status_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "job-finished", G_CALLBACK (job_finished_cb), self, G_CONNECT_SWAPPED);
}

/* Closing while a job runs */

static void
close_after_jobs_cb (SlWindow   *self,
                     GParamSpec *pspec,
                     SlSession  *session)
{
  if (sl_session_get_n_running (session) > 0)
    return;
  g_signal_handlers_disconnect_by_func (session, close_after_jobs_cb, self);
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
  if (g_str_equal (response, "keep") || sl_session_get_n_running (self->session) == 0)
    {
      /* Once the question, which belongs to this window, has gone. */
      if (!g_str_equal (response, "cancel"))
        g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_when_idle_cb, g_object_ref (self), g_object_unref);
      return;
    }
  if (!g_str_equal (response, "stop"))
    return;

  /* The window stays until every job is seen to end: the Console says
   * how the stop went, and a job that cannot be stopped is not hidden. */
  self->close_after_stop = TRUE;
  g_signal_connect_object (self->session, "notify::n-running", G_CALLBACK (close_after_jobs_cb), self,
                           G_CONNECT_SWAPPED);
  sl_window_show_toast (self, _("Stopping the job: the window closes once it has ended"));
  sl_session_stop_all (self->session);
}

/* Whether another window shows the session, and so keeps it alive. */
static gboolean
session_shown_elsewhere (SlWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (l->data != (gpointer)self && SL_IS_WINDOW (l->data) && SL_WINDOW (l->data)->session == self->session)
      return TRUE;
  return FALSE;
}

/* “one”, “two”, “three” */
static char *
join_titles (char **titles)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; titles[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (text, _(", "));
      g_string_append_printf (text, _("“%s”"), titles[i]);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* What the question says of the jobs running, and whether they may be
 * kept running. */
static char *
dup_close_question (char     **titles,
                    GArray    *kinds,
                    gboolean  *detached)
{
  g_autofree char *names = NULL;

  *detached = TRUE;
  for (guint i = 0; i < kinds->len; i++)
    *detached = *detached && g_array_index (kinds, SlSessionWork, i) == SL_SESSION_WORK_DETACHED;
  if (kinds->len == 1)
    {
      switch (g_array_index (kinds, SlSessionWork, 0))
        {
        case SL_SESSION_WORK_DETACHED:
          return g_strdup_printf (_("“%s” goes on running on its target without this window; Sightline follows it again at its next start. Keep it running, or stop it first?"),
                                  titles[0]);
        case SL_SESSION_WORK_LOCAL:
          return g_strdup_printf (_("“%s” is a program of this computer: it is stopped before the window closes."),
                                  titles[0]);
        default:
          return g_strdup_printf (_("“%s” runs in Sightline: it is stopped before the window closes, and what it has not done yet is left undone."),
                                  titles[0]);
        }
    }
  names = join_titles (titles);
  if (*detached)
    /* TRANSLATORS: %s is a list of jobs, such as “python3 on ascend-01”, “msprof on local” */
    return g_strdup_printf (_("%s go on running on their targets without this window; Sightline follows them again at its next start. Keep them running, or stop them first?"),
                            names);
  /* TRANSLATORS: %s is a list of jobs, such as “python3 on ascend-01”, “Profile a Program” */
  return g_strdup_printf (_("%s are running: they are stopped before the window closes."), names);
}

/**
 * _sl_window_ask_before_closing:
 *
 * A running job is never left behind unsaid when the last window on the
 * session closes (another window keeps the session, and its jobs, alive):
 * every job and workflow run the session owns is named; jobs detached on
 * a target may keep running (and are followed again at the next start)
 * or be stopped first; programs of this computer and workflows' runs are
 * stopped first.
 *
 * Returns: %TRUE when the window must not close now
 */
gboolean
_sl_window_ask_before_closing (SlWindow *self)
{
  g_auto(GStrv) titles = NULL;
  g_autoptr(GArray) kinds = NULL;
  g_autofree char *body = NULL;
  g_autofree char *title = NULL;
  AdwMessageDialog *dialog;
  gboolean detached;
  guint n;

  if (self->close_confirmed || sl_session_get_n_running (self->session) == 0 || session_shown_elsewhere (self))
    return FALSE;
  if (self->close_after_stop)
    {
      sl_window_show_toast (self, _("Stopping the job: the window closes once it has ended"));
      return TRUE;
    }

  titles = sl_session_dup_running (self->session, &kinds);
  n = g_strv_length (titles);
  body = dup_close_question (titles, kinds, &detached);
  title = n == 1 ? g_strdup (_("A Job Is Running"))
                 : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Job Is Running", "%u Jobs Are Running", n), n);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), title, body));
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
