/* sl-run-dialog.h: asks for a command to run and where
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-project-record.h"
#include "sl-slurm-options.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_RUN_DIALOG (sl_run_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlRunDialog, sl_run_dialog, SL, RUN_DIALOG, AdwWindow)

SlRunDialog *sl_run_dialog_new      (const char  *working_dir);
void         sl_run_dialog_set_command (SlRunDialog *self,
                                     const char  *command);
gboolean     sl_run_dialog_validate (SlRunDialog *self,
                                     char       **message);
void         sl_run_dialog_set_targets (SlRunDialog *self,
                                        GListModel  *targets,
                                        gint64       selected_id);
void         sl_run_dialog_set_pull_dirs (SlRunDialog *self,
                                          const char  *pull_dirs);
const char  *sl_run_dialog_get_command_preview (SlRunDialog *self);
void         sl_run_dialog_set_slurm    (SlRunDialog *self,
                                         gboolean     slurm);
SlSlurmOptions *sl_run_dialog_dup_slurm_options (SlRunDialog *self,
                                         GError     **error);
void         sl_run_dialog_set_projects (SlRunDialog *self,
                                         GPtrArray   *projects);
void         sl_run_dialog_select_config (SlRunDialog *self,
                                          guint        index);
SlProjectRecord *sl_run_dialog_get_project (SlRunDialog *self);
gboolean     sl_run_dialog_keep_slurm_choices (SlRunDialog *self);
const char  *sl_run_dialog_get_command  (SlRunDialog *self);
const char  *sl_run_dialog_get_folder   (SlRunDialog *self);
void         sl_run_dialog_start_from   (SlRunDialog *self,
                                         SlWorkspace *workspace,
                                         const char  *current_folder);

G_END_DECLS
