/* bench-summary-load.c: loading a large summary file, against MindInsight's way
 *
 * Generates (once, into the temporary folder) a deterministic MindSpore
 * summary file of 4 scalar tags × 1,000,000 steps and 50 histogram tags ×
 * 1,000 steps, then alternately runs `sightline-cli summary --json` on it
 * and the Python peer (python3-protobuf, summary_load_peer.py), several
 * times each. Prints the medians, throughput, peak memory and the ratio.
 *
 * Goals (from the summary reading issue): at least 200 MB/s, at least 20
 * times the Python peer, peak memory at most 2 times the file size.
 *
 * Usage: bench-summary-load [RUNS]   (SL_PEER_PYTHON picks the peer's
 * interpreter; Debian's /usr/bin/python3 by default)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-summary-writer.h"

#define N_SCALAR_TAGS     4
#define N_SCALAR_STEPS    1000000
#define N_HISTOGRAM_TAGS  50
#define N_HISTOGRAM_STEPS 1000
#define N_BUCKETS         30

#define GOAL_MB_PER_S     200.0
#define GOAL_PEER_RATIO   20.0
#define GOAL_RSS_FACTOR   2.0

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db ? 1 : 0;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  if (values->len % 2)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) +
          g_array_index (values, double, values->len / 2)) / 2;
}

/* A small deterministic generator, so the file is the same everywhere. */
static guint32
next_random (guint32 *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

static char *
generate (const char *folder)
{
  static const char * const scalar_tags[N_SCALAR_TAGS] = { "loss", "accuracy", "learning_rate", "grad_norm" };
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *done_marker = g_build_filename (folder, "complete", NULL);
  guint32 state = 20240601;
  double lefts[N_BUCKETS], widths[N_BUCKETS];
  gint64 counts[N_BUCKETS];

  if (g_file_test (done_marker, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, "_MS"))
          return g_build_filename (folder, name, NULL);
    }

  g_mkdir_with_parents (folder, 0700);
  writer = sl_summary_writer_new (folder, 1700000000, "bench", &error);
  if (writer == NULL)
    g_error ("cannot create the benchmark file: %s", error->message);

  for (gint64 step = 1; step <= N_SCALAR_STEPS; step++)
    {
      double wall_time = 1700000000.0 + step * 0.01;

      for (guint t = 0; t < N_SCALAR_TAGS; t++)
        if (!sl_summary_writer_add_scalar (writer, step, wall_time, scalar_tags[t],
                                           (next_random (&state) % 1000000) / 1e6f, &error))
          g_error ("%s", error->message);

      if (step % (N_SCALAR_STEPS / N_HISTOGRAM_STEPS) == 0)
        for (guint h = 0; h < N_HISTOGRAM_TAGS; h++)
          {
            g_autofree char *tag = g_strdup_printf ("layer%02u.weight", h);
            SlHistogramStats stats = { -1.5, 1.5, 0, 0, 0, 0, 0 };

            for (guint b = 0; b < N_BUCKETS; b++)
              {
                lefts[b] = -1.5 + b * (3.0 / N_BUCKETS);
                widths[b] = 3.0 / N_BUCKETS;
                counts[b] = next_random (&state) % 1000;
                stats.count += counts[b];
              }
            if (!sl_summary_writer_add_histogram (writer, step, wall_time, tag, &stats,
                                                  N_BUCKETS, lefts, widths, counts, &error))
              g_error ("%s", error->message);
          }
    }
  if (!sl_summary_writer_close (writer, &error))
    g_error ("%s", error->message);
  g_file_set_contents (done_marker, "", 0, NULL);

  return g_strdup (sl_summary_writer_get_path (writer));
}

/* Runs @argv, returns the wall time in seconds and its stdout/stderr. */
static double
run_timed (const char * const  *argv,
           const char          *env_name,
           char               **out,
           char               **err)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  double seconds;

  if (env_name != NULL)
    g_subprocess_launcher_setenv (launcher, env_name, "1", TRUE);

  start = g_get_monotonic_time ();
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  seconds = (g_get_monotonic_time () - start) / 1e6;

  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    g_error ("%s failed: %s", argv[0], *err);

  return seconds;
}

static const char *
goal (gboolean met)
{
  return met ? "met" : "MISSED";
}

int
main (int    argc,
      char **argv)
{
  int runs = argc > 1 ? MAX (atoi (argv[1]), 1) : 5;
  const char *peer_python = g_getenv ("SL_PEER_PYTHON") ? g_getenv ("SL_PEER_PYTHON") : "/usr/bin/python3";
  g_autofree char *folder = g_build_filename (g_get_tmp_dir (), "sightline-bench-summary", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GArray) ours = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) peers = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) peer_loads = g_array_new (FALSE, FALSE, sizeof (double));
  double peak_rss = 0, peer_rss = 0, size_mb, ours_s, peer_s, peer_load_s;
  gint64 peer_points = -1;
  GStatBuf st;

  path = generate (folder);
  if (g_stat (path, &st) != 0)
    g_error ("cannot stat %s", path);
  size_mb = st.st_size / 1e6;

  for (int i = 0; i < runs; i++)
    {
      const char * const cli_argv[] = { SL_CLI_PATH, "summary", "--json", path, NULL };
      const char * const peer_argv[] = { peer_python, SL_PEER_SCRIPT, path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *peer_out = NULL;
      g_autofree char *peer_err = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *rss_line;
      double seconds;
      JsonObject *result;

      seconds = run_timed (cli_argv, "SL_PRINT_PEAK_RSS", &out, &err);
      g_array_append_val (ours, seconds);
      rss_line = strstr (err, "peak_rss_bytes=");
      if (rss_line != NULL)
        peak_rss = MAX (peak_rss, g_ascii_strtod (rss_line + strlen ("peak_rss_bytes="), NULL) / 1e6);

      seconds = run_timed (peer_argv, NULL, &peer_out, &peer_err);
      g_array_append_val (peers, seconds);
      if (!json_parser_load_from_data (parser, peer_out, -1, NULL))
        g_error ("the peer printed no JSON: %s", peer_out);
      result = json_node_get_object (json_parser_get_root (parser));
      seconds = json_object_get_double_member (result, "seconds");
      g_array_append_val (peer_loads, seconds);
      peer_rss = MAX (peer_rss, json_object_get_int_member (result, "peak_rss_bytes") / 1e6);
      peer_points = json_object_get_int_member (result, "scalar_points");
    }

  ours_s = median (ours);
  peer_s = median (peers);
  peer_load_s = median (peer_loads);

  printf ("file: %s (%.1f MB; %d scalar tags × %d steps, %d histogram tags × %d steps)\n",
          path, size_mb, N_SCALAR_TAGS, N_SCALAR_STEPS, N_HISTOGRAM_TAGS, N_HISTOGRAM_STEPS);
  printf ("runs: %d each, alternating\n", runs);
  printf ("sightline-cli summary --json: median %.3f s (min %.3f, max %.3f), %.0f MB/s, peak RSS %.1f MB (%.2f × file)\n",
          ours_s, g_array_index (ours, double, 0), g_array_index (ours, double, ours->len - 1),
          size_mb / ours_s, peak_rss, peak_rss / size_mb);
  printf ("python3-protobuf peer: median %.3f s process (%.3f s load), %.1f MB/s, peak RSS %.1f MB, %lld scalar points\n",
          peer_s, peer_load_s, size_mb / peer_s, peer_rss, (long long) peer_points);
  printf ("ratio: %.1f × faster (process to process)\n", peer_s / ours_s);
  printf ("goal ≥ %.0f MB/s: %s\n", GOAL_MB_PER_S, goal (size_mb / ours_s >= GOAL_MB_PER_S));
  printf ("goal ≥ %.0f × the peer: %s\n", GOAL_PEER_RATIO, goal (peer_s / ours_s >= GOAL_PEER_RATIO));
  printf ("goal peak memory ≤ %.0f × file size: %s\n", GOAL_RSS_FACTOR, goal (peak_rss <= GOAL_RSS_FACTOR * size_mb));

  return 0;
}
