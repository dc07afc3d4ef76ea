/* test-trace-skimmer.c: telling Chrome traces from other JSON by structure
 *
 * Every document is generated here. Each is fed whole, one byte at a time
 * and in odd chunks: the verdict must not depend on where chunks end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-skimmer.h"

static SlTraceVerdict
skim_chunked (const char *text,
              gsize       len,
              gsize       chunk,
              guint64     budget)
{
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (budget);
  SlTraceVerdict verdict = SL_TRACE_VERDICT_UNDECIDED;

  for (gsize pos = 0; pos < len && verdict == SL_TRACE_VERDICT_UNDECIDED; pos += chunk)
    verdict = sl_trace_skimmer_feed (skimmer, (const guint8 *)text + pos, MIN (chunk, len - pos));

  return sl_trace_skimmer_finish (skimmer);
}

/* The verdict on @text, checked to be the same however it is fed */
static SlTraceVerdict
skim_len (const char *text,
          gsize       len)
{
  SlTraceVerdict whole = skim_chunked (text, len, MAX (len, 1), SL_TRACE_SKIMMER_BUDGET);

  g_assert_cmpint (skim_chunked (text, len, 1, SL_TRACE_SKIMMER_BUDGET), ==, whole);
  g_assert_cmpint (skim_chunked (text, len, 7, SL_TRACE_SKIMMER_BUDGET), ==, whole);
  g_assert_cmpint (whole, !=, SL_TRACE_VERDICT_UNDECIDED);
  return whole;
}

static SlTraceVerdict
skim (const char *text)
{
  return skim_len (text, strlen (text));
}

/* {"metadata": {…about @size bytes, nested…}, @rest */
static char *
metadata_first (gsize       size,
                const char *rest)
{
  GString *text = g_string_new ("{\"metadata\": {\"config\": {\"deep\": [[{\"s\": \"}]\\\" not a key: \\\"traceEvents\\\"\"}]]}, \"ranks\": [");

  while (text->len < size)
    g_string_append (text, "{\"rank\": 1, \"host\": \"node-1\", \"traceEvents\": [1]}, ");
  g_string_append (text, "null]}, ");
  g_string_append (text, rest);
  return g_string_free (text, FALSE);
}

static void
test_objects (void)
{
  g_autofree char *late = metadata_first (200000, "\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}]}");
  g_autofree char *late_none = metadata_first (200000, "\"events\": [{\"ph\": \"X\", \"ts\": 1}]}");
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (SL_TRACE_SKIMMER_BUDGET);

  /* traceEvents wherever it sits */
  g_assert_cmpint (skim ("{\"traceEvents\": []}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim (late), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("{\"a\": 1, \"b\": -2.5e3, \"c\": true, \"d\": null, \"e\": \"x\", \"traceEvents\": [\n"), ==, SL_TRACE_VERDICT_TRACE);

  /* The other keys only traces have */
  g_assert_cmpint (skim ("{\"metadata\": {}, \"displayTimeUnit\": \"ns\"}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("{\"otherData\": {\"version\": \"1\"}}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("{\"deviceProperties\": []}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("{\"distributedInfo\": {\"rank\": 0}, \"schemaVersion\": 1, \"x\": 1}"), ==, SL_TRACE_VERDICT_TRACE);

  sl_trace_skimmer_feed (skimmer, (const guint8 *)late, strlen (late));
  g_assert_cmpint (sl_trace_skimmer_get_verdict (skimmer), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpstr (sl_trace_skimmer_get_key (skimmer), ==, "traceEvents");
  g_assert_cmpuint (sl_trace_skimmer_get_offset (skimmer), ==, strstr (late, "}, \"traceEvents\": [") - late + strlen ("}, \"traceEvents\": ["));
  g_assert_false (sl_trace_skimmer_is_array (skimmer));

  /* Objects whose keys are none of those */
  g_assert_cmpint (skim (late_none), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"learning_rate\": 0.1, \"epochs\": [1, 2]}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"schemaVersion\": 1}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"traceEvents\": 5, \"x\": 1}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"traceEvents\": {\"ph\": \"X\"}}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"trace\\u0045vents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"x\": {\"traceEvents\": []}}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
}

static void
test_arrays (void)
{
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (SL_TRACE_SKIMMER_BUDGET);
  const char *array = "[{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"x\"}}]";

  g_assert_cmpint (skim (array), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("[{\"ts\": 1, \"pid\": 2}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("[{\"name\": \"a\", \"ts\": 1}, "), ==, SL_TRACE_VERDICT_TRACE);

  sl_trace_skimmer_feed (skimmer, (const guint8 *)array, strlen (array));
  g_assert_cmpint (sl_trace_skimmer_get_verdict (skimmer), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_true (sl_trace_skimmer_is_array (skimmer));

  /* Metadata before the first event */
  g_assert_cmpint (skim ("[{\"name\": \"process_name\", \"pid\": 1, \"args\": {\"ph\": 1}} , {\"ph\": \"X\"}]"), ==,
                   SL_TRACE_VERDICT_TRACE);

  /* Arrays of objects that are no events, and of other things */
  g_assert_cmpint (skim ("[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}, {\"id\": 4}, {\"id\": 5}, {\"id\": 6}, "
                         "{\"id\": 7}, {\"id\": 8}, {\"ph\": \"X\"}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[{\"id\": 1, \"label\": \"cat\"}, {\"id\": 2}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[{\"id\": 1}, 2, {\"ph\": \"X\"}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[{\"id\": 1} {\"ph\": \"X\"}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[{\"name\": \"a\", \"args\": {\"ph\": \"X\", \"ts\": 1}}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[{\"ts\": 1}]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[1, 2, 3]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("[[{\"ph\": \"X\"}]]"), ==, SL_TRACE_VERDICT_NOT_TRACE);
}

static void
test_hostile (void)
{
  g_autofree char *deep = g_strnfill (100000, '[');
  g_autofree char *deep_value = NULL;
  g_autofree char *unterminated = NULL;
  g_autoptr(GString) big = g_string_new ("{\"metadata\": \"");
  static const char nul_key[] = "{\"trace\0Events\": []}";

  /* Byte order mark and whitespace in front */
  g_assert_cmpint (skim ("\xEF\xBB\xBF \r\n\t{\"traceEvents\": []}"), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim ("\xEF\xBB{\"traceEvents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("  \xEF\xBB\xBF{\"traceEvents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);

  /* Empty, whitespace, not JSON */
  g_assert_cmpint (skim (""), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim (" \n "), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("traceEvents"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{traceEvents: []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"traceEvents\" []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"a\": 1 \"traceEvents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"a\": [1}, \"traceEvents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim ("{\"a\": @, \"traceEvents\": []}"), ==, SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_cmpint (skim_len (nul_key, sizeof nul_key - 1), ==, SL_TRACE_VERDICT_NOT_TRACE);

  /* Nesting far deeper than the stack, in front and inside a value */
  g_assert_cmpint (skim (deep), ==, SL_TRACE_VERDICT_NOT_TRACE);
  deep_value = g_strconcat ("{\"metadata\": ", deep, NULL);
  g_assert_cmpint (skim (deep_value), ==, SL_TRACE_VERDICT_NOT_TRACE);

  /* A string that never ends swallows the key after it */
  unterminated = g_strconcat ("{\"metadata\": \"", deep, ", \"traceEvents\": []}", NULL);
  g_assert_cmpint (skim (unterminated), ==, SL_TRACE_VERDICT_NOT_TRACE);

  /* A value larger than the budget: the key after it is never reached */
  while (big->len < 300000)
    g_string_append (big, "0123456789abcdef\\\"");
  g_string_append (big, "\", \"traceEvents\": []}");
  g_assert_cmpint (skim_chunked (big->str, big->len, 4096, SL_TRACE_SKIMMER_BUDGET), ==, SL_TRACE_VERDICT_TRACE);
  g_assert_cmpint (skim_chunked (big->str, big->len, 4096, 100000), ==, SL_TRACE_VERDICT_NOT_TRACE);

  /* Once decided, more input changes nothing */
  {
    g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (SL_TRACE_SKIMMER_BUDGET);

    g_assert_cmpint (sl_trace_skimmer_feed (skimmer, (const guint8 *)"[1", 2), ==, SL_TRACE_VERDICT_NOT_TRACE);
    g_assert_cmpint (sl_trace_skimmer_feed (skimmer, (const guint8 *)"{\"ph\"", 5), ==, SL_TRACE_VERDICT_NOT_TRACE);
    g_assert_cmpint (sl_trace_skimmer_finish (skimmer), ==, SL_TRACE_VERDICT_NOT_TRACE);
  }
}

static void
test_trace_keys (void)
{
  g_assert_true (sl_trace_skimmer_is_trace_key ("displayTimeUnit"));
  g_assert_true (sl_trace_skimmer_is_trace_key ("otherData"));
  g_assert_true (sl_trace_skimmer_is_trace_key ("deviceProperties"));
  g_assert_false (sl_trace_skimmer_is_trace_key ("traceEvents"));
  g_assert_false (sl_trace_skimmer_is_trace_key ("metadata"));
}

static void
test_stream (void)
{
  g_autofree char *late = metadata_first (300000, "\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}]}");
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (late, strlen (late), NULL);
  g_autoptr(GInputStream) short_stream = g_memory_input_stream_new_from_data (late, strlen (late), NULL);
  g_autoptr(GError) error = NULL;
  gboolean is_array = TRUE;

  gboolean out_of_budget = TRUE;

  g_assert_cmpint (sl_trace_skimmer_skim_stream (stream, SL_TRACE_SKIMMER_BUDGET, &is_array, &out_of_budget, NULL, &error), ==,
                   SL_TRACE_VERDICT_TRACE);
  g_assert_no_error (error);
  g_assert_false (is_array);
  g_assert_false (out_of_budget);

  /* The budget ends before the key */
  g_assert_cmpint (sl_trace_skimmer_skim_stream (short_stream, 100000, NULL, &out_of_budget, NULL, &error), ==,
                   SL_TRACE_VERDICT_NOT_TRACE);
  g_assert_no_error (error);
  g_assert_true (out_of_budget);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-skimmer/objects", test_objects);
  g_test_add_func ("/trace-skimmer/arrays", test_arrays);
  g_test_add_func ("/trace-skimmer/hostile", test_hostile);
  g_test_add_func ("/trace-skimmer/trace-keys", test_trace_keys);
  g_test_add_func ("/trace-skimmer/stream", test_stream);

  return g_test_run ();
}
