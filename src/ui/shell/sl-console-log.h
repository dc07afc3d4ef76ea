/* sl-console-log.h: one job's output in the Console, following its end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_CONSOLE_LOG (sl_console_log_get_type ())
G_DECLARE_FINAL_TYPE (SlConsoleLog, sl_console_log, SL, CONSOLE_LOG, GtkWidget)

SlConsoleLog *sl_console_log_new           (guint          id,
                                            const char    *title);
guint         sl_console_log_get_id        (SlConsoleLog  *self);
const char   *sl_console_log_get_title     (SlConsoleLog  *self);
/* The start time and the title, as the job chooser lists it. */
const char   *sl_console_log_get_label     (SlConsoleLog  *self);
void          sl_console_log_append        (SlConsoleLog  *self,
                                            const char    *text,
                                            gssize         len);
char         *sl_console_log_dup_text      (SlConsoleLog  *self);
void          sl_console_log_clear         (SlConsoleLog  *self);

/* The job's state, for the Console's header. */
gboolean      sl_console_log_get_running   (SlConsoleLog  *self);
void          sl_console_log_set_state     (SlConsoleLog  *self,
                                            gboolean       running,
                                            const char    *icon_name,
                                            const char    *status);
const char   *sl_console_log_get_status    (SlConsoleLog  *self);
const char   *sl_console_log_get_icon_name (SlConsoleLog  *self);
/* Seconds since the log was made. */
double        sl_console_log_get_seconds   (SlConsoleLog  *self);

/* TRUE while the view keeps the last line in sight: until the user
 * scrolls up, and again once they are back at the end. */
gboolean      sl_console_log_get_following (SlConsoleLog  *self);
/* Goes to the end and follows it, as Ctrl+End does. */
void          sl_console_log_follow        (SlConsoleLog  *self);
GtkTextView  *sl_console_log_get_text_view (SlConsoleLog  *self);

G_END_DECLS
