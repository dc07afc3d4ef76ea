/* sl-profile-tables.h: every CSV table the profile loader reads
 *
 * The column specs of sl-profile-step-tables and sl-profile-op-tables,
 * in one list: a new table is a spec there and a line here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-profile-table-reader.h"

G_BEGIN_DECLS

/* The specs, in reading order; @n_tables is set to their number. */
const SlProfileTableSpec *const *sl_profile_tables         (guint             *n_tables);
/* The spec that reads files of @kind, or NULL (the JSON, memory,
 * communication and SQLite files have readers of their own). */
const SlProfileTableSpec        *sl_profile_table_for_kind (SlProfileFileKind  kind);

G_END_DECLS
