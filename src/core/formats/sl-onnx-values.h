/* sl-onnx-values.h: ONNX types, tensors and attributes as text
 *
 * For the ONNX reader: TypeProto, TensorProto and AttributeProto read
 * from the wire into what the graph view shows (see the .c file).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-proto-wire.h"

G_BEGIN_DECLS

/* A TensorProto, read enough to show it. */
typedef struct {
  SlProtoSlice  name;
  guint64       data_type;     /* ONNX TensorProto.DataType */
  GArray       *dims;          /* gint64 */
  GString      *values;        /* the first values as text, or "" */
  guint         n_values;
  gboolean      external;      /* data_location EXTERNAL */
  char         *location;      /* external_data "location", "offset", "length" */
  char         *offset;
  char         *length;
} SlOnnxTensor;

/* An AttributeProto: its name, its value as text, its subgraphs. */
typedef struct {
  char     *name;
  GString  *text;
  GArray   *graphs;   /* SlProtoSlice: g (6) and graphs (11) */
} SlOnnxAttribute;

int      sl_onnx_model_dtype      (guint64             type);
gboolean sl_onnx_read_type        (const SlProtoSlice *type,
                                   GString            *text,
                                   int                *dtype,
                                   GArray             *dims,
                                   guint               depth,
                                   SlProtoDamage      *damage);
gboolean sl_onnx_read_tensor      (const SlProtoSlice *bytes,
                                   SlOnnxTensor       *tensor,
                                   SlProtoDamage      *damage);
void     sl_onnx_append_tensor    (GString            *out,
                                   const SlOnnxTensor *tensor);
void     sl_onnx_tensor_clear     (SlOnnxTensor       *tensor);
gboolean sl_onnx_read_attribute   (const SlProtoSlice *bytes,
                                   SlOnnxAttribute    *attribute,
                                   SlProtoDamage      *damage);
void     sl_onnx_attribute_clear  (SlOnnxAttribute    *attribute);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlOnnxTensor, sl_onnx_tensor_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlOnnxAttribute, sl_onnx_attribute_clear)

G_END_DECLS
