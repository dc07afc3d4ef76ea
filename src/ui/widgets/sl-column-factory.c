/* sl-column-factory.c
 *
 * Cells are plain labels that ellipsize and show the whole text in a
 * tooltip: a long op or file name is never cut off without a way to read it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-column-factory.h"
#include "sl-tooltip.h"

typedef struct {
  SlColumnTextFunc text_func;
  SlColumnTextFunc tooltip_func;
  gboolean         numeric;
} ColumnFuncs;

GtkWidget *
sl_column_cell_label_new (gboolean           numeric,
                          PangoEllipsizeMode ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static void
setup_label_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                ColumnFuncs              *funcs)
{
  gtk_list_item_set_child (list_item, sl_column_cell_label_new (funcs->numeric, PANGO_ELLIPSIZE_END));
}

static void
bind_label_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               ColumnFuncs              *funcs)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  gpointer item = gtk_list_item_get_item (list_item);
  g_autofree char *text = funcs->text_func (item);
  g_autofree char *tooltip = funcs->tooltip_func ? funcs->tooltip_func (item) : NULL;

  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  sl_widget_set_long_tooltip (label, tooltip ? tooltip : text);
}

static void
setup_icon_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               ColumnFuncs              *funcs)
{
  gtk_list_item_set_child (list_item, gtk_image_new ());
}

static void
bind_icon_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              ColumnFuncs              *funcs)
{
  GtkWidget *image = gtk_list_item_get_child (list_item);
  gpointer item = gtk_list_item_get_item (list_item);
  g_autofree char *icon_name = funcs->text_func (item);
  g_autofree char *tooltip = funcs->tooltip_func ? funcs->tooltip_func (item) : NULL;

  gtk_image_set_from_icon_name (GTK_IMAGE (image), icon_name);
  gtk_widget_set_tooltip_text (image, tooltip);
}

static GtkListItemFactory *
new_factory (SlColumnTextFunc text_func,
             SlColumnTextFunc tooltip_func,
             gboolean         numeric,
             GCallback        setup,
             GCallback        bind)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  ColumnFuncs *funcs = g_new0 (ColumnFuncs, 1);

  funcs->text_func = text_func;
  funcs->tooltip_func = tooltip_func;
  funcs->numeric = numeric;

  g_object_set_data_full (G_OBJECT (factory), "sl-column-funcs", funcs, g_free);
  g_signal_connect (factory, "setup", setup, funcs);
  g_signal_connect (factory, "bind", bind, funcs);

  return factory;
}

/**
 * sl_column_factory_new_label:
 * @tooltip_func: (nullable): the tooltip; the full text when %NULL
 * @numeric: right-align with tabular figures
 *
 * Returns: (transfer full): a factory of ellipsizing labels
 */
GtkListItemFactory *
sl_column_factory_new_label (SlColumnTextFunc text_func,
                             SlColumnTextFunc tooltip_func,
                             gboolean         numeric)
{
  g_return_val_if_fail (text_func != NULL, NULL);

  return new_factory (text_func, tooltip_func, numeric,
                      G_CALLBACK (setup_label_cb), G_CALLBACK (bind_label_cb));
}

/**
 * sl_column_factory_new_icon:
 *
 * Returns: (transfer full): a factory of icons named by @icon_name_func
 */
GtkListItemFactory *
sl_column_factory_new_icon (SlColumnTextFunc icon_name_func,
                            SlColumnTextFunc tooltip_func)
{
  g_return_val_if_fail (icon_name_func != NULL, NULL);

  return new_factory (icon_name_func, tooltip_func, FALSE,
                      G_CALLBACK (setup_icon_cb), G_CALLBACK (bind_icon_cb));
}
