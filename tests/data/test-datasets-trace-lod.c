/* test-datasets-trace-lod.c: the timeline's level of detail on real traces
 *
 * catapult's test traces, an msprof timeline, an Ascend PyTorch trace view
 * and HolisticTraceAnalysis traces (gzip) are read and indexed. On each:
 * slices of one depth never overlap (the index relies on it), every slice
 * in view is covered by a span at every zoom, none a pixel wide or more is
 * merged away, and the slice under a point is the one a full scan finds.
 *
 * The folder comes from SL_DATASETS_DIR; every test is skipped when it is
 * not there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace-lod.h"

#define WIDTH 1500

static const char *traces[] = {
  "catapult-project__catapult/tracing/test_data/big_trace.json",
  "catapult-project__catapult/tracing/test_data/google_highlight.json",
  "mindspore-ai__mindinsight/tests/utils/resource/profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/timeline/msprof_0_2_1.json",
  "mindspore-ai__mindinsight/tests/utils/resource/profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/timeline/task_time_0_2_1.json",
  "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
  "facebookresearch__HolisticTraceAnalysis/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
  "facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
};

static void
check_rows (SlTrace    *trace,
            SlTraceLod *lod,
            gint64      t0,
            gint64      t1)
{
  double ns_per_pixel = (double)(t1 - t0) / WIDTH;
  gint64 px = MAX ((gint64)ceil (ns_per_pixel), 1);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || s == NULL)
        continue;

      for (guint d = 0; d < sl_trace_lod_get_n_depths (lod, t); d++)
        {
          guint n = sl_trace_lod_get_depth_n_slices (lod, t, d), sp = 0;
          g_autofree guint32 *idx = g_new (guint32, MAX (n, 1));

          for (guint k = 0; k < n; k++)
            idx[k] = sl_trace_lod_get_depth_slice (lod, t, d, k);

          g_array_set_size (spans, 0);
          sl_trace_lod_query (lod, t, d, t0, t1, ns_per_pixel, spans);
          g_assert_cmpuint (spans->len, <=, 2 * WIDTH + 4);

          for (guint k = 0; k < n; k++)
            {
              gint64 start = sl_trace_slices_start_ns (s, idx[k]), end = start + MAX (sl_trace_slices_dur_ns (s, idx[k]), 0);
              const SlTraceLodSpan *span;

              /* The index relies on this: one depth is one lane. */
              if (k > 0)
                g_assert_cmpint (start, >=, sl_trace_slices_start_ns (s, idx[k - 1]) + MAX (sl_trace_slices_dur_ns (s, idx[k - 1]), 0));
              if (end < t0 || start > t1)
                continue;

              while (sp < spans->len && g_array_index (spans, SlTraceLodSpan, sp).end_ns < end)
                sp++;
              g_assert_cmpuint (sp, <, spans->len);
              span = &g_array_index (spans, SlTraceLodSpan, sp);
              g_assert_cmpint (span->start_ns, <=, start);
              if (end - start >= px)
                g_assert_cmpuint (span->slice, ==, idx[k]);
            }
        }
    }
}

static void
check_hits (SlTrace    *trace,
            SlTraceLod *lod)
{
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || s == NULL)
        continue;
      for (guint probe = 0; probe < 50; probe++)
        {
          gint64 at = start + (end - start) * probe / 50;
          guint depth = probe % MAX (sl_trace_lod_get_n_depths (lod, t), 1);
          gboolean expected = FALSE;
          guint32 hit;

          for (guint32 i = 0; i < s->n_slices && !expected; i++)
            expected = sl_trace_slices_depth (s, i) == depth && sl_trace_slices_start_ns (s, i) <= at && at <= sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i);
          g_assert_cmpint (sl_trace_lod_hit (lod, t, depth, at, 0, &hit), ==, expected);
          if (expected)
            g_assert_true (sl_trace_slices_start_ns (s, hit) <= at && at <= sl_trace_slices_start_ns (s, hit) + sl_trace_slices_dur_ns (s, hit));
        }
    }
}

static void
test_trace (gconstpointer data)
{
  const char *relative = data;
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(SlTraceLod) lod = NULL;
  gint64 start, end;
  static const double fractions[] = { 1.0, 0.1, 0.01, 0.0001 };

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);

      g_test_skip (message);
      return;
    }

  trace = sl_chrome_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  lod = sl_trace_lod_new (trace, NULL);
  g_assert_nonnull (lod);

  start = sl_trace_get_start_ns (trace);
  end = sl_trace_get_end_ns (trace);
  g_assert_cmpint (end, >=, start);
  /* A trace of metadata and instants only has no extent to zoom in. */
  end = MAX (end, start + WIDTH);
  for (guint f = 0; f < G_N_ELEMENTS (fractions); f++)
    {
      gint64 width = MAX ((gint64)((end - start) * fractions[f]), WIDTH);
      gint64 t0 = start + (end - start - width) / 3;

      check_rows (trace, lod, t0, t0 + width);
    }
  check_hits (trace, lod);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *base = g_path_get_basename (traces[i]);
      g_autofree char *name = g_strdup_printf ("/datasets-trace-lod/%s", base);

      g_test_add_data_func (name, traces[i], test_trace);
    }

  return g_test_run ();
}
