/* sl-torch-tensor.h: one tensor saved by torch.save (a .pt file)
 *
 * A .pt file is a zip archive with a pickle (data.pkl) that rebuilds the
 * tensor through torch._utils._rebuild_tensor_v2 from a storage whose
 * bytes are the entry data/<key>. The pickle is read by a small machine
 * that knows only the opcodes and globals torch.save writes for one
 * tensor; any other opcode, global or call is refused without running
 * anything. The result is a view for the comparison: where the first
 * element is, the dtype, the shape and the strides.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TORCH_TENSOR_MAX_DIMS  32
/* data.pkl of one tensor is a few hundred bytes. */
#define SL_TORCH_PICKLE_MAX_SIZE  (1024 * 1024)

#define SL_TORCH_TENSOR_ERROR (sl_torch_tensor_error_quark ())

typedef enum {
  SL_TORCH_TENSOR_ERROR_ARCHIVE,   /* not a zip, or data.pkl or the storage is missing */
  SL_TORCH_TENSOR_ERROR_PICKLE,    /* damaged or truncated pickle */
  SL_TORCH_TENSOR_ERROR_REFUSED,   /* an opcode, global or call torch.save does not write */
  SL_TORCH_TENSOR_ERROR_BOUNDS,    /* shape, strides or offset outside the storage */
} SlTorchTensorError;

/* What a comparison reads: element (i0, i1, ...) is at
 * data + (i0 * strides[0] + i1 * strides[1] + ...) * item_size. */
typedef struct {
  const guint8 *data;
  const char   *dtype;          /* torch's name: float32, bfloat16, int64, bool, ... */
  guint         item_size;
  gboolean      big_endian;
  guint         n_dims;
  gint64        shape[SL_TORCH_TENSOR_MAX_DIMS];
  gint64        strides[SL_TORCH_TENSOR_MAX_DIMS];   /* in elements */
  guint64       n_elements;
  gboolean      requires_grad;
} SlTorchTensorView;

#define SL_TYPE_TORCH_TENSOR (sl_torch_tensor_get_type ())
G_DECLARE_FINAL_TYPE (SlTorchTensor, sl_torch_tensor, SL, TORCH_TENSOR, GObject)

GQuark              sl_torch_tensor_error_quark (void);
SlTorchTensor      *sl_torch_tensor_new_from_bytes (GBytes         *bytes,
                                                    GError        **error);
/* Maps the file; the view points into the mapping. */
SlTorchTensor      *sl_torch_tensor_new_from_file  (const char     *path,
                                                    GError        **error);
const SlTorchTensorView *sl_torch_tensor_get_view       (SlTorchTensor  *self);

G_END_DECLS
