/* sl-workspace-private.h: for the files of SlWorkspace
 *
 * The workspace is one object in several files, one job each:
 * sl-workspace.c is the GObject with its properties and signals,
 * -writer.c the writer thread and its queue, -load.c opens the database
 * and fills the models, -folders.c opens paths and scans folders,
 * -run-index.c keeps what scans found and views read, -recent-folders.c
 * the folders opened lately, -records.c the targets, projects and jobs
 * written through the workspace, -watch.c what other programs change,
 * and -problems.c what went wrong with the database. Only the files of
 * the workspace include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gi18n.h>

#include "sl-problem.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

/* How many of the latest jobs the jobs model holds. */
#define SL_WORKSPACE_JOBS_SHOWN 50

/*
 * The workspace lives in the main thread: its models change there only.
 * Everything that reads or writes the database is queued, in order, on
 * one writer thread that owns the connection, and its result comes back
 * to the main context. Nothing here waits for the disk on the caller's
 * thread, except sl_workspace_run_sync() and sl_workspace_flush(), which
 * are for programs without a main loop and for quitting.
 */
struct _SlWorkspace
{
  GObject           parent_instance;

  char             *db_path;
  GMainContext     *context;
  GThreadPool      *writer;
  GThread          *writer_thread;   /* set by the writer itself */

  /* Writer thread only */
  SlWorkspaceStore *store;
  GError           *store_error;
  gboolean          store_tried;

  GListStore       *folders;
  GListStore       *targets;
  GListStore       *projects;
  GListStore       *recent_folders;
  GListStore       *jobs;
  GListStore       *problems;
  GCancellable     *scan_cancellable;
  GSource          *watch_source;
  guint             n_scanning;
  guint             has_store : 1;
  guint             loaded : 1;
  guint             watch_pending : 1;
};

/* The GObject (sl-workspace.c) */

void       sl_workspace_notify_loaded          (SlWorkspace  *self);
void       sl_workspace_notify_n_scanning      (SlWorkspace  *self);
void       sl_workspace_emit_folder_scanned    (SlWorkspace  *self,
                                                SlFolder     *folder,
                                                GError       *error);
void       sl_workspace_replace_all            (GListStore   *store,
                                                GPtrArray    *items);

/* The writer thread (sl-workspace-writer.c) */

void       sl_workspace_writer_func            (gpointer      data,
                                                gpointer      pool_data);
/* Finishes a write that needs no answer; @user_data is what failed, for
 * the warning. */
void       sl_workspace_write_done_cb          (GObject      *object,
                                                GAsyncResult *result,
                                                gpointer      user_data);

/* Problems (sl-workspace-problems.c) */

void       sl_workspace_add_problem            (SlWorkspace  *self,
                                                SlSeverity    severity,
                                                const char   *path,
                                                const char   *message);
void       sl_workspace_warn_unless_cancelled  (SlWorkspace  *self,
                                                const char   *what,
                                                GError       *error);
void       sl_workspace_report_open_failed     (SlWorkspace  *self,
                                                GError       *error);
void       sl_workspace_report_recovery        (SlWorkspace  *self,
                                                const char   *message);

/* Folders and scans (sl-workspace-folders.c) */

void       sl_workspace_start_scan             (SlWorkspace  *self,
                                                SlFolder     *folder);
void       sl_workspace_scan_ended             (SlWorkspace  *self,
                                                SlFolder     *folder,
                                                GError       *error);
void       sl_workspace_remember_folders       (SlWorkspace  *self);

/* The run index (sl-workspace-run-index.c) */

GPtrArray *sl_workspace_indexed_findings       (SlWorkspaceStore *store,
                                                const char       *root);
void       sl_workspace_index_folder           (SlWorkspace  *self,
                                                SlFolder     *folder);

/* Recent folders (sl-workspace-recent-folders.c) */

GPtrArray *sl_workspace_list_recent_files      (SlWorkspaceStore  *store,
                                                GError           **error);
void       sl_workspace_note_recent_folder     (SlWorkspace  *self,
                                                const char   *path);

/* Changes by other programs (sl-workspace-watch.c) */

void       sl_workspace_start_watching         (SlWorkspace  *self);
void       sl_workspace_stop_watching          (SlWorkspace  *self);

G_END_DECLS
