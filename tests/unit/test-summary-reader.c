/* test-summary-reader.c: record framing, decoding and incremental reading
 *
 * Fixtures are written here, with SlSummaryWriter or by hand-encoding
 * events, into a temporary folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <sys/stat.h>
#endif

#include "mindspore_lineage.pb-c.h"
#include "mindspore_summary.pb-c.h"

#include "sl-crc32c.h"
#include "sl-dataset-graph-reader.h"
#include "sl-proto-nesting.h"
#include "sl-record-reader.h"
#include "sl-record-writer.h"
#include "sl-summary-reader.h"
#include "sl-summary-writer.h"

/* ------------------------------------------------------------------ */
/* Minimal protobuf wire encoding for hand-made events                 */
/* ------------------------------------------------------------------ */

static void
put_varint (GByteArray *out,
            guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

static void
put_key (GByteArray *out,
         guint       field,
         guint       wire_type)
{
  put_varint (out, (field << 3) | wire_type);
}

static void
put_double (GByteArray *out,
            guint       field,
            double      value)
{
  guint64 bits;
  guint8 bytes[8];

  memcpy (&bits, &value, 8);
  for (guint i = 0; i < 8; i++)
    bytes[i] = bits >> (8 * i);
  put_key (out, field, 1);
  g_byte_array_append (out, bytes, 8);
}

static void
put_float (GByteArray *out,
           guint       field,
           float       value)
{
  guint32 bits;
  guint8 bytes[4];

  memcpy (&bits, &value, 4);
  for (guint i = 0; i < 4; i++)
    bytes[i] = bits >> (8 * i);
  put_key (out, field, 5);
  g_byte_array_append (out, bytes, 4);
}

static void
put_bytes (GByteArray    *out,
           guint          field,
           gconstpointer  data,
           gsize          len)
{
  put_key (out, field, 2);
  put_varint (out, len);
  g_byte_array_append (out, data, len);
}

static void
put_message (GByteArray *out,
             guint       field,
             GByteArray *message)
{
  put_bytes (out, field, message->data, message->len);
}

/* A TensorBoard event: wall_time 1, step 2, summary 5 { value 1 { … } } */
static GByteArray *
tb_event (gint64      step,
          GByteArray *value)
{
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  GByteArray *event = g_byte_array_new ();

  put_message (summary, 1, value);
  put_double (event, 1, 1700000000.0 + step);
  put_key (event, 2, 0);
  put_varint (event, step);
  put_message (event, 5, summary);

  return event;
}

/* ------------------------------------------------------------------ */

static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("sl-summary-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR))
            remove_tree (child);
          else
            g_unlink (child);
        }
    }
  g_rmdir (path);
}

static void
append_file (const char   *path,
             const guint8 *data,
             gsize         len)
{
  FILE *f = fopen (path, "ab");

  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, len, f), ==, len);
  fclose (f);
}

static void
append_record (const char   *path,
               const guint8 *payload,
               gsize         len)
{
  g_autoptr(GBytes) frame = sl_record_frame (payload, len);
  gsize frame_len;
  const guint8 *data = g_bytes_get_data (frame, &frame_len);

  append_file (path, data, frame_len);
}

static SlSummaryRun *
update_single_run (SlSummaryReader *reader)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *runs;

  g_assert_true (sl_summary_reader_update (reader, NULL, &error));
  g_assert_no_error (error);
  runs = sl_summary_reader_get_runs (reader);
  g_assert_cmpuint (runs->len, ==, 1);
  return g_ptr_array_index (runs, 0);
}

static gint
find_tag (SlSummaryRun     *run,
          SlSummaryTagKind  kind,
          const char       *tag)
{
  gint index = sl_summary_run_find_tag (run, kind, tag);

  g_assert_cmpint (index, >=, 0);
  return index;
}

/* ------------------------------------------------------------------ */

static void
test_record_reader_memory (void)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(SlRecordReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *payload;
  gsize len;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = g_strdup_printf ("record %u", i);
      g_autoptr(GBytes) frame = sl_record_frame (text, strlen (text));

      g_byte_array_append (data, g_bytes_get_data (frame, NULL), g_bytes_get_size (frame));
    }
  /* and half a header */
  g_byte_array_append (data, (const guint8 *) "\x05\x00\x00\x00\x00", 5);

  stream = g_memory_input_stream_new_from_data (data->data, data->len, NULL);
  reader = sl_record_reader_new (stream, "memory", 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = g_strdup_printf ("record %u", i);

      g_assert_cmpint (sl_record_reader_next (reader, &payload, &len, NULL, &error), ==, SL_RECORD_STATUS_OK);
      g_assert_cmpmem (payload, len, text, strlen (text));
    }
  g_assert_cmpint (sl_record_reader_next (reader, &payload, &len, NULL, &error), ==, SL_RECORD_STATUS_END);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_record_reader_get_offset (reader), ==, 3 * (16 + 8));
  g_assert_cmpuint (sl_record_reader_get_tail_bytes (reader), ==, 5);
  g_assert_cmpuint (sl_record_reader_get_n_records (reader), ==, 3);
  g_assert_cmpuint (sl_record_reader_get_n_bad (reader), ==, 0);
  g_assert_null (sl_record_reader_get_problem (reader));
}

/* A record larger than the reader's buffer still comes out whole. */
static void
test_record_reader_large (void)
{
  gsize big = 9 * 1024 * 1024 + 7;
  g_autofree guint8 *payload_in = g_malloc (big);
  g_autoptr(GBytes) frame = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(SlRecordReader) reader = NULL;
  const guint8 *payload;
  gsize len;

  for (gsize i = 0; i < big; i++)
    payload_in[i] = i * 31;
  frame = sl_record_frame (payload_in, big);
  stream = g_memory_input_stream_new_from_bytes (frame);
  reader = sl_record_reader_new (stream, "memory", 0);
  g_assert_cmpint (sl_record_reader_next (reader, &payload, &len, NULL, NULL), ==, SL_RECORD_STATUS_OK);
  g_assert_cmpuint (len, ==, big);
  g_assert_true (memcmp (payload, payload_in, big) == 0);
  g_assert_cmpint (sl_record_reader_next (reader, &payload, &len, NULL, NULL), ==, SL_RECORD_STATUS_END);
}

static void
test_round_trip (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 1, 2, 3 };
  static const guint8 graph[] = { 0x12, 0x01, 'g' };  /* GraphProto { name: "g" } */
  g_autoptr(GBytes) png_bytes = g_bytes_new_static (png, sizeof png);
  g_autoptr(GBytes) graph_bytes = g_bytes_new_static (graph, sizeof graph);
  const double lefts[] = { -1, 0, 1 };
  const double widths[] = { 1, 1, 1 };
  const gint64 counts[] = { 2, 5, 3 };
  const gint64 dims[] = { 2, 3 };
  const float values[] = { 1, 2, 3, 4, 5, 6.5f };
  SlHistogramStats stats = { -1, 2, 4.5, 10, 1, 2, 3 };
  SlSummaryRun *run;
  SlScalarSeries *scalars;
  SlHistogramSeries *histograms;
  SlImageSeries *images;
  SlTensorSeries *tensors;
  const double *bucket_lefts, *bucket_widths, *bucket_counts;
  const gint64 *out_dims;
  const double *out_values;
  int width, height, colorspace;
  GBytes *encoded;
  GBytes *graph_out;

  writer = sl_summary_writer_new (dir, 1700000000, "host", &error);
  g_assert_no_error (error);
  for (gint64 step = 1; step <= 100; step++)
    {
      g_assert_true (sl_summary_writer_add_scalar (writer, step, 1700000000.0 + step, "loss", 1.0f / step, &error));
      g_assert_true (sl_summary_writer_add_scalar (writer, step, 1700000000.0 + step, "accuracy", step / 100.0f, &error));
    }
  for (gint64 step = 10; step <= 30; step += 10)
    {
      g_assert_true (sl_summary_writer_add_histogram (writer, step, 1700000100.0, "weights", &stats,
                                                      3, lefts, widths, counts, &error));
      g_assert_true (sl_summary_writer_add_image (writer, step, 1700000100.0, "input", 4, 3, 3, png_bytes, &error));
      g_assert_true (sl_summary_writer_add_tensor (writer, step, 1700000100.0, "logits", 2, dims, 6, values, &error));
    }
  g_assert_true (sl_summary_writer_add_graph (writer, 0, 1700000000.0, graph_bytes, &error));
  g_assert_true (sl_summary_writer_add_train_lineage (writer, 1700000200.0, "Momentum", 0.125f, "SoftmaxCrossEntropy",
                                                      10, 32, "ResNet", 0.5f, &error));
  g_assert_true (sl_summary_writer_add_eval_lineage (writer, 1700000300.0, "{\"accuracy\": 0.9}", "/data/val", 1000, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
  g_assert_no_error (error);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_cmpstr (sl_summary_run_get_name (run), ==, ".");
  g_assert_cmpuint (sl_summary_run_get_n_files (run), ==, 2);
  g_assert_cmpuint (sl_summary_run_get_n_bad_records (run), ==, 0);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);
  g_assert_cmpuint (sl_summary_run_get_n_tags (run), ==, 5);

  scalars = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (scalars), ==, 100);
  g_assert_cmpint (sl_scalar_series_get_steps (scalars)[99], ==, 100);
  g_assert_cmpfloat (sl_scalar_series_get_values (scalars)[3], ==, 0.25);
  g_assert_cmpfloat (sl_scalar_series_get_wall_times (scalars)[0], ==, 1700000001.0);

  histograms = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_HISTOGRAM, "weights"));
  g_assert_cmpuint (sl_histogram_series_get_n_points (histograms), ==, 3);
  g_assert_cmpuint (sl_histogram_series_get_buckets (histograms, 2, &bucket_lefts, &bucket_widths, &bucket_counts), ==, 3);
  g_assert_cmpfloat (bucket_lefts[0], ==, -1);
  g_assert_cmpfloat (bucket_widths[2], ==, 1);
  g_assert_cmpfloat (bucket_counts[1], ==, 5);
  g_assert_cmpfloat (sl_histogram_series_get_stats (histograms, 1)->sum, ==, 4.5);
  g_assert_cmpint (sl_histogram_series_get_stats (histograms, 1)->count, ==, 10);
  g_assert_cmpint (sl_histogram_series_get_stats (histograms, 1)->neg_inf_count, ==, 3);

  images = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_IMAGE, "input"));
  g_assert_cmpuint (sl_image_series_get_n_points (images), ==, 3);
  sl_image_series_get_image (images, 1, &width, &height, &colorspace, &encoded);
  g_assert_cmpint (width, ==, 4);
  g_assert_cmpint (height, ==, 3);
  g_assert_cmpint (colorspace, ==, 3);
  g_assert_true (g_bytes_equal (encoded, png_bytes));

  tensors = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_TENSOR, "logits"));
  g_assert_cmpuint (sl_tensor_series_get_n_points (tensors), ==, 3);
  g_assert_cmpuint (sl_tensor_series_get_dims (tensors, 0, &out_dims), ==, 2);
  g_assert_cmpint (out_dims[1], ==, 3);
  g_assert_cmpuint (sl_tensor_series_get_values (tensors, 2, &out_values), ==, 6);
  g_assert_cmpfloat (out_values[5], ==, 6.5);
  g_assert_cmpint (sl_tensor_series_get_dtype (tensors, 0), ==, 11);

  g_assert_cmpuint (sl_summary_run_get_graphs (run)->len, ==, 1);
  graph_out = ((SlSummaryBlob *) g_ptr_array_index (sl_summary_run_get_graphs (run), 0))->bytes;
  g_assert_true (g_bytes_equal (graph_out, graph_bytes));

  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "optimizer"), ==, "Momentum");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "learning_rate"), ==, "0.125");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "batch_size"), ==, "32");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "network"), ==, "ResNet");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "metric"), ==, "{\"accuracy\": 0.9}");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "valid_dataset_size"), ==, "1000");

  remove_tree (dir);
}

/* The offset after the first @n records of framed @data. */
static gsize
record_end (const char *data,
            gsize       len,
            guint       n)
{
  gsize offset = 0;

  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (offset + 12, <=, len);
      offset += 16 + (guint8) data[offset];
    }
  return offset;
}

/* A file that grows record by record, with a cut in the middle of one. */
static void
test_growing_file (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.1.host_MS", NULL);
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *complete = NULL;
  gsize complete_len;
  g_autofree char *scratch = g_build_filename (dir, "scratch", NULL);
  SlSummaryRun *run;
  SlSummaryFile *file;
  SlScalarSeries *series;
  gsize first_part;

  /* Write the whole file elsewhere, then feed it in pieces. */
  g_mkdir (scratch, 0700);
  writer = sl_summary_writer_new (scratch, 1, "host", &error);
  g_assert_no_error (error);
  for (gint64 step = 1; step <= 10; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, step, "loss", step, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
  g_assert_true (g_file_get_contents (sl_summary_writer_get_path (writer), &complete, &complete_len, &error));
  g_unlink (sl_summary_writer_get_path (writer));
  g_rmdir (scratch);

  /* version event + 5 scalars + 7 bytes into the sixth */
  first_part = record_end (complete, complete_len, 6) + 7;
  append_file (path, (const guint8 *) complete, first_part);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  file = sl_summary_run_get_file (run, 0);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 5);
  g_assert_cmpuint (file->tail_bytes, ==, 7);
  g_assert_cmpuint (file->offset, ==, first_part - 7);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);

  /* Three more bytes: still partial, still growing, still no problem. */
  append_file (path, (const guint8 *) complete + first_part, 3);
  run = update_single_run (reader);
  g_assert_true (file->growing);
  g_assert_cmpuint (file->tail_bytes, ==, 10);
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 5);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);

  /* The rest: everything is read, from the stored offset. */
  append_file (path, (const guint8 *) complete + first_part + 3, complete_len - first_part - 3);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 10);
  g_assert_cmpint (sl_scalar_series_get_steps (series)[9], ==, 10);
  g_assert_cmpuint (file->offset, ==, complete_len);
  g_assert_cmpuint (file->tail_bytes, ==, 0);
  g_assert_cmpuint (file->n_records, ==, 11);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);

  /* A partial record in a file that stopped growing is reported once. */
  append_file (path, (const guint8 *) complete, 20);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);
  run = update_single_run (reader);
  g_assert_false (file->growing);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_summary_run_get_problems (run), 0)), ==, complete_len);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 10);

  /* A new file in the run is picked up. */
  {
    g_autofree char *second = g_build_filename (dir, "events.out.events.summary.2.host_MS", NULL);
    g_autoptr(GByteArray) event = g_byte_array_new ();
    g_autoptr(GByteArray) value = g_byte_array_new ();
    g_autoptr(GByteArray) summary = g_byte_array_new ();

    put_bytes (value, 1, "loss", 4);
    put_float (value, 3, 42);
    put_message (summary, 1, value);
    put_double (event, 1, 99);
    put_key (event, 2, 0);
    put_varint (event, 11);
    put_message (event, 5, summary);
    append_record (second, event->data, event->len);
    run = update_single_run (reader);
    g_assert_cmpuint (sl_summary_run_get_n_files (run), ==, 2);
    g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 11);
    g_assert_cmpfloat (sl_scalar_series_get_values (series)[10], ==, 42);
  }

  remove_tree (dir);
}

static char *
write_scalar_file (const char *dir,
                   guint       n_steps,
                   gsize      *record_len)
{
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  char *path;

  writer = sl_summary_writer_new (dir, 7, "host", &error);
  g_assert_no_error (error);
  for (guint step = 1; step <= n_steps; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, step, "loss", step, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
  path = g_strdup (sl_summary_writer_get_path (writer));

  if (record_len != NULL)
    {
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      /* the scalar records all have the same size here (steps < 128) */
      *record_len = 12 + (contents[0] & 0xff) + 4;
    }
  return path;
}

static void
patch_file (const char *path,
            gsize       offset,
            guint8      xor)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (offset, <, len);
  contents[offset] ^= xor;
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
}

static void
test_bad_payload (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = write_scalar_file (dir, 20, NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autofree char *contents = NULL;
  gsize len, version_len, record_len, bad_offset;
  SlSummaryRun *run;
  SlScalarSeries *series;
  SlProblem *problem;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  version_len = 16 + (guint8) contents[0];
  record_len = (len - version_len) / 20;
  bad_offset = version_len + 4 * record_len;   /* step 5 */
  patch_file (path, bad_offset + 14, 0x40);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 19);
  g_assert_cmpint (sl_scalar_series_get_steps (series)[4], ==, 6);
  g_assert_cmpuint (sl_summary_run_get_n_bad_records (run), ==, 1);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, bad_offset);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->offset, ==, len);

  remove_tree (dir);
}

static void
test_bad_length (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = write_scalar_file (dir, 20, NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autofree char *contents = NULL;
  gsize len, version_len, record_len, bad_offset;
  SlSummaryRun *run;
  SlScalarSeries *series;
  SlProblem *problem;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  version_len = 16 + (guint8) contents[0];
  record_len = (len - version_len) / 20;
  bad_offset = version_len + 10 * record_len;   /* step 11 */
  patch_file (path, bad_offset + 9, 0x01);      /* the length's checksum */

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 10);
  g_assert_cmpuint (sl_summary_run_get_n_bad_records (run), ==, 1);
  g_assert_true (sl_summary_run_get_file (run, 0)->stopped);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, bad_offset);

  /* A stopped file is not read again. */
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);

  remove_tree (dir);
}

static void
test_oversize_length (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.3.host_MS", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  guint8 header[12];
  guint64 length = SL_RECORD_MAX_LENGTH + 1;
  guint32 masked;
  SlSummaryRun *run;
  SlProblem *problem;

  for (guint i = 0; i < 8; i++)
    header[i] = length >> (8 * i);
  masked = sl_crc32c_mask (sl_crc32c (header, 8));
  for (guint i = 0; i < 4; i++)
    header[8 + i] = masked >> (8 * i);
  append_file (path, header, sizeof header);
  append_file (path, (const guint8 *) "some bytes", 10);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_true (sl_summary_run_get_file (run, 0)->stopped);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "512 MiB"));
  g_assert_cmpint (sl_problem_get_offset (problem), ==, 0);

  remove_tree (dir);
}

static void
test_restart (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  const double lefts[] = { 0 }, widths[] = { 1 };
  const gint64 counts[] = { 1 };
  SlHistogramStats stats = { 0, 1, 0, 1, 0, 0, 0 };
  SlSummaryRun *run;
  SlScalarSeries *series;
  SlHistogramSeries *histograms;

  writer = sl_summary_writer_new (dir, 5, "host", &error);
  for (gint64 step = 1; step <= 10; step++)
    {
      g_assert_true (sl_summary_writer_add_scalar (writer, step, step, "loss", 1, &error));
      g_assert_true (sl_summary_writer_add_histogram (writer, step, step, "w", &stats, 1, lefts, widths, counts, &error));
    }
  /* the job restarts from a checkpoint at step 6 */
  for (gint64 step = 6; step <= 8; step++)
    {
      g_assert_true (sl_summary_writer_add_scalar (writer, step, 100 + step, "loss", 2, &error));
      g_assert_true (sl_summary_writer_add_histogram (writer, step, step, "w", &stats, 1, lefts, widths, counts, &error));
    }
  g_assert_true (sl_summary_writer_close (writer, &error));

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 8);
  g_assert_cmpint (sl_scalar_series_get_steps (series)[7], ==, 8);
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[4], ==, 1);
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[5], ==, 2);
  g_assert_cmpuint (sl_scalar_series_get_n_restarts (series), ==, 1);
  /* Steps 6 to 10 written before the restart were dropped; 6 to 8 written
   * after it are kept, as TensorBoard keeps them. */
  {
    gint64 from = 0, to = 0;

    g_assert_cmpuint (sl_scalar_series_get_n_dropped (series), ==, 5);
    g_assert_true (sl_scalar_series_get_last_restart (series, &from, &to));
    g_assert_cmpint (from, ==, 10);
    g_assert_cmpint (to, ==, 6);
    g_assert_cmpfloat (sl_scalar_series_get_wall_times (series)[5], ==, 106);
    g_assert_cmpfloat (sl_scalar_series_get_values (series)[7], ==, 2);
  }
  histograms = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_HISTOGRAM, "w"));
  g_assert_cmpuint (sl_histogram_series_get_n_points (histograms), ==, 8);
  g_assert_cmpuint (sl_histogram_series_get_n_restarts (histograms), ==, 1);

  remove_tree (dir);
}

/* TensorBoard: simple_value (PyTorch) and rank-0 tensors with plugin
 * "scalars" (TF2), whose metadata comes only with the first value. */
static void
test_tensorboard_scalars (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.tfevents.1700000000.host", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  SlSummaryRun *run;
  SlScalarSeries *series;

  {
    g_autoptr(GByteArray) event = g_byte_array_new ();

    put_double (event, 1, 1700000000.0);
    put_bytes (event, 3, "brain.Event:2", 13);
    append_record (path, event->data, event->len);
  }

  for (gint64 step = 0; step < 5; step++)
    {
      g_autoptr(GByteArray) simple = g_byte_array_new ();
      g_autoptr(GByteArray) tensor_value = g_byte_array_new ();
      g_autoptr(GByteArray) tensor = g_byte_array_new ();
      g_autoptr(GByteArray) shape = g_byte_array_new ();
      g_autoptr(GByteArray) metadata = g_byte_array_new ();
      g_autoptr(GByteArray) plugin = g_byte_array_new ();
      g_autoptr(GByteArray) event1 = NULL;
      g_autoptr(GByteArray) event2 = NULL;

      put_bytes (simple, 1, "torch/loss", 10);
      put_float (simple, 2, step * 0.5f);
      event1 = tb_event (step, simple);
      append_record (path, event1->data, event1->len);

      put_key (tensor, 1, 0);
      put_varint (tensor, 1);                   /* DT_FLOAT */
      put_message (tensor, 2, shape);           /* rank 0 */
      put_key (tensor, 5, 2);                   /* packed float_val */
      put_varint (tensor, 4);
      {
        float v = step * 2.0f;
        g_byte_array_append (tensor, (const guint8 *) &v, 4);
      }
      put_bytes (tensor_value, 1, "tf/loss", 7);
      if (step == 0)
        {
          put_bytes (plugin, 1, "scalars", 7);
          put_message (metadata, 1, plugin);
          put_message (tensor_value, 9, metadata);
        }
      put_message (tensor_value, 8, tensor);
      event2 = tb_event (step, tensor_value);
      append_record (path, event2->data, event2->len);
    }

  reader = sl_summary_reader_new (path);
  run = update_single_run (reader);
  g_assert_cmpint (sl_summary_run_get_file (run, 0)->kind, ==, SL_SUMMARY_FILE_TENSORBOARD);
  g_assert_cmpuint (sl_summary_run_get_n_tags (run), ==, 2);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "torch/loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 5);
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[3], ==, 1.5);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "tf/loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 5);
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[4], ==, 8);
  g_assert_cmpint (sl_scalar_series_get_steps (series)[4], ==, 4);

  remove_tree (dir);
}

/* Run discovery: nested folders are runs named by relative path, and
 * _lineage files belong to theirs. */
static void
test_discovery (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *a = g_build_filename (dir, "a", NULL);
  g_autofree char *b = g_build_filename (dir, "a", "b", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;
  GPtrArray *runs;
  SlSummaryRun *run;

  g_mkdir_with_parents (b, 0700);
  g_mkdir_with_parents (empty, 0700);
  path_a = write_scalar_file (a, 3, NULL);
  path_b = write_scalar_file (b, 4, NULL);
  {
    g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (b, 8, "host", &error);

    g_assert_true (sl_summary_writer_add_train_lineage (writer, 1, "Adam", 0.5f, "MSE", 1, 2, "Net", 0.25f, &error));
    g_assert_true (sl_summary_writer_close (writer, &error));
  }

  reader = sl_summary_reader_new (dir);
  g_assert_true (sl_summary_reader_update (reader, NULL, &error));
  g_assert_no_error (error);
  runs = sl_summary_reader_get_runs (reader);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpstr (sl_summary_run_get_name (g_ptr_array_index (runs, 0)), ==, "a");
  run = sl_summary_reader_lookup_run (reader, "a/b");
  g_assert_nonnull (run);
  g_assert_cmpuint (sl_summary_run_get_n_files (run), ==, 3);
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "optimizer"), ==, "Adam");
  g_assert_null (sl_summary_reader_lookup_run (reader, "empty"));

  remove_tree (dir);
}

static void
update_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_summary_reader_update_finish (SL_SUMMARY_READER (source), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_async_and_missing (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = write_scalar_file (dir, 5, NULL);
  g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (dir);
  g_autoptr(SlSummaryReader) missing = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing_path = g_build_filename (dir, "no-such-folder", NULL);
  gboolean done = FALSE;

  sl_summary_reader_update_async (reader, NULL, update_done, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (sl_summary_reader_get_runs (reader)->len, ==, 1);

  missing = sl_summary_reader_new (missing_path);
  g_assert_false (sl_summary_reader_update (missing, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

#ifdef G_OS_UNIX
  /* a FIFO is named as one, not as missing, and never opened */
  {
    g_autofree char *fifo = g_build_filename (dir, "events.summary.1", NULL);
    g_autofree char *expected = g_strdup_printf ("%s is not a regular file (a FIFO)", fifo);
    g_autoptr(SlSummaryReader) special = sl_summary_reader_new (fifo);

    g_clear_error (&error);
    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    g_assert_false (sl_summary_reader_update (special, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
    g_assert_cmpstr (error->message, ==, expected);
  }
#endif

  remove_tree (dir);
}

static void
follow_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_summary_reader_follow_finish (SL_SUMMARY_READER (source), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
follow (SlSummaryReader *reader)
{
  gboolean done = FALSE;

  sl_summary_reader_follow_async (reader, NULL, follow_done, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Following decodes in a worker into a copy and appends in the caller:
 * the series it keeps are the ones views hold, and what they end up with
 * is what one read of the whole file gives, restarts included. */
static void
test_follow (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *second = g_build_filename (dir, "second", NULL);
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(SlSummaryWriter) second_writer = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(SlSummaryReader) fresh = NULL;
  g_autoptr(GError) error = NULL;
  const double lefts[] = { 0 }, widths[] = { 1 };
  const gint64 counts[] = { 1 };
  SlHistogramStats stats = { 0, 1, 0, 1, 0, 0, 0 };
  SlSummaryRun *run, *fresh_run;
  SlScalarSeries *loss, *fresh_loss;
  guint64 offset;

  writer = sl_summary_writer_new (dir, 5, "host", &error);
  g_assert_no_error (error);
  for (gint64 step = 1; step <= 10; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, step, "loss", step, &error));
  g_assert_true (sl_summary_writer_flush (writer, &error));

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  loss = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  offset = sl_summary_run_get_file (run, 0)->offset;

  /* Nothing new: nothing changes. */
  follow (reader);
  g_assert_cmpuint (sl_scalar_series_get_n_points (loss), ==, 10);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->offset, ==, offset);

  /* More points, a restart at step 6, a new tag of another kind and a
   * new run in a subfolder. */
  for (gint64 step = 11; step <= 12; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, step, "loss", step, &error));
  for (gint64 step = 6; step <= 7; step++)
    {
      g_assert_true (sl_summary_writer_add_scalar (writer, step, 100 + step, "loss", -step, &error));
      g_assert_true (sl_summary_writer_add_histogram (writer, step, step, "w", &stats, 1, lefts, widths, counts, &error));
    }
  g_assert_true (sl_summary_writer_close (writer, &error));
  g_assert_cmpint (g_mkdir (second, 0755), ==, 0);
  second_writer = sl_summary_writer_new (second, 6, "host", &error);
  g_assert_true (sl_summary_writer_add_scalar (second_writer, 1, 1, "loss", 1, &error));
  g_assert_true (sl_summary_writer_close (second_writer, &error));

  follow (reader);
  g_assert_cmpuint (sl_summary_reader_get_runs (reader)->len, ==, 2);
  g_assert_true (sl_summary_reader_lookup_run (reader, ".") == run);
  g_assert_true (sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss")) == loss);
  g_assert_nonnull (sl_summary_reader_lookup_run (reader, "second"));

  fresh = sl_summary_reader_new (dir);
  g_assert_true (sl_summary_reader_update (fresh, NULL, &error));
  fresh_run = sl_summary_reader_lookup_run (fresh, ".");
  fresh_loss = sl_summary_run_get_tag_series (fresh_run, find_tag (fresh_run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (loss), ==, 7);
  g_assert_cmpuint (sl_scalar_series_get_n_points (fresh_loss), ==, 7);
  g_assert_cmpuint (sl_scalar_series_get_n_restarts (loss), ==, sl_scalar_series_get_n_restarts (fresh_loss));
  g_assert_cmpuint (sl_scalar_series_get_n_dropped (loss), ==, sl_scalar_series_get_n_dropped (fresh_loss));
  {
    gint64 from[2] = { -1, -1 }, to[2] = { -1, -1 };

    g_assert_true (sl_scalar_series_get_last_restart (loss, &from[0], &to[0]));
    g_assert_true (sl_scalar_series_get_last_restart (fresh_loss, &from[1], &to[1]));
    g_assert_cmpint (from[0], ==, from[1]);
    g_assert_cmpint (to[0], ==, to[1]);
  }
  for (guint i = 0; i < 7; i++)
    {
      g_assert_cmpint (sl_scalar_series_get_steps (loss)[i], ==, sl_scalar_series_get_steps (fresh_loss)[i]);
      g_assert_cmpfloat (sl_scalar_series_get_values (loss)[i], ==, sl_scalar_series_get_values (fresh_loss)[i]);
      g_assert_cmpfloat (sl_scalar_series_get_wall_times (loss)[i], ==, sl_scalar_series_get_wall_times (fresh_loss)[i]);
    }
  g_assert_cmpfloat (sl_scalar_series_get_values (loss)[6], ==, -7);
  g_assert_cmpuint (sl_histogram_series_get_n_points (sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_HISTOGRAM, "w"))),
                    ==, 2);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->offset, ==, sl_summary_run_get_file (fresh_run, 0)->offset);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, sl_summary_run_get_file (fresh_run, 0)->n_records);

  remove_tree (dir);
}

/* A record with intact checksums that is not an event is counted apart. */
static void
test_undecodable (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.4.host_MS", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  static const guint8 junk[] = { 0xff, 0xff, 0xff };
  SlSummaryRun *run;

  append_record (path, junk, sizeof junk);
  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_undecodable, ==, 1);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_bad, ==, 0);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);

  remove_tree (dir);
}

/* Several scalars in one event, and a scalar event with a field the fast
 * scalar path does not know (it must go through the full decoder). */
static void
test_scalar_event_shapes (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.5.host_MS", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GByteArray) event = g_byte_array_new ();
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  g_autoptr(GByteArray) other = g_byte_array_new ();
  g_autoptr(GByteArray) other_summary = g_byte_array_new ();
  SlSummaryRun *run;
  SlScalarSeries *series;

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GByteArray) value = g_byte_array_new ();
      g_autofree char *tag = g_strdup_printf ("t%u", i);

      put_bytes (value, 1, tag, strlen (tag));
      put_float (value, 3, i + 0.5f);
      put_message (summary, 1, value);
    }
  put_double (event, 1, 10);
  put_key (event, 2, 0);
  put_varint (event, 1);
  put_message (event, 5, summary);
  append_record (path, event->data, event->len);

  {
    g_autoptr(GByteArray) value = g_byte_array_new ();

    put_bytes (value, 1, "t0", 2);
    put_float (value, 3, 7);
    put_message (other_summary, 1, value);
  }
  put_double (other, 1, 11);
  put_key (other, 2, 0);
  put_varint (other, 2);
  put_key (other, 15, 0);   /* a field from a newer schema */
  put_varint (other, 1);
  put_message (other, 5, other_summary);
  append_record (path, other->data, other->len);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_n_tags (run), ==, 3);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "t2"));
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[0], ==, 2.5);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "t0"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 2);
  g_assert_cmpfloat (sl_scalar_series_get_values (series)[1], ==, 7);
  g_assert_cmpfloat (sl_scalar_series_get_wall_times (series)[1], ==, 11);

  remove_tree (dir);
}

static void
test_file_names (void)
{
  SlSummaryFileKind kind;
  guint64 number;

  g_assert_true (sl_summary_file_name_get_kind ("events.out.events.summary.1796008984.vm_MS", &kind, &number));
  g_assert_cmpint (kind, ==, SL_SUMMARY_FILE_MINDSPORE);
  g_assert_cmpuint (number, ==, 1796008984);
  g_assert_true (sl_summary_file_name_get_kind ("out.events.summary.17.vm_lineage", &kind, NULL));
  g_assert_cmpint (kind, ==, SL_SUMMARY_FILE_LINEAGE);
  g_assert_true (sl_summary_file_name_get_kind ("events.out.events.summary.17.vm_explain", &kind, NULL));
  g_assert_cmpint (kind, ==, SL_SUMMARY_FILE_EXPLAIN);
  g_assert_true (sl_summary_file_name_get_kind ("events.out.tfevents.1622543341.host.1.0", &kind, NULL));
  g_assert_cmpint (kind, ==, SL_SUMMARY_FILE_TENSORBOARD);
  g_assert_false (sl_summary_file_name_get_kind ("summary.txt", NULL, NULL));
  g_assert_false (sl_summary_file_name_get_kind ("flops_summary_0.json", NULL, NULL));
}

/* ------------------------------------------------------------------ */
/* Hostile nesting                                                     */
/* ------------------------------------------------------------------ */

#define HOSTILE_DEPTH 200000

static guint
varint_size (guint64 value)
{
  guint n = 1;

  while (value >= 0x80)
    {
      value >>= 7;
      n++;
    }
  return n;
}

/* The content of a message whose field @fields[0] holds a message whose
 * field @fields[1] holds ... (the fields taken in turn), @depth levels,
 * the last one @inner. Written outside in, with the lengths worked out
 * first, so that no level is copied. */
static GByteArray *
nest_fields (const guint  *fields,
             guint         n_fields,
             guint         depth,
             const guint8 *inner,
             gsize         inner_len)
{
  g_autofree guint64 *lengths = g_new (guint64, depth + 1);
  GByteArray *out = g_byte_array_new ();

  /* lengths[k]: the content of the level k steps out from @inner */
  lengths[0] = inner_len;
  for (guint k = 0; k < depth; k++)
    {
      guint field = fields[(depth - 1 - k) % n_fields];

      lengths[k + 1] = varint_size ((field << 3) | 2) + varint_size (lengths[k]) + lengths[k];
    }
  for (guint j = 0; j < depth; j++)
    {
      put_key (out, fields[j % n_fields], 2);
      put_varint (out, lengths[depth - 1 - j]);
    }
  if (inner_len > 0)
    g_byte_array_append (out, inner, inner_len);
  g_assert_cmpuint (out->len, ==, lengths[depth]);
  return out;
}

static GByteArray *
nest (guint         field,
      guint         depth,
      const guint8 *inner,
      gsize         inner_len)
{
  return nest_fields (&field, 1, depth, inner, inner_len);
}

static gsize
file_size (const char *path)
{
  GStatBuf buf;

  if (g_stat (path, &buf) != 0)
    return 0;
  return (gsize) buf.st_size;
}

/* UserDefinedInfo { map_str 4 { key 1, value 2 } } */
static GByteArray *
user_info_event (double      wall_time,
                 const char *key,
                 const char *value,
                 guint       depth)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();
  g_autoptr(GByteArray) leaf = g_byte_array_new ();
  g_autoptr(GByteArray) info = NULL;
  GByteArray *event = g_byte_array_new ();

  put_bytes (entry, 1, key, strlen (key));
  put_bytes (entry, 2, value, strlen (value));
  put_message (leaf, 4, entry);
  info = nest (1, depth, leaf->data, leaf->len);
  put_double (event, 1, wall_time);
  put_message (event, 10, info);
  return event;
}

static SlProblem *
find_problem (SlSummaryRun *run,
              const char   *text)
{
  GPtrArray *problems = sl_summary_run_get_problems (run);

  for (guint i = 0; i < problems->len; i++)
    if (strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), text) != NULL)
      return g_ptr_array_index (problems, i);
  return NULL;
}

/* The walker: the limit is inclusive, damage and unknown fields. */
static void
test_nesting_walker (void)
{
  static const guint8 cut[] = { 0x0a, 0x05, 0x0a };
  static const guint8 group[] = { 0x0b };
  static const guint8 unknown[] = { 0xfa, 0x01, 0x02, 0x0a, 0x00 };  /* field 31, opaque */
  g_autoptr(GByteArray) ok = nest (1, 64, NULL, 0);
  g_autoptr(GByteArray) deep = nest (1, 65, NULL, 0);
  g_autoptr(GByteArray) hostile = nest (1, HOSTILE_DEPTH, NULL, 0);
  const ProtobufCMessageDescriptor *info = &mindinsight__user_defined_info__descriptor;
  gsize at = 0;

  g_assert_cmpint (sl_proto_check_nesting (info, ok->data, ok->len, 64, &at), ==, SL_PROTO_NESTING_OK);
  g_assert_cmpint (sl_proto_check_nesting (info, deep->data, deep->len, 64, &at), ==, SL_PROTO_NESTING_TOO_DEEP);
  /* The 65th key: 64 two-byte or three-byte headers before it. */
  g_assert_cmpuint (at, <, deep->len);
  g_assert_cmpuint (deep->data[at], ==, 0x0a);
  g_assert_cmpint (sl_proto_check_nesting (info, hostile->data, hostile->len, 64, &at), ==, SL_PROTO_NESTING_TOO_DEEP);
  g_assert_cmpint (sl_proto_check_nesting (info, cut, sizeof cut, 64, &at), ==, SL_PROTO_NESTING_MALFORMED);
  g_assert_cmpuint (at, ==, 0);
  g_assert_cmpint (sl_proto_check_nesting (info, group, sizeof group, 64, &at), ==, SL_PROTO_NESTING_MALFORMED);
  g_assert_cmpint (sl_proto_check_nesting (info, unknown, sizeof unknown, 0, &at), ==, SL_PROTO_NESTING_OK);
  g_assert_cmpint (sl_proto_check_nesting (info, NULL, 0, 0, &at), ==, SL_PROTO_NESTING_OK);
}

/* A lineage record nesting user_info 200,000 deep is reported with its
 * offset and skipped; the records before and after it are kept. */
static void
test_deep_user_info (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.7.host_lineage", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GByteArray) before = user_info_event (1, "before", "kept", 3);
  g_autoptr(GByteArray) hostile = user_info_event (2, "hostile", "dropped", HOSTILE_DEPTH);
  /* The event is level 0, its UserDefinedInfo 1, then @depth more and
   * the map entry: this one reaches the limit exactly (and is read, if
   * only 16 levels of it are kept), the next passes it. */
  g_autoptr(GByteArray) limit = user_info_event (3, "limit", "kept", SL_SUMMARY_READER_MAX_NESTING - 2);
  g_autoptr(GByteArray) over = user_info_event (4, "over", "dropped", SL_SUMMARY_READER_MAX_NESTING);
  g_autoptr(GByteArray) after = user_info_event (5, "after", "kept", 0);
  SlSummaryRun *run;
  SlProblem *problem;
  gsize hostile_at, over_at;

  append_record (path, before->data, before->len);
  hostile_at = file_size (path);
  append_record (path, hostile->data, hostile->len);
  append_record (path, limit->data, limit->len);
  over_at = file_size (path);
  append_record (path, over->data, over->len);
  append_record (path, after->data, after->len);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, 5);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_undecodable, ==, 2);
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "before"), ==, "kept");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "after"), ==, "kept");
  g_assert_null (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "hostile"));
  g_assert_null (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "over"));

  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 2);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, hostile_at);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "levels deep"));
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 1);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, over_at);

  remove_tree (dir);
}

/* A dataset graph record nesting children 200,000 deep is not given to
 * protobuf-c: its bytes are kept as they are, and the iterative decoder
 * reads what it may of them. The lineage around it is kept. */
static void
test_deep_dataset_graph (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.8.host_lineage", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(SlDatasetGraph) graph = NULL;
  g_autoptr(GByteArray) children = nest (1, HOSTILE_DEPTH, NULL, 0);
  g_autoptr(GByteArray) event = g_byte_array_new ();
  g_autoptr(GByteArray) before = user_info_event (1, "before", "kept", 1);
  g_autoptr(GByteArray) after = user_info_event (3, "after", "kept", 1);
  GBytes *bytes;
  gsize stored_len;

  put_double (event, 1, 2);
  put_message (event, 9, children);
  append_record (path, before->data, before->len);
  append_record (path, event->data, event->len);
  append_record (path, after->data, after->len);

  reader = sl_summary_reader_new (dir);
  {
    SlSummaryRun *run = update_single_run (reader);

    g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_undecodable, ==, 0);
    g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "before"), ==, "kept");
    g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "after"), ==, "kept");
    bytes = sl_summary_run_get_dataset_graph (run);
    g_assert_nonnull (bytes);
    g_bytes_get_data (bytes, &stored_len);
    g_assert_cmpuint (stored_len, ==, children->len);
    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), stored_len, children->data, children->len);

    graph = sl_dataset_graph_reader_decode_bytes (path, bytes);
    g_assert_cmpuint (sl_dataset_graph_get_n_nodes (graph), ==, SL_DATASET_GRAPH_MAX_NODES);
    g_assert_cmpuint (g_list_model_get_n_items (sl_dataset_graph_get_problems (graph)), ==, 1);
  }

  remove_tree (dir);
}

/* Two occurrences of the dataset graph field are one merged message; a
 * user_defined_info after them replaces them, as the oneof has it. */
static void
test_dataset_graph_fields (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.9.host_lineage", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GByteArray) merged = g_byte_array_new ();
  g_autoptr(GByteArray) replaced = g_byte_array_new ();
  g_autoptr(GByteArray) no_time = g_byte_array_new ();
  g_autoptr(GByteArray) first = nest (1, 2, NULL, 0);
  g_autoptr(GByteArray) second = nest (1, 1, NULL, 0);
  g_autoptr(GByteArray) info = nest (1, 1, NULL, 0);
  SlSummaryRun *run;
  GBytes *bytes;
  gsize len;
  const guint8 *data;

  put_double (merged, 1, 1);
  put_message (merged, 9, first);
  put_key (merged, 2, 0);
  put_varint (merged, 7);
  put_message (merged, 9, second);
  append_record (path, merged->data, merged->len);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  bytes = sl_summary_run_get_dataset_graph (run);
  g_assert_nonnull (bytes);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpuint (len, ==, first->len + second->len);
  g_assert_cmpmem (data, first->len, first->data, first->len);
  g_assert_cmpmem (data + first->len, second->len, second->data, second->len);

  /* Replaced by another member: the stored graph stays the last one. */
  put_double (replaced, 1, 2);
  put_message (replaced, 9, second);
  put_message (replaced, 10, info);
  append_record (path, replaced->data, replaced->len);
  /* No wall_time, which is required: not an event. */
  put_message (no_time, 9, second);
  append_record (path, no_time->data, no_time->len);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_undecodable, ==, 1);
  bytes = sl_summary_run_get_dataset_graph (run);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, first->len + second->len);

  remove_tree (dir);
}

/* MindSpore events: a scalar, step @step. */
static GByteArray *
ms_scalar_event (gint64 step,
                 float  value)
{
  g_autoptr(GByteArray) scalar = g_byte_array_new ();
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  GByteArray *event = g_byte_array_new ();

  put_bytes (scalar, 1, "loss", 4);
  put_float (scalar, 3, value);
  put_message (summary, 1, scalar);
  put_double (event, 1, 1700000000.0 + step);
  put_key (event, 2, 0);
  put_varint (event, step);
  put_message (event, 5, summary);
  return event;
}

/* Event { graph_def 4 { node 1 { @node_field: @chain } } } */
static GByteArray *
ms_graph_event (guint       node_field,
                GByteArray *chain)
{
  g_autoptr(GByteArray) node = g_byte_array_new ();
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  GByteArray *event = g_byte_array_new ();

  put_bytes (node, 2, "n", 1);
  put_message (node, node_field, chain);
  put_message (graph, 1, node);
  put_double (event, 1, 1700000000.0);
  put_message (event, 4, graph);
  return event;
}

/* Summary graphs whose attribute value nests ValueProto.values, or whose
 * output type nests TypeProto.sequence_type, 200,000 deep are reported
 * and skipped; the scalars around them and a graph at the limit are kept. */
static void
test_deep_graph_value (void)
{
  static const guint type_fields[] = { 3, 1 };   /* sequence_type → elem_types → ... */
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.10.host_MS", NULL);
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GByteArray) values = nest (18, HOSTILE_DEPTH, NULL, 0);
  g_autoptr(GByteArray) types = nest_fields (type_fields, 2, HOSTILE_DEPTH, NULL, 0);
  /* Event 0, GraphProto 1, NodeProto 2, TypeProto 3: 61 more levels fit. */
  g_autoptr(GByteArray) fits = nest_fields (type_fields, 2, SL_SUMMARY_READER_MAX_NESTING - 3, NULL, 0);
  g_autoptr(GByteArray) value_attr = g_byte_array_new ();
  g_autoptr(GByteArray) value_event = NULL;
  g_autoptr(GByteArray) type_event = ms_graph_event (6, types);
  g_autoptr(GByteArray) fits_event = ms_graph_event (6, fits);
  g_autoptr(GByteArray) first = ms_scalar_event (1, 0.5f);
  g_autoptr(GByteArray) last = ms_scalar_event (2, 0.25f);
  SlSummaryRun *run;
  SlScalarSeries *series;
  gsize value_at, type_at;

  put_bytes (value_attr, 1, "shape", 5);
  put_message (value_attr, 2, values);
  value_event = ms_graph_event (5, value_attr);

  append_record (path, first->data, first->len);
  value_at = file_size (path);
  append_record (path, value_event->data, value_event->len);
  type_at = file_size (path);
  append_record (path, type_event->data, type_event->len);
  append_record (path, fits_event->data, fits_event->len);
  append_record (path, last->data, last->len);

  reader = sl_summary_reader_new (dir);
  run = update_single_run (reader);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_undecodable, ==, 2);
  g_assert_cmpuint (sl_summary_run_get_graphs (run)->len, ==, 1);
  series = sl_summary_run_get_tag_series (run, find_tag (run, SL_SUMMARY_TAG_SCALAR, "loss"));
  g_assert_cmpuint (sl_scalar_series_get_n_points (series), ==, 2);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 2);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_summary_run_get_problems (run), 0)), ==, value_at);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_summary_run_get_problems (run), 1)), ==, type_at);
  g_assert_nonnull (find_problem (run, "levels deep"));

  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/summary/record-reader/memory", test_record_reader_memory);
  g_test_add_func ("/summary/record-reader/large", test_record_reader_large);
  g_test_add_func ("/summary/file-names", test_file_names);
  g_test_add_func ("/summary/round-trip", test_round_trip);
  g_test_add_func ("/summary/growing-file", test_growing_file);
  g_test_add_func ("/summary/bad-payload", test_bad_payload);
  g_test_add_func ("/summary/bad-length", test_bad_length);
  g_test_add_func ("/summary/oversize-length", test_oversize_length);
  g_test_add_func ("/summary/restart", test_restart);
  g_test_add_func ("/summary/tensorboard-scalars", test_tensorboard_scalars);
  g_test_add_func ("/summary/discovery", test_discovery);
  g_test_add_func ("/summary/async-and-missing", test_async_and_missing);
  g_test_add_func ("/summary/follow", test_follow);
  g_test_add_func ("/summary/undecodable", test_undecodable);
  g_test_add_func ("/summary/scalar-event-shapes", test_scalar_event_shapes);
  g_test_add_func ("/summary/nesting/walker", test_nesting_walker);
  g_test_add_func ("/summary/nesting/user-info", test_deep_user_info);
  g_test_add_func ("/summary/nesting/dataset-graph", test_deep_dataset_graph);
  g_test_add_func ("/summary/nesting/dataset-graph-fields", test_dataset_graph_fields);
  g_test_add_func ("/summary/nesting/graph-value", test_deep_graph_value);

  return g_test_run ();
}
