/* sl-application.h: the Sightline application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-workspace-store.h"

G_BEGIN_DECLS

#define SL_TYPE_APPLICATION (sl_application_get_type ())
G_DECLARE_FINAL_TYPE (SlApplication, sl_application, SL, APPLICATION, AdwApplication)

SlApplication    *sl_application_new                      (void);
SlWorkspaceStore *sl_application_get_store                (SlApplication *self);
GListModel       *sl_application_get_targets              (SlApplication *self);
GListModel       *sl_application_get_recent_folders       (SlApplication *self);
GListModel       *sl_application_get_jobs                 (SlApplication *self);
void              sl_application_reload_jobs              (SlApplication *self);
void              sl_application_note_recent_folder       (SlApplication *self,
                                                           const char    *path);
gboolean          sl_application_add_target               (SlApplication  *self,
                                                           SlTargetRecord *target,
                                                           GError        **error);
void              sl_application_record_job               (SlApplication *self,
                                                           GSubprocess   *subprocess,
                                                           const char    *command_line,
                                                           const char    *working_dir);
void              sl_application_index_folder             (SlApplication *self,
                                                           gpointer       folder);
GPtrArray        *sl_application_dup_indexed_findings     (SlApplication *self,
                                                           const char    *root);
void              sl_application_annotate_findings        (SlApplication *self,
                                                           gpointer       folder);
char            **sl_application_dup_open_folders         (SlApplication *self);
void              sl_application_set_open_folders         (SlApplication      *self,
                                                           const char * const *paths);
void              sl_application_note_run_read            (SlApplication      *self,
                                                           const char         *run_path,
                                                           const char * const *tags,
                                                           const char * const *files,
                                                           const guint64      *offsets,
                                                           guint               n_files);
void              sl_application_report_startup_problems  (SlApplication *self,
                                                           gpointer       window);

G_END_DECLS
