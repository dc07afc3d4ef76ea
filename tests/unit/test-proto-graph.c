/* test-proto-graph.c: what the ONNX, MindIR and AIR readers share
 *
 * Scopes of values (inner graphs see the values of the graphs around
 * them, the first definition wins), node paths and the scopes they go
 * in, how a node inside its own scope is shown, the scopes of subgraphs, NodeProto as either schema reads it, ValueInfoProto keeping the
 * last or the first type, and text cut on a character boundary; each
 * checked against values worked out by hand.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "graph-fixture.h"
#include "sl-graph.h"
#include "sl-proto-graph.h"

static SlProtoSlice
slice_of (GByteArray *bytes,
          gboolean    cut)
{
  return (SlProtoSlice) { bytes->data, bytes->len, 100, cut };
}

static void
test_scopes (void)
{
  SlProtoGraphScope outer = { NULL, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL };
  SlProtoGraphScope inner = { &outer, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL };

  sl_proto_graph_scope_define (&outer, "x", 0);
  sl_proto_graph_scope_define (&outer, "x", 7);    /* the first definition wins */
  sl_proto_graph_scope_define (&outer, "", 3);     /* an omitted value defines nothing */
  sl_proto_graph_scope_define (&inner, "y", 5);

  g_assert_cmpuint (sl_proto_graph_scope_resolve (&outer, "x"), ==, 0);
  g_assert_cmpuint (sl_proto_graph_scope_resolve (&inner, "x"), ==, 0);
  g_assert_cmpuint (sl_proto_graph_scope_resolve (&inner, "y"), ==, 5);
  g_assert_cmpuint (sl_proto_graph_scope_resolve (&outer, "y"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_proto_graph_scope_resolve (&outer, ""), ==, SL_GRAPH_NONE);

  /* An inner graph's own value hides the outer one of the same name. */
  sl_proto_graph_scope_define (&inner, "x", 9);
  g_assert_cmpuint (sl_proto_graph_scope_resolve (&inner, "x"), ==, 9);

  g_hash_table_unref (outer.values);
  g_hash_table_unref (inner.values);
}

static void
test_paths (void)
{
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *joined = sl_proto_graph_join_path ("If_0/then_branch", "//layer1//conv/");
  g_autofree char *top = sl_proto_graph_join_path ("", "/a/b");
  g_autofree char *named = sl_proto_graph_node_path ("", "/layer1/conv1/Conv", "Conv", 0);
  g_autofree char *unnamed = sl_proto_graph_node_path ("sub", "", "Relu", 4);
  g_autofree char *no_type = sl_proto_graph_node_path ("", "", "", 2);
  g_autofree char *slashes = sl_proto_graph_node_path ("sub", "///", "Add", 1);
  g_autofree char *scope_of_conv = NULL;
  g_autofree char *scope_of_layer = NULL;
  g_autofree char *scope_of_top = NULL;

  g_assert_cmpstr (joined, ==, "If_0/then_branch/layer1/conv");
  g_assert_cmpstr (top, ==, "a/b");
  g_assert_cmpstr (named, ==, "layer1/conv1/Conv");
  /* No name, or one that places the node nowhere below the prefix: named
   * as MindInsight names ops. */
  g_assert_cmpstr (unnamed, ==, "sub/Relu-op4");
  g_assert_cmpstr (no_type, ==, "Node-op2");
  g_assert_cmpstr (slashes, ==, "sub/Add-op1");

  sl_proto_graph_add_folders (folders, "a/b/c");
  sl_proto_graph_add_folders (folders, "a/b/d");
  sl_proto_graph_add_folders (folders, "e");
  g_assert_cmpuint (g_hash_table_size (folders), ==, 2);
  g_assert_true (g_hash_table_contains (folders, "a"));
  g_assert_true (g_hash_table_contains (folders, "a/b"));

  /* A node whose path is also a folder goes inside it. */
  scope_of_conv = sl_proto_graph_node_scope (folders, "a/b/c");
  scope_of_layer = sl_proto_graph_node_scope (folders, "a/b");
  scope_of_top = sl_proto_graph_node_scope (folders, "e");
  g_assert_cmpstr (scope_of_conv, ==, "a/b");
  g_assert_cmpstr (scope_of_layer, ==, "a/b");
  g_assert_cmpstr (scope_of_top, ==, "");
}

static GByteArray *
node_bytes (void)
{
  GByteArray *node = g_byte_array_new ();

  fx_string (node, 1, "x");
  fx_string (node, 1, "w");
  fx_string (node, 2, "y");
  fx_string (node, 3, "layer/conv");
  fx_string (node, 4, "Conv");
  fx_string (node, 5, "attr5");
  fx_string (node, 6, "documentation");
  fx_string (node, 7, "Default/layer/Conv-op0");
  fx_string (node, 8, "attr8");
  fx_string (node, 9, "attr9");
  fx_string (node, 10, "past the schema");
  return node;
}

/* A node inside its own scope, and the scopes of subgraphs. */
static void
test_display (void)
{
  struct { const char *path, *scope, *want; } displays[] = {
    { "a/b", "a", "a/b" },
    { "a/b", "a/b", "a/b/(b)" },
    { "top", "top", "top/(top)" },
    { "top", "", "top" },
  };
  struct { const char *label; guint index, count; const char *want; } subgraphs[] = {
    { "then_branch", 0, 1, "n/If/then_branch" },
    { "branches", 1, 2, "n/If/branches.1" },
    { "", 0, 1, "n/If/graph" },
    { "", 3, 4, "n/If/.3" },
    { "a/b", 0, 1, "n/If/a_b" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (displays); i++)
    {
      g_autofree char *shown = sl_proto_graph_node_display (displays[i].path, displays[i].scope);

      g_assert_cmpstr (shown, ==, displays[i].want);
    }
  for (guint i = 0; i < G_N_ELEMENTS (subgraphs); i++)
    {
      g_autofree char *path = sl_proto_graph_subgraph_path ("n/If", subgraphs[i].label, subgraphs[i].index,
                                                            subgraphs[i].count);

      g_assert_cmpstr (path, ==, subgraphs[i].want);
    }
}

static void
test_node (void)
{
  g_autoptr(GByteArray) bytes = node_bytes ();
  SlProtoSlice slice = slice_of (bytes, FALSE);
  SlProtoDamage damage = { 0 };
  SlProtoNode *onnx = sl_proto_node_parse (&slice, SL_PROTO_GRAPH_ONNX, &damage);
  SlProtoNode *mindir;

  g_assert_null (damage.reason);
  g_assert_nonnull (onnx);
  g_assert_cmpstr (onnx->name, ==, "layer/conv");
  g_assert_cmpstr (onnx->op_type, ==, "Conv");
  g_assert_cmpstr (onnx->domain, ==, "Default/layer/Conv-op0");
  g_assert_cmpuint (onnx->inputs->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (onnx->inputs, 1), ==, "w");
  g_assert_cmpuint (onnx->outputs->len, ==, 1);
  g_assert_cmpuint (onnx->at, ==, 100);
  /* ONNX has one attribute field; MindIR adds node_attr and primal_attr. */
  g_assert_cmpuint (onnx->attrs->len, ==, 1);

  mindir = sl_proto_node_parse (&slice, SL_PROTO_GRAPH_MINDIR, &damage);
  g_assert_null (damage.reason);
  g_assert_nonnull (mindir);
  g_assert_cmpuint (mindir->attrs->len, ==, 3);
  g_assert_cmpmem (g_array_index (mindir->attrs, SlProtoSlice, 2).data, 5, "attr9", 5);

  sl_proto_node_free (onnx);
  sl_proto_node_free (mindir);
}

static void
test_node_cut (void)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GByteArray) before_type = g_byte_array_new ();
  SlProtoDamage damage = { 0 };
  SlProtoSlice slice;
  SlProtoNode *onnx, *mindir;

  /* An attribute (a subgraph) cut by the end of the input. */
  fx_string (bytes, 4, "If");
  fx_string (bytes, 5, "then_branch");
  slice = slice_of (bytes, TRUE);
  slice.len -= 3;

  onnx = sl_proto_node_parse (&slice, SL_PROTO_GRAPH_ONNX, &damage);
  g_assert_null (damage.reason);
  g_assert_nonnull (onnx);
  /* ONNX reads a cut attribute as far as it goes, MindIR drops it. */
  g_assert_cmpuint (onnx->attrs->len, ==, 1);
  g_assert_true (g_array_index (onnx->attrs, SlProtoSlice, 0).cut);
  mindir = sl_proto_node_parse (&slice, SL_PROTO_GRAPH_MINDIR, &damage);
  g_assert_nonnull (mindir);
  g_assert_cmpuint (mindir->attrs->len, ==, 0);
  sl_proto_node_free (onnx);
  sl_proto_node_free (mindir);

  /* A node cut before its op type says too little to show. */
  fx_string (before_type, 3, "named");
  fx_string (before_type, 4, "Conv");
  slice = slice_of (before_type, TRUE);
  slice.len -= 2;
  g_assert_null (sl_proto_node_parse (&slice, SL_PROTO_GRAPH_ONNX, &damage));
  g_assert_null (damage.reason);

  /* A name that is not length-delimited is damage, at its tag. */
  g_byte_array_set_size (before_type, 0);
  fx_uint (before_type, 3, 1);
  slice = slice_of (before_type, FALSE);
  g_assert_null (sl_proto_node_parse (&slice, SL_PROTO_GRAPH_MINDIR, &damage));
  g_assert_nonnull (damage.reason);
  g_assert_cmpuint (damage.offset, ==, 100);
}

static void
test_value_info (void)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  SlProtoDamage damage = { 0 };
  SlProtoSlice slice;
  SlProtoValueInfo *last, *first, *empty;

  fx_string (bytes, 1, "input");
  fx_string (bytes, 2, "");
  fx_string (bytes, 2, "first");
  fx_string (bytes, 2, "second");
  slice = slice_of (bytes, FALSE);

  last = sl_proto_value_info_parse (&slice, FALSE, &damage);
  first = sl_proto_value_info_parse (&slice, TRUE, &damage);
  g_assert_null (damage.reason);
  g_assert_cmpstr (last->name, ==, "input");
  g_assert_cmpmem (last->type.data, last->type.len, "second", 6);
  /* The first type that is not empty. */
  g_assert_cmpmem (first->type.data, first->type.len, "first", 5);
  g_assert_cmpuint (first->at, ==, 100);

  g_byte_array_set_size (bytes, 0);
  slice = slice_of (bytes, FALSE);
  empty = sl_proto_value_info_parse (&slice, TRUE, &damage);
  g_assert_cmpstr (empty->name, ==, "");
  g_assert_cmpuint (empty->type.len, ==, 0);
  g_assert_cmpuint (empty->type.base, ==, 100);

  fx_uint (bytes, 1, 5);
  slice = slice_of (bytes, FALSE);
  g_assert_null (sl_proto_value_info_parse (&slice, FALSE, &damage));
  g_assert_nonnull (damage.reason);

  sl_proto_value_info_free (last);
  sl_proto_value_info_free (first);
  sl_proto_value_info_free (empty);
}

static void
test_shown (void)
{
  /* "aé€" is 1 + 2 + 3 bytes. */
  static const char text[] = "a\xc3\xa9\xe2\x82\xac";
  SlProtoSlice bytes = { (const guint8 *) text, 6, 0, FALSE };

  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 64).len, ==, 6);
  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 6).len, ==, 6);
  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 5).len, ==, 3);
  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 4).len, ==, 3);
  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 2).len, ==, 1);
  g_assert_cmpuint (sl_proto_graph_shown (&bytes, 0).len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proto-graph/scopes", test_scopes);
  g_test_add_func ("/proto-graph/paths", test_paths);
  g_test_add_func ("/proto-graph/display", test_display);
  g_test_add_func ("/proto-graph/node", test_node);
  g_test_add_func ("/proto-graph/node-cut", test_node_cut);
  g_test_add_func ("/proto-graph/value-info", test_value_info);
  g_test_add_func ("/proto-graph/shown", test_shown);

  return g_test_run ();
}
