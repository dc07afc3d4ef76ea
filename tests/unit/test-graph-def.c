/* test-graph-def.c: TensorFlow GraphDefs into the graph model
 *
 * A GraphDef written byte by byte, with scopes, data and control inputs,
 * output indices, attributes of every kind, a dangling input, a self-loop
 * and a cycle; every expected value is worked out by hand from it. The
 * same graph in a tfevents file (graph_def and meta_graph_def events),
 * cut at every byte, and a node damaged inside; the MindSpore fixtures
 * must not be taken for GraphDefs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "sl-graph-def-reader.h"
#include "sl-graph-reader.h"
#include "sl-record-writer.h"

#define N_NODES 12

static const char * const node_names[N_NODES] = {
  "input", "conv/weights", "conv/bias", "conv/Conv2D", "conv/BiasAdd", "conv/Relu", "loop/Merge",
  "loop/NextIteration", "self", "dangling", "conv", "unused",
};

/* Nodes, in order:
 *  0 input              Placeholder  dtype, shape, _output_shapes [?,28,28,1]
 *  1 conv/weights       Const        tensor float32[3,3]         → constant
 *  2 conv/bias          Const        tensor float32[] = 0.5      → constant
 *  3 conv/Conv2D        Conv2D       input, conv/weights; device and six attributes
 *  4 conv/BiasAdd       BiasAdd      conv/Conv2D:0, conv/bias
 *  5 conv/Relu          Relu         conv/BiasAdd, ^input
 *  6 loop/Merge         Merge        loop/NextIteration, conv/Relu:0
 *  7 loop/NextIteration NextIteration loop/Merge:1               (a cycle)
 *  8 self               Identity     self                        (a self-loop), every attribute kind
 *  9 dangling           Add          missing:2, conv/Relu
 * 10 conv               NoOp         ^conv/Relu                  (also a scope: "conv/(conv)")
 * 11 unused             Const        consumed by nothing         → an op
 * then library 2, version 3 and versions 4. */
static GBytes *
write_graph_def (GArray **starts_out,
                 GArray **ends_out)
{
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  static const gint64 image[] = { -1, 28, 28, 1 }, conv_out[] = { -1, 14, 14, 1 }, three[] = { 3, 3 };
  GByteArray *attrs, *tensor, *list, *shapes;

  attrs = g_byte_array_new ();
  tf_attr (attrs, "dtype", tf_value_uint (6, 1));
  tf_attr (attrs, "shape", tf_value_data (7, tf_shape (image, 4)));
  tf_attr (attrs, "_output_shapes", tf_output_shapes (image, 4));
  tf_node (graph, "input", "Placeholder", NULL, NULL, attrs, starts, ends);

  attrs = g_byte_array_new ();
  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 1);
  fx_message (tensor, 2, shapes = tf_shape (three, 2));
  g_byte_array_unref (shapes);
  tf_attr (attrs, "value", tf_value_data (8, tensor));
  tf_attr (attrs, "dtype", tf_value_uint (6, 1));
  tf_node (graph, "conv/weights", "Const", NULL, NULL, attrs, starts, ends);

  attrs = g_byte_array_new ();
  tensor = g_byte_array_new ();
  fx_uint (tensor, 1, 1);
  {
    float half = 0.5f;

    fx_data (tensor, 5, (const guint8 *) &half, 4);
  }
  tf_attr (attrs, "value", tf_value_data (8, tensor));
  tf_node (graph, "conv/bias", "Const", NULL, NULL, attrs, starts, ends);

  attrs = g_byte_array_new ();
  tf_attr (attrs, "T", tf_value_uint (6, 1));
  tf_attr (attrs, "data_format", tf_value_string ("NHWC"));
  list = g_byte_array_new ();
  fx_data (list, 3, (const guint8 *) "\x01\x01\x01\x01", 4);
  tf_attr (attrs, "dilations", tf_value_data (1, list));
  tf_attr (attrs, "padding", tf_value_string ("SAME"));
  list = g_byte_array_new ();
  fx_data (list, 3, (const guint8 *) "\x01\x02\x02\x01", 4);
  tf_attr (attrs, "strides", tf_value_data (1, list));
  tf_attr (attrs, "use_cudnn_on_gpu", tf_value_uint (5, 1));
  tf_attr (attrs, "_output_shapes", tf_output_shapes (conv_out, 4));
  tf_node (graph, "conv/Conv2D", "Conv2D", "/device:CPU:0",
           (const char *[]) { "input", "conv/weights", NULL }, attrs, starts, ends);

  attrs = g_byte_array_new ();
  tf_attr (attrs, "T", tf_value_uint (6, 1));
  tf_node (graph, "conv/BiasAdd", "BiasAdd", NULL, (const char *[]) { "conv/Conv2D:0", "conv/bias", NULL },
           attrs, starts, ends);
  tf_node (graph, "conv/Relu", "Relu", NULL, (const char *[]) { "conv/BiasAdd", "^input", NULL }, NULL, starts, ends);
  tf_node (graph, "loop/Merge", "Merge", NULL, (const char *[]) { "loop/NextIteration", "conv/Relu:0", NULL },
           NULL, starts, ends);
  tf_node (graph, "loop/NextIteration", "NextIteration", NULL, (const char *[]) { "loop/Merge:1", NULL },
           NULL, starts, ends);

  attrs = g_byte_array_new ();
  {
    float quarter = 0.25f;
    GByteArray *value = g_byte_array_new ();
    static const gint64 two_unknown[] = { 2, -1 }, one[] = { 1 }, two_three[] = { 2, 3 };
    static const float floats[] = { 0.5f, 1.5f };

    fx_tag (value, 4, 5);
    g_byte_array_append (value, (const guint8 *) &quarter, 4);
    tf_attr (attrs, "alpha", value);
    tf_attr (attrs, "axis", tf_value_uint (3, (guint64) (gint64) -3));
    tf_attr (attrs, "kshape", tf_value_data (7, tf_shape (two_unknown, 2)));
    shapes = g_byte_array_new ();
    fx_uint (shapes, 3, 1);
    tf_attr (attrs, "any_shape", tf_value_data (7, shapes));
    list = g_byte_array_new ();
    fx_data (list, 4, (const guint8 *) floats, sizeof floats);
    tf_attr (attrs, "floats", tf_value_data (1, list));
    list = g_byte_array_new ();
    fx_data (list, 6, (const guint8 *) "\x01\x09", 2);
    tf_attr (attrs, "types", tf_value_data (1, list));
    list = g_byte_array_new ();
    fx_data (list, 5, (const guint8 *) "\x01\x00", 2);
    tf_attr (attrs, "bools", tf_value_data (1, list));
    list = g_byte_array_new ();
    fx_string (list, 2, "a");
    fx_string (list, 2, "b");
    tf_attr (attrs, "strings", tf_value_data (1, list));
    list = g_byte_array_new ();
    fx_message (list, 7, shapes = tf_shape (one, 1));
    g_byte_array_unref (shapes);
    fx_message (list, 7, shapes = tf_shape (two_three, 2));
    g_byte_array_unref (shapes);
    tf_attr (attrs, "shapes", tf_value_data (1, list));
    value = g_byte_array_new ();
    fx_string (value, 9, "T");
    tf_attr (attrs, "ph", value);
    list = g_byte_array_new ();
    fx_string (list, 1, "my_fn");
    tf_attr (attrs, "fn", tf_value_data (10, list));
    tensor = g_byte_array_new ();
    fx_uint (tensor, 1, 3);
    fx_message (tensor, 2, shapes = tf_shape ((const gint64[]) { 2 }, 1));
    g_byte_array_unref (shapes);
    fx_data (tensor, 7, (const guint8 *) "\x07\x08", 2);
    tf_attr (attrs, "ints", tf_value_data (8, tensor));
    tf_attr (attrs, "ref", tf_value_uint (6, 101));
    tf_attr (attrs, "quote", tf_value_string ("a\"b\n"));
    tf_attr (attrs, "empty", g_byte_array_new ());
  }
  tf_node (graph, "self", "Identity", NULL, (const char *[]) { "self", NULL }, attrs, starts, ends);
  tf_node (graph, "dangling", "Add", NULL, (const char *[]) { "missing:2", "conv/Relu", NULL }, NULL, starts, ends);
  tf_node (graph, "conv", "NoOp", NULL, (const char *[]) { "^conv/Relu", NULL }, NULL, starts, ends);
  tf_node (graph, "unused", "Const", NULL, NULL, NULL, starts, ends);

  /* library { function { } }, version 21, versions { producer 1087 } */
  g_byte_array_append (graph, (const guint8 *) "\x12\x02\x0a\x00", 4);
  fx_uint (graph, 3, 21);
  g_byte_array_append (graph, (const guint8 *) "\x22\x03\x08\xbf\x08", 5);

  g_assert_cmpuint (starts->len, ==, N_NODES);
  *starts_out = starts;
  *ends_out = ends;
  return g_byte_array_free_to_bytes (g_steal_pointer (&graph));
}

static const char *
attribute (SlGraph    *graph,
           guint       element,
           const char *name)
{
  for (guint i = 0; i < sl_graph_element_get_n_attributes (graph, element); i++)
    {
      const char *value = NULL;

      if (g_strcmp0 (sl_graph_element_get_attribute (graph, element, i, &value), name) == 0)
        return value;
    }
  g_error ("no attribute %s on element %u", name, element);
  return NULL;
}

static guint
element (SlGraph    *graph,
         const char *proto_name)
{
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    if (g_strcmp0 (sl_graph_element_get_proto_name (graph, e), proto_name) == 0)
      return e;
  g_error ("no element %s", proto_name);
  return SL_GRAPH_NONE;
}

static void
check_output (SlGraph      *graph,
              guint         e,
              guint         index,
              int           dtype,
              const gint64 *want,
              guint         n_want)
{
  const gint64 *dims = NULL;
  guint n_dims = 0;

  g_assert_cmpint (sl_graph_element_get_output (graph, e, index, &dims, &n_dims), ==, dtype);
  g_assert_cmpuint (n_dims, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    g_assert_cmpint (dims[i], ==, want[i]);
}

/* What the graph of write_graph_def() must read as. */
static void
check_graph (SlGraph *graph)
{
  static const char * const op_names[] = { "input", "conv/Conv2D", "conv/BiasAdd", "conv/Relu", "loop/Merge",
                                            "loop/NextIteration", "self", "dangling", "conv", "unused" };
  static const char * const op_types[] = { "Placeholder", "Conv2D", "BiasAdd", "Relu", "Merge",
                                           "NextIteration", "Identity", "Add", "NoOp", "Const" };
  static const char * const scopes[] = { "", "conv", "conv", "conv", "loop", "loop", "", "", "conv", "" };
  static const gint64 image[] = { -1, 28, 28, 1 }, conv_out[] = { -1, 14, 14, 1 }, three[] = { 3, 3 };
  static const struct { const char *name, *value; } self_attrs[] = {
    { "alpha", "0.25" }, { "axis", "-3" }, { "kshape", "[2,?]" }, { "any_shape", "<unknown>" },
    { "floats", "[0.5, 1.5]" }, { "types", "[float32, int64]" }, { "bools", "[true, false]" },
    { "strings", "[\"a\", \"b\"]" }, { "shapes", "[[1], [2,3]]" }, { "ph", "$T" }, { "fn", "func \"my_fn\"" },
    { "ints", "tensor int32[2] = [7, 8]" }, { "ref", "float32_ref" }, { "quote", "\"a\\\"b\\n\"" }, { "empty", "" },
  };
  SlGraphEdgeKind kind;
  const char *name;
  guint e, conv2d;

  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 10);
  g_assert_cmpuint (sl_graph_get_n_parameters (graph), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_consts (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 10);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 1);
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 2);

  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    {
      g_autofree char *scope = sl_graph_element_dup_scope (graph, i);

      g_assert_cmpstr (sl_graph_element_get_proto_name (graph, i), ==, op_names[i]);
      g_assert_cmpstr (sl_graph_element_get_op_type (graph, i), ==, op_types[i]);
      g_assert_cmpstr (scope, ==, scopes[i]);
    }
  {
    g_autofree char *display = sl_graph_element_dup_name (graph, 8);
    g_autofree char *relu = sl_graph_element_dup_name (graph, 3);

    g_assert_cmpstr (display, ==, "conv/(conv)");
    g_assert_cmpstr (relu, ==, "conv/Relu");
    g_assert_cmpuint (sl_graph_lookup_op (graph, "conv/(conv)"), ==, 8);
  }
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, 10), ==, "conv/weights");
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, 11), ==, "conv/bias");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, 10), ==, SL_GRAPH_ELEMENT_CONST);

  /* Edges: output indices dropped, "^" a control edge. */
  conv2d = element (graph, "conv/Conv2D");
  g_assert_cmpuint (sl_graph_element_get_input (graph, 2, 0, &kind, &name), ==, conv2d);
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_DATA);
  g_assert_cmpstr (name, ==, "conv/Conv2D");
  g_assert_cmpuint (sl_graph_element_get_input (graph, 3, 1, &kind, NULL), ==, 0);
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_CONTROL);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 4, 0, NULL, NULL), ==, 5);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 5, 0, NULL, NULL), ==, 4);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 6, 0, NULL, NULL), ==, 6);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 7, 0, NULL, &name), ==, SL_GRAPH_NONE);
  g_assert_cmpstr (name, ==, "missing");
  g_assert_cmpuint (sl_graph_element_get_input (graph, 8, 0, &kind, NULL), ==, 3);
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_CONTROL);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 1, 1, NULL, NULL), ==, 10);

  /* Attributes as text, the device first. */
  g_assert_cmpuint (sl_graph_element_get_n_attributes (graph, conv2d), ==, 7);
  g_assert_cmpstr (sl_graph_element_get_attribute (graph, conv2d, 0, NULL), ==, "device");
  g_assert_cmpstr (attribute (graph, conv2d, "device"), ==, "/device:CPU:0");
  g_assert_cmpstr (attribute (graph, conv2d, "T"), ==, "float32");
  g_assert_cmpstr (attribute (graph, conv2d, "data_format"), ==, "\"NHWC\"");
  g_assert_cmpstr (attribute (graph, conv2d, "dilations"), ==, "[1, 1, 1, 1]");
  g_assert_cmpstr (attribute (graph, conv2d, "padding"), ==, "\"SAME\"");
  g_assert_cmpstr (attribute (graph, conv2d, "strides"), ==, "[1, 2, 2, 1]");
  g_assert_cmpstr (attribute (graph, conv2d, "use_cudnn_on_gpu"), ==, "true");
  g_assert_cmpstr (attribute (graph, 0, "dtype"), ==, "float32");
  g_assert_cmpstr (attribute (graph, 0, "shape"), ==, "[?,28,28,1]");
  g_assert_cmpstr (attribute (graph, 10, "value"), ==, "tensor float32[3,3]");
  g_assert_cmpstr (attribute (graph, 10, "dtype"), ==, "float32");
  g_assert_cmpstr (attribute (graph, 11, "value"), ==, "tensor float32[] = 0.5");
  e = element (graph, "self");
  g_assert_cmpuint (sl_graph_element_get_n_attributes (graph, e), ==, G_N_ELEMENTS (self_attrs));
  for (guint i = 0; i < G_N_ELEMENTS (self_attrs); i++)
    g_assert_cmpstr (attribute (graph, e, self_attrs[i].name), ==, self_attrs[i].value);

  /* Outputs: _output_shapes with T or dtype, else the constant's tensor. */
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, 0), ==, 1);
  check_output (graph, 0, 0, 11, image, 4);
  check_output (graph, conv2d, 0, 11, conv_out, 4);
  check_output (graph, 10, 0, 11, three, 2);
  check_output (graph, 11, 0, 11, NULL, 0);
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, 2), ==, 0);

  /* The hierarchy: constants inside their consumers, labelled by their
   * last segment; "conv" inside its own scope. */
  g_assert_cmpuint (sl_graph_item_get_kind (graph, sl_graph_find_item (graph, "conv/Conv2D/weights")), ==,
                    SL_GRAPH_ITEM_CONST);
  g_assert_cmpuint (sl_graph_find_item (graph, "conv/BiasAdd/bias"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_item_get_element (graph, sl_graph_find_item (graph, "conv/(conv)")), ==, 8);
  g_assert_cmpuint (sl_graph_item_get_kind (graph, sl_graph_find_item (graph, "unused")), ==, SL_GRAPH_ITEM_OP);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 1);  /* the dangling input */
  /* It names the file it was read from. */
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (sl_graph_get_problems (graph), 0)), !=, "");
}

static void
test_graph_def (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) bytes = write_graph_def (&starts, &ends);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;

  g_assert_true (sl_graph_def_sniff (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)));
  graph = sl_graph_reader_decode (bytes, "graph.pb", &error);
  g_assert_no_error (error);
  check_graph (graph);
}

/* Event { wall_time 1, graph_def 4 } or { wall_time 1, meta_graph_def 9 {
 * meta_info_def 1, graph_def 2 } } after { wall_time, file_version 3 }. */
static char *
write_tfevents (const char *folder,
                GBytes     *graph,
                gboolean    meta)
{
  g_autofree char *path = g_build_filename (folder, "events.out.tfevents.1700000000.host", NULL);
  g_autoptr(GByteArray) first = g_byte_array_new ();
  g_autoptr(GByteArray) event = g_byte_array_new ();
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_autoptr(GBytes) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  double wall_time = 1700000000.0;

  fx_tag (first, 1, 1);
  g_byte_array_append (first, (const guint8 *) &wall_time, 8);
  fx_string (first, 3, "brain.Event:2");
  fx_tag (event, 1, 1);
  g_byte_array_append (event, (const guint8 *) &wall_time, 8);
  if (meta)
    {
      g_autoptr(GByteArray) meta_graph = g_byte_array_new ();

      fx_data (meta_graph, 1, (const guint8 *) "\x0a\x02v1", 4);
      fx_data (meta_graph, 2, g_bytes_get_data (graph, NULL), g_bytes_get_size (graph));
      fx_message (event, 9, meta_graph);
    }
  else
    fx_data (event, 4, g_bytes_get_data (graph, NULL), g_bytes_get_size (graph));
  a = sl_record_frame (first->data, first->len);
  b = sl_record_frame (event->data, event->len);
  g_byte_array_append (file, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (file, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  g_file_set_contents (path, (const char *) file->data, file->len, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
test_tfevents (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) bytes = write_graph_def (&starts, &ends);

  for (int meta = 0; meta < 2; meta++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *folder = g_dir_make_tmp ("test-graph-def-XXXXXX", &error);
      g_autofree char *path = write_tfevents (folder, bytes, meta);
      g_autoptr(GPtrArray) from_file = NULL, from_folder = NULL;

      from_file = sl_graph_reader_load (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (from_file->len, ==, 1);
      check_graph (g_ptr_array_index (from_file, 0));
      from_folder = sl_graph_reader_load (folder, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (from_folder->len, ==, 1);
      check_graph (g_ptr_array_index (from_folder, 0));
      g_unlink (path);
      g_rmdir (folder);
    }
}

/* Cut at every byte: the whole nodes before the cut stay, with a problem
 * at the start of the node the cut goes through. */
static void
test_truncated_everywhere (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) bytes = write_graph_def (&starts, &ends);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = sl_graph_def_decode (data, cut, "cut.pb", &error);
      guint whole = 0;
      gssize cut_node = -1;
      GPtrArray *problems;
      gboolean found = FALSE;

      for (guint i = 0; i < N_NODES; i++)
        if (g_array_index (ends, gsize, i) <= cut)
          whole++;
        else if (cut_node < 0 && g_array_index (starts, gsize, i) < cut)
          cut_node = i;
      if (graph == NULL)
        {
          g_assert_nonnull (error);
          g_assert_cmpuint (whole, ==, 0);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (sl_graph_get_n_elements (graph), ==, whole);
      for (guint e = 0; e < whole; e++)
        {
          const char *name = sl_graph_element_get_proto_name (graph, e);
          gboolean in_prefix = FALSE;

          for (guint i = 0; i < whole; i++)
            in_prefix |= g_strcmp0 (name, node_names[i]) == 0;
          g_assert_true (in_prefix);
        }
      problems = sl_graph_get_problems (graph);
      if (cut_node < 0)
        continue;
      for (guint i = 0; i < problems->len; i++)
        found |= sl_problem_get_offset (g_ptr_array_index (problems, i)) == (gint64) g_array_index (starts, gsize, cut_node);
      g_assert_true (found);
    }
}

/* A node whose attribute runs past its entry is skipped; the others stay. */
static void
test_damaged_node (void)
{
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(GByteArray) broken = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) decoded = NULL;
  GPtrArray *problems;
  gsize entry;

  tf_node (graph, "a", "Relu", NULL, NULL, NULL, NULL, NULL);
  fx_string (broken, 1, "b");
  fx_string (broken, 2, "Relu");
  entry = graph->len + 2 + broken->len + 2;    /* the entry's first tag */
  fx_data (broken, 5, (const guint8 *) "\x0a\x09" "key", 5);
  fx_message (graph, 1, broken);
  tf_node (graph, "c", "Relu", NULL, (const char *[]) { "a", "b", NULL }, NULL, NULL, NULL);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&graph));

  decoded = sl_graph_reader_decode (bytes, "damaged.pb", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_n_ops (decoded), ==, 2);
  g_assert_cmpstr (sl_graph_element_get_proto_name (decoded, 1), ==, "c");
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (decoded), ==, 1);
  problems = sl_graph_get_problems (decoded);
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, (gint64) entry);
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (problems, 0)), ==, "damaged.pb");

  /* Junk with no whole node is an error. */
  g_clear_object (&decoded);
  decoded = sl_graph_def_decode ((const guint8 *) "\x0a\x05\x0a", 3, "junk.pb", &error);
  g_assert_null (decoded);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* MindSpore's graphs are never taken for GraphDefs. */
static void
test_sniff_mindspore (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) small = NULL, model = NULL, llm = NULL;
  const char *inputs[] = { "w" };
  guint n_ops = 0;

  g_free (graph_fixture_node (fx, "MatMul", "net", inputs, 1));
  g_free (graph_fixture_node (fx, "Add", "net", NULL, 0));
  graph_fixture_parameter (fx, "w");
  small = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  model = graph_fixture_wrap_model (small);
  llm = graph_fixture_llm (2, &n_ops);
  g_assert_false (sl_graph_def_sniff (g_bytes_get_data (small, NULL), g_bytes_get_size (small)));
  g_assert_false (sl_graph_def_sniff (g_bytes_get_data (model, NULL), g_bytes_get_size (model)));
  g_assert_false (sl_graph_def_sniff (g_bytes_get_data (llm, NULL), g_bytes_get_size (llm)));
  g_assert_false (sl_graph_def_sniff ((const guint8 *) "", 0));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-def/graph", test_graph_def);
  g_test_add_func ("/graph-def/tfevents", test_tfevents);
  g_test_add_func ("/graph-def/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/graph-def/damaged-node", test_damaged_node);
  g_test_add_func ("/graph-def/sniff-mindspore", test_sniff_mindspore);
  return g_test_run ();
}
