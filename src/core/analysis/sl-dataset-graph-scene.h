/* sl-dataset-graph-scene.h: a dataset graph laid out as a graph scene
 *
 * One box per node (id = node index; label its op type, detail its
 * module's last part or "sampler"), one data edge from each child to its
 * parent, so the sources are at the top and the root at the bottom, as
 * data flows. Boxes listed in @marked (node indices, may be %NULL) get
 * SL_GRAPH_BOX_WARNING: a comparison uses it for the nodes whose
 * parameters differ between runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-dataset-graph.h"
#include "sl-graph-scene.h"

G_BEGIN_DECLS

/* Runs synchronously: call it on a worker. Returns %NULL with
 * G_IO_ERROR_CANCELLED when cancelled. */
SlGraphScene *sl_dataset_graph_scene_build (SlDatasetGraph *graph,
                                            GArray         *marked,
                                            GCancellable   *cancellable,
                                            GError        **error);

G_END_DECLS
