/* sl-demo-mlp.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-demo-mlp.h"

#define N_INPUTS 2
#define N_CLASSES 2
#define MAX_WIDTH 256

static void
layer_init (SlDemoLayer *layer,
            guint        n_in,
            guint        n_out,
            GRand       *rand)
{
  /* Xavier initialisation keeps tanh units out of saturation at the start. */
  double scale = sqrt (6.0 / (n_in + n_out));

  layer->n_in = n_in;
  layer->n_out = n_out;
  layer->weight = g_new (float, n_in * n_out);
  layer->bias = g_new0 (float, n_out);
  layer->grad_weight = g_new0 (float, n_in * n_out);
  layer->grad_bias = g_new0 (float, n_out);
  layer->velocity_weight = g_new0 (float, n_in * n_out);
  layer->velocity_bias = g_new0 (float, n_out);

  for (guint i = 0; i < n_in * n_out; i++)
    layer->weight[i] = g_rand_double_range (rand, -scale, scale);
}

static void
layer_clear (SlDemoLayer *layer)
{
  g_free (layer->weight);
  g_free (layer->bias);
  g_free (layer->grad_weight);
  g_free (layer->grad_bias);
  g_free (layer->velocity_weight);
  g_free (layer->velocity_bias);
}

SlDemoMlp *
sl_demo_mlp_new (guint   hidden,
                 float   momentum,
                 guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  SlDemoMlp *mlp;

  g_return_val_if_fail (hidden >= 2 && hidden <= MAX_WIDTH, NULL);

  mlp = g_new0 (SlDemoMlp, 1);
  mlp->hidden = hidden;
  mlp->momentum = momentum;
  layer_init (&mlp->layers[0], N_INPUTS, hidden, rand);
  layer_init (&mlp->layers[1], hidden, hidden, rand);
  layer_init (&mlp->layers[2], hidden, N_CLASSES, rand);

  return mlp;
}

void
sl_demo_mlp_free (SlDemoMlp *mlp)
{
  if (mlp == NULL)
    return;

  for (guint i = 0; i < SL_DEMO_MLP_N_LAYERS; i++)
    layer_clear (&mlp->layers[i]);
  g_free (mlp);
}

const char *
sl_demo_mlp_layer_name (guint layer)
{
  static const char *names[SL_DEMO_MLP_N_LAYERS] = { "dense1", "dense2", "dense3" };

  g_return_val_if_fail (layer < SL_DEMO_MLP_N_LAYERS, NULL);
  return names[layer];
}

static void
layer_forward (const SlDemoLayer *layer,
               const float       *in,
               float             *out,
               gboolean           activate)
{
  for (guint o = 0; o < layer->n_out; o++)
    {
      const float *w = layer->weight + o * layer->n_in;
      float sum = layer->bias[o];

      for (guint i = 0; i < layer->n_in; i++)
        sum += w[i] * in[i];
      out[o] = activate ? tanhf (sum) : sum;
    }
}

/* Forward pass for one sample, keeping activations for the backward pass. */
static void
forward (SlDemoMlp   *mlp,
         const float *x,
         float       *h1,
         float       *h2,
         float       *probs)
{
  float logits[N_CLASSES];
  float max_logit, sum = 0;

  layer_forward (&mlp->layers[0], x, h1, TRUE);
  layer_forward (&mlp->layers[1], h1, h2, TRUE);
  layer_forward (&mlp->layers[2], h2, logits, FALSE);

  max_logit = MAX (logits[0], logits[1]);
  for (guint c = 0; c < N_CLASSES; c++)
    {
      probs[c] = expf (logits[c] - max_logit);
      sum += probs[c];
    }
  for (guint c = 0; c < N_CLASSES; c++)
    probs[c] /= sum;
}

static void
update (SlDemoLayer *layer,
        float        learning_rate,
        float        momentum,
        guint        batch)
{
  for (guint i = 0; i < layer->n_in * layer->n_out; i++)
    {
      layer->grad_weight[i] /= batch;
      layer->velocity_weight[i] = momentum * layer->velocity_weight[i] - learning_rate * layer->grad_weight[i];
      layer->weight[i] += layer->velocity_weight[i];
    }
  for (guint o = 0; o < layer->n_out; o++)
    {
      layer->grad_bias[o] /= batch;
      layer->velocity_bias[o] = momentum * layer->velocity_bias[o] - learning_rate * layer->grad_bias[o];
      layer->bias[o] += layer->velocity_bias[o];
    }
}

static void
zero_grads (SlDemoLayer *layer)
{
  memset (layer->grad_weight, 0, sizeof (float) * layer->n_in * layer->n_out);
  memset (layer->grad_bias, 0, sizeof (float) * layer->n_out);
}

SlDemoPhase
sl_demo_op_kind_get_phase (SlDemoOpKind kind)
{
  switch (kind)
    {
    case SL_DEMO_OP_MATMUL:
    case SL_DEMO_OP_TANH:
    case SL_DEMO_OP_LOSS:
      return SL_DEMO_PHASE_FORWARD;
    case SL_DEMO_OP_APPLY_MOMENTUM:
      return SL_DEMO_PHASE_UPDATE;
    case SL_DEMO_OP_MATMUL_GRAD_W:
    case SL_DEMO_OP_BIAS_ADD_GRAD:
    case SL_DEMO_OP_MATMUL_GRAD_X:
    case SL_DEMO_OP_TANH_GRAD:
    default:
      return SL_DEMO_PHASE_BACKWARD;
    }
}

/**
 * sl_demo_mlp_train_batch:
 * @n_correct: (out) (optional): samples classified right before the update
 *
 * One step of SGD with momentum. The gradients stay in the layers until
 * the next step, so they can be written as histograms.
 *
 * Returns: the mean cross-entropy loss of the batch
 */
double
sl_demo_mlp_train_batch (SlDemoMlp    *mlp,
                         const float  *x,
                         const guint8 *labels,
                         guint         n,
                         float         learning_rate,
                         guint        *n_correct)
{
  return sl_demo_mlp_train_batch_traced (mlp, x, labels, n, learning_rate, n_correct, NULL, NULL);
}

static inline void
op_mark (SlDemoOpFunc  func,
         SlDemoOpKind  kind,
         guint         layer,
         gboolean      begin,
         gpointer      user_data)
{
  if (func != NULL)
    func (kind, layer, begin, user_data);
}

/**
 * sl_demo_mlp_train_batch_traced:
 * @op_func: (nullable): called before and after each operation
 *
 * sl_demo_mlp_train_batch() done operation by operation over the whole
 * batch (layer by layer forward, then backward, then the updates), so each
 * can be timed. Every sum runs over the samples in the same order as a
 * sample-by-sample pass would, so the results are the same bits.
 */
double
sl_demo_mlp_train_batch_traced (SlDemoMlp    *mlp,
                                const float  *x,
                                const guint8 *labels,
                                guint         n,
                                float         learning_rate,
                                guint        *n_correct,
                                SlDemoOpFunc  op_func,
                                gpointer      user_data)
{
  g_autofree float *acts = NULL;     /* per layer output, n x MAX_WIDTH */
  g_autofree float *deltas = NULL;
  g_autofree float *probs = NULL;
  double loss = 0;
  guint correct = 0;

  g_return_val_if_fail (mlp != NULL && n > 0, 0);

  acts = g_new (float, (gsize)SL_DEMO_MLP_N_LAYERS * n * MAX_WIDTH);
  deltas = g_new (float, (gsize)SL_DEMO_MLP_N_LAYERS * n * MAX_WIDTH);
  probs = g_new (float, (gsize)n * N_CLASSES);

#define ACT(l, s) (acts + ((gsize)(l) * n + (s)) * MAX_WIDTH)
#define DELTA(l, s) (deltas + ((gsize)(l) * n + (s)) * MAX_WIDTH)

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    zero_grads (&mlp->layers[l]);

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    {
      const SlDemoLayer *layer = &mlp->layers[l];

      op_mark (op_func, SL_DEMO_OP_MATMUL, l, TRUE, user_data);
      for (guint s = 0; s < n; s++)
        layer_forward (layer, l == 0 ? x + 2 * s : ACT (l - 1, s), ACT (l, s), FALSE);
      op_mark (op_func, SL_DEMO_OP_MATMUL, l, FALSE, user_data);

      if (l + 1 < SL_DEMO_MLP_N_LAYERS)
        {
          op_mark (op_func, SL_DEMO_OP_TANH, l, TRUE, user_data);
          for (guint s = 0; s < n; s++)
            for (guint o = 0; o < layer->n_out; o++)
              ACT (l, s)[o] = tanhf (ACT (l, s)[o]);
          op_mark (op_func, SL_DEMO_OP_TANH, l, FALSE, user_data);
        }
    }

  op_mark (op_func, SL_DEMO_OP_LOSS, SL_DEMO_MLP_N_LAYERS - 1, TRUE, user_data);
  for (guint s = 0; s < n; s++)
    {
      const float *logits = ACT (SL_DEMO_MLP_N_LAYERS - 1, s);
      float *p = probs + s * N_CLASSES;
      float *delta = DELTA (SL_DEMO_MLP_N_LAYERS - 1, s);
      float max_logit = MAX (logits[0], logits[1]), sum = 0;
      guint8 label = labels[s];

      for (guint c = 0; c < N_CLASSES; c++)
        {
          p[c] = expf (logits[c] - max_logit);
          sum += p[c];
        }
      for (guint c = 0; c < N_CLASSES; c++)
        p[c] /= sum;

      loss -= log (MAX (p[label], 1e-7f));
      correct += (p[1] > p[0]) == (label == 1);

      /* Softmax with cross-entropy: the output delta is probs - one_hot. */
      for (guint c = 0; c < N_CLASSES; c++)
        delta[c] = p[c] - (c == label ? 1.0f : 0.0f);
    }
  op_mark (op_func, SL_DEMO_OP_LOSS, SL_DEMO_MLP_N_LAYERS - 1, FALSE, user_data);

  for (int l = SL_DEMO_MLP_N_LAYERS - 1; l >= 0; l--)
    {
      SlDemoLayer *layer = &mlp->layers[l];

      op_mark (op_func, SL_DEMO_OP_MATMUL_GRAD_W, l, TRUE, user_data);
      for (guint s = 0; s < n; s++)
        {
          const float *in = l == 0 ? x + 2 * s : ACT (l - 1, s);
          const float *delta = DELTA (l, s);

          for (guint o = 0; o < layer->n_out; o++)
            {
              float *g = layer->grad_weight + o * layer->n_in;

              for (guint i = 0; i < layer->n_in; i++)
                g[i] += delta[o] * in[i];
            }
        }
      op_mark (op_func, SL_DEMO_OP_MATMUL_GRAD_W, l, FALSE, user_data);

      op_mark (op_func, SL_DEMO_OP_BIAS_ADD_GRAD, l, TRUE, user_data);
      for (guint s = 0; s < n; s++)
        for (guint o = 0; o < layer->n_out; o++)
          layer->grad_bias[o] += DELTA (l, s)[o];
      op_mark (op_func, SL_DEMO_OP_BIAS_ADD_GRAD, l, FALSE, user_data);

      if (l == 0)
        break;

      /* delta_in = (W^T delta_out) * tanh'(activation), in two operations. */
      op_mark (op_func, SL_DEMO_OP_MATMUL_GRAD_X, l, TRUE, user_data);
      for (guint s = 0; s < n; s++)
        {
          const float *delta_out = DELTA (l, s);
          float *delta_in = DELTA (l - 1, s);

          for (guint i = 0; i < layer->n_in; i++)
            {
              float sum = 0;

              for (guint o = 0; o < layer->n_out; o++)
                sum += layer->weight[o * layer->n_in + i] * delta_out[o];
              delta_in[i] = sum;
            }
        }
      op_mark (op_func, SL_DEMO_OP_MATMUL_GRAD_X, l, FALSE, user_data);

      op_mark (op_func, SL_DEMO_OP_TANH_GRAD, l - 1, TRUE, user_data);
      for (guint s = 0; s < n; s++)
        {
          const float *activation = ACT (l - 1, s);
          float *delta_in = DELTA (l - 1, s);

          for (guint i = 0; i < layer->n_in; i++)
            delta_in[i] = delta_in[i] * (1.0f - activation[i] * activation[i]);
        }
      op_mark (op_func, SL_DEMO_OP_TANH_GRAD, l - 1, FALSE, user_data);
    }

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    {
      op_mark (op_func, SL_DEMO_OP_APPLY_MOMENTUM, l, TRUE, user_data);
      update (&mlp->layers[l], learning_rate, mlp->momentum, n);
      op_mark (op_func, SL_DEMO_OP_APPLY_MOMENTUM, l, FALSE, user_data);
    }

#undef ACT
#undef DELTA

  if (n_correct != NULL)
    *n_correct = correct;

  return loss / n;
}

double
sl_demo_mlp_evaluate (SlDemoMlp    *mlp,
                      const float  *x,
                      const guint8 *labels,
                      guint         n,
                      double       *accuracy)
{
  float h1[MAX_WIDTH], h2[MAX_WIDTH], probs[N_CLASSES];
  double loss = 0;
  guint correct = 0;

  g_return_val_if_fail (mlp != NULL && n > 0, 0);

  for (guint s = 0; s < n; s++)
    {
      forward (mlp, x + 2 * s, h1, h2, probs);
      loss -= log (MAX (probs[labels[s]], 1e-7f));
      correct += (probs[1] > probs[0]) == (labels[s] == 1);
    }

  if (accuracy != NULL)
    *accuracy = correct / (double)n;

  return loss / n;
}

/**
 * sl_demo_mlp_predict:
 *
 * Returns: the probability of class 1 at (@x0, @x1)
 */
float
sl_demo_mlp_predict (SlDemoMlp *mlp,
                     float      x0,
                     float      x1)
{
  float h1[MAX_WIDTH], h2[MAX_WIDTH], probs[N_CLASSES];
  const float x[2] = { x0, x1 };

  g_return_val_if_fail (mlp != NULL, 0);

  forward (mlp, x, h1, h2, probs);
  return probs[1];
}
