/* sl-page-switcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-page-switcher.h"

typedef struct {
  GtkSelectionModel *pages;
  GtkDropDown       *drop_down;
  gboolean           syncing;
} Switcher;

static void
switcher_free (Switcher *switcher)
{
  g_signal_handlers_disconnect_by_data (switcher->pages, switcher);
  g_object_unref (switcher->pages);
  g_free (switcher);
}

static void
pages_selection_changed_cb (GtkSelectionModel *pages,
                            guint              position,
                            guint              n_items,
                            Switcher          *switcher)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (pages);

  if (switcher->syncing || gtk_bitset_is_empty (selected))
    return;
  switcher->syncing = TRUE;
  gtk_drop_down_set_selected (switcher->drop_down, gtk_bitset_get_minimum (selected));
  switcher->syncing = FALSE;
}

static void
drop_down_selected_cb (GtkDropDown *drop_down,
                       GParamSpec  *pspec,
                       Switcher    *switcher)
{
  guint selected = gtk_drop_down_get_selected (drop_down);

  if (switcher->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  switcher->syncing = TRUE;
  gtk_selection_model_select_item (switcher->pages, selected, TRUE);
  switcher->syncing = FALSE;
}

/* Puts @widget where @old is, in a box or a flow box's place. */
static void
replace_child (GtkWidget *old,
               GtkWidget *widget)
{
  GtkWidget *parent = gtk_widget_get_parent (old);

  if (GTK_IS_BOX (parent))
    {
      gtk_box_insert_child_after (GTK_BOX (parent), widget, old);
      gtk_box_remove (GTK_BOX (parent), old);
    }
  else if (GTK_IS_FLOW_BOX_CHILD (parent))
    gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (parent), widget);
  else
    g_return_if_reached ();
}

/**
 * sl_page_switcher_new_drop_down:
 * @pages: (transfer none): the stack's pages, as gtk_stack_get_pages() or
 *   adw_view_stack_get_pages() give them
 * @page_type: the type of their items, whose "title" names a page
 *
 * Returns: (transfer floating): a drop-down of the pages' titles that
 *   shows the page chosen, and follows the page shown
 */
GtkWidget *
sl_page_switcher_new_drop_down (GtkSelectionModel *pages,
                                GType              page_type)
{
  Switcher *data;

  g_return_val_if_fail (GTK_IS_SELECTION_MODEL (pages), NULL);

  data = g_new0 (Switcher, 1);
  data->pages = g_object_ref (pages);
  data->drop_down = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (pages)),
                                                      gtk_property_expression_new (page_type, NULL, "title")));
  gtk_widget_set_halign (GTK_WIDGET (data->drop_down), GTK_ALIGN_START);
  g_object_set_data_full (G_OBJECT (data->drop_down), "sl-page-switcher", data, (GDestroyNotify) switcher_free);
  g_signal_connect (pages, "selection-changed", G_CALLBACK (pages_selection_changed_cb), data);
  g_signal_connect (data->drop_down, "notify::selected", G_CALLBACK (drop_down_selected_cb), data);
  pages_selection_changed_cb (pages, 0, 0, data);
  return GTK_WIDGET (data->drop_down);
}

/**
 * sl_page_switcher_squeeze:
 * @switcher: a #GtkStackSwitcher or #AdwViewSwitcher, in a box or a flow
 *   box
 * @pages: (transfer none): the stack's pages, as gtk_stack_get_pages() or
 *   adw_view_stack_get_pages() give them
 * @page_type: the type of their items, whose "title" names a page
 *
 * Puts @switcher, in its place, in an #AdwSqueezer that shows it while
 * its buttons fit at their natural width and a drop-down of the same
 * pages otherwise, so a narrow window neither widens nor cuts the labels.
 *
 * Returns: (transfer none): the squeezer
 */
GtkWidget *
sl_page_switcher_squeeze (GtkWidget         *switcher,
                          GtkSelectionModel *pages,
                          GType              page_type)
{
  GtkWidget *squeezer;
  GtkWidget *drop_down;

  g_return_val_if_fail (GTK_IS_WIDGET (switcher), NULL);
  g_return_val_if_fail (GTK_IS_SELECTION_MODEL (pages), NULL);

  squeezer = adw_squeezer_new ();
  adw_squeezer_set_homogeneous (ADW_SQUEEZER (squeezer), FALSE);
  adw_squeezer_set_switch_threshold_policy (ADW_SQUEEZER (squeezer), ADW_FOLD_THRESHOLD_POLICY_NATURAL);
  adw_squeezer_set_transition_type (ADW_SQUEEZER (squeezer), ADW_SQUEEZER_TRANSITION_TYPE_NONE);
  adw_squeezer_set_xalign (ADW_SQUEEZER (squeezer), 0);
  gtk_widget_set_halign (squeezer, GTK_ALIGN_START);

  drop_down = sl_page_switcher_new_drop_down (pages, page_type);
  g_object_set_data (G_OBJECT (squeezer), "sl-page-switcher-drop-down", drop_down);

  g_object_ref (switcher);
  replace_child (switcher, squeezer);
  adw_squeezer_add (ADW_SQUEEZER (squeezer), switcher);
  adw_squeezer_add (ADW_SQUEEZER (squeezer), drop_down);
  g_object_unref (switcher);
  return squeezer;
}

/**
 * sl_page_switcher_get_drop_down:
 *
 * Returns: (transfer none): the drop-down a squeezer made by
 *   sl_page_switcher_squeeze() shows when its switcher does not fit
 */
GtkWidget *
sl_page_switcher_get_drop_down (GtkWidget *squeezer)
{
  GtkWidget *drop_down = g_object_get_data (G_OBJECT (squeezer), "sl-page-switcher-drop-down");

  g_return_val_if_fail (drop_down != NULL, NULL);
  return drop_down;
}
