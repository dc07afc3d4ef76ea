/* sl-tuner-config.h: the hyperparameter tuner's YAML configuration
 *
 * The file MindInsight's optimizer reads (FORMATS.md §8): the trial
 * command, summary_base_dir, the tuner and its acquisition, the target
 * and its goal, and the parameters with bounds or choices. Every mistake
 * in a file is reported with its line and column and what was expected;
 * sl_tuner_config_to_yaml() writes a file this reader reads back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TUNER_CONFIG_ERROR (sl_tuner_config_error_quark ())

typedef enum {
  SL_TUNER_CONFIG_ERROR_SYNTAX,   /* not YAML */
  SL_TUNER_CONFIG_ERROR_INVALID,  /* YAML, but not a tuner configuration */
} SlTunerConfigError;

typedef enum {
  SL_TUNER_METHOD_UCB,
  SL_TUNER_METHOD_EI,
  SL_TUNER_METHOD_PI,
  SL_TUNER_METHOD_LOG_EI,
} SlTunerMethod;

typedef enum {
  SL_TUNER_GOAL_MAXIMIZE,
  SL_TUNER_GOAL_MINIMIZE,
} SlTunerGoal;

typedef enum {
  SL_TUNER_GROUP_METRIC,          /* the evaluation lineage's metric JSON */
  SL_TUNER_GROUP_SYSTEM_DEFINED,  /* the train lineage, such as loss */
} SlTunerGroup;

typedef enum {
  SL_TUNER_PARAM_FLOAT,
  SL_TUNER_PARAM_INT,
  SL_TUNER_PARAM_STRING,          /* choices only */
} SlTunerParamType;

typedef enum {
  SL_TUNER_SOURCE_SYSTEM_DEFINED, /* learning_rate, batch_size, epoch */
  SL_TUNER_SOURCE_USER_DEFINED,
} SlTunerSource;

/* A parameter has bounds [low, high) or a list of choices. */
typedef struct {
  char             *name;
  SlTunerParamType  type;
  SlTunerSource     source;
  gboolean          has_bounds;
  double            low;
  double            high;
  guint             n_choices;
  double           *choices;        /* numbers, for float and int */
  char            **choice_labels;  /* strings, for string choices */
  int               decimal;        /* -1: not rounded */
} SlTunerParameter;

#define SL_TYPE_TUNER_CONFIG (sl_tuner_config_get_type ())
G_DECLARE_FINAL_TYPE (SlTunerConfig, sl_tuner_config, SL, TUNER_CONFIG, GObject)

GQuark                  sl_tuner_config_error_quark      (void);

SlTunerConfig          *sl_tuner_config_new              (void);
SlTunerConfig          *sl_tuner_config_new_from_file    (const char         *path,
                                                          GError            **error);
SlTunerConfig          *sl_tuner_config_new_from_data    (const char         *name,
                                                          const char         *data,
                                                          gsize               length,
                                                          GError            **error);
char                   *sl_tuner_config_to_yaml          (SlTunerConfig      *self);
gboolean                sl_tuner_config_validate         (SlTunerConfig      *self,
                                                          GError            **error);

const char             *sl_tuner_config_get_command      (SlTunerConfig      *self);
void                    sl_tuner_config_set_command      (SlTunerConfig      *self,
                                                          const char         *command);
const char             *sl_tuner_config_get_summary_base_dir (SlTunerConfig  *self);
void                    sl_tuner_config_set_summary_base_dir (SlTunerConfig  *self,
                                                          const char         *dir);
SlTunerMethod           sl_tuner_config_get_method       (SlTunerConfig      *self);
void                    sl_tuner_config_set_method       (SlTunerConfig      *self,
                                                          SlTunerMethod       method);
double                  sl_tuner_config_get_kappa        (SlTunerConfig      *self);
double                  sl_tuner_config_get_xi           (SlTunerConfig      *self);
const char             *sl_tuner_config_get_target_name  (SlTunerConfig      *self);
SlTunerGroup            sl_tuner_config_get_target_group (SlTunerConfig      *self);
SlTunerGoal             sl_tuner_config_get_goal         (SlTunerConfig      *self);
void                    sl_tuner_config_set_target       (SlTunerConfig      *self,
                                                          SlTunerGroup        group,
                                                          const char         *name,
                                                          SlTunerGoal         goal);

guint                   sl_tuner_config_get_n_parameters (SlTunerConfig      *self);
const SlTunerParameter *sl_tuner_config_get_parameter    (SlTunerConfig      *self,
                                                          guint               index);
void                    sl_tuner_config_add_bounds       (SlTunerConfig      *self,
                                                          const char         *name,
                                                          SlTunerParamType    type,
                                                          double              low,
                                                          double              high,
                                                          int                 decimal);
void                    sl_tuner_config_add_choices      (SlTunerConfig      *self,
                                                          const char         *name,
                                                          SlTunerParamType    type,
                                                          const double       *choices,
                                                          const char * const *labels,
                                                          guint               n_choices);
void                    sl_tuner_config_set_source       (SlTunerConfig      *self,
                                                          guint               index,
                                                          SlTunerSource       source);
void                    sl_tuner_config_clear_parameters (SlTunerConfig      *self);

const char             *sl_tuner_method_to_id            (SlTunerMethod       method);
gboolean                sl_tuner_method_from_id          (const char         *id,
                                                          SlTunerMethod      *method);

G_END_DECLS
