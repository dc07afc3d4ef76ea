/* sl-comm-view.h: a rank's communication ops, their link bandwidths,
 * transfer sizes and the src × dst matrix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-comm-matrix-view.h"
#include "sl-comm-packet-chart.h"
#include "sl-communication.h"

G_BEGIN_DECLS

#define SL_TYPE_COMM_VIEW (sl_comm_view_get_type ())
G_DECLARE_FINAL_TYPE (SlCommView, sl_comm_view, SL, COMM_VIEW, GtkBox)

GtkWidget         *sl_comm_view_new               (void);
/* @comm: (nullable): the rank's data; @dir is where its files were looked for */
void               sl_comm_view_set_communication (SlCommView      *self,
                                                   SlCommunication *comm,
                                                   gint64           rank_id,
                                                   const char      *dir);
void               sl_comm_view_set_filter        (SlCommView      *self,
                                                   const char      *text);
/* The rows as shown (SlCommRow): the ops filtered and sorted, then the totals row. */
GListModel        *sl_comm_view_get_rows          (SlCommView      *self);
guint              sl_comm_view_get_n_columns     (SlCommView      *self);
const char        *sl_comm_view_get_column_title  (SlCommView      *self,
                                                   guint            index);
/* Returns: (transfer full): the cell of @column_index as shown */
char              *sl_comm_view_dup_cell_text     (SlCommView      *self,
                                                   guint            position,
                                                   guint            column_index);
void               sl_comm_view_sort_by           (SlCommView      *self,
                                                   const char      *column_id,
                                                   gboolean         descending);
void               sl_comm_view_select            (SlCommView      *self,
                                                   guint            position);
/* "table" or "empty" */
gboolean           sl_comm_view_get_empty         (SlCommView      *self);
const char        *sl_comm_view_get_empty_text    (SlCommView      *self);
SlCommPacketChart *sl_comm_view_get_packet_chart  (SlCommView      *self);
SlCommMatrixView  *sl_comm_view_get_matrix_view   (SlCommView      *self);
/* The link-type table below the ops, "HCCS 28.6 MB 1.82 ms 15.8 GB/s" a line. */
char              *sl_comm_view_dup_bandwidth_text (SlCommView     *self);

G_END_DECLS
