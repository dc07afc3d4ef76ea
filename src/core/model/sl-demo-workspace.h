/* sl-demo-workspace.h: writes the demo workspace that a first start opens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean sl_demo_workspace_ensure (const char  *path,
                                   GError     **error);

G_END_DECLS
