/* sl-tensor-gather.c
 *
 * With axes of length one left out (they move neither order's offsets),
 * C position i is row o = i / L, column c = i % L of a matrix whose L
 * columns are the last axis. In Fortran order the last axis has the
 * largest stride, P = n / L, and row o starts at the Fortran offset of its
 * multi-index over the other axes, F(o). A tile of TILE rows by TILE
 * columns reads TILE runs of consecutive rows (contiguous when the other
 * axes are one, strided by the first axis otherwise) and writes TILE
 * pieces of rows, so neither side strides a page per element as a plain
 * element-by-element walk does when P is large.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-tensor-gather.h"

#define TILE 32

typedef struct {
  guint   n_dims;                                /* without axes of one, the last included */
  guint64 shape[SL_TENSOR_COMPARE_MAX_DIMS];
  guint64 stride[SL_TENSOR_COMPARE_MAX_DIMS];    /* Fortran strides, in elements */
} Layout;

static void
layout_init (Layout             *layout,
             const SlTensorData *view)
{
  guint64 stride = 1;

  layout->n_dims = 0;
  for (guint i = 0; i < view->n_dims; i++)
    {
      if (view->shape[i] != 1)
        {
          layout->shape[layout->n_dims] = view->shape[i];
          layout->stride[layout->n_dims] = stride;
          layout->n_dims++;
        }
      stride *= view->shape[i];
    }
}

/* Copies one element of @size bytes; a switch the compiler turns into
 * plain loads and stores. */
static inline void
copy_element (guint8       *restrict dst,
              const guint8 *restrict src,
              gsize                  size)
{
  switch (size)
    {
    case 1: *dst = *src; break;
    case 2: memcpy (dst, src, 2); break;
    case 4: memcpy (dst, src, 4); break;
    default: memcpy (dst, src, 8); break;
    }
}

/* One tile: rows @o .. @o + @n_rows - 1 starting at Fortran offsets
 * @row_offsets, columns @c0 .. @c1 - 1, clipped to [first, end). */
static void
copy_tile (const guint8  *src,
           guint8        *out,
           gsize          size,
           guint64        first,
           guint64        end,
           guint64        o,
           guint          n_rows,
           const guint64 *row_offsets,
           guint64        L,
           guint64        P,
           guint64        c0,
           guint64        c1)
{
  for (guint t = 0; t < n_rows; t++)
    {
      guint64 row_start = (o + t) * L;
      guint64 lo = MAX (c0, first > row_start ? first - row_start : 0);
      guint64 hi = MIN (c1, end - row_start);
      guint8 *dst = out + (row_start - first) * size;
      const guint8 *base = src + row_offsets[t] * size;

      for (guint64 c = lo; c < hi; c++)
        copy_element (dst + c * size, base + c * P * size, size);
    }
}

void
sl_tensor_gather_c_order (const SlTensorData *view,
                          guint64             first,
                          gsize               n,
                          guint8             *out)
{
  gsize size = sl_tensor_dtype_get_size (view->dtype);
  guint64 index[SL_TENSOR_COMPARE_MAX_DIMS] = { 0 };
  guint64 row_offsets[TILE];
  guint64 end = first + n, L, P, o, o_end, offset = 0, rest;
  Layout layout;
  guint outer;

  g_return_if_fail (view != NULL && out != NULL);
  g_return_if_fail (first <= view->n_elements && n <= view->n_elements - first);

  if (n == 0)
    return;
  layout_init (&layout, view);
  if (layout.n_dims < 2)
    {
      /* one long axis: both orders store the same sequence */
      memcpy (out, view->data + first * size, n * size);
      return;
    }

  outer = layout.n_dims - 1;
  L = layout.shape[outer];
  P = layout.stride[outer];
  o = first / L;
  o_end = (end - 1) / L + 1;

  /* the multi-index of row o over the other axes, last fastest */
  rest = o;
  for (int j = (int)outer - 1; j >= 0; j--)
    {
      index[j] = rest % layout.shape[j];
      rest /= layout.shape[j];
      offset += index[j] * layout.stride[j];
    }

  while (o < o_end)
    {
      guint n_rows = (guint)MIN ((guint64)TILE, o_end - o);
      guint64 c_lo = o * L < first ? first - o * L : 0;
      guint64 c_hi = MIN (L, end - o * L);

      for (guint t = 0; t < n_rows; t++)
        {
          row_offsets[t] = offset;
          for (int j = (int)outer - 1; j >= 0; j--)
            {
              if (++index[j] < layout.shape[j])
                {
                  offset += layout.stride[j];
                  break;
                }
              offset -= (layout.shape[j] - 1) * layout.stride[j];
              index[j] = 0;
            }
        }
      /* the tile's rows span at most the columns of its first row's
       * start to its last row's end */
      if (n_rows > 1)
        {
          c_lo = 0;
          c_hi = L;
        }
      for (guint64 c0 = c_lo; c0 < c_hi; c0 += TILE)
        copy_tile (view->data, out, size, first, end, o, n_rows, row_offsets, L, P, c0, MIN (c0 + TILE, c_hi));
      o += n_rows;
    }
}
