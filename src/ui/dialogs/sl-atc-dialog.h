/* sl-atc-dialog.h: converts a model with ATC on a target, each field checked as it is typed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-project-record.h"
#include "sl-workspace.h"

#include "sl-atc-command.h"
#include "sl-convert-workflow.h"

G_BEGIN_DECLS

#define SL_TYPE_ATC_DIALOG (sl_atc_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlAtcDialog, sl_atc_dialog, SL, ATC_DIALOG, AdwWindow)

SlAtcDialog  *sl_atc_dialog_new                 (const char  *project_dir);
void          sl_atc_dialog_set_targets         (SlAtcDialog *self,
                                                 GListModel  *targets,
                                                 gint64       selected_id);
/* The problems of the fields as they stand (SlProblem, transfer none). */
GPtrArray    *sl_atc_dialog_get_problems        (SlAtcDialog *self);
SlAtcCommand *sl_atc_dialog_get_command         (SlAtcDialog *self);
const char   *sl_atc_dialog_get_command_preview (SlAtcDialog *self);
void          sl_atc_dialog_follow              (SlAtcDialog       *self,
                                                 SlConvertWorkflow *workflow,
                                                 const char        *project_dir);
gboolean      sl_atc_dialog_is_running          (SlAtcDialog *self);
void          sl_atc_dialog_set_projects        (SlAtcDialog *self,
                                                 GPtrArray   *projects);
gboolean      sl_atc_dialog_select_config       (SlAtcDialog       *self,
                                                 SlRunConfigRecord *config);
void          sl_atc_dialog_start_from          (SlAtcDialog *self,
                                                 SlWorkspace *workspace,
                                                 const char  *current_folder);

G_END_DECLS
