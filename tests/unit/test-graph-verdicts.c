/* test-graph-verdicts.c: comparison verdicts matched to the ops of a graph
 *
 * A small generated graph (two Conv2D, a ReLU, two MatMul in scopes) and
 * report names of both kinds: MindSpore dump file names matched by full
 * op name, exactly and normalised, and msprobe keys matched by op type
 * and call count; the worst verdict of an op's outputs wins; inputs,
 * backward tensors and names of nothing stay unmatched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "graph-fixture.h"
#include "sl-graph-reader.h"
#include "sl-graph-verdicts.h"
#include "sl-tensor-compare-row.h"

#define SCOPE "Default/network-WithLossCell/_backbone-Net"

static SlGraph *
small_graph (void)
{
  GraphFixture *fx = graph_fixture_new ("verdicts");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  SlGraph *graph;

  g_free (graph_fixture_node (fx, "Conv2D", SCOPE "/conv1-Conv2d", NULL, 0));   /* op1, element 0 */
  g_free (graph_fixture_node (fx, "ReLU", SCOPE "/relu-ReLU", NULL, 0));        /* op2, element 1 */
  g_free (graph_fixture_node (fx, "Conv2D", SCOPE "/conv2-Conv2d", NULL, 0));   /* op3, element 2 */
  g_free (graph_fixture_node (fx, "MatMul", SCOPE "/fc1-Dense", NULL, 0));      /* op4, element 3 */
  g_free (graph_fixture_node (fx, "MatMul", SCOPE "/fc2-Dense", NULL, 0));      /* op5, element 4 */
  bytes = graph_fixture_finish (fx, "verdicts_graph", NULL);
  graph_fixture_free (fx);
  graph = sl_graph_reader_decode (bytes, "verdicts.pb", &error);
  g_assert_no_error (error);
  return graph;
}

static void
test_mindspore_names (void)
{
  g_autoptr(SlGraph) graph = small_graph ();
  g_autoptr(SlGraphVerdicts) verdicts = sl_graph_verdicts_new (graph);

  /* Exact: the scope with "/" written "--". */
  g_assert_true (sl_graph_verdicts_add (verdicts,
    "Conv2D.Default--network-WithLossCell--_backbone-Net--conv1-Conv2d--Conv2D-op1.3.0.100.output.0.DefaultFormat.npy",
    SL_TENSOR_VERDICT_PASS));
  /* A second output of the same op, worse: the op takes the worst. */
  g_assert_true (sl_graph_verdicts_add (verdicts,
    "Conv2D.Default--network-WithLossCell--_backbone-Net--conv1-Conv2d--Conv2D-op1.3.0.100.output.1.DefaultFormat.npy",
    SL_TENSOR_VERDICT_WARNING));
  g_assert_true (sl_graph_verdicts_add (verdicts,
    "Conv2D.Default--network-WithLossCell--_backbone-Net--conv1-Conv2d--Conv2D-op1.3.0.100.output.2.DefaultFormat.npy",
    SL_TENSOR_VERDICT_PASS));
  /* Normalised: other case and underscores, and a folder in front. */
  g_assert_true (sl_graph_verdicts_add (verdicts,
    "rank_0/ReLU.default--network-withlosscell--backbone-net--relu-relu--relu-op2.3.0.101.output.0.DefaultFormat.npy",
    SL_TENSOR_VERDICT_ERROR));
  /* An input is not an output of the op. */
  g_assert_false (sl_graph_verdicts_add (verdicts,
    "Conv2D.Default--network-WithLossCell--_backbone-Net--conv2-Conv2d--Conv2D-op3.3.0.102.input.0.DefaultFormat.npy",
    SL_TENSOR_VERDICT_ERROR));
  /* An op the graph does not have. */
  g_assert_false (sl_graph_verdicts_add (verdicts,
    "Conv2D.Default--network-WithLossCell--_backbone-Net--conv9-Conv2d--Conv2D-op9.3.0.103.output.0.DefaultFormat.npy",
    SL_TENSOR_VERDICT_ERROR));

  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 0), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 1), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 2), ==, SL_GRAPH_VERDICT_NONE);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 99), ==, SL_GRAPH_VERDICT_NONE);
  g_assert_cmpuint (sl_graph_verdicts_get_n_matched (verdicts), ==, 4);
  g_assert_cmpuint (sl_graph_verdicts_get_n_unmatched (verdicts), ==, 2);
}

static void
test_msprobe_names (void)
{
  g_autoptr(SlGraph) graph = small_graph ();
  g_autoptr(SlGraphVerdicts) verdicts = sl_graph_verdicts_new (graph);

  /* Call 1 of conv2d is the second Conv2D in execution order. */
  g_assert_true (sl_graph_verdicts_add (verdicts, "Functional.conv2d.1.forward.output.0", SL_TENSOR_VERDICT_ERROR));
  g_assert_true (sl_graph_verdicts_add (verdicts, "Functional.conv2d.0.forward.output.0", SL_TENSOR_VERDICT_PASS));
  /* Exact op type. */
  g_assert_true (sl_graph_verdicts_add (verdicts, "Primitive.MatMul.1.forward.output.0", SL_TENSOR_VERDICT_WARNING));
  /* Nested outputs still belong to the call. */
  g_assert_true (sl_graph_verdicts_add (verdicts, "Tensor.matmul.0.forward.output.0.1", SL_TENSOR_VERDICT_PASS));
  /* Backward tensors, inputs, a call past the graph's ops, no call. */
  g_assert_false (sl_graph_verdicts_add (verdicts, "Functional.relu.0.backward.output.0", SL_TENSOR_VERDICT_ERROR));
  g_assert_false (sl_graph_verdicts_add (verdicts, "Functional.relu.0.forward.input.0", SL_TENSOR_VERDICT_ERROR));
  g_assert_false (sl_graph_verdicts_add (verdicts, "Functional.conv2d.2.forward.output.0", SL_TENSOR_VERDICT_ERROR));
  g_assert_false (sl_graph_verdicts_add (verdicts, "Functional.relu.x.forward.output.0", SL_TENSOR_VERDICT_ERROR));
  g_assert_false (sl_graph_verdicts_add (verdicts, "forward.output", SL_TENSOR_VERDICT_ERROR));
  g_assert_false (sl_graph_verdicts_add (verdicts, "", SL_TENSOR_VERDICT_ERROR));

  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 0), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 1), ==, SL_GRAPH_VERDICT_NONE);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 2), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 3), ==, SL_TENSOR_VERDICT_PASS);
  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 4), ==, SL_TENSOR_VERDICT_WARNING);
  g_assert_cmpuint (sl_graph_verdicts_get_n_matched (verdicts), ==, 4);
  g_assert_cmpuint (sl_graph_verdicts_get_n_unmatched (verdicts), ==, 6);
}

/* Rows as a report holds them: a failed row is an error. */
static void
test_rows (void)
{
  g_autoptr(SlGraph) graph = small_graph ();
  g_autoptr(SlGraphVerdicts) verdicts = sl_graph_verdicts_new (graph);
  g_autoptr(GListStore) rows = g_list_store_new (SL_TYPE_TENSOR_COMPARE_ROW);
  SlTensorCompareRowInit init = { .name = "Functional.relu.0.forward.output.0", .api = "Functional.relu",
                                  .mode = SL_TENSOR_COMPARE_MODE_DATA, .npu_bytes = -1, .bench_bytes = -1,
                                  .npu_requires_grad = -1, .bench_requires_grad = -1 };
  g_autoptr(SlTensorCompareRow) row = sl_tensor_compare_row_new (&init);

  sl_tensor_compare_row_fail (row, "unreadable");
  g_list_store_append (rows, row);
  sl_graph_verdicts_add_rows (verdicts, G_LIST_MODEL (rows));

  g_assert_cmpint (sl_graph_verdicts_get (verdicts, 1), ==, SL_TENSOR_VERDICT_ERROR);
  g_assert_cmpuint (sl_graph_verdicts_get_n_matched (verdicts), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/graph-verdicts/mindspore-names", test_mindspore_names);
  g_test_add_func ("/graph-verdicts/msprobe-names", test_msprobe_names);
  g_test_add_func ("/graph-verdicts/rows", test_rows);
  return g_test_run ();
}
