/* sl-dialog-project.h: the project and folder a dialog starts from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-project-record.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

gboolean         sl_dialog_project_is_pulled_copy (const char      *folder);
SlProjectRecord *sl_dialog_project_find           (SlWorkspace     *workspace,
                                                   const char      *current_folder);
char            *sl_dialog_project_dup_folder     (SlProjectRecord *project,
                                                   const char      *current_folder);
void             sl_dialog_project_note_used      (SlProjectRecord *project);

G_END_DECLS
