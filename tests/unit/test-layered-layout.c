/* test-layered-layout.c: the layered graph layout
 *
 * Small graphs with coordinates worked out by hand (a chain, a diamond, a
 * cycle of three, a self-loop, a long edge), then invariants over random
 * graphs with cycles and parallel edges: boxes on a rank keep their
 * separation, edges go down (reversed ones up), routes start and end on
 * the boxes, long edges are one vertical segment, the crossing count is
 * the brute-force one, two runs agree, components stay put.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <gio/gio.h>

#include "sl-layered-layout.h"

#define NODE_SEP 5.0
#define RANK_SEP 20.0
#define BUDGET_MS 10000.0

static SlLayeredLayout *
layout_with (const SlLayeredSize *nodes,
             guint                n_nodes,
             const SlLayeredEdge *edges,
             guint                n_edges,
             double               node_sep)
{
  SlLayeredInput input = {
    .nodes = nodes,
    .n_nodes = n_nodes,
    .edges = edges,
    .n_edges = n_edges,
    .node_separation = node_sep,
    .rank_separation = RANK_SEP,
    .crossing_budget_ms = BUDGET_MS,
  };
  g_autoptr(GError) error = NULL;
  SlLayeredLayout *layout = sl_layered_layout_compute (&input, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (layout);
  return layout;
}

static void
assert_centre (SlLayeredLayout *layout,
               guint            node,
               double           x,
               double           y)
{
  double cx, cy;

  sl_layered_layout_get_node_centre (layout, node, &cx, &cy);
  g_assert_cmpfloat (cx, ==, x);
  g_assert_cmpfloat (cy, ==, y);
}

static void
assert_points (SlLayeredLayout      *layout,
               guint                 edge,
               const SlLayeredPoint *expected,
               guint                 n_expected)
{
  guint n;
  const SlLayeredPoint *p = sl_layered_layout_get_edge_points (layout, edge, &n);

  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (p[i].x, ==, expected[i].x);
      g_assert_cmpfloat (p[i].y, ==, expected[i].y);
    }
}

static void
assert_size (SlLayeredLayout *layout,
             double           width,
             double           height)
{
  double w, h;

  sl_layered_layout_get_size (layout, &w, &h);
  g_assert_cmpfloat (w, ==, width);
  g_assert_cmpfloat (h, ==, height);
}

static const SlLayeredSize box10[] = {
  { 10, 10 }, { 10, 10 }, { 10, 10 }, { 10, 10 }, { 10, 10 }, { 10, 10 },
};

static void
test_chain (void)
{
  const SlLayeredEdge edges[] = { { 0, 1 }, { 1, 2 } };
  const SlLayeredPoint route[] = { { 5, 10 }, { 5, 30 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (box10, 3, edges, 2, NODE_SEP);

  /* Ranks 10 tall, 20 apart: centres at 5, 35, 65; one column. */
  assert_centre (layout, 0, 5, 5);
  assert_centre (layout, 1, 5, 35);
  assert_centre (layout, 2, 5, 65);
  g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, 2), ==, 2);
  assert_points (layout, 0, route, G_N_ELEMENTS (route));
  assert_size (layout, 10, 70);
  g_assert_cmpuint (sl_layered_layout_get_n_crossings (layout), ==, 0);
}

static void
test_diamond (void)
{
  const SlLayeredEdge edges[] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (box10, 4, edges, 4, NODE_SEP);

  /* b and c are 5 + 5 + 5 apart. The left alignments stack a, b, d, the
   * right ones a, c, d: a and d take the mean of 0 and 15, 7.5 from b,
   * and the drawing starts at b's left edge. */
  assert_centre (layout, 0, 12.5, 5);
  assert_centre (layout, 1, 5, 35);
  assert_centre (layout, 2, 20, 35);
  assert_centre (layout, 3, 12.5, 65);
  assert_size (layout, 25, 70);
  g_assert_cmpuint (sl_layered_layout_get_n_crossings (layout), ==, 0);
}

static void
test_cycle_of_three (void)
{
  const SlLayeredEdge edges[] = { { 0, 1 }, { 1, 2 }, { 2, 0 } };
  /* c → a goes back up from c's top, through the virtual slot beside b,
   * to a's bottom. */
  const SlLayeredPoint back[] = { { 8.75, 60 }, { 12.5, 40 }, { 12.5, 30 }, { 8.75, 10 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (box10, 3, edges, 3, NODE_SEP);

  g_assert_false (sl_layered_layout_edge_is_reversed (layout, 0));
  g_assert_false (sl_layered_layout_edge_is_reversed (layout, 1));
  g_assert_true (sl_layered_layout_edge_is_reversed (layout, 2));
  g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, 0), ==, 0);
  g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, 1), ==, 1);
  g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, 2), ==, 2);

  /* The slot sits 7.5 right of b. Left alignments stack a, b, c with the
   * slot at 7.5; right ones stack a, slot, c with b at -7.5, lined up on
   * the right edge (7.5) of the narrowest: a and c at (0 + 2.5) / 2, b at
   * -2.5, the slot at 5; shifted by b's left edge, 7.5. */
  assert_centre (layout, 0, 8.75, 5);
  assert_centre (layout, 1, 5, 35);
  assert_centre (layout, 2, 8.75, 65);
  assert_points (layout, 2, back, G_N_ELEMENTS (back));
  assert_size (layout, 13.75, 70);
}

static void
test_self_loop (void)
{
  const SlLayeredSize tall[] = { { 10, 20 }, { 10, 20 } };
  const SlLayeredEdge edges[] = { { 0, 0 }, { 0, 1 } };
  /* Separation 10: the loop is 5 wide, from a quarter to three quarters
   * of the box's height. */
  const SlLayeredPoint loop[] = { { 10, 5 }, { 15, 5 }, { 15, 15 }, { 10, 15 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (tall, 2, edges, 2, 10);

  g_assert_false (sl_layered_layout_edge_is_reversed (layout, 0));
  assert_centre (layout, 0, 5, 10);
  assert_centre (layout, 1, 5, 50);
  assert_points (layout, 0, loop, G_N_ELEMENTS (loop));
  assert_size (layout, 15, 60);
}

static void
test_long_edge_is_vertical (void)
{
  /* A chain over five ranks and a → e beside it, across ranks 1 to 3. */
  const SlLayeredEdge edges[] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 0, 4 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (box10, 5, edges, 5, NODE_SEP);
  const SlLayeredPoint *p;
  double xa, ya, xe, ye, xb;
  guint n;

  sl_layered_layout_get_node_centre (layout, 0, &xa, &ya);
  sl_layered_layout_get_node_centre (layout, 1, &xb, NULL);
  sl_layered_layout_get_node_centre (layout, 4, &xe, &ye);
  p = sl_layered_layout_get_edge_points (layout, 4, &n);
  /* Source, top of rank 1, bottom of rank 3, target: one vertical piece. */
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (p[0].x, ==, xa);
  g_assert_cmpfloat (p[0].y, ==, ya + 5);
  g_assert_cmpfloat (p[1].x, ==, p[2].x);
  g_assert_cmpfloat (p[1].y, ==, 30);
  g_assert_cmpfloat (p[2].y, ==, 100);
  g_assert_cmpfloat (p[3].x, ==, xe);
  g_assert_cmpfloat (p[3].y, ==, ye - 5);
  /* Clear of the chain's boxes by half a separation at least. */
  g_assert_cmpfloat (fabs (p[1].x - xb), >=, 5 + NODE_SEP / 2);
  g_assert_cmpuint (sl_layered_layout_get_n_crossings (layout), ==, 0);
}

static void
test_parallel_edges (void)
{
  const SlLayeredEdge edges[] = {
    { 0, 1, SL_LAYERED_EDGE_DATA }, { 0, 1, SL_LAYERED_EDGE_CONTROL }, { 1, 0, SL_LAYERED_EDGE_DATA },
  };
  g_autoptr(SlLayeredLayout) layout = layout_with (box10, 2, edges, 3, NODE_SEP);
  const SlLayeredPoint *p0, *p1, *p2;
  guint n0, n1, n2, n_segments;

  p0 = sl_layered_layout_get_edge_points (layout, 0, &n0);
  p1 = sl_layered_layout_get_edge_points (layout, 1, &n1);
  p2 = sl_layered_layout_get_edge_points (layout, 2, &n2);
  g_assert_cmpuint (n0, ==, 2);
  g_assert_cmpuint (n1, ==, 2);
  g_assert_cmpuint (n2, ==, 2);
  /* Merged: one route each, the way back reversed. */
  g_assert_cmpmem (p0, 2 * sizeof (SlLayeredPoint), p1, 2 * sizeof (SlLayeredPoint));
  g_assert_true (sl_layered_layout_edge_is_reversed (layout, 2));
  g_assert_cmpfloat (p2[0].y, ==, 30);
  g_assert_cmpfloat (p2[1].y, ==, 10);
  sl_layered_layout_get_segments (layout, &n_segments);
  g_assert_cmpuint (n_segments, ==, 1);
}

static void
test_zero_size_and_empty (void)
{
  const SlLayeredSize points[] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
  const SlLayeredEdge edges[] = { { 0, 1 }, { 1, 2 }, { 0, 2 } };
  g_autoptr(SlLayeredLayout) layout = layout_with (points, 3, edges, 3, NODE_SEP);
  g_autoptr(SlLayeredLayout) empty = layout_with (NULL, 0, NULL, 0, NODE_SEP);
  double x0, x1;

  sl_layered_layout_get_node_centre (layout, 0, &x0, NULL);
  sl_layered_layout_get_node_centre (layout, 1, &x1, NULL);
  g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, 2), ==, 2);
  /* Ranks of height 0, 20 apart. */
  assert_centre (layout, 2, x0, 40);
  g_assert_cmpfloat (fabs (x1 - x0), >, 0);

  assert_size (empty, 0, 0);
  g_assert_cmpuint (sl_layered_layout_get_n_crossings (empty), ==, 0);
}

static void
test_broadcast_stays_linear (void)
{
  /* A chain of 400 and node 400 feeding every rank of it: the long edges
   * share one trunk, so the layered graph has a few segments per rank. */
  enum { N = 401 };
  g_autofree SlLayeredSize *nodes = g_new (SlLayeredSize, N);
  g_autofree SlLayeredEdge *edges = g_new0 (SlLayeredEdge, 2 * N);
  g_autoptr(SlLayeredLayout) layout = NULL;
  guint m = 0, n_segments;

  for (guint i = 0; i < N; i++)
    nodes[i] = (SlLayeredSize) { 20, 10 };
  for (guint i = 0; i + 2 < N; i++)
    edges[m++] = (SlLayeredEdge) { i, i + 1, SL_LAYERED_EDGE_DATA };
  for (guint i = 0; i + 1 < N; i++)
    edges[m++] = (SlLayeredEdge) { N - 1, i, SL_LAYERED_EDGE_CONTROL };
  layout = layout_with (nodes, N, edges, m, NODE_SEP);
  sl_layered_layout_get_segments (layout, &n_segments);
  g_assert_cmpuint (n_segments, <, 4 * N);
  for (guint i = 0; i + 1 < N; i++)
    g_assert_cmpuint (sl_layered_layout_get_node_rank (layout, i), >, sl_layered_layout_get_node_rank (layout, N - 1));
}

typedef struct {
  GArray *nodes;
  GArray *edges;
} RandomGraph;

/* Mostly forward edges between nearby nodes, a few back edges (cycles),
 * parallel edges and self-loops, widths from 0 up. */
static void
random_graph (GRand       *rand,
              guint        n,
              RandomGraph *g)
{
  g->nodes = g_array_new (FALSE, FALSE, sizeof (SlLayeredSize));
  g->edges = g_array_new (FALSE, FALSE, sizeof (SlLayeredEdge));
  for (guint i = 0; i < n; i++)
    {
      SlLayeredSize s = { g_rand_int_range (rand, 0, 4) * 20.0, g_rand_int_range (rand, 0, 3) * 10.0 };

      g_array_append_val (g->nodes, s);
    }
  for (guint i = 1; i < n; i++)
    {
      guint k = g_rand_int_range (rand, 1, 4);

      for (guint j = 0; j < k; j++)
        {
          guint from = g_rand_int_range (rand, i > 12 ? i - 12 : 0, i);
          SlLayeredEdge e = { from, i, g_rand_boolean (rand) ? SL_LAYERED_EDGE_DATA : SL_LAYERED_EDGE_CONTROL };

          if (g_rand_int_range (rand, 0, 20) == 0)
            e = (SlLayeredEdge) { i, from, SL_LAYERED_EDGE_CONTROL };
          else if (g_rand_int_range (rand, 0, 40) == 0)
            e.source = e.target;
          g_array_append_val (g->edges, e);
          if (g_rand_int_range (rand, 0, 30) == 0)
            g_array_append_val (g->edges, e);
        }
    }
}

static SlLayeredLayout *
layout_random (RandomGraph *g)
{
  return layout_with ((const SlLayeredSize *)(gpointer)g->nodes->data, g->nodes->len,
                      (const SlLayeredEdge *)(gpointer)g->edges->data, g->edges->len, NODE_SEP);
}

typedef struct {
  double x;
  double half;
  guint  rank;
} Box;

static int
compare_boxes (const void *p,
               const void *q)
{
  const Box *a = p, *b = q;

  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  return (a->x > b->x) - (a->x < b->x);
}

static void
check_separation (SlLayeredLayout *layout,
                  RandomGraph     *g)
{
  guint n = g->nodes->len;
  g_autofree Box *boxes = g_new (Box, n);

  for (guint i = 0; i < n; i++)
    {
      boxes[i].half = g_array_index (g->nodes, SlLayeredSize, i).width / 2;
      boxes[i].rank = sl_layered_layout_get_node_rank (layout, i);
      sl_layered_layout_get_node_centre (layout, i, &boxes[i].x, NULL);
    }
  qsort (boxes, n, sizeof (Box), compare_boxes);
  for (guint i = 1; i < n; i++)
    if (boxes[i].rank == boxes[i - 1].rank)
      g_assert_cmpfloat (boxes[i].x - boxes[i].half - (boxes[i - 1].x + boxes[i - 1].half),
                         >=, NODE_SEP - 1e-9);
}

static void
check_edges (SlLayeredLayout *layout,
             RandomGraph     *g)
{
  for (guint i = 0; i < g->edges->len; i++)
    {
      const SlLayeredEdge *e = &g_array_index (g->edges, SlLayeredEdge, i);
      double hs = g_array_index (g->nodes, SlLayeredSize, e->source).height / 2;
      double ht = g_array_index (g->nodes, SlLayeredSize, e->target).height / 2;
      guint rs = sl_layered_layout_get_node_rank (layout, e->source);
      guint rt = sl_layered_layout_get_node_rank (layout, e->target);
      gboolean reversed = sl_layered_layout_edge_is_reversed (layout, i);
      double xs, ys, xt, yt;
      const SlLayeredPoint *p;
      guint n;

      if (e->source == e->target)
        continue;
      sl_layered_layout_get_node_centre (layout, e->source, &xs, &ys);
      sl_layered_layout_get_node_centre (layout, e->target, &xt, &yt);
      p = sl_layered_layout_get_edge_points (layout, i, &n);
      g_assert_cmpuint (n, >=, 2);
      if (!reversed)
        {
          g_assert_cmpuint (rt, >, rs);
          g_assert_cmpfloat (p[0].y, ==, ys + hs);
          g_assert_cmpfloat (p[n - 1].y, ==, yt - ht);
        }
      else
        {
          g_assert_cmpuint (rt, <, rs);
          g_assert_cmpfloat (p[0].y, ==, ys - hs);
          g_assert_cmpfloat (p[n - 1].y, ==, yt + ht);
        }
      g_assert_cmpfloat (p[0].x, ==, xs);
      g_assert_cmpfloat (p[n - 1].x, ==, xt);
      /* Between the bends, one vertical segment. */
      g_assert_cmpuint (n, <=, 4);
      if (n == 4)
        g_assert_cmpfloat (p[1].x, ==, p[2].x);
    }
}

static guint64
brute_force_crossings (SlLayeredLayout *layout)
{
  guint n;
  const SlLayeredSegment *s = sl_layered_layout_get_segments (layout, &n);
  guint64 crossings = 0;

  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (s[i].rank == s[j].rank &&
          (s[i].upper_x - s[j].upper_x) * (s[i].lower_x - s[j].lower_x) < 0)
        crossings++;
  return crossings;
}

static void
assert_same_layout (SlLayeredLayout *a,
                    SlLayeredLayout *b)
{
  guint n = sl_layered_layout_get_n_nodes (a), m = sl_layered_layout_get_n_edges (a);

  g_assert_cmpuint (n, ==, sl_layered_layout_get_n_nodes (b));
  g_assert_cmpuint (sl_layered_layout_get_n_crossings (a), ==, sl_layered_layout_get_n_crossings (b));
  for (guint i = 0; i < n; i++)
    {
      double xa, ya, xb, yb;

      sl_layered_layout_get_node_centre (a, i, &xa, &ya);
      sl_layered_layout_get_node_centre (b, i, &xb, &yb);
      g_assert_cmpfloat (xa, ==, xb);
      g_assert_cmpfloat (ya, ==, yb);
    }
  for (guint i = 0; i < m; i++)
    {
      guint na, nb;
      const SlLayeredPoint *pa = sl_layered_layout_get_edge_points (a, i, &na);
      const SlLayeredPoint *pb = sl_layered_layout_get_edge_points (b, i, &nb);

      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (pa, na * sizeof (SlLayeredPoint), pb, nb * sizeof (SlLayeredPoint));
    }
}

static void
test_random_invariants (void)
{
  const guint sizes[] = { 5, 12, 30, 60, 100, 300, 1000 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint round = 0; round < 4; round++)
      {
        RandomGraph g;
        g_autoptr(SlLayeredLayout) layout = NULL;
        g_autoptr(SlLayeredLayout) again = NULL;

        random_graph (rand, sizes[s], &g);
        layout = layout_random (&g);
        check_separation (layout, &g);
        check_edges (layout, &g);
        if (sizes[s] <= 300)
          g_assert_cmpuint (sl_layered_layout_get_n_crossings (layout), ==, brute_force_crossings (layout));
        again = layout_random (&g);
        assert_same_layout (layout, again);
        g_array_unref (g.nodes);
        g_array_unref (g.edges);
      }
}

/* Boxes of a component relative to its first box. */
static void
assert_component_shape (SlLayeredLayout *a,
                        SlLayeredLayout *b,
                        guint            first,
                        guint            end)
{
  double ax0, bx0;

  sl_layered_layout_get_node_centre (a, first, &ax0, NULL);
  sl_layered_layout_get_node_centre (b, first, &bx0, NULL);
  for (guint i = first; i < end; i++)
    {
      double xa, ya, xb, yb;

      sl_layered_layout_get_node_centre (a, i, &xa, &ya);
      sl_layered_layout_get_node_centre (b, i, &xb, &yb);
      g_assert_cmpfloat (xa - ax0, ==, xb - bx0);
      g_assert_cmpfloat (ya, ==, yb);
    }
}

static void
test_components_stay_put (void)
{
  /* Three components: 0..3, 4..7, 8..11, and an isolated 12 added. */
  SlLayeredEdge edges[] = {
    { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 },
    { 4, 5 }, { 5, 6 }, { 6, 7 }, { 4, 7 },
    { 8, 9 }, { 9, 10 }, { 8, 11 }, { 8, 10 },
  };
  g_autofree SlLayeredSize *nodes = g_new (SlLayeredSize, 13);
  g_autoptr(SlLayeredLayout) base = NULL, isolated = NULL, extra = NULL;
  g_autofree SlLayeredEdge *more = g_new (SlLayeredEdge, G_N_ELEMENTS (edges) + 1);
  double x11, x12;

  for (guint i = 0; i < 13; i++)
    nodes[i] = (SlLayeredSize) { 10 + 7 * (i % 3), 10 };
  base = layout_with (nodes, 12, edges, G_N_ELEMENTS (edges), NODE_SEP);
  isolated = layout_with (nodes, 13, edges, G_N_ELEMENTS (edges), NODE_SEP);
  assert_component_shape (base, isolated, 0, 12);
  assert_component_shape (base, isolated, 0, 4);
  sl_layered_layout_get_node_centre (isolated, 11, &x11, NULL);
  sl_layered_layout_get_node_centre (isolated, 12, &x12, NULL);
  g_assert_cmpfloat (x12, >, x11);

  /* One more edge in the middle component: the first keeps its place,
   * the last its shape. */
  memcpy (more, edges, sizeof (edges));
  more[G_N_ELEMENTS (edges)] = (SlLayeredEdge) { 5, 7 };
  extra = layout_with (nodes, 12, more, G_N_ELEMENTS (edges) + 1, NODE_SEP);
  assert_component_shape (base, extra, 0, 4);
  for (guint i = 0; i < 4; i++)
    {
      double xa, xb;

      sl_layered_layout_get_node_centre (base, i, &xa, NULL);
      sl_layered_layout_get_node_centre (extra, i, &xb, NULL);
      g_assert_cmpfloat (xa, ==, xb);
    }
  assert_component_shape (base, extra, 8, 12);
}

static void
cancel_on_progress (double   fraction,
                    gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

static void
record_progress (double   fraction,
                 gpointer user_data)
{
  GArray *seen = user_data;

  if (seen->len > 0)
    g_assert_cmpfloat (fraction, >=, g_array_index (seen, double, seen->len - 1));
  g_array_append_val (seen, fraction);
}

static void
test_cancel_and_progress (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) mid_run = g_cancellable_new ();
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlLayeredLayout) done = NULL;
  SlLayeredLayout *layout;
  RandomGraph g;
  SlLayeredInput input = { 0 };
  const SlLayeredEdge bad[] = { { 0, 3 } };

  random_graph (rand, 2000, &g);
  input = (SlLayeredInput) {
    .nodes = (const SlLayeredSize *)(gpointer)g.nodes->data,
    .n_nodes = g.nodes->len,
    .edges = (const SlLayeredEdge *)(gpointer)g.edges->data,
    .n_edges = g.edges->len,
    .node_separation = NODE_SEP,
    .rank_separation = RANK_SEP,
    .crossing_budget_ms = BUDGET_MS,
  };

  g_cancellable_cancel (cancellable);
  layout = sl_layered_layout_compute (&input, cancellable, NULL, NULL, &error);
  g_assert_null (layout);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  layout = sl_layered_layout_compute (&input, mid_run, cancel_on_progress, mid_run, &error);
  g_assert_null (layout);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  done = sl_layered_layout_compute (&input, NULL, record_progress, seen, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seen->len, >, 2);
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);

  input.n_nodes = 2;
  input.edges = bad;
  input.n_edges = 1;
  layout = sl_layered_layout_compute (&input, NULL, NULL, NULL, &error);
  g_assert_null (layout);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  g_array_unref (g.nodes);
  g_array_unref (g.edges);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/layered-layout/chain", test_chain);
  g_test_add_func ("/layered-layout/diamond", test_diamond);
  g_test_add_func ("/layered-layout/cycle-of-three", test_cycle_of_three);
  g_test_add_func ("/layered-layout/self-loop", test_self_loop);
  g_test_add_func ("/layered-layout/long-edge-vertical", test_long_edge_is_vertical);
  g_test_add_func ("/layered-layout/parallel-edges", test_parallel_edges);
  g_test_add_func ("/layered-layout/zero-size-and-empty", test_zero_size_and_empty);
  g_test_add_func ("/layered-layout/broadcast-linear", test_broadcast_stays_linear);
  g_test_add_func ("/layered-layout/random-invariants", test_random_invariants);
  g_test_add_func ("/layered-layout/components-stay-put", test_components_stay_put);
  g_test_add_func ("/layered-layout/cancel-and-progress", test_cancel_and_progress);

  return g_test_run ();
}
