/* test-trace-load.c: a timeline read on a worker, watched through its
 * properties: the progress only rises and ends at 1, every change is told
 * in the context that started the load, a cancel stops it and says so,
 * damage names the file and the offset, a missing file fails naming it,
 * and a trace already read is only indexed. While the full read is held,
 * previews of the first bytes come, each a prefix of the full trace, from
 * plain and gzip files; their cut's problems never reach the full trace's,
 * and a cancel while previews show ends the load without a trace.
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

/* Previews */

typedef struct {
  GPtrArray *traces;        /* SlTrace, each preview told */
  GArray    *bytes;         /* guint64 */
  gboolean   wrong_state;   /* told after the end, or without an index */
} Previews;

static void
preview_cb (SlTraceLoad *load,
            GParamSpec  *pspec,
            Previews    *previews)
{
  SlTrace *trace = sl_trace_load_get_preview (load);
  g_autoptr(SlTraceLod) lod = NULL;
  guint64 bytes = sl_trace_load_get_preview_bytes (load);

  /* Cleared when the load ends. */
  if (trace == NULL)
    {
      if (!sl_trace_load_is_finished (load))
        previews->wrong_state = TRUE;
      return;
    }
  lod = sl_trace_load_steal_preview_lod (load);
  if (sl_trace_load_is_finished (load) || lod == NULL || sl_trace_lod_get_trace (lod) != trace)
    previews->wrong_state = TRUE;
  g_ptr_array_add (previews->traces, g_object_ref (trace));
  g_array_append_val (previews->bytes, bytes);
}

static void
previews_init (Previews    *previews,
               SlTraceLoad *load)
{
  previews->traces = g_ptr_array_new_with_free_func (g_object_unref);
  previews->bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_signal_connect (load, "notify::preview", G_CALLBACK (preview_cb), previews);
}

static void
previews_clear (Previews *previews)
{
  g_ptr_array_unref (previews->traces);
  g_array_unref (previews->bytes);
}

static void
run_until_previews (SlTraceLoad *load,
                    Previews    *previews,
                    guint        n)
{
  while (previews->traces->len < n && !sl_trace_load_is_finished (load))
    g_main_context_iteration (NULL, TRUE);
}

static guint64
count_slices (SlTrace *trace)
{
  guint64 n = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    if (sl_trace_get_slices (trace, t) != NULL)
      n += sl_trace_get_slices (trace, t)->n_slices;
  return n;
}

/* Every slice of the preview is in the full trace, same name, start,
 * depth and (unless cut short) duration. */
static void
assert_prefix (SlTrace *preview,
               SlTrace *full)
{
  guint64 n = 0;

  g_assert_cmpuint (count_slices (preview), >, 0);
  g_assert_cmpuint (count_slices (preview), <, count_slices (full));
  for (guint t = 0; t < sl_trace_get_n_tracks (preview); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (preview, t);

      for (guint32 i = 0; slices != NULL && i < slices->n_slices; i++, n++)
        {
          guint to_track = G_MAXUINT;
          guint32 to_slice = G_MAXUINT32;
          const SlTraceSlices *found;

          g_assert_true (sl_trace_load_match_slice (preview, t, i, full, &to_track, &to_slice));
          found = sl_trace_get_slices (full, to_track);
          g_assert_cmpint (sl_trace_slices_start_ns (found, to_slice), ==, sl_trace_slices_start_ns (slices, i));
          g_assert_cmpstr (sl_trace_get_string (full, sl_trace_slices_name_id (found, to_slice)), ==,
                           sl_trace_get_string (preview, sl_trace_slices_name_id (slices, i)));
        }
    }
  g_assert_cmpuint (n, ==, count_slices (preview));
  /* The first slices of the file start the same. */
  g_assert_cmpint (sl_trace_get_start_ns (preview), ==, sl_trace_get_start_ns (full));
  g_assert_cmpint (sl_trace_get_end_ns (preview), <, sl_trace_get_end_ns (full));
}

/* Previews of 32, 64 and 128 KiB (the file is more than 32 times as big)
 * come while the full read is held, each from more of the file. */
static void
test_preview_while_held (void)
{
  g_autofree char *path = write_trace (60000);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  g_autoptr(SlTrace) last = NULL;
  Previews previews = { 0 };
  Watch watch = { 0 };

  watch_init (&watch, load);
  previews_init (&previews, load);
  sl_trace_load_set_preview_sizes (load, 32 << 10, 128 << 10);
  sl_trace_load_hold_reading (load, TRUE);
  sl_trace_load_start (load);
  run_until_previews (load, &previews, 3);

  g_assert_cmpuint (previews.traces->len, ==, 3);
  g_assert_false (previews.wrong_state);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_READING);
  g_assert_null (sl_trace_load_get_trace (load));
  g_assert_true (sl_trace_load_get_preview (load) == g_ptr_array_index (previews.traces, 2));
  g_assert_cmpuint (g_array_index (previews.bytes, guint64, 0), ==, 32 << 10);
  g_assert_cmpuint (g_array_index (previews.bytes, guint64, 1), ==, 64 << 10);
  g_assert_cmpuint (g_array_index (previews.bytes, guint64, 2), ==, 128 << 10);
  for (guint i = 1; i < previews.traces->len; i++)
    g_assert_cmpuint (count_slices (g_ptr_array_index (previews.traces, i)), >,
                      count_slices (g_ptr_array_index (previews.traces, i - 1)));
  /* The lod went to whoever took it first. */
  g_assert_null (sl_trace_load_steal_preview_lod (load));
  last = g_object_ref (sl_trace_load_get_preview (load));

  sl_trace_load_hold_reading (load, FALSE);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_false (previews.wrong_state);
  g_assert_false (watch.wrong_thread);
  /* No preview once done. */
  g_assert_null (sl_trace_load_get_preview (load));
  g_assert_null (sl_trace_load_steal_preview_lod (load));
  for (guint i = 0; i < previews.traces->len; i++)
    assert_prefix (g_ptr_array_index (previews.traces, i), sl_trace_load_get_trace (load));
  /* Each preview was cut mid-file: whatever that cost it, the full trace
   * has no problem. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (sl_trace_load_get_trace (load))), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (last)), >, 0);
  /* Reading, indexing, done, as without previews. */
  g_assert_cmpuint (watch.states->len, ==, 3);
  g_assert_cmpint (g_array_index (watch.states, SlTraceLoadState, 2), ==, SL_TRACE_LOAD_DONE);

  previews_clear (&previews);
  watch_clear (&watch);
  g_unlink (path);
}

/* A small file, or previews not asked for: none. */
static void
test_no_preview (void)
{
  g_autofree char *path = write_trace (2000);
  g_autoptr(SlTraceLoad) small = sl_trace_load_new (path);
  g_autoptr(SlTraceLoad) off = sl_trace_load_new (path);
  Previews previews = { 0 };
  Previews none = { 0 };

  /* 32 KiB is more than a sixteenth of the file. */
  previews_init (&previews, small);
  sl_trace_load_set_preview_sizes (small, 32 << 10, 128 << 10);
  sl_trace_load_start (small);
  run_until_finished (small);
  g_assert_cmpint (sl_trace_load_get_state (small), ==, SL_TRACE_LOAD_DONE);
  g_assert_cmpuint (previews.traces->len, ==, 0);

  previews_init (&none, off);
  sl_trace_load_set_preview_sizes (off, 0, 0);
  sl_trace_load_start (off);
  run_until_finished (off);
  g_assert_cmpint (sl_trace_load_get_state (off), ==, SL_TRACE_LOAD_DONE);
  g_assert_cmpuint (none.traces->len, ==, 0);

  previews_clear (&previews);
  previews_clear (&none);
  g_unlink (path);
}

static char *
write_gzip (const char *plain_path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  char *path = g_strconcat (plain_path, ".gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_autoptr(GZlibCompressor) deflater = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) stream = NULL;

  g_assert_no_error (error);
  g_file_get_contents (plain_path, &text, &length, &error);
  g_assert_no_error (error);
  stream = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (deflater));
  g_output_stream_write_all (stream, text, length, NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (stream, NULL, &error);
  g_assert_no_error (error);
  return path;
}

/* Gzip text is inflated for the preview: it counts text, not file. */
static void
test_preview_gzip (void)
{
  g_autofree char *plain = write_trace (60000);
  g_autofree char *path = write_gzip (plain);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  Previews previews = { 0 };
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  /* Measured against the file, 32 KiB would be more than a sixteenth of
   * it: previews come because the text is counted. */
  g_assert_cmpint (st.st_size, <, (32 << 10) * 16);
  previews_init (&previews, load);
  sl_trace_load_set_preview_sizes (load, 32 << 10, 128 << 10);
  sl_trace_load_hold_reading (load, TRUE);
  sl_trace_load_start (load);
  run_until_previews (load, &previews, 1);
  g_assert_cmpuint (previews.traces->len, >=, 1);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_READING);
  g_assert_cmpuint (g_array_index (previews.bytes, guint64, 0), ==, 32 << 10);

  sl_trace_load_hold_reading (load, FALSE);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_false (previews.wrong_state);
  for (guint i = 0; i < previews.traces->len; i++)
    assert_prefix (g_ptr_array_index (previews.traces, i), sl_trace_load_get_trace (load));
  g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (sl_trace_load_get_trace (load))), ==, 0);

  previews_clear (&previews);
  g_unlink (path);
  g_unlink (plain);
}

/* Cancelled while a preview shows: cancelled, no trace, no preview. */
static void
test_preview_cancel (void)
{
  g_autofree char *path = write_trace (60000);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  Previews previews = { 0 };

  previews_init (&previews, load);
  sl_trace_load_set_preview_sizes (load, 32 << 10, 128 << 10);
  sl_trace_load_hold_reading (load, TRUE);
  sl_trace_load_start (load);
  run_until_previews (load, &previews, 1);
  g_assert_cmpuint (previews.traces->len, >=, 1);
  g_assert_nonnull (sl_trace_load_get_preview (load));

  /* Still held: the cancel ends the wait. */
  sl_trace_load_cancel (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_CANCELLED);
  g_assert_error (sl_trace_load_get_error (load), G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (sl_trace_load_get_trace (load));
  g_assert_null (sl_trace_load_get_preview (load));
  g_assert_false (previews.wrong_state);

  /* Started again, not held, it reads to the end. */
  sl_trace_load_hold_reading (load, FALSE);
  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  g_assert_null (sl_trace_load_get_preview (load));

  previews_clear (&previews);
  g_unlink (path);
}

/* Damage past the previews: the full trace has that one problem, at its
 * offset, and none of the previews' cuts. */
static void
test_preview_damaged (void)
{
  g_autofree char *path = write_trace (60000);
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(SlProblem) problem = NULL;
  gsize length = 0;
  char *damage;
  Previews previews = { 0 };
  GListModel *problems;

  /* An event near the end loses its closing brace. */
  g_file_get_contents (path, &text, &length, &error);
  g_assert_no_error (error);
  damage = strstr (text + length - 2000, "}\n,");
  g_assert_nonnull (damage);
  damage[0] = ' ';
  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);

  previews_init (&previews, load);
  sl_trace_load_set_preview_sizes (load, 32 << 10, 128 << 10);
  sl_trace_load_hold_reading (load, TRUE);
  sl_trace_load_start (load);
  run_until_previews (load, &previews, 3);
  g_assert_cmpuint (previews.traces->len, ==, 3);
  for (guint i = 0; i < previews.traces->len; i++)
    g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (g_ptr_array_index (previews.traces, i))), >, 0);
  sl_trace_load_hold_reading (load, FALSE);
  run_until_finished (load);

  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_DONE);
  problems = sl_trace_get_problems (sl_trace_load_get_trace (load));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, damage - text);
  g_assert_cmpint (sl_problem_get_offset (problem), >, 128 << 10);

  previews_clear (&previews);
  g_unlink (path);
}

/* Text that is no trace: no preview (an empty one would show nothing),
 * and the load fails or ends as it did without previews. */
static void
test_preview_not_a_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree guint8 *junk = g_malloc (1 << 20);
  g_autoptr(SlTraceLoad) load = NULL;
  Previews previews = { 0 };
  int fd = g_file_open_tmp ("sl-test-trace-junk-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  g_close (fd, NULL);
  for (guint i = 0; i < 1 << 20; i++)
    junk[i] = "{[\"x:,]} 0a"[(i * 7919u) % 11];
  g_file_set_contents (path, (const char *)junk, 1 << 20, &error);
  g_assert_no_error (error);

  load = sl_trace_load_new (path);
  previews_init (&previews, load);
  sl_trace_load_set_preview_sizes (load, 16 << 10, 32 << 10);
  sl_trace_load_start (load);
  run_until_finished (load);
  g_assert_true (sl_trace_load_is_finished (load));
  g_assert_cmpuint (previews.traces->len, ==, 0);
  g_assert_false (previews.wrong_state);
  g_assert_null (sl_trace_load_get_preview (load));

  previews_clear (&previews);
  g_unlink (path);
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
  g_test_add_func ("/trace-load/preview-while-held", test_preview_while_held);
  g_test_add_func ("/trace-load/no-preview", test_no_preview);
  g_test_add_func ("/trace-load/preview-gzip", test_preview_gzip);
  g_test_add_func ("/trace-load/preview-cancel", test_preview_cancel);
  g_test_add_func ("/trace-load/preview-damaged", test_preview_damaged);
  g_test_add_func ("/trace-load/preview-not-a-trace", test_preview_not_a_trace);

  return g_test_run ();
}
