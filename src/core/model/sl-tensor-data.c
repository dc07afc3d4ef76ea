/* sl-tensor-data.c: a tensor's raw elements in memory and their types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-tensor-data.h"

gsize
sl_tensor_dtype_get_size (SlTensorDtype dtype)
{
  switch (dtype)
    {
    case SL_TENSOR_DTYPE_BOOL: case SL_TENSOR_DTYPE_INT8: case SL_TENSOR_DTYPE_UINT8:
      return 1;
    case SL_TENSOR_DTYPE_INT16: case SL_TENSOR_DTYPE_UINT16:
    case SL_TENSOR_DTYPE_FLOAT16: case SL_TENSOR_DTYPE_BFLOAT16:
      return 2;
    case SL_TENSOR_DTYPE_INT32: case SL_TENSOR_DTYPE_UINT32: case SL_TENSOR_DTYPE_FLOAT32:
      return 4;
    case SL_TENSOR_DTYPE_INT64: case SL_TENSOR_DTYPE_UINT64: case SL_TENSOR_DTYPE_FLOAT64:
      return 8;
    case SL_TENSOR_DTYPE_UNKNOWN:
    default:
      return 0;
    }
}

const char *
sl_tensor_dtype_get_name (SlTensorDtype dtype)
{
  static const char * const names[] = {
    "unknown", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16",
  };

  if ((guint)dtype < G_N_ELEMENTS (names))
    return names[dtype];
  return "unknown";
}
