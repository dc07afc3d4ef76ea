/* test-step-export.c: a step's part of a timeline written as a Chrome
 * trace: placed by the timeline's ProfilerStep#N slices and by the step
 * table's own times, exactly the events that overlap the step (one that
 * straddles two steps included, a neighbour step that ends before left
 * out), steps that cannot be placed, and a cancelled write that leaves
 * the previous file alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-step-export.h"
#include "sl-trace-loader.h"

#define N_STEPS 5

static char *tmp_dir;

/* Five steps of 900 µs every 1000 µs on the host, two ops each, a kernel
 * each on the device, and one op from 1800 to 2200 µs across the end of
 * step 1 and the start of step 2. */
static SlTrace *
load_trace (void)
{
  GString *json = g_string_new ("{\"traceEvents\":[\n");
  g_autofree char *path = g_build_filename (tmp_dir, "trace.json", NULL);
  g_autoptr(GError) error = NULL;
  SlTrace *trace;

  g_string_append (json, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":\"Ascend Hardware\"}},\n");
  for (guint n = 0; n < N_STEPS; n++)
    {
      guint t = n * 1000;

      g_string_append_printf (json, "{\"name\":\"ProfilerStep#%u\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":900},\n", n, t);
      g_string_append_printf (json, "{\"name\":\"op-%u-a\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":200},\n", n, t + 100);
      g_string_append_printf (json, "{\"name\":\"op-%u-b\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":300},\n", n, t + 500);
      g_string_append_printf (json, "{\"name\":\"k-%u\",\"ph\":\"X\",\"pid\":2,\"tid\":7,\"ts\":%u,\"dur\":100},\n", n, t + 150);
    }
  g_string_append (json, "{\"name\":\"straddle\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1800,\"dur\":400}\n]}\n");
  g_assert_true (g_file_set_contents (path, json->str, json->len, &error));
  g_string_free (json, TRUE);

  trace = sl_trace_load_path (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* Step numbers 0..4; with @start_us, step n runs from start_us[n] for
 * 500 µs, else the table has durations only. */
static SlStepTrace *
make_table (const gint64 *start_us)
{
  SlStepTrace *table = sl_step_trace_new ("step_trace_time.csv", SL_STEP_SOURCE_ASCEND_PT);

  for (guint n = 0; n < N_STEPS; n++)
    {
      SlStep step = {
        .step = n,
        .start_ns = start_us != NULL ? start_us[n] * 1000 : SL_STEP_NO_TIME,
        .end_ns = start_us != NULL ? (start_us[n] + 500) * 1000 : SL_STEP_NO_TIME,
        .fp_ns = SL_STEP_NO_TIME, .bp_ns = SL_STEP_NO_TIME,
        .total_ns = 500000,
        .data_wait_ns = SL_STEP_NO_TIME, .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME,
      };

      sl_step_trace_add_step (table, &step);
    }
  return table;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

/* The names of the X events of a written file, sorted and joined. */
static char *
written_slices (GFile *file)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  JsonArray *events;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "ph", ""), "X") == 0)
        g_ptr_array_add (names, (gpointer)json_object_get_string_member (event, "name"));
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **)names->pdata);
}

static void
test_find_step (void)
{
  g_autoptr(SlStepTrace) table = make_table (NULL);

  g_assert_cmpint (sl_step_export_find_step (table, 0), ==, 0);
  g_assert_cmpint (sl_step_export_find_step (table, 3), ==, 3);
  g_assert_cmpint (sl_step_export_find_step (table, 5), ==, -1);
  g_assert_cmpint (sl_step_export_find_step (table, -1), ==, -1);
}

/* A table of durations: the step is its ProfilerStep#2 slice, 2000 to
 * 2900 µs. */
static void
test_by_step_slices (void)
{
  g_autoptr(SlTrace) trace = load_trace ();
  g_autoptr(SlStepTrace) table = make_table (NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "step2.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  SlStepSpansSource source;
  gint64 from, to;
  guint64 n = 0;

  g_assert_true (sl_step_export_get_range (trace, table, 2, &from, &to, &source, &error));
  g_assert_no_error (error);
  g_assert_cmpint (source, ==, SL_STEP_SPANS_FROM_TIMELINE);
  g_assert_cmpint (from, ==, 2000000);
  g_assert_cmpint (to, ==, 2900000);

  g_assert_true (sl_step_export_write (trace, table, 2, file, &n, NULL, &error));
  g_assert_no_error (error);
  names = written_slices (file);
  g_assert_cmpstr (names, ==, "ProfilerStep#2 k-2 op-2-a op-2-b straddle");
  /* the five slices and the one metadata event */
  g_assert_cmpuint (n, ==, 6);
}

/* The table's own times on the timeline's clock: 3100 to 3600 µs holds
 * step 3's ops and kernel and the ProfilerStep#3 slice around them. */
static void
test_by_table_times (void)
{
  static const gint64 starts[N_STEPS] = { 100, 1100, 2100, 3100, 4100 };
  g_autoptr(SlTrace) trace = load_trace ();
  g_autoptr(SlStepTrace) table = make_table (starts);
  g_autofree char *path = g_build_filename (tmp_dir, "step3.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  SlStepSpansSource source;
  gint64 from, to;

  g_assert_true (sl_step_export_get_range (trace, table, 3, &from, &to, &source, &error));
  g_assert_cmpint (source, ==, SL_STEP_SPANS_FROM_TABLE);
  g_assert_cmpint (from, ==, 3100000);
  g_assert_cmpint (to, ==, 3600000);
  g_assert_true (sl_step_export_write (trace, table, 3, file, NULL, NULL, &error));
  g_assert_no_error (error);
  names = written_slices (file);
  g_assert_cmpstr (names, ==, "ProfilerStep#3 k-3 op-3-a op-3-b");
}

/* A table of durations whose step numbers the timeline has no slices
 * for, and an index past the table's end. */
static void
test_cannot_place (void)
{
  g_autoptr(SlTrace) trace = load_trace ();
  g_autoptr(SlStepTrace) table = sl_step_trace_new ("steps.csv", SL_STEP_SOURCE_MSPROF);
  g_autofree char *path = g_build_filename (tmp_dir, "never.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SlStep step = {
    .step = 42, .start_ns = SL_STEP_NO_TIME, .end_ns = SL_STEP_NO_TIME,
    .fp_ns = SL_STEP_NO_TIME, .bp_ns = SL_STEP_NO_TIME, .total_ns = 1000,
    .data_wait_ns = SL_STEP_NO_TIME, .fp_bp_ns = SL_STEP_NO_TIME, .tail_ns = SL_STEP_NO_TIME,
  };

  sl_step_trace_add_step (table, &step);
  g_assert_false (sl_step_export_write (trace, table, 0, file, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "steps.csv"));
  g_assert_nonnull (strstr (error->message, "ProfilerStep#42"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_assert_false (sl_step_export_get_range (trace, table, 1, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_cancelled_keeps_file (void)
{
  g_autoptr(SlTrace) trace = load_trace ();
  g_autoptr(SlStepTrace) table = make_table (NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "kept.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  g_assert_true (g_file_set_contents (path, "previous", -1, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (sl_step_export_write (trace, table, 1, file, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous");
}

static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("sl-step-export-XXXXXX", NULL);
  g_test_add_func ("/step-export/find-step", test_find_step);
  g_test_add_func ("/step-export/by-step-slices", test_by_step_slices);
  g_test_add_func ("/step-export/by-table-times", test_by_table_times);
  g_test_add_func ("/step-export/cannot-place", test_cannot_place);
  g_test_add_func ("/step-export/cancelled-keeps-file", test_cancelled_keeps_file);
  status = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
