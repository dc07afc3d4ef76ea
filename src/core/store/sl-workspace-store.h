/* sl-workspace-store.h: the workspace database
 *
 * One SQLite file, by default $XDG_DATA_HOME/sightline/workspace.db, holds
 * the targets, the projects, the recently opened folders, the run index
 * and the job history. It never holds a password, a passphrase or a
 * private key (see sl-workspace-schema.c).
 *
 * A store is used from one thread at a time. Every call runs at once on
 * the calling thread: the file is small and local.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-job-record.h"
#include "sl-project-record.h"
#include "sl-recent-folder-record.h"
#include "sl-run-note-record.h"
#include "sl-run-record.h"
#include "sl-target-record.h"
#include "sl-workspace-recovery.h"

G_BEGIN_DECLS

#define SL_WORKSPACE_STORE_ERROR (sl_workspace_store_error_quark ())

typedef enum {
  SL_WORKSPACE_STORE_ERROR_FAILED,
  SL_WORKSPACE_STORE_ERROR_CORRUPT,         /* the file is damaged or not SQLite */
  SL_WORKSPACE_STORE_ERROR_NEWER_VERSION,   /* written by a newer Sightline */
  SL_WORKSPACE_STORE_ERROR_NOT_A_WORKSPACE, /* an SQLite file of another program */
  SL_WORKSPACE_STORE_ERROR_BUSY,            /* locked by another program */
  SL_WORKSPACE_STORE_ERROR_EXISTS,          /* the name is taken */
  SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
  SL_WORKSPACE_STORE_ERROR_INVALID,
} SlWorkspaceStoreError;

/* The lists of the workspace that sl_workspace_store_poll_changes()
 * watches. */
typedef enum {
  SL_WORKSPACE_STORE_LIST_TARGETS        = 1 << 0,
  SL_WORKSPACE_STORE_LIST_PROJECTS       = 1 << 1,
  SL_WORKSPACE_STORE_LIST_RECENT_FOLDERS = 1 << 2,
  SL_WORKSPACE_STORE_LIST_JOBS           = 1 << 3,
} SlWorkspaceStoreLists;

/* How many recent folders are kept; older ones are forgotten. */
#define SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS 50

#define SL_TYPE_WORKSPACE_STORE (sl_workspace_store_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspaceStore, sl_workspace_store, SL, WORKSPACE_STORE, GObject)

GQuark            sl_workspace_store_error_quark                 (void);
char             *sl_workspace_store_dup_default_path            (void);
guint             sl_workspace_store_get_latest_schema_version   (void);

SlWorkspaceStore *sl_workspace_store_new_for_path                (const char        *path,
                                                                  GError           **error);
const char       *sl_workspace_store_get_path                    (SlWorkspaceStore  *self);
guint             sl_workspace_store_get_schema_version          (SlWorkspaceStore  *self);
const char       *sl_workspace_store_get_recovery_message        (SlWorkspaceStore  *self);
SlWorkspaceRecovery *sl_workspace_store_get_recovery             (SlWorkspaceStore  *self);
gboolean          sl_workspace_store_dismiss_recovery            (SlWorkspaceStore  *self,
                                                                  GError           **error);
SlWorkspaceStoreLists sl_workspace_store_poll_changes            (SlWorkspaceStore  *self,
                                                                  GError           **error);

gboolean          sl_workspace_store_add_target                  (SlWorkspaceStore  *self,
                                                                  SlTargetRecord    *target,
                                                                  GError           **error);
gboolean          sl_workspace_store_update_target               (SlWorkspaceStore  *self,
                                                                  SlTargetRecord    *target,
                                                                  GError           **error);
gboolean          sl_workspace_store_remove_target               (SlWorkspaceStore  *self,
                                                                  gint64             target_id,
                                                                  GError           **error);
SlTargetRecord   *sl_workspace_store_lookup_target               (SlWorkspaceStore  *self,
                                                                  gint64             target_id,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_targets                (SlWorkspaceStore  *self,
                                                                  GError           **error);

gboolean          sl_workspace_store_add_project                 (SlWorkspaceStore  *self,
                                                                  SlProjectRecord   *project,
                                                                  GError           **error);
gboolean          sl_workspace_store_update_project              (SlWorkspaceStore  *self,
                                                                  SlProjectRecord   *project,
                                                                  GError           **error);
gboolean          sl_workspace_store_remove_project              (SlWorkspaceStore  *self,
                                                                  gint64             project_id,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_projects               (SlWorkspaceStore  *self,
                                                                  GError           **error);

gboolean          sl_workspace_store_note_recent_folder          (SlWorkspaceStore  *self,
                                                                  const char        *path,
                                                                  GError           **error);
gboolean          sl_workspace_store_remove_recent_folder        (SlWorkspaceStore  *self,
                                                                  const char        *path,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_recent_folders         (SlWorkspaceStore  *self,
                                                                  GError           **error);

gboolean          sl_workspace_store_upsert_run                  (SlWorkspaceStore  *self,
                                                                  SlRunRecord       *run,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_runs                   (SlWorkspaceStore  *self,
                                                                  const char        *root_folder,
                                                                  GError           **error);
gboolean          sl_workspace_store_prune_runs                  (SlWorkspaceStore  *self,
                                                                  const char        *root_folder,
                                                                  gint64             seen_before,
                                                                  GError           **error);
gboolean          sl_workspace_store_note_run_read               (SlWorkspaceStore   *self,
                                                                  const char         *run_path,
                                                                  const char * const *tags,
                                                                  const char * const *files,
                                                                  const guint64      *offsets,
                                                                  guint               n_files,
                                                                  GError            **error);
gboolean          sl_workspace_store_set_open_folders            (SlWorkspaceStore   *self,
                                                                  const char * const *paths,
                                                                  GError            **error);
char            **sl_workspace_store_list_open_folders           (SlWorkspaceStore  *self,
                                                                  GError           **error);

gboolean          sl_workspace_store_add_job                     (SlWorkspaceStore  *self,
                                                                  SlJobRecord       *job,
                                                                  GError           **error);
gboolean          sl_workspace_store_finish_job                  (SlWorkspaceStore  *self,
                                                                  SlJobRecord       *job,
                                                                  GError           **error);
gboolean          sl_workspace_store_update_job                  (SlWorkspaceStore  *self,
                                                                  SlJobRecord       *job,
                                                                  GError           **error);
gboolean          sl_workspace_store_set_job_outcome             (SlWorkspaceStore  *self,
                                                                  gint64             job_id,
                                                                  SlJobState         state,
                                                                  const char        *reason,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_jobs                   (SlWorkspaceStore  *self,
                                                                  guint              limit,
                                                                  GError           **error);

gboolean          sl_workspace_store_set_run_note                (SlWorkspaceStore  *self,
                                                                  SlRunNoteRecord   *note,
                                                                  GError           **error);
GPtrArray        *sl_workspace_store_list_run_notes              (SlWorkspaceStore  *self,
                                                                  const char        *root,
                                                                  GError           **error);

G_END_DECLS
