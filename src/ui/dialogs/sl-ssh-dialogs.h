/* sl-ssh-dialogs.h: the questions a connection asks the user
 *
 * A password, passphrase or keyboard-interactive answer is asked for in
 * a modal dialog when the server wants it, handed to the session and
 * never kept. Host keys are shown with their type and SHA256
 * fingerprint; nothing is trusted without the user's choice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-ssh-session.h"

G_BEGIN_DECLS

/* Responses of the host key dialogs */
#define SL_HOST_KEY_RESPONSE_CANCEL   "cancel"
#define SL_HOST_KEY_RESPONSE_ONCE     "once"
#define SL_HOST_KEY_RESPONSE_REMEMBER "remember"
#define SL_HOST_KEY_RESPONSE_REPLACE  "replace"

GtkWidget *sl_ssh_prompt_dialog_new                 (GtkWindow   *parent,
                                                     const char  *server,
                                                     SlSshPrompt *prompt);
GtkWidget *sl_host_key_dialog_new_unknown           (GtkWindow   *parent,
                                                     const char  *server,
                                                     const char  *key_type,
                                                     const char  *fingerprint);
GtkWidget *sl_host_key_dialog_new_changed           (GtkWindow   *parent,
                                                     const char  *server,
                                                     const char  *key_type,
                                                     const char  *fingerprint,
                                                     const char  *known_hosts);
GtkWidget *sl_host_key_dialog_new_confirm_replace   (GtkWindow   *parent,
                                                     const char  *server,
                                                     const char  *fingerprint,
                                                     const char  *known_hosts);

G_END_DECLS
