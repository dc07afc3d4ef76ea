/* sl-target-dialog.h: adds or edits an SSH target, and tests it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-workspace.h"
#include "sl-ssh-session.h"

G_BEGIN_DECLS

typedef enum {
  SL_TARGET_STEP_IDLE,      /* not tested yet */
  SL_TARGET_STEP_RUNNING,
  SL_TARGET_STEP_OK,
  SL_TARGET_STEP_WARNING,
  SL_TARGET_STEP_FAILED,
  SL_TARGET_STEP_SKIPPED,   /* not reached: an earlier step failed, or the test was cancelled */
} SlTargetStepState;

#define SL_TYPE_TARGET_DIALOG (sl_target_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlTargetDialog, sl_target_dialog, SL, TARGET_DIALOG, AdwWindow)

SlTargetDialog    *sl_target_dialog_new             (SlWorkspace     *workspace);
SlTargetDialog    *sl_target_dialog_new_for_target  (SlWorkspace     *workspace,
                                                     SlTargetRecord  *target);
SlTargetRecord    *sl_target_dialog_build_record    (SlTargetDialog  *self,
                                                     GError         **error);
gboolean           sl_target_dialog_get_can_save    (SlTargetDialog  *self);
gboolean           sl_target_dialog_is_testing      (SlTargetDialog  *self);
void               sl_target_dialog_set_timeout     (SlTargetDialog  *self,
                                                     guint            seconds);
SlTargetStepState  sl_target_dialog_get_step_state  (SlTargetDialog  *self,
                                                     SlSshStep        step,
                                                     const char     **detail);
GtkWidget         *sl_target_dialog_confirm_remove  (GtkWindow       *parent,
                                                     SlWorkspace     *workspace,
                                                     SlTargetRecord  *target);

G_END_DECLS
