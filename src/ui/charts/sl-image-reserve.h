/* sl-image-reserve.h: an image made ready on a worker thread
 *
 * A big image's memory is given by the system a page at a time, as it is
 * first written: a view-sized image at 1920 × 1080 (12 MB) took 5 to 6 ms
 * of page faults on this project's test machines, more than a whole frame
 * of drawing. A view that knows its size before it has anything to show
 * (a trace still loading) asks for its images here; a worker makes each
 * one and writes all of it, and the first frame takes them ready.
 *
 * The worker asks for pages of 2 MB, which the system may take long to
 * find (tens of milliseconds, gathering free memory) but which the
 * frames then reach through far fewer entries of the processor's address
 * cache: a view-sized image's rows are 8 kB or more apart, a 4 kB page
 * each, and a flow drawn down a tile's column of 1,080 rows missed that
 * cache on every row. Frames at a new zoom, drawn in turn by a view with
 * these images and one with images of its own (medians of 128 frames
 * each, the other core busy): 6 % less processor time at 10 % and 1 % of
 * 8 M slices, 2 to 4 % at 10 % of 32 M, the same at the full view.
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
