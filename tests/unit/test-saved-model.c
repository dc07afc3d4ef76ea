/* test-saved-model.c: TensorFlow SavedModels and GraphDef text into the
 * graph model
 *
 * A SavedModel written byte by byte (field numbers from TensorFlow's
 * public saved_model.proto, meta_graph.proto, graph.proto, function.proto
 * and op_def.proto) with two meta-graphs, a signature and a function
 * library; every expected value is worked out by hand from it. Then the
 * same file cut at every byte, a node damaged inside, the sniff, the
 * loader on the file and on its folder (with a fingerprint.pb beside it),
 * and a file without nodes. The .pbtxt part: a GraphDef in text format
 * with comments, escapes, lists and control inputs, cut at every byte,
 * nested too deeply, and malformed tokens.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "graph-query.h"
#include "sl-graph-def-text.h"
#include "sl-graph-reader.h"
#include "sl-onnx-reader.h"
#include "sl-saved-model-reader.h"

/* TensorFlow DataType */
enum { DT_FLOAT = 1, DT_INT32 = 3 };

/* The input @index of element @name names @source, of @kind. */
static void
check_input (SlGraph         *graph,
             const char      *name,
             guint            index,
             const char      *source,
             SlGraphEdgeKind  kind)
{
  guint e = graph_query_by_proto_name (graph, name);
  SlGraphEdgeKind got_kind;
  const char *got = NULL;
  guint from;

  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpuint (index, <, sl_graph_element_get_n_inputs (graph, e));
  from = sl_graph_element_get_input (graph, e, index, &got_kind, &got);
  g_assert_cmpstr (got, ==, source);
  g_assert_cmpint (got_kind, ==, kind);
  g_assert_cmpuint (from, ==, graph_query_by_proto_name (graph, source));
}

/* NodeDef { name 1, op 2, input 3, device 4, attr 5 } as field @number. */
static void
node_def (GByteArray         *out,
          guint               number,
          const char         *name,
          const char         *op,
          const char * const *inputs,
          GByteArray         *attrs)
{
  g_autoptr(GByteArray) node = g_byte_array_new ();

  fx_string (node, 1, name);
  fx_string (node, 2, op);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    fx_string (node, 3, inputs[i]);
  if (attrs != NULL)
    {
      g_byte_array_append (node, attrs->data, attrs->len);
      g_byte_array_unref (attrs);
    }
  fx_message (out, number, node);
}

/* attr { key, value { type } } */
static GByteArray *
type_attr (const char *key,
           guint       type)
{
  GByteArray *attrs = g_byte_array_new ();
  g_autoptr(GByteArray) entry = g_byte_array_new ();
  g_autoptr(GByteArray) value = g_byte_array_new ();

  fx_uint (value, 6, type);
  fx_string (entry, 1, key);
  fx_message (entry, 2, value);
  fx_message (attrs, 5, entry);
  return attrs;
}

/* TensorShapeProto { dim { size } ... }; -1 is unknown. */
static GByteArray *
shape_proto (const gint64 *dims,
             guint         n_dims)
{
  GByteArray *shape = g_byte_array_new ();

  for (guint i = 0; i < n_dims; i++)
    {
      g_autoptr(GByteArray) dim = g_byte_array_new ();

      fx_uint (dim, 1, (guint64) dims[i]);
      fx_message (shape, 2, dim);
    }
  return shape;
}

/* TensorInfo { name 1, dtype 2, tensor_shape 3 } in a map entry. */
static void
tensor_info_entry (GByteArray   *out,
                   guint         number,
                   const char   *key,
                   const char   *name,
                   guint         dtype,
                   const gint64 *dims,
                   guint         n_dims)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();
  g_autoptr(GByteArray) info = g_byte_array_new ();
  g_autoptr(GByteArray) shape = shape_proto (dims, n_dims);

  fx_string (info, 1, name);
  fx_uint (info, 2, dtype);
  fx_message (info, 3, shape);
  fx_string (entry, 1, key);
  fx_message (entry, 2, info);
  fx_message (out, number, entry);
}

/* Where the nodes of the first meta-graph's GraphDef end, in the file. */
typedef struct {
  GByteArray *bytes;
  gsize       node_end[3];
  gsize       function_node_end[2];
  gsize       meta_end;   /* where the first meta-graph ends */
} SavedModelFixture;

/* SavedModel { schema 1, meta_graphs [
 *   { meta_info_def { tags "serve", tensorflow_version "2.15.0" },
 *     graph_def { node x (Placeholder, dtype float), mm (MatMul x, x:0),
 *                 call (PartitionedCall mm, ^x),
 *                 library { function { signature { name "fn", input_arg a
 *                   float, output_arg y int32 }, node_def relu (Relu a),
 *                   node_def cast (Cast relu:activations:0), ret y → cast:y:0 } } },
 *     signature_def { "serving_default": inputs x → x:0 float [-1,3],
 *                     outputs out → call:0 int32 [-1], method "predict" } },
 *   { meta_info_def { tags "train", "gpu" }, graph_def { node a (Placeholder) } } ] } */
static SavedModelFixture
saved_model (void)
{
  SavedModelFixture fx = { g_byte_array_new (), { 0 }, { 0 }, 0 };
  g_autoptr(GByteArray) info = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(GByteArray) library = g_byte_array_new ();
  g_autoptr(GByteArray) function = g_byte_array_new ();
  g_autoptr(GByteArray) signature = g_byte_array_new ();
  g_autoptr(GByteArray) arg = g_byte_array_new ();
  g_autoptr(GByteArray) ret = g_byte_array_new ();
  g_autoptr(GByteArray) sig = g_byte_array_new ();
  g_autoptr(GByteArray) sig_entry = g_byte_array_new ();
  g_autoptr(GByteArray) meta = g_byte_array_new ();
  g_autoptr(GByteArray) info2 = g_byte_array_new ();
  g_autoptr(GByteArray) graph2 = g_byte_array_new ();
  g_autoptr(GByteArray) meta2 = g_byte_array_new ();
  static const gint64 x_dims[] = { -1, 3 }, out_dims[] = { -1 };
  gsize header, graph_at, function_at;
  gsize graph_ends[3], function_ends[2];

  fx_string (info, 4, "serve");
  fx_string (info, 5, "2.15.0");

  node_def (graph, 1, "x", "Placeholder", NULL, type_attr ("dtype", DT_FLOAT));
  graph_ends[0] = graph->len;
  node_def (graph, 1, "mm", "MatMul", (const char *[]) { "x", "x:0", NULL }, NULL);
  graph_ends[1] = graph->len;
  node_def (graph, 1, "call", "PartitionedCall", (const char *[]) { "mm", "^x", NULL }, NULL);
  graph_ends[2] = graph->len;

  fx_string (signature, 1, "fn");
  fx_string (arg, 1, "a");
  fx_uint (arg, 3, DT_FLOAT);
  fx_message (signature, 2, arg);
  g_byte_array_set_size (arg, 0);
  fx_string (arg, 1, "y");
  fx_uint (arg, 3, DT_INT32);
  fx_message (signature, 3, arg);
  fx_message (function, 1, signature);
  node_def (function, 3, "relu", "Relu", (const char *[]) { "a", NULL }, NULL);
  function_ends[0] = function->len;
  node_def (function, 3, "cast", "Cast", (const char *[]) { "relu:activations:0", NULL }, NULL);
  function_ends[1] = function->len;
  fx_string (ret, 1, "y");
  fx_string (ret, 2, "cast:y:0");
  fx_message (function, 4, ret);
  fx_message (library, 1, function);
  fx_message (graph, 2, library);
  /* The library is the last field of the graph, the function all of it. */
  function_at = graph->len - function->len;

  tensor_info_entry (sig, 1, "x", "x:0", DT_FLOAT, x_dims, 2);
  tensor_info_entry (sig, 2, "out", "call:0", DT_INT32, out_dims, 1);
  fx_string (sig, 3, "predict");
  fx_string (sig_entry, 1, "serving_default");
  fx_message (sig_entry, 2, sig);

  fx_message (meta, 1, info);
  fx_message (meta, 2, graph);
  graph_at = meta->len - graph->len;
  fx_message (meta, 5, sig_entry);

  fx_string (info2, 4, "train");
  fx_string (info2, 4, "gpu");
  node_def (graph2, 1, "a", "Placeholder", NULL, NULL);
  fx_message (meta2, 1, info2);
  fx_message (meta2, 2, graph2);

  fx_uint (fx.bytes, 1, 1);
  fx_message (fx.bytes, 2, meta);
  header = fx.bytes->len - meta->len;
  fx.meta_end = fx.bytes->len;
  fx_message (fx.bytes, 2, meta2);

  for (guint i = 0; i < 3; i++)
    fx.node_end[i] = header + graph_at + graph_ends[i];
  for (guint i = 0; i < 2; i++)
    fx.function_node_end[i] = header + graph_at + function_at + function_ends[i];
  return fx;
}

static GPtrArray *
decode (GByteArray  *bytes,
        GError     **error)
{
  return sl_saved_model_decode_graphs (bytes->data, bytes->len, "saved_model.pb", error);
}

static void
test_saved_model_mapping (void)
{
  SavedModelFixture fx = saved_model ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = decode (fx.bytes, &error);
  SlGraph *serve, *train;
  guint e;

  g_assert_no_error (error);
  g_assert_cmpuint (graphs->len, ==, 2);
  serve = g_ptr_array_index (graphs, 0);
  train = g_ptr_array_index (graphs, 1);
  g_assert_cmpstr (sl_graph_get_name (serve), ==, "serve");
  g_assert_cmpstr (sl_graph_get_name (train), ==, "train,gpu");
  g_assert_cmpuint (sl_graph_get_problems (serve)->len, ==, 0);
  g_assert_cmpuint (sl_graph_get_problems (train)->len, ==, 0);

  /* x, mm, call; fn/a, fn/relu, fn/cast, fn/y_retval */
  g_assert_cmpuint (sl_graph_get_n_ops (serve), ==, 7);
  g_assert_cmpuint (sl_graph_get_n_ops (train), ==, 1);
  check_input (serve, "mm", 0, "x", SL_GRAPH_EDGE_DATA);
  check_input (serve, "mm", 1, "x", SL_GRAPH_EDGE_DATA);
  check_input (serve, "call", 0, "mm", SL_GRAPH_EDGE_DATA);
  check_input (serve, "call", 1, "x", SL_GRAPH_EDGE_CONTROL);
  check_input (serve, "fn/relu", 0, "fn/a", SL_GRAPH_EDGE_DATA);
  check_input (serve, "fn/cast", 0, "fn/relu", SL_GRAPH_EDGE_DATA);
  check_input (serve, "fn/y_retval", 0, "fn/cast", SL_GRAPH_EDGE_DATA);
  e = graph_query_by_proto_name (serve, "fn/a");
  g_assert_cmpstr (sl_graph_element_get_op_type (serve, e), ==, "_Arg");
  g_assert_cmpstr (graph_query_attribute (serve, e, "T"), ==, "float32");
  {
    g_autofree char *scope = sl_graph_element_dup_scope (serve, graph_query_by_proto_name (serve, "fn/relu"));

    g_assert_cmpstr (scope, ==, "fn");
  }
  g_assert_cmpstr (graph_query_attribute (serve, graph_query_by_proto_name (serve, "fn/y_retval"), "T"), ==, "int32");
  g_assert_cmpstr (sl_graph_element_get_op_type (serve, graph_query_by_proto_name (serve, "fn/y_retval")), ==, "_Retval");

  g_assert_cmpstr (graph_query_metadata (serve, "format"), ==, "TensorFlow SavedModel");
  g_assert_cmpstr (graph_query_metadata (serve, "tags"), ==, "serve");
  g_assert_cmpstr (graph_query_metadata (serve, "tensorflow_version"), ==, "2.15.0");
  g_assert_cmpstr (graph_query_metadata (serve, "functions"), ==, "fn");
  g_assert_null (graph_query_metadata (train, "functions"));
  g_assert_cmpstr (graph_query_metadata (serve, "signature_def.serving_default"), ==,
                   "method predict; inputs: x = x:0 float32[?,3]; outputs: out = call:0 int32[?]");
  g_assert_null (graph_query_metadata (train, "signature_def.serving_default"));
  g_byte_array_unref (fx.bytes);
}

/* Cut at every byte: no crash; whatever is returned keeps every node
 * whose bytes were whole, and problems point inside the cut file. */
static void
test_saved_model_cut (void)
{
  SavedModelFixture fx = saved_model ();
  static const char * const names[] = { "x", "mm", "call" };
  static const char * const function_names[] = { "fn/relu", "fn/cast" };

  for (gsize cut = 0; cut < fx.bytes->len; cut++)
    {
      g_autoptr(GByteArray) bytes = g_byte_array_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) graphs = NULL;
      SlGraph *serve;
      GPtrArray *problems;

      g_byte_array_append (bytes, fx.bytes->data, cut);
      graphs = decode (bytes, &error);
      if (graphs == NULL)
        {
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, "saved_model.pb"));
          g_assert_cmpuint (cut, <, fx.node_end[0]);
          continue;
        }
      g_assert_no_error (error);
      serve = g_ptr_array_index (graphs, 0);
      g_assert_cmpstr (sl_graph_get_name (serve), ==, "serve");
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (cut >= fx.node_end[i])
          g_assert_cmpuint (graph_query_by_proto_name (serve, names[i]), !=, SL_GRAPH_NONE);
      for (guint i = 0; i < G_N_ELEMENTS (function_names); i++)
        if (cut >= fx.function_node_end[i])
          g_assert_cmpuint (graph_query_by_proto_name (serve, function_names[i]), !=, SL_GRAPH_NONE);
      /* Cut inside the first meta-graph: it says so, at the cut. */
      problems = sl_graph_get_problems (serve);
      if (cut > fx.node_end[0] && cut < fx.meta_end)
        g_assert_cmpuint (problems->len, >, 0);
      for (guint g = 0; g < graphs->len; g++)
        {
          problems = sl_graph_get_problems (g_ptr_array_index (graphs, g));
          for (guint i = 0; i < problems->len; i++)
            g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, i)), <=, (gint64) cut);
        }
    }
  g_byte_array_unref (fx.bytes);
}

/* A node whose name field has a wrong wire type: it is skipped with a
 * problem at that byte, the others stay. */
static void
test_saved_model_damaged_node (void)
{
  SavedModelFixture fx = saved_model ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = NULL;
  GPtrArray *problems;
  SlGraph *serve;
  gsize at = fx.node_end[0];

  /* mm's NodeDef: tag 0x0a, length, then its name field 0x0a: make it
   * a fixed64 field (wire type 1) cut short by its own message. */
  g_assert_cmpuint (fx.bytes->data[at], ==, 0x0a);
  g_assert_cmpuint (fx.bytes->data[at + 2], ==, 0x0a);
  fx.bytes->data[at + 2] = 0x0f;
  graphs = decode (fx.bytes, &error);
  g_assert_no_error (error);
  serve = g_ptr_array_index (graphs, 0);
  g_assert_cmpuint (graph_query_by_proto_name (serve, "mm"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_proto_name (serve, "x"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_proto_name (serve, "call"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_proto_name (serve, "fn/cast"), !=, SL_GRAPH_NONE);
  problems = sl_graph_get_problems (serve);
  g_assert_cmpuint (problems->len, >=, 1);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, (gint64) at + 2);
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (problems, 0)), ==, "saved_model.pb");
  g_byte_array_unref (fx.bytes);
}

static void
test_saved_model_sniff (void)
{
  SavedModelFixture fx = saved_model ();
  g_autoptr(GByteArray) onnx = g_byte_array_new ();
  g_autoptr(GByteArray) graph_def = g_byte_array_new ();

  g_assert_true (sl_saved_model_sniff (fx.bytes->data, fx.bytes->len));
  /* ONNX: ir_version 1, producer_name 2, graph 7 */
  fx_uint (onnx, 1, 1);
  fx_string (onnx, 2, "pytorch");
  fx_string (onnx, 7, "");
  g_assert_false (sl_saved_model_sniff (onnx->data, onnx->len));
  g_assert_true (sl_onnx_sniff (onnx->data, onnx->len));
  g_assert_false (sl_onnx_sniff (fx.bytes->data, fx.bytes->len));
  node_def (graph_def, 1, "x", "Placeholder", NULL, NULL);
  g_assert_false (sl_saved_model_sniff (graph_def->data, graph_def->len));
  /* MindSpore ModelProto { ir_version 1, domain "" , graph 4 } */
  g_assert_false (sl_saved_model_sniff ((const guint8 *) "\x08\x01\x12\x00\x22\x00", 6));
  g_assert_false (sl_saved_model_sniff ((const guint8 *) "\x08\x01\x12\x09mindspore", 12));
  g_assert_false (sl_saved_model_sniff (NULL, 0));
  g_assert_false (sl_saved_model_sniff ((const guint8 *) "\x08", 1));
  g_byte_array_unref (fx.bytes);
}

/* No node in any meta-graph, or no meta-graph: an error naming the file. */
static void
test_saved_model_empty (void)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GByteArray) meta = g_byte_array_new ();
  g_autoptr(GByteArray) info = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = NULL;

  fx_string (info, 4, "serve");
  fx_message (meta, 1, info);
  fx_uint (bytes, 1, 1);
  fx_message (bytes, 2, meta);
  graphs = decode (bytes, &error);
  g_assert_null (graphs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "saved_model.pb"));
  g_clear_error (&error);

  g_byte_array_set_size (bytes, 0);
  fx_uint (bytes, 1, 1);
  graphs = decode (bytes, &error);
  g_assert_null (graphs);
  g_assert_nonnull (strstr (error->message, "saved_model.pb"));
}

/* The loader: the file, its folder (fingerprint.pb is not a graph), and
 * a saved_model.pb whose bytes were a MindSpore graph's name. */
static void
test_saved_model_load (void)
{
  SavedModelFixture fx = saved_model ();
  g_autofree char *folder = g_dir_make_tmp ("sl-saved-model-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "saved_model.pb", NULL);
  g_autofree char *fingerprint = g_build_filename (folder, "fingerprint.pb", NULL);
  g_autoptr(GByteArray) fp = g_byte_array_new ();
  const char * const targets[] = { path, folder };

  fx_uint (fp, 1, 12345);
  fx_uint (fp, 2, 678);
  g_assert_true (g_file_set_contents (path, (const char *) fx.bytes->data, fx.bytes->len, NULL));
  g_assert_true (g_file_set_contents (fingerprint, (const char *) fp->data, fp->len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) graphs = sl_graph_reader_load (targets[i], NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (graphs->len, ==, 2);
      g_assert_cmpstr (sl_graph_get_name (g_ptr_array_index (graphs, 0)), ==, "serve");
    }
  g_unlink (fingerprint);
  g_unlink (path);
  g_rmdir (folder);
  g_byte_array_unref (fx.bytes);
}

/* A library of 100 functions: each in its scope, the details name the
 * first 64 of them and say there are more. */
static void
test_saved_model_many_functions (void)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GByteArray) meta = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(GByteArray) library = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = NULL;
  const char *functions;
  SlGraph *only;

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GByteArray) function = g_byte_array_new ();
      g_autoptr(GByteArray) signature = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("f%u", i);

      fx_string (signature, 1, name);
      fx_message (function, 1, signature);
      node_def (function, 3, "n", "Op", NULL, NULL);
      fx_message (library, 1, function);
    }
  fx_message (graph, 2, library);
  fx_message (meta, 2, graph);
  fx_uint (bytes, 1, 1);
  fx_message (bytes, 2, meta);
  graphs = decode (bytes, &error);
  g_assert_no_error (error);
  only = g_ptr_array_index (graphs, 0);
  g_assert_cmpstr (sl_graph_get_name (only), ==, "meta-graph 1");
  g_assert_cmpuint (sl_graph_get_n_ops (only), ==, 100);
  g_assert_cmpuint (graph_query_by_proto_name (only, "f99/n"), !=, SL_GRAPH_NONE);
  functions = graph_query_metadata (only, "functions");
  g_assert_true (g_str_has_prefix (functions, "f0, f1, f2, "));
  g_assert_true (g_str_has_suffix (functions, ", f63, …"));
}

/* GraphDef text */

static const char pbtxt[] =
  "# a graph\n"
  "node {\n"
  "  name: \"x\"\n"
  "  op: \"Placeholder\"\n"
  "  attr { key: \"dtype\" value { type: DT_FLOAT } }\n"
  "  attr { key: \"shape\" value { shape { dim { size: -1 } dim { size: 3 } } } }\n"
  "}\n"
  "node {\n"
  "  name: \"net/w\" op: 'Const'\n"
  "  attr { key: \"value\" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } }\n"
  "    float_val: [1.5, -2e1] } } }\n"
  "}\n"
  "node <\n"
  "  name: \"net/mm\" op: \"MatMul\" input: \"x:0\" input: \"net/w\"\n"
  "  device: \"/device:CPU:0\"\n"
  "  attr { key: \"transpose_a\" value { b: true } }\n"
  "  attr { key: \"_class\" value { list { s: [\"loc:@x\", \"t\\\\ab\\x41\\101\"] i: [1, 2] } } }\n"
  "  unknown_field { deep { deeper: 1 } }\n"
  ">\n"
  "node { name: \"net/out\" op: \"Identity\" input: \"net/mm\" input: \"^x\" input: \"^net/w\" }\n"
  "versions { producer: 1087 min_consumer: 12 }\n";

static SlGraph *
decode_text (const char  *text,
             gsize        len,
             GError     **error)
{
  return sl_graph_def_text_decode ((const guint8 *) text, len, "graph.pbtxt", error);
}

static void
test_pbtxt_mapping (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = decode_text (pbtxt, strlen (pbtxt), &error);
  guint mm;

  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 3);
  g_assert_cmpuint (sl_graph_get_n_consts (graph), ==, 1);
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), >=, 2);
  check_input (graph, "net/mm", 0, "x", SL_GRAPH_EDGE_DATA);
  check_input (graph, "net/out", 0, "net/mm", SL_GRAPH_EDGE_DATA);
  check_input (graph, "net/out", 1, "x", SL_GRAPH_EDGE_CONTROL);
  mm = graph_query_by_proto_name (graph, "net/mm");
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, mm), ==, "MatMul");
  g_assert_cmpstr (graph_query_attribute (graph, mm, "device"), ==, "/device:CPU:0");
  g_assert_cmpstr (graph_query_attribute (graph, mm, "transpose_a"), ==, "true");
  g_assert_cmpstr (graph_query_attribute (graph, mm, "_class"), ==, "[\"loc:@x\", \"t\\\\abAA\", 1, 2]");
  g_assert_cmpstr (graph_query_attribute (graph, graph_query_by_proto_name (graph, "x"), "dtype"), ==, "float32");
  g_assert_cmpstr (graph_query_attribute (graph, graph_query_by_proto_name (graph, "x"), "shape"), ==, "[?,3]");
  g_assert_cmpstr (graph_query_metadata (graph, "format"), ==, "TensorFlow GraphDef (text)");
}

/* Cut at every byte: the nodes whose closing bracket came before stay;
 * a cut inside a node is a problem at or before the cut. */
static void
test_pbtxt_cut (void)
{
  gsize len = strlen (pbtxt);
  static const char * const names[] = { "x", "net/w", "net/mm", "net/out" };
  gsize ends[G_N_ELEMENTS (names)];
  const char *from = pbtxt;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *end = strstr (from, i == 2 ? "\n>\n" : i == 3 ? "^net/w\" }" : "\n}\n");

      g_assert_nonnull (end);
      ends[i] = end - pbtxt + (i == 3 ? 9 : 2);
      from = pbtxt + ends[i];
    }
  for (gsize cut = 0; cut <= len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = decode_text (pbtxt, cut, &error);
      guint whole = 0;

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (cut >= ends[i])
          whole++;
      if (graph == NULL)
        {
          g_assert_cmpuint (whole, ==, 0);
          g_assert_nonnull (strstr (error->message, "graph.pbtxt"));
          continue;
        }
      for (guint i = 0; i < whole; i++)
        g_assert_cmpuint (graph_query_by_proto_name (graph, names[i]), !=, SL_GRAPH_NONE);
      for (guint i = whole; i < G_N_ELEMENTS (names); i++)
        g_assert_cmpuint (graph_query_by_proto_name (graph, names[i]), ==, SL_GRAPH_NONE);
      for (guint i = 0; i < sl_graph_get_problems (graph)->len; i++)
        g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_graph_get_problems (graph), i)), <=,
                         (gint64) cut);
    }
}

/* Malformed text: a problem or an error at the byte, never a crash. */
static void
test_pbtxt_bad (void)
{
  static const struct { const char *text; gsize at; } cases[] = {
    { "node { name: \"x\n\" }", 13 },              /* string broken by a newline */
    { "node { name: \"x\\q\" }", 15 },             /* unknown escape */
    { "node { name: \"x\" op: @ }", 21 },          /* stray character */
    { "node { name: \"x\" ]", 17 },                /* wrong bracket */
    { "node { attr { key: \"k\" value { type: DT_NOPE } } }", 37 },
    { "node { attr { key: \"k\" value { i: 12x } } }", 34 },
    { "node { name: \"x\" op: \"A\" } node { name: ", 40 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = decode_text (cases[i].text, strlen (cases[i].text), &error);
      g_autofree char *at = g_strdup_printf ("byte %" G_GSIZE_FORMAT, cases[i].at);

      if (graph == NULL)
        {
          g_assert_nonnull (strstr (error->message, "graph.pbtxt"));
          g_assert_nonnull (strstr (error->message, at));
        }
      else
        {
          GPtrArray *problems = sl_graph_get_problems (graph);

          g_assert_cmpuint (problems->len, ==, 1);
          g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, (gint64) cases[i].at);
        }
    }
}

/* Nesting past the limit is damage, not a deep recursion. */
static void
test_pbtxt_nesting (void)
{
  g_autoptr(GString) text = g_string_new ("node { name: \"a\" op: \"A\" }\nnode { name: \"b\" x ");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "{ y ");
  graph = decode_text (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graph_query_by_proto_name (graph, "a"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (graph_query_by_proto_name (graph, "b"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 1);
}

static void
test_pbtxt_sniff_and_load (void)
{
  g_autofree char *folder = g_dir_make_tmp ("sl-pbtxt-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "graph.pbtxt", NULL);
  g_autofree char *empty = g_build_filename (folder, "empty.pbtxt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = NULL;

  g_assert_true (sl_graph_def_text_sniff ((const guint8 *) pbtxt, strlen (pbtxt)));
  g_assert_true (sl_graph_def_text_sniff ((const guint8 *) "\n  node{", 8));
  g_assert_false (sl_graph_def_text_sniff ((const guint8 *) "nodes {", 7));
  g_assert_false (sl_graph_def_text_sniff ((const guint8 *) "{\"node\": 1}", 11));

  g_assert_true (g_file_set_contents (path, pbtxt, -1, NULL));
  graphs = sl_graph_reader_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graphs->len, ==, 1);
  g_assert_cmpuint (sl_graph_get_n_ops (g_ptr_array_index (graphs, 0)), ==, 3);
  g_clear_pointer (&graphs, g_ptr_array_unref);

  /* Only comments: no node, an error naming the file. */
  g_assert_true (g_file_set_contents (empty, "# nothing\nversions { producer: 1 }\n", -1, NULL));
  graphs = sl_graph_reader_load (empty, NULL, &error);
  g_assert_null (graphs);
  g_assert_nonnull (strstr (error->message, "empty.pbtxt"));
  g_unlink (empty);
  g_unlink (path);
  g_rmdir (folder);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/saved-model/mapping", test_saved_model_mapping);
  g_test_add_func ("/saved-model/cut", test_saved_model_cut);
  g_test_add_func ("/saved-model/damaged-node", test_saved_model_damaged_node);
  g_test_add_func ("/saved-model/sniff", test_saved_model_sniff);
  g_test_add_func ("/saved-model/empty", test_saved_model_empty);
  g_test_add_func ("/saved-model/load", test_saved_model_load);
  g_test_add_func ("/saved-model/many-functions", test_saved_model_many_functions);
  g_test_add_func ("/pbtxt/mapping", test_pbtxt_mapping);
  g_test_add_func ("/pbtxt/cut", test_pbtxt_cut);
  g_test_add_func ("/pbtxt/bad", test_pbtxt_bad);
  g_test_add_func ("/pbtxt/nesting", test_pbtxt_nesting);
  g_test_add_func ("/pbtxt/sniff-and-load", test_pbtxt_sniff_and_load);
  return g_test_run ();
}
