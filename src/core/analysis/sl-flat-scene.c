/* sl-flat-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-flat-scene.h"

/* The canvas draws a label in about 7 units a character at zoom 1. */
#define CHAR_WIDTH      7.0
#define BOX_PADDING     24.0
#define BOX_MIN         96.0
#define BOX_MAX         320.0
#define NODE_SEPARATION 32.0
#define CROSSING_WORK   4000000

double
sl_flat_scene_box_width (const char *label,
                         const char *detail)
{
  glong chars = label != NULL ? g_utf8_strlen (label, 400) : 0;

  if (detail != NULL)
    chars = MAX (chars, g_utf8_strlen (detail, 400));
  return CLAMP (chars * CHAR_WIDTH + BOX_PADDING, BOX_MIN, BOX_MAX);
}

SlGraphScene *
sl_flat_scene_build (const SlGraphSceneBox  *boxes,
                     guint                   n_boxes,
                     const SlLayeredEdge    *edges,
                     const guint            *counts,
                     guint                   n_edges,
                     double                  rank_separation,
                     GCancellable           *cancellable,
                     GError                **error)
{
  g_autofree SlLayeredSize *sizes = g_new (SlLayeredSize, MAX (n_boxes, 1));
  g_autoptr(SlLayeredLayout) layout = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  SlLayeredInput input;

  g_return_val_if_fail (boxes != NULL || n_boxes == 0, NULL);
  g_return_val_if_fail (edges != NULL || n_edges == 0, NULL);

  for (guint i = 0; i < n_boxes; i++)
    sizes[i] = (SlLayeredSize) { boxes[i].width, boxes[i].height };
  input = (SlLayeredInput) {
    .nodes = sizes,
    .n_nodes = n_boxes,
    .edges = edges,
    .n_edges = n_edges,
    .node_separation = NODE_SEPARATION,
    .rank_separation = rank_separation,
    .crossing_work_budget = CROSSING_WORK,
  };
  layout = sl_layered_layout_compute (&input, cancellable, NULL, NULL, error);
  if (layout == NULL)
    return NULL;

  scene = sl_graph_scene_new ();
  for (guint i = 0; i < n_boxes; i++)
    {
      SlGraphSceneBox box = boxes[i];
      double cx, cy;

      sl_layered_layout_get_node_centre (layout, i, &cx, &cy);
      box.x = cx - box.width / 2;
      box.y = cy - box.height / 2;
      box.parent = SL_GRAPH_SCENE_NONE;
      box.depth = 0;
      sl_graph_scene_add_box (scene, &box);
    }
  G_STATIC_ASSERT (sizeof (SlLayeredPoint) == sizeof (SlGraphScenePoint));
  for (guint e = 0; e < n_edges; e++)
    {
      guint n_points = 0;
      const SlLayeredPoint *points = sl_layered_layout_get_edge_points (layout, e, &n_points);

      if (n_points < 2)
        continue;
      sl_graph_scene_add_edge (scene, edges[e].source, edges[e].target,
                               edges[e].kind == SL_LAYERED_EDGE_CONTROL ? SL_GRAPH_SCENE_EDGE_CONTROL
                                                                        : SL_GRAPH_SCENE_EDGE_DATA,
                               sl_layered_layout_edge_is_reversed (layout, e), counts != NULL ? counts[e] : 1,
                               (const SlGraphScenePoint *) points, n_points);
    }
  sl_graph_scene_finish (scene);
  return g_steal_pointer (&scene);
}
