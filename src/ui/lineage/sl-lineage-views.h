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
void       sl_lineage_clear_box       (GtkBox         *box);
guint      sl_lineage_fill_importance (GListStore     *store,
                                       SlLineageTable *table,
                                       gint            target,
                                       guint          *fewest);
void       sl_lineage_fill_datasets   (GtkBox         *box,
                                       SlLineageTable *table,
                                       GPtrArray      *graphs_of_runs,
                                       const char     *path);

G_END_DECLS
