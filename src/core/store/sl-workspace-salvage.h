/* sl-workspace-salvage.h: what can be read of a damaged workspace
 * database, and whether a write-ahead log can belong to a database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "sl-workspace-recovery.h"

G_BEGIN_DECLS

gboolean sl_workspace_read_db_header  (const char           *db_path,
                                       guint32              *page_size,
                                       gboolean             *wal_mode);
gboolean sl_workspace_wal_header_fits (const char           *wal_path,
                                       guint32               db_page_size,
                                       char                **reason);
gboolean sl_workspace_salvage         (sqlite3              *from,
                                       sqlite3              *to,
                                       SlWorkspaceRecovery  *report,
                                       GError              **error);

G_END_DECLS
