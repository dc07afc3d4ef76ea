/* sl-workspace-store-private.h: for the files of SlWorkspaceStore
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "sl-workspace-store.h"

G_BEGIN_DECLS

sqlite3 *sl_workspace_store_get_db    (SlWorkspaceStore  *self);
void     sl_workspace_store_set_error (SlWorkspaceStore  *self,
                                       GError           **error,
                                       int                rc,
                                       const char        *what);

G_END_DECLS
