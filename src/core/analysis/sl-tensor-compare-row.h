/* sl-tensor-compare-row.h: one matched pair of a tensor comparison report
 *
 * A row knows the pair's names, where it sits in the model (module path
 * and stack), its dtypes and shapes, and the outcome: the metrics of both
 * tensors' elements (DATA), the difference of their statistics (STATS)
 * or whether their CRCs agree (CRC), with a verdict and why. It keeps no
 * tensor data; load_data maps the files again for detail views.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-compare.h"
#include "sl-tensor-pairing.h"

G_BEGIN_DECLS

typedef enum {
  SL_TENSOR_COMPARE_MODE_DATA,    /* both tensors' elements compared */
  SL_TENSOR_COMPARE_MODE_STATS,   /* statistics-only dumps: max, min, mean, norm */
  SL_TENSOR_COMPARE_MODE_CRC,     /* CRC dumps: equal or not */
} SlTensorCompareMode;

/* msprobe's summary mode: a statistic whose relative difference exceeds
 * this is worth a second look. */
#define SL_TENSOR_STATS_RELATIVE_WARNING 0.5

#define SL_TYPE_TENSOR_COMPARE_ROW (sl_tensor_compare_row_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorCompareRow, sl_tensor_compare_row, SL, TENSOR_COMPARE_ROW, GObject)

/* What the report knows of a pair before comparing it; the row copies it. */
typedef struct {
  const char          *name;
  const char          *bench_name;     /* NULL: the same as name */
  const char          *api;
  const char          *module_path;
  const char          *stack;
  /* msprobe's API call the tensor belongs to ("Functional.relu.0.forward")
   * and whether it is an input, output or parameter of it; NULL outside
   * msprobe dumps. */
  const char          *call;
  SlMsprobeIo          io;
  guint                order;
  SlTensorCompareMode  mode;
  const char          *npu_dtype;
  const char          *bench_dtype;
  const guint64       *npu_shape;
  guint                npu_n_dims;
  const guint64       *bench_shape;
  guint                bench_n_dims;
  const char          *npu_file;
  const char          *bench_file;
  const char          *npu_md5;
  const char          *bench_md5;
  const SlStatsComparison *stats;      /* STATS mode */
  gint64               npu_bytes;      /* of the data files, for progress; -1 unknown */
  gint64               bench_bytes;
  int                  npu_requires_grad;   /* -1 when not recorded */
  int                  bench_requires_grad;
} SlTensorCompareRowInit;

SlTensorCompareRow        *sl_tensor_compare_row_new             (const SlTensorCompareRowInit *init);

const char                *sl_tensor_compare_row_get_name        (SlTensorCompareRow *self); /* msprobe key, or the relative path of .npy files */
const char                *sl_tensor_compare_row_get_bench_name  (SlTensorCompareRow *self); /* the benchmark side's key */
const char                *sl_tensor_compare_row_get_api         (SlTensorCompareRow *self); /* "Functional.relu", MindSpore op type, or NULL */
const char                *sl_tensor_compare_row_get_module_path (SlTensorCompareRow *self); /* from construct.json, or NULL */
const char                *sl_tensor_compare_row_get_stack       (SlTensorCompareRow *self); /* from stack.json, or NULL */
const char                *sl_tensor_compare_row_get_call        (SlTensorCompareRow *self); /* "Functional.relu.0.forward", or NULL */
SlMsprobeIo                sl_tensor_compare_row_get_io          (SlTensorCompareRow *self); /* meaningful when there is a call */
guint                      sl_tensor_compare_row_get_order       (SlTensorCompareRow *self); /* execution order, 0-based */
SlTensorCompareMode        sl_tensor_compare_row_get_mode        (SlTensorCompareRow *self);
const char                *sl_tensor_compare_row_get_npu_dtype   (SlTensorCompareRow *self);
const char                *sl_tensor_compare_row_get_bench_dtype (SlTensorCompareRow *self);
const guint64             *sl_tensor_compare_row_get_npu_shape   (SlTensorCompareRow *self, guint *n_dims);
const guint64             *sl_tensor_compare_row_get_bench_shape (SlTensorCompareRow *self, guint *n_dims);
char                      *sl_tensor_compare_row_dup_shape_text  (SlTensorCompareRow *self, SlTensorSide side); /* "[2, 3]" */
const SlTensorComparison  *sl_tensor_compare_row_get_metrics     (SlTensorCompareRow *self); /* DATA mode, else NULL */
const SlStatsComparison   *sl_tensor_compare_row_get_stats       (SlTensorCompareRow *self); /* STATS mode, else NULL */
/* Max, min, mean and norm of both sides in any mode: as the dump recorded
 * them, or as read from the data; NULL when neither has them. */
const SlStatsComparison   *sl_tensor_compare_row_get_summary     (SlTensorCompareRow *self);
gboolean                   sl_tensor_compare_row_get_crc_equal   (SlTensorCompareRow *self); /* CRC mode */
const char                *sl_tensor_compare_row_get_npu_crc     (SlTensorCompareRow *self); /* CRC mode, else NULL */
const char                *sl_tensor_compare_row_get_bench_crc   (SlTensorCompareRow *self);
SlTensorVerdict            sl_tensor_compare_row_get_verdict     (SlTensorCompareRow *self);
const char                *sl_tensor_compare_row_get_reason      (SlTensorCompareRow *self); /* translated: why this verdict, which threshold; for the hover */
const char                *sl_tensor_compare_row_get_npu_file    (SlTensorCompareRow *self); /* the .npy/.pt holding the data, or NULL */
const char                *sl_tensor_compare_row_get_bench_file  (SlTensorCompareRow *self);
/* TRUE when the data could not be read: the verdict is an error and the
 * reason names the file. */
gboolean                   sl_tensor_compare_row_get_failed      (SlTensorCompareRow *self);
/* The file that could not be read, or NULL. */
const char                *sl_tensor_compare_row_get_failed_file (SlTensorCompareRow *self);
/* Where the file that could not be read is damaged, or -1; and what is
 * wrong there, without the file and the offset the reason names, or NULL. */
gint64                     sl_tensor_compare_row_get_failed_offset (SlTensorCompareRow *self);
const char                *sl_tensor_compare_row_get_failed_damage (SlTensorCompareRow *self);
/* Bytes of both data files, for progress. */
guint64                    sl_tensor_compare_row_get_data_bytes  (SlTensorCompareRow *self);

/* Loads the pair's data (npy or pt, memory-mapped) for detail views; NULL + error if unreadable. */
gboolean                   sl_tensor_compare_row_load_data       (SlTensorCompareRow *self,
                                                                  SlTensorData       *npu,   /* filled; valid while *keep lives */
                                                                  SlTensorData       *bench,
                                                                  GObject           **keep,  /* owns the mappings */
                                                                  GCancellable       *cancellable,
                                                                  GError            **error);

/* For the report: computes the outcome (reads the data in DATA mode),
 * judges it again with other thresholds, or records why it failed. */
void                       sl_tensor_compare_row_compute         (SlTensorCompareRow           *self,
                                                                  const SlTensorCompareOptions *options,
                                                                  GCancellable                 *cancellable);
void                       sl_tensor_compare_row_judge           (SlTensorCompareRow           *self,
                                                                  const SlTensorCompareOptions *options);
void                       sl_tensor_compare_row_fail            (SlTensorCompareRow           *self,
                                                                  const char                   *reason);
/* For rules that look past one pair: makes the verdict at least @verdict.
 * @reason goes first when it raises the verdict, after the row's own
 * reason when it is as bad, and nowhere when it is milder. */
void                       sl_tensor_compare_row_raise_verdict   (SlTensorCompareRow           *self,
                                                                  SlTensorVerdict               verdict,
                                                                  const char                   *reason);

/* A file holding one tensor (.npy, or a .pt written by torch.save) as
 * the comparison reads it; the mappings are attached to @keep. */
gboolean                   sl_tensor_data_load_file              (const char                   *path,
                                                                  SlTensorData                 *out,
                                                                  GObject                      *keep,
                                                                  GError                      **error);

const char                *sl_tensor_compare_mode_to_string      (SlTensorCompareMode           mode);

G_END_DECLS
