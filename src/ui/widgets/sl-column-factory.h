/* sl-column-factory.h: list item factories for text columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Returns the text of a column for @item, newly allocated or NULL. */
typedef char *(*SlColumnTextFunc) (gpointer item);

GtkListItemFactory *sl_column_factory_new_label (SlColumnTextFunc text_func,
                                                 SlColumnTextFunc tooltip_func,
                                                 gboolean         numeric);
GtkListItemFactory *sl_column_factory_new_icon  (SlColumnTextFunc icon_name_func,
                                                 SlColumnTextFunc tooltip_func);

/* The label of one table cell: single line, right-aligned digits for
 * numbers; @ellipsize is PANGO_ELLIPSIZE_NONE for text that must never be
 * cut short. For factories that set up their own cells. */
GtkWidget          *sl_column_cell_label_new    (gboolean           numeric,
                                                 PangoEllipsizeMode ellipsize);

G_END_DECLS
