/* test-api-stats.c: host API calls summed over a stretch of time (one
 * step) and per level, with hand-computed answers; the timeline pattern
 * that finds an API's calls and no others
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-api-calls.h"
#include "sl-api-levels.h"

static SlOpRow *
find_api (SlOpTable  *table,
          const char *level,
          const char *name)
{
  GListModel *rows = sl_op_table_get_types (table);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      if (g_strcmp0 (sl_op_row_get_op_type (row), name) == 0 && g_strcmp0 (sl_op_row_get_core_type (row), level) == 0)
        return row;
    }
  return NULL;
}

/* Two steps, [1000, 2000) and [2000, 3000); calls added out of order. */
static SlApiCalls *
make_calls (void)
{
  SlApiCalls *calls = sl_api_calls_new ();

  sl_api_calls_add (calls, "acl", "aclnnMm", 2500, 300);
  sl_api_calls_add (calls, "acl", "aclnnMm", 1100, 100);
  sl_api_calls_add (calls, "acl", "aclnnMm", 1500, 50);
  sl_api_calls_add (calls, "runtime", "aclnnMm", 1200, 7);   /* same name, another level */
  sl_api_calls_add (calls, "node", "launch", 1999, 40);      /* starts in step 1, ends in step 2 */
  sl_api_calls_add (calls, "node", "launch", 2000, 10);      /* the boundary belongs to step 2 */
  sl_api_calls_add (calls, "hccl", "Launch_Ffts", 900, -5);  /* damaged: counts as 0 */
  sl_api_calls_add (calls, NULL, "mystery", 3000, 1);        /* at the end of step 2: outside */
  sl_api_calls_finish (calls);
  return calls;
}

static void
test_aggregate_steps (void)
{
  g_autoptr(SlApiCalls) calls = make_calls ();
  g_autoptr(SlOpTable) step1 = NULL;
  g_autoptr(SlOpTable) step2 = NULL;
  g_autoptr(SlOpTable) all = NULL;
  gint64 start, end;
  SlOpRow *row;

  g_assert_cmpuint (sl_api_calls_get_n_calls (calls), ==, 8);
  g_assert_true (sl_api_calls_get_span (calls, &start, &end));
  g_assert_cmpint (start, ==, 900);
  g_assert_cmpint (end, ==, 3001);

  step1 = sl_api_calls_aggregate (calls, 1000, 2000, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (step1)), ==, 3);
  row = find_api (step1, "acl", "aclnnMm");
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 150);
  g_assert_cmpint (sl_op_row_get_avg_ns (row), ==, 75);
  g_assert_cmpint (sl_op_row_get_min_ns (row), ==, 50);
  g_assert_cmpint (sl_op_row_get_max_ns (row), ==, 100);
  /* 150 of the step's 150 + 7 + 40 = 197 ns. */
  g_assert_cmpfloat_with_epsilon (sl_op_row_get_ratio (row), 100.0 * 150 / 197, 1e-9);
  row = find_api (step1, "runtime", "aclnnMm");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 7);
  row = find_api (step1, "node", "launch");
  g_assert_cmpuint (sl_op_row_get_count (row), ==, 1);
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 40);
  g_assert_cmpint (sl_op_table_get_total_ns (step1), ==, 197);

  step2 = sl_api_calls_aggregate (calls, 2000, 3000, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (step2)), ==, 2);
  g_assert_cmpint (sl_op_row_get_total_ns (find_api (step2, "acl", "aclnnMm")), ==, 300);
  g_assert_cmpint (sl_op_row_get_total_ns (find_api (step2, "node", "launch")), ==, 10);
  g_assert_null (find_api (step2, "", "mystery"));

  all = sl_api_calls_aggregate (calls, G_MININT64, G_MAXINT64, NULL);
  g_assert_cmpuint (sl_op_table_get_n_executions (all), ==, 8);
  row = find_api (all, "hccl", "Launch_Ffts");
  g_assert_cmpint (sl_op_row_get_total_ns (row), ==, 0);
  g_assert_nonnull (find_api (all, "", "mystery"));
  /* Longest first. */
  {
    g_autoptr(SlOpRow) first = g_list_model_get_item (sl_op_table_get_types (all), 0);

    g_assert_cmpstr (sl_op_row_get_op_type (first), ==, "aclnnMm");
    g_assert_cmpint (sl_op_row_get_total_ns (first), ==, 450);
  }
}

static void
test_aggregate_empty (void)
{
  g_autoptr(SlApiCalls) calls = sl_api_calls_new ();
  g_autoptr(SlApiCalls) some = make_calls ();
  g_autoptr(SlOpTable) none = NULL;
  g_autoptr(SlOpTable) before = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  sl_api_calls_finish (calls);
  g_assert_false (sl_api_calls_get_span (calls, NULL, NULL));
  none = sl_api_calls_aggregate (calls, 0, 100, NULL);
  g_assert_true (sl_op_table_is_empty (none));

  before = sl_api_calls_aggregate (some, 0, 900, NULL);
  g_assert_true (sl_op_table_is_empty (before));

  /* Cancelled before the first call is summed. */
  g_cancellable_cancel (cancellable);
  g_assert_null (sl_api_calls_aggregate (some, G_MININT64, G_MAXINT64, cancellable));
}

static void
test_levels (void)
{
  g_autoptr(SlApiCalls) calls = make_calls ();
  g_autoptr(SlOpTable) all = sl_api_calls_aggregate (calls, G_MININT64, G_MAXINT64, NULL);
  g_autoptr(GPtrArray) levels = sl_api_levels_compute (sl_op_table_get_types (all));
  const SlApiLevel *level;

  g_assert_cmpuint (levels->len, ==, 5);
  level = g_ptr_array_index (levels, 0);
  g_assert_cmpstr (level->level, ==, "acl");
  g_assert_cmpuint (level->n_apis, ==, 1);
  g_assert_cmpuint (level->count, ==, 3);
  g_assert_cmpint (level->total_ns, ==, 450);
  level = sl_api_levels_find (levels, "node");
  g_assert_cmpuint (level->count, ==, 2);
  g_assert_cmpint (level->total_ns, ==, 50);
  g_assert_cmpint (sl_api_levels_find (levels, "runtime")->total_ns, ==, 7);
  g_assert_cmpint (sl_api_levels_find (levels, "")->total_ns, ==, 1);
  g_assert_null (sl_api_levels_find (levels, "model"));

  g_assert_cmpstr (sl_api_level_label ("acl"), ==, "AscendCL");
  g_assert_cmpstr (sl_api_level_label ("AscendCL"), ==, "AscendCL");
  g_assert_cmpstr (sl_api_level_label ("hccl"), ==, "HCCL");
  g_assert_cmpstr (sl_api_level_label ("Runtime"), ==, "Runtime");
  g_assert_cmpstr (sl_api_level_label ("queue"), ==, "queue");
}

static void
test_timeline_pattern (void)
{
  g_autofree char *pattern = sl_api_level_timeline_pattern ("aclnnMm");
  g_autofree char *odd = sl_api_level_timeline_pattern ("a.b(c)*");
  g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_CASELESS, 0, NULL);
  g_autoptr(GRegex) odd_regex = g_regex_new (odd, G_REGEX_CASELESS, 0, NULL);

  g_assert_nonnull (regex);
  g_assert_true (g_regex_match (regex, "aclnnMm", 0, NULL));
  g_assert_true (g_regex_match (regex, "AscendCL@aclnnMm", 0, NULL));
  g_assert_false (g_regex_match (regex, "aclnnMmGetWorkspaceSize", 0, NULL));
  g_assert_false (g_regex_match (regex, "AscendCL@aclnnMmGetWorkspaceSize", 0, NULL));
  g_assert_false (g_regex_match (regex, "x/aclnnMm", 0, NULL));

  g_assert_nonnull (odd_regex);
  g_assert_true (g_regex_match (odd_regex, "Node@a.b(c)*", 0, NULL));
  g_assert_false (g_regex_match (odd_regex, "axb(c)", 0, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/api-stats/aggregate-steps", test_aggregate_steps);
  g_test_add_func ("/api-stats/aggregate-empty", test_aggregate_empty);
  g_test_add_func ("/api-stats/levels", test_levels);
  g_test_add_func ("/api-stats/timeline-pattern", test_timeline_pattern);

  return g_test_run ();
}
