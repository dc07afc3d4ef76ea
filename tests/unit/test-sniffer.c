/* test-sniffer.c: content sniffing, TFRecord checks and .npy headers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <zlib.h>

#include "sl-npy-header.h"
#include "sl-record-writer.h"
#include "sl-sniffer.h"

static SlSniffResult *
sniff_string (const char *text)
{
  return sl_sniffer_sniff_data ((const guint8 *)text, strlen (text), strlen (text));
}

static GBytes *
gzip_compress (const void *data,
               gsize       len)
{
  z_stream zs = { 0 };
  gsize cap = compressBound (len) + 64;
  guint8 *out = g_malloc (cap);

  g_assert_cmpint (deflateInit2 (&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  zs.next_in = (Bytef *)data;
  zs.avail_in = len;
  zs.next_out = out;
  zs.avail_out = cap;
  g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&zs);

  return g_bytes_new_take (out, zs.total_out);
}

/* A .npy preamble for version 1 around @dict, padded like NumPy does */
static GByteArray *
make_npy (const char *dict)
{
  GByteArray *bytes = g_byte_array_new ();
  gsize dict_len = strlen (dict);
  gsize total = 10 + dict_len + 1;
  gsize padded = (total + 63) / 64 * 64;
  guint16 header_len = padded - 10;
  guint8 le[2] = { header_len & 0xff, header_len >> 8 };

  g_byte_array_append (bytes, (const guint8 *)"\x93NUMPY\x01\x00", 8);
  g_byte_array_append (bytes, le, 2);
  g_byte_array_append (bytes, (const guint8 *)dict, dict_len);
  while (bytes->len < padded - 1)
    g_byte_array_append (bytes, (const guint8 *)" ", 1);
  g_byte_array_append (bytes, (const guint8 *)"\n", 1);

  return bytes;
}

static SlNpyHeader *
parse_npy (const char  *dict,
           gint64      *offset,
           GError     **error)
{
  g_autoptr(GByteArray) bytes = make_npy (dict);

  return sl_npy_header_parse (bytes->data, bytes->len, offset, error);
}

static void
test_npy_simple (void)
{
  g_autoptr(SlNpyHeader) header = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shape = NULL;
  guint64 size;

  header = parse_npy ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (header->descr, ==, "<f4");
  g_assert_false (header->fortran_order);
  g_assert_false (header->structured);
  g_assert_cmpuint (header->n_dims, ==, 2);
  g_assert_cmpuint (header->shape[0], ==, 2);
  g_assert_cmpuint (header->shape[1], ==, 3);
  g_assert_cmpuint (header->data_offset, ==, 128);
  g_assert_cmpuint (header->item_size, ==, 4);
  g_assert_true (sl_npy_header_get_data_size (header, &size));
  g_assert_cmpuint (size, ==, 24);
  shape = sl_npy_header_dup_shape (header);
  g_assert_cmpstr (shape, ==, "(2, 3)");
}

static void
test_npy_variants (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlNpyHeader) scalar = NULL;
  g_autoptr(SlNpyHeader) vector = NULL;
  g_autoptr(SlNpyHeader) structured = NULL;
  g_autoptr(SlNpyHeader) v2 = NULL;
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *shape = NULL;
  guint8 le[4];
  const char *dict = "{\"shape\": [5], \"fortran_order\": True, \"descr\": \"|u1\"}";

  scalar = parse_npy ("{'descr': '<c16', 'fortran_order': False, 'shape': ()}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (scalar->n_dims, ==, 0);
  g_assert_cmpuint (scalar->item_size, ==, 16);
  shape = sl_npy_header_dup_shape (scalar);
  g_assert_cmpstr (shape, ==, "()");
  g_clear_pointer (&shape, g_free);

  vector = parse_npy ("{'descr': '<U10', 'fortran_order': True, 'shape': (4L,), }", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (vector->fortran_order);
  g_assert_cmpuint (vector->item_size, ==, 40);
  shape = sl_npy_header_dup_shape (vector);
  g_assert_cmpstr (shape, ==, "(4,)");

  structured = parse_npy ("{'descr': [('x', '<f4'), ('y', '<i8', (2,))], 'fortran_order': False, 'shape': (3,), }", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (structured->structured);
  g_assert_cmpuint (structured->item_size, ==, 0);
  g_assert_true (g_str_has_prefix (structured->descr, "[('x'"));

  /* Version 2 has a 32-bit header length */
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, (const guint8 *)"\x93NUMPY\x02\x00", 8);
  for (guint i = 0; i < 4; i++)
    le[i] = (strlen (dict) >> (8 * i)) & 0xff;
  g_byte_array_append (bytes, le, 4);
  g_byte_array_append (bytes, (const guint8 *)dict, strlen (dict));
  v2 = sl_npy_header_parse (bytes->data, bytes->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (v2->major_version, ==, 2);
  g_assert_cmpuint (v2->data_offset, ==, 12 + strlen (dict));
  g_assert_cmpstr (v2->descr, ==, "|u1");
  g_assert_cmpuint (v2->shape[0], ==, 5);
}

static void
test_npy_refused (void)
{
  g_autoptr(GError) error = NULL;
  gint64 offset = -1;
  SlNpyHeader *header;

  header = parse_npy ("{'descr': '|O', 'fortran_order': False, 'shape': (4,), }", &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_cmpint (offset, ==, 10);
  g_clear_error (&error);

  header = parse_npy ("{'descr': [('a', '<f4'), ('b', '|O')], 'fortran_order': False, 'shape': (4,), }", &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* 'shape' is broken at byte 10 + 44 */
  header = parse_npy ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpint (offset, ==, 10 + strlen ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, "));
  g_clear_error (&error);

  header = parse_npy ("{'descr': '<f4', 'shape': (2,)}", &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  header = parse_npy ("['descr', '<f4']", &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpint (offset, ==, 10);
  g_clear_error (&error);

  /* Cut off inside the header */
  header = sl_npy_header_parse ((const guint8 *)"\x93NUMPY\x01\x00\x76\x00{'descr'", 18, &offset, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
  g_assert_cmpint (offset, ==, 18);
  g_clear_error (&error);

  /* A 4 GiB header claim is refused before anything is read */
  header = sl_npy_header_parse ((const guint8 *)"\x93NUMPY\x02\x00\xff\xff\xff\xff{", 13, NULL, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);

  header = sl_npy_header_parse ((const guint8 *)"\x93NUMPY\x09\x00\x10\x00", 10, NULL, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  header = sl_npy_header_parse ((const guint8 *)"PK\x03\x04", 4, NULL, &error);
  g_assert_null (header);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_json_traces (void)
{
  g_autoptr(SlSniffResult) object = sniff_string ("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}], \"displayTimeUnit\": \"ms\"}");
  g_autoptr(SlSniffResult) array = sniff_string ("\xEF\xBB\xBF  [{\"name\": \"a\", \"ph\": \"B\", \"pid\": 1, \"ts\": 0}]");
  g_autoptr(SlSniffResult) unclosed = sniff_string ("[{\"name\": \"a\", \"ph\": \"B\", \"ts\": NaN},\n");
  g_autoptr(SlSniffResult) kineto = sniff_string ("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0}], \"distributedInfo\": {\"rank\": 3}}");
  g_autoptr(SlSniffResult) config = sniff_string ("{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {}}");

  g_assert_cmpint (object->kind, ==, SL_SNIFF_TRACE);
  g_assert_cmpint (object->json_root, ==, SL_JSON_ROOT_OBJECT);
  g_assert_null (object->error_message);
  g_assert_cmpuint (object->json_keys->len, ==, 2);
  g_assert_cmpstr (sl_sniff_result_lookup_json (object, "displayTimeUnit"), ==, "ms");

  g_assert_cmpint (array->kind, ==, SL_SNIFF_TRACE);
  g_assert_cmpint (array->json_root, ==, SL_JSON_ROOT_ARRAY);
  g_assert_null (array->error_message);

  /* Chrome accepts an array trace without its closing bracket */
  g_assert_cmpint (unclosed->kind, ==, SL_SNIFF_TRACE);
  g_assert_null (unclosed->error_message);

  g_assert_cmpint (kineto->kind, ==, SL_SNIFF_TRACE);

  g_assert_cmpint (config->kind, ==, SL_SNIFF_JSON);
  g_assert_cmpstr (sl_sniff_result_lookup_json (config, "task"), ==, "statistics");
  g_assert_cmpstr (sl_sniff_result_lookup_json (config, "level"), ==, "L1");
  g_assert_null (sl_sniff_result_lookup_json (config, "data"));
  g_assert_true (sl_sniff_result_has_json_key (config, "data"));
}

/* A head that ends inside metadata written before "traceEvents" does not
 * decide; sl_sniffer_sniff_file() reads on. */
static void
test_json_undecided (void)
{
  g_autoptr(GString) text = g_string_new ("{\"metadata\": {\"hosts\": [");
  g_autoptr(SlSniffResult) head = NULL;
  g_autoptr(SlSniffResult) whole = NULL;
  g_autoptr(SlSniffResult) config = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (text, "\"host-%u\", ", i);
  g_string_append (text, "null]}, \"traceEvents\": [{\"ph\": \"X\", \"ts\": 1}]}");
  g_assert_cmpuint (text->len, >, SL_SNIFFER_HEAD_SIZE);

  head = sl_sniffer_sniff_data ((const guint8 *)text->str, SL_SNIFFER_HEAD_SIZE, text->len);
  g_assert_cmpint (head->kind, ==, SL_SNIFF_JSON);
  g_assert_true (head->trace_undecided);
  g_assert_null (head->error_message);

  whole = sl_sniffer_sniff_data ((const guint8 *)text->str, text->len, text->len);
  g_assert_cmpint (whole->kind, ==, SL_SNIFF_TRACE);
  g_assert_false (whole->trace_undecided);

  /* A whole object without trace keys is decided */
  config = sniff_string ("{\"metadata\": {\"a\": 1}, \"events\": []}");
  g_assert_cmpint (config->kind, ==, SL_SNIFF_JSON);
  g_assert_false (config->trace_undecided);
}

static void
test_json_broken (void)
{
  const char *cut = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1";
  const char *bad = "{\"traceEvents\": [{\"ph\": \"X\", @}]}";
  g_autoptr(SlSniffResult) cut_result = sniff_string (cut);
  g_autoptr(SlSniffResult) bad_result = sniff_string (bad);
  g_autoptr(SlSniffResult) window = NULL;
  g_autoptr(SlSniffResult) deep = NULL;
  g_autoptr(SlSniffResult) trailing = sniff_string ("[{\"ph\": \"X\"}] x");
  g_autoptr(SlSniffResult) text = sniff_string ("hello, world");
  g_autofree char *nested = NULL;

  g_assert_cmpint (cut_result->kind, ==, SL_SNIFF_TRACE);
  g_assert_nonnull (cut_result->error_message);
  g_assert_cmpint (cut_result->error_offset, ==, strlen (cut));

  g_assert_cmpint (bad_result->kind, ==, SL_SNIFF_TRACE);
  g_assert_nonnull (bad_result->error_message);
  g_assert_cmpint (bad_result->error_offset, ==, strchr (bad, '@') - bad);

  /* The same cut text as the head of a larger file is only a window end */
  window = sl_sniffer_sniff_data ((const guint8 *)cut, strlen (cut), 1000000);
  g_assert_cmpint (window->kind, ==, SL_SNIFF_TRACE);
  g_assert_null (window->error_message);

  g_assert_nonnull (trailing->error_message);
  g_assert_cmpint (trailing->error_offset, ==, 14);

  g_assert_cmpint (text->kind, ==, SL_SNIFF_UNKNOWN);

  /* Nesting deeper than the scanner follows is not an error */
  nested = g_strnfill (5000, '[');
  deep = sl_sniffer_sniff_data ((const guint8 *)nested, 5000, 5000);
  g_assert_cmpint (deep->kind, ==, SL_SNIFF_JSON);
  g_assert_null (deep->error_message);
  g_assert_true (deep->json_too_deep);
  g_assert_false (cut_result->json_too_deep);

  /* Zero bytes at the end, room a file was given and never written: the
   * data ends before them, whole or cut off there */
  {
    static const char whole[] = "[{\"ph\": \"X\"}]\n\0\0\0\0";
    static const char part[] = "[{\"ph\": \"X\"}, {\"ph\": \"X\", \"na\0\0\0\0";
    static const char after[] = "[{\"ph\": \"X\"}]\n\0\0x\0";
    g_autoptr(SlSniffResult) padded = sl_sniffer_sniff_data ((const guint8 *) whole, sizeof whole - 1, sizeof whole - 1);
    g_autoptr(SlSniffResult) padded_cut = sl_sniffer_sniff_data ((const guint8 *) part, sizeof part - 1, sizeof part - 1);
    g_autoptr(SlSniffResult) garbage = sl_sniffer_sniff_data ((const guint8 *) after, sizeof after - 1, sizeof after - 1);

    g_assert_cmpint (padded->kind, ==, SL_SNIFF_TRACE);
    g_assert_null (padded->error_message);
    g_assert_cmpint (padded_cut->kind, ==, SL_SNIFF_TRACE);
    g_assert_nonnull (padded_cut->error_message);
    g_assert_cmpint (padded_cut->error_offset, ==, strlen (part));
    g_assert_nonnull (garbage->error_message);
    g_assert_cmpint (garbage->error_offset, ==, strlen (after));
  }
}

static void
test_gzip (void)
{
  const char *trace = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 3}]}";
  g_autoptr(GBytes) gz = gzip_compress (trace, strlen (trace));
  g_autoptr(SlSniffResult) whole = NULL;
  g_autoptr(SlSniffResult) cut = NULL;
  g_autoptr(SlSniffResult) damaged = NULL;
  g_autofree guint8 *copy = NULL;
  const guint8 *data;
  gsize len;

  data = g_bytes_get_data (gz, &len);
  whole = sl_sniffer_sniff_data (data, len, len);
  g_assert_cmpint (whole->kind, ==, SL_SNIFF_TRACE);
  g_assert_true (whole->gzip);
  g_assert_true (whole->complete);
  g_assert_null (whole->error_message);

  cut = sl_sniffer_sniff_data (data, len - 12, len - 12);
  g_assert_true (cut->gzip);
  g_assert_nonnull (cut->error_message);
  g_assert_cmpint (cut->error_offset, ==, len - 12);

  copy = g_memdup2 (data, len);
  memset (copy + 10, 0xff, len - 20);
  damaged = sl_sniffer_sniff_data (copy, len, len);
  g_assert_true (damaged->gzip);
  g_assert_nonnull (damaged->error_message);
}

static void
test_sqlite (void)
{
  g_autoptr(GByteArray) page = g_byte_array_new ();
  g_autoptr(SlSniffResult) result = NULL;
  const char *sql = "CREATE TABLE STRING_IDS (id INTEGER, value TEXT) CREATE TABLE \"TASK\" (startNs)";
  guint8 header[100] = "SQLite format 3";

  header[16] = 0x10;
  header[17] = 0x00;
  g_byte_array_append (page, header, sizeof header);
  g_byte_array_append (page, (const guint8 *)sql, strlen (sql));

  result = sl_sniffer_sniff_data (page->data, page->len, 100000);
  g_assert_cmpint (result->kind, ==, SL_SNIFF_SQLITE);
  g_assert_cmpuint (result->sqlite_page_size, ==, 4096);
  g_assert_cmpuint (result->sqlite_tables->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (result->sqlite_tables, 0), ==, "STRING_IDS");
  g_assert_cmpstr (g_ptr_array_index (result->sqlite_tables, 1), ==, "TASK");
}

static GByteArray *
make_records (guint n)
{
  GByteArray *file = g_byte_array_new ();
  /* Event { wall_time: 1.0, version: "MindSpore.Event:1" } */
  static const guint8 first[] = {
    0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
    0x1a, 17, 'M', 'i', 'n', 'd', 'S', 'p', 'o', 'r', 'e', '.', 'E', 'v', 'e', 'n', 't', ':', '1',
  };
  static const guint8 other[] = { 0x09, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x10, 0x05 };

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GBytes) framed = i == 0 ? sl_record_frame (first, sizeof first)
                                        : sl_record_frame (other, sizeof other);
      gsize len;
      const guint8 *data = g_bytes_get_data (framed, &len);

      g_byte_array_append (file, data, len);
    }

  return file;
}

static void
test_records (void)
{
  g_autoptr(GByteArray) file = make_records (3);
  g_autoptr(SlSniffResult) result = NULL;
  gsize first_len = 12 + 28 + 4;
  gsize other_len = 12 + 11 + 4;
  SlRecordScan scan;

  g_assert_cmpuint (file->len, ==, first_len + 2 * other_len);

  result = sl_sniffer_sniff_data (file->data, file->len, file->len);
  g_assert_cmpint (result->kind, ==, SL_SNIFF_RECORDS);
  g_assert_cmpuint (result->records.n_records, ==, 3);
  g_assert_cmpuint (result->records.n_bad_payloads, ==, 0);
  g_assert_cmpint (result->records.partial_offset, ==, -1);
  g_assert_cmpint (result->records.bad_header_offset, ==, -1);
  g_assert_true (result->records.complete);
  g_assert_cmpstr (result->records.version, ==, "MindSpore.Event:1");

  /* A flipped payload byte in record 1 */
  file->data[first_len + 12 + 3] ^= 0xff;
  sl_sniffer_scan_records (file->data, file->len, file->len, &scan);
  g_assert_cmpuint (scan.n_records, ==, 2);
  g_assert_cmpuint (scan.n_bad_payloads, ==, 1);
  g_assert_cmpint (scan.bad_payload_offsets[0], ==, first_len);
  sl_record_scan_clear (&scan);
  file->data[first_len + 12 + 3] ^= 0xff;

  /* Cut in the middle of record 2 */
  sl_sniffer_scan_records (file->data, file->len - 5, file->len - 5, &scan);
  g_assert_cmpuint (scan.n_records, ==, 2);
  g_assert_cmpint (scan.partial_offset, ==, first_len + other_len);
  sl_record_scan_clear (&scan);

  /* The head of a longer file is not a partial record */
  sl_sniffer_scan_records (file->data, file->len - 5, 1000000, &scan);
  g_assert_cmpuint (scan.n_records, ==, 2);
  g_assert_cmpint (scan.partial_offset, ==, -1);
  g_assert_false (scan.complete);
  sl_record_scan_clear (&scan);

  /* A damaged length field stops the scan */
  file->data[first_len + 1] ^= 0x01;
  sl_sniffer_scan_records (file->data, file->len, file->len, &scan);
  g_assert_cmpuint (scan.n_records, ==, 1);
  g_assert_cmpint (scan.bad_header_offset, ==, first_len);
  g_assert_cmpuint (scan.bad_header_index, ==, 1);
  sl_record_scan_clear (&scan);

  file->data[1] ^= 0x01;
  sl_sniffer_scan_records (file->data, file->len, file->len, &scan);
  g_assert_cmpint (scan.bad_header_offset, ==, 0);
  g_assert_cmpuint (scan.n_records, ==, 0);
  sl_record_scan_clear (&scan);

  /* A length that claims more than the file holds */
  sl_sniffer_scan_records ((const guint8 *)"\xff\xff\xff\xff\xff\xff\xff\xff", 8, 8, &scan);
  g_assert_cmpint (scan.partial_offset, ==, 0);
  sl_record_scan_clear (&scan);
}

static void
test_record_writer (void)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(SlRecordWriter) writer = sl_record_writer_new (stream);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GBytes) framed = sl_record_frame ("abc", 3);
  SlRecordScan scan;

  g_assert_true (sl_record_writer_write (writer, "abc", 3, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sl_record_writer_write (writer, "", 0, NULL, &error));
  g_assert_cmpuint (sl_record_writer_get_n_records (writer), ==, 2);
  g_assert_cmpuint (sl_record_writer_get_offset (writer), ==, 19 + 16);
  g_assert_true (g_output_stream_close (stream, NULL, &error));

  written = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (stream));
  g_assert_cmpuint (g_bytes_get_size (written), ==, 35);
  g_assert_cmpmem (g_bytes_get_data (written, NULL), 19, g_bytes_get_data (framed, NULL), 19);

  sl_sniffer_scan_records (g_bytes_get_data (written, NULL), 35, 35, &scan);
  g_assert_cmpuint (scan.n_records, ==, 2);
  g_assert_true (scan.complete);
  sl_record_scan_clear (&scan);
}

static void
test_protobuf (void)
{
  /* GraphProto { node { name: "a" } name: "g" } */
  static const guint8 graph[] = { 0x0a, 0x03, 0x12, 0x01, 'a', 0x12, 0x01, 'g' };
  static const guint8 group[] = { 0x0b, 0x00 };

  g_assert_true (sl_sniffer_is_protobuf (graph, sizeof graph, TRUE));
  g_assert_false (sl_sniffer_is_protobuf (graph, sizeof graph - 1, TRUE));
  g_assert_true (sl_sniffer_is_protobuf (graph, sizeof graph - 1, FALSE));
  g_assert_false (sl_sniffer_is_protobuf (group, sizeof group, TRUE));
  g_assert_false (sl_sniffer_is_protobuf ((const guint8 *)"\x00\x01", 2, TRUE));
  g_assert_false (sl_sniffer_is_protobuf (NULL, 0, TRUE));
}

static void
test_sniff_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sl-sniffer-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) missing = NULL;
  g_autoptr(SlSniffResult) result = NULL;
  g_autoptr(GString) dict = g_string_new ("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), 'note': '");
  g_autoptr(GByteArray) npy = NULL;

  g_assert_no_error (error);

  /* A header longer than the first read */
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (dict, 'x');
  g_string_append (dict, "', }");
  npy = make_npy (dict->str);
  g_byte_array_append (npy, (const guint8 *)"\1\0\0\0\0\0\0\0", 8);

  path = g_build_filename (dir, "long.npy", NULL);
  g_assert_true (g_file_set_contents (path, (const char *)npy->data, npy->len, &error));
  file = g_file_new_for_path (path);
  result = sl_sniffer_sniff_file (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result->kind, ==, SL_SNIFF_NPY);
  g_assert_nonnull (result->npy);
  g_assert_cmpstr (result->npy->descr, ==, "<i8");
  g_assert_cmpuint (result->npy->data_offset, ==, npy->len - 8);

  /* Trace keys after more metadata than the head: the sniff leaves it
   * open, reading on settles it */
  {
    g_autoptr(GString) late = g_string_new ("{\"metadata\": [");
    g_autofree char *late_path = g_build_filename (dir, "late.json", NULL);
    g_autoptr(GFile) late_file = g_file_new_for_path (late_path);
    g_autoptr(SlSniffResult) late_result = NULL;

    for (guint i = 0; i < 3000; i++)
      g_string_append_printf (late, "{\"rank\": %u}, ", i);
    g_string_append (late, "null], \"traceEvents\": [{\"ph\": \"X\", \"ts\": 1}]}");
    g_assert_true (g_file_set_contents (late_path, late->str, late->len, &error));
    late_result = sl_sniffer_sniff_file (late_file, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (late_result->kind, ==, SL_SNIFF_JSON);
    g_assert_true (late_result->trace_undecided);
    sl_sniffer_skim_trace (late_result, late_file, NULL);
    g_assert_cmpint (late_result->kind, ==, SL_SNIFF_TRACE);
    g_assert_false (late_result->trace_undecided);
    g_unlink (late_path);
  }

  missing = g_file_new_for_path ("/nonexistent/sl-sniffer/missing.json");
  g_assert_null (sl_sniffer_sniff_file (missing, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sniffer/npy/simple", test_npy_simple);
  g_test_add_func ("/sniffer/npy/variants", test_npy_variants);
  g_test_add_func ("/sniffer/npy/refused", test_npy_refused);
  g_test_add_func ("/sniffer/json/traces", test_json_traces);
  g_test_add_func ("/sniffer/json/broken", test_json_broken);
  g_test_add_func ("/sniffer/json/undecided", test_json_undecided);
  g_test_add_func ("/sniffer/gzip", test_gzip);
  g_test_add_func ("/sniffer/sqlite", test_sqlite);
  g_test_add_func ("/sniffer/records", test_records);
  g_test_add_func ("/sniffer/record-writer", test_record_writer);
  g_test_add_func ("/sniffer/protobuf", test_protobuf);
  g_test_add_func ("/sniffer/file", test_sniff_file);

  return g_test_run ();
}
