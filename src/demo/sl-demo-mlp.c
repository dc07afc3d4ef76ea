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
accumulate (SlDemoLayer *layer,
            const float *in,
            const float *delta)
{
  for (guint o = 0; o < layer->n_out; o++)
    {
      float *g = layer->grad_weight + o * layer->n_in;

      for (guint i = 0; i < layer->n_in; i++)
        g[i] += delta[o] * in[i];
      layer->grad_bias[o] += delta[o];
    }
}

/* delta_in = (W^T delta_out) * tanh'(activation) */
static void
backpropagate (const SlDemoLayer *layer,
               const float       *delta_out,
               const float       *activation,
               float             *delta_in)
{
  for (guint i = 0; i < layer->n_in; i++)
    {
      float sum = 0;

      for (guint o = 0; o < layer->n_out; o++)
        sum += layer->weight[o * layer->n_in + i] * delta_out[o];
      delta_in[i] = sum * (1.0f - activation[i] * activation[i]);
    }
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
  float h1[MAX_WIDTH], h2[MAX_WIDTH], probs[N_CLASSES];
  float delta3[N_CLASSES], delta2[MAX_WIDTH], delta1[MAX_WIDTH];
  double loss = 0;
  guint correct = 0;

  g_return_val_if_fail (mlp != NULL && n > 0, 0);

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    zero_grads (&mlp->layers[l]);

  for (guint s = 0; s < n; s++)
    {
      const float *xs = x + 2 * s;
      guint8 label = labels[s];

      forward (mlp, xs, h1, h2, probs);
      loss -= log (MAX (probs[label], 1e-7f));
      correct += (probs[1] > probs[0]) == (label == 1);

      /* Softmax with cross-entropy: the output delta is probs - one_hot. */
      for (guint c = 0; c < N_CLASSES; c++)
        delta3[c] = probs[c] - (c == label ? 1.0f : 0.0f);

      accumulate (&mlp->layers[2], h2, delta3);
      backpropagate (&mlp->layers[2], delta3, h2, delta2);
      accumulate (&mlp->layers[1], h1, delta2);
      backpropagate (&mlp->layers[1], delta2, h1, delta1);
      accumulate (&mlp->layers[0], xs, delta1);
    }

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    update (&mlp->layers[l], learning_rate, mlp->momentum, n);

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
