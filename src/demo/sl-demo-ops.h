/* sl-demo-ops.h: the demo network's ops, one id each, as both its graph
 * and its profiler name them
 *
 * MindSpore names an op "scope/Type-op<id>" in the graph it records and
 * in the profiler's files alike, which is what lets a graph node be found
 * on the timeline and in the op tables. The demo job writes both from
 * this one table. The graph holds the forward ops and the first update;
 * the gradients and the other updates are timed only, with ids after the
 * graph's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-demo-mlp.h"

G_BEGIN_DECLS

typedef struct {
  guint        id;
  const char  *type;
  const char  *scope;
  /* In the graph: its inputs (node ids or parameters), in1 may be NULL;
   * in0 is NULL for an op the graph does not hold. */
  const char  *in0;
  const char  *in1;
} SlDemoOp;

guint           sl_demo_ops_get_n        (void);
const SlDemoOp *sl_demo_ops_get          (guint         index);
/* The op the profiler times for @kind on @layer; NULL for one the
 * network never runs (no tanh after the last layer, say). */
const SlDemoOp *sl_demo_ops_lookup       (SlDemoOpKind  kind,
                                          guint         layer);
/* "scope/Type-op<id>" and "Type-op<id>" */
char           *sl_demo_op_dup_full_name (const SlDemoOp *op);
char           *sl_demo_op_dup_name      (const SlDemoOp *op);

G_END_DECLS
