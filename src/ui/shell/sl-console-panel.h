/* sl-console-panel.h: the output of jobs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

G_BEGIN_DECLS

#define SL_TYPE_CONSOLE_PANEL (sl_console_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlConsolePanel, sl_console_panel, SL, CONSOLE_PANEL, PanelWidget)

GtkWidget *sl_console_panel_new          (void);
void       sl_console_panel_append       (SlConsolePanel *self,
                                          const char     *text,
                                          gssize          len);
gboolean   sl_console_panel_is_running   (SlConsolePanel *self);
void       sl_console_panel_begin_job    (SlConsolePanel *self,
                                          const char     *title);
void       sl_console_panel_set_job_status (SlConsolePanel *self,
                                            const char     *status);
void       sl_console_panel_end_job      (SlConsolePanel *self,
                                          int             exit_code,
                                          const char     *reason);
char      *sl_console_panel_dup_text     (SlConsolePanel *self);
void       sl_console_panel_clear        (SlConsolePanel *self);

G_END_DECLS
