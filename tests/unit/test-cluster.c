/* test-cluster.c: the cluster loader and summary on generated clusters
 *
 * Ranks of torch_npu folders with a known slow rank, slow link and
 * straggler; msprof-analyze's cluster_analysis_output, whose rank folders
 * are matched but not read; MindSpore files of several devices in one
 * folder; ranks with missing files and damaged rows; the shared spread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gstdio.h>

#include "sl-cluster-loader.h"
#include "sl-cluster-summary.h"
#include "sl-spread.h"

#define STEP_HEADER "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n"

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
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

static char *
make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-cluster-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* One torch_npu rank: two steps of computing + communication + free µs,
 * an all-reduce of @elapse_ms and links to its ring neighbour of
 * @bandwidth GB/s (8 MB each). */
static void
write_pt_rank (const char *root,
               guint       rank,
               guint       n_ranks,
               double      computing_us,
               double      elapse_ms,
               double      bandwidth,
               gboolean    with_steps)
{
  g_autofree char *unit = g_strdup_printf ("%s/node%u_%u_ascend_pt", root, rank / 4, rank);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *info_name = g_strdup_printf ("profiler_info_%u.json", rank);
  g_autofree char *info = g_strdup_printf ("{\"rank_id\": %u}", rank);
  g_autofree char *steps = g_strdup_printf (STEP_HEADER "1,%g,300,50,350,200,%g,0\n2,%g,300,50,350,200,%g,0\n",
                                            computing_us, computing_us + 500, computing_us, computing_us + 500);
  guint next = (rank + 1) % n_ranks;
  g_autofree char *ops = g_strdup_printf (
    "{\"step1\": {\"collective\": {\"hcom_allReduce__1_0_1@7\": {\"Communication Time Info\": {"
    "\"Start Timestamp(us)\": 1000, \"Elapse Time(ms)\": %g, \"Transit Time(ms)\": 0.5, \"Wait Time(ms)\": %g,"
    " \"Synchronization Time(ms)\": 0.1, \"Idle Time(ms)\": 0}, \"Communication Bandwidth Info\": {}}}, \"p2p\": {}}}",
    elapse_ms, elapse_ms - 0.5);
  g_autofree char *matrix = g_strdup_printf (
    "{\"step1\": {\"collective\": {\"allreduce-top1@7\": {"
    "\"%u-%u\": {\"Transport Type\": \"LOCAL\", \"Transit Size(MB)\": 8, \"Transit Time(ms)\": 0.02, \"Bandwidth(GB/s)\": 400},"
    "\"%u-%u\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 8, \"Transit Time(ms)\": %g, \"Bandwidth(GB/s)\": %g}}}, \"p2p\": {}}}",
    rank, rank, rank, next, 8.0 / bandwidth, bandwidth);

  write_file (unit, info_name, info);
  if (with_steps)
    write_file (output, "step_trace_time.csv", steps);
  write_file (output, "communication.json", ops);
  write_file (output, "communication_matrix.json", matrix);
}

static SlClusterProfile *
load (const char *dir)
{
  g_autoptr(GError) error = NULL;
  SlClusterProfile *cluster = sl_cluster_load (dir, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (cluster);
  return cluster;
}

static gboolean
has_problem (SlClusterProfile *cluster,
             const char       *part1,
             const char       *part2)
{
  GListModel *problems = sl_cluster_profile_get_problems (cluster);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      const char *message = sl_problem_get_message (problem);

      if (strstr (message, part1) != NULL && (part2 == NULL || strstr (message, part2) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
test_spread (void)
{
  const double values[] = { 10, NAN, 12, 8, 10 };
  const double one[] = { 3 };
  SlSpread spread;

  g_assert_true (sl_spread_compute (values, G_N_ELEMENTS (values), &spread));
  g_assert_cmpuint (spread.n, ==, 4);
  g_assert_cmpuint (spread.max_index, ==, 2);
  g_assert_cmpuint (spread.min_index, ==, 3);
  g_assert_cmpfloat_with_epsilon (spread.mean, 10, 1e-12);
  g_assert_cmpfloat_with_epsilon (spread.percent, 40, 1e-12);
  g_assert_false (sl_spread_compute (one, 1, &spread));
  g_assert_false (sl_spread_compute (NULL, 0, &spread));
}

/* Rank 2 computes 20 % longer; the link 1-2 runs at a quarter of the
 * others' bandwidth; rank 3's all-reduce is the shortest: it came last. */
static void
test_slow_rank_and_link (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;
  const SlClusterRank *rank;
  const SlClusterCollective *collective;
  const SlCollectiveRank *straggler;

  for (guint r = 0; r < 4; r++)
    write_pt_rank (dir, r, 4, r == 2 ? 1500 : 1000, r == 3 ? 0.6 : 2.0 + r, r == 1 ? 5 : 20, TRUE);

  cluster = load (dir);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (sl_cluster_profile_get_problems (cluster)), ==, 0);
  rank = sl_cluster_profile_get_rank (cluster, 2);
  g_assert_cmpint (rank->rank_id, ==, 2);
  g_assert_nonnull (strstr (rank->dir, "node0_2_ascend_pt"));
  g_assert_cmpint (rank->layout, ==, SL_PROFILE_LAYOUT_ASCEND_PT);
  g_assert_true (rank->breakdown.overlap);
  g_assert_cmpuint (rank->breakdown.n_steps, ==, 2);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_COMPUTING], ==, 1500000);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_COMMUNICATION], ==, 300000);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_FREE], ==, 200000);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_OVERLAPPED], ==, 50000);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_STAGE], ==, 2000000);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_BUBBLE], ==, 0);
  g_assert_cmpint (rank->breakdown.step_ns, ==, 2000000);

  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  /* Step times 1.5, 1.5, 2.0, 1.5 ms: spread 0.5 / 1.625. */
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpuint (summary->slow_rank.slow_index, ==, 2);
  g_assert_cmpuint (summary->slow_rank.fast_index, ==, 0);
  g_assert_cmpfloat_with_epsilon (summary->slow_rank.spread.percent, 100.0 * 0.5 / 1.625, 1e-9);
  g_assert_cmpint (summary->slow_rank.phase, ==, SL_STEP_PHASE_COMPUTING);
  g_assert_cmpint (summary->slow_rank.phase_gap_ns, ==, 500000);

  /* Four HCCS links and four LOCAL ones in the matrix. */
  g_assert_cmpuint (sl_communication_get_n_links (summary->matrix), ==, 8);
  g_assert_true (summary->slow_link.found);
  g_assert_cmpstr (summary->slow_link.transport, ==, "HCCS");
  g_assert_cmpstr (summary->slow_link.link->first->key, ==, "1-2");
  g_assert_cmpuint (summary->slow_link.n_links, ==, 4);
  g_assert_cmpfloat_with_epsilon (sl_comm_link_sum_get_bandwidth (summary->slow_link.link), 5, 1e-9);
  g_assert_cmpfloat_with_epsilon (summary->slow_link.spread.mean, (5 + 20 + 20 + 20) / 4.0, 1e-9);

  g_assert_cmpuint (summary->collectives->len, ==, 1);
  collective = g_ptr_array_index (summary->collectives, 0);
  g_assert_cmpstr (collective->name, ==, "hcom_allReduce__1_0_1@7");
  g_assert_cmpuint (collective->ranks->len, ==, 4);
  straggler = &g_array_index (collective->ranks, SlCollectiveRank, collective->straggler);
  g_assert_cmpuint (straggler->rank_index, ==, 3);
  g_assert_cmpfloat_with_epsilon (collective->min_ms, 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (collective->max_ms, 4.0, 1e-12);
  g_assert_cmpuint (sl_cluster_summary_count_straggling (summary, 3), ==, 1);
  g_assert_cmpuint (sl_cluster_summary_count_straggling (summary, 0), ==, 0);

  remove_tree (dir);
}

/* Even ranks: no slow rank, no slow link. */
static void
test_balanced (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;

  for (guint r = 0; r < 3; r++)
    write_pt_rank (dir, r, 3, 1000 + r * 10, 2.0, 20, TRUE);
  cluster = load (dir);
  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  g_assert_true (summary->slow_rank.computed);
  g_assert_false (summary->slow_rank.found);
  g_assert_cmpuint (summary->slow_rank.slow_index, ==, 2);
  g_assert_true (summary->slow_link.computed);
  g_assert_false (summary->slow_link.found);
  g_assert_cmpfloat_with_epsilon (summary->slow_link.spread.percent, 0, 1e-9);
  remove_tree (dir);
}

/* Rank 1's folder lacks its step trace, rank 2 has no folder, rank 3's
 * step trace has a damaged row and its matrix is cut short. */
static void
test_missing_and_damaged (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *rank1 = NULL;
  g_autofree char *rank3_output = NULL;
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;
  const SlClusterRank *rank;

  write_pt_rank (dir, 0, 4, 1000, 2, 20, TRUE);
  write_pt_rank (dir, 1, 4, 1000, 2, 20, FALSE);
  write_pt_rank (dir, 3, 4, 1000, 2, 20, TRUE);
  rank3_output = g_build_filename (dir, "node0_3_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  write_file (rank3_output, "step_trace_time.csv", STEP_HEADER "1,1000,300,50,350,200,1500,0\n2,lots,300\n3,1000,300,50,350,200,1500,0\n");
  write_file (rank3_output, "communication_matrix.json", "{\"step1\": {\"collective\": {\"allreduce-top1@7\": {\"3-0\": {\"Transport");

  cluster = load (dir);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 3);
  rank1 = g_build_filename (dir, "node0_1_ascend_pt", NULL);
  g_assert_true (has_problem (cluster, "rank 1 has no step trace: looked for ASCEND_PROFILER_OUTPUT/step_trace_time.csv", rank1));
  g_assert_true (has_problem (cluster, "No files of rank 2 were found", "ranks 0 to 3"));

  /* The damaged row is reported and the good ones kept. */
  rank = sl_cluster_profile_get_rank (cluster, 2);
  g_assert_cmpint (rank->rank_id, ==, 3);
  g_assert_nonnull (rank->steps);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), >=, 2);
  g_assert_cmpint (rank->breakdown.phases[SL_STEP_PHASE_COMPUTING], ==, 1000000);
  g_assert_cmpuint (g_list_model_get_n_items (sl_cluster_profile_get_problems (cluster)), >=, 3);

  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  g_assert_cmpuint (summary->slow_rank.n_ranks, ==, 2);
  remove_tree (dir);
}

/* A rank without its communication files is a problem naming the files
 * and its folder; the others' links and collectives are still summed,
 * and the slow rank and the slow link still found. */
static void
test_missing_communication (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *rank2 = NULL;
  g_autofree char *rank2_output = NULL;
  g_autofree char *ops = NULL;
  g_autofree char *matrix = NULL;
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;
  const SlClusterCollective *collective;

  for (guint r = 0; r < 6; r++)
    write_pt_rank (dir, r, 6, r == 4 ? 1400 : 1000, 2, r == 1 ? 5 : 20, TRUE);
  rank2 = g_strdup_printf ("%s/node0_2_ascend_pt", dir);
  rank2_output = g_build_filename (rank2, "ASCEND_PROFILER_OUTPUT", NULL);
  ops = g_build_filename (rank2_output, "communication.json", NULL);
  matrix = g_build_filename (rank2_output, "communication_matrix.json", NULL);
  g_assert_cmpint (g_unlink (ops), ==, 0);
  g_assert_cmpint (g_unlink (matrix), ==, 0);

  cluster = load (dir);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 6);
  g_assert_true (has_problem (cluster, "rank 2 has no communication data: looked for "
                              "ASCEND_PROFILER_OUTPUT/communication.json, communication_matrix.json", rank2));
  g_assert_false (has_problem (cluster, "rank 3 has no communication data", NULL));
  g_assert_nonnull (sl_cluster_profile_get_rank (cluster, 2)->steps);

  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpint (sl_cluster_profile_get_rank (cluster, summary->slow_rank.slow_index)->rank_id, ==, 4);
  g_assert_true (summary->slow_link.found);
  g_assert_cmpstr (summary->slow_link.transport, ==, "HCCS");
  g_assert_cmpstr (summary->slow_link.link->first->key, ==, "1-2");
  /* Five ranks took part in the all-reduce: rank 2's record is missing. */
  g_assert_cmpuint (summary->collectives->len, ==, 1);
  collective = g_ptr_array_index (summary->collectives, 0);
  g_assert_cmpuint (collective->ranks->len, ==, 5);
  for (guint r = 0; r < collective->ranks->len; r++)
    g_assert_cmpuint (g_array_index (collective->ranks, SlCollectiveRank, r).rank_index, !=, 2);
  remove_tree (dir);
}

/* msprof-analyze's output has every rank's steps: the rank folders are
 * matched by their info file's name and not read; stage rows are no rank. */
static void
test_analysis_output (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *analysis = g_build_filename (dir, "cluster_analysis_output", NULL);
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;
  const SlClusterRank *rank;

  write_file (analysis, "cluster_step_trace_time.csv",
              "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive)\n"
              ",rank,0,1000,100,10,110,100,1200,0,100\n"
              ",rank,1,1000,100,10,110,100,1200,0,100\n"
              ",rank,2,1000,700,10,710,100,1800,0,700\n"
              ",stage,\"(0, 1, 2)\",1000,700,10,710,100,1800,0,700\n");
  write_file (analysis, "cluster_communication_matrix.json",
              "{\"(0, 1, 2)\": {\"step\": {\"allreduce-total@9\": {"
              "\"0-1\": {\"Transport Type\": \"RDMA\", \"Transit Size(MB)\": 80, \"Transit Time(ms)\": 4},"
              "\"1-2\": {\"Transport Type\": \"RDMA\", \"Transit Size(MB)\": 80, \"Transit Time(ms)\": 4},"
              "\"2-0\": {\"Transport Type\": \"RDMA\", \"Transit Size(MB)\": 80, \"Transit Time(ms)\": 8}}}}}");
  write_pt_rank (dir, 1, 3, 1000, 2, 20, TRUE);

  cluster = load (dir);
  g_assert_cmpstr (sl_cluster_profile_get_analysis_dir (cluster), ==, analysis);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 3);
  rank = sl_cluster_profile_get_rank (cluster, 1);
  g_assert_nonnull (rank->dir);
  g_assert_nonnull (strstr (rank->dir, "node0_1_ascend_pt"));
  /* Its own step trace was not read: only the analysis' file. */
  g_assert_cmpuint (rank->files->len, >=, 1);
  for (guint i = 0; i < rank->files->len; i++)
    g_assert_nonnull (strstr (g_ptr_array_index (rank->files, i), "cluster_analysis_output"));
  g_assert_null (sl_cluster_profile_get_rank (cluster, 0)->dir);

  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpint (sl_cluster_profile_get_rank (cluster, summary->slow_rank.slow_index)->rank_id, ==, 2);
  g_assert_cmpint (summary->slow_rank.phase, ==, SL_STEP_PHASE_COMMUNICATION);
  g_assert_true (summary->slow_link.found);
  g_assert_cmpstr (summary->slow_link.link->first->key, ==, "2-0");
  g_assert_cmpfloat_with_epsilon (sl_comm_link_sum_get_bandwidth (summary->slow_link.link), 10, 1e-9);
  remove_tree (dir);
}

/* MindSpore: every device's files in one folder, ticks of 10 ns. */
static void
test_mindspore (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *profiler = g_build_filename (dir, "profiler", NULL);
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;

  for (guint d = 0; d < 2; d++)
    {
      g_autofree char *name = g_strdup_printf ("step_trace_raw_%u_detail_time.csv", d);
      g_autofree char *hccl = g_strdup_printf ("hccl_raw_%u.csv", d);
      g_autofree char *text = g_strdup_printf (
        "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n"
        "1,0,%u,%u,100,%u,100,%u,1000\n-,0,0,%u,0,0,100,%u,1000\n",
        d == 0 ? 11100 : 21100, d == 0 ? 11100 : 21100, d == 0 ? 10100 : 20100, d == 0 ? 10000 : 20000,
        d == 0 ? 11100 : 21100, d == 0 ? 10000 : 20000);
      g_autofree char *links = g_strdup_printf (
        "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n"
        "1,1,0.5,\"{\"\"%u-%u\"\": {\"\"SDMA\"\": [2, 16, 8]}}\",\"{\"\"stream_1_0_AllReduce-op1\"\": [\"\"1\"\", %g, 0.1, {}]}\"\n",
        d, 1 - d, d == 0 ? 0.5 : 0.25);

      write_file (profiler, name, text);
      write_file (profiler, hccl, links);
    }
  write_file (profiler, "framework_raw_2.csv", "task_id,stream_id,block_dim,full_op_name,op_name,op_type,subgraph,op_info\n");

  cluster = load (dir);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 3);
  g_assert_false (sl_cluster_profile_get_rank (cluster, 0)->breakdown.overlap);
  g_assert_cmpint (sl_cluster_profile_get_rank (cluster, 1)->breakdown.phases[SL_STEP_PHASE_COMPUTING], ==, 200000);
  g_assert_cmpint (sl_cluster_profile_get_rank (cluster, 1)->breakdown.step_ns, ==, 211000);
  g_assert_true (has_problem (cluster, "rank 2 has no step trace: looked for step_trace_raw_2_detail_time.csv", profiler));

  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  g_assert_true (summary->slow_rank.found);
  g_assert_cmpuint (summary->slow_rank.slow_index, ==, 1);
  g_assert_cmpuint (sl_communication_get_n_links (summary->matrix), ==, 2);
  g_assert_cmpuint (summary->collectives->len, ==, 1);
  g_assert_cmpuint (g_array_index (((SlClusterCollective *)g_ptr_array_index (summary->collectives, 0))->ranks,
                                   SlCollectiveRank,
                                   ((SlClusterCollective *)g_ptr_array_index (summary->collectives, 0))->straggler)
                      .rank_index, ==, 1);
  remove_tree (dir);
}

/* Two folders claiming one rank: the first is kept and the second named;
 * a folder whose rank is written nowhere gets the next free number. */
static void
test_duplicate_and_unnamed (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *copy = g_build_filename (dir, "again", NULL);
  g_autofree char *unnamed = g_build_filename (dir, "zz_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autoptr(SlClusterProfile) cluster = NULL;

  write_pt_rank (dir, 0, 2, 1000, 2, 20, TRUE);
  write_pt_rank (dir, 1, 2, 1000, 2, 20, TRUE);
  write_pt_rank (copy, 1, 2, 1000, 2, 20, TRUE);
  write_file (unnamed, "step_trace_time.csv", STEP_HEADER "1,1000,300,50,350,200,1500,0\n");

  cluster = load (dir);
  g_assert_cmpuint (sl_cluster_profile_get_n_ranks (cluster), ==, 3);
  g_assert_true (has_problem (cluster, "Two folders hold rank 1", "the first one is used"));
  g_assert_nonnull (strstr (sl_cluster_profile_get_rank (cluster, 1)->dir, "again"));
  g_assert_true (has_problem (cluster, "zz_ascend_pt", "shown as rank 2"));
  g_assert_cmpint (sl_cluster_profile_get_rank (cluster, 2)->rank_id, ==, 2);
  remove_tree (dir);
}

static void
test_not_a_cluster (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlClusterProfile) cluster = NULL;

  write_file (dir, "notes.txt", "nothing here");
  cluster = sl_cluster_load (dir, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_null (cluster);
  g_clear_error (&error);
  cluster = sl_cluster_load (missing, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cluster/spread", test_spread);
  g_test_add_func ("/cluster/slow-rank-and-link", test_slow_rank_and_link);
  g_test_add_func ("/cluster/balanced", test_balanced);
  g_test_add_func ("/cluster/missing-and-damaged", test_missing_and_damaged);
  g_test_add_func ("/cluster/missing-communication", test_missing_communication);
  g_test_add_func ("/cluster/analysis-output", test_analysis_output);
  g_test_add_func ("/cluster/mindspore", test_mindspore);
  g_test_add_func ("/cluster/duplicate-and-unnamed", test_duplicate_and_unnamed);
  g_test_add_func ("/cluster/not-a-cluster", test_not_a_cluster);

  return g_test_run ();
}
