/* test-onnx.c: ONNX models into the graph model
 *
 * A ModelProto written byte by byte (every field number from the public
 * onnx.proto), with scoped and unnamed nodes, weights listed as inputs,
 * external data, a sparse initializer, an If whose branches use a value
 * of the outer graph, attributes of every kind, a dangling input and an
 * omitted optional one; every expected value is worked out by hand from
 * it. Then the same model cut at every byte, a node damaged inside,
 * subgraphs nested past the limit, the sniff against MindSpore and
 * TensorFlow graphs, and the loader and the detector on files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "graph-query.h"
#include "sl-detector.h"
#include "sl-graph-reader.h"
#include "sl-onnx-reader.h"

/* ONNX TensorProto.DataType */
enum { FLOAT = 1, BOOL = 9, INT64 = 7 };

/* TypeProto { tensor_type { elem_type, shape { dim { dim_value | dim_param } } } };
 * a negative size is written as the parameter "N". */
static GByteArray *
type_proto (guint         elem,
            const gint64 *dims,
            guint         n_dims)
{
  GByteArray *type = g_byte_array_new ();
  g_autoptr(GByteArray) tensor = g_byte_array_new ();
  g_autoptr(GByteArray) shape = g_byte_array_new ();

  fx_uint (tensor, 1, elem);
  for (guint i = 0; i < n_dims; i++)
    {
      g_autoptr(GByteArray) dim = g_byte_array_new ();

      if (dims[i] >= 0)
        fx_uint (dim, 1, dims[i]);
      else
        fx_string (dim, 2, "N");
      fx_message (shape, 1, dim);
    }
  fx_message (tensor, 2, shape);
  fx_message (type, 1, tensor);
  return type;
}

/* ValueInfoProto { name 1, type 2 } as field @field of @graph. */
static void
value_info (GByteArray   *graph,
            guint         field,
            const char   *name,
            guint         elem,
            const gint64 *dims,
            guint         n_dims)
{
  g_autoptr(GByteArray) info = g_byte_array_new ();
  g_autoptr(GByteArray) type = type_proto (elem, dims, n_dims);

  fx_string (info, 1, name);
  fx_message (info, 2, type);
  fx_message (graph, field, info);
}

/* NodeProto { input 1, output 2, name 3, op_type 4, attribute 5, domain 7 } */
static GByteArray *
node_proto (const char         *name,
            const char         *op_type,
            const char * const *inputs,
            const char * const *outputs,
            GByteArray         *attributes)
{
  GByteArray *node = g_byte_array_new ();

  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    fx_string (node, 1, inputs[i]);
  for (guint i = 0; outputs != NULL && outputs[i] != NULL; i++)
    fx_string (node, 2, outputs[i]);
  fx_string (node, 3, name);
  fx_string (node, 4, op_type);
  if (attributes != NULL)
    {
      g_byte_array_append (node, attributes->data, attributes->len);
      g_byte_array_unref (attributes);
    }
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

/* AttributeProto { name 1, type 20, ... } appended to @attrs as field 5. */
static void
attribute (GByteArray *attrs,
           const char *name,
           guint       type,
           GByteArray *value_fields)
{
  g_autoptr(GByteArray) attr = g_byte_array_new ();

  fx_string (attr, 1, name);
  g_byte_array_append (attr, value_fields->data, value_fields->len);
  fx_uint (attr, 20, type);
  fx_message (attrs, 5, attr);
  g_byte_array_unref (value_fields);
}

/* A branch: Identity or Neg of the outer graph's "r" into its output. */
static GByteArray *
branch (const char *name,
        const char *op_type,
        const char *output)
{
  GByteArray *graph = g_byte_array_new ();
  static const gint64 n4[] = { -1, 4 };

  add_node (graph, node_proto (op_type[0] == 'I' ? "t_id" : "", op_type, (const char *[]) { "r", NULL },
                               (const char *[]) { output, NULL }, NULL), NULL);
  fx_string (graph, 2, name);
  value_info (graph, 12, output, FLOAT, n4, 2);
  return graph;
}

/* The model. Graph "main":
 *  0 /layer1/MatMul  MatMul  x, W → h           (scope layer1; h typed by value_info)
 *  1 /layer1/Add     Add     h, B → h2
 *  2 (unnamed)       Relu    h2 → r              ("Relu-op2" at the top)
 *  3 cond_node       If      c → y               then: t_id Identity(r) → t_out
 *                                                else: (unnamed) Neg(r) → e_out
 *  4 attrs           Custom  missing, "", y → z   (domain com.example; every attribute kind)
 * initializers W float32[4, 3] = 0..11 (raw), B int64[4] = 1..4, E float32[1000] external;
 * sparse S float32[10, 10] with 3 values; inputs x float32[N, 3], W (a weight), c bool[];
 * outputs y float32[N, 4], z (no type). @node_ends gets the end of each node in the graph. */
static GBytes *
write_model (GArray **node_ends,
             gsize   *graph_at)
{
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  GByteArray *attrs, *fields, *tensor;
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  static const gint64 n3[] = { -1, 3 }, n4[] = { -1, 4 };

  add_node (graph, node_proto ("/layer1/MatMul", "MatMul", (const char *[]) { "x", "W", NULL },
                               (const char *[]) { "h", NULL }, NULL), ends);
  add_node (graph, node_proto ("/layer1/Add", "Add", (const char *[]) { "h", "B", NULL },
                               (const char *[]) { "h2", NULL }, NULL), ends);
  add_node (graph, node_proto ("", "Relu", (const char *[]) { "h2", NULL }, (const char *[]) { "r", NULL }, NULL),
            ends);

  attrs = g_byte_array_new ();
  fields = g_byte_array_new ();
  {
    g_autoptr(GByteArray) then_graph = branch ("then", "Identity", "t_out");

    fx_message (fields, 6, then_graph);
  }
  attribute (attrs, "then_branch", 5, fields);
  fields = g_byte_array_new ();
  {
    g_autoptr(GByteArray) else_graph = branch ("else", "Neg", "e_out");

    fx_message (fields, 6, else_graph);
  }
  attribute (attrs, "else_branch", 5, fields);
  add_node (graph, node_proto ("cond_node", "If", (const char *[]) { "c", NULL }, (const char *[]) { "y", NULL },
                               attrs), ends);

  attrs = g_byte_array_new ();
  fields = g_byte_array_new ();
  {
    float half = 0.5f;

    fx_tag (fields, 2, 5);
    g_byte_array_append (fields, (const guint8 *) &half, 4);
  }
  attribute (attrs, "alpha", 1, fields);
  fields = g_byte_array_new ();
  fx_uint (fields, 3, (guint64) (gint64) -3);
  attribute (attrs, "axis", 2, fields);
  fields = g_byte_array_new ();
  fx_string (fields, 4, "same");
  attribute (attrs, "mode", 3, fields);
  fields = g_byte_array_new ();
  fx_data (fields, 8, (const guint8 *) "\x01\x02", 2);   /* packed ints */
  attribute (attrs, "kernel_shape", 7, fields);
  fields = g_byte_array_new ();
  {
    static const float floats[] = { 0.5f, 1.5f };

    fx_data (fields, 7, (const guint8 *) floats, sizeof floats);
  }
  attribute (attrs, "scales", 6, fields);
  fields = g_byte_array_new ();
  fx_string (fields, 9, "a");
  fx_string (fields, 9, "b");
  attribute (attrs, "names", 8, fields);
  fields = g_byte_array_new ();
  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 2);
  fx_uint (tensor, 2, INT64);
  fx_data (tensor, 7, (const guint8 *) "\x07\x7f", 2);   /* int64_data [7, 127] packed */
  fx_message (fields, 5, tensor);
  g_byte_array_unref (tensor);
  attribute (attrs, "value", 4, fields);
  attribute (attrs, "pads", 7, g_byte_array_new ());     /* an empty INTS */
  fields = g_byte_array_new ();
  {
    static const gint64 none[] = { 0 };
    g_autoptr(GByteArray) type = type_proto (FLOAT, none, 0);

    fx_message (fields, 14, type);
  }
  attribute (attrs, "tp", 13, fields);
  {
    GByteArray *node = node_proto ("attrs", "Custom", (const char *[]) { "missing", "", "y", NULL },
                                   (const char *[]) { "z", NULL }, attrs);

    fx_string (node, 7, "com.example");
    add_node (graph, node, ends);
  }

  fx_string (graph, 2, "main");

  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 4);
  fx_uint (tensor, 1, 3);
  fx_uint (tensor, 2, FLOAT);
  fx_string (tensor, 8, "W");
  {
    float values[12];

    for (guint i = 0; i < 12; i++)
      values[i] = (float) i;
    fx_data (tensor, 9, (const guint8 *) values, sizeof values);
  }
  fx_message (graph, 5, tensor);
  g_byte_array_unref (tensor);

  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 4);
  fx_uint (tensor, 2, INT64);
  fx_data (tensor, 7, (const guint8 *) "\x01\x02\x03\x04", 4);
  fx_string (tensor, 8, "B");
  fx_message (graph, 5, tensor);
  g_byte_array_unref (tensor);

  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 1000);
  fx_uint (tensor, 2, FLOAT);
  fx_string (tensor, 8, "E");
  {
    static const char * const entries[][2] = { { "location", "weights.bin" }, { "offset", "4096" }, { "length", "4000" } };

    for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
      {
        g_autoptr(GByteArray) entry = g_byte_array_new ();

        fx_string (entry, 1, entries[i][0]);
        fx_string (entry, 2, entries[i][1]);
        fx_message (tensor, 13, entry);
      }
  }
  fx_uint (tensor, 14, 1);
  fx_message (graph, 5, tensor);
  g_byte_array_unref (tensor);

  value_info (graph, 11, "x", FLOAT, n3, 2);
  value_info (graph, 11, "W", FLOAT, (const gint64[]) { 4, 3 }, 2);
  value_info (graph, 11, "c", BOOL, NULL, 0);
  value_info (graph, 12, "y", FLOAT, n4, 2);
  {
    g_autoptr(GByteArray) info = g_byte_array_new ();

    fx_string (info, 1, "z");
    fx_message (graph, 12, info);
  }
  value_info (graph, 13, "h", FLOAT, n4, 2);

  {
    g_autoptr(GByteArray) sparse = g_byte_array_new ();
    g_autoptr(GByteArray) values = g_byte_array_new ();
    static const float three[] = { 1, 2, 3 };

    fx_uint (values, 1, 3);
    fx_uint (values, 2, FLOAT);
    fx_string (values, 8, "S");
    fx_data (values, 9, (const guint8 *) three, sizeof three);
    fx_message (sparse, 1, values);
    fx_uint (sparse, 3, 10);
    fx_uint (sparse, 3, 10);
    fx_message (graph, 15, sparse);
  }

  fx_uint (model, 1, 8);
  fx_string (model, 2, "sightline-test");
  fx_string (model, 3, "1.0");
  fx_string (model, 4, "org.example");
  fx_uint (model, 5, 3);
  fx_string (model, 6, "A test model");
  fx_tag (model, 7, 2);
  fx_varint (model, graph->len);
  *graph_at = model->len;
  g_byte_array_append (model, graph->data, graph->len);
  {
    g_autoptr(GByteArray) opset = g_byte_array_new ();
    g_autoptr(GByteArray) ms = g_byte_array_new ();
    g_autoptr(GByteArray) entry = g_byte_array_new ();

    fx_uint (opset, 2, 17);
    fx_message (model, 8, opset);
    fx_string (ms, 1, "com.microsoft");
    fx_uint (ms, 2, 1);
    fx_message (model, 8, ms);
    fx_string (entry, 1, "author");
    fx_string (entry, 2, "tests");
    fx_message (model, 14, entry);
  }
  *node_ends = ends;
  return g_bytes_new (model->data, model->len);
}

static void
test_model (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint e;
  g_autofree char *text = NULL;

  g_assert_true (sl_onnx_sniff (data, size));
  graph = sl_onnx_decode (data, size, "model.onnx", &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);

  g_assert_cmpstr (sl_graph_get_name (graph), ==, "main");
  /* 5 nodes of main, one in each branch. */
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 7);
  g_assert_cmpuint (sl_graph_get_n_parameters (graph), ==, 4);
  g_assert_cmpuint (sl_graph_get_n_consts (graph), ==, 0);
  /* x and c (W is a weight); y, z and each branch's output. */
  g_assert_cmpuint (sl_graph_get_n_graph_inputs (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_graph_outputs (graph), ==, 4);
  /* MatMul 2, Add 2, Relu 1, If 1, Identity 1, Neg 1, Custom 1 (y), outputs y, z, t_out, e_out. */
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 13);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 1);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), ==, 0);
  /* layer1, cond_node, cond_node/then_branch, cond_node/else_branch */
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 4);
  /* Only the dangling input is a problem. */
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 1);

  e = graph_query_by_shown_name (graph, "layer1/MatMul");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, e), ==, "/layer1/MatMul");
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "MatMul");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "layer1");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, e), ==, 2);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "x");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, TRUE);
  g_assert_cmpstr (text, ==, "W");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_kind (graph, sl_graph_element_get_input (graph, e, 1, NULL, NULL)), ==,
                    SL_GRAPH_ELEMENT_PARAMETER);
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, e), ==, 1);
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[-1,4]");
  g_clear_pointer (&text, g_free);

  /* Untyped outputs are not listed. */
  e = graph_query_by_shown_name (graph, "layer1/Add");
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, e), ==, 0);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "layer1/MatMul");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "Relu-op2");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, e), ==, "");
  g_assert_cmpuint (sl_graph_item_get_parent (graph, sl_graph_element_get_item (graph, e)), ==, 0);

  /* The If sits inside its own scope, beside its branches. */
  e = graph_query_by_shown_name (graph, "cond_node/(cond_node)");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (graph_query_attribute (graph, e, "then_branch"), ==, "graph then (1 node)");
  g_assert_cmpuint (sl_graph_find_item (graph, "cond_node/then_branch"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_find_item (graph, "cond_node/else_branch/Neg-op0"), !=, SL_GRAPH_NONE);
  e = graph_query_by_shown_name (graph, "cond_node/then_branch/t_id");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "Relu-op2");
  g_clear_pointer (&text, g_free);
  e = graph_query_by_shown_name (graph, "t_out");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_OUTPUT);
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "cond_node/then_branch");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "cond_node/then_branch/t_id");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "attrs");
  g_assert_cmpstr (graph_query_attribute (graph, e, "domain"), ==, "com.example");
  g_assert_cmpstr (graph_query_attribute (graph, e, "alpha"), ==, "0.5");
  g_assert_cmpstr (graph_query_attribute (graph, e, "axis"), ==, "-3");
  g_assert_cmpstr (graph_query_attribute (graph, e, "mode"), ==, "\"same\"");
  g_assert_cmpstr (graph_query_attribute (graph, e, "kernel_shape"), ==, "[1, 2]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "scales"), ==, "[0.5, 1.5]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "names"), ==, "[\"a\", \"b\"]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "value"), ==, "tensor int64[2] = [7, 127]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "pads"), ==, "[]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "tp"), ==, "float32[]");
  /* "missing" names nothing, "" is skipped, y is the If's. */
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, e), ==, 2);
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "-");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, TRUE);
  g_assert_cmpstr (text, ==, "cond_node/(cond_node)");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "W");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_PARAMETER);
  g_assert_cmpstr (graph_query_attribute (graph, e, "value"), ==, "tensor float32[4, 3] = [0, 1, 2, 3, 4, 5, 6, 7, …]");
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[4,3]");
  g_clear_pointer (&text, g_free);
  e = graph_query_by_shown_name (graph, "B");
  g_assert_cmpstr (graph_query_attribute (graph, e, "value"), ==, "tensor int64[4] = [1, 2, 3, 4]");
  e = graph_query_by_shown_name (graph, "E");
  g_assert_null (graph_query_attribute (graph, e, "value"));
  g_assert_cmpstr (graph_query_attribute (graph, e, "external data"), ==, "weights.bin (offset 4096, 4000 bytes)");
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[1000]");
  g_clear_pointer (&text, g_free);
  e = graph_query_by_shown_name (graph, "S");
  g_assert_cmpstr (graph_query_attribute (graph, e, "sparse values"), ==, "3");
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[10,10]");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_shown_name (graph, "x");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_INPUT);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "Input");
  g_assert_cmpstr (graph_query_attribute (graph, e, "type"), ==, "float32[N, 3]");
  g_assert_cmpuint (sl_graph_item_get_kind (graph, sl_graph_element_get_item (graph, e)), ==, SL_GRAPH_ITEM_PARAMETER);
  /* Inputs come first at the top. */
  g_assert_cmpuint (sl_graph_item_get_child (graph, 0, 0), ==, sl_graph_element_get_item (graph, e));
  e = graph_query_by_shown_name (graph, "c");
  g_assert_cmpstr (graph_query_attribute (graph, e, "type"), ==, "bool[]");
  e = graph_query_by_shown_name (graph, "z");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_OUTPUT);
  g_assert_null (graph_query_attribute (graph, e, "type"));
  text = graph_query_input_source (graph, e, 0, TRUE);
  g_assert_cmpstr (text, ==, "attrs");
  g_clear_pointer (&text, g_free);

  g_assert_cmpstr (graph_query_metadata (graph, "format"), ==, "ONNX");
  g_assert_cmpstr (graph_query_metadata (graph, "ir_version"), ==, "8");
  g_assert_cmpstr (graph_query_metadata (graph, "producer_name"), ==, "sightline-test");
  g_assert_cmpstr (graph_query_metadata (graph, "producer_version"), ==, "1.0");
  g_assert_cmpstr (graph_query_metadata (graph, "domain"), ==, "org.example");
  g_assert_cmpstr (graph_query_metadata (graph, "model_version"), ==, "3");
  g_assert_cmpstr (graph_query_metadata (graph, "doc_string"), ==, "A test model");
  g_assert_cmpstr (graph_query_metadata (graph, "opset_import"), ==, "ai.onnx 17, com.microsoft 1");
  g_assert_cmpstr (graph_query_metadata (graph, "metadata_props.author"), ==, "tests");
  g_assert_cmpstr (sl_graph_metadata_key_to_label ("metadata_props.author"), ==, "author");
  /* the OM header's and GE ModelDef's keys read as words, not as keys */
  g_assert_cmpstr (sl_graph_metadata_key_to_label ("platform_version"), ==, "Platform version");
  g_assert_cmpstr (sl_graph_metadata_key_to_label ("partition.weights"), ==, "Partition: weights");
  g_assert_cmpstr (sl_graph_metadata_key_to_label ("custom_version"), ==, "Custom version");
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
  /* Nodes read when the cut falls after node k's end (the If brings its
   * two branch nodes). */
  static const guint kept[] = { 1, 2, 3, 6, 7 };

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, MAX (cut, 1));
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = sl_onnx_decode (copy, cut, "cut.onnx", &error);
      guint want = 0;
      GPtrArray *problems;

      for (guint k = 0; k < ends->len; k++)
        if (cut >= graph_at + g_array_index (ends, gsize, k))
          want = kept[k];
      if (graph == NULL)
        {
          g_assert_nonnull (error);
          g_assert_cmpuint (want, ==, 0);
          continue;
        }
      g_assert_no_error (error);
      /* A cut node is read as far as it goes, with what its subgraphs
       * hold before the cut. */
      g_assert_cmpuint (sl_graph_get_n_ops (graph), >=, want);
      g_assert_cmpuint (sl_graph_get_n_ops (graph), <=, MIN (want + 3, 7));
      problems = sl_graph_get_problems (graph);
      /* Cut inside the graph or the fields after it: damage is reported. */
      if (cut > graph_at && cut < size)
        g_assert_cmpuint (problems->len, >, 0);
      for (guint i = 0; i < problems->len; i++)
        {
          SlProblem *problem = g_ptr_array_index (problems, i);

          g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) cut);
          g_assert_cmpstr (sl_problem_get_path (problem), ==, "cut.onnx");
        }
    }
}

/* A cut inside the If's else branch keeps the If, its then branch and
 * the else branch's node, which lies before the cut. */
static void
test_cut_subgraph (void)
{
  g_autoptr(GArray) ends = NULL;
  gsize graph_at, size;
  g_autoptr(GBytes) bytes = write_model (&ends, &graph_at);
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gsize cut = graph_at + g_array_index (ends, gsize, 3) - 5;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_onnx_decode (data, cut, "cut.onnx", &error);
  GPtrArray *problems;

  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 6);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "cond_node/(cond_node)"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "cond_node/then_branch/t_id"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "cond_node/else_branch/Neg-op0"), !=, SL_GRAPH_NONE);
  /* The damage is where the graph's length runs past the end. */
  problems = sl_graph_get_problems (graph);
  g_assert_cmpuint (problems->len, >, 0);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), <, (gint64) graph_at);
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
  gsize node_start = graph_at + g_array_index (ends, gsize, 0);
  gsize at = 0;
  GPtrArray *problems;
  gboolean found = FALSE;

  /* Node 1 ("/layer1/Add"): find its op_type tag (0x22) after its name. */
  for (gsize i = node_start; i < graph_at + g_array_index (ends, gsize, 1); i++)
    if (copy[i] == 0x22 && copy[i + 1] == 3 && memcmp (copy + i + 2, "Add", 3) == 0)
      {
        at = i;
        break;
      }
  g_assert_cmpuint (at, >, 0);
  /* Field 4 as a varint of the same length: 0x20, then 4 bytes of a varint. */
  copy[at] = 0x20;
  copy[at + 1] = 0x83;
  copy[at + 2] = 0x80;
  copy[at + 3] = 0x80;
  copy[at + 4] = 0x00;
  graph = sl_onnx_decode (copy, size, "damaged.onnx", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 6);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "layer1/Add"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_shown_name (graph, "attrs"), !=, SL_GRAPH_NONE);
  problems = sl_graph_get_problems (graph);
  for (guint i = 0; i < problems->len; i++)
    if (sl_problem_get_offset (g_ptr_array_index (problems, i)) == (gint64) at)
      found = TRUE;
  g_assert_true (found);
}

/* If nested inside If, deeper than SL_ONNX_MAX_NESTING: the deep ones
 * are reported, never followed. */
static void
test_nesting (void)
{
  g_autoptr(GByteArray) model = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph_model = NULL;
  GPtrArray *problems;
  gboolean found = FALSE;

  add_node (graph, node_proto ("leaf", "Identity", NULL, NULL, NULL), NULL);
  for (guint level = 0; level < SL_ONNX_MAX_NESTING + 8; level++)
    {
      GByteArray *outer = g_byte_array_new ();
      GByteArray *attrs = g_byte_array_new ();
      GByteArray *fields = g_byte_array_new ();

      fx_message (fields, 6, graph);
      g_byte_array_unref (graph);
      attribute (attrs, "then_branch", 5, fields);
      add_node (outer, node_proto ("if", "If", NULL, NULL, attrs), NULL);
      graph = outer;
    }
  fx_uint (model, 1, 8);
  fx_message (model, 7, graph);
  g_byte_array_unref (graph);

  graph_model = sl_onnx_decode (model->data, model->len, "deep.onnx", &error);
  g_assert_no_error (error);
  /* The top graph's If and one per level allowed. */
  g_assert_cmpuint (sl_graph_get_n_ops (graph_model), ==, SL_ONNX_MAX_NESTING + 1);
  problems = sl_graph_get_problems (graph_model);
  for (guint i = 0; i < problems->len; i++)
    found |= strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), "nested too deeply") != NULL;
  g_assert_true (found);
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
  g_autoptr(GByteArray) tf = g_byte_array_new ();
  g_autoptr(GByteArray) tensor = g_byte_array_new ();

  /* The head is enough: the graph's tag and first field. */
  g_assert_true (sl_onnx_sniff (data, graph_at + 2));
  g_assert_false (sl_onnx_sniff (data, 0));
  g_assert_false (sl_onnx_sniff (NULL, 0));

  graph_fixture_parameter (fx, "w");
  g_free (graph_fixture_node (fx, "MatMul", "Default", (const char *[]) { "w" }, 1));
  ms_graph = graph_fixture_finish (fx, "ms", NULL);
  ms_model = graph_fixture_wrap_model (ms_graph);
  g_assert_false (sl_onnx_sniff (g_bytes_get_data (ms_graph, NULL), g_bytes_get_size (ms_graph)));
  g_assert_false (sl_onnx_sniff (g_bytes_get_data (ms_model, NULL), g_bytes_get_size (ms_model)));
  tf_node (tf, "a", "Const", NULL, NULL, NULL, NULL, NULL);
  g_assert_false (sl_onnx_sniff (tf->data, tf->len));
  /* An ONNX TensorProto (test data's input_0.pb): dims 1, data_type 2 varints. */
  fx_uint (tensor, 1, 3);
  fx_uint (tensor, 2, FLOAT);
  fx_data (tensor, 9, (const guint8 *) "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
  g_assert_false (sl_onnx_sniff (tensor->data, tensor->len));
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
  g_autofree char *folder = g_dir_make_tmp ("test-onnx-XXXXXX", &error);
  g_autofree char *onnx = g_build_filename (folder, "model.onnx", NULL);
  g_autofree char *pb = g_build_filename (folder, "model.pb", NULL);
  g_autofree char *wrong = g_build_filename (folder, "wrong.onnx", NULL);
  g_autofree char *empty = g_build_filename (folder, "empty.onnx", NULL);
  g_autoptr(GPtrArray) graphs = NULL;
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  guint n_onnx = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (onnx, (const char *) data, size, NULL));
  g_assert_true (g_file_set_contents (pb, (const char *) data, size, NULL));
  g_assert_true (g_file_set_contents (wrong, "{\"not\": \"onnx\"}", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));

  graphs = sl_graph_reader_load (onnx, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graphs->len, ==, 1);
  g_assert_cmpuint (sl_graph_get_n_ops (g_ptr_array_index (graphs, 0)), ==, 7);
  g_clear_pointer (&graphs, g_ptr_array_unref);

  /* A .pb holding an ONNX model is read as one. */
  graphs = sl_graph_reader_load (pb, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_graph_get_name (g_ptr_array_index (graphs, 0)), ==, "main");
  g_assert_cmpuint (sl_graph_get_n_graph_inputs (g_ptr_array_index (graphs, 0)), ==, 2);
  g_clear_pointer (&graphs, g_ptr_array_unref);

  graphs = sl_graph_reader_load (empty, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (graphs);
  g_clear_error (&error);

  /* Not a model: the error says where and why. */
  graphs = sl_graph_reader_load (wrong, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "wrong.onnx"));
  g_assert_nonnull (strstr (error->message, "byte 0"));
  g_assert_null (graphs);
  g_clear_error (&error);

  /* A ModelProto without a graph holds no model. */
  g_assert_null (sl_onnx_decode ((const guint8 *) "\x08\x08", 2, "bare.onnx", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  detector = sl_detector_new (folder);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sl_detection_get_findings (detection)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_detection_get_findings (detection), i);

      g_assert_cmpint (sl_finding_get_kind (finding), ==, SL_FINDING_GRAPH);
      n_onnx += g_strcmp0 (sl_finding_lookup_detail (finding, "format"), "ONNX") == 0;
    }
  /* model.onnx and model.pb; wrong.onnx and empty.onnx are problems. */
  g_assert_cmpuint (n_onnx, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sl_detection_get_problems (detection)), ==, 2);

  g_unlink (onnx);
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
  g_test_add_func ("/onnx/model", test_model);
  g_test_add_func ("/onnx/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/onnx/cut-subgraph", test_cut_subgraph);
  g_test_add_func ("/onnx/damaged-node", test_damaged_node);
  g_test_add_func ("/onnx/nesting", test_nesting);
  g_test_add_func ("/onnx/sniff", test_sniff);
  g_test_add_func ("/onnx/files", test_files);
  return g_test_run ();
}
