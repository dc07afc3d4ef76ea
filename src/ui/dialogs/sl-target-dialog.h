/* sl-target-dialog.h: adds an SSH server as a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-application.h"

G_BEGIN_DECLS

#define SL_TYPE_TARGET_DIALOG (sl_target_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlTargetDialog, sl_target_dialog, SL, TARGET_DIALOG, AdwWindow)

SlTargetDialog *sl_target_dialog_new            (SlApplication  *app);
SlTargetRecord *sl_target_dialog_build_record   (SlTargetDialog *self,
                                                 GError        **error);

G_END_DECLS
