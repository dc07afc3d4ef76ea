/* sl-lineage-views.h: the Importance and Datasets views of the Lineage page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-lineage-table.h"

G_BEGIN_DECLS

GtkWidget *sl_lineage_label_new       (const char     *text,
                                       gboolean        heading);
guint      sl_lineage_fill_importance (GListStore     *store,
                                       SlLineageTable *table,
                                       gint            target,
                                       guint          *fewest);
gboolean   sl_lineage_fill_datasets   (GtkGrid        *grid,
                                       SlLineageTable *table,
                                       GPtrArray      *graphs_of_runs);

G_END_DECLS
