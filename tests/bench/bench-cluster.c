/* bench-cluster.c: loading and summarising a 512-rank cluster profile
 *
 * Generates two clusters of N_RANKS ranks in a temporary folder and times
 * sl_cluster_load() plus sl_cluster_summary_new() on each (the median of
 * several runs, the files in the page cache after the first):
 *   per-rank:  each rank a torch_npu folder with its step trace (20 steps),
 *              communication.json (N_OPS all-reduces) and
 *              communication_matrix.json (a ring: two links per op);
 *   analysis:  the same folders plus msprof-analyze's
 *              cluster_analysis_output (cluster_step_trace_time.csv,
 *              cluster_communication.json and _matrix.json for every
 *              rank), where the rank folders are matched, not read.
 * One rank computes 20 % longer and one link runs at half the speed, so
 * the summary has a slow rank and a slow link to find.
 *
 * Built with the interface and run with a display, it also times what a
 * user waits for: from asking the Cluster document to load until the
 * first frame drawn with its summary filled in (the rank table, the
 * bars, the matrix), in a window of its own, the median of RUNS.
 *
 * The goal is under 2 s for each; the figures are printed, never judged.
 * On a shared machine the processor time says what the wall time cannot:
 * the reading threads are then mostly waiting for a processor.
 *
 * Usage: bench-cluster [N_RANKS [RUNS]]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib/gstdio.h>

#include "sl-cluster-loader.h"
#include "sl-cluster-summary.h"

#if SL_BENCH_CLUSTER_PAGE
#include <adwaita.h>
#include <libpanel.h>

#include "sl-cluster-page.h"
#endif

#define GOAL_S  2.0
#define N_STEPS 20
#define N_OPS   40
#define SLOW_RANK 7

static void
write_file (const char *dir,
            const char *name,
            GString    *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_mkdir_with_parents (dir, 0755);
  if (!g_file_set_contents (path, text->str, (gssize)text->len, NULL))
    g_error ("cannot write %s", path);
}

static double
computing_us (guint rank)
{
  return rank == SLOW_RANK ? 96000 : 80000;
}

static double
link_time_ms (guint rank)
{
  return rank == 3 ? 2.0 : 1.0;
}

static void
write_rank (const char *root,
            guint       rank,
            guint       n_ranks)
{
  g_autofree char *unit = g_strdup_printf ("%s/worker%u_%u_ascend_pt", root, rank, 1000 + rank);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *info_name = g_strdup_printf ("profiler_info_%u.json", rank);
  g_autoptr(GString) text = g_string_new (NULL);
  guint next = (rank + 1) % n_ranks, before = (rank + n_ranks - 1) % n_ranks;

  g_string_printf (text, "{\"rank_id\": %u, \"config\": {}}", rank);
  write_file (unit, info_name, text);

  g_string_assign (text, "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                         "Communication(Not Overlapped and Exclude Receive),Preparing\n");
  for (guint s = 0; s < N_STEPS; s++)
    g_string_append_printf (text, "%u,%.3f,%.3f,1000,%.3f,12000,%.3f,0,%.3f,100\n", s + 1, computing_us (rank),
                            20000.0 + rank % 5, 21000.0 + rank % 5, 112000.0 + computing_us (rank), 20000.0);
  write_file (output, "step_trace_time.csv", text);

  g_string_assign (text, "{");
  for (guint s = 0; s < 2; s++)
    {
      g_string_append_printf (text, "%s\"step%u\": {\"p2p\": {}, \"collective\": {", s ? "," : "", s + 1);
      for (guint o = 0; o < N_OPS; o++)
        g_string_append_printf (text,
                                "%s\"hcom_allReduce__1_%u_1@99\": {\"Communication Time Info\": {\"Start Timestamp(us)\": %u,"
                                " \"Elapse Time(ms)\": %.4f, \"Transit Time(ms)\": 0.5, \"Wait Time(ms)\": %.4f,"
                                " \"Synchronization Time(ms)\": 0.1, \"Idle Time(ms)\": 0.2}, \"Communication Bandwidth Info\":"
                                " {\"HCCS\": {\"Transit Size(MB)\": 16, \"Transit Time(ms)\": 0.5, \"Bandwidth(GB/s)\": 32,"
                                " \"Large Packet Ratio\": 0, \"Size Distribution\": {\"16\": [1, 0.5]}}}}",
                                o ? "," : "", o, 1000 * o, 1.0 + (rank == SLOW_RANK ? 0 : 0.8), 0.5 + (rank == SLOW_RANK ? 0 : 0.8));
      g_string_append (text, "}}");
    }
  g_string_append (text, "}");
  write_file (output, "communication.json", text);

  g_string_assign (text, "{");
  for (guint s = 0; s < 2; s++)
    {
      g_string_append_printf (text, "%s\"step%u\": {\"p2p\": {}, \"collective\": {", s ? "," : "", s + 1);
      for (guint o = 0; o < N_OPS; o++)
        g_string_append_printf (text,
                                "%s\"allreduce-op%u@99\": {\"%u-%u\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 16,"
                                " \"Transit Time(ms)\": %.2f, \"Bandwidth(GB/s)\": %.2f},"
                                " \"%u-%u\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 16,"
                                " \"Transit Time(ms)\": 1.0, \"Bandwidth(GB/s)\": 16}}",
                                o ? "," : "", o, rank, next, link_time_ms (rank), 16 / link_time_ms (rank), rank, before);
      g_string_append (text, "}}");
    }
  g_string_append (text, "}");
  write_file (output, "communication_matrix.json", text);
}

static void
write_analysis (const char *root,
                guint       n_ranks)
{
  g_autofree char *dir = g_build_filename (root, "cluster_analysis_output", NULL);
  g_autoptr(GString) text = g_string_new ("Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,"
                                          "Communication,Free,Stage,Bubble,"
                                          "Communication(Not Overlapped and Exclude Receive)\n");

  for (guint s = 0; s < N_STEPS; s++)
    for (guint r = 0; r < n_ranks; r++)
      g_string_append_printf (text, "%u,rank,%u,%.3f,20000,1000,21000,12000,%.3f,0,20000\n", s + 1, r, computing_us (r),
                              112000.0 + computing_us (r));
  write_file (dir, "cluster_step_trace_time.csv", text);

  g_string_assign (text, "{\"(0-all)\": {\"step1\": {");
  for (guint o = 0; o < N_OPS; o++)
    {
      g_string_append_printf (text, "%s\"allreduce-op%u@99\": {", o ? "," : "", o);
      for (guint r = 0; r < n_ranks; r++)
        g_string_append_printf (text, "%s\"%u-%u\": {\"Transport Type\": \"RDMA\", \"Transit Size(MB)\": 16,"
                                " \"Transit Time(ms)\": %.2f, \"Bandwidth(GB/s)\": %.2f}",
                                r ? "," : "", r, (r + 1) % n_ranks, link_time_ms (r), 16 / link_time_ms (r));
      g_string_append (text, "}");
    }
  g_string_append (text, "}}}");
  write_file (dir, "cluster_communication_matrix.json", text);

  g_string_assign (text, "{\"(0-all)\": {\"step1\": {");
  for (guint o = 0; o < N_OPS; o++)
    {
      g_string_append_printf (text, "%s\"hcom_allReduce__1_%u_1@99\": {", o ? "," : "", o);
      for (guint r = 0; r < n_ranks; r++)
        g_string_append_printf (text, "%s\"%u\": {\"Communication Time Info\": {\"Elapse Time(ms)\": %.3f,"
                                " \"Transit Time(ms)\": 0.5, \"Wait Time(ms)\": %.3f, \"Synchronization Time(ms)\": 0.1,"
                                " \"Idle Time(ms)\": 0}, \"Communication Bandwidth Info\": {}}",
                                r ? "," : "", r, r == SLOW_RANK ? 1.0 : 1.8, r == SLOW_RANK ? 0.5 : 1.3);
      g_string_append (text, "}");
    }
  g_string_append (text, "}}}");
  write_file (dir, "cluster_communication.json", text);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static void
run (const char *label,
     const char *dir,
     guint       runs)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_ranks = 0, n_problems = 0, n_links = 0;
  gboolean slow_rank = FALSE, slow_link = FALSE;

  for (guint i = 0; i < runs; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlClusterProfile) cluster = NULL;
      g_autoptr(SlClusterSummary) summary = NULL;
      gint64 start = g_get_monotonic_time ();
      clock_t cpu_start = clock ();
      double seconds, cpu_seconds;

      cluster = sl_cluster_load (dir, NULL, &error);
      if (cluster == NULL)
        g_error ("%s", error->message);
      summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
      seconds = (g_get_monotonic_time () - start) / 1e6;
      cpu_seconds = (double)(clock () - cpu_start) / CLOCKS_PER_SEC;
      g_array_append_val (times, seconds);
      g_array_append_val (cpu_times, cpu_seconds);
      n_ranks = sl_cluster_profile_get_n_ranks (cluster);
      n_problems = g_list_model_get_n_items (sl_cluster_profile_get_problems (cluster));
      n_links = sl_communication_get_n_links (summary->matrix);
      slow_rank = summary->slow_rank.found;
      slow_link = summary->slow_link.found;
    }
  g_array_sort (times, compare_doubles);
  g_array_sort (cpu_times, compare_doubles);
  printf ("%-10s ranks %u, links %u, problems %u, slow rank %s, slow link %s\n", label, n_ranks, n_links, n_problems,
          slow_rank ? "found" : "none", slow_link ? "found" : "none");
  printf ("%-10s load + summary: median %.3f s (min %.3f, max %.3f, %u runs); goal < %.1f s\n", label,
          g_array_index (times, double, times->len / 2), g_array_index (times, double, 0),
          g_array_index (times, double, times->len - 1), runs, GOAL_S);
  /* On a busy machine the wall time says more about the neighbours. */
  printf ("%-10s processor time (all threads): median %.3f s\n", label, g_array_index (cpu_times, double, cpu_times->len / 2));
}

#if SL_BENCH_CLUSTER_PAGE
typedef struct {
  SlDocument *page;
  gboolean    ready;
  gint64      drawn_at;   /* the first frame painted once ready */
} PageRun;

static void
after_paint_cb (GdkFrameClock *clock,
                PageRun       *run)
{
  if (run->ready && run->drawn_at == 0)
    run->drawn_at = g_get_monotonic_time ();
}

static void
state_cb (SlDocument *page,
          GParamSpec *pspec,
          PageRun    *run)
{
  SlDocumentState state = sl_document_get_state (page);

  if (state == SL_DOCUMENT_FAILED)
    g_error ("%s", sl_document_get_error (page));
  run->ready = state == SL_DOCUMENT_READY;
}

/* One Cluster document in a window of its own: from load() until its
 * summary is on screen. */
static double
time_page (const char *dir)
{
  GtkWidget *window = gtk_window_new ();
  PageRun run = { NULL, FALSE, 0 };
  gint64 start, deadline;
  gulong paint_id;
  GdkFrameClock *clock;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  run.page = g_object_new (SL_TYPE_CLUSTER_PAGE, "path", dir, NULL);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (run.page));
  gtk_window_present (GTK_WINDOW (window));
  /* The window is mapped and idle before the clock starts. */
  while (!gtk_widget_get_mapped (window))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  clock = gtk_widget_get_frame_clock (window);
  paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &run);
  g_signal_connect (run.page, "notify::state", G_CALLBACK (state_cb), &run);
  start = g_get_monotonic_time ();
  deadline = start + 120 * G_USEC_PER_SEC;
  sl_document_load (run.page);
  while (run.drawn_at == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, paint_id);
  if (run.drawn_at == 0)
    g_error ("the Cluster document of %s was not drawn within 120 s", dir);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return (run.drawn_at - start) / 1e6;
}

static void
run_page (const char *label,
          const char *dir,
          guint       runs)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < runs; i++)
    {
      double seconds = time_page (dir);

      g_array_append_val (times, seconds);
    }
  g_array_sort (times, compare_doubles);
  printf ("%-10s Cluster document, load to summary drawn: median %.3f s (min %.3f, max %.3f, %u runs); goal < %.1f s\n",
          label, g_array_index (times, double, times->len / 2), g_array_index (times, double, 0),
          g_array_index (times, double, times->len - 1), runs, GOAL_S);
}

static gboolean
init_interface (void)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      printf ("no display: the Cluster document is not timed\n");
      return FALSE;
    }
  gtk_init ();
  adw_init ();
  panel_init ();
  return TRUE;
}
#endif

int
main (int    argc,
      char **argv)
{
  guint n_ranks = argc > 1 ? (guint)CLAMP (atoi (argv[1]), 2, 65536) : 512;
  guint runs = argc > 2 ? (guint)CLAMP (atoi (argv[2]), 1, 100) : 5;
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("bench-cluster-XXXXXX", &error);
  g_autofree char *per_rank = NULL;
  g_autofree char *analysis = NULL;
  gint64 start;

  if (root == NULL)
    g_error ("%s", error->message);
  per_rank = g_build_filename (root, "per-rank", NULL);
  analysis = g_build_filename (root, "analysis", NULL);

  start = g_get_monotonic_time ();
  for (guint r = 0; r < n_ranks; r++)
    {
      write_rank (per_rank, r, n_ranks);
      write_rank (analysis, r, n_ranks);
    }
  write_analysis (analysis, n_ranks);
  printf ("generated two clusters of %u ranks in %.1f s (%u threads for reading)\n", n_ranks,
          (g_get_monotonic_time () - start) / 1e6, g_get_num_processors ());

  run ("per-rank", per_rank, runs);
  run ("analysis", analysis, runs);
#if SL_BENCH_CLUSTER_PAGE
  if (init_interface ())
    {
      run_page ("per-rank", per_rank, runs);
      run_page ("analysis", analysis, runs);
    }
#endif

  remove_tree (root);
  return 0;
}
