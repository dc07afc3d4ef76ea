/* sl-workspace-section.h: a top-level group in the Workspace tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TYPE_WORKSPACE_SECTION (sl_workspace_section_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspaceSection, sl_workspace_section, SL, WORKSPACE_SECTION, GObject)

SlWorkspaceSection *sl_workspace_section_new          (const char         *id,
                                                       const char         *title,
                                                       const char         *icon_name,
                                                       GListModel         *children);
const char         *sl_workspace_section_get_id       (SlWorkspaceSection *self);
const char         *sl_workspace_section_get_title    (SlWorkspaceSection *self);
const char         *sl_workspace_section_get_icon_name (SlWorkspaceSection *self);
GListModel         *sl_workspace_section_get_children (SlWorkspaceSection *self);

G_END_DECLS
