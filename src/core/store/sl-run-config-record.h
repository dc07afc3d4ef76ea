/* sl-run-config-record.h: one way to run a command of a project
 *
 * The environment is for settings such as ASCEND_RT_VISIBLE_DEVICES; it
 * is stored as it is, so it is not a place for tokens or passwords.
 *
 * The options are one JSON object of groups, each kept by the part of the
 * program it belongs to ("profile" for the Profile dialog's choices,
 * "mindx" for a MindX app's SDK home and pipeline, "slurm" for how the
 * run is submitted), so a kind or a backend adds settings without a new
 * column.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_RUN_CONFIG_KIND_TRAIN,
  SL_RUN_CONFIG_KIND_PROFILE,
  SL_RUN_CONFIG_KIND_INFER,
  SL_RUN_CONFIG_KIND_CONVERT,
  SL_RUN_CONFIG_KIND_MINDX,
} SlRunConfigKind;

#define SL_RUN_CONFIG_KIND_LAST SL_RUN_CONFIG_KIND_MINDX

#define SL_TYPE_RUN_CONFIG_RECORD (sl_run_config_record_get_type ())
G_DECLARE_FINAL_TYPE (SlRunConfigRecord, sl_run_config_record, SL, RUN_CONFIG_RECORD, GObject)

SlRunConfigRecord  *sl_run_config_record_new                (SlRunConfigKind     kind,
                                                             const char         *name,
                                                             const char         *command);
gint64              sl_run_config_record_get_id             (SlRunConfigRecord  *self);
void                sl_run_config_record_set_id             (SlRunConfigRecord  *self,
                                                             gint64              id);
SlRunConfigKind     sl_run_config_record_get_kind           (SlRunConfigRecord  *self);
void                sl_run_config_record_set_kind           (SlRunConfigRecord  *self,
                                                             SlRunConfigKind     kind);
const char         *sl_run_config_record_get_name           (SlRunConfigRecord  *self);
void                sl_run_config_record_set_name           (SlRunConfigRecord  *self,
                                                             const char         *name);
const char         *sl_run_config_record_get_command        (SlRunConfigRecord  *self);
void                sl_run_config_record_set_command        (SlRunConfigRecord  *self,
                                                             const char         *command);
const char * const *sl_run_config_record_get_arguments      (SlRunConfigRecord  *self);
void                sl_run_config_record_set_arguments      (SlRunConfigRecord  *self,
                                                             const char * const *arguments);
const char * const *sl_run_config_record_get_environment    (SlRunConfigRecord  *self);
void                sl_run_config_record_set_environment    (SlRunConfigRecord  *self,
                                                             const char * const *environment);
const char         *sl_run_config_record_get_working_folder (SlRunConfigRecord  *self);
void                sl_run_config_record_set_working_folder (SlRunConfigRecord  *self,
                                                             const char         *folder);
const char * const *sl_run_config_record_get_pull_folders   (SlRunConfigRecord  *self);
void                sl_run_config_record_set_pull_folders   (SlRunConfigRecord  *self,
                                                             const char * const *folders);
const char         *sl_run_config_record_get_options        (SlRunConfigRecord  *self);
void                sl_run_config_record_set_options        (SlRunConfigRecord  *self,
                                                             const char         *options);
JsonObject         *sl_run_config_record_dup_option_group   (SlRunConfigRecord  *self,
                                                             const char         *group);
void                sl_run_config_record_set_option_group   (SlRunConfigRecord  *self,
                                                             const char         *group,
                                                             JsonObject         *values);

const char         *sl_run_config_kind_to_id                (SlRunConfigKind     kind);
gboolean            sl_run_config_kind_from_id              (const char         *id,
                                                             SlRunConfigKind    *kind);

G_END_DECLS
