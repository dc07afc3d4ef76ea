/* fuzz-summary.c: libFuzzer harness for summary framing and decoding
 *
 * The first byte picks how the file is named (MindSpore summary,
 * TensorBoard events, lineage). The rest is read twice: as a whole file,
 * which exercises the framing and its damage handling, and framed as one
 * record with valid checksums, which sends it straight to the event
 * decoders. Each file is also read in two steps, cut in the middle, as
 * while training writes it. When the first byte's high bit is set, the
 * rest is also wrapped as a LineageEvent member (train_lineage,
 * evaluation_lineage, dataset_graph or user_defined_info, picked by bits
 * 3-4) behind a wall_time, framed and read as a _lineage file, so that
 * the lineage decoders see message contents without the fuzzer having to
 * find the framing and the event around them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-record-writer.h"
#include "sl-summary-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *input_dir;

static const char * const names[] = {
  "events.out.events.summary.1.fuzz_MS",
  "events.out.tfevents.1.fuzz",
  "events.out.events.summary.1.fuzz_lineage",
};

static void
remove_inputs (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (input_dir, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (input_dir);
}

static void
read_in_two_steps (const char    *path,
                   const uint8_t *data,
                   size_t         size)
{
  g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (path);
  GPtrArray *runs;

  g_assert (g_file_set_contents (path, (const char *) data, size / 2, NULL));
  sl_summary_reader_update (reader, NULL, NULL);
  g_assert (g_file_set_contents (path, (const char *) data, size, NULL));
  sl_summary_reader_update (reader, NULL, NULL);
  sl_summary_reader_update (reader, NULL, NULL);

  /* Walk what was decoded, so that every stored value is touched. */
  runs = sl_summary_reader_get_runs (reader);
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      for (guint i = 0; i < sl_summary_run_get_n_tags (run); i++)
        {
          gint64 first, last;

          sl_summary_run_get_tag_info (run, i, &first, &last);
        }
    }
  g_unlink (path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) framed = NULL;
  gsize framed_len;
  const uint8_t *framed_data;

  if (input_dir == NULL)
    {
      input_dir = g_dir_make_tmp ("sl-fuzz-summary-XXXXXX", NULL);
      g_assert (input_dir != NULL);
      atexit (remove_inputs);
    }

  if (size < 1)
    return 0;

  path = g_build_filename (input_dir, names[data[0] % G_N_ELEMENTS (names)], NULL);
  read_in_two_steps (path, data + 1, size - 1);

  framed = sl_record_frame (data + 1, size - 1);
  framed_data = g_bytes_get_data (framed, &framed_len);
  read_in_two_steps (path, framed_data, framed_len);

  if (data[0] & 0x80)
    {
      static const guint8 members[] = { 6, 7, 9, 10 };
      static const guint8 wall_time[] = { 0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };  /* 1.0 */
      g_autoptr(GByteArray) event = g_byte_array_sized_new (size + 16);
      g_autoptr(GBytes) lineage = NULL;
      g_autofree char *lineage_path = g_build_filename (input_dir, names[2], NULL);
      guint8 key = (members[(data[0] >> 3) & 3] << 3) | 2;
      guint64 length = size - 1;

      g_byte_array_append (event, wall_time, sizeof wall_time);
      g_byte_array_append (event, &key, 1);
      do
        {
          guint8 byte = (length & 0x7f) | (length > 0x7f ? 0x80 : 0);

          g_byte_array_append (event, &byte, 1);
          length >>= 7;
        }
      while (length != 0);
      g_byte_array_append (event, data + 1, size - 1);
      lineage = sl_record_frame (event->data, event->len);
      framed_data = g_bytes_get_data (lineage, &framed_len);
      read_in_two_steps (lineage_path, framed_data, framed_len);
    }

  return 0;
}
