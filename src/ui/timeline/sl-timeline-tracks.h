/* sl-timeline-tracks.h: the track list of a timeline: its processes and
 * their tracks, shown, hidden, pinned and folded with the view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_TRACKS (sl_timeline_tracks_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineTracks, sl_timeline_tracks, SL, TIMELINE_TRACKS, GObject)

SlTimelineTracks *sl_timeline_tracks_new          (SlTimelineView   *view);
void              sl_timeline_tracks_attach       (SlTimelineTracks *self,
                                                   GtkListView      *list);
void              sl_timeline_tracks_fill         (SlTimelineTracks *self,
                                                   SlTrace          *trace);
void              sl_timeline_tracks_sync_process (SlTimelineTracks *self,
                                                   guint             process);
GListModel       *sl_timeline_tracks_get_model    (SlTimelineTracks *self);

G_END_DECLS
