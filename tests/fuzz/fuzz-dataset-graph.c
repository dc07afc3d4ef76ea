/* fuzz-dataset-graph.c: libFuzzer harness for the DatasetGraph decoder
 *
 * The input is a DatasetGraph message as a lineage file stores it. It is
 * decoded, every node is checked to hang off an earlier node with the
 * child lists agreeing, every parameter to have a key and text, every
 * problem to lie inside the input, and the paths and differences the
 * comparison view uses are computed against a second decoding of the
 * input's first half.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sl-dataset-graph-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Differences are looked up node by node; a few nodes exercise them. */
#define DIFFERENCES_CHECKED 8

static void
check_parameters (GPtrArray *parameters)
{
  for (guint i = 0; i < parameters->len; i++)
    {
      const SlDatasetParameter *parameter = g_ptr_array_index (parameters, i);

      g_assert (parameter->key != NULL);
      g_assert (parameter->type != SL_DATASET_VALUE_STRING_LIST || parameter->list != NULL);
      g_assert (parameter->type == SL_DATASET_VALUE_NULL || parameter->text != NULL);
    }
}

static void
check_graph (SlDatasetGraph *graph,
             size_t          size)
{
  GListModel *problems = sl_dataset_graph_get_problems (graph);
  guint n = sl_dataset_graph_get_n_nodes (graph);

  g_assert (n <= SL_DATASET_GRAPH_MAX_NODES);
  for (guint i = 0; i < n; i++)
    {
      const SlDatasetNode *node = sl_dataset_graph_get_node (graph, i);

      g_assert (sl_dataset_node_get_label (node) != NULL);
      g_assert (node->parent == SL_DATASET_NO_NODE ? i == 0 : node->parent < i);
      if (node->parent != SL_DATASET_NO_NODE)
        {
          const SlDatasetNode *parent = sl_dataset_graph_get_node (graph, node->parent);
          gboolean listed = FALSE;

          for (guint c = 0; c < parent->children->len; c++)
            listed |= g_array_index (parent->children, guint, c) == i;
          g_assert (listed);
          g_assert (node->depth == parent->depth + 1);
        }
      check_parameters (node->parameters);
      for (guint o = 0; o < node->operations->len; o++)
        check_parameters (((SlDatasetOperation *) g_ptr_array_index (node->operations, o))->parameters);
    }
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      g_assert (sl_problem_get_offset (problem) >= 0 && (size_t) sl_problem_get_offset (problem) <= size);
      g_assert (sl_problem_get_message (problem) != NULL);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlDatasetGraph) graph = sl_dataset_graph_reader_decode ("fuzz_lineage", size > 0 ? data : NULL, size);
  g_autoptr(SlDatasetGraph) half = sl_dataset_graph_reader_decode ("fuzz_lineage", size > 0 ? data : NULL, size / 2);
  SlDatasetGraph *others[] = { graph, half };

  check_graph (graph, size);
  check_graph (half, size / 2);

  for (guint i = 0; i < sl_dataset_graph_get_n_nodes (graph) && i < DIFFERENCES_CHECKED; i++)
    {
      g_autofree char *path = sl_dataset_graph_dup_node_path (graph, i);
      g_autoptr(GPtrArray) differs = sl_dataset_graph_dup_differences (graph, i, others, G_N_ELEMENTS (others));

      g_assert (path != NULL && differs != NULL);
    }
  return 0;
}
