/* sl-workspace-row.h: what one row of the Workspace panel shows of its
 * item (a section, folder, finding, target, job or recent folder)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_WORKSPACE_ROW (sl_workspace_row_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspaceRow, sl_workspace_row, SL, WORKSPACE_ROW, GtkBox)

GObject    *sl_workspace_row_get_item     (SlWorkspaceRow *self);
void        sl_workspace_row_set_item     (SlWorkspaceRow *self,
                                           GObject        *item);
const char *sl_workspace_row_get_title    (SlWorkspaceRow *self);
const char *sl_workspace_row_get_subtitle (SlWorkspaceRow *self);
const char *sl_workspace_row_get_tooltip  (SlWorkspaceRow *self);

G_END_DECLS
