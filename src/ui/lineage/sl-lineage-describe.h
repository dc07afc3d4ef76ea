/* sl-lineage-describe.h: what the Lineage page says about its runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-description.h"
#include "sl-lineage-table.h"

G_BEGIN_DECLS

GPtrArray *sl_lineage_dup_run_labels (SlLineageTable *table,
                                      const char     *folder);
void       sl_lineage_describe_run   (SlLineageTable *table,
                                      guint           selected,
                                      SlDescription  *details);

G_END_DECLS
