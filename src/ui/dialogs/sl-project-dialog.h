/* sl-project-dialog.h: project settings and their run configurations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_PROJECT_DIALOG (sl_project_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlProjectDialog, sl_project_dialog, SL, PROJECT_DIALOG, AdwWindow)

SlProjectDialog *sl_project_dialog_new                (SlWorkspace      *workspace);
gboolean         sl_project_dialog_select_project     (SlProjectDialog  *self,
                                                       gint64            project_id);
SlProjectRecord *sl_project_dialog_build_record       (SlProjectDialog  *self,
                                                       GError          **error);
gboolean         sl_project_dialog_get_can_save       (SlProjectDialog  *self);
guint            sl_project_dialog_get_n_run_configs  (SlProjectDialog  *self);

G_END_DECLS
