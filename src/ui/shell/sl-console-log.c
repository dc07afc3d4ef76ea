/* sl-console-log.c: one job's output in the Console, following its end
 *
 * The view follows the end of the output until the user scrolls up, and
 * follows it again once they are back at the bottom or press Ctrl+End.
 * What it follows is the vertical adjustment, not a mark scrolled to once
 * an append: the text view lays out lines lazily, so the end keeps moving
 * down after each append as lines are measured, and every move of the
 * end ("changed") is followed, before the next frame, while the view
 * follows. (The old way decided at each append whether the view was at
 * the end, from an end not measured yet, and so stopped following.)
 *
 * Only the user moves the view up: an upward move away from the end
 * stops following. The view's own moves when lines above are measured
 * again (a resize, the oldest lines trimmed) can look the same for a
 * moment, but they leave the view at the end once the end is known, and
 * a view at the end follows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-console-log.h"

/* Keeps the text buffer (and memory) bounded for jobs that print for days. */
#define MAX_LINES 200000
/* How close to the end counts as at the end, in pixels. */
#define END_SLACK 2.0

struct _SlConsoleLog
{
  GtkWidget          parent_instance;

  guint              id;
  char              *title;
  char              *label;
  char              *status;
  char              *icon_name;
  gint64             started;
  gboolean           running;
  gboolean           following;
  double             last_value;
  guint              follow_tick;

  GtkScrolledWindow *scroller;
  GtkTextView       *text_view;
};

G_DEFINE_FINAL_TYPE (SlConsoleLog, sl_console_log, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_LABEL,
  PROP_STATUS,
  PROP_ICON_NAME,
  PROP_RUNNING,
  PROP_FOLLOWING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkAdjustment *
get_vadjustment (SlConsoleLog *self)
{
  return gtk_scrolled_window_get_vadjustment (self->scroller);
}

static gboolean
is_at_end (GtkAdjustment *adj)
{
  return gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) >=
         gtk_adjustment_get_upper (adj) - END_SLACK;
}

static void
set_following (SlConsoleLog *self,
               gboolean      following)
{
  if (self->following == following)
    return;
  self->following = following;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
}

static void
scroll_to_end (SlConsoleLog *self)
{
  GtkAdjustment *adj = get_vadjustment (self);

  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
}

static gboolean
follow_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SlConsoleLog *self = SL_CONSOLE_LOG (widget);

  self->follow_tick = 0;
  if (self->following)
    scroll_to_end (self);
  return G_SOURCE_REMOVE;
}

/* Moves to the end before the next frame, once the text view is done
 * with the adjustment: it sets the adjustment while it lays out, and a
 * move made inside that is undone. */
static void
queue_follow (SlConsoleLog *self)
{
  if (self->follow_tick == 0)
    self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick_cb, NULL, NULL);
}

/* The end moved (lines added or measured) or the view was resized. */
static void
adjustment_changed_cb (GtkAdjustment *adj,
                       SlConsoleLog  *self)
{
  if (self->following)
    queue_follow (self);
  else if (is_at_end (adj))
    set_following (self, TRUE);
  self->last_value = gtk_adjustment_get_value (adj);
}

static void
value_changed_cb (GtkAdjustment *adj,
                  SlConsoleLog  *self)
{
  double value = gtk_adjustment_get_value (adj);

  if (is_at_end (adj))
    set_following (self, TRUE);
  else if (value < self->last_value)
    set_following (self, FALSE);
  self->last_value = value;
}

void
sl_console_log_follow (SlConsoleLog *self)
{
  g_return_if_fail (SL_IS_CONSOLE_LOG (self));

  set_following (self, TRUE);
  scroll_to_end (self);
}

gboolean
sl_console_log_get_following (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), FALSE);
  return self->following;
}

static void
follow_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  sl_console_log_follow (SL_CONSOLE_LOG (widget));
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
 * sl_console_log_append:
 * @len: length of @text, or -1 when nul-terminated
 *
 * Appends output. Invalid UTF-8 is shown with replacement characters
 * rather than dropped, so nothing a job printed is lost silently.
 */
void
sl_console_log_append (SlConsoleLog *self,
                       const char   *text,
                       gssize        len)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;
  g_autofree char *valid = NULL;

  g_return_if_fail (SL_IS_CONSOLE_LOG (self));
  g_return_if_fail (text != NULL);

  valid = g_utf8_make_valid (text, len);
  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, valid, -1);
  trim_buffer (buffer);
  /* The end known so far; it moves on as the new lines are measured. */
  if (self->following)
    queue_follow (self);
}

char *
sl_console_log_dup_text (SlConsoleLog *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
sl_console_log_clear (SlConsoleLog *self)
{
  g_return_if_fail (SL_IS_CONSOLE_LOG (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), "", 0);
  set_following (self, TRUE);
}

/* TRUE when @value differs from what @field held. */
static gboolean
replace_string (char       **field,
                const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

void
sl_console_log_set_state (SlConsoleLog *self,
                          gboolean      running,
                          const char   *icon_name,
                          const char   *status)
{
  g_return_if_fail (SL_IS_CONSOLE_LOG (self));

  g_object_freeze_notify (G_OBJECT (self));
  if (self->running != running)
    {
      self->running = running;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
  if (replace_string (&self->icon_name, icon_name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON_NAME]);
  if (replace_string (&self->status, status))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
  g_object_thaw_notify (G_OBJECT (self));
}

guint
sl_console_log_get_id (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), 0);
  return self->id;
}

const char *
sl_console_log_get_title (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);
  return self->title;
}

const char *
sl_console_log_get_label (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);
  return self->label;
}

gboolean
sl_console_log_get_running (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), FALSE);
  return self->running;
}

const char *
sl_console_log_get_status (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);
  return self->status;
}

const char *
sl_console_log_get_icon_name (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);
  return self->icon_name;
}

double
sl_console_log_get_seconds (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), 0.0);
  return (g_get_monotonic_time () - self->started) / (double)G_USEC_PER_SEC;
}

GtkTextView *
sl_console_log_get_text_view (SlConsoleLog *self)
{
  g_return_val_if_fail (SL_IS_CONSOLE_LOG (self), NULL);
  return self->text_view;
}

static void
sl_console_log_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlConsoleLog *self = SL_CONSOLE_LOG (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, self->icon_name);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_FOLLOWING:
      g_value_set_boolean (value, self->following);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_console_log_dispose (GObject *object)
{
  SlConsoleLog *self = SL_CONSOLE_LOG (object);

  if (self->follow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->follow_tick);
  self->follow_tick = 0;
  if (self->scroller != NULL)
    g_signal_handlers_disconnect_by_data (get_vadjustment (self), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_CONSOLE_LOG);

  G_OBJECT_CLASS (sl_console_log_parent_class)->dispose (object);
}

static void
sl_console_log_finalize (GObject *object)
{
  SlConsoleLog *self = SL_CONSOLE_LOG (object);

  g_free (self->title);
  g_free (self->label);
  g_free (self->status);
  g_free (self->icon_name);

  G_OBJECT_CLASS (sl_console_log_parent_class)->finalize (object);
}

static void
sl_console_log_class_init (SlConsoleLogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_console_log_get_property;
  object_class->dispose = sl_console_log_dispose;
  object_class->finalize = sl_console_log_finalize;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-console-log.ui");
  gtk_widget_class_bind_template_child (widget_class, SlConsoleLog, scroller);
  gtk_widget_class_bind_template_child (widget_class, SlConsoleLog, text_view);
  gtk_widget_class_install_action (widget_class, "log.follow", NULL, follow_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sl_console_log_init (SlConsoleLog *self)
{
  GtkAdjustment *adj;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->following = TRUE;
  self->started = g_get_monotonic_time ();
  adj = get_vadjustment (self);
  g_signal_connect (adj, "changed", G_CALLBACK (adjustment_changed_cb), self);
  g_signal_connect (adj, "value-changed", G_CALLBACK (value_changed_cb), self);
}

SlConsoleLog *
sl_console_log_new (guint       id,
                    const char *title)
{
  SlConsoleLog *self = g_object_new (SL_TYPE_CONSOLE_LOG, NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time = g_date_time_format (now, "%H:%M:%S");

  self->id = id;
  self->title = g_strdup (title);
  self->label = g_strdup_printf ("%s  %s", time, title);
  return self;
}
