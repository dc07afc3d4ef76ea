/* sl-step-trace.h: the step (iteration) table of one profiled device
 *
 * Every source is mapped onto MindSpore's phases, all in nanoseconds:
 *   data wait (iteration_interval): from the previous step's end to the
 *     first forward op, i.e. waiting for data;
 *   forward+backward (fp_and_bp): first forward op to last backward op;
 *   tail: last backward op to the step's end (gradient all-reduce and
 *     parameter update).
 * total = data wait + forward+backward + tail. Sources with other phases
 * (reduce streams, torch_npu's overlap analysis) keep them as extra columns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_STEP_NO_TIME G_MININT64

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
const char   *sl_step_source_to_string          (SlStepSource  source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlStepTrace, sl_step_trace_unref)

G_END_DECLS
