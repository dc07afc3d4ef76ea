/* bench-graph-search.c: searching 100,000 names as the user types
 *
 * Builds the graph of a 200-layer LLM from graph-fixture.h (about 100,000
 * ops), indexes its names once, then types queries one character at a
 * time — substrings, and a regular expression — and times each
 * keystroke's search. The peer, on the same names in the same run, is what
 * a simple viewer does: fold each name's case and look for the query in
 * it, name by name. Goal (from the graphs issue): at most 16 ms per
 * keystroke over 100,000 names. A benchmark prints figures; it never
 * passes or fails.
 *
 * Usage: bench-graph-search [LAYERS]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph-fixture.h"
#include "sl-graph-reader.h"
#include "sl-graph-search.h"

#define RUNS 5
#define GOAL_MS 16.0

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

static double
worst (GArray *values)
{
  double w = 0;

  for (guint i = 0; i < values->len; i++)
    w = MAX (w, g_array_index (values, double, i));
  return w;
}

/* What a simple viewer does per keystroke: every name folded, then
 * searched. */
static guint
peer_search (GPtrArray  *names,
             const char *query)
{
  g_autofree char *folded_query = g_utf8_casefold (query, -1);
  guint hits = 0;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *folded = g_utf8_casefold (g_ptr_array_index (names, i), -1);

      hits += strstr (folded, folded_query) != NULL;
    }
  return hits;
}

static void
type_query (SlGraphSearch     *search,
            GPtrArray         *names,
            const char        *query,
            SlGraphSearchMode  mode,
            GArray            *ours,
            GArray            *peer)
{
  gsize len = strlen (query);

  for (gsize n = 1; n <= len; n++)
    {
      g_autofree char *prefix = g_strndup (query, n);

      for (guint run = 0; run < RUNS; run++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GArray) hits = NULL;
          guint total = 0;
          gint64 start = g_get_monotonic_time ();
          double ms;

          hits = sl_graph_search_find (search, prefix, mode, 2000, &total, NULL, &error);
          ms = (g_get_monotonic_time () - start) / 1000.0;
          if (hits == NULL)
            continue;   /* an expression cut short, "op1[" */
          g_array_append_val (ours, ms);
          if (peer != NULL && run == 0)
            {
              start = g_get_monotonic_time ();
              peer_search (names, prefix);
              ms = (g_get_monotonic_time () - start) / 1000.0;
              g_array_append_val (peer, ms);
            }
        }
    }
}

int
main (int    argc,
      char **argv)
{
  guint n_layers = argc > 1 ? (guint) atoi (argv[1]) : 200;
  g_autoptr(GBytes) bytes = graph_fixture_llm (n_layers, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_graph_reader_decode (bytes, "bench", &error);
  g_autoptr(SlGraphSearch) search = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) ours = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) peer = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) regex = g_array_new (FALSE, FALSE, sizeof (double));
  const char *queries[] = { "matmul-op1", "layers-celllist/17-llamadecodelayer/attention", "rmsnorm" };
  gint64 start;
  double index_ms;

  g_assert_no_error (error);
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    if (sl_graph_element_get_kind (graph, e) != SL_GRAPH_ELEMENT_CONST)
      g_ptr_array_add (names, sl_graph_element_dup_name (graph, e));

  start = g_get_monotonic_time ();
  search = sl_graph_search_new (graph);
  index_ms = (g_get_monotonic_time () - start) / 1000.0;

  printf ("graph: %u layers, %u ops, %u names indexed (ops, parameters, scopes) in %.1f ms, once per graph\n",
          n_layers, sl_graph_get_n_ops (graph), sl_graph_search_get_n_names (search), index_ms);
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    type_query (search, names, queries[q], SL_GRAPH_SEARCH_SUBSTRING, ours, peer);
  type_query (search, names, "op1[0-9]+$", SL_GRAPH_SEARCH_REGEX, regex, NULL);

  printf ("substring, per keystroke: median %.2f ms, worst %.2f ms over %u searches (goal %.0f ms)\n",
          median (ours), worst (ours), ours->len, GOAL_MS);
  printf ("regular expression, per keystroke: median %.2f ms, worst %.2f ms over %u searches (goal %.0f ms)\n",
          median (regex), worst (regex), regex->len, GOAL_MS);
  printf ("peer (fold and search each name): median %.2f ms, worst %.2f ms; ratio %.1fx\n",
          median (peer), worst (peer), median (peer) / MAX (median (ours), 1e-3));
  return 0;
}
