/* bench-stats.h: the median and worst of a benchmark's samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdlib.h>
#include <glib.h>

static inline int
bench_compare_doubles (const void *a,
                       const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/* The median of @n samples (left in their order) */
static inline double
bench_median (const double *v,
              guint         n)
{
  g_autofree double *s = NULL;

  if (n == 0)
    return 0;
  s = g_memdup2 (v, n * sizeof (double));
  qsort (s, n, sizeof (double), bench_compare_doubles);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The largest of @n samples, 0 for none */
static inline double
bench_worst (const double *v,
             guint         n)
{
  double w = 0;

  for (guint i = 0; i < n; i++)
    w = MAX (w, v[i]);
  return w;
}
