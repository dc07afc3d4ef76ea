/* sl-comm-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-comm-row.h"

struct _SlCommRow
{
  GObject         parent_instance;
  const SlCommOp *op;
  gboolean        total;
  gpointer        owner;
  GDestroyNotify  owner_free;
};

G_DEFINE_FINAL_TYPE (SlCommRow, sl_comm_row, G_TYPE_OBJECT)

static void
sl_comm_row_finalize (GObject *object)
{
  SlCommRow *self = SL_COMM_ROW (object);

  if (self->owner_free != NULL)
    self->owner_free (self->owner);

  G_OBJECT_CLASS (sl_comm_row_parent_class)->finalize (object);
}

static void
sl_comm_row_class_init (SlCommRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_comm_row_finalize;
}

static void
sl_comm_row_init (SlCommRow *self)
{
}

SlCommRow *
sl_comm_row_new (const SlCommOp *op,
                 gboolean        total,
                 gpointer        owner,
                 GDestroyNotify  owner_free)
{
  SlCommRow *self;

  g_return_val_if_fail (op != NULL, NULL);

  self = g_object_new (SL_TYPE_COMM_ROW, NULL);
  self->op = op;
  self->total = total;
  self->owner = owner;
  self->owner_free = owner_free;
  return self;
}

const SlCommOp *
sl_comm_row_get_op (SlCommRow *self)
{
  g_return_val_if_fail (SL_IS_COMM_ROW (self), NULL);
  return self->op;
}

gboolean
sl_comm_row_is_total (SlCommRow *self)
{
  g_return_val_if_fail (SL_IS_COMM_ROW (self), FALSE);
  return self->total;
}

double
sl_comm_row_get_bandwidth (SlCommRow  *self,
                           const char *transport)
{
  g_return_val_if_fail (SL_IS_COMM_ROW (self), NAN);

  for (guint i = 0; i < self->op->bandwidths->len; i++)
    {
      const SlCommBandwidth *bandwidth = g_ptr_array_index (self->op->bandwidths, i);

      if (g_str_equal (bandwidth->transport, transport))
        return bandwidth->bandwidth_gbps;
    }
  return NAN;
}
