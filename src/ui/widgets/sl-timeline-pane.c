/* sl-timeline-pane.c
 *
 * The worker reads the trace, indexes it for drawing and places the steps
 * of every step table on it, so choosing another rank or step later costs
 * nothing. A generation counter drops what a read no longer asked for
 * delivers; progress is polled from the worker's counters as the
 * Timeline document does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-trace-loader.h"
#include "sl-timeline-pane.h"
#include "sl-tooltip.h"

#define PROGRESS_INTERVAL_MS 100
#define MAX_SHOWN_PROBLEMS 3

/* Shared between the pane and its worker */
typedef struct {
  gint       ref_count;
  char      *path;
  GPtrArray *step_tables;   /* SlStepTrace or NULL */
  guint      generation;
  GMutex     mutex;
  guint64    bytes_read;    /* under mutex */
  guint64    total_bytes;   /* under mutex */
  gint       indexing;      /* atomic */
} Load;

typedef struct {
  SlTraceLod *lod;
  GPtrArray  *spans;        /* SlStepSpans, one per step table */
} Loaded;

struct _SlTimelinePane
{
  GtkWidget           parent_instance;

  char               *path;
  GPtrArray          *step_tables;
  Load               *load;
  GCancellable       *cancellable;
  guint               generation;
  guint               progress_source;
  SlTimelinePaneState state;
  GPtrArray          *spans;
  char               *message;

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

static Load *
load_ref (Load *load)
{
  g_atomic_int_inc (&load->ref_count);
  return load;
}

static void
load_unref (Load *load)
{
  if (!g_atomic_int_dec_and_test (&load->ref_count))
    return;
  g_free (load->path);
  g_clear_pointer (&load->step_tables, g_ptr_array_unref);
  g_mutex_clear (&load->mutex);
  g_free (load);
}

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->lod, sl_trace_lod_free);
  g_clear_pointer (&loaded->spans, g_ptr_array_unref);
  g_free (loaded);
}

static void
set_state (SlTimelinePane      *self,
           SlTimelinePaneState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* The worker */

static void
progress_cb (guint64  bytes_read,
             guint64  total_bytes,
             gpointer user_data)
{
  Load *load = user_data;

  g_mutex_lock (&load->mutex);
  load->bytes_read = bytes_read;
  load->total_bytes = total_bytes;
  g_mutex_unlock (&load->mutex);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  Loaded *loaded;

  trace = sl_trace_load_path (load->path, progress_cb, load, cancellable, &error);
  if (trace == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_atomic_int_set (&load->indexing, 1);
  loaded = g_new0 (Loaded, 1);
  loaded->spans = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_step_spans_free);
  for (guint i = 0; load->step_tables != NULL && i < load->step_tables->len; i++)
    g_ptr_array_add (loaded->spans, sl_step_spans_new (trace, g_ptr_array_index (load->step_tables, i)));
  if (loaded->spans->len == 0)
    g_ptr_array_add (loaded->spans, sl_step_spans_new (trace, NULL));

  loaded->lod = sl_trace_lod_new (trace, cancellable);
  if (loaded->lod == NULL)
    {
      loaded_free (loaded);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
      return;
    }
  g_task_return_pointer (task, loaded, (GDestroyNotify)loaded_free);
}

/* On the main thread */

static gboolean
progress_timeout_cb (gpointer user_data)
{
  SlTimelinePane *self = user_data;
  guint64 read, total;

  if (self->load == NULL)
    return G_SOURCE_CONTINUE;

  g_mutex_lock (&self->load->mutex);
  read = self->load->bytes_read;
  total = self->load->total_bytes;
  g_mutex_unlock (&self->load->mutex);
  if (g_atomic_int_get (&self->load->indexing))
    {
      gtk_progress_bar_set_text (self->progress_bar, _("Indexing…"));
      gtk_progress_bar_pulse (self->progress_bar);
    }
  else if (total > 0)
    {
      g_autofree char *done = g_format_size (read);
      g_autofree char *all = g_format_size (total);
      g_autofree char *text = g_strdup_printf (_("%s of %s"), done, all);

      gtk_progress_bar_set_fraction (self->progress_bar, (double)read / total);
      gtk_progress_bar_set_text (self->progress_bar, text);
    }
  else
    gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
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
      g_string_append_c (text, '\n');
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "and %u more problem", "and %u more problems",
                                                 n - MAX_SHOWN_PROBLEMS), n - MAX_SHOWN_PROBLEMS);
    }
  return n > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlTimelinePane) self = user_data;
  Load *load = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *problems = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);

  /* A newer read, or the pane was cleared or disposed meanwhile. */
  if (load->generation != self->generation || self->stack == NULL)
    {
      g_clear_pointer (&loaded, loaded_free);
      return;
    }
  g_clear_pointer (&self->load, load_unref);
  g_clear_handle_id (&self->progress_source, g_source_remove);

  if (loaded == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, _("Reading Stopped"), _("The timeline was not read to the end."));
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        show_message (self, _("No Timeline"), error->message);
      else
        show_message (self, _("Cannot Read the Timeline"), error->message);
      return;
    }

  problems = describe_problems (sl_trace_lod_get_trace (loaded->lod));
  /* Nothing readable at all: say why in place of an empty timeline. */
  if (sl_trace_get_n_tracks (sl_trace_lod_get_trace (loaded->lod)) == 0)
    {
      show_message (self, _("Cannot Read the Timeline"),
                    problems != NULL ? problems : _("The timeline has no events."));
      loaded_free (loaded);
      return;
    }

  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = g_steal_pointer (&loaded->spans);
  g_free (self->message);
  self->message = g_strdup (problems);
  gtk_label_set_text (self->problems_label, problems != NULL ? problems : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), problems != NULL);
  sl_timeline_view_set_lod (self->view, g_steal_pointer (&loaded->lod));
  loaded_free (loaded);
  gtk_stack_set_visible_child_name (self->stack, "timeline");
  set_state (self, SL_TIMELINE_PANE_READY);
}

static void
start_load (SlTimelinePane *self)
{
  g_autoptr(GTask) task = NULL;
  Load *load;

  sl_timeline_pane_cancel (self);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  load = g_new0 (Load, 1);
  load->ref_count = 1;
  g_mutex_init (&load->mutex);
  load->path = g_strdup (self->path);
  load->step_tables = self->step_tables != NULL ? g_ptr_array_ref (self->step_tables) : NULL;
  load->generation = ++self->generation;
  g_clear_pointer (&self->load, load_unref);
  self->load = load;

  g_clear_pointer (&self->message, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_label), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, NULL);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_state (self, SL_TIMELINE_PANE_LOADING);

  g_clear_handle_id (&self->progress_source, g_source_remove);
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_timeout_cb, self);
  task = g_task_new (NULL, self->cancellable, load_cb, g_object_ref (self));
  g_task_set_task_data (task, load_ref (load), (GDestroyNotify)load_unref);
  g_task_run_in_thread (task, load_thread);
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

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* Back to nothing shown; a read under way is dropped. */
void
sl_timeline_pane_clear (SlTimelinePane *self)
{
  g_return_if_fail (SL_IS_TIMELINE_PANE (self));

  sl_timeline_pane_cancel (self);
  self->generation++;
  g_clear_pointer (&self->load, load_unref);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_pointer (&self->message, g_free);
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

  sl_timeline_pane_cancel (self);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_PANE);
  /* The template's unnamed children are not disposed with it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  self->stack = NULL;
  g_clear_pointer (&self->load, load_unref);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_pointer (&self->step_tables, g_ptr_array_unref);
  g_clear_pointer (&self->message, g_free);
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
