/* sl-details-panel.h: properties of the current selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

G_BEGIN_DECLS

#define SL_TYPE_DETAILS_PANEL (sl_details_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlDetailsPanel, sl_details_panel, SL, DETAILS_PANEL, PanelWidget)

GtkWidget  *sl_details_panel_new        (void);
void        sl_details_panel_show       (SlDetailsPanel *self,
                                         GObject        *item);
GObject    *sl_details_panel_get_item   (SlDetailsPanel *self);
const char *sl_details_panel_lookup     (SlDetailsPanel *self,
                                         const char     *key);

G_END_DECLS
