/* sl-parallel-coordinates.h: runs as lines across one axis a column,
 * brushed by dragging along an axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-lineage-table.h"

G_BEGIN_DECLS

#define SL_TYPE_PARALLEL_COORDINATES (sl_parallel_coordinates_get_type ())
G_DECLARE_FINAL_TYPE (SlParallelCoordinates, sl_parallel_coordinates, SL, PARALLEL_COORDINATES, GtkWidget)

GtkWidget *sl_parallel_coordinates_new           (void);
/* @axes: column indices, left to right; @target: the column that colours
 * the lines, or -1. Clears the brushes. */
void       sl_parallel_coordinates_set_table     (SlParallelCoordinates *self,
                                                  SlLineageTable        *table,
                                                  GArray                *axes,
                                                  gint                   target);
guint      sl_parallel_coordinates_get_n_axes    (SlParallelCoordinates *self);
void       sl_parallel_coordinates_set_selected  (SlParallelCoordinates *self,
                                                  gint                   run);
/* @low and @high are places along the axis, 0 at the bottom, 1 at the top. */
void       sl_parallel_coordinates_set_brush     (SlParallelCoordinates *self,
                                                  guint                  axis,
                                                  double                 low,
                                                  double                 high);
void       sl_parallel_coordinates_clear_brushes (SlParallelCoordinates *self);
gboolean   sl_parallel_coordinates_has_brush     (SlParallelCoordinates *self);
gboolean   sl_parallel_coordinates_is_brushed    (SlParallelCoordinates *self,
                                                  guint                  run);
/* The filters of the table changed: the runs that fail them are not drawn. */
void       sl_parallel_coordinates_refresh       (SlParallelCoordinates *self);

G_END_DECLS
