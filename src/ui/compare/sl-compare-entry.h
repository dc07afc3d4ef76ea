/* sl-compare-entry.h: one row of a comparison table (a breakdown item, an
 * op type or a kernel), for the comparison page's list models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-profile-compare.h"

G_BEGIN_DECLS

#define SL_TYPE_COMPARE_ENTRY (sl_compare_entry_get_type ())
G_DECLARE_FINAL_TYPE (SlCompareEntry, sl_compare_entry, SL, COMPARE_ENTRY, GObject)

/* @result is shared by every entry of one comparison: a g_rc_box holding
 * an SlProfileCompare pointer, released with the last entry. */
SlProfileCompare          **sl_compare_result_new      (SlProfileCompare  *result);
SlProfileCompare          **sl_compare_result_acquire  (SlProfileCompare **result);
void                        sl_compare_result_release  (SlProfileCompare **result);

SlCompareEntry             *sl_compare_entry_new_item  (SlProfileCompare **result,
                                                        guint              index);
SlCompareEntry             *sl_compare_entry_new_row   (SlProfileCompare **result,
                                                        const SlProfileCompareRow *row);
/* NULL for a row entry. */
const SlProfileCompareItem *sl_compare_entry_get_item  (SlCompareEntry    *self);
/* NULL for an item entry. */
const SlProfileCompareRow  *sl_compare_entry_get_row   (SlCompareEntry    *self);
/* The item's label, the op type, or the kernel's type and shapes. */
char                       *sl_compare_entry_dup_name  (SlCompareEntry    *self);
gint64                      sl_compare_entry_get_base_ns       (SlCompareEntry *self);
gint64                      sl_compare_entry_get_comparison_ns (SlCompareEntry *self);
gint64                      sl_compare_entry_get_diff_ns       (SlCompareEntry *self);
double                      sl_compare_entry_get_ratio         (SlCompareEntry *self);

G_END_DECLS
