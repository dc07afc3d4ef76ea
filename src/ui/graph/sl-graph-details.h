/* sl-graph-details.h: what Details and the tooltips say about a node
 *
 * Details lists the selected item of a graph (the graph itself when
 * nothing is selected) with its neighbours as links that call @reveal on
 * @owner; the tooltip is a short markup summary of one item.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-description.h"
#include "sl-graph-layout.h"

G_BEGIN_DECLS

gboolean sl_graph_details_describe    (SlDescription         *details,
                                       SlGraph               *graph,
                                       SlGraphLayout         *layout,
                                       guint                  selected,
                                       GObject               *owner,
                                       SlDescriptionLinkFunc  reveal);
char    *sl_graph_details_dup_tooltip (SlGraph               *graph,
                                       SlGraphLayout         *layout,
                                       guint32                id);

G_END_DECLS
