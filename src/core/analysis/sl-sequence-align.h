/* sl-sequence-align.h: aligning two op sequences by a longest common subsequence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The baseline comparison pairs the ops of two runs. Each op is a key (a
 * guint32; the caller interns "name|type|input shape"), each run an array
 * of keys, and the alignment a longest common subsequence of the two: the
 * matched pairs and, between them, the hunks of ops only in one run.
 * msprof-analyze gave up its exact LCS on large profiles for difflib's
 * SequenceMatcher, which is not exact; MindStudio Insight pairs the k-th
 * occurrence of each name. This is exact unless a work budget runs out,
 * and says so.
 *
 * The exact method is Myers' O((N + M)·D) greedy diff with its
 * linear-space refinement (bisection on the middle snake, as in GNU diff),
 * after trimming the common prefix and suffix of every piece: two runs
 * that differ in D places cost about (N + M) + D² steps, memory stays
 * O(N + M), and the result is always a longest common subsequence. No
 * heuristic shortcut is taken on this path: the result is the one the
 * full O(N·M) table would give in length, whatever the input.
 *
 * The exact search may explore at most max_work cells (a diagonal visited
 * or a pair of keys compared). It is not started on a large piece whose
 * key counts alone prove it could not fit (D is at least the sum over keys
 * of the difference of their counts). When the budget runs out, the
 * pieces not yet aligned fall back, in order:
 *   1. anchors: keys that occur exactly once in the piece on each side,
 *      the longest chain of them in order on both sides (patience diff);
 *      they are matched and the gaps between them get their own exact
 *      budget of SL_SEQUENCE_ALIGN_GAP_WORK_PER_OP cells per op. A gap
 *      that runs out looks for anchors of its own, a few levels deep.
 *   2. greedy: a piece without anchors is bisected as the exact method
 *      does, but a search that reaches SL_SEQUENCE_ALIGN_GREEDY_EDITS edits
 *      without meeting cuts at the furthest point it reached (GNU diff's
 *      "too expensive" heuristic), so it costs O((N + M)·that).
 * The fallback always finishes, in O((N + M)·(SL_SEQUENCE_ALIGN_GREEDY_EDITS
 * + the gap budget)) beyond max_work, and the result tells which method
 * produced it. Every result, exact or not, is a common subsequence: pairs
 * strictly increasing on both sides, with equal keys.
 *
 * It runs synchronously; callers put it on a worker. The same input and
 * budget give the same output.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Cells the exact search explores when the input asks for 0: a second
 * or two of work, about four times what two 1,000,000-op training runs
 * differing in 1% of their ops take (the cost grows with the square of
 * the differences). */
#define SL_SEQUENCE_ALIGN_DEFAULT_WORK    G_GUINT64_CONSTANT (500000000)
/* The exact budget of one gap between anchors, per op in it. */
#define SL_SEQUENCE_ALIGN_GAP_WORK_PER_OP 16
/* The greedy fallback's cut. */
#define SL_SEQUENCE_ALIGN_GREEDY_EDITS    64

typedef enum {
  /* A longest common subsequence. */
  SL_SEQUENCE_ALIGN_EXACT,
  /* The budget ran out: some pieces were split on keys unique in both,
   * every piece between them aligned exactly. */
  SL_SEQUENCE_ALIGN_ANCHORED,
  /* Some piece had to be cut by the greedy fallback as well. */
  SL_SEQUENCE_ALIGN_GREEDY,
} SlSequenceAlignMethod;

typedef struct {
  const guint32 *base;
  guint          n_base;
  const guint32 *comparison;
  guint          n_comparison;
  /* Cells the exact search may explore before falling back; 0 for
   * SL_SEQUENCE_ALIGN_DEFAULT_WORK, G_MAXUINT64 never to fall back. */
  guint64        max_work;
} SlSequenceAlignInput;

/* base[base_index] == comparison[comparison_index]. */
typedef struct {
  guint32 base;
  guint32 comparison;
} SlSequenceAlignPair;

/* A maximal stretch between two matched pairs (or an end): ops
 * base_start .. base_start + n_base - 1 only in the baseline and
 * comparison_start .. + n_comparison - 1 only in the comparison. One of
 * the two may be empty; both are non-empty where ops were replaced. */
typedef struct {
  guint32 base_start;
  guint32 n_base;
  guint32 comparison_start;
  guint32 n_comparison;
} SlSequenceAlignHunk;

typedef struct {
  SlSequenceAlignMethod  method;
  /* Increasing in both indices. */
  SlSequenceAlignPair   *pairs;
  gsize                  n_pairs;
  /* In order, between the pairs. */
  SlSequenceAlignHunk   *hunks;
  gsize                  n_hunks;
  guint64                matched;           /* n_pairs */
  guint64                only_base;         /* n_base - matched */
  guint64                only_comparison;   /* n_comparison - matched */
  guint64                distance;          /* insertions + deletions */
  /* Cells explored in all, and by the exact search alone. */
  guint64                work;
  guint64                exact_work;
} SlSequenceAlign;

typedef void (*SlSequenceAlignProgressFunc) (double   fraction,
                                             gpointer user_data);

/* Returns NULL with G_IO_ERROR_CANCELLED when cancelled. Progress goes
 * from 0 to 1 as the alignment is settled from the start to the end (a
 * long first search may hold it still for a while). */
SlSequenceAlign *sl_sequence_align_compute          (const SlSequenceAlignInput  *input,
                                                     GCancellable                *cancellable,
                                                     SlSequenceAlignProgressFunc  progress,
                                                     gpointer                     user_data,
                                                     GError                     **error);
void             sl_sequence_align_free             (SlSequenceAlign             *self);

/* "exact", "anchored" or "greedy". */
const char      *sl_sequence_align_method_to_string (SlSequenceAlignMethod        method);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSequenceAlign, sl_sequence_align_free)

G_END_DECLS
