/* sl-communication.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-communication.h"

struct _SlCommunication
{
  GObject    parent_instance;
  GPtrArray *files;
  GPtrArray *ops;     /* SlCommOp */
  GPtrArray *links;   /* SlCommLink */
};

G_DEFINE_FINAL_TYPE (SlCommunication, sl_communication, G_TYPE_OBJECT)

static void
bandwidth_free (SlCommBandwidth *bandwidth)
{
  g_free (bandwidth->transport);
  g_array_unref (bandwidth->packets);
  g_free (bandwidth);
}

static void
op_free (SlCommOp *op)
{
  g_free (op->step);
  g_free (op->group);
  g_free (op->name);
  g_ptr_array_unref (op->bandwidths);
  g_free (op);
}

static void
link_free (SlCommLink *link)
{
  g_free (link->step);
  g_free (link->group);
  g_free (link->op);
  g_free (link->op_name);
  g_free (link->key);
  g_free (link->transport);
  g_free (link);
}

static void
sl_communication_finalize (GObject *object)
{
  SlCommunication *self = (SlCommunication *)object;

  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->ops, g_ptr_array_unref);
  g_clear_pointer (&self->links, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_communication_parent_class)->finalize (object);
}

static void
sl_communication_class_init (SlCommunicationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_communication_finalize;
}

static void
sl_communication_init (SlCommunication *self)
{
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->ops = g_ptr_array_new_with_free_func ((GDestroyNotify)op_free);
  self->links = g_ptr_array_new_with_free_func ((GDestroyNotify)link_free);
}

SlCommunication *
sl_communication_new (void)
{
  return g_object_new (SL_TYPE_COMMUNICATION, NULL);
}

/**
 * sl_communication_add_file:
 *
 * Returns: (transfer none): @path as kept by @self; records point at it
 */
const char *
sl_communication_add_file (SlCommunication *self,
                           const char      *path)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < self->files->len; i++)
    if (g_str_equal (g_ptr_array_index (self->files, i), path))
      return g_ptr_array_index (self->files, i);
  g_ptr_array_add (self->files, g_strdup (path));
  return g_ptr_array_index (self->files, self->files->len - 1);
}

/**
 * sl_communication_add_op:
 *
 * Returns: (transfer none): the new op, its numbers unknown
 */
SlCommOp *
sl_communication_add_op (SlCommunication *self,
                         const char      *path,
                         const char      *step,
                         const char      *group,
                         const char      *name)
{
  SlCommOp *op;

  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  g_return_val_if_fail (path != NULL && name != NULL, NULL);

  op = g_new0 (SlCommOp, 1);
  op->step = g_strdup (step != NULL ? step : "");
  op->group = g_strdup (group != NULL ? group : "");
  op->name = g_strdup (name);
  op->rank_id = -1;
  op->start_us = op->elapse_ms = op->transit_ms = op->wait_ms = op->sync_ms = op->idle_ms = NAN;
  op->bandwidths = g_ptr_array_new_with_free_func ((GDestroyNotify)bandwidth_free);
  op->path = sl_communication_add_file (self, path);
  op->offset = -1;
  g_ptr_array_add (self->ops, op);
  return op;
}

/**
 * sl_comm_op_add_bandwidth:
 *
 * Returns: (transfer none): the op's entry for @transport, created when missing
 */
SlCommBandwidth *
sl_comm_op_add_bandwidth (SlCommOp   *op,
                          const char *transport)
{
  SlCommBandwidth *bandwidth;

  g_return_val_if_fail (op != NULL && transport != NULL, NULL);

  for (guint i = 0; i < op->bandwidths->len; i++)
    {
      bandwidth = g_ptr_array_index (op->bandwidths, i);
      if (g_str_equal (bandwidth->transport, transport))
        return bandwidth;
    }
  bandwidth = g_new0 (SlCommBandwidth, 1);
  bandwidth->transport = g_strdup (transport);
  bandwidth->size_mb = bandwidth->time_ms = bandwidth->bandwidth_gbps = bandwidth->large_packet_ratio = NAN;
  bandwidth->packets = g_array_new (FALSE, FALSE, sizeof (SlCommPackets));
  g_ptr_array_add (op->bandwidths, bandwidth);
  return bandwidth;
}

void
sl_comm_bandwidth_add_packets (SlCommBandwidth *bandwidth,
                               double           size_mb,
                               double           count,
                               double           time_ms)
{
  SlCommPackets packets = { size_mb, count, time_ms };

  g_return_if_fail (bandwidth != NULL);

  g_array_append_val (bandwidth->packets, packets);
}

/* "3-12" → 3 and 12; anything else leaves -1. */
static void
parse_link_key (const char *key,
                gint64     *src,
                gint64     *dst)
{
  g_auto(GStrv) parts = g_strsplit (key, "-", 3);
  guint64 a, b;

  *src = *dst = -1;
  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXINT32, &a, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXINT32, &b, NULL))
    return;
  *src = (gint64)a;
  *dst = (gint64)b;
}

/**
 * sl_communication_add_link:
 *
 * Returns: (transfer none): the new link, its numbers unknown
 */
SlCommLink *
sl_communication_add_link (SlCommunication *self,
                           const char      *path,
                           const char      *step,
                           const char      *group,
                           const char      *op,
                           const char      *key)
{
  SlCommLink *link;

  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  g_return_val_if_fail (path != NULL && key != NULL, NULL);

  link = g_new0 (SlCommLink, 1);
  link->step = g_strdup (step != NULL ? step : "");
  link->group = g_strdup (group != NULL ? group : "");
  link->op = g_strdup (op != NULL ? op : "");
  link->key = g_strdup (key);
  parse_link_key (key, &link->src, &link->dst);
  link->size_mb = link->time_ms = link->bandwidth_gbps = NAN;
  link->path = sl_communication_add_file (self, path);
  link->offset = -1;
  g_ptr_array_add (self->links, link);
  return link;
}

gboolean
sl_communication_is_empty (SlCommunication *self)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), TRUE);
  return self->ops->len == 0 && self->links->len == 0;
}

guint
sl_communication_get_n_ops (SlCommunication *self)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), 0);
  return self->ops->len;
}

const SlCommOp *
sl_communication_get_op (SlCommunication *self,
                         guint            index)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  g_return_val_if_fail (index < self->ops->len, NULL);
  return g_ptr_array_index (self->ops, index);
}

guint
sl_communication_get_n_links (SlCommunication *self)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), 0);
  return self->links->len;
}

const SlCommLink *
sl_communication_get_link (SlCommunication *self,
                           guint            index)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  g_return_val_if_fail (index < self->links->len, NULL);
  return g_ptr_array_index (self->links, index);
}

/**
 * sl_communication_get_files:
 *
 * Returns: (transfer none) (element-type utf8): the paths read
 */
GPtrArray *
sl_communication_get_files (SlCommunication *self)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (self), NULL);
  return self->files;
}

gboolean
sl_comm_op_is_for_rank (const SlCommOp *op,
                        gint64          rank_id)
{
  g_return_val_if_fail (op != NULL, FALSE);
  return op->rank_id < 0 || op->rank_id == rank_id;
}

gboolean
sl_comm_link_is_for_rank (const SlCommLink *link,
                          gint64            rank_id)
{
  g_return_val_if_fail (link != NULL, FALSE);
  return !link->cluster || link->src == rank_id;
}

gboolean
sl_communication_is_total_name (const char *name)
{
  const char *at;

  g_return_val_if_fail (name != NULL, FALSE);

  if (g_str_equal (name, "Total Op Info"))
    return TRUE;
  at = strchr (name, '@');
  return at != NULL && at - name >= 6 && strncmp (at - 6, "-total", 6) == 0;
}

static double
share_of_transit (double part,
                  double transit)
{
  if (isnan (part) || isnan (transit))
    return NAN;
  return part + transit > 0 ? part / (part + transit) : 0;
}

double
sl_comm_op_get_wait_ratio (const SlCommOp *op)
{
  g_return_val_if_fail (op != NULL, NAN);
  return share_of_transit (op->wait_ms, op->transit_ms);
}

double
sl_comm_op_get_sync_ratio (const SlCommOp *op)
{
  g_return_val_if_fail (op != NULL, NAN);
  return share_of_transit (op->sync_ms, op->transit_ms);
}

char *
sl_comm_op_dup_short_name (const SlCommOp *op)
{
  const char *at;

  g_return_val_if_fail (op != NULL, NULL);

  at = strchr (op->name, '@');
  return at != NULL && at > op->name ? g_strndup (op->name, at - op->name) : g_strdup (op->name);
}
