/* sl-bayes-optimizer.c
 *
 * Suggesting a trial: fit the Gaussian process to the observations (all
 * restarts while there are few of them, a warm start and a short run
 * later, when the fit barely moves and the time matters), add every
 * pending trial at the worst value seen so far (the constant liar, which
 * pushes a batch apart), score random candidates and candidates around
 * the best observations with the acquisition, refine the best few with
 * L-BFGS and keep the best point found, refined or not. MindInsight
 * threw the refined point away; here it is the answer whenever it scores
 * higher.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-bayes-optimizer.h"
#include "sl-bound-minimizer.h"

#define N_RANDOM_CANDIDATES 700
#define N_LOCAL_CANDIDATES  300
#define N_REFINED           4
#define REFINE_ITERATIONS   25
#define FEW_OBSERVATIONS    30

typedef struct {
  guint offset;
  guint width;      /* 1, or the number of choices */
  gboolean log_scale;
} Slot;

struct _SlBayesOptimizer
{
  GObject             parent_instance;

  SlTunerConfig      *config;
  guint               n_params;
  guint               n_dims;
  Slot               *slots;
  GRand              *rand;
  guint               n_initial;
  gboolean            random_only;

  GArray             *points;   /* n_dims per observation */
  GArray             *values;   /* n_params per observation */
  GArray             *scores;   /* the value, sign set by the goal */
  SlGaussianProcess  *gp;
  guint               fitted_n;
  gboolean            model_ready;
};

G_DEFINE_FINAL_TYPE (SlBayesOptimizer, sl_bayes_optimizer, G_TYPE_OBJECT)

static void
sl_bayes_optimizer_finalize (GObject *object)
{
  SlBayesOptimizer *self = SL_BAYES_OPTIMIZER (object);

  g_clear_object (&self->config);
  g_clear_object (&self->gp);
  g_free (self->slots);
  g_rand_free (self->rand);
  g_array_unref (self->points);
  g_array_unref (self->values);
  g_array_unref (self->scores);

  G_OBJECT_CLASS (sl_bayes_optimizer_parent_class)->finalize (object);
}

static void
sl_bayes_optimizer_class_init (SlBayesOptimizerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_bayes_optimizer_finalize;
}

static void
sl_bayes_optimizer_init (SlBayesOptimizer *self)
{
  self->points = g_array_new (FALSE, FALSE, sizeof (double));
  self->values = g_array_new (FALSE, FALSE, sizeof (double));
  self->scores = g_array_new (FALSE, FALSE, sizeof (double));
}

/**
 * sl_tuner_parameter_is_log_scale:
 *
 * Returns: whether the parameter's bounds span more than two orders of
 *   magnitude, such as a learning rate's
 */
gboolean
sl_tuner_parameter_is_log_scale (const SlTunerParameter *parameter)
{
  return parameter->has_bounds && parameter->low > 0 && parameter->high / parameter->low > 100;
}

SlBayesOptimizer *
sl_bayes_optimizer_new (SlTunerConfig *config,
                        guint32        seed)
{
  SlBayesOptimizer *self;
  guint offset = 0;

  g_return_val_if_fail (SL_IS_TUNER_CONFIG (config), NULL);
  g_return_val_if_fail (sl_tuner_config_get_n_parameters (config) > 0, NULL);

  self = g_object_new (SL_TYPE_BAYES_OPTIMIZER, NULL);
  self->config = g_object_ref (config);
  self->rand = g_rand_new_with_seed (seed);
  self->n_params = sl_tuner_config_get_n_parameters (config);
  self->slots = g_new0 (Slot, self->n_params);
  for (guint p = 0; p < self->n_params; p++)
    {
      const SlTunerParameter *parameter = sl_tuner_config_get_parameter (config, p);

      self->slots[p].offset = offset;
      self->slots[p].width = parameter->has_bounds ? 1 : parameter->n_choices;
      self->slots[p].log_scale = sl_tuner_parameter_is_log_scale (parameter);
      offset += self->slots[p].width;
    }
  self->n_dims = offset;
  self->n_initial = MAX (3, MIN (self->n_dims + 1, 10));
  self->gp = sl_gaussian_process_new (self->n_dims);
  return self;
}

SlTunerConfig *
sl_bayes_optimizer_get_config (SlBayesOptimizer *self)
{
  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), NULL);
  return self->config;
}

guint
sl_bayes_optimizer_get_n_dims (SlBayesOptimizer *self)
{
  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), 0);
  return self->n_dims;
}

guint
sl_bayes_optimizer_get_n_observations (SlBayesOptimizer *self)
{
  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), 0);
  return self->scores->len;
}

/* Random suggestions while fewer observations than this exist. */
void
sl_bayes_optimizer_set_n_initial (SlBayesOptimizer *self,
                                  guint             n_initial)
{
  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));
  self->n_initial = MAX (n_initial, 1);
}

/* Random search, the baseline the benchmark compares with. */
void
sl_bayes_optimizer_set_random_only (SlBayesOptimizer *self,
                                    gboolean          random_only)
{
  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));
  self->random_only = random_only;
}

SlGaussianProcess *
sl_bayes_optimizer_get_model (SlBayesOptimizer *self)
{
  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), NULL);
  return self->gp;
}

/* Encoding */

static const SlTunerParameter *
parameter_at (SlBayesOptimizer *self,
              guint             p)
{
  return sl_tuner_config_get_parameter (self->config, p);
}

/* Integers within [low, high): first and count. */
static void
integer_range (const SlTunerParameter *parameter,
               double                 *first,
               double                 *count)
{
  *first = ceil (parameter->low);
  *count = MAX (ceil (parameter->high) - *first, 1);
}

/* Real bounds [a, b) in which the unit interval is laid out. */
static void
scale_range (const SlTunerParameter *parameter,
             double                 *a,
             double                 *b)
{
  if (parameter->type == SL_TUNER_PARAM_INT)
    {
      double first, count;

      integer_range (parameter, &first, &count);
      *a = first;
      *b = first + count;
    }
  else
    {
      *a = parameter->low;
      *b = parameter->high;
    }
}

static double
to_unit (const Slot *slot,
         double      a,
         double      b,
         double      v)
{
  if (slot->log_scale && a > 0)
    return (log (v) - log (a)) / (log (b) - log (a));
  return (v - a) / (b - a);
}

static double
from_unit (const Slot *slot,
           double      a,
           double      b,
           double      u)
{
  if (slot->log_scale && a > 0)
    return exp (log (a) + u * (log (b) - log (a)));
  return a + u * (b - a);
}

static double
round_decimal (const SlTunerParameter *parameter,
               double                  value)
{
  double scale, rounded;

  if (parameter->decimal < 0)
    return value;
  scale = pow (10, parameter->decimal);
  rounded = round (value * scale) / scale;
  /* Rounding must not leave [low, high). */
  if (rounded >= parameter->high)
    rounded -= 1 / scale;
  if (rounded < parameter->low)
    rounded = value;
  return rounded;
}

static guint
nearest_choice (const SlTunerParameter *parameter,
                double                  value)
{
  guint best = 0;

  if (parameter->choice_labels != NULL)
    return (guint)CLAMP (value, 0, parameter->n_choices - 1);
  for (guint c = 1; c < parameter->n_choices; c++)
    {
      if (fabs (parameter->choices[c] - value) < fabs (parameter->choices[best] - value))
        best = c;
    }
  return best;
}

void
sl_bayes_optimizer_encode (SlBayesOptimizer *self,
                           const double     *values,
                           double           *point)
{
  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));

  for (guint p = 0; p < self->n_params; p++)
    {
      const SlTunerParameter *parameter = parameter_at (self, p);
      const Slot *slot = &self->slots[p];
      double a, b;

      if (!parameter->has_bounds)
        {
          guint chosen = nearest_choice (parameter, values[p]);

          for (guint c = 0; c < slot->width; c++)
            point[slot->offset + c] = c == chosen ? 1 : 0;
          continue;
        }
      scale_range (parameter, &a, &b);
      /* An integer sits in the middle of its cell. */
      point[slot->offset] = CLAMP (to_unit (slot, a, b, parameter->type == SL_TUNER_PARAM_INT ? values[p] + 0.5 : values[p]),
                                   0, 1);
    }
}

void
sl_bayes_optimizer_decode (SlBayesOptimizer *self,
                           const double     *point,
                           double           *values)
{
  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));

  for (guint p = 0; p < self->n_params; p++)
    {
      const SlTunerParameter *parameter = parameter_at (self, p);
      const Slot *slot = &self->slots[p];
      double a, b, v;

      if (!parameter->has_bounds)
        {
          guint chosen = 0;

          for (guint c = 1; c < slot->width; c++)
            if (point[slot->offset + c] > point[slot->offset + chosen])
              chosen = c;
          values[p] = parameter->choice_labels != NULL ? chosen : parameter->choices[chosen];
          continue;
        }

      scale_range (parameter, &a, &b);
      v = from_unit (slot, a, b, CLAMP (point[slot->offset], 0, 1));
      if (parameter->type == SL_TUNER_PARAM_INT)
        v = CLAMP (floor (v), a, b - 1);
      else
        {
          if (v >= b)
            v = nextafter (b, a);
          v = round_decimal (parameter, MAX (v, a));
        }
      values[p] = v;
    }
}

/* The valid point @point stands for. */
static void
snap (SlBayesOptimizer *self,
      const double     *point,
      double           *snapped,
      double           *values)
{
  sl_bayes_optimizer_decode (self, point, values);
  sl_bayes_optimizer_encode (self, values, snapped);
}

void
sl_bayes_optimizer_add_observation (SlBayesOptimizer *self,
                                    const double     *values,
                                    double            value)
{
  g_autofree double *point = NULL;
  double score;

  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));
  g_return_if_fail (values != NULL);

  if (!isfinite (value))
    return;
  point = g_new (double, self->n_dims);
  sl_bayes_optimizer_encode (self, values, point);
  score = sl_tuner_config_get_goal (self->config) == SL_TUNER_GOAL_MAXIMIZE ? value : -value;
  g_array_append_vals (self->points, point, self->n_dims);
  g_array_append_vals (self->values, values, self->n_params);
  g_array_append_val (self->scores, score);
  self->model_ready = FALSE;
}

gboolean
sl_bayes_optimizer_get_best (SlBayesOptimizer *self,
                             double           *values,
                             double           *value)
{
  guint best = 0;

  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), FALSE);

  if (self->scores->len == 0)
    return FALSE;
  for (guint i = 1; i < self->scores->len; i++)
    if (g_array_index (self->scores, double, i) > g_array_index (self->scores, double, best))
      best = i;
  if (values != NULL)
    memcpy (values, &g_array_index (self->values, double, (gsize)best * self->n_params),
            self->n_params * sizeof (double));
  if (value != NULL)
    *value = sl_tuner_config_get_goal (self->config) == SL_TUNER_GOAL_MAXIMIZE
             ? g_array_index (self->scores, double, best) : -g_array_index (self->scores, double, best);
  return TRUE;
}

/* The model */

static void
fit_model (SlBayesOptimizer *self)
{
  guint n = self->scores->len;
  gboolean few = n <= FEW_OBSERVATIONS;

  sl_gaussian_process_set_data (self->gp, (const double *)self->points->data,
                                (const double *)self->scores->data, n);
  /* Many observations barely move the fit: then it starts from the last
   * one, runs briefly, every fifth observation, with a fresh start now
   * and then in case it sits in a poor optimum. */
  if (self->fitted_n != n && (few || n - self->fitted_n >= 5))
    {
      sl_gaussian_process_fit (self->gp, few ? 4 : (n % 25 == 0 ? 1 : 0), few ? 60 : 10, self->rand);
      self->fitted_n = n;
    }
  self->model_ready = TRUE;
}

gboolean
sl_bayes_optimizer_predict (SlBayesOptimizer *self,
                            const double     *values,
                            double           *mean,
                            double           *stddev)
{
  g_autofree double *point = NULL;
  double mu, variance;
  gboolean flip;

  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), FALSE);

  if (self->scores->len < 2)
    return FALSE;
  if (!self->model_ready)
    fit_model (self);

  point = g_new (double, self->n_dims);
  sl_bayes_optimizer_encode (self, values, point);
  sl_gaussian_process_predict (self->gp, point, &mu, &variance);
  flip = sl_tuner_config_get_goal (self->config) == SL_TUNER_GOAL_MINIMIZE;
  if (mean != NULL)
    *mean = flip ? -mu : mu;
  if (stddev != NULL)
    *stddev = sqrt (variance);
  return TRUE;
}

/* The acquisition */

typedef struct {
  SlBayesOptimizer *self;
  SlTunerMethod     method;
  double            kappa;
  double            xi;
  double            best;
  double           *snapped;
  double           *values;
} Acquisition;

static double
normal_cdf (double z)
{
  return 0.5 * erfc (-z / G_SQRT2);
}

static double
normal_pdf (double z)
{
  return exp (-0.5 * z * z) / sqrt (2 * G_PI);
}

/* log(z Φ(z) + φ(z)) without underflow far in the lower tail, where it
 * is log φ(z) − 2 log|z| + log(1 − 3/z² + 15/z⁴). */
static double
log_h (double z)
{
  if (z > -6)
    return log (z * normal_cdf (z) + normal_pdf (z));
  return -0.5 * z * z - 0.5 * log (2 * G_PI) - 2 * log (-z) + log1p (-3 / (z * z) + 15 / (z * z * z * z));
}

static double
acquisition_value (Acquisition  *acquisition,
                   const double *point)
{
  double mean, variance, sigma, z;

  snap (acquisition->self, point, acquisition->snapped, acquisition->values);
  sl_gaussian_process_predict (acquisition->self->gp, acquisition->snapped, &mean, &variance);
  sigma = sqrt (variance);
  z = (mean - acquisition->best - acquisition->xi) / sigma;

  switch (acquisition->method)
    {
    case SL_TUNER_METHOD_UCB:
      return mean + acquisition->kappa * sigma;
    case SL_TUNER_METHOD_EI:
      return sigma * (z * normal_cdf (z) + normal_pdf (z));
    case SL_TUNER_METHOD_PI:
      return normal_cdf (z);
    case SL_TUNER_METHOD_LOG_EI:
    default:
      return log (sigma) + log_h (z);
    }
}

static double
negative_acquisition (const double *point,
                      double       *gradient,
                      gpointer      user_data)
{
  g_assert (gradient == NULL);
  return -acquisition_value (user_data, point);
}

static void
random_point (SlBayesOptimizer *self,
              double           *point)
{
  for (guint k = 0; k < self->n_dims; k++)
    point[k] = g_rand_double (self->rand);
}

/* A candidate near @centre: a normal step in every coordinate, which
 * also flips a category now and then. */
static void
local_point (SlBayesOptimizer *self,
             const double     *centre,
             double            spread,
             double           *point)
{
  for (guint k = 0; k < self->n_dims; k++)
    {
      double u1 = g_rand_double (self->rand), u2 = g_rand_double (self->rand);
      double normal = sqrt (-2 * log (MAX (u1, 1e-300))) * cos (2 * G_PI * u2);

      point[k] = CLAMP (centre[k] + spread * normal, 0, 1);
    }
}

static gboolean
is_taken (SlBayesOptimizer *self,
          const double     *snapped,
          const double     *pending_points,
          guint             n_pending)
{
  const double *observed = (const double *)self->points->data;

  for (guint i = 0; i < self->scores->len + n_pending; i++)
    {
      const double *other = i < self->scores->len ? observed + (gsize)i * self->n_dims
                                                  : pending_points + (gsize)(i - self->scores->len) * self->n_dims;
      double distance = 0;

      for (guint k = 0; k < self->n_dims; k++)
        distance += (snapped[k] - other[k]) * (snapped[k] - other[k]);
      if (distance < 1e-14)
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  double score;
  guint  index;
} Ranked;

static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  double x = ((const Ranked *)a)->score, y = ((const Ranked *)b)->score;

  return x > y ? -1 : x < y ? 1 : 0;
}

/* Adds the pending trials at the worst score seen: the constant liar. */
static void
add_lies (SlBayesOptimizer *self,
          const double     *pending_points,
          guint             n_pending)
{
  guint n = self->scores->len;
  g_autofree double *x = g_new (double, (gsize)(n + n_pending) * self->n_dims);
  g_autofree double *y = g_new (double, n + n_pending);
  double worst = INFINITY;

  memcpy (x, self->points->data, (gsize)n * self->n_dims * sizeof (double));
  memcpy (y, self->scores->data, n * sizeof (double));
  for (guint i = 0; i < n; i++)
    worst = MIN (worst, y[i]);
  memcpy (x + (gsize)n * self->n_dims, pending_points, (gsize)n_pending * self->n_dims * sizeof (double));
  for (guint i = 0; i < n_pending; i++)
    y[n + i] = worst;
  sl_gaussian_process_set_data (self->gp, x, y, n + n_pending);
}

static void
suggest_by_model (SlBayesOptimizer *self,
                  const double     *pending_points,
                  guint             n_pending,
                  double           *values)
{
  guint n_candidates = N_RANDOM_CANDIDATES + N_LOCAL_CANDIDATES;
  guint d = self->n_dims;
  g_autofree double *candidates = g_new (double, (gsize)n_candidates * d);
  g_autofree Ranked *ranked = g_new (Ranked, n_candidates);
  g_autofree double *snapped = g_new (double, d);
  g_autofree double *scratch_values = g_new (double, self->n_params);
  g_autofree double *lower = g_new0 (double, d);
  g_autofree double *upper = g_new (double, d);
  g_autofree double *best_point = g_new (double, d);
  g_autofree double *start = g_new (double, d);
  g_autoptr(GArray) order = NULL;
  Acquisition acquisition = { self, sl_tuner_config_get_method (self->config), sl_tuner_config_get_kappa (self->config),
                              sl_tuner_config_get_xi (self->config), -INFINITY, snapped, scratch_values };
  double best_score = -INFINITY;
  gboolean found = FALSE;

  fit_model (self);
  for (guint i = 0; i < self->scores->len; i++)
    acquisition.best = MAX (acquisition.best, g_array_index (self->scores, double, i));
  if (n_pending > 0)
    {
      add_lies (self, pending_points, n_pending);
      self->model_ready = FALSE;
    }

  /* Uniform candidates, then some around the three best observations. */
  order = g_array_sized_new (FALSE, FALSE, sizeof (Ranked), self->scores->len);
  for (guint i = 0; i < self->scores->len; i++)
    {
      Ranked r = { g_array_index (self->scores, double, i), i };
      g_array_append_val (order, r);
    }
  g_array_sort (order, compare_ranked);

  for (guint c = 0; c < n_candidates; c++)
    {
      double *point = candidates + (gsize)c * d;

      if (c < N_RANDOM_CANDIDATES || order->len == 0)
        random_point (self, point);
      else
        {
          guint which = (c - N_RANDOM_CANDIDATES) % MIN (order->len, 3);
          const double *centre = &g_array_index (self->points, double,
                                                 (gsize)g_array_index (order, Ranked, which).index * d);

          local_point (self, centre, (c % 2) ? 0.02 : 0.1, point);
        }
      ranked[c].score = acquisition_value (&acquisition, point);
      ranked[c].index = c;
    }
  qsort (ranked, n_candidates, sizeof (Ranked), compare_ranked);

  for (guint k = 0; k < d; k++)
    upper[k] = 1;

  /* Refine the best few; a refined point replaces the candidate only if
   * it scores higher, and the best of all is the suggestion. */
  for (guint r = 0, refined = 0; r < n_candidates; r++)
    {
      const double *candidate = candidates + (gsize)ranked[r].index * d;
      double score;

      snap (self, candidate, snapped, scratch_values);
      if (is_taken (self, snapped, pending_points, n_pending))
        continue;

      if (refined < N_REFINED)
        {
          memcpy (start, candidate, d * sizeof (double));
          score = -sl_bound_minimize_numeric_gradient (negative_acquisition, &acquisition, d, start, lower, upper,
                                                       REFINE_ITERATIONS);
          snap (self, start, snapped, scratch_values);
          if (score < ranked[r].score || is_taken (self, snapped, pending_points, n_pending))
            {
              memcpy (start, candidate, d * sizeof (double));
              score = ranked[r].score;
            }
          refined++;
        }
      else
        {
          memcpy (start, candidate, d * sizeof (double));
          score = ranked[r].score;
        }

      if (!found || score > best_score)
        {
          best_score = score;
          memcpy (best_point, start, d * sizeof (double));
          found = TRUE;
        }
      if (refined >= N_REFINED)
        break;
    }

  if (!found)
    random_point (self, best_point);
  sl_bayes_optimizer_decode (self, best_point, values);
}

/**
 * sl_bayes_optimizer_suggest:
 * @pending: (nullable): values of trials suggested and not yet observed,
 *   @n_pending rows of one value per parameter
 * @values: (out caller-allocates): the suggestion
 */
void
sl_bayes_optimizer_suggest (SlBayesOptimizer *self,
                            const double     *pending,
                            guint             n_pending,
                            double           *values)
{
  g_autofree double *pending_points = NULL;
  g_autofree double *point = NULL;

  g_return_if_fail (SL_IS_BAYES_OPTIMIZER (self));
  g_return_if_fail (values != NULL);
  g_return_if_fail (n_pending == 0 || pending != NULL);

  pending_points = g_new (double, (gsize)MAX (n_pending, 1) * self->n_dims);
  for (guint i = 0; i < n_pending; i++)
    sl_bayes_optimizer_encode (self, pending + (gsize)i * self->n_params, pending_points + (gsize)i * self->n_dims);

  if (self->random_only || self->scores->len < MAX (self->n_initial, 2))
    {
      point = g_new (double, self->n_dims);
      random_point (self, point);
      sl_bayes_optimizer_decode (self, point, values);
      return;
    }
  suggest_by_model (self, pending_points, n_pending, values);
}

/* The handoff */

JsonObject *
sl_bayes_optimizer_values_to_json (SlBayesOptimizer *self,
                                   const double     *values)
{
  JsonObject *params = json_object_new ();

  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), params);

  for (guint p = 0; p < self->n_params; p++)
    {
      const SlTunerParameter *parameter = parameter_at (self, p);

      if (parameter->choice_labels != NULL)
        json_object_set_string_member (params, parameter->name,
                                       parameter->choice_labels[nearest_choice (parameter, values[p])]);
      else if (parameter->type == SL_TUNER_PARAM_INT)
        json_object_set_int_member (params, parameter->name, (gint64)llround (values[p]));
      else
        json_object_set_double_member (params, parameter->name, values[p]);
    }
  return params;
}

gboolean
sl_bayes_optimizer_values_from_json (SlBayesOptimizer  *self,
                                     JsonObject        *params,
                                     double            *values,
                                     GError           **error)
{
  g_return_val_if_fail (SL_IS_BAYES_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (params != NULL && values != NULL, FALSE);

  for (guint p = 0; p < self->n_params; p++)
    {
      const SlTunerParameter *parameter = parameter_at (self, p);
      JsonNode *node = json_object_get_member (params, parameter->name);
      GType type = node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

      if (parameter->choice_labels != NULL && type == G_TYPE_STRING)
        {
          const char *label = json_node_get_string (node);
          gboolean known = FALSE;

          for (guint c = 0; c < parameter->n_choices && !known; c++)
            if (g_str_equal (parameter->choice_labels[c], label))
              {
                values[p] = c;
                known = TRUE;
              }
          if (known)
            continue;
        }
      else if (parameter->choice_labels == NULL && (type == G_TYPE_DOUBLE || type == G_TYPE_INT64))
        {
          values[p] = type == G_TYPE_DOUBLE ? json_node_get_double (node) : (double)json_node_get_int (node);
          continue;
        }

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The trial has no valid value for parameter “%s”"), parameter->name);
      return FALSE;
    }
  return TRUE;
}
