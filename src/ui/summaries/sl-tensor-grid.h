/* sl-tensor-grid.h: the cells of a tensor view as a table of numbers
 *
 * Only the visible cells are laid out, whatever the size of the view, so
 * a 1024 × 1024 slice scrolls as smoothly as a small one. Row and column
 * headers give the positions along the tensor's own axes and stay in
 * place while scrolling.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-tensor-frame.h"

G_BEGIN_DECLS

#define SL_TYPE_TENSOR_GRID (sl_tensor_grid_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorGrid, sl_tensor_grid, SL, TENSOR_GRID, GtkWidget)

GtkWidget *sl_tensor_grid_new                (void);
void       sl_tensor_grid_set_frame          (SlTensorGrid  *self,
                                              SlTensorFrame *frame);
void       sl_tensor_grid_set_precision      (SlTensorGrid  *self,
                                              guint          digits);
char      *sl_tensor_grid_describe_at        (SlTensorGrid  *self,
                                              double         x,
                                              double         y);
guint      sl_tensor_grid_get_n_drawn_cells  (SlTensorGrid  *self);
void       sl_tensor_grid_scroll_to          (SlTensorGrid  *self,
                                              gint64         row,
                                              gint64         col);

G_END_DECLS
