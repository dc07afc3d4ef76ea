/* sl-workspace-store-tuner.h: the tuner's studies in the workspace database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-tuner-trial.h"
#include "sl-workspace-store.h"

G_BEGIN_DECLS

/* A study as the database keeps it; strings owned by the struct. */
typedef struct {
  gint64  id;
  char   *config_path;
  char   *config_text;
  char   *target_name;
  char   *project_folder;
  guint32 seed;
  guint   max_trials;
  guint   parallel;
  gint64  created_at;
  char   *state;          /* running, paused, stopped or finished */
} SlTunerStudyRow;

void       sl_tuner_study_row_free                   (SlTunerStudyRow    *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTunerStudyRow, sl_tuner_study_row_free)

gboolean   sl_workspace_store_add_tuner_study         (SlWorkspaceStore   *self,
                                                       SlTunerStudyRow    *row,
                                                       GError            **error);
SlTunerStudyRow *sl_workspace_store_find_tuner_study  (SlWorkspaceStore   *self,
                                                       const char         *config_path,
                                                       const char         *config_text,
                                                       const char         *target_name,
                                                       GError            **error);
SlTunerStudyRow *sl_workspace_store_find_latest_tuner_study (SlWorkspaceStore *self,
                                                       const char         *config_path,
                                                       GError            **error);
SlTunerStudyRow *sl_workspace_store_lookup_tuner_study (SlWorkspaceStore  *self,
                                                       gint64              id,
                                                       GError            **error);
gboolean   sl_workspace_store_update_tuner_study      (SlWorkspaceStore   *self,
                                                       SlTunerStudyRow    *row,
                                                       GError            **error);
gboolean   sl_workspace_store_save_tuner_trial        (SlWorkspaceStore   *self,
                                                       const SlTunerTrial *trial,
                                                       GError            **error);
GPtrArray *sl_workspace_store_list_tuner_trials       (SlWorkspaceStore   *self,
                                                       gint64              study_id,
                                                       GError            **error);

G_END_DECLS
