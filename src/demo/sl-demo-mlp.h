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
