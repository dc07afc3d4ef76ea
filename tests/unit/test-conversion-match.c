/* test-conversion-match.c: a converted model's ops against its source's
 *
 * Graphs built in memory as ATC leaves them: a source with a convolution,
 * its batch norm and ReLU, an Identity and a folded constant chain; a
 * converted graph where the three are fused (GE's original-op-names
 * attribute), a TransData, a Cast and an AIPP op are inserted, one op is
 * kept by name and one by name with a multi-batch suffix. Then the
 * attribute's text forms, hostile graphs (duplicate names, a cycle, a
 * graph of 200,000 ops, attributes that name nothing or are garbage),
 * GraphDef text files, and an OM file as ATC writes one, read through
 * the graph reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "ge-fixture.h"
#include "sl-conversion-match.h"
#include "sl-conversion-pair.h"
#include "sl-graph-builder.h"

static void
add_op (SlGraphBuilder *builder,
        const char     *name,
        const char     *type,
        const char     *input,
        const char     *original_names)
{
  sl_graph_builder_begin_op (builder, name, type, NULL, name, NULL, NULL);
  if (input != NULL)
    sl_graph_builder_add_input (builder, input, SL_GRAPH_EDGE_DATA);
  if (original_names != NULL)
    sl_graph_builder_add_attribute (builder, "_datadump_original_op_names", original_names);
}

static GPtrArray *
one_graph (SlGraph *graph)
{
  GPtrArray *graphs = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (graphs, graph);
  return graphs;
}

static GPtrArray *
source_graphs (void)
{
  g_autoptr(SlGraphBuilder) builder = sl_graph_builder_new ();

  sl_graph_builder_set_name (builder, "source", NULL);
  add_op (builder, "conv1", "Conv", "x", NULL);
  add_op (builder, "bn1", "BatchNormalization", "conv1", NULL);
  add_op (builder, "relu1", "Relu", "bn1", NULL);
  add_op (builder, "id1", "Identity", "relu1", NULL);
  add_op (builder, "shape_const", "Constant", NULL, NULL);
  add_op (builder, "reshape", "Reshape", "id1", NULL);
  add_op (builder, "fc", "MatMul", "reshape", NULL);
  add_op (builder, "softmax", "Softmax", "fc", NULL);
  sl_graph_builder_begin_parameter (builder, "fc.weight");
  sl_graph_builder_begin_graph_input (builder, "x", NULL);
  return one_graph (sl_graph_builder_finish (builder));
}

static GPtrArray *
converted_graphs (void)
{
  g_autoptr(SlGraphBuilder) builder = sl_graph_builder_new ();

  sl_graph_builder_set_name (builder, "converted", NULL);
  add_op (builder, "x", "Data", NULL, NULL);                                             /* 0: a graph input */
  add_op (builder, "x_0_aipp", "Aipp", "x", NULL);                                       /* 1 */
  add_op (builder, "trans_TransData_0", "TransData", "x_0_aipp", NULL);                  /* 2 */
  add_op (builder, "conv1bn1relu1", "Conv2D", "trans_TransData_0",
          "[\"conv1\", \"bn1\", \"relu1\"]");                                            /* 3: fused */
  add_op (builder, "reshape", "Reshape", "conv1bn1relu1", "[\"reshape\"]");              /* 4: kept by attribute */
  add_op (builder, "trans_Cast_1", "Cast", "reshape", NULL);                             /* 5 */
  add_op (builder, "fc_ascend_mbatch_batch_0", "MatMulV2", "trans_Cast_1", NULL);        /* 6: kept, stripped */
  add_op (builder, "fc.weight", "Const", NULL, "[]");                                    /* 7: a weight, empty list */
  add_op (builder, "softmax", "SoftmaxV2", "fc_ascend_mbatch_batch_0", NULL);            /* 8: kept by name */
  add_op (builder, "Node_Output", "NetOutput", "softmax", NULL);                         /* 9: no source */
  return one_graph (sl_graph_builder_finish (builder));
}

static void
assert_op (SlConversionMatch    *match,
           guint                 op,
           const char           *name,
           SlConversionStatus    status,
           SlConversionEvidence  evidence,
           const char           *sources)
{
  g_autofree char *joined = sl_conversion_match_dup_op_sources (match, op);

  g_assert_cmpstr (sl_conversion_match_get_op_name (match, op), ==, name);
  g_assert_cmpstr (sl_conversion_status_to_string (sl_conversion_match_get_op_status (match, op)), ==,
                   sl_conversion_status_to_string (status));
  g_assert_cmpint (sl_conversion_match_get_op_evidence (match, op), ==, evidence);
  g_assert_cmpstr (joined, ==, sources);
}

static void
test_atc_graph (void)
{
  g_autoptr(GPtrArray) source = source_graphs ();
  g_autoptr(GPtrArray) converted = converted_graphs ();
  g_autoptr(SlConversionMatch) match = sl_conversion_match_new (source, converted);
  gboolean found = FALSE;

  g_assert_cmpuint (sl_conversion_match_get_n_ops (match), ==, 10);
  assert_op (match, 0, "x", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "x");
  assert_op (match, 1, "x_0_aipp", SL_CONVERSION_INSERTED, SL_CONVERSION_UNMATCHED, "");
  assert_op (match, 2, "trans_TransData_0", SL_CONVERSION_INSERTED, SL_CONVERSION_UNMATCHED, "");
  assert_op (match, 3, "conv1bn1relu1", SL_CONVERSION_FUSED, SL_CONVERSION_BY_ATTRIBUTE, "conv1, bn1, relu1");
  assert_op (match, 4, "reshape", SL_CONVERSION_KEPT, SL_CONVERSION_BY_ATTRIBUTE, "reshape");
  assert_op (match, 5, "trans_Cast_1", SL_CONVERSION_INSERTED, SL_CONVERSION_UNMATCHED, "");
  assert_op (match, 6, "fc_ascend_mbatch_batch_0", SL_CONVERSION_KEPT, SL_CONVERSION_BY_STRIPPED_NAME, "fc");
  assert_op (match, 7, "fc.weight", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "fc.weight");
  assert_op (match, 8, "softmax", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "softmax");
  assert_op (match, 9, "Node_Output", SL_CONVERSION_INSERTED, SL_CONVERSION_UNMATCHED, "");
  g_assert_cmpstr (sl_conversion_match_get_op_type (match, 3), ==, "Conv2D");
  g_assert_cmpstr (sl_conversion_match_get_op_source (match, 3, 1, &found), ==, "bn1");
  g_assert_true (found);

  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_KEPT), ==, 5);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_FUSED), ==, 1);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_INSERTED), ==, 4);
  /* The Identity and the folded constant are gone; weights and inputs are no ops. */
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 2);
  g_assert_cmpstr (sl_conversion_match_get_removed_name (match, 0), ==, "id1");
  g_assert_cmpstr (sl_conversion_match_get_removed_type (match, 0), ==, "Identity");
  g_assert_cmpstr (sl_conversion_match_get_removed_name (match, 1), ==, "shape_const");
}

/* A Cast the source had itself is kept; one named by the attribute but
 * absent from the source is shown by that name, not found. */
static void
test_source_casts_and_unknown_names (void)
{
  g_autoptr(SlGraphBuilder) sb = sl_graph_builder_new ();
  g_autoptr(SlGraphBuilder) cb = sl_graph_builder_new ();
  g_autoptr(GPtrArray) source = NULL;
  g_autoptr(GPtrArray) converted = NULL;
  g_autoptr(SlConversionMatch) match = NULL;
  gboolean found = TRUE;

  add_op (sb, "Cast_3", "Cast", NULL, NULL);
  add_op (sb, "add", "Add", "Cast_3", NULL);
  source = one_graph (sl_graph_builder_finish (sb));
  add_op (cb, "Cast_3", "Cast", NULL, NULL);
  add_op (cb, "addmul", "Add", "Cast_3", "[\"add\", \"mul_gone\"]");
  converted = one_graph (sl_graph_builder_finish (cb));
  match = sl_conversion_match_new (source, converted);

  assert_op (match, 0, "Cast_3", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "Cast_3");
  assert_op (match, 1, "addmul", SL_CONVERSION_FUSED, SL_CONVERSION_BY_ATTRIBUTE, "add, mul_gone");
  g_assert_cmpstr (sl_conversion_match_get_op_source (match, 1, 1, &found), ==, "mul_gone");
  g_assert_false (found);
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 0);
}

static void
assert_names (const char *text,
              const char *joined)
{
  g_autoptr(GPtrArray) names = sl_conversion_parse_names (text);
  g_autofree char *got = NULL;

  g_ptr_array_add (names, NULL);
  got = g_strjoinv ("|", (char **) names->pdata);
  g_assert_cmpstr (got, ==, joined);
}

static void
test_attribute_text (void)
{
  assert_names ("[\"a\", \"b/c\"]", "a|b/c");
  assert_names ("[a, b]", "a|b");
  assert_names ("\"solo\"", "solo");
  assert_names ("solo", "solo");
  assert_names ("[]", "");
  assert_names ("", "");
  assert_names (NULL, "");
  assert_names ("[\"a\\\"q\", \"tab\\there\"]", "a\"q|tab\there");
  /* A shortened list: the names shown, not the ellipsis. */
  assert_names ("[\"a\", \"b\", …]", "a|b");
  /* Garbage: no crash, only what looks like names. */
  assert_names ("[\"unterminated", "unterminated");
  assert_names ("[[[,,,]]]", "[[");
  assert_names ("[\"x\" junk, \"y\"]", "x|y");
  assert_names ("\\", "\\");
}

static void
test_strip (void)
{
  g_autofree char *batch = sl_conversion_strip_name ("conv_ascend_mbatch_batch_12");
  g_autofree char *both = sl_conversion_strip_name ("fc_lxslice3_ascend_mbatch_batch_0");
  g_autofree char *none = sl_conversion_strip_name ("conv_1");
  g_autofree char *bare = sl_conversion_strip_name ("_ascend_mbatch_batch_1");
  g_autofree char *no_digits = sl_conversion_strip_name ("conv_ascend_mbatch_batch_");

  g_assert_cmpstr (batch, ==, "conv");
  g_assert_cmpstr (both, ==, "fc");
  g_assert_null (none);
  g_assert_null (bare);
  g_assert_null (no_digits);
  g_assert_true (sl_conversion_is_inserted_type ("TransData"));
  g_assert_true (sl_conversion_is_inserted_type ("Aipp"));
  g_assert_false (sl_conversion_is_inserted_type ("Conv2D"));
  g_assert_false (sl_conversion_is_inserted_type (NULL));
}

/* Duplicate names on both sides, a cycle, and attributes naming an op
 * many times: each converted op once, every op of a duplicated name used. */
static void
test_hostile (void)
{
  g_autoptr(SlGraphBuilder) sb = sl_graph_builder_new ();
  g_autoptr(SlGraphBuilder) cb = sl_graph_builder_new ();
  g_autoptr(GPtrArray) source = NULL;
  g_autoptr(GPtrArray) converted = NULL;
  g_autoptr(SlConversionMatch) match = NULL;

  add_op (sb, "a", "Add", "b", NULL);
  add_op (sb, "b", "Mul", "a", NULL);   /* a cycle */
  add_op (sb, "a", "Sub", "b", NULL);   /* a second "a" */
  add_op (sb, "", "Relu", NULL, NULL);  /* no name */
  source = one_graph (sl_graph_builder_finish (sb));
  add_op (cb, "a", "Add", "a", NULL);
  add_op (cb, "a", "Add", "a", "[\"b\", \"b\", \"b\"]");
  add_op (cb, "", "Relu", NULL, "[\"\", \"\"]");
  add_op (cb, "z", "Mul", NULL, "not a list at all, \"b");
  converted = one_graph (sl_graph_builder_finish (cb));
  match = sl_conversion_match_new (source, converted);

  g_assert_cmpuint (sl_conversion_match_get_n_ops (match), ==, 4);
  assert_op (match, 0, "a", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "a");
  assert_op (match, 1, "a", SL_CONVERSION_KEPT, SL_CONVERSION_BY_ATTRIBUTE, "b");
  /* An empty list is no list: the unnamed op goes by the name the graph
   * makes up for it, on both sides. */
  assert_op (match, 2, "Relu-op", SL_CONVERSION_KEPT, SL_CONVERSION_BY_NAME, "Relu-op");
  g_assert_cmpuint (sl_conversion_match_get_op_status (match, 3), ==, SL_CONVERSION_FUSED);
  /* Both "a" ops count as used. */
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 0);
}

/* 200,000 ops each side, half renamed: names are hashed, never searched. */
static void
test_large (void)
{
  g_autoptr(SlGraphBuilder) sb = sl_graph_builder_new ();
  g_autoptr(SlGraphBuilder) cb = sl_graph_builder_new ();
  g_autoptr(GPtrArray) source = NULL;
  g_autoptr(GPtrArray) converted = NULL;
  g_autoptr(SlConversionMatch) match = NULL;
  const guint n = 200000;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("op%u", i);
      g_autofree char *prev = g_strdup_printf ("op%u", i - 1);

      add_op (sb, name, "Add", i > 0 ? prev : NULL, NULL);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "op%u_ascend_mbatch_batch_1" : "op%u", i);

      add_op (cb, name, "Add", NULL, NULL);
    }
  source = one_graph (sl_graph_builder_finish (sb));
  converted = one_graph (sl_graph_builder_finish (cb));
  match = sl_conversion_match_new (source, converted);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_KEPT), ==, n);
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 0);
}

/* GraphDef text files through the graph reader: the attribute as a
 * list(s) value, and a source op missing from the converted model. */
static const char source_pbtxt[] =
  "node { name: \"x\" op: \"Placeholder\" }\n"
  "node { name: \"net/conv\" op: \"Conv2D\" input: \"x\" }\n"
  "node { name: \"net/bias\" op: \"BiasAdd\" input: \"net/conv\" }\n"
  "node { name: \"net/relu\" op: \"Relu\" input: \"net/bias\" }\n"
  "node { name: \"net/id\" op: \"Identity\" input: \"net/relu\" }\n"
  "node { name: \"out\" op: \"Softmax\" input: \"net/id\" }\n";

static const char converted_pbtxt[] =
  "node { name: \"x\" op: \"Data\" }\n"
  "node { name: \"trans_TransData_0\" op: \"TransData\" input: \"x\" }\n"
  "node { name: \"net/conv_fused\" op: \"Conv2D\" input: \"trans_TransData_0\"\n"
  "  attr { key: \"_datadump_original_op_names\"\n"
  "         value { list { s: \"net/conv\" s: \"net/bias\" s: \"net/relu\" } } } }\n"
  "node { name: \"trans_Cast_0\" op: \"Cast\" input: \"net/conv_fused\" }\n"
  "node { name: \"out\" op: \"SoftmaxV2\" input: \"trans_Cast_0\" }\n";

static void
test_pbtxt_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-conversion-XXXXXX", &error);
  g_autofree char *source = g_build_filename (folder, "model.pbtxt", NULL);
  g_autofree char *converted = g_build_filename (folder, "model_om.pbtxt", NULL);
  g_autofree char *empty = g_build_filename (folder, "empty.pbtxt", NULL);
  g_autofree char *missing = g_build_filename (folder, "missing.om", NULL);
  g_autoptr(SlConversionMatch) match = NULL;
  g_autoptr(SlConversionMatch) none = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (source, source_pbtxt, -1, NULL));
  g_assert_true (g_file_set_contents (converted, converted_pbtxt, -1, NULL));
  g_assert_true (g_file_set_contents (empty, "versions { producer: 1 }\n", -1, NULL));

  match = sl_conversion_match_load (source, converted, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_conversion_match_get_n_ops (match), ==, 5);
  assert_op (match, 2, "net/conv_fused", SL_CONVERSION_FUSED, SL_CONVERSION_BY_ATTRIBUTE,
             "net/conv, net/bias, net/relu");
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_KEPT), ==, 2);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_INSERTED), ==, 2);
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 1);
  g_assert_cmpstr (sl_conversion_match_get_removed_name (match, 0), ==, "net/id");

  /* Either file unreadable: an error naming it, no match. */
  none = sl_conversion_match_load (source, missing, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "missing.om"));
  g_clear_error (&error);
  none = sl_conversion_match_load (empty, converted, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "empty.pbtxt"));

  g_unlink (source);
  g_unlink (converted);
  g_unlink (empty);
  g_rmdir (folder);
}

/* An OM as ATC writes one (tests/ge-fixture.h: a Cast and a TransData
 * in, the convolution fused with its bias and ReLU by GE's
 * _datadump_original_op_names, a TransData and a Cast out), read
 * through the graph reader, against the GraphDef text of its source. */
static const char ge_source_pbtxt[] =
  "node { name: \"data\" op: \"Placeholder\" }\n"
  "node { name: \"conv1/Conv2D\" op: \"Conv2D\" input: \"data\" }\n"
  "node { name: \"conv1/BiasAdd\" op: \"BiasAdd\" input: \"conv1/Conv2D\" }\n"
  "node { name: \"relu1/Relu\" op: \"Relu\" input: \"conv1/BiasAdd\" }\n"
  "node { name: \"pool1/MaxPool\" op: \"MaxPool\" input: \"relu1/Relu\" }\n"
  "node { name: \"flat/Identity\" op: \"Identity\" input: \"pool1/MaxPool\" }\n";

static void
test_om_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-conversion-om-XXXXXX", &error);
  g_autofree char *source = g_build_filename (folder, "tiny_net.pbtxt", NULL);
  g_autofree char *om_path = g_build_filename (folder, "tiny_net.om", NULL);
  g_autoptr(GByteArray) model_def = ge_fixture_model_def (TRUE, FALSE);
  g_autoptr(GByteArray) om = ge_fixture_om (model_def, NULL);
  g_autoptr(SlConversionMatch) match = NULL;
  guint fused = G_MAXUINT;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (source, ge_source_pbtxt, -1, NULL));
  g_assert_true (g_file_set_contents (om_path, (const char *) om->data, om->len, NULL));
  match = sl_conversion_match_load (source, om_path, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < sl_conversion_match_get_n_ops (match); i++)
    if (sl_conversion_match_get_op_status (match, i) == SL_CONVERSION_FUSED)
      fused = i;
  g_assert_cmpuint (fused, !=, G_MAXUINT);
  assert_op (match, fused, "conv1/conv1_relu_fused", SL_CONVERSION_FUSED, SL_CONVERSION_BY_ATTRIBUTE,
             "conv1/Conv2D, conv1/BiasAdd, relu1/Relu");
  /* data and pool1/MaxPool kept; the two Casts, the two TransDatas and
   * the NetOutput inserted; the Identity removed. */
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_KEPT), ==, 2);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_FUSED), ==, 1);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_INSERTED), ==, 5);
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 1);
  g_assert_cmpstr (sl_conversion_match_get_removed_name (match, 0), ==, "flat/Identity");

  g_unlink (source);
  g_unlink (om_path);
  g_rmdir (folder);
}

/* The AIR ATC read (ge_fixture_source_model_def) against the OM it made:
 * both read by their own readers, GE IR on both sides. */
static void
test_air_source_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-conversion-air-XXXXXX", &error);
  g_autofree char *source_path = g_build_filename (folder, "tiny_net.air", NULL);
  g_autofree char *om_path = g_build_filename (folder, "tiny_net.om", NULL);
  g_autoptr(GByteArray) source = ge_fixture_source_model_def ();
  g_autoptr(GByteArray) model_def = ge_fixture_model_def (TRUE, FALSE);
  g_autoptr(GByteArray) om = ge_fixture_om (model_def, NULL);
  g_autoptr(SlConversionMatch) match = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (source_path, (const char *) source->data, source->len, NULL));
  g_assert_true (g_file_set_contents (om_path, (const char *) om->data, om->len, NULL));
  match = sl_conversion_match_load (source_path, om_path, NULL, &error);
  g_assert_no_error (error);

  /* data, pool1/MaxPool and output kept; the fused convolution; two
   * Casts and two TransDatas inserted; nothing removed */
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_KEPT), ==, 3);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_FUSED), ==, 1);
  g_assert_cmpuint (sl_conversion_match_count (match, SL_CONVERSION_INSERTED), ==, 4);
  g_assert_cmpuint (sl_conversion_match_get_n_removed (match), ==, 0);
  for (guint i = 0; i < sl_conversion_match_get_n_ops (match); i++)
    if (sl_conversion_match_get_op_status (match, i) == SL_CONVERSION_FUSED)
      assert_op (match, i, "conv1/conv1_relu_fused", SL_CONVERSION_FUSED, SL_CONVERSION_BY_ATTRIBUTE,
                 "conv1/Conv2D, conv1/BiasAdd, relu1/Relu");

  g_unlink (source_path);
  g_unlink (om_path);
  g_rmdir (folder);
}

static void
assert_pick (const char * const *paths,
             int                 source,
             int                 converted)
{
  guint s = G_MAXUINT, c = G_MAXUINT;
  gboolean picked = sl_conversion_pair_pick (paths, &s, &c);

  g_assert_cmpint (picked, ==, source >= 0);
  if (source >= 0)
    {
      g_assert_cmpuint (s, ==, (guint) source);
      g_assert_cmpuint (c, ==, (guint) converted);
    }
}

/* Which model of a folder became which .om. */
static void
test_pair (void)
{
  const char *same_stem[] = { "/m/a.onnx", "/m/b.OM", "/m/b.onnx", NULL };
  const char *prefix[] = { "/m/other.pb", "/m/resnet50.onnx", "/m/resnet50_bs1.om", NULL };
  const char *first[] = { "/m/x.onnx", "/m/y.pbtxt", "/m/z.om", NULL };
  const char *no_om[] = { "/m/a.onnx", "/m/b.onnx", NULL };
  const char *only_om[] = { "/m/a.om", "/m/b.om", NULL };
  const char *none[] = { NULL };

  assert_pick (same_stem, 2, 1);
  assert_pick (prefix, 1, 2);
  assert_pick (first, 0, 2);
  assert_pick (no_om, -1, -1);
  assert_pick (only_om, -1, -1);
  assert_pick (none, -1, -1);
  assert_pick (NULL, -1, -1);
  g_assert_true (sl_conversion_pair_is_converted ("model.om"));
  g_assert_false (sl_conversion_pair_is_converted (".om"));
  g_assert_false (sl_conversion_pair_is_converted ("model.onnx"));
  g_assert_false (sl_conversion_pair_is_converted (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/conversion-match/atc-graph", test_atc_graph);
  g_test_add_func ("/conversion-match/casts-and-unknown-names", test_source_casts_and_unknown_names);
  g_test_add_func ("/conversion-match/attribute-text", test_attribute_text);
  g_test_add_func ("/conversion-match/strip", test_strip);
  g_test_add_func ("/conversion-match/hostile", test_hostile);
  g_test_add_func ("/conversion-match/large", test_large);
  g_test_add_func ("/conversion-match/pbtxt-files", test_pbtxt_files);
  g_test_add_func ("/conversion-match/pair", test_pair);
  g_test_add_func ("/conversion-match/om-file", test_om_file);
  g_test_add_func ("/conversion-match/air-source-file", test_air_source_file);
  return g_test_run ();
}
