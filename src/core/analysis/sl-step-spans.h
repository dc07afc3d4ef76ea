/* sl-step-spans.h: where the steps of a step table lie on a timeline
 *
 * A step table and a timeline are written by different parts of a
 * profiler and do not always share a clock, and some step tables hold
 * durations only. SlStepSpans places each step of the table on the
 * timeline's clock, from the best source there is:
 *   - the table's own start and end, when they fall inside the timeline;
 *   - the table's times moved so that its first step starts at the first
 *     device activity, when they fall outside it (another clock);
 *   - the step slices the profiler wrote into the timeline
 *     ("ProfilerStep#N" of torch_npu, "Iteration N" of msprof), matched
 *     by step number, when the table has no times.
 * It also finds the first device activity, the anchor of a timeline
 * without steps. Built from an immutable trace; any thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-step-trace.h"
#include "sl-trace.h"

G_BEGIN_DECLS

typedef enum {
  SL_STEP_SPANS_NONE,               /* no step table, or no step could be placed */
  SL_STEP_SPANS_FROM_TABLE,         /* the table's own times */
  SL_STEP_SPANS_FROM_SHIFTED_TABLE, /* the table's times, first step at the first device activity */
  SL_STEP_SPANS_FROM_TIMELINE,      /* the timeline's step slices */
} SlStepSpansSource;

typedef struct {
  gint64 step;      /* the step number of the table */
  gint64 start_ns;  /* on the timeline's clock; -1 when the step could not be placed */
  gint64 end_ns;
} SlStepSpan;

typedef struct _SlStepSpans SlStepSpans;

/* @steps may be NULL: then there are no spans, only the first device
 * activity. */
SlStepSpans      *sl_step_spans_new                (SlTrace     *trace,
                                                    SlStepTrace *steps);
void              sl_step_spans_free               (SlStepSpans *self);
SlStepSpansSource sl_step_spans_get_source         (SlStepSpans *self);
/* As many as the table has steps, in its order. */
guint             sl_step_spans_get_n_steps        (SlStepSpans *self);
const SlStepSpan *sl_step_spans_get_step           (SlStepSpans *self,
                                                    guint        index);
/* The start of the first slice on a device (the "Ascend Hardware",
 * NPU, GPU or device processes and stream threads), else the first
 * slice's start, else the trace's start. */
gint64            sl_step_spans_get_first_device_ns (SlStepSpans *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlStepSpans, sl_step_spans_free)

G_END_DECLS
