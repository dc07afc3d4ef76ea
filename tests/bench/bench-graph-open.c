/* bench-graph-open.c: opening the graph of a 40-layer LLM training job
 *
 * Writes a MindSpore summary holding the ~20,000-op graph of
 * graph-fixture.h with the project's summary writer, then times, seven
 * times each, reading the summary and decoding plus building the
 * hierarchy (sl_graph_reader_load), and decoding plus building alone from
 * the bytes. Prints the medians, the model's size and the resident memory.
 * A benchmark prints figures; it never passes or fails.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "sl-graph-reader.h"
#include "sl-platform.h"

#define RUNS 7

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values)
{
  qsort (values, RUNS, sizeof (double), compare_doubles);
  return values[RUNS / 2];
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("bench-graph-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  double load_ms[RUNS], decode_ms[RUNS];
  guint n_ops = 0, n_items = 0, n_parameters = 0;
  gsize model_bytes = 0;
  guint64 rss_before, rss_after = 0;

  g_assert_no_error (error);
  path = graph_fixture_write_llm_summary (folder, 40, &n_ops, &error);
  g_assert_no_error (error);
  bytes = graph_fixture_llm (40, NULL);
  rss_before = sl_platform_get_resident_bytes ();

  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(GPtrArray) graphs = sl_graph_reader_load (path, NULL, &error);
      SlGraph *graph;

      load_ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
      g_assert_cmpuint (graphs->len, ==, 1);
      graph = g_ptr_array_index (graphs, 0);
      n_items = sl_graph_get_n_items (graph);
      n_parameters = sl_graph_get_n_parameters (graph);
      model_bytes = sl_graph_get_memory_size (graph);
      if (run == 0)
        rss_after = sl_platform_get_resident_bytes ();
    }
  for (guint run = 0; run < RUNS; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(SlGraph) graph = sl_graph_reader_decode (bytes, "bench", &error);

      decode_ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
    }

  printf ("graph: %u ops, %u parameters, %u hierarchy items, %.1f MiB of GraphProto\n",
          n_ops, n_parameters, n_items, g_bytes_get_size (bytes) / 1048576.0);
  printf ("open summary + decode + hierarchy: median %.1f ms over %d runs\n", median (load_ms), RUNS);
  printf ("decode + hierarchy from bytes:     median %.1f ms over %d runs\n", median (decode_ms), RUNS);
  printf ("model size: %.2f MiB (%.0f bytes per op, strings included)\n",
          model_bytes / 1048576.0, (double) model_bytes / MAX (n_ops, 1));
  printf ("resident memory: %.1f MiB before opening, %.1f MiB with one graph open, %.1f MiB peak\n",
          rss_before / 1048576.0, rss_after / 1048576.0, sl_platform_get_peak_resident_bytes () / 1048576.0);

  g_unlink (path);
  g_rmdir (folder);
  return 0;
}
