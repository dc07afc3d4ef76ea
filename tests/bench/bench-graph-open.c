/* bench-graph-open.c: opening and expanding the graph of a 40-layer LLM
 *
 * Writes a MindSpore summary holding the ~20,000-op graph of
 * graph-fixture.h with the project's summary writer, then times, seven
 * times each, reading the summary and decoding plus building the
 * hierarchy (sl_graph_reader_load), decoding plus building alone from
 * the bytes, and the first view's layout (the top level, composed into a
 * scene). Then expanding scopes of about 300 and 1,000 children from the
 * first view, each time in a fresh layout (no cache): the scope's own
 * layout, its ancestors' and the new scene. Prints the medians against
 * the goals, the model's size and the resident memory. A benchmark prints
 * figures; it never passes or fails.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "sl-graph-layout.h"
#include "sl-graph-reader.h"
#include "sl-platform.h"

#define RUNS 7

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values)
{
  qsort (values, RUNS, sizeof (double), compare_doubles);
  return values[RUNS / 2];
}

static SlGraphScene *
build_scene (SlGraphLayout *layout)
{
  g_autoptr(GError) error = NULL;
  SlGraphScene *scene = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return scene;
}

/* The container whose number of children is nearest to @target, with at
 * least one edge for two children. */
static guint
find_container (SlGraph *graph,
                guint    target)
{
  guint best = SL_GRAPH_NONE, best_distance = G_MAXUINT;

  for (guint i = 1; i < sl_graph_get_n_items (graph); i++)
    {
      SlGraphItemKind kind = sl_graph_item_get_kind (graph, i);
      guint n = sl_graph_item_get_n_children (graph, i);
      guint distance = n > target ? n - target : target - n;

      /* Scopes whose children are joined, as a layout's work is. */
      if ((kind != SL_GRAPH_ITEM_SCOPE && kind != SL_GRAPH_ITEM_SECTION && kind != SL_GRAPH_ITEM_GROUP) ||
          sl_graph_item_get_n_edges (graph, i) < n / 2)
        continue;
      /* Among equals, the one with more edges to lay out. */
      if (distance < best_distance ||
          (distance == best_distance && sl_graph_item_get_n_edges (graph, i) > sl_graph_item_get_n_edges (graph, best)))
        {
          best = i;
          best_distance = distance;
        }
    }
  return best;
}

static void
bench_expand (SlGraph *graph,
              guint    target,
              double   goal_ms)
{
  guint scope = find_container (graph, target);
  g_autofree char *path = sl_graph_item_dup_path (graph, scope);
  double ms[RUNS];
  guint n_boxes = 0, n_computed = 0;

  for (guint run = 0; run < RUNS; run++)
    {
      g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
      g_autoptr(SlGraphScene) first = NULL;
      g_autoptr(SlGraphScene) scene = NULL;
      gint64 start;

      sl_graph_layout_expand_initial (layout);
      sl_graph_layout_expand_to (layout, scope);
      first = build_scene (layout);
      start = g_get_monotonic_time ();
      sl_graph_layout_set_expanded (layout, scope, TRUE);
      scene = build_scene (layout);
      ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      sl_graph_scene_get_boxes (scene, &n_boxes);
      n_computed = sl_graph_layout_get_last_n_computed (layout);
    }
  printf ("expand %u children, %u edges (%s): median %.1f ms (goal %.0f ms), %u layouts, %u boxes drawn\n",
          sl_graph_item_get_n_children (graph, scope), sl_graph_item_get_n_edges (graph, scope),
          path, median (ms), goal_ms, n_computed, n_boxes);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("bench-graph-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  double load_ms[RUNS], decode_ms[RUNS], first_ms[RUNS];
  guint n_first_boxes = 0;
  guint n_ops = 0, n_items = 0, n_parameters = 0;
  gsize model_bytes = 0;
  guint64 rss_before, rss_after = 0;

  g_assert_no_error (error);
  path = graph_fixture_write_llm_summary (folder, 40, &n_ops, &error);
  g_assert_no_error (error);
  bytes = graph_fixture_llm (40, NULL);
  rss_before = sl_platform_get_resident_bytes ();

  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(GPtrArray) graphs = sl_graph_reader_load (path, NULL, &error);
      SlGraph *graph;

      load_ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
      g_assert_cmpuint (graphs->len, ==, 1);
      graph = g_ptr_array_index (graphs, 0);
      n_items = sl_graph_get_n_items (graph);
      n_parameters = sl_graph_get_n_parameters (graph);
      model_bytes = sl_graph_get_memory_size (graph);
      if (run == 0)
        rss_after = sl_platform_get_resident_bytes ();
    }
  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(SlGraph) graph = sl_graph_reader_decode (bytes, "bench", &error);

      decode_ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
    }

  {
    g_autoptr(SlGraph) graph = sl_graph_reader_decode (bytes, "bench", &error);

    g_assert_no_error (error);
    for (guint run = 0; run < RUNS; run++)
      {
        gint64 start = g_get_monotonic_time ();
        g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
        g_autoptr(SlGraphScene) scene = NULL;

        sl_graph_layout_expand_initial (layout);
        scene = build_scene (layout);
        first_ms[run] = (g_get_monotonic_time () - start) / 1000.0;
        sl_graph_scene_get_boxes (scene, &n_first_boxes);
      }
    printf ("first view (top level laid out, scene): median %.1f ms, %u boxes\n", median (first_ms), n_first_boxes);
    bench_expand (graph, 300, 30);
    bench_expand (graph, 1000, 100);

    /* Everything expanded at once: the most a view can hold. */
    {
      g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
      g_autoptr(SlGraphScene) scene = NULL;
      gint64 start = g_get_monotonic_time ();
      guint n_boxes, n_edges;

      for (guint i = 1; i < sl_graph_get_n_items (graph); i++)
        sl_graph_layout_set_expanded (layout, i, TRUE);
      scene = build_scene (layout);
      sl_graph_scene_get_boxes (scene, &n_boxes);
      sl_graph_scene_get_edges (scene, &n_edges);
      printf ("everything expanded: %.1f ms, %u boxes, %u edges, scene %.1f MiB; resident %.1f MiB (goal 500 MiB)\n",
              (g_get_monotonic_time () - start) / 1000.0, n_boxes, n_edges,
              sl_graph_scene_get_memory_size (scene) / 1048576.0, sl_platform_get_resident_bytes () / 1048576.0);
    }
  }

  printf ("graph: %u ops, %u parameters, %u hierarchy items, %.1f MiB of GraphProto\n",
          n_ops, n_parameters, n_items, g_bytes_get_size (bytes) / 1048576.0);
  printf ("open summary + decode + hierarchy: median %.1f ms over %d runs\n", median (load_ms), RUNS);
  printf ("open + first view: %.1f ms (goal 500 ms with the first frame, see bench-graph-frames)\n",
          median (load_ms) + median (first_ms));
  printf ("decode + hierarchy from bytes:     median %.1f ms over %d runs\n", median (decode_ms), RUNS);
  printf ("model size: %.2f MiB (%.0f bytes per op, strings included)\n",
          model_bytes / 1048576.0, (double) model_bytes / MAX (n_ops, 1));
  printf ("resident memory: %.1f MiB before opening, %.1f MiB with one graph open, %.1f MiB peak\n",
          rss_before / 1048576.0, rss_after / 1048576.0, sl_platform_get_peak_resident_bytes () / 1048576.0);

  g_unlink (path);
  g_rmdir (folder);
  return 0;
}
