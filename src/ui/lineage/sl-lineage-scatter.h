/* sl-lineage-scatter.h: one column of the runs against another
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-lineage-table.h"

G_BEGIN_DECLS

#define SL_TYPE_LINEAGE_SCATTER (sl_lineage_scatter_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageScatter, sl_lineage_scatter, SL, LINEAGE_SCATTER, GtkWidget)

GtkWidget *sl_lineage_scatter_new          (void);
void       sl_lineage_scatter_set_columns  (SlLineageScatter *self,
                                            SlLineageTable   *table,
                                            gint              x_column,
                                            gint              y_column);
void       sl_lineage_scatter_set_selected (SlLineageScatter *self,
                                            gint              run);
/* @marked: (nullable): one flag a run, the runs drawn emphasised */
void       sl_lineage_scatter_set_marked   (SlLineageScatter *self,
                                            GArray           *marked);
guint      sl_lineage_scatter_get_n_points (SlLineageScatter *self);

G_END_DECLS
