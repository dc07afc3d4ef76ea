/* sl-cluster-bars.h: one bar per rank, its parts stacked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_CLUSTER_BARS_MAX_SERIES 4

#define SL_TYPE_CLUSTER_BARS (sl_cluster_bars_get_type ())
G_DECLARE_FINAL_TYPE (SlClusterBars, sl_cluster_bars, SL, CLUSTER_BARS, GtkWidget)

GtkWidget *sl_cluster_bars_new           (void);
/* @values: @n_bars × @n_series milliseconds, bar by bar (NAN or negative:
 * none); @series and @labels are copied. */
void       sl_cluster_bars_set_data      (SlClusterBars      *self,
                                          guint               n_bars,
                                          guint               n_series,
                                          const double       *values,
                                          const char *const  *series,
                                          const char *const  *labels);
/* The bar drawn outlined (the slow rank, the straggler); -1 for none. */
void       sl_cluster_bars_set_highlight (SlClusterBars      *self,
                                          gint                bar);
guint      sl_cluster_bars_get_n_bars    (SlClusterBars      *self);
/* Returns: (transfer full) (nullable): the tooltip of a bar */
char      *sl_cluster_bars_describe_bar  (SlClusterBars      *self,
                                          guint               bar);
/* Where a bar's middle is drawn, for tests. */
gboolean   sl_cluster_bars_get_bar_center (SlClusterBars     *self,
                                           guint              bar,
                                           double            *x,
                                           double            *y);

gboolean   sl_cluster_bars_get_label_extent (SlClusterBars   *self,
                                             guint            bar,
                                             double          *x0,
                                             double          *x1);

gboolean   sl_cluster_bars_get_legend_extent (SlClusterBars  *self,
                                              guint           series,
                                              double         *x0,
                                              double         *x1,
                                              double         *y,
                                              double         *plot_top_y);

G_END_DECLS
