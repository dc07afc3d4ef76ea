/* sl-tensor-pair-detail.c
 *
 * Two passes over the elements: the first finds the range of both sides'
 * finite values, the second counts them on bins spanning that range and
 * keeps the largest differences in a heap of top_k entries. Positions are
 * the NPU side's elements in C order whatever the storage order, and a
 * benchmark stored in the other order is read through the same logical
 * index.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "sl-tensor-pair-detail.h"

#define BLOCK 4096

/* Storage order */

/* The position in C order of storage index @index of @data. */
static guint64
logical_position (const SlTensorData *data,
                  guint64             index)
{
  guint64 position = 0;

  if (!data->fortran_order || data->n_dims < 2)
    return index;
  /* Fortran order: the first axis varies fastest. */
  for (guint k = 0; k < data->n_dims; k++)
    {
      guint64 extent = MAX (data->shape[k], 1);
      guint64 coordinate = index % extent;
      guint64 stride = 1;

      index /= extent;
      for (guint j = k + 1; j < data->n_dims; j++)
        stride *= data->shape[j];
      position += coordinate * stride;
    }
  return position;
}

/* The storage index of the element at C-order @position of @data. */
static guint64
storage_index (const SlTensorData *data,
               guint64             position)
{
  guint64 index = 0;

  if (!data->fortran_order || data->n_dims < 2)
    return position;
  for (guint k = data->n_dims; k-- > 0;)
    {
      guint64 extent = MAX (data->shape[k], 1);
      guint64 coordinate = position % extent;
      guint64 fortran_stride = 1;

      position /= extent;
      for (guint j = 0; j < k; j++)
        fortran_stride *= data->shape[j];
      index += coordinate * fortran_stride;
    }
  return index;
}

static gboolean
shapes_equal (const SlTensorData *a,
              const SlTensorData *b)
{
  if (a->n_dims != b->n_dims)
    return FALSE;
  for (guint i = 0; i < a->n_dims; i++)
    if (a->shape[i] != b->shape[i])
      return FALSE;
  return TRUE;
}

/* Elements pair up when both sides hold as many, stored alike or of the
 * same shape (so the logical index is shared). */
static gboolean
sides_comparable (const SlTensorData *npu,
                  const SlTensorData *bench)
{
  if (npu->n_elements != bench->n_elements || npu->n_elements == 0)
    return FALSE;
  return npu->fortran_order == bench->fortran_order || shapes_equal (npu, bench);
}

static gboolean
same_storage (const SlTensorData *npu,
              const SlTensorData *bench)
{
  return npu->fortran_order == bench->fortran_order || npu->n_dims < 2;
}

static double
read_one (const SlTensorData *data,
          guint64             index)
{
  double value;

  sl_tensor_data_read_doubles (data, index, 1, &value);
  return value;
}

/* Reads the benchmark's elements paired with NPU storage indices
 * @first .. @first + @n - 1. */
static void
read_paired_block (const SlTensorData *npu,
                   const SlTensorData *bench,
                   guint64             first,
                   gsize               n,
                   double             *values)
{
  if (same_storage (npu, bench))
    {
      sl_tensor_data_read_doubles (bench, first, n, values);
      return;
    }
  for (gsize i = 0; i < n; i++)
    values[i] = read_one (bench, storage_index (bench, logical_position (npu, first + i)));
}

static gboolean
check_cancelled (GCancellable  *cancellable,
                 GError       **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Differences */

static double
abs_difference (double npu,
                double bench)
{
  if (isnan (npu) && isnan (bench))
    return 0;
  if (npu == bench)
    return 0;
  return fabs (npu - bench);
}

/* NaN and infinite differences rank first. */
static double
rank_key (const SlTensorDifference *d)
{
  return isnan (d->abs_error) ? INFINITY : d->abs_error;
}

/* Whether @a ranks below @b: a smaller difference, or as large and later. */
static gboolean
ranks_below (const SlTensorDifference *a,
             const SlTensorDifference *b)
{
  double ka = rank_key (a), kb = rank_key (b);

  if (ka != kb)
    return ka < kb;
  return a->position > b->position;
}

static void
heap_sift_down (SlTensorDifference *heap,
                guint               n,
                guint               i)
{
  for (;;)
    {
      guint smallest = i, l = 2 * i + 1, r = 2 * i + 2;
      SlTensorDifference tmp;

      if (l < n && ranks_below (&heap[l], &heap[smallest]))
        smallest = l;
      if (r < n && ranks_below (&heap[r], &heap[smallest]))
        smallest = r;
      if (smallest == i)
        return;
      tmp = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = tmp;
      i = smallest;
    }
}

static void
heap_sift_up (SlTensorDifference *heap,
              guint               i)
{
  while (i > 0)
    {
      guint parent = (i - 1) / 2;
      SlTensorDifference tmp;

      if (!ranks_below (&heap[i], &heap[parent]))
        return;
      tmp = heap[i];
      heap[i] = heap[parent];
      heap[parent] = tmp;
      i = parent;
    }
}

/* A min-heap of the top_k largest differences seen so far. */
static void
offer_difference (GArray                   *heap,
                  guint                     top_k,
                  const SlTensorDifference *candidate)
{
  SlTensorDifference *items = (SlTensorDifference *)(gpointer)heap->data;

  if (heap->len < top_k)
    {
      g_array_append_val (heap, *candidate);
      heap_sift_up ((SlTensorDifference *)(gpointer)heap->data, heap->len - 1);
      return;
    }
  if (top_k == 0 || !ranks_below (&items[0], candidate))
    return;
  items[0] = *candidate;
  heap_sift_down (items, heap->len, 0);
}

static int
largest_first (gconstpointer a,
               gconstpointer b)
{
  const SlTensorDifference *x = a, *y = b;

  if (ranks_below (x, y))
    return 1;
  if (ranks_below (y, x))
    return -1;
  return 0;
}

/* Histogram */

static void
find_range (const double *values,
            gsize         n,
            double       *lo,
            double       *hi)
{
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        *lo = MIN (*lo, values[i]);
        *hi = MAX (*hi, values[i]);
      }
}

static void
settle_range (SlTensorPairHistogram *histogram,
              double                 lo,
              double                 hi)
{
  if (!(lo <= hi))
    {
      lo = 0;
      hi = 1;
    }
  else if (lo == hi)
    {
      /* One value only: a bin around it. */
      double half = MAX (fabs (lo) * 0.5, 0.5);

      lo -= half;
      hi += half;
    }
  histogram->lo = lo;
  histogram->hi = hi;
}

static void
count_values (SlTensorPairHistogram *histogram,
              SlTensorSide           side,
              const double          *values,
              gsize                  n)
{
  double scale = histogram->n_bins / (histogram->hi - histogram->lo);

  for (gsize i = 0; i < n; i++)
    {
      double v = values[i];
      gint64 bin;

      if (!isfinite (v))
        {
          histogram->n_non_finite[side]++;
          continue;
        }
      bin = (gint64)((v - histogram->lo) * scale);
      bin = CLAMP (bin, 0, (gint64)histogram->n_bins - 1);
      histogram->counts[side][bin]++;
      histogram->n_finite[side]++;
    }
}

static void
finish_histogram (SlTensorPairHistogram *histogram)
{
  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < histogram->n_bins; i++)
      histogram->max_count = MAX (histogram->max_count, histogram->counts[side][i]);
}

/* Passes */

static gboolean
scan_range (const SlTensorData  *data,
            double              *lo,
            double              *hi,
            double              *buffer,
            GCancellable        *cancellable,
            GError             **error)
{
  for (guint64 first = 0; first < data->n_elements; first += BLOCK)
    {
      gsize n = (gsize)MIN ((guint64)BLOCK, data->n_elements - first);

      if (check_cancelled (cancellable, error))
        return FALSE;
      sl_tensor_data_read_doubles (data, first, n, buffer);
      find_range (buffer, n, lo, hi);
    }
  return TRUE;
}

static gboolean
count_side (SlTensorPairHistogram *histogram,
            const SlTensorData    *data,
            SlTensorSide           side,
            double                *buffer,
            GCancellable          *cancellable,
            GError               **error)
{
  for (guint64 first = 0; first < data->n_elements; first += BLOCK)
    {
      gsize n = (gsize)MIN ((guint64)BLOCK, data->n_elements - first);

      if (check_cancelled (cancellable, error))
        return FALSE;
      sl_tensor_data_read_doubles (data, first, n, buffer);
      count_values (histogram, side, buffer, n);
    }
  return TRUE;
}

static void
collect_differences (const SlTensorData *npu,
                     GArray             *heap,
                     guint               top_k,
                     guint64             first,
                     const double       *a,
                     const double       *b,
                     gsize               n)
{
  for (gsize i = 0; i < n; i++)
    {
      SlTensorDifference d;

      d.abs_error = abs_difference (a[i], b[i]);
      if (d.abs_error == 0)
        continue;
      d.position = logical_position (npu, first + i);
      d.npu = a[i];
      d.bench = b[i];
      d.rel_error = b[i] != 0 ? d.abs_error / fabs (b[i]) : NAN;
      offer_difference (heap, top_k, &d);
    }
}

/* Both sides counted and their differences ranked in one pass. */
static gboolean
count_paired (SlTensorPairDetail *self,
              const SlTensorData *npu,
              const SlTensorData *bench,
              guint               top_k,
              double             *a,
              double             *b,
              GCancellable       *cancellable,
              GError            **error)
{
  for (guint64 first = 0; first < npu->n_elements; first += BLOCK)
    {
      gsize n = (gsize)MIN ((guint64)BLOCK, npu->n_elements - first);

      if (check_cancelled (cancellable, error))
        return FALSE;
      sl_tensor_data_read_doubles (npu, first, n, a);
      read_paired_block (npu, bench, first, n, b);
      count_values (&self->histogram, SL_TENSOR_SIDE_NPU, a, n);
      count_values (&self->histogram, SL_TENSOR_SIDE_BENCH, b, n);
      collect_differences (npu, self->largest, top_k, first, a, b, n);
    }
  return TRUE;
}

static gboolean
check_data (const SlTensorData  *data,
            GError             **error)
{
  if (sl_tensor_dtype_get_size (data->dtype) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Tensors of type %s cannot be shown."), sl_tensor_dtype_get_name (data->dtype));
      return FALSE;
    }
  if (data->n_dims > SL_TENSOR_COMPARE_MAX_DIMS || (data->n_dims > 0 && data->shape == NULL) ||
      (data->n_elements > 0 && data->data == NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The tensor’s shape or data is missing."));
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_tensor_pair_detail_compute:
 * @n_bins: bins of the histogram; 0 for %SL_TENSOR_PAIR_DETAIL_BINS
 * @top_k: how many of the largest differences to keep
 *
 * Returns: (transfer full) (nullable): the detail, or %NULL when
 *   cancelled or a side cannot be read
 */
SlTensorPairDetail *
sl_tensor_pair_detail_compute (const SlTensorData  *npu,
                               const SlTensorData  *bench,
                               guint                n_bins,
                               guint                top_k,
                               GCancellable        *cancellable,
                               GError             **error)
{
  g_autoptr(SlTensorPairDetail) self = NULL;
  g_autofree double *a = NULL;
  g_autofree double *b = NULL;
  double lo = INFINITY, hi = -INFINITY;

  g_return_val_if_fail (npu != NULL && bench != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_data (npu, error) || !check_data (bench, error))
    return NULL;

  self = g_new0 (SlTensorPairDetail, 1);
  self->n_dims = npu->n_dims;
  for (guint i = 0; i < npu->n_dims; i++)
    self->shape[i] = npu->shape[i];
  self->comparable = sides_comparable (npu, bench);
  self->largest = g_array_new (FALSE, FALSE, sizeof (SlTensorDifference));
  self->histogram.n_bins = n_bins > 0 ? n_bins : SL_TENSOR_PAIR_DETAIL_BINS;
  for (guint side = 0; side < 2; side++)
    self->histogram.counts[side] = g_new0 (guint64, self->histogram.n_bins);

  a = g_new (double, BLOCK);
  b = g_new (double, BLOCK);
  if (!scan_range (npu, &lo, &hi, a, cancellable, error) || !scan_range (bench, &lo, &hi, a, cancellable, error))
    return NULL;
  settle_range (&self->histogram, lo, hi);

  if (self->comparable)
    {
      if (!count_paired (self, npu, bench, top_k, a, b, cancellable, error))
        return NULL;
    }
  else if (!count_side (&self->histogram, npu, SL_TENSOR_SIDE_NPU, a, cancellable, error) ||
           !count_side (&self->histogram, bench, SL_TENSOR_SIDE_BENCH, a, cancellable, error))
    return NULL;

  finish_histogram (&self->histogram);
  g_array_sort (self->largest, largest_first);
  return g_steal_pointer (&self);
}

void
sl_tensor_pair_detail_free (SlTensorPairDetail *self)
{
  if (self == NULL)
    return;
  g_free (self->histogram.counts[0]);
  g_free (self->histogram.counts[1]);
  g_clear_pointer (&self->largest, g_array_unref);
  g_free (self);
}

/**
 * sl_tensor_pair_detail_format_index:
 *
 * Returns: (transfer full): the multi-dimensional index of the element at
 *   C-order @position, as NumPy writes it: "[1, 0, 3]"
 */
char *
sl_tensor_pair_detail_format_index (const SlTensorPairDetail *self,
                                    guint64                   position)
{
  guint64 coordinates[SL_TENSOR_COMPARE_MAX_DIMS];
  GString *text;

  g_return_val_if_fail (self != NULL, NULL);

  text = g_string_new ("[");

  for (guint k = self->n_dims; k-- > 0;)
    {
      guint64 extent = MAX (self->shape[k], 1);

      coordinates[k] = position % extent;
      position /= extent;
    }
  for (guint k = 0; k < self->n_dims; k++)
    g_string_append_printf (text, k ? ", %" G_GUINT64_FORMAT : "%" G_GUINT64_FORMAT, coordinates[k]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* Error slice */

/* Takes every @factor-th position along @axis, so the view keeps at most
 * SL_TENSOR_PAIR_ERROR_MAX_SIDE of them. */
static guint
thin_axis (SlTensorSlice *slice,
           int            axis,
           gint64        *count,
           gint64        *stride)
{
  gint64 factor;

  if (axis < 0 || *count <= SL_TENSOR_PAIR_ERROR_MAX_SIDE)
    return 1;
  factor = (*count + SL_TENSOR_PAIR_ERROR_MAX_SIDE - 1) / SL_TENSOR_PAIR_ERROR_MAX_SIDE;
  slice->axes[axis].step *= factor;
  slice->axes[axis].count = (*count + factor - 1) / factor;
  *count = slice->axes[axis].count;
  *stride *= factor;
  return (guint)MIN (factor, (gint64)G_MAXUINT);
}

static gboolean
slice_fits (const SlTensorSlice *slice,
            const SlTensorData  *npu)
{
  if (slice->n_dims != npu->n_dims)
    return FALSE;
  for (guint i = 0; i < slice->n_dims; i++)
    if (slice->dims[i] < 0 || (guint64)slice->dims[i] != npu->shape[i])
      return FALSE;
  return TRUE;
}

static gboolean
fill_errors (const SlTensorData  *npu,
             const SlTensorData  *bench,
             const SlTensorSlice *slice,
             double              *values,
             GCancellable        *cancellable,
             GError             **error)
{
  for (gint64 r = 0; r < slice->n_rows; r++)
    {
      if ((r & 31) == 0 && check_cancelled (cancellable, error))
        return FALSE;
      for (gint64 c = 0; c < slice->n_cols; c++)
        {
          gint64 position = sl_tensor_slice_offset (slice, r, c);
          guint64 index;

          if (position < 0 || (guint64)position >= npu->n_elements)
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                   _("The slice reaches beyond the tensor’s elements."));
              return FALSE;
            }
          index = storage_index (npu, (guint64)position);
          values[r * slice->n_cols + c] =
            abs_difference (read_one (npu, index),
                            read_one (bench, same_storage (npu, bench) ? index : storage_index (bench, (guint64)position)));
        }
    }
  return TRUE;
}

/**
 * sl_tensor_pair_error_frame_new:
 * @slice: a slice parsed against the NPU side's shape
 * @row_step: (out) (optional): 1, or the step at which rows were sampled
 * @col_step: (out) (optional): the same for columns
 *
 * |npu − bench| through @slice, as a computed frame: its values hold only
 * the view's cells, and its slice still names positions along the
 * tensor's own axes, so the plots label and describe cells as for a
 * tensor. A view longer than %SL_TENSOR_PAIR_ERROR_MAX_SIDE along an axis
 * is sampled at an even step.
 *
 * Returns: (transfer full) (nullable): the frame, or %NULL when the sides
 *   do not pair up element by element, the slice does not fit, or on
 *   cancellation
 */
SlTensorFrame *
sl_tensor_pair_error_frame_new (const SlTensorData   *npu,
                                const SlTensorData   *bench,
                                const SlTensorSlice  *slice,
                                guint                *row_step,
                                guint                *col_step,
                                GCancellable         *cancellable,
                                GError              **error)
{
  g_autoptr(SlTensorSlice) view = NULL;
  g_autoptr(SlTensorFrame) frame = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree double *values = NULL;
  guint rows_every, cols_every;
  gsize n_cells;

  g_return_val_if_fail (npu != NULL && bench != NULL && slice != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_data (npu, error) || !check_data (bench, error))
    return NULL;
  if (!sides_comparable (npu, bench))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The two tensors do not hold the same elements, so they have no element-wise error."));
      return NULL;
    }
  if (!slice_fits (slice, npu))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The slice is not of this tensor’s shape."));
      return NULL;
    }

  view = sl_tensor_slice_copy (slice);
  rows_every = thin_axis (view, view->row_axis, &view->n_rows, &view->row_stride);
  cols_every = thin_axis (view, view->col_axis, &view->n_cols, &view->col_stride);
  n_cells = (gsize)(view->n_rows * view->n_cols);
  values = g_new0 (double, MAX (n_cells, 1));
  if (!fill_errors (npu, bench, view, values, cancellable, error))
    return NULL;

  /* The frame reads its compact values through the same view, with
   * offsets into them instead of into the tensor. */
  bytes = g_bytes_new_take (g_steal_pointer (&values), n_cells * sizeof (double));
  view->base = 0;
  view->row_stride = view->row_axis >= 0 ? view->n_cols : 0;
  view->col_stride = view->col_axis >= 0 ? 1 : 0;
  frame = sl_tensor_frame_new (0, SL_TENSOR_DTYPE_FLOAT64, view->dims, view->n_dims, bytes, view);
  if (!sl_tensor_frame_compute (frame, NULL, cancellable))
    {
      check_cancelled (cancellable, error);
      return NULL;
    }
  if (row_step != NULL)
    *row_step = rows_every;
  if (col_step != NULL)
    *col_step = cols_every;
  return g_steal_pointer (&frame);
}
