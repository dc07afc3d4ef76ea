/* sl-widget-style.c
 *
 * GTK 4.10 added gtk_widget_get_color(); 4.8, which Debian 12 has, only
 * has the style context, deprecated later. One place keeps both working.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-widget-style.h"

/**
 * sl_widget_get_foreground:
 * @color: (out): the text colour of @widget, following light and dark style
 */
void
sl_widget_get_foreground (GtkWidget *widget,
                          GdkRGBA   *color)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (color != NULL);

#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, color);
#else
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
#endif
}
