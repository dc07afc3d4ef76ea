/* sl-tensor-pair-detail.h: what the detail of one compared tensor pair
 * shows
 *
 * Both distributions counted on the same bins, so they can be overlaid;
 * the largest differences with their positions; and the absolute error
 * through a slice, as a tensor frame the tensor view's plots draw. All of
 * it is read from the two tensors' elements in a worker, and stops soon
 * when cancelled.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-compare.h"
#include "sl-tensor-frame.h"
#include "sl-tensor-pairing.h"

G_BEGIN_DECLS

#define SL_TENSOR_PAIR_DETAIL_BINS 64
#define SL_TENSOR_PAIR_DETAIL_TOP_K 20
/* An error slice longer than this along an axis is sampled, so a huge
 * slice costs a bounded amount of memory and time. */
#define SL_TENSOR_PAIR_ERROR_MAX_SIDE 1024

typedef struct {
  guint64 position;    /* of the element in C (row-major) order */
  double  npu;
  double  bench;
  double  abs_error;   /* NaN or infinite when one side is and the other is not */
  double  rel_error;   /* abs_error / |bench|; NaN when the benchmark is 0 */
} SlTensorDifference;

typedef struct {
  double   lo;                 /* left edge of the first bin */
  double   hi;                 /* right edge of the last bin */
  guint    n_bins;
  guint64 *counts[2];          /* by SlTensorSide */
  guint64  max_count;
  guint64  n_finite[2];
  guint64  n_non_finite[2];    /* NaN and infinities, not in any bin */
} SlTensorPairHistogram;

typedef struct {
  guint                 n_dims;
  guint64               shape[SL_TENSOR_COMPARE_MAX_DIMS];  /* the NPU side's */
  /* Both sides hold as many elements, so elements can be paired. */
  gboolean              comparable;
  SlTensorPairHistogram histogram;
  GArray               *largest;  /* SlTensorDifference, largest first */
} SlTensorPairDetail;

SlTensorPairDetail *sl_tensor_pair_detail_compute      (const SlTensorData       *npu,
                                                        const SlTensorData       *bench,
                                                        guint                     n_bins,
                                                        guint                     top_k,
                                                        GCancellable             *cancellable,
                                                        GError                  **error);
void                sl_tensor_pair_detail_free         (SlTensorPairDetail       *self);
char               *sl_tensor_pair_detail_format_index (const SlTensorPairDetail *self,
                                                        guint64                   position);

SlTensorFrame      *sl_tensor_pair_error_frame_new     (const SlTensorData       *npu,
                                                        const SlTensorData       *bench,
                                                        const SlTensorSlice      *slice,
                                                        guint                    *row_step,
                                                        guint                    *col_step,
                                                        GCancellable             *cancellable,
                                                        GError                  **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTensorPairDetail, sl_tensor_pair_detail_free)

G_END_DECLS
