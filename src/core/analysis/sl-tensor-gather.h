/* sl-tensor-gather.h: a tensor stored in Fortran order read in C order
 *
 * A dump's storage order is the writer's choice, not the user's: a pair
 * with one side in each order is compared element by logical index. The
 * comparison sums blocks of C-order positions; this copies a range of
 * C-order positions of a Fortran-order tensor into a buffer, raw elements
 * as stored, transposing in tiles so that both the reads and the writes
 * stay in cache; or, where the rows are whole blocks, a tile of rows by
 * columns whose blocks the comparison sums at once.
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

/* Whether @view (in Fortran order) has, axes of one aside, at least two
 * axes: then its C-order positions are rows of @columns (the last axis)
 * and the rows whose first-axis indices follow each other, the others
 * kept, follow each other in storage; @first_axis is that axis's length. */
gboolean sl_tensor_gather_get_rows (const SlTensorData *view,
                                    guint64            *first_axis,
                                    guint64            *columns);

/* Where C-order row @row of @view (in Fortran order) starts in storage,
 * in elements. */
guint64 sl_tensor_gather_row_offset (const SlTensorData *view,
                                     guint64             row);

/* The tile of @n_rows rows following each other in storage from
 * @offset (see sl_tensor_gather_get_rows) and their first @n_columns
 * columns into @out, row after row @out_stride elements apart, raw
 * elements as stored. */
void sl_tensor_gather_tile (const SlTensorData *view,
                            guint64             offset,
                            guint               n_rows,
                            gsize               n_columns,
                            gsize               out_stride,
                            guint8             *out);

G_END_DECLS
