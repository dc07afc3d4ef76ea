/* sl-page-switcher.h: a stack's switcher that becomes a drop-down of its
 * pages when the window is too narrow for its buttons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

GtkWidget *sl_page_switcher_new_drop_down (GtkSelectionModel *pages,
                                           GType              page_type);
GtkWidget *sl_page_switcher_squeeze (GtkWidget         *switcher,
                                     GtkSelectionModel *pages,
                                     GType              page_type);
GtkWidget *sl_page_switcher_get_drop_down (GtkWidget   *squeezer);

G_END_DECLS
