/* sl-cluster-summary.c
 *
 * A cluster-wide communication object is shared by every rank, so each
 * distinct SlCommunication is walked once; its records name their rank,
 * while a rank's own files' records are that rank's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-cluster-summary.h"

#define KEY_SEPARATOR "\x1f"

/* ------------------------------------------------------------------ */
/* Slow rank */

static void
find_slow_rank (SlClusterSummary *self)
{
  SlClusterSlowRank *slow = &self->slow_rank;
  guint n = sl_cluster_profile_get_n_ranks (self->cluster);
  g_autofree double *values = g_new (double, MAX (n, 1));
  g_autofree guint *indices = g_new (guint, MAX (n, 1));
  const SlClusterRank *slowest, *fastest;
  guint n_values = 0;

  for (guint i = 0; i < n; i++)
    {
      const SlClusterRank *rank = sl_cluster_profile_get_rank (self->cluster, i);

      if (rank->breakdown.step_ns <= 0)
        continue;
      values[n_values] = (double)rank->breakdown.step_ns;
      indices[n_values++] = i;
    }
  slow->n_ranks = n_values;
  if (!sl_spread_compute (values, n_values, &slow->spread))
    return;

  slow->computed = TRUE;
  slow->found = slow->spread.percent > self->threshold;
  slow->slow_index = indices[slow->spread.max_index];
  slow->fast_index = indices[slow->spread.min_index];
  slowest = sl_cluster_profile_get_rank (self->cluster, slow->slow_index);
  fastest = sl_cluster_profile_get_rank (self->cluster, slow->fast_index);
  slow->phase_gap_ns = G_MININT64;
  for (SlStepPhase p = SL_STEP_PHASE_COMPUTING; p <= SL_STEP_PHASE_FREE; p++)
    {
      gint64 gap = slowest->breakdown.phases[p] - fastest->breakdown.phases[p];

      if (slowest->breakdown.phases[p] >= 0 && fastest->breakdown.phases[p] >= 0 && gap > slow->phase_gap_ns)
        {
          slow->phase_gap_ns = gap;
          slow->phase = p;
        }
    }
  if (slow->phase_gap_ns == G_MININT64)
    slow->phase_gap_ns = 0;
}

/* ------------------------------------------------------------------ */
/* Matrix and slow link */

static GPtrArray *
distinct_communications (SlClusterProfile *cluster)
{
  GPtrArray *comms = g_ptr_array_new ();

  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (cluster); i++)
    {
      SlCommunication *comm = sl_cluster_profile_get_rank (cluster, i)->communication;

      if (comm != NULL && !g_ptr_array_find (comms, comm, NULL))
        g_ptr_array_add (comms, comm);
    }
  return comms;
}

static void
build_matrix (SlClusterSummary *self)
{
  GPtrArray *all = sl_comm_link_sums_get_all (self->links);

  self->matrix = sl_communication_new ();
  for (guint i = 0; i < all->len; i++)
    {
      const SlCommLinkSum *sum = g_ptr_array_index (all, i);
      SlCommLink *link;

      if (sum->src < 0 || sum->dst < 0)
        continue;
      link = sl_communication_add_link (self->matrix, sum->first->path, "", "", "total", sum->first->key);
      link->transport = g_strdup (sum->first->transport);
      link->size_mb = sum->size_mb;
      link->time_ms = sum->time_ms;
      link->bandwidth_gbps = sl_comm_link_sum_get_bandwidth (sum);
      link->line = sum->first->line;
      link->offset = sum->first->offset;
    }
}

static void
find_slow_link (SlClusterSummary *self)
{
  SlClusterSlowLink *slow = &self->slow_link;

  for (guint t = 0; t < sl_comm_link_sums_get_n_transports (self->links); t++)
    {
      const char *transport = sl_comm_link_sums_get_transport (self->links, t);
      GPtrArray *links = sl_comm_link_sums_get_links (self->links, transport);
      SlSpread spread;

      if (!sl_comm_link_sums_spread (links, &spread) || spread.mean <= 0)
        continue;
      if (!slow->computed || spread.percent > slow->spread.percent)
        {
          slow->computed = TRUE;
          slow->transport = transport;
          slow->link = g_ptr_array_index (links, 0);
          slow->spread = spread;
          slow->n_links = links->len;
        }
    }
  slow->found = slow->computed && slow->spread.percent > self->threshold;
}

/* ------------------------------------------------------------------ */
/* Collectives */

static void
collective_free (SlClusterCollective *collective)
{
  g_free (collective->step);
  g_free (collective->group);
  g_free (collective->name);
  g_array_unref (collective->ranks);
  g_free (collective);
}

static SlClusterCollective *
ensure_collective (SlClusterSummary *self,
                   GHashTable       *by_key,
                   const SlCommOp   *op)
{
  g_autofree char *key = g_strjoin (KEY_SEPARATOR, op->step, op->group, op->name, NULL);
  SlClusterCollective *collective = g_hash_table_lookup (by_key, key);

  if (collective != NULL)
    return collective;
  collective = g_new0 (SlClusterCollective, 1);
  collective->step = g_strdup (op->step);
  collective->group = g_strdup (op->group);
  collective->name = g_strdup (op->name);
  collective->ranks = g_array_new (FALSE, FALSE, sizeof (SlCollectiveRank));
  collective->straggler = G_MAXUINT;
  collective->path = op->path;
  collective->line = op->line;
  collective->offset = op->offset;
  g_ptr_array_add (self->collectives, collective);
  g_hash_table_insert (by_key, g_steal_pointer (&key), collective);
  return collective;
}

static gint
op_rank_index (SlClusterProfile *cluster,
               const SlCommOp   *op,
               gint              owner)
{
  return op->rank_id >= 0 ? sl_cluster_profile_find_rank (cluster, op->rank_id) : owner;
}

static void
add_ops (SlClusterSummary *self,
         GHashTable       *by_key,
         GHashTable       *rank_of,
         SlCommunication  *comm)
{
  gint owner = GPOINTER_TO_INT (g_hash_table_lookup (rank_of, comm)) - 1;

  for (guint i = 0; i < sl_communication_get_n_ops (comm); i++)
    {
      const SlCommOp *op = sl_communication_get_op (comm, i);
      SlClusterCollective *collective;
      SlCollectiveRank entry;
      gint index;

      if (sl_communication_is_total_name (op->name) || !isfinite (op->elapse_ms) ||
          (index = op_rank_index (self->cluster, op, owner)) < 0)
        continue;
      collective = ensure_collective (self, by_key, op);
      entry = (SlCollectiveRank) { (guint)index, op->elapse_ms, op->wait_ms, op->transit_ms };
      g_array_append_val (collective->ranks, entry);
    }
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const SlCollectiveRank *ea = a, *eb = b;

  return ea->rank_index < eb->rank_index ? -1 : ea->rank_index > eb->rank_index;
}

static void
find_straggler (SlClusterCollective *collective)
{
  g_array_sort (collective->ranks, compare_entries);
  for (guint i = 0; i < collective->ranks->len; i++)
    {
      const SlCollectiveRank *entry = &g_array_index (collective->ranks, SlCollectiveRank, i);

      if (i == 0 || entry->elapse_ms < collective->min_ms)
        {
          collective->min_ms = entry->elapse_ms;
          collective->straggler = i;
        }
      if (i == 0 || entry->elapse_ms > collective->max_ms)
        collective->max_ms = entry->elapse_ms;
    }
  if (collective->ranks->len < 2)
    collective->straggler = G_MAXUINT;
}

static void
collect_collectives (SlClusterSummary *self,
                     GPtrArray        *comms)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) rank_of = g_hash_table_new (NULL, NULL);

  /* A rank's own object is its rank's; a shared one names ranks itself. */
  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (self->cluster); i++)
    {
      SlCommunication *comm = sl_cluster_profile_get_rank (self->cluster, i)->communication;

      if (comm == NULL)
        continue;
      if (g_hash_table_contains (rank_of, comm))
        g_hash_table_insert (rank_of, comm, GINT_TO_POINTER (0));
      else
        g_hash_table_insert (rank_of, comm, GINT_TO_POINTER ((gint)i + 1));
    }
  for (guint c = 0; c < comms->len; c++)
    add_ops (self, by_key, rank_of, g_ptr_array_index (comms, c));
  for (guint i = 0; i < self->collectives->len; i++)
    find_straggler (g_ptr_array_index (self->collectives, i));
}

/* ------------------------------------------------------------------ */

SlClusterSummary *
sl_cluster_summary_new (SlClusterProfile *cluster,
                        double            threshold_percent)
{
  g_autoptr(GPtrArray) comms = NULL;
  SlClusterSummary *self;

  g_return_val_if_fail (SL_IS_CLUSTER_PROFILE (cluster), NULL);

  self = g_new0 (SlClusterSummary, 1);
  self->cluster = g_object_ref (cluster);
  self->threshold = threshold_percent;
  self->links = sl_comm_link_sums_new ();
  self->collectives = g_ptr_array_new_with_free_func ((GDestroyNotify)collective_free);

  find_slow_rank (self);

  comms = distinct_communications (cluster);
  for (guint c = 0; c < comms->len; c++)
    sl_comm_link_sums_add (self->links, g_ptr_array_index (comms, c), SL_COMM_ALL_RANKS);
  build_matrix (self);
  find_slow_link (self);
  collect_collectives (self, comms);
  return self;
}

void
sl_cluster_summary_free (SlClusterSummary *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->collectives);
  g_clear_object (&self->matrix);
  sl_comm_link_sums_free (self->links);
  g_object_unref (self->cluster);
  g_free (self);
}

guint
sl_cluster_summary_count_straggling (SlClusterSummary *self,
                                     guint             rank_index)
{
  guint count = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->collectives->len; i++)
    {
      const SlClusterCollective *collective = g_ptr_array_index (self->collectives, i);

      if (collective->straggler != G_MAXUINT &&
          g_array_index (collective->ranks, SlCollectiveRank, collective->straggler).rank_index == rank_index)
        count++;
    }
  return count;
}
