/* test-mindir.c: MindSpore MindIR models into the graph model
 *
 * A mind_ir.ModelProto written byte by byte (every field number from
 * MindSpore's public mind_ir.proto): a small net whose nodes carry their
 * scoped full names, a primitive referred to by "REF::", a call of a
 * function graph that uses a parameter of the main graph, parameters with
 * external, raw and listed data, and attributes of every kind; every
 * expected value is worked out by hand from it. Then the same model cut
 * at every byte, a node damaged inside, graphs and values nested past the
 * limit, the sniff against ONNX, anf_ir and TensorFlow bytes, and the
 * loader and the detector on files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "graph-query.h"
#include "sl-detector.h"
#include "sl-graph-reader.h"
#include "sl-mindir-reader.h"
#include "sl-proto-shape.h"

/* mind_ir TensorProto.DataType and AttributeProto.AttributeType */
enum { FLOAT = 1, INT64 = 7, STRING = 8, BOOL = 9, TUPLE = 20 };

#define CONV_NAME "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op1"
#define RELU_NAME "Default/network-WithLossCell/_backbone-LeNet5/ReLU-op2"

static void
fx_fixed32 (GByteArray *out,
            guint       field,
            float       value)
{
  guint8 bytes[4];

  memcpy (bytes, &value, sizeof bytes);
  fx_tag (out, field, 5);
  g_byte_array_append (out, bytes, sizeof bytes);
}

/* TensorProto { dims 1 (one varint each), data_type 2, name 7 } */
static GByteArray *
tensor_proto (const char   *name,
              guint         data_type,
              const gint64 *dims,
              guint         n_dims)
{
  GByteArray *tensor = g_byte_array_new ();

  for (guint i = 0; i < n_dims; i++)
    fx_uint (tensor, 1, dims[i]);
  fx_uint (tensor, 2, data_type);
  if (name != NULL)
    fx_string (tensor, 7, name);
  return tensor;
}

/* ValueInfoProto { name 1, tensor 2 } as field @field of @graph. */
static void
value_info (GByteArray   *graph,
            guint         field,
            const char   *name,
            const gint64 *dims,
            guint         n_dims)
{
  g_autoptr(GByteArray) info = g_byte_array_new ();

  fx_string (info, 1, name);
  if (n_dims > 0)
    {
      g_autoptr(GByteArray) tensor = tensor_proto (NULL, FLOAT, dims, n_dims);

      fx_message (info, 2, tensor);
    }
  fx_message (graph, field, info);
}

/* NodeProto { input 1, output 2, name 3, op_type 4, attribute 5, domain 7 };
 * @attributes (AttributeProto fields 5, or NULL) is consumed. */
static GByteArray *
node_proto (const char         *name,
            const char         *op_type,
            const char         *domain,
            const char * const *inputs,
            const char * const *outputs,
            GByteArray         *attributes)
{
  GByteArray *node = g_byte_array_new ();

  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    fx_string (node, 1, inputs[i]);
  for (guint i = 0; outputs != NULL && outputs[i] != NULL; i++)
    fx_string (node, 2, outputs[i]);
  if (name != NULL)
    fx_string (node, 3, name);
  fx_string (node, 4, op_type);
  if (attributes != NULL)
    {
      g_byte_array_append (node, attributes->data, attributes->len);
      g_byte_array_unref (attributes);
    }
  if (domain != NULL)
    fx_string (node, 7, domain);
  return node;
}

static void
add_node (GByteArray *graph,
          GByteArray *node,
          GArray     *ends)
{
  gsize end;

  fx_message (graph, 1, node);
  end = graph->len;
  if (ends != NULL)
    g_array_append_val (ends, end);
  g_byte_array_unref (node);
}

/* AttributeProto { name 1, …, type 16 } appended to @attrs as field @field;
 * @value_fields is consumed. */
static void
attribute (GByteArray *attrs,
           guint       field,
           const char *name,
           guint       type,
           GByteArray *value_fields)
{
  g_autoptr(GByteArray) attr = g_byte_array_new ();

  fx_string (attr, 1, name);
  g_byte_array_append (attr, value_fields->data, value_fields->len);
  if (type != 0)
    fx_uint (attr, 16, type);
  fx_message (attrs, field, attr);
  g_byte_array_unref (value_fields);
}

static GByteArray *
int_value (gint64 value)
{
  GByteArray *fields = g_byte_array_new ();

  fx_uint (fields, 3, (guint64) value);
  return fields;
}

/* The model. Graph "main":
 *   parameters conv1.weight float32[6,1,5,5] (external: net.data, offset
 *     64, 600 bytes), fc.bias float32[10] (40 raw bytes), scale int64[2]
 *     (int64_data 7, 127)
 *   input x float32[1,1,32,32]
 *   CONV_NAME: REF::Conv2D_prim (x, conv1.weight) → conv_out, pad_mode "same",
 *     output type float32[1,6,28,28] (a "shape:" attribute)
 *   RELU_NAME: ReLU (conv_out) → relu_out, alpha 0.5, axis -3, keep true,
 *     strides [1, 2], shape (2, 3), names "s0" … "s9"
 *   Constant-op3: Constant → k, value 4
 *   (unnamed): REF::fn_body (relu_out, fc.bias, k) → call_out
 *   output call_out
 * Function "fn_body": input p0; "Default/Add-op0": Add (scale, p0) → fn_out.
 * Primitive Conv2D_prim: Conv2D, kernel_size [5, 5], instance conv1. */
static GBytes *
write_model (GArray **node_ends,
             gsize   *graph_at)
{
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  static const gint64 conv_dims[] = { 6, 1, 5, 5 };
  static const gint64 bias_dims[] = { 10 };
  static const gint64 scale_dims[] = { 2 };
  static const gint64 x_dims[] = { 1, 1, 32, 32 };

  {
    g_autoptr(GByteArray) tensor = tensor_proto ("conv1.weight", FLOAT, conv_dims, 4);
    g_autoptr(GByteArray) external = g_byte_array_new ();

    fx_string (external, 1, "net.data");
    fx_uint (external, 2, 64);
    fx_uint (external, 3, 600);
    fx_message (tensor, 12, external);
    fx_message (graph, 3, tensor);
  }
  {
    g_autoptr(GByteArray) tensor = tensor_proto ("fc.bias", FLOAT, bias_dims, 1);
    guint8 raw[40] = { 0 };

    fx_data (tensor, 9, raw, sizeof raw);
    fx_message (graph, 3, tensor);
  }
  {
    g_autoptr(GByteArray) tensor = tensor_proto ("scale", INT64, scale_dims, 1);

    fx_uint (tensor, 6, 7);
    fx_uint (tensor, 6, 127);
    fx_message (graph, 3, tensor);
  }
  value_info (graph, 5, "x", x_dims, 4);
  {
    GByteArray *attrs = g_byte_array_new ();
    GByteArray *s = g_byte_array_new ();

    fx_string (s, 5, "same");
    attribute (attrs, 5, "pad_mode", STRING, s);
    {
      static const gint64 out_dims[] = { 1, 6, 28, 28 };
      GByteArray *shape = g_byte_array_new ();
      g_autoptr(GByteArray) tensor = tensor_proto ("conv_out", FLOAT, out_dims, 4);

      fx_message (shape, 12, tensor);
      fx_string (shape, 15, "shape:conv_out");
      attribute (attrs, 5, "shape", 0, shape);
    }
    add_node (graph, node_proto ("Conv2D-op1", "REF::Conv2D_prim", CONV_NAME, (const char *[]) { "x", "conv1.weight", NULL },
                                 (const char *[]) { "conv_out", NULL }, attrs), ends);
  }
  {
    GByteArray *attrs = g_byte_array_new ();
    GByteArray *f = g_byte_array_new ();
    GByteArray *ints = g_byte_array_new ();
    GByteArray *tuple = g_byte_array_new ();

    fx_fixed32 (f, 2, 0.5f);
    attribute (attrs, 5, "alpha", FLOAT, f);
    attribute (attrs, 5, "axis", INT64, int_value (-3));
    attribute (attrs, 8, "keep", BOOL, int_value (1));
    fx_uint (ints, 10, 1);
    fx_uint (ints, 10, 2);
    attribute (attrs, 5, "strides", 0, ints);
    attribute (tuple, 17, "", INT64, int_value (2));
    attribute (tuple, 17, "", INT64, int_value (3));
    attribute (attrs, 9, "shape", TUPLE, tuple);
    {
      GByteArray *strings = g_byte_array_new ();

      for (guint i = 0; i < 10; i++)
        {
          g_autofree char *text = g_strdup_printf ("s%u", i);

          fx_string (strings, 11, text);
        }
      attribute (attrs, 5, "names", 0, strings);
    }
    add_node (graph, node_proto ("ReLU-op2", "ReLU", RELU_NAME, (const char *[]) { "conv_out", NULL },
                                 (const char *[]) { "relu_out", NULL }, attrs), ends);
  }
  {
    GByteArray *attrs = g_byte_array_new ();

    attribute (attrs, 5, "value", INT64, int_value (4));
    add_node (graph, node_proto ("Constant-op3", "Constant", "Default/Constant-op3", NULL,
                                 (const char *[]) { "k", NULL }, attrs), ends);
  }
  add_node (graph, node_proto (NULL, "REF::fn_body", NULL, (const char *[]) { "relu_out", "fc.bias", "k", NULL },
                               (const char *[]) { "call_out", NULL }, NULL), ends);
  value_info (graph, 6, "call_out", NULL, 0);
  fx_string (graph, 2, "main");

  fx_string (model, 1, "0.1.1");
  fx_string (model, 2, "MindSpore");
  fx_string (model, 3, "2.2.0");
  fx_string (model, 4, "org.example");
  fx_string (model, 5, "3");
  fx_string (model, 6, "A test net");
  fx_tag (model, 7, 2);
  fx_varint (model, graph->len);
  *graph_at = model->len;
  g_byte_array_append (model, graph->data, graph->len);
  {
    g_autoptr(GByteArray) function = g_byte_array_new ();

    add_node (function, node_proto ("Add-op0", "Add", "Default/Add-op0", (const char *[]) { "scale", "p0", NULL },
                                    (const char *[]) { "fn_out", NULL }, NULL), NULL);
    fx_string (function, 2, "fn_body");
    value_info (function, 5, "p0", bias_dims, 1);
    fx_message (model, 8, function);
  }
  fx_uint (model, 10, 1);
  {
    g_autoptr(GByteArray) primitive = g_byte_array_new ();
    GByteArray *ints = g_byte_array_new ();

    fx_string (primitive, 1, "Conv2D_prim");
    fx_string (primitive, 2, "Conv2D");
    fx_uint (ints, 10, 5);
    fx_uint (ints, 10, 5);
    attribute (primitive, 3, "kernel_size", 0, ints);
    fx_string (primitive, 4, "conv1");
    fx_message (model, 12, primitive);
  }
  fx_uint (model, 13, 2);
  *node_ends = ends;
  return g_bytes_new (model->data, model->len);
}

static void
test_model (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_mindir_decode (data, size, "net.mindir", &error);
  g_autofree char *text = NULL;
  guint e;

  g_assert_no_error (error);
  g_assert_cmpstr (sl_graph_get_name (graph), ==, "main");
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 4);
  g_assert_cmpuint (sl_graph_get_n_graph_inputs (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);

  e = graph_query_by_shown_name (graph, CONV_NAME);
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "Conv2D");
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, e), ==, "Conv2D-op1");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d");
  g_clear_pointer (&text, g_free);
  g_assert_cmpstr (graph_query_attribute (graph, e, "kernel_size"), ==, "[5, 5]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "instance_name"), ==, "conv1");
  g_assert_cmpstr (graph_query_attribute (graph, e, "pad_mode"), ==, "\"same\"");
  g_assert_cmpstr (graph_query_attribute (graph, e, "domain"), ==, CONV_NAME);
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, e), ==, 1);
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[1,6,28,28]");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, e), ==, 2);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "x");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, TRUE);
  g_assert_cmpstr (text, ==, "conv1.weight");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, RELU_NAME);
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "ReLU");
  g_assert_cmpstr (graph_query_attribute (graph, e, "alpha"), ==, "0.5");
  g_assert_cmpstr (graph_query_attribute (graph, e, "axis"), ==, "-3");
  g_assert_cmpstr (graph_query_attribute (graph, e, "keep"), ==, "true");
  g_assert_cmpstr (graph_query_attribute (graph, e, "strides"), ==, "[1, 2]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "shape"), ==, "(2, 3)");
  /* Lists show their first 8 items. */
  g_assert_cmpstr (graph_query_attribute (graph, e, "names"), ==, "[\"s0\", \"s1\", \"s2\", \"s3\", \"s4\", \"s5\", \"s6\", \"s7\", …]");
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, CONV_NAME);
  g_clear_pointer (&text, g_free);

  /* The call of a function: named by its position, typed by the function. */
  e = graph_query_by_shown_name (graph, "fn_body-op3");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "fn_body");
  g_assert_cmpstr (graph_query_attribute (graph, e, "function"), ==, "fn_body");
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, RELU_NAME);
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, TRUE);
  g_assert_cmpstr (text, ==, "fc.bias");
  g_clear_pointer (&text, g_free);
  /* A Constant node is a const, named by its output. */
  text = graph_query_input_source (graph, e, 2, TRUE);
  g_assert_cmpstr (text, ==, "k");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_kind (graph, graph_query_by_shown_name (graph, "k")), ==, SL_GRAPH_ELEMENT_CONST);
  g_assert_cmpstr (graph_query_attribute (graph, graph_query_by_shown_name (graph, "k"), "value"), ==, "4");

  /* The function is a scope of its own; its node uses the main graph's parameter. */
  g_assert_cmpuint (sl_graph_find_item (graph, "fn_body"), !=, SL_GRAPH_NONE);
  e = graph_query_by_shown_name (graph, "fn_body/Default/Add-op0");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "Add");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "fn_body/Default");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "scale");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, TRUE);
  g_assert_cmpstr (text, ==, "p0");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "conv1.weight");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_PARAMETER);
  g_assert_cmpstr (graph_query_attribute (graph, e, "external data"), ==, "net.data (offset 64, 600 bytes)");
  g_assert_cmpstr (graph_query_attribute (graph, e, "type"), ==, "float32[6,1,5,5]");
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[6,1,5,5]");
  g_clear_pointer (&text, g_free);
  e = graph_query_by_shown_name (graph, "fc.bias");
  g_assert_cmpstr (graph_query_attribute (graph, e, "data"), ==, "40 bytes");
  e = graph_query_by_shown_name (graph, "scale");
  g_assert_cmpstr (graph_query_attribute (graph, e, "data"), ==, "[7, 127]");
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "int64[2]");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "x");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_INPUT);
  g_assert_cmpstr (graph_query_attribute (graph, e, "type"), ==, "float32[1,1,32,32]");
  e = graph_query_by_shown_name (graph, "call_out");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_OUTPUT);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "fn_body-op3");
  g_clear_pointer (&text, g_free);

  g_assert_cmpstr (graph_query_metadata (graph, "format"), ==, "MindIR");
  g_assert_cmpstr (graph_query_metadata (graph, "ir_version"), ==, "0.1.1");
  g_assert_cmpstr (graph_query_metadata (graph, "producer_name"), ==, "MindSpore");
  g_assert_cmpstr (graph_query_metadata (graph, "producer_version"), ==, "2.2.0");
  g_assert_cmpstr (graph_query_metadata (graph, "domain"), ==, "org.example");
  g_assert_cmpstr (graph_query_metadata (graph, "model_version"), ==, "3");
  g_assert_cmpstr (graph_query_metadata (graph, "doc_string"), ==, "A test net");
  g_assert_cmpstr (graph_query_metadata (graph, "little_endian"), ==, "true");
  g_assert_cmpstr (graph_query_metadata (graph, "mind_ir_version"), ==, "2");
  g_assert_cmpstr (graph_query_metadata (graph, "functions"), ==, "fn_body");
}

/* Every cut keeps the nodes whose bytes are whole, reports the damage
 * inside the bytes, and never reads past them. */
static void
test_truncated_everywhere (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  const guint8 *data = g_bytes_get_data (bytes, &size);
  for (gsize cut = 0; cut < size; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, MAX (cut, 1));
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = sl_mindir_decode (copy, cut, "cut.mindir", &error);
      guint want = 0;
      GPtrArray *problems;

      /* Node 2 (the Constant) is a const, not an op. */
      for (guint k = 0; k < ends->len; k++)
        if (cut >= graph_at + g_array_index (ends, gsize, k))
          want = k < 2 ? k + 1 : k;
      if (graph == NULL)
        {
          g_assert_nonnull (error);
          g_assert_cmpuint (want, ==, 0);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (sl_graph_get_n_ops (graph), >=, want);
      g_assert_cmpuint (sl_graph_get_n_ops (graph), <=, 4);
      problems = sl_graph_get_problems (graph);
      for (guint i = 0; i < problems->len; i++)
        {
          SlProblem *problem = g_ptr_array_index (problems, i);

          g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) cut);
          g_assert_cmpstr (sl_problem_get_path (problem), ==, "cut.mindir");
        }
      /* Cut inside the graph: the damage is reported. */
      if (cut > graph_at && cut < graph_at + g_array_index (ends, gsize, ends->len - 1))
        g_assert_cmpuint (problems->len, >, 0);
    }
}

/* A node whose op_type has the wrong wire type is skipped alone, with a
 * problem at that field. */
static void
test_damaged_node (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;
  gsize at = 0;
  GPtrArray *problems;
  gboolean found = FALSE;

  /* Node 1 (ReLU): its op_type tag (0x22) and the 4 bytes of its text. */
  for (gsize i = graph_at + g_array_index (ends, gsize, 0); i < graph_at + g_array_index (ends, gsize, 1); i++)
    if (copy[i] == 0x22 && copy[i + 1] == 4 && memcmp (copy + i + 2, "ReLU", 4) == 0)
      {
        at = i;
        break;
      }
  g_assert_cmpuint (at, >, 0);
  /* Field 4 as a varint of the same length: 0x20, then 5 bytes of a varint. */
  copy[at] = 0x20;
  copy[at + 1] = 0x83;
  copy[at + 2] = 0x80;
  copy[at + 3] = 0x80;
  copy[at + 4] = 0x80;
  copy[at + 5] = 0x00;
  graph = sl_mindir_decode (copy, size, "damaged.mindir", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 3);
  g_assert_cmpuint (graph_query_by_shown_name (graph, RELU_NAME), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_shown_name (graph, CONV_NAME), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "fn_body/Default/Add-op0"), !=, SL_GRAPH_NONE);
  problems = sl_graph_get_problems (graph);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      if (sl_problem_get_offset (problem) == (gint64) at)
        {
          found = TRUE;
          g_assert_cmpstr (sl_problem_get_path (problem), ==, "damaged.mindir");
          g_assert_nonnull (strstr (sl_problem_get_message (problem), "wire type"));
        }
    }
  g_assert_true (found);
}

static gboolean
has_nesting_problem (SlGraph *graph)
{
  GPtrArray *problems = sl_graph_get_problems (graph);

  for (guint i = 0; i < problems->len; i++)
    if (strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), "nested too deeply") != NULL)
      return TRUE;
  return FALSE;
}

/* Graphs in attributes nested deeper than SL_MINDIR_MAX_NESTING, and
 * values nested in values: the deep ones are reported, never followed. */
static void
test_nesting (void)
{
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GByteArray) values_model = g_byte_array_new ();
  g_autoptr(GByteArray) values_graph = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();
  GByteArray *value = int_value (1);
  GByteArray *attrs = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph_model = NULL;
  g_autoptr(SlGraph) values_result = NULL;

  add_node (graph, node_proto ("leaf", "Identity", NULL, NULL, NULL, NULL), NULL);
  for (guint level = 0; level < SL_MINDIR_MAX_NESTING + 8; level++)
    {
      GByteArray *outer = g_byte_array_new ();
      GByteArray *outer_attrs = g_byte_array_new ();
      GByteArray *fields = g_byte_array_new ();

      fx_message (fields, 7, graph);
      g_byte_array_unref (graph);
      attribute (outer_attrs, 5, "body", 18, fields);
      add_node (outer, node_proto ("call", "Switch", NULL, NULL, NULL, outer_attrs), NULL);
      graph = outer;
    }
  fx_string (model, 1, "0.1.1");
  fx_message (model, 7, graph);
  g_byte_array_unref (graph);
  graph_model = sl_mindir_decode (model->data, model->len, "deep.mindir", &error);
  g_assert_no_error (error);
  /* The top graph's node and one per level allowed. */
  g_assert_cmpuint (sl_graph_get_n_ops (graph_model), ==, SL_MINDIR_MAX_NESTING + 1);
  /* Each graph of an attribute is a scope under its node. */
  g_assert_cmpstr (graph_query_attribute (graph_model, graph_query_by_shown_name (graph_model, "call/(call)"), "body"), ==, "graph");
  g_assert_cmpuint (graph_query_by_shown_name (graph_model, "call/body/call/(call)"), !=, SL_GRAPH_NONE);
  g_assert_true (has_nesting_problem (graph_model));

  for (guint level = 0; level < SL_MINDIR_MAX_NESTING + 8; level++)
    {
      GByteArray *outer = g_byte_array_new ();

      attribute (outer, 17, "", TUPLE, value);
      value = outer;
    }
  attribute (attrs, 5, "deep", TUPLE, value);
  add_node (values_graph, node_proto ("n", "MakeTuple", NULL, NULL, NULL, attrs), NULL);
  fx_string (values_model, 1, "0.1.1");
  fx_message (values_model, 7, values_graph);
  values_result = sl_mindir_decode (values_model->data, values_model->len, "values.mindir", &error);
  g_assert_no_error (error);
  /* The node stays, its too deep attribute does not. */
  g_assert_cmpuint (sl_graph_get_n_ops (values_result), ==, 1);
  g_assert_null (graph_query_attribute (values_result, graph_query_by_shown_name (values_result, "n"), "deep"));
  g_assert_true (has_nesting_problem (values_result));
}

static void
test_sniff (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  const guint8 *data = g_bytes_get_data (bytes, &size);
  GraphFixture *fx = graph_fixture_new ("ms");
  g_autoptr(GBytes) ms_graph = NULL;
  g_autoptr(GBytes) ms_model = NULL;
  g_autoptr(GByteArray) onnx = g_byte_array_new ();
  g_autoptr(GByteArray) onnx_graph = g_byte_array_new ();
  g_autoptr(GByteArray) tf = g_byte_array_new ();
  g_autoptr(GByteArray) saved_model = g_byte_array_new ();
  g_autoptr(GByteArray) meta_graph = g_byte_array_new ();
  g_autoptr(GByteArray) no_graph = g_byte_array_new ();

  g_assert_true (sl_mindir_sniff (data, size));
  /* The head is enough: the graph's tag and first field. */
  g_assert_true (sl_mindir_sniff (data, graph_at + 2));
  g_assert_true (sl_proto_shape_is_mindir_model (data, size, TRUE));
  g_assert_cmpstr (sl_proto_shape_get_graph_format (data, size, TRUE), ==, "MindIR");
  g_assert_false (sl_mindir_sniff (data, 0));
  g_assert_false (sl_mindir_sniff (NULL, 0));
  /* A whole model without a graph is none. */
  fx_string (no_graph, 1, "0.1.1");
  fx_string (no_graph, 2, "MindSpore");
  g_assert_false (sl_proto_shape_is_mindir_model (no_graph->data, no_graph->len, TRUE));

  /* ONNX: ir_version is a varint. */
  add_node (onnx_graph, node_proto ("a", "Relu", NULL, NULL, NULL, NULL), NULL);
  fx_uint (onnx, 1, 8);
  fx_string (onnx, 2, "pytorch");
  fx_message (onnx, 7, onnx_graph);
  g_assert_false (sl_mindir_sniff (onnx->data, onnx->len));
  /* anf_ir graph and model (MindSpore's save_graphs). */
  graph_fixture_parameter (fx, "w");
  g_free (graph_fixture_node (fx, "MatMul", "Default", (const char *[]) { "w" }, 1));
  ms_graph = graph_fixture_finish (fx, "ms", NULL);
  ms_model = graph_fixture_wrap_model (ms_graph);
  g_assert_false (sl_mindir_sniff (g_bytes_get_data (ms_graph, NULL), g_bytes_get_size (ms_graph)));
  g_assert_false (sl_mindir_sniff (g_bytes_get_data (ms_model, NULL), g_bytes_get_size (ms_model)));
  /* TensorFlow GraphDef and SavedModel. */
  tf_node (tf, "a", "Const", NULL, NULL, NULL, NULL, NULL);
  tf_node (tf, "b", "Identity", NULL, (const char *[]) { "a", NULL }, NULL, NULL, NULL);
  g_assert_false (sl_mindir_sniff (tf->data, tf->len));
  fx_message (meta_graph, 2, tf);
  fx_uint (saved_model, 1, 1);
  fx_message (saved_model, 2, meta_graph);
  g_assert_false (sl_mindir_sniff (saved_model->data, saved_model->len));
  /* And the other way round: a MindIR model is no ONNX one. */
  g_assert_false (sl_proto_shape_is_onnx_model (data, size, TRUE));
  graph_fixture_free (fx);
}

/* The loader by name and by content, and the detector. */
static void
test_files (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-mindir-XXXXXX", &error);
  g_autofree char *mindir = g_build_filename (folder, "net.mindir", NULL);
  g_autofree char *pb = g_build_filename (folder, "net.pb", NULL);
  g_autofree char *wrong = g_build_filename (folder, "wrong.mindir", NULL);
  g_autofree char *empty = g_build_filename (folder, "empty.mindir", NULL);
  g_autoptr(GPtrArray) graphs = NULL;
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  guint n_mindir = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (mindir, (const char *) data, size, NULL));
  g_assert_true (g_file_set_contents (pb, (const char *) data, size, NULL));
  g_assert_true (g_file_set_contents (wrong, "{\"not\": \"mindir\"}", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));

  graphs = sl_graph_reader_load (mindir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graphs->len, ==, 1);
  g_assert_cmpuint (sl_graph_get_n_ops (g_ptr_array_index (graphs, 0)), ==, 4);
  g_clear_pointer (&graphs, g_ptr_array_unref);

  /* A .pb holding a MindIR model is read as one. */
  graphs = sl_graph_reader_load (pb, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_graph_get_name (g_ptr_array_index (graphs, 0)), ==, "main");
  g_assert_cmpstr (graph_query_metadata (g_ptr_array_index (graphs, 0), "format"), ==, "MindIR");
  g_clear_pointer (&graphs, g_ptr_array_unref);

  graphs = sl_graph_reader_load (empty, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (graphs);
  g_clear_error (&error);

  /* Not a model: the error says where and why. */
  graphs = sl_graph_reader_load (wrong, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "wrong.mindir"));
  g_assert_nonnull (strstr (error->message, "byte 0"));
  g_assert_null (graphs);
  g_clear_error (&error);

  /* A ModelProto without a graph holds no model. */
  g_assert_null (sl_mindir_decode ((const guint8 *) "\x0a\x01" "1", 3, "bare.mindir", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  detector = sl_detector_new (folder);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sl_detection_get_findings (detection)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_detection_get_findings (detection), i);

      g_assert_cmpint (sl_finding_get_kind (finding), ==, SL_FINDING_GRAPH);
      n_mindir += g_strcmp0 (sl_finding_lookup_detail (finding, "format"), "MindIR") == 0;
    }
  /* net.mindir and net.pb; wrong.mindir and empty.mindir are problems. */
  g_assert_cmpuint (n_mindir, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sl_detection_get_problems (detection)), ==, 2);

  g_unlink (mindir);
  g_unlink (pb);
  g_unlink (wrong);
  g_unlink (empty);
  g_rmdir (folder);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mindir/model", test_model);
  g_test_add_func ("/mindir/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/mindir/damaged-node", test_damaged_node);
  g_test_add_func ("/mindir/nesting", test_nesting);
  g_test_add_func ("/mindir/sniff", test_sniff);
  g_test_add_func ("/mindir/files", test_files);
  return g_test_run ();
}
