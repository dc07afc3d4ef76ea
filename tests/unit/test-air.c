/* test-air.c: Ascend GE IR models (AIR) and offline models (OM) into the
 * graph model
 *
 * The same small conv net written byte by byte as an AIR file and as an
 * OM file (ge-fixture.h): ops, scopes, constants, attributes, descriptors,
 * edges, subgraphs and the metadata of each, worked out by hand from the
 * fixture. Then the AIR and the OM cut at every byte, OM partitions with
 * offsets and sizes past the file (up to 4 GB), an encrypted OM, graphs
 * nested past the limit, the sniffs, and the loader and the detector on
 * files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "ge-fixture.h"
#include "graph-query.h"
#include "sl-air-reader.h"
#include "sl-detector.h"
#include "sl-graph-reader.h"
#include "sl-om-reader.h"
#include "sl-proto-shape.h"

static gboolean
has_problem (SlGraph    *graph,
             const char *part)
{
  GPtrArray *problems = sl_graph_get_problems (graph);

  for (guint i = 0; i < problems->len; i++)
    if (strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), part) != NULL)
      return TRUE;
  return FALSE;
}

/* What the AIR and the OM share: the conv net without subgraphs. */
static void
check_conv_net (SlGraph *graph)
{
  g_autofree char *text = NULL;
  guint e;

  g_assert_cmpstr (sl_graph_get_name (graph), ==, "tiny_net");
  /* data, cast_0, 2 TransData, the fused conv, MaxPool, cast_1, output */
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
  g_assert_cmpuint (sl_graph_get_n_parameters (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_graph_inputs (graph), ==, 1);
  g_assert_cmpuint (sl_graph_get_n_graph_outputs (graph), ==, 1);
  /* input → data → cast_0 → TransData → conv (+ weight, bias) → MaxPool →
   * TransData → cast_1 → output → graph output */
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 11);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), ==, 1);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 0);
  /* conv1, pool1 */
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 2);

  e = graph_query_by_proto_name (graph, "conv1/conv1_relu_fused");
  g_assert_cmpuint (e, !=, SL_GRAPH_NONE);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "Conv2D");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "conv1");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, e), ==, 3);
  text = graph_query_input_source (graph, e, 0, FALSE);
  g_assert_cmpstr (text, ==, "trans_TransData_1");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 1, FALSE);
  g_assert_cmpstr (text, ==, "conv1/weight");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (sl_graph_element_get_kind (graph, sl_graph_element_get_input (graph, e, 1, NULL, NULL)), ==,
                    SL_GRAPH_ELEMENT_PARAMETER);
  g_assert_cmpstr (graph_query_attribute (graph, e, "_datadump_original_op_names"), ==,
                   "[\"conv1/Conv2D\", \"conv1/BiasAdd\", \"relu1/Relu\"]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "strides"), ==, "[1, 1, 1, 1]");
  g_assert_cmpstr (graph_query_attribute (graph, e, "groups"), ==, "1");
  g_assert_cmpstr (graph_query_attribute (graph, e, "relu_flag"), ==, "true");
  g_assert_cmpstr (graph_query_attribute (graph, e, "data_format"), ==, "\"NCHW\"");
  g_assert_cmpstr (graph_query_attribute (graph, e, "id"), ==, "5");
  g_assert_cmpstr (graph_query_attribute (graph, e, "stream_id"), ==, "0");
  g_assert_cmpstr (graph_query_attribute (graph, e, "input_desc[0]"), ==, "float16[1, 1, 224, 224, 16] NC1HWC0");
  g_assert_cmpstr (graph_query_attribute (graph, e, "output_desc[0]"), ==, "float16[1, 1, 224, 224, 16] NC1HWC0");
  g_assert_cmpuint (sl_graph_element_get_n_outputs (graph, e), ==, 1);
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float16[1,1,224,224,16]");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_proto_name (graph, "trans_TransData_1");
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "TransData");
  g_assert_cmpstr (graph_query_attribute (graph, e, "dst_format"), ==, "\"NC1HWC0\"");
  text = graph_query_input_source (graph, e, 0, FALSE);
  g_assert_cmpstr (text, ==, "cast_0");
  g_clear_pointer (&text, g_free);

  /* The graph input feeds the Data op. */
  e = graph_query_by_proto_name (graph, "data");
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, e), ==, "Data");
  text = graph_query_input_source (graph, e, 0, FALSE);
  g_assert_cmpstr (text, ==, "data:0");
  g_clear_pointer (&text, g_free);
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float32[1,3,224,224]");
  g_clear_pointer (&text, g_free);

  /* The NetOutput waits on the MaxPool. */
  e = graph_query_by_proto_name (graph, "output");
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, e), ==, 2);
  {
    SlGraphEdgeKind kind = SL_GRAPH_EDGE_DATA;

    sl_graph_element_get_input (graph, e, 1, &kind, NULL);
    g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_CONTROL);
  }

  e = graph_query_by_proto_name (graph, "conv1/weight");
  g_assert_cmpuint (sl_graph_element_get_kind (graph, e), ==, SL_GRAPH_ELEMENT_PARAMETER);
  text = graph_query_output_text (graph, e, 0);
  g_assert_cmpstr (text, ==, "float16[16,3,3,3]");
  g_clear_pointer (&text, g_free);
  /* In its consumer's scope, by the last part of its name. */
  text = sl_graph_item_dup_path (graph, sl_graph_element_get_item (graph, e));
  g_assert_cmpstr (text, ==, "conv1/weight");
  g_clear_pointer (&text, g_free);
}

static void
test_air (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (FALSE, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;
  guint e;

  g_assert_true (sl_air_sniff (model->data, model->len));
  graph = sl_air_decode (model->data, model->len, "tiny_net.air", &error);
  g_assert_no_error (error);
  check_conv_net (graph);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);

  /* Weights inline: sized, with the tensor's descriptor. */
  e = graph_query_by_proto_name (graph, "conv1/weight");
  g_assert_cmpstr (graph_query_attribute (graph, e, "value"), ==, "float16[16, 3, 3, 3] FRACTAL_Z (864 bytes)");
  g_assert_null (graph_query_attribute (graph, e, "weights"));

  g_assert_cmpstr (graph_query_metadata (graph, "format"), ==, "AIR");
  g_assert_cmpstr (graph_query_metadata (graph, "name"), ==, "tiny_net");
  g_assert_cmpstr (graph_query_metadata (graph, "version"), ==, "1");
  g_assert_cmpstr (graph_query_metadata (graph, "custom_version"), ==, "fixture-1.0");
  g_assert_cmpstr (graph_query_metadata (graph, "attr.soc_version"), ==, "\"Ascend310P3\"");
}

static void
test_om (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (TRUE, FALSE);
  GeFixtureOm where;
  g_autoptr(GByteArray) om = ge_fixture_om (model, &where);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autofree char *text = NULL;
  guint e;

  g_assert_true (sl_om_sniff (om->data, om->len));
  g_assert_false (sl_air_sniff (om->data, om->len));
  graph = sl_om_decode (om->data, om->len, "tiny_net.om", &error);
  g_assert_no_error (error);
  check_conv_net (graph);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);

  /* Weights in the weights partition: where, not what. */
  e = graph_query_by_proto_name (graph, "conv1/weight");
  g_assert_cmpstr (graph_query_attribute (graph, e, "value"), ==, "float16[16, 3, 3, 3] FRACTAL_Z");
  g_assert_cmpstr (graph_query_attribute (graph, e, "weights"), ==, "864 bytes at offset 0");
  e = graph_query_by_proto_name (graph, "conv1/bias");
  g_assert_cmpstr (graph_query_attribute (graph, e, "weights"), ==, "32 bytes at offset 864");

  g_assert_cmpstr (graph_query_metadata (graph, "format"), ==, "OM");
  g_assert_cmpstr (graph_query_metadata (graph, "model_name"), ==, "tiny_net");
  g_assert_cmpstr (graph_query_metadata (graph, "platform_version"), ==, "Ascend310P3");
  g_assert_cmpstr (graph_query_metadata (graph, "op_count"), ==, "10");
  g_assert_cmpstr (graph_query_metadata (graph, "ir_version"), ==, "9");
  g_assert_cmpstr (graph_query_metadata (graph, "model_type"), ==, "standard");
  g_assert_cmpstr (graph_query_metadata (graph, "mode"), ==, "offline");
  g_assert_cmpstr (graph_query_metadata (graph, "partitions"), ==, "3");
  g_assert_cmpstr (graph_query_metadata (graph, "weights"), ==, "896");
  text = g_strdup_printf ("%u bytes at byte %" G_GSIZE_FORMAT, model->len, where.model_def);
  g_assert_cmpstr (graph_query_metadata (graph, "partition.model_def"), ==, text);
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("896 bytes at byte %" G_GSIZE_FORMAT, where.weights);
  g_assert_cmpstr (graph_query_metadata (graph, "partition.weights"), ==, text);
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%u bytes at byte %" G_GSIZE_FORMAT, GE_FIXTURE_TASK_BYTES, where.task_info);
  g_assert_cmpstr (graph_query_metadata (graph, "partition.task_info"), ==, text);
  /* The ModelDef's own fields too. */
  g_assert_cmpstr (graph_query_metadata (graph, "custom_version"), ==, "fixture-1.0");
}

static GByteArray *
float_bits (float value)
{
  GByteArray *out = g_byte_array_new ();
  guint32 bits;

  memcpy (&bits, &value, 4);
  bits = GUINT32_TO_LE (bits);
  g_byte_array_append (out, (const guint8 *) &bits, 4);
  return out;
}

/* Every kind of AttrDef as the text Details shows. */
static void
test_attribute_texts (void)
{
  static const gint64 two_three[] = { 2, 3 };
  static const gint64 four[] = { 4 };
  GByteArray *attrs = g_byte_array_new ();
  GByteArray *attr;
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) decoded = NULL;
  g_autoptr(GString) many = g_string_new ("[");
  guint e;

  /* f 4 (fixed32) */
  {
    g_autoptr(GByteArray) bits = float_bits (0.5f);

    attr = g_byte_array_new ();
    fx_tag (attr, 4, 5);
    g_byte_array_append (attr, bits->data, 4);
    ge_fx_attr (attrs, 10, "alpha", attr);
  }
  /* bt 7 */
  attr = g_byte_array_new ();
  fx_data (attr, 7, (const guint8 *) "\1\2\3\4\5", 5);
  ge_fx_attr (attrs, 10, "blob", attr);
  /* func 10: NamedAttrs { name 1, attr 2 } */
  {
    g_autoptr(GByteArray) named = g_byte_array_new ();

    fx_string (named, 1, "Relu6");
    ge_fx_attr (named, 2, "k", ge_fx_attr_i (6));
    attr = g_byte_array_new ();
    fx_message (attr, 10, named);
    ge_fx_attr (attrs, 10, "fn", attr);
  }
  /* td 11, t 12 */
  {
    g_autoptr(GByteArray) desc = ge_fx_desc (GE_DT_FLOAT16, two_three, 2, "ND", -1, 0);
    g_autoptr(GByteArray) tensor = g_byte_array_new ();
    g_autoptr(GByteArray) tensor_desc = ge_fx_desc (GE_DT_INT32, four, 1, "ND", -1, 0);

    attr = g_byte_array_new ();
    fx_message (attr, 11, desc);
    ge_fx_attr (attrs, 10, "desc", attr);
    fx_message (tensor, 1, tensor_desc);
    fx_data (tensor, 2, (const guint8 *) "0123456789abcdef", 16);
    attr = g_byte_array_new ();
    fx_message (attr, 12, tensor);
    ge_fx_attr (attrs, 10, "tensor", attr);
  }
  /* list_list_int 14, list_list_float 16 */
  {
    g_autoptr(GByteArray) lists = g_byte_array_new ();
    g_autoptr(GByteArray) first = g_byte_array_new ();
    g_autoptr(GByteArray) second = g_byte_array_new ();
    g_autoptr(GByteArray) floats = g_byte_array_new ();
    g_autoptr(GByteArray) float_list = g_byte_array_new ();
    g_autoptr(GByteArray) bits = float_bits (0.25f);

    fx_uint (first, 1, 1);
    fx_uint (first, 1, 2);
    fx_uint (second, 1, 3);
    fx_message (lists, 1, first);
    fx_message (lists, 1, second);
    attr = g_byte_array_new ();
    fx_message (attr, 14, lists);
    ge_fx_attr (attrs, 10, "lli", attr);
    fx_data (float_list, 1, bits->data, 4);
    fx_message (floats, 1, float_list);
    attr = g_byte_array_new ();
    fx_message (attr, 16, floats);
    ge_fx_attr (attrs, 10, "llf", attr);
  }
  /* dt 15 */
  attr = g_byte_array_new ();
  fx_uint (attr, 15, GE_DT_FLOAT16);
  ge_fx_attr (attrs, 10, "dtype", attr);
  /* lists of bools, floats, data types; an empty list; a long list */
  {
    g_autoptr(GByteArray) bools = g_byte_array_new ();
    g_autoptr(GByteArray) floats = g_byte_array_new ();
    g_autoptr(GByteArray) types = g_byte_array_new ();
    g_autoptr(GByteArray) ints = g_byte_array_new ();
    g_autoptr(GByteArray) packed = g_byte_array_new ();
    g_autoptr(GByteArray) one_half = float_bits (1.5f);
    g_autoptr(GByteArray) two = float_bits (2.0f);

    fx_uint (bools, 5, 1);
    fx_uint (bools, 5, 0);
    attr = g_byte_array_new ();
    fx_message (attr, 1, bools);
    ge_fx_attr (attrs, 10, "bools", attr);
    g_byte_array_append (packed, one_half->data, 4);
    g_byte_array_append (packed, two->data, 4);
    fx_message (floats, 4, packed);
    attr = g_byte_array_new ();
    fx_message (attr, 1, floats);
    ge_fx_attr (attrs, 10, "floats", attr);
    fx_uint (types, 12, GE_DT_FLOAT);
    fx_uint (types, 12, GE_DT_INT32);
    attr = g_byte_array_new ();
    fx_message (attr, 1, types);
    ge_fx_attr (attrs, 10, "types", attr);
    attr = g_byte_array_new ();
    fx_data (attr, 1, NULL, 0);
    ge_fx_attr (attrs, 10, "empty", attr);
    for (guint i = 0; i < 100; i++)
      {
        fx_uint (ints, 3, i);
        if (i < 64)
          g_string_append_printf (many, "%s%u", i > 0 ? ", " : "", i);
      }
    g_string_append (many, ", …]");
    attr = g_byte_array_new ();
    fx_message (attr, 1, ints);
    ge_fx_attr (attrs, 10, "many", attr);
  }
  ge_fx_attr (attrs, 10, "quoted", ge_fx_attr_s ("a\"b\n"));

  ge_fx_add_op (graph, ge_fx_op ("all", "Custom", 0, NULL, attrs, NULL));
  fx_message (model, 7, graph);
  decoded = sl_air_decode (model->data, model->len, "attrs.air", &error);
  g_assert_no_error (error);
  e = graph_query_by_proto_name (decoded, "all");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "alpha"), ==, "0.5");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "blob"), ==, "5 bytes");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "fn"), ==, "Relu6 {k: 6}");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "desc"), ==, "float16[2, 3] ND");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "tensor"), ==, "int32[4] ND (16 bytes)");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "lli"), ==, "[[1, 2], [3]]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "llf"), ==, "[[0.25]]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "dtype"), ==, "float16");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "bools"), ==, "[true, false]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "floats"), ==, "[1.5, 2]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "types"), ==, "[float32, int32]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "empty"), ==, "[]");
  g_assert_cmpstr (graph_query_attribute (decoded, e, "many"), ==, many->str);
  g_assert_cmpstr (graph_query_attribute (decoded, e, "quoted"), ==, "\"a\\\"b\\n\"");
  g_assert_cmpuint (sl_graph_get_problems (decoded)->len, ==, 0);
}

/* Subgraphs: the If's then-branch by subgraph_name, its else-branch in
 * a g attribute, both using a value of the outer graph; a ModelDef graph
 * nothing names is a scope of its own. */
static void
test_subgraphs (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (FALSE, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_air_decode (model->data, model->len, "sub.air", &error);
  g_autofree char *text = NULL;
  guint e;

  g_assert_no_error (error);
  /* The 8 of the net, the If, ident, neg and lonely. */
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 12);
  /* 11 of the net, If, ident and neg each from cast_1 */
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 14);
  /* conv1, pool1, branch, branch/If, its two branches, orphan */
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 7);
  g_assert_cmpstr (graph_query_metadata (graph, "graphs"), ==, "3");

  e = graph_query_by_proto_name (graph, "branch/If");
  g_assert_cmpstr (graph_query_attribute (graph, e, "subgraph_name"), ==, "\"then_branch\"");
  g_assert_cmpstr (graph_query_attribute (graph, e, "else_branch"), ==, "graph else_branch (1 op)");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "branch/If");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_proto_name (graph, "ident");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "branch/If/then_branch");
  g_clear_pointer (&text, g_free);
  text = graph_query_input_source (graph, e, 0, FALSE);
  g_assert_cmpstr (text, ==, "cast_1");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_proto_name (graph, "neg");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "branch/If/else_branch");
  g_clear_pointer (&text, g_free);

  e = graph_query_by_proto_name (graph, "lonely");
  text = sl_graph_element_dup_scope (graph, e);
  g_assert_cmpstr (text, ==, "orphan");
}

/* Every cut of the AIR keeps what was whole, reports the damage inside
 * the bytes and never reads past them. */
static void
test_air_cut_everywhere (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (FALSE, FALSE);

  for (gsize cut = 0; cut < model->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (model->data, MAX (cut, 1));
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = sl_air_decode (copy, cut, "cut.air", &error);
      GPtrArray *problems;

      if (graph == NULL)
        {
          g_assert_nonnull (error);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (sl_graph_get_n_ops (graph), <=, 8);
      problems = sl_graph_get_problems (graph);
      g_assert_cmpuint (problems->len, >, 0);
      for (guint i = 0; i < problems->len; i++)
        {
          SlProblem *problem = g_ptr_array_index (problems, i);

          g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) cut);
          g_assert_cmpstr (sl_problem_get_path (problem), ==, "cut.air");
        }
    }
}

/* Every cut of the OM: the header and table cut are errors naming the
 * byte; a cut partition is read as far as it goes, with a problem. */
static void
test_om_cut_everywhere (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (TRUE, FALSE);
  GeFixtureOm where;
  g_autoptr(GByteArray) om = ge_fixture_om (model, &where);

  for (gsize cut = 0; cut < om->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (om->data, MAX (cut, 1));
      g_autoptr(GError) error = NULL;
      g_autoptr(SlGraph) graph = sl_om_decode (copy, cut, "cut.om", &error);
      GPtrArray *problems;

      if (graph == NULL)
        {
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, "cut.om"));
          /* The weights are not needed to read the model. */
          g_assert_cmpuint (cut, <, where.weights);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (sl_graph_get_n_ops (graph), <=, 8);
      if (cut >= where.weights)
        g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
      problems = sl_graph_get_problems (graph);
      g_assert_cmpuint (problems->len, >, 0);
      g_assert_true (has_problem (graph, "but the file ends at byte"));
      for (guint i = 0; i < problems->len; i++)
        {
          SlProblem *problem = g_ptr_array_index (problems, i);

          g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) cut);
          g_assert_cmpstr (sl_problem_get_path (problem), ==, "cut.om");
        }
    }
}

static void
set_u32 (GByteArray *bytes,
         gsize       at,
         guint32     value)
{
  value = GUINT32_TO_LE (value);
  memcpy (bytes->data + at, &value, 4);
}

/* Partition offsets and sizes past the file, up to 4 GB; a partition
 * table longer than the file; an encrypted model; a wrong header length. */
static void
test_om_damage (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (TRUE, FALSE);
  GeFixtureOm where;
  g_autoptr(GByteArray) om = ge_fixture_om (model, &where);
  gsize model_entry = where.table + 4, weights_entry = where.table + 16;

  /* The weights start past the end: left out, the model is read. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(SlGraph) graph = NULL;

    set_u32 (copy, weights_entry + 4, 0xfffffff0);
    graph = sl_om_decode (copy->data, copy->len, "far.om", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
    g_assert_true (has_problem (graph, "OM partition 1 (weights) starts at byte"));
    g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_graph_get_problems (graph), 0)), ==,
                     (gint64) weights_entry);
  }

  /* The model definition starts past the end: nothing to read. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(SlGraph) graph = NULL;

    set_u32 (copy, model_entry + 4, 0x7fffffff);
    graph = sl_om_decode (copy->data, copy->len, "gone.om", &error);
    g_assert_null (graph);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "model-definition"));
  }

  /* A 4 GB model definition: read up to the end of the file, the bytes
   * after the ModelDef reported as damage. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(SlGraph) graph = NULL;

    set_u32 (copy, model_entry + 8, 0xffffffff);
    graph = sl_om_decode (copy->data, copy->len, "huge.om", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
    g_assert_true (has_problem (graph, "OM partition 0 (model_def) should end at byte 4294967591"));
  }

  /* 4 GB of weights at a 4 GB offset. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(SlGraph) graph = NULL;

    set_u32 (copy, weights_entry + 4, 0xffffffff);
    set_u32 (copy, weights_entry + 8, 0xffffffff);
    graph = sl_om_decode (copy->data, copy->len, "huge.om", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
    g_assert_true (has_problem (graph, "starts at byte 4294967"));
  }

  /* More partitions than the file holds. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;

    set_u32 (copy, where.table, 0xffffffff);
    g_assert_null (sl_om_decode (copy->data, copy->len, "table.om", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  }

  /* Encrypted: said so, nothing decoded. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;

    copy->data[80] = 1;
    g_assert_null (sl_om_decode (copy->data, copy->len, "secret.om", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "encrypted"));
  }

  /* A header length other than 256: a problem, the table read at 256. */
  {
    g_autoptr(GByteArray) copy = g_byte_array_new_take (g_memdup2 (om->data, om->len), om->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(SlGraph) graph = NULL;

    set_u32 (copy, 4, 512);
    graph = sl_om_decode (copy->data, copy->len, "header.om", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 8);
    g_assert_true (has_problem (graph, "512 bytes"));
  }

  /* Not an OM at all. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (sl_om_decode ((const guint8 *) "IMOX", 4, "x.om", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  }
}

/* Subgraphs nested past the limit, by g attributes and by subgraph_name:
 * the levels within it are read, the rest is a problem. */
static void
test_nesting (void)
{
  GByteArray *graph = g_byte_array_new ();
  g_autoptr(GByteArray) model = g_byte_array_new ();
  g_autoptr(GByteArray) chain = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) deep = NULL;
  g_autoptr(SlGraph) linked = NULL;

  ge_fx_add_op (graph, ge_fx_op ("leaf", "Identity", 0, NULL, NULL, NULL));
  for (guint level = 0; level < SL_AIR_MAX_NESTING + 8; level++)
    {
      GByteArray *outer = g_byte_array_new ();
      GByteArray *op = ge_fx_op ("if", "If", 0, NULL, NULL, NULL);
      GByteArray *attr = g_byte_array_new ();

      fx_message (attr, 13, graph);
      g_byte_array_unref (graph);
      ge_fx_attr (op, 10, "then_branch", attr);
      ge_fx_add_op (outer, op);
      graph = outer;
    }
  fx_message (model, 7, graph);
  g_byte_array_unref (graph);
  deep = sl_air_decode (model->data, model->len, "deep.air", &error);
  g_assert_no_error (error);
  /* The top graph's If and one per level allowed. */
  g_assert_cmpuint (sl_graph_get_n_ops (deep), ==, SL_AIR_MAX_NESTING + 1);
  g_assert_true (has_problem (deep, "nested too deeply"));

  /* Graph i's op names graph i + 1. */
  for (guint i = 0; i < SL_AIR_MAX_NESTING + 8; i++)
    {
      g_autoptr(GByteArray) g = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("g%u", i);
      g_autofree char *next = g_strdup_printf ("g%u", i + 1);
      GByteArray *op = ge_fx_op ("call", "PartitionedCall", 0, NULL, NULL, NULL);

      fx_string (g, 1, name);
      fx_string (op, 35, next);
      ge_fx_add_op (g, op);
      fx_message (chain, 7, g);
    }
  linked = sl_air_decode (chain->data, chain->len, "chain.air", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_get_n_ops (linked), ==, SL_AIR_MAX_NESTING + 1);
  g_assert_true (has_problem (linked, "nested too deeply"));
}

static void
test_sniff (void)
{
  g_autoptr(GByteArray) model = ge_fixture_model_def (FALSE, FALSE);
  g_autoptr(GByteArray) om = ge_fixture_om (model, NULL);
  g_autoptr(GByteArray) onnx = g_byte_array_new ();
  g_autoptr(GByteArray) onnx_graph = g_byte_array_new ();
  g_autoptr(GByteArray) onnx_node = g_byte_array_new ();
  g_autofree char *formats = sl_proto_shape_dup_graph_formats ();

  g_assert_cmpstr (sl_proto_shape_get_graph_format (model->data, model->len, TRUE), ==, "AIR");
  /* The head is enough. */
  g_assert_cmpstr (sl_proto_shape_get_graph_format (model->data, 40, FALSE), ==, "AIR");
  g_assert_cmpstr (sl_proto_shape_get_graph_format (om->data, om->len, TRUE), ==, "OM");
  g_assert_false (sl_air_sniff (NULL, 0));
  g_assert_false (sl_om_sniff ((const guint8 *) "IMO", 3));

  /* ONNX: ir_version, then a graph of one node. */
  fx_string (onnx_node, 4, "Relu");
  fx_message (onnx_graph, 1, onnx_node);
  fx_uint (onnx, 1, 8);
  fx_message (onnx, 7, onnx_graph);
  g_assert_false (sl_air_sniff (onnx->data, onnx->len));
  g_assert_cmpstr (sl_proto_shape_get_graph_format (onnx->data, onnx->len, TRUE), ==, "ONNX");
  /* An ONNX model without ir_version whose graph starts with a node. */
  g_assert_false (sl_air_sniff (onnx->data + 2, onnx->len - 2));

  /* An ONNX SequenceProto { name 1, elem_type 2 } (test data's
   * input_0.pb) has a ModelDef's first fields but no graph. */
  g_assert_false (sl_air_sniff ((const guint8 *) "\x0a\x09seq_empty\x10\x01", 13));
  g_assert_null (sl_proto_shape_get_graph_format ((const guint8 *) "\x0a\x09seq_empty\x10\x01", 13, FALSE));

  /* The message about a .pb that holds none names them. */
  g_assert_nonnull (strstr (formats, "AIR"));
  g_assert_nonnull (strstr (formats, "OM"));
}

/* The loader by name and by content, and the detector. */
static void
test_files (void)
{
  g_autoptr(GByteArray) air = ge_fixture_model_def (FALSE, FALSE);
  g_autoptr(GByteArray) om_model = ge_fixture_model_def (TRUE, FALSE);
  g_autoptr(GByteArray) om = ge_fixture_om (om_model, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-air-XXXXXX", &error);
  g_autofree char *air_path = g_build_filename (folder, "tiny_net.air", NULL);
  g_autofree char *om_path = g_build_filename (folder, "tiny_net.om", NULL);
  g_autofree char *pb_path = g_build_filename (folder, "model_def.pb", NULL);
  g_autofree char *wrong_air = g_build_filename (folder, "wrong.air", NULL);
  g_autofree char *wrong_om = g_build_filename (folder, "wrong.om", NULL);
  g_autofree char *empty_om = g_build_filename (folder, "empty.om", NULL);
  const char *paths[] = { air_path, om_path, pb_path };
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  guint n_air = 0, n_om = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (air_path, (const char *) air->data, air->len, NULL));
  g_assert_true (g_file_set_contents (om_path, (const char *) om->data, om->len, NULL));
  g_assert_true (g_file_set_contents (pb_path, (const char *) air->data, air->len, NULL));
  g_assert_true (g_file_set_contents (wrong_air, "{\"not\": \"air\"}", -1, NULL));
  g_assert_true (g_file_set_contents (wrong_om, "not an om", -1, NULL));
  g_assert_true (g_file_set_contents (empty_om, "", 0, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GPtrArray) graphs = sl_graph_reader_load (paths[i], NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (graphs->len, ==, 1);
      g_assert_cmpuint (sl_graph_get_n_ops (g_ptr_array_index (graphs, 0)), ==, 8);
    }
  {
    g_autoptr(GPtrArray) graphs = sl_graph_reader_load (wrong_om, NULL, &error);

    g_assert_null (graphs);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_clear_error (&error);
  }

  detector = sl_detector_new (folder);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sl_detection_get_findings (detection)); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (sl_detection_get_findings (detection), i);

      g_assert_cmpint (sl_finding_get_kind (finding), ==, SL_FINDING_GRAPH);
      n_air += g_strcmp0 (sl_finding_lookup_detail (finding, "format"), "AIR") == 0;
      n_om += g_strcmp0 (sl_finding_lookup_detail (finding, "format"), "OM") == 0;
    }
  /* tiny_net.air and model_def.pb; tiny_net.om; the wrong and empty
   * files are problems. */
  g_assert_cmpuint (n_air, ==, 2);
  g_assert_cmpuint (n_om, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_detection_get_problems (detection)), ==, 3);

  g_unlink (air_path);
  g_unlink (om_path);
  g_unlink (pb_path);
  g_unlink (wrong_air);
  g_unlink (wrong_om);
  g_unlink (empty_om);
  g_rmdir (folder);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/air/air", test_air);
  g_test_add_func ("/air/om", test_om);
  g_test_add_func ("/air/attribute-texts", test_attribute_texts);
  g_test_add_func ("/air/subgraphs", test_subgraphs);
  g_test_add_func ("/air/air-cut-everywhere", test_air_cut_everywhere);
  g_test_add_func ("/air/om-cut-everywhere", test_om_cut_everywhere);
  g_test_add_func ("/air/om-damage", test_om_damage);
  g_test_add_func ("/air/nesting", test_nesting);
  g_test_add_func ("/air/sniff", test_sniff);
  g_test_add_func ("/air/files", test_files);
  return g_test_run ();
}
