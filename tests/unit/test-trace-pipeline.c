/* test-trace-pipeline.c: a Chrome trace file read through the pipeline
 * (one thread reading and inflating, workers scanning parts, the reader
 * building them in file order) gives the trace that yajl alone gives
 *
 * The files are larger than what is read whole in the calling thread, so
 * they take the pipeline: plain and gzip (stored blocks, so the gzip file
 * is as large as its text), cut at every boundary of the pieces read
 * (and a byte either side), damaged in the gzip stream, holding damaged
 * JSON, cancelled in the middle, with progress reaching the end; and the
 * small files read whole in the calling thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "sl-chrome-trace-reader.h"
#include "trace-digest.h"

/* the pieces the reading thread reads (CHUNK_SIZE in the reader) */
#define PIECE (1 << 19)

/* where the files are written; problems name it, so the reference is
 * read under the same name */
static char *test_path;

/* About 5.5 MB of varied events: past the size read whole. */
static GString *
big_trace (void)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n");

  for (guint i = 0; i < 60000; i++)
    {
      if (i > 0)
        g_string_append (text, ",\n");
      switch (i % 5)
        {
        case 0:
          g_string_append_printf (text, "{\"ph\":\"X\",\"cat\":\"c%u\",\"name\":\"op%u\",\"pid\":%u,\"tid\":%u,\"ts\":%u.%03u,\"dur\":2,\"args\":{\"i\":[%u,{\"k\":\"}, {\"}]}}",
                                  i % 3, i % 11, i % 2, i % 4, i, i % 1000, i);
          break;
        case 1:
          g_string_append_printf (text, "{\"name\":\"es\\\"c%u\",\"ph\":\"i\",\"pid\":\"%u\",\"tid\":%u,\"ts\":%u}",
                                  i % 13, i % 2, i % 4, i);
          break;
        case 2:
          g_string_append_printf (text, "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":%u,\"args\":{\"a\":%u,\"b\":2.5}}", i, i % 100);
          break;
        case 3:
          g_string_append_printf (text, "{\"ph\":\"s\",\"id\":%u,\"name\":\"flow\",\"cat\":\"f\",\"pid\":0,\"tid\":1,\"ts\":%u},"
                                  "{\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"name\":\"flow\",\"cat\":\"f\",\"pid\":1,\"tid\":2,\"ts\":%u}",
                                  i, i, i, i + 1);
          break;
        default:
          g_string_append_printf (text, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"t%u\"}}",
                                  i % 2, i % 4, i % 17);
          break;
        }
    }
  g_string_append (text, "\n]}\n");
  g_assert_cmpuint (text->len, >, 10 * PIECE);
  return text;
}

/* @text as gzip with stored blocks: as large as the text, and every byte
 * of the deflate stream where it was in the text, give or take a header. */
static GBytes *
gzip_stored (const char *text,
             gsize       length)
{
  z_stream z = { 0 };
  gsize bound;
  guint8 *out;

  g_assert_cmpint (deflateInit2 (&z, Z_NO_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  bound = deflateBound (&z, length) + 64;
  out = g_malloc (bound);
  z.next_in = (Bytef *) text;
  z.avail_in = length;
  z.next_out = out;
  z.avail_out = bound;
  g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
  bound = z.total_out;
  deflateEnd (&z);
  return g_bytes_new_take (out, bound);
}

/* yajl alone, the whole data in memory: the reference. */
static char *
reference_digest (const guint8 *data,
                  gsize         length)
{
  SlTraceBuilder *builder = sl_trace_builder_new (test_path);
  g_autoptr(SlTrace) trace = NULL;

  sl_chrome_trace_reader_read_data_full (builder, test_path, data, length, NULL, 0, SL_CHROME_TRACE_READ_TOKENIZE);
  trace = sl_trace_builder_finish (builder, NULL);
  return trace_digest (trace);
}

static void
check_progress (guint64  bytes_read,
                guint64  total_bytes,
                gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (bytes_read, >, *last);
  g_assert_cmpuint (bytes_read, <=, total_bytes);
  *last = bytes_read;
}

/* The file holding @data, read through the pipeline; with @to_the_end,
 * progress must reach the end (not where damage stops the reading). */
static char *
file_digest (const guint8 *data,
             gsize         length,
             gboolean      to_the_end)
{
  const char *path = test_path;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  SlTraceBuilder *builder;
  guint64 last = 0;

  g_assert_true (g_file_set_contents (path, (const char *) data, length, NULL));
  builder = sl_trace_builder_new (path);
  g_assert_true (sl_chrome_trace_reader_read_into (builder, file, NULL, check_progress, &last, NULL, &error));
  g_assert_no_error (error);
  if (to_the_end)
    g_assert_cmpuint (last, ==, length);
  trace = sl_trace_builder_finish (builder, NULL);
  g_unlink (path);
  return trace_digest (trace);
}

static void
assert_same_full (const guint8 *data,
                  gsize         length,
                  const char   *what,
                  gboolean      to_the_end)
{
  g_autofree char *expected = reference_digest (data, length);
  g_autofree char *got = file_digest (data, length, to_the_end);

  if (g_strcmp0 (expected, got) != 0)
    {
      g_printerr ("%s (%" G_GSIZE_FORMAT " bytes)\n", what, length);
      g_assert_cmpstr (expected, ==, got);
    }
}

static void
assert_same (const guint8 *data,
             gsize         length,
             const char   *what)
{
  assert_same_full (data, length, what, TRUE);
}

static void
test_plain_whole (void)
{
  g_autoptr(GString) text = big_trace ();

  assert_same ((const guint8 *) text->str, text->len, "plain");
}

static void
test_gzip_cut_at_every_piece (void)
{
  g_autoptr(GString) text = big_trace ();
  g_autoptr(GBytes) gz = gzip_stored (text->str, text->len);
  gsize length;
  const guint8 *data = g_bytes_get_data (gz, &length);

  assert_same (data, length, "gzip whole");
  for (gsize boundary = PIECE; boundary < length; boundary += PIECE)
    for (int delta = -1; delta <= 1; delta++)
      {
        g_autofree char *what = g_strdup_printf ("gzip cut at %" G_GSIZE_FORMAT, boundary + delta);

        assert_same (data, boundary + delta, what);
      }
}

static void
test_plain_cut_at_every_piece (void)
{
  g_autoptr(GString) text = big_trace ();

  for (gsize boundary = 9 * PIECE; boundary < text->len; boundary += PIECE)
    for (int delta = -1; delta <= 1; delta++)
      {
        g_autofree char *what = g_strdup_printf ("plain cut at %" G_GSIZE_FORMAT, boundary + delta);

        assert_same ((const guint8 *) text->str, boundary + delta, what);
      }
}

/* Offsets of the stored blocks' length fields (LEN, NLEN) in @data. */
static GArray *
stored_block_lengths (const guint8 *data,
                      gsize         length)
{
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize at = 10;  /* after the gzip header, which names no file */

  /* stored blocks: a header byte (BFINAL, BTYPE 00, padding), LEN, NLEN */
  while (at + 5 <= length)
    {
      gboolean final = data[at] & 1;
      gsize block = data[at + 1] | (data[at + 2] << 8);
      gsize len_at = at + 1;

      g_assert_cmpuint ((data[at] >> 1) & 3, ==, 0);
      g_array_append_val (offsets, len_at);
      at += 5 + block;
      if (final)
        break;
    }
  return offsets;
}

static void
test_damaged_gzip (void)
{
  g_autoptr(GString) text = big_trace ();
  g_autoptr(GBytes) gz = gzip_stored (text->str, text->len);
  gsize length;
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (gz, &length), g_bytes_get_size (gz));
  g_autoptr(GArray) blocks = stored_block_lengths (data, length);
  guint n_damaged = 0;

  g_assert_cmpuint (blocks->len, >, 20);
  /* a block's NLEN that is not LEN's complement, in the middle, near a
   * piece boundary and near the end; then the CRC at the end */
  for (guint i = 0; i < blocks->len; i += blocks->len / 7)
    {
      gsize at = g_array_index (blocks, gsize, i) + 2;
      g_autofree char *what = g_strdup_printf ("gzip damaged at %" G_GSIZE_FORMAT, at);
      g_autofree char *got = NULL;

      data[at] ^= 0x5a;
      assert_same_full (data, length, what, FALSE);
      got = file_digest (data, length, FALSE);
      g_assert_nonnull (strstr (got, "gzip data is damaged"));
      data[at] ^= 0x5a;
      n_damaged++;
    }
  g_assert_cmpuint (n_damaged, >=, 7);

  data[length - 6] ^= 0x01;  /* the CRC */
  assert_same (data, length, "gzip with a bad CRC");
}

static void
test_gzip_of_damaged_json (void)
{
  g_autoptr(GString) text = big_trace ();

  /* damage in the JSON at three places: early, across a piece boundary
   * of the compressed file, late */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GString) damaged = g_string_new_len (text->str, text->len);
      gsize at = i == 0 ? 1000 : i == 1 ? 4 * PIECE - 3 : text->len - 5000;
      g_autoptr(GBytes) gz = NULL;
      gsize length;
      const guint8 *data;
      g_autofree char *what = g_strdup_printf ("gzip of JSON damaged at %" G_GSIZE_FORMAT, at);
      g_autofree char *expected = NULL;

      memcpy (damaged->str + at, "#\"[", 3);
      gz = gzip_stored (damaged->str, damaged->len);
      data = g_bytes_get_data (gz, &length);
      assert_same_full (data, length, what, FALSE);
      expected = reference_digest (data, length);
      g_assert_nonnull (strstr (expected, "JSON is damaged"));
      /* and the same text plain */
      assert_same_full ((const guint8 *) damaged->str, damaged->len, what, FALSE);
    }
}

/* Files read whole in the calling thread (plain, up to a few MB) and
 * small gzip files (through the pipeline still) read as yajl reads them. */
static void
test_small_files (void)
{
  g_autoptr(GString) text = big_trace ();
  const gsize lengths[] = { 1, 3 * PIECE + 17, 8 * PIECE - 1, 8 * PIECE, 8 * PIECE + 1 };

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autoptr(GBytes) gz = gzip_stored (text->str, lengths[i]);
      gsize length;
      const guint8 *data = g_bytes_get_data (gz, &length);
      g_autofree char *what = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", lengths[i]);

      assert_same ((const guint8 *) text->str, lengths[i], what);
      assert_same (data, length, what);
    }
}

static void
cancel_at_first (guint64  bytes_read,
                 guint64  total_bytes,
                 gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_assert_cmpuint (bytes_read, <, total_bytes);
  g_cancellable_cancel (cancellable);
}

static void
test_cancel_in_the_middle (void)
{
  g_autoptr(GString) text = big_trace ();
  g_autoptr(GBytes) gz = gzip_stored (text->str, text->len);
  g_autofree char *dir = g_dir_make_tmp ("sl-test-pipeline-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.json", NULL);
  g_autofree char *gz_path = g_build_filename (dir, "t.json.gz", NULL);
  const char *paths[] = { path, gz_path };

  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  g_assert_true (g_file_set_contents (gz_path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz), NULL));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      SlTraceBuilder *builder = sl_trace_builder_new (paths[i]);

      g_assert_false (sl_chrome_trace_reader_read_into (builder, file, NULL, cancel_at_first, cancellable,
                                                        cancellable, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      sl_trace_builder_free (builder);
    }
  g_unlink (path);
  g_unlink (gz_path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("sl-test-pipeline-XXXXXX", NULL);
  g_assert_nonnull (dir);
  test_path = g_build_filename (dir, "t.json", NULL);
  g_test_add_func ("/trace-pipeline/plain", test_plain_whole);
  g_test_add_func ("/trace-pipeline/plain-cut", test_plain_cut_at_every_piece);
  g_test_add_func ("/trace-pipeline/gzip-cut", test_gzip_cut_at_every_piece);
  g_test_add_func ("/trace-pipeline/damaged-gzip", test_damaged_gzip);
  g_test_add_func ("/trace-pipeline/gzip-of-damaged-json", test_gzip_of_damaged_json);
  g_test_add_func ("/trace-pipeline/small", test_small_files);
  g_test_add_func ("/trace-pipeline/cancel", test_cancel_in_the_middle);
  status = g_test_run ();
  g_rmdir (dir);
  g_free (test_path);
  return status;
}
