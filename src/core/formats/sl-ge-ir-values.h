/* sl-ge-ir-values.h: GE IR (ge.proto) tensors and attributes as text
 *
 * For the AIR and OM readers: TensorDescriptor, TensorDef and AttrDef
 * read from the wire into what the graph view shows. The field numbers
 * are listed in the .c file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-proto-wire.h"

G_BEGIN_DECLS

/* A TensorDescriptor, read enough to show it. */
typedef struct {
  char    *name;
  guint64  dtype;        /* ge.proto.DataType */
  GArray  *dims;         /* gint64 */
  gboolean has_shape;
  char    *layout;
  gint64   weight_size;  /* -1 when not given */
  gint64   data_offset;  /* -1 when not given */
} SlGeTensorDesc;

int         sl_ge_model_dtype         (guint64               dtype);
const char *sl_ge_dtype_name          (guint64               dtype);
gboolean    sl_ge_read_tensor_desc    (const SlProtoSlice   *bytes,
                                       SlGeTensorDesc       *desc,
                                       SlProtoDamage        *damage);
void        sl_ge_append_tensor_desc  (GString              *out,
                                       const SlGeTensorDesc *desc);
void        sl_ge_tensor_desc_clear   (SlGeTensorDesc       *desc);
gboolean    sl_ge_read_tensor_def     (const SlProtoSlice   *bytes,
                                       SlGeTensorDesc       *desc,
                                       gsize                *data_size,
                                       SlProtoDamage        *damage);
gboolean    sl_ge_read_map_entry      (const SlProtoSlice   *entry,
                                       char                **key,
                                       SlProtoSlice         *value,
                                       SlProtoDamage        *damage);
gboolean    sl_ge_append_attr         (GString              *out,
                                       const SlProtoSlice   *attr,
                                       GArray               *graphs,
                                       SlProtoDamage        *damage);
gboolean    sl_ge_attr_tensor         (const SlProtoSlice   *attr,
                                       SlProtoSlice         *tensor);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlGeTensorDesc, sl_ge_tensor_desc_clear)

G_END_DECLS
