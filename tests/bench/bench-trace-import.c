/* bench-trace-import.c: importing a large Chrome trace, against JSON peers
 *
 * Generates deterministic Chrome trace JSON files of 1,000,000 events
 * (about 130 MB) and, when SL_BENCH_TRACE_LARGE=1, 8,000,000 events (about
 * 1 GB) in a temporary folder that is removed afterwards. Each is read by
 * `sightline-cli trace-stats --json --report-memory` several times, and in
 * the same run by three peers: Python's json.load, json-glib's JsonParser
 * and a bare yajl parse with empty callbacks (the floor for any yajl
 * reader). Prints median times, MB/s, peak memory per event and the
 * ratios. Sightline and yajl run in turn, round after round, so the
 * ratio holds on a loaded machine; SL_BENCH_BASELINE_CLI names another
 * sightline-cli (an older build) to run in the same rounds, and
 * SL_BENCH_TRACE_DOM_PEERS=0 leaves out the slow document-tree peers.
 *
 * Goals (from the profiler views issue): at least 300 MB/s on a 1 GB plain
 * trace, at most 80 bytes of peak memory per event at 8M events.
 *
 * Usage: bench-trace-import [RUNS]
 *        bench-trace-import --peer json-glib|yajl FILE   (used by itself)
 *        bench-trace-import --generate N_EVENTS FILE     (writes one trace, e.g.
 *                                                         32000000 events, 4.5 GB)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <yajl/yajl_parse.h>

#include "sl-platform.h"

#define GOAL_MB_PER_S        300.0
#define GOAL_BYTES_PER_EVENT 80.0

static const char python_peer[] =
  "import json, resource, sys\n"
  "with open(sys.argv[1], 'rb') as f:\n"
  "    d = json.load(f)\n"
  "events = d['traceEvents'] if isinstance(d, dict) else d\n"
  "n = sum(1 for e in events if e.get('ph'))\n"
  "print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)\n";

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

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

static guint32
next_random (guint32 *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

static void
append_us (GString *out,
           gint64   ns)
{
  g_string_append_printf (out, "%lld.%03d", (long long) (ns / 1000), (int) (ns % 1000));
}

/* Threads run blocks of one parent X with six children, one of which has
 * two grandchildren; counters and flows are sprinkled in. */
static void
generate (const char *path,
          guint64     n_events)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 22);
  gint64 thread_ts[16];
  guint32 state = 20261130;
  guint64 n = 0, block = 0, flow_id = G_GUINT64_CONSTANT (9007199254740993);
  FILE *file = fopen (path, "wb");

  if (file == NULL)
    g_error ("cannot write %s", path);

  g_string_append (out, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
  for (guint p = 0; p < 4; p++)
    {
      g_string_append_printf (out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"worker %u\"}},\n", 1000 + p, p);
      n++;
    }
  for (guint t = 0; t < 16; t++)
    {
      g_string_append_printf (out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"stream %u\"}},\n", 1000 + t % 4, 20 + t, t);
      thread_ts[t] = G_GINT64_CONSTANT (1700000000000000000) + t * 777;
      n++;
    }

  while (n < n_events)
    {
      guint t = block % 16;
      guint pid = 1000 + t % 4, tid = 20 + t;
      gint64 ts = thread_ts[t];
      gint64 child_ts = ts + 5123;

      g_string_append_printf (out, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ProfilerStep#%llu\",\"pid\":%u,\"tid\":%u,\"ts\":",
                              (unsigned long long) (block / 16 / 64), pid, tid);
      append_us (out, ts);
      g_string_append (out, ",\"dur\":900.5}");
      n++;

      for (guint c = 0; c < 6 && n < n_events; c++)
        {
          guint op = next_random (&state) % 200;

          g_string_append_printf (out, ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"aten::op_%u\",\"pid\":%u,\"tid\":%u,\"ts\":", op, pid, tid);
          append_us (out, child_ts);
          g_string_append_printf (out, ",\"dur\":100.25,\"args\":{\"External id\":%u,\"Input Dims\":[[%u,3],[64]]}}",
                                  next_random (&state) % 100000, op);
          n++;
          if (c == 2)
            for (guint g = 0; g < 2 && n < n_events; g++)
              {
                g_string_append_printf (out, ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"aclnnKernel_%u\",\"pid\":%u,\"tid\":%u,\"ts\":",
                                        next_random (&state) % 50, pid, tid);
                append_us (out, child_ts + 1000 + g * 40000);
                g_string_append (out, ",\"dur\":30}");
                n++;
              }
          child_ts += 140000;
        }

      if (block % 10 == 0 && n < n_events)
        {
          g_string_append_printf (out, ",\n{\"ph\":\"C\",\"name\":\"memory\",\"pid\":%u,\"ts\":", pid);
          append_us (out, ts);
          g_string_append_printf (out, ",\"args\":{\"allocated\":%u,\"reserved\":%u}}",
                                  next_random (&state) % 100000, 200000);
          n++;
        }
      if (block % 5 == 0 && n + 1 < n_events)
        {
          g_string_append_printf (out, ",\n{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"launch\",\"id\":%llu,\"pid\":%u,\"tid\":%u,\"ts\":",
                                  (unsigned long long) flow_id, pid, tid);
          append_us (out, ts + 6000);
          g_string_append_printf (out, "},\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"launch\",\"id\":%llu,\"pid\":%u,\"tid\":%u,\"ts\":",
                                  (unsigned long long) flow_id, 1000 + (t + 1) % 4, 20 + (t + 1) % 16);
          append_us (out, thread_ts[(t + 1) % 16] + 6000);
          g_string_append (out, "}");
          flow_id++;
          n += 2;
        }
      g_string_append (out, ",\n");

      thread_ts[t] = ts + 1000000;
      block++;
      if (out->len > (1 << 22) - 4096)
        {
          fwrite (out->str, 1, out->len, file);
          g_string_truncate (out, 0);
        }
    }
  /* drop the last ",\n" */
  if (out->len >= 2)
    g_string_truncate (out, out->len - 2);
  g_string_append (out, "\n]}\n");
  fwrite (out->str, 1, out->len, file);
  fclose (file);
}

/* ---- peers run in a process of their own, so their memory is theirs ---- */

static int
peer_json_glib (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  guint n = 0;

  if (!json_parser_load_from_file (parser, path, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  root = json_parser_get_root (parser);
  if (JSON_NODE_HOLDS_OBJECT (root))
    n = json_array_get_length (json_object_get_array_member (json_node_get_object (root), "traceEvents"));
  printf ("%u %llu\n", n, (unsigned long long) sl_platform_get_peak_resident_bytes ());
  return 0;
}

static int
peer_yajl (const char *path)
{
  static const yajl_callbacks empty = { 0 };
  g_autofree guint8 *buffer = g_malloc (1 << 20);
  yajl_handle handle = yajl_alloc (&empty, NULL, NULL);
  FILE *file = fopen (path, "rb");
  size_t n;

  if (file == NULL)
    return 1;
  while ((n = fread (buffer, 1, 1 << 20, file)) > 0)
    if (yajl_parse (handle, buffer, n) != yajl_status_ok)
      return 1;
  if (yajl_complete_parse (handle) != yajl_status_ok)
    return 1;
  fclose (file);
  yajl_free (handle);
  printf ("0 %llu\n", (unsigned long long) sl_platform_get_peak_resident_bytes ());
  return 0;
}

/* ---- timing ---- */

typedef struct {
  double   seconds;
  guint64  peak_rss;
  guint64  events;
} Run;

static gboolean
run_once (const char * const *argv,
          gboolean            cli_json,
          Run                *run)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("%s failed: %s %s\n", argv[0], error->message, err != NULL ? err : "");
      return FALSE;
    }
  run->seconds = (g_get_monotonic_time () - start) / 1e6;

  if (cli_json)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;

      if (!json_parser_load_from_data (parser, out, -1, &error))
        return FALSE;
      object = json_node_get_object (json_parser_get_root (parser));
      run->peak_rss = json_object_get_int_member (object, "peak_rss_bytes");
      run->events = json_object_get_int_member (object, "events");
    }
  else
    {
      unsigned long long events = 0, rss = 0;

      if (sscanf (out, "%llu %llu", &events, &rss) != 2)
        return FALSE;
      run->events = events;
      run->peak_rss = rss;
    }
  return TRUE;
}

typedef struct {
  const char *name;
  double      seconds;
  guint64     peak_rss;
  guint64     events;
  gboolean    ok;
} Result;

static Result
measure (const char          *name,
         const char * const  *argv,
         gboolean             cli_json,
         guint                runs)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  Result result = { name, 0, 0, 0, TRUE };

  for (guint i = 0; i < runs; i++)
    {
      Run run;

      if (!run_once (argv, cli_json, &run))
        {
          result.ok = FALSE;
          return result;
        }
      g_array_append_val (times, run.seconds);
      result.peak_rss = MAX (result.peak_rss, run.peak_rss);
      result.events = run.events;
    }
  result.seconds = median (times);
  return result;
}

/* Runs each command once a round, in turn, so a change in the machine's
 * load falls on all of them alike; medians of the rounds. */
typedef struct {
  const char          *name;
  const char * const  *argv;
  gboolean             cli_json;
  GArray              *times;
  Result               result;
} Contender;

static void
measure_alternating (Contender *contenders,
                     guint      n_contenders,
                     guint      runs)
{
  for (guint c = 0; c < n_contenders; c++)
    {
      contenders[c].times = g_array_new (FALSE, FALSE, sizeof (double));
      contenders[c].result = (Result) { contenders[c].name, 0, 0, 0, TRUE };
    }
  for (guint i = 0; i < runs; i++)
    for (guint c = 0; c < n_contenders; c++)
      {
        Contender *k = &contenders[(c + i) % n_contenders];
        Run run;

        if (!k->result.ok)
          continue;
        if (!run_once (k->argv, k->cli_json, &run))
          {
            k->result.ok = FALSE;
            continue;
          }
        g_array_append_val (k->times, run.seconds);
        k->result.peak_rss = MAX (k->result.peak_rss, run.peak_rss);
        k->result.events = run.events;
      }
  for (guint c = 0; c < n_contenders; c++)
    {
      if (contenders[c].result.ok)
        contenders[c].result.seconds = median (contenders[c].times);
      g_array_unref (contenders[c].times);
    }
}

static char *
load_average (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("unknown");
  fields = g_strsplit (text, " ", 4);
  if (g_strv_length (fields) < 3)
    return g_strdup ("unknown");
  return g_strdup_printf ("%s %s %s", fields[0], fields[1], fields[2]);
}

static void
print_result (const Result *r,
              double        size_mb,
              guint64       n_events,
              const Result *ours)
{
  if (!r->ok)
    {
      printf ("  %-22s failed\n", r->name);
      return;
    }
  printf ("  %-22s %8.3f s  %8.1f MB/s  peak %8.1f MB  %7.1f B/event", r->name, r->seconds,
          size_mb / r->seconds, r->peak_rss / 1048576.0, (double) r->peak_rss / n_events);
  if (ours != NULL && ours != r && ours->ok)
    printf ("  ratio %.2f", r->seconds / ours->seconds);
  printf ("\n");
}

static void
bench_size (const char *folder,
            const char *self_path,
            guint64     n_events,
            guint       runs,
            gboolean    with_dom_peers)
{
  g_autofree char *path = g_strdup_printf ("%s/trace-%llu.json", folder, (unsigned long long) n_events);
  g_autofree char *python = g_strdup (g_getenv ("SL_PEER_PYTHON") ? g_getenv ("SL_PEER_PYTHON") : "python3");
  const char *cli_argv[] = { SL_CLI_PATH, "trace-stats", "--json", "--report-memory", path, NULL };
  const char *python_argv[] = { python, "-c", python_peer, path, NULL };
  const char *glib_argv[] = { self_path, "--peer", "json-glib", path, NULL };
  const char *yajl_argv[] = { self_path, "--peer", "yajl", path, NULL };
  GStatBuf st;
  double size_mb;
  Result ours, yajl, glib, py;
  gint64 start = g_get_monotonic_time ();

  generate (path, n_events);
  if (g_stat (path, &st) != 0)
    g_error ("cannot stat %s", path);
  size_mb = st.st_size / 1e6;
  printf ("\n%llu events, %.1f MB (generated in %.1f s), median of %u runs;\n"
          "ratio = the peer's time / sightline's (above 1: sightline is faster):\n",
          (unsigned long long) n_events, size_mb, (g_get_monotonic_time () - start) / 1e6, runs);

  {
    g_autofree char *load_before = load_average ();
    g_autofree char *load_after = NULL;
    const char *baseline = g_getenv ("SL_BENCH_BASELINE_CLI");
    const char *baseline_argv[] = { baseline, "trace-stats", "--json", "--report-memory", path, NULL };
    Contender contenders[] = {
      { "sightline trace-stats", cli_argv, TRUE },
      { "yajl, empty callbacks", yajl_argv, FALSE },
      { "baseline trace-stats", baseline_argv, TRUE },
    };

    measure_alternating (contenders, baseline != NULL ? 3 : 2, runs);
    load_after = load_average ();
    printf ("  (load average %s before, %s after)\n", load_before, load_after);
    ours = contenders[0].result;
    yajl = contenders[1].result;
    print_result (&ours, size_mb, n_events, NULL);
    print_result (&yajl, size_mb, n_events, &ours);
    if (baseline != NULL)
      print_result (&contenders[2].result, size_mb, n_events, &ours);
  }
  if (with_dom_peers)
    {
      glib = measure ("json-glib JsonParser", glib_argv, FALSE, MIN (runs, 3));
      py = measure ("python3 json.load", python_argv, FALSE, MIN (runs, 3));
      print_result (&glib, size_mb, n_events, &ours);
      print_result (&py, size_mb, n_events, &ours);
    }
  if (ours.ok)
    {
      printf ("  events counted: %llu of %llu\n", (unsigned long long) ours.events, (unsigned long long) n_events);
      printf ("  goals: %.0f MB/s (%s), %.0f bytes per event (%s); %.0f%% of the yajl floor's speed\n",
              GOAL_MB_PER_S, size_mb / ours.seconds >= GOAL_MB_PER_S ? "met" : "not met",
              GOAL_BYTES_PER_EVENT, (double) ours.peak_rss / n_events <= GOAL_BYTES_PER_EVENT ? "met" : "not met",
              yajl.ok ? 100.0 * yajl.seconds / ours.seconds : 0.0);
    }
  g_unlink (path);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *self_path = NULL;
  g_autoptr(GError) error = NULL;
  guint runs = 3;

  if (argc == 4 && g_str_equal (argv[1], "--peer"))
    {
      if (g_str_equal (argv[2], "json-glib"))
        return peer_json_glib (argv[3]);
      if (g_str_equal (argv[2], "yajl"))
        return peer_yajl (argv[3]);
      return 2;
    }
  if (argc == 4 && g_str_equal (argv[1], "--generate"))
    {
      generate (argv[3], g_ascii_strtoull (argv[2], NULL, 10));
      return 0;
    }
  if (argc > 1)
    runs = MAX (1, atoi (argv[1]));

  self_path = strchr (argv[0], G_DIR_SEPARATOR) != NULL
              ? g_canonicalize_filename (argv[0], NULL)
              : g_find_program_in_path (argv[0]);
  if (!(folder = g_dir_make_tmp ("sightline-bench-trace-XXXXXX", &error)))
    g_error ("%s", error->message);

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("Chrome trace import on %u CPUs\n", sl_platform_get_n_cpus ());
  bench_size (folder, self_path, 1000000, runs, g_strcmp0 (g_getenv ("SL_BENCH_TRACE_DOM_PEERS"), "0") != 0);
  if (g_strcmp0 (g_getenv ("SL_BENCH_TRACE_LARGE"), "1") == 0)
    bench_size (folder, self_path, 8000000, runs,
                g_strcmp0 (g_getenv ("SL_BENCH_TRACE_LARGE_PEERS"), "1") == 0);
  else
    printf ("\n(set SL_BENCH_TRACE_LARGE=1 for the 8,000,000-event, 1 GB case)\n");

  g_rmdir (folder);
  return 0;
}
