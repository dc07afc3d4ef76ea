/* sl-profile-op-counters.h: the hardware counter columns of op_summary
 *
 * msprof's metric sets add columns to op_summary: pipe utilization
 * ratios, cube and vector operations and main memory bandwidth, each for
 * the cube side (aic_), the vector side (aiv_) or, in older files, with no
 * prefix. These find the columns a file has and add one execution's
 * counters to its op row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-csv-reader.h"
#include "sl-op-row.h"

G_BEGIN_DECLS

typedef struct {
  int pipes[SL_OP_N_PIPES][3];
  int cube_fops[3];
  int vector_fops[3];
  int read_bw[3];
  int write_bw[3];
} SlOpCounterColumns;

void sl_op_counter_columns_find (SlOpCounterColumns       *columns,
                                 SlCsvReader              *reader);

/* The pipe ratios, moved bytes and counters of the current row into
 * @row; @c_texts are the columns of the SlOpRowText (shapes and dtypes
 * give the ideal bytes). */
void sl_op_counters_add         (SlOpRow                  *row,
                                 SlCsvReader              *reader,
                                 const SlOpCounterColumns *columns,
                                 const int                *c_texts,
                                 gint64                    aicore_ns,
                                 gint64                    aiv_ns,
                                 gint64                    dur_ns);

G_END_DECLS
