/* sl-tuner-trial-item.c
 *
 * A trial as the table shows it: a copy of the trial, and its parameters'
 * values already read and formatted, so that the table's columns (and a
 * CSV export on a worker) need nothing but the item. Immutable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tuner-trial-item.h"

struct _SlTunerTrialItem
{
  GObject       parent_instance;

  SlTunerTrial *trial;
  char         *target;
  gboolean      best;
  char        **values;    /* one a parameter, NULL when unknown */
  double       *numbers;   /* NAN when unknown */
  guint         n_values;
};

G_DEFINE_FINAL_TYPE (SlTunerTrialItem, sl_tuner_trial_item, G_TYPE_OBJECT)

static void
sl_tuner_trial_item_finalize (GObject *object)
{
  SlTunerTrialItem *self = SL_TUNER_TRIAL_ITEM (object);

  sl_tuner_trial_free (self->trial);
  g_free (self->target);
  g_strfreev (self->values);
  g_free (self->numbers);

  G_OBJECT_CLASS (sl_tuner_trial_item_parent_class)->finalize (object);
}

static void
sl_tuner_trial_item_class_init (SlTunerTrialItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tuner_trial_item_finalize;
}

static void
sl_tuner_trial_item_init (SlTunerTrialItem *self)
{
}

/**
 * sl_tuner_trial_item_new:
 * @target: (nullable): where the trial ran
 * @values: (transfer full) (nullable): the parameters' values as shown,
 *   %NULL-terminated, or %NULL when the trial's parameters could not be read
 * @numbers: (transfer full) (nullable): the same as numbers, @n_values of them
 */
SlTunerTrialItem *
sl_tuner_trial_item_new (const SlTunerTrial *trial,
                         const char         *target,
                         gboolean            best,
                         char              **values,
                         double             *numbers,
                         guint               n_values)
{
  SlTunerTrialItem *self;

  g_return_val_if_fail (trial != NULL, NULL);

  self = g_object_new (SL_TYPE_TUNER_TRIAL_ITEM, NULL);
  self->trial = sl_tuner_trial_copy (trial);
  self->target = g_strdup (target);
  self->best = best;
  self->values = values;
  self->numbers = numbers;
  self->n_values = values != NULL && numbers != NULL ? MIN (n_values, g_strv_length (values)) : 0;
  return self;
}

const SlTunerTrial *
sl_tuner_trial_item_get_trial (SlTunerTrialItem *self)
{
  g_return_val_if_fail (SL_IS_TUNER_TRIAL_ITEM (self), NULL);
  return self->trial;
}

const char *
sl_tuner_trial_item_get_target (SlTunerTrialItem *self)
{
  g_return_val_if_fail (SL_IS_TUNER_TRIAL_ITEM (self), NULL);
  return self->target;
}

/* Whether it is the study's best trial so far. */
gboolean
sl_tuner_trial_item_is_best (SlTunerTrialItem *self)
{
  g_return_val_if_fail (SL_IS_TUNER_TRIAL_ITEM (self), FALSE);
  return self->best;
}

/* The value of parameter @index as shown, or NULL when unknown. */
const char *
sl_tuner_trial_item_get_value_text (SlTunerTrialItem *self,
                                    guint             index)
{
  g_return_val_if_fail (SL_IS_TUNER_TRIAL_ITEM (self), NULL);
  return index < self->n_values ? self->values[index] : NULL;
}

double
sl_tuner_trial_item_get_value (SlTunerTrialItem *self,
                               guint             index)
{
  g_return_val_if_fail (SL_IS_TUNER_TRIAL_ITEM (self), NAN);
  return index < self->n_values ? self->numbers[index] : NAN;
}
