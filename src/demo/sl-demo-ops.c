/* sl-demo-ops.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-demo-ops.h"

#define NET   "Default/network-WithLossCell/_backbone-MLP"
#define GRAD  "Gradients/Default/network-WithLossCell/_backbone-MLP"
#define LOSS  "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits"
#define OPTIM "Default/optimizer-Momentum"
#define NONE  ((SlDemoOpKind)-1)

typedef struct {
  SlDemoOp     op;
  SlDemoOpKind kind;    /* what the profiler times, NONE for graph only */
  guint        layer;
} Entry;

/* In the order they run; ids as MindSpore would number them. */
static const Entry entries[] = {
  { { 1, "MatMul", NET "/dense1-Dense", "x", "dense1.weight" }, SL_DEMO_OP_MATMUL, 0 },
  { { 2, "BiasAdd", NET "/dense1-Dense", "1", "dense1.bias" }, NONE, 0 },
  { { 3, "Tanh", NET "/act1-Tanh", "2", NULL }, SL_DEMO_OP_TANH, 0 },
  { { 4, "MatMul", NET "/dense2-Dense", "3", "dense2.weight" }, SL_DEMO_OP_MATMUL, 1 },
  { { 5, "BiasAdd", NET "/dense2-Dense", "4", "dense2.bias" }, NONE, 1 },
  { { 6, "Tanh", NET "/act2-Tanh", "5", NULL }, SL_DEMO_OP_TANH, 1 },
  { { 7, "MatMul", NET "/dense3-Dense", "6", "dense3.weight" }, SL_DEMO_OP_MATMUL, 2 },
  { { 8, "BiasAdd", NET "/dense3-Dense", "7", "dense3.bias" }, NONE, 2 },
  { { 9, "SoftmaxCrossEntropyWithLogits", LOSS, "8", "label" }, SL_DEMO_OP_LOSS, 2 },
  { { 10, "ReduceMean", LOSS, "9", NULL }, NONE, 2 },
  { { 11, "ApplyMomentum", OPTIM, "10", "dense1.weight" }, SL_DEMO_OP_APPLY_MOMENTUM, 0 },
  { { 12, "ApplyMomentum", OPTIM, NULL, NULL }, SL_DEMO_OP_APPLY_MOMENTUM, 1 },
  { { 13, "ApplyMomentum", OPTIM, NULL, NULL }, SL_DEMO_OP_APPLY_MOMENTUM, 2 },
  { { 14, "MatMul", GRAD "/dense3-Dense/gradMatMul", NULL, NULL }, SL_DEMO_OP_MATMUL_GRAD_W, 2 },
  { { 15, "BiasAddGrad", GRAD "/dense3-Dense/gradBiasAdd", NULL, NULL }, SL_DEMO_OP_BIAS_ADD_GRAD, 2 },
  { { 16, "MatMul", GRAD "/dense3-Dense/gradMatMul", NULL, NULL }, SL_DEMO_OP_MATMUL_GRAD_X, 2 },
  { { 17, "TanhGrad", GRAD "/act2-Tanh/gradTanh", NULL, NULL }, SL_DEMO_OP_TANH_GRAD, 1 },
  { { 18, "MatMul", GRAD "/dense2-Dense/gradMatMul", NULL, NULL }, SL_DEMO_OP_MATMUL_GRAD_W, 1 },
  { { 19, "BiasAddGrad", GRAD "/dense2-Dense/gradBiasAdd", NULL, NULL }, SL_DEMO_OP_BIAS_ADD_GRAD, 1 },
  { { 20, "MatMul", GRAD "/dense2-Dense/gradMatMul", NULL, NULL }, SL_DEMO_OP_MATMUL_GRAD_X, 1 },
  { { 21, "TanhGrad", GRAD "/act1-Tanh/gradTanh", NULL, NULL }, SL_DEMO_OP_TANH_GRAD, 0 },
  { { 22, "MatMul", GRAD "/dense1-Dense/gradMatMul", NULL, NULL }, SL_DEMO_OP_MATMUL_GRAD_W, 0 },
  { { 23, "BiasAddGrad", GRAD "/dense1-Dense/gradBiasAdd", NULL, NULL }, SL_DEMO_OP_BIAS_ADD_GRAD, 0 },
};

guint
sl_demo_ops_get_n (void)
{
  return G_N_ELEMENTS (entries);
}

const SlDemoOp *
sl_demo_ops_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (entries), NULL);
  return &entries[index].op;
}

const SlDemoOp *
sl_demo_ops_lookup (SlDemoOpKind kind,
                    guint        layer)
{
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    if (entries[i].kind == kind && entries[i].layer == layer)
      return &entries[i].op;
  return NULL;
}

char *
sl_demo_op_dup_full_name (const SlDemoOp *op)
{
  g_return_val_if_fail (op != NULL, NULL);
  return g_strdup_printf ("%s/%s-op%u", op->scope, op->type, op->id);
}

char *
sl_demo_op_dup_name (const SlDemoOp *op)
{
  g_return_val_if_fail (op != NULL, NULL);
  return g_strdup_printf ("%s-op%u", op->type, op->id);
}
