/* fuzz-chrome-trace.c: libFuzzer harness for the Chrome trace importer
 *
 * The input is a trace file (plain, or gzip when it starts with the gzip
 * magic). It is imported from memory and from a file, every slice's
 * event text is fetched again, and the whole range is exported as JSON
 * and CSV, so the reader, the model's finish() and the writer all see
 * hostile input. The import from memory is also done with every byte
 * through yajl, and cut into small parts scanned in parallel (part sizes
 * taken from the input): all must give the same trace to the byte
 * (events, flows, names, problems), and so must the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-chrome-trace-reader.h"
#include "sl-chrome-trace-writer.h"
#include "trace-digest.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *input_path;

static void
remove_input (void)
{
  g_unlink (input_path);
}

static void
walk (SlTrace *trace)
{
  g_autoptr(SlTraceTextReader) reader = sl_trace_text_reader_new (trace);
  gint64 sum = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);
      const SlTraceCounter *c = sl_trace_get_counter (trace, t);

      for (guint i = 0; i < s->n_slices; i++)
        {
          g_autofree char *text = NULL;

          g_assert (sl_trace_slices_depth (s, i) < sl_trace_get_track_n_depths (trace, t));
          g_assert (sl_trace_slices_parent (s, i) == SL_TRACE_NO_PARENT || sl_trace_slices_parent (s, i) < i);
          sum += sl_trace_slices_self_ns (s, i) + strlen (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)));
          if (i < 64)
            text = sl_trace_text_reader_read (reader, sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i), NULL);
        }
      for (guint i = 0; i < c->n_points; i++)
        sum += c->ts_ns[i];
    }
  for (guint f = 0; f < sl_trace_get_n_flows (trace); f++)
    g_assert (sl_trace_get_flow (trace, f)->to_track < sl_trace_get_n_tracks (trace));
  (void) sum;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  SlTraceBuilder *builder;
  g_autoptr(SlTrace) from_memory = NULL;
  g_autoptr(SlTrace) from_file = NULL;

  if (input_path == NULL)
    {
      /* a file of this process's own: two harnesses running at once
       * (a long search beside the test suite) overwrote each other's */
      int fd = g_file_open_tmp ("sl-fuzz-chrome-trace-XXXXXX.json", &input_path, NULL);

      g_assert (fd >= 0);
      g_close (fd, NULL);
      atexit (remove_input);
    }

  builder = sl_trace_builder_new ("fuzz.json");
  sl_chrome_trace_reader_read_data (builder, "fuzz.json", data, size, "p:");
  from_memory = sl_trace_builder_finish (builder, NULL);
  g_assert (from_memory != NULL);

  g_assert (g_file_set_contents (input_path, (const char *) data, size, NULL));
  from_file = sl_chrome_trace_load (input_path, NULL, NULL, NULL, NULL);
  g_assert (from_file != NULL);
  g_assert (sl_trace_get_n_events (from_file) == sl_trace_get_n_events (from_memory));
  walk (from_file);

  /* the scanner in order and in parallel parts against yajl alone */
  {
    gsize piece = size > 0 ? 1 + data[size - 1] % 97 : 1;
    g_autofree char *scanned = trace_digest (from_memory);
    g_autofree char *reference = NULL;
    g_autofree char *parallel = NULL;
    g_autoptr(SlTrace) by_yajl = NULL;
    g_autoptr(SlTrace) in_parts = NULL;

    builder = sl_trace_builder_new ("fuzz.json");
    sl_chrome_trace_reader_read_data_full (builder, "fuzz.json", data, size, "p:", 0, SL_CHROME_TRACE_READ_TOKENIZE);
    by_yajl = sl_trace_builder_finish (builder, NULL);
    reference = trace_digest (by_yajl);
    builder = sl_trace_builder_new ("fuzz.json");
    sl_chrome_trace_reader_read_data_full (builder, "fuzz.json", data, size, "p:", piece, SL_CHROME_TRACE_READ_PARALLEL);
    in_parts = sl_trace_builder_finish (builder, NULL);
    parallel = trace_digest (in_parts);
    if (strcmp (reference, scanned) != 0 || strcmp (reference, parallel) != 0)
      {
        fprintf (stderr, "--- yajl:\n%s--- scanner:\n%s--- in parts of %zu:\n%s", reference, scanned, piece, parallel);
        abort ();
      }
  }

  {
    g_autoptr(GOutputStream) json = g_memory_output_stream_new_resizable ();
    g_autoptr(GOutputStream) csv = g_memory_output_stream_new_resizable ();
    gint64 middle = sl_trace_get_start_ns (from_file) / 2 + sl_trace_get_end_ns (from_file) / 2;

    sl_chrome_trace_write_range (from_file, G_MININT64, G_MAXINT64, NULL, 0, json, NULL, NULL, NULL);
    sl_trace_write_slices_csv (from_file, middle, G_MAXINT64, NULL, 0, csv, NULL, NULL, NULL);
  }
  return 0;
}
