/* sl-exclude-row.h: one pattern the project's upload leaves out, as a row
 * of the Project dialog with a button that takes it off
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SL_TYPE_EXCLUDE_ROW (sl_exclude_row_get_type ())
G_DECLARE_FINAL_TYPE (SlExcludeRow, sl_exclude_row, SL, EXCLUDE_ROW, AdwActionRow)

/* The row's button activates "project.remove-exclude" with the pattern. */
GtkWidget  *sl_exclude_row_new         (const char   *pattern);
const char *sl_exclude_row_get_pattern (SlExcludeRow *self);

G_END_DECLS
