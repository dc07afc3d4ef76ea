/* sl-npy-tensor.h: a NumPy .npy file mapped into memory as a tensor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-data.h"

G_BEGIN_DECLS

#define SL_TYPE_NPY_TENSOR (sl_npy_tensor_get_type ())
G_DECLARE_FINAL_TYPE (SlNpyTensor, sl_npy_tensor, SL, NPY_TENSOR, GObject)

SlNpyTensor        *sl_npy_tensor_open        (const char   *path,
                                               GError      **error);
SlNpyTensor        *sl_npy_tensor_open_full   (const char   *path,
                                               gint64       *error_offset,
                                               char        **error_reason,
                                               GError      **error);
SlNpyTensor        *sl_npy_tensor_new_for_bytes (const char *name,
                                                 GBytes     *bytes,
                                                 GError    **error);
const SlTensorData *sl_npy_tensor_get_view    (SlNpyTensor  *self);
const char         *sl_npy_tensor_get_path    (SlNpyTensor  *self);
char               *sl_npy_tensor_dup_shape   (SlNpyTensor  *self);

G_END_DECLS
