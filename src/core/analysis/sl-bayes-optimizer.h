/* sl-bayes-optimizer.h: suggests the tuner's next trials
 *
 * Bayesian optimisation over the parameters of a tuner configuration.
 * Parameter values are arrays with one double per parameter: the number
 * itself, or for a parameter with text choices the index of the choice.
 * Inside they are points of the unit cube: bounds scaled linearly, or
 * logarithmically when they span more than two orders of magnitude;
 * integers as cells of equal width; choices one-hot, as categories. Every
 * point the Gaussian process sees or the acquisition scores is first
 * snapped to a valid setting, so integers and choices are respected.
 *
 * The goal's direction is applied once, here: the optimizer maximises
 * the value for goal maximize and its negation for goal minimize.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sl-gaussian-process.h"
#include "sl-tuner-config.h"

G_BEGIN_DECLS

#define SL_TYPE_BAYES_OPTIMIZER (sl_bayes_optimizer_get_type ())
G_DECLARE_FINAL_TYPE (SlBayesOptimizer, sl_bayes_optimizer, SL, BAYES_OPTIMIZER, GObject)

SlBayesOptimizer *sl_bayes_optimizer_new              (SlTunerConfig     *config,
                                                       guint32            seed);
SlTunerConfig    *sl_bayes_optimizer_get_config       (SlBayesOptimizer  *self);
guint             sl_bayes_optimizer_get_n_dims       (SlBayesOptimizer  *self);
guint             sl_bayes_optimizer_get_n_observations (SlBayesOptimizer *self);
void              sl_bayes_optimizer_set_n_initial    (SlBayesOptimizer  *self,
                                                       guint              n_initial);
void              sl_bayes_optimizer_set_random_only  (SlBayesOptimizer  *self,
                                                       gboolean           random_only);

void              sl_bayes_optimizer_encode           (SlBayesOptimizer  *self,
                                                       const double      *values,
                                                       double            *point);
void              sl_bayes_optimizer_decode           (SlBayesOptimizer  *self,
                                                       const double      *point,
                                                       double            *values);

void              sl_bayes_optimizer_add_observation  (SlBayesOptimizer  *self,
                                                       const double      *values,
                                                       double             value);
void              sl_bayes_optimizer_suggest          (SlBayesOptimizer  *self,
                                                       const double      *pending,
                                                       guint              n_pending,
                                                       double            *values);
gboolean          sl_bayes_optimizer_get_best         (SlBayesOptimizer  *self,
                                                       double            *values,
                                                       double            *value);
gboolean          sl_bayes_optimizer_predict          (SlBayesOptimizer  *self,
                                                       const double      *values,
                                                       double            *mean,
                                                       double            *stddev);
SlGaussianProcess *sl_bayes_optimizer_get_model       (SlBayesOptimizer  *self);

JsonObject       *sl_bayes_optimizer_values_to_json   (SlBayesOptimizer  *self,
                                                       const double      *values);
gboolean          sl_bayes_optimizer_values_from_json (SlBayesOptimizer  *self,
                                                       JsonObject        *params,
                                                       double            *values,
                                                       GError           **error);
gboolean          sl_tuner_parameter_is_log_scale     (const SlTunerParameter *parameter);

G_END_DECLS
