/* sl-series-lod.h: level of detail for drawing long series
 *
 * Keeps a copy of a series' values and a pyramid of block extents (16,
 * 256, 4096 and 65536 points), so the extent of any index range costs at
 * most about a hundred reads. A frame then asks for one column per pixel:
 * its min and max (the vertical stroke) and its first and last value (to
 * join the neighbours), never touching every point.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One pixel column. n counts drawable points: finite, and positive on a
 * log axis; the others are counted in n_skipped. min, max, first and last
 * are NaN when n is 0. */
typedef struct {
  double min;
  double max;
  double first;
  double last;
  guint  n;
  guint  n_skipped;
} SlLodColumn;

typedef struct _SlSeriesLod SlSeriesLod;

SlSeriesLod  *sl_series_lod_new          (void);
void          sl_series_lod_free         (SlSeriesLod  *self);
void          sl_series_lod_append       (SlSeriesLod  *self,
                                          const double *values,
                                          guint         n);
void          sl_series_lod_truncate     (SlSeriesLod  *self,
                                          guint         n_points);
guint         sl_series_lod_get_n_points (SlSeriesLod  *self);
const double *sl_series_lod_get_values   (SlSeriesLod  *self);
void          sl_series_lod_range        (SlSeriesLod  *self,
                                          guint         start,
                                          guint         end,
                                          gboolean      log_y,
                                          SlLodColumn  *column);
void          sl_series_lod_query        (SlSeriesLod  *self,
                                          const double *x,
                                          double        x_min,
                                          double        x_max,
                                          guint         width,
                                          gboolean      log_y,
                                          SlLodColumn  *columns);

double        sl_lod_column_edge         (double        x_min,
                                          double        x_max,
                                          guint         width,
                                          guint         column);
guint         sl_lod_lower_bound         (const double *x,
                                          guint         n,
                                          double        at);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSeriesLod, sl_series_lod_free)

G_END_DECLS
