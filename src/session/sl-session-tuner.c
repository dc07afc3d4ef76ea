/* sl-session-tuner.c: the session runs a hyperparameter study
 *
 * Each trial of an SlTunerStudy runs as a job of the session's one job
 * controller: it is in every Jobs list at once with its start and end,
 * its log streams into the Console, and it ends with the trial's
 * verdict. The command line waits for the study here; Ctrl+C stops it
 * with sl_tuner_study_stop().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-session-private.h"

/**
 * sl_session_run_study:
 * @study: not started yet
 * @cancellable: (nullable): stops the study (its running trials too)
 *
 * Runs @study on its worker, its trials as jobs of the session; its
 * signals and @callback come in the thread-default main context.
 */
void
sl_session_run_study (SlSession           *self,
                      SlTunerStudy        *study,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (SL_IS_TUNER_STUDY (study));

  sl_tuner_study_set_job_controller (study, self->jobs);
  sl_tuner_study_run_async (study, cancellable, callback, user_data);
}

static void
sync_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  *(GAsyncResult **)data = g_object_ref (result);
}

/**
 * sl_session_run_study_sync:
 *
 * sl_session_run_study() for programs without a main loop: iterates the
 * thread-default main context until the study ended.
 *
 * Returns: what sl_tuner_study_run_finish() returns
 */
gboolean
sl_session_run_study_sync (SlSession     *self,
                           SlTunerStudy  *study,
                           GError       **error)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (SL_IS_TUNER_STUDY (study), FALSE);

  sl_session_run_study (self, study, NULL, sync_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  return sl_tuner_study_run_finish (study, result, error);
}
