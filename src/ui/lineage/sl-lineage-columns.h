/* sl-lineage-columns.h: the columns of the Lineage table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-data-table.h"
#include "sl-lineage-table.h"

G_BEGIN_DECLS

/* Ids of the columns that are not the lineage table's (whose ids have a
 * "/" in them). */
#define SL_LINEAGE_COLUMN_RUN  "run"
#define SL_LINEAGE_COLUMN_NOTE "note"
#define SL_LINEAGE_COLUMN_TAGS "tags"

void sl_lineage_columns_append (SlDataTable    *data_table,
                                SlLineageTable *table);

G_END_DECLS
