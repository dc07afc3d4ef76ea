/* test-tensor-compare-chunks.c: the comparison shared out in chunks
 *
 * The metrics must be the same to the bit whatever the number of
 * threads, on sizes around a chunk's length, in every dtype, with NaN,
 * Inf and zeros; the chunked sums must agree with a long double
 * reference, the KL divergence in each of its forms too; progress grows to 1 chunk by chunk, also through a report
 * of one large pair; and a cancelled comparison stops mid-pair.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-tensor-compare.h"
#include "sl-tensor-compare-report.h"
#include "sl-tensor-compare-row.h"

#define CHUNK SL_TENSOR_COMPARE_CHUNK_ELEMENTS

typedef enum {
  PATTERN_NOISE,     /* the benchmark and a slightly different copy */
  PATTERN_SPECIALS,  /* NaN, Inf and zeros on both sides, near chunk edges */
  PATTERN_ZEROS,     /* a benchmark of zeros but for a few */
} Pattern;

static const SlTensorDtype dtypes[] = {
  SL_TENSOR_DTYPE_FLOAT32, SL_TENSOR_DTYPE_FLOAT64, SL_TENSOR_DTYPE_FLOAT16, SL_TENSOR_DTYPE_BFLOAT16,
  SL_TENSOR_DTYPE_INT8, SL_TENSOR_DTYPE_INT32, SL_TENSOR_DTYPE_UINT16, SL_TENSOR_DTYPE_INT64,
  SL_TENSOR_DTYPE_BOOL,
};

/* Rounds towards zero; every bit pattern it gives is a valid half. */
static guint16
half_from_float (float value)
{
  guint32 bits;
  guint16 sign;
  int exponent;
  guint32 mantissa;

  memcpy (&bits, &value, sizeof bits);
  sign = (bits >> 16) & 0x8000;
  exponent = (int)((bits >> 23) & 0xff) - 127 + 15;
  mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff)
    return sign | 0x7c00 | (mantissa != 0 ? 0x200 : 0);
  if (exponent >= 31)
    return sign | 0x7c00;
  if (exponent <= 0)
    return exponent < -10 ? sign : sign | ((mantissa | 0x800000) >> (14 - exponent));
  return sign | (guint16)(exponent << 10) | (guint16)(mantissa >> 13);
}

static void
store (guint8        *data,
       SlTensorDtype  dtype,
       guint64        i,
       double         value)
{
  float f = (float)value;
  guint32 f_bits;
  guint16 u16;
  gint8 i8;
  gint32 i32;
  gint64 i64;

  switch (dtype)
    {
    case SL_TENSOR_DTYPE_FLOAT32:
      memcpy (data + i * 4, &f, 4);
      break;
    case SL_TENSOR_DTYPE_FLOAT64:
      memcpy (data + i * 8, &value, 8);
      break;
    case SL_TENSOR_DTYPE_FLOAT16:
      u16 = half_from_float (f);
      memcpy (data + i * 2, &u16, 2);
      break;
    case SL_TENSOR_DTYPE_BFLOAT16:
      memcpy (&f_bits, &f, 4);
      u16 = f_bits >> 16;
      memcpy (data + i * 2, &u16, 2);
      break;
    case SL_TENSOR_DTYPE_INT8:
      i8 = isfinite (value) ? (gint8)CLAMP (value * 40, -128, 127) : 0;
      data[i] = (guint8)i8;
      break;
    case SL_TENSOR_DTYPE_INT32:
      i32 = isfinite (value) ? (gint32)(value * 1e6) : 0;
      memcpy (data + i * 4, &i32, 4);
      break;
    case SL_TENSOR_DTYPE_UINT16:
      u16 = isfinite (value) ? (guint16)CLAMP ((value + 2) * 10000, 0, 65535) : 0;
      memcpy (data + i * 2, &u16, 2);
      break;
    case SL_TENSOR_DTYPE_INT64:
      i64 = isfinite (value) ? (gint64)(value * 1e12) : 0;
      memcpy (data + i * 8, &i64, 8);
      break;
    case SL_TENSOR_DTYPE_BOOL:
      data[i] = value > 0;
      break;
    default:
      g_assert_not_reached ();
    }
}

/* A pair of @n elements of @dtype; returns the data, NPU then benchmark. */
static guint8 *
make_pair (SlTensorDtype dtype,
           Pattern       pattern,
           guint64       n,
           guint8      **bench_out)
{
  gsize size = sl_tensor_dtype_get_size (dtype);
  guint8 *npu = g_malloc0 (n * size);
  guint8 *bench = g_malloc0 (n * size);
  guint32 state = 7 + (guint32)n;

  for (guint64 i = 0; i < n; i++)
    {
      double b, a;

      state = state * 1664525u + 1013904223u;
      b = (state >> 8) / 4194304.0 - 2.0;
      a = b * (1 + ((state & 0xff) - 127.5) * 1e-5);
      if (pattern == PATTERN_ZEROS && i % 1000 != 3)
        b = 0;
      if (pattern == PATTERN_SPECIALS)
        {
          guint64 edge = i % CHUNK;

          if (edge == 0)
            a = b = 0;
          else if (edge == CHUNK - 1)
            a = b = NAN;
          else if (i == n / 2)
            a = b = INFINITY;
          else if (i == n / 3)
            a = -INFINITY;
        }
      store (npu, dtype, i, a);
      store (bench, dtype, i, b);
    }
  *bench_out = bench;
  return npu;
}

static SlTensorComparison *
compare_with_threads (const guint8  *npu,
                      const guint8  *bench,
                      SlTensorDtype  dtype,
                      guint64        n,
                      guint          n_threads)
{
  const guint64 shape[] = { n };
  SlTensorData a = { npu, n, dtype, G_BYTE_ORDER == G_BIG_ENDIAN, FALSE, 1, shape };
  SlTensorData b = { bench, n, dtype, G_BYTE_ORDER == G_BIG_ENDIAN, FALSE, 1, shape };
  SlTensorCompareOptions options;

  sl_tensor_compare_options_init (&options);
  options.n_threads = n_threads;
  return sl_tensor_compare (&a, &b, &options);
}

static const gsize metric_offsets[] = {
  G_STRUCT_OFFSET (SlTensorComparison, cosine), G_STRUCT_OFFSET (SlTensorComparison, euclidean_distance),
  G_STRUCT_OFFSET (SlTensorComparison, relative_euclidean_distance), G_STRUCT_OFFSET (SlTensorComparison, max_abs_error),
  G_STRUCT_OFFSET (SlTensorComparison, mean_abs_error), G_STRUCT_OFFSET (SlTensorComparison, rmse),
  G_STRUCT_OFFSET (SlTensorComparison, max_relative_error), G_STRUCT_OFFSET (SlTensorComparison, mean_relative_error),
  G_STRUCT_OFFSET (SlTensorComparison, accumulated_relative_error),
  G_STRUCT_OFFSET (SlTensorComparison, one_thousandth_err_ratio),
  G_STRUCT_OFFSET (SlTensorComparison, five_thousandth_err_ratio), G_STRUCT_OFFSET (SlTensorComparison, kl_divergence),
  G_STRUCT_OFFSET (SlTensorComparison, npu_mean), G_STRUCT_OFFSET (SlTensorComparison, npu_std),
  G_STRUCT_OFFSET (SlTensorComparison, bench_mean), G_STRUCT_OFFSET (SlTensorComparison, bench_std),
};

/* Every metric as bits, so NaN equals NaN and -0 differs from 0. */
static void
assert_same_bits (const SlTensorComparison *one,
                  const SlTensorComparison *other,
                  const char               *what)
{
  g_assert_cmpint (one->verdict, ==, other->verdict);
  g_assert_cmpstr (one->reason, ==, other->reason);
  g_assert_cmpint (one->computed, ==, other->computed);
  g_assert_cmpuint (one->npu_non_finite, ==, other->npu_non_finite);
  g_assert_cmpuint (one->bench_non_finite, ==, other->bench_non_finite);
  for (guint i = 0; i < G_N_ELEMENTS (metric_offsets); i++)
    {
      const double *a = G_STRUCT_MEMBER_P (one, metric_offsets[i]);
      const double *b = G_STRUCT_MEMBER_P (other, metric_offsets[i]);

      if (memcmp (a, b, sizeof (double)) != 0)
        g_error ("%s: metric %u differs: %.17g against %.17g", what, i, *a, *b);
    }
}

static void
test_threads_agree (void)
{
  const guint64 sizes[] = { 1, 2, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1 };
  const Pattern patterns[] = { PATTERN_NOISE, PATTERN_SPECIALS, PATTERN_ZEROS };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
        {
          g_autofree guint8 *bench = NULL;
          g_autofree guint8 *npu = make_pair (dtypes[d], patterns[p], sizes[s], &bench);
          g_autoptr(SlTensorComparison) one = compare_with_threads (npu, bench, dtypes[d], sizes[s], 1);
          g_autofree char *what = g_strdup_printf ("%s, %" G_GUINT64_FORMAT " elements, pattern %u",
                                                   sl_tensor_dtype_get_name (dtypes[d]), sizes[s], patterns[p]);

          for (guint threads = 2; threads <= 3; threads++)
            {
              g_autoptr(SlTensorComparison) more = compare_with_threads (npu, bench, dtypes[d], sizes[s], threads);

              assert_same_bits (one, more, what);
            }
        }
}

/* Σ P log(P/Q) in long double from CANN's definition. */
static long double
long_double_kl (const double *x,
                const double *y,
                guint64       n)
{
  long double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY, sp = 0, sq = 0, kl = 0;
  long double *p = g_new (long double, n), *q = g_new (long double, n);

  for (guint64 i = 0; i < n; i++)
    {
      x_lo = MIN (x_lo, x[i]);
      x_hi = MAX (x_hi, x[i]);
      y_lo = MIN (y_lo, y[i]);
      y_hi = MAX (y_hi, y[i]);
    }
  for (guint64 i = 0; i < n; i++)
    {
      p[i] = MAX (x_hi > x_lo ? (x[i] - x_lo) / (x_hi - x_lo) : x[i], FLT_EPSILON);
      q[i] = MAX (y_hi > y_lo ? (y[i] - y_lo) / (y_hi - y_lo) : y[i], FLT_EPSILON);
      sp += p[i];
      sq += q[i];
    }
  /* Σ P log(P/Q) = Σ Q h(d), since Σ P = Σ Q = 1, with d = (P − Q) / Q
   * and h(d) = (1 + d) log(1 + d) − d, from its series for small d: in
   * the direct form, the rounded P and Q's sums, which miss 1 by a few
   * units in their last place, move a good tensor's divergence by as
   * much again. */
  for (guint64 i = 0; i < n; i++)
    {
      long double P = p[i] / sp, Q = q[i] / sq, d = (P - Q) / Q, h = 0;

      if (fabsl (d) < 1e-2L)
        for (int k = 14; k >= 2; k--)
          h = h * d + ((k % 2 == 0) ? 1.0L : -1.0L) / ((long double)k * (k - 1));
      if (fabsl (d) < 1e-2L)
        h *= d * d;
      else
        h = (1 + d) * log1pl (d) - d;
      kl += Q * h;
    }
  g_free (p);
  g_free (q);
  return kl;
}

/* Chunked sums against long double ones taken straight through. */
static void
test_chunks_match_reference (void)
{
  const guint64 n = 3 * CHUNK + 5;
  g_autofree guint8 *bench = NULL;
  g_autofree guint8 *npu = make_pair (SL_TENSOR_DTYPE_FLOAT64, PATTERN_NOISE, n, &bench);
  const double *x = (const double *)npu, *y = (const double *)bench;
  long double sum_ad = 0, sum_d2 = 0, sum_x = 0, sum_xy = 0, sum_xx = 0, sum_yy = 0;
  long double kl;
  double max_ad = 0;
  g_autoptr(SlTensorComparison) result = compare_with_threads (npu, bench, SL_TENSOR_DTYPE_FLOAT64, n, 2);

  for (guint64 i = 0; i < n; i++)
    {
      long double d = (long double)x[i] - y[i];

      sum_ad += fabsl (d);
      sum_d2 += d * d;
      sum_x += x[i];
      sum_xy += (long double)x[i] * y[i];
      sum_xx += (long double)x[i] * x[i];
      sum_yy += (long double)y[i] * y[i];
      max_ad = MAX (max_ad, fabs (x[i] - y[i]));
    }
  kl = long_double_kl (x, y, n);

  g_assert_true (result->computed);
  g_assert_cmpfloat (result->max_abs_error, ==, max_ad);
  g_assert_cmpfloat (fabs (result->mean_abs_error - (double)(sum_ad / n)), <=, 1e-14 * (double)(sum_ad / n));
  g_assert_cmpfloat (fabs (result->rmse - (double)sqrtl (sum_d2 / n)), <=, 1e-14 * (double)sqrtl (sum_d2 / n));
  g_assert_cmpfloat (fabs (result->npu_mean - (double)(sum_x / n)), <=, 1e-12 * fabs ((double)(sum_x / n)));
  g_assert_cmpfloat (fabs (result->cosine - (double)(sum_xy / sqrtl (sum_xx * sum_yy))), <=, 1e-14);
  /* a divergence of about 1e-9, where each p log(p/q) cancels */
  g_test_message ("KL %.17g, long double %.17Lg", result->kl_divergence, kl);
  g_assert_cmpfloat ((double)kl, >, 0);
  g_assert_cmpfloat (fabs (result->kl_divergence - (double)kl), <=, 1e-12 * (double)kl);
}

typedef enum {
  KL_EVERY_FORM,   /* near, moderate, far and mixed lanes */
  KL_NEAR,         /* a good tensor: every term in the fast form */
  KL_SCALED,       /* an outlier squeezes one side's weights */
  KL_FLAT_NPU,
  KL_FLAT_BOTH,
} KlCase;

static void
fill_kl_case (KlCase   kl_case,
              double  *x,
              double  *y,
              guint64  n)
{
  guint32 state = 11;

  for (guint64 i = 0; i < n; i++)
    {
      double r, b;

      state = state * 1664525u + 1013904223u;
      b = (state >> 8) / 4194304.0 - 2.0;
      r = ((state & 0xff) - 127.5) / 127.5;
      y[i] = b;
      switch (kl_case)
        {
        case KL_EVERY_FORM:
          switch ((i / 4) % 5)
            {
            case 0: x[i] = b * (1 + 1e-6 * r); break;
            case 1: x[i] = b * (1 + 0.02 * r); break;
            case 2: x[i] = 1.9 * r; break;
            case 3: x[i] = i % 4 == 0 ? -b : b * (1 + 1e-7 * r); break;
            default: x[i] = b; break;
            }
          break;
        case KL_NEAR:
          x[i] = b * (1 + 1e-5 * r);
          break;
        case KL_SCALED:
          x[i] = b * (1 + 1e-4 * r);
          if (i == n / 2)
            y[i] = 100;
          break;
        case KL_FLAT_NPU:
          x[i] = 0.5;
          break;
        case KL_FLAT_BOTH:
          x[i] = 3;
          y[i] = 2;
          break;
        }
    }
}

/* The KL divergence's fast, series and logarithm forms and its flat
 * sides, each against long double. */
static void
test_kl_every_form (void)
{
  const guint64 n = 4 * 1024 + 3;

  for (KlCase kl_case = KL_EVERY_FORM; kl_case <= KL_FLAT_BOTH; kl_case++)
    {
      g_autofree double *x = g_new (double, n);
      g_autofree double *y = g_new (double, n);
      g_autoptr(SlTensorComparison) result = NULL;
      long double reference;

      fill_kl_case (kl_case, x, y, n);
      result = compare_with_threads ((const guint8 *)x, (const guint8 *)y, SL_TENSOR_DTYPE_FLOAT64, n, 1);
      reference = long_double_kl (x, y, n);
      g_test_message ("case %d: KL %.17g, long double %.17Lg", kl_case, result->kl_divergence, reference);
      g_assert_true (result->computed);
      if (kl_case == KL_FLAT_BOTH)
        g_assert_cmpfloat (result->kl_divergence, ==, 0);
      else
        {
          g_assert_cmpfloat ((double)reference, >, 1e-14);
          g_assert_cmpfloat (fabs (result->kl_divergence - (double)reference), <=, 1e-12 * (double)reference);
        }
    }
}

typedef struct {
  GArray       *fractions;
  GCancellable *cancel_at_quarter;
} ProgressLog;

static void
progress_cb (double   fraction,
             gpointer data)
{
  ProgressLog *log = data;

  g_array_append_val (log->fractions, fraction);
  if (log->cancel_at_quarter != NULL && fraction >= 0.25)
    g_cancellable_cancel (log->cancel_at_quarter);
}

/* A pair of @n int8 elements, seen as rows of 2048 with the NPU side
 * stored in Fortran order when @columns is not 0 (which the comparison
 * gathers a tile at a time), else as one axis. */
static SlTensorComparison *
compare_logged_as (guint64                 n,
                   guint64                 columns,
                   gboolean                skip_kl,
                   guint                   n_threads,
                   ProgressLog            *log,
                   GCancellable           *cancellable)
{
  g_autofree guint8 *npu = g_malloc (n);
  g_autofree guint8 *bench = g_malloc (n);
  g_autofree guint8 *npu_fortran = NULL;
  guint64 shape[2] = { n, 1 };
  SlTensorData a = { npu, n, SL_TENSOR_DTYPE_INT8, FALSE, FALSE, 1, shape };
  SlTensorData b = { bench, n, SL_TENSOR_DTYPE_INT8, FALSE, FALSE, 1, shape };
  SlTensorCompareOptions options;

  for (guint64 i = 0; i < n; i++)
    {
      bench[i] = (guint8)(i * 7);
      npu[i] = (guint8)(i * 7 + (i % 5 == 0));
    }
  if (columns != 0)
    {
      shape[0] = n / columns;
      shape[1] = columns;
      a.n_dims = b.n_dims = 2;
      npu_fortran = g_malloc (n);
      for (guint64 i = 0; i < n; i++)
        npu_fortran[i % columns * shape[0] + i / columns] = npu[i];
      a.data = npu_fortran;
      a.fortran_order = TRUE;
    }
  sl_tensor_compare_options_init (&options);
  options.n_threads = n_threads;
  options.skip_kl_divergence = skip_kl;
  options.cancellable = cancellable;
  options.progress = progress_cb;
  options.progress_data = log;
  return sl_tensor_compare (&a, &b, &options);
}

static SlTensorComparison *
compare_logged (guint64                 n,
                gboolean                skip_kl,
                guint                   n_threads,
                ProgressLog            *log,
                GCancellable           *cancellable)
{
  return compare_logged_as (n, 0, skip_kl, n_threads, log, cancellable);
}

static void
assert_growing_to_one (GArray *fractions,
                       guint   n_expected)
{
  g_assert_cmpuint (fractions->len, ==, n_expected);
  for (guint i = 1; i < fractions->len; i++)
    g_assert_cmpfloat (g_array_index (fractions, double, i), >, g_array_index (fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (fractions, double, 0), >, 0);
  g_assert_cmpfloat (g_array_index (fractions, double, fractions->len - 1), ==, 1.0);
}

static void
test_progress_per_chunk (void)
{
  const guint64 n = 10 * CHUNK + 3;   /* eleven chunks */

  for (guint threads = 1; threads <= 2; threads++)
    {
      ProgressLog with_kl = { g_array_new (FALSE, FALSE, sizeof (double)), NULL };
      ProgressLog one_pass = { g_array_new (FALSE, FALSE, sizeof (double)), NULL };
      g_autoptr(SlTensorComparison) full = compare_logged (n, FALSE, threads, &with_kl, NULL);
      g_autoptr(SlTensorComparison) fast = compare_logged (n, TRUE, threads, &one_pass, NULL);

      g_assert_true (full->computed);
      g_assert_false (isnan (full->kl_divergence));
      /* the main pass and the KL divergence's, eleven chunks each */
      assert_growing_to_one (with_kl.fractions, 22);
      /* the main pass is the larger share */
      g_assert_cmpfloat (g_array_index (with_kl.fractions, double, 10), >, 0.5);
      g_assert_cmpfloat (g_array_index (with_kl.fractions, double, 10), <, 0.7);
      assert_growing_to_one (one_pass.fractions, 11);
      g_array_unref (with_kl.fractions);
      g_array_unref (one_pass.fractions);
    }
}

static void
test_cancel_mid_pair (void)
{
  const guint64 n = 64 * CHUNK;

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      ProgressLog log = { g_array_new (FALSE, FALSE, sizeof (double)), cancellable };
      g_autoptr(SlTensorComparison) result = compare_logged (n, FALSE, threads, &log, cancellable);
      double last = g_array_index (log.fractions, double, log.fractions->len - 1);

      g_assert_false (result->computed);
      g_assert_cmpint (result->verdict, ==, SL_TENSOR_VERDICT_ERROR);
      g_assert_nonnull (strstr (result->reason, "cancelled"));
      g_assert_true (isnan (result->cosine));
      /* each thread finishes at most the chunk it had begun */
      g_assert_cmpfloat (last, <, 0.25 + threads * 8.0 / (9 * 64));
      g_assert_cmpfloat (last, <, 1.0);
      g_array_unref (log.fractions);
    }
}

/* A mixed-order pair gathered a tile at a time (several chunks at once)
 * reports each chunk as it is added, in both passes, and stops when
 * cancelled with nothing computed; finished, its metrics are the C-order
 * pair's. */
static void
test_tiled_progress_and_cancel (void)
{
  const guint64 n = 64 * CHUNK;

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      ProgressLog with_kl = { g_array_new (FALSE, FALSE, sizeof (double)), NULL };
      ProgressLog plain = { g_array_new (FALSE, FALSE, sizeof (double)), NULL };
      ProgressLog cancelled = { g_array_new (FALSE, FALSE, sizeof (double)), cancellable };
      g_autoptr(SlTensorComparison) full = compare_logged_as (n, 2048, FALSE, threads, &with_kl, NULL);
      g_autoptr(SlTensorComparison) reference = compare_logged (n, FALSE, threads, &plain, NULL);
      g_autoptr(SlTensorComparison) stopped = compare_logged_as (n, 2048, FALSE, threads, &cancelled, cancellable);

      g_assert_true (full->computed);
      assert_growing_to_one (with_kl.fractions, 128);
      g_assert_cmpmem (&full->cosine, sizeof full->cosine, &reference->cosine, sizeof reference->cosine);
      g_assert_cmpmem (&full->kl_divergence, sizeof full->kl_divergence,
                       &reference->kl_divergence, sizeof reference->kl_divergence);
      g_assert_cmpmem (&full->mean_abs_error, sizeof full->mean_abs_error,
                       &reference->mean_abs_error, sizeof reference->mean_abs_error);
      g_assert_false (stopped->computed);
      g_assert_nonnull (strstr (stopped->reason, "cancelled"));
      g_assert_true (isnan (stopped->cosine));
      g_assert_cmpfloat (g_array_index (cancelled.fractions, double, cancelled.fractions->len - 1), <, 1.0);
      g_array_unref (with_kl.fractions);
      g_array_unref (plain.fractions);
      g_array_unref (cancelled.fractions);
    }
}

/* ---- a report of one large pair ---- */

static void
write_npy_int8 (const char *path,
                guint64     n,
                guint       offset)
{
  g_autoptr(GString) header = g_string_new (NULL);
  g_autofree guint8 *data = g_malloc (n);
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint16 length;

  g_string_printf (header, "{'descr': '|i1', 'fortran_order': False, 'shape': (%" G_GUINT64_FORMAT ",), }", n);
  while ((10 + header->len + 1) % 64 != 0)
    g_string_append_c (header, ' ');
  g_string_append_c (header, '\n');
  length = (guint16)header->len;
  g_byte_array_append (bytes, (const guint8 *)"\x93NUMPY\x01\x00", 8);
  g_byte_array_append (bytes, (const guint8 *)&(guint8){ length & 0xff }, 1);
  g_byte_array_append (bytes, (const guint8 *)&(guint8){ length >> 8 }, 1);
  g_byte_array_append (bytes, (const guint8 *)header->str, header->len);
  for (guint64 i = 0; i < n; i++)
    data[i] = (guint8)(i * 3 + (i % 7 == 0 ? offset : 0));
  g_byte_array_append (bytes, data, n);
  g_assert_true (g_file_set_contents (path, (const char *)bytes->data, bytes->len, &error));
  g_assert_no_error (error);
}

static void
record_progress_cb (SlTensorCompareReport *report,
                    GParamSpec            *pspec,
                    GArray                *values)
{
  double value = sl_tensor_compare_report_get_progress (report);

  (void)pspec;
  g_array_append_val (values, value);
}

static void
test_report_progress_within_pair (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sl-compare-chunks-XXXXXX", &error);
  g_autofree char *npu_path = g_build_filename (dir, "npu.npy", NULL);
  g_autofree char *bench_path = g_build_filename (dir, "bench.npy", NULL);
  g_autoptr(SlTensorCompareReport) report = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  SlTensorCompareOptions options;
  guint between = 0;

  g_assert_no_error (error);
  /* 32 MB a side: one pair above the size the report compares on its own */
  write_npy_int8 (npu_path, 128 * CHUNK, 1);
  write_npy_int8 (bench_path, 128 * CHUNK, 0);
  sl_tensor_compare_options_init (&options);
  /* the notifications come on the loading thread, where the one thread works */
  options.n_threads = 1;
  report = sl_tensor_compare_report_new (npu_path, bench_path, &options, 0, NULL);
  g_signal_connect (report, "notify::progress", G_CALLBACK (record_progress_cb), values);
  g_assert_true (sl_tensor_compare_report_load (report, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sl_tensor_compare_report_get_n_rows (report), ==, 1);
  g_assert_true (sl_tensor_compare_row_get_metrics (sl_tensor_compare_report_get_row (report, 0))->computed);

  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      between += value > 0 && value < 1;
      if (i > 0)
        g_assert_cmpfloat (value, >=, g_array_index (values, double, i - 1));
    }
  g_assert_cmpuint (between, >=, 10);
  g_assert_cmpfloat (sl_tensor_compare_report_get_progress (report), ==, 1.0);

  g_assert_cmpint (g_remove (npu_path), ==, 0);
  g_assert_cmpint (g_remove (bench_path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor-compare-chunks/threads-agree", test_threads_agree);
  g_test_add_func ("/tensor-compare-chunks/match-reference", test_chunks_match_reference);
  g_test_add_func ("/tensor-compare-chunks/kl-every-form", test_kl_every_form);
  g_test_add_func ("/tensor-compare-chunks/progress", test_progress_per_chunk);
  g_test_add_func ("/tensor-compare-chunks/cancel-mid-pair", test_cancel_mid_pair);
  g_test_add_func ("/tensor-compare-chunks/tiled-progress-cancel", test_tiled_progress_and_cancel);
  g_test_add_func ("/tensor-compare-chunks/report-progress", test_report_progress_within_pair);

  return g_test_run ();
}
