/* sl-op-type-bars.h: the op types that take the most time, as bars
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-time-format.h"

G_BEGIN_DECLS

#define SL_TYPE_OP_TYPE_BARS (sl_op_type_bars_get_type ())
G_DECLARE_FINAL_TYPE (SlOpTypeBars, sl_op_type_bars, SL, OP_TYPE_BARS, GtkWidget)

GtkWidget *sl_op_type_bars_new          (void);
void       sl_op_type_bars_set_types    (SlOpTypeBars *self,
                                         GListModel   *types);
void       sl_op_type_bars_set_time_unit (SlOpTypeBars *self,
                                          SlTimeUnit    unit);
guint      sl_op_type_bars_get_n_bars   (SlOpTypeBars *self);
char      *sl_op_type_bars_describe_at  (SlOpTypeBars *self,
                                         double        x,
                                         double        y);
void       sl_op_type_bars_draw         (SlOpTypeBars *self,
                                         cairo_t      *cr,
                                         int           width,
                                         int           height);

G_END_DECLS
