/* fuzz-sniffer.c: libFuzzer harness for the content sniffer
 *
 * Each input is written to a file and sniffed as the detector does it,
 * then fed to the in-memory entry points: the sniffer with the input as a
 * whole file and as the head of a longer one, the TFRecord scanner, the
 * protobuf check and the .npy header parser (also behind a valid
 * preamble, so the dict parser sees every input). The trace skimmer
 * gets the input whole and in chunks of 1 and 13 bytes, and must come
 * to the same verdict each time. The .pb graph checks see it as a whole
 * file and as a head.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-npy-header.h"
#include "sl-proto-shape.h"
#include "sl-sniffer.h"
#include "sl-trace-skimmer.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *input_dir;
static char *input_path;

static void
remove_input (void)
{
  if (input_path != NULL)
    g_unlink (input_path);
  if (input_dir != NULL)
    g_rmdir (input_dir);
}

static void
ensure_input_path (void)
{
  if (input_path != NULL)
    return;

  input_dir = g_dir_make_tmp ("sl-fuzz-sniffer-XXXXXX", NULL);
  g_assert (input_dir != NULL);
  input_path = g_build_filename (input_dir, "input", NULL);
  atexit (remove_input);
}

static void
sniff_through_file (const uint8_t *data,
                    size_t         size)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlSniffResult) result = NULL;

  ensure_input_path ();
  if (!g_file_set_contents (input_path, (const char *)data, size, NULL))
    return;

  file = g_file_new_for_path (input_path);
  result = sl_sniffer_sniff_file (file, NULL, NULL);
  g_assert (result != NULL);
  sl_sniffer_skim_trace (result, file, NULL);
}

static void
parse_npy (const uint8_t *data,
           size_t         size)
{
  g_autoptr(SlNpyHeader) header = NULL;
  g_autoptr(SlNpyHeader) wrapped_header = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *wrapped = NULL;
  gint64 offset = 0;
  gsize dict_len = MIN (size, 0xffff);

  header = sl_npy_header_parse (data, size, &offset, &error);
  g_assert ((header == NULL) == (error != NULL));
  g_clear_error (&error);

  wrapped = g_malloc (10 + dict_len + 1);
  memcpy (wrapped, "\x93NUMPY\x01\x00", 8);
  wrapped[8] = dict_len & 0xff;
  wrapped[9] = dict_len >> 8;
  if (dict_len > 0)
    memcpy (wrapped + 10, data, dict_len);

  wrapped_header = sl_npy_header_parse (wrapped, 10 + dict_len, &offset, &error);
  g_assert ((wrapped_header == NULL) == (error != NULL));
  if (wrapped_header != NULL)
    {
      g_autofree char *shape = sl_npy_header_dup_shape (wrapped_header);
      guint64 n;

      g_assert (shape != NULL && shape[0] == '(');
      sl_npy_header_get_data_size (wrapped_header, &n);
    }
  else
    {
      g_assert (offset >= 0 && offset <= (gint64)(10 + dict_len));
    }
}

static SlTraceVerdict
skim_in_chunks (const uint8_t *data,
                size_t         size,
                size_t         chunk)
{
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (SL_TRACE_SKIMMER_BUDGET);

  for (size_t pos = 0; pos < size; pos += chunk)
    {
      if (sl_trace_skimmer_feed (skimmer, data + pos, MIN (chunk, size - pos)) != SL_TRACE_VERDICT_UNDECIDED)
        break;
    }
  g_assert (sl_trace_skimmer_get_offset (skimmer) <= size);
  return sl_trace_skimmer_finish (skimmer);
}

static void
skim_trace (const uint8_t *data,
            size_t         size)
{
  SlTraceVerdict whole = skim_in_chunks (data, size, MAX (size, 1));

  g_assert (whole != SL_TRACE_VERDICT_UNDECIDED);
  g_assert (skim_in_chunks (data, size, 1) == whole);
  g_assert (skim_in_chunks (data, size, 13) == whole);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlSniffResult) whole = NULL;
  g_autoptr(SlSniffResult) head = NULL;
  SlRecordScan scan;

  sniff_through_file (data, size);

  whole = sl_sniffer_sniff_data (data, size, size);
  if (whole->error_offset >= 0)
    g_assert (whole->error_message != NULL);

  head = sl_sniffer_sniff_data (data, size, (guint64)size + 4096);

  sl_sniffer_scan_records (data, size, size, &scan);
  g_assert (scan.partial_offset < (gint64)size || size == 0 || scan.partial_offset == -1);
  sl_record_scan_clear (&scan);

  sl_sniffer_is_protobuf (data, size, TRUE);
  sl_sniffer_is_protobuf (data, size, FALSE);

  parse_npy (data, size);

  skim_trace (data, size);

  sl_proto_shape_get_graph_format (data, size, TRUE);
  sl_proto_shape_get_graph_format (data, size, FALSE);
  sl_proto_shape_is_saved_model (data, size, TRUE);
  sl_proto_shape_is_saved_model (data, size, FALSE);

  return 0;
}
