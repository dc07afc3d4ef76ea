/* sl-tensor-gather.h: a tensor stored in Fortran order read in C order
 *
 * A dump's storage order is the writer's choice, not the user's: a pair
 * with one side in each order is compared element by logical index. The
 * comparison walks C order; this copies a range of C-order positions of a
 * Fortran-order tensor into a buffer, raw elements as stored, transposing
 * in tiles so that both the reads and the writes stay in cache.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-tensor-compare.h"

G_BEGIN_DECLS

/* Elements at C-order positions @first .. @first + @n - 1 of @view (in
 * Fortran order), as stored (dtype and byte order kept), into @out, which
 * has room for @n elements. */
void sl_tensor_gather_c_order (const SlTensorData *view,
                               guint64             first,
                               gsize               n,
                               guint8             *out);

G_END_DECLS
