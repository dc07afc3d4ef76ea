/* fuzz-npy-tensor.c: libFuzzer harness for .npy tensors and their comparison
 *
 * Each input is read as a .npy file. When it is accepted, its elements
 * must lie inside the input; compared with itself it is never an error
 * (NaN and Inf, if any, are on both sides alike), and it is compared with
 * its elements read in the other byte order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sl-npy-tensor.h"
#include "sl-tensor-compare.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(SlNpyTensor) tensor = sl_npy_tensor_new_for_bytes ("fuzz.npy", bytes, NULL);
  g_autoptr(SlTensorComparison) self_compare = NULL;
  const SlTensorData *view;
  SlTensorData twin;
  guint64 bytes_needed;

  if (tensor == NULL)
    return 0;
  view = sl_npy_tensor_get_view (tensor);
  bytes_needed = view->n_elements * sl_tensor_dtype_get_size (view->dtype);
  if (view->data < data || view->data + bytes_needed > data + size)
    abort ();

  self_compare = sl_tensor_compare (view, view, NULL);
  if (self_compare->verdict == SL_TENSOR_VERDICT_ERROR)
    abort ();

  /* The same elements read in the other byte order, as a second tensor. */
  twin = *view;
  twin.big_endian = !view->big_endian;
  {
    g_autoptr(SlTensorComparison) swapped = sl_tensor_compare (view, &twin, NULL);

    if (swapped->computed && swapped->n_elements != view->n_elements)
      abort ();
  }
  return 0;
}
