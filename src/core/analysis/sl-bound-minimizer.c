/* sl-bound-minimizer.c
 *
 * Projected L-BFGS: the two-loop recursion gives a direction, variables
 * at a bound whose gradient pushes outwards are held, and a backtracking
 * line search on the projected path accepts a step that decreases f
 * enough (Armijo). Pairs that would break positive curvature are not
 * stored, and a direction that does not descend restarts from the
 * gradient, so the search never walks uphill.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-bound-minimizer.h"

#define MEMORY        6
#define ARMIJO        1e-4
#define MAX_HALVINGS  30
#define TOLERANCE     1e-9

typedef struct {
  SlBoundObjective objective;
  gpointer         user_data;
  guint            n;
  const double    *lower;
  const double    *upper;
  double          *scratch;
} Numeric;

static double
clamp (double value,
       double low,
       double high)
{
  return value < low ? low : value > high ? high : value;
}

static double
dot (const double *a,
     const double *b,
     guint         n)
{
  double sum = 0;

  for (guint i = 0; i < n; i++)
    sum += a[i] * b[i];
  return sum;
}

/* A variable is held when it sits on a bound and -g points outside. */
static gboolean
is_held (double x,
         double g,
         double low,
         double high)
{
  return (x <= low && g > 0) || (x >= high && g < 0);
}

static void
two_loop (const double *g,
          double       *d,
          guint         n,
          double        s[][MEMORY],
          double        y[][MEMORY],
          const double *rho,
          guint         count,
          guint         newest)
{
  double alpha[MEMORY];
  double gamma = 1;

  for (guint i = 0; i < n; i++)
    d[i] = -g[i];

  for (guint k = 0; k < count; k++)
    {
      guint j = (newest + MEMORY - k) % MEMORY;
      double sum = 0;

      for (guint i = 0; i < n; i++)
        sum += s[i][j] * d[i];
      alpha[j] = rho[j] * sum;
      for (guint i = 0; i < n; i++)
        d[i] -= alpha[j] * y[i][j];
    }

  if (count > 0)
    {
      double yy = 0, sy = 0;

      for (guint i = 0; i < n; i++)
        {
          yy += y[i][newest] * y[i][newest];
          sy += s[i][newest] * y[i][newest];
        }
      gamma = yy > 0 ? sy / yy : 1;
    }
  for (guint i = 0; i < n; i++)
    d[i] *= gamma;

  for (guint k = count; k > 0; k--)
    {
      guint j = (newest + MEMORY - (k - 1)) % MEMORY;
      double sum = 0;

      for (guint i = 0; i < n; i++)
        sum += y[i][j] * d[i];
      sum *= rho[j];
      for (guint i = 0; i < n; i++)
        d[i] += s[i][j] * (alpha[j] - sum);
    }
}

/**
 * sl_bound_minimize:
 * @x: (inout): the start, and on return the best point found
 *
 * Returns: f at @x
 */
double
sl_bound_minimize (SlBoundObjective  objective,
                   gpointer          user_data,
                   guint             n,
                   double           *x,
                   const double     *lower,
                   const double     *upper,
                   guint             max_iterations)
{
  g_autofree double *g = g_new0 (double, n);
  g_autofree double *g_new = g_new0 (double, n);
  g_autofree double *d = g_new0 (double, n);
  g_autofree double *x_new = g_new0 (double, n);
  g_autofree double (*s)[MEMORY] = g_malloc0_n (n, sizeof *s);
  g_autofree double (*y)[MEMORY] = g_malloc0_n (n, sizeof *y);
  double rho[MEMORY] = { 0 };
  guint count = 0, newest = 0;
  double f;

  g_return_val_if_fail (objective != NULL && x != NULL && lower != NULL && upper != NULL, NAN);

  for (guint i = 0; i < n; i++)
    x[i] = clamp (x[i], lower[i], upper[i]);
  f = objective (x, g, user_data);
  if (!isfinite (f))
    return f;

  for (guint iteration = 0; iteration < max_iterations; iteration++)
    {
      double slope, step = 1, f_new = f, projected_norm = 0;
      gboolean accepted = FALSE;

      for (guint i = 0; i < n; i++)
        if (!is_held (x[i], g[i], lower[i], upper[i]))
          projected_norm = MAX (projected_norm, fabs (g[i]));
      if (projected_norm < TOLERANCE)
        break;

      two_loop (g, d, n, s, y, rho, count, newest);
      for (guint i = 0; i < n; i++)
        if (is_held (x[i], g[i], lower[i], upper[i]))
          d[i] = 0;
      slope = dot (g, d, n);
      if (!(slope < 0))
        {
          /* Not a descent direction: forget the curvature, use -g. */
          count = 0;
          for (guint i = 0; i < n; i++)
            d[i] = is_held (x[i], g[i], lower[i], upper[i]) ? 0 : -g[i];
          slope = dot (g, d, n);
          if (!(slope < 0))
            break;
        }
      if (count == 0)
        {
          /* A first step of at most a tenth of the box. */
          double longest = 0;

          for (guint i = 0; i < n; i++)
            longest = MAX (longest, fabs (d[i]) / MAX (upper[i] - lower[i], 1e-12));
          if (longest > 0.1)
            step = 0.1 / longest;
        }

      for (guint h = 0; h < MAX_HALVINGS; h++, step *= 0.5)
        {
          double decrease = 0;

          for (guint i = 0; i < n; i++)
            {
              x_new[i] = clamp (x[i] + step * d[i], lower[i], upper[i]);
              decrease += g[i] * (x_new[i] - x[i]);
            }
          f_new = objective (x_new, g_new, user_data);
          if (isfinite (f_new) && f_new <= f + ARMIJO * decrease)
            {
              accepted = TRUE;
              break;
            }
        }
      if (!accepted)
        break;

      {
        guint slot = count == 0 ? 0 : (newest + 1) % MEMORY;
        double sy = 0;

        for (guint i = 0; i < n; i++)
          {
            s[i][slot] = x_new[i] - x[i];
            y[i][slot] = g_new[i] - g[i];
            sy += s[i][slot] * y[i][slot];
          }
        if (sy > 1e-12)
          {
            rho[slot] = 1 / sy;
            newest = slot;
            count = MIN (count + 1, MEMORY);
          }
      }

      memcpy (x, x_new, n * sizeof (double));
      memcpy (g, g_new, n * sizeof (double));
      if (f - f_new < TOLERANCE * MAX (1, fabs (f)))
        {
          f = f_new;
          break;
        }
      f = f_new;
    }

  return f;
}

static double
numeric_objective (const double *x,
                   double       *gradient,
                   gpointer      user_data)
{
  Numeric *numeric = user_data;
  double f = numeric->objective (x, NULL, numeric->user_data);

  if (gradient == NULL || !isfinite (f))
    return f;

  memcpy (numeric->scratch, x, numeric->n * sizeof (double));
  for (guint i = 0; i < numeric->n; i++)
    {
      /* Forward differences, backward at the upper bound. */
      double h = 1e-6 * MAX (1, numeric->upper[i] - numeric->lower[i]);
      double sign = x[i] + h > numeric->upper[i] ? -1 : 1;

      numeric->scratch[i] = x[i] + sign * h;
      gradient[i] = sign * (numeric->objective (numeric->scratch, NULL, numeric->user_data) - f) / h;
      numeric->scratch[i] = x[i];
    }
  return f;
}

/**
 * sl_bound_minimize_numeric_gradient:
 *
 * sl_bound_minimize() for an objective that cannot give its gradient:
 * forward differences, n + 1 evaluations a gradient.
 */
double
sl_bound_minimize_numeric_gradient (SlBoundObjective  objective,
                                    gpointer          user_data,
                                    guint             n,
                                    double           *x,
                                    const double     *lower,
                                    const double     *upper,
                                    guint             max_iterations)
{
  g_autofree double *scratch = g_new0 (double, n);
  Numeric numeric = { objective, user_data, n, lower, upper, scratch };

  return sl_bound_minimize (numeric_objective, &numeric, n, x, lower, upper, max_iterations);
}
