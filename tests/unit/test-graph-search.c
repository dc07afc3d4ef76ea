/* test-graph-search.c: names, op types and expressions, worked by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-search.h"
#include "../graph-small.h"

/* The hits' paths, joined by spaces. */
static char *
find (SlGraphSearch     *search,
      SlGraph           *graph,
      const char        *query,
      SlGraphSearchMode  mode,
      guint              max,
      guint             *n_total)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) hits = sl_graph_search_find (search, query, mode, max, n_total, NULL, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < hits->len; i++)
    {
      g_autofree char *path = sl_graph_item_dup_path (graph, g_array_index (hits, guint32, i));

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, path);
      if (i > 0)
        g_assert_cmpuint (g_array_index (hits, guint32, i), >, g_array_index (hits, guint32, i - 1));
    }
  return g_string_free (out, FALSE);
}

static void
test_search_substring (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  g_autoptr(SlGraphSearch) search = sl_graph_search_new (graph);
  guint total = 0;
  char *got;

  /* Two scopes, seven ops and one parameter. */
  g_assert_cmpuint (sl_graph_search_get_n_names (search), ==, 3 + 8 + 1);

  /* Case is ignored. */
  got = find (search, graph, "MUL-OP7", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "net/dec/Mul-op7");
  g_assert_cmpuint (total, ==, 1);
  g_free (got);

  /* Inside a collapsed group too: ops of the group are found. */
  got = find (search, graph, "matmul-op3", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "net/enc/MatMul[5]/MatMul-op3");
  g_free (got);

  /* A scope's path finds the scope and everything named under it. */
  got = find (search, graph, "net/dec", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "net/dec net/dec/Mul-op7 net/dec/Mul-op8");
  g_free (got);

  /* An op type brings all its ops; the limit keeps the first, the total
   * counts all. */
  got = find (search, graph, "add", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "net/enc/Add-op6");
  g_free (got);
  got = find (search, graph, "matmul", SL_GRAPH_SEARCH_SUBSTRING, 2, &total);
  g_assert_cmpuint (total, ==, 5);
  g_assert_cmpstr (got, ==, "net/enc/MatMul[5]/MatMul-op1 net/enc/MatMul[5]/MatMul-op2");
  g_free (got);

  /* The parameter by name. */
  got = find (search, graph, "w", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "net/enc/w");
  g_free (got);

  got = find (search, graph, "", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "");
  g_assert_cmpuint (total, ==, 0);
  g_free (got);
  got = find (search, graph, "no such op", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "");
  g_free (got);
  /* A query never spans two names. */
  got = find (search, graph, "op7\nnet", SL_GRAPH_SEARCH_SUBSTRING, 100, &total);
  g_assert_cmpstr (got, ==, "");
  g_free (got);
}

static void
test_search_regex (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  g_autoptr(SlGraphSearch) search = sl_graph_search_new (graph);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) none = NULL;
  guint total = 0;
  char *got;

  got = find (search, graph, "op[78]$", SL_GRAPH_SEARCH_REGEX, 100, &total);
  g_assert_cmpstr (got, ==, "net/dec/Mul-op7 net/dec/Mul-op8");
  g_free (got);
  /* Anchors work per name, and case is ignored. */
  got = find (search, graph, "^ADD$", SL_GRAPH_SEARCH_REGEX, 100, &total);
  g_assert_cmpstr (got, ==, "net/enc/Add-op6");
  g_free (got);

  none = sl_graph_search_find (search, "([", SL_GRAPH_SEARCH_REGEX, 10, &total, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_REGEX_ERROR);
}

static void
test_search_cancel (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  g_autoptr(SlGraphSearch) search = sl_graph_search_new (graph);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) hits = NULL;

  g_cancellable_cancel (cancellable);
  hits = sl_graph_search_find (search, "mul", SL_GRAPH_SEARCH_REGEX, 10, NULL, cancellable, &error);
  g_assert_null (hits);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-search/substring", test_search_substring);
  g_test_add_func ("/graph-search/regex", test_search_regex);
  g_test_add_func ("/graph-search/cancel", test_search_cancel);

  return g_test_run ();
}
