/* sl-tensor-pairing.h: which tensor of one msprobe dump goes with which
 * of the other
 *
 * Exact pairing joins on msprobe's key. Fuzzy pairing drops the call
 * number and pairs the n-th NPU tensor of an (api_type, api, direction,
 * io, index) with the n-th benchmark one. A mapping renames NPU names
 * first. Tensors left over, or paired with one of another shape or dtype
 * kind, are unmatched with the reason. Pairs come in the NPU side's
 * execution order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-msprobe-dump.h"
#include "sl-tensor-mapping.h"

G_BEGIN_DECLS

typedef enum {
  SL_TENSOR_SIDE_NPU,
  SL_TENSOR_SIDE_BENCH,
} SlTensorSide;

typedef enum {
  SL_UNMATCHED_MISSING,          /* no tensor of that name on the other side */
  SL_UNMATCHED_SHAPE,            /* the other side's has another shape */
  SL_UNMATCHED_DTYPE_KIND,       /* float against integer, bool, ... */
  SL_UNMATCHED_ARGUMENT_COUNT,   /* the calls have different numbers of inputs or outputs */
} SlUnmatchedReason;

typedef struct {
  const SlMsprobeTensor *npu;
  const SlMsprobeTensor *bench;
} SlTensorPair;

typedef struct {
  const SlMsprobeTensor *tensor;
  SlTensorSide           side;
  SlUnmatchedReason      reason;
  const SlMsprobeTensor *other;   /* the tensor it was refused with, or NULL */
} SlTensorUnmatched;

typedef enum {
  SL_TENSOR_PAIRING_EXACT = 0,
  SL_TENSOR_PAIRING_FUZZY = 1 << 0,
} SlTensorPairingFlags;

/* One statistic of a statistics-only pair. */
typedef struct {
  double npu;
  double bench;
  double diff;        /* npu - bench */
  double relative;    /* |diff| / |bench|; 0 when both are 0, NaN when only bench is */
} SlStatDiff;

typedef struct {
  SlStatDiff max, min, mean, norm;
} SlStatsComparison;

#define SL_TYPE_TENSOR_PAIRING (sl_tensor_pairing_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorPairing, sl_tensor_pairing, SL, TENSOR_PAIRING, GObject)

/* @mapping may be %NULL. The pairing keeps both dumps alive. */
SlTensorPairing         *sl_tensor_pairing_new          (SlMsprobeDump          *npu,
                                                         SlMsprobeDump          *bench,
                                                         SlTensorPairingFlags    flags,
                                                         SlTensorMapping        *mapping);
SlMsprobeDump           *sl_tensor_pairing_get_npu      (SlTensorPairing        *self);
SlMsprobeDump           *sl_tensor_pairing_get_bench    (SlTensorPairing        *self);
guint                    sl_tensor_pairing_get_n_pairs  (SlTensorPairing        *self);
const SlTensorPair      *sl_tensor_pairing_get_pair     (SlTensorPairing        *self,
                                                         guint                   index);
guint                    sl_tensor_pairing_get_n_unmatched (SlTensorPairing     *self);
const SlTensorUnmatched *sl_tensor_pairing_get_unmatched (SlTensorPairing       *self,
                                                         guint                   index);

const char              *sl_tensor_side_to_string       (SlTensorSide            side);
/* A stable word for JSON: missing, shape, dtype_kind, argument_count. */
const char              *sl_unmatched_reason_to_string  (SlUnmatchedReason       reason);
/* The reason as a translated sentence. */
const char              *sl_unmatched_reason_describe   (SlUnmatchedReason       reason);

/* "float", "int", "bool", "complex", or NULL when the dtype is unknown;
 * torch.float16, Float16 and float16 are all "float". */
const char              *sl_tensor_dtype_kind           (const char             *dtype);

/* One statistic of both sides with its difference and relative difference. */
SlStatDiff               sl_stat_diff_make              (double                  npu,
                                                         double                  bench);
/* %FALSE when either side has no statistics. */
gboolean                 sl_tensor_pair_compare_stats   (const SlTensorPair     *pair,
                                                         SlStatsComparison      *out);
/* %FALSE when either side has no CRC; else sets @equal. */
gboolean                 sl_tensor_pair_compare_crc     (const SlTensorPair     *pair,
                                                         gboolean               *equal);

G_END_DECLS
