/* sl-timeline-page.h: the document of a trace: track tree, timeline,
 * search, range table and status line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-trace-load.h"

#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_PAGE (sl_timeline_page_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelinePage, sl_timeline_page, SL, TIMELINE_PAGE, SlDocument)

GtkWidget      *sl_timeline_page_new              (const char     *path,
                                                   const char     *title);
GtkWidget      *sl_timeline_page_new_for_trace    (SlTrace        *trace,
                                                   const char     *title);
GtkWidget      *sl_timeline_page_new_for_load     (SlTraceLoad    *load,
                                                   const char     *title);
const char     *sl_timeline_page_get_path         (SlTimelinePage *self);
SlTimelineView *sl_timeline_page_get_view         (SlTimelinePage *self);
void            sl_timeline_page_cancel           (SlTimelinePage *self);
void            sl_timeline_page_search           (SlTimelinePage *self,
                                                   const char     *text,
                                                   gboolean        regex);
gboolean        sl_timeline_page_is_busy          (SlTimelinePage *self);
guint           sl_timeline_page_get_n_matches    (SlTimelinePage *self);
gboolean        sl_timeline_page_next_match       (SlTimelinePage *self,
                                                   gboolean        backwards);
GListModel     *sl_timeline_page_get_aggregate_model (SlTimelinePage *self);
char           *sl_timeline_page_dup_aggregate_tsv (SlTimelinePage *self);
GPtrArray      *sl_timeline_page_describe_selection (SlTimelinePage *self);
GListModel     *sl_timeline_page_get_tracks_model (SlTimelinePage *self);
const char     *sl_timeline_page_get_status       (SlTimelinePage *self);
gboolean        sl_timeline_page_export           (SlTimelinePage *self,
                                                   const char     *format,
                                                   const char     *path,
                                                   guint64        *n_items,
                                                   GError        **error);

G_END_DECLS
