/* sl-pixel-line.c: antialiased straight lines blended into image pixels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

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

/* Each 8-bit channel of @x times @a / 255, rounded: the red and blue
 * channels at once, then the alpha and green ones. */
static inline guint32
mul_pixel (guint32 x,
           guint   a)
{
  guint32 rb = (x & 0x00ff00ff) * a + 0x00800080;
  guint32 ag = ((x >> 8) & 0x00ff00ff) * a + 0x00800080;

  rb = ((rb + ((rb >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
  ag = (ag + ((ag >> 8) & 0x00ff00ff)) & 0xff00ff00;
  return rb | ag;
}

/* @cover (0 to 1) of @colour over the pixel at @p; @under, when there is
 * one, gets the pixel as it was first. No channel passes 255: a
 * premultiplied colour's channels are at most its alpha, so the two parts
 * add up to at most 255 each. */
static inline void
blend_pixel (guint32 *p,
             guint32  colour,
             double   cover,
             guchar  *data,
             GArray  *under)
{
  guint a = (guint)(MIN (cover, 1.0) * 255 + 0.5);

  if (a == 0)
    return;
  if (under != NULL)
    {
      SlPixelUnder was = { (guint32)(p - (guint32 *)(gpointer)data), *p };

      g_array_append_val (under, was);
    }
  *p = mul_pixel (colour, a) + mul_pixel (*p, 255 - mul_un8 (colour >> 24, a));
}

/* floor (@v) for @v within a few pixels of a clip, which a cast to an
 * integer gives without a call */
static inline int
floor_int (double v)
{
  int i = (int)v;

  return i > v ? i - 1 : i;
}

/* How much of [p, p + 1] lies in [lo, hi] */
static inline double
overlap (double p,
         double lo,
         double hi)
{
  return MAX (0.0, MIN (p + 1, hi) - MAX (p, lo));
}

/* Rows ahead whose pixels a steep line asks for: the first read of each
 * row's pixel was half the blend's time. Frames at a new zoom each at
 * 10 % of 8 M and 32 M slices (a dozen flows a tile, 950 rows tall), in
 * turn in one run, 512 frames each: 5.57 against 5.76 ms, 5.39 against
 * 5.52, 7.25 against 7.42 and 6.74 against 6.88; 4, 8 and 24 rows ahead
 * did about as well. */
#define ROWS_AHEAD 16
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
 * @under: (element-type SlPixelUnder) (nullable): when given, gets every
 *   pixel the line changes as it was, in the order changed, for
 *   sl_pixel_restore()
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
                     guint32            colour,
                     GArray            *under)
{
  double dx = x1 - x0, dy = y1 - y0;
  gboolean steep = fabs (dy) >= fabs (dx);
  /* along: the longer axis; across: the other */
  double a0 = steep ? y0 : x0, a1 = steep ? y1 : x1, c0 = steep ? x0 : y0, c1 = steep ? x1 : y1;
  double along_lo = steep ? clip->top : 0, along_hi = steep ? clip->bottom : clip->width;
  double across_lo = steep ? 0 : clip->top, across_hi = steep ? clip->width : clip->bottom;
  double length, ua, uc, slope, half, reach, lo, hi, row_first, row_end;
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
  row_first = floor (lo);
  row_end = hi;
  /* only the rows where the line is within reach of the clip across
   * (whole rows, so that a row's cover stays what it is) */
  if (slope != 0)
    {
      double e0 = a0 + (across_lo - half - 2 - c0) / slope, e1 = a0 + (across_hi + half + 2 - c0) / slope;

      row_first = MAX (row_first, floor (MIN (e0, e1)));
      row_end = MIN (row_end, ceil (MAX (e0, e1)));
    }
  else if (c0 < across_lo - half - 2 || c0 > across_hi + half + 2)
    return;
  for (double i = row_first; i < row_end; i++)
    {
      double row_lo = MAX (i, lo), row_hi = MIN (i + 1, hi);
      /* rows through an end, which cuts across them, in more strips */
      gboolean at_end = row_lo < MIN (a0, a1) + reach || row_hi > MAX (a0, a1) - reach;
      int n_row_strips = at_end ? MAX (n_strips, END_STRIPS) : n_strips;
      double strip = (row_hi - row_lo) / n_row_strips;
      double m_lo = c0 + (row_lo - a0) * slope, m_hi = c0 + (row_hi - a0) * slope;
      /* kept within a pixel of the clip, where floor_int holds */
      double span_lo = CLAMP (MIN (m_lo, m_hi) - half, across_lo - 1, across_hi + 1);
      double span_hi = CLAMP (MAX (m_lo, m_hi) + half, across_lo - 1, across_hi + 1);
      int first = MAX (floor_int (span_lo), (int)across_lo);
      int end = MIN (floor_int (span_hi) + 1, (int)across_hi);
      int n = MAX (end - first, 0);

#if defined(__GNUC__)
      /* a steep line's pixels ROWS_AHEAD rows on, a stride apart each,
       * which the processor does not fetch ahead by itself */
      if (steep && i + ROWS_AHEAD < row_end)
        {
          double ahead = c0 + (i + ROWS_AHEAD - a0) * slope;

          if (ahead >= across_lo && ahead < across_hi)
            __builtin_prefetch (data + (gsize)(i + ROWS_AHEAD) * stride + ((gsize)clip->origin + (gsize)ahead) * 4);
        }
#endif
      if (n == 0)
        continue;
      if (n_row_strips == 1)
        {
          /* most rows of a line near the vertical: one strip, no end */
          double middle = c0 + ((row_lo + row_hi) / 2 - a0) * slope;

          for (int j = first; j < end; j++)
            {
              int px = steep ? j : (int)i, py = steep ? (int)i : j;

              blend_pixel ((guint32 *)(gpointer)(data + (gsize)py * stride) + clip->origin + px, colour,
                           strip * overlap (j, middle - half, middle + half), data, under);
            }
          continue;
        }

      for (int j = 0; j < n; j++)
        cover[j] = 0;
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
          int px = steep ? first + j : (int)i, py = steep ? (int)i : first + j;

          blend_pixel ((guint32 *)(gpointer)(data + (gsize)py * stride) + clip->origin + px, colour, cover[j], data,
                       under);
        }
    }
}

/**
 * sl_pixel_restore:
 * @under: (element-type SlPixelUnder): emptied
 *
 * Puts back the pixels of @data that lines blended over, last changed
 * first, so that lines over lines come off in turn.
 */
void
sl_pixel_restore (guchar *data,
                  GArray *under)
{
  guint32 *pixels = (guint32 *)(gpointer)data;

  g_return_if_fail (data != NULL && under != NULL);

  for (guint i = under->len; i > 0; i--)
    {
      const SlPixelUnder *was = &g_array_index (under, SlPixelUnder, i - 1);

      pixels[was->place] = was->pixel;
    }
  g_array_set_size (under, 0);
}
