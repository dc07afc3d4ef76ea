/* sl-comm-totals.h: communication ops summed up
 *
 * The totals row of a rank's communication ops: elapse, transit, wait,
 * synchronisation and idle time summed over the ops given, and per
 * transport the bytes and time with the bandwidth they make and the
 * packet sizes merged. Held as an SlCommOp, so whatever shows an op
 * shows the totals the same way. msprof's own aggregates ("Total Op
 * Info") are skipped: they are sums already.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-communication.h"

G_BEGIN_DECLS

typedef struct _SlCommTotals SlCommTotals;

SlCommTotals   *sl_comm_totals_new    (void);
void            sl_comm_totals_free   (SlCommTotals   *self);
void            sl_comm_totals_clear  (SlCommTotals   *self);
/* Returns FALSE for an aggregate record, which is not added. */
gboolean        sl_comm_totals_add_op (SlCommTotals   *self,
                                       const SlCommOp *op);
guint           sl_comm_totals_get_n_ops (SlCommTotals *self);
/* The sums; its step and group are "", its name "Total". */
const SlCommOp *sl_comm_totals_get_op (SlCommTotals   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCommTotals, sl_comm_totals_free)

G_END_DECLS
