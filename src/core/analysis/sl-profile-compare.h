/* sl-profile-compare.h: is the new run faster, and where?
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Compares one rank of a baseline profile with one rank of a comparison
 * profile, from what the profile model holds:
 *   - a breakdown (end to end, computing split into cube, vector,
 *     communication and other kernels, uncovered communication, free
 *     time, MindSpore's phases) per step and averaged over the steps, each
 *     item with the reason when it could not be computed;
 *   - op-type and kernel (type + input shapes) tables with both sides'
 *     count, total, average, min and max, sorted by the difference of the
 *     totals, largest regression first;
 *   - noise: with at least SL_PROFILE_COMPARE_MIN_NOISE_STEPS steps on
 *     each side, a per-step item whose difference of averages is smaller
 *     than SL_PROFILE_COMPARE_NOISE_MADS median absolute deviations of the
 *     per-step values (both sides' deviations from their own median,
 *     pooled) is flagged as noise;
 *   - an op-level alignment (sl-sequence-align) of the executions of one
 *     step, stream by stream, when both ranks keep their executions in
 *     order (the SQLite exports' timeline); otherwise the reason.
 *
 * Times are nanoseconds; -1 means unknown. Ratios are comparison / base,
 * NaN when unknown or the base is 0. It runs synchronously; callers put it
 * on a worker.
 */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"
#include "sl-sequence-align.h"

G_BEGIN_DECLS

#define SL_PROFILE_COMPARE_MIN_NOISE_STEPS 3
#define SL_PROFILE_COMPARE_NOISE_MADS      3.0

typedef enum {
  SL_PROFILE_COMPARE_E2E,                     /* step total */
  SL_PROFILE_COMPARE_COMPUTING,               /* Computing column, else the non-communication kernels */
  SL_PROFILE_COMPARE_CUBE,                    /* kernels by op type or core type */
  SL_PROFILE_COMPARE_VECTOR,
  SL_PROFILE_COMPARE_COMMUNICATION_KERNELS,
  SL_PROFILE_COMPARE_OTHER_KERNELS,
  SL_PROFILE_COMPARE_UNCOVERED_COMMUNICATION, /* Communication(Not Overlapped) */
  SL_PROFILE_COMPARE_FREE,                    /* Free column */
  SL_PROFILE_COMPARE_DATA_WAIT,               /* the step trace's phases */
  SL_PROFILE_COMPARE_FP_BP,
  SL_PROFILE_COMPARE_TAIL,
  SL_PROFILE_COMPARE_N_ITEMS
} SlProfileCompareItemKind;

typedef enum {
  SL_PROFILE_COMPARE_FROM_NONE,        /* not computed: see reason */
  SL_PROFILE_COMPARE_FROM_STEPS,       /* mean of the step table's values */
  SL_PROFILE_COMPARE_FROM_OPS_PER_STEP,/* op table totals / number of steps */
  SL_PROFILE_COMPARE_FROM_OPS_TOTAL,   /* op table totals of the whole profile (no steps) */
} SlProfileCompareSource;

typedef struct {
  SlProfileCompareItemKind kind;
  SlProfileCompareSource   source;
  gint64                   base_ns;
  gint64                   comparison_ns;
  gint64                   diff_ns;        /* comparison − base */
  double                   ratio;
  /* Both sides have enough steps for the noise test, and the result. */
  gboolean                 noise_checked;
  gboolean                 noise;
  gint64                   mad_ns;         /* -1 unless noise_checked */
  char                    *reason;         /* why it was not computed, NULL when it was */
  /* Both sides have a figure but they measure different things: never
   * shown as a gain or a regression (reason says why). */
  gboolean                 not_comparable;
} SlProfileCompareItem;

/* Steps paired by position (the k-th step of each side). */
typedef struct {
  gint64 base_step;
  gint64 comparison_step;
  gint64 base_ns[SL_PROFILE_COMPARE_N_ITEMS];        /* -1 unknown */
  gint64 comparison_ns[SL_PROFILE_COMPARE_N_ITEMS];
} SlProfileCompareStep;

/* One op type or kernel; index 0 is the baseline, 1 the comparison. */
typedef struct {
  char    *type;
  char    *input_shapes;   /* kernels only, "" when the source had none */
  char    *core_type;
  gboolean present[2];
  guint64  count[2];
  gint64   total_ns[2];    /* 0 when absent */
  gint64   avg_ns[2];      /* -1 when absent or unknown */
  gint64   min_ns[2];
  gint64   max_ns[2];
  gint64   diff_ns;        /* total comparison − total base */
  double   ratio;
} SlProfileCompareRow;

typedef struct {
  gboolean               computed;
  SlSequenceAlignMethod  method;        /* the least exact over the streams */
  guint64                matched;
  guint64                only_base;
  guint64                only_comparison;
  guint                  n_streams;     /* streams aligned */
  char                  *scope;         /* what was aligned ("step 3 vs step 3", "whole timeline") */
  char                  *reason;        /* when not computed */
} SlProfileCompareAlignment;

typedef struct {
  guint                     base_rank;
  guint                     comparison_rank;
  char                     *base_label;
  char                     *comparison_label;
  SlProfileLayout           base_layout;
  SlProfileLayout           comparison_layout;
  guint                     base_steps;
  guint                     comparison_steps;
  SlProfileCompareItem      items[SL_PROFILE_COMPARE_N_ITEMS];
  GArray                   *steps;      /* SlProfileCompareStep */
  GPtrArray                *op_types;   /* SlProfileCompareRow, largest diff first */
  GPtrArray                *kernels;    /* SlProfileCompareRow, largest diff first */
  SlProfileCompareAlignment alignment;
  GPtrArray                *notes;      /* char *: what is missing and why */
} SlProfileCompare;

typedef struct {
  guint   base_rank;        /* index into each profile's ranks */
  guint   comparison_rank;
  guint64 max_align_work;   /* sl-sequence-align budget, 0 for its default */
} SlProfileCompareOptions;

/* @options may be NULL (rank 0 of each). Fails when a rank does not exist
 * or on cancellation. */
SlProfileCompare *sl_profile_compare_compute        (SlProfile                     *base,
                                                     SlProfile                     *comparison,
                                                     const SlProfileCompareOptions *options,
                                                     GCancellable                  *cancellable,
                                                     GError                       **error);
void              sl_profile_compare_free           (SlProfileCompare              *self);

/* "e2e", "computing", "cube", ... as used in JSON. */
const char       *sl_profile_compare_item_key       (SlProfileCompareItemKind       kind);
/* Translated. */
const char       *sl_profile_compare_item_label     (SlProfileCompareItemKind       kind);
/* "steps", "ops_per_step", "ops_total" or "none". */
const char       *sl_profile_compare_source_to_string (SlProfileCompareSource       source);

/* The key sl-sequence-align matches on for one execution: the op name's
 * last path component without its layer or op-index suffix ("-op12",
 * trailing digits), the op type and the input shapes. */
char             *sl_profile_compare_op_key         (const char                    *name,
                                                     const char                    *op_type,
                                                     const char                    *input_shapes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlProfileCompare, sl_profile_compare_free)

G_END_DECLS
