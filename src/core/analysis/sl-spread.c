/* sl-spread.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-spread.h"

gboolean
sl_spread_compute (const double *values,
                   guint         n_values,
                   SlSpread     *spread)
{
  double sum = 0;

  g_return_val_if_fail (values != NULL || n_values == 0, FALSE);
  g_return_val_if_fail (spread != NULL, FALSE);

  *spread = (SlSpread) { 0 };
  for (guint i = 0; i < n_values; i++)
    {
      if (!isfinite (values[i]))
        continue;
      if (spread->n == 0 || values[i] < spread->min)
        {
          spread->min = values[i];
          spread->min_index = i;
        }
      if (spread->n == 0 || values[i] > spread->max)
        {
          spread->max = values[i];
          spread->max_index = i;
        }
      sum += values[i];
      spread->n++;
    }
  if (spread->n < 2)
    return FALSE;
  spread->mean = sum / spread->n;
  spread->percent = spread->mean > 0 ? 100.0 * (spread->max - spread->min) / spread->mean : 0;
  return TRUE;
}
