/* sl-dock-layout.h: places dock panels, and saves and restores where
 * they are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

G_BEGIN_DECLS

#define SL_TYPE_DOCK_LAYOUT (sl_dock_layout_get_type ())
G_DECLARE_FINAL_TYPE (SlDockLayout, sl_dock_layout, SL, DOCK_LAYOUT, GObject)

SlDockLayout *sl_dock_layout_new           (PanelDock    *dock,
                                            PanelGrid    *grid);
void          sl_dock_layout_set_area      (SlDockLayout *self,
                                            PanelArea     area,
                                            PanelPaned   *paned);
void          sl_dock_layout_add_panel     (SlDockLayout *self,
                                            PanelWidget  *panel,
                                            PanelArea     default_area,
                                            guint         default_frame);
PanelWidget  *sl_dock_layout_find_panel    (SlDockLayout *self,
                                            const char   *id);
gboolean      sl_dock_layout_get_placement (SlDockLayout *self,
                                            PanelWidget  *panel,
                                            PanelArea    *area,
                                            guint        *frame_index);
void          sl_dock_layout_move_panel    (SlDockLayout *self,
                                            PanelWidget  *panel,
                                            PanelArea     area,
                                            guint         frame_index);
void          sl_dock_layout_show_panel    (SlDockLayout *self,
                                            PanelWidget  *panel);
GVariant     *sl_dock_layout_save          (SlDockLayout *self);
void          sl_dock_layout_restore       (SlDockLayout *self,
                                            GVariant     *layout);
void          sl_dock_layout_reset         (SlDockLayout *self);
void          sl_dock_layout_follow_contents (SlDockLayout *self,
                                              PanelArea     area,
                                              GListModel   *contents,
                                              int           empty_size,
                                              int           size);
gboolean      sl_dock_layout_get_user_sized  (SlDockLayout *self,
                                              PanelArea     area);
const char   *sl_dock_layout_area_to_id    (PanelArea     area);

G_END_DECLS
