/* sl-tuner-curves.c
 *
 * What the Tuner's charts show along each parameter: the trials' values,
 * and the Gaussian process's mean and standard deviation with the other
 * parameters at the best trial's values. Fitting the process to every
 * trial takes long enough that it runs in a worker, on copies of the
 * trials; the charts only draw the result.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-bayes-optimizer.h"
#include "sl-tuner-curves.h"
#include "sl-tuner-trial.h"

#define SLICE_POINTS 60

typedef struct {
  GArray *x;        /* double: along the parameter */
  GArray *mean;
  GArray *stddev;   /* empty when there is no model */
  GArray *px;       /* double: the trials with a value */
  GArray *py;
} Slice;

struct _SlTunerCurves
{
  GArray *slices;   /* Slice */
};

typedef struct {
  SlTunerConfig *config;
  GPtrArray     *trials;   /* SlTunerTrial, copies */
  guint          best_number;
} Job;

static GArray *
doubles (void)
{
  return g_array_new (FALSE, FALSE, sizeof (double));
}

static void
slice_clear (gpointer data)
{
  Slice *slice = data;

  g_clear_pointer (&slice->x, g_array_unref);
  g_clear_pointer (&slice->mean, g_array_unref);
  g_clear_pointer (&slice->stddev, g_array_unref);
  g_clear_pointer (&slice->px, g_array_unref);
  g_clear_pointer (&slice->py, g_array_unref);
}

void
sl_tuner_curves_free (SlTunerCurves *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->slices, g_array_unref);
  g_free (self);
}

static gboolean
trial_values (SlBayesOptimizer   *optimizer,
              const SlTunerTrial *trial,
              double             *values)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  return trial->params != NULL &&
         json_parser_load_from_data (parser, trial->params, -1, NULL) &&
         JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
         sl_bayes_optimizer_values_from_json (optimizer, json_node_get_object (json_parser_get_root (parser)),
                                              values, NULL);
}

static double
slice_at (const SlTunerParameter *parameter,
          guint                   i,
          guint                   n)
{
  double t = i / (double)(n - 1);

  if (!parameter->has_bounds)
    return parameter->choice_labels != NULL ? (double)MIN (i, parameter->n_choices - 1)
                                            : parameter->choices[MIN (i, parameter->n_choices - 1)];
  /* Just inside the upper bound, which the encoding leaves out. */
  if (sl_tuner_parameter_is_log_scale (parameter))
    return exp (log (parameter->low) + t * (log (parameter->high) - log (parameter->low))) * (1 - 1e-12);
  return parameter->low + t * (parameter->high - parameter->low) * (1 - 1e-12);
}

static SlBayesOptimizer *
fit (SlTunerConfig *config,
     GPtrArray     *trials,
     double        *values)
{
  SlBayesOptimizer *optimizer = sl_bayes_optimizer_new (config, 1);

  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);

      if (trial->state == SL_TUNER_TRIAL_SUCCEEDED && trial->has_value && trial_values (optimizer, trial, values))
        sl_bayes_optimizer_add_observation (optimizer, values, trial->value);
    }
  return optimizer;
}

static const SlTunerTrial *
find_trial (GPtrArray *trials,
            guint      number)
{
  for (guint i = 0; number > 0 && i < trials->len; i++)
    if (((const SlTunerTrial *)g_ptr_array_index (trials, i))->number == number)
      return g_ptr_array_index (trials, i);
  return NULL;
}

static void
fill_band (Slice                  *slice,
           SlBayesOptimizer       *optimizer,
           const SlTunerParameter *parameter,
           guint                   p,
           const double           *centre,
           guint                   n_params)
{
  guint n = parameter->has_bounds ? SLICE_POINTS : parameter->n_choices;
  g_autofree double *values = g_new0 (double, MAX (n_params, 1));

  for (guint i = 0; i < n; i++)
    {
      double mean, stddev;

      memcpy (values, centre, n_params * sizeof (double));
      values[p] = slice_at (parameter, i, MAX (n, 2));
      if (parameter->type == SL_TUNER_PARAM_INT && parameter->has_bounds)
        values[p] = floor (values[p]);
      /* A band with holes would mislead: all of it or none. */
      if (!sl_bayes_optimizer_predict (optimizer, values, &mean, &stddev))
        {
          g_array_set_size (slice->x, 0);
          g_array_set_size (slice->mean, 0);
          g_array_set_size (slice->stddev, 0);
          return;
        }
      g_array_append_val (slice->x, values[p]);
      g_array_append_val (slice->mean, mean);
      g_array_append_val (slice->stddev, stddev);
    }
}

static void
fill_points (Slice            *slice,
             SlBayesOptimizer *optimizer,
             GPtrArray        *trials,
             guint             p,
             double           *values)
{
  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);

      if (trial->has_value && trial_values (optimizer, trial, values))
        {
          g_array_append_val (slice->px, values[p]);
          g_array_append_val (slice->py, trial->value);
        }
    }
}

/**
 * sl_tuner_curves_compute:
 * @best_number: the number of the trial the other parameters are held
 *   at, 0 for none (then there are only points)
 *
 * Fits the Gaussian process to the trials that succeeded and works out
 * each parameter's curve. Blocks: call it in a worker.
 *
 * Returns: (transfer full) (nullable): %NULL when @cancellable was
 *   cancelled on the way
 */
SlTunerCurves *
sl_tuner_curves_compute (SlTunerConfig *config,
                         GPtrArray     *trials,
                         guint          best_number,
                         GCancellable  *cancellable)
{
  guint n_params;
  g_autofree double *values = NULL;
  g_autofree double *centre = NULL;
  g_autoptr(SlBayesOptimizer) optimizer = NULL;
  g_autoptr(SlTunerCurves) curves = NULL;
  const SlTunerTrial *best;
  gboolean have_model;

  g_return_val_if_fail (SL_IS_TUNER_CONFIG (config), NULL);
  g_return_val_if_fail (trials != NULL, NULL);

  n_params = sl_tuner_config_get_n_parameters (config);
  values = g_new0 (double, MAX (n_params, 1));
  centre = g_new0 (double, MAX (n_params, 1));
  curves = g_new0 (SlTunerCurves, 1);
  curves->slices = g_array_sized_new (FALSE, TRUE, sizeof (Slice), n_params);
  g_array_set_clear_func (curves->slices, slice_clear);

  optimizer = fit (config, trials, values);
  best = find_trial (trials, best_number);
  have_model = best != NULL && trial_values (optimizer, best, centre) &&
               sl_bayes_optimizer_get_n_observations (optimizer) >= 2;

  for (guint p = 0; p < n_params; p++)
    {
      Slice slice = { doubles (), doubles (), doubles (), doubles (), doubles () };

      if (g_cancellable_is_cancelled (cancellable))
        {
          slice_clear (&slice);
          return NULL;
        }
      if (have_model)
        fill_band (&slice, optimizer, sl_tuner_config_get_parameter (config, p), p, centre, n_params);
      fill_points (&slice, optimizer, trials, p, values);
      g_array_append_val (curves->slices, slice);
    }
  return g_steal_pointer (&curves);
}

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->config);
  g_clear_pointer (&job->trials, g_ptr_array_unref);
  g_free (job);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  SlTunerCurves *curves = sl_tuner_curves_compute (job->config, job->trials, job->best_number, cancellable);

  if (curves == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  else
    g_task_return_pointer (task, curves, (GDestroyNotify)sl_tuner_curves_free);
}

/**
 * sl_tuner_curves_compute_async:
 *
 * Does sl_tuner_curves_compute() in a worker, on copies of @trials (the
 * caller may change its own at once). A cancelled computation ends with
 * %G_IO_ERROR_CANCELLED, even when it had finished.
 */
void
sl_tuner_curves_compute_async (SlTunerConfig       *config,
                               GPtrArray           *trials,
                               guint                best_number,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (SL_IS_TUNER_CONFIG (config));
  g_return_if_fail (trials != NULL);

  job = g_new0 (Job, 1);
  job->config = g_object_ref (config);
  job->trials = g_ptr_array_copy (trials, (GCopyFunc)(void (*) (void))sl_tuner_trial_copy, NULL);
  g_ptr_array_set_free_func (job->trials, (GDestroyNotify)sl_tuner_trial_free);
  job->best_number = best_number;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_tuner_curves_compute_async);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, compute_thread);
}

SlTunerCurves *
sl_tuner_curves_compute_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
sl_tuner_curves_get_n_slices (SlTunerCurves *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->slices->len;
}

/* How many parameters have the model's band. */
guint
sl_tuner_curves_get_n_bands (SlTunerCurves *self)
{
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint p = 0; p < self->slices->len; p++)
    n += g_array_index (self->slices, Slice, p).stddev->len > 0;
  return n;
}

/**
 * sl_tuner_curves_get_band:
 *
 * Returns: how many points the band along @parameter has, 0 for none
 */
guint
sl_tuner_curves_get_band (SlTunerCurves  *self,
                          guint           parameter,
                          const double  **x,
                          const double  **mean,
                          const double  **stddev)
{
  Slice *slice;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (parameter < self->slices->len, 0);

  slice = &g_array_index (self->slices, Slice, parameter);
  *x = (const double *)slice->x->data;
  *mean = (const double *)slice->mean->data;
  *stddev = (const double *)slice->stddev->data;
  return slice->stddev->len;
}

/**
 * sl_tuner_curves_get_points:
 *
 * Returns: how many trials with a value there are to show along
 *   @parameter, their values of it in @x
 */
guint
sl_tuner_curves_get_points (SlTunerCurves  *self,
                            guint           parameter,
                            const double  **x,
                            const double  **value)
{
  Slice *slice;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (parameter < self->slices->len, 0);

  slice = &g_array_index (self->slices, Slice, parameter);
  *x = (const double *)slice->px->data;
  *value = (const double *)slice->py->data;
  return slice->px->len;
}
