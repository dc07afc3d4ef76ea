/* sl-performance-tile.h: one figure of the performance report as a tile of
 * the Advisor's flow box
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-performance-report.h"

G_BEGIN_DECLS

#define SL_TYPE_PERFORMANCE_TILE (sl_performance_tile_get_type ())
G_DECLARE_FINAL_TYPE (SlPerformanceTile, sl_performance_tile, SL, PERFORMANCE_TILE, GtkFlowBoxChild)

/* The tile is named by @item's key, for finding it. */
GtkWidget  *sl_performance_tile_new       (const SlPerformanceItem *item);
const char *sl_performance_tile_get_value (SlPerformanceTile       *self);
const char *sl_performance_tile_get_label (SlPerformanceTile       *self);

G_END_DECLS
