/* sl-cli-interrupt.c: Ctrl+C and SIGTERM as a cancel of what runs
 *
 * A command that runs a job on a target watches for Ctrl+C (and SIGTERM)
 * on this thread's main context and cancels: the run then stops the job
 * on the target, waits until it is seen to end, and only then is the
 * user told it stopped. The work itself runs on a worker (see
 * sl_cli_workflow_run()), so the signal is seen at any stage (preflight,
 * upload, job, export, pull).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#ifdef G_OS_UNIX
#include <glib-unix.h>
#endif

#include "sl-cli.h"

#ifdef G_OS_UNIX
static gboolean
interrupt_cb (gpointer data)
{
  SlCliInterrupt *self = data;

  if (!g_cancellable_is_cancelled (self->cancellable))
    sl_cli_print_error (_("Interrupted: stopping…"));
  g_cancellable_cancel (self->cancellable);
  return G_SOURCE_CONTINUE;
}
#endif

/* Cancels @cancellable on Ctrl+C or SIGTERM, while this thread's main
 * context is iterated, until sl_cli_interrupt_end(). */
void
sl_cli_interrupt_begin (SlCliInterrupt *self,
                        GCancellable   *cancellable)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (G_IS_CANCELLABLE (cancellable));

  self->cancellable = g_object_ref (cancellable);
#ifdef G_OS_UNIX
  self->sigint_id = g_unix_signal_add (SIGINT, interrupt_cb, self);
  self->sigterm_id = g_unix_signal_add (SIGTERM, interrupt_cb, self);
#endif
}

void
sl_cli_interrupt_end (SlCliInterrupt *self)
{
  g_return_if_fail (self != NULL);

  g_clear_handle_id (&self->sigint_id, g_source_remove);
  g_clear_handle_id (&self->sigterm_id, g_source_remove);
  g_clear_object (&self->cancellable);
}

/* The exit status of a command whose run failed with @error: 130 (as a
 * shell gives a command ended by Ctrl+C) when the run was interrupted
 * and nothing is left running, 1 otherwise. */
int
sl_cli_interrupted_exit_status (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? 130 : 1;
}
