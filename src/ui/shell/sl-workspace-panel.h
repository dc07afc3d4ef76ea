/* sl-workspace-panel.h: the tree of targets, opened folders and what was
 * found in them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

G_BEGIN_DECLS

#define SL_TYPE_WORKSPACE_PANEL (sl_workspace_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspacePanel, sl_workspace_panel, SL, WORKSPACE_PANEL, PanelWidget)

GtkWidget *sl_workspace_panel_new         (GListModel       *targets,
                                           GListModel       *folders,
                                           GListModel       *recent,
                                           GListModel       *jobs);
gboolean   sl_workspace_panel_select_item (SlWorkspacePanel *self,
                                           GObject          *item);
guint      sl_workspace_panel_get_n_rows  (SlWorkspacePanel *self);
GObject   *sl_workspace_panel_get_row_item (SlWorkspacePanel *self,
                                           guint             row);

G_END_DECLS
