/* bench-layout-peers.h: the layout benchmarks' peers, Graphviz dot and dagre
 *
 * One graph (box sizes and directed edges, as sl_layered_layout_compute()
 * takes them) is written once as DOT and once as the JSON that
 * tests/bench/dagre_peer.js reads, then timed:
 *
 * - `dot -Tplain` on the PATH: process time, so it includes parsing and
 *   writing the plain output; SL_BENCH_DOT_RUNS runs (3), each cut off
 *   after SL_BENCH_DOT_TIMEOUT seconds (60).
 * - @dagrejs/dagre under node, from SL_BENCH_DAGRE_DIR (build-aux/dev.sh
 *   bench installs it): the time spent in dagre.layout() itself, with the
 *   whole node process beside it; SL_BENCH_DAGRE_RUNS runs (3). The script
 *   caps node's heap as a browser tab's is (SL_BENCH_DAGRE_HEAP_MB, 4096)
 *   and cuts it off after SL_BENCH_DAGRE_TIMEOUT seconds (60); running out
 *   of heap or of stack is reported as such.
 *
 * Both peers get the same separations as ours and data edges twice the
 * weight of control edges, as ours pulls control edges half as hard. A
 * cut-off run ends that peer's runs for the graph (the next would be cut
 * off too) and is printed as a lower bound; a peer that is missing is
 * skipped with one line saying why.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "sl-layered-layout.h"

#define BENCH_POINTS_PER_INCH 72.0
#define BENCH_PEER_TIMEOUT_S  60
#define BENCH_PEER_RUNS       3

typedef struct {
  GArray *nodes;   /* SlLayeredSize */
  GArray *edges;   /* SlLayeredEdge */
} BenchGraph;

typedef enum {
  BENCH_PEER_SKIPPED,
  BENCH_PEER_OK,
  BENCH_PEER_CUT_OFF,         /* ms is the time at the cut, a lower bound */
  BENCH_PEER_OUT_OF_MEMORY,
  BENCH_PEER_OUT_OF_STACK,    /* dagre's recursive searches on a deep graph */
  BENCH_PEER_FAILED,
} BenchPeerStatus;

typedef struct {
  BenchPeerStatus status;
  double          ms;         /* median: dot's process, dagre.layout() */
  double          total_ms;   /* median of dagre's whole node process */
  double          peak_mib;   /* dagre's node, largest resident size */
  char           *reason;     /* why it failed */
} BenchPeerResult;

typedef struct {
  char  *dot;                 /* NULL: skipped */
  guint  dot_runs;
  guint  dot_timeout;
  char  *node;                /* NULL: dagre is skipped */
  char  *dagre_dir;
  char  *dagre_script;
  guint  dagre_runs;
  guint  dagre_timeout;
  guint  dagre_heap_mib;      /* 0: node's default */
  char  *dir;                 /* the graphs written for the peers */
} BenchPeers;

G_GNUC_UNUSED static int
bench_compare_doubles (const void *a,
                       const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

G_GNUC_UNUSED static double
bench_median (double *v,
              guint   n)
{
  qsort (v, n, sizeof (double), bench_compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

G_GNUC_UNUSED static guint
bench_env_uint (const char *name,
                guint       fallback,
                guint       minimum)
{
  const char *value = g_getenv (name);

  if (value == NULL || *value == '\0')
    return fallback;
  return MAX ((guint) atoi (value), minimum);
}

G_GNUC_UNUSED static void
bench_graph_init (BenchGraph *g)
{
  g->nodes = g_array_new (FALSE, FALSE, sizeof (SlLayeredSize));
  g->edges = g_array_new (FALSE, FALSE, sizeof (SlLayeredEdge));
}

G_GNUC_UNUSED static void
bench_graph_clear (BenchGraph *g)
{
  g_clear_pointer (&g->nodes, g_array_unref);
  g_clear_pointer (&g->edges, g_array_unref);
}

/* Finds the peers and prints one line for each one that is skipped.
 * @script is dagre_peer.js. */
G_GNUC_UNUSED static void
bench_peers_init (BenchPeers *peers,
                  const char *script)
{
  const char *dagre_dir = g_getenv ("SL_BENCH_DAGRE_DIR");
  g_autoptr(GError) error = NULL;

  memset (peers, 0, sizeof *peers);
  peers->dot_runs = bench_env_uint ("SL_BENCH_DOT_RUNS", BENCH_PEER_RUNS, 1);
  peers->dot_timeout = bench_env_uint ("SL_BENCH_DOT_TIMEOUT", BENCH_PEER_TIMEOUT_S, 1);
  peers->dagre_runs = bench_env_uint ("SL_BENCH_DAGRE_RUNS", BENCH_PEER_RUNS, 1);
  peers->dagre_timeout = bench_env_uint ("SL_BENCH_DAGRE_TIMEOUT", BENCH_PEER_TIMEOUT_S, 1);
  peers->dagre_heap_mib = bench_env_uint ("SL_BENCH_DAGRE_HEAP_MB", 4096, 0);

  peers->dot = g_find_program_in_path ("dot");
  if (peers->dot == NULL)
    printf ("peer: `dot` is not on the PATH (install graphviz); dot is skipped\n");

  if (dagre_dir == NULL || *dagre_dir == '\0')
    printf ("peer: SL_BENCH_DAGRE_DIR is not set (build-aux/dev.sh bench installs @dagrejs/dagre); dagre is skipped\n");
  else
    {
      g_autofree char *package = g_build_filename (dagre_dir, "package.json", NULL);

      peers->node = g_find_program_in_path ("node");
      if (peers->node == NULL)
        peers->node = g_find_program_in_path ("nodejs");
      if (peers->node == NULL)
        printf ("peer: `node` is not on the PATH (install nodejs); dagre is skipped\n");
      else if (!g_file_test (package, G_FILE_TEST_EXISTS))
        {
          printf ("peer: SL_BENCH_DAGRE_DIR holds no @dagrejs/dagre package; dagre is skipped\n");
          g_clear_pointer (&peers->node, g_free);
        }
      else
        {
          peers->dagre_dir = g_strdup (dagre_dir);
          peers->dagre_script = g_strdup (script);
        }
    }

  if (peers->dot != NULL || peers->node != NULL)
    {
      peers->dir = g_dir_make_tmp ("bench-layout-peers-XXXXXX", &error);
      if (peers->dir == NULL)
        g_error ("Cannot make a temporary folder: %s", error->message);
    }
}

G_GNUC_UNUSED static void
bench_peers_clear (BenchPeers *peers)
{
  if (peers->dir != NULL)
    g_rmdir (peers->dir);
  g_free (peers->dir);
  g_free (peers->dot);
  g_free (peers->node);
  g_free (peers->dagre_dir);
  g_free (peers->dagre_script);
}

G_GNUC_UNUSED static void
bench_peers_print_settings (BenchPeers *peers)
{
  if (peers->dot != NULL)
    printf ("dot: %u runs, cut off after %u s\n", peers->dot_runs, peers->dot_timeout);
  if (peers->node != NULL)
    {
      if (peers->dagre_heap_mib > 0)
        printf ("dagre: %u runs, cut off after %u s, node heap capped at %u MiB\n",
                peers->dagre_runs, peers->dagre_timeout, peers->dagre_heap_mib);
      else
        printf ("dagre: %u runs, cut off after %u s, node's default heap\n",
                peers->dagre_runs, peers->dagre_timeout);
      if (g_getenv ("SL_BENCH_DAGRE_STACK_KB") != NULL)
        printf ("dagre: stack of %s KiB (SL_BENCH_DAGRE_STACK_KB) instead of V8's default\n",
                g_getenv ("SL_BENCH_DAGRE_STACK_KB"));
    }
}

G_GNUC_UNUSED static void
bench_write_or_die (const char *path,
                    GString    *text)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, text->str, text->len, &error))
    g_error ("Cannot write %s: %s", path, error->message);
}

/* Returns the path of the DOT file, in the peers' folder. */
G_GNUC_UNUSED static char *
bench_write_dot (BenchPeers *peers,
                 BenchGraph *g,
                 double      node_sep,
                 double      rank_sep)
{
  g_autoptr(GString) dot = g_string_new ("digraph G {\n");
  char *path = g_build_filename (peers->dir, "graph.dot", NULL);

  g_string_append_printf (dot, "  nodesep=%.4f; ranksep=%.4f;\n",
                          node_sep / BENCH_POINTS_PER_INCH, rank_sep / BENCH_POINTS_PER_INCH);
  g_string_append (dot, "  node [shape=box, fixedsize=true, label=\"\"];\n");
  for (guint i = 0; i < g->nodes->len; i++)
    {
      const SlLayeredSize *s = &g_array_index (g->nodes, SlLayeredSize, i);

      g_string_append_printf (dot, "  n%u [width=%.4f, height=%.4f];\n", i,
                              s->width / BENCH_POINTS_PER_INCH, s->height / BENCH_POINTS_PER_INCH);
    }
  for (guint i = 0; i < g->edges->len; i++)
    {
      const SlLayeredEdge *e = &g_array_index (g->edges, SlLayeredEdge, i);

      g_string_append_printf (dot, "  n%u -> n%u [weight=%d];\n", e->source, e->target,
                              e->kind == SL_LAYERED_EDGE_CONTROL ? 1 : 2);
    }
  g_string_append (dot, "}\n");
  bench_write_or_die (path, dot);
  return path;
}

/* Returns the path of the JSON file that dagre_peer.js reads. */
G_GNUC_UNUSED static char *
bench_write_json (BenchPeers *peers,
                  BenchGraph *g,
                  double      node_sep,
                  double      rank_sep)
{
  g_autoptr(GString) json = g_string_new (NULL);
  char *path = g_build_filename (peers->dir, "graph.json", NULL);

  g_string_append_printf (json, "{\"nodesep\": %g, \"ranksep\": %g,\n \"nodes\": [", node_sep, rank_sep);
  for (guint i = 0; i < g->nodes->len; i++)
    {
      const SlLayeredSize *s = &g_array_index (g->nodes, SlLayeredSize, i);

      g_string_append_printf (json, "%s{\"width\": %g, \"height\": %g}", i > 0 ? ",\n  " : "",
                              s->width, s->height);
    }
  g_string_append (json, "],\n \"edges\": [");
  for (guint i = 0; i < g->edges->len; i++)
    {
      const SlLayeredEdge *e = &g_array_index (g->edges, SlLayeredEdge, i);

      g_string_append_printf (json, "%s{\"source\": %u, \"target\": %u, \"control\": %s}",
                              i > 0 ? ",\n  " : "", e->source, e->target,
                              e->kind == SL_LAYERED_EDGE_CONTROL ? "true" : "false");
    }
  g_string_append (json, "]}\n");
  bench_write_or_die (path, json);
  return path;
}

G_GNUC_UNUSED static void
bench_on_dot_exited (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  g_main_loop_quit (user_data);
}

G_GNUC_UNUSED static gboolean
bench_on_dot_timeout (gpointer user_data)
{
  g_subprocess_force_exit (user_data);
  return G_SOURCE_REMOVE;
}

/* Milliseconds for one `dot -Tplain` run, or a negative number if it
 * failed; *cut_off tells it ran out of time. */
G_GNUC_UNUSED static double
bench_time_dot_once (BenchPeers *peers,
                     const char *path,
                     gboolean   *cut_off)
{
  const char *argv[] = { peers->dot, "-Tplain", "-o", "/dev/null", path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  gint64 start = g_get_monotonic_time ();
  guint timeout;
  double ms;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  if (process == NULL)
    return -1;
  timeout = g_timeout_add_seconds (peers->dot_timeout, bench_on_dot_timeout, process);
  g_subprocess_wait_async (process, NULL, bench_on_dot_exited, loop);
  g_main_loop_run (loop);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  *cut_off = g_subprocess_get_if_signaled (process);
  if (!*cut_off)
    g_source_remove (timeout);
  else
    return ms;
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    return -1;
  return ms;
}

G_GNUC_UNUSED static BenchPeerResult
bench_time_dot (BenchPeers *peers,
                const char *path)
{
  BenchPeerResult result = { BENCH_PEER_SKIPPED, 0, 0, 0, NULL };
  g_autofree double *ms = g_new (double, peers->dot_runs);
  gboolean cut_off = FALSE;
  guint done = 0;

  if (peers->dot == NULL)
    return result;
  for (; done < peers->dot_runs && !cut_off; done++)
    {
      ms[done] = bench_time_dot_once (peers, path, &cut_off);
      if (ms[done] < 0)
        {
          result.status = BENCH_PEER_FAILED;
          result.reason = g_strdup ("dot exited with an error");
          return result;
        }
    }
  result.status = cut_off ? BENCH_PEER_CUT_OFF : BENCH_PEER_OK;
  result.ms = cut_off ? ms[done - 1] : bench_median (ms, done);
  return result;
}

/* One run of dagre_peer.js: its line parsed into @result. */
G_GNUC_UNUSED static void
bench_time_dagre_once (BenchPeers      *peers,
                       const char      *path,
                       BenchPeerResult *result)
{
  const char *argv[] = { peers->node, peers->dagre_script, peers->dagre_dir, path, NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *timeout = g_strdup_printf ("%u", peers->dagre_timeout);
  g_autofree char *heap = g_strdup_printf ("%u", peers->dagre_heap_mib);
  g_auto(GStrv) lines = NULL;

  g_subprocess_launcher_setenv (launcher, "SL_BENCH_DAGRE_TIMEOUT", timeout, TRUE);
  g_subprocess_launcher_setenv (launcher, "SL_BENCH_DAGRE_HEAP_MB", heap, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error))
    {
      result->status = BENCH_PEER_FAILED;
      result->reason = g_strdup (error->message);
      return;
    }
  lines = g_strsplit (out != NULL ? out : "", "\n", -1);
  result->status = BENCH_PEER_FAILED;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      double seconds = 0;

      if (sscanf (lines[i], "ok layout_ms=%lf total_ms=%lf peak_mib=%lf",
                  &result->ms, &result->total_ms, &result->peak_mib) == 3)
        {
          result->status = BENCH_PEER_OK;
          return;
        }
      if (sscanf (lines[i], "cut-off seconds=%lf", &seconds) == 1)
        {
          result->status = BENCH_PEER_CUT_OFF;
          result->ms = result->total_ms = seconds * 1000;
          return;
        }
      if (sscanf (lines[i], "out-of-memory seconds=%lf", &seconds) == 1)
        {
          result->status = BENCH_PEER_OUT_OF_MEMORY;
          result->ms = result->total_ms = seconds * 1000;
          return;
        }
      if (sscanf (lines[i], "out-of-stack seconds=%lf", &seconds) == 1)
        {
          result->status = BENCH_PEER_OUT_OF_STACK;
          result->ms = result->total_ms = seconds * 1000;
          return;
        }
      if (g_str_has_prefix (lines[i], "failed "))
        {
          result->reason = g_strdup (lines[i] + strlen ("failed "));
          return;
        }
    }
  result->reason = g_strdup_printf ("dagre_peer.js said: %s", out != NULL ? g_strstrip (out) : "nothing");
}

G_GNUC_UNUSED static BenchPeerResult
bench_time_dagre (BenchPeers *peers,
                  const char *path)
{
  BenchPeerResult result = { BENCH_PEER_SKIPPED, 0, 0, 0, NULL };
  g_autofree double *ms = g_new (double, peers->dagre_runs);
  g_autofree double *total_ms = g_new (double, peers->dagre_runs);
  double peak_mib = 0;
  guint done = 0;

  if (peers->node == NULL)
    return result;
  for (; done < peers->dagre_runs; done++)
    {
      BenchPeerResult run = { BENCH_PEER_FAILED, 0, 0, 0, NULL };

      bench_time_dagre_once (peers, path, &run);
      if (run.status != BENCH_PEER_OK)
        return run;
      ms[done] = run.ms;
      total_ms[done] = run.total_ms;
      peak_mib = MAX (peak_mib, run.peak_mib);
    }
  result.status = BENCH_PEER_OK;
  result.ms = bench_median (ms, done);
  result.total_ms = bench_median (total_ms, done);
  result.peak_mib = peak_mib;
  return result;
}

/* Times both peers on @g, writing it once for each. */
G_GNUC_UNUSED static void
bench_peers_time (BenchPeers      *peers,
                  BenchGraph      *g,
                  double           node_sep,
                  double           rank_sep,
                  BenchPeerResult *dot,
                  BenchPeerResult *dagre)
{
  *dot = (BenchPeerResult) { BENCH_PEER_SKIPPED, 0, 0, 0, NULL };
  *dagre = (BenchPeerResult) { BENCH_PEER_SKIPPED, 0, 0, 0, NULL };
  if (peers->dot != NULL)
    {
      g_autofree char *path = bench_write_dot (peers, g, node_sep, rank_sep);

      *dot = bench_time_dot (peers, path);
      g_unlink (path);
    }
  if (peers->node != NULL)
    {
      g_autofree char *path = bench_write_json (peers, g, node_sep, rank_sep);

      *dagre = bench_time_dagre (peers, path);
      g_unlink (path);
    }
}

/* The peer's milliseconds for a table cell. */
G_GNUC_UNUSED static char *
bench_peer_format_ms (const BenchPeerResult *r)
{
  switch (r->status)
    {
    case BENCH_PEER_OK:
      return g_strdup_printf ("%.1f", r->ms);
    case BENCH_PEER_CUT_OFF:
      return g_strdup_printf (">%.0f", r->ms);
    case BENCH_PEER_OUT_OF_MEMORY:
      return g_strdup ("out of mem");
    case BENCH_PEER_OUT_OF_STACK:
      return g_strdup ("out of stack");
    case BENCH_PEER_FAILED:
      return g_strdup ("failed");
    case BENCH_PEER_SKIPPED:
    default:
      return g_strdup ("-");
    }
}

/* How many times faster ours is, for a table cell. */
G_GNUC_UNUSED static char *
bench_peer_format_ratio (const BenchPeerResult *r,
                         double                 ours_ms)
{
  switch (r->status)
    {
    case BENCH_PEER_OK:
      return g_strdup_printf (r->ms / ours_ms < 100 ? "%.1f×" : "%.0f×", r->ms / ours_ms);
    case BENCH_PEER_CUT_OFF:
      return g_strdup_printf (r->ms / ours_ms < 100 ? ">%.1f×" : ">%.0f×", r->ms / ours_ms);
    default:
      return g_strdup ("-");
    }
}

/* Notes under a table: why a peer failed, dagre's whole process. */
G_GNUC_UNUSED static void
bench_peer_print_note (const char            *graph,
                       const char            *peer,
                       const BenchPeerResult *r)
{
  if (r->status == BENCH_PEER_FAILED)
    printf ("  %s: %s failed: %s\n", graph, peer, r->reason != NULL ? r->reason : "no reason given");
  else if (r->status == BENCH_PEER_OUT_OF_MEMORY)
    printf ("  %s: %s ran out of memory after %.1f s\n", graph, peer, r->ms / 1000);
  else if (r->status == BENCH_PEER_OUT_OF_STACK)
    printf ("  %s: %s overflowed the stack after %.1f s (Maximum call stack size exceeded)\n",
            graph, peer, r->ms / 1000);
  else if (r->status == BENCH_PEER_CUT_OFF)
    printf ("  %s: %s was cut off after %.0f s\n", graph, peer, r->ms / 1000);
}

G_GNUC_UNUSED static void
bench_peer_result_clear (BenchPeerResult *r)
{
  g_clear_pointer (&r->reason, g_free);
}
