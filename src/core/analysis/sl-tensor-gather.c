/* sl-tensor-gather.c
 *
 * With axes of length one left out (they move neither order's offsets),
 * C position i is row o = i / L, column c = i % L of a matrix whose L
 * columns are the last axis. In Fortran order the last axis has the
 * largest stride, P = n / L, and row o starts at the Fortran offset of its
 * multi-index over the other axes, F(o). A band of up to BAND rows is
 * copied TILE columns at a time: each column's piece is a run of the
 * band's rows (contiguous when the other axes are one, strided by the
 * first axis otherwise) on one page, so the band reads each page it
 * needs once, where a walk in C order would stride a page (when P is
 * large) for every element.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-tensor-gather.h"

#define TILE 8
#define BAND 256

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

/* A band of @n_rows rows from row @o, whose Fortran offsets are
 * @row_offsets, clipped to positions [first, end), TILE columns at a
 * time. The TILE columns' pieces lie a power of two apart as often as
 * not, so they share cache sets: 8 of them stay in cache (measured on an
 * 8192 × 16384 float32 pair: 0.21 s of processor for the whole tensor
 * with 8, 0.36 s with 32) while the band's rows, 16 of which share each
 * line of a column, are read from them. One copy per element size, so
 * each is a plain loop of loads and stores. */
#define DEFINE_COPY_BAND(name, type)                                                        \
static void                                                                                 \
name (const guint8  *src_bytes,                                                             \
      guint8        *out_bytes,                                                             \
      guint64        first,                                                                 \
      guint64        end,                                                                   \
      guint64        o,                                                                     \
      guint          n_rows,                                                                \
      const guint64 *row_offsets,                                                           \
      guint64        L,                                                                     \
      guint64        P)                                                                     \
{                                                                                           \
  const type *src = (const type *)src_bytes;                                                \
  type *out = (type *)out_bytes;                                                            \
                                                                                            \
  for (guint64 c0 = 0; c0 < L; c0 += TILE)                                                  \
    {                                                                                       \
      guint64 c1 = MIN (c0 + TILE, L);                                                      \
                                                                                            \
      for (guint t = 0; t < n_rows; t++)                                                    \
        {                                                                                   \
          guint64 row_start = (o + t) * L;                                                  \
          guint64 lo = MAX (c0, first > row_start ? first - row_start : 0);                 \
          guint64 hi = MIN (c1, end - row_start);                                           \
          type *dst = out + (row_start - first);                                            \
          const type *row = src + row_offsets[t];                                           \
                                                                                            \
          for (guint64 c = lo; c < hi; c++)                                                 \
            dst[c] = row[c * P];                                                            \
        }                                                                                   \
    }                                                                                       \
}

DEFINE_COPY_BAND (copy_band_1, guint8)
DEFINE_COPY_BAND (copy_band_2, guint16)
DEFINE_COPY_BAND (copy_band_4, guint32)
DEFINE_COPY_BAND (copy_band_8, guint64)

void
sl_tensor_gather_c_order (const SlTensorData *view,
                          guint64             first,
                          gsize               n,
                          guint8             *out)
{
  gsize size = sl_tensor_dtype_get_size (view->dtype);
  guint64 index[SL_TENSOR_COMPARE_MAX_DIMS] = { 0 };
  guint64 row_offsets[BAND];
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
      guint n_rows = (guint)MIN ((guint64)BAND, o_end - o);

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
      switch (size)
        {
        case 1: copy_band_1 (view->data, out, first, end, o, n_rows, row_offsets, L, P); break;
        case 2: copy_band_2 (view->data, out, first, end, o, n_rows, row_offsets, L, P); break;
        case 4: copy_band_4 (view->data, out, first, end, o, n_rows, row_offsets, L, P); break;
        default: copy_band_8 (view->data, out, first, end, o, n_rows, row_offsets, L, P); break;
        }
      o += n_rows;
    }
}

gboolean
sl_tensor_gather_get_rows (const SlTensorData *view,
                           guint64            *first_axis,
                           guint64            *columns)
{
  Layout layout;

  g_return_val_if_fail (view != NULL, FALSE);

  layout_init (&layout, view);
  if (layout.n_dims < 2)
    return FALSE;
  *first_axis = layout.shape[0];
  *columns = layout.shape[layout.n_dims - 1];
  return TRUE;
}

guint64
sl_tensor_gather_row_offset (const SlTensorData *view,
                             guint64             row)
{
  guint64 offset = 0;
  Layout layout;

  g_return_val_if_fail (view != NULL, 0);

  layout_init (&layout, view);
  for (int j = (int)layout.n_dims - 2; j >= 0; j--)
    {
      offset += row % layout.shape[j] * layout.stride[j];
      row /= layout.shape[j];
    }
  return offset;
}

/* Where the loader can pick a variant at run time, an AVX2 one does the
 * 8 × 8 transposes below in eight registers. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define SL_VECTOR_CLONES __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define SL_VECTOR_CLONES
#endif

#if defined(__GNUC__)
typedef guint32 V8u __attribute__ ((vector_size (32)));
typedef gint32  V8i __attribute__ ((vector_size (32)));
/* the same, as loaded from and stored to any element's address */
typedef guint32 V8uUnaligned __attribute__ ((vector_size (32), aligned (4), may_alias));

/* clang and GCC from 12 on have __builtin_shufflevector; older GCC only
 * __builtin_shuffle (the fuzz harnesses are built with clang) */
#if defined(__clang__) || __GNUC__ >= 12
#define SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
  __builtin_shufflevector (a, b, i0, i1, i2, i3, i4, i5, i6, i7)
#else
#define SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
  __builtin_shuffle (a, b, (V8i){ i0, i1, i2, i3, i4, i5, i6, i7 })
#endif
#define PAIRS_LOW(a, b)  SHUFFLE8 (a, b, 0, 8, 1, 9, 4, 12, 5, 13)
#define PAIRS_HIGH(a, b) SHUFFLE8 (a, b, 2, 10, 3, 11, 6, 14, 7, 15)
#define QUADS_LOW(a, b)  SHUFFLE8 (a, b, 0, 1, 8, 9, 4, 5, 12, 13)
#define QUADS_HIGH(a, b) SHUFFLE8 (a, b, 2, 3, 10, 11, 6, 7, 14, 15)
#define HALVES_LOW(a, b)  SHUFFLE8 (a, b, 0, 1, 2, 3, 8, 9, 10, 11)
#define HALVES_HIGH(a, b) SHUFFLE8 (a, b, 4, 5, 6, 7, 12, 13, 14, 15)

/* Eight columns' runs of eight rows (@stride elements apart) as eight
 * rows of eight columns (@out_stride apart): pairs, then quads, then
 * halves interleaved, all in registers. */
static inline __attribute__ ((always_inline)) void
transpose_8x8 (const guint32 *src,
               guint64        stride,
               guint32       *out,
               gsize          out_stride)
{
  V8u v0 = *(const V8uUnaligned *)(src), v1 = *(const V8uUnaligned *)(src + stride);
  V8u v2 = *(const V8uUnaligned *)(src + 2 * stride), v3 = *(const V8uUnaligned *)(src + 3 * stride);
  V8u v4 = *(const V8uUnaligned *)(src + 4 * stride), v5 = *(const V8uUnaligned *)(src + 5 * stride);
  V8u v6 = *(const V8uUnaligned *)(src + 6 * stride), v7 = *(const V8uUnaligned *)(src + 7 * stride);
  V8u t0 = PAIRS_LOW (v0, v1), t1 = PAIRS_HIGH (v0, v1), t2 = PAIRS_LOW (v2, v3), t3 = PAIRS_HIGH (v2, v3);
  V8u t4 = PAIRS_LOW (v4, v5), t5 = PAIRS_HIGH (v4, v5), t6 = PAIRS_LOW (v6, v7), t7 = PAIRS_HIGH (v6, v7);
  V8u u0 = QUADS_LOW (t0, t2), u1 = QUADS_HIGH (t0, t2), u2 = QUADS_LOW (t1, t3), u3 = QUADS_HIGH (t1, t3);
  V8u u4 = QUADS_LOW (t4, t6), u5 = QUADS_HIGH (t4, t6), u6 = QUADS_LOW (t5, t7), u7 = QUADS_HIGH (t5, t7);

  *(V8uUnaligned *)(out) = HALVES_LOW (u0, u4);
  *(V8uUnaligned *)(out + out_stride) = HALVES_LOW (u1, u5);
  *(V8uUnaligned *)(out + 2 * out_stride) = HALVES_LOW (u2, u6);
  *(V8uUnaligned *)(out + 3 * out_stride) = HALVES_LOW (u3, u7);
  *(V8uUnaligned *)(out + 4 * out_stride) = HALVES_HIGH (u0, u4);
  *(V8uUnaligned *)(out + 5 * out_stride) = HALVES_HIGH (u1, u5);
  *(V8uUnaligned *)(out + 6 * out_stride) = HALVES_HIGH (u2, u6);
  *(V8uUnaligned *)(out + 7 * out_stride) = HALVES_HIGH (u3, u7);
}
#endif

/* Eight columns at a time, all their rows, so each column's piece of a
 * page is read at one visit (software prefetches of the next columns
 * only slowed it down: 0.08 s of processor for an 8192 × 16384 float32
 * tensor without, 0.11 s with); rows eight at a time in registers, the
 * rest one element at a time. */
SL_VECTOR_CLONES static void
tile_4 (const guint32 *src,
        guint64        P,
        guint          n_rows,
        gsize          n_columns,
        gsize          out_stride,
        guint32       *out)
{
  guint full_rows = 0;
  gsize c = 0;

#if defined(__GNUC__)
  full_rows = n_rows / 8 * 8;
  for (; c + 8 <= n_columns; c += 8)
    for (guint t = 0; t < full_rows; t += 8)
      transpose_8x8 (src + c * P + t, P, out + t * out_stride + c, out_stride);
  for (; c < n_columns; c++)
    for (guint t = 0; t < full_rows; t++)
      out[t * out_stride + c] = src[c * P + t];
#endif
  for (guint t = full_rows; t < n_rows; t++)
    for (c = 0; c < n_columns; c++)
      out[t * out_stride + c] = src[c * P + t];
}

#define DEFINE_TILE(name, type)                                                             \
static void                                                                                 \
name (const type *src,                                                                      \
      guint64     P,                                                                        \
      guint       n_rows,                                                                   \
      gsize       n_columns,                                                                \
      gsize       out_stride,                                                               \
      type       *out)                                                                      \
{                                                                                           \
  for (gsize c0 = 0; c0 < n_columns; c0 += TILE)                                            \
    {                                                                                       \
      gsize c1 = MIN (c0 + TILE, n_columns);                                                \
                                                                                            \
      for (guint t = 0; t < n_rows; t++)                                                    \
        for (gsize c = c0; c < c1; c++)                                                     \
          out[t * out_stride + c] = src[c * P + t];                                         \
    }                                                                                       \
}

DEFINE_TILE (tile_1, guint8)
DEFINE_TILE (tile_2, guint16)
DEFINE_TILE (tile_8, guint64)

void
sl_tensor_gather_tile (const SlTensorData *view,
                       guint64             offset,
                       guint               n_rows,
                       gsize               n_columns,
                       gsize               out_stride,
                       guint8             *out)
{
  gsize size = sl_tensor_dtype_get_size (view->dtype);
  guint64 first_axis, columns, P;
  const guint8 *src = view->data + offset * size;

  g_return_if_fail (sl_tensor_gather_get_rows (view, &first_axis, &columns));

  P = view->n_elements / columns;
  switch (size)
    {
    case 1: tile_1 (src, P, n_rows, n_columns, out_stride, out); break;
    case 2: tile_2 ((const guint16 *)src, P, n_rows, n_columns, out_stride, (guint16 *)out); break;
    case 4: tile_4 ((const guint32 *)src, P, n_rows, n_columns, out_stride, (guint32 *)out); break;
    default: tile_8 ((const guint64 *)src, P, n_rows, n_columns, out_stride, (guint64 *)out); break;
    }
}
