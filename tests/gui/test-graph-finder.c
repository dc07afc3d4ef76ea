/* test-graph-finder.c: the graph page's search object on a small graph:
 * hits with their names and paths, a newer search overtaking an older
 * one, a bad expression, an empty query and a new set of graphs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "sl-graph-finder.h"
#include "sl-graph-result.h"
#include "../graph-small.h"

typedef struct {
  guint  n_finished;
  guint  first_total;
  GArray *first_hits;
  char   *failure;
} Outcome;

static void
finished_cb (SlGraphFinder *finder,
             guint          total,
             Outcome       *outcome)
{
  GArray *results = sl_graph_finder_get_results (finder);

  if (outcome->n_finished++ == 0)
    {
      outcome->first_total = total;
      outcome->first_hits = g_array_copy (results);
    }
}

static void
failed_cb (SlGraphFinder *finder,
           const char    *message,
           Outcome       *outcome)
{
  g_free (outcome->failure);
  outcome->failure = g_strdup (message);
}

static void
wait_for (Outcome *outcome)
{
  while (outcome->n_finished == 0 && outcome->failure == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->first_hits, g_array_unref);
  g_clear_pointer (&outcome->failure, g_free);
  memset (outcome, 0, sizeof *outcome);
}

static SlGraphFinder *
new_finder (Outcome *outcome)
{
  SlGraphFinder *finder = sl_graph_finder_new ();

  sl_graph_finder_set_n_graphs (finder, 1);
  g_signal_connect (finder, "finished", G_CALLBACK (finished_cb), outcome);
  g_signal_connect (finder, "failed", G_CALLBACK (failed_cb), outcome);
  return finder;
}

static void
test_hits (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  Outcome outcome = { 0 };
  g_autoptr(SlGraphFinder) finder = new_finder (&outcome);
  GListModel *rows = sl_graph_finder_get_rows (finder);
  GArray *results = sl_graph_finder_get_results (finder);

  sl_graph_finder_find (finder, 0, graph, "op[78]$", TRUE);
  wait_for (&outcome);
  g_assert_null (outcome.failure);
  g_assert_cmpuint (outcome.first_total, ==, 2);
  g_assert_cmpuint (results->len, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  for (guint i = 0; i < results->len; i++)
    {
      g_autofree char *path = sl_graph_item_dup_path (graph, g_array_index (results, guint32, i));
      g_autoptr(SlGraphResult) row = g_list_model_get_item (rows, i);
      const char *name = sl_graph_result_get_label (row);

      g_assert_cmpstr (sl_graph_finder_get_path (finder, i), ==, path);
      g_assert_cmpstr (sl_graph_result_get_path (row), ==, path);
      g_assert_cmpuint (sl_graph_result_get_item (row), ==, g_array_index (results, guint32, i));
      g_assert_true (g_str_has_prefix (path, "net/dec/"));
      /* The list names each hit by what tells it apart: its op's label. */
      g_assert_true (g_str_has_suffix (name, sl_graph_item_get_label (graph, g_array_index (results, guint32, i))));
    }
  g_assert_null (sl_graph_finder_get_path (finder, 2));

  /* The index built by the first search serves the next one. */
  outcome_clear (&outcome);
  sl_graph_finder_find (finder, 0, graph, "matmul-op3", FALSE);
  wait_for (&outcome);
  g_assert_cmpuint (outcome.first_total, ==, 1);
  g_assert_cmpstr (sl_graph_finder_get_path (finder, 0), ==, "net/enc/MatMul[5]/MatMul-op3");
  outcome_clear (&outcome);
}

/* Typing fast: only the last query's hits ever arrive. */
static void
test_overtaken (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  Outcome outcome = { 0 };
  g_autoptr(SlGraphFinder) finder = new_finder (&outcome);

  for (guint round = 0; round < 20; round++)
    {
      sl_graph_finder_find (finder, 0, graph, "MatMul", FALSE);
      sl_graph_finder_find (finder, 0, graph, "Add", FALSE);
      wait_for (&outcome);
      g_assert_null (outcome.failure);
      g_assert_cmpuint (outcome.first_total, ==, 1);
      g_assert_cmpuint (outcome.first_hits->len, ==, 1);
      g_assert_cmpstr (sl_graph_finder_get_path (finder, 0), ==, "net/enc/Add-op6");
      outcome_clear (&outcome);
    }
}

static void
test_bad_expression (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  Outcome outcome = { 0 };
  g_autoptr(SlGraphFinder) finder = new_finder (&outcome);

  sl_graph_finder_find (finder, 0, graph, "Mul(", TRUE);
  wait_for (&outcome);
  g_assert_nonnull (outcome.failure);
  g_assert_cmpstr (outcome.failure, !=, "");
  g_assert_cmpuint (outcome.n_finished, ==, 0);
  outcome_clear (&outcome);
}

/* An empty query or no graph clears at once; forgetting drops the hits
 * and any search under way. */
static void
test_clear_and_forget (void)
{
  g_autoptr(SlGraph) graph = graph_fixture_small ();
  Outcome outcome = { 0 };
  g_autoptr(SlGraphFinder) finder = new_finder (&outcome);
  GArray *results = sl_graph_finder_get_results (finder);

  sl_graph_finder_find (finder, 0, graph, "op[78]$", TRUE);
  wait_for (&outcome);
  g_assert_cmpuint (results->len, ==, 2);
  sl_graph_finder_find (finder, 0, graph, "", FALSE);
  g_assert_cmpuint (results->len, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_graph_finder_get_rows (finder)), ==, 0);
  outcome_clear (&outcome);

  sl_graph_finder_find (finder, 0, graph, "op[78]$", TRUE);
  wait_for (&outcome);
  g_assert_cmpuint (results->len, ==, 2);
  sl_graph_finder_find (finder, 0, NULL, "op[78]$", TRUE);
  g_assert_cmpuint (results->len, ==, 0);
  outcome_clear (&outcome);

  /* A search that was under way when the graph changed says nothing;
   * the next one, for the new graph, does. */
  sl_graph_finder_set_n_graphs (finder, 2);
  sl_graph_finder_find (finder, 0, graph, "MatMul", FALSE);
  sl_graph_finder_forget (finder);
  g_assert_cmpuint (results->len, ==, 0);
  sl_graph_finder_find (finder, 1, graph, "Add", FALSE);
  wait_for (&outcome);
  g_assert_cmpuint (outcome.first_total, ==, 1);
  outcome_clear (&outcome);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/graph-finder/hits", test_hits);
  g_test_add_func ("/graph-finder/overtaken", test_overtaken);
  g_test_add_func ("/graph-finder/bad-expression", test_bad_expression);
  g_test_add_func ("/graph-finder/clear-and-forget", test_clear_and_forget);
  return g_test_run ();
}
