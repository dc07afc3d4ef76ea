/* sl-tooltip.h: tooltips that wrap at a readable width
 *
 * GTK's own tooltip label wraps at word boundaries only, so an op name or
 * a path with no space in it makes a tooltip as wide as itself, past the
 * edge of the screen. These tooltips are a label that wraps at words and,
 * where a word is too long, between characters, at most
 * SL_TOOLTIP_MAX_WIDTH_CHARS wide, without hyphens.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TOOLTIP_MAX_WIDTH_CHARS 60
/* A run of more characters than this without a space is wrapped between
 * characters from the start: looking for word breaks in it is slow. */
#define SL_LABEL_LONG_WORD 80

GtkWidget *sl_tooltip_label_new        (void);
void       sl_tooltip_set_text         (GtkTooltip *tooltip,
                                        const char *text);
void       sl_tooltip_set_markup       (GtkTooltip *tooltip,
                                        const char *markup);
GtkLabel  *sl_tooltip_get_label        (GtkTooltip *tooltip);
void       sl_widget_set_long_tooltip  (GtkWidget  *widget,
                                        const char *text);
const char *sl_widget_get_long_tooltip (GtkWidget  *widget);
void       sl_label_set_no_hyphens     (GtkLabel   *label);
void       sl_widget_set_no_hyphens    (GtkWidget  *widget);
void       sl_label_set_wrap_for_text  (GtkLabel   *label);

G_END_DECLS
