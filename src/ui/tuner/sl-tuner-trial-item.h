/* sl-tuner-trial-item.h: one row of the Tuner's trials table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-tuner-trial.h"

G_BEGIN_DECLS

#define SL_TYPE_TUNER_TRIAL_ITEM (sl_tuner_trial_item_get_type ())
G_DECLARE_FINAL_TYPE (SlTunerTrialItem, sl_tuner_trial_item, SL, TUNER_TRIAL_ITEM, GObject)

SlTunerTrialItem   *sl_tuner_trial_item_new            (const SlTunerTrial *trial,
                                                        const char         *target,
                                                        gboolean            best,
                                                        char              **values,
                                                        double             *numbers,
                                                        guint               n_values);
const SlTunerTrial *sl_tuner_trial_item_get_trial      (SlTunerTrialItem   *self);
const char         *sl_tuner_trial_item_get_target     (SlTunerTrialItem   *self);
gboolean            sl_tuner_trial_item_is_best        (SlTunerTrialItem   *self);
const char         *sl_tuner_trial_item_get_value_text (SlTunerTrialItem   *self,
                                                        guint               index);
double              sl_tuner_trial_item_get_value      (SlTunerTrialItem   *self,
                                                        guint               index);

G_END_DECLS
