/* test-datasets-trace-split.c: every real trace read in parallel parts
 * is the trace read in order
 *
 * Every *.json and *.json.gz below SL_DATASETS_DIR is read with every
 * byte through yajl (the reference), by the grammar-aware scanner in
 * order, cut into parts scanned in parallel (parts of 1 MiB as from a
 * file, and small ones so that even small traces are cut many times), and
 * from the file as the application opens it; all must hold the same
 * events, flows, names and problems (tests/trace-digest.h). Each is also
 * damaged (cut at a third, a bad byte in the middle, a quote in the
 * middle) and the damaged copies must read alike too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-chrome-trace-reader.h"
#include "trace-digest.h"
#include "dataset-files.h"

#define MIN_TRACES 20

static char *
digest_of (const char            *path,
           const guint8          *data,
           gsize                  length,
           gsize                  piece_size,
           SlChromeTraceReadMode  mode)
{
  SlTraceBuilder *builder = sl_trace_builder_new (path);
  g_autoptr(SlTrace) trace = NULL;

  sl_chrome_trace_reader_read_data_full (builder, path, data, length, NULL, piece_size, mode);
  trace = sl_trace_builder_finish (builder, NULL);
  g_assert_nonnull (trace);
  return trace_digest (trace);
}

/* Returns whether the data held events. */
static gboolean
check_same (const char   *path,
            const char   *what,
            const guint8 *data,
            gsize         length)
{
  static const gsize pieces[] = { 0, 4099, 65536 };
  g_autofree char *expected = digest_of (path, data, length, 0, SL_CHROME_TRACE_READ_TOKENIZE);

  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    for (SlChromeTraceReadMode mode = SL_CHROME_TRACE_READ_SCAN; mode <= SL_CHROME_TRACE_READ_PARALLEL; mode++)
      {
        g_autofree char *got = digest_of (path, data, length, pieces[i], mode);

        if (g_strcmp0 (expected, got) != 0)
          {
            g_printerr ("%s (%s), pieces of %" G_GSIZE_FORMAT ", %s\n", path, what, pieces[i],
                        mode == SL_CHROME_TRACE_READ_PARALLEL ? "in parallel" : "in order");
            g_assert_cmpstr (expected, ==, got);
          }
      }
  return !g_str_has_prefix (expected, "events 0 ");
}

static void
test_every_trace (void)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint n_traces = 0;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return;
    }

  /* by the names the reader gives the files it opens (GFile's, with no
   * "..": the datasets folder is often given as ../shared/datasets) */
  {
    g_autofree char *root = g_canonicalize_filename (dir, NULL);

    dataset_files_collect_json (root, paths);
  }
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *contents = NULL;
      g_autofree guint8 *plain = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(SlTrace) from_file = NULL;
      g_autofree char *file_digest = NULL;
      g_autofree char *expected = NULL;
      gsize length, plain_length;

      g_test_message ("%s", path);
      g_assert_true (g_file_get_contents (path, &contents, &length, &error));
      g_assert_no_error (error);
      if (check_same (path, "whole", (const guint8 *) contents, length))
        n_traces++;

      /* the application's way: from the file, in parallel */
      from_file = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      file_digest = trace_digest (from_file);
      expected = digest_of (path, (const guint8 *) contents, length, 0, SL_CHROME_TRACE_READ_TOKENIZE);
      g_assert_cmpstr (expected, ==, file_digest);

      /* damage in the JSON: of the plain files (a damaged gzip stream
       * stops before the JSON, and is compared in the unit tests) */
      if (g_str_has_suffix (path, ".gz"))
        continue;
      plain_length = length;
      plain = g_memdup2 (contents, length);
      check_same (path, "cut at a third", plain, plain_length / 3);
      plain[plain_length / 2] = '#';
      check_same (path, "a bad byte in the middle", plain, plain_length);
      plain[plain_length / 2] = '"';
      check_same (path, "a quote in the middle", plain, plain_length);
    }
  g_test_message ("%u traces with events checked", n_traces);
  g_assert_cmpuint (n_traces, >=, MIN_TRACES);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/trace-split/every-trace", test_every_trace);

  return g_test_run ();
}
