/* sl-tuner-study.h: a hyperparameter search run as jobs on a target
 *
 * Each trial goes the way of every job (upload, start detached, follow,
 * pull) with MINDINSIGHT_HYPER_CONFIG = {"params": {...}, "summary_dir":
 * "SUMMARY_BASE_DIR/TRIAL"}; its value is read from the lineage it
 * wrote. Up to `parallel` trials run at once. A trial that fails is kept
 * with its reason and the search goes on. The study, its trials and the
 * suggestions not yet run live in the workspace database, so a study
 * started again with the same configuration and target resumes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-bayes-optimizer.h"
#include "sl-job-controller.h"
#include "sl-target.h"
#include "sl-tuner-config.h"
#include "sl-tuner-trial.h"

G_BEGIN_DECLS

#define SL_TYPE_TUNER_STUDY (sl_tuner_study_get_type ())
G_DECLARE_FINAL_TYPE (SlTunerStudy, sl_tuner_study, SL, TUNER_STUDY, GObject)

SlTunerStudy  *sl_tuner_study_new             (SlTunerConfig        *config,
                                               const char           *config_path,
                                               SlTarget             *target,
                                               const char           *project_dir,
                                               const char           *store_path);
void           sl_tuner_study_set_job_controller (SlTunerStudy      *self,
                                               SlJobController      *jobs);
void           sl_tuner_study_set_max_trials  (SlTunerStudy         *self,
                                               guint                 max_trials);
void           sl_tuner_study_set_parallel    (SlTunerStudy         *self,
                                               guint                 parallel);
void           sl_tuner_study_set_seed        (SlTunerStudy         *self,
                                               guint32               seed);
void           sl_tuner_study_set_fresh       (SlTunerStudy         *self,
                                               gboolean              fresh);
void           sl_tuner_study_set_n_initial   (SlTunerStudy         *self,
                                               guint                 n_initial);
void           sl_tuner_study_set_random_only (SlTunerStudy         *self,
                                               gboolean              random_only);

SlTunerConfig *sl_tuner_study_get_config      (SlTunerStudy         *self);
SlTarget      *sl_tuner_study_get_target      (SlTunerStudy         *self);
gint64         sl_tuner_study_get_id          (SlTunerStudy         *self);
gboolean       sl_tuner_study_get_resumed     (SlTunerStudy         *self);
gboolean       sl_tuner_study_get_paused      (SlTunerStudy         *self);
GPtrArray     *sl_tuner_study_dup_trials      (SlTunerStudy         *self);
const SlTunerTrial *sl_tuner_trials_find_best (GPtrArray            *trials,
                                               SlTunerGoal           goal);

void           sl_tuner_study_pause           (SlTunerStudy         *self);
void           sl_tuner_study_resume          (SlTunerStudy         *self);
void           sl_tuner_study_stop            (SlTunerStudy         *self);

gboolean       sl_tuner_study_run             (SlTunerStudy         *self,
                                               GCancellable         *cancellable,
                                               GError              **error);
void           sl_tuner_study_run_async       (SlTunerStudy         *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
gboolean       sl_tuner_study_run_finish      (SlTunerStudy         *self,
                                               GAsyncResult         *result,
                                               GError              **error);

gboolean       sl_tuner_read_trial_value      (SlTunerConfig        *config,
                                               const char           *summary_dir,
                                               double               *value,
                                               GError              **error);

G_END_DECLS
