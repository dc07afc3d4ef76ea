/* sl-widget-style.h: what custom-drawn widgets read from the style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sl_widget_get_foreground (GtkWidget *widget,
                               GdkRGBA   *color);

G_END_DECLS
