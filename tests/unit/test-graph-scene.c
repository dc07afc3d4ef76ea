/* test-graph-scene.c: the scene's indexes give what a linear scan gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-scene.h"

static guint
add_box (SlGraphScene *scene,
         double        x,
         double        y,
         double        w,
         double        h,
         guint32       id,
         guint32       parent)
{
  SlGraphSceneBox box = {
    .x = x, .y = y, .width = w, .height = h,
    .id = id, .parent = parent, .shape = SL_GRAPH_SHAPE_OP, .heat = -1,
    .label = "box", .detail = NULL,
  };

  return sl_graph_scene_add_box (scene, &box);
}

static void
test_scene_small (void)
{
  g_autoptr(SlGraphScene) scene = sl_graph_scene_new ();
  g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint32));
  SlGraphScenePoint route[] = { { 50, 40 }, { 50, 200 }, { 150, 200 }, { 150, 300 } };
  const SlGraphSceneBox *b;
  const guint32 *touching;
  double x, y, w, h;
  guint frame, a, c, n;

  frame = add_box (scene, 0, 0, 400, 400, 7, SL_GRAPH_SCENE_NONE);
  a = add_box (scene, 10, 10, 80, 30, 8, frame);
  c = add_box (scene, 110, 300, 80, 30, 9, frame);
  g_assert_cmpuint (sl_graph_scene_add_edge (scene, a, c, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 3,
                                             route, G_N_ELEMENTS (route)), ==, 0);
  sl_graph_scene_finish (scene);
  g_assert_true (sl_graph_scene_is_finished (scene));

  b = sl_graph_scene_get_boxes (scene, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (b[1].label, ==, "box");
  g_assert_null (b[1].detail);

  sl_graph_scene_get_bounds (scene, &x, &y, &w, &h);
  g_assert_cmpfloat (x, ==, 0);
  g_assert_cmpfloat (y, ==, 0);
  g_assert_cmpfloat (w, ==, 400);
  g_assert_cmpfloat (h, ==, 400);

  g_assert_cmpuint (sl_graph_scene_lookup_id (scene, 9), ==, c);
  g_assert_cmpuint (sl_graph_scene_lookup_id (scene, 10), ==, SL_GRAPH_SCENE_NONE);

  /* Innermost box wins; outside all boxes nothing. */
  g_assert_cmpuint (sl_graph_scene_hit (scene, 20, 20), ==, a);
  g_assert_cmpuint (sl_graph_scene_hit (scene, 300, 100), ==, frame);
  g_assert_cmpuint (sl_graph_scene_hit (scene, 500, 100), ==, SL_GRAPH_SCENE_NONE);

  /* A rectangle on the edge's middle segment only. */
  sl_graph_scene_query (scene, 90, 190, 20, 20, boxes, edges);
  g_assert_cmpuint (boxes->len, ==, 1);
  g_assert_cmpuint (g_array_index (boxes, guint32, 0), ==, frame);
  g_assert_cmpuint (edges->len, ==, 1);

  touching = sl_graph_scene_get_box_edges (scene, c, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (touching[0], ==, 0);
  sl_graph_scene_get_box_edges (scene, frame, &n);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_scene_empty (void)
{
  g_autoptr(SlGraphScene) scene = sl_graph_scene_new ();
  g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint32));
  double w, h;

  sl_graph_scene_finish (scene);
  sl_graph_scene_get_bounds (scene, NULL, NULL, &w, &h);
  g_assert_cmpfloat (w, ==, 0);
  g_assert_cmpfloat (h, ==, 0);
  g_assert_cmpuint (sl_graph_scene_hit (scene, 0, 0), ==, SL_GRAPH_SCENE_NONE);
  sl_graph_scene_query (scene, -10, -10, 20, 20, boxes, NULL);
  g_assert_cmpuint (boxes->len, ==, 0);
}

static gboolean
meets (double ax0, double ay0, double ax1, double ay1,
       double bx0, double by0, double bx1, double by1)
{
  return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

/* Random grids of boxes in frames and random edges: every query equals
 * the brute-force answer, in ascending order. */
static void
test_scene_random_queries (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(SlGraphScene) scene = sl_graph_scene_new ();
      guint n_boxes = g_rand_int_range (rand, 1, 3000);
      guint n_edges = g_rand_int_range (rand, 0, 3000);
      const SlGraphSceneBox *boxes;
      const SlGraphSceneEdge *edges;
      const SlGraphScenePoint *points;

      add_box (scene, 0, 0, 20000, 20000, 0, SL_GRAPH_SCENE_NONE);
      for (guint i = 1; i < n_boxes; i++)
        add_box (scene, g_rand_double_range (rand, 0, 19000), g_rand_double_range (rand, 0, 19000),
                 g_rand_double_range (rand, 1, 600), g_rand_double_range (rand, 1, 100), i, 0);
      for (guint i = 0; i < n_edges; i++)
        {
          SlGraphScenePoint p[4];
          guint np = g_rand_int_range (rand, 2, 5);

          for (guint k = 0; k < np; k++)
            p[k] = (SlGraphScenePoint) { g_rand_double_range (rand, 0, 20000), g_rand_double_range (rand, 0, 20000) };
          sl_graph_scene_add_edge (scene, g_rand_int_range (rand, 0, n_boxes), g_rand_int_range (rand, 0, n_boxes),
                                   SL_GRAPH_SCENE_EDGE_DATA, FALSE, 1, p, np);
        }
      sl_graph_scene_finish (scene);
      boxes = sl_graph_scene_get_boxes (scene, NULL);
      edges = sl_graph_scene_get_edges (scene, NULL);
      points = sl_graph_scene_get_points (scene, NULL);

      for (guint q = 0; q < 20; q++)
        {
          g_autoptr(GArray) got_boxes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_autoptr(GArray) got_edges = g_array_new (FALSE, FALSE, sizeof (guint32));
          double qx = g_rand_double_range (rand, -1000, 20000);
          double qy = g_rand_double_range (rand, -1000, 20000);
          double qw = g_rand_double_range (rand, 0, 4000);
          double qh = g_rand_double_range (rand, 0, 4000);
          guint k = 0;

          sl_graph_scene_query (scene, qx, qy, qw, qh, got_boxes, got_edges);
          for (guint i = 0; i < n_boxes; i++)
            if (meets (boxes[i].x, boxes[i].y, boxes[i].x + boxes[i].width, boxes[i].y + boxes[i].height,
                       qx, qy, qx + qw, qy + qh))
              {
                g_assert_cmpuint (k, <, got_boxes->len);
                g_assert_cmpuint (g_array_index (got_boxes, guint32, k), ==, i);
                k++;
              }
          g_assert_cmpuint (k, ==, got_boxes->len);

          /* An edge is found when one of its segments' bounds meets the
           * rectangle (what the grid indexes), or by its bounds. */
          for (guint i = 0; i < got_edges->len; i++)
            {
              guint32 e = g_array_index (got_edges, guint32, i);

              if (i > 0)
                g_assert_cmpuint (e, >, g_array_index (got_edges, guint32, i - 1));
              g_assert_cmpuint (e, <, n_edges);
            }
          for (guint e = 0; e < n_edges; e++)
            {
              const SlGraphScenePoint *p = points + edges[e].first_point;
              gboolean hit = FALSE, listed = FALSE;

              for (guint s = 0; s + 1 < edges[e].n_points; s++)
                hit |= meets (MIN (p[s].x, p[s + 1].x), MIN (p[s].y, p[s + 1].y),
                              MAX (p[s].x, p[s + 1].x), MAX (p[s].y, p[s + 1].y),
                              qx, qy, qx + qw, qy + qh);
              for (guint i = 0; i < got_edges->len; i++)
                listed |= g_array_index (got_edges, guint32, i) == e;
              if (hit)
                g_assert_true (listed);
            }
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-scene/small", test_scene_small);
  g_test_add_func ("/graph-scene/empty", test_scene_empty);
  g_test_add_func ("/graph-scene/random-queries", test_scene_random_queries);

  return g_test_run ();
}
