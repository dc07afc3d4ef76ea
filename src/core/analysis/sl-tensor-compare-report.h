/* sl-tensor-compare-report.h: a whole tensor comparison of two runs
 *
 * Pairs the tensors of an NPU run with those of its benchmark (two .npy
 * files, two .pt files, two folders of .npy files matched by relative
 * path or by MindSpore dump name, or two msprobe dumps), compares every
 * pair on a small pool of workers, and keeps the rows in execution order
 * with the unmatched tensors, the first divergence and the problems
 * found on the way. The JSON and CSV writers are the ones the CLI uses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-compare-row.h"
#include "sl-tensor-mapping.h"

G_BEGIN_DECLS

typedef struct {
  char              *name;
  SlTensorSide       side;
  SlUnmatchedReason  reason;
  char              *reason_text;   /* translated sentence */
} SlTensorCompareUnmatched;

/* What the two paths turned out to be. */
typedef enum {
  SL_TENSOR_COMPARE_INPUT_UNKNOWN,
  SL_TENSOR_COMPARE_INPUT_FILES,        /* two .npy or .pt files */
  SL_TENSOR_COMPARE_INPUT_NPY_FOLDERS,  /* matched by relative path */
  SL_TENSOR_COMPARE_INPUT_MINDSPORE,    /* MindSpore dump names, by op name and index */
  SL_TENSOR_COMPARE_INPUT_MSPROBE,      /* two msprobe dumps */
} SlTensorCompareInput;

#define SL_TYPE_TENSOR_COMPARE_REPORT (sl_tensor_compare_report_get_type ())
/* The whole comparison; a GListModel of SlTensorCompareRow in execution order. */
G_DECLARE_FINAL_TYPE (SlTensorCompareReport, sl_tensor_compare_report, SL, TENSOR_COMPARE_REPORT, GObject)

/* NPU and BENCH: two .npy files, two folders of .npy (matched by relative
 * path; MindSpore dump names matched by op name and index), two .pt files,
 * or two msprobe dump folders (a step/rank folder or the folder holding
 * dump.json). @options and @mapping may be NULL. */
SlTensorCompareReport *sl_tensor_compare_report_new        (const char                   *npu_path,
                                                            const char                   *bench_path,
                                                            const SlTensorCompareOptions *options,
                                                            SlTensorPairingFlags          flags,
                                                            SlTensorMapping              *mapping);
/* Runs on the calling thread (the CLI, workers); progress is the "progress"
 * property (0..1), notified from the thread-default main context of whoever
 * called load_async. FALSE + error when an input cannot be read at all or
 * when cancelled; damage within an input is in the problems. */
gboolean               sl_tensor_compare_report_load       (SlTensorCompareReport *self,
                                                            GCancellable          *cancellable,
                                                            GError               **error);
void                   sl_tensor_compare_report_load_async (SlTensorCompareReport *self,
                                                            GCancellable          *cancellable,
                                                            GAsyncReadyCallback    callback,
                                                            gpointer               user_data);
gboolean               sl_tensor_compare_report_load_finish (SlTensorCompareReport *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);
double                 sl_tensor_compare_report_get_progress   (SlTensorCompareReport *self);
const char            *sl_tensor_compare_report_get_npu_path   (SlTensorCompareReport *self);
const char            *sl_tensor_compare_report_get_bench_path (SlTensorCompareReport *self);
SlTensorCompareInput   sl_tensor_compare_report_get_input      (SlTensorCompareReport *self);
/* DATA, STATS or CRC: what most rows are (msprobe's task), for the CSV columns. */
SlTensorCompareMode    sl_tensor_compare_report_get_mode       (SlTensorCompareReport *self);
guint                  sl_tensor_compare_report_get_n_rows     (SlTensorCompareReport *self);
SlTensorCompareRow    *sl_tensor_compare_report_get_row        (SlTensorCompareReport *self,
                                                                guint                  index);
guint                  sl_tensor_compare_report_get_n_unmatched (SlTensorCompareReport *self);
const SlTensorCompareUnmatched *sl_tensor_compare_report_get_unmatched (SlTensorCompareReport *self,
                                                                        guint                  index);
/* First error in execution order, or NULL. */
SlTensorCompareRow    *sl_tensor_compare_report_get_first_divergence (SlTensorCompareReport *self);
guint                  sl_tensor_compare_report_count_verdict (SlTensorCompareReport *self,
                                                               SlTensorVerdict        verdict);
/* First warning in execution order, or NULL. */
SlTensorCompareRow    *sl_tensor_compare_report_get_first_warning (SlTensorCompareReport *self);
/* How many tensors @side has: the compared ones and its unmatched ones. */
guint                  sl_tensor_compare_report_count_side_tensors (SlTensorCompareReport *self,
                                                                    SlTensorSide           side);
guint                  sl_tensor_compare_report_count_side_unmatched (SlTensorCompareReport *self,
                                                                      SlTensorSide           side);
/* What was compared of what there was, translated: "4 of 32 NPU tensors
 * compared; 28 unmatched, and 35 of 39 benchmark tensors". */
char                  *sl_tensor_compare_report_dup_coverage (SlTensorCompareReport *self);
/* The verdict over the pairs, translated: the first error, else the
 * first warning, else that no compared pair fails (saying so when a
 * tensor went unmatched). */
char                  *sl_tensor_compare_report_dup_verdict (SlTensorCompareReport *self);
/* The verdict and, when anything was compared, the coverage. */
char                  *sl_tensor_compare_report_dup_headline (SlTensorCompareReport *self);
/* SlProblem: unreadable files, damaged dump.json, ... with file and reason. */
GPtrArray             *sl_tensor_compare_report_get_problems (SlTensorCompareReport *self);
/* Judges every row again with new thresholds (no data re-read); emits items-changed. */
void                   sl_tensor_compare_report_set_thresholds (SlTensorCompareReport           *self,
                                                                const SlTensorCompareThresholds *thresholds,
                                                                gboolean                         dtype_aware);
/* Exports shared by the CLI and the GUI so both write the same keys and columns. */
gboolean               sl_tensor_compare_report_write_json (SlTensorCompareReport *self,
                                                            GOutputStream         *out,
                                                            GCancellable          *cancellable,
                                                            GError               **error);
/* msprobe's column names for the report's mode. */
gboolean               sl_tensor_compare_report_write_csv  (SlTensorCompareReport *self,
                                                            GOutputStream         *out,
                                                            GCancellable          *cancellable,
                                                            GError               **error);

G_END_DECLS
