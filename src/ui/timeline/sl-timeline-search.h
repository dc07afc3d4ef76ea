/* sl-timeline-search.h: the slices of a trace whose names match, found
 * on a worker, and the one the user is at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-op-names.h"
#include "sl-trace.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_SEARCH (sl_timeline_search_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineSearch, sl_timeline_search, SL, TIMELINE_SEARCH, GObject)

SlTimelineSearch *sl_timeline_search_new         (void);
void              sl_timeline_search_run_async   (SlTimelineSearch     *self,
                                                  SlTrace              *trace,
                                                  const char           *text,
                                                  gboolean              regex,
                                                  SlOpNames            *names,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
guint8           *sl_timeline_search_run_finish  (SlTimelineSearch     *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
void              sl_timeline_search_clear       (SlTimelineSearch     *self);
gboolean          sl_timeline_search_has_run     (SlTimelineSearch     *self);
guint             sl_timeline_search_get_n_matches (SlTimelineSearch   *self);
guint64           sl_timeline_search_get_n_total (SlTimelineSearch     *self);
void              sl_timeline_search_set_max_matches (SlTimelineSearch *self,
                                                  guint                 max_matches);
void              sl_timeline_search_get_match   (SlTimelineSearch     *self,
                                                  guint                 index,
                                                  guint                *track,
                                                  guint32              *slice,
                                                  gint64               *start_ns);
gboolean          sl_timeline_search_get_current (SlTimelineSearch     *self,
                                                  guint                *index);
void              sl_timeline_search_set_current (SlTimelineSearch     *self,
                                                  guint                 index);
guint             sl_timeline_search_step        (SlTimelineSearch     *self,
                                                  gboolean              backwards,
                                                  gint64                from_ns);
gboolean          sl_timeline_search_find_first  (SlTimelineSearch     *self,
                                                  gint64                start_ns,
                                                  gint64                end_ns,
                                                  guint                *index);
GListModel       *sl_timeline_search_get_results (SlTimelineSearch     *self);
char             *sl_timeline_search_dup_label   (SlTimelineSearch     *self);

G_END_DECLS
