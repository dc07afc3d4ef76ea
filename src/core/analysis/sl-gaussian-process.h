/* sl-gaussian-process.h: Gaussian-process regression for the tuner
 *
 * A Matern 5/2 kernel with one length scale per input (ARD), a signal
 * variance and a noise variance, on inputs in the unit cube. Targets are
 * normalised to mean 0 and standard deviation 1 inside; predictions come
 * back in the targets' own units. The kernel's hyperparameters are fitted
 * by maximising the log marginal likelihood from several starts; the
 * Cholesky factorisation adds jitter when the matrix is nearly singular.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_GAUSSIAN_PROCESS (sl_gaussian_process_get_type ())
G_DECLARE_FINAL_TYPE (SlGaussianProcess, sl_gaussian_process, SL, GAUSSIAN_PROCESS, GObject)

SlGaussianProcess *sl_gaussian_process_new                 (guint               n_dims);
guint              sl_gaussian_process_get_n_dims          (SlGaussianProcess  *self);
guint              sl_gaussian_process_get_n_points        (SlGaussianProcess  *self);

/* @x holds @n rows of n_dims values. Refactors with the current
 * hyperparameters; FALSE when even the largest jitter did not help. */
gboolean           sl_gaussian_process_set_data            (SlGaussianProcess  *self,
                                                            const double       *x,
                                                            const double       *y,
                                                            guint               n);
void               sl_gaussian_process_set_hyperparameters (SlGaussianProcess  *self,
                                                            double              signal_variance,
                                                            const double       *length_scales,
                                                            double              noise_variance);
double             sl_gaussian_process_get_signal_variance (SlGaussianProcess  *self);
double             sl_gaussian_process_get_noise_variance  (SlGaussianProcess  *self);
double             sl_gaussian_process_get_length_scale    (SlGaussianProcess  *self,
                                                            guint               dim);
double             sl_gaussian_process_get_jitter          (SlGaussianProcess  *self);

gboolean           sl_gaussian_process_fit                 (SlGaussianProcess  *self,
                                                            guint               n_restarts,
                                                            guint               max_iterations,
                                                            GRand              *rand);
double             sl_gaussian_process_log_marginal_likelihood (SlGaussianProcess *self);

void               sl_gaussian_process_predict             (SlGaussianProcess  *self,
                                                            const double       *x,
                                                            double             *mean,
                                                            double             *variance);
double             sl_gaussian_process_matern52            (double              r);

G_END_DECLS
