/* sl-dataset-graph-page.h: the dataset pipelines of training runs, side
 * by side, with the parameters that differ between runs marked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-dataset-graph.h"
#include "sl-document.h"
#include "sl-graph-canvas.h"

G_BEGIN_DECLS

#define SL_TYPE_DATASET_GRAPH_PAGE (sl_dataset_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (SlDatasetGraphPage, sl_dataset_graph_page, SL, DATASET_GRAPH_PAGE, SlDocument)

guint           sl_dataset_graph_page_get_n_runs   (SlDatasetGraphPage *self);
SlDatasetGraph *sl_dataset_graph_page_get_graph    (SlDatasetGraphPage *self,
                                                    guint               run);
SlGraphCanvas  *sl_dataset_graph_page_get_canvas   (SlDatasetGraphPage *self,
                                                    guint               run);
/* Selects a node of one run (and the node at its place in the others). */
void            sl_dataset_graph_page_select       (SlDatasetGraphPage *self,
                                                    guint               run,
                                                    guint               node);

G_END_DECLS
