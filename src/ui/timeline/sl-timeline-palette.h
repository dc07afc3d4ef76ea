/* sl-timeline-palette.h: the timeline's colour mode, the duration
 * thresholds (a popover from the toolbar, kept in GSettings) and the
 * legend of the duration palette
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_PALETTE (sl_timeline_palette_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelinePalette, sl_timeline_palette, SL, TIMELINE_PALETTE, GtkWidget)

GtkWidget      *sl_timeline_palette_new             (void);
void            sl_timeline_palette_set_view        (SlTimelinePalette       *self,
                                                     SlTimelineView          *view);
SlTimelineView *sl_timeline_palette_get_view        (SlTimelinePalette       *self);
/* (nullable): the legend's text for @duration_class, NULL while the
 * legend is hidden (colour by name) */
const char     *sl_timeline_palette_get_legend_text (SlTimelinePalette       *self,
                                                     SlTimelineDurationClass  duration_class);
/* The popover's menu button, for tests and for focus. */
GtkMenuButton  *sl_timeline_palette_get_button      (SlTimelinePalette       *self);

G_END_DECLS
