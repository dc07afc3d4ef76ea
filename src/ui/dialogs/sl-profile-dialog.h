/* sl-profile-dialog.h: profiles a program on a target, with msprof or its framework's profiler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-msprof-command.h"
#include "sl-project-record.h"
#include "sl-profile-workflow.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_PROFILE_DIALOG (sl_profile_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlProfileDialog, sl_profile_dialog, SL, PROFILE_DIALOG, AdwWindow)

SlProfileDialog *sl_profile_dialog_new               (const char      *project_dir);
void             sl_profile_dialog_set_targets       (SlProfileDialog *self,
                                                      GListModel      *targets,
                                                      gint64           selected_id);
void             sl_profile_dialog_set_program       (SlProfileDialog *self,
                                                      const char      *command_line);
void             sl_profile_dialog_set_env_script    (SlProfileDialog *self,
                                                      const char      *path);
void             sl_profile_dialog_load_command      (SlProfileDialog *self,
                                                      SlMsprofCommand *command);
void             sl_profile_dialog_set_projects      (SlProfileDialog *self,
                                                      GPtrArray       *projects);
gboolean         sl_profile_dialog_select_config     (SlProfileDialog   *self,
                                                      SlRunConfigRecord *config);
SlRunConfigRecord *sl_profile_dialog_create_run_config (SlProfileDialog *self,
                                                      SlProjectRecord *project);
gboolean         sl_profile_dialog_validate          (SlProfileDialog *self,
                                                      char           **message);
/* The command as the fields describe it (transfer none). */
SlMsprofCommand *sl_profile_dialog_get_command       (SlProfileDialog *self);
const char      *sl_profile_dialog_get_command_preview (SlProfileDialog *self);
/* Following a run started from the dialog's ::start. */
GCancellable    *sl_profile_dialog_begin_run         (SlProfileDialog   *self,
                                                      SlProfileWorkflow *workflow);
gboolean         sl_profile_dialog_end_run           (SlProfileDialog   *self,
                                                      const GError      *error);
gboolean         sl_profile_dialog_is_running        (SlProfileDialog   *self);
void             sl_profile_dialog_start_from        (SlProfileDialog *self,
                                                      SlWorkspace     *workspace,
                                                      const char      *current_folder);

G_END_DECLS
