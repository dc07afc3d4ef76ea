/* test-graph-scene-builder.c: the graph page's scene builder on a small
 * graph: a newer request overtakes an older one, every request ends once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "sl-graph-scene-builder.h"
#include "../graph-small.h"

typedef struct {
  guint         n_ended;
  guint         n_newest;
  guint         n_built;
  guint         anchor;
  SlGraphScene *scene;
} Outcome;

static void
ended_cb (SlGraphSceneBuilder *builder,
          gboolean             newest,
          Outcome             *outcome)
{
  outcome->n_ended++;
  outcome->n_newest += newest ? 1 : 0;
}

static void
built_cb (SlGraphSceneBuilder *builder,
          SlGraphScene        *scene,
          guint                anchor,
          Outcome             *outcome)
{
  outcome->n_built++;
  outcome->anchor = anchor;
  g_set_object (&outcome->scene, scene);
}

static void
failed_cb (SlGraphSceneBuilder *builder,
           const char          *message,
           Outcome             *outcome)
{
  g_error ("a scene of a good graph failed: %s", message);
}

static void
test_overtaken (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  g_autoptr(SlGraphSceneBuilder) builder = sl_graph_scene_builder_new ();
  Outcome outcome = { 0 };
  guint n_boxes = 0;

  g_signal_connect (builder, "ended", G_CALLBACK (ended_cb), &outcome);
  g_signal_connect (builder, "built", G_CALLBACK (built_cb), &outcome);
  g_signal_connect (builder, "failed", G_CALLBACK (failed_cb), &outcome);
  sl_graph_layout_expand_initial (layout);
  for (guint round = 1; round <= 10; round++)
    {
      sl_graph_scene_builder_build (builder, layout, 100 + round);
      sl_graph_scene_builder_build (builder, layout, 200 + round);
      while (outcome.n_ended < 2 * round)
        g_main_context_iteration (NULL, TRUE);
      /* Only the newest says it was built, with its own anchor. */
      g_assert_cmpuint (outcome.n_newest, ==, round);
      g_assert_cmpuint (outcome.n_built, ==, round);
      g_assert_cmpuint (outcome.anchor, ==, 200 + round);
    }
  g_assert_nonnull (outcome.scene);
  sl_graph_scene_get_boxes (outcome.scene, &n_boxes);
  g_assert_cmpuint (n_boxes, >, 0);
  g_clear_object (&outcome.scene);
}

/* A request cancelled while it is the newest ends, and says nothing else. */
static void
test_cancelled (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  g_autoptr(SlGraphSceneBuilder) builder = sl_graph_scene_builder_new ();
  Outcome outcome = { 0 };

  g_signal_connect (builder, "ended", G_CALLBACK (ended_cb), &outcome);
  g_signal_connect (builder, "built", G_CALLBACK (built_cb), &outcome);
  g_signal_connect (builder, "failed", G_CALLBACK (failed_cb), &outcome);
  sl_graph_layout_expand_initial (layout);
  sl_graph_scene_builder_build (builder, layout, 7);
  sl_graph_scene_builder_cancel (builder);
  while (outcome.n_ended < 1)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (outcome.n_newest, ==, 1);
  /* The build may have finished before it saw the cancellation. */
  g_assert_cmpuint (outcome.n_built, <=, 1);
  g_clear_object (&outcome.scene);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/graph-scene-builder/overtaken", test_overtaken);
  g_test_add_func ("/graph-scene-builder/cancelled", test_cancelled);
  return g_test_run ();
}
