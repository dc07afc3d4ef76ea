/* sl-demo-data.c
 *
 * Two interleaved spirals: not linearly separable, so the network has to
 * learn something, yet small enough to train in plain C in seconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-demo-data.h"

SlDemoData *
sl_demo_data_new_spirals (guint   n,
                          float   noise,
                          guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  SlDemoData *data;

  g_return_val_if_fail (n >= 2, NULL);

  data = g_new0 (SlDemoData, 1);
  data->n = n;
  data->x = g_new (float, 2 * n);
  data->label = g_new (guint8, n);

  for (guint i = 0; i < n; i++)
    {
      guint8 label = i % 2;
      double t = g_rand_double_range (rand, 0.0, 1.0);
      double angle = 1.75 * G_PI * t + (label ? G_PI : 0.0);
      double radius = 0.1 + 0.8 * t;

      data->x[2 * i] = radius * cos (angle) + noise * g_rand_double_range (rand, -1.0, 1.0);
      data->x[2 * i + 1] = radius * sin (angle) + noise * g_rand_double_range (rand, -1.0, 1.0);
      data->label[i] = label;
    }

  return data;
}

void
sl_demo_data_free (SlDemoData *data)
{
  if (data == NULL)
    return;

  g_free (data->x);
  g_free (data->label);
  g_free (data);
}

/* Fisher–Yates over rows, so every epoch sees the batches in a new order. */
void
sl_demo_data_shuffle (SlDemoData *data,
                      GRand      *rand)
{
  g_return_if_fail (data != NULL);

  for (guint i = data->n - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rand, 0, i + 1);
      float x0 = data->x[2 * i], x1 = data->x[2 * i + 1];
      guint8 label = data->label[i];

      data->x[2 * i] = data->x[2 * j];
      data->x[2 * i + 1] = data->x[2 * j + 1];
      data->label[i] = data->label[j];
      data->x[2 * j] = x0;
      data->x[2 * j + 1] = x1;
      data->label[j] = label;
    }
}
