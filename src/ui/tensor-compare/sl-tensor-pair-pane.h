/* sl-tensor-pair-pane.h: the detail of the selected tensor pair: both
 * distributions overlaid, the absolute error through a slice and the
 * largest differences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-tensor-compare-row.h"
#include "sl-tensor-pair-detail.h"

G_BEGIN_DECLS

#define SL_TYPE_TENSOR_PAIR_PANE (sl_tensor_pair_pane_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorPairPane, sl_tensor_pair_pane, SL, TENSOR_PAIR_PANE, GtkBox)

/* Reads @row's tensors in a worker; a previous row's work is cancelled.
 * NULL empties the pane. */
void                      sl_tensor_pair_pane_set_row         (SlTensorPairPane   *self,
                                                               SlTensorCompareRow *row);
SlTensorCompareRow       *sl_tensor_pair_pane_get_row         (SlTensorPairPane   *self);
/* The error heatmap through @text, NumPy slicing of the NPU side's shape. */
void                      sl_tensor_pair_pane_set_slice       (SlTensorPairPane   *self,
                                                               const char         *text);
gboolean                  sl_tensor_pair_pane_is_busy         (SlTensorPairPane   *self);
/* (nullable): what is shown, once computed */
const SlTensorPairDetail *sl_tensor_pair_pane_get_detail      (SlTensorPairPane   *self);
SlTensorFrame            *sl_tensor_pair_pane_get_error_frame (SlTensorPairPane   *self);
GtkGrid                  *sl_tensor_pair_pane_get_stats_grid  (SlTensorPairPane   *self);
/* (nullable): why nothing is shown (no data, unreadable files) */
const char               *sl_tensor_pair_pane_get_message     (SlTensorPairPane   *self);

G_END_DECLS
