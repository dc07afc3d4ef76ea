/* sl-tensor-data.h: a tensor's raw elements in memory and their types
 *
 * The plain view that tensor files are read into (.npy, .pt, dumps) and
 * that the accuracy metrics, slices and plots read from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Values follow MindSpore's DataType numbers where it has them. */
typedef enum {
  SL_TENSOR_DTYPE_UNKNOWN = 0,
  SL_TENSOR_DTYPE_BOOL = 1,
  SL_TENSOR_DTYPE_INT8 = 2,
  SL_TENSOR_DTYPE_INT16 = 3,
  SL_TENSOR_DTYPE_INT32 = 4,
  SL_TENSOR_DTYPE_INT64 = 5,
  SL_TENSOR_DTYPE_UINT8 = 6,
  SL_TENSOR_DTYPE_UINT16 = 7,
  SL_TENSOR_DTYPE_UINT32 = 8,
  SL_TENSOR_DTYPE_UINT64 = 9,
  SL_TENSOR_DTYPE_FLOAT16 = 10,
  SL_TENSOR_DTYPE_FLOAT32 = 11,
  SL_TENSOR_DTYPE_FLOAT64 = 12,
  SL_TENSOR_DTYPE_BFLOAT16 = 13,
} SlTensorDtype;

/* A tensor in memory, not owned: raw elements in storage order. */
typedef struct {
  const guint8  *data;
  guint64        n_elements;
  SlTensorDtype  dtype;
  gboolean       big_endian;
  gboolean       fortran_order;
  guint          n_dims;
  const guint64 *shape;
} SlTensorData;

const char   *sl_tensor_dtype_get_name      (SlTensorDtype   dtype);
gsize         sl_tensor_dtype_get_size      (SlTensorDtype   dtype);

G_END_DECLS
