/* sl-bound-minimizer.h: limited-memory BFGS within box bounds
 *
 * A small projected L-BFGS for the tuner: the Gaussian process fits its
 * kernel's log-hyperparameters with it, and the acquisition is refined
 * with it inside the unit cube. Not a general solver: a few dozen
 * variables, smooth objectives, bounds on every variable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Returns f(x) and, when @gradient is not NULL, fills it. */
typedef double (*SlBoundObjective) (const double *x,
                                    double       *gradient,
                                    gpointer      user_data);

double sl_bound_minimize                  (SlBoundObjective  objective,
                                           gpointer          user_data,
                                           guint             n,
                                           double           *x,
                                           const double     *lower,
                                           const double     *upper,
                                           guint             max_iterations);
double sl_bound_minimize_numeric_gradient (SlBoundObjective  objective,
                                           gpointer          user_data,
                                           guint             n,
                                           double           *x,
                                           const double     *lower,
                                           const double     *upper,
                                           guint             max_iterations);

G_END_DECLS
