/* sl-graph-node-menu.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-node-menu.h"

struct _SlGraphNodeMenu
{
  GObject    parent_instance;

  GtkWidget *owner;               /* unowned: it owns the menu */
  GtkWidget *popover;             /* a child of the parent */
  guint32    item;                /* the node the menu is open on, or SL_GRAPH_SCENE_NONE */
};

G_DEFINE_FINAL_TYPE (SlGraphNodeMenu, sl_graph_node_menu, G_TYPE_OBJECT)

static void
closed_cb (SlGraphNodeMenu *self)
{
  /* After the action ran: a later keyboard action uses the selection. */
  self->item = SL_GRAPH_SCENE_NONE;
}

void
sl_graph_node_menu_popup (SlGraphNodeMenu *self,
                          SlGraph         *graph,
                          SlGraphLayout   *layout,
                          SlGraphLinks    *links,
                          guint32          item,
                          double           x,
                          double           y)
{
  gboolean is_op, expandable;

  g_return_if_fail (SL_IS_GRAPH_NODE_MENU (self));
  g_return_if_fail (SL_IS_GRAPH (graph));
  g_return_if_fail (SL_IS_GRAPH_LAYOUT (layout));

  if (self->popover == NULL)
    return;
  self->item = item;
  is_op = sl_graph_item_get_kind (graph, item) == SL_GRAPH_ITEM_OP;
  expandable = sl_graph_layout_is_expandable (layout, item) && item != 0;
  gtk_widget_action_set_enabled (self->owner, "graph-page.toggle-node", expandable);
  gtk_widget_action_set_enabled (self->owner, "graph-page.show-in-profile",
                                 is_op && sl_graph_links_find (links, SL_GRAPH_LINK_PROFILE) != NULL);
  gtk_widget_action_set_enabled (self->owner, "graph-page.show-on-timeline",
                                 is_op && sl_graph_links_find (links, SL_GRAPH_LINK_TIMELINE) != NULL);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

guint32
sl_graph_node_menu_get_item (SlGraphNodeMenu *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_NODE_MENU (self), SL_GRAPH_SCENE_NONE);

  return self->item;
}

void
sl_graph_node_menu_destroy (SlGraphNodeMenu *self)
{
  g_return_if_fail (SL_IS_GRAPH_NODE_MENU (self));

  g_clear_pointer (&self->popover, gtk_widget_unparent);
  self->item = SL_GRAPH_SCENE_NONE;
}

static void
sl_graph_node_menu_dispose (GObject *object)
{
  sl_graph_node_menu_destroy (SL_GRAPH_NODE_MENU (object));

  G_OBJECT_CLASS (sl_graph_node_menu_parent_class)->dispose (object);
}

static void
sl_graph_node_menu_class_init (SlGraphNodeMenuClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_graph_node_menu_dispose;
}

static void
sl_graph_node_menu_init (SlGraphNodeMenu *self)
{
  self->item = SL_GRAPH_SCENE_NONE;
}

SlGraphNodeMenu *
sl_graph_node_menu_new (GtkWidget      *owner,
                        GtkWidget      *parent,
                        GtkPopoverMenu *popover)
{
  SlGraphNodeMenu *self;

  g_return_val_if_fail (GTK_IS_WIDGET (owner), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (parent), NULL);
  g_return_val_if_fail (GTK_IS_POPOVER_MENU (popover), NULL);
  g_return_val_if_fail (gtk_widget_get_parent (GTK_WIDGET (popover)) == NULL, NULL);

  self = g_object_new (SL_TYPE_GRAPH_NODE_MENU, NULL);
  self->owner = owner;
  self->popover = GTK_WIDGET (popover);
  gtk_widget_set_parent (self->popover, parent);
  g_signal_connect_object (self->popover, "closed", G_CALLBACK (closed_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  return self;
}
