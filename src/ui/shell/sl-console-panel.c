/* sl-console-panel.c: the output of jobs, one log view a job
 *
 * Each job begun gets a log of its own, chosen in the header; the newest
 * is shown when it starts and the older ones stay readable until there
 * are many. The header shows the state of the job shown, bound to its log.
 * Output that comes outside a job goes to the newest log, or to a log of
 * messages before the first job.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-console-panel.h"

/* Logs kept; the oldest that have ended go first. */
#define MAX_JOBS 20

struct _SlConsolePanel
{
  PanelWidget    parent_instance;

  SlConsoleLog  *current;   /* the newest job begun: where unkeyed output goes */
  guint          last_id;

  GListStore    *jobs;      /* SlConsoleLog, newest first */
  GtkStack      *logs;
  GtkDropDown   *job_chooser;
  GtkLabel      *job_label;
  GtkImage      *state_icon;
};

G_DEFINE_FINAL_TYPE (SlConsolePanel, sl_console_panel, PANEL_TYPE_WIDGET)

enum {
  STOP_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static SlConsoleLog *
get_shown_log (SlConsolePanel *self)
{
  return gtk_drop_down_get_selected_item (self->job_chooser);
}

static void
update_actions (SlConsolePanel *self)
{
  SlConsoleLog *shown = get_shown_log (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "console.stop", shown != NULL && sl_console_log_get_running (shown));
}

static void
selected_job_changed_cb (SlConsolePanel *self)
{
  SlConsoleLog *shown = get_shown_log (self);

  if (shown != NULL)
    gtk_stack_set_visible_child (self->logs, GTK_WIDGET (shown));
  update_actions (self);
}

static SlConsoleLog *
find_log (SlConsolePanel *self,
          guint           job)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlConsoleLog) log = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (sl_console_log_get_id (log) == job)
        return log;
    }
  return NULL;
}

/* Drops the oldest logs that have ended, past MAX_JOBS. */
static void
drop_old_logs (SlConsolePanel *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));

  for (guint i = n; i > 0 && n > MAX_JOBS; i--)
    {
      g_autoptr(SlConsoleLog) log = g_list_model_get_item (G_LIST_MODEL (self->jobs), i - 1);

      if (log == self->current || sl_console_log_get_running (log))
        continue;
      g_list_store_remove (self->jobs, i - 1);
      gtk_stack_remove (self->logs, GTK_WIDGET (log));
      n--;
    }
}

static SlConsoleLog *
add_log (SlConsolePanel *self,
         const char     *title)
{
  SlConsoleLog *log = sl_console_log_new (++self->last_id, title);

  gtk_stack_add_child (self->logs, GTK_WIDGET (log));
  g_list_store_insert (self->jobs, 0, log);
  g_signal_connect_object (log, "notify::running", G_CALLBACK (update_actions), self, G_CONNECT_SWAPPED);
  drop_old_logs (self);
  gtk_widget_set_visible (GTK_WIDGET (self->job_chooser), TRUE);
  gtk_drop_down_set_selected (self->job_chooser, 0);
  selected_job_changed_cb (self);
  return log;
}

/* Where output outside a job goes. */
static SlConsoleLog *
get_current_log (SlConsolePanel *self)
{
  if (self->current == NULL)
    {
      self->current = add_log (self, _("Messages"));
      sl_console_log_set_state (self->current, FALSE, "utilities-terminal-symbolic", _("Messages"));
    }
  return self->current;
}

/**
 * sl_console_panel_append:
 * @len: length of @text, or -1 when nul-terminated
 *
 * Appends output to the newest job's log. Invalid UTF-8 is shown with
 * replacement characters rather than dropped, so nothing a job printed
 * is lost silently.
 */
void
sl_console_panel_append (SlConsolePanel *self,
                         const char     *text,
                         gssize          len)
{
  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));
  g_return_if_fail (text != NULL);

  sl_console_log_append (get_current_log (self), text, len);
}

void
sl_console_panel_append_to_job (SlConsolePanel *self,
                                guint           job,
                                const char     *text,
                                gssize          len)
{
  SlConsoleLog *log;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));
  g_return_if_fail (text != NULL);

  if ((log = find_log (self, job)) != NULL)
    sl_console_log_append (log, text, len);
}

gboolean
sl_console_panel_is_running (SlConsolePanel *self)
{
  guint n;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlConsoleLog) log = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (sl_console_log_get_running (log))
        return TRUE;
    }
  return FALSE;
}

/**
 * sl_console_panel_add_job:
 * @title: what runs, for the job chooser and the status line
 *
 * Shows a new job in a log of its own, chosen in the header; the output
 * that follows without a job id goes there too.
 *
 * Returns: the job's id in the Console
 */
guint
sl_console_panel_add_job (SlConsolePanel *self,
                          const char     *title)
{
  g_autofree char *label = NULL;
  SlConsoleLog *log;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), 0);
  g_return_val_if_fail (title != NULL, 0);

  log = add_log (self, title);
  self->current = log;
  label = g_strdup_printf (_("%s: running"), title);
  sl_console_log_set_state (log, TRUE, "media-playback-start-symbolic", label);
  panel_widget_raise (PANEL_WIDGET (self));
  return sl_console_log_get_id (log);
}

/**
 * sl_console_panel_add_log:
 * @title: what the log is of, for the job chooser and the status line
 *
 * Shows a log of its own that no running job writes to, such as an
 * old job's, filled with sl_console_panel_append_to_job().
 *
 * Returns: the log's id in the Console
 */
guint
sl_console_panel_add_log (SlConsolePanel *self,
                          const char     *title)
{
  SlConsoleLog *log;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), 0);
  g_return_val_if_fail (title != NULL, 0);

  log = add_log (self, title);
  sl_console_log_set_state (log, FALSE, "document-open-symbolic", title);
  panel_widget_raise (PANEL_WIDGET (self));
  return sl_console_log_get_id (log);
}

/**
 * sl_console_panel_begin_job:
 * @title: what runs, for the status line
 *
 * Shows a job the caller streams in with sl_console_panel_append();
 * Stop emits #SlConsolePanel::stop-requested.
 */
void
sl_console_panel_begin_job (SlConsolePanel *self,
                            const char     *title)
{
  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  sl_console_panel_add_job (self, title);
}

static void
set_log_status (SlConsoleLog *log,
                const char   *status)
{
  g_autofree char *label = g_strdup_printf ("%s: %s", sl_console_log_get_title (log), status);

  sl_console_log_set_state (log, sl_console_log_get_running (log), "network-transmit-receive-symbolic", label);
}

/**
 * sl_console_panel_set_job_status:
 * @status: a short state, "reconnecting" say
 */
void
sl_console_panel_set_job_status (SlConsolePanel *self,
                                 const char     *status)
{
  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));
  g_return_if_fail (status != NULL);

  set_log_status (get_current_log (self), status);
}

void
sl_console_panel_set_status_of_job (SlConsolePanel *self,
                                    guint           job,
                                    const char     *status)
{
  SlConsoleLog *log;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));
  g_return_if_fail (status != NULL);

  if ((log = find_log (self, job)) != NULL)
    set_log_status (log, status);
}

static void
end_log (SlConsoleLog *log,
         int           exit_code,
         const char   *reason)
{
  const char *title = sl_console_log_get_title (log);
  g_autofree char *line = NULL;
  g_autofree char *label = NULL;

  if (reason == NULL)
    {
      line = g_strdup_printf (_("\n[%s exited with code %d after %.1f s]\n"), title, exit_code,
                              sl_console_log_get_seconds (log));
      label = g_strdup_printf (_("%s: exited with code %d"), title, exit_code);
    }
  else
    {
      line = g_strdup_printf ("\n[%s: %s]\n", title, reason);
      label = g_strdup_printf ("%s: %s", title, reason);
    }
  sl_console_log_append (log, line, -1);
  sl_console_log_set_state (log, FALSE, exit_code == 0 ? "object-select-symbolic" : "dialog-error-symbolic", label);
}

/**
 * sl_console_panel_end_job:
 * @exit_code: the job's exit code, or -1 when it has none (lost, failed
 *   to start)
 * @reason: (nullable): why, when it did not run to an exit code
 */
void
sl_console_panel_end_job (SlConsolePanel *self,
                          int             exit_code,
                          const char     *reason)
{
  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  end_log (get_current_log (self), exit_code, reason);
}

void
sl_console_panel_end_job_with_id (SlConsolePanel *self,
                                  guint           job,
                                  int             exit_code,
                                  const char     *reason)
{
  SlConsoleLog *log;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  if ((log = find_log (self, job)) != NULL)
    end_log (log, exit_code, reason);
}

/**
 * sl_console_panel_dup_text:
 *
 * Returns: (transfer full): what the log shown holds
 */
char *
sl_console_panel_dup_text (SlConsolePanel *self)
{
  SlConsoleLog *shown;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), NULL);

  shown = get_shown_log (self);
  return shown != NULL ? sl_console_log_dup_text (shown) : g_strdup ("");
}

/* Clears the log shown. */
void
sl_console_panel_clear (SlConsolePanel *self)
{
  SlConsoleLog *shown;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  if ((shown = get_shown_log (self)) != NULL)
    sl_console_log_clear (shown);
}

guint
sl_console_panel_get_n_jobs (SlConsolePanel *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
}

guint
sl_console_panel_get_shown_job (SlConsolePanel *self)
{
  SlConsoleLog *shown;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), 0);

  shown = get_shown_log (self);
  return shown != NULL ? sl_console_log_get_id (shown) : 0;
}

void
sl_console_panel_show_job (SlConsolePanel *self,
                           guint           job)
{
  guint n;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlConsoleLog) log = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (sl_console_log_get_id (log) == job)
        gtk_drop_down_set_selected (self->job_chooser, i);
    }
}

/**
 * sl_console_panel_get_job_log:
 *
 * Returns: (transfer none) (nullable): the log of @job
 */
SlConsoleLog *
sl_console_panel_get_job_log (SlConsolePanel *self,
                              guint           job)
{
  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), NULL);
  return find_log (self, job);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlConsolePanel *self = SL_CONSOLE_PANEL (widget);
  SlConsoleLog *shown = get_shown_log (self);

  if (shown != NULL && sl_console_log_get_running (shown))
    g_signal_emit (self, signals[STOP_REQUESTED], 0);
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  sl_console_panel_clear (SL_CONSOLE_PANEL (widget));
}

static void
sl_console_panel_dispose (GObject *object)
{
  SlConsolePanel *self = (SlConsolePanel *)object;

  self->current = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_CONSOLE_PANEL);

  G_OBJECT_CLASS (sl_console_panel_parent_class)->dispose (object);
}

static void
sl_console_panel_class_init (SlConsolePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_console_panel_dispose;

  /**
   * SlConsolePanel::stop-requested:
   *
   * Stop was pressed while the job shown runs.
   */
  signals[STOP_REQUESTED] =
    g_signal_new ("stop-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (SL_TYPE_CONSOLE_LOG);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-console-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, jobs);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, logs);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, job_chooser);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, job_label);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, state_icon);
  gtk_widget_class_bind_template_callback (widget_class, selected_job_changed_cb);

  gtk_widget_class_install_action (widget_class, "console.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "console.clear", NULL, clear_action);
}

static void
sl_console_panel_init (SlConsolePanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update_actions (self);
}

GtkWidget *
sl_console_panel_new (void)
{
  return g_object_new (SL_TYPE_CONSOLE_PANEL, NULL);
}
