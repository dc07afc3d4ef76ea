/* test-proto-shape.c: graph .pb files told apart by their first fields
 *
 * Every message is encoded here, field by field, from the schemas in
 * FORMATS.md: MindSpore's anf_ir GraphProto and ModelProto, TensorFlow's
 * GraphDef and SavedModel, and the messages they must not be taken for:
 * a profiler's XSpace (xplane.pb), an ONNX ModelProto, text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-proto-shape.h"

typedef GByteArray Msg;

static Msg *
msg_new (void)
{
  return g_byte_array_new ();
}

static void
put_varint (Msg     *msg,
            guint64  value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (msg, &byte, 1);
    }
  while (value != 0);
}

static Msg *
varint (Msg     *msg,
        guint    field,
        guint64  value)
{
  put_varint (msg, (guint64)field << 3);
  put_varint (msg, value);
  return msg;
}

static Msg *
bytes (Msg        *msg,
       guint       field,
       const void *data,
       gsize       len)
{
  put_varint (msg, ((guint64)field << 3) | 2);
  put_varint (msg, len);
  g_byte_array_append (msg, data, len);
  return msg;
}

static Msg *
string (Msg        *msg,
        guint       field,
        const char *text)
{
  return bytes (msg, field, text, strlen (text));
}

/* Appends @sub as field @field and frees it */
static Msg *
message (Msg   *msg,
         guint  field,
         Msg   *sub)
{
  bytes (msg, field, sub->data, sub->len);
  g_byte_array_unref (sub);
  return msg;
}

/* MindSpore NodeProto { input { name, type }, name, op_type, scope, output_i } */
static Msg *
ms_node (const char *name,
         const char *op)
{
  Msg *node = msg_new ();

  message (node, 1, varint (string (msg_new (), 1, "x"), 2, 0));
  string (node, 2, name);
  string (node, 3, op);
  string (node, 4, "Default/network");
  message (node, 5, message (string (msg_new (), 1, "transpose_a"), 2, varint (msg_new (), 1, 1)));
  varint (node, 7, 0);
  string (node, 8, "Default/network/MatMul-op1");
  return node;
}

static Msg *
ms_graph (guint n_nodes)
{
  Msg *graph = msg_new ();

  for (guint i = 0; i < n_nodes; i++)
    message (graph, 1, ms_node ("1", "MatMul"));
  string (graph, 2, "lenet_graph");
  message (graph, 3, string (msg_new (), 1, "conv1.weight"));
  message (graph, 4, string (msg_new (), 1, "out"));
  return graph;
}

/* TensorFlow NodeDef { name, op, input, device, attr { key, value } } */
static Msg *
tf_node (const char *name,
         const char *op)
{
  Msg *node = msg_new ();

  string (node, 1, name);
  string (node, 2, op);
  string (node, 3, "^init");
  string (node, 4, "/job:localhost/replica:0/task:0/device:CPU:0");
  message (node, 5, message (string (msg_new (), 1, "T"), 2, varint (msg_new (), 6, 1)));
  return node;
}

static Msg *
tf_graph (guint n_nodes)
{
  Msg *graph = msg_new ();

  for (guint i = 0; i < n_nodes; i++)
    message (graph, 1, tf_node ("dense/MatMul", "MatMul"));
  message (graph, 2, message (msg_new (), 1, string (msg_new (), 1, "f")));
  message (graph, 4, varint (msg_new (), 1, 1087));
  return graph;
}

/* XSpace { planes { id, name, lines { id, name, events }, event_metadata }, hostnames } */
static Msg *
xspace (gboolean with_id,
        gboolean with_lines)
{
  Msg *space = msg_new ();
  Msg *plane = msg_new ();

  if (with_id)
    varint (plane, 1, 1);
  string (plane, 2, "/host:CPU");
  if (with_lines)
    {
      Msg *line = msg_new ();

      varint (line, 1, 12);
      string (line, 2, "python3");
      varint (line, 3, 1700000000000000000);
      message (line, 4, varint (varint (msg_new (), 1, 5), 2, 1000));
      message (plane, 3, line);
    }
  message (plane, 4, varint (message (msg_new (), 2, string (varint (msg_new (), 1, 5), 2, "jit_train_step")), 1, 5));
  message (plane, 5, varint (msg_new (), 1, 7));
  message (plane, 6, varint (varint (msg_new (), 1, 7), 3, 42));
  message (space, 1, plane);
  string (space, 4, "worker-0");
  return space;
}

#define IS(check, msg) check ((msg)->data, (msg)->len, TRUE)
#define IS_HEAD(check, msg, n) check ((msg)->data, MIN ((gsize)(n), (msg)->len), FALSE)

static void
test_mindspore (void)
{
  g_autoptr(GByteArray) graph = ms_graph (3);
  g_autoptr(GByteArray) model = message (string (varint (msg_new (), 1, 1), 2, "MindSpore"), 4, ms_graph (300));
  /* GraphProto { node { name: "a" } name: "lenet" } */
  static const guint8 small[] = { 0x0a, 0x03, 0x12, 0x01, 'a', 0x12, 0x05, 'l', 'e', 'n', 'e', 't' };

  g_assert_true (IS (sl_proto_shape_is_mindspore_graph, graph));
  g_assert_true (sl_proto_shape_is_mindspore_graph (small, sizeof small, TRUE));
  /* Nor is either taken for ONNX, listed first among the formats. */
  g_assert_false (IS (sl_proto_shape_is_onnx_model, graph));
  g_assert_false (IS (sl_proto_shape_is_onnx_model, model));
  g_assert_false (sl_proto_shape_is_onnx_model (small, sizeof small, TRUE));

  /* A field a later MindSpore adds to its nodes; not at the root */
  {
    g_autoptr(GByteArray) later = message (msg_new (), 1, varint (string (ms_node ("1", "Add"), 12, "x"), 13, 7));
    g_autoptr(GByteArray) root = varint (ms_graph (1), 9, 1);

    g_assert_true (IS (sl_proto_shape_is_mindspore_graph, later));
    g_assert_false (IS (sl_proto_shape_is_mindspore_graph, root));
  }
  g_assert_true (IS (sl_proto_shape_is_mindspore_model, model));
  g_assert_false (IS (sl_proto_shape_is_mindspore_graph, model));
  g_assert_false (IS (sl_proto_shape_is_graph_def, model));
  g_assert_false (IS (sl_proto_shape_is_saved_model, graph));

  /* The head of a large model, cut anywhere */
  g_assert_cmpuint (model->len, >, 8192);
  for (gsize n = 1; n < 600; n++)
    g_assert_true (IS_HEAD (sl_proto_shape_is_mindspore_model, model, n));
  g_assert_true (IS_HEAD (sl_proto_shape_is_mindspore_model, model, 8192));
  /* ...but the whole file may not end inside a field */
  g_assert_false (sl_proto_shape_is_mindspore_model (model->data, 8192, TRUE));
}

static void
test_tensorflow (void)
{
  g_autoptr(GByteArray) graph = tf_graph (2);
  g_autoptr(GByteArray) saved = NULL;
  g_autoptr(GByteArray) big = tf_graph (400);
  Msg *meta = msg_new ();

  message (meta, 1, string (string (string (msg_new (), 1, "v1"), 4, "serve"), 5, "2.15.0"));
  message (meta, 2, tf_graph (2));
  saved = message (varint (msg_new (), 1, 1), 2, meta);

  g_assert_true (IS (sl_proto_shape_is_graph_def, graph));
  g_assert_false (IS (sl_proto_shape_is_mindspore_graph, graph));
  g_assert_false (IS (sl_proto_shape_is_mindspore_model, graph));
  g_assert_true (IS (sl_proto_shape_is_saved_model, saved));
  g_assert_false (IS (sl_proto_shape_is_graph_def, saved));
  g_assert_false (IS (sl_proto_shape_is_mindspore_graph, saved));
  g_assert_cmpstr (sl_proto_shape_get_graph_format (saved->data, saved->len, TRUE), ==, "TensorFlow SavedModel");
  g_assert_true (IS_HEAD (sl_proto_shape_is_graph_def, big, 8192));
}

static void
test_xspace (void)
{
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(GByteArray) space = xspace (i & 1, i & 2);

      g_assert_false (IS (sl_proto_shape_is_mindspore_graph, space));
      g_assert_false (IS (sl_proto_shape_is_mindspore_model, space));
      g_assert_false (IS (sl_proto_shape_is_graph_def, space));
      g_assert_false (IS (sl_proto_shape_is_saved_model, space));
      /* Neither when only the head is seen */
      g_assert_false (IS_HEAD (sl_proto_shape_is_mindspore_graph, space, space->len - 3));
      g_assert_false (IS_HEAD (sl_proto_shape_is_graph_def, space, space->len - 3));
    }
}

static void
test_others (void)
{
  /* ONNX ModelProto { ir_version, producer_name, producer_version, graph (7) } */
  g_autoptr(GByteArray) onnx = message (string (string (varint (msg_new (), 1, 8), 2, "pytorch"), 3, "2.1.0"), 7,
                                        string (msg_new (), 2, "main_graph"));
  const char *text = "node {\n  name: \"a\"\n  op: \"Const\"\n}\n";
  static const guint8 group[] = { 0x0b, 0x0c };
  static const guint8 control[] = { 0x12, 0x03, 'a', 0x01, 'b' };

  g_assert_false (IS (sl_proto_shape_is_mindspore_model, onnx));
  g_assert_false (IS (sl_proto_shape_is_mindspore_graph, onnx));
  g_assert_false (IS (sl_proto_shape_is_graph_def, onnx));
  g_assert_false (IS (sl_proto_shape_is_saved_model, onnx));
  /* ONNX is read as a model of its own, whatever the file is named. */
  g_assert_true (IS (sl_proto_shape_is_onnx_model, onnx));
  g_assert_cmpstr (sl_proto_shape_get_graph_format (onnx->data, onnx->len, TRUE), ==, "ONNX");
  g_assert_true (IS_HEAD (sl_proto_shape_is_onnx_model, onnx, onnx->len - 3));
  g_assert_false (sl_proto_shape_is_onnx_model ((const guint8 *)text, strlen (text), TRUE));
  g_assert_false (sl_proto_shape_is_onnx_model (control, sizeof control, TRUE));
  g_assert_false (sl_proto_shape_is_onnx_model (NULL, 0, TRUE));

  g_assert_false (sl_proto_shape_is_graph_def ((const guint8 *)text, strlen (text), TRUE));
  g_assert_false (sl_proto_shape_is_mindspore_graph ((const guint8 *)text, strlen (text), TRUE));
  g_assert_false (sl_proto_shape_is_mindspore_graph (group, sizeof group, TRUE));
  g_assert_false (sl_proto_shape_is_mindspore_graph (control, sizeof control, TRUE));
  g_assert_false (sl_proto_shape_is_mindspore_graph (NULL, 0, TRUE));
  g_assert_false (sl_proto_shape_is_mindspore_graph ((const guint8 *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11, FALSE));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proto-shape/mindspore", test_mindspore);
  g_test_add_func ("/proto-shape/tensorflow", test_tensorflow);
  g_test_add_func ("/proto-shape/xspace", test_xspace);
  g_test_add_func ("/proto-shape/others", test_others);

  return g_test_run ();
}
