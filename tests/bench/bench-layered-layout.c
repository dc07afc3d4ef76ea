/* bench-layered-layout.c: time to lay out one scope's graph
 *
 * Layered random graphs of 300, 1,000 and 10,000 ops (about 20 per rank,
 * one to three inputs each, mostly from the rank above, some from up to
 * six ranks above), and the 10,000 one again with a broadcast node feeding
 * every rank, as attention masks do. Our layout is timed as the median of
 * several runs; the peers, in the same run and on the same graph with the
 * same box sizes and separations, are Graphviz `dot -Tplain` and
 * @dagrejs/dagre, the layout engine of Netron, TensorBoard and Model
 * Explorer (bench-layout-peers.h says how each is timed, cut off and
 * skipped).
 *
 * Goals (from the graph view plan): 300 nodes ≤ 20 ms, 1,000 ≤ 80 ms,
 * 10,000 ≤ 1 s, broadcast included.
 *
 * Usage: bench-layered-layout [RUNS]  (SL_BENCH_DOT_RUNS and
 * SL_BENCH_DAGRE_RUNS: peer runs, 3; SL_BENCH_DOT_TIMEOUT and
 * SL_BENCH_DAGRE_TIMEOUT: seconds before a peer is cut off, 60;
 * SL_BENCH_DAGRE_DIR: the installed @dagrejs/dagre)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "bench-layout-peers.h"
#include "sl-layered-layout.h"

#define NODES_PER_RANK 20
#define NODE_SEP 20.0
#define RANK_SEP 40.0
#define BUDGET_MS 400.0

typedef struct {
  const char *name;
  guint       n_nodes;
  gboolean    broadcast;
  double      goal_ms;
} Case;

static const Case cases[] = {
  { "300 ops", 300, FALSE, 20 },
  { "1,000 ops", 1000, FALSE, 80 },
  { "10,000 ops", 10000, FALSE, 1000 },
  { "10,000 ops + broadcast", 10000, TRUE, 1000 },
};

typedef BenchGraph Graph;

static void
add_edge (Graph             *g,
          guint              source,
          guint              target,
          SlLayeredEdgeKind  kind)
{
  SlLayeredEdge e = { source, target, kind };

  g_array_append_val (g->edges, e);
}

static void
make_graph (const Case *c,
            Graph      *g)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (c->n_nodes);
  guint n_ranks = (c->n_nodes + NODES_PER_RANK - 1) / NODES_PER_RANK;

  bench_graph_init (g);
  for (guint i = 0; i < c->n_nodes; i++)
    {
      SlLayeredSize s = { g_rand_int_range (rand, 60, 181), 28 };

      g_array_append_val (g->nodes, s);
    }
  /* Node i is on rank i / NODES_PER_RANK. */
  for (guint i = NODES_PER_RANK; i < c->n_nodes; i++)
    {
      guint rank = i / NODES_PER_RANK, k = g_rand_int_range (rand, 1, 4);

      for (guint j = 0; j < k; j++)
        {
          guint back = g_rand_int_range (rand, 0, 5) == 0 ? g_rand_int_range (rand, 2, 7) : 1;
          guint from_rank = rank >= back ? rank - back : 0;
          guint from = from_rank * NODES_PER_RANK + g_rand_int_range (rand, 0, NODES_PER_RANK);

          add_edge (g, from, i, g_rand_int_range (rand, 0, 8) == 0 ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA);
        }
    }
  if (c->broadcast)
    {
      guint mask = c->n_nodes;
      SlLayeredSize s = { 120, 28 };

      g_array_append_val (g->nodes, s);
      for (guint r = 1; r < n_ranks; r++)
        add_edge (g, mask, r * NODES_PER_RANK + g_rand_int_range (rand, 0, NODES_PER_RANK),
                  SL_LAYERED_EDGE_DATA);
    }
}

static SlLayeredLayout *
layout_graph (Graph *g)
{
  SlLayeredInput input = {
    .nodes = (const SlLayeredSize *)(gpointer)g->nodes->data,
    .n_nodes = g->nodes->len,
    .edges = (const SlLayeredEdge *)(gpointer)g->edges->data,
    .n_edges = g->edges->len,
    .node_separation = NODE_SEP,
    .rank_separation = RANK_SEP,
    .crossing_budget_ms = BUDGET_MS,
  };
  g_autoptr(GError) error = NULL;
  SlLayeredLayout *layout = sl_layered_layout_compute (&input, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return layout;
}

int
main (int   argc,
      char *argv[])
{
  guint runs = argc > 1 ? (guint)atoi (argv[1]) : 7;
  BenchPeers peers;

  /* Line by line: the peers' runs are long. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  runs = MAX (runs, 1);
  bench_peers_init (&peers, SL_DAGRE_PEER_SCRIPT);

  printf ("runs: %u of ours; crossing budget %.0f ms\n", runs, BUDGET_MS);
  bench_peers_print_settings (&peers);
  printf ("%-24s %6s %6s %8s %6s %9s %7s %10s %7s  %s\n",
          "graph", "nodes", "edges", "ours ms", "goal", "dot ms", "ratio", "dagre ms", "ratio",
          "crossings, steps (ms)");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Graph g;
      g_autofree double *ours = g_new (double, runs);
      g_autoptr(SlLayeredLayout) last = NULL;
      BenchPeerResult dot, dagre;
      g_autofree char *steps = NULL;
      g_autofree char *dot_ms = NULL, *dot_ratio = NULL, *dagre_ms = NULL, *dagre_ratio = NULL;
      double ours_ms;

      make_graph (&cases[c], &g);
      for (guint r = 0; r < runs; r++)
        {
          gint64 start = g_get_monotonic_time ();

          g_clear_pointer (&last, sl_layered_layout_free);
          last = layout_graph (&g);
          ours[r] = (g_get_monotonic_time () - start) / 1000.0;
        }
      ours_ms = bench_median (ours, runs);
      steps = g_strdup_printf ("cycles %.1f, ranks %.1f, long edges %.1f, crossings %.1f, coordinates %.1f, routes %.1f",
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_CYCLES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_RANKING),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_LONG_EDGES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_CROSSINGS),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_COORDINATES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_ROUTES));

      bench_peers_time (&peers, &g, NODE_SEP, RANK_SEP, &dot, &dagre);
      dot_ms = bench_peer_format_ms (&dot);
      dot_ratio = bench_peer_format_ratio (&dot, ours_ms);
      dagre_ms = bench_peer_format_ms (&dagre);
      dagre_ratio = bench_peer_format_ratio (&dagre, ours_ms);

      printf ("%-24s %6u %6u %8.1f %6s %9s %7s %10s %7s  %" G_GUINT64_FORMAT "; %s\n",
              cases[c].name, g.nodes->len, g.edges->len, ours_ms,
              ours_ms <= cases[c].goal_ms ? "met" : "MISSED",
              dot_ms, dot_ratio, dagre_ms, dagre_ratio,
              sl_layered_layout_get_n_crossings (last), steps);
      bench_peer_print_note (cases[c].name, "dot", &dot);
      bench_peer_print_note (cases[c].name, "dagre", &dagre);

      bench_peer_result_clear (&dot);
      bench_peer_result_clear (&dagre);
      bench_graph_clear (&g);
    }

  printf ("ratio: peer's time over ours (dot: its whole process; dagre: dagre.layout() alone)\n");
  bench_peers_clear (&peers);
  return 0;
}
