/* test-timeline-search.c: the timeline's search object on a worker
 *
 * The first page of results comes with the count, the rest is listed
 * while the main loop is idle, in the order of the matches; typing on
 * (each search narrowed from the one before) finds what a fresh search
 * finds; a new search drops the listing of the old one; a cancelled one
 * says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-timeline-item.h"
#include "sl-timeline-search.h"

#define FIRST_PAGE 200
#define MAX_LISTED 10000

static SlTrace *
build_trace (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("search.json");
  guint process = sl_trace_builder_get_process (builder, "1");
  const char *names[] = { "MatMul", "matmul_grad", "Conv2D", "卷积", "" };

  for (guint th = 0; th < 3; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", th);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);

      for (guint i = 0; i < 12000; i++)
        sl_trace_builder_add_slice (builder, track, (gint64)i * 100 + th * 7, 50,
                                    sl_trace_builder_intern (builder, names[(i + th) % G_N_ELEMENTS (names)], -1),
                                    0, 0, SL_TRACE_NO_ARGS, 0);
    }
  return sl_trace_builder_finish (builder, NULL);
}

typedef struct {
  gboolean  done;
  guint8   *hits;
  GError   *error;
} Waiter;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *w = user_data;

  w->hits = sl_timeline_search_run_finish (SL_TIMELINE_SEARCH (object), result, &w->error);
  w->done = TRUE;
}

static gboolean
run (SlTimelineSearch *search,
     SlTrace          *trace,
     const char       *text,
     GCancellable     *cancellable,
     GError          **error)
{
  Waiter w = { 0 };

  sl_timeline_search_run_async (search, trace, text, FALSE, NULL, cancellable, done_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_free (w.hits);
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      return FALSE;
    }
  return TRUE;
}

static void
assert_listed_in_order (SlTimelineSearch *search)
{
  GListModel *results = sl_timeline_search_get_results (search);

  for (guint i = 0; i < g_list_model_get_n_items (results); i++)
    {
      g_autoptr(SlTimelineItem) item = g_list_model_get_item (results, i);
      guint track;
      guint32 slice;

      sl_timeline_search_get_match (search, i, &track, &slice, NULL);
      g_assert_cmpuint (sl_timeline_item_get_data (item)->track, ==, track);
      g_assert_cmpuint (sl_timeline_item_get_data (item)->slice, ==, slice);
    }
}

static void
test_pages (void)
{
  g_autoptr(SlTrace) trace = build_trace ();
  g_autoptr(SlTimelineSearch) search = sl_timeline_search_new ();
  GListModel *results = sl_timeline_search_get_results (search);
  g_autoptr(GError) error = NULL;
  gint64 last = G_MININT64;

  g_assert_true (run (search, trace, "MAT", NULL, &error));
  g_assert_no_error (error);
  /* two names of five on three threads of 12,000 */
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 3 * 12000 * 2 / 5);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, FIRST_PAGE);
  assert_listed_in_order (search);

  while (g_list_model_get_n_items (results) < MAX_LISTED)
    g_main_context_iteration (NULL, TRUE);
  assert_listed_in_order (search);
  for (guint i = 0; i < sl_timeline_search_get_n_matches (search); i++)
    {
      gint64 start;

      sl_timeline_search_get_match (search, i, NULL, NULL, &start);
      g_assert_cmpint (start, >=, last);
      last = start;
    }

  /* a new search drops what was still to list */
  g_assert_true (run (search, trace, "卷积", NULL, &error));
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 3 * 12000 / 5);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, FIRST_PAGE);
  g_assert_true (run (search, trace, "Conv", NULL, &error));
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 3 * 12000 / 5);
  assert_listed_in_order (search);

  sl_timeline_search_clear (search);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 0);
}

static void
test_typing (void)
{
  static const char *typed[] = { "m", "ma", "mat", "matm", "matmul", "MatMul_", "matmul", "卷", "conv" };
  g_autoptr(SlTrace) trace = build_trace ();
  g_autoptr(SlTimelineSearch) typing = sl_timeline_search_new ();

  for (guint q = 0; q < G_N_ELEMENTS (typed); q++)
    {
      g_autoptr(SlTimelineSearch) fresh = sl_timeline_search_new ();

      g_assert_true (run (typing, trace, typed[q], NULL, NULL));
      g_assert_true (run (fresh, trace, typed[q], NULL, NULL));
      g_assert_cmpuint (sl_timeline_search_get_n_matches (typing), ==, sl_timeline_search_get_n_matches (fresh));
      for (guint i = 0; i < sl_timeline_search_get_n_matches (fresh); i++)
        {
          guint t1, t2;
          guint32 s1, s2;

          sl_timeline_search_get_match (typing, i, &t1, &s1, NULL);
          sl_timeline_search_get_match (fresh, i, &t2, &s2, NULL);
          g_assert_cmpuint (t1, ==, t2);
          g_assert_cmpuint (s1, ==, s2);
        }
    }
}

/* The same names on another trace, or by an expression, are searched anew. */
static void
test_other_trace (void)
{
  g_autoptr(SlTrace) trace = build_trace ();
  g_autoptr(SlTimelineSearch) search = sl_timeline_search_new ();
  SlTraceBuilder *builder = sl_trace_builder_new ("other.json");
  guint track = sl_trace_builder_get_thread_track (builder, sl_trace_builder_get_process (builder, "1"), "1");
  g_autoptr(SlTrace) other = NULL;
  Waiter w = { 0 };
  guint32 slice;

  /* interned in the same order, so the same ids match */
  for (guint i = 0; i < 5; i++)
    sl_trace_builder_add_slice (builder, track, 1000 - i * 100, 10,
                                sl_trace_builder_intern (builder, (const char *[]) { "MatMul", "matmul_grad", "Conv2D", "卷积", "x" }[i], -1),
                                0, 0, SL_TRACE_NO_ARGS, 0);
  other = sl_trace_builder_finish (builder, NULL);

  g_assert_true (run (search, trace, "mat", NULL, NULL));
  g_assert_true (run (search, other, "mat", NULL, NULL));
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 2);
  sl_timeline_search_get_match (search, 0, NULL, &slice, NULL);
  g_assert_cmpuint (slice, ==, 3);   /* matmul_grad, at 900 */

  sl_timeline_search_run_async (search, other, "^matmul$", TRUE, NULL, NULL, done_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (w.error);
  g_free (w.hits);
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 1);
}

/* With more matches than it keeps, the search keeps the earliest of all
 * threads, steps through those, and says how many match in all. */
static void
test_cap (void)
{
  g_autoptr(SlTrace) trace = build_trace ();
  g_autoptr(SlTimelineSearch) search = sl_timeline_search_new ();
  g_autofree char *label = NULL;
  gint64 last_kept;
  guint first, index;

  sl_timeline_search_set_max_matches (search, 5000);
  g_assert_true (run (search, trace, "mat", NULL, NULL));
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 5000);
  g_assert_cmpuint (sl_timeline_search_get_n_total (search), ==, 3 * 12000 * 2 / 5);
  label = sl_timeline_search_dup_label (search);
  g_assert_cmpstr (label, ==, "The first 5,000 of 14,400 matches");

  /* every thread's first matches are kept: slices start every 100 ns on
   * all three, so the kept ones end before 5000 / 3 * 5 / 2 * 100 */
  sl_timeline_search_get_match (search, 4999, NULL, NULL, &last_kept);
  g_assert_cmpint (last_kept, <, 420000);
  {
    g_autoptr(GHashTable) tracks = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < 5000; i++)
      {
        guint track;

        sl_timeline_search_get_match (search, i, &track, NULL, NULL);
        g_hash_table_add (tracks, GUINT_TO_POINTER (track + 1));
      }
    g_assert_cmpuint (g_hash_table_size (tracks), ==, 3);
  }

  /* stepping goes round the kept ones */
  first = sl_timeline_search_step (search, FALSE, 0);
  g_assert_cmpuint (first, ==, 0);
  index = sl_timeline_search_step (search, TRUE, 0);
  g_assert_cmpuint (index, ==, 4999);
  g_clear_pointer (&label, g_free);
  label = sl_timeline_search_dup_label (search);
  g_assert_cmpstr (label, ==, "5,000 of the first 5,000, of 14,400 matches");

  /* the same text with a cap it fits under says the plain count */
  sl_timeline_search_set_max_matches (search, 1000000);
  g_assert_true (run (search, trace, "mat", NULL, NULL));
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 14400);
  g_clear_pointer (&label, g_free);
  label = sl_timeline_search_dup_label (search);
  g_assert_cmpstr (label, ==, "14,400 matches");
}

static void
test_cancelled (void)
{
  g_autoptr(SlTrace) trace = build_trace ();
  g_autoptr(SlTimelineSearch) search = sl_timeline_search_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (run (search, trace, "conv", NULL, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (run (search, trace, "mat", cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* the earlier results stay */
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, 3 * 12000 / 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline-search/pages", test_pages);
  g_test_add_func ("/timeline-search/typing", test_typing);
  g_test_add_func ("/timeline-search/other-trace", test_other_trace);
  g_test_add_func ("/timeline-search/cap", test_cap);
  g_test_add_func ("/timeline-search/cancelled", test_cancelled);

  return g_test_run ();
}
