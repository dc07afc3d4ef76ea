/* sl-ssh-prompt.c
 *
 * A prompt is shared by the worker thread, which waits on it, and the
 * caller's main context, which answers it: the answer is handed over
 * under the prompt's mutex, and whoever comes second finds it answered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-ssh-prompt-private.h"

struct _SlSshPrompt
{
  gatomicrefcount  ref_count;
  SlSshPromptKind  kind;
  gboolean         echo;
  char            *message;
  GMutex           mutex;
  GCond            cond;
  gboolean         answered;
  char            *answer;
};

G_DEFINE_BOXED_TYPE (SlSshPrompt, sl_ssh_prompt, sl_ssh_prompt_ref, sl_ssh_prompt_unref)

SlSshPrompt *
_sl_ssh_prompt_new (SlSshPromptKind  kind,
                    const char      *message,
                    gboolean         echo)
{
  SlSshPrompt *prompt = g_new0 (SlSshPrompt, 1);

  g_atomic_ref_count_init (&prompt->ref_count);
  prompt->kind = kind;
  prompt->echo = echo;
  prompt->message = g_strdup (message);
  g_mutex_init (&prompt->mutex);
  g_cond_init (&prompt->cond);
  return prompt;
}

void
_sl_ssh_wipe_string (char *text)
{
  if (text != NULL)
    {
      memset (text, 0, strlen (text));
      g_free (text);
    }
}

SlSshPrompt *
sl_ssh_prompt_ref (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, NULL);
  g_atomic_ref_count_inc (&prompt->ref_count);
  return prompt;
}

void
sl_ssh_prompt_unref (SlSshPrompt *prompt)
{
  g_return_if_fail (prompt != NULL);

  if (g_atomic_ref_count_dec (&prompt->ref_count))
    {
      _sl_ssh_wipe_string (prompt->answer);
      g_free (prompt->message);
      g_mutex_clear (&prompt->mutex);
      g_cond_clear (&prompt->cond);
      g_free (prompt);
    }
}

SlSshPromptKind
sl_ssh_prompt_get_kind (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, SL_SSH_PROMPT_PASSWORD);
  return prompt->kind;
}

const char *
sl_ssh_prompt_get_message (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, NULL);
  return prompt->message;
}

/**
 * sl_ssh_prompt_get_echo:
 *
 * Returns: %TRUE when the answer may be shown as it is typed
 */
gboolean
sl_ssh_prompt_get_echo (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, FALSE);
  return prompt->echo;
}

/**
 * sl_ssh_prompt_answer:
 * @answer: (nullable): the answer, or %NULL to cancel
 *
 * The answer is copied, used once and wiped; it is never stored.
 */
void
sl_ssh_prompt_answer (SlSshPrompt *prompt,
                      const char  *answer)
{
  g_return_if_fail (prompt != NULL);

  g_mutex_lock (&prompt->mutex);
  if (!prompt->answered)
    {
      prompt->answered = TRUE;
      prompt->answer = g_strdup (answer);
      g_cond_signal (&prompt->cond);
    }
  g_mutex_unlock (&prompt->mutex);
}

/* Worker side: waits for the answer, giving up when @cancellable is
 * cancelled (looked at every @poll_ms). Returns NULL when the user
 * cancelled or nobody answered in time. Wipe the result. */
char *
_sl_ssh_prompt_wait (SlSshPrompt  *prompt,
                     GCancellable *cancellable,
                     guint         poll_ms)
{
  char *answer = NULL;

  g_mutex_lock (&prompt->mutex);
  while (!prompt->answered && !g_cancellable_is_cancelled (cancellable))
    g_cond_wait_until (&prompt->cond, &prompt->mutex,
                       g_get_monotonic_time () + poll_ms * G_TIME_SPAN_MILLISECOND);
  if (prompt->answered)
    {
      answer = g_steal_pointer (&prompt->answer);
    }
  else
    {
      /* A late answer must find nobody waiting and be wiped. */
      prompt->answered = TRUE;
    }
  g_mutex_unlock (&prompt->mutex);

  return answer;
}
