/* sl-lineage-column-item.h: a column of the Lineage table, to show or hide
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_LINEAGE_COLUMN_ITEM (sl_lineage_column_item_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageColumnItem, sl_lineage_column_item, SL, LINEAGE_COLUMN_ITEM, GObject)

SlLineageColumnItem *sl_lineage_column_item_new        (guint                column,
                                                        const char          *key,
                                                        const char          *heading,
                                                        gboolean             shown);
guint                sl_lineage_column_item_get_column (SlLineageColumnItem *self);
gboolean             sl_lineage_column_item_get_shown  (SlLineageColumnItem *self);
void                 sl_lineage_column_item_set_shown  (SlLineageColumnItem *self,
                                                        gboolean             shown);

G_END_DECLS
