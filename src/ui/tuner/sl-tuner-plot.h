/* sl-tuner-plot.h: the Tuner document's small charts
 *
 * Points (trials), an optional line (best so far) and an optional band
 * (the Gaussian process's mean ± 2 standard deviations along one
 * parameter), on linear or logarithmic x.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_TUNER_PLOT (sl_tuner_plot_get_type ())
G_DECLARE_FINAL_TYPE (SlTunerPlot, sl_tuner_plot, SL, TUNER_PLOT, GtkWidget)

GtkWidget *sl_tuner_plot_new         (const char   *title);
void       sl_tuner_plot_set_points  (SlTunerPlot  *self,
                                      const double *x,
                                      const double *y,
                                      guint         n);
void       sl_tuner_plot_set_line    (SlTunerPlot  *self,
                                      const double *x,
                                      const double *y,
                                      guint         n);
void       sl_tuner_plot_set_band    (SlTunerPlot  *self,
                                      const double *x,
                                      const double *mean,
                                      const double *stddev,
                                      guint         n);
void       sl_tuner_plot_set_log_x   (SlTunerPlot  *self,
                                      gboolean      log_x);
guint      sl_tuner_plot_get_n_points (SlTunerPlot *self);

G_END_DECLS
