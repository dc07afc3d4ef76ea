/* test-chrome-trace-reader.c: the streaming Chrome trace importer
 *
 * Fixtures are written by the test itself: both JSON forms, gzip, exact
 * times and ids, unbalanced B/E, nested args, unicode escapes, damage at
 * every offset of a file, garbage and empty input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace-aggregate.h"

static SlTrace *
load_text (const char *text)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("fixture.json");

  sl_chrome_trace_reader_read_data (builder, "fixture.json", (const guint8 *) text, strlen (text), NULL);
  return sl_trace_builder_finish (builder, NULL);
}

static guint64
phase_count (SlTrace    *trace,
             const char *phase)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (sl_trace_get_phase_counts (trace), phase));
}

static guint
n_problems (SlTrace *trace)
{
  return g_list_model_get_n_items (sl_trace_get_problems (trace));
}

static SlProblem *
problem_at (SlTrace *trace,
            guint    i)
{
  SlProblem *problem = g_list_model_get_item (sl_trace_get_problems (trace), i);

  g_object_unref (problem);  /* the list keeps it */
  return problem;
}

static guint
total_slices (SlTrace *trace)
{
  guint n = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    n += sl_trace_get_slices (trace, t)->n_slices;
  return n;
}

static guint
find_track (SlTrace    *trace,
            const char *name)
{
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    if (g_strcmp0 (sl_trace_get_track_name (trace, t), name) == 0 ||
        (sl_trace_get_track_name (trace, t) == NULL && g_strcmp0 (sl_trace_get_track_tid (trace, t), name) == 0))
      return t;
  return G_MAXUINT;
}

/* Counter values read exactly as strtod reads them, and each point on the
 * track of its own process, name and series, however they interleave. */
static void
test_counter_values (void)
{
  static const char *const values[] = {
    "0", "-0", "0.1", "2160232.0", "1800", "-12.5", "0.30000000000000004", "123456789012345",
    "1234567890123456", "99999999999999999999", "1e3", "-2.5E-3", "3.141592653589793", "0.000001",
    "7.00000000000000000001", "1.7976931348623157e308",
  };
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(SlTrace) trace = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    for (guint k = 0; k < 4; k++)
      g_string_append_printf (text, "%s{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%u,\"ts\":%u,\"args\":{\"%s\":%s}}",
                              text->len > 1 ? "," : "", k % 2 ? "b" : "a", 1 + k / 2, i,
                              k == 3 ? "w" : "v", values[i]);
  g_string_append (text, "]");
  trace = load_text (text->str);
  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (sl_trace_get_n_tracks (trace), ==, 4);
  for (guint t = 0; t < 4; t++)
    {
      const SlTraceCounter *c = sl_trace_get_counter (trace, t);

      g_assert_nonnull (c);
      g_assert_cmpuint (c->n_points, ==, G_N_ELEMENTS (values));
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        {
          double expected = g_ascii_strtod (values[i], NULL);

          /* the same bits: -0 stays -0 */
          g_assert_cmpmem (&c->value[i], sizeof (double), &expected, sizeof (double));
        }
    }
}

static void
test_parse_numbers (void)
{
  static const struct { const char *text; gint64 ns; } cases[] = {
    { "0", 0 },
    { "1", 1000 },
    { "1.5", 1500 },
    { "-2.25", -2250 },
    { "12.3456", 12346 },            /* rounded to the nearest ns */
    { "0.0004", 0 },
    { "1e3", 1000000 },
    { "1.5E-3", 2 },
    { " 42 ", 42000 },
    { "1700000000123456.789", G_GINT64_CONSTANT (1700000000123456789) },
    { "1700000000123456.7891234", G_GINT64_CONSTANT (1700000000123456789) },
    { "000001700000000123456.789", G_GINT64_CONSTANT (1700000000123456789) },
    { "1736408883688177.9305", G_GINT64_CONSTANT (1736408883688177931) },  /* 16 digits */
    { "-1736408883688177.9304", G_GINT64_CONSTANT (-1736408883688177930) },
    { "9223372036854774.807", G_GINT64_CONSTANT (9223372036854774807) },
    { "9223372036854775.807", G_MAXINT64 },
  };
  static const char * const bad[] = { "", "-", "abc", "1.2.3", "1e", "9999999999999999999",
                                      "17364088836881770.5", "999999999999999999", "9223372036854775.808" };
  gint64 ns;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (sl_chrome_trace_parse_us (cases[i].text, strlen (cases[i].text), &ns));
      g_assert_cmpint (ns, ==, cases[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (sl_chrome_trace_parse_us (bad[i], strlen (bad[i]), &ns));

  /* the plain form and the same number with an exponent (which takes
   * the general path) agree, rounding included */
  for (guint i = 0; i < 20000; i++)
    {
      guint64 whole = g_test_rand_int_range (0, G_MAXINT32) * (guint64) g_test_rand_int_range (0, 1000000);
      guint frac_digits = g_test_rand_int_range (0, 10);
      const char *sign = i % 2 ? "-" : "";
      g_autoptr(GString) frac = g_string_new (NULL);
      g_autofree char *plain = NULL;
      g_autofree char *exponent = NULL;
      gint64 a, b;

      for (guint d = 0; d < frac_digits; d++)
        g_string_append_c (frac, '0' + g_test_rand_int_range (0, 10));
      plain = g_strdup_printf ("%s%llu%s%s", sign, (unsigned long long) whole, frac_digits ? "." : "", frac->str);
      exponent = g_strdup_printf ("%s%llu%se-%u", sign, (unsigned long long) whole, frac->str, frac_digits);
      g_assert_true (sl_chrome_trace_parse_us (plain, strlen (plain), &a));
      g_assert_true (sl_chrome_trace_parse_us (exponent, strlen (exponent), &b));
      if (a != b)
        g_error ("%s → %lld but %s → %lld", plain, (long long) a, exponent, (long long) b);
    }

  g_assert_cmpuint (sl_chrome_trace_parse_id ("18446744073709551615", 20), ==, G_MAXUINT64);
  g_assert_cmpuint (sl_chrome_trace_parse_id ("9007199254740993", 16), ==, G_GUINT64_CONSTANT (9007199254740993));
  g_assert_cmpuint (sl_chrome_trace_parse_id ("0x1f", 4), ==, 31);
  g_assert_cmpuint (sl_chrome_trace_parse_id ("0xFFFFFFFFFFFFFFFF", 18), ==, G_MAXUINT64);
  g_assert_cmpuint (sl_chrome_trace_parse_id ("12.0", 4), ==, 12);
  /* other text hashes, the same text to the same id */
  g_assert_cmpuint (sl_chrome_trace_parse_id ("ptr", 3), ==, sl_chrome_trace_parse_id ("ptr", 3));
  g_assert_cmpuint (sl_chrome_trace_parse_id ("ptr", 3), !=, sl_chrome_trace_parse_id ("ptq", 3));
}

static void
test_object_form (void)
{
  const char *text =
    "{\"displayTimeUnit\":\"ns\",\"metadata\":{\"traceEvents\":[1]},\"traceEvents\":[\n"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":\"7\",\"args\":{\"name\":\"main\"}},\n"
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":\"2\",\"args\":{\"sort_index\":-1}},\n"
    "{\"ph\":\"X\",\"name\":\"step\",\"cat\":\"op\",\"pid\":\"1\",\"tid\":7,\"ts\":\"10.5\",\"dur\":\"4\"},\n"
    "{\"ts\":11,\"dur\":1,\"name\":\"child\",\"pid\":1,\"tid\":7,\"ph\":\"X\"},\n"
    "{\"ph\":\"X\",\"name\":\"other\",\"pid\":2,\"tid\":1,\"ts\":0,\"dur\":1},\n"
    "{\"ph\":\"O\",\"name\":\"snapshot\",\"pid\":2,\"ts\":1,\"id\":\"0x1\",\"args\":{\"snapshot\":{\"a\":[1,{\"b\":2}]}}}\n"
    "],\"otherData\":{\"version\":1}}";
  g_autoptr(SlTrace) trace = load_text (text);
  const SlTraceSlices *s;
  guint main_track;

  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (sl_trace_get_n_events (trace), ==, 7);
  g_assert_cmpuint (phase_count (trace, "M"), ==, 3);
  g_assert_cmpuint (phase_count (trace, "X"), ==, 3);
  g_assert_cmpuint (phase_count (trace, "O"), ==, 1);
  g_assert_cmpuint (sl_trace_get_n_metadata_events (trace), ==, 3);

  /* "1" and 1 are one process; process 2 sorts first (index -1) */
  g_assert_cmpuint (sl_trace_get_n_processes (trace), ==, 2);
  g_assert_cmpstr (sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, 0)), ==, "2");
  main_track = find_track (trace, "main");
  g_assert_cmpuint (main_track, ==, 1);
  g_assert_cmpstr (sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, main_track)), ==, "Python");
  s = sl_trace_get_slices (trace, main_track);
  g_assert_cmpuint (s->n_slices, ==, 2);
  g_assert_cmpint (sl_trace_slices_start_ns (s, 0), ==, 10500);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, 4000);
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_category_id (s, 0)), ==, "op");
  g_assert_cmpuint (sl_trace_slices_parent (s, 1), ==, 0);
  g_assert_cmpint (sl_trace_slices_self_ns (s, 0), ==, 3000);
  g_assert_cmpint (sl_trace_get_start_ns (trace), ==, 0);
  g_assert_cmpint (sl_trace_get_end_ns (trace), ==, 14500);
}

static void
test_array_form_and_offsets (void)
{
  const char *events[] = {
    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2,\"args\":{\"x\":\"}{\"}}",
    "{\"ph\":\"i\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":2,\"s\":\"t\"}",
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}",
  };
  g_autofree char *text = g_strdup_printf ("[ %s,\n%s ,\n  %s\n]\n", events[0], events[1], events[2]);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sl-test-array.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_problems (trace), ==, 0);
  s = sl_trace_get_slices (trace, 0);
  g_assert_cmpuint (s->n_slices, ==, 3);
  g_assert_true (sl_trace_slices_flags (s, 1) & SL_TRACE_SLICE_INSTANT);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *event = sl_trace_read_event_text (trace, sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i), &error);

      g_assert_no_error (error);
      g_assert_cmpstr (event, ==, events[i]);
      g_assert_cmpuint (SL_TRACE_ARGS_BYTE (sl_trace_slices_args_offset (s, i)), ==, strstr (text, events[i]) - text);
    }
  g_unlink (path);
}

static void
test_unbalanced_begin_end (void)
{
  const char *text =
    "[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1},"
    "{\"ph\":\"B\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":2},"
    "{\"ph\":\"B\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":3},"
    "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4},"
    "{\"ph\":\"X\",\"name\":\"last\",\"pid\":1,\"tid\":2,\"ts\":9,\"dur\":1}]";
  g_autoptr(SlTrace) trace = load_text (text);
  const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

  g_assert_cmpuint (s->n_slices, ==, 2);
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, 0)), ==, "outer");
  g_assert_true (sl_trace_slices_flags (s, 0) & SL_TRACE_SLICE_UNFINISHED);
  g_assert_cmpint (sl_trace_slices_start_ns (s, 0) + sl_trace_slices_dur_ns (s, 0), ==, 10000);
  g_assert_false (sl_trace_slices_flags (s, 1) & SL_TRACE_SLICE_UNFINISHED);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 1), ==, 1000);
  g_assert_cmpuint (n_problems (trace), ==, 2);
  /* the stray E is the first event: offset 1 */
  g_assert_cmpint (sl_problem_get_offset (problem_at (trace, 0)), ==, 1);
  g_assert_cmpint (sl_problem_get_offset (problem_at (trace, 1)), ==, strstr (text, "{\"ph\":\"B\",\"name\":\"outer\"") - text);
}

static void
test_exact_times_and_ids (void)
{
  const char *text =
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":\"1700000000123456.789\",\"dur\":0.001},"
    "{\"ph\":\"X\",\"name\":\"g\",\"pid\":1,\"tid\":2,\"ts\":1700000000123460.5,\"dur\":10},"
    "{\"ph\":\"s\",\"name\":\"flow\",\"cat\":\"c\",\"id\":18446744073709551615,\"pid\":1,\"tid\":1,\"ts\":\"1700000000123456.789\"},"
    "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"flow\",\"cat\":\"c\",\"id\":\"18446744073709551615\",\"pid\":1,\"tid\":2,\"ts\":1700000000123461},"
    "{\"ph\":\"s\",\"name\":\"flow\",\"cat\":\"c\",\"id\":9007199254740993,\"pid\":1,\"tid\":1,\"ts\":\"1700000000123456.789\"},"
    "{\"ph\":\"f\",\"name\":\"flow\",\"cat\":\"c\",\"id\":9007199254740992,\"pid\":1,\"tid\":2,\"ts\":1700000000123461}"
    "]}";
  g_autoptr(SlTrace) trace = load_text (text);
  const SlTraceSlices *s = sl_trace_get_slices (trace, 0);
  const SlTraceFlow *flow;

  g_assert_cmpint (sl_trace_slices_start_ns (s, 0), ==, G_GINT64_CONSTANT (1700000000123456789));
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, 1);
  g_assert_cmpint (sl_trace_slices_start_ns (sl_trace_get_slices (trace, 1), 0), ==, G_GINT64_CONSTANT (1700000000123460500));
  /* 2^53 + 1 and 2^53 are different flows: neither pairs up */
  g_assert_cmpuint (sl_trace_get_n_flows (trace), ==, 1);
  flow = sl_trace_get_flow (trace, 0);
  g_assert_cmpuint (flow->id, ==, G_MAXUINT64);
  g_assert_cmpuint (flow->from_track, ==, 0);
  g_assert_cmpuint (flow->from_slice, ==, 0);
  g_assert_cmpuint (flow->to_track, ==, 1);
  g_assert_cmpuint (flow->to_slice, ==, 0);
  g_assert_true (flow->to_enclosing);
}

/* Flow events v2: the ends are the slices themselves, named by bind_id. */
static void
test_flow_v2 (void)
{
  const char *text =
    "[{\"ph\":\"X\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2,\"bind_id\":\"0xffffffffffffff01\",\"flow_out\":true},"
    "{\"ph\":\"X\",\"name\":\"relay\",\"pid\":1,\"tid\":2,\"ts\":4,\"dur\":2,\"bind_id\":18446744073709551361,\"flow_in\":true,\"flow_out\":true},"
    "{\"ph\":\"X\",\"name\":\"kernel\",\"pid\":2,\"tid\":7,\"ts\":9,\"dur\":1,\"bind_id\":\"0xffffffffffffff01\",\"flow_in\":true}]";
  g_autoptr(SlTrace) trace = load_text (text);

  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (sl_trace_get_n_flows (trace), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const SlTraceFlow *flow = sl_trace_get_flow (trace, i);

      g_assert_cmpuint (flow->id, ==, G_GUINT64_CONSTANT (0xffffffffffffff01));
      g_assert_cmpuint (flow->from_slice, ==, 0);
      g_assert_cmpuint (flow->to_slice, ==, 0);
      g_assert_cmpuint (flow->from_track, ==, i);
      g_assert_cmpuint (flow->to_track, ==, i + 1);
    }
}

static void
test_counters_and_nested_args (void)
{
  const char *text =
    "[{\"args\":{\"used\":5,\"free\":{\"deep\":1},\"list\":[1,2],\"total\":-1.5e1},\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":1},"
    "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":2,\"args\":{\"used\":7}},"
    "{\"ph\":\"X\",\"args\":{\"name\":\"not the name\",\"ph\":\"B\",\"ts\":5,\"inner\":{\"name\":\"x\",\"args\":{\"ts\":1}},\"arr\":[{\"ph\":\"E\"}]},"
    "\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5,\"id2\":{\"local\":\"0x5\"}}]";
  g_autoptr(SlTrace) trace = load_text (text);
  guint used = find_track (trace, "mem used");
  guint total = find_track (trace, "mem total");
  guint thread = find_track (trace, "1");
  const SlTraceCounter *c;
  const SlTraceSlices *s;

  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (sl_trace_get_n_tracks (trace), ==, 3);
  g_assert_cmpuint (used, !=, G_MAXUINT);
  g_assert_cmpuint (total, !=, G_MAXUINT);
  c = sl_trace_get_counter (trace, used);
  g_assert_cmpuint (c->n_points, ==, 2);
  g_assert_cmpfloat (c->value[1], ==, 7);
  g_assert_cmpfloat (c->min_value, ==, 5);
  g_assert_cmpfloat (sl_trace_get_counter (trace, total)->value[0], ==, -15);
  s = sl_trace_get_slices (trace, thread);
  g_assert_cmpuint (s->n_slices, ==, 1);
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, 0)), ==, "outer");
  g_assert_cmpint (sl_trace_slices_start_ns (s, 0), ==, 10000);
  g_assert_cmpuint (phase_count (trace, "X"), ==, 1);
  g_assert_cmpuint (phase_count (trace, "B"), ==, 0);
}

/* "ph" after "args", as MindSpore's and msprof's timelines write every
 * event: the args of metadata and counters are read (names, sort
 * indexes, every series, a key with an escape), those of slices are
 * skipped, and an event with no "ph" at all still reads its args. The
 * same text with "ph" first gives the same trace. */
static void
test_args_before_ph (void)
{
  const char *last =
    "[{\"name\":\"process_name\",\"pid\":3,\"tid\":0,\"args\":{\"name\":\"Ascend Hardware\"},\"ph\":\"M\"},"
    "{\"name\":\"process_sort_index\",\"pid\":3,\"tid\":0,\"args\":{\"sort_index\":-7},\"ph\":\"M\"},"
    "{\"name\":\"thread_name\",\"pid\":3,\"tid\":2,\"args\":{\"name\":\"Stream 2\"},\"ph\":\"M\"},"
    "{\"name\":\"op\",\"pid\":3,\"tid\":2,\"ts\":10,\"dur\":5,\"args\":{\"Task Type\":\"AI_CORE\",\"Task Id\":36,\"name\":\"x\"},\"ph\":\"X\"},"
    "{\"name\":\"hbm\",\"pid\":3,\"ts\":11,\"args\":{\"used\":2.5,\"free\":4,\"a\\u0062\":1},\"ph\":\"C\"},"
    "{\"name\":\"hbm\",\"pid\":3,\"ts\":12,\"args\":{\"used\":3}}]";
  const char *first =
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,\"tid\":0,\"args\":{\"name\":\"Ascend Hardware\"}},"
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":3,\"tid\":0,\"args\":{\"sort_index\":-7}},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3,\"tid\":2,\"args\":{\"name\":\"Stream 2\"}},"
    "{\"ph\":\"X\",\"name\":\"op\",\"pid\":3,\"tid\":2,\"ts\":10,\"dur\":5,\"args\":{\"Task Type\":\"AI_CORE\",\"Task Id\":36,\"name\":\"x\"}},"
    "{\"ph\":\"C\",\"name\":\"hbm\",\"pid\":3,\"ts\":11,\"args\":{\"used\":2.5,\"free\":4,\"a\\u0062\":1}},"
    "{\"name\":\"hbm\",\"pid\":3,\"ts\":12,\"args\":{\"used\":3}}]";
  const char *texts[] = { last, first };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(SlTrace) trace = load_text (texts[i]);
      guint stream = find_track (trace, "Stream 2");
      guint used = find_track (trace, "hbm used");
      guint free_bytes = find_track (trace, "hbm free");
      guint escaped = find_track (trace, "hbm ab");
      const SlTraceSlices *s;

      g_assert_cmpuint (sl_trace_get_n_processes (trace), ==, 1);
      g_assert_cmpstr (sl_trace_get_process_name (trace, 0), ==, "Ascend Hardware");
      g_assert_cmpint (sl_trace_get_process_sort_index (trace, 0), ==, -7);
      g_assert_cmpuint (stream, !=, G_MAXUINT);
      s = sl_trace_get_slices (trace, stream);
      g_assert_cmpuint (s->n_slices, ==, 1);
      g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, 0)), ==, "op");
      g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, 5000);
      g_assert_cmpuint (used, !=, G_MAXUINT);
      g_assert_cmpuint (free_bytes, !=, G_MAXUINT);
      g_assert_cmpuint (escaped, !=, G_MAXUINT);
      /* the event without "ph" is read as before: its args, no counter */
      g_assert_cmpuint (sl_trace_get_counter (trace, used)->n_points, ==, 1);
      g_assert_cmpfloat (sl_trace_get_counter (trace, used)->value[0], ==, 2.5);
      g_assert_cmpfloat (sl_trace_get_counter (trace, free_bytes)->value[0], ==, 4);
      g_assert_cmpfloat (sl_trace_get_counter (trace, escaped)->value[0], ==, 1);
      g_assert_cmpuint (phase_count (trace, "X"), ==, 1);
      g_assert_cmpuint (phase_count (trace, "C"), ==, 1);
    }
}

static void
test_async_and_unicode (void)
{
  const char *text =
    "[{\"ph\":\"b\",\"cat\":\"io\",\"name\":\"read \\u00e9t\\u00e9 \\ud83d\\ude00\",\"id2\":{\"local\":\"0x10\"},\"pid\":1,\"ts\":1},"
    "{\"ph\":\"b\",\"cat\":\"io\",\"name\":\"chunk\",\"id2\":{\"local\":\"0x10\"},\"pid\":1,\"ts\":2},"
    "{\"ph\":\"n\",\"cat\":\"io\",\"name\":\"tick\",\"id\":16,\"pid\":1,\"ts\":3},"
    "{\"ph\":\"e\",\"cat\":\"io\",\"name\":\"chunk\",\"id\":\"0x10\",\"pid\":1,\"ts\":4},"
    "{\"ph\":\"e\",\"cat\":\"io\",\"id\":16,\"pid\":1,\"ts\":9},"
    "{\"ph\":\"S\",\"cat\":\"old\",\"name\":\"legacy\",\"id\":1,\"pid\":1,\"ts\":1},"
    "{\"ph\":\"T\",\"cat\":\"old\",\"name\":\"legacy\",\"id\":1,\"pid\":1,\"ts\":2},"
    "{\"ph\":\"F\",\"cat\":\"old\",\"name\":\"legacy\",\"id\":1,\"pid\":1,\"ts\":3}]";
  g_autoptr(SlTrace) trace = load_text (text);
  guint track = find_track (trace, "read été 😀");
  guint legacy = find_track (trace, "legacy");
  const SlTraceSlices *s;

  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (track, !=, G_MAXUINT);
  g_assert_cmpuint (sl_trace_get_track_kind (trace, track), ==, SL_TRACE_TRACK_ASYNC);
  s = sl_trace_get_slices (trace, track);
  /* children share the outermost event's track and nest under it */
  g_assert_cmpuint (s->n_slices, ==, 3);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, 8000);
  g_assert_cmpuint (sl_trace_slices_depth (s, 1), ==, 1);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 1), ==, 2000);
  g_assert_true (sl_trace_slices_flags (s, 2) & SL_TRACE_SLICE_INSTANT);
  g_assert_cmpuint (sl_trace_get_slices (trace, legacy)->n_slices, ==, 1);
  g_assert_cmpint (sl_trace_slices_dur_ns (sl_trace_get_slices (trace, legacy), 0), ==, 2000);
  g_assert_cmpuint (phase_count (trace, "T"), ==, 1);
}

static GBytes *
gzip_bytes_len (const char *text,
                gsize       length)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_write_all (out, text, length, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static GBytes *
gzip_bytes (const char *text)
{
  return gzip_bytes_len (text, strlen (text));
}

static GString *
many_events (guint n)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"op%u\",\"pid\":1,\"tid\":%u,\"ts\":%u.%03u,\"dur\":1,\"args\":{\"i\":[%u,{\"k\":\"v\"}]}}",
                            i > 0 ? ",\n" : "", i % 7, i % 3, i, i % 1000, i);
  g_string_append (text, "\n]}\n");
  return text;
}

static void
test_gzip (void)
{
  g_autoptr(GString) text = many_events (3000);
  g_autoptr(GBytes) gz = gzip_bytes (text->str);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sl-test-trace.json.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(SlTraceTextReader) reader = NULL;
  const SlTraceSlices *s;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz), &error));
  trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (total_slices (trace), ==, 3000);

  /* args on demand: the gzip is inflated again up to the event */
  reader = sl_trace_text_reader_new (trace);
  s = sl_trace_get_slices (trace, 0);
  for (guint i = 0; i < s->n_slices; i += 97)
    {
      g_autofree char *event = sl_trace_text_reader_read (reader, sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i), &error);
      g_autofree char *expected = g_strndup (text->str + SL_TRACE_ARGS_BYTE (sl_trace_slices_args_offset (s, i)), sl_trace_slices_args_length (s, i));

      g_assert_no_error (error);
      g_assert_cmpstr (event, ==, expected);
      g_assert_true (g_str_has_prefix (event, "{\"ph\":\"X\""));
      g_assert_true (g_str_has_suffix (event, "}}"));
    }

  /* a cut gzip keeps what was inflated and says so */
  {
    SlTraceBuilder *builder = sl_trace_builder_new ("cut.json.gz");
    g_autoptr(SlTrace) cut = NULL;

    sl_chrome_trace_reader_read_data (builder, "cut.json.gz", g_bytes_get_data (gz, NULL), g_bytes_get_size (gz) / 2, NULL);
    cut = sl_trace_builder_finish (builder, NULL);
    g_assert_cmpuint (total_slices (cut), >, 100);
    g_assert_cmpuint (total_slices (cut), <, 3000);
    g_assert_cmpuint (n_problems (cut), >=, 1);
  }
  g_unlink (path);
}

static SlTrace *
load_file_bytes (const char *name,
                 const void *data,
                 gsize       length)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  SlTrace *trace;

  g_assert_true (g_file_set_contents (path, data, length, &error));
  trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);
  return trace;
}

/* Output that fills the 1 MiB buffers exactly, several gzip members,
 * and a file cut or damaged in the middle, through the reading thread. */
static void
test_gzip_edges (void)
{
  g_autoptr(GString) text = many_events (20000);
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) second = NULL;
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GByteArray) members = g_byte_array_new ();
  g_autoptr(SlTrace) exact = NULL;
  g_autoptr(SlTrace) joined = NULL;
  g_autoptr(SlTrace) cut = NULL;
  g_autoptr(SlTrace) damaged = NULL;
  g_autofree char *padded = NULL;
  g_autofree guint8 *broken = NULL;
  gsize split = text->len / 2;
  gsize size;

  /* 2 MiB of JSON exactly: whitespace after the closing brace */
  g_assert_cmpuint (text->len, <, 2 << 20);
  padded = g_malloc (2 << 20);
  memset (padded, ' ', 2 << 20);
  memcpy (padded, text->str, text->len);
  {
    g_autoptr(GBytes) gz = gzip_bytes_len (padded, 2 << 20);

    exact = load_file_bytes ("sl-test-exact.json.gz", g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  }
  g_assert_cmpuint (n_problems (exact), ==, 0);
  g_assert_cmpuint (total_slices (exact), ==, 20000);

  first = gzip_bytes_len (text->str, split);
  second = gzip_bytes_len (text->str + split, text->len - split);
  g_byte_array_append (members, g_bytes_get_data (first, NULL), g_bytes_get_size (first));
  g_byte_array_append (members, g_bytes_get_data (second, NULL), g_bytes_get_size (second));
  joined = load_file_bytes ("sl-test-members.json.gz", members->data, members->len);
  g_assert_cmpuint (n_problems (joined), ==, 0);
  g_assert_cmpuint (total_slices (joined), ==, 20000);

  whole = gzip_bytes (text->str);
  size = g_bytes_get_size (whole);
  cut = load_file_bytes ("sl-test-cut.json.gz", g_bytes_get_data (whole, NULL), size / 2);
  g_assert_cmpuint (total_slices (cut), >, 1000);
  g_assert_cmpuint (total_slices (cut), <, 20000);
  g_assert_cmpuint (n_problems (cut), ==, 2);  /* the gzip ends early, so does the JSON */
  g_assert_cmpint (sl_problem_get_offset (problem_at (cut, 0)), ==, size / 2);

  broken = g_memdup2 (g_bytes_get_data (whole, NULL), size);
  for (gsize i = size / 2; i < size / 2 + 64; i++)
    broken[i] ^= 0x5a;
  damaged = load_file_bytes ("sl-test-damaged.json.gz", broken, size);
  g_assert_cmpuint (total_slices (damaged), <, 20000);
  g_assert_cmpuint (n_problems (damaged), >=, 1);
  g_assert_cmpuint (sl_problem_get_severity (problem_at (damaged, 0)), ==, SL_SEVERITY_ERROR);
}

/* Cut the file at every offset: whatever ends before the cut is kept and
 * the problem names the cut. */
static void
test_truncation (void)
{
  g_autoptr(GString) text = many_events (40);
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize complete;

  for (const char *p = text->str; (p = strstr (p, "]}}")) != NULL; p += 3)
    {
      gsize end = p + 3 - text->str;
      g_array_append_val (ends, end);
    }
  g_assert_cmpuint (ends->len, ==, 40);
  complete = text->len - strlen ("\n]}\n") + 2;  /* up to the closing brace */

  for (gsize cut = 0; cut < complete; cut++)
    {
      SlTraceBuilder *builder = sl_trace_builder_new ("cut.json");
      g_autoptr(SlTrace) trace = NULL;
      guint expected = 0;
      SlProblem *problem;

      sl_chrome_trace_reader_read_data (builder, "cut.json", (const guint8 *) text->str, cut, NULL);
      trace = sl_trace_builder_finish (builder, NULL);
      for (guint i = 0; i < ends->len; i++)
        if (g_array_index (ends, gsize, i) <= cut)
          expected++;
      g_assert_cmpuint (total_slices (trace), ==, expected);
      g_assert_cmpuint (n_problems (trace), ==, 1);
      problem = problem_at (trace, 0);
      g_assert_cmpint (sl_problem_get_offset (problem), ==, cut);
      g_assert_cmpstr (sl_problem_get_path (problem), ==, "cut.json");
      g_assert_cmpuint (sl_problem_get_severity (problem), ==, cut == 0 ? SL_SEVERITY_ERROR : SL_SEVERITY_WARNING);
    }
}

static void
test_garbage_and_empty (void)
{
  const char *damaged = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}, nonsense ]}";
  g_autoptr(SlTrace) empty = load_text ("");
  g_autoptr(SlTrace) garbage = load_text ("hello, world");
  g_autoptr(SlTrace) binary = load_text ("\x01\x02\xff\xfe");
  g_autoptr(SlTrace) kept = load_text (damaged);
  g_autoptr(SlTrace) no_events = load_text ("{\"foo\":[{\"ph\":\"X\",\"ts\":1}]}");
  g_autoptr(SlTrace) scalar = load_text ("42");

  g_assert_cmpuint (sl_trace_get_n_tracks (empty), ==, 0);
  g_assert_cmpuint (n_problems (empty), ==, 1);
  g_assert_cmpuint (n_problems (garbage), ==, 1);
  g_assert_cmpuint (sl_problem_get_severity (problem_at (garbage, 0)), ==, SL_SEVERITY_ERROR);
  g_assert_cmpuint (n_problems (binary), ==, 1);
  g_assert_cmpuint (total_slices (kept), ==, 1);
  g_assert_cmpuint (n_problems (kept), ==, 1);
  /* yajl stops right after the bad token */
  g_assert_cmpint (sl_problem_get_offset (problem_at (kept, 0)), >=, strstr (damaged, "nonsense") - damaged);
  g_assert_cmpint (sl_problem_get_offset (problem_at (kept, 0)), <=, strstr (damaged, "nonsense") - damaged + 8);
  g_assert_true (strstr (sl_problem_get_message (problem_at (kept, 0)), "invalid") != NULL);
  g_assert_cmpuint (total_slices (no_events), ==, 0);
  g_assert_cmpuint (n_problems (no_events), ==, 1);
  g_assert_cmpuint (n_problems (scalar), ==, 1);
}

/* JSON nested 10^6 deep, in the events array and inside an event's args:
 * an error at the depth limit, with the events before it kept, instead of
 * an empty trace without a word. */
static void
test_deep_nesting (void)
{
  const guint n = 1000000;
  const char *event = "{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}";
  g_autoptr(GString) arrays = g_string_new ("[");
  g_autoptr(GString) args = g_string_new ("{\"traceEvents\":[");
  g_autoptr(SlTrace) deep = NULL;
  g_autoptr(SlTrace) deep_args = NULL;
  g_autoptr(SlTrace) limit = NULL;
  g_autoptr(GString) at_limit = g_string_new ("[");
  SlProblem *problem;

  g_string_append_printf (arrays, "%s,", event);
  for (guint i = 0; i < n; i++)
    g_string_append_c (arrays, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_c (arrays, ']');
  g_string_append_c (arrays, ']');
  deep = load_text (arrays->str);
  g_assert_cmpuint (total_slices (deep), ==, 1);
  g_assert_cmpuint (n_problems (deep), ==, 1);
  problem = problem_at (deep, 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_true (strstr (sl_problem_get_message (problem), "nests more than 1000 levels") != NULL);
  /* at the bracket that opens level 1001 */
  g_assert_cmpint (sl_problem_get_offset (problem), >=, 1 + strlen (event) + 1 + 999);
  g_assert_cmpint (sl_problem_get_offset (problem), <=, 1 + strlen (event) + 1 + 999 + 1);

  g_string_append_printf (args, "%s,{\"ph\":\"X\",\"name\":\"deep\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1,\"args\":", event);
  for (guint i = 0; i < n; i++)
    g_string_append (args, "{\"a\":");
  g_string_append (args, "1");
  for (guint i = 0; i < n; i++)
    g_string_append_c (args, '}');
  g_string_append (args, "}]}");
  deep_args = load_text (args->str);
  g_assert_cmpuint (total_slices (deep_args), ==, 1);
  g_assert_cmpuint (n_problems (deep_args), ==, 1);
  g_assert_cmpint (sl_problem_get_severity (problem_at (deep_args, 0)), ==, SL_SEVERITY_ERROR);

  /* 1000 levels are read */
  for (guint i = 1; i < 1000; i++)
    g_string_append_c (at_limit, '[');
  for (guint i = 1; i < 1000; i++)
    g_string_append_c (at_limit, ']');
  g_string_append_printf (at_limit, ",%s]", event);
  limit = load_text (at_limit->str);
  g_assert_cmpuint (total_slices (limit), ==, 1);
  g_assert_cmpuint (n_problems (limit), ==, 0);
}

/* Times at the ends of the 64-bit range: clamped, never overflowing. */
static void
test_extreme_times (void)
{
  const char *text =
    "[{\"ph\":\"X\",\"name\":\"far\",\"pid\":1,\"tid\":1,\"ts\":9000000000000000,\"dur\":9000000000000000},"
    "{\"ph\":\"B\",\"name\":\"wide\",\"pid\":1,\"tid\":2,\"ts\":-9000000000000000},"
    "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":9000000000000000},"
    "{\"ph\":\"X\",\"name\":\"back\",\"pid\":1,\"tid\":3,\"ts\":5,\"dur\":-3},"
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":1,\"args\":{\"sort_index\":1e300}},"
    "{\"ph\":\"X\",\"name\":\"huge\",\"pid\":1,\"tid\":1,\"ts\":1e300,\"dur\":1}]";
  g_autoptr(SlTrace) trace = load_text (text);
  g_autoptr(GArray) rows = NULL;
  const SlTraceSlices *far = sl_trace_get_slices (trace, find_track (trace, "1"));
  const SlTraceSlices *wide = sl_trace_get_slices (trace, find_track (trace, "2"));
  const SlTraceSlices *back = sl_trace_get_slices (trace, find_track (trace, "3"));

  g_assert_cmpuint (far->n_slices, ==, 1);  /* 1e300 µs is no time */
  g_assert_cmpint (sl_trace_slices_start_ns (far, 0) + sl_trace_slices_dur_ns (far, 0), ==, G_MAXINT64);
  g_assert_cmpuint (wide->n_slices, ==, 1);
  g_assert_cmpint (sl_trace_slices_dur_ns (wide, 0), ==, G_MAXINT64);
  g_assert_cmpint (sl_trace_slices_dur_ns (back, 0), ==, 0);
  g_assert_cmpint (sl_trace_get_process_sort_index (trace, 0), ==, 0);
  g_assert_cmpuint (n_problems (trace), ==, 2);  /* the negative duration and the bad time */
  /* the negative duration points at its event */
  {
    gboolean found = FALSE;

    for (guint i = 0; i < n_problems (trace); i++)
      if (strstr (sl_problem_get_message (problem_at (trace, i)), "negative duration") != NULL)
        {
          g_assert_cmpint (sl_problem_get_offset (problem_at (trace, i)), ==,
                           strstr (text, "{\"ph\":\"X\",\"name\":\"back\"") - text);
          found = TRUE;
        }
    g_assert_true (found);
  }
  rows = sl_trace_aggregate (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);
  g_assert_cmpuint (rows->len, ==, 3);
}

/* Bad UTF-8 in args does not stop an import; kept strings are repaired. */
static void
test_bad_utf8 (void)
{
  const char *text =
    "[{\"ph\":\"X\",\"name\":\"op\xff\xfe\",\"pid\":\"p\xc3\",\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"blob\":\"\x80\x81\"}},"
    "{\"ph\":\"X\",\"name\":\"op\xff\xfe\",\"pid\":\"p\xc3\",\"tid\":1,\"ts\":2,\"dur\":1},"
    "{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":2,\"args\":{\"s\xff\":1}}]";
  g_autoptr(SlTrace) trace = load_text (text);
  const SlTraceSlices *s = sl_trace_get_slices (trace, find_track (trace, "1"));

  g_assert_cmpuint (n_problems (trace), ==, 0);
  g_assert_cmpuint (total_slices (trace), ==, 2);
  g_assert_cmpuint (sl_trace_get_n_tracks (trace), ==, 2);
  g_assert_cmpuint (s->n_slices, ==, 2);
  g_assert_cmpuint (sl_trace_slices_name_id (s, 0), ==, sl_trace_slices_name_id (s, 1));
  g_assert_true (g_utf8_validate (sl_trace_get_string (trace, sl_trace_slices_name_id (s, 0)), -1, NULL));
  for (guint p = 0; p < sl_trace_get_n_processes (trace); p++)
    g_assert_true (g_utf8_validate (sl_trace_get_process_pid (trace, p), -1, NULL));
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    g_assert_true (g_utf8_validate (sl_trace_get_track_name (trace, t), -1, NULL));
}

static void
test_several_files_one_builder (void)
{
  const char *rank = "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"rank\"}},"
                     "{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]";
  g_autofree char *path0 = g_build_filename (g_get_tmp_dir (), "sl-test-rank0.json", NULL);
  g_autofree char *path1 = g_build_filename (g_get_tmp_dir (), "sl-test-rank1.json", NULL);
  g_autoptr(GFile) file0 = g_file_new_for_path (path0);
  g_autoptr(GFile) file1 = g_file_new_for_path (path1);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  SlTraceBuilder *builder = sl_trace_builder_new ("cluster");

  g_assert_true (g_file_set_contents (path0, rank, -1, NULL));
  g_assert_true (g_file_set_contents (path1, rank, -1, NULL));
  g_assert_true (sl_chrome_trace_reader_read_into (builder, file0, "rank0:", NULL, NULL, NULL, &error));
  g_assert_true (sl_chrome_trace_reader_read_into (builder, file1, "rank1:", NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  trace = sl_trace_builder_finish (builder, NULL);

  g_assert_cmpuint (sl_trace_get_n_processes (trace), ==, 2);
  g_assert_cmpuint (sl_trace_get_n_sources (trace), ==, 2);
  g_assert_cmpstr (sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, 0)), ==, "rank0:1");
  g_assert_cmpstr (sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, 1)), ==, "rank1:1");
  for (guint t = 0; t < 2; t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);
      g_autofree char *event = sl_trace_read_event_text (trace, sl_trace_slices_args_offset (s, 0), sl_trace_slices_args_length (s, 0), &error);

      g_assert_no_error (error);
      g_assert_cmpuint (SL_TRACE_ARGS_SOURCE (sl_trace_slices_args_offset (s, 0)), ==, t);
      g_assert_cmpstr (event, ==, "{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}");
    }
  g_unlink (path0);
  g_unlink (path1);
}

static void
count_progress (guint64  bytes_read,
                guint64  total_bytes,
                gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (bytes_read, >, *last);
  g_assert_cmpuint (bytes_read, <=, total_bytes);
  *last = bytes_read;
}

static void
test_progress_and_cancel (void)
{
  g_autoptr(GString) text = many_events (30000);  /* a few MiB: several chunks */
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sl-test-progress.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  SlTraceBuilder *builder;
  guint64 last = 0;

  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  builder = sl_trace_builder_new (path);
  g_assert_true (sl_chrome_trace_reader_read_into (builder, file, NULL, count_progress, &last, NULL, &error));
  g_assert_cmpuint (last, ==, text->len);
  sl_trace_builder_free (builder);

  g_cancellable_cancel (cancellable);
  builder = sl_trace_builder_new (path);
  g_assert_false (sl_chrome_trace_reader_read_into (builder, file, NULL, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  sl_trace_builder_free (builder);
  g_unlink (path);
}

static void
loaded (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  SlTrace **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sl_chrome_trace_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_load_async (void)
{
  g_autoptr(GString) text = many_events (500);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sl-test-async.json", NULL);
  g_autoptr(SlTrace) trace = NULL;

  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  sl_chrome_trace_load_async (path, NULL, NULL, NULL, loaded, &trace);
  while (trace == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (total_slices (trace), ==, 500);
  g_unlink (path);
}

/* A complete event whose "dur" is missing or not a number is drawn as
 * lasting 0 µs, and a warning counts them and points at the first; so
 * does the warning for events without a valid time. */
static void
test_complete_without_duration (void)
{
  const char *text =
    "[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":\"2.5\"},"
    "{\"ph\":\"X\",\"name\":\"text\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":\"abc\"},"
    "{\"ph\":\"X\",\"name\":\"none\",\"pid\":1,\"tid\":1,\"ts\":7},"
    "{\"ph\":\"i\",\"name\":\"instant\",\"pid\":1,\"tid\":1,\"ts\":8}]";
  g_autoptr(SlTrace) trace = load_text (text);
  g_autoptr(SlTrace) fine = load_text ("[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":0}]");
  SlProblem *problem;

  g_assert_cmpuint (total_slices (trace), ==, 4);
  g_assert_cmpuint (n_problems (trace), ==, 1);
  problem = problem_at (trace, 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, strstr (text, "{\"ph\":\"X\",\"name\":\"text\"") - text);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "2 complete events"));
  g_assert_cmpuint (n_problems (fine), ==, 0);

  /* events without a time likewise point at the first */
  {
    const char *timeless =
      "[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
      "{\"ph\":\"i\",\"name\":\"no time\",\"pid\":1,\"tid\":1,\"ts\":\"soon\"},"
      "{\"ph\":\"B\",\"name\":\"none\",\"pid\":1,\"tid\":1}]";
    g_autoptr(SlTrace) untimed = load_text (timeless);

    g_assert_cmpuint (n_problems (untimed), ==, 1);
    g_assert_cmpint (sl_problem_get_offset (problem_at (untimed, 0)), ==,
                     strstr (timeless, "{\"ph\":\"i\"") - timeless);
    g_assert_nonnull (strstr (sl_problem_get_message (problem_at (untimed, 0)), "2 events"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace/chrome/numbers", test_parse_numbers);
  g_test_add_func ("/trace/chrome/object-form", test_object_form);
  g_test_add_func ("/trace/chrome/array-form", test_array_form_and_offsets);
  g_test_add_func ("/trace/chrome/unbalanced", test_unbalanced_begin_end);
  g_test_add_func ("/trace/chrome/exact", test_exact_times_and_ids);
  g_test_add_func ("/trace/chrome/flow-v2", test_flow_v2);
  g_test_add_func ("/trace/chrome/counters", test_counters_and_nested_args);
  g_test_add_func ("/trace/chrome/counter-values", test_counter_values);
  g_test_add_func ("/trace/chrome/args-before-ph", test_args_before_ph);
  g_test_add_func ("/trace/chrome/async", test_async_and_unicode);
  g_test_add_func ("/trace/chrome/gzip", test_gzip);
  g_test_add_func ("/trace/chrome/gzip-edges", test_gzip_edges);
  g_test_add_func ("/trace/chrome/truncation", test_truncation);
  g_test_add_func ("/trace/chrome/garbage", test_garbage_and_empty);
  g_test_add_func ("/trace/chrome/deep-nesting", test_deep_nesting);
  g_test_add_func ("/trace/chrome/extreme-times", test_extreme_times);
  g_test_add_func ("/trace/chrome/bad-utf8", test_bad_utf8);
  g_test_add_func ("/trace/chrome/several-files", test_several_files_one_builder);
  g_test_add_func ("/trace/chrome/progress", test_progress_and_cancel);
  g_test_add_func ("/trace/chrome/async-load", test_load_async);
  g_test_add_func ("/trace/chrome/complete-without-duration", test_complete_without_duration);

  return g_test_run ();
}
