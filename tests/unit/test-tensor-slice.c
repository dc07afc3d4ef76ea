/* test-tensor-slice.c: slicing text against NumPy's rules, statistics
 * against a two-pass reference, the histogram and the heatmap frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-tensor-frame.h"
#include "sl-tensor-slice.h"
#include "sl-tensor-stats.h"

static SlTensorSlice *
parse_ok (const char   *text,
          const gint64 *dims,
          guint         n_dims)
{
  g_autoptr(GError) error = NULL;
  gsize position = 999;
  SlTensorSlice *slice = sl_tensor_slice_parse (text, dims, n_dims, &position, &error);

  g_assert_no_error (error);
  g_assert_nonnull (slice);
  g_assert_cmpuint (position, ==, 999);
  return slice;
}

static void
assert_fails (const char *text,
              const gint64 *dims,
              guint         n_dims,
              int           code,
              gsize         expected_position)
{
  g_autoptr(GError) error = NULL;
  gsize position = 999;
  g_autofree char *at = g_strdup_printf ("%u)", (guint)expected_position + 1);
  SlTensorSlice *slice = sl_tensor_slice_parse (text, dims, n_dims, &position, &error);

  g_assert_null (slice);
  g_assert_error (error, SL_TENSOR_SLICE_ERROR, code);
  g_assert_cmpuint (position, ==, expected_position);
  /* The message says where, counting from 1. */
  g_assert_true (g_str_has_suffix (error->message, at));
}

/* The positions a view selects, walked cell by cell. */
static GArray *
view_offsets (const SlTensorSlice *slice)
{
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (gint64 r = 0; r < slice->n_rows; r++)
    for (gint64 c = 0; c < slice->n_cols; c++)
      {
        gint64 offset = sl_tensor_slice_offset (slice, r, c);
        g_array_append_val (offsets, offset);
      }
  return offsets;
}

static void
assert_offsets (const SlTensorSlice *slice,
                const gint64        *expected,
                guint                n)
{
  g_autoptr(GArray) offsets = view_offsets (slice);

  g_assert_cmpuint (offsets->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (g_array_index (offsets, gint64, i), ==, expected[i]);
}

static void
test_slice_whole_and_default (void)
{
  const gint64 dims[] = { 2, 3, 4 };
  g_autoptr(SlTensorSlice) matrix = NULL;
  g_autoptr(SlTensorSlice) tensor = NULL;
  g_autofree char *text = sl_tensor_slice_default_text (dims, 3);
  g_autofree char *shape = sl_tensor_slice_format_shape (dims, 3);
  g_autofree char *shape1 = sl_tensor_slice_format_shape (dims, 1);

  g_assert_cmpstr (text, ==, "0, :, :");
  g_assert_cmpstr (shape, ==, "(2, 3, 4)");
  g_assert_cmpstr (shape1, ==, "(2,)");

  matrix = parse_ok ("", dims + 1, 2);
  g_assert_cmpint (matrix->row_axis, ==, 0);
  g_assert_cmpint (matrix->col_axis, ==, 1);
  g_assert_cmpint (matrix->n_rows, ==, 3);
  g_assert_cmpint (matrix->n_cols, ==, 4);
  g_assert_cmpint (sl_tensor_slice_offset (matrix, 2, 3), ==, 11);

  /* t[1] of shape (2, 3, 4): rows are axis 1, columns axis 2 */
  tensor = parse_ok ("1", dims, 3);
  g_assert_cmpint (tensor->row_axis, ==, 1);
  g_assert_cmpint (tensor->col_axis, ==, 2);
  g_assert_cmpint (tensor->base, ==, 12);
  g_assert_cmpint (sl_tensor_slice_get_n_elements (tensor), ==, 12);
}

static void
test_slice_indices_and_steps (void)
{
  const gint64 dims[] = { 2, 3, 10 };
  g_autoptr(SlTensorSlice) a = parse_ok ("0, :, 2:8:2", dims, 3);
  g_autoptr(SlTensorSlice) b = parse_ok ("-1, 1, ::-3", dims, 3);
  g_autoptr(SlTensorSlice) c = parse_ok (" ... , -1 ", dims, 3);
  g_autoptr(SlTensorSlice) d = parse_ok ("1, ..., 5", dims, 3);
  g_autoptr(SlTensorSlice) e = parse_ok ("0, 1:, -3:100", dims, 3);
  g_autoptr(SlTensorSlice) f = parse_ok ("0, 5:1, :", dims, 3);
  g_autoptr(SlTensorSlice) g = parse_ok ("1, 1, 3,", dims, 3);
  g_autoptr(SlTensorSlice) h = parse_ok ("0,:,-100:2", dims, 3);
  g_autoptr(SlTensorSlice) k = parse_ok ("0, 2:0:-1, 9:-11:-4", dims, 3);
  const gint64 a_expected[] = { 2, 4, 6, 12, 14, 16, 22, 24, 26 };
  const gint64 b_expected[] = { 49, 46, 43, 40 };
  const gint64 d_expected[] = { 35, 45, 55 };
  const gint64 e_expected[] = { 17, 18, 19, 27, 28, 29 };
  const gint64 h_expected[] = { 0, 1, 10, 11, 20, 21 };
  const gint64 k_expected[] = { 29, 25, 21, 19, 15, 11 };

  assert_offsets (a, a_expected, G_N_ELEMENTS (a_expected));
  g_assert_cmpint (sl_tensor_slice_col_position (a, 2), ==, 6);
  g_assert_cmpint (sl_tensor_slice_row_position (a, 2), ==, 2);

  /* One axis left: a single row, the column axis is the kept one. */
  g_assert_cmpint (b->row_axis, ==, -1);
  g_assert_cmpint (b->col_axis, ==, 2);
  assert_offsets (b, b_expected, G_N_ELEMENTS (b_expected));
  g_assert_cmpint (sl_tensor_slice_col_position (b, 1), ==, 6);

  /* "..." then -1: t[:, :, -1] */
  g_assert_cmpint (c->row_axis, ==, 0);
  g_assert_cmpint (c->col_axis, ==, 1);
  g_assert_cmpint (sl_tensor_slice_offset (c, 1, 2), ==, 59);

  assert_offsets (d, d_expected, G_N_ELEMENTS (d_expected));
  assert_offsets (e, e_expected, G_N_ELEMENTS (e_expected));

  /* An empty range is a view of no cells, as in NumPy. */
  g_assert_cmpint (f->n_rows, ==, 0);
  g_assert_cmpint (sl_tensor_slice_get_n_elements (f), ==, 0);

  /* Every axis picked: one cell; a trailing comma is allowed. */
  g_assert_cmpint (g->row_axis, ==, -1);
  g_assert_cmpint (g->col_axis, ==, -1);
  g_assert_cmpint (sl_tensor_slice_get_n_elements (g), ==, 1);
  g_assert_cmpint (sl_tensor_slice_offset (g, 0, 0), ==, 43);

  assert_offsets (h, h_expected, G_N_ELEMENTS (h_expected));
  /* np.arange(60).reshape(2,3,10)[0, 2:0:-1, 9:-11:-4] */
  assert_offsets (k, k_expected, G_N_ELEMENTS (k_expected));
}

static void
test_slice_scalar_and_vector (void)
{
  const gint64 dims[] = { 5 };
  g_autoptr(SlTensorSlice) scalar = parse_ok ("", NULL, 0);
  g_autoptr(SlTensorSlice) dots = parse_ok ("...", NULL, 0);
  g_autoptr(SlTensorSlice) vector = parse_ok ("", dims, 1);
  g_autoptr(SlTensorSlice) reversed = parse_ok ("::-1", dims, 1);

  g_assert_cmpint (sl_tensor_slice_get_n_elements (scalar), ==, 1);
  g_assert_cmpint (sl_tensor_slice_get_n_elements (dots), ==, 1);
  g_assert_cmpint (vector->n_rows, ==, 1);
  g_assert_cmpint (vector->n_cols, ==, 5);
  g_assert_cmpint (sl_tensor_slice_offset (reversed, 0, 0), ==, 4);
  g_assert_cmpint (sl_tensor_slice_offset (reversed, 0, 4), ==, 0);
  assert_fails ("0", NULL, 0, SL_TENSOR_SLICE_ERROR_SHAPE, 0);
}

static void
test_slice_errors (void)
{
  const gint64 dims[] = { 2, 3, 10 };

  assert_fails ("0, x, :", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 3);
  assert_fails ("0,,1", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 2);
  assert_fails (",0", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 0);
  assert_fails ("0, 1:2:3:4", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 8);
  assert_fails ("0, ::0", dims, 3, SL_TENSOR_SLICE_ERROR_RANGE, 5);
  assert_fails ("0, 1.5", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 4);
  assert_fails ("0, 1 2", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 5);
  assert_fails ("0, -", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 4);
  assert_fails ("..., 0, ...", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 8);
  assert_fails ("99999999999999999999", dims, 3, SL_TENSOR_SLICE_ERROR_RANGE, 0);
  /* Against the shape: the item's position. */
  assert_fails ("2, :, :", dims, 3, SL_TENSOR_SLICE_ERROR_RANGE, 0);
  assert_fails ("0, -4", dims, 3, SL_TENSOR_SLICE_ERROR_RANGE, 3);
  assert_fails ("0, 0, 0, 0", dims, 3, SL_TENSOR_SLICE_ERROR_SHAPE, 9);
  /* Three axes kept: points at the first one, or the end when implicit. */
  assert_fails (":", dims, 3, SL_TENSOR_SLICE_ERROR_SHAPE, 0);
  assert_fails ("", dims, 3, SL_TENSOR_SLICE_ERROR_SHAPE, 0);
  assert_fails ("  ", dims, 3, SL_TENSOR_SLICE_ERROR_SHAPE, 2);
  /* Positions count characters, not bytes. */
  assert_fails ("0, “1”", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 3);
  assert_fails ("0,\u00a0é", dims, 3, SL_TENSOR_SLICE_ERROR_SYNTAX, 2);
}

/* Reference: the textbook two passes over the finite values. */
static void
two_pass (const double *values,
          gsize         n,
          double       *mean,
          double       *std)
{
  double sum = 0, sq = 0;
  gsize count = 0;

  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        sum += values[i];
        count++;
      }
  *mean = sum / count;
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      sq += (values[i] - *mean) * (values[i] - *mean);
  *std = sqrt (sq / count);
}

static void
test_stats_against_two_pass (void)
{
  const gsize n = 100003;
  g_autofree double *values = g_new (double, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  SlTensorStats stats, first, second;
  double mean, std;

  /* A large offset makes the naive sum-of-squares formula lose digits. */
  for (gsize i = 0; i < n; i++)
    values[i] = 1e6 + g_rand_double_range (rand, -1, 1);
  values[10] = NAN;
  values[20] = INFINITY;
  values[30] = -INFINITY;
  values[40] = 0;
  values[41] = -0.0;

  sl_tensor_stats_init (&stats);
  sl_tensor_stats_add_values (&stats, values, n);
  two_pass (values, n, &mean, &std);

  g_assert_cmpuint (stats.n, ==, n);
  g_assert_cmpuint (stats.n_finite, ==, n - 3);
  g_assert_cmpuint (stats.n_nan, ==, 1);
  g_assert_cmpuint (stats.n_pos_inf, ==, 1);
  g_assert_cmpuint (stats.n_neg_inf, ==, 1);
  g_assert_cmpuint (stats.n_zero, ==, 2);
  g_assert_cmpfloat (stats.min, ==, 0);
  g_assert_cmpfloat (stats.max, <=, 1e6 + 1);
  g_assert_cmpfloat_with_epsilon (stats.mean, mean, 1e-9 * fabs (mean));
  g_assert_cmpfloat_with_epsilon (sl_tensor_stats_get_std (&stats), std, 1e-9 * std);

  /* Two halves merged give the same as one pass. */
  sl_tensor_stats_init (&first);
  sl_tensor_stats_init (&second);
  sl_tensor_stats_add_values (&first, values, n / 3);
  sl_tensor_stats_add_values (&second, values + n / 3, n - n / 3);
  sl_tensor_stats_merge (&first, &second);
  g_assert_cmpuint (first.n, ==, stats.n);
  g_assert_cmpuint (first.n_zero, ==, 2);
  g_assert_cmpfloat (first.min, ==, stats.min);
  g_assert_cmpfloat (first.max, ==, stats.max);
  g_assert_cmpfloat_with_epsilon (first.mean, mean, 1e-9 * fabs (mean));
  g_assert_cmpfloat_with_epsilon (sl_tensor_stats_get_std (&first), std, 1e-9 * std);
}

static void
test_stats_without_finite_values (void)
{
  const double values[] = { NAN, INFINITY, NAN };
  SlTensorStats stats;

  sl_tensor_stats_init (&stats);
  sl_tensor_stats_add_values (&stats, values, G_N_ELEMENTS (values));
  g_assert_cmpuint (stats.n_nan, ==, 2);
  g_assert_cmpuint (stats.n_pos_inf, ==, 1);
  g_assert_cmpuint (stats.n_finite, ==, 0);
  g_assert_true (isnan (stats.min));
  g_assert_true (isnan (sl_tensor_stats_get_std (&stats)));
}

static void
test_stats_of_slice_and_histogram (void)
{
  const gint64 dims[] = { 4, 5 };
  double values[20];
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(SlTensorHistogram) histogram = NULL;
  SlTensorStats stats;
  guint64 total = 0;

  for (guint i = 0; i < 20; i++)
    values[i] = i;
  values[7] = NAN;

  /* Rows 1 and 3, columns 1..3: 6 7 8 / 16 17 18, with 7 a NaN. */
  slice = parse_ok ("1::2, 1:4", dims, 2);
  sl_tensor_stats_init (&stats);
  sl_tensor_stats_add_slice (&stats, values, slice);
  g_assert_cmpuint (stats.n, ==, 6);
  g_assert_cmpuint (stats.n_nan, ==, 1);
  g_assert_cmpfloat (stats.min, ==, 6);
  g_assert_cmpfloat (stats.max, ==, 18);
  g_assert_cmpfloat_with_epsilon (stats.mean, (6 + 8 + 16 + 17 + 18) / 5.0, 1e-12);

  histogram = sl_tensor_histogram_new_for_slice (values, slice, &stats, 4);
  g_assert_cmpuint (histogram->n_bins, ==, 4);
  g_assert_cmpfloat (histogram->lo, ==, 6);
  g_assert_cmpfloat (histogram->hi, ==, 18);
  g_assert_cmpfloat (sl_tensor_histogram_get_bin_width (histogram), ==, 3);
  /* [6,9) holds 6 and 8; [15,18] holds 16, 17 and 18 (the last bin is closed). */
  g_assert_cmpuint (histogram->counts[0], ==, 2);
  g_assert_cmpuint (histogram->counts[1], ==, 0);
  g_assert_cmpuint (histogram->counts[3], ==, 3);
  g_assert_cmpuint (histogram->max_count, ==, 3);
  for (guint b = 0; b < histogram->n_bins; b++)
    total += histogram->counts[b];
  g_assert_cmpuint (total, ==, stats.n_finite);
}

static void
test_frame_palette_and_image (void)
{
  const gint64 dims[] = { 2, 3 };
  double signed_values[] = { -2, 0, 1, NAN, INFINITY, -INFINITY };
  double positive_values[] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr(GBytes) signed_bytes = g_bytes_new (signed_values, sizeof signed_values);
  g_autoptr(GBytes) positive_bytes = g_bytes_new (positive_values, sizeof positive_values);
  g_autoptr(SlTensorSlice) slice = parse_ok ("", dims, 2);
  g_autoptr(SlTensorFrame) diverging = sl_tensor_frame_new (5, 11, dims, 2, signed_bytes, slice);
  g_autoptr(SlTensorFrame) sequential = sl_tensor_frame_new (5, 11, dims, 2, positive_bytes, slice);
  double rgb[3];

  g_assert_true (sl_tensor_frame_compute (diverging, NULL, NULL));
  g_assert_cmpint (diverging->palette, ==, SL_TENSOR_PALETTE_DIVERGING);
  g_assert_cmpfloat (diverging->color_lo, ==, -2);
  g_assert_cmpfloat (diverging->color_hi, ==, 2);
  g_assert_cmpuint (diverging->image_width, ==, 3);
  g_assert_cmpuint (diverging->image_height, ==, 2);
  /* Zero is the palette's middle: near white. */
  g_assert_cmphex (diverging->image[1] & 0xf0f0f0, ==, 0xf0f0f0);
  sl_tensor_special_color (SL_TENSOR_SPECIAL_NAN, rgb);
  g_assert_cmphex (diverging->image[3], ==, sl_tensor_frame_color_of (diverging, NAN));
  g_assert_cmphex (diverging->image[3], !=, diverging->image[4]);
  g_assert_cmphex (diverging->image[4], !=, diverging->image[5]);
  g_assert_cmpuint (diverging->full.n_nan, ==, 1);
  g_assert_cmpuint (diverging->view.n_pos_inf, ==, 1);

  g_assert_true (sl_tensor_frame_compute (sequential, NULL, NULL));
  g_assert_cmpint (sequential->palette, ==, SL_TENSOR_PALETTE_SEQUENTIAL);
  g_assert_cmpfloat (sequential->color_lo, ==, 1);
  g_assert_cmpfloat (sequential->color_hi, ==, 6);
  g_assert_cmpfloat (sl_tensor_frame_get_cell (sequential, 1, 2), ==, 6);
  g_assert_cmphex (sequential->image[0], !=, sequential->image[5]);

  g_assert_cmpstr (sl_tensor_dtype_to_string (11), ==, "float32");
  g_assert_true (sl_tensor_dtype_is_integer (4));
  g_assert_false (sl_tensor_dtype_is_integer (12));
}

static void
test_frame_cancelled (void)
{
  const gint64 dims[] = { 1000, 1000 };
  g_autofree double *values = g_new0 (double, 1000000);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&values), 1000000 * sizeof (double));
  g_autoptr(SlTensorSlice) slice = parse_ok ("", dims, 2);
  g_autoptr(SlTensorFrame) frame = sl_tensor_frame_new (0, 12, dims, 2, bytes, slice);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  g_cancellable_cancel (cancellable);
  g_assert_false (sl_tensor_frame_compute (frame, NULL, cancellable));
  g_assert_false (frame->computed);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor-slice/whole-and-default", test_slice_whole_and_default);
  g_test_add_func ("/tensor-slice/indices-and-steps", test_slice_indices_and_steps);
  g_test_add_func ("/tensor-slice/scalar-and-vector", test_slice_scalar_and_vector);
  g_test_add_func ("/tensor-slice/errors", test_slice_errors);
  g_test_add_func ("/tensor-stats/against-two-pass", test_stats_against_two_pass);
  g_test_add_func ("/tensor-stats/without-finite-values", test_stats_without_finite_values);
  g_test_add_func ("/tensor-stats/slice-and-histogram", test_stats_of_slice_and_histogram);
  g_test_add_func ("/tensor-frame/palette-and-image", test_frame_palette_and_image);
  g_test_add_func ("/tensor-frame/cancelled", test_frame_cancelled);

  return g_test_run ();
}
