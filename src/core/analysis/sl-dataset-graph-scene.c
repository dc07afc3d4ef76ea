/* sl-dataset-graph-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-dataset-graph-scene.h"
#include "sl-flat-scene.h"

#define BOX_HEIGHT      44.0
#define RANK_SEPARATION 48.0

static const char *
node_detail (const SlDatasetNode *node);

/* A map's detail: its tensor operations; others their module. */
static char *
dup_detail (const SlDatasetNode *node)
{
  GString *text;

  if (node->operations->len == 0)
    return g_strdup (node_detail (node));
  text = g_string_new (NULL);
  for (guint o = 0; o < node->operations->len; o++)
    {
      const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);

      if (o > 0)
        g_string_append (text, ", ");
      g_string_append (text, operation->name != NULL ? operation->name : "?");
    }
  return g_string_free (text, FALSE);
}

static const char *
node_detail (const SlDatasetNode *node)
{
  const char *dot;

  if (node->kind == SL_DATASET_NODE_SAMPLER)
    return _("sampler");
  if (node->operations->len > 0)
    return NULL;
  if (node->module == NULL)
    return NULL;
  dot = strrchr (node->module, '.');
  return dot != NULL ? dot + 1 : node->module;
}

SlGraphScene *
sl_dataset_graph_scene_build (SlDatasetGraph *graph,
                              GArray         *marked,
                              GCancellable   *cancellable,
                              GError        **error)
{
  g_autoptr(GArray) boxes = NULL;
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GPtrArray) details = NULL;
  g_autofree guint8 *flags = NULL;
  guint n;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (graph), NULL);

  n = sl_dataset_graph_get_n_nodes (graph);
  boxes = g_array_sized_new (FALSE, TRUE, sizeof (SlGraphSceneBox), n);
  edges = g_array_new (FALSE, TRUE, sizeof (SlLayeredEdge));
  details = g_ptr_array_new_with_free_func (g_free);
  flags = g_new0 (guint8, MAX (n, 1));

  for (guint i = 0; marked != NULL && i < marked->len; i++)
    {
      guint index = g_array_index (marked, guint, i);

      if (index < n)
        flags[index] |= SL_GRAPH_BOX_WARNING;
    }

  for (guint i = 0; i < n; i++)
    {
      const SlDatasetNode *node = sl_dataset_graph_get_node (graph, i);
      const char *label = sl_dataset_node_get_label (node);
      char *detail = dup_detail (node);
      SlGraphSceneBox box = {
        .width = sl_flat_scene_box_width (label, detail),
        .height = BOX_HEIGHT,
        .id = i,
        .shape = node->kind == SL_DATASET_NODE_SAMPLER ? SL_GRAPH_SHAPE_PARAMETER : SL_GRAPH_SHAPE_OP,
        .flags = flags[i],
        .heat = -1,
        .label = label,
        .detail = detail,
      };

      g_ptr_array_add (details, detail);
      g_array_append_val (boxes, box);
      /* Data flows from the leaves to the root. */
      if (node->parent != SL_DATASET_NO_NODE && node->parent < n)
        {
          SlLayeredEdge edge = { i, node->parent, SL_LAYERED_EDGE_DATA };

          g_array_append_val (edges, edge);
        }
    }

  return sl_flat_scene_build ((const SlGraphSceneBox *) boxes->data, n, (const SlLayeredEdge *) edges->data, NULL,
                              edges->len, RANK_SEPARATION, cancellable, error);
}
