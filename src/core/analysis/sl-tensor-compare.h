/* sl-tensor-compare.h: accuracy metrics of a tensor against its benchmark
 *
 * One streaming pass over both tensors gives every metric msprobe and the
 * CANN compare tool report, defined and with zeros, NaN and Inf handled
 * as they do. The KL divergence normalises every element by its side's
 * minimum and maximum, which no sum taken before they are known can be
 * corrected for exactly, so when it is asked for a lighter pass finds
 * only those first (no products, no logarithms). Sums are kept per block
 * and the blocks added with Neumaier's compensation, so a billion
 * elements lose nothing; threads share the work out in chunks whose sums
 * are added in order, so the result never depends on their number.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-data.h"

G_BEGIN_DECLS

#define SL_TENSOR_COMPARE_MAX_DIMS 64
#define SL_TENSOR_COMPARE_MAX_THREADS 8
/* Elements in one chunk of work: the threads share a tensor out in
 * chunks, progress moves and cancellation is looked at between them,
 * and the chunks' sums are added in order, so the metrics are the same
 * to the bit whatever the number of threads. (A tensor of more than
 * 16384 chunks gets longer ones.) */
#define SL_TENSOR_COMPARE_CHUNK_ELEMENTS 262144

typedef enum {
  SL_TENSOR_VERDICT_PASS,
  SL_TENSOR_VERDICT_WARNING,
  SL_TENSOR_VERDICT_ERROR,
} SlTensorVerdict;

typedef struct {
  /* msprobe: an error when cosine < cosine_low and max abs error >
   * max_abs_low, or cosine < cosine_min, or max abs error > max_abs_max. */
  double cosine_low;
  double max_abs_low;
  double cosine_min;
  double max_abs_max;
  /* CANN's normal precision; missing one of them is a warning. */
  double relative_euclidean_max;
  double kl_divergence_max;
  double rmse_max;
  double mean_relative_error_max;
} SlTensorCompareThresholds;

/* @fraction of one comparison done, growing to 1. */
typedef void (*SlTensorCompareProgressFunc) (double   fraction,
                                             gpointer user_data);

typedef struct {
  SlTensorCompareThresholds thresholds;
  /* Half-precision pairs get thresholds that fit their precision. */
  gboolean                  dtype_aware;
  gboolean                  skip_kl_divergence;
  guint                     n_threads;   /* 0: two; at most 8 */
  /* Checked between chunks; a cancelled comparison is not computed and
   * its reason says so. Not owned; NULL when it cannot be cancelled. */
  GCancellable             *cancellable;
  /* Called after every chunk, on whichever thread computed it but never
   * two at once, so it must be quick; NULL for none. */
  SlTensorCompareProgressFunc progress;
  gpointer                  progress_data;
} SlTensorCompareOptions;

typedef struct {
  SlTensorVerdict verdict;
  char           *reason;               /* why, translated; NULL on pass */
  gboolean        computed;             /* FALSE when shapes prevent it */
  guint64         n_elements;
  double          cosine;               /* NaN when undefined */
  char           *cosine_note;          /* why the cosine is undefined */
  double          euclidean_distance;
  double          relative_euclidean_distance;
  double          max_abs_error;
  double          mean_abs_error;
  double          rmse;
  double          max_relative_error;
  double          mean_relative_error;
  double          accumulated_relative_error;
  double          one_thousandth_err_ratio;
  double          five_thousandth_err_ratio;
  double          kl_divergence;        /* NaN when skipped */
  double          npu_mean;
  double          npu_std;
  double          bench_mean;
  double          bench_std;
  guint64         npu_non_finite;
  guint64         bench_non_finite;
} SlTensorComparison;

void                sl_tensor_compare_options_init   (SlTensorCompareOptions       *options);
void                sl_tensor_compare_thresholds_for_dtype (SlTensorCompareThresholds *thresholds,
                                                            SlTensorDtype              dtype);
SlTensorComparison *sl_tensor_compare                (const SlTensorData           *npu,
                                                      const SlTensorData           *bench,
                                                      const SlTensorCompareOptions *options);
/* The verdict again under other thresholds, from the metrics kept. */
void                sl_tensor_comparison_judge       (SlTensorComparison           *self,
                                                      SlTensorDtype                 npu_dtype,
                                                      SlTensorDtype                 bench_dtype,
                                                      const SlTensorCompareOptions *options);
void                sl_tensor_comparison_free        (SlTensorComparison           *self);

const char   *sl_tensor_verdict_to_string   (SlTensorVerdict verdict);

/* Elements @first .. @first + @n_values - 1, in storage order, as doubles. */
void          sl_tensor_data_read_doubles   (const SlTensorData *data,
                                             guint64             first,
                                             gsize               n_values,
                                             double             *values);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTensorComparison, sl_tensor_comparison_free)

G_END_DECLS
