/* ge-fixture.h: Ascend GE IR models (AIR) and offline models (OM) written
 * byte by byte, for the AIR/OM tests and the example writer
 *
 * ge_fixture_model_def() writes a ge.proto.ModelDef (field numbers from
 * GE's public ge_ir.proto, listed in src/core/formats/sl-ge-ir-values.c)
 * holding a small convolution net as ATC leaves it: a Data input cast to
 * float16, a TransData into NC1HWC0, a Conv2D fused with its bias and
 * ReLU (its _datadump_original_op_names name the three source ops), a
 * MaxPool, a TransData back to NCHW, a Cast to float32 and the NetOutput,
 * which also waits on the MaxPool (a control edge). Its weights are two
 * Const ops, inline in an AIR and at offsets in the weights partition in
 * an OM. With @subgraphs, an If gets a then-branch from the ModelDef's
 * second graph (by subgraph_name) and an else-branch in a g attribute,
 * and a third ModelDef graph nothing names stands apart.
 *
 * ge_fixture_om() wraps a ModelDef in an OM file: the 256-byte header,
 * a partition table (model definition, weights, task info) and the
 * partitions. The offsets of everything written are returned so tests
 * can damage the file where it matters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

#include "graph-fixture.h"

/* ge.proto.DataType */
enum { GE_DT_FLOAT = 1, GE_DT_FLOAT16 = 2, GE_DT_INT32 = 7 };

#define GE_FIXTURE_WEIGHT_BYTES (16 * 3 * 3 * 3 * 2)
#define GE_FIXTURE_BIAS_BYTES (16 * 2)
#define GE_FIXTURE_TASK_BYTES 24

/* TensorDescriptor { name 1, dtype 2, shape 3 { dim 1 packed }, layout 4,
 * weight_size 11, data_offset 18 }; weight_size < 0 leaves both out. */
G_GNUC_UNUSED static GByteArray *
ge_fx_desc (guint         dtype,
            const gint64 *dims,
            guint         n_dims,
            const char   *layout,
            gint64        weight_size,
            gint64        data_offset)
{
  GByteArray *desc = g_byte_array_new ();
  g_autoptr(GByteArray) shape = g_byte_array_new ();
  g_autoptr(GByteArray) packed = g_byte_array_new ();

  fx_uint (desc, 2, dtype);
  for (guint i = 0; i < n_dims; i++)
    fx_varint (packed, (guint64) dims[i]);
  fx_message (shape, 1, packed);
  fx_message (desc, 3, shape);
  fx_string (desc, 4, layout);
  if (weight_size >= 0)
    {
      fx_uint (desc, 11, (guint64) weight_size);
      fx_uint (desc, 18, (guint64) data_offset);
    }
  return desc;
}

/* An attr map entry { key 1, value 2 (AttrDef) }, as field @field. */
G_GNUC_UNUSED static void
ge_fx_attr (GByteArray *out,
            guint       field,
            const char *key,
            GByteArray *attr_def)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();

  fx_string (entry, 1, key);
  fx_message (entry, 2, attr_def);
  fx_message (out, field, entry);
  g_byte_array_unref (attr_def);
}

G_GNUC_UNUSED static GByteArray *
ge_fx_attr_s (const char *text)
{
  GByteArray *attr = g_byte_array_new ();

  fx_string (attr, 2, text);
  return attr;
}

G_GNUC_UNUSED static GByteArray *
ge_fx_attr_i (gint64 value)
{
  GByteArray *attr = g_byte_array_new ();

  fx_uint (attr, 3, (guint64) value);
  return attr;
}

G_GNUC_UNUSED static GByteArray *
ge_fx_attr_b (gboolean value)
{
  GByteArray *attr = g_byte_array_new ();

  fx_uint (attr, 5, value ? 1 : 0);
  return attr;
}

/* AttrDef { list 1 { i 3 (packed) } } */
G_GNUC_UNUSED static GByteArray *
ge_fx_attr_ints (const gint64 *values,
                 guint         n)
{
  GByteArray *attr = g_byte_array_new ();
  g_autoptr(GByteArray) list = g_byte_array_new ();
  g_autoptr(GByteArray) packed = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    fx_varint (packed, (guint64) values[i]);
  fx_message (list, 3, packed);
  fx_uint (list, 20, 2 /* VT_LIST_INT */);
  fx_message (attr, 1, list);
  return attr;
}

/* AttrDef { list 1 { s 2 ... } } */
G_GNUC_UNUSED static GByteArray *
ge_fx_attr_strings (const char * const *values)
{
  GByteArray *attr = g_byte_array_new ();
  g_autoptr(GByteArray) list = g_byte_array_new ();

  for (guint i = 0; values[i] != NULL; i++)
    fx_string (list, 2, values[i]);
  fx_uint (list, 20, 1 /* VT_LIST_STRING */);
  fx_message (attr, 1, list);
  return attr;
}

/* OpDef { name 1, type 2, input 5, attr 10, id 21, stream_id 22,
 * input_desc 33, output_desc 34 }; takes @attrs and @output. */
G_GNUC_UNUSED static GByteArray *
ge_fx_op (const char         *name,
          const char         *type,
          guint               id,
          const char * const *inputs,
          GByteArray         *attrs,
          GByteArray         *output)
{
  GByteArray *op = g_byte_array_new ();

  fx_string (op, 1, name);
  fx_string (op, 2, type);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    fx_string (op, 5, inputs[i]);
  if (attrs != NULL)
    {
      g_byte_array_append (op, attrs->data, attrs->len);
      g_byte_array_unref (attrs);
    }
  fx_uint (op, 21, id);
  fx_uint (op, 22, 0);
  if (output != NULL)
    {
      fx_message (op, 34, output);
      g_byte_array_unref (output);
    }
  return op;
}

G_GNUC_UNUSED static void
ge_fx_add_op (GByteArray *graph,
              GByteArray *op)
{
  fx_message (graph, 6, op);
  g_byte_array_unref (op);
}

/* A Const op whose "value" attr is a TensorDef: data inline (AIR) or an
 * offset in the weights partition (OM). */
G_GNUC_UNUSED static GByteArray *
ge_fx_const (const char   *name,
             guint         id,
             const gint64 *dims,
             guint         n_dims,
             const char   *layout,
             gsize         bytes,
             gsize         offset,
             gboolean      for_om)
{
  g_autoptr(GByteArray) tensor = g_byte_array_new ();
  g_autoptr(GByteArray) desc = ge_fx_desc (GE_DT_FLOAT16, dims, n_dims, layout, for_om ? (gint64) bytes : -1,
                                           (gint64) offset);
  GByteArray *attr = g_byte_array_new ();
  GByteArray *attrs = g_byte_array_new ();

  fx_message (tensor, 1, desc);
  if (!for_om)
    {
      guint8 *data = g_malloc0 (bytes);

      for (gsize i = 0; i < bytes; i++)
        data[i] = (guint8) (i * 7);
      fx_data (tensor, 2, data, bytes);
      g_free (data);
    }
  fx_message (attr, 12, tensor);
  ge_fx_attr (attrs, 10, "value", attr);
  return ge_fx_op (name, "Const", id, NULL, attrs,
                   ge_fx_desc (GE_DT_FLOAT16, dims, n_dims, layout, -1, 0));
}

/* The conv net's GraphDef (see the file comment). */
G_GNUC_UNUSED static GByteArray *
ge_fixture_graph (gboolean for_om,
                  gboolean subgraphs)
{
  static const gint64 nchw[] = { 1, 3, 224, 224 };
  static const gint64 fused[] = { 1, 1, 224, 224, 16 };
  static const gint64 pooled5[] = { 1, 1, 112, 112, 16 };
  static const gint64 pooled[] = { 1, 16, 112, 112 };
  static const gint64 weight[] = { 16, 3, 3, 3 };
  static const gint64 bias[] = { 16 };
  static const gint64 ones[] = { 1, 1, 1, 1 };
  static const gint64 ksize[] = { 1, 1, 2, 2 };
  static const char * const originals[] = { "conv1/Conv2D", "conv1/BiasAdd", "relu1/Relu", NULL };
  GByteArray *graph = g_byte_array_new ();
  GByteArray *attrs;

  fx_string (graph, 1, "tiny_net");
  fx_string (graph, 4, "data:0");
  fx_string (graph, 5, "output:0");

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "index", ge_fx_attr_i (0));
  ge_fx_add_op (graph, ge_fx_op ("data", "Data", 0, NULL, attrs, ge_fx_desc (GE_DT_FLOAT, nchw, 4, "NCHW", -1, 0)));

  ge_fx_add_op (graph, ge_fx_const ("conv1/weight", 1, weight, 4, "FRACTAL_Z", GE_FIXTURE_WEIGHT_BYTES, 0, for_om));
  ge_fx_add_op (graph, ge_fx_const ("conv1/bias", 2, bias, 1, "ND", GE_FIXTURE_BIAS_BYTES, GE_FIXTURE_WEIGHT_BYTES,
                                    for_om));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "dst_type", ge_fx_attr_i (1));
  ge_fx_add_op (graph, ge_fx_op ("cast_0", "Cast", 3, (const char *[]) { "data:0", NULL }, attrs,
                                 ge_fx_desc (GE_DT_FLOAT16, nchw, 4, "NCHW", -1, 0)));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "src_format", ge_fx_attr_s ("NCHW"));
  ge_fx_attr (attrs, 10, "dst_format", ge_fx_attr_s ("NC1HWC0"));
  ge_fx_add_op (graph, ge_fx_op ("trans_TransData_1", "TransData", 4, (const char *[]) { "cast_0:0", NULL }, attrs,
                                 ge_fx_desc (GE_DT_FLOAT16, fused, 5, "NC1HWC0", -1, 0)));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "strides", ge_fx_attr_ints (ones, 4));
  ge_fx_attr (attrs, 10, "pads", ge_fx_attr_ints (ones, 4));
  ge_fx_attr (attrs, 10, "groups", ge_fx_attr_i (1));
  ge_fx_attr (attrs, 10, "data_format", ge_fx_attr_s ("NCHW"));
  ge_fx_attr (attrs, 10, "relu_flag", ge_fx_attr_b (TRUE));
  ge_fx_attr (attrs, 10, "_datadump_original_op_names", ge_fx_attr_strings (originals));
  {
    g_autoptr(GByteArray) input_desc = ge_fx_desc (GE_DT_FLOAT16, fused, 5, "NC1HWC0", -1, 0);

    fx_message (attrs, 33, input_desc);
  }
  ge_fx_add_op (graph, ge_fx_op ("conv1/conv1_relu_fused", "Conv2D", 5,
                                 (const char *[]) { "trans_TransData_1:0", "conv1/weight:0", "conv1/bias:0", NULL },
                                 attrs, ge_fx_desc (GE_DT_FLOAT16, fused, 5, "NC1HWC0", -1, 0)));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "ksize", ge_fx_attr_ints (ksize, 4));
  ge_fx_add_op (graph, ge_fx_op ("pool1/MaxPool", "MaxPool", 6, (const char *[]) { "conv1/conv1_relu_fused:0", NULL },
                                 attrs, ge_fx_desc (GE_DT_FLOAT16, pooled5, 5, "NC1HWC0", -1, 0)));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "src_format", ge_fx_attr_s ("NC1HWC0"));
  ge_fx_attr (attrs, 10, "dst_format", ge_fx_attr_s ("NCHW"));
  ge_fx_add_op (graph, ge_fx_op ("trans_TransData_2", "TransData", 7, (const char *[]) { "pool1/MaxPool:0", NULL },
                                 attrs, ge_fx_desc (GE_DT_FLOAT16, pooled, 4, "NCHW", -1, 0)));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "dst_type", ge_fx_attr_i (0));
  ge_fx_add_op (graph, ge_fx_op ("cast_1", "Cast", 8, (const char *[]) { "trans_TransData_2:0", NULL }, attrs,
                                 ge_fx_desc (GE_DT_FLOAT, pooled, 4, "NCHW", -1, 0)));

  if (subgraphs)
    {
      GByteArray *op = ge_fx_op ("branch/If", "If", 9, (const char *[]) { "cast_1:0", NULL }, NULL, NULL);
      g_autoptr(GByteArray) else_graph = g_byte_array_new ();
      GByteArray *g_attr = g_byte_array_new ();

      fx_string (else_graph, 1, "else_branch");
      ge_fx_add_op (else_graph, ge_fx_op ("neg", "Neg", 0, (const char *[]) { "cast_1:0", NULL }, NULL, NULL));
      fx_message (g_attr, 13, else_graph);
      ge_fx_attr (op, 10, "else_branch", g_attr);
      fx_string (op, 35, "then_branch");
      ge_fx_add_op (graph, op);
    }

  ge_fx_add_op (graph, ge_fx_op ("output", "NetOutput", 10, (const char *[]) { "cast_1:0", "pool1/MaxPool:-1", NULL },
                                 NULL, NULL));
  return graph;
}

/* ModelDef { name 1, version 2, custom_version 3, graph 7, attr 11 } */
G_GNUC_UNUSED static GByteArray *
ge_fixture_model_def (gboolean for_om,
                      gboolean subgraphs)
{
  GByteArray *model = g_byte_array_new ();
  g_autoptr(GByteArray) graph = ge_fixture_graph (for_om, subgraphs);

  fx_string (model, 1, "tiny_net");
  fx_uint (model, 2, 1);
  fx_string (model, 3, "fixture-1.0");
  ge_fx_attr (model, 11, "soc_version", ge_fx_attr_s ("Ascend310P3"));
  fx_message (model, 7, graph);
  if (subgraphs)
    {
      g_autoptr(GByteArray) then_graph = g_byte_array_new ();
      g_autoptr(GByteArray) orphan = g_byte_array_new ();

      fx_string (then_graph, 1, "then_branch");
      ge_fx_add_op (then_graph, ge_fx_op ("ident", "Identity", 0, (const char *[]) { "cast_1:0", NULL }, NULL, NULL));
      fx_message (model, 7, then_graph);
      fx_string (orphan, 1, "orphan");
      ge_fx_add_op (orphan, ge_fx_op ("lonely", "Abs", 0, NULL, NULL, NULL));
      fx_message (model, 7, orphan);
    }
  return model;
}

/* The same net as ATC reads it before converting it: float32 NCHW
 * throughout, the convolution, its bias and the ReLU as three ops, no
 * Cast or TransData (ATC inserts those), so that a conversion of this
 * source against ge_fixture_model_def (TRUE, …)'s OM shows each kind of
 * change. */
G_GNUC_UNUSED static GByteArray *
ge_fixture_source_model_def (void)
{
  static const gint64 nchw[] = { 1, 3, 224, 224 };
  static const gint64 conv[] = { 1, 16, 224, 224 };
  static const gint64 pooled[] = { 1, 16, 112, 112 };
  static const gint64 weight[] = { 16, 3, 3, 3 };
  static const gint64 bias[] = { 16 };
  static const gint64 ones[] = { 1, 1, 1, 1 };
  static const gint64 ksize[] = { 1, 1, 2, 2 };
  GByteArray *model = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  GByteArray *attrs;

  fx_string (graph, 1, "tiny_net");
  fx_string (graph, 4, "data:0");
  fx_string (graph, 5, "output:0");

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "index", ge_fx_attr_i (0));
  ge_fx_add_op (graph, ge_fx_op ("data", "Data", 0, NULL, attrs, ge_fx_desc (GE_DT_FLOAT, nchw, 4, "NCHW", -1, 0)));
  ge_fx_add_op (graph, ge_fx_const ("conv1/weight", 1, weight, 4, "NCHW", GE_FIXTURE_WEIGHT_BYTES, 0, FALSE));
  ge_fx_add_op (graph, ge_fx_const ("conv1/bias", 2, bias, 1, "ND", GE_FIXTURE_BIAS_BYTES, 0, FALSE));

  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "strides", ge_fx_attr_ints (ones, 4));
  ge_fx_attr (attrs, 10, "pads", ge_fx_attr_ints (ones, 4));
  ge_fx_attr (attrs, 10, "data_format", ge_fx_attr_s ("NCHW"));
  ge_fx_add_op (graph, ge_fx_op ("conv1/Conv2D", "Conv2D", 3, (const char *[]) { "data:0", "conv1/weight:0", NULL },
                                 attrs, ge_fx_desc (GE_DT_FLOAT, conv, 4, "NCHW", -1, 0)));
  ge_fx_add_op (graph, ge_fx_op ("conv1/BiasAdd", "BiasAdd", 4,
                                 (const char *[]) { "conv1/Conv2D:0", "conv1/bias:0", NULL }, NULL,
                                 ge_fx_desc (GE_DT_FLOAT, conv, 4, "NCHW", -1, 0)));
  ge_fx_add_op (graph, ge_fx_op ("relu1/Relu", "Relu", 5, (const char *[]) { "conv1/BiasAdd:0", NULL }, NULL,
                                 ge_fx_desc (GE_DT_FLOAT, conv, 4, "NCHW", -1, 0)));
  attrs = g_byte_array_new ();
  ge_fx_attr (attrs, 10, "ksize", ge_fx_attr_ints (ksize, 4));
  ge_fx_add_op (graph, ge_fx_op ("pool1/MaxPool", "MaxPool", 6, (const char *[]) { "relu1/Relu:0", NULL }, attrs,
                                 ge_fx_desc (GE_DT_FLOAT, pooled, 4, "NCHW", -1, 0)));
  ge_fx_add_op (graph, ge_fx_op ("output", "NetOutput", 7, (const char *[]) { "pool1/MaxPool:0", NULL }, NULL, NULL));

  fx_string (model, 1, "tiny_net");
  fx_uint (model, 2, 1);
  fx_message (model, 7, graph);
  return model;
}

/* Where the parts of an OM file are. */
typedef struct {
  gsize table;      /* the partition count */
  gsize model_def;  /* the partitions' data */
  gsize weights;
  gsize task_info;
} GeFixtureOm;

G_GNUC_UNUSED static void
ge_fx_u32 (GByteArray *out,
           guint32     value)
{
  guint32 le = GUINT32_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, 4);
}

/* An OM file around @model_def (see the file comment). */
G_GNUC_UNUSED static GByteArray *
ge_fixture_om (const GByteArray *model_def,
               GeFixtureOm      *where)
{
  GByteArray *om = g_byte_array_new ();
  guint8 header[256] = { 0 };
  guint32 value;
  gsize weights = GE_FIXTURE_WEIGHT_BYTES + GE_FIXTURE_BIAS_BYTES;

  memcpy (header, "IMOD", 4);
  value = GUINT32_TO_LE (256);
  memcpy (header + 4, &value, 4);
  value = GUINT32_TO_LE (1);
  memcpy (header + 8, &value, 4);
  header[82] = 1;   /* standard model */
  header[83] = 0;   /* offline */
  memcpy (header + 84, "tiny_net", 8);
  value = GUINT32_TO_LE (10);
  memcpy (header + 116, &value, 4);
  value = GUINT32_TO_LE (9);
  memcpy (header + 152, &value, 4);
  value = GUINT32_TO_LE (1);
  memcpy (header + 156, &value, 4);
  memcpy (header + 160, "Ascend310P3", 11);
  header[180] = 1;
  g_byte_array_append (om, header, sizeof header);

  ge_fx_u32 (om, 3);
  ge_fx_u32 (om, 0);
  ge_fx_u32 (om, 0);
  ge_fx_u32 (om, model_def->len);
  ge_fx_u32 (om, 1);
  ge_fx_u32 (om, model_def->len);
  ge_fx_u32 (om, weights);
  ge_fx_u32 (om, 2);
  ge_fx_u32 (om, model_def->len + weights);
  ge_fx_u32 (om, GE_FIXTURE_TASK_BYTES);

  if (where != NULL)
    {
      where->table = 256;
      where->model_def = om->len;
      where->weights = om->len + model_def->len;
      where->task_info = where->weights + weights;
    }
  g_byte_array_append (om, model_def->data, model_def->len);
  for (gsize i = 0; i < weights + GE_FIXTURE_TASK_BYTES; i++)
    {
      guint8 byte = (guint8) (i * 13);

      g_byte_array_append (om, &byte, 1);
    }
  return om;
}
