/* sl-comm-totals.c
 *
 * The sums live in an SlCommunication of their own holding one op, so
 * bandwidth entries and packets are built by the model's own calls.
 * Unknown values (NAN) are left out of a sum; a sum with nothing known
 * stays unknown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-comm-totals.h"

struct _SlCommTotals
{
  SlCommunication *comm;
  SlCommOp        *op;
  guint            n_ops;
};

static void
add_known (double *sum,
           double  value)
{
  if (isnan (value))
    return;
  *sum = isnan (*sum) ? value : *sum + value;
}

static void
reset (SlCommTotals *self)
{
  g_clear_object (&self->comm);
  self->comm = sl_communication_new ();
  self->op = sl_communication_add_op (self->comm, "", "", "", "Total");
  self->n_ops = 0;
}

SlCommTotals *
sl_comm_totals_new (void)
{
  SlCommTotals *self = g_new0 (SlCommTotals, 1);

  reset (self);
  return self;
}

void
sl_comm_totals_free (SlCommTotals *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->comm);
  g_free (self);
}

void
sl_comm_totals_clear (SlCommTotals *self)
{
  g_return_if_fail (self != NULL);
  reset (self);
}

static void
merge_packets (SlCommBandwidth       *into,
               const SlCommBandwidth *from)
{
  for (guint i = 0; i < from->packets->len; i++)
    {
      const SlCommPackets *packets = &g_array_index (from->packets, SlCommPackets, i);
      gboolean merged = FALSE;

      for (guint j = 0; j < into->packets->len && !merged; j++)
        {
          SlCommPackets *existing = &g_array_index (into->packets, SlCommPackets, j);

          if (existing->size_mb == packets->size_mb)
            {
              add_known (&existing->count, packets->count);
              add_known (&existing->time_ms, packets->time_ms);
              merged = TRUE;
            }
        }
      if (!merged)
        sl_comm_bandwidth_add_packets (into, packets->size_mb, packets->count, packets->time_ms);
    }
}

static void
add_bandwidth (SlCommOp              *total,
               const SlCommBandwidth *bandwidth)
{
  SlCommBandwidth *sum = sl_comm_op_add_bandwidth (total, bandwidth->transport);

  add_known (&sum->size_mb, bandwidth->size_mb);
  add_known (&sum->time_ms, bandwidth->time_ms);
  /* MB over ms is GB/s. */
  if (!isnan (sum->size_mb) && !isnan (sum->time_ms))
    sum->bandwidth_gbps = sum->time_ms > 0 ? sum->size_mb / sum->time_ms : 0;
  merge_packets (sum, bandwidth);
}

gboolean
sl_comm_totals_add_op (SlCommTotals   *self,
                       const SlCommOp *op)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (op != NULL, FALSE);

  if (sl_communication_is_total_name (op->name))
    return FALSE;

  add_known (&self->op->elapse_ms, op->elapse_ms);
  add_known (&self->op->transit_ms, op->transit_ms);
  add_known (&self->op->wait_ms, op->wait_ms);
  add_known (&self->op->sync_ms, op->sync_ms);
  add_known (&self->op->idle_ms, op->idle_ms);
  for (guint i = 0; i < op->bandwidths->len; i++)
    add_bandwidth (self->op, g_ptr_array_index (op->bandwidths, i));
  self->n_ops++;
  return TRUE;
}

guint
sl_comm_totals_get_n_ops (SlCommTotals *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_ops;
}

const SlCommOp *
sl_comm_totals_get_op (SlCommTotals *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->op;
}
