/* sl-comm-link-sums.c
 *
 * Links are found by key in a hash table per transport: a cluster of a
 * few hundred ranks has tens of thousands of link records.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-comm-link-sums.h"

typedef struct {
  char       *transport;
  GHashTable *by_key;     /* key → SlCommLinkSum (in @all) */
  GPtrArray  *between;    /* SlCommLinkSum between two ranks */
} Transport;

struct _SlCommLinkSums
{
  GPtrArray  *transports;  /* Transport */
  GHashTable *by_name;     /* transport name → Transport */
  GPtrArray  *all;         /* SlCommLinkSum, owned */
};

static void
transport_free (Transport *transport)
{
  g_free (transport->transport);
  g_hash_table_unref (transport->by_key);
  g_ptr_array_unref (transport->between);
  g_free (transport);
}

SlCommLinkSums *
sl_comm_link_sums_new (void)
{
  SlCommLinkSums *self = g_new0 (SlCommLinkSums, 1);

  self->transports = g_ptr_array_new_with_free_func ((GDestroyNotify)transport_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->all = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
sl_comm_link_sums_free (SlCommLinkSums *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->transports);
  g_ptr_array_unref (self->all);
  g_free (self);
}

static gboolean
is_for (const SlCommLink *link,
        gint64            rank_id)
{
  return rank_id == SL_COMM_ALL_RANKS || sl_comm_link_is_for_rank (link, rank_id);
}

static gboolean
is_between_ranks (const SlCommLink *link)
{
  return g_ascii_strcasecmp (link->transport, "LOCAL") != 0 && !(link->src >= 0 && link->src == link->dst);
}

static gboolean
has_totals (SlCommunication *comm,
            gint64           rank_id)
{
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    {
      const SlCommLink *link = sl_communication_get_link (comm, i);

      if (is_for (link, rank_id) && sl_communication_is_total_name (link->op))
        return TRUE;
    }
  return FALSE;
}

static Transport *
ensure_transport (SlCommLinkSums *self,
                  const char     *name)
{
  Transport *transport = g_hash_table_lookup (self->by_name, name);

  if (transport != NULL)
    return transport;
  transport = g_new0 (Transport, 1);
  transport->transport = g_strdup (name);
  transport->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  transport->between = g_ptr_array_new ();
  g_ptr_array_add (self->transports, transport);
  g_hash_table_insert (self->by_name, transport->transport, transport);
  return transport;
}

void
sl_comm_link_sums_add (SlCommLinkSums  *self,
                       SlCommunication *comm,
                       gint64           rank_id)
{
  gboolean totals;

  g_return_if_fail (self != NULL);
  g_return_if_fail (SL_IS_COMMUNICATION (comm));

  totals = has_totals (comm, rank_id);
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    {
      const SlCommLink *link = sl_communication_get_link (comm, i);
      Transport *transport;
      SlCommLinkSum *sum;

      if (!is_for (link, rank_id) || link->transport == NULL ||
          sl_communication_is_total_name (link->op) != totals || !(link->time_ms > 0) || !(link->size_mb >= 0))
        continue;
      transport = ensure_transport (self, link->transport);
      if ((sum = g_hash_table_lookup (transport->by_key, link->key)) == NULL)
        {
          sum = g_new0 (SlCommLinkSum, 1);
          sum->first = link;
          sum->src = link->src;
          sum->dst = link->dst;
          g_ptr_array_add (self->all, sum);
          g_hash_table_insert (transport->by_key, link->key, sum);
          if (is_between_ranks (link))
            g_ptr_array_add (transport->between, sum);
        }
      sum->size_mb += link->size_mb;
      sum->time_ms += link->time_ms;
    }
}

guint
sl_comm_link_sums_get_n_transports (SlCommLinkSums *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->transports->len;
}

const char *
sl_comm_link_sums_get_transport (SlCommLinkSums *self,
                                 guint           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->transports->len, NULL);
  return ((Transport *)g_ptr_array_index (self->transports, index))->transport;
}

GPtrArray *
sl_comm_link_sums_get_links (SlCommLinkSums *self,
                             const char     *transport)
{
  Transport *found;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (transport != NULL, NULL);

  found = g_hash_table_lookup (self->by_name, transport);
  return found != NULL ? found->between : NULL;
}

GPtrArray *
sl_comm_link_sums_get_all (SlCommLinkSums *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->all;
}

double
sl_comm_link_sum_get_bandwidth (const SlCommLinkSum *sum)
{
  g_return_val_if_fail (sum != NULL, -1);
  return sum->time_ms > 0 ? sum->size_mb / sum->time_ms : -1;
}

static int
compare_bandwidth (gconstpointer a,
                   gconstpointer b)
{
  double x = sl_comm_link_sum_get_bandwidth (*(SlCommLinkSum **)a);
  double y = sl_comm_link_sum_get_bandwidth (*(SlCommLinkSum **)b);

  return (x > y) - (x < y);
}

gboolean
sl_comm_link_sums_spread (GPtrArray *links,
                          SlSpread  *spread)
{
  g_autofree double *values = NULL;

  g_return_val_if_fail (links != NULL, FALSE);
  g_return_val_if_fail (spread != NULL, FALSE);

  g_ptr_array_sort (links, compare_bandwidth);
  values = g_new (double, MAX (links->len, 1));
  for (guint i = 0; i < links->len; i++)
    values[i] = sl_comm_link_sum_get_bandwidth (g_ptr_array_index (links, i));
  return sl_spread_compute (values, links->len, spread);
}
