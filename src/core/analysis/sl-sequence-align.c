/* sl-sequence-align.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-sequence-align.h"

/* How much work passes between two looks at the cancellable. */
#define CANCEL_CHECK_CELLS (1u << 20)
/* Gaps between anchors that run out of budget look for anchors of their
 * own this many times before the greedy cut takes over. */
#define MAX_ANCHOR_DEPTH 4
/* Even a tiny gap may spend this much on being exact. */
#define GAP_MIN_WORK 4096
/* Keys up to this much above the number of ops are counted in plain
 * arrays; larger ones are renumbered first. */
#define DENSE_KEY_SLACK 65536
/* Pieces of at least this many ops count their keys before the exact
 * search, to skip it when it surely cannot fit its budget. */
#define ROOT_CHECK_OPS 4096

typedef enum {
  PIECE_ALIGN,     /* exact, within its pool */
  PIECE_GREEDY,    /* bisected with the greedy cut */
  PIECE_MATCHED,   /* a run of pairs on one diagonal, to emit */
} PieceKind;

/* A rectangle base[a0, a1) × comparison[b0, b1) still to align. */
typedef struct {
  gint32  a0;
  gint32  a1;
  gint32  b0;
  gint32  b1;
  guint32 pool;
  guint8  kind;
  guint8  depth;
  guint8  root;    /* the first piece of its pool */
} Piece;

typedef enum {
  SPLIT_FOUND,
  SPLIT_CUT,
  SPLIT_OVER_BUDGET,
  SPLIT_CANCELLED,
} Split;

typedef struct {
  guint32 a;
  guint32 b;
} Anchor;

typedef struct {
  const guint32               *a;
  const guint32               *b;
  gint32                       n;
  gint32                       m;
  /* Furthest reaching x of the forward and backward searches on each
   * diagonal x − y, from −(m + 1) to n + 1. */
  gint32                      *fd;
  gint32                      *bd;

  GCancellable                *cancellable;
  SlSequenceAlignProgressFunc  progress;
  gpointer                     user_data;
  double                       last_progress;
  guint64                      unchecked;
  gboolean                     cancelled;

  GArray                      *pairs;   /* SlSequenceAlignPair */
  GArray                      *stack;   /* Piece */
  GArray                      *pools;   /* guint64: cells left */

  /* For anchors, made on first use: keys renumbered if they are sparse,
   * and per key its count on each side and its last comparison index. */
  const guint32               *ka;
  const guint32               *kb;
  guint32                     *dense;
  guint32                      max_key;
  guint32                      n_keys;
  guint32                     *count_a;
  guint32                     *count_b;
  guint32                     *pos_b;
  GArray                      *anchors; /* Anchor */

  gboolean                     used_anchors;
  gboolean                     used_cuts;
  guint64                      work;
  guint64                      exact_work;
} Run;

static gboolean
check_cancelled (Run     *run,
                 guint64  cells)
{
  run->unchecked += cells;
  if (run->unchecked < CANCEL_CHECK_CELLS)
    return FALSE;
  run->unchecked = 0;
  if (g_cancellable_is_cancelled (run->cancellable))
    run->cancelled = TRUE;
  return run->cancelled;
}

static void
report_progress (Run    *run,
                 double  fraction)
{
  if (run->progress == NULL)
    return;
  /* Often enough for a progress bar, rarely enough to cost nothing. */
  if (fraction < 1.0 && fraction - run->last_progress < 0.01)
    return;
  run->last_progress = fraction;
  run->progress (MIN (fraction, 1.0), run->user_data);
}

static void
push_piece (Run       *run,
            PieceKind  kind,
            gint32     a0,
            gint32     a1,
            gint32     b0,
            gint32     b1,
            guint32    pool,
            guint      depth)
{
  Piece p = { a0, a1, b0, b1, pool, kind, depth, FALSE };

  g_array_append_val (run->stack, p);
}

static void
emit_run (Run    *run,
          gint32  a0,
          gint32  b0,
          gint32  length)
{
  for (gint32 t = 0; t < length; t++)
    {
      SlSequenceAlignPair pair = { a0 + t, b0 + t };

      g_array_append_val (run->pairs, pair);
    }
}

/* ------------------------------------------------------------------ */
/* The middle snake                                                    */

/* Where to bisect base[xoff, xlim) × comparison[yoff, ylim), both sides
 * non-empty and their first and last keys different: Myers' forward and
 * backward searches one edit at a time until they overlap, which gives a
 * point on a shortest edit path (SPLIT_FOUND); this is GNU diff's diag()
 * without its heuristics. SPLIT_OVER_BUDGET once more than @limit cells
 * are spent; after @cap edits each way, SPLIT_CUT at whichever of the two
 * searches' furthest points got further (GNU diff's "too expensive"
 * heuristic). The cells spent go to @spent either way. */
static Split
find_split (Run     *run,
            gint32   xoff,
            gint32   xlim,
            gint32   yoff,
            gint32   ylim,
            guint64  limit,
            gint32   cap,
            gint32  *xmid,
            gint32  *ymid,
            guint64 *spent)
{
  const guint32 *a = run->a, *b = run->b;
  gint32 *fd = run->fd, *bd = run->bd;
  const gint32 dmin = xoff - ylim, dmax = xlim - yoff;
  const gint32 fmid = xoff - yoff, bmid = xlim - ylim;
  gint32 fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  const gboolean odd = (fmid - bmid) & 1;
  guint64 cells = 0;

  fd[fmid] = xoff;
  bd[bmid] = xlim;

  for (gint32 c = 1;; c++)
    {
      guint64 before = cells;
      gint64 fxybest = -1, bxybest = G_MAXINT64;
      gint32 fxbest = 0, bxbest = 0;

      /* One more edit forward on every diagonal in reach; −1 marks the
       * diagonals just outside. */
      if (fmin > dmin)
        fd[--fmin - 1] = -1;
      else
        ++fmin;
      if (fmax < dmax)
        fd[++fmax + 1] = -1;
      else
        --fmax;
      for (gint32 d = fmax; d >= fmin; d -= 2)
        {
          gint32 tlo = fd[d - 1], thi = fd[d + 1];
          gint32 x0 = tlo < thi ? thi : tlo + 1;
          gint32 x = x0, y = x0 - d;

          while (x < xlim && y < ylim && a[x] == b[y])
            x++, y++;
          cells += (guint64)(x - x0) + 1;
          fd[d] = x;
          if (odd && bmin <= d && d <= bmax && bd[d] <= x)
            {
              *xmid = x;
              *ymid = y;
              *spent = cells;
              return SPLIT_FOUND;
            }
        }

      /* And backward from the end. */
      if (bmin > dmin)
        bd[--bmin - 1] = G_MAXINT32;
      else
        ++bmin;
      if (bmax < dmax)
        bd[++bmax + 1] = G_MAXINT32;
      else
        --bmax;
      for (gint32 d = bmax; d >= bmin; d -= 2)
        {
          gint32 tlo = bd[d - 1], thi = bd[d + 1];
          gint32 x0 = tlo < thi ? tlo : thi - 1;
          gint32 x = x0, y = x0 - d;

          while (xoff < x && yoff < y && a[x - 1] == b[y - 1])
            x--, y--;
          cells += (guint64)(x0 - x) + 1;
          bd[d] = x;
          if (!odd && fmin <= d && d <= fmax && x <= fd[d])
            {
              *xmid = x;
              *ymid = y;
              *spent = cells;
              return SPLIT_FOUND;
            }
        }

      *spent = cells;
      if (cells > limit)
        return SPLIT_OVER_BUDGET;
      if (check_cancelled (run, cells - before))
        return SPLIT_CANCELLED;
      if (c < cap)
        continue;

      /* Too expensive: the forward diagonal that got furthest (x + y
       * largest) or the backward one (x + y smallest), whichever covers
       * more. Values past the rectangle's edge are pulled back onto it. */
      for (gint32 d = fmax; d >= fmin; d -= 2)
        {
          gint32 x = MIN (fd[d], xlim), y = x - d;

          if (ylim < y)
            {
              x = ylim + d;
              y = ylim;
            }
          if (fxybest < (gint64)x + y)
            {
              fxybest = (gint64)x + y;
              fxbest = x;
            }
        }
      for (gint32 d = bmax; d >= bmin; d -= 2)
        {
          gint32 x = MAX (xoff, bd[d]), y = x - d;

          if (y < yoff)
            {
              x = yoff + d;
              y = yoff;
            }
          if ((gint64)x + y < bxybest)
            {
              bxybest = (gint64)x + y;
              bxbest = x;
            }
        }
      if ((gint64)xlim + ylim - bxybest < fxybest - ((gint64)xoff + yoff))
        {
          *xmid = fxbest;
          *ymid = (gint32)(fxybest - fxbest);
        }
      else
        {
          *xmid = bxbest;
          *ymid = (gint32)(bxybest - bxbest);
        }
      return SPLIT_CUT;
    }
}

/* ------------------------------------------------------------------ */
/* Anchors                                                             */

static guint
hash_key (gconstpointer key)
{
  return GPOINTER_TO_UINT (key);
}

static guint32
max_key (Run *run)
{
  guint32 max = 0;

  for (gint32 i = 0; i < run->n; i++)
    max = MAX (max, run->a[i]);
  for (gint32 j = 0; j < run->m; j++)
    max = MAX (max, run->b[j]);
  return max;
}

static gboolean
keys_are_dense (Run     *run,
                guint32  max)
{
  return (guint64)max < (guint64)run->n + run->m + DENSE_KEY_SLACK;
}

static void
ensure_key_tables (Run *run)
{
  guint32 max;
  gsize total = (gsize)run->n + run->m;

  if (run->count_a != NULL)
    return;

  max = run->max_key;
  run->ka = run->a;
  run->kb = run->b;
  if (keys_are_dense (run, max))
    run->n_keys = max + 1;
  else
    {
      /* Sparse keys: renumber them in order of first appearance. The
       * table maps key + 1, so that key 0 is not the NULL pointer. */
      g_autoptr(GHashTable) numbers = g_hash_table_new (hash_key, g_direct_equal);

      run->dense = g_new (guint32, MAX (total, 1));
      for (gsize t = 0; t < total; t++)
        {
          guint32 key = t < (gsize)run->n ? run->a[t] : run->b[t - run->n];
          gpointer found;

          if (!g_hash_table_lookup_extended (numbers, GUINT_TO_POINTER (key + 1), NULL, &found))
            {
              found = GUINT_TO_POINTER (g_hash_table_size (numbers));
              g_hash_table_insert (numbers, GUINT_TO_POINTER (key + 1), found);
            }
          run->dense[t] = GPOINTER_TO_UINT (found);
        }
      run->n_keys = g_hash_table_size (numbers);
      run->ka = run->dense;
      run->kb = run->dense + run->n;
      run->work += total;
    }
  run->count_a = g_new0 (guint32, MAX (run->n_keys, 1));
  run->count_b = g_new0 (guint32, MAX (run->n_keys, 1));
  run->pos_b = g_new (guint32, MAX (run->n_keys, 1));
  run->anchors = g_array_new (FALSE, FALSE, sizeof (Anchor));
}

/* The keys that occur exactly once on each side of the piece, the
 * longest chain of them in order on both sides (patience sorting with
 * predecessor links), into run->anchors in order. */
static void
find_anchors (Run         *run,
              const Piece *p)
{
  const guint32 *ka, *kb;
  g_autofree guint32 *tails = NULL;
  g_autofree guint32 *prev = NULL;
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Anchor));
  guint n_tails = 0;

  ensure_key_tables (run);
  ka = run->ka;
  kb = run->kb;
  g_array_set_size (run->anchors, 0);

  for (gint32 j = p->b0; j < p->b1; j++)
    {
      run->count_b[kb[j]]++;
      run->pos_b[kb[j]] = j;
    }
  for (gint32 i = p->a0; i < p->a1; i++)
    run->count_a[ka[i]]++;
  for (gint32 i = p->a0; i < p->a1; i++)
    if (run->count_a[ka[i]] == 1 && run->count_b[ka[i]] == 1)
      {
        Anchor anchor = { i, run->pos_b[ka[i]] };

        g_array_append_val (candidates, anchor);
      }
  for (gint32 j = p->b0; j < p->b1; j++)
    run->count_b[kb[j]] = 0;
  for (gint32 i = p->a0; i < p->a1; i++)
    run->count_a[ka[i]] = 0;
  run->work += 3 * ((guint64)(p->a1 - p->a0) + (p->b1 - p->b0));

  if (candidates->len == 0)
    return;

  /* Candidates come in base order; the longest run increasing in the
   * comparison index. tails[l] is the candidate ending the best chain of
   * length l + 1 found so far. */
  tails = g_new (guint32, candidates->len);
  prev = g_new (guint32, candidates->len);
  for (guint c = 0; c < candidates->len; c++)
    {
      guint32 j = g_array_index (candidates, Anchor, c).b;
      guint lo = 0, hi = n_tails;

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;

          if (g_array_index (candidates, Anchor, tails[mid]).b < j)
            lo = mid + 1;
          else
            hi = mid;
        }
      prev[c] = lo > 0 ? tails[lo - 1] : G_MAXUINT32;
      tails[lo] = c;
      if (lo == n_tails)
        n_tails++;
    }
  g_array_set_size (run->anchors, n_tails);
  for (guint c = tails[n_tails - 1], l = n_tails; l > 0; c = prev[c], l--)
    g_array_index (run->anchors, Anchor, l - 1) = g_array_index (candidates, Anchor, c);
}

/* At least this many edits: every key's surplus on one side. */
static guint64
count_bound (Run         *run,
             const Piece *p)
{
  const guint32 *ka = run->ka, *kb = run->kb;
  guint64 bound = 0;

  for (gint32 j = p->b0; j < p->b1; j++)
    run->count_b[kb[j]]++;
  for (gint32 i = p->a0; i < p->a1; i++)
    run->count_a[ka[i]]++;
  for (gint32 i = p->a0; i < p->a1; i++)
    {
      guint32 k = ka[i];

      bound += run->count_a[k] > run->count_b[k] ? run->count_a[k] - run->count_b[k] : run->count_b[k] - run->count_a[k];
      run->count_a[k] = run->count_b[k] = 0;
    }
  for (gint32 j = p->b0; j < p->b1; j++)
    {
      bound += run->count_b[kb[j]];
      run->count_b[kb[j]] = 0;
    }
  run->work += 2 * ((guint64)(p->a1 - p->a0) + (p->b1 - p->b0));
  return bound;
}

/* Whether the exact search of a piece with at least @bound edits surely
 * costs more than @budget: each way, its c-th step visits at least about
 * c / 2 diagonals, and it takes D / 2 steps, so at least D² / 16 cells;
 * the test leaves another factor of two. */
static gboolean
surely_over_budget (guint64 bound,
                    guint64 budget)
{
  return bound > G_GUINT64_CONSTANT (1) << 31 || bound * bound / 32 > budget;
}

/* A piece whose exact budget ran out: split on anchors, each gap with a
 * budget of its own, or cut greedily when there are none. */
static void
fall_back (Run         *run,
           const Piece *p)
{
  guint n_anchors;
  gint32 next_a, next_b;

  if (p->depth < MAX_ANCHOR_DEPTH)
    find_anchors (run, p);
  n_anchors = p->depth < MAX_ANCHOR_DEPTH ? run->anchors->len : 0;
  if (n_anchors == 0)
    {
      push_piece (run, PIECE_GREEDY, p->a0, p->a1, p->b0, p->b1, 0, p->depth);
      return;
    }

  run->used_anchors = TRUE;
  /* Pushed last gap first, so that they come off the stack in order. */
  next_a = p->a1;
  next_b = p->b1;
  for (guint k = n_anchors + 1; k > 0; k--)
    {
      gint32 gap_a0 = p->a0, gap_b0 = p->b0;

      if (k - 1 > 0)
        {
          const Anchor *anchor = &g_array_index (run->anchors, Anchor, k - 2);

          gap_a0 = anchor->a + 1;
          gap_b0 = anchor->b + 1;
        }
      if (gap_a0 < next_a && gap_b0 < next_b)
        {
          guint64 budget = MAX ((guint64)SL_SEQUENCE_ALIGN_GAP_WORK_PER_OP *
                                ((next_a - gap_a0) + (next_b - gap_b0)), GAP_MIN_WORK);

          g_array_append_val (run->pools, budget);
          push_piece (run, PIECE_ALIGN, gap_a0, next_a, gap_b0, next_b,
                      run->pools->len - 1, p->depth + 1);
          g_array_index (run->stack, Piece, run->stack->len - 1).root = TRUE;
        }
      if (k - 1 > 0)
        {
          push_piece (run, PIECE_MATCHED, gap_a0 - 1, gap_a0, gap_b0 - 1, gap_b0, 0, 0);
          next_a = gap_a0 - 1;
          next_b = gap_b0 - 1;
        }
    }
}

/* ------------------------------------------------------------------ */
/* The run                                                             */

static gboolean
align_pieces (Run *run)
{
  const guint32 *a = run->a, *b = run->b;
  double total = MAX ((double)run->n + run->m, 1);

  while (run->stack->len > 0)
    {
      Piece p = g_array_index (run->stack, Piece, run->stack->len - 1);
      gint32 start_a, s = 0, xmid = 0, ymid = 0;
      guint64 spent = 0;
      Split split;

      g_array_set_size (run->stack, run->stack->len - 1);
      if (p.kind == PIECE_MATCHED)
        {
          emit_run (run, p.a0, p.b0, p.a1 - p.a0);
          continue;
        }

      /* Everything before this piece is settled. */
      report_progress (run, (p.a0 + p.b0) / total);

      /* The common ends: the prefix is emitted now, the suffix after
       * the middle. */
      start_a = p.a0;
      while (p.a0 < p.a1 && p.b0 < p.b1 && a[p.a0] == b[p.b0])
        {
          SlSequenceAlignPair pair = { p.a0++, p.b0++ };

          g_array_append_val (run->pairs, pair);
        }
      while (p.a0 < p.a1 - s && p.b0 < p.b1 - s && a[p.a1 - 1 - s] == b[p.b1 - 1 - s])
        s++;
      run->work += (guint64)(p.a0 - start_a) + s + 1;
      if (check_cancelled (run, (guint64)(p.a0 - start_a) + s + 1))
        return FALSE;
      if (s > 0)
        push_piece (run, PIECE_MATCHED, p.a1 - s, p.a1, p.b1 - s, p.b1, 0, 0);
      p.a1 -= s;
      p.b1 -= s;
      if (p.a0 == p.a1 || p.b0 == p.b1)
        continue;

      if (p.kind == PIECE_ALIGN)
        {
          guint64 *left = &g_array_index (run->pools, guint64, p.pool);

          split = SPLIT_OVER_BUDGET;
          /* The first piece of a pool may be seen to be too far apart
           * before any search, if its keys are cheap to count. */
          if (p.root && (gint64)(p.a1 - p.a0) + (p.b1 - p.b0) >= ROOT_CHECK_OPS &&
              (run->count_a != NULL || keys_are_dense (run, run->max_key)) && *left > 0)
            {
              ensure_key_tables (run);
              if (surely_over_budget (count_bound (run, &p), *left))
                *left = 0;
            }
          if (*left > 0)
            {
              split = find_split (run, p.a0, p.a1, p.b0, p.b1, *left, G_MAXINT32,
                                  &xmid, &ymid, &spent);
              *left -= MIN (*left, spent);
              run->exact_work += spent;
            }
          if (split == SPLIT_OVER_BUDGET)
            {
              run->work += spent;
              fall_back (run, &p);
              continue;
            }
        }
      else
        {
          split = find_split (run, p.a0, p.a1, p.b0, p.b1, G_MAXUINT64,
                              SL_SEQUENCE_ALIGN_GREEDY_EDITS, &xmid, &ymid, &spent);
          if (split == SPLIT_CUT)
            run->used_cuts = TRUE;
        }
      run->work += spent;
      if (split == SPLIT_CANCELLED)
        return FALSE;

      /* Both halves must be smaller than the piece; the searches
       * guarantee it, this only keeps a mistake from looping. */
      if ((xmid == p.a0 && ymid == p.b0) || (xmid == p.a1 && ymid == p.b1) ||
          xmid < p.a0 || xmid > p.a1 || ymid < p.b0 || ymid > p.b1)
        {
          g_warn_if_reached ();
          xmid = p.a0 + 1;
          ymid = p.b0;
        }
      push_piece (run, p.kind, xmid, p.a1, ymid, p.b1, p.pool, p.depth);
      push_piece (run, p.kind, p.a0, xmid, p.b0, ymid, p.pool, p.depth);
    }
  return TRUE;
}

static void
make_hunks (SlSequenceAlign *out,
            guint32          n,
            guint32          m)
{
  GArray *hunks = g_array_new (FALSE, FALSE, sizeof (SlSequenceAlignHunk));
  guint32 next_a = 0, next_b = 0;

  for (gsize k = 0; k <= out->n_pairs; k++)
    {
      guint32 i = k < out->n_pairs ? out->pairs[k].base : n;
      guint32 j = k < out->n_pairs ? out->pairs[k].comparison : m;

      if (i > next_a || j > next_b)
        {
          SlSequenceAlignHunk hunk = { next_a, i - next_a, next_b, j - next_b };

          g_array_append_val (hunks, hunk);
        }
      next_a = i + 1;
      next_b = j + 1;
    }
  out->n_hunks = hunks->len;
  out->hunks = (SlSequenceAlignHunk *)(gpointer)g_array_free (hunks, FALSE);
}

SlSequenceAlign *
sl_sequence_align_compute (const SlSequenceAlignInput   *input,
                           GCancellable                 *cancellable,
                           SlSequenceAlignProgressFunc   progress,
                           gpointer                      user_data,
                           GError                      **error)
{
  g_autoptr(SlSequenceAlign) out = NULL;
  guint64 budget;
  gboolean done;
  Run run;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (input->n_base == 0 || input->base != NULL, NULL);
  g_return_val_if_fail (input->n_comparison == 0 || input->comparison != NULL, NULL);
  /* Diagonals and coordinates are 32-bit. */
  g_return_val_if_fail ((guint64)input->n_base + input->n_comparison < G_MAXINT32 - 4, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  run = (Run) {
    .a = input->base,
    .b = input->comparison,
    .n = input->n_base,
    .m = input->n_comparison,
    .cancellable = cancellable,
    .progress = progress,
    .user_data = user_data,
    /* Every pair at most once: reserving the most there can be costs
     * address space, not memory, until they are written. */
    .pairs = g_array_sized_new (FALSE, FALSE, sizeof (SlSequenceAlignPair),
                                MIN (input->n_base, input->n_comparison)),
    .stack = g_array_new (FALSE, FALSE, sizeof (Piece)),
    .pools = g_array_new (FALSE, FALSE, sizeof (guint64)),
  };
  run.fd = g_new (gint32, (gsize)run.n + run.m + 3) + run.m + 1;
  run.bd = g_new (gint32, (gsize)run.n + run.m + 3) + run.m + 1;

  budget = input->max_work != 0 ? input->max_work : SL_SEQUENCE_ALIGN_DEFAULT_WORK;
  g_array_append_val (run.pools, budget);
  push_piece (&run, PIECE_ALIGN, 0, run.n, 0, run.m, 0, 0);
  g_array_index (run.stack, Piece, 0).root = TRUE;
  run.max_key = max_key (&run);

  done = align_pieces (&run);

  g_free (run.fd - run.m - 1);
  g_free (run.bd - run.m - 1);
  g_array_unref (run.stack);
  g_array_unref (run.pools);
  g_free (run.dense);
  g_free (run.count_a);
  g_free (run.count_b);
  g_free (run.pos_b);
  if (run.anchors != NULL)
    g_array_unref (run.anchors);

  if (!done)
    {
      g_array_unref (run.pairs);
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return NULL;
    }

  out = g_new0 (SlSequenceAlign, 1);
  out->n_pairs = run.pairs->len;
  out->pairs = (SlSequenceAlignPair *)(gpointer)g_array_free (run.pairs, FALSE);
  out->matched = out->n_pairs;
  out->only_base = input->n_base - out->matched;
  out->only_comparison = input->n_comparison - out->matched;
  out->distance = out->only_base + out->only_comparison;
  out->work = run.work;
  out->exact_work = run.exact_work;
  out->method = run.used_cuts ? SL_SEQUENCE_ALIGN_GREEDY :
                run.used_anchors ? SL_SEQUENCE_ALIGN_ANCHORED :
                SL_SEQUENCE_ALIGN_EXACT;
  make_hunks (out, input->n_base, input->n_comparison);

  report_progress (&run, 1.0);
  return g_steal_pointer (&out);
}

void
sl_sequence_align_free (SlSequenceAlign *self)
{
  if (self == NULL)
    return;

  g_free (self->pairs);
  g_free (self->hunks);
  g_free (self);
}

const char *
sl_sequence_align_method_to_string (SlSequenceAlignMethod method)
{
  switch (method)
    {
    case SL_SEQUENCE_ALIGN_EXACT:
      return "exact";
    case SL_SEQUENCE_ALIGN_ANCHORED:
      return "anchored";
    case SL_SEQUENCE_ALIGN_GREEDY:
      return "greedy";
    default:
      g_return_val_if_reached ("unknown");
    }
}
