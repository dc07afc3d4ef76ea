/* sl-ssh-prompt-private.h: what only SlSshSession does with prompts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-ssh-prompt.h"

G_BEGIN_DECLS

SlSshPrompt *_sl_ssh_prompt_new  (SlSshPromptKind  kind,
                                  const char      *message,
                                  gboolean         echo);
char        *_sl_ssh_prompt_wait (SlSshPrompt     *prompt,
                                  GCancellable    *cancellable,
                                  guint            poll_ms);
void         _sl_ssh_wipe_string (char            *text);

G_END_DECLS
