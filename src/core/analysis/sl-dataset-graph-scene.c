/* sl-dataset-graph-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-dataset-graph-scene.h"
#include "sl-layered-layout.h"

/* As in sl-pipeline-scene.c: about 7 units a character at zoom 1. */
#define CHAR_WIDTH   7.0
#define BOX_PADDING  24.0
#define BOX_MIN      96.0
#define BOX_MAX      320.0
#define BOX_HEIGHT   44.0

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
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(SlLayeredLayout) layout = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GPtrArray) details = NULL;
  g_autofree guint8 *flags = NULL;
  SlLayeredInput input = { 0 };
  guint n;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (graph), NULL);

  n = sl_dataset_graph_get_n_nodes (graph);
  sizes = g_array_sized_new (FALSE, TRUE, sizeof (SlLayeredSize), n);
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
      char *detail = NULL;
      SlLayeredSize size;
      glong chars;

      /* A map's detail: its tensor operations. */
      if (node->operations->len > 0)
        {
          GString *text = g_string_new (NULL);

          for (guint o = 0; o < node->operations->len; o++)
            {
              const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);

              if (o > 0)
                g_string_append (text, ", ");
              g_string_append (text, operation->name != NULL ? operation->name : "?");
            }
          detail = g_string_free (text, FALSE);
        }
      else if (node_detail (node) != NULL)
        detail = g_strdup (node_detail (node));
      g_ptr_array_add (details, detail);

      chars = g_utf8_strlen (label, -1);
      if (detail != NULL)
        chars = MAX (chars, g_utf8_strlen (detail, -1));
      size.width = CLAMP (chars * CHAR_WIDTH + BOX_PADDING, BOX_MIN, BOX_MAX);
      size.height = BOX_HEIGHT;
      g_array_append_val (sizes, size);

      if (node->parent != SL_DATASET_NO_NODE && node->parent < n)
        {
          SlLayeredEdge edge = { i, node->parent, SL_LAYERED_EDGE_DATA };
          g_array_append_val (edges, edge);
        }
    }

  input.nodes = (const SlLayeredSize *)(gpointer)sizes->data;
  input.n_nodes = n;
  input.edges = (const SlLayeredEdge *)(gpointer)edges->data;
  input.n_edges = edges->len;
  input.node_separation = 32;
  input.rank_separation = 48;
  input.crossing_budget_ms = 200;

  layout = sl_layered_layout_compute (&input, cancellable, NULL, NULL, error);
  if (layout == NULL)
    return NULL;

  scene = sl_graph_scene_new ();
  for (guint i = 0; i < n; i++)
    {
      const SlDatasetNode *node = sl_dataset_graph_get_node (graph, i);
      const SlLayeredSize *size = &g_array_index (sizes, SlLayeredSize, i);
      SlGraphSceneBox box = { 0 };
      double cx, cy;

      sl_layered_layout_get_node_centre (layout, i, &cx, &cy);
      box.x = cx - size->width / 2;
      box.y = cy - size->height / 2;
      box.width = size->width;
      box.height = size->height;
      box.id = i;
      box.parent = SL_GRAPH_SCENE_NONE;
      box.shape = node->kind == SL_DATASET_NODE_SAMPLER ? SL_GRAPH_SHAPE_PARAMETER : SL_GRAPH_SHAPE_OP;
      box.flags = flags[i];
      box.heat = -1;
      box.label = sl_dataset_node_get_label (node);
      box.detail = g_ptr_array_index (details, i);
      sl_graph_scene_add_box (scene, &box);
    }

  for (guint e = 0; e < edges->len; e++)
    {
      const SlLayeredEdge *edge = &g_array_index (edges, SlLayeredEdge, e);
      const SlLayeredPoint *points;
      guint n_points = 0;

      points = sl_layered_layout_get_edge_points (layout, e, &n_points);
      sl_graph_scene_add_edge (scene, edge->source, edge->target, SL_GRAPH_SCENE_EDGE_DATA,
                               sl_layered_layout_edge_is_reversed (layout, e), 1,
                               (const SlGraphScenePoint *)(gconstpointer)points, n_points);
    }

  sl_graph_scene_finish (scene);
  return g_steal_pointer (&scene);
}
