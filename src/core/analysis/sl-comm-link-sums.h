/* sl-comm-link-sums.h: each link's bytes and transit time over a profile
 *
 * Every record of a "src-dst" link (over steps and ops) summed, and the
 * link's bandwidth made of the sums: what a slow link is judged by, for
 * one rank (the advisor) or for a whole cluster. msprof's matrices also
 * hold aggregates per op kind ("allreduce-total@"): where a rank's data
 * has them only those are taken, so no transfer counts twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-communication.h"
#include "sl-spread.h"

G_BEGIN_DECLS

/* For sl_comm_link_sums_add(): the records of every rank. */
#define SL_COMM_ALL_RANKS G_MININT64

typedef struct {
  const SlCommLink *first;      /* for the evidence; its key names the link */
  gint64            src;        /* -1 when the key has no rank numbers */
  gint64            dst;
  double            size_mb;
  double            time_ms;
} SlCommLinkSum;

typedef struct _SlCommLinkSums SlCommLinkSums;

SlCommLinkSums      *sl_comm_link_sums_new            (void);
void                 sl_comm_link_sums_free           (SlCommLinkSums      *self);
/* Adds @comm's links that are about @rank_id (or SL_COMM_ALL_RANKS) and
 * carry a transit time; the links must outlive @self. */
void                 sl_comm_link_sums_add            (SlCommLinkSums      *self,
                                                       SlCommunication     *comm,
                                                       gint64               rank_id);
/* Transport types in first-seen order. */
guint                sl_comm_link_sums_get_n_transports (SlCommLinkSums    *self);
const char          *sl_comm_link_sums_get_transport  (SlCommLinkSums      *self,
                                                       guint                index);
/* The links of one transport between two different ranks (not LOCAL),
 * in first-seen order; (element-type SlCommLinkSum) (transfer none). */
GPtrArray           *sl_comm_link_sums_get_links      (SlCommLinkSums      *self,
                                                       const char          *transport);
/* Every link of every transport, LOCAL and rank-to-itself ones too. */
GPtrArray           *sl_comm_link_sums_get_all        (SlCommLinkSums      *self);
/* GB/s (MB per ms), -1 without transit time. */
double               sl_comm_link_sum_get_bandwidth   (const SlCommLinkSum *sum);
/* The spread of the bandwidths of @links; they are sorted slowest first.
 * FALSE with fewer than two. */
gboolean             sl_comm_link_sums_spread         (GPtrArray           *links,
                                                       SlSpread            *spread);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCommLinkSums, sl_comm_link_sums_free)

G_END_DECLS
