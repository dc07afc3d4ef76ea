/* bench-startup.c: start to first frame, and memory with an empty workspace
 *
 * Starts `sightline --quit-after-first-frame` and, alternately in the same
 * run, the bare libadwaita window of bench-peer-window, several times each.
 * Prints the medians, the spread and the ratio to the peer. Each start gets
 * a fresh, empty data folder: the workspace database is created on the way.
 *
 * Goals (from the foundation issue): first frame in 500 ms or less, idle
 * memory 120 MB or less.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-platform.h"

#define GOAL_FIRST_FRAME_MS 500.0
#define GOAL_RSS_MB 120.0

typedef struct {
  double wall_ms;   /* from spawn to the first-frame line */
  double self_ms;   /* as the program measured it, from main() */
  double rss_mb;
} Sample;

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *)a;
  double db = *(const double *)b;

  return da < db ? -1 : da > db ? 1 : 0;
}

static double
median_of (GArray *samples,
           gsize   offset,
           double *min,
           double *max)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < samples->len; i++)
    {
      const guint8 *base = (const guint8 *)&g_array_index (samples, Sample, i);
      double v = *(const double *)(base + offset);

      g_array_append_val (values, v);
    }
  g_array_sort (values, compare_doubles);

  *min = g_array_index (values, double, 0);
  *max = g_array_index (values, double, values->len - 1);
  if (values->len % 2)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) + g_array_index (values, double, values->len / 2)) / 2;
}

static gboolean
run_once (const char  *program,
          const char  *schema_dir,
          Sample      *sample,
          GError     **error)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autofree char *home = g_dir_make_tmp ("sl-bench-XXXXXX", error);
  g_autofree char *data = NULL;
  g_autofree char *cache = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) input = NULL;
  g_autofree char *line = NULL;
  g_autofree char *rm_home = NULL;
  double self_ms = 0;
  guint64 rss_kb = 0;
  gint64 started;

  if (home == NULL)
    return FALSE;

  data = g_build_filename (home, "data", NULL);
  cache = g_build_filename (home, "cache", NULL);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", cache, TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_SCHEMA_DIR", schema_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "NO_AT_BRIDGE", "1", TRUE);

  started = g_get_monotonic_time ();
  process = g_subprocess_launcher_spawn (launcher, error, program, "--quit-after-first-frame", NULL);
  if (process == NULL)
    return FALSE;

  input = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  while ((line = g_data_input_stream_read_line (input, NULL, NULL, error)) != NULL)
    {
      if (sscanf (line, "first-frame-ms=%lf rss-kb=%" G_GUINT64_FORMAT, &self_ms, &rss_kb) == 2)
        break;
      g_clear_pointer (&line, g_free);
    }

  sample->wall_ms = (g_get_monotonic_time () - started) / 1000.0;
  sample->self_ms = self_ms;
  sample->rss_mb = rss_kb / 1024.0;

  if (!g_subprocess_wait_check (process, NULL, error))
    return FALSE;

  rm_home = g_strdup_printf ("rm -rf '%s'", home);
  g_spawn_command_line_sync (rm_home, NULL, NULL, NULL, NULL);

  if (line == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s printed no first-frame line", program);
      return FALSE;
    }

  return TRUE;
}

static void
print_row (const char *name,
           GArray     *samples,
           double     *median_wall,
           double     *median_rss)
{
  double wall_min, wall_max, self_min, self_max, rss_min, rss_max;
  double wall = median_of (samples, G_STRUCT_OFFSET (Sample, wall_ms), &wall_min, &wall_max);
  double self = median_of (samples, G_STRUCT_OFFSET (Sample, self_ms), &self_min, &self_max);
  double rss = median_of (samples, G_STRUCT_OFFSET (Sample, rss_mb), &rss_min, &rss_max);

  g_print ("%-22s %8.1f ms (%6.1f-%6.1f) %8.1f ms %8.1f MB (%5.1f-%5.1f)\n",
           name, wall, wall_min, wall_max, self, rss, rss_min, rss_max);
  *median_wall = wall;
  *median_rss = rss;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ours = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_autoptr(GArray) peer = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_autofree char *self_path = g_canonicalize_filename (argv[0], NULL);
  g_autofree char *self_dir = g_path_get_dirname (self_path);
  g_autofree char *build_root = g_canonicalize_filename ("../..", self_dir);
  g_autofree char *sightline = g_build_filename (build_root, "src", "ui", "sightline", NULL);
  g_autofree char *peer_program = g_build_filename (self_dir, "bench-peer-window", NULL);
  g_autofree char *schema_dir = g_build_filename (build_root, "data", NULL);
  int runs = argc > 1 ? atoi (argv[1]) : 11;
  double our_wall, our_rss, peer_wall, peer_rss;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_printerr ("bench-startup needs a display; run it through build-aux/dev.sh bench\n");
      return 1;
    }

  /* Both programs draw with the renderer Sightline would pick. */
  if (g_getenv ("GSK_RENDERER") == NULL && !sl_platform_has_gpu_render_node ())
    g_setenv ("GSK_RENDERER", "cairo", TRUE);

  /* One start of each first, not counted: it loads libraries and fonts
   * into the page cache the way a second start on a desktop finds them. */
  for (int i = -1; i < runs; i++)
    {
      Sample a, b;

      if (!run_once (sightline, schema_dir, &a, &error) ||
          !run_once (peer_program, schema_dir, &b, &error))
        {
          g_printerr ("bench-startup: %s\n", error->message);
          return 1;
        }
      if (i >= 0)
        {
          g_array_append_val (ours, a);
          g_array_append_val (peer, b);
        }
    }

  g_print ("Start to first frame and resident memory, %d starts each, renderer %s\n",
           runs, g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default");
  g_print ("%-22s %-28s %-11s %s\n", "program", "first frame, median (range)", "in-process", "memory, median (range)");
  print_row ("sightline", ours, &our_wall, &our_rss);
  print_row ("bare libadwaita window", peer, &peer_wall, &peer_rss);
  g_print ("ratio sightline/peer: first frame %.2fx, memory %.2fx\n", our_wall / peer_wall, our_rss / peer_rss);
  g_print ("goals: first frame <= %.0f ms: %s; idle memory <= %.0f MB: %s\n",
           GOAL_FIRST_FRAME_MS, our_wall <= GOAL_FIRST_FRAME_MS ? "met" : "MISSED",
           GOAL_RSS_MB, our_rss <= GOAL_RSS_MB ? "met" : "MISSED");

  return 0;
}
