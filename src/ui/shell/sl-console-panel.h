/* sl-console-panel.h: the output of jobs, one log view a job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

#include "sl-console-log.h"

G_BEGIN_DECLS

#define SL_TYPE_CONSOLE_PANEL (sl_console_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlConsolePanel, sl_console_panel, SL, CONSOLE_PANEL, PanelWidget)

GtkWidget *sl_console_panel_new          (void);
/* Into the newest job's log (a log of messages before any job). */
void       sl_console_panel_append       (SlConsolePanel *self,
                                          const char     *text,
                                          gssize          len);
/* TRUE while any job shown is running. */
gboolean   sl_console_panel_is_running   (SlConsolePanel *self);
void       sl_console_panel_begin_job    (SlConsolePanel *self,
                                          const char     *title);
void       sl_console_panel_set_job_status (SlConsolePanel *self,
                                            const char     *status);
void       sl_console_panel_end_job      (SlConsolePanel *self,
                                          int             exit_code,
                                          const char     *reason);
/* The log shown. */
char      *sl_console_panel_dup_text     (SlConsolePanel *self);
void       sl_console_panel_clear        (SlConsolePanel *self);

/* Jobs by the id sl_console_panel_add_job() gave them; an id whose log
 * was dropped (the oldest go once there are many) is ignored. */
guint         sl_console_panel_add_job        (SlConsolePanel *self,
                                               const char     *title);
void          sl_console_panel_append_to_job  (SlConsolePanel *self,
                                               guint           job,
                                               const char     *text,
                                               gssize          len);
void          sl_console_panel_set_status_of_job (SlConsolePanel *self,
                                                  guint           job,
                                                  const char     *status);
void          sl_console_panel_end_job_with_id (SlConsolePanel *self,
                                                guint           job,
                                                int             exit_code,
                                                const char     *reason);
/* A log no job writes to (an old job's); returns its id. */
guint         sl_console_panel_add_log        (SlConsolePanel *self,
                                               const char     *title);
guint         sl_console_panel_get_n_jobs     (SlConsolePanel *self);
/* The job shown, or 0. */
guint         sl_console_panel_get_shown_job  (SlConsolePanel *self);
void          sl_console_panel_show_job       (SlConsolePanel *self,
                                               guint           job);
SlConsoleLog *sl_console_panel_get_job_log    (SlConsolePanel *self,
                                               guint           job);

G_END_DECLS
