/* sl-op-table.h: ops of one profiled device, by type and by instance
 *
 * Filled by the profile readers in a worker thread, then frozen by
 * sl_op_table_finish(): both lists are sorted by total time, longest
 * first, and exposed as GListModels of SlOpRow for column views.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-op-row.h"

G_BEGIN_DECLS

/* What an op type's ratio is a share of: the files say it differently. */
typedef enum {
  SL_OP_SHARE_OF_TABLE,   /* every op's time in the table (computed here) */
  SL_OP_SHARE_OF_AICORE,  /* the AI Core ops' time (MindSpore's aicore_intermediate *_type.csv) */
  SL_OP_SHARE_OF_MODEL,   /* the op time of its model (msprof's op_statistic Ratio(%)) */
} SlOpShareBasis;

#define SL_TYPE_OP_TABLE (sl_op_table_get_type ())
G_DECLARE_FINAL_TYPE (SlOpTable, sl_op_table, SL, OP_TABLE, GObject)

SlOpTable  *sl_op_table_new               (void);

/* Building */
/* Counts one execution into its instance (by @name) and its type. */
SlOpRow    *sl_op_table_add_execution     (SlOpTable  *self,
                                           const char *name,
                                           const char *op_type,
                                           const char *core_type,
                                           gint64      duration_ns,
                                           gint64      wait_ns,
                                           gint64      aicore_ns);
/* Rows a source has already aggregated (op_statistic, *_type.csv, *_detail.csv).
 * Once a type row is given, types are no longer derived from executions. */
SlOpRow    *sl_op_table_add_type          (SlOpTable  *self,
                                           const char *op_type,
                                           const char *core_type);
SlOpRow    *sl_op_table_add_instance      (SlOpTable  *self,
                                           const char *name,
                                           const char *op_type);
SlOpRow    *sl_op_table_lookup_instance   (SlOpTable  *self,
                                           const char *name);
void        sl_op_table_finish            (SlOpTable  *self);

/* Reading (after finish) */
GListModel *sl_op_table_get_types         (SlOpTable  *self);
GListModel *sl_op_table_get_instances     (SlOpTable  *self);
guint64     sl_op_table_get_n_executions  (SlOpTable  *self);
gint64      sl_op_table_get_total_ns      (SlOpTable  *self);
gboolean    sl_op_table_is_empty          (SlOpTable  *self);
/* What the types' ratios are a share of; instances' are always of the
 * table. The loader says so when a file gives the ratios. */
void        sl_op_table_set_type_share_basis (SlOpTable     *self,
                                              SlOpShareBasis basis);
SlOpShareBasis sl_op_table_get_type_share_basis (SlOpTable  *self);
/* "op_time", "aicore_time" or "model_op_time", for JSON. */
const char *sl_op_share_basis_to_string   (SlOpShareBasis basis);
/* A column title ("Share of AI Core Time (%)") and what it says, translated. */
const char *sl_op_share_basis_title       (SlOpShareBasis basis);
const char *sl_op_share_basis_description (SlOpShareBasis basis);

G_END_DECLS
