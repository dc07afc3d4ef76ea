/* sl-target-shell.h: commands and files on a target, local or over SSH
 *
 * One object for everything jobs, uploads and pulls need from a target:
 * running a shell command, listing folders (symbolic links are listed,
 * never followed), reading part of a file, continuing a download from
 * the local file's size and uploading a file under a temporary name.
 * On this computer it works on the file system and through /bin/sh; on
 * a server through an SlSshSession.
 *
 * When the connection to a server breaks, an operation reconnects with
 * a growing pause (reporting %SL_TARGET_SHELL_RECONNECTING to the state
 * function) and runs again: reads and downloads go on from where they
 * were, as every operation here can be repeated safely.
 *
 * Calls block; run them from a worker thread in a GUI.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-ssh-session.h"
#include "sl-target.h"

G_BEGIN_DECLS

typedef enum {
  SL_TARGET_SHELL_CONNECTED,
  SL_TARGET_SHELL_RECONNECTING,
  SL_TARGET_SHELL_DISCONNECTED,   /* gave up reconnecting */
} SlTargetShellState;

/**
 * SlTargetShellStateFunc:
 * @detail: why, for people
 *
 * Called on the thread running the operation that noticed the change.
 */
typedef void (*SlTargetShellStateFunc) (SlTargetShellState  state,
                                        const char         *detail,
                                        gpointer            user_data);

#define SL_TARGET_SHELL_DEFAULT_RECONNECT_SECONDS 60

#define SL_TYPE_TARGET_SHELL (sl_target_shell_get_type ())
G_DECLARE_FINAL_TYPE (SlTargetShell, sl_target_shell, SL, TARGET_SHELL, GObject)

SlTargetShell *sl_target_shell_new_local            (void);
SlTargetShell *sl_target_shell_new_ssh              (SlSshSession            *session);
SlTargetShell *sl_target_shell_new_for_target       (SlTarget                *target);
gboolean       sl_target_shell_is_local             (SlTargetShell           *self);
SlSshSession  *sl_target_shell_get_session          (SlTargetShell           *self);
void           sl_target_shell_set_state_func       (SlTargetShell           *self,
                                                     SlTargetShellStateFunc   func,
                                                     gpointer                 user_data);
void           sl_target_shell_set_reconnect_limit  (SlTargetShell           *self,
                                                     guint                    seconds);
guint          sl_target_shell_get_n_reconnects     (SlTargetShell           *self);

gboolean       sl_target_shell_run                  (SlTargetShell           *self,
                                                     const char              *command,
                                                     char                   **standard_output,
                                                     char                   **standard_error,
                                                     int                     *exit_status,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
char          *sl_target_shell_resolve_dir          (SlTargetShell           *self,
                                                     const char              *path,
                                                     gboolean                 create,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
GFileInfo     *sl_target_shell_stat                 (SlTargetShell           *self,
                                                     const char              *path,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
GPtrArray     *sl_target_shell_list_dir             (SlTargetShell           *self,
                                                     const char              *path,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
GBytes        *sl_target_shell_read                 (SlTargetShell           *self,
                                                     const char              *path,
                                                     guint64                  offset,
                                                     guint64                  length,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
gboolean       sl_target_shell_continue_download    (SlTargetShell           *self,
                                                     const char              *path,
                                                     GFile                   *local_file,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
gboolean       sl_target_shell_upload               (SlTargetShell           *self,
                                                     GFile                   *local_file,
                                                     const char              *path,
                                                     GCancellable            *cancellable,
                                                     GError                 **error);
void           sl_target_shell_explain_error        (SlTargetShell           *self,
                                                     const char              *what,
                                                     const char              *path,
                                                     GError                 **error);

G_END_DECLS
