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
#include "sl-platform.h"
#include "sl-tensor-gather.h"

/* Elements converted to double at a time: two blocks stay in L1. */
#define BLOCK 2048
/* Rows of a tile of the side in Fortran order, by TILE_COLUMNS columns:
 * see tiled_group. */
#define TILE_ROWS 512
/* Columns of a tile, a part of a block, so that the tile and its rows'
 * lanes stay in the L2 cache. */
#define TILE_COLUMNS 256
/* Elements from one row of a tile to the next: a line more than its
 * columns, or every row would fall in the same sets of the L1 cache. */
#define TILE_STRIDE (TILE_COLUMNS + 16)
/* Rows gathered at once, as far as up to MAX_GROUP_CHUNKS chunks give
 * them: a tile's, so that a pass has enough groups to share out between
 * the threads. Groups of 1024 rows, whose two tiles read the same pages
 * of the side in Fortran order one after the other, left eight groups a
 * pass on an 8192 × 16384 pair, and a thread slowed by other work kept
 * the other waiting: on a loaded machine, medians of six rounds, the
 * mixed pair's wall-time rate was 0.92 × the same-order rate with them
 * and 0.96 × with these, in processor time 0.96 × and 0.97 ×. */
#define GROUP_ROWS 512
#define MAX_GROUP_CHUNKS 64
/* Rows ahead whose piece of the side in C order is prefetched. */
#define PREFETCH_AHEAD 4
/* At most this many chunks' sums are kept, a few megabytes. */
#define MAX_CHUNKS 16384
/* A chunk's share of the work in each pass, after the time they take. */
#define MAIN_WEIGHT 3
#define KL_WEIGHT 2

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
  /* for the KL divergence, which needs them only when every value is
   * finite: a NaN is never taken, an infinity may be */
  double   npu_min, npu_max, bench_min, bench_max;
} Partial;

/* Σ c·p, Σ q and Σ q·f(r): see kl_term. */
typedef struct {
  Neumaier sum_p;
  Neumaier sum_q;
  Neumaier sum_terms;
} KlPartial;

typedef struct {
  Partial   partial;
  KlPartial kl;
} Chunk;

typedef struct _Run Run;
typedef struct _ChunkSource ChunkSource;
typedef void (*ChunkFunc) (Run               *run,
                           guint64            index,
                           const ChunkSource *source);

/* One comparison: what every chunk needs, the chunks' own sums, and the
 * pass the threads are in. */
struct _Run {
  const SlTensorData *npu;
  const SlTensorData *bench;
  /* the side stored in Fortran order when the other is in C order: a
   * tile at a time (tiled), or its chunks gathered in C order into each
   * thread's scratch first */
  const SlTensorData *gathered;
  guint               gather_chunks;  /* consecutive chunks gathered at once */
  /* when it is gathered a tile at a time (see tiled_group): its rows of
   * columns, each row's place in storage a column apart, and how many
   * rows (middle) apart the rows that follow each other in storage are */
  gboolean            tiled;
  guint64             columns;
  guint64             column_stride;
  guint64             middle;
  guint64             n_elements;
  guint64             chunk_size;
  guint64             n_chunks;
  Chunk              *chunks;
  double              shift_n;   /* sums of squares are taken about these */
  double              shift_b;
  double              re_eps;    /* added where the benchmark is zero */
  /* from the main pass, for the KL divergence's normalisation */
  gboolean            with_kl;
  double              npu_min, npu_range, bench_min, bench_range;
  double              kl_scale;  /* c, an estimate of Sq / Sp */
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

/* Where the loader can pick a variant at run time, an AVX2 one (with
 * FMA, x86-64-v3) doubles the vector width and fuses multiply-adds on
 * the machines that have them; an AVX-512 one (x86-64-v4) has twice the
 * registers, so fewer of a block's lanes wait in memory between groups
 * (an 8192 × 16384 float32 pair, every metric: 0.47 s of processor in C
 * order where the AVX2 one took 0.58 s, 0.64 s in mixed order where it
 * took 0.78 s; medians of five runs, three rounds in turn). Both orders
 * and any number of threads use the same variant, so they still give
 * the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define SL_VECTOR_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
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
  partial->npu_min = partial->bench_min = INFINITY;
  partial->npu_max = partial->bench_max = -INFINITY;
}

/* Block sums are plain doubles (a block is short), then compensated.
 * Each sum is kept in LANES independent lanes, so the compiler can turn
 * the loop into vector code without reassociating a single sum (which it
 * may not do to floating point) and without branches; counts are doubles
 * for the same reason, exact far beyond a block. */
#define LANES 4

static inline double
lanes_sum (const double lanes[LANES])
{
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

enum {
  LANE_NB, LANE_NN, LANE_BB, LANE_D2, LANE_AD, LANE_N, LANE_B, LANE_N2, LANE_B2, LANE_RE_TERM,
  LANE_THOUSANDTH, LANE_FIVE_THOUSANDTH, LANE_RE_NAN, LANE_N_BAD, LANE_B_BAD,
  N_LANE_SUMS
};

enum { MAX_AD, MAX_RE, MIN_N, MAX_N, MIN_B, MAX_B, N_LANE_EXTREMES };

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
      ext[MIN_N][k] = x < ext[MIN_N][k] ? x : ext[MIN_N][k];
      ext[MAX_N][k] = x > ext[MAX_N][k] ? x : ext[MAX_N][k];
      ext[MIN_B][k] = y < ext[MIN_B][k] ? y : ext[MIN_B][k];
      ext[MAX_B][k] = y > ext[MAX_B][k] ? y : ext[MAX_B][k];
    }
}


/* One block's sums, its lanes added, and its extremes over the lanes. */
typedef struct {
  double sums[N_LANE_SUMS];
  double ext[N_LANE_EXTREMES];
} BlockSums;

/* A block's lanes while its elements are added, a run of them at a time:
 * the lanes go on from run to run as they would through the whole block,
 * so the block's sums do not depend on where its runs end, as long as
 * each but the last is a whole number of groups of LANES. */
typedef struct {
  double sums[N_LANE_SUMS][LANES];
  double ext[N_LANE_EXTREMES][LANES];
} BlockLanes;

/* The lanes' extremes start from nothing (an infinity, which no NaN
 * replaces). */
static void
block_lanes_init (BlockLanes *lanes)
{
  memset (lanes->sums, 0, sizeof lanes->sums);
  for (guint k = 0; k < LANES; k++)
    {
      lanes->ext[MAX_AD][k] = -INFINITY;
      lanes->ext[MAX_RE][k] = -INFINITY;
      lanes->ext[MIN_N][k] = INFINITY;
      lanes->ext[MAX_N][k] = -INFINITY;
      lanes->ext[MIN_B][k] = INFINITY;
      lanes->ext[MAX_B][k] = -INFINITY;
    }
}

/* The lanes are copied in and out, so the loop keeps them in registers
 * rather than in memory that the values might alias. */
SL_VECTOR_CLONES static void
block_lanes_add (const Run    *run,
                 const double *n_values,
                 const double *b_values,
                 gsize         n,
                 BlockLanes   *lanes)
{
  double sums[N_LANE_SUMS][LANES];
  double ext[N_LANE_EXTREMES][LANES];
  gsize i = 0;

  memcpy (sums, lanes->sums, sizeof sums);
  memcpy (ext, lanes->ext, sizeof ext);
  for (; i + LANES <= n; i += LANES)
    accumulate_group (sums, ext, n_values + i, b_values + i, LANES, run->shift_n, run->shift_b, run->re_eps);
  if (i < n)
    accumulate_group (sums, ext, n_values + i, b_values + i, n - i, run->shift_n, run->shift_b, run->re_eps);
  memcpy (lanes->sums, sums, sizeof sums);
  memcpy (lanes->ext, ext, sizeof ext);
}

/* Float32 elements @i .. @i + @n as stored on this host, widened
 * (exactly); read as bytes, for storage may place them anywhere. */
static inline void
widen_floats (const guint8 *p,
              gsize         i,
              gsize         n,
              double       *out)
{
  for (gsize k = 0; k < n; k++)
    {
      float value;

      memcpy (&value, p + (i + k) * sizeof value, sizeof value);
      out[k] = value;
    }
}

/* block_lanes_add on float32 values as stored on this host, widened
 * group by group as they are added: no run of doubles is written and
 * read back. Widening is exact and the groups and lanes are the same,
 * so the sums are block_lanes_add's to the bit. Where @ahead is not
 * %NULL (each caller passes a constant or not), a line of it is asked
 * for every sixteen elements, for a later call. */
static inline __attribute__ ((always_inline)) void
lanes_add_float32 (const Run    *run,
                   const guint8 *n_floats,
                   const guint8 *b_floats,
                   gsize         n,
                   BlockLanes   *lanes,
                   const guint8 *ahead)
{
  double sums[N_LANE_SUMS][LANES];
  double ext[N_LANE_EXTREMES][LANES];
  double n_values[LANES], b_values[LANES];
  gsize i = 0;

  memcpy (sums, lanes->sums, sizeof sums);
  memcpy (ext, lanes->ext, sizeof ext);
  for (; i + LANES <= n; i += LANES)
    {
#if defined(__GNUC__)
      if (ahead != NULL && i % 16 == 0)
        __builtin_prefetch (ahead + i * sizeof (float));
#endif
      widen_floats (n_floats, i, LANES, n_values);
      widen_floats (b_floats, i, LANES, b_values);
      accumulate_group (sums, ext, n_values, b_values, LANES, run->shift_n, run->shift_b, run->re_eps);
    }
  if (i < n)
    {
      widen_floats (n_floats, i, n - i, n_values);
      widen_floats (b_floats, i, n - i, b_values);
      accumulate_group (sums, ext, n_values, b_values, n - i, run->shift_n, run->shift_b, run->re_eps);
    }
  memcpy (lanes->sums, sums, sizeof sums);
  memcpy (lanes->ext, ext, sizeof ext);
}

SL_VECTOR_CLONES static void
block_lanes_add_float32 (const Run    *run,
                         const guint8 *n_floats,
                         const guint8 *b_floats,
                         gsize         n,
                         BlockLanes   *lanes)
{
  lanes_add_float32 (run, n_floats, b_floats, n, lanes, NULL);
}

/* the same, asking for a later run of elements as it goes */
SL_VECTOR_CLONES static void
block_lanes_add_float32_ahead (const Run    *run,
                               const guint8 *n_floats,
                               const guint8 *b_floats,
                               gsize         n,
                               BlockLanes   *lanes,
                               const guint8 *ahead)
{
  lanes_add_float32 (run, n_floats, b_floats, n, lanes, ahead);
}

/* Ties between the lanes' extremes go to the later lane, as MIN and MAX
 * do. */
static void
block_lanes_finish (const BlockLanes *lanes,
                    BlockSums        *out)
{
  for (guint s = 0; s < N_LANE_SUMS; s++)
    out->sums[s] = lanes_sum (lanes->sums[s]);
  for (guint e = 0; e < N_LANE_EXTREMES; e++)
    {
      gboolean is_min = e == MIN_N || e == MIN_B;

      out->ext[e] = lanes->ext[e][0];
      for (guint k = 1; k < LANES; k++)
        out->ext[e] = is_min ? MIN (out->ext[e], lanes->ext[e][k]) : MAX (out->ext[e], lanes->ext[e][k]);
    }
}

/* A block's sums depend on its elements alone, so blocks may be summed
 * in any order and added to their chunk's in order afterwards. */
static void
block_sums (const Run    *run,
            const double *n_values,
            const double *b_values,
            gsize         n,
            BlockSums    *out)
{
  BlockLanes lanes;

  block_lanes_init (&lanes);
  block_lanes_add (run, n_values, b_values, n, &lanes);
  block_lanes_finish (&lanes, out);
}

/* An extreme replaces the partial's only when strictly beyond it: what
 * the lanes would have kept, had they started from the partial's. */
static inline double
beyond_max (double partial,
            double block)
{
  return block > partial ? block : partial;
}

static inline double
beyond_min (double partial,
            double block)
{
  return block < partial ? block : partial;
}

static void
partial_add_block (Partial         *p,
                   const BlockSums *block)
{
  for (guint s = 0; s <= LANE_RE_TERM; s++)
    neumaier_add (&p->sums[s], block->sums[s]);
  p->n_thousandth += (guint64)block->sums[LANE_THOUSANDTH];
  p->n_five_thousandth += (guint64)block->sums[LANE_FIVE_THOUSANDTH];
  p->re_nan |= block->sums[LANE_RE_NAN] > 0;
  p->npu_non_finite += (guint64)block->sums[LANE_N_BAD];
  p->bench_non_finite += (guint64)block->sums[LANE_B_BAD];
  p->max_ad = beyond_max (p->max_ad, block->ext[MAX_AD]);
  p->max_re = beyond_max (p->max_re, block->ext[MAX_RE]);
  p->npu_min = beyond_min (p->npu_min, block->ext[MIN_N]);
  p->npu_max = beyond_max (p->npu_max, block->ext[MAX_N]);
  p->bench_min = beyond_min (p->bench_min, block->ext[MIN_B]);
  p->bench_max = beyond_max (p->bench_max, block->ext[MAX_B]);
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

/* The KL divergence is summed in a form whose terms are never negative.
 * Σ P log(P/Q), with P = p/Sp and Q = q/Sq, is a small difference of
 * nearly equal sums when the tensors agree; expanded for any c > 0 it is
 *   Σ q·f(r) / (c·Sp) − g(e),   r = c·p / q,   e = Sq / (c·Sp) − 1,
 *   f(r) = r log r − r + 1 ≥ 0,   g(e) = e − log(1 + e) ≥ 0.
 * c is the main pass's estimate of Sq / Sp, so a good tensor's r are
 * near 1 and its e near 0. With s = (r − 1) / (r + 1), |s| < 1,
 *   q·f(r) = (c·p + q) s² (1 + (1 + s) s A(s²)),   A(t) = Σ t^j / (2j + 3),
 * from log r = 2 atanh s: one division, and few terms of A where |s| is
 * small. The NPU's weights are multiplied by c as they are made, so the
 * pass sums c·Sp. */

/* Up to here, ten terms of A keep the term within 1e-17 of its value;
 * it is where r = √2, past which the logarithm is taken instead. */
#define KL_SERIES_LIMIT 0.1716
/* Below this |s|, four terms of A do. */
#define KL_FAST_LIMIT 0x1p-7

/* (c·p + q) s² (1 + (1 + s) s A(s²)) with A's terms up to t⁹/21 */
static inline double
kl_series (double s,
           double sum)
{
  double t = s * s;
  double a = 1.0 / 21;

  a = 1.0 / 19 + t * a;
  a = 1.0 / 17 + t * a;
  a = 1.0 / 15 + t * a;
  a = 1.0 / 13 + t * a;
  a = 1.0 / 11 + t * a;
  a = 1.0 / 9 + t * a;
  a = 1.0 / 7 + t * a;
  a = 1.0 / 5 + t * a;
  a = 1.0 / 3 + t * a;
  return sum * t * (1 + (1 + s) * s * a);
}

/* q·f(cp / q) of one element, cp = c·p. */
static inline double
kl_term (double cp,
         double q)
{
  double s = (cp - q) / (cp + q);

  if (fabs (s) <= KL_SERIES_LIMIT)
    return kl_series (s, cp + q);
  return cp * log (cp / q) - (cp - q);
}

/* g(e) = e − log(1 + e), from its series where the direct form would
 * cancel. */
static double
log1p_gap (double e)
{
  if (fabs (e) < 1e-3)
    {
      double g = -1.0 / 8;

      g = 1.0 / 7 + e * g;
      g = -1.0 / 6 + e * g;
      g = 1.0 / 5 + e * g;
      g = -1.0 / 4 + e * g;
      g = 1.0 / 3 + e * g;
      g = -1.0 / 2 + e * g;
      return -e * e * g;
    }
  return e - log1p (e);
}

typedef struct {
  double p[LANES];
  double q[LANES];
  double terms[LANES];
} KlSums;

/* One element at a time, into the first lane: a flat side, which keeps
 * its values, so its c·p may be any positive number and kl_term's libm
 * logarithm serves; and a block's last few elements. */
static void
add_kl_elements (const Run    *run,
                 const double *n_values,
                 const double *b_values,
                 gsize         n,
                 KlSums       *sums)
{
  for (gsize i = 0; i < n; i++)
    {
      double cp = run->kl_scale * kl_weight (n_values[i], run->npu_min, run->npu_range);
      double q = kl_weight (b_values[i], run->bench_min, run->bench_range);

      sums->p[0] += cp;
      sums->q[0] += q;
      sums->terms[0] += kl_term (cp, q);
    }
}

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

static inline gboolean
v4_any (const V4i *mask)
{
  return ((*mask)[0] | (*mask)[1] | (*mask)[2] | (*mask)[3]) != 0;
}

/* The lanes where |x| > limit. */
static inline void
v4_abs_above (const V4d *x,
              const V4d *limit,
              V4i       *mask)
{
  V4d magnitude = (V4d)((V4u)*x & ~((V4u){ 0 } | 0x8000000000000000ull));

  *mask = magnitude > *limit;
}

/* A(t) = Σ t^j / (2j + 3) up to t⁹/21 on four lanes: atanh s = s + s³ A(s²),
 * within 1e-17 for |s| <= KL_SERIES_LIMIT. The even and odd terms are
 * apart, so each chain of dependent steps is half as long. */
static inline void
v4_series_a (const V4d *t,
             V4d       *a)
{
  V4d t2 = *t * *t;
  V4d even = 1.0 / 19 + 0 * t2, odd = 1.0 / 21 + 0 * t2;

  even = 1.0 / 15 + t2 * even;
  odd = 1.0 / 17 + t2 * odd;
  even = 1.0 / 11 + t2 * even;
  odd = 1.0 / 13 + t2 * odd;
  even = 1.0 / 7 + t2 * even;
  odd = 1.0 / 9 + t2 * odd;
  even = 1.0 / 3 + t2 * even;
  odd = 1.0 / 5 + t2 * odd;
  *a = even + *t * odd;
}

/* log (p / q) of positive normal numbers, with one division and no
 * branch: the exponents apart, the mantissas brought within √2 of each
 * other, and 2 atanh s on s = (mp - mq) / (mp + mq), |s| <= 0.172. */
static inline void
v4_log_ratio (const V4d *p,
              const V4d *q,
              V4d       *log)
{
  const V4u mantissa_mask = (V4u){ 0 } | 0x000fffffffffffffull;
  const V4u one_bits = (V4u){ 0 } | 0x3ff0000000000000ull;
  const V4u magic = (V4u){ 0 } | 0x4330000000000000ull;
  V4u p_bits = (V4u)*p, q_bits = (V4u)*q;
  /* The exponents as doubles, built from their bits: a 64-bit integer
   * conversion has no vector form before AVX-512. */
  V4d exponent = (V4d)(magic | (p_bits >> 52)) - (V4d)(magic | (q_bits >> 52));
  V4d mp = (V4d)((p_bits & mantissa_mask) | one_bits);
  V4d mq = (V4d)((q_bits & mantissa_mask) | one_bits);
  V4d big, small, s, t, a;

  /* 1.0 where the comparison holds, from its mask: converting the mask
   * as an integer has no vector form. */
  big = (V4d)((V4u)(mp > G_SQRT2 * mq) & one_bits);
  mq *= 1 + big;
  exponent += big;
  small = (V4d)((V4u)(mp * G_SQRT2 < mq) & one_bits);
  mp *= 1 + small;
  exponent -= small;
  s = (mp - mq) / (mp + mq);
  t = s * s;
  v4_series_a (&t, &a);
  *log = exponent * G_LN2 + 2 * s * (1 + t * a);
}

/* kl_series on four lanes with A's first four terms, for |s| < 2⁻⁷. */
static inline void
v4_kl_term_fast (const V4d *s,
                 const V4d *sum,
                 V4d       *term)
{
  V4d t = *s * *s;
  V4d a = 1.0 / 7 + t * (1.0 / 9);

  a = 1.0 / 5 + t * a;
  a = 1.0 / 3 + t * a;
  *term = *sum * t * (1 + (1 + *s) * (*s * a));
}

/* kl_term on four lanes: the whole series, and the logarithm in the
 * lanes past its limit. */
static inline void
v4_kl_term (const V4d *cp,
            const V4d *q,
            const V4d *s,
            const V4d *sum,
            V4d       *term)
{
  const V4d limit = KL_SERIES_LIMIT - (V4d){ 0 };
  V4d t = *s * *s, a;
  V4i far;

  v4_series_a (&t, &a);
  *term = *sum * t * (1 + (1 + *s) * (*s * a));

  v4_abs_above (s, &limit, &far);
  if (v4_any (&far))
    {
      V4d log, direct;

      v4_log_ratio (cp, q, &log);
      direct = *cp * log - (*cp - *q);
      *term = (V4d)(((V4i)direct & far) | ((V4i)*term & ~far));
    }
}

/* Min-max normalised weights lie in [float32 epsilon, 1] and c within
 * its inverse, so c·p and q are normal numbers and v4_log_ratio serves.
 * The values are doubles, or where @floats float32 as stored on this
 * host, widened group by group (each caller passes a constant, so the
 * choice is made at compile time); the groups of LANES, whose count this
 * returns: the rest are the caller's. Where @ahead is not %NULL, a line
 * of it is asked for every sixteen elements, as in lanes_add_float32. */
static inline __attribute__ ((always_inline)) gsize
add_kl_groups (const Run    *run,
               const guint8 *n_data,
               const guint8 *b_data,
               gboolean      floats,
               gsize         n,
               KlSums       *sums,
               const guint8 *ahead)
{
  const V4d zero = { 0 };
  const V4d n_min = run->npu_min - zero, n_scale = run->kl_scale / run->npu_range - zero;
  const V4d b_min = run->bench_min - zero, b_scale = 1 / run->bench_range - zero;
  const V4d n_floor = FLT_EPSILON * run->kl_scale - zero, b_floor = FLT_EPSILON - zero;
  const V4d fast_limit = KL_FAST_LIMIT - zero;
  V4d sp, sq, st;
  gsize i = 0;

  /* the lanes go on from @sums, as in block_lanes_add */
  memcpy (&sp, sums->p, sizeof sp);
  memcpy (&sq, sums->q, sizeof sq);
  memcpy (&st, sums->terms, sizeof st);

  for (; i + LANES <= n; i += LANES)
    {
      V4d x, y, cp, q, s, sum, term;
      V4i slow;

      if (ahead != NULL && i % 16 == 0)
        __builtin_prefetch (ahead + i * sizeof (float));
      if (floats)
        {
          double n_values[LANES], b_values[LANES];

          widen_floats (n_data, i, LANES, n_values);
          widen_floats (b_data, i, LANES, b_values);
          memcpy (&x, n_values, sizeof x);
          memcpy (&y, b_values, sizeof y);
        }
      else
        {
          memcpy (&x, n_data + i * sizeof (double), sizeof x);
          memcpy (&y, b_data + i * sizeof (double), sizeof y);
        }
      cp = (x - n_min) * n_scale;
      q = (y - b_min) * b_scale;
      v4_max (&cp, &n_floor);
      v4_max (&q, &b_floor);
      sum = cp + q;
      s = (cp - q) / sum;
      sp += cp;
      sq += q;
      v4_abs_above (&s, &fast_limit, &slow);
      if (v4_any (&slow))
        v4_kl_term (&cp, &q, &s, &sum, &term);
      else
        v4_kl_term_fast (&s, &sum, &term);
      st += term;
    }
  memcpy (sums->p, &sp, sizeof sp);
  memcpy (sums->q, &sq, sizeof sq);
  memcpy (sums->terms, &st, sizeof st);
  return i;
}

SL_VECTOR_CLONES static void
add_kl_block (const Run    *run,
              const double *n_values,
              const double *b_values,
              gsize         n,
              KlSums       *sums)
{
  gsize i = add_kl_groups (run, (const guint8 *)n_values, (const guint8 *)b_values, FALSE, n, sums, NULL);

  add_kl_elements (run, n_values + i, b_values + i, n - i, sums);
}

/* add_kl_block on float32 values as stored on this host, widened group
 * by group (exactly, so the sums are the same bits), asking for the run
 * at @ahead as it goes unless it is NULL: inlined into each variant
 * below, so the one without has no check. */
static inline __attribute__ ((always_inline)) void
kl_block_float32 (const Run    *run,
                  const guint8 *n_floats,
                  const guint8 *b_floats,
                  gsize         n,
                  KlSums       *sums,
                  const guint8 *ahead)
{
  gsize i = add_kl_groups (run, n_floats, b_floats, TRUE, n, sums, ahead);
  double n_values[LANES], b_values[LANES];

  widen_floats (n_floats, i, n - i, n_values);
  widen_floats (b_floats, i, n - i, b_values);
  add_kl_elements (run, n_values, b_values, n - i, sums);
}

SL_VECTOR_CLONES static void
add_kl_block_float32 (const Run    *run,
                      const guint8 *n_floats,
                      const guint8 *b_floats,
                      gsize         n,
                      KlSums       *sums)
{
  kl_block_float32 (run, n_floats, b_floats, n, sums, NULL);
}

/* the same, asking for a later run of elements as it goes */
SL_VECTOR_CLONES static void
add_kl_block_float32_ahead (const Run    *run,
                            const guint8 *n_floats,
                            const guint8 *b_floats,
                            gsize         n,
                            KlSums       *sums,
                            const guint8 *ahead)
{
  kl_block_float32 (run, n_floats, b_floats, n, sums, ahead);
}
#else
static void
add_kl_block (const Run    *run,
              const double *n_values,
              const double *b_values,
              gsize         n,
              KlSums       *sums)
{
  add_kl_elements (run, n_values, b_values, n, sums);
}

static void
add_kl_block_float32 (const Run    *run,
                      const guint8 *n_floats,
                      const guint8 *b_floats,
                      gsize         n,
                      KlSums       *sums)
{
  for (gsize i = 0; i < n; i += LANES)
    {
      double n_values[LANES], b_values[LANES];
      gsize m = MIN (LANES, n - i);

      widen_floats (n_floats, i, m, n_values);
      widen_floats (b_floats, i, m, b_values);
      add_kl_elements (run, n_values, b_values, m, sums);
    }
}

static void
add_kl_block_float32_ahead (const Run    *run,
                            const guint8 *n_floats,
                            const guint8 *b_floats,
                            gsize         n,
                            KlSums       *sums,
                            const guint8 *ahead)
{
  add_kl_block_float32 (run, n_floats, b_floats, n, sums);
}
#endif

/* The KL divergence's sums over one block, its lanes added: Σ c·p, Σ q
 * and Σ q·f(r). */
enum { KL_P, KL_Q, KL_TERMS, N_KL_SUMS };

/* A run of a block's elements into its lanes @sums, which start at
 * zero; as with block_lanes_add, every run but the last is a whole
 * number of groups of LANES. */
static void
kl_lanes_add (const Run    *run,
              const double *n_values,
              const double *b_values,
              gsize         n,
              KlSums       *sums)
{
  if (!(run->npu_range > 0) || !(run->bench_range > 0))
    add_kl_elements (run, n_values, b_values, n, sums);
  else
    add_kl_block (run, n_values, b_values, n, sums);
}

static void
kl_lanes_finish (const KlSums *sums,
                 double        out[N_KL_SUMS])
{
  out[KL_P] = lanes_sum (sums->p);
  out[KL_Q] = lanes_sum (sums->q);
  out[KL_TERMS] = lanes_sum (sums->terms);
}

static void
kl_block_sums (const Run    *run,
               const double *n_values,
               const double *b_values,
               gsize         n,
               double        out[N_KL_SUMS])
{
  KlSums sums;

  memset (&sums, 0, sizeof sums);
  kl_lanes_add (run, n_values, b_values, n, &sums);
  kl_lanes_finish (&sums, out);
}

static void
kl_add_block (KlPartial    *kl,
              const double  block[N_KL_SUMS])
{
  neumaier_add (&kl->sum_p, block[KL_P]);
  neumaier_add (&kl->sum_q, block[KL_Q]);
  neumaier_add (&kl->sum_terms, block[KL_TERMS]);
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

/* Where a chunk's elements are read from: both tensors as stored, or,
 * for the side in the other order, a run of chunks gathered into a
 * thread's scratch in C order, with @base[side] the position its first
 * element stands for. */
struct _ChunkSource {
  SlTensorData        copy;
  const SlTensorData *sides[2];
  guint64             base[2];
};

static void
chunk_source_init (ChunkSource *source,
                   const Run   *run)
{
  source->sides[0] = run->npu;
  source->sides[1] = run->bench;
  source->base[0] = source->base[1] = 0;
}

/* Gathers chunks @first .. @last of the side in the other order. */
static void
chunk_source_gather (ChunkSource *source,
                     const Run   *run,
                     guint64      first,
                     guint64      last,
                     guint8      *scratch)
{
  guint side = run->gathered == run->npu ? 0 : 1;
  guint64 begin = chunk_begin (run, first);

  sl_tensor_gather_c_order (run->gathered, begin, chunk_end (run, last) - begin, scratch);
  source->copy = *run->gathered;
  source->copy.data = scratch;
  source->sides[side] = &source->copy;
  source->base[side] = begin;
}

/* Whether both sides are float32 as this host stores them, whose values
 * are then widened as they are added (block_lanes_add_float32,
 * add_kl_block_float32) rather than converted into runs of doubles
 * first: the same sums, to the bit. */
static gboolean
both_float32 (const SlTensorData *a,
              const SlTensorData *b)
{
  return a->dtype == SL_TENSOR_DTYPE_FLOAT32 && b->dtype == SL_TENSOR_DTYPE_FLOAT32 &&
         a->big_endian == host_is_big_endian () && b->big_endian == host_is_big_endian ();
}

/* Where element @i of a side of @source is stored, when it is float32. */
static inline const guint8 *
float_at (const ChunkSource *source,
          guint              side,
          guint64            i)
{
  return source->sides[side]->data + (i - source->base[side]) * sizeof (float);
}

static void
main_chunk (Run               *run,
            guint64            index,
            const ChunkSource *source)
{
  double n_values[BLOCK], b_values[BLOCK];
  Chunk *chunk = &run->chunks[index];
  guint64 end = chunk_end (run, index);

  gboolean floats = both_float32 (source->sides[0], source->sides[1]);

  partial_init (&chunk->partial);
  for (guint64 i = chunk_begin (run, index); i < end; i += BLOCK)
    {
      gsize n = MIN (BLOCK, end - i);
      BlockSums block;

      if (floats)
        {
          BlockLanes lanes;

          block_lanes_init (&lanes);
          block_lanes_add_float32 (run, float_at (source, 0, i), float_at (source, 1, i), n, &lanes);
          block_lanes_finish (&lanes, &block);
        }
      else
        {
          convert_block (source->sides[0], i - source->base[0], n, n_values);
          convert_block (source->sides[1], i - source->base[1], n, b_values);
          block_sums (run, n_values, b_values, n, &block);
        }
      partial_add_block (&chunk->partial, &block);
    }
}

/* The KL divergence needs each side's minimum and maximum first, so it
 * has a pass of its own after the main one. */
static void
kl_chunk (Run               *run,
          guint64            index,
          const ChunkSource *source)
{
  double n_values[BLOCK], b_values[BLOCK];
  KlPartial *kl = &run->chunks[index].kl;
  guint64 end = chunk_end (run, index);

  /* neither side flat, as for add_kl_block in kl_lanes_add */
  gboolean floats = both_float32 (source->sides[0], source->sides[1]) && run->npu_range > 0 && run->bench_range > 0;

  memset (kl, 0, sizeof *kl);
  for (guint64 i = chunk_begin (run, index); i < end; i += BLOCK)
    {
      gsize n = MIN (BLOCK, end - i);
      double block[N_KL_SUMS];

      if (floats)
        {
          KlSums sums;

          memset (&sums, 0, sizeof sums);
          add_kl_block_float32 (run, float_at (source, 0, i), float_at (source, 1, i), n, &sums);
          kl_lanes_finish (&sums, block);
        }
      else
        {
          convert_block (source->sides[0], i - source->base[0], n, n_values);
          convert_block (source->sides[1], i - source->base[1], n, b_values);
          kl_block_sums (run, n_values, b_values, n, block);
        }
      kl_add_block (kl, block);
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
  self->npu_min = MIN (self->npu_min, other->npu_min);
  self->npu_max = MAX (self->npu_max, other->npu_max);
  self->bench_min = MIN (self->bench_min, other->bench_min);
  self->bench_max = MAX (self->bench_max, other->bench_max);
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

/* Chunks @first .. @last of a pair whose side in Fortran order is
 * gathered a tile at a time: TILE_ROWS rows that follow each other in its
 * storage by TILE_COLUMNS columns, a part of one block of each row,
 * transposed 8 × 8 in registers and summed with the other side's pieces
 * of the same rows while the tile is still in cache. Each row's block
 * keeps its lanes (see block_lanes_add) from one part to the next, so a
 * tile and the lanes of its rows fit the L2 cache whatever the block's
 * length, while each column's run of the tile's rows is two kilobytes of
 * one page (for float32), read at one visit; the tiles of a group's
 * rows follow each other over the same pages. Each block's sums are kept
 * and added to their chunk's in C order at the end, so the sums are
 * those of the same pair in C order, to the bit.
 * Measured on an 8192 × 16384 float32 pair, every metric (processor
 * seconds of the whole program for two comparisons, medians of runs
 * taken in turn on a loaded machine): the pair in C order 1.33; whole
 * blocks of 256 rows 1.62; these parts of 512 rows by 256 columns 1.68
 * without the prefetch of the side in C order, 1.39 with it. Parts of
 * 1024 × 128 and 1024 × 256 did as well; 256 × 512 and whole blocks with
 * the prefetch did not; tiles widened to doubles as they are transposed
 * were slower (1.88). Where both sides are float32 as this host stores
 * them, their values are widened as they are added, from the tile and
 * from the other side's storage, rather than converted into runs of
 * doubles first (processor seconds of one comparison, medians of seven
 * runs in turn with the pair in C order, four rounds on a loaded
 * machine: 0.84 to 0.91 before against 0.75 to 0.84 in C order, a ratio
 * of 0.90; 0.76 to 0.79 after against 0.74 to 0.76, a ratio of 0.96 to
 * 0.97). The pair in C order now widens its values as it adds them too,
 * which took its processor time from 0.74 to 0.78 s down to 0.55 to
 * 0.57 s (medians of seven runs, five rounds on a machine loaded 2.4 to
 * 5.2), so that this path, unchanged at 0.75 to 0.82 s, is 0.70 to 0.73 ×
 * its rate (it was 0.95 to 1.00 ×). What is left is the gathering of the
 * tiles, about 0.2 s of processor beyond the sums, the 8 × 8 transposes
 * mostly waiting on memory for the columns' runs. Against 0.77 to 0.81 s
 * for these tiles in the same runs (medians of five): asking for the next
 * tile's columns while a tile's rows are added, between the rows or
 * spread over their groups, kept the line fill buffers full and cost more
 * than it saved (0.83 to 0.87 s); gathering the next tile into a second
 * buffer between the rows (0.83 to 0.85 s), 16 rows of every column at a
 * time (0.81 s) and tiles of 1024 rows by 128 columns (0.79 to 0.81 s)
 * did no better; nor did the main pass without tiles, adding 16 rows at a
 * time four columns at a time, the side in Fortran order read where it
 * lies and the other transposed 4 × 4 in registers, each row's lanes in
 * memory (0.88 to 0.91 s: its sums took 1.7 × the time of the same-order
 * pair's). The KL pass gathers the tiles again: it needs the main pass's
 * minimum, maximum and means first, and keeping the gathered side between
 * the passes would take as much memory as the tensor. Each thread's tile,
 * rows' lanes and blocks' sums lie in pages of 2 MB where the system
 * gives them: a tile gathered again while in cache took 0.049 s of
 * processor for the whole tensor in pages of 4 KB and 0.025 s in pages
 * of 2 MB, and the mixed pair's processor time came from 0.82 to 0.88 s
 * down to 0.78 to 0.85 s (medians of five runs, four rounds in turn on a
 * loaded machine; the pair in C order 0.58 to 0.63 s), 0.73 to 0.75 × the
 * same-order rate where it was 0.68 to 0.70 ×. Where both sides are
 * float32, the prefetch of a later row's piece of the side in C order is
 * spread over the groups of the row being added, a line every sixteen
 * elements, rather than asked for all at once: medians of nine rounds in turn, 0.75 × the
 * same-order rate where it was 0.72 × (mixed 0.657 s of processor, from
 * 0.665 s; C order 0.479 s, from 0.481 s). Whole rows' prefetches made
 * every other line (the processor fetching pairs of lines) did no better
 * (0.73 to 0.76 × against 0.74 to 0.77 ×), nor did asking for them into
 * the L2 cache only, or eight rows ahead rather than four; without any,
 * 0.57 ×.
 * What is left, with the AVX-512 sums (about 0.62 s of processor against
 * 0.48 s in C order): the mixed pair's sums take as long as the C-order
 * pair's, and tile_4 takes 11 % of the samples of a run of the bench
 * where the sums of both pairs take 80 % (this function's own code 5 %
 * before the C-order side's prefetches were spread, 0.7 % after).
 * Gathering the whole side a tile at a time on one thread, without sums,
 * takes 0.057 to 0.062 s, about what reading it straight through takes
 * (0.052 s for the minimum and maximum of its 512 MB): the columns' runs come at the rate of the memory, which
 * the pair in C order hides behind its sums and this path cannot. These
 * lost, each in turn against the tiles above: asking for the next tile's
 * columns into the L2 cache, 16 lines a row (0.61 to 0.67 × against 0.73
 * to 0.76 ×; with tiles of 256 rows 0.66 to 0.67 ×), which on one thread
 * with stand-in sums cut the gathering's time by a third and added as
 * much to the sums'; the same spread over each row's groups beside the
 * C-order side's lines (0.75 to 0.77 × against 0.73 to 0.77 ×: tile_4
 * went from 11 % of the samples to 8 %, the sums of the mixed pair from
 * 40 % to 44 %); 16 × 16 AVX-512 transposes, a whole line of 16
 * columns a load (0.092 to 0.099 s for the whole side against 0.071 to
 * 0.078 s; 16 rows of every column at a time, 0.14 to 0.16 s); 8 × 8
 * transposes that load halves of rows into the vectors' upper halves, for
 * fewer shuffles (the same 0.058 to 0.060 s for tiles gathered again from
 * cache: the shuffles are not what it waits on); tile_4 in an AVX-512
 * variant; tiles of 1024 rows by 128 columns in groups of 1024 rows (0.70
 * to 0.72 × against 0.71 to 0.77 ×), of 256 × 512 (0.68 to 0.71 × against
 * 0.70 to 0.72 ×) and of 512 × 128 (0.75 to 0.80 × against 0.74 to 0.81 ×);
 * the KL pass taking the groups from the last, whose data the main pass
 * read most recently (0.68 to 0.74 × against 0.71 to 0.73 ×); the side in
 * Fortran order copied into pages of 2 MB (0.057 s against 0.062 s to
 * gather it: the page walks are not it either). One gathering for both
 * passes would need each side's minimum and maximum before the first, so
 * a pass of their own over both sides in their own orders: about 0.1 s of
 * processor (0.052 s for one side on one thread), as much as the second
 * gathering saves, and as much again for the pair in C order were it to
 * take the same road. */
static void
tiled_group (Run       *run,
             guint64    first,
             guint64    last,
             guint8    *tile,
             gpointer   row_lanes,
             BlockSums *blocks)
{
  const SlTensorData *gathered = run->gathered;
  const SlTensorData *other = gathered == run->npu ? run->bench : run->npu;
  gboolean kl_pass = run->pass == kl_chunk;
  guint64 L = run->columns, B = run->middle;
  guint64 begin = chunk_begin (run, first), end = chunk_end (run, last);
  guint64 o0 = begin / L, o1 = (end - 1) / L + 1;
  gsize other_size = sl_tensor_dtype_get_size (other->dtype);
  double g_values[TILE_COLUMNS], c_values[TILE_COLUMNS];
  const double *n_values = gathered == run->npu ? g_values : c_values;
  const double *b_values = gathered == run->npu ? c_values : g_values;
  BlockLanes *lanes = row_lanes;
  KlSums *kl_lanes = row_lanes;
  SlTensorData tile_view = *gathered;
  /* both sides float32 as this host stores them, and for the KL pass
   * neither flat (see kl_lanes_add): the values are widened as they are
   * added, from the tile and from the other side's storage */
  gboolean floats = both_float32 (gathered, other) && (!kl_pass || (run->npu_range > 0 && run->bench_range > 0));

  tile_view.data = tile;
  for (guint64 c0 = 0; c0 < L; c0 += BLOCK)
    {
      if (g_cancellable_is_cancelled (run->cancellable))
        return;
      for (guint64 rest = 0; rest < B; rest++)
        {
          /* the rows a·B + rest in [o0, o1) */
          guint64 a_begin = o0 > rest ? (o0 - rest + B - 1) / B : 0;
          guint64 a_end = o1 > rest ? (o1 - rest + B - 1) / B : 0;

          for (guint64 a = a_begin; a < a_end; a += TILE_ROWS)
            {
              guint n_rows = (guint)MIN ((guint64)TILE_ROWS, a_end - a);
              guint64 offset = sl_tensor_gather_row_offset (gathered, a * B + rest) + c0 * run->column_stride;
              guint t_begin = n_rows, t_end = 0;

              /* the tile's rows whose blocks are the chunks' */
              for (guint t = 0; t < n_rows; t++)
                {
                  guint64 position = ((a + t) * B + rest) * L + c0;

                  if (position >= begin && position < end)
                    {
                      t_begin = MIN (t_begin, t);
                      t_end = t + 1;
                    }
                }
              for (guint t = t_begin; t < t_end; t++)
                {
                  if (kl_pass)
                    memset (&kl_lanes[t], 0, sizeof kl_lanes[t]);
                  else
                    block_lanes_init (&lanes[t]);
                }
              for (guint64 s0 = 0; s0 < BLOCK; s0 += TILE_COLUMNS)
                {
                  sl_tensor_gather_tile (gathered, offset + s0 * run->column_stride, n_rows, TILE_COLUMNS,
                                         TILE_STRIDE, tile);
                  for (guint t = t_begin; t < t_end; t++)
                    {
                      guint64 position = ((a + t) * B + rest) * L + c0 + s0;

                      /* a later row's piece: the rows of the side in C
                       * order lie a row apart, too far for the hardware
                       * to see where the next piece begins */
                      const guint8 *ahead = t + PREFETCH_AHEAD < t_end
                                            ? other->data + (position + (guint64)PREFETCH_AHEAD * B * L) * other_size
                                            : NULL;

#if defined(__GNUC__)
                      if (!floats && ahead != NULL)
                        for (gsize k = 0; k < TILE_COLUMNS * other_size; k += 64)
                          __builtin_prefetch (ahead + k);
#endif
                      if (floats)
                        {
                          const guint8 *g_floats = tile + (gsize)t * TILE_STRIDE * sizeof (float);
                          const guint8 *c_floats = other->data + position * sizeof (float);
                          const guint8 *n_floats = gathered == run->npu ? g_floats : c_floats;
                          const guint8 *b_floats = gathered == run->npu ? c_floats : g_floats;

                          if (kl_pass && ahead != NULL)
                            add_kl_block_float32_ahead (run, n_floats, b_floats, TILE_COLUMNS, &kl_lanes[t], ahead);
                          else if (kl_pass)
                            add_kl_block_float32 (run, n_floats, b_floats, TILE_COLUMNS, &kl_lanes[t]);
                          else if (ahead != NULL)
                            block_lanes_add_float32_ahead (run, n_floats, b_floats, TILE_COLUMNS, &lanes[t], ahead);
                          else
                            block_lanes_add_float32 (run, n_floats, b_floats, TILE_COLUMNS, &lanes[t]);
                          continue;
                        }
                      convert_block (&tile_view, (guint64)t * TILE_STRIDE, TILE_COLUMNS, g_values);
                      convert_block (other, position, TILE_COLUMNS, c_values);
                      if (kl_pass)
                        kl_lanes_add (run, n_values, b_values, TILE_COLUMNS, &kl_lanes[t]);
                      else
                        block_lanes_add (run, n_values, b_values, TILE_COLUMNS, &lanes[t]);
                    }
                }
              for (guint t = t_begin; t < t_end; t++)
                {
                  guint64 position = ((a + t) * B + rest) * L + c0;
                  BlockSums *block = &blocks[(position - begin) / BLOCK];

                  if (kl_pass)
                    kl_lanes_finish (&kl_lanes[t], block->sums);
                  else
                    block_lanes_finish (&lanes[t], block);
                }
            }
        }
    }

  for (guint64 index = first; index <= last; index++)
    {
      const BlockSums *block = &blocks[(chunk_begin (run, index) - begin) / BLOCK];
      guint64 n_blocks = (chunk_end (run, index) - chunk_begin (run, index)) / BLOCK;

      if (kl_pass)
        {
          KlPartial *kl = &run->chunks[index].kl;

          memset (kl, 0, sizeof *kl);
          for (guint64 i = 0; i < n_blocks; i++)
            kl_add_block (kl, block[i].sums);
        }
      else
        {
          Partial *partial = &run->chunks[index].partial;

          partial_init (partial);
          for (guint64 i = 0; i < n_blocks; i++)
            partial_add_block (partial, &block[i]);
        }
      add_progress (run, run->pass_weight);
    }
}

/* Takes the next chunk until none is left or the comparison is
 * cancelled; which thread computes a chunk does not change its sums. */
static gpointer
run_worker (gpointer data)
{
  Run *run = data;
  g_autofree guint8 *scratch = NULL;
  guint8 *tiles = NULL;
  BlockSums *blocks = NULL;
  gpointer row_lanes = NULL;
  guint step = run->gathered != NULL ? run->gather_chunks : 1;
  ChunkSource source;
  guint64 first;

  chunk_source_init (&source, run);
  if (run->tiled)
    {
      gsize tile_size = TILE_ROWS * TILE_STRIDE * sl_tensor_dtype_get_size (run->gathered->dtype);
      gsize lanes_size = TILE_ROWS * MAX (sizeof (BlockLanes), sizeof (KlSums));

      /* in large pages: the transposes write each tile's rows across its
       * whole length, a hundred and more pages of 4 KB, more than the
       * processor keeps the addresses of at once */
      tiles = sl_platform_alloc_huge_pages (tile_size + lanes_size + run->chunk_size / BLOCK * step * sizeof (BlockSums));
      row_lanes = tiles + tile_size;
      blocks = (BlockSums *)(tiles + tile_size + lanes_size);
    }
  else if (run->gathered != NULL)
    scratch = g_malloc (run->chunk_size * step * sl_tensor_dtype_get_size (run->gathered->dtype));
  while ((first = (guint64)g_atomic_int_add (&run->next_chunk, (gint)step)) < run->n_chunks)
    {
      guint64 last = MIN (first + step, run->n_chunks) - 1;

      if (g_cancellable_is_cancelled (run->cancellable))
        break;
      if (run->tiled)
        {
          tiled_group (run, first, last, tiles, row_lanes, blocks);
          continue;
        }
      if (run->gathered != NULL)
        chunk_source_gather (&source, run, first, last, scratch);
      for (guint64 index = first; index <= last; index++)
        {
          if (index > first && g_cancellable_is_cancelled (run->cancellable))
            break;
          run->pass (run, index, &source);
          add_progress (run, run->pass_weight);
        }
    }
  if (tiles != NULL)
    sl_platform_free_huge_pages (tiles);
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
  run->units_total = run->n_chunks * (MAIN_WEIGHT + (options->skip_kl_divergence ? 0 : KL_WEIGHT));
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

/* A gathered chunk holds few rows of a wide tensor (16 of 16384), so
 * every column's piece of it is on a page of its own: chunks are gathered
 * several at once, up to 128 rows and 8 chunks, for more of each page
 * every visit. Which chunks one gathering covers changes no sum. */
static guint
gather_chunks (const Run *run)
{
  guint64 columns = 1, rows;

  for (guint i = run->gathered->n_dims; i > 0 && columns == 1; i--)
    columns = run->gathered->shape[i - 1];
  rows = MAX (run->chunk_size / MAX (columns, 1), 1);
  return (guint)CLAMP ((128 + rows - 1) / rows, 1, 8);
}

/* Tiles serve where the rows are whole blocks (so every block lies in
 * one row) and a run of chunks holds runs of rows that follow each other
 * in storage, at least eight long: GROUP_ROWS long where up to
 * MAX_GROUP_CHUNKS chunks at a time give them. */
static void
run_plan_tiles (Run *run)
{
  guint64 first_axis, columns, rows, rows_per_chunk, chunks;

  if (!sl_tensor_gather_get_rows (run->gathered, &first_axis, &columns) || columns % BLOCK != 0 ||
      run->chunk_size % BLOCK != 0)
    return;
  rows = run->n_elements / columns;
  rows_per_chunk = MAX (run->chunk_size / columns, 1);
  run->middle = rows / first_axis;
  chunks = CLAMP ((GROUP_ROWS * run->middle + rows_per_chunk - 1) / rows_per_chunk, 1, MAX_GROUP_CHUNKS);
  if (MIN (first_axis, chunks * run->chunk_size / columns / run->middle) < 8)
    return;
  run->tiled = TRUE;
  run->columns = columns;
  run->column_stride = rows;
  run->gather_chunks = (guint)chunks;
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

/* A side's mean weight from its mean, leaving out the floor at float32
 * epsilon, which only the values at the very minimum reach. */
static double
mean_kl_weight (double mean,
                double min,
                double range)
{
  double weight = range > 0 ? (mean - min) / range : min;

  return MAX (weight, FLT_EPSILON);
}

/* After the main pass: each side's minimum and range, and c = Sq / Sp as
 * the means give it (any c > 0 gives the same divergence; a close one
 * keeps a good tensor's terms in the fast path); or with_kl is FALSE
 * when a side holds NaN or Inf (the divergence is then undefined, as in
 * the CANN tool). */
static void
prepare_kl (Run           *run,
            const Partial *total)
{
  double n = (double)run->n_elements, c;

  run->with_kl = total->npu_non_finite == 0 && total->bench_non_finite == 0;
  run->npu_min = total->npu_min;
  run->npu_range = total->npu_max - total->npu_min;
  run->bench_min = total->bench_min;
  run->bench_range = total->bench_max - total->bench_min;
  c = mean_kl_weight (run->shift_b + neumaier_value (&total->sums[SUM_B]) / n, run->bench_min, run->bench_range) /
      mean_kl_weight (run->shift_n + neumaier_value (&total->sums[SUM_N]) / n, run->npu_min, run->npu_range);
  /* within float32 epsilon and its inverse, as the weights are */
  run->kl_scale = isfinite (c) && c > 0 ? CLAMP (c, FLT_EPSILON, 1 / FLT_EPSILON) : 1;
}

/* The chunks' sums, added in chunk order. */
static void
merge_partials (const Run *run,
                Partial   *total)
{
  *total = run->chunks[0].partial;
  for (guint64 i = 1; i < run->n_chunks; i++)
    partial_merge (total, &run->chunks[i].partial);
}

static void
merge_kl (const Run *run,
          KlPartial *kl)
{
  *kl = run->chunks[0].kl;
  for (guint64 i = 1; i < run->n_chunks; i++)
    {
      neumaier_merge (&kl->sum_p, &run->chunks[i].kl.sum_p);
      neumaier_merge (&kl->sum_q, &run->chunks[i].kl.sum_q);
      neumaier_merge (&kl->sum_terms, &run->chunks[i].kl.sum_terms);
    }
}

/* Σ q·f(r) / (c·Sp) − g(e), both parts positive (see kl_term). */
static double
finish_kl (const KlPartial *kl)
{
  double csp = neumaier_value (&kl->sum_p);
  /* Sq − c·Sp from the compensated sums' two parts: rounding each to a
   * double first would leave an error of their last digit. */
  double gap = (kl->sum_q.sum - kl->sum_p.sum) + (kl->sum_q.compensation - kl->sum_p.compensation);
  double value = neumaier_value (&kl->sum_terms) / csp - log1p_gap (gap / csp);

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

/* Whether both sides store their elements in the same sequence: the same
 * order, or C and Fortran order with at most one axis longer than one. */
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
 * Elements are paired by their logical index, whichever order (C or
 * Fortran) each side is stored in; a mixed pair gives the metrics of the
 * same pair both in C order, to the bit.
 *
 * Returns: (transfer full): the metrics and the verdict; when the shapes
 * prevent an element-wise comparison, computed is %FALSE, the verdict an
 * error and the reason says why.
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
  if (npu->n_elements == 0)
    {
      set_verdict (result, SL_TENSOR_VERDICT_WARNING, g_strdup (_("Both tensors are empty; there is nothing to compare.")));
      return g_steal_pointer (&result);
    }

  run_init (&run, npu, bench, options);
  /* Elements are paired by logical index: in storage order when both
   * sides share it (both in Fortran order, summed in that order), else in
   * C order with the Fortran side's chunks gathered. */
  if (!orders_agree (npu, bench))
    {
      run.gathered = npu->fortran_order ? npu : bench;
      run_plan_tiles (&run);
      if (!run.tiled)
        run.gather_chunks = gather_chunks (&run);
    }
  run_pass (&run, main_chunk, MAIN_WEIGHT);
  if (g_cancellable_is_cancelled (options->cancellable))
    return cancelled (g_steal_pointer (&result));
  merge_partials (&run, &total);
  if (!options->skip_kl_divergence)
    {
      prepare_kl (&run, &total);
      if (run.with_kl)
        run_pass (&run, kl_chunk, KL_WEIGHT);
      if (g_cancellable_is_cancelled (options->cancellable))
        return cancelled (g_steal_pointer (&result));
    }
  result->computed = TRUE;
  fill_metrics (result, &total, &run);
  if (run.with_kl)
    {
      merge_kl (&run, &kl);
      result->kl_divergence = finish_kl (&kl);
    }
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
