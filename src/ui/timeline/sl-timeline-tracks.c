/* sl-timeline-tracks.c
 *
 * The list beside the tracks: a tree of processes and their tracks, each
 * track with a box to show it and a pin to keep it on top; folding a
 * process folds it on the canvas, and the other way round.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-timeline-item.h"
#include "sl-timeline-tracks.h"
#include "sl-tooltip.h"

struct _SlTimelineTracks
{
  GObject           parent_instance;

  SlTimelineView   *view;
  SlTrace          *trace;
  GListStore       *processes;
  GtkTreeListModel *tree_model;
};

G_DEFINE_FINAL_TYPE (SlTimelineTracks, sl_timeline_tracks, G_TYPE_OBJECT)

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  const SlTimelineItemData *data = sl_timeline_item_get_data (item);

  if (data->kind != SL_TIMELINE_ITEM_PROCESS)
    return NULL;
  return G_LIST_MODEL (g_object_ref (sl_timeline_item_get_children (item)));
}

static void
visible_toggled_cb (GtkCheckButton   *check,
                    SlTimelineTracks *self)
{
  SlTimelineItem *item = g_object_get_data (G_OBJECT (check), "sl-item");

  if (item == NULL || self->trace == NULL)
    return;
  sl_timeline_renderer_set_track_hidden (sl_timeline_view_get_renderer (self->view),
                                         sl_timeline_item_get_data (item)->track,
                                         !gtk_check_button_get_active (check));
  sl_timeline_view_relayout (self->view);
}

static void
pin_toggled_cb (GtkToggleButton  *button,
                SlTimelineTracks *self)
{
  SlTimelineItem *item = g_object_get_data (G_OBJECT (button), "sl-item");

  if (item == NULL || self->trace == NULL)
    return;
  sl_timeline_renderer_set_track_pinned (sl_timeline_view_get_renderer (self->view),
                                         sl_timeline_item_get_data (item)->track,
                                         gtk_toggle_button_get_active (button));
  sl_timeline_view_relayout (self->view);
}

static void
expanded_cb (GtkTreeListRow   *row,
             GParamSpec       *pspec,
             SlTimelineTracks *self)
{
  SlTimelineItem *item = gtk_tree_list_row_get_item (row);

  if (item != NULL && self->trace != NULL)
    {
      sl_timeline_renderer_set_process_collapsed (sl_timeline_view_get_renderer (self->view),
                                                  sl_timeline_item_get_data (item)->process,
                                                  !gtk_tree_list_row_get_expanded (row));
      sl_timeline_view_relayout (self->view);
    }
  g_clear_object (&item);
}

/**
 * sl_timeline_tracks_sync_process:
 *
 * A process folded on the canvas folds in the track list too.
 */
void
sl_timeline_tracks_sync_process (SlTimelineTracks *self,
                                 guint             process)
{
  GListModel *model = G_LIST_MODEL (self->tree_model);
  gboolean collapsed = sl_timeline_renderer_get_process_collapsed (sl_timeline_view_get_renderer (self->view), process);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(SlTimelineItem) item = gtk_tree_list_row_get_item (row);
      const SlTimelineItemData *data = sl_timeline_item_get_data (item);

      if (data->kind == SL_TIMELINE_ITEM_PROCESS && data->process == process)
        {
          gtk_tree_list_row_set_expanded (row, !collapsed);
          break;
        }
    }
}

static void
setup_track_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                SlTimelineTracks         *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *pin = gtk_toggle_button_new ();

  gtk_widget_set_tooltip_text (check, _("Show this track"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_button_set_icon_name (GTK_BUTTON (pin), "view-pin-symbolic");
  gtk_widget_set_tooltip_text (pin, _("Pin to the top"));
  gtk_widget_add_css_class (pin, "flat");
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), pin);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
  gtk_list_item_set_activatable (list_item, FALSE);

  g_signal_connect (check, "toggled", G_CALLBACK (visible_toggled_cb), self);
  g_signal_connect (pin, "toggled", G_CALLBACK (pin_toggled_cb), self);
}

static void
bind_track_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               SlTimelineTracks         *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *check = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (check);
  GtkWidget *pin = gtk_widget_get_next_sibling (label);
  SlTimelineItem *item = gtk_tree_list_row_get_item (row);
  const SlTimelineItemData *data = sl_timeline_item_get_data (item);
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (self->view);
  gboolean is_track = data->kind == SL_TIMELINE_ITEM_TRACK;
  g_autofree char *tooltip = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  g_object_set_data (G_OBJECT (check), "sl-item", NULL);
  g_object_set_data (G_OBJECT (pin), "sl-item", NULL);
  gtk_widget_set_visible (check, is_track);
  gtk_widget_set_visible (pin, is_track);
  gtk_label_set_label (GTK_LABEL (label), data->label);

  if (is_track)
    {
      const char *tid = sl_trace_get_track_tid (self->trace, data->track);

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !sl_timeline_renderer_get_track_hidden (renderer, data->track));
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (pin), sl_timeline_renderer_get_track_pinned (renderer, data->track));
      g_object_set_data (G_OBJECT (check), "sl-item", item);
      g_object_set_data (G_OBJECT (pin), "sl-item", item);
      /* Translators: tooltip of a track: its thread id */
      tooltip = tid && tid[0] ? g_strdup_printf (_("%s (thread %s)"), data->label, tid) : g_strdup (data->label);
    }
  else
    {
      gint64 sort_index = sl_trace_get_process_sort_index (self->trace, data->process);

      /* Translators: tooltip of a process: its name and sort index */
      tooltip = g_strdup_printf (_("%s, sort index %lld"), data->label, (long long)sort_index);
      g_signal_connect_object (row, "notify::expanded", G_CALLBACK (expanded_cb), self, 0);
    }
  sl_widget_set_long_tooltip (label, tooltip);
  g_object_unref (item);
}

static void
unbind_track_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 SlTimelineTracks         *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  if (row != NULL)
    g_signal_handlers_disconnect_by_func (row, expanded_cb, self);
}

/**
 * sl_timeline_tracks_fill:
 *
 * One row per process, its tracks under it.
 */
void
sl_timeline_tracks_fill (SlTimelineTracks *self,
                         SlTrace          *trace)
{
  guint n_tracks;
  guint n_processes;
  g_autofree SlTimelineItem **by_process = NULL;

  g_return_if_fail (SL_IS_TIMELINE_TRACKS (self));
  g_return_if_fail (SL_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  n_tracks = sl_trace_get_n_tracks (self->trace);
  n_processes = sl_trace_get_n_processes (self->trace);
  by_process = g_new0 (SlTimelineItem *, MAX (n_processes, 1));

  g_list_store_remove_all (self->processes);
  for (guint t = 0; t < n_tracks; t++)
    {
      guint p = sl_trace_get_track_process (self->trace, t);
      SlTimelineItemData data = { SL_TIMELINE_ITEM_TRACK, p, t, 0, { 0 }, sl_trace_get_track_name (self->trace, t) };
      g_autoptr(SlTimelineItem) item = NULL;

      if (by_process[p] == NULL)
        {
          const char *name = sl_trace_get_process_name (self->trace, p);
          g_autofree char *label = NULL;
          SlTimelineItemData pdata = { SL_TIMELINE_ITEM_PROCESS, p, t, 0, { 0 }, NULL };

          if (name != NULL && name[0] != '\0')
            label = g_strdup_printf ("%s (%s)", name, sl_trace_get_process_pid (self->trace, p));
          else
            label = g_strdup_printf (_("Process %s"), sl_trace_get_process_pid (self->trace, p));
          pdata.label = label;
          by_process[p] = sl_timeline_item_new (&pdata);
          g_list_store_append (self->processes, by_process[p]);
          g_object_unref (by_process[p]);
        }

      item = sl_timeline_item_new (&data);
      g_list_store_append (sl_timeline_item_get_children (by_process[p]), item);
    }
}

/**
 * sl_timeline_tracks_attach:
 *
 * Shows the tree in @list, one row per process or track.
 */
void
sl_timeline_tracks_attach (SlTimelineTracks *self,
                           GtkListView      *list)
{
  GtkListItemFactory *factory;

  g_return_if_fail (SL_IS_TIMELINE_TRACKS (self));
  g_return_if_fail (GTK_IS_LIST_VIEW (list));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_track_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_track_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_track_cb), self);
  gtk_list_view_set_factory (list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (list,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->tree_model)))));
}

/**
 * sl_timeline_tracks_get_model:
 *
 * Returns: (transfer none): the track tree (GtkTreeListRow of SlTimelineItem)
 */
GListModel *
sl_timeline_tracks_get_model (SlTimelineTracks *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_TRACKS (self), NULL);

  return G_LIST_MODEL (self->tree_model);
}

static void
sl_timeline_tracks_finalize (GObject *object)
{
  SlTimelineTracks *self = SL_TIMELINE_TRACKS (object);

  g_clear_object (&self->view);
  g_clear_object (&self->trace);
  g_clear_object (&self->processes);
  g_clear_object (&self->tree_model);

  G_OBJECT_CLASS (sl_timeline_tracks_parent_class)->finalize (object);
}

static void
sl_timeline_tracks_class_init (SlTimelineTracksClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_timeline_tracks_finalize;
}

static void
sl_timeline_tracks_init (SlTimelineTracks *self)
{
  self->processes = g_list_store_new (SL_TYPE_TIMELINE_ITEM);
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->processes)), FALSE, TRUE,
                                              create_children_cb, NULL, NULL);
}

/**
 * sl_timeline_tracks_new:
 * @view: the view whose tracks the list shows, hides, pins and folds
 */
SlTimelineTracks *
sl_timeline_tracks_new (SlTimelineView *view)
{
  SlTimelineTracks *self;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (view), NULL);

  self = g_object_new (SL_TYPE_TIMELINE_TRACKS, NULL);
  self->view = g_object_ref (view);
  return self;
}
