/* sl-details-panel.h: properties of the current selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

#include "sl-document.h"

G_BEGIN_DECLS

typedef void (*SlDetailsLinkFunc) (gpointer data);
/* Called with the object the link was made for, while it lives. */
typedef void (*SlDetailsObjectLinkFunc) (GObject *object,
                                         guint64  target);

#define SL_TYPE_DETAILS_PANEL (sl_details_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlDetailsPanel, sl_details_panel, SL, DETAILS_PANEL, PanelWidget)

GtkWidget  *sl_details_panel_new        (void);
/* The document whose selection Details follows: the one in front. */
void        sl_details_panel_set_document (SlDetailsPanel *self,
                                           SlDocument     *document);
SlDocument *sl_details_panel_get_document (SlDetailsPanel *self);
void        sl_details_panel_show_description (SlDetailsPanel *self,
                                               SlDescription  *description);
void        sl_details_panel_show       (SlDetailsPanel *self,
                                         GObject        *item);
void        sl_details_panel_show_rows  (SlDetailsPanel     *self,
                                         GObject            *item,
                                         const char         *icon_name,
                                         const char         *title,
                                         const char * const *rows);
void        sl_details_panel_add_rows   (SlDetailsPanel     *self,
                                         const char * const *rows);
void        sl_details_panel_add_link_row (SlDetailsPanel    *self,
                                           const char        *key,
                                           const char        *value,
                                           SlDetailsLinkFunc  func,
                                           gpointer           data,
                                           GDestroyNotify     destroy);
void        sl_details_panel_add_object_link (SlDetailsPanel          *self,
                                              const char              *key,
                                              const char              *value,
                                              GObject                 *object,
                                              SlDetailsObjectLinkFunc  func,
                                              guint64                  target);
void        sl_details_panel_add_widget_row (SlDetailsPanel *self,
                                             const char     *key,
                                             GtkWidget      *widget);
GObject    *sl_details_panel_get_item   (SlDetailsPanel *self);
GtkWidget  *sl_details_panel_get_value_widget (SlDetailsPanel *self,
                                               const char     *key);
const char *sl_details_panel_lookup     (SlDetailsPanel *self,
                                         const char     *key);

G_END_DECLS
