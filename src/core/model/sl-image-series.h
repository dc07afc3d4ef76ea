/* sl-image-series.h: one image tag of one run, every step kept
 *
 * Per point the step, wall time, size, colorspace (1 gray, 2 gray+alpha,
 * 3 RGB, 4 RGBA, 5 YUV, 6 BGRA) and the encoded (PNG) bytes as written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_IMAGE_SERIES (sl_image_series_get_type ())
G_DECLARE_FINAL_TYPE (SlImageSeries, sl_image_series, SL, IMAGE_SERIES, GObject)

SlImageSeries *sl_image_series_new             (const char    *tag);
const char    *sl_image_series_get_tag         (SlImageSeries *self);
guint          sl_image_series_get_n_points    (SlImageSeries *self);
const gint64  *sl_image_series_get_steps       (SlImageSeries *self);
const double  *sl_image_series_get_wall_times  (SlImageSeries *self);
void           sl_image_series_get_image       (SlImageSeries *self,
                                                guint          index,
                                                int           *width,
                                                int           *height,
                                                int           *colorspace,
                                                GBytes       **encoded);
void           sl_image_series_append          (SlImageSeries *self,
                                                gint64         step,
                                                double         wall_time,
                                                int            width,
                                                int            height,
                                                int            colorspace,
                                                GBytes        *encoded);
guint          sl_image_series_get_n_restarts  (SlImageSeries *self);
void           sl_image_series_absorb          (SlImageSeries *self,
                                                SlImageSeries *delta);

G_END_DECLS
