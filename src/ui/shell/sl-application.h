/* sl-application.h: the Sightline application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-session.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

#define SL_TYPE_APPLICATION (sl_application_get_type ())
G_DECLARE_FINAL_TYPE (SlApplication, sl_application, SL, APPLICATION, AdwApplication)

SlApplication *sl_application_new           (void);
SlWorkspace   *sl_application_get_workspace (SlApplication *self);
SlSession     *sl_application_get_session   (SlApplication *self);

G_END_DECLS
