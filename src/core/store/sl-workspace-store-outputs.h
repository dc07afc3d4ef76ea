/* sl-workspace-store-outputs.h: what workflows made for a project, in the workspace database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-workspace-store.h"

G_BEGIN_DECLS

/* One output as the database keeps it; strings owned by the struct. */
typedef struct {
  gint64  id;
  char   *project_folder;  /* the project's folder on this computer */
  char   *target_name;
  char   *kind;            /* "om" for a model ATC converted */
  char   *path;            /* where it is on the target */
  char   *source;          /* what it was made from, or NULL */
  gint64  created_at;
} SlProjectOutputRow;

void       sl_project_output_row_free                (SlProjectOutputRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlProjectOutputRow, sl_project_output_row_free)

/* Adds @row, or refreshes the one with the same folder, target and path
 * (a model converted again); @row's id and time are set. */
gboolean   sl_workspace_store_add_project_output      (SlWorkspaceStore   *self,
                                                       SlProjectOutputRow *row,
                                                       GError            **error);
/* The outputs of @project_folder, newest first (SlProjectOutputRow). */
GPtrArray *sl_workspace_store_list_project_outputs    (SlWorkspaceStore   *self,
                                                       const char         *project_folder,
                                                       GError            **error);

G_END_DECLS
