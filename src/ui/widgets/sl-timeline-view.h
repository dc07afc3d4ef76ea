/* sl-timeline-view.h: the tracks of a trace, zoomed and panned like
 * chrome://tracing and Perfetto
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-renderer.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_VIEW (sl_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineView, sl_timeline_view, SL, TIMELINE_VIEW, GtkWidget)

GtkWidget          *sl_timeline_view_new            (void);
void                sl_timeline_view_set_lod        (SlTimelineView *self,
                                                     SlTraceLod     *lod);
SlTrace            *sl_timeline_view_get_trace      (SlTimelineView *self);
SlTimelineRenderer *sl_timeline_view_get_renderer   (SlTimelineView *self);
GtkAdjustment      *sl_timeline_view_get_vadjustment (SlTimelineView *self);
void                sl_timeline_view_get_window     (SlTimelineView *self,
                                                     gint64         *start_ns,
                                                     gint64         *end_ns);
void                sl_timeline_view_set_window     (SlTimelineView *self,
                                                     gint64          start_ns,
                                                     gint64          end_ns);
void                sl_timeline_view_follow_window  (SlTimelineView *self,
                                                     gint64          start_ns,
                                                     gint64          end_ns);
void                sl_timeline_view_get_viewport   (SlTimelineView     *self,
                                                     SlTimelineViewport *viewport);
void                sl_timeline_view_zoom_at        (SlTimelineView *self,
                                                     double          x,
                                                     double          factor);
void                sl_timeline_view_pan            (SlTimelineView *self,
                                                     double          dx);
void                sl_timeline_view_fit            (SlTimelineView *self);
void                sl_timeline_view_reserve_images (SlTimelineView *self,
                                                     int             width,
                                                     int             height);
gboolean            sl_timeline_view_undo_zoom      (SlTimelineView *self);
void                sl_timeline_view_select         (SlTimelineView *self,
                                                     guint           track,
                                                     guint32         slice);
void                sl_timeline_view_reveal         (SlTimelineView *self,
                                                     guint           track,
                                                     guint32         slice);
gboolean            sl_timeline_view_get_selected   (SlTimelineView *self,
                                                     guint          *track,
                                                     guint32        *slice);
void                sl_timeline_view_set_range      (SlTimelineView *self,
                                                     gint64          start_ns,
                                                     gint64          end_ns);
char               *sl_timeline_view_dup_tooltip_at (SlTimelineView *self,
                                                     double          x,
                                                     double          y);
char               *sl_timeline_view_dup_tooltip_markup (SlTimelineView *self,
                                                         guint           track,
                                                         guint32         slice);
void                sl_timeline_view_relayout       (SlTimelineView *self);

G_END_DECLS
