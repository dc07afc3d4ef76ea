/* sl-timeline-range-table.h: the slices of a time range summed up by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-trace.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_RANGE_TABLE (sl_timeline_range_table_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineRangeTable, sl_timeline_range_table, SL, TIMELINE_RANGE_TABLE, GObject)

SlTimelineRangeTable *sl_timeline_range_table_new        (void);
void                  sl_timeline_range_table_attach     (SlTimelineRangeTable  *self,
                                                          GtkColumnView         *view);
void                  sl_timeline_range_table_sum_async  (SlTimelineRangeTable  *self,
                                                          SlTrace               *trace,
                                                          gint64                 start_ns,
                                                          gint64                 end_ns,
                                                          GCancellable          *cancellable,
                                                          GAsyncReadyCallback    callback,
                                                          gpointer               user_data);
gboolean              sl_timeline_range_table_sum_finish (SlTimelineRangeTable  *self,
                                                          GAsyncResult          *result,
                                                          guint64               *n_slices,
                                                          GError               **error);
void                  sl_timeline_range_table_clear      (SlTimelineRangeTable  *self);
GListModel           *sl_timeline_range_table_get_model  (SlTimelineRangeTable  *self);
char                 *sl_timeline_range_table_dup_tsv    (SlTimelineRangeTable  *self);

G_END_DECLS
