/* sl-project-record.h: a local folder kept in step with a folder on a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-run-config-record.h"

G_BEGIN_DECLS

#define SL_TYPE_PROJECT_RECORD (sl_project_record_get_type ())
G_DECLARE_FINAL_TYPE (SlProjectRecord, sl_project_record, SL, PROJECT_RECORD, GObject)

SlProjectRecord    *sl_project_record_new                 (const char         *name,
                                                           const char         *local_folder);
gint64              sl_project_record_get_id              (SlProjectRecord    *self);
void                sl_project_record_set_id              (SlProjectRecord    *self,
                                                           gint64              id);
const char         *sl_project_record_get_name            (SlProjectRecord    *self);
void                sl_project_record_set_name            (SlProjectRecord    *self,
                                                           const char         *name);
const char         *sl_project_record_get_local_folder    (SlProjectRecord    *self);
void                sl_project_record_set_local_folder    (SlProjectRecord    *self,
                                                           const char         *folder);
gint64              sl_project_record_get_target_id       (SlProjectRecord    *self);
void                sl_project_record_set_target_id       (SlProjectRecord    *self,
                                                           gint64              target_id);
const char         *sl_project_record_get_remote_folder   (SlProjectRecord    *self);
void                sl_project_record_set_remote_folder   (SlProjectRecord    *self,
                                                           const char         *folder);
const char * const *sl_project_record_get_upload_excludes (SlProjectRecord    *self);
void                sl_project_record_set_upload_excludes (SlProjectRecord    *self,
                                                           const char * const *patterns);
guint               sl_project_record_get_n_run_configs   (SlProjectRecord    *self);
SlRunConfigRecord  *sl_project_record_get_run_config      (SlProjectRecord    *self,
                                                           guint               index);
void                sl_project_record_add_run_config      (SlProjectRecord    *self,
                                                           SlRunConfigRecord  *config);

G_END_DECLS
