/* sl-lineage-importance-item.h: a parameter's correlation with the target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_LINEAGE_IMPORTANCE_ITEM (sl_lineage_importance_item_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageImportanceItem, sl_lineage_importance_item, SL, LINEAGE_IMPORTANCE_ITEM, GObject)

SlLineageImportanceItem *sl_lineage_importance_item_new (const char *name,
                                                         double      pearson,
                                                         double      spearman,
                                                         guint       n_runs);

G_END_DECLS
