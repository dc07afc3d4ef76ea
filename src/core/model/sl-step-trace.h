/* sl-step-trace.h: the step (iteration) table of one profiled device
 *
 * Each source splits a step its own way, and the trace keeps that split as
 * its stacked phases (a stable key, the name the source gives it, a value
 * per step), all in nanoseconds:
 *   MindSpore's step trace and msprof's step_trace_*.csv have phase points,
 *   and their three phases are the fields of SlStep too:
 *     data wait (iteration_interval, Data Aug Bound): from the previous
 *       step's end to the first forward op, i.e. waiting for data;
 *     forward+backward (fp_and_bp, FP to BP Time): first forward op to last
 *       backward op;
 *     tail (tail, Iteration Refresh): last backward op to the step's end
 *       (gradient all-reduce and parameter update);
 *     total = data wait + forward+backward + tail.
 *   torch_npu's step_trace_time.csv and msprof-analyze's cluster table are
 *     an overlap analysis with no phase points: Computing,
 *     Communication(Not Overlapped) and Free stack up to the step time; the
 *     SlStep fields data_wait_ns, fp_bp_ns and tail_ns stay unknown, as
 *     nothing there is a data wait or a tail.
 *   The STEP_TIME table of a database export has a start and an end only.
 * Columns that do not stack (reduce streams, Overlapped, Bubble...) are
 * extra columns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_STEP_NO_TIME G_MININT64

/* The extra column of a step's communication time, where the source
 * measures it: torch_npu's "Communication", and for MindSpore step traces
 * with communication op columns, the time some op of the step runs. */
#define SL_STEP_EXTRA_COMMUNICATION "Communication"

typedef struct {
  gint64 step;           /* step number from the file */
  gint64 start_ns;       /* absolute points, SL_STEP_NO_TIME when the source has none */
  gint64 end_ns;
  gint64 fp_ns;
  gint64 bp_ns;
  gint64 total_ns;       /* durations; SL_STEP_NO_TIME when unknown */
  gint64 data_wait_ns;
  gint64 fp_bp_ns;
  gint64 tail_ns;
} SlStep;

typedef enum {
  SL_STEP_SOURCE_MINDSPORE,      /* step_trace_raw_*_detail_time.csv, 10 ns ticks */
  SL_STEP_SOURCE_MSPROF,         /* mindstudio_profiler_output/step_trace_*.csv, µs */
  SL_STEP_SOURCE_ASCEND_PT,      /* ASCEND_PROFILER_OUTPUT/step_trace_time.csv, µs */
  SL_STEP_SOURCE_CLUSTER,        /* cluster_step_trace_time.csv, µs, one row per rank */
  SL_STEP_SOURCE_DATABASE,       /* STEP_TIME table, ns */
} SlStepSource;

typedef struct _SlStepTrace SlStepTrace;

#define SL_TYPE_STEP_TRACE (sl_step_trace_get_type ())
GType         sl_step_trace_get_type            (void) G_GNUC_CONST;

SlStepTrace  *sl_step_trace_new                 (const char   *path,
                                                 SlStepSource  source);
SlStepTrace  *sl_step_trace_ref                 (SlStepTrace  *self);
void          sl_step_trace_unref               (SlStepTrace  *self);

/* Building */
guint         sl_step_trace_add_extra_column    (SlStepTrace  *self,
                                                 const char   *name);
/* A stacked phase stored by the trace, named as the source names it
 * (shown untranslated); added before any step. MindSpore and msprof step
 * traces have theirs (data_wait, fp_bp, tail) from sl_step_trace_new. */
guint         sl_step_trace_add_phase           (SlStepTrace  *self,
                                                 const char   *key,
                                                 const char   *name);
void          sl_step_trace_set_phase           (SlStepTrace  *self,
                                                 guint         step_index,
                                                 guint         phase,
                                                 gint64        value_ns);
/* Copies @step; extras are SL_STEP_NO_TIME until set. */
guint         sl_step_trace_add_step            (SlStepTrace  *self,
                                                 const SlStep *step);
void          sl_step_trace_set_extra           (SlStepTrace  *self,
                                                 guint         step_index,
                                                 guint         column,
                                                 gint64        value_ns);
/* The 1-based line of the file a step was read from (0 unknown). */
void          sl_step_trace_set_line            (SlStepTrace  *self,
                                                 guint         step_index,
                                                 guint         line);
guint         sl_step_trace_get_line            (SlStepTrace  *self,
                                                 guint         step_index);
/* The averages a file wrote itself (MindSpore's "-" row). */
void          sl_step_trace_set_file_average    (SlStepTrace  *self,
                                                 const SlStep *average);

/* Reading */
const char   *sl_step_trace_get_path            (SlStepTrace  *self);
SlStepSource  sl_step_trace_get_source          (SlStepTrace  *self);
guint         sl_step_trace_get_n_steps         (SlStepTrace  *self);
const SlStep *sl_step_trace_get_step            (SlStepTrace  *self,
                                                 guint         index);
/* Mean of each phase over the steps (unknown phases stay unknown). */
void          sl_step_trace_compute_average     (SlStepTrace  *self,
                                                 SlStep       *average);
/* NULL when the file had no average row. */
const SlStep *sl_step_trace_get_file_average    (SlStepTrace  *self);
guint         sl_step_trace_get_n_extra_columns (SlStepTrace  *self);
const char   *sl_step_trace_get_extra_name      (SlStepTrace  *self,
                                                 guint         column);
gint64        sl_step_trace_get_extra           (SlStepTrace  *self,
                                                 guint         step_index,
                                                 guint         column);
/* The stacked phases, bottom first */
guint         sl_step_trace_get_n_phases        (SlStepTrace  *self);
/* Stable, for JSON ("computing", "data_wait"...) */
const char   *sl_step_trace_get_phase_key       (SlStepTrace  *self,
                                                 guint         phase);
/* Untranslated: "Communication(Not Overlapped)", "Data wait"... */
const char   *sl_step_trace_get_phase_name      (SlStepTrace  *self,
                                                 guint         phase);
/* For display: translated where the name is not the source's own */
const char   *sl_step_trace_get_phase_label     (SlStepTrace  *self,
                                                 guint         phase);
/* The phase's index, or -1 */
int           sl_step_trace_find_phase          (SlStepTrace  *self,
                                                 const char   *key);
/* SL_STEP_NO_TIME when unknown */
gint64        sl_step_trace_get_phase           (SlStepTrace  *self,
                                                 guint         step_index,
                                                 guint         phase);
/* Mean over the steps where it is known, SL_STEP_NO_TIME if none */
gint64        sl_step_trace_get_phase_average   (SlStepTrace  *self,
                                                 guint         phase);
const char   *sl_step_source_to_string          (SlStepSource  source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlStepTrace, sl_step_trace_unref)

G_END_DECLS
