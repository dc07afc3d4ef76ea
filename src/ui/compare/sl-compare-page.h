/* sl-compare-page.h: is the new run faster, and where? Two profiles side
 * by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-profile-compare.h"

G_BEGIN_DECLS

#define SL_TYPE_COMPARE_PAGE (sl_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (SlComparePage, sl_compare_page, SL, COMPARE_PAGE, SlDocument)

/* The document's address holds the baseline, then the comparison (see
 * sl_document_address_new_pair()); an address of one path is a
 * comparison whose baseline is the first other profile in the workspace. */
const char             *sl_compare_page_get_base        (SlComparePage *self);
const char             *sl_compare_page_get_comparison  (SlComparePage *self);
/* Compares @comparison against @base, reading both again. */
void                    sl_compare_page_set_profiles    (SlComparePage *self,
                                                         const char    *base,
                                                         const char    *comparison);
void                    sl_compare_page_swap            (SlComparePage *self);
/* (nullable): the comparison shown, once ready */
const SlProfileCompare *sl_compare_page_get_result      (SlComparePage *self);
/* The op-type or kernel table as shown (filtered and sorted), of
 * SlCompareEntry. */
GListModel             *sl_compare_page_get_ops_model   (SlComparePage *self);
void                    sl_compare_page_show_kernels    (SlComparePage *self,
                                                         gboolean       kernels);
void                    sl_compare_page_export_csv_async  (SlComparePage       *self,
                                                           GFile               *file,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean                sl_compare_page_export_csv_finish (SlComparePage       *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
/* The export with progress and Cancel under the toolbar, and a toast. */
void                    sl_compare_page_save_csv          (SlComparePage       *self,
                                                           GFile               *file);
gboolean                sl_compare_page_is_exporting      (SlComparePage       *self);
void                    sl_compare_page_cancel_export     (SlComparePage       *self);
double                  sl_compare_page_get_export_fraction (SlComparePage     *self);

/* The side's (0 the baseline) Operators page at its first op of @type. */
gboolean                sl_compare_page_show_ops        (SlComparePage *self,
                                                         guint          side,
                                                         const char    *type,
                                                         const char    *shapes);
void                    sl_compare_page_choose_ranks    (SlComparePage *self,
                                                         guint          base_rank,
                                                         guint          comparison_rank);

G_END_DECLS
