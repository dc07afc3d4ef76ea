/* test-tensor-pair-detail.c: the detail of a compared tensor pair against
 * hand-computed answers: common bins, the largest differences and their
 * indices in either storage order, the error through a slice, sampling,
 * cancellation and tensors that cannot be shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tensor-pair-detail.h"

static SlTensorData
view_of (const void    *data,
         guint64        n,
         SlTensorDtype  dtype,
         const guint64 *shape,
         guint          n_dims)
{
  SlTensorData view = { data, n, dtype, G_BYTE_ORDER == G_BIG_ENDIAN, FALSE, n_dims, shape };

  return view;
}

static const SlTensorDifference *
nth (const SlTensorPairDetail *detail,
     guint                     i)
{
  g_assert_cmpuint (i, <, detail->largest->len);
  return &g_array_index (detail->largest, SlTensorDifference, i);
}

static void
assert_index (const SlTensorPairDetail *detail,
              guint64                   position,
              const char               *expected)
{
  g_autofree char *text = sl_tensor_pair_detail_format_index (detail, position);

  g_assert_cmpstr (text, ==, expected);
}

/* npu [1, 2, 3, 4] against [1, 2, 3.5, 0]: range [0, 4], four bins of 1;
 * 4 falls in the last bin. Two elements differ. */
static void
test_common_bins_and_largest (void)
{
  static const float npu[] = { 1, 2, 3, 4 };
  static const float bench[] = { 1, 2, 3.5f, 0 };
  static const guint64 shape[] = { 4 };
  SlTensorData a = view_of (npu, 4, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  SlTensorData b = view_of (bench, 4, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  g_autoptr(SlTensorPairDetail) detail = sl_tensor_pair_detail_compute (&a, &b, 4, 20, NULL, NULL);
  static const guint64 npu_counts[] = { 0, 1, 1, 2 };
  static const guint64 bench_counts[] = { 1, 1, 1, 1 };

  g_assert_nonnull (detail);
  g_assert_true (detail->comparable);
  g_assert_cmpfloat (detail->histogram.lo, ==, 0);
  g_assert_cmpfloat (detail->histogram.hi, ==, 4);
  g_assert_cmpuint (detail->histogram.n_bins, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_NPU][i], ==, npu_counts[i]);
      g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_BENCH][i], ==, bench_counts[i]);
    }
  g_assert_cmpuint (detail->histogram.max_count, ==, 2);
  g_assert_cmpuint (detail->histogram.n_finite[SL_TENSOR_SIDE_NPU], ==, 4);
  g_assert_cmpuint (detail->histogram.n_non_finite[SL_TENSOR_SIDE_BENCH], ==, 0);

  g_assert_cmpuint (detail->largest->len, ==, 2);
  g_assert_cmpuint (nth (detail, 0)->position, ==, 3);
  g_assert_cmpfloat (nth (detail, 0)->abs_error, ==, 4);
  g_assert_cmpfloat (nth (detail, 0)->npu, ==, 4);
  g_assert_cmpfloat (nth (detail, 0)->bench, ==, 0);
  g_assert_true (isnan (nth (detail, 0)->rel_error));
  g_assert_cmpuint (nth (detail, 1)->position, ==, 2);
  g_assert_cmpfloat (nth (detail, 1)->abs_error, ==, 0.5);
  g_assert_cmpfloat (fabs (nth (detail, 1)->rel_error - 0.5 / 3.5), <, 1e-15);
  assert_index (detail, 3, "[3]");
}

/* NaN against a number ranks first; NaN against NaN and equal infinities
 * are no difference; non-finite values stay out of the bins. */
static void
test_non_finite (void)
{
  const double npu[] = { NAN, NAN, INFINITY, 1, 5 };
  const double bench[] = { 0, NAN, INFINITY, 2, 5 };
  static const guint64 shape[] = { 5 };
  SlTensorData a = view_of (npu, 5, SL_TENSOR_DTYPE_FLOAT64, shape, 1);
  SlTensorData b = view_of (bench, 5, SL_TENSOR_DTYPE_FLOAT64, shape, 1);
  g_autoptr(SlTensorPairDetail) detail = sl_tensor_pair_detail_compute (&a, &b, 0, 20, NULL, NULL);

  g_assert_nonnull (detail);
  g_assert_cmpuint (detail->histogram.n_bins, ==, SL_TENSOR_PAIR_DETAIL_BINS);
  g_assert_cmpuint (detail->histogram.n_non_finite[SL_TENSOR_SIDE_NPU], ==, 3);
  g_assert_cmpuint (detail->histogram.n_non_finite[SL_TENSOR_SIDE_BENCH], ==, 2);
  g_assert_cmpuint (detail->histogram.n_finite[SL_TENSOR_SIDE_BENCH], ==, 3);
  g_assert_cmpfloat (detail->histogram.lo, ==, 0);
  g_assert_cmpfloat (detail->histogram.hi, ==, 5);
  g_assert_cmpuint (detail->largest->len, ==, 2);
  g_assert_cmpuint (nth (detail, 0)->position, ==, 0);
  g_assert_true (isnan (nth (detail, 0)->abs_error));
  g_assert_cmpuint (nth (detail, 1)->position, ==, 3);
  g_assert_cmpfloat (nth (detail, 1)->abs_error, ==, 1);
}

/* A 2 × 3 NPU tensor stored in Fortran order against its C-order
 * benchmark: element [1, 2] differs, at C position 5 and Fortran storage
 * index 5, and element [1, 0] at C position 3, storage index 1. */
static void
test_fortran_order (void)
{
  /* logical [[0, 1, 2], [3, 4, 5]], then [1, 0] += 10 and [1, 2] += 1 */
  static const float npu_fortran[] = { 0, 13, 1, 4, 2, 6 };
  static const float bench[] = { 0, 1, 2, 3, 4, 5 };
  static const guint64 shape[] = { 2, 3 };
  SlTensorData a = view_of (npu_fortran, 6, SL_TENSOR_DTYPE_FLOAT32, shape, 2);
  SlTensorData b = view_of (bench, 6, SL_TENSOR_DTYPE_FLOAT32, shape, 2);
  g_autoptr(SlTensorPairDetail) detail = NULL;

  a.fortran_order = TRUE;
  detail = sl_tensor_pair_detail_compute (&a, &b, 0, 20, NULL, NULL);
  g_assert_nonnull (detail);
  g_assert_true (detail->comparable);
  g_assert_cmpuint (detail->largest->len, ==, 2);
  g_assert_cmpuint (nth (detail, 0)->position, ==, 3);
  g_assert_cmpfloat (nth (detail, 0)->abs_error, ==, 10);
  g_assert_cmpfloat (nth (detail, 0)->bench, ==, 3);
  assert_index (detail, nth (detail, 0)->position, "[1, 0]");
  g_assert_cmpuint (nth (detail, 1)->position, ==, 5);
  g_assert_cmpfloat (nth (detail, 1)->abs_error, ==, 1);
  assert_index (detail, nth (detail, 1)->position, "[1, 2]");

  /* Both in Fortran order: the same storage, the same answer. */
  {
    static const float bench_fortran[] = { 0, 3, 1, 4, 2, 5 };
    SlTensorData c = view_of (bench_fortran, 6, SL_TENSOR_DTYPE_FLOAT32, shape, 2);
    g_autoptr(SlTensorPairDetail) both = NULL;

    c.fortran_order = TRUE;
    both = sl_tensor_pair_detail_compute (&a, &c, 0, 20, NULL, NULL);
    g_assert_cmpuint (both->largest->len, ==, 2);
    g_assert_cmpuint (g_array_index (both->largest, SlTensorDifference, 0).position, ==, 3);
    g_assert_cmpuint (g_array_index (both->largest, SlTensorDifference, 1).position, ==, 5);
  }
}

/* 30 equal differences: the first 20 positions are kept, in order, and a
 * larger one later still comes first. */
static void
test_top_k_ties (void)
{
  float npu[31], bench[31];
  static const guint64 shape[] = { 31 };
  SlTensorData a, b;
  g_autoptr(SlTensorPairDetail) detail = NULL;

  for (guint i = 0; i < 31; i++)
    {
      npu[i] = i;
      bench[i] = i + 1.0f;
    }
  bench[30] = 100;
  a = view_of (npu, 31, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  b = view_of (bench, 31, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  detail = sl_tensor_pair_detail_compute (&a, &b, 8, SL_TENSOR_PAIR_DETAIL_TOP_K, NULL, NULL);
  g_assert_cmpuint (detail->largest->len, ==, SL_TENSOR_PAIR_DETAIL_TOP_K);
  g_assert_cmpuint (nth (detail, 0)->position, ==, 30);
  g_assert_cmpfloat (nth (detail, 0)->abs_error, ==, 70);
  for (guint i = 1; i < SL_TENSOR_PAIR_DETAIL_TOP_K; i++)
    {
      g_assert_cmpuint (nth (detail, i)->position, ==, i - 1);
      g_assert_cmpfloat (nth (detail, i)->abs_error, ==, 1);
    }

  /* Identical tensors: nothing differs. */
  b = a;
  g_clear_pointer (&detail, sl_tensor_pair_detail_free);
  detail = sl_tensor_pair_detail_compute (&a, &b, 8, SL_TENSOR_PAIR_DETAIL_TOP_K, NULL, NULL);
  g_assert_cmpuint (detail->largest->len, ==, 0);
}

/* float16 against its float32 benchmark; one value only spreads the bins
 * around it. */
static void
test_half_precision (void)
{
  /* 1.0, 1.0, 1.5 in IEEE half */
  static const guint16 npu_le[] = { 0x3c00, 0x3c00, 0x3e00 };
  static const float bench[] = { 1, 1, 1 };
  static const guint64 shape[] = { 3 };
  guint16 npu[3];
  SlTensorData a, b;
  g_autoptr(SlTensorPairDetail) detail = NULL;

  for (guint i = 0; i < 3; i++)
    npu[i] = GUINT16_TO_LE (npu_le[i]);
  a = view_of (npu, 3, SL_TENSOR_DTYPE_FLOAT16, shape, 1);
  a.big_endian = FALSE;
  b = view_of (bench, 3, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  detail = sl_tensor_pair_detail_compute (&a, &b, 2, 20, NULL, NULL);
  g_assert_cmpfloat (detail->histogram.lo, ==, 1);
  g_assert_cmpfloat (detail->histogram.hi, ==, 1.5);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_NPU][0], ==, 2);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_NPU][1], ==, 1);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_BENCH][0], ==, 3);
  g_assert_cmpuint (detail->largest->len, ==, 1);
  g_assert_cmpfloat (nth (detail, 0)->abs_error, ==, 0.5);
  g_assert_cmpuint (nth (detail, 0)->position, ==, 2);

  g_clear_pointer (&detail, sl_tensor_pair_detail_free);
  detail = sl_tensor_pair_detail_compute (&b, &b, 4, 20, NULL, NULL);
  g_assert_cmpfloat (detail->histogram.lo, ==, 0.5);
  g_assert_cmpfloat (detail->histogram.hi, ==, 1.5);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_BENCH][2], ==, 3);
}

/* Shapes of different sizes: each side's histogram, no differences. */
static void
test_not_comparable (void)
{
  static const float npu[] = { 0, 1, 2, 3, 4, 5 };
  static const float bench[] = { 0, 1, 2, 3 };
  static const guint64 npu_shape[] = { 2, 3 };
  static const guint64 bench_shape[] = { 4 };
  SlTensorData a = view_of (npu, 6, SL_TENSOR_DTYPE_FLOAT32, npu_shape, 2);
  SlTensorData b = view_of (bench, 4, SL_TENSOR_DTYPE_FLOAT32, bench_shape, 1);
  g_autoptr(SlTensorPairDetail) detail = sl_tensor_pair_detail_compute (&a, &b, 5, 20, NULL, NULL);
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(GError) error = NULL;
  static const gint64 dims[] = { 2, 3 };

  g_assert_nonnull (detail);
  g_assert_false (detail->comparable);
  g_assert_cmpuint (detail->largest->len, ==, 0);
  g_assert_cmpuint (detail->histogram.n_finite[SL_TENSOR_SIDE_NPU], ==, 6);
  g_assert_cmpuint (detail->histogram.n_finite[SL_TENSOR_SIDE_BENCH], ==, 4);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_BENCH][4], ==, 0);
  g_assert_cmpuint (detail->histogram.counts[SL_TENSOR_SIDE_NPU][4], ==, 2);

  slice = sl_tensor_slice_parse (":, :", dims, 2, NULL, NULL);
  g_assert_null (sl_tensor_pair_error_frame_new (&a, &b, slice, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
}

/* |npu − bench| of [1, :, :] of a 2 × 3 × 4 pair where bench = npu + i/10
 * at position i: cell (r, c) of the slice is position 12 + 4 r + c. */
static void
test_error_frame (void)
{
  float npu[24], bench[24];
  static const guint64 shape[] = { 2, 3, 4 };
  static const gint64 dims[] = { 2, 3, 4 };
  SlTensorData a, b;
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(SlTensorFrame) frame = NULL;
  g_autofree char *index = NULL;
  guint row_step = 0, col_step = 0;

  for (guint i = 0; i < 24; i++)
    {
      npu[i] = i;
      bench[i] = i + i / 10.0f;
    }
  a = view_of (npu, 24, SL_TENSOR_DTYPE_FLOAT32, shape, 3);
  b = view_of (bench, 24, SL_TENSOR_DTYPE_FLOAT32, shape, 3);
  slice = sl_tensor_slice_parse ("1, :, :", dims, 3, NULL, NULL);
  g_assert_nonnull (slice);
  frame = sl_tensor_pair_error_frame_new (&a, &b, slice, &row_step, &col_step, NULL, NULL);
  g_assert_nonnull (frame);
  g_assert_true (frame->computed);
  g_assert_cmpuint (row_step, ==, 1);
  g_assert_cmpuint (col_step, ==, 1);
  g_assert_cmpint (frame->slice->n_rows, ==, 3);
  g_assert_cmpint (frame->slice->n_cols, ==, 4);
  for (gint64 r = 0; r < 3; r++)
    for (gint64 c = 0; c < 4; c++)
      {
        guint i = 12 + 4 * r + c;

        g_assert_cmpfloat (fabs (sl_tensor_frame_get_cell (frame, r, c) - fabs (npu[i] - bench[i])), <, 1e-12);
      }
  /* Cells keep the tensor's own index. */
  index = sl_tensor_slice_format_index (frame->slice, 2, 3);
  g_assert_cmpstr (index, ==, "[1, 2, 3]");
  g_assert_cmpfloat (fabs (frame->view.max - (bench[23] - npu[23])), <, 1e-6);
  g_assert_cmpuint (frame->image_width, ==, 4);
  g_assert_cmpuint (frame->image_height, ==, 3);

  /* A slice of another shape is refused. */
  {
    static const gint64 other[] = { 3, 4 };
    g_autoptr(SlTensorSlice) wrong = sl_tensor_slice_parse (":, :", other, 2, NULL, NULL);
    g_autoptr(GError) error = NULL;

    g_assert_null (sl_tensor_pair_error_frame_new (&a, &b, wrong, NULL, NULL, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
}

/* A view of 3000 positions keeps every third: 1000 cells, each at its
 * own position. */
static void
test_error_frame_sampled (void)
{
  g_autofree float *npu = g_new (float, 3000);
  g_autofree float *bench = g_new (float, 3000);
  static const guint64 shape[] = { 3000 };
  static const gint64 dims[] = { 3000 };
  SlTensorData a, b;
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(SlTensorFrame) frame = NULL;
  guint row_step = 0, col_step = 0;

  for (guint i = 0; i < 3000; i++)
    {
      npu[i] = 0;
      bench[i] = i;
    }
  a = view_of (npu, 3000, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  b = view_of (bench, 3000, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  slice = sl_tensor_slice_parse (":", dims, 1, NULL, NULL);
  frame = sl_tensor_pair_error_frame_new (&a, &b, slice, &row_step, &col_step, NULL, NULL);
  g_assert_nonnull (frame);
  g_assert_cmpuint (col_step, ==, 3);
  g_assert_cmpuint (row_step, ==, 1);
  g_assert_cmpint (frame->slice->n_cols, ==, 1000);
  g_assert_cmpint (sl_tensor_slice_col_position (frame->slice, 999), ==, 2997);
  g_assert_cmpfloat (sl_tensor_frame_get_cell (frame, 0, 999), ==, 2997);
  g_assert_cmpfloat (sl_tensor_frame_get_cell (frame, 0, 1), ==, 3);
}

static void
test_cancelled_and_refused (void)
{
  static const float values[] = { 1, 2 };
  static const guint64 shape[] = { 2 };
  SlTensorData a = view_of (values, 2, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
  SlTensorData unknown = view_of (values, 2, SL_TENSOR_DTYPE_UNKNOWN, shape, 1);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (sl_tensor_pair_detail_compute (&a, &a, 0, 20, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  g_assert_null (sl_tensor_pair_detail_compute (&unknown, &a, 0, 20, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* Empty tensors: nothing to pair, empty bins. */
  {
    SlTensorData empty = view_of (NULL, 0, SL_TENSOR_DTYPE_FLOAT32, shape, 1);
    g_autoptr(SlTensorPairDetail) detail = sl_tensor_pair_detail_compute (&empty, &empty, 4, 20, NULL, &error);

    g_assert_no_error (error);
    g_assert_false (detail->comparable);
    g_assert_cmpuint (detail->histogram.max_count, ==, 0);
    g_assert_cmpfloat (detail->histogram.lo, ==, 0);
    g_assert_cmpfloat (detail->histogram.hi, ==, 1);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor-pair-detail/common-bins", test_common_bins_and_largest);
  g_test_add_func ("/tensor-pair-detail/non-finite", test_non_finite);
  g_test_add_func ("/tensor-pair-detail/fortran-order", test_fortran_order);
  g_test_add_func ("/tensor-pair-detail/top-k-ties", test_top_k_ties);
  g_test_add_func ("/tensor-pair-detail/half-precision", test_half_precision);
  g_test_add_func ("/tensor-pair-detail/not-comparable", test_not_comparable);
  g_test_add_func ("/tensor-pair-detail/error-frame", test_error_frame);
  g_test_add_func ("/tensor-pair-detail/error-frame-sampled", test_error_frame_sampled);
  g_test_add_func ("/tensor-pair-detail/cancelled-and-refused", test_cancelled_and_refused);

  return g_test_run ();
}
