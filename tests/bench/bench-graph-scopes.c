/* bench-graph-scopes.c: laying out the scopes of a 40-layer LLM training graph
 *
 * Decodes the ~20,000-op graph of graph-fixture.h with the graph reader
 * and builds its hierarchy, as opening it does, then lays out a
 * representative set of its containers the way the graph view lays out an
 * expanded one: the container's children as boxes sized by their label
 * (width 40 + 7 per character, clamped to 80..240; height 36, or 44 for a
 * collapsed scope, group or section) and the lifted edges among them,
 * data and control. The set: the top level, one decoder layer, the
 * container with the most children, the ones with the most and with about
 * 300 children among those with edges, the largest group, and the
 * container where one child feeds the most others (the hierarchy gives
 * broadcast nodes a proxy in each consuming scope, so this is far from
 * "feeds every block"). Last comes the whole graph flat, every op one box and
 * every op-to-op input one edge, as a viewer without scopes draws it.
 *
 * Ours is the median of several runs of sl_layered_layout_compute(); the
 * peers, on the same input written once per container, are Graphviz dot
 * and @dagrejs/dagre under node with a browser tab's heap
 * (bench-layout-peers.h says how each is timed, cut off and skipped).
 *
 * Goal (from the graph view plan): at least ten times faster than dagre on
 * every container dagre lays out, and finishing where dagre runs out of
 * memory, stack or time.
 *
 * Usage: bench-graph-scopes [RUNS] [--list]  (--list prints the 30
 * containers with the most children and exits; the peers' settings are
 * bench-layered-layout's)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "bench-layout-peers.h"
#include "graph-fixture.h"
#include "sl-graph-reader.h"
#include "sl-layered-layout.h"

#define N_LAYERS      40
#define NODE_SEP      20.0
#define RANK_SEP      40.0
#define BUDGET_MS     400.0
#define GOAL_RATIO    10.0
#define OP_HEIGHT     36.0
#define SCOPE_HEIGHT  44.0
#define FLAT_MAX_RUNS 3

typedef struct {
  char  *role;
  guint  item;   /* SL_GRAPH_NONE: the whole graph flat */
} Case;

static gboolean
is_container (SlGraph *graph,
              guint    item)
{
  SlGraphItemKind kind = sl_graph_item_get_kind (graph, item);

  return kind == SL_GRAPH_ITEM_SCOPE || kind == SL_GRAPH_ITEM_GROUP || kind == SL_GRAPH_ITEM_SECTION;
}

static SlLayeredSize
box_size (SlGraph *graph,
          guint    item)
{
  const char *label = sl_graph_item_get_label (graph, item);
  double chars = label != NULL ? g_utf8_strlen (label, -1) : 0;
  SlLayeredSize size = { CLAMP (40 + 7 * chars, 80, 240), is_container (graph, item) ? SCOPE_HEIGHT : OP_HEIGHT };

  return size;
}

/* The most edges leaving one child of @item. */
static guint
max_fan_out (SlGraph *graph,
             guint    item)
{
  g_autoptr(GHashTable) out = g_hash_table_new (NULL, NULL);
  guint best = 0;

  for (guint i = 0; i < sl_graph_item_get_n_edges (graph, item); i++)
    {
      guint from, n;

      sl_graph_item_get_edge (graph, item, i, &from, NULL, NULL, NULL);
      n = GPOINTER_TO_UINT (g_hash_table_lookup (out, GUINT_TO_POINTER (from))) + 1;
      g_hash_table_insert (out, GUINT_TO_POINTER (from), GUINT_TO_POINTER (n));
      best = MAX (best, n);
    }
  return best;
}

/* One container's layout input, as the graph view builds it. */
static void
scope_graph (SlGraph    *graph,
             guint       item,
             guint32    *index_of,
             BenchGraph *g)
{
  guint n = sl_graph_item_get_n_children (graph, item);

  bench_graph_init (g);
  for (guint i = 0; i < n; i++)
    {
      guint child = sl_graph_item_get_child (graph, item, i);
      SlLayeredSize size = box_size (graph, child);

      index_of[child] = i;
      g_array_append_val (g->nodes, size);
    }
  for (guint i = 0; i < sl_graph_item_get_n_edges (graph, item); i++)
    {
      guint from, to;
      SlGraphEdgeKind kind;
      SlLayeredEdge e;

      sl_graph_item_get_edge (graph, item, i, &from, &to, &kind, NULL);
      e.source = index_of[from];
      e.target = index_of[to];
      e.kind = kind == SL_GRAPH_EDGE_CONTROL ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA;
      g_array_append_val (g->edges, e);
    }
}

/* Every op a box, every input from an op an edge. */
static void
flat_graph (SlGraph    *graph,
            BenchGraph *g)
{
  guint n_ops = sl_graph_get_n_ops (graph);

  bench_graph_init (g);
  for (guint e = 0; e < n_ops; e++)
    {
      SlLayeredSize size = box_size (graph, sl_graph_element_get_item (graph, e));

      g_array_append_val (g->nodes, size);
    }
  for (guint e = 0; e < n_ops; e++)
    for (guint k = 0; k < sl_graph_element_get_n_inputs (graph, e); k++)
      {
        SlGraphEdgeKind kind;
        guint source = sl_graph_element_get_input (graph, e, k, &kind, NULL);
        SlLayeredEdge edge = { source, e, kind == SL_GRAPH_EDGE_CONTROL ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA };

        if (source < n_ops)
          g_array_append_val (g->edges, edge);
      }
}

static int
compare_by_children (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  SlGraph *graph = user_data;
  guint na = sl_graph_item_get_n_children (graph, *(const guint *) a);
  guint nb = sl_graph_item_get_n_children (graph, *(const guint *) b);

  return (nb > na) - (nb < na);
}

/* Containers with two or more children, the most children first. */
static GArray *
list_containers (SlGraph *graph)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint item = 0; item < sl_graph_get_n_items (graph); item++)
    if (is_container (graph, item) && sl_graph_item_get_n_children (graph, item) >= 2)
      g_array_append_val (items, item);
  g_array_sort_with_data (items, compare_by_children, graph);
  return items;
}

static void
add_case (GArray     *cases,
          const char *role,
          guint       item)
{
  Case c = { NULL, item };

  if (item == SL_GRAPH_NONE)
    {
      printf ("no container for \"%s\"\n", role);
      return;
    }
  for (guint i = 0; i < cases->len; i++)
    {
      Case *other = &g_array_index (cases, Case, i);

      if (other->item == item)
        {
          char *both = g_strdup_printf ("%s, %s", other->role, role);

          g_free (other->role);
          other->role = both;
          return;
        }
    }
  c.role = g_strdup (role);
  g_array_append_val (cases, c);
}

static GArray *
pick_cases (SlGraph *graph,
            GArray  *containers)
{
  GArray *cases = g_array_new (FALSE, FALSE, sizeof (Case));
  guint most = SL_GRAPH_NONE, most_linked = SL_GRAPH_NONE, near_300 = SL_GRAPH_NONE;
  guint group = SL_GRAPH_NONE, broadcast = SL_GRAPH_NONE;
  guint best_fan_out = 0;
  g_autofree char *layer_path = g_strdup_printf (LLM_ROOT "/layers-CellList/%u-LLamaDecodeLayer", N_LAYERS / 2);

  /* Containers come with the most children first. Those without edges
   * are a row of boxes: the picks by size prefer containers with edges. */
  for (guint i = 0; i < containers->len; i++)
    {
      guint item = g_array_index (containers, guint, i);
      guint n = sl_graph_item_get_n_children (graph, item);
      gboolean linked = sl_graph_item_get_n_edges (graph, item) > 0;
      guint fan_out = max_fan_out (graph, item);

      if (most == SL_GRAPH_NONE)
        most = item;
      if (linked && most_linked == SL_GRAPH_NONE)
        most_linked = item;
      if (linked && (near_300 == SL_GRAPH_NONE ||
                     ABS ((int) n - 300) < ABS ((int) sl_graph_item_get_n_children (graph, near_300) - 300)))
        near_300 = item;
      if (sl_graph_item_get_kind (graph, item) == SL_GRAPH_ITEM_GROUP &&
          (group == SL_GRAPH_NONE || (linked && sl_graph_item_get_n_edges (graph, group) == 0)))
        group = item;
      if (fan_out > best_fan_out)
        {
          best_fan_out = fan_out;
          broadcast = item;
        }
    }

  add_case (cases, "top level", 0);
  add_case (cases, "a decoder layer", sl_graph_find_item (graph, layer_path));
  add_case (cases, "most children", most);
  add_case (cases, "most children with edges", most_linked);
  add_case (cases, "about 300 children with edges", near_300);
  add_case (cases, "largest group", group);
  add_case (cases, "one child feeding the most others", broadcast);
  return cases;
}

static void
print_list (SlGraph *graph,
            GArray  *containers)
{
  printf ("%8s %8s %8s  %s\n", "children", "edges", "fan-out", "container");
  for (guint i = 0; i < MIN (containers->len, 30); i++)
    {
      guint item = g_array_index (containers, guint, i);
      g_autofree char *path = sl_graph_item_dup_path (graph, item);

      printf ("%8u %8u %8u  %s (%s)\n", sl_graph_item_get_n_children (graph, item),
              sl_graph_item_get_n_edges (graph, item), max_fan_out (graph, item),
              *path != '\0' ? path : "/", sl_graph_item_kind_to_string (sl_graph_item_get_kind (graph, item)));
    }
}

static SlLayeredLayout *
layout_graph (BenchGraph *g)
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

/* "met", "UNMET" or "-" for the goal against dagre. */
static const char *
goal_verdict (const BenchPeerResult *dagre,
              double                 ours_ms)
{
  switch (dagre->status)
    {
    case BENCH_PEER_OK:
    case BENCH_PEER_CUT_OFF:
      return dagre->ms / ours_ms >= GOAL_RATIO ? "met" : "UNMET";
    case BENCH_PEER_OUT_OF_MEMORY:
    case BENCH_PEER_OUT_OF_STACK:
      return "met";
    default:
      return "-";
    }
}

int
main (int   argc,
      char *argv[])
{
  guint runs = 7;
  gboolean list = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(GArray) containers = NULL;
  g_autoptr(GArray) cases = NULL;
  g_autofree guint32 *index_of = NULL;
  g_autoptr(GString) unmet = g_string_new (NULL);
  BenchPeers peers;
  guint n_ops = 0, n_judged = 0;
  gint64 start;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--list") == 0)
      list = TRUE;
    else
      runs = MAX ((guint) atoi (argv[i]), 1);

  /* Line by line: the peers' runs are long. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  start = g_get_monotonic_time ();
  bytes = graph_fixture_llm (N_LAYERS, &n_ops);
  graph = sl_graph_reader_decode (bytes, "bench", &error);
  g_assert_no_error (error);
  containers = list_containers (graph);
  printf ("graph: %u ops, %u hierarchy items, %u containers of two or more children (built in %.0f ms)\n",
          n_ops, sl_graph_get_n_items (graph), containers->len, (g_get_monotonic_time () - start) / 1000.0);
  if (list)
    {
      print_list (graph, containers);
      return 0;
    }

  bench_peers_init (&peers, SL_DAGRE_PEER_SCRIPT);
  printf ("runs: %u of ours (%u for the whole graph), median; crossing budget %.0f ms\n",
          runs, MIN (runs, FLAT_MAX_RUNS), BUDGET_MS);
  bench_peers_print_settings (&peers);
  printf ("machine: %u cores, shared with whatever else runs: single runs are noisy, medians less so\n",
          g_get_num_processors ());

  cases = pick_cases (graph, containers);
  {
    Case flat = { g_strdup ("whole graph flat"), SL_GRAPH_NONE };

    g_array_append_val (cases, flat);
  }
  index_of = g_new (guint32, sl_graph_get_n_items (graph));

  printf ("\n");
  for (guint c = 0; c < cases->len; c++)
    {
      const Case *cs = &g_array_index (cases, Case, c);
      g_autofree char *path = cs->item != SL_GRAPH_NONE ? sl_graph_item_dup_path (graph, cs->item) : NULL;

      printf ("%c  %s: %s\n", 'A' + c, cs->role,
              path == NULL ? "every op, one graph" : *path != '\0' ? path : "/");
    }
  printf ("\n%-2s %8s %7s %9s %9s %7s %10s %7s %10s  %s\n",
          "", "children", "edges", "ours ms", "dot ms", "ratio", "dagre ms", "ratio", "dagre all",
          "goal: ≥10× faster than dagre");

  for (guint c = 0; c < cases->len; c++)
    {
      Case *cs = &g_array_index (cases, Case, c);
      BenchGraph g;
      guint n_runs = cs->item == SL_GRAPH_NONE ? MIN (runs, FLAT_MAX_RUNS) : runs;
      g_autofree double *ours = g_new (double, n_runs);
      BenchPeerResult dot, dagre;
      g_autofree char *dot_ms = NULL, *dot_ratio = NULL, *dagre_ms = NULL, *dagre_ratio = NULL;
      g_autofree char *dagre_all = NULL;
      g_autofree char *name = g_strdup_printf ("%c", 'A' + c);
      const char *verdict;
      double ours_ms;

      if (cs->item == SL_GRAPH_NONE)
        flat_graph (graph, &g);
      else
        scope_graph (graph, cs->item, index_of, &g);
      for (guint r = 0; r < n_runs; r++)
        {
          gint64 t0 = g_get_monotonic_time ();
          g_autoptr(SlLayeredLayout) layout = layout_graph (&g);

          ours[r] = (g_get_monotonic_time () - t0) / 1000.0;
        }
      ours_ms = bench_median (ours, n_runs);

      bench_peers_time (&peers, &g, NODE_SEP, RANK_SEP, &dot, &dagre);
      dot_ms = bench_peer_format_ms (&dot);
      dot_ratio = bench_peer_format_ratio (&dot, ours_ms);
      dagre_ms = bench_peer_format_ms (&dagre);
      dagre_ratio = bench_peer_format_ratio (&dagre, ours_ms);
      dagre_all = dagre.status == BENCH_PEER_OK ? g_strdup_printf ("%.1f", dagre.total_ms) : g_strdup ("-");
      verdict = goal_verdict (&dagre, ours_ms);
      if (strcmp (verdict, "-") != 0)
        n_judged++;
      if (strcmp (verdict, "UNMET") == 0)
        g_string_append_printf (unmet, "%s%s", unmet->len > 0 ? ", " : "", name);

      printf ("%-2s %8u %7u %9.2f %9s %7s %10s %7s %10s  %s%s\n", name, g.nodes->len, g.edges->len,
              ours_ms, dot_ms, dot_ratio, dagre_ms, dagre_ratio, dagre_all, verdict,
              dagre.status == BENCH_PEER_OUT_OF_MEMORY ? " (dagre ran out of memory)" :
              dagre.status == BENCH_PEER_OUT_OF_STACK ? " (dagre ran out of stack)" :
              dagre.status == BENCH_PEER_CUT_OFF ? " (dagre cut off)" : "");
      bench_peer_print_note (name, "dot", &dot);
      bench_peer_print_note (name, "dagre", &dagre);

      bench_peer_result_clear (&dot);
      bench_peer_result_clear (&dagre);
      bench_graph_clear (&g);
    }

  printf ("\nratio: peer's time over ours (dot: its whole process; dagre: dagre.layout() alone,\n"
          "\"dagre all\": its whole node process, reading the graph included)\n");
  if (n_judged == 0)
    printf ("goal: not judged, dagre was skipped\n");
  else if (unmet->len == 0)
    printf ("goal: met on every container (%u of %u judged)\n", n_judged, cases->len);
  else
    printf ("goal: UNMET on %s\n", unmet->str);

  for (guint c = 0; c < cases->len; c++)
    g_free (g_array_index (cases, Case, c).role);
  bench_peers_clear (&peers);
  return 0;
}
