/* sl-graph-node-menu.h: the graph page's menu of a node
 *
 * A right-click on a node opens the menu on it: expand or collapse, copy
 * its name, show it in the op statistics or on the timeline of the same
 * job, each enabled when it applies to that node. The menu's items are
 * its owner's actions (graph-page.*), which act on the node the menu is
 * open on (sl_graph_node_menu_get_item()) and, once it has closed, on
 * the owner's selection. Each page has its own menu and its own node.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-graph-layout.h"
#include "sl-graph-links.h"

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_NODE_MENU (sl_graph_node_menu_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphNodeMenu, sl_graph_node_menu, SL, GRAPH_NODE_MENU, GObject)

/* @owner (unowned: it owns the menu) has the actions @popover's menu
 * names; the menu points into @parent, one of its children. */
SlGraphNodeMenu *sl_graph_node_menu_new      (GtkWidget       *owner,
                                              GtkWidget       *parent,
                                              GtkPopoverMenu  *popover);
/* Opens the menu on @item of @graph at (@x, @y) in the parent. */
void             sl_graph_node_menu_popup    (SlGraphNodeMenu *self,
                                              SlGraph         *graph,
                                              SlGraphLayout   *layout,
                                              SlGraphLinks    *links,
                                              guint32          item,
                                              double           x,
                                              double           y);
/* The node the menu is open on, or SL_GRAPH_SCENE_NONE once it closed. */
guint32          sl_graph_node_menu_get_item (SlGraphNodeMenu *self);
/* Takes the menu out of its parent (the owner's dispose calls it). */
void             sl_graph_node_menu_destroy  (SlGraphNodeMenu *self);

G_END_DECLS
