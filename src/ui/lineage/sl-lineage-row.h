/* sl-lineage-row.h: a run as the Lineage table shows it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-lineage-table.h"

G_BEGIN_DECLS

#define SL_TYPE_LINEAGE_ROW (sl_lineage_row_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageRow, sl_lineage_row, SL, LINEAGE_ROW, GObject)

SlLineageRow   *sl_lineage_row_new        (SlLineageTable *table,
                                           guint           run,
                                           const char     *label,
                                           const char     *note,
                                           const char     *tags,
                                           gboolean        marked);
SlLineageTable *sl_lineage_row_get_table  (SlLineageRow   *self);
guint           sl_lineage_row_get_run    (SlLineageRow   *self);
const char     *sl_lineage_row_get_path   (SlLineageRow   *self);
const char     *sl_lineage_row_get_label  (SlLineageRow   *self);
const char     *sl_lineage_row_get_note   (SlLineageRow   *self);
const char     *sl_lineage_row_get_tags   (SlLineageRow   *self);
gboolean        sl_lineage_row_is_marked  (SlLineageRow   *self);

G_END_DECLS
