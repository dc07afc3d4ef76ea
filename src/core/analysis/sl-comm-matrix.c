/* sl-comm-matrix.c
 *
 * A matrix of one op is small (8 to a few hundred ranks), so cells are a
 * dense array. Should a file repeat a src-dst pair within an op, the
 * first one is kept, as the file's reader does for repeated keys.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-comm-matrix.h"

/* Past this many ranks a grid is no longer readable; the rest are left out. */
#define MAX_RANKS 1024

struct _SlCommMatrix
{
  GArray            *ranks;    /* gint64, ascending */
  const SlCommLink **cells;    /* n × n */
  double             max_bandwidth;
};

static gboolean
same_op (const SlCommLink *a,
         const SlCommLink *b)
{
  return g_str_equal (a->step, b->step) && g_str_equal (a->group, b->group) && g_str_equal (a->op, b->op);
}

/**
 * sl_comm_matrix_list_ops:
 *
 * Returns: (transfer container) (element-type SlCommLink): one link per op key
 */
GPtrArray *
sl_comm_matrix_list_ops (SlCommunication *comm,
                         gint64           rank_id)
{
  GPtrArray *keys = g_ptr_array_new ();

  g_return_val_if_fail (SL_IS_COMMUNICATION (comm), keys);

  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    {
      const SlCommLink *link = sl_communication_get_link (comm, i);
      gboolean seen = FALSE;

      if (!sl_comm_link_is_for_rank (link, rank_id) || link->src < 0)
        continue;
      /* Links of an op come together; look back from the newest key. */
      for (guint k = keys->len; k > 0 && !seen; k--)
        seen = same_op (g_ptr_array_index (keys, k - 1), link);
      if (!seen)
        g_ptr_array_add (keys, (gpointer)link);
    }
  return keys;
}

static int
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  gint64 ra = *(const gint64 *)a, rb = *(const gint64 *)b;

  return ra < rb ? -1 : ra > rb;
}

static void
add_rank (GArray *ranks,
          gint64  rank)
{
  for (guint i = 0; i < ranks->len; i++)
    if (g_array_index (ranks, gint64, i) == rank)
      return;
  if (ranks->len < MAX_RANKS)
    g_array_append_val (ranks, rank);
}

static gint
rank_index (GArray *ranks,
            gint64  rank)
{
  for (guint i = 0; i < ranks->len; i++)
    if (g_array_index (ranks, gint64, i) == rank)
      return (gint)i;
  return -1;
}

static gboolean
belongs (const SlCommLink *link,
         const SlCommLink *key,
         gint64            rank_id)
{
  return link->src >= 0 && link->dst >= 0 && sl_comm_link_is_for_rank (link, rank_id) && same_op (link, key);
}

/**
 * sl_comm_matrix_new:
 * @key: a link of the op to show, as sl_comm_matrix_list_ops() gives
 */
SlCommMatrix *
sl_comm_matrix_new (SlCommunication  *comm,
                    gint64            rank_id,
                    const SlCommLink *key)
{
  SlCommMatrix *self;
  guint n;

  g_return_val_if_fail (SL_IS_COMMUNICATION (comm), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  self = g_new0 (SlCommMatrix, 1);
  self->ranks = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    {
      const SlCommLink *link = sl_communication_get_link (comm, i);

      if (!belongs (link, key, rank_id))
        continue;
      add_rank (self->ranks, link->src);
      add_rank (self->ranks, link->dst);
    }
  g_array_sort (self->ranks, compare_ranks);

  n = self->ranks->len;
  self->cells = g_new0 (const SlCommLink *, (gsize)MAX (n * n, 1));
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    {
      const SlCommLink *link = sl_communication_get_link (comm, i);
      gint row, column;

      if (!belongs (link, key, rank_id) ||
          (row = rank_index (self->ranks, link->src)) < 0 ||
          (column = rank_index (self->ranks, link->dst)) < 0 ||
          self->cells[row * n + column] != NULL)
        continue;
      self->cells[row * n + column] = link;
      if (!isnan (link->bandwidth_gbps))
        self->max_bandwidth = MAX (self->max_bandwidth, link->bandwidth_gbps);
    }
  return self;
}

void
sl_comm_matrix_free (SlCommMatrix *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->ranks);
  g_free (self->cells);
  g_free (self);
}

guint
sl_comm_matrix_get_n_ranks (SlCommMatrix *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->ranks->len;
}

gint64
sl_comm_matrix_get_rank (SlCommMatrix *self,
                         guint         index)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (index < self->ranks->len, -1);
  return g_array_index (self->ranks, gint64, index);
}

const SlCommLink *
sl_comm_matrix_get_cell (SlCommMatrix *self,
                         guint         row,
                         guint         column)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (row < self->ranks->len && column < self->ranks->len, NULL);
  return self->cells[row * self->ranks->len + column];
}

double
sl_comm_matrix_get_max_bandwidth (SlCommMatrix *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max_bandwidth;
}
