/* sl-workspace-schema.h: the migrations of the workspace database
 *
 * Private to the store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint               sl_workspace_schema_get_latest_version (void);
const char * const *sl_workspace_schema_get_steps          (guint version);

G_END_DECLS
