/* test-trace-scan.c: the grammar-aware trace reader reads as yajl does
 *
 * Every trace here is read twice: by the reader as it runs (the scanner,
 * handing over to yajl where it must) and with every byte through yajl.
 * The two traces must be the same in every slice, point, flow, string and
 * problem (tests/trace-digest.h), whatever the pieces the data comes in:
 * valid traces of every shape the scanner takes a short cut on, and
 * damaged ones (cut at every byte, a bad byte at every offset, deep
 * nesting, strings that look like event boundaries).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-chrome-trace-reader.h"
#include "sl-json-skim.h"
#include "trace-digest.h"

static char *
digest_of (const char            *data,
           gsize                  length,
           gsize                  piece_size,
           SlChromeTraceReadMode  mode)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("t.json");
  g_autoptr(SlTrace) trace = NULL;

  sl_chrome_trace_reader_read_data_full (builder, "t.json", (const guint8 *) data, length, "p:",
                                         piece_size, mode);
  trace = sl_trace_builder_finish (builder, NULL);
  g_assert_nonnull (trace);
  return trace_digest (trace);
}

/* The reference, then the scanner in pieces of every size in @pieces. */
static void
assert_same_reading (const char  *data,
                     gsize        length,
                     const gsize *pieces,
                     guint        n_pieces)
{
  g_autofree char *expected = digest_of (data, length, 0, SL_CHROME_TRACE_READ_TOKENIZE);

  /* yajl alone in other pieces too: where damage is reported does not
   * depend on where the data was cut */
  for (guint i = 0; i < n_pieces * 3; i++)
    {
      SlChromeTraceReadMode mode = i % 3 == 0 ? SL_CHROME_TRACE_READ_SCAN :
                                   i % 3 == 1 ? SL_CHROME_TRACE_READ_PARALLEL : SL_CHROME_TRACE_READ_TOKENIZE;
      g_autofree char *got = digest_of (data, length, pieces[i / 3], mode);

      if (g_strcmp0 (expected, got) != 0)
        {
          g_autofree char *shown = g_strndup (data, MIN (length, 400));

          g_printerr ("input (%" G_GSIZE_FORMAT " bytes, pieces of %" G_GSIZE_FORMAT ", mode %d): %s\n"
                      "--- yajl:\n%s--- got:\n%s", length, pieces[i / 3], mode, shown, expected, got);
          g_assert_cmpstr (expected, ==, got);
        }
    }
}

static const gsize all_pieces[] = { 0, 1, 2, 3, 5, 16, 61, 4096 };
static const gsize few_pieces[] = { 0, 7 };

/* A trace with every field the reader keeps, in both orders of keys. */
static const char rich[] =
  "{\"displayTimeUnit\":\"ns\",\"metadata\":{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1}]},\"traceEvents\":[\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Py\\\"thon\"}},\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":\"7\",\"args\":{\"name\":\"main\",\"x\":[1,{\"name\":\"no\"}]}},\n"
  "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":\"2\",\"args\":{\"sort_index\":-1e0}},\n"
  "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":7,\"args\":{\"sort_index\":3}},\n"
  "{\"args\":{\"name\":\"late ph\"},\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":1},\n"
  "{\"ph\":\"X\",\"name\":\"step\",\"cat\":\"op\",\"pid\":\"1\",\"tid\":7,\"ts\":\"10.5\",\"dur\":\"4\"},\n"
  "{\"ts\":11,\"dur\":1.0e0,\"name\":\"chi\\nld\",\"pid\":1,\"tid\":7,\"ph\":\"X\",\"args\":{\"k\":\"},{\\\"ph\\\":\\\"X\\\"\"}},\n"
  "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":7,\"ts\":20},{\"ph\":\"E\",\"pid\":1,\"tid\":7,\"ts\":25},\n"
  "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":3,\"args\":{\"a\":1,\"b\":2.5,\"c\":\"s\",\"d\":true,\"e\":null,\"f\":[1]}},\n"
  "{\"ph\":\"b\",\"cat\":\"c\",\"name\":\"async\",\"id\":\"0x10\",\"pid\":1,\"ts\":1},\n"
  "{\"ph\":\"n\",\"cat\":\"c\",\"name\":\"inst\",\"id2\":{\"local\":\"0x10\"},\"pid\":1,\"ts\":2},\n"
  "{\"ph\":\"e\",\"cat\":\"c\",\"name\":\"async\",\"id\":16,\"pid\":1,\"ts\":4},\n"
  "{\"ph\":\"s\",\"cat\":\"f\",\"name\":\"flow\",\"id\":9007199254740993,\"pid\":1,\"tid\":7,\"ts\":11.5},\n"
  "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"f\",\"name\":\"flow\",\"id\":9007199254740993,\"pid\":2,\"tid\":1,\"ts\":12},\n"
  "{\"ph\":\"X\",\"name\":\"v2\",\"pid\":2,\"tid\":1,\"ts\":12,\"dur\":2,\"bind_id\":\"0x5\",\"flow_out\":true,\"flow_in\":false},\n"
  "{\"ph\":\"X\",\"name\":\"v2b\",\"pid\":2,\"tid\":1,\"ts\":30,\"dur\":2,\"bind_id\":5,\"flow_in\":true},\n"
  "{\"ph\":\"i\",\"name\":\"mark\",\"pid\":1,\"tid\":7,\"ts\":2,\"s\":\"t\"},\n"
  "{\"ph\":\"X\",\"name\":\"no ts\",\"pid\":1,\"tid\":7},{\"ph\":\"Xy\",\"ts\":1},{\"name\":\"no ph\",\"ts\":1},{},\n"
  "{\"ph\":\"X\",\"name\":\"\xe6\x97\xa5\xe6\x9c\xac\",\"pid\":1,\"tid\":7,\"ts\":13,\"dur\":0.0005,\"args\":{\"u\":\"\\u00e9\\ud83d\\ude00\"}},\n"
  "{\"ph\":\"X\",\"name\":\"bad \xff utf8\",\"pid\":1,\"tid\":7,\"ts\":14,\"dur\":1},\n"
  "[{\"ph\":\"X\",\"name\":\"in array\",\"ts\":1}],5,\"s\",null,\n"
  "{\"ph\":\"O\",\"name\":\"snap\",\"pid\":2,\"ts\":1,\"id\":\"0x1\",\"args\":{\"snapshot\":{\"a\":[1,{\"b\":2}]}}}\n"
  "] , \"otherData\":{\"version\":1},\"traceEvents\":[{\"ph\":\"X\",\"name\":\"second\",\"pid\":3,\"tid\":3,\"ts\":1,\"dur\":1}]}\n";

static void
test_valid_shapes (void)
{
  const char *texts[] = {
    rich,
    /* 0 and 1 events, both forms */
    "[]", "[ ]\n", "{\"traceEvents\":[]}", "{}", "{\"a\":1}", "[{}]",
    "[{\"ph\":\"X\",\"name\":\"one\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]",
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"one\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}",
    /* yajl's whitespace, \v and \f included */
    " \t\r\n\v\f[\v{\f\"ph\"\v:\f\"X\" , \"ts\" : 1 }\v]\f\n",
    /* escapes in keys and \u in kept strings: yajl's to decode */
    "[{\"p\\u0068\":\"X\",\"ts\":1,\"pid\":1},{\"ph\":\"X\",\"name\":\"\\u0041\\ud800x\",\"ts\":2}]",
    "{\"trace\\u0045vents\":[{\"ph\":\"X\",\"ts\":1}]}",
    "[{\"ph\":\"X\",\"pid\":\"a\\/b\\\\c\\td\",\"tid\":\"\\u0031\",\"ts\":\"1\\u0030\"}]",
    /* a repeated key: yajl's rules */
    "[{\"ph\":\"X\",\"name\":\"a\",\"name\":\"b\",\"ts\":1,\"ts\":2,\"pid\":1,\"tid\":1}]",
    /* numbers of every form where times and ids are kept */
    "[{\"ph\":\"X\",\"ts\":-0.5e-3,\"dur\":1E+2,\"pid\":-0,\"tid\":0.0,\"id\":1e3},{\"ph\":\"C\",\"name\":\"c\",\"ts\":0,\"args\":{\"v\":123456789012345678901234567890123456789012345678901234567890123456789}}]",
    /* events that look like others inside strings and args */
    "[{\"ph\":\"X\",\"name\":\"}, {\\\"ph\\\":\\\"X\\\",\\\"ts\\\":5}\",\"ts\":1,\"args\":{\"x\":\"]},{\"}}]",
    /* nesting yajl takes but the scanner leaves to it */
    "[{\"ph\":\"X\",\"ts\":1,\"args\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]",
    /* literals */
    "[true,false,null,{\"ph\":\"X\",\"ts\":1,\"flow_in\":null,\"flow_out\":false,\"bp\":5}]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    assert_same_reading (texts[i], strlen (texts[i]), all_pieces, G_N_ELEMENTS (all_pieces));
}

/* Cut after every byte: what is before the cut, and the problem. */
static void
test_cut_everywhere (void)
{
  gsize length = sizeof rich - 1;

  for (gsize cut = 0; cut <= length; cut++)
    assert_same_reading (rich, cut, few_pieces, G_N_ELEMENTS (few_pieces));
}

/* A bad byte at every offset: the events before it and the same report. */
static void
test_bad_byte_everywhere (void)
{
  const char bad[] = { '#', '\x01', '"', '}', ',', ']', '\\', '0', 'e', '\xc3' };
  gsize length = sizeof rich - 1;
  g_autofree char *copy = g_memdup2 (rich, length);

  for (gsize i = 0; i < length; i++)
    {
      char was = copy[i];

      for (guint b = 0; b < G_N_ELEMENTS (bad); b++)
        {
          static const gsize whole[] = { 0 };

          if (bad[b] == was)
            continue;
          copy[i] = bad[b];
          assert_same_reading (copy, length, whole, G_N_ELEMENTS (whole));
        }
      copy[i] = was;
    }
}

/* Damage just after a string that a piece boundary cuts: yajl reports it
 * where it finishes the token, which must not move with the pieces. */
static void
test_damage_after_cut_string (void)
{
  const char text[] =
    "[{\"name\":\"thread_name\",\"pid\":300,\"tid\":20,\"args\":{\"name\":\"Stream 20\"},\"ph\":\"M\"},"
    " {\"name\":\"x\",\"args\":{\"sort_index\": 20}\"}, {\"name\": \"thread_name\", \"ph\":\"X\",\"ts\":1}]";
  gsize pieces[64];

  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    pieces[i] = i + 1;
  assert_same_reading (text, sizeof text - 1, pieces, G_N_ELEMENTS (pieces));
}

/* Deeper than yajl's limit in the reader, and deep inside an event. */
static void
test_deep_nesting (void)
{
  for (guint depth = 1; depth <= 2100; depth = depth < 80 ? depth + 1 : depth * 3 / 2)
    {
      g_autoptr(GString) text = g_string_new ("[{\"ph\":\"X\",\"name\":\"before\",\"ts\":1},{\"ph\":\"X\",\"ts\":2,\"args\":");

      for (guint i = 0; i < depth; i++)
        g_string_append_c (text, i % 2 ? '[' : '{');
      /* objects need a key: close them as damage when they do not get one */
      for (guint i = depth; i > 0; i--)
        g_string_append_c (text, (i - 1) % 2 ? ']' : '}');
      g_string_append (text, "},{\"ph\":\"X\",\"name\":\"after\",\"ts\":3}]");
      assert_same_reading (text->str, text->len, few_pieces, G_N_ELEMENTS (few_pieces));
    }
}

/* The benchmark's kind of trace, large enough for many pieces. */
static void
test_many_events (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\":[\n");
  static const gsize pieces[] = { 0, 4093, 65536 };

  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (text, "%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"aten::op_%u\",\"pid\":%u,\"tid\":%u,"
                            "\"ts\":%u.%03u,\"dur\":100.25,\"args\":{\"External id\":%u,\"Input Dims\":[[%u,3],[64]]}}",
                            i > 0 ? ",\n" : "", i % 200, 1000 + i % 4, 20 + i % 16, 1700000 + i * 3, i % 1000, i, i % 7);
  g_string_append (text, "\n]}\n");
  assert_same_reading (text->str, text->len, pieces, G_N_ELEMENTS (pieces));
}

static void
test_skim (void)
{
  const guchar *after = NULL, *close = NULL;
  gboolean escapes;
  const char *strict[] = { "01,", "-,", "1.,", "1e,", "1x", "+1,", ".5,", "tru,", "nul ", "[1,]", "{\"a\"1}", "{\"a\":1,}", "\"\x1f\"", "\"\\x\"", "\"\\u12g4\"" };

  for (guint i = 0; i < G_N_ELEMENTS (strict); i++)
    g_assert_cmpint (sl_json_skim_value ((const guchar *) strict[i], (const guchar *) strict[i] + strlen (strict[i]), 8, &after),
                     ==, SL_JSON_SKIM_BAD);

  /* a number at the end may go on; a string may close later */
  g_assert_cmpint (sl_json_skim_value ((const guchar *) "12", (const guchar *) "12" + 2, 8, &after), ==, SL_JSON_SKIM_MORE);
  g_assert_cmpint (sl_json_skim_string ((const guchar *) "ab\\", (const guchar *) "ab\\" + 3, &close, &escapes), ==, SL_JSON_SKIM_MORE);
  g_assert_cmpint (sl_json_skim_value ((const guchar *) "[[1]]", (const guchar *) "[[1]]" + 5, 1, &after), ==, SL_JSON_SKIM_BAD);
  g_assert_cmpint (sl_json_skim_value ((const guchar *) "[[1]] ", (const guchar *) "[[1]] " + 6, 2, &after), ==, SL_JSON_SKIM_OK);
  g_assert_cmpint (*after, ==, ' ');
  g_assert_cmpint (sl_json_skim_string ((const guchar *) "a\\\"b\"c", (const guchar *) "a\\\"b\"c" + 6, &close, &escapes), ==, SL_JSON_SKIM_OK);
  g_assert_true (escapes);
  g_assert_cmpint (*close, ==, '"');
  g_assert_cmpint (close[1], ==, 'c');
}

/* The JSON Array Format may end without its "]" (writers that may be
 * stopped only append events): after an event, its comma or whitespace
 * the trace is whole, with no problem, read every way in pieces of every
 * size; cut inside an event, or an object's events array without its
 * end, it is cut off. */
/* Whitespace runs of every length up to three blocks of sixteen, ending at
 * every byte value: the scan stops at the first byte that
 * is not whitespace to yajl (space, \t \n \v \f \r) or at the end,
 * never past it. */
static void
test_space_runs (void)
{
  static const guchar spaces[] = { ' ', '\t', '\n', '\v', '\f', '\r' };
  guchar buffer[64];

  for (gsize length = 0; length <= 48; length++)
    for (guint stop = 0; stop < 256; stop++)
      {
        gboolean stop_is_space = memchr (spaces, stop, sizeof spaces) != NULL;
        const guchar *end = buffer + length + 1;

        for (gsize i = 0; i < length; i++)
          buffer[i] = spaces[(i + stop) % G_N_ELEMENTS (spaces)];
        buffer[length] = (guchar) stop;
        /* a byte after the end that would stop nothing */
        buffer[length + 1] = ' ';

        g_assert_true (sl_json_skim_space (buffer, end) == (stop_is_space ? end : buffer + length));
        g_assert_true (sl_json_skim_space (buffer, buffer + length) == buffer + length);
        g_assert_true (sl_json_is_space ((guchar) stop) == stop_is_space);
      }
}

static void
test_open_array (void)
{
  static const char *const whole[] = {
    "[",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},\n",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}, 5, \"x\", [1]\n",
  };
  static const char *const cut[] = {
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},{\"ph\":\"X\"",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},[1",
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},",
  };
  static const SlChromeTraceReadMode modes[] = {
    SL_CHROME_TRACE_READ_SCAN, SL_CHROME_TRACE_READ_PARALLEL, SL_CHROME_TRACE_READ_TOKENIZE,
  };
  static const gsize pieces[] = { 0, 1, 2, 3, 5, 16 };

  for (guint c = 0; c < G_N_ELEMENTS (whole) + G_N_ELEMENTS (cut); c++)
    {
      const char *text = c < G_N_ELEMENTS (whole) ? whole[c] : cut[c - G_N_ELEMENTS (whole)];

      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
          {
            SlTraceBuilder *builder = sl_trace_builder_new ("t.json");
            g_autoptr(SlTrace) trace = NULL;
            GListModel *problems;
            guint n;

            sl_chrome_trace_reader_read_data_full (builder, "t.json", (const guint8 *) text, strlen (text),
                                                   NULL, pieces[k], modes[m]);
            trace = sl_trace_builder_finish (builder, NULL);
            problems = sl_trace_get_problems (trace);
            n = problems != NULL ? g_list_model_get_n_items (problems) : 0;
            if (c < G_N_ELEMENTS (whole))
              {
                if (n != 0)
                  g_error ("%s (mode %d, pieces of %" G_GSIZE_FORMAT "): %u problems", text, modes[m], pieces[k], n);
              }
            else
              {
                g_autoptr(SlProblem) problem = NULL;

                g_assert_cmpuint (n, ==, 1);
                problem = g_list_model_get_item (problems, 0);
                g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
                g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) strlen (text));
                g_assert_cmpuint (sl_trace_get_n_events (trace), ==, 1);
              }
          }
    }
}

/* Zero bytes where a file ends (room it was given and never written):
 * after a whole document a warning that every event is read, inside one
 * a warning that the rest was not written, both at the first zero, read
 * every way in pieces of every size; zeros with something after them
 * are damage as before. */
static void
test_zero_tail (void)
{
  static const char event[] = "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}";
  static const SlChromeTraceReadMode modes[] = {
    SL_CHROME_TRACE_READ_SCAN, SL_CHROME_TRACE_READ_PARALLEL, SL_CHROME_TRACE_READ_TOKENIZE,
  };
  static const gsize pieces[] = { 0, 1, 3, 16, 100 };
  struct {
    const char *head;
    guint       events;
    SlSeverity  severity;
    const char *says;
    gboolean    garbage;   /* an "x" after the zeros */
  } cases[] = {
    { "[%s]\n", 1, SL_SEVERITY_WARNING, "every event is read", FALSE },
    { "{\"traceEvents\":[%s,%s]}", 2, SL_SEVERITY_WARNING, "every event is read", FALSE },
    { "[%s,{\"ph\":\"X\",\"na", 1, SL_SEVERITY_WARNING, "not written to its end", FALSE },
    { "[%s,{\"ph\":\"X\",\"name\":\"b", 1, SL_SEVERITY_WARNING, "not written to its end", FALSE },
    { "[%s]\n", 1, SL_SEVERITY_ERROR, "damaged", TRUE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      gsize zeros_at;

      g_string_assign (text, cases[c].head);
      g_string_replace (text, "%s", event, 0);
      zeros_at = text->len;
      for (guint i = 0; i < 300; i++)
        g_string_append_c (text, '\0');
      if (cases[c].garbage)
        g_string_append_c (text, 'x');

      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
          {
            SlTraceBuilder *builder = sl_trace_builder_new ("t.json");
            g_autoptr(SlTrace) trace = NULL;
            g_autoptr(SlProblem) problem = NULL;

            sl_chrome_trace_reader_read_data_full (builder, "t.json", (const guint8 *) text->str, text->len,
                                                   NULL, pieces[k], modes[m]);
            trace = sl_trace_builder_finish (builder, NULL);
            g_assert_cmpuint (sl_trace_get_n_events (trace), ==, cases[c].events);
            g_assert_cmpuint (g_list_model_get_n_items (sl_trace_get_problems (trace)), ==, 1);
            problem = g_list_model_get_item (sl_trace_get_problems (trace), 0);
            g_assert_cmpint (sl_problem_get_severity (problem), ==, cases[c].severity);
            g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) zeros_at);
            g_assert_nonnull (strstr (sl_problem_get_message (problem), cases[c].says));
          }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-scan/skim", test_skim);
  g_test_add_func ("/trace-scan/space-runs", test_space_runs);
  g_test_add_func ("/trace-scan/valid-shapes", test_valid_shapes);
  g_test_add_func ("/trace-scan/cut-everywhere", test_cut_everywhere);
  g_test_add_func ("/trace-scan/bad-byte-everywhere", test_bad_byte_everywhere);
  g_test_add_func ("/trace-scan/damage-after-cut-string", test_damage_after_cut_string);
  g_test_add_func ("/trace-scan/deep-nesting", test_deep_nesting);
  g_test_add_func ("/trace-scan/many-events", test_many_events);
  g_test_add_func ("/trace-scan/open-array", test_open_array);
  g_test_add_func ("/trace-scan/zero-tail", test_zero_tail);
  return g_test_run ();
}
