/* sl-tuner-trial.h: one trial of a tuner study, as the database keeps it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_TUNER_TRIAL_SUGGESTED,  /* chosen, not started */
  SL_TUNER_TRIAL_RUNNING,
  SL_TUNER_TRIAL_SUCCEEDED,  /* ran and has a value */
  SL_TUNER_TRIAL_FAILED,     /* see reason */
  SL_TUNER_TRIAL_STOPPED,    /* stopped by the user */
} SlTunerTrialState;

typedef struct {
  gint64             study_id;
  guint              number;       /* from 1 */
  char              *name;         /* the folder under summary_base_dir */
  char              *params;       /* JSON object, as handed to the trial */
  char              *point;        /* JSON array: the Gaussian process's input */
  SlTunerTrialState  state;
  gboolean           has_value;
  double             value;
  char              *reason;
  gint64             job_id;
  char              *summary_dir;  /* where its summaries are on this computer */
  gint64             started_at;   /* µs since the epoch, 0 when not */
  gint64             finished_at;
} SlTunerTrial;

#define SL_TYPE_TUNER_TRIAL (sl_tuner_trial_get_type ())

GType              sl_tuner_trial_get_type         (void) G_GNUC_CONST;
SlTunerTrial      *sl_tuner_trial_new              (void);
SlTunerTrial      *sl_tuner_trial_copy             (const SlTunerTrial *trial);
void               sl_tuner_trial_free             (SlTunerTrial       *trial);
gboolean           sl_tuner_trial_is_finished      (const SlTunerTrial *trial);
const char        *sl_tuner_trial_state_to_id      (SlTunerTrialState   state);
gboolean           sl_tuner_trial_state_from_id    (const char         *id,
                                                    SlTunerTrialState  *state);
const char        *sl_tuner_trial_state_to_label   (SlTunerTrialState   state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTunerTrial, sl_tuner_trial_free)

G_END_DECLS
