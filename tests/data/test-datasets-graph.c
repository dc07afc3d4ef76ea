/* test-datasets-graph.c: the graph reader on the real graphs of the datasets
 *
 * MindInsight's LeNet debugger graph (a bare GraphProto in lenet.pb whose
 * tensors use the debugger's layout) and the graph_def events its test
 * writers put into summaries. The expected counts were read from the
 * bytes with an independent wire-format reading (Python, no protobuf
 * library) and agree with the dataset README. Each is also laid out with
 * every scope expanded and checked for overlaps and edge directions, and
 * collapsed back to its first view exactly. The folder comes from
 * SL_DATASETS_DIR; every test is skipped when it is absent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-layout.h"
#include "sl-graph-reader.h"

typedef struct {
  const char *type;
  guint       count;
} OpCount;

typedef struct {
  const char    *relative;
  const char    *name;
  guint          nodes;
  guint          parameters;
  guint          consts;
  guint          data_edges;
  guint          scopes;
  const OpCount *op_types;
} Expected;

static const OpCount lenet_ops[] = {
  { "tuple_getitem", 26 }, { "Cast", 13 }, { "make_tuple", 10 }, { "MatMul", 9 }, { "Depend", 9 },
  { "ApplyMomentum", 8 }, { "TransData", 3 }, { "BiasAddGrad", 3 }, { "Conv2D", 2 }, { "ReLUV2", 2 },
  { "MaxPoolWithArgmax", 2 }, { "Reshape", 2 }, { "ReLU", 2 }, { "ReluGrad", 2 },
  { "MaxPoolGradWithArgmax", 2 }, { "ReluGradV2", 2 }, { "Conv2DBackpropFilter", 2 }, { "OneHot", 1 },
  { "SoftmaxCrossEntropyWithLogits", 1 }, { "Mul", 1 }, { "Conv2DBackpropInput", 1 }, { "ReduceMean", 1 },
  { NULL, 0 },
};
static const OpCount small_ops[] = { { "Reshape", 12 }, { "Add", 5 }, { "tuple_getitem", 2 }, { "Conv2D", 1 }, { NULL, 0 } };
static const OpCount cyclic_ops[] = { { "Conv2D", 11 }, { "Add", 5 }, { NULL, 0 } };
static const OpCount high_degree_ops[] = {
  { "Conv2D", 5 }, { "Add", 2 }, { "Reshape", 2 }, { "Dense", 1 }, { "Mul", 1 }, { "Relu", 1 },
  { "Sqrt", 1 }, { "Sub", 1 }, { NULL, 0 },
};

static const Expected expected[] = {
  { "mindspore-ai__mindinsight/tests/utils/resource/graph_pb/lenet.pb", "kernel_graph_0", 104, 20, 37, 215, 30, lenet_ops },
  { "generated__mindinsight-writers/run_small", "849_848_847_424_1_construct", 20, 22, 3, 53, 4, small_ops },
  { "generated__mindinsight-writers/run_graphs/cyclic", "849_848_847_424_1_construct", 16, 1, 0, 16, 1, cyclic_ops },
  { "generated__mindinsight-writers/run_graphs/high_degree", "849_848_847_424_1_construct", 14, 1, 0, 13, 1, high_degree_ops },
};

/* Returns: (transfer container) (nullable): the graphs, or %NULL when skipped */
static GPtrArray *
load_dataset (const char *relative)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *graphs;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return NULL;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);

      g_test_skip (message);
      return NULL;
    }
  graphs = sl_graph_reader_load (path, NULL, &error);
  g_assert_no_error (error);
  return graphs;
}

static guint
count_op_type (SlGraph    *graph,
               const char *type)
{
  guint n = 0;

  for (guint e = 0; e < sl_graph_get_n_ops (graph); e++)
    n += g_str_equal (sl_graph_element_get_op_type (graph, e), type);
  return n;
}

static void
test_counts (gconstpointer data)
{
  const Expected *want = data;
  g_autoptr(GPtrArray) graphs = load_dataset (want->relative);
  SlGraph *graph;
  guint total = 0, n_types = 0;

  if (graphs == NULL)
    return;
  g_assert_cmpuint (graphs->len, ==, 1);
  graph = g_ptr_array_index (graphs, 0);
  g_assert_cmpstr (sl_graph_get_name (graph), ==, want->name);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, want->nodes);
  g_assert_cmpuint (sl_graph_get_n_parameters (graph), ==, want->parameters);
  g_assert_cmpuint (sl_graph_get_n_consts (graph), ==, want->consts);
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, want->data_edges);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, want->scopes);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);
  for (const OpCount *op = want->op_types; op->type != NULL; op++)
    {
      g_assert_cmpuint (count_op_type (graph, op->type), ==, op->count);
      total += op->count;
      n_types++;
    }
  g_assert_cmpuint (total, ==, want->nodes);
  (void) n_types;
}

/* The hierarchy and names of LeNet, checked by hand against the file. */
static void
test_lenet_hierarchy (void)
{
  g_autoptr(GPtrArray) graphs = load_dataset (expected[0].relative);
  SlGraph *graph;
  guint one_hot, item, def, group;
  const char *value = NULL;

  if (graphs == NULL)
    return;
  graph = g_ptr_array_index (graphs, 0);

  /* Node "1": OneHot, named by its full name, reading args1, cst1, cst2. */
  one_hot = sl_graph_lookup_op (graph, "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits/OneHot-op0");
  g_assert_cmpuint (one_hot, ==, 0);
  g_assert_cmpstr (sl_graph_element_get_proto_name (graph, one_hot), ==, "1");
  g_assert_cmpuint (sl_graph_element_get_n_inputs (graph, one_hot), ==, 3);
  g_assert_cmpuint (sl_graph_element_get_n_attributes (graph, one_hot), ==, 7);
  item = sl_graph_element_get_item (graph, one_hot);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, item), ==, 2);  /* cst1, cst2 inside */

  /* cst1 is a float32 tensor [1.0] in the debugger's layout, cst11 a bool. */
  for (guint e = sl_graph_get_n_ops (graph) + sl_graph_get_n_parameters (graph); e < sl_graph_get_n_elements (graph); e++)
    {
      if (g_str_equal (sl_graph_element_get_proto_name (graph, e), "cst1"))
        {
          sl_graph_element_get_attribute (graph, e, 0, &value);
          g_assert_cmpstr (value, ==, "Tensor(float32, []) = [1]");
        }
      if (g_str_equal (sl_graph_element_get_proto_name (graph, e), "cst11"))
        {
          sl_graph_element_get_attribute (graph, e, 0, &value);
          g_assert_cmpstr (value, ==, "Tensor(bool, []) = [True]");
        }
    }

  /* Default holds 10 tuple_getitem and 9 make_tuple ops: two groups. */
  def = sl_graph_find_item (graph, "Default");
  g_assert_cmpuint (def, !=, SL_GRAPH_NONE);
  group = sl_graph_find_item (graph, "Default/tuple_getitem[10]");
  g_assert_cmpuint (group, !=, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, group), ==, 10);
  g_assert_cmpuint (sl_graph_find_item (graph, "Default/make_tuple[9]"), !=, SL_GRAPH_NONE);
  /* The optimizer's eight ApplyMomentum fold into one group. */
  g_assert_cmpuint (sl_graph_find_item (graph, "Default/optimizer-Momentum/ApplyMomentum[8]"), !=, SL_GRAPH_NONE);
}

static gboolean
boxes_overlap (const SlGraphSceneBox *a,
               const SlGraphSceneBox *b)
{
  return a->x + a->width > b->x + 1e-6 && b->x + b->width > a->x + 1e-6 &&
         a->y + a->height > b->y + 1e-6 && b->y + b->height > a->y + 1e-6;
}

/* Every scope expanded: siblings never overlap and lie inside their
 * container, edges go down unless reversed; the cyclic graph has a
 * reversed edge, and collapsing everything again gives the first view
 * back exactly. */
static void
test_layout (gconstpointer data)
{
  const Expected *want = data;
  g_autoptr(GPtrArray) graphs = load_dataset (want->relative);
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) first = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(SlGraphScene) again = NULL;
  g_autoptr(GError) error = NULL;
  const SlGraphSceneBox *boxes, *b0, *b1;
  const SlGraphSceneEdge *edges;
  const SlGraphScenePoint *points;
  SlGraph *graph;
  guint n_boxes, n_edges, reversed = 0, n0, n1;

  if (graphs == NULL)
    return;
  graph = g_ptr_array_index (graphs, 0);
  layout = sl_graph_layout_new (graph);
  sl_graph_layout_expand_initial (layout);
  first = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 1; i < sl_graph_get_n_items (graph); i++)
    sl_graph_layout_set_expanded (layout, i, TRUE);
  scene = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  edges = sl_graph_scene_get_edges (scene, &n_edges);
  points = sl_graph_scene_get_points (scene, NULL);
  for (guint i = 0; i < n_boxes; i++)
    {
      if (boxes[i].parent != SL_GRAPH_SCENE_NONE)
        {
          const SlGraphSceneBox *p = &boxes[boxes[i].parent];

          g_assert_cmpfloat (boxes[i].x, >=, p->x - 1e-6);
          g_assert_cmpfloat (boxes[i].y, >=, p->y - 1e-6);
          g_assert_cmpfloat (boxes[i].x + boxes[i].width, <=, p->x + p->width + 1e-6);
          g_assert_cmpfloat (boxes[i].y + boxes[i].height, <=, p->y + p->height + 1e-6);
        }
      for (guint j = i + 1; j < n_boxes; j++)
        if (boxes[j].parent == boxes[i].parent)
          g_assert_false (boxes_overlap (&boxes[i], &boxes[j]));
    }
  for (guint i = 0; i < n_edges; i++)
    {
      const SlGraphScenePoint *p = points + edges[i].first_point;

      if (edges[i].from == edges[i].to)
        continue;
      if (edges[i].reversed)
        {
          g_assert_cmpfloat (p[edges[i].n_points - 1].y, <, p[0].y);
          reversed++;
        }
      else
        g_assert_cmpfloat (p[edges[i].n_points - 1].y, >, p[0].y);
    }
  if (g_str_has_suffix (want->relative, "cyclic"))
    g_assert_cmpuint (reversed, >, 0);

  for (guint i = 1; i < sl_graph_get_n_items (graph); i++)
    sl_graph_layout_set_expanded (layout, i, FALSE);
  sl_graph_layout_expand_initial (layout);
  again = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_graph_layout_get_last_n_computed (layout), ==, 0);
  b0 = sl_graph_scene_get_boxes (first, &n0);
  b1 = sl_graph_scene_get_boxes (again, &n1);
  g_assert_cmpuint (n0, ==, n1);
  for (guint i = 0; i < n0; i++)
    {
      g_assert_cmpfloat (b0[i].x, ==, b1[i].x);
      g_assert_cmpfloat (b0[i].y, ==, b1[i].y);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/datasets-graph/lenet", &expected[0], test_counts);
  g_test_add_data_func ("/datasets-graph/run-small", &expected[1], test_counts);
  g_test_add_data_func ("/datasets-graph/cyclic", &expected[2], test_counts);
  g_test_add_data_func ("/datasets-graph/high-degree", &expected[3], test_counts);
  g_test_add_func ("/datasets-graph/lenet-hierarchy", test_lenet_hierarchy);
  g_test_add_data_func ("/datasets-graph/layout/lenet", &expected[0], test_layout);
  g_test_add_data_func ("/datasets-graph/layout/run-small", &expected[1], test_layout);
  g_test_add_data_func ("/datasets-graph/layout/cyclic", &expected[2], test_layout);
  g_test_add_data_func ("/datasets-graph/layout/high-degree", &expected[3], test_layout);
  return g_test_run ();
}
