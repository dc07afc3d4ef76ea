/* sl-welcome-page.h: what the document area shows when nothing is open
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_WELCOME_PAGE (sl_welcome_page_get_type ())
G_DECLARE_FINAL_TYPE (SlWelcomePage, sl_welcome_page, SL, WELCOME_PAGE, GtkWidget)

GtkWidget *sl_welcome_page_new (void);

G_END_DECLS
