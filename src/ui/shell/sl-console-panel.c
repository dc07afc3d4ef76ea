/* sl-console-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-console-panel.h"

/* Keeps the text buffer (and memory) bounded for jobs that print for days. */
#define MAX_LINES 200000

struct _SlConsolePanel
{
  PanelWidget    parent_instance;

  char          *title;
  gint64         started;
  gboolean       running;

  GtkTextView   *text_view;
  GtkLabel      *job_label;
  GtkImage      *state_icon;
  GtkScrolledWindow *scroller;
};

G_DEFINE_FINAL_TYPE (SlConsolePanel, sl_console_panel, PANEL_TYPE_WIDGET)

enum {
  STOP_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
is_scrolled_to_end (SlConsolePanel *self)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);

  return gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) >=
         gtk_adjustment_get_upper (adj) - 4;
}

static void
trim_buffer (GtkTextBuffer *buffer)
{
  int lines = gtk_text_buffer_get_line_count (buffer);

  if (lines > MAX_LINES)
    {
      GtkTextIter start, end;

      gtk_text_buffer_get_start_iter (buffer, &start);
      gtk_text_buffer_get_iter_at_line (buffer, &end, lines - MAX_LINES);
      gtk_text_buffer_delete (buffer, &start, &end);
    }
}

/**
 * sl_console_panel_append:
 * @len: length of @text, or -1 when nul-terminated
 *
 * Appends output. Invalid UTF-8 is shown with replacement characters
 * rather than dropped, so nothing a job printed is lost silently.
 */
void
sl_console_panel_append (SlConsolePanel *self,
                         const char     *text,
                         gssize          len)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;
  g_autofree char *valid = NULL;
  gboolean follow;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));
  g_return_if_fail (text != NULL);

  valid = g_utf8_make_valid (text, len);
  buffer = gtk_text_view_get_buffer (self->text_view);
  follow = is_scrolled_to_end (self);

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, valid, -1);
  trim_buffer (buffer);

  if (follow)
    {
      GtkTextMark *mark = gtk_text_buffer_get_insert (buffer);

      /* scroll_to_mark waits for the new lines to be laid out, unlike
       * scroll_mark_onscreen, so following the output keeps up. */
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_place_cursor (buffer, &end);
      gtk_text_view_scroll_to_mark (self->text_view, mark, 0.0, TRUE, 0.0, 1.0);
    }
}

static void
set_job_state (SlConsolePanel *self,
               const char     *icon_name,
               const char     *label)
{
  gtk_image_set_from_icon_name (self->state_icon, icon_name);
  gtk_label_set_label (self->job_label, label);
}

gboolean
sl_console_panel_is_running (SlConsolePanel *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), FALSE);

  return self->running;
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
  g_autofree char *label = NULL;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  g_free (self->title);
  self->title = g_strdup (title);
  self->started = g_get_monotonic_time ();
  self->running = TRUE;
  label = g_strdup_printf (_("%s: running"), title);
  set_job_state (self, "media-playback-start-symbolic", label);
  panel_widget_raise (PANEL_WIDGET (self));
}

/**
 * sl_console_panel_set_job_status:
 * @status: a short state, "reconnecting" say
 */
void
sl_console_panel_set_job_status (SlConsolePanel *self,
                                 const char     *status)
{
  g_autofree char *label = NULL;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  label = g_strdup_printf ("%s: %s", self->title ? self->title : "", status);
  set_job_state (self, "network-transmit-receive-symbolic", label);
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
  g_autofree char *line = NULL;
  g_autofree char *label = NULL;
  double seconds;

  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  seconds = (g_get_monotonic_time () - self->started) / (double)G_USEC_PER_SEC;
  if (reason == NULL)
    {
      line = g_strdup_printf (_("\n[%s exited with code %d after %.1f s]\n"), self->title, exit_code, seconds);
      label = g_strdup_printf (_("%s: exited with code %d"), self->title, exit_code);
    }
  else
    {
      line = g_strdup_printf ("\n[%s: %s]\n", self->title, reason);
      label = g_strdup_printf ("%s: %s", self->title, reason);
    }

  sl_console_panel_append (self, line, -1);
  set_job_state (self, exit_code == 0 ? "object-select-symbolic" : "dialog-error-symbolic", label);
  self->running = FALSE;
}

/**
 * sl_console_panel_dup_text:
 *
 * Returns: (transfer full): everything the console shows
 */
char *
sl_console_panel_dup_text (SlConsolePanel *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (SL_IS_CONSOLE_PANEL (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
sl_console_panel_clear (SlConsolePanel *self)
{
  g_return_if_fail (SL_IS_CONSOLE_PANEL (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), "", 0);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlConsolePanel *self = SL_CONSOLE_PANEL (widget);

  if (self->running)
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

  g_clear_pointer (&self->title, g_free);
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
   * Stop was pressed for a job begun with sl_console_panel_begin_job().
   */
  signals[STOP_REQUESTED] =
    g_signal_new ("stop-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-console-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, text_view);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, job_label);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, state_icon);
  gtk_widget_class_bind_template_child (widget_class, SlConsolePanel, scroller);

  gtk_widget_class_install_action (widget_class, "console.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "console.clear", NULL, clear_action);
}

static void
sl_console_panel_init (SlConsolePanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_console_panel_new (void)
{
  return g_object_new (SL_TYPE_CONSOLE_PANEL, NULL);
}
