/* sl-comm-matrix-view.h: an op's src × dst links, coloured by bandwidth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-comm-matrix.h"

G_BEGIN_DECLS

#define SL_TYPE_COMM_MATRIX_VIEW (sl_comm_matrix_view_get_type ())
G_DECLARE_FINAL_TYPE (SlCommMatrixView, sl_comm_matrix_view, SL, COMM_MATRIX_VIEW, GtkWidget)

GtkWidget    *sl_comm_matrix_view_new           (void);
/* @matrix: (transfer full) (nullable): its links point into @comm, which is kept */
void          sl_comm_matrix_view_set_matrix    (SlCommMatrixView *self,
                                                 SlCommunication  *comm,
                                                 SlCommMatrix     *matrix);
SlCommMatrix *sl_comm_matrix_view_get_matrix    (SlCommMatrixView *self);
/* Outlines the cell of the link @src → @dst (a slow link); -1 for none. */
void          sl_comm_matrix_view_set_highlight (SlCommMatrixView *self,
                                                 gint64            src,
                                                 gint64            dst);
/* Returns: (transfer full) (nullable): the tooltip of a cell */
char         *sl_comm_matrix_view_describe_cell (SlCommMatrixView *self,
                                                 guint             row,
                                                 guint             column);
/* Where the centre of a cell is drawn, for tests. */
gboolean      sl_comm_matrix_view_get_cell_center (SlCommMatrixView *self,
                                                   guint             row,
                                                   guint             column,
                                                   double           *x,
                                                   double           *y);

G_END_DECLS
