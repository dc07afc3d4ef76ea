/* sl-pixel-line.h: antialiased straight lines blended into image pixels
 *
 * For lines drawn by the thousand a frame (the timeline's flows), where a
 * cairo stroke's scan conversion costs more than the line: the line's
 * cover of each pixel is worked out along its longer axis and blended
 * into an ARGB32 image's pixels straight away. It looks as a butt-capped
 * cairo stroke of the same width does, within a few levels at the edges.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where lines may be blended, in device pixels: columns [origin, origin +
 * width) and rows [top, bottom) of the image. */
typedef struct {
  int origin;
  int width;
  int top;
  int bottom;
} SlPixelClip;

/* A pixel a line was blended over: its place, in pixels from the start of
 * the image's data, and what it was. */
typedef struct {
  guint32 place;
  guint32 pixel;
} SlPixelUnder;

guint32 sl_pixel_colour     (double             red,
                             double             green,
                             double             blue,
                             double             alpha);
void    sl_pixel_line_blend (guchar            *data,
                             int                stride,
                             const SlPixelClip *clip,
                             double             x0,
                             double             y0,
                             double             x1,
                             double             y1,
                             double             width,
                             guint32            colour,
                             GArray            *under);
void    sl_pixel_restore    (guchar            *data,
                             GArray            *under);

G_END_DECLS
