/* sl-pixel-line.c: antialiased straight lines blended into image pixels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-pixel-line.h"

/* x · a / 255, rounded, for 8-bit values */
static inline guint
mul_un8 (guint x,
         guint a)
{
  guint t = x * a + 128;

  return (t + (t >> 8)) >> 8;
}

/**
 * sl_pixel_colour:
 *
 * Returns: the colour as an ARGB32 pixel: premultiplied, in the host's
 * byte order, alpha in the top byte
 */
guint32
sl_pixel_colour (double red,
                 double green,
                 double blue,
                 double alpha)
{
  guint a = (guint)(CLAMP (alpha, 0, 1) * 255 + 0.5);
  const double channels[3] = { red, green, blue };
  guint32 pixel = (guint32)a << 24;

  for (guint c = 0; c < 3; c++)
    pixel |= (guint32)mul_un8 ((guint)(CLAMP (channels[c], 0, 1) * 255 + 0.5), a) << (16 - 8 * c);
  return pixel;
}

/* @cover (0 to 1) of @colour over the pixel at @p */
static inline void
blend_pixel (guint32 *p,
             guint32  colour,
             double   cover)
{
  guint a = (guint)(MIN (cover, 1.0) * 255 + 0.5);
  guint keep, out = 0;

  if (a == 0)
    return;
  keep = 255 - mul_un8 (colour >> 24, a);
  for (guint shift = 0; shift < 32; shift += 8)
    out |= (mul_un8 ((colour >> shift) & 0xff, a) + mul_un8 ((*p >> shift) & 0xff, keep)) << shift;
  *p = out;
}

/* How much of [p, p + 1] lies in [lo, hi] */
static inline double
overlap (double p,
         double lo,
         double hi)
{
  return MAX (0.0, MIN (p + 1, hi) - MAX (p, lo));
}

/* Pixels across a row a line may cover at once: lines are a few pixels
 * wide. */
#define MAX_ACROSS 64
/* Strips of a row through either end of a slanted line */
#define END_STRIPS 8

/**
 * sl_pixel_line_blend:
 * @data: an ARGB32 image's pixels
 * @stride: bytes from one of its rows to the next
 * @clip: the pixels that may change
 * @x0: the start, in device pixels from @clip's origin column
 * @y0: the start's row, in device pixels from the image's top
 * @width: the line's width in device pixels
 * @colour: from sl_pixel_colour()
 *
 * Blends a straight line with butt ends. Along its longer axis, each
 * pixel row (or column) the line crosses is cut into a few strips, more
 * the more the line slants; in each strip the line covers, across it, its
 * width measured along the row, centred where the line crosses the
 * strip's middle. A pixel's cover is the area of the strips' crossings in
 * it, and depends only on the line and the pixel: a line split over clips
 * that meet gives the same pixels as whole.
 */
void
sl_pixel_line_blend (guchar            *data,
                     int                stride,
                     const SlPixelClip *clip,
                     double             x0,
                     double             y0,
                     double             x1,
                     double             y1,
                     double             width,
                     guint32            colour)
{
  double dx = x1 - x0, dy = y1 - y0;
  gboolean steep = fabs (dy) >= fabs (dx);
  /* along: the longer axis; across: the other */
  double a0 = steep ? y0 : x0, a1 = steep ? y1 : x1, c0 = steep ? x0 : y0, c1 = steep ? x1 : y1;
  double along_lo = steep ? clip->top : 0, along_hi = steep ? clip->bottom : clip->width;
  double across_lo = steep ? 0 : clip->top, across_hi = steep ? clip->width : clip->bottom;
  double length, ua, uc, slope, half, reach, lo, hi;
  double cover[MAX_ACROSS];
  int n_strips;

  g_return_if_fail (data != NULL && clip != NULL);

  if (!(fabs (dx) + fabs (dy) > 1e-9) || !(width > 0) || !isfinite (dx) || !isfinite (dy) || !isfinite (a0)
      || !isfinite (c0))
    return;
  length = hypot (dx, dy);
  ua = (a1 - a0) / length;
  uc = (c1 - c0) / length;
  slope = (c1 - c0) / (a1 - a0);
  half = width / 2 * sqrt (1 + slope * slope);
  /* how far the butt ends' corners reach past the ends along */
  reach = width / 2 * fabs (uc);
  if (2 * half + 3 > MAX_ACROSS)
    return;
  n_strips = 1 + (int)(fabs (slope) * 4);
  lo = MAX (MIN (a0, a1) - reach, along_lo);
  hi = MIN (MAX (a0, a1) + reach, along_hi);
  for (double i = floor (lo); i < hi; i++)
    {
      double row_lo = MAX (i, lo), row_hi = MIN (i + 1, hi);
      /* rows through an end, which cuts across them, in more strips */
      gboolean at_end = row_lo < MIN (a0, a1) + reach || row_hi > MAX (a0, a1) - reach;
      int n_row_strips = at_end ? MAX (n_strips, END_STRIPS) : n_strips;
      double strip = (row_hi - row_lo) / n_row_strips;
      double m_lo = c0 + (row_lo - a0) * slope, m_hi = c0 + (row_hi - a0) * slope;
      double first = MAX (floor (MIN (m_lo, m_hi) - half), across_lo);
      double end = MIN (ceil (MAX (m_lo, m_hi) + half), across_hi);
      int n = (int)MAX (end - first, 0.0);

      memset (cover, 0, sizeof cover);
      for (int k = 0; k < n_row_strips; k++)
        {
          double a = row_lo + (k + 0.5) * strip;
          double middle = c0 + (a - a0) * slope;
          double from = middle - half, to = middle + half;

          /* between the butt ends: 0 <= (p - start) · u <= length */
          if (uc != 0)
            {
              double e0 = c0 - (a - a0) * ua / uc, e1 = c0 + (length - (a - a0) * ua) / uc;

              from = MAX (from, MIN (e0, e1));
              to = MIN (to, MAX (e0, e1));
            }
          else if ((a - a0) * ua < 0 || (a - a0) * ua > length)
            continue;
          for (int j = 0; j < n && from < to; j++)
            cover[j] += strip * overlap (first + j, from, to);
        }
      for (int j = 0; j < n; j++)
        {
          int px = (int)(steep ? first + j : i), py = (int)(steep ? i : first + j);

          blend_pixel ((guint32 *)(gpointer)(data + (gsize)py * stride) + clip->origin + px, colour, cover[j]);
        }
    }
}
