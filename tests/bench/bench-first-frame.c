/* bench-first-frame.c: time to the first frame of a big trace
 *
 * What the timeline page does when a file is opened: an SlTraceLoad reads
 * it on a worker and the page draws the first preview it publishes (the
 * first 16 MiB read again into a trace and its drawing index) while the
 * rest is read, then the full trace. Here each is drawn, when it comes,
 * fitted at 1024 × 640 into a cairo image surface through the renderer the
 * widget uses. The peer, in the same run and in alternating rounds, is the
 * same load with previews off: the first frame only once the whole file is
 * read and indexed (what the page did before). The figures: the time to the
 * first frame, the time to the full trace drawn (both from the start of the
 * load), and what previews cost the full read.
 *
 * The traces are those `bench-trace-import --generate N FILE` writes (1 M
 * events, 143 MB, and 8 M, 1.1 GB), in the temporary folder, deleted
 * after. `--huge` adds the 32 M-event (4.5 GB) case, read once each way;
 * `--gzip` reads gzip copies instead (compressed at level 1, as profilers
 * write them). The goal (issue 29): the first frame within 2 s at 32 M events.
 *
 * `--file PATH` reads one given trace once with previews and prints the
 * time to its first frame (bench-trace-import runs it so on each trace it
 * generates).
 *
 * Usage: bench-first-frame [--huge] [--gzip] [EVENTS...]
 *        bench-first-frame --file PATH
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib/gstdio.h>

#include "bench-stats.h"
#include "sl-timeline-renderer.h"
#include "sl-trace-load.h"

#define WIDTH  1024
#define HEIGHT 640
#define GOAL_FIRST_FRAME_S 2.0

typedef struct {
  gint64           started;
  double           first_s;      /* the first frame drawn, from the start */
  double           full_s;       /* the full trace drawn */
  double           cpu_s;        /* processor time of the whole load, every thread */
  guint64          preview_bytes;
  gint64           preview_span; /* ns of trace the first preview shows */
  guint            n_previews;
  gsize            preview_memory; /* the last preview's trace and index */
  cairo_t         *cr;
  SlTimelineRenderer *renderer;
} Run;

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
draw_fitted (Run        *run,
             SlTraceLod *lod)
{
  SlTrace *trace = sl_trace_lod_get_trace (lod);
  gint64 span = MAX (sl_trace_get_end_ns (trace) - sl_trace_get_start_ns (trace), 1);
  SlTimelineViewport vp = { 0 };

  sl_timeline_renderer_set_lod (run->renderer, lod);
  vp.width = WIDTH;
  vp.height = HEIGHT;
  vp.ns_per_pixel = span * 1.02 / (WIDTH - SL_TIMELINE_GUTTER_WIDTH);
  vp.t0 = sl_trace_get_start_ns (trace) - span / 100;
  sl_timeline_renderer_draw (run->renderer, run->cr, &vp);
  cairo_surface_flush (cairo_get_target (run->cr));
}

static void
preview_cb (SlTraceLoad *load,
            GParamSpec  *pspec,
            Run         *run)
{
  SlTraceLod *lod;

  if (sl_trace_load_get_preview (load) == NULL || (lod = sl_trace_load_steal_preview_lod (load)) == NULL)
    return;
  run->preview_memory = sl_trace_get_memory_size (sl_trace_lod_get_trace (lod)) + sl_trace_lod_get_memory_size (lod);
  if (run->n_previews++ == 0)
    {
      run->preview_bytes = sl_trace_load_get_preview_bytes (load);
      run->preview_span = sl_trace_get_end_ns (sl_trace_lod_get_trace (lod)) - sl_trace_get_start_ns (sl_trace_lod_get_trace (lod));
      draw_fitted (run, lod);
      run->first_s = (g_get_monotonic_time () - run->started) / 1e6;
    }
  else
    draw_fitted (run, lod);
}

static Run
run_load (const char *path,
          gboolean    previews,
          cairo_t    *cr)
{
  g_autoptr(SlTraceLoad) load = sl_trace_load_new (path);
  Run run = { 0 };
  double cpu = cpu_seconds ();

  run.cr = cr;
  run.renderer = sl_timeline_renderer_new ();
  if (!previews)
    sl_trace_load_set_preview_sizes (load, 0, 0);
  g_signal_connect (load, "notify::preview", G_CALLBACK (preview_cb), &run);
  run.started = g_get_monotonic_time ();
  sl_trace_load_start (load);
  while (!sl_trace_load_is_finished (load))
    g_main_context_iteration (NULL, TRUE);
  if (sl_trace_load_get_state (load) != SL_TRACE_LOAD_DONE)
    g_error ("%s: %s", path, sl_trace_load_get_error (load) ? sl_trace_load_get_error (load)->message : "not read");
  draw_fitted (&run, sl_trace_load_steal_lod (load));
  run.full_s = (g_get_monotonic_time () - run.started) / 1e6;
  if (run.n_previews == 0)
    run.first_s = run.full_s;
  run.cpu_s = cpu_seconds () - cpu;
  sl_timeline_renderer_free (run.renderer);
  return run;
}

static gboolean
run_command (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
compress (const char *from,
          const char *to)
{
  g_autoptr(GFile) in_file = g_file_new_for_path (from);
  g_autoptr(GFile) out_file = g_file_new_for_path (to);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) in = g_file_read (in_file, NULL, &error);
  g_autoptr(GFileOutputStream) out = in != NULL ? g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error) : NULL;
  g_autoptr(GZlibCompressor) deflater = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) stream = NULL;

  if (out == NULL)
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  stream = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (deflater));
  if (g_output_stream_splice (stream, G_INPUT_STREAM (in),
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error) < 0)
    {
      g_printerr ("%s: %s\n", to, error->message);
      return FALSE;
    }
  return TRUE;
}

/* Through the page cache once, so the first round is not the only one
 * that reads the disk. */
static void
warm (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autofree guint8 *buffer = g_malloc (8 << 20);

  while (in != NULL && g_input_stream_read (in, buffer, 8 << 20, NULL, NULL) > 0)
    ;
}

static gboolean
bench_size (const char *generator,
            guint64     n_events,
            guint       n_rounds,
            gboolean    gzip,
            cairo_t    *cr)
{
  g_autofree char *name = g_strdup_printf ("sl-bench-first-frame-%" G_GUINT64_FORMAT ".json", n_events);
  g_autofree char *plain = g_build_filename (g_get_tmp_dir (), name, NULL);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_events);
  g_autofree char *compressed = g_strconcat (plain, ".gz", NULL);
  const char *generate[] = { generator, "--generate", count, plain, NULL };
  const char *path = gzip ? compressed : plain;
  g_autofree double *first = g_new0 (double, n_rounds);
  g_autofree double *full = g_new0 (double, n_rounds);
  g_autofree double *peer = g_new0 (double, n_rounds);
  g_autofree double *cpu = g_new0 (double, n_rounds);
  g_autofree double *peer_cpu = g_new0 (double, n_rounds);
  Run with = { 0 };
  GStatBuf st;
  gboolean met;

  if (!run_command (generate) || (gzip && !compress (plain, compressed)))
    {
      g_unlink (plain);
      g_unlink (compressed);
      return FALSE;
    }
  if (gzip)
    g_unlink (plain);
  g_stat (path, &st);
  warm (path);

  for (guint r = 0; r < n_rounds; r++)
    {
      Run without;

      with = run_load (path, TRUE, cr);
      without = run_load (path, FALSE, cr);
      first[r] = with.first_s;
      full[r] = with.full_s;
      peer[r] = without.full_s;
      cpu[r] = with.cpu_s;
      peer_cpu[r] = without.cpu_s;
    }
  g_unlink (path);

  met = bench_median (first, n_rounds) <= GOAL_FIRST_FRAME_S;
  g_print ("%" G_GUINT64_FORMAT " events, %.0f MB%s, median of %u round%s:\n",
           n_events, st.st_size / 1e6, gzip ? " gzip" : "", n_rounds, n_rounds > 1 ? "s" : "");
  if (with.n_previews > 0)
    g_print ("  first frame     %6.2f s  (a preview of %.0f MiB of text, %.2f s of the trace; %u preview%s, "
             "the last %.1f MB in memory)\n",
             bench_median (first, n_rounds), with.preview_bytes / 1048576.0, with.preview_span / 1e9,
             with.n_previews, with.n_previews == 1 ? "" : "s", with.preview_memory / 1e6);
  else
    g_print ("  first frame     %6.2f s  (no preview: the file is read in a moment)\n", bench_median (first, n_rounds));
  g_print ("  full trace      %6.2f s  drawn\n"
           "  peer (no preview): first frame = full trace %6.2f s\n"
           "  first frame %.1f x sooner; previews cost the full read %+.1f %% in time, %+.1f %% in processor time "
           "(%.2f s against %.2f s); goal %.0f s: %s\n",
           bench_median (full, n_rounds), bench_median (peer, n_rounds),
           bench_median (peer, n_rounds) / MAX (bench_median (first, n_rounds), 1e-6),
           (bench_median (full, n_rounds) / MAX (bench_median (peer, n_rounds), 1e-6) - 1) * 100,
           (bench_median (cpu, n_rounds) / MAX (bench_median (peer_cpu, n_rounds), 1e-6) - 1) * 100,
           bench_median (cpu, n_rounds), bench_median (peer_cpu, n_rounds),
           GOAL_FIRST_FRAME_S, met ? "met" : "NOT met");
  return TRUE;
}

/* One given trace, once with previews: the time to its first frame. */
static int
first_frame_of_file (const char *path,
                     cairo_t    *cr)
{
  Run run;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_printerr ("%s: not a file\n", path);
      return 1;
    }
  warm (path);
  run = run_load (path, TRUE, cr);
  if (run.n_previews > 0)
    g_print ("  first frame     %6.2f s  (a preview of %.0f MiB of text, %.2f s of the trace), "
             "full trace drawn %.2f s; goal %.0f s: %s\n",
             run.first_s, run.preview_bytes / 1048576.0, run.preview_span / 1e9, run.full_s,
             GOAL_FIRST_FRAME_S, run.first_s <= GOAL_FIRST_FRAME_S ? "met" : "NOT met");
  else
    g_print ("  first frame     %6.2f s  (no preview: the whole file first); goal %.0f s: %s\n",
             run.first_s, GOAL_FIRST_FRAME_S, run.first_s <= GOAL_FIRST_FRAME_S ? "met" : "NOT met");
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_path_get_dirname (argv[0]);
  g_autofree char *generator = g_build_filename (dir, "bench-trace-import", NULL);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  gboolean huge = FALSE, gzip = FALSE;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  if (argc == 3 && g_str_equal (argv[1], "--file"))
    {
      int status = first_frame_of_file (argv[2], cr);

      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      return status;
    }
  for (int i = 1; i < argc; i++)
    {
      guint64 n;

      if (g_str_equal (argv[i], "--huge"))
        huge = TRUE;
      else if (g_str_equal (argv[i], "--gzip"))
        gzip = TRUE;
      else if ((n = g_ascii_strtoull (argv[i], NULL, 10)) > 0)
        g_array_append_val (sizes, n);
      else
        {
          g_printerr ("Usage: %s [--huge] [--gzip] [EVENTS...]\n       %s --file PATH\n", argv[0], argv[0]);
          return 2;
        }
    }
  if (sizes->len == 0)
    {
      guint64 defaults[] = { 1000000, 8000000 };

      g_array_append_vals (sizes, defaults, G_N_ELEMENTS (defaults));
    }
  if (huge)
    {
      guint64 n = 32000000;

      g_array_append_val (sizes, n);
    }

  for (guint i = 0; i < sizes->len; i++)
    {
      guint64 n = g_array_index (sizes, guint64, i);

      if (!bench_size (generator, n, n >= 32000000 ? 1 : n >= 8000000 ? 2 : 3, gzip, cr))
        return 1;
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
