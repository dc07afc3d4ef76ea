/* sl-cli-cluster.c: sightline-cli cluster PATH [--json]
 *
 * Every rank's step breakdown, the slow rank, the communication matrix,
 * the slow link and each collective's time by rank with its straggler.
 * Exit status 0 when the cluster was read (missing and damaged files are
 * listed as problems), 1 when PATH holds no rank, 2 on bad options.
 *
 * JSON keys are stable: {"path", "analysis_dir", "threshold_percent",
 * "ranks": [{"rank", "label", "dir", "layout", "steps", "step_us",
 * "computing_us", "communication_not_overlapped_us", "free_us" (with
 * torch_npu's overlap analysis; from MindSpore's step trace "fp_bp_us",
 * "tail_us", "data_wait_us" instead, as the profile command names them),
 * "overlapped_us", "bubble_us", "stage_us", "overlap_analysis",
 * "straggler_count", "files"}], "step_spread", "slow_rank", "matrix":
 * [{"src", "dst", "transport", "size_mb", "time_ms", "bandwidth_gbps"}],
 * "link_spread", "slow_link", "collectives": [{"step", "group", "name",
 * "straggler", "min_ms", "max_ms", "ranks": [{"rank", "elapse_ms",
 * "wait_ms", "transit_ms"}]}], "problems"}.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-cluster-loader.h"
#include "sl-cluster-summary.h"

static const SlClusterRank *
rank_at (SlClusterSummary *summary,
         guint             index)
{
  return sl_cluster_profile_get_rank (summary->cluster, index);
}

static void
add_rank (JsonBuilder      *builder,
          SlClusterSummary *summary,
          guint             index)
{
  const SlClusterRank *rank = rank_at (summary, index);

  json_builder_begin_object (builder);
  sl_cli_json_add_int (builder, "rank", rank->rank_id);
  sl_cli_json_add_string (builder, "label", rank->label);
  sl_cli_json_add_string (builder, "dir", rank->dir);
  sl_cli_json_add_string (builder, "layout", sl_profile_layout_to_string (rank->layout));
  sl_cli_json_add_int (builder, "steps", rank->breakdown.n_steps);
  sl_cli_json_add_us (builder, "step_us", rank->breakdown.step_ns);
  for (SlStepPhase p = 0; p < SL_STEP_PHASE_N; p++)
    {
      g_autofree char *name = g_strdup_printf ("%s_us", sl_step_phase_to_source_id (p, rank->breakdown.overlap));

      sl_cli_json_add_us (builder, name, rank->breakdown.phases[p]);
    }
  json_builder_set_member_name (builder, "overlap_analysis");
  json_builder_add_boolean_value (builder, rank->breakdown.overlap);
  sl_cli_json_add_int (builder, "straggler_count", sl_cluster_summary_count_straggling (summary, index));
  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; i < rank->files->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (rank->files, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_step_spread (JsonBuilder      *builder,
                 SlClusterSummary *summary)
{
  const SlClusterSlowRank *slow = &summary->slow_rank;

  json_builder_set_member_name (builder, "step_spread");
  if (!slow->computed)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_object (builder);
  sl_cli_json_add_double (builder, "spread_percent", slow->spread.percent);
  sl_cli_json_add_int (builder, "ranks", slow->n_ranks);
  sl_cli_json_add_us (builder, "mean_us", (gint64)slow->spread.mean);
  sl_cli_json_add_int (builder, "slowest_rank", rank_at (summary, slow->slow_index)->rank_id);
  sl_cli_json_add_int (builder, "fastest_rank", rank_at (summary, slow->fast_index)->rank_id);
  json_builder_end_object (builder);
}

static void
add_slow_rank (JsonBuilder      *builder,
               SlClusterSummary *summary)
{
  const SlClusterSlowRank *slow = &summary->slow_rank;
  const SlClusterRank *rank, *fast;

  json_builder_set_member_name (builder, "slow_rank");
  if (!slow->found)
    {
      json_builder_add_null_value (builder);
      return;
    }
  rank = rank_at (summary, slow->slow_index);
  fast = rank_at (summary, slow->fast_index);
  json_builder_begin_object (builder);
  sl_cli_json_add_int (builder, "rank", rank->rank_id);
  sl_cli_json_add_string (builder, "label", rank->label);
  sl_cli_json_add_us (builder, "step_us", rank->breakdown.step_ns);
  sl_cli_json_add_us (builder, "mean_us", (gint64)slow->spread.mean);
  sl_cli_json_add_int (builder, "fastest_rank", fast->rank_id);
  sl_cli_json_add_us (builder, "fastest_step_us", fast->breakdown.step_ns);
  sl_cli_json_add_double (builder, "spread_percent", slow->spread.percent);
  sl_cli_json_add_double (builder, "threshold_percent", summary->threshold);
  sl_cli_json_add_string (builder, "phase", sl_step_phase_to_source_id (slow->phase, rank->breakdown.overlap));
  sl_cli_json_add_us (builder, "phase_gap_us", slow->phase_gap_ns);
  sl_cli_json_add_string (builder, "path", rank->steps != NULL ? sl_step_trace_get_path (rank->steps) : NULL);
  sl_cli_json_add_int (builder, "line", rank->steps != NULL ? sl_step_trace_get_line (rank->steps, 0) : 0);
  json_builder_end_object (builder);
}

static void
add_matrix (JsonBuilder      *builder,
            SlClusterSummary *summary)
{
  json_builder_set_member_name (builder, "matrix");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_communication_get_n_links (summary->matrix); i++)
    {
      const SlCommLink *link = sl_communication_get_link (summary->matrix, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_int (builder, "src", link->src);
      sl_cli_json_add_int (builder, "dst", link->dst);
      sl_cli_json_add_string (builder, "transport", link->transport);
      sl_cli_json_add_double (builder, "size_mb", link->size_mb);
      sl_cli_json_add_double (builder, "time_ms", link->time_ms);
      sl_cli_json_add_double (builder, "bandwidth_gbps", link->bandwidth_gbps);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_link_object (JsonBuilder      *builder,
                 SlClusterSummary *summary)
{
  const SlClusterSlowLink *slow = &summary->slow_link;

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "link", slow->link->first->key);
  sl_cli_json_add_int (builder, "src", slow->link->src);
  sl_cli_json_add_int (builder, "dst", slow->link->dst);
  sl_cli_json_add_string (builder, "transport", slow->transport);
  sl_cli_json_add_double (builder, "bandwidth_gbps", sl_comm_link_sum_get_bandwidth (slow->link));
  sl_cli_json_add_double (builder, "mean_gbps", slow->spread.mean);
  sl_cli_json_add_double (builder, "spread_percent", slow->spread.percent);
  sl_cli_json_add_double (builder, "threshold_percent", summary->threshold);
  sl_cli_json_add_int (builder, "links", slow->n_links);
  sl_cli_json_add_string (builder, "path", slow->link->first->path);
  sl_cli_json_add_int (builder, "line", slow->link->first->line);
  sl_cli_json_add_int (builder, "offset", slow->link->first->offset);
  json_builder_end_object (builder);
}

static void
add_slow_link (JsonBuilder      *builder,
               SlClusterSummary *summary)
{
  json_builder_set_member_name (builder, "link_spread");
  if (summary->slow_link.computed)
    add_link_object (builder, summary);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "slow_link");
  if (summary->slow_link.found)
    add_link_object (builder, summary);
  else
    json_builder_add_null_value (builder);
}

static void
add_collectives (JsonBuilder      *builder,
                 SlClusterSummary *summary)
{
  json_builder_set_member_name (builder, "collectives");
  json_builder_begin_array (builder);
  for (guint i = 0; i < summary->collectives->len; i++)
    {
      const SlClusterCollective *collective = g_ptr_array_index (summary->collectives, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "step", collective->step);
      sl_cli_json_add_string (builder, "group", collective->group);
      sl_cli_json_add_string (builder, "name", collective->name);
      json_builder_set_member_name (builder, "straggler");
      if (collective->straggler == G_MAXUINT)
        json_builder_add_null_value (builder);
      else
        json_builder_add_int_value (builder, rank_at (summary, g_array_index (collective->ranks, SlCollectiveRank,
                                                                              collective->straggler).rank_index)->rank_id);
      sl_cli_json_add_double (builder, "min_ms", collective->min_ms);
      sl_cli_json_add_double (builder, "max_ms", collective->max_ms);
      json_builder_set_member_name (builder, "ranks");
      json_builder_begin_array (builder);
      for (guint r = 0; r < collective->ranks->len; r++)
        {
          const SlCollectiveRank *entry = &g_array_index (collective->ranks, SlCollectiveRank, r);

          json_builder_begin_object (builder);
          sl_cli_json_add_int (builder, "rank", rank_at (summary, entry->rank_index)->rank_id);
          sl_cli_json_add_double (builder, "elapse_ms", entry->elapse_ms);
          sl_cli_json_add_double (builder, "wait_ms", entry->wait_ms);
          sl_cli_json_add_double (builder, "transit_ms", entry->transit_ms);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static char *
summary_to_json (SlClusterSummary *summary)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "path", sl_cluster_profile_get_path (summary->cluster));
  sl_cli_json_add_string (builder, "analysis_dir", sl_cluster_profile_get_analysis_dir (summary->cluster));
  sl_cli_json_add_double (builder, "threshold_percent", summary->threshold);
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (summary->cluster); i++)
    add_rank (builder, summary, i);
  json_builder_end_array (builder);
  add_step_spread (builder, summary);
  add_slow_rank (builder, summary);
  add_matrix (builder, summary);
  add_slow_link (builder, summary);
  add_collectives (builder, summary);
  sl_cli_json_add_problem_list (builder, sl_cluster_profile_get_problems (summary->cluster), SL_CLI_PROBLEM_LINE);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static void
print_ms (gint64 ns)
{
  if (ns < 0)
    printf (" %14s", "-");
  else
    printf (" %14.3f", ns / 1e6);
}

static void
print_text (SlClusterSummary *summary)
{
  const SlClusterSlowRank *slow = &summary->slow_rank;
  GListModel *problems = sl_cluster_profile_get_problems (summary->cluster);
  gboolean overlap = sl_cluster_profile_get_n_ranks (summary->cluster) > 0 && rank_at (summary, 0)->breakdown.overlap;

  /* The phases as the ranks' step tables name them: torch_npu's overlap
   * analysis, or MindSpore's forward and backward, tail and data wait. */
  if (overlap)
    printf ("%-10s %6s %14s %14s %14s %14s %10s\n", _("Rank"), _("Steps"), _("Step (ms)"), _("Computing"),
            _("Comm. (ms)"), _("Free (ms)"), _("Straggler"));
  else
    printf ("%-10s %6s %14s %14s %14s %14s %10s\n", _("Rank"), _("Steps"), _("Step (ms)"), _("FP+BP (ms)"),
            _("Tail (ms)"), _("Data wait (ms)"), _("Straggler"));
  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (summary->cluster); i++)
    {
      const SlClusterRank *rank = rank_at (summary, i);

      printf ("%-10lld %6u", (long long)rank->rank_id, rank->breakdown.n_steps);
      print_ms (rank->breakdown.step_ns);
      print_ms (rank->breakdown.phases[SL_STEP_PHASE_COMPUTING]);
      print_ms (rank->breakdown.phases[SL_STEP_PHASE_COMMUNICATION]);
      print_ms (rank->breakdown.phases[SL_STEP_PHASE_FREE]);
      printf (" %10u\n", sl_cluster_summary_count_straggling (summary, i));
    }
  printf ("\n");

  if (slow->found)
    printf (_("Slow rank: %s, mean step %.3f ms against %.3f ms on average (spread %.1f %% > %.1f %%); most of the "
              "gap is %s\n"),
            rank_at (summary, slow->slow_index)->label, rank_at (summary, slow->slow_index)->breakdown.step_ns / 1e6,
            slow->spread.mean / 1e6, slow->spread.percent, summary->threshold,
            sl_step_phase_to_label (slow->phase, rank_at (summary, slow->slow_index)->breakdown.overlap));
  else if (slow->computed)
    printf (_("No slow rank: the step times spread %.1f %% (threshold %.1f %%)\n"), slow->spread.percent,
            summary->threshold);
  else
    printf (_("No slow rank: fewer than two ranks have step times\n"));

  if (summary->slow_link.found)
    printf (_("Slow link: %s over %s, %.2f GB/s against %.2f GB/s on average (spread %.1f %% > %.1f %%)\n"),
            summary->slow_link.link->first->key, summary->slow_link.transport,
            sl_comm_link_sum_get_bandwidth (summary->slow_link.link), summary->slow_link.spread.mean,
            summary->slow_link.spread.percent, summary->threshold);
  else if (summary->slow_link.computed)
    printf (_("No slow link: the bandwidths spread %.1f %% (threshold %.1f %%)\n"), summary->slow_link.spread.percent,
            summary->threshold);
  else
    printf (_("No slow link: no transport has two links between ranks\n"));
  printf (_("Links: %u, collectives: %u\n"), sl_communication_get_n_links (summary->matrix),
          summary->collectives->len);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);

      fprintf (stderr, "%s: %s%s%s: %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
               sl_problem_get_path (problem), location != NULL ? ", " : "", location != NULL ? location : "",
               sl_problem_get_message (problem));
    }
}

int
sl_cli_cluster (int    argc,
                char **argv)
{
  g_autoptr(SlClusterProfile) cluster = NULL;
  g_autoptr(SlClusterSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  const char *path = NULL;

  if (!sl_cli_parse_path_options (&argc, &argv, "cluster",
                                  _("PATH — every rank's step breakdown, the slow rank, the communication matrix and "
                                    "the slow link of a cluster profile"),
                                  &json, &path))
    return 2;

  if ((cluster = sl_cluster_load (path, NULL, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  summary = sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD);

  if (json)
    {
      g_autofree char *text = summary_to_json (summary);

      printf ("%s\n", text);
    }
  else
    print_text (summary);
  return 0;
}
