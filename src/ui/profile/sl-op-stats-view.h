/* sl-op-stats-view.h: op statistics as a sortable, filterable table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-op-table.h"

G_BEGIN_DECLS

#define SL_TYPE_OP_STATS_VIEW (sl_op_stats_view_get_type ())
G_DECLARE_FINAL_TYPE (SlOpStatsView, sl_op_stats_view, SL, OP_STATS_VIEW, GtkBox)

GtkWidget   *sl_op_stats_view_new             (void);
void         sl_op_stats_view_set_table       (SlOpStatsView *self,
                                               SlOpTable     *table);
void         sl_op_stats_view_set_by_instance (SlOpStatsView *self,
                                               gboolean       by_instance);
void         sl_op_stats_view_set_filter      (SlOpStatsView *self,
                                               const char    *text);
void         sl_op_stats_view_show_ops        (SlOpStatsView      *self,
                                               const char * const *names,
                                               const char         *label);
gboolean     sl_op_stats_view_select_op       (SlOpStatsView *self,
                                               const char    *name);
SlOpRow     *sl_op_stats_view_get_selected    (SlOpStatsView *self);
GListModel  *sl_op_stats_view_get_rows        (SlOpStatsView *self);
guint        sl_op_stats_view_get_n_columns   (SlOpStatsView *self);
const char  *sl_op_stats_view_get_column_title (SlOpStatsView *self,
                                                guint          index);
void         sl_op_stats_view_sort_by         (SlOpStatsView *self,
                                               const char    *column_id,
                                               gboolean       descending);
char        *sl_op_stats_view_dup_tooltip     (SlOpStatsView *self,
                                               SlOpRow       *row);
void         sl_op_stats_view_export_csv_async  (SlOpStatsView       *self,
                                                 GFile               *file,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean     sl_op_stats_view_export_csv_finish (SlOpStatsView       *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
