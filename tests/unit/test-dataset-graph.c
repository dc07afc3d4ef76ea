/* test-dataset-graph.c: DatasetGraph bytes to nodes, and to a scene
 *
 * A known lineage tree, encoded here field by field, must come out as
 * exactly these nodes, parameters and children; "None" is null; the
 * sampler is a node. A tree deeper than the node limit is cut with a
 * warning and no recursion; damage at every truncation keeps what came
 * before and says where; a known overrun is reported at its byte. Runs
 * are compared node by node; the scene puts sources above the root.
 * Stream scenes: ids, labels, flags, data and control edges, a loop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-dataset-graph-reader.h"
#include "sl-dataset-graph-scene.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"
#include "sl-pipeline-scene.h"

static void
put_varint (GByteArray *out,
            guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

static void
put_len (GByteArray *out,
         guint       field,
         const void *data,
         gsize       length)
{
  put_varint (out, (field << 3) | 2);
  put_varint (out, length);
  g_byte_array_append (out, data, length);
}

static void
put_message (GByteArray *out,
             guint       field,
             GByteArray *message)
{
  put_len (out, field, message->data, message->len);
  g_byte_array_unref (message);
}

static void
put_string (GByteArray *out,
            guint       field,
            const char *text)
{
  put_len (out, field, text, strlen (text));
}

/* An OperationParameter map entry of a string (map 1). */
static void
put_str_entry (GByteArray *params,
               const char *key,
               const char *value)
{
  GByteArray *entry = g_byte_array_new ();

  put_string (entry, 1, key);
  put_string (entry, 2, value);
  put_message (params, 1, entry);
}

static void
put_int_entry (GByteArray *params,
               guint       map,      /* 3 bool, 4 int32 */
               const char *key,
               gint64      value)
{
  GByteArray *entry = g_byte_array_new ();

  put_string (entry, 1, key);
  put_varint (entry, (2 << 3) | 0);
  put_varint (entry, (guint64)value);
  put_message (params, map, entry);
}

static void
put_double_entry (GByteArray *params,
                  const char *key,
                  double      value)
{
  GByteArray *entry = g_byte_array_new ();
  guint8 bytes[8];
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  for (guint i = 0; i < 8; i++)
    bytes[i] = (bits >> (8 * i)) & 0xff;
  put_string (entry, 1, key);
  put_varint (entry, (2 << 3) | 1);
  g_byte_array_append (entry, bytes, 8);
  put_message (params, 5, entry);
}

static void
put_list_entry (GByteArray  *params,
                const char  *key,
                const char **values)
{
  GByteArray *entry = g_byte_array_new ();
  GByteArray *list = g_byte_array_new ();

  for (guint i = 0; values[i] != NULL; i++)
    put_string (list, 1, values[i]);
  put_string (entry, 1, key);
  put_message (entry, 2, list);
  put_message (params, 2, entry);
}

/* Batch(batch_size=32, drop_remainder, workers None)
 *  └ Map(input_columns [image, label]; Rescale(rescale 0.5), size 3, 4)
 *     └ Mnist(dataset_dir) with RandomSampler(num_samples 200) */
static GByteArray *
build_known (gint64 batch_size)
{
  const char *columns[] = { "image", "label", NULL };
  GByteArray *root = g_byte_array_new ();
  GByteArray *map = g_byte_array_new ();
  GByteArray *mnist = g_byte_array_new ();
  GByteArray *params, *op, *op_params, *sampler, *sampler_params, *packed;

  params = g_byte_array_new ();
  put_str_entry (params, "op_type", "MnistDataset");
  put_str_entry (params, "dataset_dir", "/data/mnist");
  put_message (mnist, 2, params);
  sampler = g_byte_array_new ();
  sampler_params = g_byte_array_new ();
  put_str_entry (sampler_params, "sampler_name", "RandomSampler");
  put_int_entry (sampler_params, 4, "num_samples", 200);
  put_message (sampler, 1, sampler_params);
  put_message (mnist, 4, sampler);

  put_message (map, 1, mnist);
  params = g_byte_array_new ();
  put_str_entry (params, "op_type", "MapDataset");
  put_list_entry (params, "input_columns", columns);
  put_message (map, 2, params);
  op = g_byte_array_new ();
  op_params = g_byte_array_new ();
  put_str_entry (op_params, "tensor_op_name", "Rescale");
  put_double_entry (op_params, "rescale", 0.5);
  put_message (op, 1, op_params);
  packed = g_byte_array_new ();
  put_varint (packed, 3);
  put_varint (packed, 4);
  put_message (op, 2, packed);
  put_message (map, 3, op);

  put_message (root, 1, map);
  params = g_byte_array_new ();
  put_str_entry (params, "op_type", "BatchDataset");
  put_int_entry (params, 4, "batch_size", batch_size);
  put_int_entry (params, 3, "drop_remainder", 1);
  put_str_entry (params, "num_parallel_workers", "None");
  put_message (root, 2, params);
  return root;
}

static const char *
text_of (const SlDatasetNode *node,
         const char          *key)
{
  const SlDatasetParameter *parameter = sl_dataset_node_lookup_parameter (node, key);

  g_assert_nonnull (parameter);
  return parameter->text;
}

static void
test_known_graph (void)
{
  g_autoptr(GByteArray) bytes = build_known (32);
  g_autoptr(SlDatasetGraph) graph = sl_dataset_graph_reader_decode ("run_lineage", bytes->data, bytes->len);
  const SlDatasetNode *node;
  const SlDatasetOperation *operation;
  const SlDatasetParameter *parameter;
  g_autofree char *path = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (sl_dataset_graph_get_problems (graph)), ==, 0);
  g_assert_cmpuint (sl_dataset_graph_get_n_nodes (graph), ==, 4);

  node = sl_dataset_graph_get_node (graph, 0);
  g_assert_cmpstr (node->op_type, ==, "BatchDataset");
  g_assert_cmpuint (node->parent, ==, SL_DATASET_NO_NODE);
  g_assert_cmpuint (node->parameters->len, ==, 4);
  /* Sorted by key. */
  g_assert_cmpstr (((SlDatasetParameter *)g_ptr_array_index (node->parameters, 0))->key, ==, "batch_size");
  g_assert_cmpstr (text_of (node, "batch_size"), ==, "32");
  g_assert_cmpint (sl_dataset_node_lookup_parameter (node, "batch_size")->type, ==, SL_DATASET_VALUE_INTEGER);
  g_assert_cmpstr (text_of (node, "drop_remainder"), ==, "true");
  parameter = sl_dataset_node_lookup_parameter (node, "num_parallel_workers");
  g_assert_cmpint (parameter->type, ==, SL_DATASET_VALUE_NULL);
  g_assert_null (parameter->text);
  g_assert_cmpuint (node->children->len, ==, 1);
  g_assert_cmpuint (g_array_index (node->children, guint, 0), ==, 1);

  node = sl_dataset_graph_get_node (graph, 1);
  g_assert_cmpstr (node->op_type, ==, "MapDataset");
  g_assert_cmpstr (text_of (node, "input_columns"), ==, "[\"image\", \"label\"]");
  g_assert_cmpstr (sl_dataset_node_lookup_parameter (node, "input_columns")->list[1], ==, "label");
  g_assert_cmpuint (node->operations->len, ==, 1);
  operation = g_ptr_array_index (node->operations, 0);
  g_assert_cmpstr (operation->name, ==, "Rescale");
  g_assert_cmpuint (operation->parameters->len, ==, 3);
  g_assert_cmpstr (((SlDatasetParameter *)g_ptr_array_index (operation->parameters, 0))->key, ==, "rescale");
  g_assert_cmpstr (((SlDatasetParameter *)g_ptr_array_index (operation->parameters, 0))->text, ==, "0.5");
  g_assert_cmpstr (((SlDatasetParameter *)g_ptr_array_index (operation->parameters, 1))->text, ==, "[3, 4]");

  node = sl_dataset_graph_get_node (graph, 2);
  g_assert_cmpstr (node->op_type, ==, "MnistDataset");
  g_assert_cmpuint (node->depth, ==, 2);
  g_assert_cmpuint (node->children->len, ==, 1);

  node = sl_dataset_graph_get_node (graph, 3);
  g_assert_cmpint (node->kind, ==, SL_DATASET_NODE_SAMPLER);
  g_assert_cmpstr (sl_dataset_node_get_label (node), ==, "RandomSampler");
  g_assert_cmpstr (text_of (node, "num_samples"), ==, "200");
  g_assert_cmpuint (node->parent, ==, 2);

  path = sl_dataset_graph_dup_node_path (graph, 3);
  g_assert_cmpstr (path, ==, "BatchDataset/MapDataset/MnistDataset/RandomSampler");
}

static void
test_compare (void)
{
  g_autoptr(GByteArray) a_bytes = build_known (32);
  g_autoptr(GByteArray) b_bytes = build_known (64);
  g_autoptr(SlDatasetGraph) a = sl_dataset_graph_reader_decode (NULL, a_bytes->data, a_bytes->len);
  g_autoptr(SlDatasetGraph) b = sl_dataset_graph_reader_decode (NULL, b_bytes->data, b_bytes->len);
  SlDatasetGraph *both[] = { a, b };
  g_autoptr(GPtrArray) root = sl_dataset_graph_dup_differences (a, 0, both, 2);
  g_autoptr(GPtrArray) map = sl_dataset_graph_dup_differences (a, 1, both, 2);
  g_autoptr(GPtrArray) alone = sl_dataset_graph_dup_differences (a, 0, both, 1);

  g_assert_cmpuint (root->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (root, 0), ==, "batch_size");
  g_assert_cmpuint (map->len, ==, 0);
  g_assert_cmpuint (alone->len, ==, 0);
}

static void
test_deep_tree (void)
{
  /* Nested from the inside out: 50,000 levels, each a child of the next. */
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(SlDatasetGraph) graph = NULL;
  g_autoptr(SlProblem) problem = NULL;
  g_autofree char *path = NULL;

  for (guint i = 0; i < 50000; i++)
    {
      GByteArray *outer = g_byte_array_new ();

      put_len (outer, 1, bytes->data, bytes->len);
      g_byte_array_unref (bytes);
      bytes = outer;
    }

  graph = sl_dataset_graph_reader_decode ("deep", bytes->data, bytes->len);
  g_assert_cmpuint (sl_dataset_graph_get_n_nodes (graph), ==, SL_DATASET_GRAPH_MAX_NODES);
  g_assert_cmpuint (sl_dataset_graph_get_node (graph, SL_DATASET_GRAPH_MAX_NODES - 1)->depth, ==,
                    SL_DATASET_GRAPH_MAX_NODES - 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_dataset_graph_get_problems (graph)), ==, 1);
  problem = g_list_model_get_item (sl_dataset_graph_get_problems (graph), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  path = sl_dataset_graph_dup_node_path (graph, SL_DATASET_GRAPH_MAX_NODES - 1);
  g_assert_cmpuint (strlen (path), ==, SL_DATASET_GRAPH_MAX_NODES * strlen ("Dataset/") - 1);
}

static void
test_damage (void)
{
  g_autoptr(GByteArray) bytes = build_known (32);
  /* Field 1, 5 bytes long, with one byte left. */
  const guint8 overrun[] = { 0x0a, 0x05, 0x12 };
  g_autoptr(SlDatasetGraph) graph = sl_dataset_graph_reader_decode ("bad", overrun, sizeof overrun);
  g_autoptr(SlProblem) problem = g_list_model_get_item (sl_dataset_graph_get_problems (graph), 0);

  g_assert_cmpuint (sl_dataset_graph_get_n_nodes (graph), ==, 1);
  g_assert_nonnull (problem);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, "bad");
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "byte 0"));

  /* Every truncation: no crash, the root is kept, damage within bounds. */
  for (gsize length = 1; length < bytes->len; length++)
    {
      g_autoptr(SlDatasetGraph) cut = sl_dataset_graph_reader_decode ("cut", bytes->data, length);
      GListModel *problems = sl_dataset_graph_get_problems (cut);

      g_assert_cmpuint (sl_dataset_graph_get_n_nodes (cut), >=, 1);
      for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
        {
          g_autoptr(SlProblem) p = g_list_model_get_item (problems, i);
          g_assert_cmpint (sl_problem_get_offset (p), <=, (gint64)length);
        }
    }

  /* Groups are not in this schema. */
  {
    const guint8 group[] = { 0x0b };
    g_autoptr(SlDatasetGraph) g = sl_dataset_graph_reader_decode ("group", group, sizeof group);
    g_assert_cmpuint (g_list_model_get_n_items (sl_dataset_graph_get_problems (g)), ==, 1);
  }
}

/* A key repeated in a map: the last value wins and the repeats go. Found
 * by fuzzing: the set of keys seen kept a repeat's key, freed with it. */
static void
test_repeated_keys (void)
{
  GByteArray *params = g_byte_array_new ();
  g_autoptr(GByteArray) root = g_byte_array_new ();
  g_autoptr(SlDatasetGraph) graph = NULL;
  g_autoptr(GByteArray) many = g_byte_array_new ();
  g_autoptr(SlDatasetGraph) flood = NULL;
  const SlDatasetNode *node;

  put_str_entry (params, "op_type", "MapDataset");
  put_str_entry (params, "key", "first");
  put_str_entry (params, "key", "second");
  put_int_entry (params, 4, "key", 3);
  put_str_entry (params, "other", "x");
  put_str_entry (params, "key", "last");
  put_str_entry (params, "op_type", "BatchDataset");
  put_message (root, 2, params);

  graph = sl_dataset_graph_reader_decode ("repeats", root->data, root->len);
  g_assert_cmpuint (sl_dataset_graph_get_n_nodes (graph), ==, 1);
  node = sl_dataset_graph_get_node (graph, 0);
  g_assert_cmpuint (node->parameters->len, ==, 3);
  g_assert_cmpstr (((SlDatasetParameter *) g_ptr_array_index (node->parameters, 0))->key, ==, "key");
  g_assert_cmpstr (sl_dataset_node_lookup_parameter (node, "key")->text, ==, "last");
  g_assert_cmpstr (sl_dataset_node_lookup_parameter (node, "other")->text, ==, "x");
  g_assert_cmpstr (node->op_type, ==, "BatchDataset");

  /* 50,000 repeats of one key, dropped in one pass. */
  params = g_byte_array_new ();
  for (guint i = 0; i < 50000; i++)
    put_int_entry (params, 4, "num_parallel_workers", i);
  put_message (many, 2, params);
  flood = sl_dataset_graph_reader_decode ("flood", many->data, many->len);
  node = sl_dataset_graph_get_node (flood, 0);
  g_assert_cmpuint (node->parameters->len, ==, 1);
  g_assert_cmpstr (sl_dataset_node_lookup_parameter (node, "num_parallel_workers")->text, ==, "49999");
}

/* A chain of @depth MapDatasets, the deepest with batch_size @batch. */
static GByteArray *
build_chain (guint  depth,
             gint64 batch)
{
  GByteArray *graph = g_byte_array_new ();
  GByteArray *params = g_byte_array_new ();

  put_str_entry (params, "op_type", "MapDataset");
  put_int_entry (params, 4, "batch_size", batch);
  put_message (graph, 2, params);
  for (guint i = 1; i < depth; i++)
    {
      GByteArray *outer = g_byte_array_new ();

      params = g_byte_array_new ();
      put_str_entry (params, "op_type", "MapDataset");
      put_message (outer, 2, params);
      put_message (outer, 1, graph);
      graph = outer;
    }
  return graph;
}

/* Deep graphs compare node by node in time linear in their depth: the
 * place of a node in the other graph is walked down to, where comparing
 * every path of the other graph made this cubic. */
static void
test_compare_deep (void)
{
  const guint depth = 3000;
  g_autoptr(GByteArray) a_bytes = build_chain (depth, 32);
  g_autoptr(GByteArray) b_bytes = build_chain (depth, 64);
  g_autoptr(GByteArray) c_bytes = build_chain (depth / 2, 32);
  g_autoptr(SlDatasetGraph) a = sl_dataset_graph_reader_decode ("a", a_bytes->data, a_bytes->len);
  g_autoptr(SlDatasetGraph) b = sl_dataset_graph_reader_decode ("b", b_bytes->data, b_bytes->len);
  g_autoptr(SlDatasetGraph) c = sl_dataset_graph_reader_decode ("c", c_bytes->data, c_bytes->len);
  SlDatasetGraph *both[] = { a, b };
  SlDatasetGraph *shorter[] = { a, c };
  gint64 start = g_get_monotonic_time ();

  g_assert_cmpuint (sl_dataset_graph_get_n_nodes (a), ==, depth);
  for (guint i = 0; i < depth; i++)
    {
      g_autoptr(GPtrArray) differs = sl_dataset_graph_dup_differences (a, i, both, 2);

      g_assert_cmpuint (differs->len, ==, i + 1 == depth ? 1 : 0);
      if (differs->len > 0)
        g_assert_cmpstr (g_ptr_array_index (differs, 0), ==, "batch_size");
    }
  {
    /* Past the end of the shorter chain every parameter differs. */
    g_autoptr(GPtrArray) deep = sl_dataset_graph_dup_differences (a, depth - 1, shorter, 2);
    g_autoptr(GPtrArray) middle = sl_dataset_graph_dup_differences (a, depth / 2 - 1, shorter, 2);

    g_assert_cmpuint (deep->len, ==, 2);
    g_assert_cmpuint (middle->len, ==, 1);
  }
  /* Far below the minutes the path comparison took. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
}

static void
test_dataset_scene (void)
{
  g_autoptr(GByteArray) bytes = build_known (32);
  g_autoptr(SlDatasetGraph) graph = sl_dataset_graph_reader_decode (NULL, bytes->data, bytes->len);
  g_autoptr(GArray) marked = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(GError) error = NULL;
  const SlGraphSceneBox *boxes;
  const SlGraphSceneEdge *edges;
  guint n_boxes, n_edges, zero = 0;

  g_array_append_val (marked, zero);
  scene = sl_dataset_graph_scene_build (graph, marked, NULL, &error);
  g_assert_no_error (error);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  edges = sl_graph_scene_get_edges (scene, &n_edges);
  g_assert_cmpuint (n_boxes, ==, 4);
  g_assert_cmpuint (n_edges, ==, 3);
  g_assert_cmpstr (boxes[0].label, ==, "BatchDataset");
  g_assert_cmpstr (boxes[1].detail, ==, "Rescale");
  g_assert_cmpint (boxes[3].shape, ==, SL_GRAPH_SHAPE_PARAMETER);
  g_assert_cmpint (boxes[0].flags, ==, SL_GRAPH_BOX_WARNING);
  g_assert_cmpint (boxes[1].flags, ==, 0);
  /* Data flows down: the sampler on top, the batch at the bottom. */
  g_assert_cmpfloat (boxes[3].y, <, boxes[2].y);
  g_assert_cmpfloat (boxes[2].y, <, boxes[1].y);
  g_assert_cmpfloat (boxes[1].y, <, boxes[0].y);
  for (guint e = 0; e < n_edges; e++)
    {
      g_assert_false (edges[e].reversed);
      g_assert_cmpuint (edges[e].to, ==, sl_dataset_graph_get_node (graph, edges[e].from)->parent);
    }
}

static void
test_stream_scene (void)
{
  const char *text =
    "{\"s\": {\"stream_config\": {\"deviceId\": \"0\"},\n"
    " \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"q\"},\n"
    " \"q\": {\"factory\": \"queue\", \"next\": \"appsink0\", \"nextMeta\": \"appsrc0\"},\n"
    " \"appsink0\": {\"factory\": \"appsink\", \"next\": \"nosuch\"},\n"
    " \"lonely\": {\"factory\": \"fakesink\"}}}\n";
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("s.pipeline", (const guint8 *)text, strlen (text));
  g_autoptr(GPtrArray) problems = sl_pipeline_check (pipeline, "/nonexistent", NULL);
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(GError) error = NULL;
  const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, 0);
  const SlGraphSceneBox *boxes;
  const SlGraphSceneEdge *edges;
  guint n_boxes, n_edges, n_reversed = 0, n_control = 0;

  scene = sl_pipeline_scene_build (stream, problems, NULL, &error);
  g_assert_no_error (error);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  edges = sl_graph_scene_get_edges (scene, &n_edges);

  g_assert_cmpuint (n_boxes, ==, 4);
  for (guint i = 0; i < n_boxes; i++)
    g_assert_cmpuint (boxes[i].id, ==, i);
  g_assert_cmpstr (boxes[1].label, ==, "q");
  g_assert_cmpstr (boxes[1].detail, ==, "queue");
  g_assert_cmpstr (boxes[3].label, ==, "lonely");
  g_assert_true (boxes[2].flags & SL_GRAPH_BOX_ERROR);
  g_assert_true (boxes[3].flags & SL_GRAPH_BOX_ERROR);   /* nothing links to it */
  g_assert_false (boxes[3].flags & SL_GRAPH_BOX_WARNING);

  /* appsrc0 → q → appsink0 (data), q → appsrc0 (control, a loop). */
  g_assert_cmpuint (n_edges, ==, 3);
  for (guint e = 0; e < n_edges; e++)
    {
      n_reversed += edges[e].reversed;
      if (edges[e].kind == SL_GRAPH_SCENE_EDGE_CONTROL)
        {
          n_control++;
          g_assert_cmpuint (edges[e].from, ==, 1);
          g_assert_cmpuint (edges[e].to, ==, 0);
        }
      g_assert_cmpuint (edges[e].n_points, >=, 2);
    }
  g_assert_cmpuint (n_control, ==, 1);
  g_assert_cmpuint (n_reversed, ==, 1);

  /* The problem of appsink0 is about it and no other. */
  for (guint p = 0; p < problems->len; p++)
    {
      SlProblem *problem = g_ptr_array_index (problems, p);

      if (g_strcmp0 (sl_problem_get_subject (problem), "appsink0") == 0)
        {
          g_assert_true (sl_pipeline_scene_problem_is_about (stream, 2, problem));
          g_assert_false (sl_pipeline_scene_problem_is_about (stream, 1, problem));
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dataset-graph/known", test_known_graph);
  g_test_add_func ("/dataset-graph/compare", test_compare);
  g_test_add_func ("/dataset-graph/deep", test_deep_tree);
  g_test_add_func ("/dataset-graph/damage", test_damage);
  g_test_add_func ("/dataset-graph/repeated-keys", test_repeated_keys);
  g_test_add_func ("/dataset-graph/compare-deep", test_compare_deep);
  g_test_add_func ("/dataset-graph/scene", test_dataset_scene);
  g_test_add_func ("/pipeline-scene/stream", test_stream_scene);

  return g_test_run ();
}
