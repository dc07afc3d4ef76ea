/* sl-demo-mlp.h: a small multilayer perceptron in plain C
 *
 * 2 inputs, two tanh hidden layers, a softmax over 2 classes, trained with
 * cross-entropy and SGD with momentum. Small enough to read in one sitting;
 * real enough that its loss curve, weights and gradients are genuine.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_DEMO_MLP_N_LAYERS 3

typedef struct {
  guint  n_in;
  guint  n_out;
  float *weight;       /* n_out x n_in, row-major */
  float *bias;         /* n_out */
  float *grad_weight;
  float *grad_bias;
  float *velocity_weight;
  float *velocity_bias;
} SlDemoLayer;

typedef struct {
  SlDemoLayer layers[SL_DEMO_MLP_N_LAYERS];
  guint       hidden;
  float       momentum;
} SlDemoMlp;

/* The operations of one training step, in the order they run, so a
 * profiler can time them (see sl_demo_mlp_train_batch_traced()). */
typedef enum {
  SL_DEMO_PHASE_FORWARD,
  SL_DEMO_PHASE_BACKWARD,
  SL_DEMO_PHASE_UPDATE,
} SlDemoPhase;

typedef enum {
  SL_DEMO_OP_MATMUL,          /* forward layer: W x + b */
  SL_DEMO_OP_TANH,
  SL_DEMO_OP_LOSS,            /* softmax cross-entropy and its gradient */
  SL_DEMO_OP_MATMUL_GRAD_W,   /* weight gradient */
  SL_DEMO_OP_BIAS_ADD_GRAD,
  SL_DEMO_OP_MATMUL_GRAD_X,   /* gradient for the layer below */
  SL_DEMO_OP_TANH_GRAD,
  SL_DEMO_OP_APPLY_MOMENTUM,
} SlDemoOpKind;

typedef void (*SlDemoOpFunc) (SlDemoOpKind  kind,
                              guint         layer,
                              gboolean      begin,
                              gpointer      user_data);

SlDemoMlp *sl_demo_mlp_new          (guint          hidden,
                                     float          momentum,
                                     guint32        seed);
void       sl_demo_mlp_free         (SlDemoMlp     *mlp);
double     sl_demo_mlp_train_batch  (SlDemoMlp     *mlp,
                                     const float   *x,
                                     const guint8  *labels,
                                     guint          n,
                                     float          learning_rate,
                                     guint         *n_correct);
double     sl_demo_mlp_train_batch_traced (SlDemoMlp  *mlp,
                                     const float   *x,
                                     const guint8  *labels,
                                     guint          n,
                                     float          learning_rate,
                                     guint         *n_correct,
                                     SlDemoOpFunc   op_func,
                                     gpointer       user_data);
SlDemoPhase sl_demo_op_kind_get_phase (SlDemoOpKind kind);
double     sl_demo_mlp_evaluate     (SlDemoMlp     *mlp,
                                     const float   *x,
                                     const guint8  *labels,
                                     guint          n,
                                     double        *accuracy);
float      sl_demo_mlp_predict      (SlDemoMlp     *mlp,
                                     float          x0,
                                     float          x1);
const char *sl_demo_mlp_layer_name  (guint          layer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDemoMlp, sl_demo_mlp_free)

G_END_DECLS
