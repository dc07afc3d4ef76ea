/* sl-image-reserve.h: an image made ready on a worker thread
 *
 * A big image's memory is given by the system a page at a time, as it is
 * first written: a view-sized image at 1920 × 1080 (12 MB) took 5 to 6 ms
 * of page faults on this project's test machines, more than a whole frame
 * of drawing. A view that knows its size before it has anything to show
 * (a trace still loading) asks for its images here; a worker makes each
 * one and writes a byte of every page, and the first frame takes them
 * ready.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlImageReserve SlImageReserve;

SlImageReserve  *sl_image_reserve_new        (int             width,
                                              int             height,
                                              double          scale);
gboolean         sl_image_reserve_is_ready   (SlImageReserve *self);
cairo_surface_t *sl_image_reserve_take       (SlImageReserve *self,
                                              int             min_width,
                                              int             min_height,
                                              double          scale);
void             sl_image_reserve_free       (SlImageReserve *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlImageReserve, sl_image_reserve_free)

G_END_DECLS
