/* sl-memory-row.h: one row of the Memory page's tables
 *
 * A name, which the filter matches, and per column the text shown and
 * the number it sorts by, so one type serves the allocations, the
 * holders at the peak, the components and the modules.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_MEMORY_ROW_MAX_COLUMNS 8

#define SL_TYPE_MEMORY_ROW (sl_memory_row_get_type ())
G_DECLARE_FINAL_TYPE (SlMemoryRow, sl_memory_row, SL, MEMORY_ROW, GObject)

SlMemoryRow *sl_memory_row_new      (const char  *name,
                                     guint        index);
const char  *sl_memory_row_get_name (SlMemoryRow *self);
/* What the row came from: the allocation's index, or the curve's. */
guint        sl_memory_row_get_index (SlMemoryRow *self);
/* @text is taken; @key NAN sorts last. */
void         sl_memory_row_set_cell (SlMemoryRow *self,
                                     guint        column,
                                     char        *text,
                                     double       key);
const char  *sl_memory_row_get_text (SlMemoryRow *self,
                                     guint        column);
double       sl_memory_row_get_key  (SlMemoryRow *self,
                                     guint        column);

G_END_DECLS
