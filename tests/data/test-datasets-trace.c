/* test-datasets-trace.c: the Chrome trace importer on every real trace
 *
 * Every *.json and *.json.gz below SL_DATASETS_DIR is read independently
 * by trace-phase-counts.py (Python's json module); those it finds to be
 * Chrome traces (catapult test data, HolisticTraceAnalysis and Kineto
 * traces, msinsight trace_view.json, MindInsight timeline displays, msprof
 * timeline files) must import with the same counts by phase, the same
 * number of complete events and counter points, and no error; written
 * out whole and read back, each holds the same slices, points and flows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "sl-chrome-trace-reader.h"
#include "sl-chrome-trace-writer.h"
#include "dataset-files.h"

#define MIN_TRACES 20

static JsonObject *
independent_reading (GPtrArray  *paths,
                     JsonParser *parser)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) "python3");
  g_ptr_array_add (argv, (char *) SL_TRACE_CHECKER);
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (paths, i));
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s", SL_TRACE_CHECKER, err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
check_trace (const char *path,
             JsonObject *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  JsonObject *phases = json_object_get_object_member (expected, "phases");
  GHashTable *counts;
  GListModel *problems;
  GHashTableIter iter;
  gpointer key, value;
  guint64 complete = 0, points = 0;

  g_assert_no_error (error);
  g_assert_nonnull (trace);

  /* same phases, same counts */
  counts = sl_trace_get_phase_counts (trace);
  g_assert_cmpuint (g_hash_table_size (counts), ==, json_object_get_size (phases));
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!json_object_has_member (phases, key))
        g_error ("%s: phase %s is not in the independent reading", path, (const char *) key);
      g_assert_cmpuint (GPOINTER_TO_SIZE (value), ==, json_object_get_int_member (phases, key));
    }
  g_assert_cmpuint (sl_trace_get_n_events (trace), ==, json_object_get_int_member (expected, "events"));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
        points += sl_trace_get_counter (trace, t)->n_points;
      if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_THREAD)
        continue;
      for (guint i = 0; i < s->n_slices; i++)
        {
          if (!(sl_trace_slices_flags (s, i) & (SL_TRACE_SLICE_BEGIN_END | SL_TRACE_SLICE_INSTANT)))
            complete++;
          /* nesting invariants */
          if (sl_trace_slices_parent (s, i) != SL_TRACE_NO_PARENT)
            {
              g_assert_cmpuint (sl_trace_slices_parent (s, i), <, i);
              g_assert_cmpint (sl_trace_slices_start_ns (s, sl_trace_slices_parent (s, i)), <=, sl_trace_slices_start_ns (s, i));
              g_assert_cmpint (sl_trace_slices_start_ns (s, sl_trace_slices_parent (s, i)) + sl_trace_slices_dur_ns (s, sl_trace_slices_parent (s, i)), >=, sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i));
              g_assert_cmpuint (sl_trace_slices_depth (s, i), ==, sl_trace_slices_depth (s, sl_trace_slices_parent (s, i)) + 1);
            }
          g_assert_cmpint (sl_trace_slices_self_ns (s, i), >=, 0);
          g_assert_cmpint (sl_trace_slices_self_ns (s, i), <=, sl_trace_slices_dur_ns (s, i));
          g_assert_cmpuint (sl_trace_slices_depth (s, i), <, sl_trace_get_track_n_depths (trace, t));
        }
    }
  g_assert_cmpuint (complete, ==, json_object_get_int_member (expected, "x_with_ts"));
  g_assert_cmpuint (points, ==, json_object_get_int_member (expected, "counter_points"));

  problems = sl_trace_get_problems (trace);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        g_error ("%s: %s", path, sl_problem_get_message (problem));
    }

  for (guint f = 0; f < sl_trace_get_n_flows (trace); f++)
    {
      const SlTraceFlow *flow = sl_trace_get_flow (trace, f);

      g_assert_cmpuint (flow->from_track, <, sl_trace_get_n_tracks (trace));
      g_assert_cmpuint (flow->to_track, <, sl_trace_get_n_tracks (trace));
      g_assert_cmpint (flow->from_ns, <=, flow->to_ns);
    }
}

typedef struct {
  guint64 slices;
  guint64 points;
} Totals;

static Totals
totals_of (SlTrace *trace)
{
  Totals totals = { 0, 0 };

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      totals.slices += sl_trace_get_slices (trace, t)->n_slices;
      totals.points += sl_trace_get_counter (trace, t)->n_points;
    }
  return totals;
}

/* The whole trace written out and read back: the same slices, counter
 * points and flows. */
static void
check_round_trip (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  g_autoptr(SlTrace) again = NULL;
  g_autoptr(GFileIOStream) io = NULL;
  g_autoptr(GFile) file = g_file_new_tmp ("sl-roundtrip-XXXXXX.json", &io, &error);
  g_autofree char *copy = NULL;
  Totals before, after;
  guint64 n_written = 0;

  g_assert_no_error (error);
  g_assert_true (sl_chrome_trace_write_range (trace, G_MININT64, G_MAXINT64, NULL, 0,
                                              g_io_stream_get_output_stream (G_IO_STREAM (io)),
                                              &n_written, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_io_stream_close (G_IO_STREAM (io), NULL, &error));
  copy = g_file_get_path (file);
  again = sl_chrome_trace_load (copy, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  before = totals_of (trace);
  after = totals_of (again);
  if (before.slices != after.slices || before.points != after.points ||
      sl_trace_get_n_flows (trace) != sl_trace_get_n_flows (again))
    g_error ("%s written again: %llu/%llu slices, %llu/%llu counter points, %u/%u flows", path,
             (unsigned long long) before.slices, (unsigned long long) after.slices,
             (unsigned long long) before.points, (unsigned long long) after.points,
             sl_trace_get_n_flows (trace), sl_trace_get_n_flows (again));
  g_assert_cmpint (sl_trace_get_start_ns (again), ==, sl_trace_get_start_ns (trace));
  g_assert_cmpint (sl_trace_get_end_ns (again), ==, sl_trace_get_end_ns (trace));
  g_assert_cmpuint (n_written, >, 0);
  g_file_delete (file, NULL, NULL);
}

static void
test_every_trace (void)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *readings;
  guint n_traces = 0;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return;
    }

  dataset_files_collect_json (dir, paths);
  readings = independent_reading (paths, parser);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      JsonObject *expected = json_object_get_object_member (readings, path);

      if (!json_object_get_boolean_member (expected, "trace"))
        continue;
      g_test_message ("%s", path);
      check_trace (path, expected);
      check_round_trip (path);
      n_traces++;
    }
  g_test_message ("%u traces checked", n_traces);
  g_assert_cmpuint (n_traces, >=, MIN_TRACES);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/trace/every-trace", test_every_trace);

  return g_test_run ();
}
