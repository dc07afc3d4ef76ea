/* sl-tuner-trial.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-tuner-trial.h"

G_DEFINE_BOXED_TYPE (SlTunerTrial, sl_tuner_trial, sl_tuner_trial_copy, sl_tuner_trial_free)

static const char * const state_ids[] = { "suggested", "running", "succeeded", "failed", "stopped" };

SlTunerTrial *
sl_tuner_trial_new (void)
{
  SlTunerTrial *trial = g_new0 (SlTunerTrial, 1);

  trial->params = g_strdup ("{}");
  trial->point = g_strdup ("[]");
  return trial;
}

SlTunerTrial *
sl_tuner_trial_copy (const SlTunerTrial *trial)
{
  SlTunerTrial *copy;

  g_return_val_if_fail (trial != NULL, NULL);

  copy = g_memdup2 (trial, sizeof *trial);
  copy->name = g_strdup (trial->name);
  copy->params = g_strdup (trial->params);
  copy->point = g_strdup (trial->point);
  copy->reason = g_strdup (trial->reason);
  copy->summary_dir = g_strdup (trial->summary_dir);
  return copy;
}

void
sl_tuner_trial_free (SlTunerTrial *trial)
{
  if (trial == NULL)
    return;
  g_free (trial->name);
  g_free (trial->params);
  g_free (trial->point);
  g_free (trial->reason);
  g_free (trial->summary_dir);
  g_free (trial);
}

gboolean
sl_tuner_trial_is_finished (const SlTunerTrial *trial)
{
  g_return_val_if_fail (trial != NULL, FALSE);
  return trial->state >= SL_TUNER_TRIAL_SUCCEEDED;
}

const char *
sl_tuner_trial_state_to_id (SlTunerTrialState state)
{
  g_return_val_if_fail (state <= SL_TUNER_TRIAL_STOPPED, "failed");
  return state_ids[state];
}

gboolean
sl_tuner_trial_state_from_id (const char        *id,
                              SlTunerTrialState *state)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (state_ids); i++)
    {
      if (g_str_equal (id, state_ids[i]))
        {
          *state = (SlTunerTrialState)i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
sl_tuner_trial_state_to_label (SlTunerTrialState state)
{
  switch (state)
    {
    case SL_TUNER_TRIAL_SUGGESTED:
      return C_("trial state", "Waiting");
    case SL_TUNER_TRIAL_RUNNING:
      return C_("trial state", "Running");
    case SL_TUNER_TRIAL_SUCCEEDED:
      return C_("trial state", "Done");
    case SL_TUNER_TRIAL_FAILED:
      return C_("trial state", "Failed");
    case SL_TUNER_TRIAL_STOPPED:
    default:
      return C_("trial state", "Stopped");
    }
}
