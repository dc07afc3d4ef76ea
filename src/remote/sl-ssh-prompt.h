/* sl-ssh-prompt.h: a question an SSH session asks while logging in
 *
 * A password, a key passphrase or a keyboard-interactive question,
 * handed to the session's prompt function in the caller's main context.
 * The worker thread waits until it is answered (or the operation is
 * cancelled); the answer is used once and wiped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_SSH_PROMPT_PASSWORD,
  SL_SSH_PROMPT_PASSPHRASE,
  SL_SSH_PROMPT_KEYBOARD_INTERACTIVE,
} SlSshPromptKind;

typedef struct _SlSshPrompt SlSshPrompt;

GType            sl_ssh_prompt_get_type        (void) G_GNUC_CONST;
SlSshPrompt     *sl_ssh_prompt_ref             (SlSshPrompt *prompt);
void             sl_ssh_prompt_unref           (SlSshPrompt *prompt);
SlSshPromptKind  sl_ssh_prompt_get_kind        (SlSshPrompt *prompt);
const char      *sl_ssh_prompt_get_message     (SlSshPrompt *prompt);
gboolean         sl_ssh_prompt_get_echo        (SlSshPrompt *prompt);
void             sl_ssh_prompt_answer          (SlSshPrompt *prompt,
                                                const char  *answer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSshPrompt, sl_ssh_prompt_unref)

G_END_DECLS
