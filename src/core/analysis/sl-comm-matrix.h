/* sl-comm-matrix.h: one op's links between ranks as a src × dst grid
 *
 * From the links communication_matrix.json (or a cluster's matrix) keeps
 * for one step, group and op key, as seen by one rank: the ranks that
 * appear as source or destination, in order, and per cell the link, if
 * any. Links whose key is not "src-dst" with rank numbers are left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-communication.h"

G_BEGIN_DECLS

typedef struct _SlCommMatrix SlCommMatrix;

/* The distinct (step, group, op) keys of @comm's links for @rank_id, in
 * file order, each as its first link. */
GPtrArray        *sl_comm_matrix_list_ops      (SlCommunication  *comm,
                                                gint64            rank_id);

SlCommMatrix     *sl_comm_matrix_new           (SlCommunication  *comm,
                                                gint64            rank_id,
                                                const SlCommLink *key);
void              sl_comm_matrix_free          (SlCommMatrix     *self);
guint             sl_comm_matrix_get_n_ranks   (SlCommMatrix     *self);
gint64            sl_comm_matrix_get_rank      (SlCommMatrix     *self,
                                                guint             index);
/* Returns: (nullable): the link from the @row'th rank to the @column'th */
const SlCommLink *sl_comm_matrix_get_cell      (SlCommMatrix     *self,
                                                guint             row,
                                                guint             column);
/* The highest known bandwidth of a cell, 0 without any. */
double            sl_comm_matrix_get_max_bandwidth (SlCommMatrix *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCommMatrix, sl_comm_matrix_free)

G_END_DECLS
