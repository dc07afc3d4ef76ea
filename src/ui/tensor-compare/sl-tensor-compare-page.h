/* sl-tensor-compare-page.h: where does the NPU run depart from its
 * benchmark? Two tensor dumps compared pair by pair
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-tensor-compare-report.h"
#include "sl-tensor-pair-pane.h"

G_BEGIN_DECLS

typedef enum {
  SL_TENSOR_COMPARE_SHOW_ALL,
  SL_TENSOR_COMPARE_SHOW_FAILURES,     /* warnings and errors */
  SL_TENSOR_COMPARE_SHOW_ERRORS,
} SlTensorCompareShow;

typedef enum {
  SL_TENSOR_COMPARE_EXPORT_CSV,
  SL_TENSOR_COMPARE_EXPORT_JSON,
} SlTensorCompareExport;

#define SL_TYPE_TENSOR_COMPARE_PAGE (sl_tensor_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorComparePage, sl_tensor_compare_page, SL, TENSOR_COMPARE_PAGE, SlDocument)

/* The document's address holds the NPU dump, then its benchmark (see
 * sl_document_address_new_pair()). */
const char            *sl_tensor_compare_page_get_npu_path   (SlTensorComparePage   *self);
const char            *sl_tensor_compare_page_get_bench_path (SlTensorComparePage   *self);
/* (nullable): the report, once loaded */
SlTensorCompareReport *sl_tensor_compare_page_get_report     (SlTensorComparePage   *self);
/* The pairs as listed (filtered and sorted), of SlTensorCompareRow. */
GListModel            *sl_tensor_compare_page_get_rows       (SlTensorComparePage   *self);
void                   sl_tensor_compare_page_set_show       (SlTensorComparePage   *self,
                                                              SlTensorCompareShow    show);
/* NULL for every API. */
void                   sl_tensor_compare_page_set_api        (SlTensorComparePage   *self,
                                                              const char            *api);
void                   sl_tensor_compare_page_set_module_filter (SlTensorComparePage *self,
                                                              const char            *text);
void                   sl_tensor_compare_page_set_search     (SlTensorComparePage   *self,
                                                              const char            *text);
/* Clears the filters that hide it, selects the first divergence (the
 * first warning when no pair is an error) and scrolls to it; FALSE when
 * no pair fails or warns. */
gboolean               sl_tensor_compare_page_show_first_divergence (SlTensorComparePage *self);
/* (nullable) */
SlTensorCompareRow    *sl_tensor_compare_page_get_selected   (SlTensorComparePage   *self);
void                   sl_tensor_compare_page_select         (SlTensorComparePage   *self,
                                                              guint                  position);
SlTensorPairPane      *sl_tensor_compare_page_get_pair_pane  (SlTensorComparePage   *self);
/* Judges again, as the thresholds popover's Apply does. */
void                   sl_tensor_compare_page_set_thresholds (SlTensorComparePage             *self,
                                                              const SlTensorCompareThresholds *thresholds,
                                                              gboolean                         dtype_aware);
gboolean               sl_tensor_compare_page_export         (SlTensorComparePage   *self,
                                                              SlTensorCompareExport  format,
                                                              const char            *path,
                                                              GError               **error);

G_END_DECLS
