/* test-gaussian-process.c: the tuner's Gaussian process and optimizer
 * against known answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-bayes-optimizer.h"
#include "sl-bound-minimizer.h"
#include "sl-gaussian-process.h"

static void
test_posterior_at_data (void)
{
  g_autoptr(SlGaussianProcess) gp = sl_gaussian_process_new (1);
  const double x[] = { 0.1, 0.45, 0.8 };
  const double y[] = { 3.0, -1.0, 2.0 };
  const double length = 0.3;

  g_assert_true (sl_gaussian_process_set_data (gp, x, y, 3));
  sl_gaussian_process_set_hyperparameters (gp, 1.0, &length, 1e-8);

  for (guint i = 0; i < 3; i++)
    {
      double mean, variance;

      sl_gaussian_process_predict (gp, &x[i], &mean, &variance);
      g_assert_cmpfloat_with_epsilon (mean, y[i], 1e-5);
      g_assert_cmpfloat (variance, <, 1e-6);
    }

  /* Far from the data: the mean returns to the targets' mean and the
   * variance to the signal's, in the targets' units (scale² = 8/3). */
  {
    double far = 50, mean, variance;

    sl_gaussian_process_predict (gp, &far, &mean, &variance);
    g_assert_cmpfloat_with_epsilon (mean, 4.0 / 3.0, 1e-9);
    g_assert_cmpfloat_with_epsilon (variance, 26.0 / 9.0, 1e-9);
  }
}

/* Two points 0.5 apart, length scale 0.5, so r = 1 and
 * k = (1 + √5 + 5/3) e^−√5 = 0.5239941088318203; y = [−1, 1] is already
 * normalised. yᵀK⁻¹y = 2 / (1.01 − k), |K| = 1.01² − k², and
 * log p = −1 / (1.01 − k) − ½ log |K| − log 2π = −3.748635458139025. */
static void
test_log_marginal_likelihood (void)
{
  g_autoptr(SlGaussianProcess) gp = sl_gaussian_process_new (1);
  const double x[] = { 0.0, 0.5 };
  const double y[] = { -1.0, 1.0 };
  const double length = 0.5;

  g_assert_cmpfloat_with_epsilon (sl_gaussian_process_matern52 (1.0), 0.5239941088318203, 1e-15);
  sl_gaussian_process_set_data (gp, x, y, 2);
  sl_gaussian_process_set_hyperparameters (gp, 1.0, &length, 0.01);
  g_assert_cmpfloat (sl_gaussian_process_get_jitter (gp), ==, 0);
  g_assert_cmpfloat_with_epsilon (sl_gaussian_process_log_marginal_likelihood (gp), -3.748635458139025, 1e-12);
}

static void
test_fit_raises_likelihood (void)
{
  g_autoptr(SlGaussianProcess) gp = sl_gaussian_process_new (2);
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  double x[40], y[20], before;
  const double lengths[] = { 3.0, 3.0 };

  for (guint i = 0; i < 20; i++)
    {
      x[2 * i] = g_rand_double (rand);
      x[2 * i + 1] = g_rand_double (rand);
      /* Varies fast along the first input, not at all along the second. */
      y[i] = sin (12 * x[2 * i]);
    }
  sl_gaussian_process_set_data (gp, x, y, 20);
  sl_gaussian_process_set_hyperparameters (gp, 1.0, lengths, 0.05);
  before = sl_gaussian_process_log_marginal_likelihood (gp);
  g_assert_true (sl_gaussian_process_fit (gp, 3, 80, rand));
  g_assert_cmpfloat (sl_gaussian_process_log_marginal_likelihood (gp), >, before + 1);
  /* ARD: the irrelevant input gets the longer length scale. */
  g_assert_cmpfloat (sl_gaussian_process_get_length_scale (gp, 1), >, 2 * sl_gaussian_process_get_length_scale (gp, 0));
}

/* Duplicated inputs make K singular without noise: jitter saves it. */
static void
test_jitter (void)
{
  g_autoptr(SlGaussianProcess) gp = sl_gaussian_process_new (1);
  const double x[] = { 0.5, 0.5, 0.5 };
  const double y[] = { 1.0, 1.0, 2.0 };
  const double length = 0.2;
  double mean;

  sl_gaussian_process_set_data (gp, x, y, 3);
  sl_gaussian_process_set_hyperparameters (gp, 1.0, &length, 1e-300);
  g_assert_cmpfloat (sl_gaussian_process_get_jitter (gp), >, 0);
  sl_gaussian_process_predict (gp, &x[0], &mean, NULL);
  g_assert_true (isfinite (mean));
}

static double
rosenbrock (const double *x,
            double       *gradient,
            gpointer      user_data)
{
  double a = 1 - x[0], b = x[1] - x[0] * x[0];

  if (gradient != NULL)
    {
      gradient[0] = -2 * a - 400 * x[0] * b;
      gradient[1] = 200 * b;
    }
  return a * a + 100 * b * b;
}

static void
test_bound_minimizer (void)
{
  double x[2] = { -1.2, 1.0 };
  const double lower[] = { -2, -2 }, upper[] = { 2, 2 };
  const double lower_cut[] = { -2, -2 }, upper_cut[] = { 0.5, 2 };

  g_assert_cmpfloat (sl_bound_minimize (rosenbrock, NULL, 2, x, lower, upper, 500), <, 1e-8);
  g_assert_cmpfloat_with_epsilon (x[0], 1, 1e-3);

  /* With x₀ ≤ 0.5 the minimum is on the bound, at (0.5, 0.25). */
  x[0] = -1.2;
  x[1] = 1.0;
  sl_bound_minimize (rosenbrock, NULL, 2, x, lower_cut, upper_cut, 500);
  g_assert_cmpfloat_with_epsilon (x[0], 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (x[1], 0.25, 1e-3);
}

/* Optimisation of one parameter through the optimizer alone. */
static double
run_1d (SlTunerGoal    goal,
        SlTunerMethod  method,
        double       (*f) (double),
        guint          n_evaluations)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autoptr(SlBayesOptimizer) optimizer = NULL;
  double best;

  sl_tuner_config_set_method (config, method);
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "f", goal);
  sl_tuner_config_add_bounds (config, "x", SL_TUNER_PARAM_FLOAT, 0, 1, -1);
  optimizer = sl_bayes_optimizer_new (config, 11);

  for (guint i = 0; i < n_evaluations; i++)
    {
      double x;

      sl_bayes_optimizer_suggest (optimizer, NULL, 0, &x);
      g_assert_cmpfloat (x, >=, 0);
      g_assert_cmpfloat (x, <, 1);
      sl_bayes_optimizer_add_observation (optimizer, &x, f (x));
    }
  g_assert_true (sl_bayes_optimizer_get_best (optimizer, NULL, &best));
  return best;
}

static double
bowl (double x)
{
  return (x - 0.3) * (x - 0.3);
}

static double
hill (double x)
{
  return 1 - (x - 0.3) * (x - 0.3);
}

static void
test_goal_direction (void)
{
  for (SlTunerMethod method = SL_TUNER_METHOD_UCB; method <= SL_TUNER_METHOD_LOG_EI; method++)
    {
      /* The bowl's minimum is 0 at 0.3, its maximum 0.49 at the edge 1;
       * seeking the wrong way would end near the other. */
      g_assert_cmpfloat (run_1d (SL_TUNER_GOAL_MINIMIZE, method, bowl, 15), <, 1e-3);
      g_assert_cmpfloat (run_1d (SL_TUNER_GOAL_MAXIMIZE, method, bowl, 15), >, 0.45);
      g_assert_cmpfloat (run_1d (SL_TUNER_GOAL_MAXIMIZE, method, hill, 15), >, 1 - 1e-3);
      g_assert_cmpfloat (run_1d (SL_TUNER_GOAL_MINIMIZE, method, hill, 15), <, 0.55);
    }
}

static SlTunerConfig *
mixed_config (void)
{
  SlTunerConfig *config = sl_tuner_config_new ();
  const double rates[] = { 0.1, 0.5, 0.9 };
  const char * const names[] = { "sgd", "adam", "rmsprop", NULL };

  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "f", SL_TUNER_GOAL_MAXIMIZE);
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_EI);
  sl_tuner_config_add_bounds (config, "epoch", SL_TUNER_PARAM_INT, 1, 10, -1);
  sl_tuner_config_add_choices (config, "momentum", SL_TUNER_PARAM_FLOAT, rates, NULL, 3);
  sl_tuner_config_add_choices (config, "optimizer", SL_TUNER_PARAM_STRING, NULL, names, 3);
  sl_tuner_config_add_bounds (config, "dropout", SL_TUNER_PARAM_FLOAT, 0, 0.5, 2);
  sl_tuner_config_add_bounds (config, "learning_rate", SL_TUNER_PARAM_FLOAT, 1e-5, 1e-1, -1);
  return config;
}

static void
assert_valid (const double *v)
{
  g_assert_cmpfloat (v[0], ==, floor (v[0]));
  g_assert_cmpfloat (v[0], >=, 1);
  g_assert_cmpfloat (v[0], <=, 9);
  g_assert_true (v[1] == 0.1 || v[1] == 0.5 || v[1] == 0.9);
  g_assert_true (v[2] == 0 || v[2] == 1 || v[2] == 2);
  g_assert_cmpfloat (fabs (v[3] * 100 - round (v[3] * 100)), <, 1e-9);
  g_assert_cmpfloat (v[3], >=, 0);
  g_assert_cmpfloat (v[3], <, 0.5);
  g_assert_cmpfloat (v[4], >=, 1e-5);
  g_assert_cmpfloat (v[4], <, 1e-1);
}

/* A score with its best at epoch 7, momentum 0.5, adam. */
static double
mixed_score (const double *v)
{
  return -fabs (v[0] - 7) - 3 * fabs (v[1] - 0.5) - (v[2] == 1 ? 0 : 2) - fabs (v[3] - 0.2)
         - 0.1 * fabs (log10 (v[4]) + 3);
}

static void
test_choices_and_integers (void)
{
  g_autoptr(SlTunerConfig) config = mixed_config ();
  g_autoptr(SlBayesOptimizer) optimizer = sl_bayes_optimizer_new (config, 5);
  double v[5], point[9], best[5];
  const double lr = 1e-3;

  g_assert_cmpuint (sl_bayes_optimizer_get_n_dims (optimizer), ==, 1 + 3 + 3 + 1 + 1);

  /* The learning rate's five decades are scaled logarithmically. */
  v[0] = 1; v[1] = 0.5; v[2] = 2; v[3] = 0.25; v[4] = lr;
  sl_bayes_optimizer_encode (optimizer, v, point);
  g_assert_cmpfloat_with_epsilon (point[8], 0.5, 1e-12);
  g_assert_cmpfloat (point[0], ==, 0.5 / 9);
  g_assert_cmpfloat (point[1] + point[2] + point[3], ==, 1);
  g_assert_cmpfloat (point[2], ==, 1);
  g_assert_cmpfloat (point[6], ==, 1);

  for (guint i = 0; i < 40; i++)
    {
      double pending[5];

      sl_bayes_optimizer_suggest (optimizer, NULL, 0, v);
      assert_valid (v);
      /* A batch member with the first one pending is valid and differs. */
      memcpy (pending, v, sizeof v);
      sl_bayes_optimizer_suggest (optimizer, pending, 1, best);
      assert_valid (best);
      g_assert_false (memcmp (pending, best, sizeof best) == 0);
      sl_bayes_optimizer_add_observation (optimizer, v, mixed_score (v));
    }

  g_assert_true (sl_bayes_optimizer_get_best (optimizer, best, NULL));
  g_assert_cmpfloat (best[0], ==, 7);
  g_assert_cmpfloat (best[1], ==, 0.5);
  g_assert_cmpfloat (best[2], ==, 1);
}

static void
test_json_handoff (void)
{
  g_autoptr(SlTunerConfig) config = mixed_config ();
  g_autoptr(SlBayesOptimizer) optimizer = sl_bayes_optimizer_new (config, 5);
  const double v[] = { 4, 0.9, 1, 0.13, 2e-4 };
  double back[5];
  g_autoptr(JsonObject) params = sl_bayes_optimizer_values_to_json (optimizer, v);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (json_object_get_int_member (params, "epoch"), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (params, "optimizer"), ==, "adam");
  g_assert_cmpfloat (json_object_get_double_member (params, "learning_rate"), ==, 2e-4);
  g_assert_true (sl_bayes_optimizer_values_from_json (optimizer, params, back, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (back, sizeof back, v, sizeof v);

  json_object_set_string_member (params, "optimizer", "lbfgs");
  g_assert_false (sl_bayes_optimizer_values_from_json (optimizer, params, back, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* The time to suggest with 100 observations of six parameters. The
 * bench reports it; here it only has to stay far from a second. */
static void
test_suggestion_time (void)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autoptr(SlBayesOptimizer) optimizer = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  double v[6];
  gint64 start, elapsed;

  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "f", SL_TUNER_GOAL_MINIMIZE);
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_LOG_EI);
  for (guint k = 0; k < 6; k++)
    {
      g_autofree char *name = g_strdup_printf ("x%u", k);

      sl_tuner_config_add_bounds (config, name, SL_TUNER_PARAM_FLOAT, 0, 1, -1);
    }
  optimizer = sl_bayes_optimizer_new (config, 1);
  for (guint i = 0; i < 99; i++)
    {
      double f = 0;

      for (guint k = 0; k < 6; k++)
        {
          v[k] = g_rand_double (rand);
          f += (v[k] - 0.3) * (v[k] - 0.3) * (k + 1);
        }
      sl_bayes_optimizer_add_observation (optimizer, v, f);
    }
  /* The fit from many restarts happened earlier in a real study. */
  sl_bayes_optimizer_suggest (optimizer, NULL, 0, v);
  sl_bayes_optimizer_add_observation (optimizer, v, 1.0);

  start = g_get_monotonic_time ();
  sl_bayes_optimizer_suggest (optimizer, NULL, 0, v);
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("suggestion with 100 observations: %.1f ms", elapsed / 1000.0);
  g_assert_cmpint (elapsed, <, G_USEC_PER_SEC);
  for (guint k = 0; k < 6; k++)
    g_assert_true (v[k] >= 0 && v[k] < 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gaussian-process/posterior-at-data", test_posterior_at_data);
  g_test_add_func ("/gaussian-process/log-marginal-likelihood", test_log_marginal_likelihood);
  g_test_add_func ("/gaussian-process/fit", test_fit_raises_likelihood);
  g_test_add_func ("/gaussian-process/jitter", test_jitter);
  g_test_add_func ("/gaussian-process/bound-minimizer", test_bound_minimizer);
  g_test_add_func ("/bayes-optimizer/goal-direction", test_goal_direction);
  g_test_add_func ("/bayes-optimizer/choices-and-integers", test_choices_and_integers);
  g_test_add_func ("/bayes-optimizer/json-handoff", test_json_handoff);
  g_test_add_func ("/bayes-optimizer/suggestion-time", test_suggestion_time);
  return g_test_run ();
}
