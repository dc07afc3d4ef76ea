/* test-tuner-curves.c: the Tuner's model curves, worked out in a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tuner-curves.h"
#include "sl-tuner-trial.h"

static SlTunerConfig *
make_config (void)
{
  SlTunerConfig *config = sl_tuner_config_new ();
  const char * const kinds[] = { "plain", "odd", NULL };

  sl_tuner_config_set_command (config, "true");
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "value", SL_TUNER_GOAL_MINIMIZE);
  sl_tuner_config_add_bounds (config, "x", SL_TUNER_PARAM_FLOAT, 0, 1, -1);
  sl_tuner_config_add_choices (config, "kind", SL_TUNER_PARAM_STRING, NULL, kinds, 2);
  return config;
}

static void
add_trial (GPtrArray         *trials,
           guint              number,
           const char        *params,
           SlTunerTrialState  state,
           gboolean           has_value,
           double             value)
{
  SlTunerTrial *trial = sl_tuner_trial_new ();

  trial->number = number;
  g_free (trial->params);
  trial->params = g_strdup (params);
  trial->state = state;
  trial->has_value = has_value;
  trial->value = value;
  g_ptr_array_add (trials, trial);
}

/* (x - 0.3)², plus 1 for the odd kind: trial 2 is the best. */
static GPtrArray *
make_trials (void)
{
  GPtrArray *trials = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);

  add_trial (trials, 1, "{\"x\": 0.9, \"kind\": \"plain\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 0.36);
  add_trial (trials, 2, "{\"x\": 0.3, \"kind\": \"plain\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 0.0);
  add_trial (trials, 3, "{\"x\": 0.1, \"kind\": \"odd\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 1.04);
  add_trial (trials, 4, "{\"x\": 0.6, \"kind\": \"plain\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 0.09);
  /* Damaged or unfinished: no point, no part of the model. */
  add_trial (trials, 5, "{\"x\": ", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 5.0);
  add_trial (trials, 6, "{\"x\": 0.5, \"kind\": \"nope\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 5.0);
  add_trial (trials, 7, "{\"x\": 0.5, \"kind\": \"odd\"}", SL_TUNER_TRIAL_RUNNING, FALSE, 0);
  add_trial (trials, 8, NULL, SL_TUNER_TRIAL_FAILED, FALSE, 0);
  return trials;
}

static void
test_curves_along_each_parameter (void)
{
  g_autoptr(SlTunerConfig) config = make_config ();
  g_autoptr(GPtrArray) trials = make_trials ();
  g_autoptr(SlTunerCurves) curves = sl_tuner_curves_compute (config, trials, 2, NULL);
  const double *x, *mean, *stddev, *px, *py;
  guint n;

  g_assert_nonnull (curves);
  g_assert_cmpuint (sl_tuner_curves_get_n_slices (curves), ==, 2);
  g_assert_cmpuint (sl_tuner_curves_get_n_bands (curves), ==, 2);

  /* Along x, kind held at plain: 60 points across the bounds, rising
   * from the data's minimum near 0.3 to each side. */
  n = sl_tuner_curves_get_band (curves, 0, &x, &mean, &stddev);
  g_assert_cmpuint (n, ==, 60);
  g_assert_cmpfloat (x[0], ==, 0);
  g_assert_cmpfloat (x[n - 1], <, 1);
  g_assert_cmpfloat (x[n - 1], >, 0.999);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (isfinite (mean[i]));
      g_assert_cmpfloat (stddev[i], >=, 0);
    }
  {
    guint at_best = (guint)round (0.3 * (n - 1));

    g_assert_cmpfloat (mean[at_best], <, mean[n - 1]);
    g_assert_cmpfloat (mean[at_best], <, 0.2);
  }

  /* Along kind: one point a choice; odd is worse. */
  n = sl_tuner_curves_get_band (curves, 1, &x, &mean, &stddev);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (mean[1], >, mean[0]);

  /* The points are the four good trials with a value. */
  n = sl_tuner_curves_get_points (curves, 0, &px, &py);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (px[1], ==, 0.3);
  g_assert_cmpfloat (py[2], ==, 1.04);
  n = sl_tuner_curves_get_points (curves, 1, &px, &py);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (px[2], ==, 1);
}

/* Without a best trial, or with fewer than two values, only points. */
static void
test_points_without_model (void)
{
  g_autoptr(SlTunerConfig) config = make_config ();
  g_autoptr(GPtrArray) trials = make_trials ();
  g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);
  g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);
  g_autoptr(SlTunerCurves) unheld = sl_tuner_curves_compute (config, trials, 0, NULL);
  g_autoptr(SlTunerCurves) missing = sl_tuner_curves_compute (config, trials, 99, NULL);
  g_autoptr(SlTunerCurves) single = NULL;
  g_autoptr(SlTunerCurves) empty = NULL;
  const double *x, *mean, *stddev, *px, *py;

  g_assert_cmpuint (sl_tuner_curves_get_n_bands (unheld), ==, 0);
  g_assert_cmpuint (sl_tuner_curves_get_points (unheld, 0, &px, &py), ==, 4);
  g_assert_cmpuint (sl_tuner_curves_get_n_bands (missing), ==, 0);

  add_trial (one, 1, "{\"x\": 0.3, \"kind\": \"plain\"}", SL_TUNER_TRIAL_SUCCEEDED, TRUE, 0.0);
  single = sl_tuner_curves_compute (config, one, 1, NULL);
  g_assert_cmpuint (sl_tuner_curves_get_n_bands (single), ==, 0);
  g_assert_cmpuint (sl_tuner_curves_get_band (single, 0, &x, &mean, &stddev), ==, 0);
  g_assert_cmpuint (sl_tuner_curves_get_points (single, 0, &px, &py), ==, 1);

  empty = sl_tuner_curves_compute (config, none, 0, NULL);
  g_assert_cmpuint (sl_tuner_curves_get_n_slices (empty), ==, 2);
  g_assert_cmpuint (sl_tuner_curves_get_points (empty, 1, &px, &py), ==, 0);
}

typedef struct {
  SlTunerCurves *curves;
  GError        *error;
  gboolean       done;
} Result;

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *out = user_data;

  out->curves = sl_tuner_curves_compute_finish (result, &out->error);
  out->done = TRUE;
}

static void
run_until_done (Result *result)
{
  while (!result->done)
    g_main_context_iteration (NULL, TRUE);
}

/* In a worker, on its own copies: the caller's trials may go at once. */
static void
test_async_and_cancel (void)
{
  g_autoptr(SlTunerConfig) config = make_config ();
  GPtrArray *trials = make_trials ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result result = { 0 }, cancelled = { 0 };

  sl_tuner_curves_compute_async (config, trials, 2, NULL, done_cb, &result);
  g_ptr_array_unref (trials);
  run_until_done (&result);
  g_assert_no_error (result.error);
  g_assert_cmpuint (sl_tuner_curves_get_n_bands (result.curves), ==, 2);
  sl_tuner_curves_free (result.curves);

  /* Cancelled, even once finished, it ends as cancelled. */
  trials = make_trials ();
  sl_tuner_curves_compute_async (config, trials, 2, cancellable, done_cb, &cancelled);
  g_cancellable_cancel (cancellable);
  g_ptr_array_unref (trials);
  run_until_done (&cancelled);
  g_assert_null (cancelled.curves);
  g_assert_error (cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&cancelled.error);

  /* Already cancelled when the worker starts: it stops early. */
  g_assert_null (sl_tuner_curves_compute (config, trials = make_trials (), 2, cancellable));
  g_ptr_array_unref (trials);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tuner-curves/along-each-parameter", test_curves_along_each_parameter);
  g_test_add_func ("/tuner-curves/points-without-model", test_points_without_model);
  g_test_add_func ("/tuner-curves/async-and-cancel", test_async_and_cancel);
  return g_test_run ();
}
