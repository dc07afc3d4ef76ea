/* sl-comm-row.h: one communication op as a row of the Communication table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-communication.h"

G_BEGIN_DECLS

#define SL_TYPE_COMM_ROW (sl_comm_row_get_type ())
G_DECLARE_FINAL_TYPE (SlCommRow, sl_comm_row, SL, COMM_ROW, GObject)

/* @owner keeps @op alive; @owner_free drops it with the row. */
SlCommRow      *sl_comm_row_new      (const SlCommOp *op,
                                      gboolean        total,
                                      gpointer        owner,
                                      GDestroyNotify  owner_free);
const SlCommOp *sl_comm_row_get_op   (SlCommRow      *self);
/* The totals row of the ops shown. */
gboolean        sl_comm_row_is_total (SlCommRow      *self);
/* The bandwidth of @transport, NAN when the op has none. */
double          sl_comm_row_get_bandwidth (SlCommRow  *self,
                                           const char *transport);

G_END_DECLS
