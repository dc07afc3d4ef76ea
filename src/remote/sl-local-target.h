/* sl-local-target.h: this computer as a target, through GSubprocess
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-target.h"

G_BEGIN_DECLS

#define SL_TYPE_LOCAL_TARGET (sl_local_target_get_type ())
G_DECLARE_FINAL_TYPE (SlLocalTarget, sl_local_target, SL, LOCAL_TARGET, SlTarget)

SlTarget *sl_local_target_new (void);

G_END_DECLS
