/* sl-timeline-page.c
 *
 * The document drives the objects that do the work, each in a file of its
 * own: an SlTraceLoad reads and indexes the trace on a worker (the page
 * shows its progress with a Cancel button, and the part read so far as
 * soon as the load has a preview of it), SlTimelineTracks fills the
 * track list, SlTimelineRangeTable sums up a range and SlTimelineSearch
 * finds slices by name, both on workers, and sl-timeline-export.c writes
 * what is shown. The page holds the widgets, the status line, links from
 * other documents and the Details of the selected slice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-op-names.h"
#include "sl-timeline-details.h"
#include "sl-timeline-export.h"
#include "sl-timeline-item.h"
#include "sl-timeline-page.h"
#include "sl-timeline-palette.h"
#include "sl-timeline-range-table.h"
#include "sl-timeline-search.h"
#include "sl-timeline-tracks.h"
#include "sl-count-format.h"
#include "sl-trace-aggregate-index.h"
#include "sl-trace-load.h"
#include "sl-trace-load-bar.h"
#include "sl-trace-search.h"
#include "sl-tooltip.h"

#define MAX_SHOWN_NAMES 3

struct _SlTimelinePage
{
  SlDocument      parent_instance;

  char           *path;
  SlTrace        *trace;
  SlTraceLoad    *load;
  GCancellable   *search_cancellable;
  GCancellable   *aggregate_cancellable;
  GCancellable   *index_cancellable;  /* building the search and range indexes */
  SlTrace        *search_index_trace; /* not owned: the trace whose search index was asked for */
  gint64          load_us;
  gint64          index_us;
  char           *status;

  SlTimelineTracks *tracks;
  SlTimelineRangeTable *range_table;
  gint64          range_start;  /* the range summed up */
  gint64          range_end;
  SlTimelineSearch *search;
  guint           n_busy;
  gboolean        sized;
  char           *search_text;  /* what was last searched for */
  gboolean        search_regex;
  /* A link's search lands on its first match when done: the first in
   * [land_start, land_end) when the link gave a range (-1: none). */
  gboolean        land;
  gint64          land_start;
  gint64          land_end;
  /* A preview shows while the rest is read; the full trace replaces it. */
  gboolean        previewing;
  gboolean        partial;      /* what shows is a preview, read or stopped */

  GtkStack       *stack;
  AdwStatusPage  *loading_page;
  AdwStatusPage  *message_page;
  GtkProgressBar *progress_bar;
  GtkSearchEntry *search_entry;
  GtkToggleButton *regex_toggle;
  GtkToggleButton *tracks_toggle;
  GtkLabel       *search_label;
  GtkListView    *tracks_list;
  SlTimelineView *view;
  GtkScrollbar   *scrollbar;
  GtkNotebook    *bottom_notebook;
  GtkPaned       *bottom_paned;
  GtkLabel       *range_label;
  GtkButton      *copy_button;
  GtkColumnView  *aggregate_view;
  GtkListView    *results_list;
  GtkLabel       *status_label;
  GtkLabel       *visible_label;
  GtkWidget      *preview_bar;
  GtkLabel       *preview_label;
  GtkProgressBar *preview_progress;
  GtkWidget      *preview_cancel_button;
};

G_DEFINE_FINAL_TYPE (SlTimelinePage, sl_timeline_page, SL_TYPE_DOCUMENT)

enum {
  SLICE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_message (SlTimelinePage *self,
              const char     *title,
              const char     *description)
{
  adw_status_page_set_title (self->message_page, title);
  adw_status_page_set_description (self->message_page, description);
  sl_document_fail (SL_DOCUMENT (self), description);
}

const char *
sl_timeline_page_get_status (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return self->status;
}

/* A time measured in microseconds, in the ruler's units and to no finer
 * than a microsecond: a small trace reads in "2.134 ms", not "0.00 s". */
static char *
format_elapsed_us (gint64 us)
{
  if (us < 1)
    /* Translators: how long reading or indexing a trace took, when it was
     * too quick to measure */
    return g_strdup (_("under 1 µs"));
  /* below a millisecond the duration's three digits would be nanoseconds */
  if (us < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " µs", us);
  return sl_timeline_format_duration (us * 1000);
}

static void
update_status (SlTimelinePage *self)
{
  SlTraceLod *lod;
  guint64 n_slices = 0;
  guint n_tracks;
  gint64 start, end;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *span = NULL;
  g_autofree char *memory = NULL;
  g_autofree char *count = NULL;
  g_autofree char *slices = NULL;
  g_autofree char *tracks = NULL;
  g_autofree char *stats = NULL;
  g_autofree char *range = NULL;

  if (self->trace == NULL)
    return;

  lod = sl_timeline_renderer_get_lod (sl_timeline_view_get_renderer (self->view));
  n_tracks = sl_trace_get_n_tracks (self->trace);
  for (guint t = 0; t < n_tracks; t++)
    if (sl_trace_get_track_kind (self->trace, t) != SL_TRACE_TRACK_COUNTER && sl_trace_get_slices (self->trace, t))
      n_slices += sl_trace_get_slices (self->trace, t)->n_slices;

  sl_timeline_view_get_window (self->view, &start, &end);
  from = sl_timeline_format_time (start - sl_trace_get_start_ns (self->trace), MAX ((end - start) / 100, 1));
  to = sl_timeline_format_time (end - sl_trace_get_start_ns (self->trace), MAX ((end - start) / 100, 1));
  span = sl_timeline_format_duration (end - start);
  memory = g_format_size (sl_trace_get_memory_size (self->trace) + (lod ? sl_trace_lod_get_memory_size (lod) : 0));
  count = sl_count_format (n_slices);
  /* Translators: a count of slices, its digits grouped: "7,578,927 slices" */
  slices = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s slice", "%s slices", n_slices), count);
  tracks = sl_count_format (n_tracks);

  if (self->partial)
    /* Translators: the status line while the rest of the file is read:
     * "12,345 slices on 8 tracks read so far · 120 MB in memory" */
    stats = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s on %s track read so far · %s in memory",
                                          "%s on %s tracks read so far · %s in memory", n_tracks),
                             slices, tracks, memory);
  else
    {
      g_autofree char *read = format_elapsed_us (self->load_us);
      g_autofree char *indexed = format_elapsed_us (self->index_us);

      /* Translators: the load statistics of a timeline's status line: "12,345
       * slices on 8 tracks · read in 1.20 s, indexed in 80.0 ms · 120 MB in
       * memory"; the times are in the ruler's units, "µs", "ms" or "s" */
      stats = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s on %s track · read in %s, indexed in %s · %s in memory",
                                            "%s on %s tracks · read in %s, indexed in %s · %s in memory", n_tracks),
                               slices, tracks, read, indexed, memory);
    }
  if (!sl_trace_has_times (self->trace))
    /* Nothing read with a time: the view's window around it is not a
     * range of the trace. */
    range = g_strdup (self->partial ? _("nothing with a time read yet") : _("nothing to show: nothing read has a time"));
  else
    /* Translators: the visible range of a timeline: "showing 1.2 s – 1.5 s (300 ms)" */
    range = g_strdup_printf (_("showing %s – %s (%s)"), from, to, span);

  g_free (self->status);
  self->status = g_strdup_printf ("%s · %s", stats, range);
  /* The visible range never ellipsizes; the statistics give way to it and
   * the whole line is in the tooltip. */
  gtk_label_set_label (self->visible_label, range);
  gtk_label_set_label (self->status_label, stats);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->status_label), self->status);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->visible_label), self->status);
}

static void slice_selected_cb (SlTimelinePage *self,
                               guint           track,
                               guint           slice);
static void range_selected_cb (SlTimelinePage *self,
                               gint64          start_ns,
                               gint64          end_ns);
static void start_search      (SlTimelinePage *self,
                               const char     *text,
                               gboolean        regex,
                               SlOpNames      *names);

/* The preview's bar: how much is read, and how much of the trace shows. */
static void
update_preview_bar (SlTimelinePage *self)
{
  g_autofree char *shown = NULL;
  g_autofree char *text = NULL;
  double fraction;

  if (!self->previewing || self->trace == NULL || self->load == NULL)
    return;
  fraction = sl_trace_load_get_progress (self->load);
  shown = sl_timeline_format_duration (sl_trace_get_end_ns (self->trace) - sl_trace_get_start_ns (self->trace));
  switch (sl_trace_load_get_state (self->load))
    {
    case SL_TRACE_LOAD_CANCELLED:
      /* Translators: reading a big trace was stopped; what was read before
       * shows: "Reading stopped at 12 %: showing the first 1.20 s of the trace" */
      text = g_strdup_printf (_("Reading stopped at %d %%: showing the first %s of the trace"), (int)(fraction * 100), shown);
      break;
    case SL_TRACE_LOAD_INDEXING:
      /* Translators: the whole trace is read and being indexed; the part read first still shows */
      text = g_strdup_printf (_("Indexing… (showing the first %s of the trace)"), shown);
      break;
    case SL_TRACE_LOAD_WAITING:
    case SL_TRACE_LOAD_READING:
    case SL_TRACE_LOAD_DONE:
    case SL_TRACE_LOAD_FAILED:
    default:
      /* Translators: a big trace is being read; the part read so far
       * shows: "Reading… 12 % (showing the first 1.20 s of the trace)" */
      text = g_strdup_printf (_("Reading… %d %% (showing the first %s of the trace)"), (int)(fraction * 100), shown);
      break;
    }
  gtk_label_set_label (self->preview_label, text);
  gtk_progress_bar_set_fraction (self->preview_progress, fraction);
}

static void
range_index_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  sl_trace_aggregate_index_get (task_data, cancellable);
  g_task_return_boolean (task, TRUE);
}

static void
search_index_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  sl_trace_search_get (task_data, cancellable);
  g_task_return_boolean (task, TRUE);
}

/* Builds an index of the shown trace with @thread on a worker, so that
 * the first search or range finds it ready; one asked for meanwhile waits
 * for this build instead of starting its own. Stopped when the page goes
 * or another trace replaces this one. */
static void
build_index (SlTimelinePage  *self,
             GTaskThreadFunc  thread)
{
  g_autoptr(GTask) task = NULL;

  if (self->index_cancellable == NULL || g_cancellable_is_cancelled (self->index_cancellable))
    {
      g_clear_object (&self->index_cancellable);
      self->index_cancellable = g_cancellable_new ();
    }
  task = g_task_new (NULL, self->index_cancellable, NULL, NULL);
  g_task_set_source_tag (task, build_index);
  g_task_set_priority (task, G_PRIORITY_LOW);
  g_task_set_task_data (task, g_object_ref (self->trace), g_object_unref);
  g_task_run_in_thread (task, thread);
}

/* The search index (8 bytes a slice: a third of what the slices take)
 * is built when the search field is first entered, not when the trace
 * opens, so a trace opened only to be looked at never holds it: at 32 M
 * events the window then opens within 40 bytes an event. Entering the
 * field starts the build, which the first keystroke usually finds done
 * (1.6 s at 32 M slices in bench-trace-queries, a tenth of a second at
 * 1 M); a search started before waits for it. */
static void
search_entered_cb (SlTimelinePage *self)
{
  if (self->trace == NULL || self->search_index_trace == self->trace)
    return;
  self->search_index_trace = self->trace;
  build_index (self, search_index_thread);
}

/* Shows @lod (taken). A trace shown before, a preview, gives way to it
 * keeping the time window the user chose (one that shows all of the
 * trace before is fitted to the new one), the selected slice where @lod's
 * trace has it, the search and the summed range; the first is fitted. */
static void
show_trace (SlTimelinePage *self,
            SlTraceLod     *lod)
{
  g_autoptr(SlTrace) old = self->trace != NULL ? g_object_ref (self->trace) : NULL;
  gint64 start = 0, end = 0, range_start = 0, range_end = 0;
  guint track = G_MAXUINT, new_track = G_MAXUINT;
  guint32 slice = 0, new_slice = 0;
  gboolean selected = FALSE, ranged = FALSE;
  /* A view not laid out yet is fitted to the new trace when it is. */
  gboolean keep = old != NULL && gtk_widget_get_width (GTK_WIDGET (self->view)) > SL_TIMELINE_GUTTER_WIDTH;

  if (old != NULL)
    {
      SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (self->view);

      sl_timeline_view_get_window (self->view, &start, &end);
      /* A window that still shows the whole of what was shown was not
       * chosen: the new trace is fitted, so that all of it shows. */
      if (start <= sl_trace_get_start_ns (old) && end >= sl_trace_get_end_ns (old))
        keep = FALSE;
      selected = sl_timeline_view_get_selected (self->view, &track, &slice);
      ranged = sl_timeline_renderer_get_range (renderer, &range_start, &range_end) && range_end > range_start;
    }

  if (old != sl_trace_lod_get_trace (lod))
    {
      g_cancellable_cancel (self->index_cancellable);
      self->search_index_trace = NULL;
    }
  g_set_object (&self->trace, sl_trace_lod_get_trace (lod));
  sl_timeline_view_set_lod (self->view, lod);
  sl_timeline_tracks_fill (self->tracks, self->trace);
  if (old != NULL)
    {
      if (keep)
        sl_timeline_view_set_window (self->view, start, end);
      if (selected && sl_trace_load_match_slice (old, track, slice, self->trace, &new_track, &new_slice))
        sl_timeline_view_select (self->view, new_track, new_slice);
      else if (selected)
        slice_selected_cb (self, G_MAXUINT, 0);
      /* Matches and sums are counted again over the new trace. */
      if (self->search_text != NULL && self->search_text[0] != '\0')
        {
          g_autofree char *text = g_strdup (self->search_text);

          sl_timeline_search_clear (self->search);
          start_search (self, text, self->search_regex, NULL);
        }
      if (ranged)
        sl_timeline_view_set_range (self->view, range_start, range_end);
      else if (g_list_model_get_n_items (sl_timeline_range_table_get_model (self->range_table)) > 0)
        range_selected_cb (self, 0, 0);
    }
  update_status (self);
}

static void
load_preview_cb (SlTraceLoad    *load,
                 GParamSpec     *pspec,
                 SlTimelinePage *self)
{
  SlTraceLod *lod;

  if (sl_trace_load_get_preview (load) == NULL || sl_trace_load_is_finished (load)
      || (lod = sl_trace_load_steal_preview_lod (load)) == NULL)
    return;

  self->previewing = self->partial = TRUE;
  show_trace (self, lod);
  gtk_widget_set_visible (self->preview_bar, TRUE);
  update_preview_bar (self);
  /* The document is ready only with the whole trace (links wait for it):
   * the preview shows meanwhile. */
  if (sl_document_get_state (SL_DOCUMENT (self)) == SL_DOCUMENT_LOADING)
    gtk_stack_set_visible_child_name (self->stack, "timeline");
}

static void
load_progress_cb (SlTraceLoad    *load,
                  GParamSpec     *pspec,
                  SlTimelinePage *self)
{
  update_preview_bar (self);
}

/* What the reader met in the whole trace (damage read past, a cut end,
 * events it could not draw), each naming the file and where: in the
 * Problems panel with the document's. A preview's are never added: its
 * cut is where the preview stopped, not where the file does. */
static void
add_trace_problems (SlTimelinePage *self,
                    SlTrace        *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);

  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_document_add_problem (SL_DOCUMENT (self), problem);
    }
}

/* A trace read whole with nothing that has a time (no slice, instant,
 * counter value or flow) has nothing to show: the page says so, and what
 * it holds, instead of an empty view around nothing. Its problems stay in
 * the Problems panel. */
static gboolean
show_nothing_to_draw (SlTimelinePage *self)
{
  guint64 n_events;
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;
  g_autofree char *description = NULL;

  if (sl_trace_has_times (self->trace))
    return FALSE;

  n_events = sl_trace_get_n_events (self->trace);
  count = sl_count_format (n_events);
  if (self->path == NULL)
    {
      /* a trace put together from a profile's files has no file of its own */
      if (n_events == 0)
        description = g_strdup (_("The trace holds no events."));
      else
        description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                    "The trace's %s event is not drawn: it is not a slice, instant, counter value or flow with a time.",
                                                    "None of the trace's %s events is drawn: none is a slice, instant, counter value or flow with a time.",
                                                    n_events),
                                       count);
    }
  else
    {
      name = g_path_get_basename (self->path);
      if (n_events == 0)
        description = g_strdup_printf (_("%s holds no trace events."), name);
      else
        /* Translators: the first %s is a count of events, the second a file name */
        description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                    "The %s event in %s is not drawn: it is not a slice, instant, counter value or flow with a time.",
                                                    "None of the %s events in %s is drawn: none is a slice, instant, counter value or flow with a time.",
                                                    n_events),
                                       count, name);
    }
  adw_status_page_set_title (self->message_page, _("Nothing to Draw"));
  adw_status_page_set_description (self->message_page, description);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
  return TRUE;
}

static void
load_state_cb (SlTraceLoad    *load,
               GParamSpec     *pspec,
               SlTimelinePage *self)
{
  SlTraceLod *lod;

  if (!sl_trace_load_is_finished (load))
    {
      update_preview_bar (self);
      return;
    }
  g_signal_handlers_disconnect_by_data (load, self);
  sl_trace_load_bar_follow (self->progress_bar, NULL);
  self->n_busy--;

  if (sl_trace_load_get_state (load) == SL_TRACE_LOAD_CANCELLED && self->previewing)
    {
      /* Stopped with a preview shown: it stays, for what it shows. */
      update_preview_bar (self);
      gtk_widget_set_visible (GTK_WIDGET (self->preview_progress), FALSE);
      gtk_widget_set_visible (self->preview_cancel_button, FALSE);
      self->previewing = FALSE;
      update_status (self);
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
      return;
    }
  self->previewing = FALSE;
  gtk_widget_set_visible (self->preview_bar, FALSE);
  if (sl_trace_load_get_state (load) == SL_TRACE_LOAD_CANCELLED)
    {
      show_message (self, _("Reading Stopped"), _("The trace was not read to the end."));
      return;
    }
  if (sl_trace_load_get_state (load) == SL_TRACE_LOAD_FAILED)
    {
      show_message (self, _("Cannot Read the Trace"), sl_trace_load_get_error (load)->message);
      return;
    }

  lod = sl_trace_load_steal_lod (load);
  self->partial = FALSE;
  add_trace_problems (self, sl_trace_lod_get_trace (lod));
  self->load_us = sl_trace_load_get_read_us (load);
  self->index_us = sl_trace_load_get_index_us (load);
  show_trace (self, lod);
  build_index (self, range_index_thread);
  if ((gtk_widget_get_state_flags (GTK_WIDGET (self->search_entry)) & GTK_STATE_FLAG_FOCUS_WITHIN) != 0
      || gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    search_entered_cb (self);
  if (show_nothing_to_draw (self))
    return;
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  /* The view is shown once the page is ready */
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

static void
start_load (SlTimelinePage *self,
            SlTraceLoad    *load)
{
  self->load = load;
  self->n_busy++;
  sl_trace_load_bar_follow (self->progress_bar, load);
  g_signal_connect (load, "notify::state", G_CALLBACK (load_state_cb), self);
  g_signal_connect (load, "notify::preview", G_CALLBACK (load_preview_cb), self);
  g_signal_connect (load, "notify::progress", G_CALLBACK (load_progress_cb), self);
  sl_trace_load_start (load);
}

static void
cancel_clicked_cb (SlTimelinePage *self)
{
  sl_timeline_page_cancel (self);
}

void
sl_timeline_page_cancel (SlTimelinePage *self)
{
  g_return_if_fail (SL_IS_TIMELINE_PAGE (self));

  if (self->load != NULL)
    sl_trace_load_cancel (self->load);
}

/* Selection and details */

static void
slice_selected_cb (SlTimelinePage *self,
                   guint           track,
                   guint           slice)
{
  g_signal_emit (self, signals[SLICE_SELECTED], 0, track, slice);
  sl_document_details_changed (SL_DOCUMENT (self));
}

/**
 * sl_timeline_page_describe_selection:
 *
 * Returns: (transfer full) (element-type SlTimelineDetail) (nullable): the
 *   Details rows of the selected slice, args included
 */
GPtrArray *
sl_timeline_page_describe_selection (SlTimelinePage *self)
{
  guint track;
  guint32 slice;

  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  if (self->trace == NULL || !sl_timeline_view_get_selected (self->view, &track, &slice))
    return NULL;
  return sl_timeline_describe_slice (self->trace, track, slice, TRUE);
}

/* Range table */

static void
aggregate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SlTimelinePage) self = user_data;
  g_autofree char *span = NULL;
  g_autofree char *from = NULL;
  g_autofree char *label = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *names_text = NULL;
  guint64 total = 0;
  guint n_names;

  self->n_busy--;
  if (self->range_label == NULL
      || !sl_timeline_range_table_sum_finish (SL_TIMELINE_RANGE_TABLE (object), result, &total, NULL))
    return;

  n_names = g_list_model_get_n_items (sl_timeline_range_table_get_model (self->range_table));
  span = sl_timeline_format_duration (self->range_end - self->range_start);
  from = sl_timeline_format_time (self->range_start - sl_trace_get_start_ns (self->trace),
                                  MAX ((self->range_end - self->range_start) / 100, 1));
  total_text = sl_count_format (total);
  names_text = sl_count_format (n_names);
  /* Translators: "1.20 ms from 3.4 s: 1,234 slices, 12 names" */
  label = g_strdup_printf (_("%s from %s: %s slices, %s names"), span, from, total_text, names_text);
  gtk_label_set_label (self->range_label, label);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), n_names > 0);
  gtk_notebook_set_current_page (self->bottom_notebook, 0);
}

/* Tables need room: make the bottom pane a third of the page. */
static void
show_bottom_pane (SlTimelinePage *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->bottom_paned));

  if (!gtk_widget_get_visible (GTK_WIDGET (self->bottom_notebook)))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->bottom_notebook), TRUE);
      if (height > 0)
        gtk_paned_set_position (self->bottom_paned, height * 2 / 3);
    }
  else if (height > 0 && gtk_paned_get_position (self->bottom_paned) > height - 100)
    gtk_paned_set_position (self->bottom_paned, height * 2 / 3);
}

/* Nothing to show below: the tracks take the whole height. */
static void
hide_bottom_pane_if_empty (SlTimelinePage *self)
{
  if (g_list_model_get_n_items (sl_timeline_range_table_get_model (self->range_table)) == 0
      && g_list_model_get_n_items (sl_timeline_search_get_results (self->search)) == 0)
    gtk_widget_set_visible (GTK_WIDGET (self->bottom_notebook), FALSE);
}

static void
range_selected_cb (SlTimelinePage *self,
                   gint64          start_ns,
                   gint64          end_ns)
{
  g_cancellable_cancel (self->aggregate_cancellable);
  g_clear_object (&self->aggregate_cancellable);
  if (self->trace == NULL)
    return;
  if (start_ns == end_ns)
    {
      sl_timeline_range_table_clear (self->range_table);
      gtk_label_set_label (self->range_label, _("Alt+drag over the tracks to sum up a time range"));
      gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), FALSE);
      hide_bottom_pane_if_empty (self);
      return;
    }

  self->aggregate_cancellable = g_cancellable_new ();
  self->range_start = start_ns;
  self->range_end = end_ns;
  self->n_busy++;
  gtk_label_set_label (self->range_label, _("Summing up…"));
  show_bottom_pane (self);
  sl_timeline_range_table_sum_async (self->range_table, self->trace, start_ns, end_ns, self->aggregate_cancellable,
                                     aggregate_cb, g_object_ref (self));
}

/**
 * sl_timeline_page_get_aggregate_model:
 *
 * Returns: (transfer none): the range table's rows (SlTimelineItem) as sorted on screen
 */
GListModel *
sl_timeline_page_get_aggregate_model (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return sl_timeline_range_table_get_model (self->range_table);
}

/* Export */

/**
 * sl_timeline_page_export:
 * @format: "json" (Chrome trace of the selected range, or of the part
 *   shown, without hidden tracks), "csv" (its slices), or "png", "svg" or
 *   "pdf" (the view as drawn)
 * @n_items: (out) (optional): events or rows written, for json and csv
 *
 * Returns: %TRUE on success
 */
gboolean
sl_timeline_page_export (SlTimelinePage  *self,
                         const char      *format,
                         const char      *path,
                         guint64         *n_items,
                         GError         **error)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);

  if (self->trace == NULL || self->previewing)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The trace is still being read"));
      return FALSE;
    }
  return sl_timeline_export_write (self->view, format, path, n_items, error);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlTimelinePage *self = SL_TIMELINE_PAGE (widget);

  if (self->trace == NULL || self->previewing)
    return;
  sl_timeline_export_choose (widget, self->view, self->path, g_variant_get_string (param, NULL));
}

/**
 * sl_timeline_page_dup_aggregate_tsv:
 *
 * Returns: (transfer full): the range table as tab-separated values, with
 *   a header line and durations in nanoseconds
 */
char *
sl_timeline_page_dup_aggregate_tsv (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return sl_timeline_range_table_dup_tsv (self->range_table);
}

static void
copy_clicked_cb (SlTimelinePage *self)
{
  g_autofree char *tsv = sl_timeline_page_dup_aggregate_tsv (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), tsv);
}

/* Search */

static void
set_search_label (SlTimelinePage *self,
                  const char     *text)
{
  gtk_label_set_label (self->search_label, text);
  /* the label gives way in a narrow window: the whole of it on hover */
  sl_widget_set_long_tooltip (GTK_WIDGET (self->search_label), text[0] != '\0' ? text : NULL);
}

static void
update_search_label (SlTimelinePage *self)
{
  g_autofree char *text = sl_timeline_search_dup_label (self->search);

  set_search_label (self, text);
}

static void toast (SlTimelinePage *self,
                   const char     *message);

static void
go_to_match (SlTimelinePage *self,
             guint           index)
{
  guint track;
  guint32 slice;

  sl_timeline_search_get_match (self->search, index, &track, &slice, NULL);
  sl_timeline_search_set_current (self->search, index);
  sl_timeline_view_reveal (self->view, track, slice);
  if (index < g_list_model_get_n_items (sl_timeline_search_get_results (self->search)))
    gtk_selection_model_select_item (gtk_list_view_get_model (self->results_list), index, TRUE);
  update_search_label (self);
}

/* A link lands on what it names: the first match (in its range, when it
 * gave one) is zoomed to, selected and scrolled to, and the label counts
 * through the rest ("1 of 3"). A link naming nothing here says so. */
static void
land_on_first_match (SlTimelinePage *self)
{
  guint index;

  self->land = FALSE;
  if (sl_timeline_search_find_first (self->search, self->land_start, self->land_end, &index))
    {
      go_to_match (self, index);
      return;
    }

  if (sl_timeline_search_get_n_matches (self->search) > 0)
    {
      /* Translators: a link's matches all lie outside the range it shows */
      toast (self, _("None of the matches lies in the range shown; step through them with the arrows"));
      return;
    }
  {
    /* Translators: a link named something the trace does not have */
    g_autofree char *message = g_strdup_printf (_("Nothing on this timeline is named “%s”"), self->search_text);

    toast (self, message);
  }
}

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SlTimelinePage) self = user_data;
  g_autoptr(GError) error = NULL;
  guint8 *hits;

  self->n_busy--;
  /* Closed meanwhile: nothing to show the matches in. */
  if (self->search_entry == NULL)
    return;
  hits = sl_timeline_search_run_finish (SL_TIMELINE_SEARCH (object), result, &error);
  if (hits == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && error != NULL)
        {
          self->land = FALSE;
          gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), error->message);
          /* not "Indexing names…" any more */
          update_search_label (self);
        }
      return;
    }

  sl_timeline_renderer_set_highlight (sl_timeline_view_get_renderer (self->view), hits);
  gtk_widget_queue_draw (GTK_WIDGET (self->view));
  update_search_label (self);
  if (sl_timeline_search_get_n_matches (self->search) > 0)
    {
      gtk_notebook_set_current_page (self->bottom_notebook, 1);
      show_bottom_pane (self);
    }
  if (self->land)
    land_on_first_match (self);
}

/* @names (taken, nullable) instead of @text: a link's exact names, with
 * @text what the entry shows. */
static void
start_search (SlTimelinePage *self,
              const char     *text,
              gboolean        regex,
              SlOpNames      *names)
{
  g_autoptr(SlOpNames) owned_names = names;

  self->land = FALSE;
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_free (self->search_text);
  self->search_text = g_strdup (text ? text : "");
  self->search_regex = regex;
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry),
                               /* Translators: the search entry's tooltip after a link filled it */
                               owned_names != NULL ? _("The names a link showed, matched exactly; typing searches for text again")
                                                   : NULL);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text ? text : "") != 0)
    {
      g_signal_handlers_block_matched (self->search_entry, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
      g_signal_handlers_unblock_matched (self->search_entry, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
    }
  if (gtk_toggle_button_get_active (self->regex_toggle) != regex)
    {
      g_signal_handlers_block_matched (self->regex_toggle, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
      gtk_toggle_button_set_active (self->regex_toggle, regex);
      g_signal_handlers_unblock_matched (self->regex_toggle, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
    }

  if (self->trace == NULL || text == NULL || text[0] == '\0')
    {
      sl_timeline_search_clear (self->search);
      sl_timeline_renderer_set_highlight (sl_timeline_view_get_renderer (self->view), NULL);
      gtk_widget_queue_draw (GTK_WIDGET (self->view));
      update_search_label (self);
      hide_bottom_pane_if_empty (self);
      return;
    }

  /* The first search of a trace whose search bar was not entered before
   * waits for the name index (seconds at tens of millions of slices):
   * say so until the matches replace it. Asked before the worker starts,
   * which may build the index before this thread looks again. */
  if (sl_trace_search_peek (self->trace) == NULL)
    set_search_label (self, _("Indexing names…"));
  self->search_cancellable = g_cancellable_new ();
  self->n_busy++;
  sl_timeline_search_run_async (self->search, self->trace, text, regex, g_steal_pointer (&owned_names),
                                self->search_cancellable, search_cb, g_object_ref (self));
}

/**
 * sl_timeline_page_search:
 * @text: a substring (any case) or, with @regex, a regular expression
 *
 * Finds the slices whose name matches, in a worker.
 */
void
sl_timeline_page_search (SlTimelinePage *self,
                         const char     *text,
                         gboolean        regex)
{
  g_return_if_fail (SL_IS_TIMELINE_PAGE (self));

  start_search (self, text, regex, NULL);
}

static void
search_changed_cb (SlTimelinePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  gboolean regex = gtk_toggle_button_get_active (self->regex_toggle);

  /* The entry reports a change a moment after the text was set, also when
   * sl_timeline_page_search() set it: search only for something new. */
  if (g_strcmp0 (text, self->search_text) == 0 && regex == self->search_regex)
    return;
  sl_timeline_page_search (self, text, regex);
}

guint
sl_timeline_page_get_n_matches (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), 0);

  return sl_timeline_search_get_n_matches (self->search);
}

/* The match after (or before) the current one, or after the view's left
 * edge when there is none yet. */
gboolean
sl_timeline_page_next_match (SlTimelinePage *self,
                             gboolean        backwards)
{
  gint64 start;
  guint index, track;
  guint32 slice;

  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), FALSE);

  if (sl_timeline_search_get_n_matches (self->search) == 0)
    return FALSE;

  sl_timeline_view_get_window (self->view, &start, NULL);
  index = sl_timeline_search_step (self->search, backwards, start);
  sl_timeline_search_get_match (self->search, index, &track, &slice, NULL);
  sl_timeline_view_reveal (self->view, track, slice);
  if (index < g_list_model_get_n_items (sl_timeline_search_get_results (self->search)))
    gtk_selection_model_select_item (gtk_list_view_get_model (self->results_list), index, TRUE);
  update_search_label (self);
  return TRUE;
}

static void
search_next_cb (SlTimelinePage *self)
{
  sl_timeline_page_next_match (self, FALSE);
}

static void
search_previous_cb (SlTimelinePage *self)
{
  sl_timeline_page_next_match (self, TRUE);
}

static void
result_activated_cb (SlTimelinePage *self,
                     guint           position)
{
  g_autoptr(SlTimelineItem) item = g_list_model_get_item (sl_timeline_search_get_results (self->search), position);

  if (item == NULL)
    return;
  sl_timeline_search_set_current (self->search, position);
  sl_timeline_view_reveal (self->view, sl_timeline_item_get_data (item)->track, sl_timeline_item_get_data (item)->slice);
  update_search_label (self);
}

static void
setup_lists (SlTimelinePage *self)
{
  self->tracks = sl_timeline_tracks_new (self->view);
  sl_timeline_tracks_attach (self->tracks, self->tracks_list);

  /* Result rows are a template in sl-timeline-page.ui bound to the item. */
  self->search = sl_timeline_search_new ();
  gtk_list_view_set_model (self->results_list,
                           GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (sl_timeline_search_get_results (self->search)))));

  self->range_table = sl_timeline_range_table_new ();
  sl_timeline_range_table_attach (self->range_table, self->aggregate_view);
}

/**
 * sl_timeline_page_get_tracks_model:
 *
 * Returns: (transfer none): the track tree (GtkTreeListRow of SlTimelineItem)
 */
GListModel *
sl_timeline_page_get_tracks_model (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return sl_timeline_tracks_get_model (self->tracks);
}

/* A process folded on the canvas folds in the track list too. */
static void
process_toggled_cb (SlTimelinePage *self,
                    guint           process)
{
  sl_timeline_tracks_sync_process (self->tracks, process);
}

static void
fit_clicked_cb (SlTimelinePage *self)
{
  sl_timeline_view_fit (self->view);
}

static void
undo_zoom_clicked_cb (SlTimelinePage *self)
{
  sl_timeline_view_undo_zoom (self->view);
}

/* Accessors */

const char *
sl_timeline_page_get_path (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return self->path;
}

SlTimelineView *
sl_timeline_page_get_view (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), NULL);

  return self->view;
}

/* Whether a worker (reading, search, range table) is still running */
gboolean
sl_timeline_page_is_busy (SlTimelinePage *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PAGE (self), FALSE);

  return self->n_busy > 0;
}

static gboolean
fit_track_list_cb (gpointer user_data)
{
  SlTimelinePage *self = user_data;

  /* In a narrow document the tracks need the room more than the list. */
  if (gtk_widget_get_width (GTK_WIDGET (self)) < 900)
    gtk_toggle_button_set_active (self->tracks_toggle, FALSE);
  return G_SOURCE_REMOVE;
}

static void
sl_timeline_page_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  SlTimelinePage *self = SL_TIMELINE_PAGE (widget);

  GTK_WIDGET_CLASS (sl_timeline_page_parent_class)->size_allocate (widget, width, height, baseline);
  /* While the trace loads, the view's images are made for a view as big
   * as the page, so that its first frame does not wait for them. */
  if (sl_document_get_state (SL_DOCUMENT (self)) == SL_DOCUMENT_LOADING)
    sl_timeline_view_reserve_images (self->view, width, height);
  if (!self->sized && width > 0)
    {
      self->sized = TRUE;
      g_idle_add_full (G_PRIORITY_DEFAULT, fit_track_list_cb, g_object_ref (self), g_object_unref);
    }
}

static void
sl_timeline_page_dispose (GObject *object)
{
  SlTimelinePage *self = (SlTimelinePage *)object;

  /* Closed while reading: nothing left to show it in. */
  if (self->load != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->load, self);
      sl_trace_load_cancel (self->load);
      g_clear_object (&self->load);
    }
  g_cancellable_cancel (self->search_cancellable);
  g_cancellable_cancel (self->aggregate_cancellable);
  g_cancellable_cancel (self->index_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_PAGE);

  G_OBJECT_CLASS (sl_timeline_page_parent_class)->dispose (object);
}

static void
sl_timeline_page_finalize (GObject *object)
{
  SlTimelinePage *self = (SlTimelinePage *)object;

  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->aggregate_cancellable);
  g_clear_object (&self->index_cancellable);
  g_clear_object (&self->trace);
  g_clear_object (&self->tracks);
  g_clear_object (&self->range_table);
  g_clear_object (&self->search);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->search_text, g_free);

  G_OBJECT_CLASS (sl_timeline_page_parent_class)->finalize (object);
}

static void sl_timeline_page_load (SlDocument *document);

/* Links from other documents: "(sxxx)", text to find (or ""), then a
 * range to zoom to in the trace's own time (-1 for none) and where the
 * first step of a step trace starts (-1 if unknown): a range outside the
 * trace is then placed from the trace's start. "(sxxxb)" says whether the
 * text is a regular expression (an API's calls, by exact name). "a{sv}"
 * names ops exactly: "names" (as), and "start", "end", "origin" (x) as
 * above. Whatever is found, the first match (in the range, if one was
 * given) is selected and framed. */
static void
toast (SlTimelinePage *self,
       const char     *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
}

static void
sl_timeline_page_handle_request (SlDocument *document,
                                 GVariant   *request)
{
  SlTimelinePage *self = SL_TIMELINE_PAGE (document);
  const char *search = "";
  g_autofree const char **names = NULL;
  gint64 start = -1, end = -1, origin = -1, trace_start, trace_end;
  gboolean regex = FALSE;

  if (self->trace == NULL)
    return;
  if (g_variant_is_of_type (request, G_VARIANT_TYPE ("(sxxx)")))
    g_variant_get (request, "(&sxxx)", &search, &start, &end, &origin);
  else if (g_variant_is_of_type (request, G_VARIANT_TYPE ("(sxxxb)")))
    g_variant_get (request, "(&sxxxb)", &search, &start, &end, &origin, &regex);
  else if (g_variant_is_of_type (request, G_VARIANT_TYPE_VARDICT))
    {
      g_variant_lookup (request, "names", "^a&s", &names);
      g_variant_lookup (request, "start", "x", &start);
      g_variant_lookup (request, "end", "x", &end);
      g_variant_lookup (request, "origin", "x", &origin);
    }
  else
    return;

  trace_start = sl_trace_get_start_ns (self->trace);
  trace_end = sl_trace_get_end_ns (self->trace);

  /* Step traces and timelines are written by different parts of the
   * profiler, often against different origins: line the first step up
   * with the timeline's start, and say so. */
  if (start >= 0 && end > start && (end < trace_start || start > trace_end) && origin >= 0)
    {
      start = start - origin + trace_start;
      end = end - origin + trace_start;
      toast (self, _("The step trace and the timeline use different clocks: steps are placed from the timeline's start"));
    }

  if (names != NULL && names[0] != NULL)
    {
      /* The entry shows the names (the first few of many); the search
       * matches them all exactly. */
      guint n = g_strv_length ((char **)names);
      g_autofree char *first = NULL;
      g_autofree char *shown = NULL;

      if (n <= MAX_SHOWN_NAMES)
        shown = g_strjoinv (" | ", (char **)names);
      else
        {
          const char *few[MAX_SHOWN_NAMES + 1] = { NULL };
          g_autofree char *count = sl_count_format (n);

          memcpy (few, names, MAX_SHOWN_NAMES * sizeof (char *));
          first = g_strjoinv (" | ", (char **)few);
          /* Translators: the first names a link showed, and how many it named in all */
          shown = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s | … (%s name)", "%s | … (%s names)", n), first, count);
        }

      start_search (self, shown, FALSE, sl_op_names_new (names));
    }
  else if (search[0] != '\0')
    start_search (self, search, regex, NULL);
  if ((names != NULL && names[0] != NULL) || search[0] != '\0')
    {
      self->land = TRUE;
      self->land_start = start >= 0 && end > start ? start : -1;
      self->land_end = start >= 0 && end > start ? end : -1;
    }

  if (start < 0 || end <= start)
    return;

  if (end < trace_start || start > trace_end)
    toast (self, _("That step lies outside the timeline's time span"));
  else
    sl_timeline_view_set_window (self->view, start, end);
}

/* A parent, child or flow end in Details: show it in its timeline. */
static void
timeline_link_cb (GObject *object,
                  guint64  target)
{
  SlTimelinePage *page = SL_TIMELINE_PAGE (object);

  /* The target is the track in the high half, the slice in the low. */
  panel_widget_raise (PANEL_WIDGET (page));
  sl_timeline_view_reveal (page->view, (guint) (target >> 32), (guint32) target);
}

/* The link's target is the slice whose name is the op's. */
static void
graph_link_cb (GObject *object,
               guint64  target)
{
  SlTimelinePage *page = SL_TIMELINE_PAGE (object);
  g_autoptr(GPtrArray) details = sl_timeline_page_describe_selection (page);

  if (details != NULL && details->len > 0)
    sl_document_show_op (SL_DOCUMENT (page), ((SlTimelineDetail *) g_ptr_array_index (details, 0))->value);
}

/* MindSpore names an op slice "scope/OpType-op<N>": such a slice can be
 * shown in the graph of the same job. */
static void
add_graph_link (SlTimelinePage *self,
                SlDescription  *details_panel,
                const char     *slice_name)
{
  if (slice_name == NULL || strstr (slice_name, "-op") == NULL || !sl_document_can_show_op (SL_DOCUMENT (self)))
    return;
  /* Translators: a Details row linking an op slice to the graph */
  sl_description_add_object_link (details_panel, _("Graph"), _("Show this op in the graph"), G_OBJECT (self),
                                    graph_link_cb, 0);
}

static gboolean
sl_timeline_page_show_details (SlDocument     *document,
                               SlDescription  *details_panel)
{
  SlTimelinePage *self = SL_TIMELINE_PAGE (document);
  g_autoptr(GPtrArray) details = sl_timeline_page_describe_selection (self);
  static const char * const no_rows[] = { NULL };

  if (details == NULL || details->len == 0)
    return FALSE;

  sl_description_show_rows (details_panel, NULL, "sl-timeline-symbolic",
                              ((SlTimelineDetail *)g_ptr_array_index (details, 0))->value, no_rows);
  for (guint i = 0; i < details->len; i++)
    {
      SlTimelineDetail *d = g_ptr_array_index (details, i);
      const char *row[] = { d->label, d->value, NULL };

      if (d->target.track == G_MAXUINT)
        {
          sl_description_add_rows (details_panel, row);
          continue;
        }
      sl_description_add_object_link (details_panel, d->label, d->value, G_OBJECT (self), timeline_link_cb,
                                        ((guint64) d->target.track << 32) | d->target.slice);
    }
  add_graph_link (self, details_panel, ((SlTimelineDetail *) g_ptr_array_index (details, 0))->value);

  return TRUE;
}

/* The stack shows the document's state: nothing reads it back */
static char *
state_child_name (gpointer        instance,
                  SlDocumentState state)
{
  switch (state)
    {
    case SL_DOCUMENT_LOADING:
      return g_strdup ("loading");
    case SL_DOCUMENT_EMPTY:
      return g_strdup ("message");
    case SL_DOCUMENT_FAILED:
      return g_strdup ("message");
    case SL_DOCUMENT_READY:
    default:
      return g_strdup ("timeline");
    }
}

static void
sl_timeline_page_class_init (SlTimelinePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  document_class->load = sl_timeline_page_load;
  document_class->handle_request = sl_timeline_page_handle_request;
  document_class->describe = sl_timeline_page_show_details;

  object_class->dispose = sl_timeline_page_dispose;
  object_class->finalize = sl_timeline_page_finalize;
  widget_class->size_allocate = sl_timeline_page_size_allocate;

  /**
   * SlTimelinePage::slice-selected:
   * @track: the track, G_MAXUINT when nothing is selected
   * @slice: the slice in the track
   */
  signals[SLICE_SELECTED] = g_signal_new ("slice-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  g_type_ensure (SL_TYPE_TIMELINE_VIEW);
  g_type_ensure (SL_TYPE_TIMELINE_ITEM);
  g_type_ensure (SL_TYPE_TIMELINE_PALETTE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-timeline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, stack);
  gtk_widget_class_bind_template_callback (widget_class, state_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, message_page);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, regex_toggle);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, tracks_toggle);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, search_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, tracks_list);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, bottom_notebook);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, bottom_paned);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, range_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, copy_button);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, aggregate_view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, results_list);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, visible_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, preview_bar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, preview_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, preview_progress);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePage, preview_cancel_button);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_install_action (widget_class, "timeline.export", "s", export_action);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_entered_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, fit_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, undo_zoom_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, slice_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, range_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_status);
  gtk_widget_class_bind_template_callback (widget_class, process_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, result_activated_cb);
}

static void
sl_timeline_page_init (SlTimelinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_scrollbar_set_adjustment (self->scrollbar, sl_timeline_view_get_vadjustment (self->view));
  setup_lists (self);
}

static SlTimelinePage *
create (const char *path,
        const char *title)
{
  return g_object_new (SL_TYPE_TIMELINE_PAGE, "path", path, "title", title, NULL);
}

static void
sl_timeline_page_load (SlDocument *document)
{
  SlTimelinePage *self = SL_TIMELINE_PAGE (document);

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;

  self->path = g_strdup (sl_document_get_path (document));
  start_load (self, sl_trace_load_new (self->path));
}

/**
 * sl_timeline_page_new:
 * @path: a Chrome trace file (plain or gzip) or a profiler folder
 *
 * Reads the trace in a worker, showing progress and a Cancel button.
 */
GtkWidget *
sl_timeline_page_new (const char *path,
                      const char *title)
{
  SlTimelinePage *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = create (path, title);
  sl_document_load (SL_DOCUMENT (self));
  return GTK_WIDGET (self);
}

/**
 * sl_timeline_page_new_for_trace:
 *
 * Shows a trace already read; only the drawing index is built (in a worker).
 */
GtkWidget *
sl_timeline_page_new_for_trace (SlTrace    *trace,
                                const char *title)
{
  SlTimelinePage *self;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  self = create (sl_trace_get_source_path (trace), title);
  self->path = g_strdup (sl_trace_get_source_path (trace));
  start_load (self, sl_trace_load_new_for_trace (trace));
  return GTK_WIDGET (self);
}

/**
 * sl_timeline_page_new_for_load:
 * @load: a load not started yet
 *
 * Shows what @load reads, previews included; the page starts it.
 */
GtkWidget *
sl_timeline_page_new_for_load (SlTraceLoad *load,
                               const char  *title)
{
  SlTimelinePage *self;

  g_return_val_if_fail (SL_IS_TRACE_LOAD (load), NULL);
  g_return_val_if_fail (sl_trace_load_get_state (load) == SL_TRACE_LOAD_WAITING, NULL);

  self = create (sl_trace_load_get_path (load), title);
  self->path = g_strdup (sl_trace_load_get_path (load));
  start_load (self, g_object_ref (load));
  return GTK_WIDGET (self);
}
