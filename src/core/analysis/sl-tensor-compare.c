/* sl-tensor-compare.c: accuracy metrics of a tensor against its benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-tensor-compare.h"

/* Elements converted to double at a time: two blocks stay in L1. */
#define BLOCK 2048
/* At most this many chunks' sums are kept, a few megabytes. */
#define MAX_CHUNKS 16384
/* A chunk's share of the work in each pass, after the time they take. */
#define RANGE_WEIGHT 1
#define MAIN_WEIGHT 8

typedef struct {
  double sum;
  double compensation;
} Neumaier;

enum {
  SUM_NB, SUM_NN, SUM_BB, SUM_D2, SUM_AD, SUM_N, SUM_B, SUM_N2, SUM_B2, SUM_RE_TERM,
  N_SUMS
};

typedef struct {
  Neumaier sums[N_SUMS];
  double   max_ad;
  double   max_re;
  gboolean re_nan;
  guint64  n_thousandth;
  guint64  n_five_thousandth;
  guint64  npu_non_finite;
  guint64  bench_non_finite;
} Partial;

typedef struct {
  Neumaier sum_p;
  Neumaier sum_q;
  Neumaier sum_plogpq;
} KlPartial;

/* Each side's finite minimum and maximum and how many are not finite. */
typedef struct {
  double  npu_min, npu_max, bench_min, bench_max;
  guint64 npu_non_finite, bench_non_finite;
} Range;

typedef struct {
  Partial   partial;
  KlPartial kl;
  Range     range;
} Chunk;

typedef struct _Run Run;
typedef void (*ChunkFunc) (Run    *run,
                           guint64 index);

/* One comparison: what every chunk needs, the chunks' own sums, and the
 * pass the threads are in. */
struct _Run {
  const SlTensorData *npu;
  const SlTensorData *bench;
  guint64             n_elements;
  guint64             chunk_size;
  guint64             n_chunks;
  Chunk              *chunks;
  double              shift_n;   /* sums of squares are taken about these */
  double              shift_b;
  double              re_eps;    /* added where the benchmark is zero */
  /* from the range pass, for the KL divergence's normalisation */
  gboolean            with_kl;
  double              npu_min, npu_range, bench_min, bench_range;
  guint               n_threads;
  GCancellable       *cancellable;
  ChunkFunc           pass;
  guint               pass_weight;
  gint                next_chunk;   /* atomic */
  /* progress, in chunks weighted by their pass's cost */
  GMutex              progress_lock;
  guint64             units_done;
  guint64             units_total;
  SlTensorCompareProgressFunc progress;
  gpointer            progress_data;
};

static inline void
neumaier_add (Neumaier *s,
              double    x)
{
  double t = s->sum + x;

  if (fabs (s->sum) >= fabs (x))
    s->compensation += (s->sum - t) + x;
  else
    s->compensation += (x - t) + s->sum;
  s->sum = t;
}

static inline double
neumaier_value (const Neumaier *s)
{
  return s->sum + s->compensation;
}

static void
neumaier_merge (Neumaier       *s,
                const Neumaier *other)
{
  neumaier_add (s, other->sum);
  neumaier_add (s, other->compensation);
}

static double
half_to_double (guint16 h)
{
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double value;

  if (exponent == 0)
    value = ldexp (mantissa, -24);
  else if (exponent == 31)
    value = mantissa == 0 ? INFINITY : NAN;
  else
    value = ldexp (mantissa | 0x400, exponent - 25);
  return (h & 0x8000) ? -value : value;
}

gsize
sl_tensor_dtype_get_size (SlTensorDtype dtype)
{
  switch (dtype)
    {
    case SL_TENSOR_DTYPE_BOOL: case SL_TENSOR_DTYPE_INT8: case SL_TENSOR_DTYPE_UINT8:
      return 1;
    case SL_TENSOR_DTYPE_INT16: case SL_TENSOR_DTYPE_UINT16:
    case SL_TENSOR_DTYPE_FLOAT16: case SL_TENSOR_DTYPE_BFLOAT16:
      return 2;
    case SL_TENSOR_DTYPE_INT32: case SL_TENSOR_DTYPE_UINT32: case SL_TENSOR_DTYPE_FLOAT32:
      return 4;
    case SL_TENSOR_DTYPE_INT64: case SL_TENSOR_DTYPE_UINT64: case SL_TENSOR_DTYPE_FLOAT64:
      return 8;
    case SL_TENSOR_DTYPE_UNKNOWN:
    default:
      return 0;
    }
}

const char *
sl_tensor_dtype_get_name (SlTensorDtype dtype)
{
  static const char * const names[] = {
    "unknown", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16",
  };

  if ((guint)dtype < G_N_ELEMENTS (names))
    return names[dtype];
  return "unknown";
}

const char *
sl_tensor_verdict_to_string (SlTensorVerdict verdict)
{
  switch (verdict)
    {
    case SL_TENSOR_VERDICT_PASS: return "pass";
    case SL_TENSOR_VERDICT_WARNING: return "warning";
    case SL_TENSOR_VERDICT_ERROR: return "error";
    default: return "unknown";
    }
}

/* Raw bits of element @i, byte-swapped to the host's order. */
static inline guint64
load_bits (const guint8 *p,
           gsize         size,
           gboolean      swap)
{
  guint16 u16;
  guint32 u32;
  guint64 u64;

  switch (size)
    {
    case 1:
      return *p;
    case 2:
      memcpy (&u16, p, 2);
      return swap ? GUINT16_SWAP_LE_BE (u16) : u16;
    case 4:
      memcpy (&u32, p, 4);
      return swap ? GUINT32_SWAP_LE_BE (u32) : u32;
    default:
      memcpy (&u64, p, 8);
      return swap ? GUINT64_SWAP_LE_BE (u64) : u64;
    }
}

static double
bits_to_double (guint64       bits,
                SlTensorDtype dtype)
{
  union { guint32 u; float f; } f32;
  union { guint64 u; double d; } f64;

  switch (dtype)
    {
    case SL_TENSOR_DTYPE_BOOL: return bits != 0;
    case SL_TENSOR_DTYPE_INT8: return (gint8)bits;
    case SL_TENSOR_DTYPE_INT16: return (gint16)bits;
    case SL_TENSOR_DTYPE_INT32: return (gint32)bits;
    case SL_TENSOR_DTYPE_INT64: return (double)(gint64)bits;
    case SL_TENSOR_DTYPE_UINT8: case SL_TENSOR_DTYPE_UINT16: case SL_TENSOR_DTYPE_UINT32:
    case SL_TENSOR_DTYPE_UINT64:
      return (double)bits;
    case SL_TENSOR_DTYPE_FLOAT16: return half_to_double ((guint16)bits);
    case SL_TENSOR_DTYPE_BFLOAT16:
      f32.u = (guint32)bits << 16;
      return f32.f;
    case SL_TENSOR_DTYPE_FLOAT32:
      f32.u = (guint32)bits;
      return f32.f;
    case SL_TENSOR_DTYPE_FLOAT64:
      f64.u = bits;
      return f64.d;
    case SL_TENSOR_DTYPE_UNKNOWN:
    default:
      return NAN;
    }
}

static inline gboolean
host_is_big_endian (void)
{
  return G_BYTE_ORDER == G_BIG_ENDIAN;
}

/* Where the loader can pick a variant at run time, an AVX2 one doubles
 * the vector width on the machines that have it. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define SL_VECTOR_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define SL_VECTOR_CLONES
#endif

/* float32 as stored, widened: its own clone so the loop is vector code. */
SL_VECTOR_CLONES static void
widen_float32 (const guint8 *restrict p,
               gsize                  n,
               double       *restrict out)
{
  for (gsize i = 0; i < n; i++)
    {
      float value;

      memcpy (&value, p + i * sizeof value, sizeof value);
      out[i] = value;
    }
}

SL_VECTOR_CLONES static void
widen_bfloat16 (const guint8 *restrict p,
                gsize                  n,
                double       *restrict out)
{
  for (gsize i = 0; i < n; i++)
    {
      guint16 half;
      guint32 bits;
      float value;

      memcpy (&half, p + i * sizeof half, sizeof half);
      bits = (guint32)half << 16;
      memcpy (&value, &bits, sizeof value);
      out[i] = value;
    }
}

/* One loop per dtype, the dtype and byte order chosen once per block
 * rather than per element. */
static void
convert_block (const SlTensorData *view,
               guint64             first,
               gsize               n,
               double             *out)
{
  gsize size = sl_tensor_dtype_get_size (view->dtype);
  gboolean swap = view->big_endian != host_is_big_endian ();
  const guint8 *p = view->data + first * size;

  if (!swap)
    switch (view->dtype)
      {
      case SL_TENSOR_DTYPE_FLOAT32:
        widen_float32 (p, n, out);
        return;
      case SL_TENSOR_DTYPE_FLOAT64:
        memcpy (out, p, n * sizeof (double));
        return;
      case SL_TENSOR_DTYPE_BFLOAT16:
        widen_bfloat16 (p, n, out);
        return;
      default:
        break;
      }
  switch (size)
    {
    case 1:
      for (gsize i = 0; i < n; i++)
        out[i] = bits_to_double (p[i], view->dtype);
      break;
    case 2:
      for (gsize i = 0; i < n; i++)
        out[i] = bits_to_double (load_bits (p + i * 2, 2, swap), view->dtype);
      break;
    case 4:
      for (gsize i = 0; i < n; i++)
        out[i] = bits_to_double (load_bits (p + i * 4, 4, swap), view->dtype);
      break;
    default:
      for (gsize i = 0; i < n; i++)
        out[i] = bits_to_double (load_bits (p + i * 8, 8, swap), view->dtype);
      break;
    }
}

static void
partial_init (Partial *partial)
{
  memset (partial, 0, sizeof *partial);
}

/* Block sums are plain doubles (a block is short), then compensated.
 * Each sum is kept in LANES independent lanes, so the compiler can turn
 * the loop into vector code without reassociating a single sum (which it
 * may not do to floating point) and without branches; counts are doubles
 * for the same reason, exact far beyond a block. */
#define LANES 4

enum {
  LANE_NB, LANE_NN, LANE_BB, LANE_D2, LANE_AD, LANE_N, LANE_B, LANE_N2, LANE_B2, LANE_RE_TERM,
  LANE_THOUSANDTH, LANE_FIVE_THOUSANDTH, LANE_RE_NAN, LANE_N_BAD, LANE_B_BAD,
  N_LANE_SUMS
};

enum { MAX_AD, MAX_RE, N_LANE_EXTREMES };

/* @lanes is LANES but for a block's last few elements. */
static inline void
accumulate_group (double        sums[N_LANE_SUMS][LANES],
                  double        ext[N_LANE_EXTREMES][LANES],
                  const double *n_values,
                  const double *b_values,
                  guint         lanes,
                  double        shift_n,
                  double        shift_b,
                  double        re_eps)
{
  for (guint k = 0; k < lanes; k++)
    {
      double x = n_values[k], y = b_values[k];
      double d = x - y, ad = fabs (d), ay = fabs (y);
      double xs = x - shift_n, ys = y - shift_b;
      /* msprobe adds epsilon to both sides where the benchmark is zero,
       * so the difference stays and the divisor becomes epsilon. */
      double re = ad / (y == 0 ? re_eps : ay);
      int n_finite = x - x == 0, b_finite = y - y == 0;

      sums[LANE_NB][k] += x * y;
      sums[LANE_NN][k] += x * x;
      sums[LANE_BB][k] += y * y;
      sums[LANE_D2][k] += d * d;
      sums[LANE_AD][k] += ad;
      sums[LANE_N][k] += xs;
      sums[LANE_B][k] += ys;
      sums[LANE_N2][k] += xs * xs;
      sums[LANE_B2][k] += ys * ys;
      sums[LANE_RE_TERM][k] += ay > DBL_EPSILON ? re : 0;
      sums[LANE_THOUSANDTH][k] += re < 0.001 ? 1 : 0;
      sums[LANE_FIVE_THOUSANDTH][k] += re < 0.005 ? 1 : 0;
      sums[LANE_RE_NAN][k] += re != re ? 1 : 0;
      sums[LANE_N_BAD][k] += n_finite ? 0 : 1;
      sums[LANE_B_BAD][k] += b_finite ? 0 : 1;
      ext[MAX_AD][k] = ad > ext[MAX_AD][k] ? ad : ext[MAX_AD][k];
      ext[MAX_RE][k] = re > ext[MAX_RE][k] ? re : ext[MAX_RE][k];
    }
}


SL_VECTOR_CLONES static void
accumulate_block (const Run    *run,
                  Partial      *p,
                  const double *n_values,
                  const double *b_values,
                  gsize         n)
{
  double sums[N_LANE_SUMS][LANES] = { { 0 } };
  double ext[N_LANE_EXTREMES][LANES];
  gsize i = 0;

  for (guint k = 0; k < LANES; k++)
    {
      ext[MAX_AD][k] = p->max_ad;
      ext[MAX_RE][k] = p->max_re;
    }
  for (; i + LANES <= n; i += LANES)
    accumulate_group (sums, ext, n_values + i, b_values + i, LANES, run->shift_n, run->shift_b, run->re_eps);
  if (i < n)
    accumulate_group (sums, ext, n_values + i, b_values + i, n - i, run->shift_n, run->shift_b, run->re_eps);

  for (guint s = 0; s <= LANE_RE_TERM; s++)
    neumaier_add (&p->sums[s], sums[s][0] + sums[s][1] + sums[s][2] + sums[s][3]);
  p->n_thousandth += (guint64)(sums[LANE_THOUSANDTH][0] + sums[LANE_THOUSANDTH][1] + sums[LANE_THOUSANDTH][2] +
                               sums[LANE_THOUSANDTH][3]);
  p->n_five_thousandth += (guint64)(sums[LANE_FIVE_THOUSANDTH][0] + sums[LANE_FIVE_THOUSANDTH][1] +
                                    sums[LANE_FIVE_THOUSANDTH][2] + sums[LANE_FIVE_THOUSANDTH][3]);
  p->re_nan |= sums[LANE_RE_NAN][0] + sums[LANE_RE_NAN][1] + sums[LANE_RE_NAN][2] + sums[LANE_RE_NAN][3] > 0;
  p->npu_non_finite += (guint64)(sums[LANE_N_BAD][0] + sums[LANE_N_BAD][1] + sums[LANE_N_BAD][2] + sums[LANE_N_BAD][3]);
  p->bench_non_finite += (guint64)(sums[LANE_B_BAD][0] + sums[LANE_B_BAD][1] + sums[LANE_B_BAD][2] + sums[LANE_B_BAD][3]);
  for (guint k = 0; k < LANES; k++)
    {
      p->max_ad = MAX (p->max_ad, ext[MAX_AD][k]);
      p->max_re = MAX (p->max_re, ext[MAX_RE][k]);
    }
}

/* CANN: min-max normalised (unchanged when flat), floored at float32
 * epsilon; the division by the sums is done after the pass. */
static inline double
kl_weight (double value,
           double min,
           double range)
{
  double w = range > 0 ? (value - min) / range : value;

  return w > FLT_EPSILON ? w : FLT_EPSILON;
}

/* log (p / q) of positive normal numbers, with one division and no
 * branch, so the KL pass runs as vector code: the exponents apart, the
 * mantissas brought within √2 of each other, and atanh's series on
 * s = (mp - mq) / (mp + mq), |s| <= 0.172, whose terms past s¹⁹ are below
 * 1e-17 of the sum. mp - mq is exact there, so a ratio near 1 (a good
 * tensor) keeps every digit rather than the ones the rounded p / q left. */
static inline double
log_ratio (double p,
           double q)
{
  guint64 p_bits, q_bits, bits;
  double p_exponent, q_exponent, mp, mq, exponent, big, small, s, s2, s4, even, odd;

  memcpy (&p_bits, &p, sizeof p_bits);
  memcpy (&q_bits, &q, sizeof q_bits);
  /* The exponents as doubles, built from their bits to avoid a 64-bit
   * integer conversion, which has no vector form before AVX-512. */
  bits = G_GUINT64_CONSTANT (0x4330000000000000) | (p_bits >> 52);
  memcpy (&p_exponent, &bits, sizeof bits);
  bits = G_GUINT64_CONSTANT (0x4330000000000000) | (q_bits >> 52);
  memcpy (&q_exponent, &bits, sizeof bits);
  exponent = p_exponent - q_exponent;
  bits = (p_bits & G_GUINT64_CONSTANT (0x000fffffffffffff)) | G_GUINT64_CONSTANT (0x3ff0000000000000);
  memcpy (&mp, &bits, sizeof bits);
  bits = (q_bits & G_GUINT64_CONSTANT (0x000fffffffffffff)) | G_GUINT64_CONSTANT (0x3ff0000000000000);
  memcpy (&mq, &bits, sizeof bits);
  big = mp > G_SQRT2 * mq;
  mq *= 1 + big;
  exponent += big;
  small = mp * G_SQRT2 < mq;
  mp *= 1 + small;
  exponent -= small;
  s = (mp - mq) / (mp + mq);
  s2 = s * s;
  s4 = s2 * s2;
  even = 1.0 / 17;
  odd = 1.0 / 19;
  even = 1.0 / 13 + s4 * even;
  odd = 1.0 / 15 + s4 * odd;
  even = 1.0 / 9 + s4 * even;
  odd = 1.0 / 11 + s4 * odd;
  even = 1.0 / 5 + s4 * even;
  odd = 1.0 / 7 + s4 * odd;
  even = 1.0 + s4 * even;
  odd = 1.0 / 3 + s4 * odd;
  return exponent * G_LN2 + 2 * s * (even + s2 * odd);
}

/* Min-max normalised weights lie in [float32 epsilon, 1], so their
 * logarithms are of normal numbers and log_ratio serves. */
#if defined(__GNUC__)
/* GCC's and Clang's generic vectors: AVX2 code in the avx2 clone, pairs
 * of SSE2 operations elsewhere. C has no ?: on vectors, hence the masks. */
typedef double  V4d __attribute__ ((vector_size (32)));
typedef gint64  V4i __attribute__ ((vector_size (32)));
typedef guint64 V4u __attribute__ ((vector_size (32)));

/* Vectors pass by pointer: passing them by value would change the ABI
 * between the AVX2 and the default clone. */
static inline void
v4_max (V4d       *a,
        const V4d *b)
{
  V4i take_a = *a > *b;

  *a = (V4d)(((V4i)*a & take_a) | ((V4i)*b & ~take_a));
}

/* log_ratio on four lanes, the same steps. */
static inline void
v4_log_ratio (const V4d *p,
              const V4d *q,
              V4d       *log)
{
  const V4u mantissa_mask = (V4u){ 0 } | 0x000fffffffffffffull;
  const V4u one_bits = (V4u){ 0 } | 0x3ff0000000000000ull;
  const V4u magic = (V4u){ 0 } | 0x4330000000000000ull;
  V4u p_bits = (V4u)*p, q_bits = (V4u)*q;
  V4d exponent = (V4d)(magic | (p_bits >> 52)) - (V4d)(magic | (q_bits >> 52));
  V4d mp = (V4d)((p_bits & mantissa_mask) | one_bits);
  V4d mq = (V4d)((q_bits & mantissa_mask) | one_bits);
  V4d big, small, s, s2, s4, even, odd;

  /* 1.0 where the comparison holds, from its mask: converting the mask
   * as an integer has no vector form. */
  big = (V4d)((V4u)(mp > G_SQRT2 * mq) & one_bits);
  mq *= 1 + big;
  exponent += big;
  small = (V4d)((V4u)(mp * G_SQRT2 < mq) & one_bits);
  mp *= 1 + small;
  exponent -= small;
  s = (mp - mq) / (mp + mq);
  s2 = s * s;
  s4 = s2 * s2;
  /* the series in two halves, so its chain of dependent steps is half
   * as long */
  even = 1.0 / 17 + 0 * s4;
  odd = 1.0 / 19 + 0 * s4;
  even = 1.0 / 13 + s4 * even;
  odd = 1.0 / 15 + s4 * odd;
  even = 1.0 / 9 + s4 * even;
  odd = 1.0 / 11 + s4 * odd;
  even = 1.0 / 5 + s4 * even;
  odd = 1.0 / 7 + s4 * odd;
  even = 1.0 + s4 * even;
  odd = 1.0 / 3 + s4 * odd;
  *log = exponent * G_LN2 + 2 * s * (even + s2 * odd);
}

SL_VECTOR_CLONES static void
add_kl_block (const Run     *run,
              const double *n_values,
              const double *b_values,
              gsize         n,
              double        sums[3][LANES])
{
  const V4d n_min = run->npu_min - (V4d){ 0 }, n_scale = 1 / run->npu_range - (V4d){ 0 };
  const V4d b_min = run->bench_min - (V4d){ 0 }, b_scale = 1 / run->bench_range - (V4d){ 0 };
  const V4d epsilon = FLT_EPSILON - (V4d){ 0 };
  V4d sp = { 0 }, sq = { 0 }, spl = { 0 };
  double out[3][LANES];
  gsize i = 0;

  for (; i + LANES <= n; i += LANES)
    {
      V4d x, y, p, q, log_ratio;

      memcpy (&x, n_values + i, sizeof x);
      memcpy (&y, b_values + i, sizeof y);
      p = (x - n_min) * n_scale;
      q = (y - b_min) * b_scale;
      v4_max (&p, &epsilon);
      v4_max (&q, &epsilon);
      v4_log_ratio (&p, &q, &log_ratio);
      sp += p;
      sq += q;
      spl += p * log_ratio;
    }
  memcpy (out[0], &sp, sizeof sp);
  memcpy (out[1], &sq, sizeof sq);
  memcpy (out[2], &spl, sizeof spl);
  for (; i < n; i++)
    {
      double p = MAX ((n_values[i] - run->npu_min) / run->npu_range, FLT_EPSILON);
      double q = MAX ((b_values[i] - run->bench_min) / run->bench_range, FLT_EPSILON);

      out[0][0] += p;
      out[1][0] += q;
      out[2][0] += p * log_ratio (p, q);
    }
  for (guint s = 0; s < 3; s++)
    for (guint k = 0; k < LANES; k++)
      sums[s][k] += out[s][k];
}
#else
SL_VECTOR_CLONES static void
add_kl_block (const Run     *run,
              const double *n_values,
              const double *b_values,
              gsize         n,
              double        sums[3][LANES])
{
  for (gsize i = 0; i < n; i++)
    {
      double p = MAX ((n_values[i] - run->npu_min) / run->npu_range, FLT_EPSILON);
      double q = MAX ((b_values[i] - run->bench_min) / run->bench_range, FLT_EPSILON);

      sums[0][i % LANES] += p;
      sums[1][i % LANES] += q;
      sums[2][i % LANES] += p * log_ratio (p, q);
    }
}
#endif

/* A flat side keeps its values, which may be far from 1: libm's log. */
static void
add_kl_block_flat (const Run    *run,
                   const double *n_values,
                   const double *b_values,
                   gsize         n,
                   double        sums[3][LANES])
{
  for (gsize i = 0; i < n; i++)
    {
      double p = kl_weight (n_values[i], run->npu_min, run->npu_range);
      double q = kl_weight (b_values[i], run->bench_min, run->bench_range);

      sums[0][0] += p;
      sums[1][0] += q;
      sums[2][0] += p * log (p / q);
    }
}

/* The KL divergence's sums over one block, in the pass that computes
 * everything else, once the range pass has given each side's minimum
 * and maximum. */
static void
add_kl (const Run    *run,
        KlPartial    *kl,
        const double *n_values,
        const double *b_values,
        gsize         n)
{
  double sums[3][LANES] = { { 0 } };

  if (!(run->npu_range > 0) || !(run->bench_range > 0))
    add_kl_block_flat (run, n_values, b_values, n, sums);
  else
    add_kl_block (run, n_values, b_values, n, sums);
  neumaier_add (&kl->sum_p, sums[0][0] + sums[0][1] + sums[0][2] + sums[0][3]);
  neumaier_add (&kl->sum_q, sums[1][0] + sums[1][1] + sums[1][2] + sums[1][3]);
  neumaier_add (&kl->sum_plogpq, sums[2][0] + sums[2][1] + sums[2][2] + sums[2][3]);
}

/* Finite minimum and maximum in LANES lanes, as range_block_float32
 * keeps them in eight. */
SL_VECTOR_CLONES static void
range_block (const double *values,
             gsize         n,
             double       *min,
             double       *max,
             guint64      *non_finite)
{
  double lo[LANES], hi[LANES], bad[LANES] = { 0 };
  gsize i = 0;

  for (guint k = 0; k < LANES; k++)
    {
      lo[k] = *min;
      hi[k] = *max;
    }
  for (; i + LANES <= n; i += LANES)
    for (guint k = 0; k < LANES; k++)
      {
        double x = values[i + k];
        int finite = x - x == 0;

        lo[k] = (finite & (x < lo[k])) ? x : lo[k];
        hi[k] = (finite & (x > hi[k])) ? x : hi[k];
        bad[k] += finite ? 0 : 1;
      }
  for (; i < n; i++)
    {
      double x = values[i];
      int finite = x - x == 0;

      lo[0] = (finite & (x < lo[0])) ? x : lo[0];
      hi[0] = (finite & (x > hi[0])) ? x : hi[0];
      bad[0] += finite ? 0 : 1;
    }
  for (guint k = 0; k < LANES; k++)
    {
      *min = MIN (*min, lo[k]);
      *max = MAX (*max, hi[k]);
    }
  *non_finite += (guint64)(bad[0] + bad[1] + bad[2] + bad[3]);
}

#if defined(__GNUC__)
typedef float  V8f __attribute__ ((vector_size (32)));
typedef gint32 V8i __attribute__ ((vector_size (32)));

/* range_block on float32 as stored, eight lanes at a time: the minimum
 * and maximum of floats are the same numbers converted or not, so the
 * range pass does not convert. */
SL_VECTOR_CLONES static void
range_block_float32 (const guint8 *data,
                     gsize         n,
                     double       *min,
                     double       *max,
                     guint64      *non_finite)
{
  V8f lo = (float)*min - (V8f){ 0 }, hi = (float)*max - (V8f){ 0 };
  V8i bad = { 0 };
  float lo_lanes[8], hi_lanes[8];
  gint32 bad_lanes[8];
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      V8f x;
      V8i finite, take;

      memcpy (&x, data + i * sizeof (float), sizeof x);
      finite = (x - x) == 0;
      take = finite & (x < lo);
      lo = (V8f)(((V8i)x & take) | ((V8i)lo & ~take));
      take = finite & (x > hi);
      hi = (V8f)(((V8i)x & take) | ((V8i)hi & ~take));
      /* ~finite is -1 where x is NaN or Inf: subtracting it counts them */
      bad -= ~finite;
    }
  memcpy (lo_lanes, &lo, sizeof lo);
  memcpy (hi_lanes, &hi, sizeof hi);
  memcpy (bad_lanes, &bad, sizeof bad);
  for (guint k = 0; k < 8; k++)
    {
      *min = MIN (*min, lo_lanes[k]);
      *max = MAX (*max, hi_lanes[k]);
      *non_finite += (guint32)bad_lanes[k];
    }
  for (; i < n; i++)
    {
      float x;

      memcpy (&x, data + i * sizeof (float), sizeof x);
      if (x - x == 0)
        {
          *min = MIN (*min, x);
          *max = MAX (*max, x);
        }
      else
        (*non_finite)++;
    }
}
#endif

static void
range_of (const SlTensorData *view,
          guint64             first,
          gsize               n,
          double             *values,
          double             *min,
          double             *max,
          guint64            *non_finite)
{
#if defined(__GNUC__)
  if (view->dtype == SL_TENSOR_DTYPE_FLOAT32 && view->big_endian == host_is_big_endian ())
    {
      range_block_float32 (view->data + first * sizeof (float), n, min, max, non_finite);
      return;
    }
#endif
  convert_block (view, first, n, values);
  range_block (values, n, min, max, non_finite);
}

static void
range_init (Range *range)
{
  range->npu_min = range->bench_min = INFINITY;
  range->npu_max = range->bench_max = -INFINITY;
  range->npu_non_finite = range->bench_non_finite = 0;
}

static inline guint64
chunk_begin (const Run *run,
             guint64    index)
{
  return index * run->chunk_size;
}

static inline guint64
chunk_end (const Run *run,
           guint64    index)
{
  return MIN (run->n_elements, (index + 1) * run->chunk_size);
}

/* Reads only what the KL divergence needs before the main pass. */
static void
range_chunk (Run     *run,
             guint64  index)
{
  double values[BLOCK];
  Range *range = &run->chunks[index].range;
  guint64 end = chunk_end (run, index);

  range_init (range);
  for (guint64 i = chunk_begin (run, index); i < end; i += BLOCK)
    {
      gsize n = MIN (BLOCK, end - i);

      range_of (run->npu, i, n, values, &range->npu_min, &range->npu_max, &range->npu_non_finite);
      range_of (run->bench, i, n, values, &range->bench_min, &range->bench_max, &range->bench_non_finite);
    }
}

static void
main_chunk (Run     *run,
            guint64  index)
{
  double n_values[BLOCK], b_values[BLOCK];
  Chunk *chunk = &run->chunks[index];
  guint64 end = chunk_end (run, index);

  partial_init (&chunk->partial);
  memset (&chunk->kl, 0, sizeof chunk->kl);
  for (guint64 i = chunk_begin (run, index); i < end; i += BLOCK)
    {
      gsize n = MIN (BLOCK, end - i);

      convert_block (run->npu, i, n, n_values);
      convert_block (run->bench, i, n, b_values);
      accumulate_block (run, &chunk->partial, n_values, b_values, n);
      if (run->with_kl)
        add_kl (run, &chunk->kl, n_values, b_values, n);
    }
}

static void
partial_merge (Partial       *self,
               const Partial *other)
{
  for (guint i = 0; i < N_SUMS; i++)
    neumaier_merge (&self->sums[i], &other->sums[i]);
  self->max_ad = MAX (self->max_ad, other->max_ad);
  self->max_re = MAX (self->max_re, other->max_re);
  self->re_nan |= other->re_nan;
  self->n_thousandth += other->n_thousandth;
  self->n_five_thousandth += other->n_five_thousandth;
  self->npu_non_finite += other->npu_non_finite;
  self->bench_non_finite += other->bench_non_finite;
}

/* Reports are serialised, so the caller sees the fraction grow. */
static void
add_progress (Run   *run,
              guint  units)
{
  double fraction;

  if (run->progress == NULL)
    return;
  g_mutex_lock (&run->progress_lock);
  run->units_done += units;
  fraction = MIN (1.0, (double)run->units_done / (double)run->units_total);
  run->progress (fraction, run->progress_data);
  g_mutex_unlock (&run->progress_lock);
}

/* Takes the next chunk until none is left or the comparison is
 * cancelled; which thread computes a chunk does not change its sums. */
static gpointer
run_worker (gpointer data)
{
  Run *run = data;
  guint64 index;

  while ((index = (guint64)g_atomic_int_add (&run->next_chunk, 1)) < run->n_chunks)
    {
      if (g_cancellable_is_cancelled (run->cancellable))
        break;
      run->pass (run, index);
      add_progress (run, run->pass_weight);
    }
  return NULL;
}

static void
run_pass (Run       *run,
          ChunkFunc  pass,
          guint      weight)
{
  GThread *threads[SL_TENSOR_COMPARE_MAX_THREADS];
  guint n_threads = (guint)MIN ((guint64)run->n_threads, run->n_chunks);

  run->pass = pass;
  run->pass_weight = weight;
  run->next_chunk = 0;
  for (guint i = 1; i < n_threads; i++)
    threads[i] = g_thread_new ("sl-tensor-compare", run_worker, run);
  run_worker (run);
  for (guint i = 1; i < n_threads; i++)
    g_thread_join (threads[i]);
}

/* Chunks have a fixed size, or more elements when there would be too
 * many to keep; the size depends on the tensor alone, never on the
 * threads. */
static guint64
chunk_size_for (guint64 n_elements)
{
  guint64 size = SL_TENSOR_COMPARE_CHUNK_ELEMENTS;

  if (n_elements / size >= MAX_CHUNKS)
    size = (n_elements / MAX_CHUNKS + BLOCK) / BLOCK * BLOCK;
  return size;
}

static void
run_init (Run                          *run,
          const SlTensorData           *npu,
          const SlTensorData           *bench,
          const SlTensorCompareOptions *options)
{
  guint64 n = npu->n_elements;
  double first_n, first_b;
  gboolean wide;

  memset (run, 0, sizeof *run);
  run->npu = npu;
  run->bench = bench;
  run->n_elements = n;
  run->chunk_size = chunk_size_for (n);
  run->n_chunks = (n + run->chunk_size - 1) / run->chunk_size;
  run->chunks = g_new (Chunk, run->n_chunks);
  run->n_threads = options->n_threads == 0 ? 2 : MIN (options->n_threads, SL_TENSOR_COMPARE_MAX_THREADS);
  run->cancellable = options->cancellable;
  run->progress = options->progress;
  run->progress_data = options->progress_data;
  run->units_total = run->n_chunks * (MAIN_WEIGHT + (options->skip_kl_divergence ? 0 : RANGE_WEIGHT));
  g_mutex_init (&run->progress_lock);

  convert_block (npu, 0, 1, &first_n);
  convert_block (bench, 0, 1, &first_b);
  run->shift_n = isfinite (first_n) ? first_n : 0;
  run->shift_b = isfinite (first_b) ? first_b : 0;
  /* msprobe computes the relative error in float64 when either side is
   * float64 or not a float at all, otherwise in float32. */
  wide = npu->dtype == SL_TENSOR_DTYPE_FLOAT64 || bench->dtype == SL_TENSOR_DTYPE_FLOAT64 ||
         bench->dtype < SL_TENSOR_DTYPE_FLOAT16;
  run->re_eps = wide ? DBL_EPSILON : FLT_EPSILON;
}

static void
run_clear (Run *run)
{
  if (run->chunks == NULL)
    return;
  g_clear_pointer (&run->chunks, g_free);
  g_mutex_clear (&run->progress_lock);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* The range pass: afterwards the run knows both sides' minimum and
 * range, or with_kl is FALSE when a side holds NaN or Inf (the KL
 * divergence is then undefined, as in the CANN tool). */
static void
prepare_kl (Run *run)
{
  Range total;

  run_pass (run, range_chunk, RANGE_WEIGHT);
  if (g_cancellable_is_cancelled (run->cancellable))
    return;
  range_init (&total);
  for (guint64 i = 0; i < run->n_chunks; i++)
    {
      const Range *range = &run->chunks[i].range;

      total.npu_min = MIN (total.npu_min, range->npu_min);
      total.npu_max = MAX (total.npu_max, range->npu_max);
      total.bench_min = MIN (total.bench_min, range->bench_min);
      total.bench_max = MAX (total.bench_max, range->bench_max);
      total.npu_non_finite += range->npu_non_finite;
      total.bench_non_finite += range->bench_non_finite;
    }
  run->with_kl = total.npu_non_finite == 0 && total.bench_non_finite == 0;
  run->npu_min = total.npu_min;
  run->npu_range = total.npu_max - total.npu_min;
  run->bench_min = total.bench_min;
  run->bench_range = total.bench_max - total.bench_min;
}

/* The chunks' sums, added in chunk order. */
static void
merge_chunks (const Run *run,
              Partial   *total,
              KlPartial *kl)
{
  *total = run->chunks[0].partial;
  *kl = run->chunks[0].kl;
  for (guint64 i = 1; i < run->n_chunks; i++)
    {
      partial_merge (total, &run->chunks[i].partial);
      neumaier_merge (&kl->sum_p, &run->chunks[i].kl.sum_p);
      neumaier_merge (&kl->sum_q, &run->chunks[i].kl.sum_q);
      neumaier_merge (&kl->sum_plogpq, &run->chunks[i].kl.sum_plogpq);
    }
}

static double
finish_kl (const KlPartial *kl)
{
  double sp = neumaier_value (&kl->sum_p);
  /* Sq - Sp from the compensated sums' two parts: rounding Sp and Sq to
   * doubles first would leave an error of their last digit, which a
   * divergence of a good tensor (Sp and Sq agree to eight digits) shows. */
  double sq_minus_sp = (kl->sum_q.sum - kl->sum_p.sum) + (kl->sum_q.compensation - kl->sum_p.compensation);
  /* Σ (p/Sp) log((p/Sp)/(q/Sq)) = Σ p log(p/q) / Sp + log(Sq/Sp) */
  double value = neumaier_value (&kl->sum_plogpq) / sp + log1p (sq_minus_sp / sp);

  return fabs (value) < DBL_EPSILON ? 0 : value;
}

static void
compute_side (double  shift,
              double  s1,
              double  s2,
              double  n,
              double *mean,
              double *std)
{
  double variance = (s2 - s1 * s1 / n) / n;

  *mean = shift + s1 / n;
  *std = isnan (variance) ? NAN : sqrt (MAX (variance, 0));
}

static void
compute_cosine (SlTensorComparison *result,
                double              nb,
                double              nn,
                double              bb)
{
  double norm_n = sqrt (nn), norm_b = sqrt (bb);

  if (result->n_elements == 1)
    {
      result->cosine = NAN;
      result->cosine_note = g_strdup (_("Cosine similarity is unsupported for a tensor of one element."));
    }
  else if (norm_n <= DBL_EPSILON && norm_b <= DBL_EPSILON)
    result->cosine = 1.0;
  else if (norm_n <= DBL_EPSILON)
    {
      result->cosine = NAN;
      result->cosine_note = g_strdup (_("Cosine similarity is undefined: the NPU tensor is all zeros."));
    }
  else if (norm_b <= DBL_EPSILON)
    {
      result->cosine = NAN;
      result->cosine_note = g_strdup (_("Cosine similarity is undefined: the benchmark tensor is all zeros."));
    }
  else
    result->cosine = nb / (norm_n * norm_b);
}

static void
fill_metrics (SlTensorComparison *result,
              const Partial      *total,
              const Run          *run)
{
  double n = (double)result->n_elements;
  double d2 = neumaier_value (&total->sums[SUM_D2]);
  double bb = neumaier_value (&total->sums[SUM_BB]);
  gboolean non_finite = total->npu_non_finite > 0 || total->bench_non_finite > 0;

  compute_cosine (result, neumaier_value (&total->sums[SUM_NB]), neumaier_value (&total->sums[SUM_NN]), bb);
  result->euclidean_distance = sqrt (d2);
  result->relative_euclidean_distance = sqrt (bb) <= DBL_EPSILON ? 0 : sqrt (d2 / bb);
  result->max_abs_error = non_finite ? NAN : total->max_ad;
  result->mean_abs_error = neumaier_value (&total->sums[SUM_AD]) / n;
  result->rmse = sqrt (d2 / n);
  result->max_relative_error = total->re_nan ? NAN : total->max_re;
  result->accumulated_relative_error = neumaier_value (&total->sums[SUM_RE_TERM]);
  result->mean_relative_error = result->accumulated_relative_error / n;
  result->one_thousandth_err_ratio = total->n_thousandth / n;
  result->five_thousandth_err_ratio = total->n_five_thousandth / n;
  compute_side (run->shift_n, neumaier_value (&total->sums[SUM_N]), neumaier_value (&total->sums[SUM_N2]), n,
                &result->npu_mean, &result->npu_std);
  compute_side (run->shift_b, neumaier_value (&total->sums[SUM_B]), neumaier_value (&total->sums[SUM_B2]), n,
                &result->bench_mean, &result->bench_std);
  result->npu_non_finite = total->npu_non_finite;
  result->bench_non_finite = total->bench_non_finite;
}

void
sl_tensor_compare_options_init (SlTensorCompareOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  sl_tensor_compare_thresholds_for_dtype (&options->thresholds, SL_TENSOR_DTYPE_FLOAT32);
}

/**
 * sl_tensor_compare_thresholds_for_dtype:
 *
 * msprobe's thresholds, loosened for float16 and bfloat16: one rounding
 * to bfloat16 alone moves a value by up to 2⁻⁸ of itself, so msprobe's
 * 0.001 absolute error would fail tensors that are as good as the
 * format allows.
 */
void
sl_tensor_compare_thresholds_for_dtype (SlTensorCompareThresholds *thresholds,
                                        SlTensorDtype              dtype)
{
  g_return_if_fail (thresholds != NULL);

  thresholds->cosine_low = 0.99;
  thresholds->max_abs_low = 0.001;
  thresholds->cosine_min = 0.9;
  thresholds->max_abs_max = 1.0;
  thresholds->relative_euclidean_max = 0.05;
  thresholds->kl_divergence_max = 0.005;
  thresholds->rmse_max = 1.0;
  thresholds->mean_relative_error_max = 1.0;
  if (dtype == SL_TENSOR_DTYPE_FLOAT16)
    thresholds->max_abs_low = 0.002;
  else if (dtype == SL_TENSOR_DTYPE_BFLOAT16)
    {
      thresholds->cosine_low = 0.98;
      thresholds->max_abs_low = 0.016;
    }
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

/* C and Fortran order store the same sequence when at most one axis is
 * longer than one. */
static gboolean
orders_agree (const SlTensorData *a,
              const SlTensorData *b)
{
  guint long_axes = 0;

  if (a->fortran_order == b->fortran_order)
    return TRUE;
  for (guint i = 0; i < a->n_dims; i++)
    long_axes += a->shape[i] > 1;
  return long_axes <= 1;
}

/* msprobe accepts a half-precision tensor against its float32 benchmark. */
static gboolean
dtypes_compatible (SlTensorDtype npu,
                   SlTensorDtype bench)
{
  if (npu == bench)
    return TRUE;
  return bench == SL_TENSOR_DTYPE_FLOAT32 &&
         (npu == SL_TENSOR_DTYPE_FLOAT16 || npu == SL_TENSOR_DTYPE_BFLOAT16);
}

static char *
format_shape (const SlTensorData *view)
{
  GString *text = g_string_new ("(");

  for (guint i = 0; i < view->n_dims; i++)
    g_string_append_printf (text, i == 0 ? "%" G_GUINT64_FORMAT : ", %" G_GUINT64_FORMAT, view->shape[i]);
  if (view->n_dims == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

static SlTensorDtype
lower_precision (SlTensorDtype a,
                 SlTensorDtype b)
{
  if (a == SL_TENSOR_DTYPE_BFLOAT16 || b == SL_TENSOR_DTYPE_BFLOAT16)
    return SL_TENSOR_DTYPE_BFLOAT16;
  if (a == SL_TENSOR_DTYPE_FLOAT16 || b == SL_TENSOR_DTYPE_FLOAT16)
    return SL_TENSOR_DTYPE_FLOAT16;
  return a;
}

static void
set_verdict (SlTensorComparison *result,
             SlTensorVerdict     verdict,
             char               *reason)
{
  result->verdict = verdict;
  g_free (result->reason);
  result->reason = reason;
}

static void
judge (SlTensorComparison           *result,
       SlTensorDtype                 npu_dtype,
       SlTensorDtype                 bench_dtype,
       const SlTensorCompareOptions *options)
{
  SlTensorCompareThresholds t = options->thresholds;
  double cosine = result->cosine, max_abs = result->max_abs_error;

  if (options->dtype_aware)
    sl_tensor_compare_thresholds_for_dtype (&t, lower_precision (npu_dtype, bench_dtype));

  if ((result->npu_non_finite > 0) != (result->bench_non_finite > 0))
    set_verdict (result, SL_TENSOR_VERDICT_ERROR,
                 g_strdup (result->npu_non_finite > 0
                           ? _("Only the NPU tensor holds NaN or Inf.")
                           : _("Only the benchmark tensor holds NaN or Inf.")));
  else if (!dtypes_compatible (npu_dtype, bench_dtype))
    set_verdict (result, SL_TENSOR_VERDICT_ERROR,
                 g_strdup_printf (_("The dtypes differ: %s against %s."),
                                  sl_tensor_dtype_get_name (npu_dtype), sl_tensor_dtype_get_name (bench_dtype)));
  else if ((cosine < t.cosine_low && max_abs > t.max_abs_low) || cosine < t.cosine_min || max_abs > t.max_abs_max)
    set_verdict (result, SL_TENSOR_VERDICT_ERROR,
                 g_strdup_printf (_("Accuracy not reached: cosine %.6g, max absolute error %.6g."), cosine, max_abs));
  else if (result->npu_non_finite > 0)
    set_verdict (result, SL_TENSOR_VERDICT_WARNING, g_strdup (_("Both tensors hold NaN or Inf.")));
  else if (result->relative_euclidean_distance >= t.relative_euclidean_max ||
           result->kl_divergence >= t.kl_divergence_max || result->rmse >= t.rmse_max ||
           result->mean_relative_error >= t.mean_relative_error_max)
    set_verdict (result, SL_TENSOR_VERDICT_WARNING,
                 g_strdup_printf (_("Below the CANN compare tool's normal precision: relative Euclidean distance %.6g, "
                                    "KL divergence %.6g, RMSE %.6g, mean relative error %.6g."),
                                  result->relative_euclidean_distance, result->kl_divergence, result->rmse,
                                  result->mean_relative_error));
  else if (isnan (cosine) && result->cosine_note != NULL && result->n_elements > 1)
    set_verdict (result, SL_TENSOR_VERDICT_WARNING, g_strdup (result->cosine_note));
  else
    set_verdict (result, SL_TENSOR_VERDICT_PASS, NULL);
}

static SlTensorComparison *
comparison_new (void)
{
  SlTensorComparison *result = g_new0 (SlTensorComparison, 1);
  double *metrics[] = {
    &result->cosine, &result->euclidean_distance, &result->relative_euclidean_distance,
    &result->max_abs_error, &result->mean_abs_error, &result->rmse, &result->max_relative_error,
    &result->mean_relative_error, &result->accumulated_relative_error,
    &result->one_thousandth_err_ratio, &result->five_thousandth_err_ratio, &result->kl_divergence,
    &result->npu_mean, &result->npu_std, &result->bench_mean, &result->bench_std,
  };

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    *metrics[i] = NAN;
  return result;
}

/* The sums of a cancelled pass cover part of the data: none is kept. */
static SlTensorComparison *
cancelled (SlTensorComparison *result)
{
  SlTensorComparison *fresh = comparison_new ();

  fresh->n_elements = result->n_elements;
  sl_tensor_comparison_free (result);
  set_verdict (fresh, SL_TENSOR_VERDICT_ERROR, g_strdup (_("The comparison was cancelled.")));
  return fresh;
}

/**
 * sl_tensor_compare:
 * @npu: the tensor under test
 * @bench: its benchmark
 * @options: (nullable): thresholds and choices; msprobe's defaults when %NULL
 *
 * Returns: (transfer full): the metrics and the verdict; when the shapes
 * or storage orders prevent an element-wise comparison, computed is
 * %FALSE, the verdict an error and the reason says why.
 */
SlTensorComparison *
sl_tensor_compare (const SlTensorData           *npu,
                   const SlTensorData           *bench,
                   const SlTensorCompareOptions *options)
{
  SlTensorCompareOptions defaults;
  g_autoptr(SlTensorComparison) result = NULL;
  g_auto(Run) run = { 0 };
  Partial total;
  KlPartial kl;

  g_return_val_if_fail (npu != NULL && bench != NULL, NULL);
  g_return_val_if_fail (sl_tensor_dtype_get_size (npu->dtype) > 0, NULL);
  g_return_val_if_fail (sl_tensor_dtype_get_size (bench->dtype) > 0, NULL);

  if (options == NULL)
    {
      sl_tensor_compare_options_init (&defaults);
      options = &defaults;
    }
  result = comparison_new ();
  result->n_elements = npu->n_elements;

  if (!shapes_equal (npu, bench) || npu->n_elements != bench->n_elements)
    {
      g_autofree char *a = format_shape (npu);
      g_autofree char *b = format_shape (bench);

      set_verdict (result, SL_TENSOR_VERDICT_ERROR, g_strdup_printf (_("The shapes differ: %s against %s."), a, b));
      return g_steal_pointer (&result);
    }
  if (!orders_agree (npu, bench))
    {
      set_verdict (result, SL_TENSOR_VERDICT_ERROR,
                   g_strdup (_("One tensor is stored in Fortran order and the other in C order, so their elements "
                               "cannot be paired in storage order.")));
      return g_steal_pointer (&result);
    }
  if (npu->n_elements == 0)
    {
      set_verdict (result, SL_TENSOR_VERDICT_WARNING, g_strdup (_("Both tensors are empty; there is nothing to compare.")));
      return g_steal_pointer (&result);
    }

  run_init (&run, npu, bench, options);
  if (!options->skip_kl_divergence)
    prepare_kl (&run);
  if (!g_cancellable_is_cancelled (options->cancellable))
    run_pass (&run, main_chunk, MAIN_WEIGHT);
  if (g_cancellable_is_cancelled (options->cancellable))
    return cancelled (g_steal_pointer (&result));
  merge_chunks (&run, &total, &kl);
  result->computed = TRUE;
  fill_metrics (result, &total, &run);
  if (run.with_kl)
    result->kl_divergence = finish_kl (&kl);
  judge (result, npu->dtype, bench->dtype, options);
  return g_steal_pointer (&result);
}

/**
 * sl_tensor_comparison_judge:
 *
 * Gives @self the verdict of other thresholds without reading the data
 * again. A comparison that could not be computed keeps its verdict: the
 * shapes or orders that prevented it do not depend on thresholds.
 */
void
sl_tensor_comparison_judge (SlTensorComparison           *self,
                            SlTensorDtype                 npu_dtype,
                            SlTensorDtype                 bench_dtype,
                            const SlTensorCompareOptions *options)
{
  g_return_if_fail (self != NULL && options != NULL);

  if (self->computed)
    judge (self, npu_dtype, bench_dtype, options);
}

void
sl_tensor_comparison_free (SlTensorComparison *self)
{
  if (self == NULL)
    return;
  g_free (self->reason);
  g_free (self->cosine_note);
  g_free (self);
}

/**
 * sl_tensor_data_read_doubles:
 * @values: (out caller-allocates) (array length=n_values): room for the values
 *
 * Decodes elements of @data as the metrics see them, for views that show
 * the values themselves.
 */
void
sl_tensor_data_read_doubles (const SlTensorData *data,
                             guint64             first,
                             gsize               n_values,
                             double             *values)
{
  g_return_if_fail (data != NULL);
  g_return_if_fail (n_values == 0 || values != NULL);
  g_return_if_fail (first <= data->n_elements && n_values <= data->n_elements - first);

  for (gsize done = 0; done < n_values; done += BLOCK)
    convert_block (data, first + done, MIN ((gsize)BLOCK, n_values - done), values + done);
}
