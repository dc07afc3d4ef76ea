/* sl-memory-chart.h: memory over time, and the operators' lifetimes
 *
 * The components' allocated totals as curves (reserved only, dashed,
 * where a component writes nothing else) with the peak marked, and below
 * them the operators' allocations as bars in lanes, on one time axis.
 * Scroll zooms around the pointer, double-click shows everything, a
 * click emits ::time-activated.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-memory-profile.h"

G_BEGIN_DECLS

#define SL_TYPE_MEMORY_CHART (sl_memory_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlMemoryChart, sl_memory_chart, SL, MEMORY_CHART, GtkWidget)

GtkWidget *sl_memory_chart_new         (void);
void       sl_memory_chart_set_memory  (SlMemoryChart   *self,
                                        SlMemoryProfile *memory);
void       sl_memory_chart_set_view    (SlMemoryChart   *self,
                                        gint64           start_ns,
                                        gint64           end_ns);
void       sl_memory_chart_get_view    (SlMemoryChart   *self,
                                        gint64          *start_ns,
                                        gint64          *end_ns);
void       sl_memory_chart_zoom_at     (SlMemoryChart   *self,
                                        double           x,
                                        double           factor);
/* The time under @x, or -1 outside the plot. */
gint64     sl_memory_chart_time_at     (SlMemoryChart   *self,
                                        double           x);
double     sl_memory_chart_x_for_time  (SlMemoryChart   *self,
                                        gint64           ns);
void       sl_memory_chart_activate_at (SlMemoryChart   *self,
                                        double           x);
char      *sl_memory_chart_describe_at (SlMemoryChart   *self,
                                        double           x,
                                        double           y);
/* Bars drawn at the last frame: bounded by the width, not the allocations. */
guint      sl_memory_chart_get_n_bars_drawn (SlMemoryChart *self);
void       sl_memory_chart_draw        (SlMemoryChart   *self,
                                        cairo_t         *cr,
                                        int              width,
                                        int              height);

G_END_DECLS
