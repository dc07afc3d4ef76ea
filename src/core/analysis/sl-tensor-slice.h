/* sl-tensor-slice.h: NumPy-style slicing text resolved to a 2-D view
 *
 * "0, :, 2:8:2", "...", "-1", "::-1": an item per axis as in NumPy,
 * separated by commas. An integer picks one position and drops the axis; a
 * range keeps it. At most two axes may remain: the last one kept is the
 * column axis, the one before it the row axis. Errors carry the character
 * position they refer to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_TENSOR_SLICE_ERROR (sl_tensor_slice_error_quark ())
#define SL_TENSOR_MAX_DIMS 32

typedef enum {
  SL_TENSOR_SLICE_ERROR_SYNTAX,
  SL_TENSOR_SLICE_ERROR_RANGE,
  SL_TENSOR_SLICE_ERROR_SHAPE,
} SlTensorSliceError;

typedef struct {
  gint64   start;     /* first position, within the axis */
  gint64   step;      /* never 0; negative walks backwards */
  gint64   count;     /* positions selected, may be 0 */
  gboolean is_index;  /* a single integer: the axis is dropped */
} SlTensorAxisSlice;

typedef struct {
  guint             n_dims;
  gint64            dims[SL_TENSOR_MAX_DIMS];
  SlTensorAxisSlice axes[SL_TENSOR_MAX_DIMS];
  int               row_axis;    /* -1 when the view is 1-D or a scalar */
  int               col_axis;    /* -1 when the view is a scalar */
  gint64            n_rows;
  gint64            n_cols;
  gint64            base;        /* flat offset of view cell (0, 0) */
  gint64            row_stride;  /* flat offset per view row */
  gint64            col_stride;  /* flat offset per view column */
} SlTensorSlice;

GQuark         sl_tensor_slice_error_quark  (void);

SlTensorSlice *sl_tensor_slice_parse        (const char          *text,
                                             const gint64        *dims,
                                             guint                n_dims,
                                             gsize               *error_position,
                                             GError             **error);
SlTensorSlice *sl_tensor_slice_copy         (const SlTensorSlice *self);
void           sl_tensor_slice_free         (SlTensorSlice       *self);
char          *sl_tensor_slice_default_text (const gint64        *dims,
                                             guint                n_dims);
gint64         sl_tensor_slice_get_n_elements (const SlTensorSlice *self);
gint64         sl_tensor_slice_row_position (const SlTensorSlice *self,
                                             gint64               row);
gint64         sl_tensor_slice_col_position (const SlTensorSlice *self,
                                             gint64               col);
char          *sl_tensor_slice_format_shape (const gint64        *dims,
                                             guint                n_dims);
char          *sl_tensor_slice_format_index (const SlTensorSlice *self,
                                             gint64               row,
                                             gint64               col);

static inline gint64
sl_tensor_slice_offset (const SlTensorSlice *self,
                        gint64               row,
                        gint64               col)
{
  return self->base + row * self->row_stride + col * self->col_stride;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTensorSlice, sl_tensor_slice_free)

G_END_DECLS
