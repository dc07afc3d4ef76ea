/* bench-layered-layout.c: time to lay out one scope's graph
 *
 * Layered random graphs of 300, 1,000 and 10,000 ops (about 20 per rank,
 * one to three inputs each, mostly from the rank above, some from up to
 * six ranks above), and the 10,000 one again with a broadcast node feeding
 * every rank, as attention masks do. Our layout is timed as the median of
 * several runs; the peer, in the same run, is Graphviz `dot -Tplain` on the
 * same graph written as DOT with the same box sizes and separations
 * (process time, so it includes parsing and writing the plain output).
 * Without `dot` on the PATH the peer is skipped.
 *
 * Goals (from the graph view plan): 300 nodes ≤ 20 ms, 1,000 ≤ 80 ms,
 * 10,000 ≤ 1 s, broadcast included.
 *
 * dot runs are cut off after SL_BENCH_DOT_TIMEOUT seconds (60 by default);
 * a cut-off run is printed as a lower bound.
 *
 * Usage: bench-layered-layout [RUNS]  (SL_BENCH_DOT_RUNS: peer runs, 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "sl-layered-layout.h"

#define NODES_PER_RANK 20
#define NODE_SEP 20.0
#define RANK_SEP 40.0
#define BUDGET_MS 400.0
#define POINTS_PER_INCH 72.0
#define DOT_TIMEOUT_S 60

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

typedef struct {
  GArray *nodes;   /* SlLayeredSize */
  GArray *edges;   /* SlLayeredEdge */
} Graph;

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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

  g->nodes = g_array_new (FALSE, FALSE, sizeof (SlLayeredSize));
  g->edges = g_array_new (FALSE, FALSE, sizeof (SlLayeredEdge));
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

static char *
write_dot (Graph       *g,
           const char  *dir,
           guint        index)
{
  g_autoptr(GString) dot = g_string_new ("digraph G {\n");
  g_autofree char *path = g_strdup_printf ("%s/graph-%u.dot", dir, index);
  g_autoptr(GError) error = NULL;

  g_string_append_printf (dot, "  nodesep=%.4f; ranksep=%.4f;\n",
                          NODE_SEP / POINTS_PER_INCH, RANK_SEP / POINTS_PER_INCH);
  g_string_append (dot, "  node [shape=box, fixedsize=true, label=\"\"];\n");
  for (guint i = 0; i < g->nodes->len; i++)
    {
      const SlLayeredSize *s = &g_array_index (g->nodes, SlLayeredSize, i);

      g_string_append_printf (dot, "  n%u [width=%.4f, height=%.4f];\n", i,
                              s->width / POINTS_PER_INCH, s->height / POINTS_PER_INCH);
    }
  for (guint i = 0; i < g->edges->len; i++)
    {
      const SlLayeredEdge *e = &g_array_index (g->edges, SlLayeredEdge, i);

      g_string_append_printf (dot, "  n%u -> n%u;\n", e->source, e->target);
    }
  g_string_append (dot, "}\n");
  if (!g_file_set_contents (path, dot->str, dot->len, &error))
    g_error ("Cannot write %s: %s", path, error->message);
  return g_steal_pointer (&path);
}

static void
on_dot_exited (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  g_main_loop_quit (user_data);
}

static gboolean
on_dot_timeout (gpointer user_data)
{
  g_subprocess_force_exit (user_data);
  return G_SOURCE_REMOVE;
}

/* Seconds for one `dot -Tplain` run, or a negative number if it failed;
 * *cut_off tells it ran out of time. */
static double
time_dot (const char *dot,
          const char *path,
          guint       timeout_s,
          gboolean   *cut_off)
{
  const char *argv[] = { dot, "-Tplain", "-o", "/dev/null", path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  gint64 start = g_get_monotonic_time ();
  guint timeout;
  double seconds;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  if (process == NULL)
    return -1;
  timeout = g_timeout_add_seconds (timeout_s, on_dot_timeout, process);
  g_subprocess_wait_async (process, NULL, on_dot_exited, loop);
  g_main_loop_run (loop);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  *cut_off = g_subprocess_get_if_signaled (process);
  if (!*cut_off)
    g_source_remove (timeout);
  if (*cut_off)
    return seconds;
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    return -1;
  return seconds;
}

int
main (int   argc,
      char *argv[])
{
  guint runs = argc > 1 ? (guint)atoi (argv[1]) : 7;
  const char *dot_runs_env = g_getenv ("SL_BENCH_DOT_RUNS");
  guint dot_runs = dot_runs_env != NULL ? (guint)atoi (dot_runs_env) : 3;
  const char *dot_timeout_env = g_getenv ("SL_BENCH_DOT_TIMEOUT");
  guint dot_timeout = dot_timeout_env != NULL ? (guint)atoi (dot_timeout_env) : DOT_TIMEOUT_S;
  g_autofree char *dot = g_find_program_in_path ("dot");
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;

  /* Line by line: the dot runs are long. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  runs = MAX (runs, 1);
  dot_runs = MAX (dot_runs, 1);
  dot_timeout = MAX (dot_timeout, 1);
  if (dot != NULL)
    {
      dir = g_dir_make_tmp ("bench-layered-layout-XXXXXX", &error);
      if (dir == NULL)
        g_error ("Cannot make a temporary folder: %s", error->message);
    }
  else
    printf ("peer: `dot` is not on the PATH (install graphviz); the peer is skipped\n");

  printf ("runs: %u of ours, %u of dot (cut off after %u s); crossing budget %.0f ms\n",
          runs, dot_runs, dot_timeout, BUDGET_MS);
  printf ("%-24s %7s %7s %10s %9s %10s %8s  %s\n",
          "graph", "nodes", "edges", "ours ms", "goal", "dot ms", "ratio", "crossings, steps (ms)");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Graph g;
      g_autofree double *ours = g_new (double, runs);
      g_autoptr(SlLayeredLayout) last = NULL;
      double ours_ms, dot_ms = -1;
      gboolean cut_off = FALSE;
      g_autofree char *steps = NULL;

      make_graph (&cases[c], &g);
      for (guint r = 0; r < runs; r++)
        {
          gint64 start = g_get_monotonic_time ();

          g_clear_pointer (&last, sl_layered_layout_free);
          last = layout_graph (&g);
          ours[r] = (g_get_monotonic_time () - start) / 1000.0;
        }
      ours_ms = median (ours, runs);
      steps = g_strdup_printf ("cycles %.1f, ranks %.1f, long edges %.1f, crossings %.1f, coordinates %.1f, routes %.1f",
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_CYCLES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_RANKING),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_LONG_EDGES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_CROSSINGS),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_COORDINATES),
                               sl_layered_layout_get_step_ms (last, SL_LAYERED_STEP_ROUTES));

      if (dot != NULL)
        {
          g_autofree char *path = write_dot (&g, dir, c);
          g_autofree double *peer = g_new (double, dot_runs);
          gboolean failed = FALSE;

          guint done = 0;

          /* A cut-off run ends the peer: the next would be cut off too. */
          for (; done < dot_runs && !failed && !cut_off; done++)
            {
              peer[done] = time_dot (dot, path, dot_timeout, &cut_off) * 1000.0;
              failed = peer[done] < 0;
            }
          dot_ms = failed ? -1 : cut_off ? peer[done - 1] : median (peer, done);
          g_unlink (path);
        }

      printf ("%-24s %7u %7u %10.1f %9s ", cases[c].name, g.nodes->len, g.edges->len, ours_ms,
              ours_ms <= cases[c].goal_ms ? "met" : "MISSED");
      if (dot_ms >= 0 && cut_off)
        printf (">%9.0f >%6.0f×", dot_ms, dot_ms / ours_ms);
      else if (dot_ms >= 0)
        printf ("%10.1f %7.1f×", dot_ms, dot_ms / ours_ms);
      else
        printf ("%10s %8s", dot != NULL ? "failed" : "-", "-");
      printf ("  %" G_GUINT64_FORMAT "; %s\n", sl_layered_layout_get_n_crossings (last), steps);

      g_array_unref (g.nodes);
      g_array_unref (g.edges);
    }

  if (dir != NULL)
    g_rmdir (dir);
  return 0;
}
