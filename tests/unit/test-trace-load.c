/* test-trace-load.c: a timeline read on a worker, watched through its
 * properties: the progress only rises and ends at 1, every change is told
 * in the context that started the load, a cancel stops it and says so,
 * damage names the file and the offset, a missing file fails naming it,
 * and a trace already read is only indexed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-core-enums.h"
#include "sl-problem.h"
#include "sl-progress.h"
#include "sl-step-spans.h"
#include "sl-trace-load.h"

typedef struct {
  GThread *thread;        /* the one notifications must come in */
  GArray  *progress;      /* double, each value notified */
  GArray  *states;        /* SlTraceLoadState, each state notified */
  gboolean wrong_thread;
  gboolean cancel_when_reading;
} Watch;

static void
progress_cb (SlTraceLoad *load,
             GParamSpec  *pspec,
             Watch       *watch)
{
  double value = sl_trace_load_get_progress (load);

  if (g_thread_self () != watch->thread)
    watch->wrong_thread = TRUE;
  g_array_append_val (watch->progress, value);
}

static void
state_cb (SlTraceLoad *load,
          GParamSpec  *pspec,
          Watch       *watch)
{
  SlTraceLoadState state = sl_trace_load_get_state (load);

  if (g_thread_self () != watch->thread)
    watch->wrong_thread = TRUE;
  g_array_append_val (watch->states, state);
  if (state == SL_TRACE_LOAD_READING && watch->cancel_when_reading)
    sl_trace_load_cancel (load);
}

static void
watch_init (Watch       *watch,
            SlTraceLoad *load)
{
  watch->thread = g_thread_self ();
  watch->progress = g_array_new (FALSE, FALSE, sizeof (double));
  watch->states = g_array_new (FALSE, FALSE, sizeof (SlTraceLoadState));
  g_signal_connect (load, "notify::progress", G_CALLBACK (progress_cb), watch);
  g_signal_connect (load, "notify::state", G_CALLBACK (state_cb), watch);
}

static void
watch_clear (Watch *watch)
{
  g_array_unref (watch->progress);
  g_array_unref (watch->states);
}

static void
run_until_finished (SlTraceLoad *load)
{
  while (!sl_trace_load_is_finished (load))
    g_main_context_iteration (NULL, TRUE);
  /* Whatever the worker queued before it ended is told too. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Events enough for several chunks of the reader (1 MiB each). */
static char *
write_trace (guint n_events)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("sl-test-trace-load-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  g_close (fd, NULL);
  for (guint i = 0; i < n_events; i++)
    g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"op%u\",\"cat\":\"kernel\",\"pid\":1,\"tid\":%u,"
                                  "\"ts\":%u,\"dur\":5,\"args\":{\"step\":%u}}\n",
                            i ? "," : "", i % 37, i % 4, i * 10, i / 100);
  g_string_append (text, "]}\n");
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_progress_rises_to_one (void)
{
  g_autofree char *path = write_trace (60000);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  g_autoptr(SlTraceLod) lod = NULL;
  GStatBuf st;
  Watch watch = { 0 };

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 3 << 20);
  watch_init (&watch, load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_WAITING);
  g_assert_cmpfloat (sl_trace_load_get_progress (load), ==, 0);

  sl_trace_load_start (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_READING);
  run_until_finished (load);

  g_assert_false (watch.wrong_thread);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_null (sl_trace_load_get_error (load));
  /* Never back, and 1 at the end. */
  g_assert_cmpuint (watch.progress->len, >=, 1);
  for (guint i = 1; i < watch.progress->len; i++)
    g_assert_cmpfloat (g_array_index (watch.progress, double, i), >=, g_array_index (watch.progress, double, i - 1));
  for (guint i = 0; i < watch.progress->len; i++)
    g_assert_cmpfloat (g_array_index (watch.progress, double, i), <=, 1.0);
  g_assert_cmpfloat (g_array_index (watch.progress, double, watch.progress->len - 1), ==, 1.0);
  g_assert_cmpfloat (sl_trace_load_get_progress (load), ==, 1.0);
  g_assert_cmpuint (sl_trace_load_get_bytes_read (load), ==, (guint64)st.st_size);
  g_assert_cmpuint (sl_trace_load_get_total_bytes (load), ==, (guint64)st.st_size);

  /* Reading, indexing, done: in that order, each once. */
  g_assert_cmpuint (watch.states->len, ==, 3);
  g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, 0), ==, SL_TRACE_LOAD_READING);
  g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, 1), ==, SL_TRACE_LOAD_INDEXING);
  g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, 2), ==, SL_TRACE_LOAD_DONE);

  g_assert_nonnull (sl_trace_load_get_trace (load));
  g_assert_cmpuint (sl_trace_get_n_tracks (sl_trace_load_get_trace (load)), ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (sl_trace_load_get_trace (load))), ==, 0);
  lod = sl_trace_load_steal_lod (load);
  g_assert_nonnull (lod);
  g_assert_true (sl_trace_lod_get_trace (lod) == sl_trace_load_get_trace (load));
  g_assert_null (sl_trace_load_steal_lod (load));
  /* No steps asked for, none placed. */
  g_assert_null (sl_trace_load_steal_spans (load));

  watch_clear (&watch);
  g_unlink (path);
}

static void
test_cancel (void)
{
  g_autofree char *path = write_trace (60000);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  Watch watch = { 0 };

  /* Cancelled as it starts reading: before the worker can end. */
  watch_init (&watch, load);
  watch.cancel_when_reading = TRUE;
  sl_trace_load_start (load);
  run_until_finished (load);

  g_assert_false (watch.wrong_thread);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_CANCELLED);
  g_assert_error (sl_trace_load_get_error (load), G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (sl_trace_load_get_progress (load), <, 1.0);
  g_assert_null (sl_trace_load_get_trace (load));
  g_assert_null (sl_trace_load_steal_lod (load));
  g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, watch.states->len - 1), ==, SL_TRACE_LOAD_CANCELLED);
  for (guint i = 0; i < watch.states->len; i++)
    g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, i), !=, SL_TRACE_LOAD_DONE);

  /* Started again, it reads again, to the end. */
  watch.cancel_when_reading = FALSE;
  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_null (sl_trace_load_get_error (load));
  g_assert_cmpfloat (sl_trace_load_get_progress (load), ==, 1.0);

  watch_clear (&watch);
  g_unlink (path);
}

static void
test_damaged (void)
{
  const char *text = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}, nonsense ]}";
  gint64 damage = strstr (text, "nonsense") - text;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(SlTraceLoad) load = NULL;
  g_autoptr(SlProblem) problem = NULL;
  int fd = g_file_open_tmp ("sl-test-trace-damaged-XXXXXX.json", &path, &error);
  GListModel *problems;

  g_assert_no_error (error);
  g_close (fd, NULL);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  /* What is readable is kept; the damage is a problem naming the file
   * and where in it. */
  load = sl_trace_load_new (path);
  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_cmpuint (sl_trace_get_n_tracks (sl_trace_load_get_trace (load)), ==, 1);
  problems = sl_trace_get_problems (sl_trace_load_get_trace (load));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, damage);
  g_assert_cmpint (sl_problem_get_offset (problem), <=, damage + 8);
  g_unlink (path);
}

static void
test_missing (void)
{
  g_autoptr(SlTraceLoad) load = sl_trace_load_new ("no-such-trace.json");
  const GError *error;

  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_FAILED);
  error = sl_trace_load_get_error (load);
  g_assert_nonnull (error);
  g_assert_false (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_nonnull (strstr (error->message, "no-such-trace.json"));
  g_assert_null (sl_trace_load_get_trace (load));
  g_assert_cmpfloat (sl_trace_load_get_progress (load), <, 1.0);
}

/* A trace already read is only indexed; steps asked for are placed. */
static void
test_given_trace (void)
{
  g_autofree char *path = write_trace (200);
  g_autoptr(SlTraceLoad) first = sl_trace_load_new (path);
  g_autoptr(SlTraceLoad) load = NULL;
  g_autoptr(GPtrArray) spans = NULL;
  g_autoptr(SlTraceLod) lod = NULL;

  sl_trace_load_start (first);
  run_until_finished (first);
  g_assert_cmpint (sl_trace_load_get_state (first), ==, SL_TRACE_LOAD_DONE);

  load = sl_trace_load_new_for_trace (sl_trace_load_get_trace (first));
  g_assert_cmpstr (sl_trace_load_get_path (load), ==, path);
  sl_trace_load_place_steps (load, NULL);
  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_true (sl_trace_load_get_trace (load) == sl_trace_load_get_trace (first));
  g_assert_cmpuint (sl_trace_load_get_bytes_read (load), ==, 0);
  g_assert_cmpfloat (sl_trace_load_get_progress (load), ==, 1.0);
  lod = sl_trace_load_steal_lod (load);
  g_assert_nonnull (lod);
  spans = sl_trace_load_steal_spans (load);
  g_assert_nonnull (spans);
  g_assert_cmpuint (spans->len, ==, 1);
  g_assert_cmpint (sl_step_spans_get_source (g_ptr_array_index (spans, 0)), ==, SL_STEP_SPANS_NONE);
  g_unlink (path);
}

/* Reports from many workers reach the properties in the context only,
 * and the fraction never goes back. */
typedef struct {
  SlProgress *progress;
  guint       worker;
} Reporter;

static gpointer
report_thread (gpointer data)
{
  Reporter *r = data;

  for (guint i = 0; i <= 1000; i++)
    sl_progress_report (r->progress, (i * 7 + r->worker * 13) % 1001, 1000);
  sl_progress_report (r->progress, 1000, 1000);
  return NULL;
}

static void
fraction_cb (SlProgress *progress,
             GParamSpec *pspec,
             Watch      *watch)
{
  double value = sl_progress_get_fraction (progress);

  if (g_thread_self () != watch->thread)
    watch->wrong_thread = TRUE;
  g_array_append_val (watch->progress, value);
}

static void
test_progress_object (void)
{
  g_autoptr(SlProgress) progress = sl_progress_new ();
  Watch watch = { 0 };
  Reporter reporters[4];
  GThread *threads[4];

  watch.thread = g_thread_self ();
  watch.progress = g_array_new (FALSE, FALSE, sizeof (double));
  g_signal_connect (progress, "notify::fraction", G_CALLBACK (fraction_cb), &watch);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      reporters[i].progress = progress;
      reporters[i].worker = i;
      threads[i] = g_thread_new ("reporter", report_thread, &reporters[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  /* Nothing changes until the context runs. */
  g_assert_cmpuint (watch.progress->len, ==, 0);
  g_assert_cmpfloat (sl_progress_get_fraction (progress), ==, 0);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_false (watch.wrong_thread);
  g_assert_cmpuint (watch.progress->len, >=, 1);
  for (guint i = 1; i < watch.progress->len; i++)
    g_assert_cmpfloat (g_array_index (watch.progress, double, i), >, g_array_index (watch.progress, double, i - 1));
  g_assert_cmpfloat (sl_progress_get_fraction (progress), ==, 1.0);
  g_assert_cmpuint (sl_progress_get_done (progress), ==, 1000);
  g_assert_cmpuint (sl_progress_get_total (progress), ==, 1000);

  /* A fraction outside 0..1 is held to it; a report from the context
   * itself shows at once. */
  sl_progress_report_fraction (progress, 5.0);
  g_assert_cmpfloat (sl_progress_get_fraction (progress), ==, 1.0);
  g_array_unref (watch.progress);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-load/progress-rises-to-one", test_progress_rises_to_one);
  g_test_add_func ("/trace-load/cancel", test_cancel);
  g_test_add_func ("/trace-load/damaged", test_damaged);
  g_test_add_func ("/trace-load/missing", test_missing);
  g_test_add_func ("/trace-load/given-trace", test_given_trace);
  g_test_add_func ("/trace-load/progress-object", test_progress_object);

  return g_test_run ();
}
