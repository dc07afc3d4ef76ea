/* test-graph-layout.c: scopes laid out on their own and composed
 *
 * The invariants a graph view relies on, on the generated LLM graph and
 * on small graphs worked out by hand: siblings never overlap and sit
 * inside their container; edges go down except the reversed edges of
 * cycles; expanding a scope lays out that scope and its ancestors only,
 * leaves every other container's layout as it was, keeps each ancestor's
 * children on their ranks in their order; collapsing gives back every
 * position exactly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-layout.h"
#include "sl-graph-reader.h"
#include "../graph-fixture.h"

/* The root's parent is the root in the model; here, none. */
static guint
parent_of (SlGraph *graph,
           guint    item)
{
  return item == 0 ? SL_GRAPH_NONE : sl_graph_item_get_parent (graph, item);
}

static SlGraph *
decode (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  SlGraph *graph = sl_graph_reader_decode (bytes, "test.pb", &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

static SlGraph *
llm_graph (guint n_layers)
{
  g_autoptr(GBytes) bytes = graph_fixture_llm (n_layers, NULL);

  return decode (bytes);
}

static SlGraphScene *
build (SlGraphLayout *layout)
{
  g_autoptr(GError) error = NULL;
  SlGraphScene *scene = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (scene);
  return scene;
}

static gboolean
boxes_overlap (const SlGraphSceneBox *a,
               const SlGraphSceneBox *b)
{
  const double eps = 1e-6;

  return a->x + a->width > b->x + eps && b->x + b->width > a->x + eps &&
         a->y + a->height > b->y + eps && b->y + b->height > a->y + eps;
}

/* No two children of one container overlap, each lies inside it, and
 * every edge that is not reversed ends below where it starts. */
static void
check_scene (SlGraphScene *scene)
{
  guint n_boxes, n_edges;
  const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (scene, &n_edges);
  const SlGraphScenePoint *points = sl_graph_scene_get_points (scene, NULL);
  g_autoptr(GHashTable) by_parent = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < n_boxes; i++)
    {
      GArray *siblings = g_hash_table_lookup (by_parent, GUINT_TO_POINTER (boxes[i].parent));

      if (boxes[i].parent != SL_GRAPH_SCENE_NONE)
        {
          const SlGraphSceneBox *p = &boxes[boxes[i].parent];

          g_assert_cmpuint (boxes[i].parent, <, i);
          g_assert_cmpfloat (boxes[i].x, >=, p->x - 1e-6);
          g_assert_cmpfloat (boxes[i].y, >=, p->y - 1e-6);
          g_assert_cmpfloat (boxes[i].x + boxes[i].width, <=, p->x + p->width + 1e-6);
          g_assert_cmpfloat (boxes[i].y + boxes[i].height, <=, p->y + p->height + 1e-6);
          g_assert_cmpuint (boxes[i].depth, ==, p->depth + 1);
        }
      else
        g_assert_cmpuint (boxes[i].depth, ==, 0);
      if (siblings == NULL)
        {
          siblings = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_parent, GUINT_TO_POINTER (boxes[i].parent), siblings);
        }
      g_array_append_val (siblings, i);
    }

  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, by_parent);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        GArray *siblings = value;

        for (guint a = 0; a < siblings->len; a++)
          for (guint b = a + 1; b < siblings->len; b++)
            g_assert_false (boxes_overlap (&boxes[g_array_index (siblings, guint, a)],
                                           &boxes[g_array_index (siblings, guint, b)]));
      }
  }

  for (guint i = 0; i < n_edges; i++)
    {
      const SlGraphScenePoint *p = points + edges[i].first_point;
      const SlGraphScenePoint *last = p + edges[i].n_points - 1;

      g_assert_cmpuint (edges[i].n_points, >=, 2);
      g_assert_cmpuint (boxes[edges[i].from].parent, ==, boxes[edges[i].to].parent);
      if (edges[i].from == edges[i].to)
        continue;
      if (edges[i].reversed)
        g_assert_cmpfloat (last->y, <, p->y);
      else
        g_assert_cmpfloat (last->y, >, p->y);
    }
}

static const SlGraphSceneBox *
box_of (SlGraphScene *scene,
        guint         item)
{
  guint box = sl_graph_scene_lookup_id (scene, item);

  g_assert_cmpuint (box, !=, SL_GRAPH_SCENE_NONE);
  return &sl_graph_scene_get_boxes (scene, NULL)[box];
}

static void
test_layout_llm_invariants (void)
{
  g_autoptr(SlGraph) graph = llm_graph (3);
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  g_autoptr(SlGraphScene) scene = NULL;
  guint n_boxes;

  sl_graph_layout_expand_initial (layout);
  scene = build (layout);
  check_scene (scene);
  sl_graph_scene_get_boxes (scene, &n_boxes);
  g_assert_cmpuint (n_boxes, >, 1);

  /* Expand every scope two levels down and check again. */
  for (guint round = 0; round < 2; round++)
    {
      guint n;
      const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (scene, &n);

      for (guint i = 0; i < n; i++)
        if (boxes[i].shape == SL_GRAPH_SHAPE_COLLAPSED)
          sl_graph_layout_set_expanded (layout, boxes[i].id, TRUE);
      g_clear_object (&scene);
      scene = build (layout);
      check_scene (scene);
    }
}

/* The stability rule, position by position. */
static void
test_layout_stability (void)
{
  g_autoptr(SlGraph) graph = llm_graph (3);
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  g_autoptr(SlGraphScene) before = NULL;
  g_autoptr(SlGraphScene) expanded = NULL;
  g_autoptr(SlGraphScene) collapsed = NULL;
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  const SlGraphSceneBox *b0, *b1;
  guint n0, n1, target, other;

#define LAYERS "Default/network-TrainOneStepCell/network-WithLossCell/_backbone-LlamaForCausalLM/model-LlamaModel/layers-CellList/"
  /* Layer 0 open (off the chain), layer 1 open, then its attention. */
  other = sl_graph_find_item (graph, LAYERS "0-LLamaDecodeLayer/attention_norm-LlamaRMSNorm");
  target = sl_graph_find_item (graph, LAYERS "1-LLamaDecodeLayer/attention-LLamaAttention");
  g_assert_cmpuint (other, !=, SL_GRAPH_NONE);
  g_assert_cmpuint (target, !=, SL_GRAPH_NONE);
  sl_graph_layout_expand_initial (layout);
  sl_graph_layout_expand_to (layout, other);
  sl_graph_layout_set_expanded (layout, other, TRUE);
  sl_graph_layout_expand_to (layout, target);
  before = build (layout);
  check_scene (before);
  g_assert_cmpuint (box_of (before, target)->shape, ==, SL_GRAPH_SHAPE_COLLAPSED);
  g_assert_cmpuint (box_of (before, other)->shape, ==, SL_GRAPH_SHAPE_CONTAINER);

  for (guint up = parent_of (graph, target); up != SL_GRAPH_NONE; up = parent_of (graph, up))
    g_array_append_val (chain, up);

  sl_graph_layout_set_expanded (layout, target, TRUE);
  expanded = build (layout);
  check_scene (expanded);
  /* The target's own layout, then one per ancestor: nothing else. */
  g_assert_cmpuint (sl_graph_layout_get_last_n_computed (layout), ==, 1 + chain->len);

  b0 = sl_graph_scene_get_boxes (before, &n0);
  b1 = sl_graph_scene_get_boxes (expanded, &n1);
  g_assert_cmpuint (n1, >, n0);
  for (guint i = 0; i < n0; i++)
    {
      const SlGraphSceneBox *a = &b0[i];
      const SlGraphSceneBox *b = box_of (expanded, a->id);
      gboolean on_chain = FALSE;

      if (a->parent == SL_GRAPH_SCENE_NONE)
        on_chain = TRUE;
      else
        for (guint k = 0; k < chain->len; k++)
          on_chain |= b0[a->parent].id == g_array_index (chain, guint, k);

      if (a->id == target)
        continue;
      if (!on_chain)
        {
          /* Off the chain: exactly where it was in its container. */
          const SlGraphSceneBox *pa = &b0[a->parent];
          const SlGraphSceneBox *pb = box_of (expanded, pa->id);

          g_assert_cmpfloat (a->x - pa->x, ==, b->x - pb->x);
          g_assert_cmpfloat (a->y - pa->y, ==, b->y - pb->y);
          g_assert_cmpfloat (a->width, ==, b->width);
          g_assert_cmpfloat (a->height, ==, b->height);
        }
      else
        {
          /* On the chain: same rank and order as every sibling. */
          for (guint j = 0; j < n0; j++)
            {
              const SlGraphSceneBox *c = &b0[j];
              const SlGraphSceneBox *d;
              double ay = a->y + a->height / 2, cy = c->y + c->height / 2;
              double by, dy;

              if (c->parent != a->parent || j == i)
                continue;
              d = box_of (expanded, c->id);
              by = b->y + b->height / 2;
              dy = d->y + d->height / 2;
              if (a->id == target || c->id == target)
                continue;
              if (fabs (ay - cy) < 1e-6)
                {
                  g_assert_cmpfloat (fabs (by - dy), <, 1e-6);
                  g_assert_cmpint (a->x < c->x, ==, b->x < d->x);
                }
              else
                g_assert_cmpint (ay < cy, ==, by < dy);
            }
        }
    }

  /* Collapsing gives back every position exactly, from the cache. */
  sl_graph_layout_set_expanded (layout, target, FALSE);
  collapsed = build (layout);
  g_assert_cmpuint (sl_graph_layout_get_last_n_computed (layout), ==, 0);
  b1 = sl_graph_scene_get_boxes (collapsed, &n1);
  g_assert_cmpuint (n1, ==, n0);
  for (guint i = 0; i < n0; i++)
    {
      g_assert_cmpuint (b1[i].id, ==, b0[i].id);
      g_assert_cmpfloat (b1[i].x, ==, b0[i].x);
      g_assert_cmpfloat (b1[i].y, ==, b0[i].y);
      g_assert_cmpfloat (b1[i].width, ==, b0[i].width);
      g_assert_cmpfloat (b1[i].height, ==, b0[i].height);
    }
}

/* a → TupleGetItem → b, a → Depend → UpdateState ⇢ c (control): hidden,
 * the edges a → b (data) and a ⇢ c (control) remain. */
static void
test_layout_hide_bookkeeping (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) shown = NULL;
  g_autoptr(SlGraphScene) hidden = NULL;
  g_autofree char *a = graph_fixture_node (fx, "MatMul", "", NULL, 0);
  const char *ia[] = { a };
  g_autofree char *t = graph_fixture_node (fx, "TupleGetItem", "", ia, 1);
  const char *it[] = { t };
  g_autofree char *b = graph_fixture_node (fx, "Add", "", it, 1);
  g_autofree char *d = graph_fixture_node (fx, "Depend", "", ia, 1);
  const char *id[] = { d };
  g_autofree char *u = graph_fixture_node (fx, "update_state", "", id, 1);
  const char *iu[] = { u };
  const gboolean control[] = { TRUE };
  g_autofree char *c = graph_fixture_node_full (fx, "Mul", "", iu, control, 1, NULL);
  const SlGraphSceneBox *boxes;
  const SlGraphSceneEdge *edges;
  guint n_boxes, n_edges, data = 0, ctrl = 0;

  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = decode (bytes);
  layout = sl_graph_layout_new (graph);

  shown = build (layout);
  sl_graph_scene_get_boxes (shown, &n_boxes);
  sl_graph_scene_get_edges (shown, &n_edges);
  g_assert_cmpuint (n_boxes, ==, 6);
  g_assert_cmpuint (n_edges, ==, 5);

  g_assert_true (sl_graph_op_type_is_bookkeeping ("update_state"));
  g_assert_true (sl_graph_op_type_is_bookkeeping ("MakeTuple"));
  g_assert_true (sl_graph_op_type_is_bookkeeping ("Load"));
  g_assert_false (sl_graph_op_type_is_bookkeeping ("Loader"));
  g_assert_false (sl_graph_op_type_is_bookkeeping (NULL));

  sl_graph_layout_set_hide_bookkeeping (layout, TRUE);
  hidden = build (layout);
  check_scene (hidden);
  boxes = sl_graph_scene_get_boxes (hidden, &n_boxes);
  edges = sl_graph_scene_get_edges (hidden, &n_edges);
  g_assert_cmpuint (n_boxes, ==, 3);
  for (guint i = 0; i < n_boxes; i++)
    g_assert_false (boxes[i].flags & SL_GRAPH_BOX_BOOKKEEPING);
  g_assert_cmpuint (n_edges, ==, 2);
  for (guint i = 0; i < n_edges; i++)
    {
      g_assert_cmpstr (boxes[edges[i].from].label, ==, "MatMul-op1");
      if (edges[i].kind == SL_GRAPH_SCENE_EDGE_DATA)
        {
          g_assert_cmpstr (boxes[edges[i].to].label, ==, "Add-op3");
          data++;
        }
      else
        {
          g_assert_cmpstr (boxes[edges[i].to].label, ==, "Mul-op6");
          ctrl++;
        }
    }
  g_assert_cmpuint (data, ==, 1);
  g_assert_cmpuint (ctrl, ==, 1);

  /* A hidden op is represented by its container (here the root). */
  g_assert_cmpuint (sl_graph_layout_get_shown_item (layout, sl_graph_lookup_op (graph, "TupleGetItem-op2") == SL_GRAPH_NONE
                                                    ? 0 : sl_graph_element_get_item (graph, sl_graph_lookup_op (graph, "TupleGetItem-op2"))), ==, 0);
}

/* A cycle and a self-loop: drawn, with the back edge reversed. */
static void
test_layout_cycle (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  const char *ia[] = { "3", "1" };
  g_autofree char *a = graph_fixture_node (fx, "A", "", ia, 2);
  const char *ib[] = { a };
  g_autofree char *b = graph_fixture_node (fx, "B", "", ib, 1);
  const char *ic[] = { b };
  g_autofree char *c = graph_fixture_node (fx, "C", "", ic, 1);
  const SlGraphSceneEdge *edges;
  guint n_edges, reversed = 0;

  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = decode (bytes);
  layout = sl_graph_layout_new (graph);
  scene = build (layout);
  check_scene (scene);
  edges = sl_graph_scene_get_edges (scene, &n_edges);
  g_assert_cmpuint (n_edges, ==, 4);
  for (guint i = 0; i < n_edges; i++)
    reversed += edges[i].reversed && edges[i].from != edges[i].to;
  g_assert_cmpuint (reversed, ==, 1);
}

/* Heat is each drawn box's share of the largest drawn total; a scope
 * sums what is inside it. */
static void
test_layout_heat (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  double times[3] = { 10, 30, 20 };
  g_autofree char *a = graph_fixture_node (fx, "A", "s", NULL, 0);
  const char *ia[] = { a };
  g_autofree char *b = graph_fixture_node (fx, "B", "s", ia, 1);
  const char *ib[] = { b };
  g_autofree char *c = graph_fixture_node (fx, "C", "", ib, 1);
  guint scope;

  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = decode (bytes);
  layout = sl_graph_layout_new (graph);
  sl_graph_layout_set_times (layout, times, 3);
  scope = sl_graph_find_item (graph, "s");
  g_assert_cmpuint (scope, !=, SL_GRAPH_NONE);
  g_assert_cmpfloat (sl_graph_layout_get_item_time (layout, scope), ==, 40);
  g_assert_cmpuint (sl_graph_layout_get_n_ops_below (layout, scope), ==, 2);

  scene = build (layout);
  g_assert_cmpfloat_with_epsilon (box_of (scene, scope)->heat, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (box_of (scene, sl_graph_element_get_item (graph, 2))->heat, 0.5, 1e-6);
  g_assert_cmpstr (box_of (scene, scope)->detail, ==, "2 ops");

  /* Expanded, the scope is a frame and its ops are compared. */
  g_assert_true (sl_graph_layout_expand_to (layout, sl_graph_element_get_item (graph, 0)));
  g_assert_false (sl_graph_layout_expand_to (layout, sl_graph_element_get_item (graph, 0)));
  g_clear_object (&scene);
  scene = build (layout);
  g_assert_cmpuint (box_of (scene, scope)->shape, ==, SL_GRAPH_SHAPE_CONTAINER);
  g_assert_cmpfloat_with_epsilon (box_of (scene, sl_graph_element_get_item (graph, 1))->heat, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (box_of (scene, sl_graph_element_get_item (graph, 0))->heat, 1.0 / 3, 1e-6);
  g_assert_cmpuint (sl_graph_layout_get_shown_item (layout, sl_graph_element_get_item (graph, 0)), ==,
                    sl_graph_element_get_item (graph, 0));

  sl_graph_layout_set_expanded (layout, scope, FALSE);
  g_assert_cmpuint (sl_graph_layout_get_shown_item (layout, sl_graph_element_get_item (graph, 0)), ==, scope);

  sl_graph_layout_set_times (layout, NULL, 0);
  g_clear_object (&scene);
  scene = build (layout);
  g_assert_cmpfloat (box_of (scene, scope)->heat, <, 0);
}

/* A 100,000-character scope and op name: boxes stay of bounded width, the
 * labels are kept whole for the tooltip. */
static void
test_layout_long_names (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  g_autofree char *wide = g_strnfill (100000, 'x');
  g_autofree char *a = graph_fixture_node (fx, wide, wide, NULL, 0);
  const char *ia[] = { a };
  g_autofree char *b = graph_fixture_node (fx, "Add", wide, ia, 1);
  const SlGraphSceneBox *boxes;
  guint n_boxes;

  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = decode (bytes);
  layout = sl_graph_layout_new (graph);
  sl_graph_layout_expand_initial (layout);
  scene = build (layout);
  check_scene (scene);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  g_assert_cmpuint (n_boxes, ==, 3);
  for (guint i = 0; i < n_boxes; i++)
    {
      if (boxes[i].shape == SL_GRAPH_SHAPE_CONTAINER)
        continue;
      g_assert_cmpfloat (boxes[i].width, <=, 240);
      g_assert_cmpfloat (boxes[i].height, <=, 100);
    }
  g_assert_cmpuint (strlen (boxes[0].label), ==, 100000);
}

/* An ellipse (a parameter, a graph input) holds its text in 72 % of its
 * width, as the renderer draws it: a short name such as "input_data:0"
 * must have room for every character, at the layout's 6.6 units each. */
static void
test_layout_parameter_names_fit (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(SlGraphLayout) layout = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  const char *names[] = { "x", "data:0", "input_data:0", "encoder.weight" };
  const SlGraphSceneBox *boxes;
  guint n_boxes, n_checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    graph_fixture_parameter (fx, names[i]);
  {
    const char *inputs[] = { "x", "data:0", "input_data:0", "encoder.weight" };
    g_autofree char *op = graph_fixture_node (fx, "Add", "add", inputs, G_N_ELEMENTS (inputs));
  }
  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = decode (bytes);
  layout = sl_graph_layout_new (graph);
  sl_graph_layout_expand_initial (layout);
  scene = build (layout);
  check_scene (scene);
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    {
      if (boxes[i].shape != SL_GRAPH_SHAPE_PARAMETER)
        continue;
      g_assert_cmpfloat (boxes[i].width * 0.72, >=, g_utf8_strlen (boxes[i].label, -1) * 6.6);
      n_checked++;
    }
  g_assert_cmpuint (n_checked, ==, G_N_ELEMENTS (names));
}

static void
test_layout_cancel (void)
{
  g_autoptr(SlGraph) graph = llm_graph (1);
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraphScene) scene = NULL;

  g_cancellable_cancel (cancellable);
  scene = sl_graph_layout_build_scene (layout, cancellable, NULL, NULL, &error);
  g_assert_null (scene);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-layout/llm-invariants", test_layout_llm_invariants);
  g_test_add_func ("/graph-layout/stability", test_layout_stability);
  g_test_add_func ("/graph-layout/hide-bookkeeping", test_layout_hide_bookkeeping);
  g_test_add_func ("/graph-layout/cycle", test_layout_cycle);
  g_test_add_func ("/graph-layout/heat", test_layout_heat);
  g_test_add_func ("/graph-layout/long-names", test_layout_long_names);
  g_test_add_func ("/graph-layout/parameter-names-fit", test_layout_parameter_names_fit);
  g_test_add_func ("/graph-layout/cancel", test_layout_cancel);

  return g_test_run ();
}
