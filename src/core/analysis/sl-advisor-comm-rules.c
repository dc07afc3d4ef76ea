/* sl-advisor-comm-rules.c: the advisor's rules over communication data
 *
 * Slow link: the links a rank sent over, summed over steps and ops, each
 * link's bandwidth its bytes over its transit time; within a transport
 * type a spread of (max − min) / mean above the threshold names the
 * slowest link. Packet size: the transfers of the "Size Distribution"
 * (or, for MindSpore, each op's transfer over each link) under a size
 * threshold, as a share of all transfers of SDMA/HCCS or of RDMA.
 *
 * msprof's matrices also hold aggregates per op kind ("allreduce-total@"):
 * when present only those are used, so no transfer counts twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-advisor-private.h"
#include "sl-comm-link-sums.h"

#define NS_PER_MS 1e6

static const char *const matrix_files[] = { "communication_matrix.json", "cluster_communication_matrix.json",
                                            "hccl_raw_*.csv", NULL };
static const char *const size_files[] = { "communication.json", "cluster_communication.json", "hccl_raw_*.csv", NULL };

static gboolean
has_communication (const SlProfileRank *rank)
{
  return rank->communication != NULL && !sl_communication_is_empty (rank->communication);
}

/* A folder holding both the ranks' own profiles and msprof-analyze's
 * cluster_analysis_output has each rank's communication twice: the
 * rank's own folder speaks for it. */
static gboolean
is_cluster_copy (SlAdvisorContext *ctx)
{
  if (ctx->rank->layout != SL_PROFILE_LAYOUT_CLUSTER || ctx->rank->rank_id < 0)
    return FALSE;
  for (guint r = 0; r < sl_profile_get_n_ranks (ctx->profile); r++)
    {
      const SlProfileRank *other = sl_profile_get_rank (ctx->profile, r);

      if (other != ctx->rank && other->layout != SL_PROFILE_LAYOUT_CLUSTER &&
          other->rank_id == ctx->rank->rank_id && has_communication (other))
        return TRUE;
    }
  return FALSE;
}

static SlCommunication *
rank_communication (SlAdvisorContext *ctx)
{
  return has_communication (ctx->rank) ? ctx->rank->communication : NULL;
}

static gint64
ms_to_ns (double ms)
{
  return isfinite (ms) && ms >= 0 && ms < 9e12 ? (gint64)(ms * NS_PER_MS) : -1;
}

static void
add_record_evidence (SlAdvisorFinding *finding,
                     const char       *label,
                     const char       *value,
                     const char       *path,
                     guint             line,
                     gint64            offset)
{
  /* A CSV record has its line, a JSON one the byte offset of its key. */
  sl_advisor_finding_add_evidence (finding, label, value, path, line, line > 0 ? -1 : offset);
}

/* ------------------------------------------------------------------ */
/* Slow link */

static char *
describe_link (const SlCommLinkSum *sum)
{
  g_autofree char *time = sl_advisor_format_time (ms_to_ns (sum->time_ms));

  /* Translators: a link's bandwidth, the MB it moved and the time that took */
  return g_strdup_printf (_("%.2f GB/s: %.1f MB in %s"), sl_comm_link_sum_get_bandwidth (sum), sum->size_mb, time);
}

static void
slow_link_finding (SlAdvisorContext *ctx,
                   const char       *transport,
                   GPtrArray        *links,
                   double            mean,
                   double            spread)
{
  g_autoptr(GHashTable) values = sl_advisor_values_new ();
  const SlCommLinkSum *slow = g_ptr_array_index (links, 0);
  double lost_ms = slow->time_ms - slow->size_mb / mean;
  SlAdvisorFinding *finding;

  sl_advisor_values_set (values, "link", g_strdup (slow->first->key));
  sl_advisor_values_set (values, "transport", g_strdup (transport));
  sl_advisor_values_set (values, "bandwidth", g_strdup_printf ("%.2f", sl_comm_link_sum_get_bandwidth (slow)));
  sl_advisor_values_set (values, "mean", g_strdup_printf ("%.2f", mean));
  sl_advisor_values_set (values, "spread", sl_advisor_format_percent (spread));
  sl_advisor_values_set (values, "threshold", sl_advisor_format_percent (sl_advisor_threshold (ctx, "max_spread_percent")));
  sl_advisor_values_set (values, "count", g_strdup_printf ("%u", links->len));

  finding = sl_advisor_finding_begin (ctx);
  for (guint i = 0; i < links->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
    {
      const SlCommLinkSum *sum = g_ptr_array_index (links, i);
      g_autofree char *label = g_strdup_printf ("%s %s", sum->first->key, transport);
      g_autofree char *value = describe_link (sum);

      add_record_evidence (finding, label, value, sum->first->path, sum->first->line, sum->first->offset);
    }
  sl_advisor_finding_set_jump (finding, NULL, -1, -1, NULL);
  sl_advisor_finding_end (ctx, finding, ms_to_ns (slow->time_ms), ms_to_ns (MAX (lost_ms, 0)), values);
  g_object_unref (finding);
}

void
sl_advisor_rule_slow_link (SlAdvisorContext *ctx)
{
  SlCommunication *comm = rank_communication (ctx);
  g_autoptr(SlCommLinkSums) sums = NULL;
  double max_spread = sl_advisor_threshold (ctx, "max_spread_percent");
  guint most_links = 0;

  if (is_cluster_copy (ctx))
    return;
  if (comm == NULL)
    {
      sl_advisor_not_run (ctx, _("The profile has no communication data"), matrix_files);
      return;
    }
  sums = sl_comm_link_sums_new ();
  sl_comm_link_sums_add (sums, comm, ctx->rank->rank_id);

  for (guint t = 0; t < sl_comm_link_sums_get_n_transports (sums); t++)
    {
      const char *transport = sl_comm_link_sums_get_transport (sums, t);
      GPtrArray *links = sl_comm_link_sums_get_links (sums, transport);
      SlSpread spread;

      most_links = MAX (most_links, links->len);
      if (sl_comm_link_sums_spread (links, &spread) && spread.mean > 0 && spread.percent > max_spread)
        slow_link_finding (ctx, transport, links, spread.mean, spread.percent);
    }

  if (most_links < 2)
    {
      g_autofree char *reason =
        g_strdup_printf (_("Comparing links needs two links between ranks of one transport type or more; the data has %u"),
                         most_links);

      sl_advisor_not_run (ctx, reason, matrix_files);
    }
}

/* ------------------------------------------------------------------ */
/* Packet size */

typedef enum {
  CLASS_SDMA,   /* SDMA and HCCS: within a server */
  CLASS_RDMA,   /* between servers */
  N_CLASSES,
} PacketClass;

typedef struct {
  const SlCommOp *op;
  double          small_count;
  double          count;
  double          small_ms;
} OpPackets;

typedef struct {
  double  small_count, count;
  double  small_ms, small_mb;
  double  large_ms, large_mb;
  GArray *ops;    /* OpPackets */
} ClassPackets;

static const SlCommBandwidth *
find_bandwidth (const SlCommOp *op,
                const char     *transport)
{
  for (guint i = 0; i < op->bandwidths->len; i++)
    {
      const SlCommBandwidth *bandwidth = g_ptr_array_index (op->bandwidths, i);

      if (g_ascii_strcasecmp (bandwidth->transport, transport) == 0 && bandwidth->packets->len > 0)
        return bandwidth;
    }
  return NULL;
}

/* torch_npu counts HCCS transfers inside SDMA too, so one of the two. */
static const SlCommBandwidth *
class_bandwidth (const SlCommOp *op,
                 PacketClass     class)
{
  const SlCommBandwidth *bandwidth;

  if (class == CLASS_RDMA)
    return find_bandwidth (op, "RDMA");
  bandwidth = find_bandwidth (op, "HCCS");
  return bandwidth != NULL ? bandwidth : find_bandwidth (op, "SDMA");
}

static void
count_packets (ClassPackets          *packets,
               const SlCommOp        *op,
               const SlCommBandwidth *bandwidth,
               double                 min_mb)
{
  OpPackets counted = { op, 0, 0, 0 };

  for (guint i = 0; i < bandwidth->packets->len; i++)
    {
      const SlCommPackets *p = &g_array_index (bandwidth->packets, SlCommPackets, i);

      if (!(p->count > 0) || !(p->size_mb >= 0) || !(p->time_ms >= 0))
        continue;
      counted.count += p->count;
      if (p->size_mb < min_mb)
        {
          counted.small_count += p->count;
          counted.small_ms += p->time_ms;
          packets->small_mb += p->size_mb * p->count;
        }
      else
        {
          packets->large_ms += p->time_ms;
          packets->large_mb += p->size_mb * p->count;
        }
    }
  packets->count += counted.count;
  packets->small_count += counted.small_count;
  packets->small_ms += counted.small_ms;
  if (counted.small_count > 0)
    g_array_append_val (packets->ops, counted);
}

static int
compare_small_time (gconstpointer a,
                    gconstpointer b)
{
  const OpPackets *x = a, *y = b;

  return (x->small_ms < y->small_ms) - (x->small_ms > y->small_ms);
}

static void
packet_finding (SlAdvisorContext *ctx,
                PacketClass       class,
                ClassPackets     *packets,
                double            min_mb,
                double            share)
{
  g_autoptr(GHashTable) values = sl_advisor_values_new ();
  double large_gbps = packets->large_ms > 0 ? packets->large_mb / packets->large_ms : -1;
  gint64 saving = -1;
  SlAdvisorFinding *finding;

  /* At the bandwidth the large transfers reached, the small ones' bytes
   * would take size / bandwidth. */
  if (large_gbps > 0)
    saving = ms_to_ns (MAX (packets->small_ms - packets->small_mb / large_gbps, 0));

  sl_advisor_values_set (values, "class", g_strdup (class == CLASS_RDMA ? "RDMA" : "SDMA/HCCS"));
  sl_advisor_values_set (values, "small", g_strdup_printf ("%.0f", packets->small_count));
  sl_advisor_values_set (values, "count", g_strdup_printf ("%.0f", packets->count));
  sl_advisor_values_set (values, "share", sl_advisor_format_percent (share));
  sl_advisor_values_set (values, "size", g_strdup_printf ("%g", min_mb));
  sl_advisor_values_set (values, "threshold", sl_advisor_format_percent (sl_advisor_threshold (ctx, "max_small_percent")));
  sl_advisor_values_set (values, "large", large_gbps > 0 ? g_strdup_printf ("%.2f", large_gbps) : g_strdup ("-"));

  g_array_sort (packets->ops, compare_small_time);
  sl_advisor_values_set (values, "top", g_strdup (packets->ops->len > 0 ? g_array_index (packets->ops, OpPackets, 0).op->name : "-"));
  finding = sl_advisor_finding_begin (ctx);
  for (guint i = 0; i < packets->ops->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
    {
      const OpPackets *op = &g_array_index (packets->ops, OpPackets, i);
      g_autofree char *time = sl_advisor_format_time (ms_to_ns (op->small_ms));
      /* Translators: transfers of an op under a size, all its transfers, the size in MB and their time */
      g_autofree char *value = g_strdup_printf (_("%.0f of %.0f transfers under %g MB, %s"),
                                                op->small_count, op->count, min_mb, time);

      add_record_evidence (finding, op->op->name, value, op->op->path, op->op->line, op->op->offset);
    }
  sl_advisor_finding_set_jump (finding, NULL, -1, -1, NULL);
  sl_advisor_finding_end (ctx, finding, ms_to_ns (packets->small_ms), saving, values);
  g_object_unref (finding);
}

void
sl_advisor_rule_packet_size (SlAdvisorContext *ctx)
{
  SlCommunication *comm = rank_communication (ctx);
  double max_small = sl_advisor_threshold (ctx, "max_small_percent");
  double min_mb[N_CLASSES] = { sl_advisor_threshold (ctx, "sdma_min_mb"), sl_advisor_threshold (ctx, "rdma_min_mb") };
  ClassPackets packets[N_CLASSES] = { { 0 } };
  gboolean any = FALSE;

  if (is_cluster_copy (ctx))
    return;
  if (comm == NULL)
    {
      sl_advisor_not_run (ctx, _("The profile has no communication data"), size_files);
      return;
    }

  for (guint c = 0; c < N_CLASSES; c++)
    packets[c].ops = g_array_new (FALSE, FALSE, sizeof (OpPackets));
  for (guint i = 0; i < sl_communication_get_n_ops (comm); i++)
    {
      const SlCommOp *op = sl_communication_get_op (comm, i);

      if (!sl_comm_op_is_for_rank (op, ctx->rank->rank_id))
        continue;
      for (guint c = 0; c < N_CLASSES; c++)
        {
          const SlCommBandwidth *bandwidth = class_bandwidth (op, c);

          if (bandwidth != NULL)
            count_packets (&packets[c], op, bandwidth, min_mb[c]);
        }
    }

  for (guint c = 0; c < N_CLASSES; c++)
    {
      double share = packets[c].count > 0 ? 100.0 * packets[c].small_count / packets[c].count : 0;

      any |= packets[c].count > 0;
      if (packets[c].count > 0 && share > max_small)
        packet_finding (ctx, c, &packets[c], min_mb[c], share);
      g_array_unref (packets[c].ops);
    }
  if (!any)
    sl_advisor_not_run (ctx, _("The communication data has no transfer sizes (“Size Distribution”)"), size_files);
}
