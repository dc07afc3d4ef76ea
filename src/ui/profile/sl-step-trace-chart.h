/* sl-step-trace-chart.h: where each training step's time went
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-step-trace.h"
#include "sl-time-format.h"

G_BEGIN_DECLS

#define SL_TYPE_STEP_TRACE_CHART (sl_step_trace_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlStepTraceChart, sl_step_trace_chart, SL, STEP_TRACE_CHART, GtkWidget)

GtkWidget *sl_step_trace_chart_new           (void);
void       sl_step_trace_chart_set_steps     (SlStepTraceChart *self,
                                              SlStepTrace      *steps);
void       sl_step_trace_chart_set_time_unit (SlStepTraceChart *self,
                                              SlTimeUnit        unit);
int        sl_step_trace_chart_step_at       (SlStepTraceChart *self,
                                              double            x,
                                              double            y);
char      *sl_step_trace_chart_describe_step (SlStepTraceChart *self,
                                              guint             index);
GStrv      sl_step_trace_chart_get_axis_labels (SlStepTraceChart *self);
/* A right click on a step opens it: Show on Timeline, Export This Step's
 * Timeline… (the actions steps.show-on-timeline and steps.export-timeline,
 * a step index each, emit step-activated and export-requested). */
GtkPopover *sl_step_trace_chart_get_menu     (SlStepTraceChart *self);
void       sl_step_trace_chart_draw          (SlStepTraceChart *self,
                                              cairo_t          *cr,
                                              int               width,
                                              int               height);

G_END_DECLS
