/* test-yajl-error.c: where yajl's errors lie, for every kind of error it
 * reports, and a byte order mark and trailing zeros in a Chrome trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <yajl/yajl_parse.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace-builder.h"
#include "sl-yajl-error.h"

static int
on_number (void *ctx, const char *text, size_t length)
{
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_number = on_number,
};

typedef struct {
  const char *text;      /* with a | before the byte the error is at */
  gsize       length;
  const char *reason;    /* a part of yajl's reason */
} Case;

#define CASE(text, reason) { text, sizeof text - 1, reason }

/* One of each error yajl reports, strings with escaped quotes among the
 * refused tokens. A number is refused only once a byte after it is read. */
static const Case cases[] = {
  /* lexical errors: the byte refused */
  CASE ("{\"a\": |x}", "lexical error"),
  CASE ("[1, \"a|\tb\"]", "lexical error"),
  CASE ("[\"a\\|qb\"]", "lexical error"),
  CASE ("[1.|x]", "lexical error"),
  CASE ("[|\x01]", "lexical error"),
  /* parse errors after which yajl gives the token back: by the length of
   * its text, so two bytes into a string */
  CASE ("{\"a\": 1 |null}", "I expect ',' or '}'"),
  CASE ("{\"a\": \"s\"|1}", "I expect ',' or '}'"),
  CASE ("{\"a\": 1 \"b|c\": 2}", "I expect ',' or '}'"),
  /* parse errors after which yajl keeps the token */
  CASE ("[1 |2]", "I expect ',' or ']'"),
  CASE ("[1 |\"x\\\"y\"]", "I expect ',' or ']'"),
  CASE ("{\"a\": |}", "unallowed token"),
  CASE ("[1, |,2]", "unallowed token"),
  CASE ("{|12: 1}", "invalid object key"),
  CASE ("{\"a\" |1}", "separated by a colon"),
  CASE ("{\"a\" |\"b\\\"c\"}", "separated by a colon"),
  CASE ("{\"a\" |true}", "separated by a colon"),
  CASE ("[null|0 ]", "I expect ',' or ']'"),
  CASE ("[true|1 ]", "I expect ',' or ']'"),
  CASE ("[1|-2 ]", "I expect ',' or ']'"),
  CASE ("[0|123 ]", "I expect ',' or ']'"),
  CASE ("[1|false]", "I expect ',' or ']'"),
  CASE ("[-1.5e+3|null]", "I expect ',' or ']'"),
  CASE ("[2|-1.5e+3 ]", "I expect ',' or ']'"),
  CASE ("{} |x", "trailing garbage"),
  CASE ("{} |123 ", "trailing garbage"),
  CASE ("{} |\"ab\\\"c\"", "trailing garbage"),
  CASE ("[1]\n|\0\0\0", "trailing garbage"),
  CASE ("{}|]", "trailing garbage"),
  CASE ("[]|/..N", "trailing garbage"),
  CASE ("[] |#", "trailing garbage"),
  CASE ("[]|\x01", "trailing garbage"),
  CASE ("{} |tx", "trailing garbage"),
  CASE ("{} |nul ", "trailing garbage"),
  CASE ("[]|\"\0\n\v\n:", "trailing garbage"),
  CASE ("[] |\"a b\0", "trailing garbage"),
  CASE ("{\"a\": [1, {\"b\": \"}\"}]}\n\n|x", "trailing garbage"),
};

static void
test_every_error (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      const char *mark = memchr (c->text, '|', c->length);
      gsize at = mark - c->text;
      g_autoptr(GByteArray) text = g_byte_array_new ();
      yajl_handle yajl = yajl_alloc (&callbacks, NULL, NULL);
      yajl_status status;
      g_autofree char *reason = NULL;

      g_assert_nonnull (mark);
      g_byte_array_append (text, (const guint8 *) c->text, at);
      g_byte_array_append (text, (const guint8 *) mark + 1, c->length - at - 1);
      /* the readers place only what yajl_parse() refuses: at the end of
       * the data they say that it ends too soon */
      status = yajl_parse (yajl, text->data, text->len);
      g_assert_cmpint (status, ==, yajl_status_error);
      reason = sl_yajl_error_dup_reason (yajl, text->data, text->len);
      if (strstr (reason, c->reason) == NULL)
        g_error ("case %u: %s, not %s", i, reason, c->reason);
      g_assert_null (strchr (reason, '\n'));
      if (sl_yajl_error_offset (yajl, reason, text->data, text->len, -1) != at)
        g_error ("case %u (%s): at %" G_GSIZE_FORMAT ", not %" G_GSIZE_FORMAT, i, reason,
                 sl_yajl_error_offset (yajl, reason, text->data, text->len, -1), at);
      yajl_free (yajl);
    }
}

static SlTrace *
load (const char *text,
      gsize       length,
      SlChromeTraceReadMode mode,
      gsize       piece_size)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("t.json");

  sl_chrome_trace_reader_read_data_full (builder, "t.json", (const guint8 *) text, length, NULL, piece_size, mode);
  return sl_trace_builder_finish (builder, NULL);
}

static guint
n_problems (SlTrace *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);

  return problems != NULL ? g_list_model_get_n_items (problems) : 0;
}

/* A trace with a UTF-8 byte order mark, as Windows tools write it, is
 * read as without it, whichever way it is read and however it is cut;
 * damage after it is at its offset in the file. */
static void
test_byte_order_mark (void)
{
  static const char bom[] = "\xef\xbb\xbf[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},"
                            "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":2}]";
  static const char bad[] = "\xef\xbb\xbf[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},x]";
  static const char half[] = "\xef\xbb[]";
  static const SlChromeTraceReadMode modes[] = {
    SL_CHROME_TRACE_READ_SCAN, SL_CHROME_TRACE_READ_PARALLEL, SL_CHROME_TRACE_READ_TOKENIZE,
  };
  static const gsize pieces[] = { 0, 1, 2, 3, 4, 7 };

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
      {
        g_autoptr(SlTrace) trace = load (bom, strlen (bom), modes[m], pieces[k]);
        g_autoptr(SlTrace) damaged = load (bad, strlen (bad), modes[m], pieces[k]);
        g_autoptr(SlTrace) broken = load (half, strlen (half), modes[m], pieces[k]);
        g_autoptr(SlProblem) problem = NULL;

        g_assert_cmpuint (n_problems (trace), ==, 0);
        g_assert_cmpuint (sl_trace_get_n_events (trace), ==, 2);
        g_assert_cmpuint (sl_trace_get_n_events (damaged), ==, 1);
        g_assert_cmpuint (n_problems (damaged), ==, 1);
        problem = g_list_model_get_item (sl_trace_get_problems (damaged), 0);
        g_assert_cmpint (sl_problem_get_offset (problem), ==, strchr (bad, 'x') - bad);
        /* half a mark is damage at the file's first byte */
        g_assert_cmpuint (n_problems (broken), ==, 1);
        g_clear_object (&problem);
        problem = g_list_model_get_item (sl_trace_get_problems (broken), 0);
        g_assert_cmpint (sl_problem_get_offset (problem), ==, 0);
      }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/yajl-error/every-error", test_every_error);
  g_test_add_func ("/yajl-error/byte-order-mark", test_byte_order_mark);
  return g_test_run ();
}
