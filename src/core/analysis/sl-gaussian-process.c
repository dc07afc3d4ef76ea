/* sl-gaussian-process.c
 *
 * Hyperparameters are kept as logarithms θ = (log σf², log ℓ₁ … log ℓd,
 * log σn²), which is what the fit moves; the gradient of the log marginal
 * likelihood is ½ tr((ααᵀ − K⁻¹) ∂K/∂θ) (Rasmussen & Williams, eq. 5.9).
 * The squared differences of every pair of inputs are kept per dimension,
 * so an evaluation of the likelihood costs one kernel matrix, one
 * Cholesky factorisation and one inverse.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-bound-minimizer.h"
#include "sl-gaussian-process.h"

#define SQRT5 2.2360679774997896964

/* In the unit cube with normalised targets these cover every sensible
 * fit; the noise floor is MindInsight's α. */
#define LOG_SIGNAL_MIN   (-4.6)   /* 0.01 */
#define LOG_SIGNAL_MAX   4.6      /* 100 */
#define LOG_LENGTH_MIN   (-4.6)   /* 0.01 */
#define LOG_LENGTH_MAX   3.0      /* 20 */
#define LOG_NOISE_MIN    (-13.8)  /* 1e-6 */
#define LOG_NOISE_MAX    (-2.3)   /* 0.1 */
#define MAX_JITTER       1e-3

struct _SlGaussianProcess
{
  GObject  parent_instance;

  guint    d;
  guint    n;
  double  *x;          /* n × d */
  double  *y;          /* normalised */
  double   y_mean;
  double   y_scale;
  double  *theta;      /* d + 2 */
  double  *sq_diff;    /* n × n × d, pairs i < j */

  /* From the last factorisation */
  gboolean factored;
  double   jitter;
  double  *chol;       /* n × n, lower */
  double  *alpha;      /* K⁻¹ y */
  double  *inv_sq;     /* 1 / ℓ², per dimension */
  double  *scratch;    /* n */
};

G_DEFINE_FINAL_TYPE (SlGaussianProcess, sl_gaussian_process, G_TYPE_OBJECT)

static void
sl_gaussian_process_finalize (GObject *object)
{
  SlGaussianProcess *self = SL_GAUSSIAN_PROCESS (object);

  g_free (self->x);
  g_free (self->y);
  g_free (self->theta);
  g_free (self->sq_diff);
  g_free (self->chol);
  g_free (self->alpha);
  g_free (self->inv_sq);
  g_free (self->scratch);

  G_OBJECT_CLASS (sl_gaussian_process_parent_class)->finalize (object);
}

static void
sl_gaussian_process_class_init (SlGaussianProcessClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_gaussian_process_finalize;
}

static void
sl_gaussian_process_init (SlGaussianProcess *self)
{
  self->y_scale = 1;
}

SlGaussianProcess *
sl_gaussian_process_new (guint n_dims)
{
  SlGaussianProcess *self;

  g_return_val_if_fail (n_dims > 0, NULL);

  self = g_object_new (SL_TYPE_GAUSSIAN_PROCESS, NULL);
  self->d = n_dims;
  self->theta = g_new0 (double, n_dims + 2);
  self->inv_sq = g_new0 (double, n_dims);
  self->theta[0] = 0;                     /* σf² = 1 for normalised targets */
  for (guint k = 0; k < n_dims; k++)
    self->theta[1 + k] = log (0.3);
  self->theta[n_dims + 1] = log (1e-4);
  return self;
}

guint
sl_gaussian_process_get_n_dims (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), 0);
  return self->d;
}

guint
sl_gaussian_process_get_n_points (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), 0);
  return self->n;
}

/**
 * sl_gaussian_process_matern52:
 *
 * Returns: the Matern ν = 5/2 correlation at scaled distance @r
 */
double
sl_gaussian_process_matern52 (double r)
{
  return (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * exp (-SQRT5 * r);
}

/* Kernel matrices */

static double *
pair_diff (SlGaussianProcess *self,
           guint              i,
           guint              j)
{
  return self->sq_diff + ((gsize)i * self->n + j) * self->d;
}

static double
scaled_distance (const SlGaussianProcess *self,
                 const double            *sq_diff,
                 const double            *inv_sq_length)
{
  double sum = 0;

  for (guint k = 0; k < self->d; k++)
    sum += sq_diff[k] * inv_sq_length[k];
  return sqrt (sum);
}

static void
inverse_squared_lengths (const SlGaussianProcess *self,
                         const double            *theta,
                         double                  *out)
{
  for (guint k = 0; k < self->d; k++)
    out[k] = exp (-2 * theta[1 + k]);
}

/* In place; FALSE when a pivot is not positive. */
static gboolean
cholesky (double *a,
          guint   n)
{
  for (guint j = 0; j < n; j++)
    {
      double *row_j = a + (gsize)j * n;
      double sum = row_j[j];

      for (guint k = 0; k < j; k++)
        sum -= row_j[k] * row_j[k];
      if (!(sum > 0) || !isfinite (sum))
        return FALSE;
      row_j[j] = sqrt (sum);

      for (guint i = j + 1; i < n; i++)
        {
          double *row_i = a + (gsize)i * n;
          double s = row_i[j];

          for (guint k = 0; k < j; k++)
            s -= row_i[k] * row_j[k];
          row_i[j] = s / row_j[j];
        }
    }
  return TRUE;
}

static void
solve_lower (const double *l,
             guint         n,
             double       *b)
{
  for (guint i = 0; i < n; i++)
    {
      const double *row = l + (gsize)i * n;
      double s = b[i];

      for (guint k = 0; k < i; k++)
        s -= row[k] * b[k];
      b[i] = s / row[i];
    }
}

static void
solve_upper_transposed (const double *l,
                        guint         n,
                        double       *b)
{
  for (guint i = n; i-- > 0;)
    {
      double s = b[i];

      for (guint k = i + 1; k < n; k++)
        s -= l[(gsize)k * n + i] * b[k];
      b[i] = s / l[(gsize)i * n + i];
    }
}

/* K(θ) + jitter into @chol, factored; the jitter grows tenfold from a
 * millionth of the signal variance until the factorisation works. */
static gboolean
factor (SlGaussianProcess *self,
        const double      *theta,
        double            *chol,
        double            *jitter_out)
{
  g_autofree double *inv_sq = g_new (double, self->d);
  double signal = exp (theta[0]);
  double noise = exp (theta[self->d + 1]);
  guint n = self->n;

  inverse_squared_lengths (self, theta, inv_sq);

  for (double jitter = 0; jitter <= MAX_JITTER * signal; jitter = jitter == 0 ? 1e-9 * signal : jitter * 10)
    {
      for (guint i = 0; i < n; i++)
        {
          chol[(gsize)i * n + i] = signal + noise + jitter;
          for (guint j = 0; j < i; j++)
            chol[(gsize)i * n + j] = signal * sl_gaussian_process_matern52 (scaled_distance (self, pair_diff (self, j, i), inv_sq));
        }
      if (cholesky (chol, n))
        {
          *jitter_out = jitter;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
refactor (SlGaussianProcess *self)
{
  self->factored = FALSE;
  inverse_squared_lengths (self, self->theta, self->inv_sq);
  if (self->n == 0)
    return TRUE;
  if (!factor (self, self->theta, self->chol, &self->jitter))
    return FALSE;
  memcpy (self->alpha, self->y, self->n * sizeof (double));
  solve_lower (self->chol, self->n, self->alpha);
  solve_upper_transposed (self->chol, self->n, self->alpha);
  self->factored = TRUE;
  return TRUE;
}

gboolean
sl_gaussian_process_set_data (SlGaussianProcess *self,
                              const double      *x,
                              const double      *y,
                              guint              n)
{
  double sum = 0, sum_sq = 0;

  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), FALSE);
  g_return_val_if_fail (n == 0 || (x != NULL && y != NULL), FALSE);

  self->n = n;
  self->x = g_renew (double, self->x, (gsize)n * self->d + 1);
  self->y = g_renew (double, self->y, n + 1);
  self->chol = g_renew (double, self->chol, (gsize)n * n + 1);
  self->alpha = g_renew (double, self->alpha, n + 1);
  self->scratch = g_renew (double, self->scratch, n + 1);
  self->sq_diff = g_renew (double, self->sq_diff, (gsize)n * n * self->d + 1);
  if (n > 0)
    memcpy (self->x, x, (gsize)n * self->d * sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      sum += y[i];
      sum_sq += y[i] * y[i];
    }
  self->y_mean = n > 0 ? sum / n : 0;
  self->y_scale = n > 1 ? sqrt (MAX (sum_sq / n - self->y_mean * self->y_mean, 0)) : 1;
  if (!(self->y_scale > 1e-12 * MAX (1, fabs (self->y_mean))))
    self->y_scale = 1;
  for (guint i = 0; i < n; i++)
    self->y[i] = (y[i] - self->y_mean) / self->y_scale;

  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      for (guint k = 0; k < self->d; k++)
        {
          double diff = self->x[(gsize)i * self->d + k] - self->x[(gsize)j * self->d + k];

          pair_diff (self, i, j)[k] = diff * diff;
        }

  return refactor (self);
}

void
sl_gaussian_process_set_hyperparameters (SlGaussianProcess *self,
                                         double             signal_variance,
                                         const double      *length_scales,
                                         double             noise_variance)
{
  g_return_if_fail (SL_IS_GAUSSIAN_PROCESS (self));
  g_return_if_fail (signal_variance > 0 && noise_variance > 0 && length_scales != NULL);

  self->theta[0] = log (signal_variance);
  for (guint k = 0; k < self->d; k++)
    self->theta[1 + k] = log (length_scales[k]);
  self->theta[self->d + 1] = log (noise_variance);
  refactor (self);
}

double
sl_gaussian_process_get_signal_variance (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), NAN);
  return exp (self->theta[0]);
}

double
sl_gaussian_process_get_noise_variance (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), NAN);
  return exp (self->theta[self->d + 1]);
}

double
sl_gaussian_process_get_length_scale (SlGaussianProcess *self,
                                      guint              dim)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), NAN);
  g_return_val_if_fail (dim < self->d, NAN);
  return exp (self->theta[1 + dim]);
}

double
sl_gaussian_process_get_jitter (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), NAN);
  return self->jitter;
}

/* The likelihood */

static double
log_likelihood_from_factor (const SlGaussianProcess *self,
                            const double            *chol,
                            const double            *alpha)
{
  double fit = 0, log_det = 0;

  for (guint i = 0; i < self->n; i++)
    {
      fit += self->y[i] * alpha[i];
      log_det += log (chol[(gsize)i * self->n + i]);
    }
  return -0.5 * fit - log_det - 0.5 * self->n * log (2 * G_PI);
}

/**
 * sl_gaussian_process_log_marginal_likelihood:
 *
 * Returns: log p(y | X, θ) of the normalised targets
 */
double
sl_gaussian_process_log_marginal_likelihood (SlGaussianProcess *self)
{
  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), NAN);
  if (!self->factored)
    return -INFINITY;
  return log_likelihood_from_factor (self, self->chol, self->alpha);
}

/* K⁻¹ = L⁻ᵀ L⁻¹, upper triangle only: L⁻¹ row by row (n³/6), then one
 * rank-one update per row of L⁻¹ (n³/6), a sixth of solving for each
 * column. @scratch holds one row. */
static void
inverse_from_factor (const double *l,
                     guint         n,
                     double       *inverse,
                     double       *scratch)
{
  g_autofree double *l_inv = g_new0 (double, (gsize)n * n);

  for (guint i = 0; i < n; i++)
    {
      const double *row = l + (gsize)i * n;
      double *inv_row = l_inv + (gsize)i * n;

      inv_row[i] = 1 / row[i];
      for (guint j = 0; j < i; j++)
        {
          double sum = 0;

          for (guint k = j; k < i; k++)
            sum += row[k] * l_inv[(gsize)k * n + j];
          inv_row[j] = -sum / row[i];
        }
    }

  memset (inverse, 0, (gsize)n * n * sizeof (double));
  for (guint k = 0; k < n; k++)
    {
      const double *inv_row = l_inv + (gsize)k * n;

      for (guint i = 0; i <= k; i++)
        {
          double a = inv_row[i];
          double *out = inverse + (gsize)i * n;

          if (a == 0)
            continue;
          for (guint j = i; j <= k; j++)
            out[j] += a * inv_row[j];
        }
    }
  (void)scratch;
}

typedef struct {
  SlGaussianProcess *self;
  double            *chol;
  double            *alpha;
  double            *inverse;
  double            *inv_sq;
} Fit;

/* −log p(y | θ) and its gradient; +∞ when K(θ) cannot be factored. */
static double
negative_log_likelihood (const double *theta,
                         double       *gradient,
                         gpointer      user_data)
{
  Fit *fit = user_data;
  SlGaussianProcess *self = fit->self;
  guint n = self->n, d = self->d;
  double jitter, value, signal, noise;

  if (!factor (self, theta, fit->chol, &jitter))
    return INFINITY;
  memcpy (fit->alpha, self->y, n * sizeof (double));
  solve_lower (fit->chol, n, fit->alpha);
  solve_upper_transposed (fit->chol, n, fit->alpha);
  value = -log_likelihood_from_factor (self, fit->chol, fit->alpha);
  if (gradient == NULL)
    return value;

  inverse_from_factor (fit->chol, n, fit->inverse, self->scratch);

  signal = exp (theta[0]);
  noise = exp (theta[d + 1]);
  inverse_squared_lengths (self, theta, fit->inv_sq);
  memset (gradient, 0, (d + 2) * sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      double w_ii = fit->alpha[i] * fit->alpha[i] - fit->inverse[(gsize)i * n + i];

      gradient[0] += 0.5 * w_ii * signal;
      gradient[d + 1] += 0.5 * w_ii * noise;
      for (guint j = i + 1; j < n; j++)
        {
          const double *sq = pair_diff (self, i, j);
          double w_ij = fit->alpha[i] * fit->alpha[j] - fit->inverse[(gsize)i * n + j];
          double r = scaled_distance (self, sq, fit->inv_sq);
          double e = exp (-SQRT5 * r);
          double k = signal * (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * e;
          double common = signal * 5.0 / 3.0 * (1 + SQRT5 * r) * e;

          /* Off-diagonal pairs count twice in the trace. */
          gradient[0] += w_ij * k;
          for (guint q = 0; q < d; q++)
            gradient[1 + q] += w_ij * common * sq[q] * fit->inv_sq[q];
        }
    }

  for (guint q = 0; q < d + 2; q++)
    gradient[q] = -gradient[q];
  return value;
}

static void
theta_bounds (guint   d,
              double *lower,
              double *upper)
{
  lower[0] = LOG_SIGNAL_MIN;
  upper[0] = LOG_SIGNAL_MAX;
  for (guint k = 0; k < d; k++)
    {
      lower[1 + k] = LOG_LENGTH_MIN;
      upper[1 + k] = LOG_LENGTH_MAX;
    }
  lower[d + 1] = LOG_NOISE_MIN;
  upper[d + 1] = LOG_NOISE_MAX;
}

/**
 * sl_gaussian_process_fit:
 * @n_restarts: starts besides the current hyperparameters, drawn from
 *   @rand within the bounds
 *
 * Maximises the log marginal likelihood and keeps the best start.
 *
 * Returns: whether the model is factored afterwards
 */
gboolean
sl_gaussian_process_fit (SlGaussianProcess *self,
                         guint              n_restarts,
                         guint              max_iterations,
                         GRand             *rand)
{
  guint m;
  g_autofree double *lower = NULL;
  g_autofree double *upper = NULL;
  g_autofree double *start = NULL;
  g_autofree double *best = NULL;
  g_autofree double *chol = NULL;
  g_autofree double *alpha = NULL;
  g_autofree double *inverse = NULL;
  g_autofree double *inv_sq = NULL;
  double best_value = INFINITY;
  Fit fit;

  g_return_val_if_fail (SL_IS_GAUSSIAN_PROCESS (self), FALSE);
  g_return_val_if_fail (n_restarts == 0 || rand != NULL, FALSE);

  if (self->n < 2)
    return refactor (self);

  m = self->d + 2;
  lower = g_new (double, m);
  upper = g_new (double, m);
  start = g_new (double, m);
  best = g_memdup2 (self->theta, m * sizeof (double));
  chol = g_new (double, (gsize)self->n * self->n);
  alpha = g_new (double, self->n);
  inverse = g_new (double, (gsize)self->n * self->n);
  inv_sq = g_new (double, self->d);
  fit = (Fit) { self, chol, alpha, inverse, inv_sq };
  theta_bounds (self->d, lower, upper);

  for (guint s = 0; s <= n_restarts; s++)
    {
      double value;

      if (s == 0)
        memcpy (start, self->theta, m * sizeof (double));
      else
        for (guint q = 0; q < m; q++)
          start[q] = g_rand_double_range (rand, lower[q], upper[q]);

      value = sl_bound_minimize (negative_log_likelihood, &fit, m, start, lower, upper, max_iterations);
      if (value < best_value)
        {
          best_value = value;
          memcpy (best, start, m * sizeof (double));
        }
    }

  memcpy (self->theta, best, m * sizeof (double));
  return refactor (self);
}

/**
 * sl_gaussian_process_predict:
 * @mean: (out): the posterior mean, in the targets' units
 * @variance: (out) (optional): the posterior variance of the latent
 *   function, noise excluded
 */
void
sl_gaussian_process_predict (SlGaussianProcess *self,
                             const double      *x,
                             double            *mean,
                             double            *variance)
{
  const double *inv_sq;
  double signal, mu = 0, explained = 0;
  double *k_star;

  g_return_if_fail (SL_IS_GAUSSIAN_PROCESS (self));
  g_return_if_fail (x != NULL && mean != NULL);

  signal = exp (self->theta[0]);
  if (!self->factored || self->n == 0)
    {
      *mean = self->y_mean;
      if (variance != NULL)
        *variance = signal * self->y_scale * self->y_scale;
      return;
    }

  inv_sq = self->inv_sq;
  k_star = self->scratch;
  for (guint i = 0; i < self->n; i++)
    {
      const double *xi = self->x + (gsize)i * self->d;
      double sum = 0;

      for (guint k = 0; k < self->d; k++)
        sum += (x[k] - xi[k]) * (x[k] - xi[k]) * inv_sq[k];
      k_star[i] = signal * sl_gaussian_process_matern52 (sqrt (sum));
      mu += k_star[i] * self->alpha[i];
    }
  *mean = mu * self->y_scale + self->y_mean;

  if (variance == NULL)
    return;
  solve_lower (self->chol, self->n, k_star);
  for (guint i = 0; i < self->n; i++)
    explained += k_star[i] * k_star[i];
  *variance = MAX (signal - explained, 1e-12 * signal) * self->y_scale * self->y_scale;
}
