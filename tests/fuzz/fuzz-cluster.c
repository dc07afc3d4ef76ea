/* fuzz-cluster.c: libFuzzer harness for the cluster loader and summary
 *
 * A small cluster is written once into a temporary folder: two torch_npu
 * rank folders (profiler_info, step_trace_time.csv, communication.json,
 * communication_matrix.json) and msprof-analyze's
 * cluster_analysis_output (cluster_step_trace_time.csv,
 * cluster_communication.json, _matrix.json). The input's first byte picks
 * one of those files, the rest replaces it; the cluster is loaded and
 * summarised as the Cluster document does, then the file is put back.
 * Every rank must have an id, every problem a message and a file, the
 * summary's indices must point into its arrays, and a spread must be a
 * number.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "sl-cluster-loader.h"
#include "sl-cluster-summary.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

typedef struct {
  const char *path;   /* under the cluster's folder */
  const char *text;   /* what it holds between inputs */
} Target;

static const char step_header[] =
  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n";

static const Target targets[] = {
  { "cluster_analysis_output/cluster_step_trace_time.csv",
    "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n"
    "1,rank,0,1000,300,40,340,200,1500,0\n1,rank,1,1300,300,40,340,200,1800,0\n"
    "1,stage,\"(0, 1)\",1300,300,40,340,200,1800,0\n" },
  { "cluster_analysis_output/cluster_communication.json",
    "{\"(0,1)\": {\"step1\": {\"hcom_allReduce__1_0_1@5\": {"
    "\"0\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 1.5, \"Transit Time(ms)\": 0.4, \"Wait Time(ms)\": 1.0}},"
    "\"1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 0.5, \"Transit Time(ms)\": 0.4, \"Wait Time(ms)\": 0.1}}}}}}" },
  { "cluster_analysis_output/cluster_communication_matrix.json",
    "{\"(0,1)\": {\"step1\": {\"allreduce-top1@5\": {"
    "\"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 10, \"Transit Time(ms)\": 2, \"Bandwidth(GB/s)\": 5},"
    "\"1-0\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 10, \"Transit Time(ms)\": 0.5, \"Bandwidth(GB/s)\": 20}}}}}" },
  { "worker0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", NULL },
  { "worker0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json",
    "{\"step1\": {\"p2p\": {}, \"collective\": {\"hcom_allReduce__1_0_1@5\": {\"Communication Time Info\": "
    "{\"Start Timestamp(us)\": 10, \"Elapse Time(ms)\": 1.5, \"Transit Time(ms)\": 0.4, \"Wait Time(ms)\": 1.0},"
    " \"Communication Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 10, \"Transit Time(ms)\": 0.4,"
    " \"Bandwidth(GB/s)\": 25, \"Large Packet Ratio\": 0, \"Size Distribution\": {\"10\": [1, 0.4]}}}}}}}" },
  { "worker0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication_matrix.json",
    "{\"step1\": {\"p2p\": {}, \"collective\": {\"allreduce-top1@5\": {\"0-1\": {\"Transport Type\": \"HCCS\","
    " \"Transit Size(MB)\": 10, \"Transit Time(ms)\": 2, \"Bandwidth(GB/s)\": 5}}}}}" },
  { "worker0_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}" },
};

static char *root;
static char *rank_steps;

static void
write_file (const char *relative,
            const char *text,
            gsize       length)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_mkdir_with_parents (dir, 0755);
  if (!g_file_set_contents (path, text, (gssize)length, NULL))
    abort ();
}

static void
write_target (guint        index,
              const char  *text)
{
  write_file (targets[index].path, text, strlen (text));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
remove_root (void)
{
  remove_tree (root);
}

static void
write_cluster (void)
{
  g_autofree char *info = g_strdup ("{\"rank_id\": 1}");

  root = g_dir_make_tmp ("fuzz-cluster-XXXXXX", NULL);
  if (root == NULL)
    abort ();
  atexit (remove_root);
  rank_steps = g_strdup_printf ("%s1,1000,300,40,340,200,0,0\n2,1010,310,40,350,210,0,0\n", step_header);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    write_target (i, targets[i].text != NULL ? targets[i].text : rank_steps);
  /* The second rank, never fuzzed: there is always someone to compare with. */
  write_file ("worker1_ascend_pt/profiler_info_1.json", info, strlen (info));
  write_file ("worker1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", rank_steps, strlen (rank_steps));
}

static void
check_summary (SlClusterProfile *cluster)
{
  g_autoptr(SlClusterSummary) summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);
  guint n_ranks = sl_cluster_profile_get_n_ranks (cluster);

  if (summary->slow_rank.computed &&
      (summary->slow_rank.slow_index >= n_ranks || summary->slow_rank.fast_index >= n_ranks ||
       isnan (summary->slow_rank.spread.percent)))
    abort ();
  if (summary->slow_link.computed && (summary->slow_link.link == NULL || isnan (summary->slow_link.spread.percent)))
    abort ();
  for (guint i = 0; i < summary->collectives->len; i++)
    {
      const SlClusterCollective *collective = g_ptr_array_index (summary->collectives, i);

      if (collective->straggler != G_MAXUINT && collective->straggler >= collective->ranks->len)
        abort ();
      for (guint r = 0; r < collective->ranks->len; r++)
        if (g_array_index (collective->ranks, SlCollectiveRank, r).rank_index >= n_ranks)
          abort ();
    }
  for (guint i = 0; i < n_ranks; i++)
    (void)sl_cluster_summary_count_straggling (summary, i);
}

static void
check_cluster (SlClusterProfile *cluster)
{
  GListModel *problems = sl_cluster_profile_get_problems (cluster);

  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (cluster); i++)
    {
      const SlClusterRank *rank = sl_cluster_profile_get_rank (cluster, i);

      if (rank->rank_id < 0 || rank->label == NULL)
        abort ();
      if (i > 0 && sl_cluster_profile_get_rank (cluster, i - 1)->rank_id >= rank->rank_id)
        abort ();
    }
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_message (problem) == NULL || sl_problem_get_path (problem) == NULL)
        abort ();
    }
  check_summary (cluster);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(GError) error = NULL;
  guint index;

  if (root == NULL)
    write_cluster ();
  if (size < 1)
    return 0;
  index = data[0] % G_N_ELEMENTS (targets);
  write_file (targets[index].path, (const char *)data + 1, size - 1);

  cluster = sl_cluster_load (root, NULL, &error);
  /* The second rank is always there, so the folder is always a cluster. */
  if (cluster == NULL)
    abort ();
  check_cluster (cluster);

  write_target (index, targets[index].text != NULL ? targets[index].text : rank_steps);
  return 0;
}
