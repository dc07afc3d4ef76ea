/* sl-workspace.h: what the user has open and keeps: folders and their
 * scans, the run index, recent folders, targets, projects and jobs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-job-record.h"
#include "sl-project-record.h"
#include "sl-target-record.h"
#include "sl-workspace-store.h"

G_BEGIN_DECLS

/**
 * SlWorkspaceFunc:
 * @store: the workspace database, on the workspace's writer thread
 *
 * Work queued on the writer. Returns its result, or %NULL with @error set
 * on failure (%NULL without an error is a valid result).
 */
typedef gpointer (*SlWorkspaceFunc) (SlWorkspaceStore  *store,
                                     gpointer           data,
                                     GCancellable      *cancellable,
                                     GError           **error);

#define SL_TYPE_WORKSPACE (sl_workspace_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspace, sl_workspace, SL, WORKSPACE, GObject)

SlWorkspace    *sl_workspace_new                 (const char          *db_path);
const char     *sl_workspace_get_db_path         (SlWorkspace         *self);
void            sl_workspace_load_async          (SlWorkspace         *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean        sl_workspace_load_finish         (SlWorkspace         *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
gboolean        sl_workspace_is_loaded           (SlWorkspace         *self);
gboolean        sl_workspace_has_store           (SlWorkspace         *self);

GListModel     *sl_workspace_get_folders         (SlWorkspace         *self);
GListModel     *sl_workspace_get_targets         (SlWorkspace         *self);
GListModel     *sl_workspace_get_projects        (SlWorkspace         *self);
GListModel     *sl_workspace_get_recent_folders  (SlWorkspace         *self);
GListModel     *sl_workspace_get_jobs            (SlWorkspace         *self);
GListModel     *sl_workspace_get_problems        (SlWorkspace         *self);

SlFolder       *sl_workspace_open_path           (SlWorkspace         *self,
                                                  const char          *path);
/* Of the findings of the kinds listed (ended by SL_FINDING_N_KINDS) in
 * the opened folders, the one whose path shares the longest run of
 * folders with @path (at least its folder's parent): the profile of the
 * same job as a graph, the graph of the same job as a profile. */
SlFinding      *sl_workspace_find_nearest_finding (SlWorkspace        *self,
                                                  const char          *path,
                                                  const SlFindingKind *kinds);
SlFolder       *sl_workspace_lookup_folder       (SlWorkspace         *self,
                                                  const char          *path);
void            sl_workspace_rescan              (SlWorkspace         *self,
                                                  SlFolder            *folder);
void            sl_workspace_rescan_around       (SlWorkspace         *self,
                                                  const char          *path);
gboolean        sl_workspace_remove_folder       (SlWorkspace         *self,
                                                  const char          *path);
void            sl_workspace_cancel_scans        (SlWorkspace         *self);
guint           sl_workspace_get_n_scanning      (SlWorkspace         *self);
void            sl_workspace_note_run_read       (SlWorkspace         *self,
                                                  const char          *run_path,
                                                  const char * const  *tags,
                                                  const char * const  *files,
                                                  const guint64       *offsets,
                                                  guint                n_files);

SlTargetRecord *sl_workspace_lookup_target       (SlWorkspace         *self,
                                                  gint64               target_id);
gint64          sl_workspace_get_local_target_id (SlWorkspace         *self);
void            sl_workspace_save_target_async   (SlWorkspace         *self,
                                                  SlTargetRecord      *target,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
void            sl_workspace_remove_target_async (SlWorkspace         *self,
                                                  gint64               target_id,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
void            sl_workspace_save_project_async  (SlWorkspace         *self,
                                                  SlProjectRecord     *project,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
void            sl_workspace_remove_project_async (SlWorkspace        *self,
                                                  gint64               project_id,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
void            sl_workspace_add_job_async       (SlWorkspace         *self,
                                                  SlJobRecord         *job,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
void            sl_workspace_finish_job          (SlWorkspace         *self,
                                                  SlJobRecord         *job);
void            sl_workspace_reload_jobs         (SlWorkspace         *self);
gboolean        sl_workspace_change_finish       (SlWorkspace         *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

void            sl_workspace_run_async           (SlWorkspace         *self,
                                                  SlWorkspaceFunc      func,
                                                  gpointer             data,
                                                  GDestroyNotify       data_destroy,
                                                  GDestroyNotify       result_destroy,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gpointer        sl_workspace_run_finish          (SlWorkspace         *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
gpointer        sl_workspace_run_sync            (SlWorkspace         *self,
                                                  SlWorkspaceFunc      func,
                                                  gpointer             data,
                                                  GError             **error);
void            sl_workspace_flush               (SlWorkspace         *self);

/* Offers a tensor comparison's verdicts to the open documents. */
void            sl_workspace_publish_tensor_verdicts (SlWorkspace        *self,
                                                      GListModel         *rows);

G_END_DECLS
