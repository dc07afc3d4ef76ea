/* sl-timeline-pane.c
 *
 * An SlTraceLoad reads the trace, indexes it for drawing and places the
 * steps of every step table on it, on a worker, so choosing another rank
 * or step later costs nothing. The pane follows the load's properties; a
 * load replaced or dropped is no longer followed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-timeline-pane.h"
#include "sl-trace-load-bar.h"
#include "sl-tooltip.h"

#define MAX_SHOWN_PROBLEMS 3

struct _SlTimelinePane
{
  GtkWidget           parent_instance;

  char               *path;
  GPtrArray          *step_tables;
  SlTraceLoad        *load;
  SlTimelinePaneState state;
  GPtrArray          *spans;
  char               *message;
  GListModel         *problems;   /* SlProblem the reader met in the last trace read */

  GtkLabel           *heading_label;
  GtkLabel           *path_label;
  GtkLabel           *note_label;
  GtkLabel           *problems_label;
  GtkStack           *stack;
  GtkProgressBar     *progress_bar;
  AdwStatusPage      *message_page;
  SlTimelineView     *view;
  GtkScrollbar       *scrollbar;
};

G_DEFINE_FINAL_TYPE (SlTimelinePane, sl_timeline_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_state (SlTimelinePane      *self,
           SlTimelinePaneState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
show_message (SlTimelinePane *self,
              const char     *title,
              const char     *description)
{
  /* The description is markup; paths may hold '&' or '<'. */
  g_autofree char *escaped = g_markup_escape_text (description, -1);

  g_free (self->message);
  self->message = g_strdup (description);
  adw_status_page_set_title (self->message_page, title);
  adw_status_page_set_description (self->message_page, escaped);
  gtk_stack_set_visible_child_name (self->stack, "message");
  set_state (self, SL_TIMELINE_PANE_FAILED);
}

/* Damage read past: the first few problems, each with its file and
 * where in it. */
static char *
describe_problems (SlTrace *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);
  guint n = g_list_model_get_n_items (problems);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < n && i < MAX_SHOWN_PROBLEMS; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);
      const char *path = sl_problem_get_path (problem);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      if (path != NULL && path[0] != '\0')
        g_string_append (text, path);
      if (location != NULL && location[0] != '\0')
        g_string_append_printf (text, "%s%s", text->len && path != NULL ? ", " : "", location);
      g_string_append_printf (text, ": %s", sl_problem_get_message (problem));
    }
  if (n > MAX_SHOWN_PROBLEMS)
    {
      g_autofree char *count = sl_count_format (n - MAX_SHOWN_PROBLEMS);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "and %s more problem", "and %s more problems",
                                                 n - MAX_SHOWN_PROBLEMS), count);
    }
  return n > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static void
drop_load (SlTimelinePane *self)
{
  if (self->load == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->load, self);
  sl_trace_load_cancel (self->load);
  sl_trace_load_bar_follow (self->progress_bar, NULL);
  g_clear_object (&self->load);
}

static void
load_state_cb (SlTraceLoad    *load,
               GParamSpec     *pspec,
               SlTimelinePane *self)
{
  g_autoptr(SlTraceLoad) done = NULL;
  g_autofree char *problems = NULL;
  g_autoptr(SlTraceLod) lod = NULL;
  const GError *error;

  if (load != self->load || !sl_trace_load_is_finished (load))
    return;
  done = g_object_ref (load);
  drop_load (self);

  error = sl_trace_load_get_error (done);
  if (sl_trace_load_get_state (done) == SL_TRACE_LOAD_CANCELLED)
    {
      show_message (self, _("Reading Stopped"), _("The timeline was not read to the end."));
      return;
    }
  if (sl_trace_load_get_state (done) == SL_TRACE_LOAD_FAILED)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        show_message (self, _("No Timeline"), error->message);
      else
        show_message (self, _("Cannot Read the Timeline"), error->message);
      return;
    }

  lod = sl_trace_load_steal_lod (done);
  g_set_object (&self->problems, sl_trace_get_problems (sl_trace_lod_get_trace (lod)));
  problems = describe_problems (sl_trace_lod_get_trace (lod));
  /* Nothing readable at all: say why in place of an empty timeline. */
  if (sl_trace_get_n_tracks (sl_trace_lod_get_trace (lod)) == 0)
    {
      show_message (self, _("Cannot Read the Timeline"),
                    problems != NULL ? problems : _("The timeline has no events."));
      return;
    }

  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = sl_trace_load_steal_spans (done);
  g_free (self->message);
  self->message = g_strdup (problems);
  gtk_label_set_text (self->problems_label, problems != NULL ? problems : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), problems != NULL);
  sl_timeline_view_set_lod (self->view, g_steal_pointer (&lod));
  gtk_stack_set_visible_child_name (self->stack, "timeline");
  set_state (self, SL_TIMELINE_PANE_READY);
}

static void
start_load (SlTimelinePane *self)
{
  drop_load (self);
  self->load = sl_trace_load_new (self->path);
  /* A comparison is of whole traces: previews would be read and thrown away. */
  sl_trace_load_set_preview_sizes (self->load, 0, 0);
  sl_trace_load_place_steps (self->load, self->step_tables);

  g_clear_pointer (&self->message, g_free);
  g_clear_object (&self->problems);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_state (self, SL_TIMELINE_PANE_LOADING);

  sl_trace_load_bar_follow (self->progress_bar, self->load);
  g_signal_connect (self->load, "notify::state", G_CALLBACK (load_state_cb), self);
  sl_trace_load_start (self->load);
}

static void
retry_clicked_cb (SlTimelinePane *self)
{
  if (self->path != NULL)
    start_load (self);
}

/* API */

void
sl_timeline_pane_set_heading (SlTimelinePane *self,
                              const char     *heading,
                              const char     *path)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));

  gtk_label_set_text (self->heading_label, heading != NULL ? heading : "");
  gtk_label_set_text (self->path_label, path != NULL ? path : "");
  sl_widget_set_long_tooltip (GTK_WIDGET (self->path_label), path);
}

const char *
sl_timeline_pane_get_heading (SlTimelinePane *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), NULL);
  return gtk_label_get_text (self->heading_label);
}

void
sl_timeline_pane_set_note (SlTimelinePane *self,
                           const char     *note)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));

  gtk_label_set_text (self->note_label, note != NULL ? note : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->note_label), note);
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note != NULL && note[0] != '\0');
}

void
sl_timeline_pane_load (SlTimelinePane *self,
                       const char     *path,
                       GPtrArray      *step_tables)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));
  g_return_if_fail (path != NULL);

  g_free (self->path);
  self->path = g_strdup (path);
  g_clear_pointer (&self->step_tables, g_ptr_array_unref);
  if (step_tables != NULL)
    self->step_tables = g_ptr_array_ref (step_tables);
  start_load (self);
}

void
sl_timeline_pane_cancel (SlTimelinePane *self)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));

  if (self->load != NULL)
    sl_trace_load_cancel (self->load);
}

/* Back to nothing shown; a read under way is dropped. */
void
sl_timeline_pane_clear (SlTimelinePane *self)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));

  drop_load (self);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_pointer (&self->message, g_free);
  g_clear_object (&self->problems);
  sl_timeline_view_set_lod (self->view, NULL);
  sl_timeline_pane_set_note (self, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
  set_state (self, SL_TIMELINE_PANE_EMPTY);
}

SlTimelinePaneState
sl_timeline_pane_get_state (SlTimelinePane *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), SL_TIMELINE_PANE_EMPTY);
  return self->state;
}

SlTimelineView *
sl_timeline_pane_get_view (SlTimelinePane *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), NULL);
  return self->view;
}

SlStepSpans *
sl_timeline_pane_get_spans (SlTimelinePane *self,
                            guint           index)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), NULL);

  if (self->spans == NULL || index >= self->spans->len)
    return NULL;
  return g_ptr_array_index (self->spans, index);
}

const char *
sl_timeline_pane_get_message (SlTimelinePane *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), NULL);
  return self->message;
}

/**
 * sl_timeline_pane_get_problems:
 *
 * What the reader met in the trace last read to its end (a cut end,
 * damage read past), each with its file and byte; the document showing
 * the pane puts them in the Problems panel. The state notifies when they
 * change.
 *
 * Returns: (transfer none) (nullable): a list of #SlProblem, or %NULL
 *   while nothing was read
 */
GListModel *
sl_timeline_pane_get_problems (SlTimelinePane *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PANE (self), NULL);
  return self->problems;
}

/* Life */

static void
sl_timeline_pane_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelinePane *self = SL_TIMELINE_PANE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_pane_dispose (GObject *object)
{
  SlTimelinePane *self = SL_TIMELINE_PANE (object);

  drop_load (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_PANE);
  /* The template's unnamed children are not disposed with it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  self->stack = NULL;
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_pointer (&self->step_tables, g_ptr_array_unref);
  g_clear_pointer (&self->message, g_free);
  g_clear_object (&self->problems);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_timeline_pane_parent_class)->dispose (object);
}

static void
sl_timeline_pane_class_init (SlTimelinePaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_timeline_pane_dispose;
  object_class->get_property = sl_timeline_pane_get_property;

  /**
   * SlTimelinePane:state:
   *
   * An SlTimelinePaneState.
   */
  properties[PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL, SL_TIMELINE_PANE_EMPTY, SL_TIMELINE_PANE_FAILED, SL_TIMELINE_PANE_EMPTY,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SL_TYPE_TIMELINE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-timeline-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, heading_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, path_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, note_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, problems_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, stack);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, message_page);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePane, scrollbar);
  gtk_widget_class_bind_template_callback (widget_class, sl_timeline_pane_cancel);
  gtk_widget_class_bind_template_callback (widget_class, retry_clicked_cb);
  gtk_widget_class_set_css_name (widget_class, "timelinepane");
}

static void
sl_timeline_pane_init (SlTimelinePane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_scrollbar_set_adjustment (self->scrollbar, sl_timeline_view_get_vadjustment (self->view));
}

GtkWidget *
sl_timeline_pane_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_PANE, NULL);
}
