/* sl-layered-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl-layered-layout.h"

#define NONE G_MAXUINT
/* Rank tightening moves single nodes; a few passes reach a fixed point on
 * real graphs, the cap only bounds pathological ones. */
#define MAX_TIGHTEN_PASSES 16
/* Crossing reduction: as in dot, a bounded number of sweeps, stopping
 * early after a few that bring nothing. */
#define MAX_SWEEPS 24
#define MAX_STALE_SWEEPS 4
#define MAX_TRANSPOSE_ROUNDS 4
#define MAX_TRANSPOSE_PASSES 8
/* Data edges pull twice as hard on ranks as control edges. */
#define DATA_WEIGHT 2
#define CONTROL_WEIGHT 1

struct _SlLayeredLayout
{
  guint             n_nodes;
  guint             n_edges;
  double           *x;
  double           *y;
  guint            *rank;
  guint8           *reversed;
  guint            *point_start;
  guint            *n_points;
  GArray           *points;      /* SlLayeredPoint */
  GArray           *segments;    /* SlLayeredSegment */
  double            width;
  double            height;
  guint64           n_crossings;
  gint64            step_us[SL_LAYERED_N_STEPS];
};

/* An edge of the merged, acyclic graph: a is on a rank above b. */
typedef struct {
  guint a;
  guint b;
  guint weight;
} LayoutEdge;

/* How a layout edge crosses the ranks between its ends: directly (one
 * rank apart) or through the trunk of its source or of its target. */
typedef enum {
  ROUTE_DIRECT,
  ROUTE_SOURCE_TRUNK,
  ROUTE_TARGET_TRUNK,
} Route;

typedef struct {
  guint64 key;
  guint   index;
} KeyedIndex;

typedef struct {
  double key;
  guint  pos;
  guint  slot;
} KeyedSlot;

/* One whole run over all components. */
typedef struct {
  const SlLayeredInput  *input;
  GCancellable          *cancellable;
  SlLayeredProgressFunc  progress;
  gpointer               user_data;
  double                 last_progress;
  guint                  nodes_done;
  gint64                 crossing_budget_us;
  gint64                 crossing_spent_us;
  guint64                crossing_work_spent;
  double                 gap_box;
  double                 gap_virtual;
  double                 loop_size;
  guint                 *local;      /* input node → index in its component */
  guint8                *has_loop;
  SlLayeredLayout       *out;
} Run;

/* One connected component. Slots 0..n-1 are its boxes in input order,
 * the others virtual slots of long edges. */
typedef struct {
  guint         n;
  const guint  *nodes;          /* box → input node */
  guint         n_edges;
  const guint  *edges;          /* component edge → input edge */
  guint        *edge_ledge;
  guint8       *edge_reversed;
  GArray       *ledges;         /* LayoutEdge */
  guint8       *route;          /* per layout edge */

  guint        *src_first;      /* per box: first slot of its source trunk */
  guint        *src_end;        /* rank of the lowest target it feeds */
  guint        *tgt_first;
  guint        *tgt_begin;      /* rank of the highest source feeding it */
  guint8       *src_vertical;
  guint8       *tgt_vertical;

  guint         n_slots;
  GArray       *slot_rank;      /* guint */
  GArray       *inner_up;       /* guint: segment from the trunk slot above, or NONE */
  GArray       *inner_down;
  double       *left;           /* extents of each slot around its centre */
  double       *right;

  GArray       *seg_up;         /* guint: upper slot of each segment */
  GArray       *seg_down;
  guint        *up_start;
  guint        *up_seg;
  guint        *down_start;
  guint        *down_seg;

  guint         n_ranks;
  guint        *layer_start;
  guint        *layer;
  guint        *pos;
  double       *x;
  double       *rank_top;
  double       *rank_height;
  guint64       n_crossings;
} Component;

/* Buffers for crossing reduction, sized once per component. */
typedef struct {
  guint     *fill;
  guint     *seq;
  guint     *tree;
  guint     *nbr;
  guint     *local;
  guint     *up_off;
  guint     *down_off;
  guint     *end_off;
  guint8    *fixed;
  KeyedSlot *keyed;
  GArray    *positions;
} Scratch;

static inline const SlLayeredEdge *
input_edge (Run   *run,
            guint  index)
{
  return &run->input->edges[index];
}

static inline guint
slot_rank (Component *c,
           guint      slot)
{
  return g_array_index (c->slot_rank, guint, slot);
}

static inline guint
layer_len (Component *c,
           guint      r)
{
  return c->layer_start[r + 1] - c->layer_start[r];
}

static inline guint *
layer_slots (Component *c,
             guint      r)
{
  return c->layer + c->layer_start[r];
}

static inline guint
up_neighbour (Component *c,
              guint      seg)
{
  return g_array_index (c->seg_up, guint, seg);
}

static inline guint
down_neighbour (Component *c,
                guint      seg)
{
  return g_array_index (c->seg_down, guint, seg);
}

static int
compare_keyed_index (const void *p,
                     const void *q)
{
  const KeyedIndex *a = p, *b = q;

  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

static int
compare_keyed_slot (const void *p,
                    const void *q)
{
  const KeyedSlot *a = p, *b = q;

  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

static int
compare_guint (const void *p,
               const void *q)
{
  guint a = *(const guint *)p, b = *(const guint *)q;

  return (a > b) - (a < b);
}

static int
compare_guint64 (const void *p,
                 const void *q)
{
  guint64 a = *(const guint64 *)p, b = *(const guint64 *)q;

  return (a > b) - (a < b);
}

/* Compressed adjacency: items of key v are items[start[v]..start[v+1]),
 * in index order. */
static void
build_csr (guint         n,
           guint         m,
           const guint  *key,
           guint       **start_out,
           guint       **items_out)
{
  guint *start = g_new0 (guint, n + 1);
  guint *items = g_new (guint, MAX (m, 1));
  g_autofree guint *fill = g_new (guint, n + 1);

  for (guint i = 0; i < m; i++)
    start[key[i] + 1]++;
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  memcpy (fill, start, (n + 1) * sizeof (guint));
  for (guint i = 0; i < m; i++)
    items[fill[key[i]]++] = i;

  *start_out = start;
  *items_out = items;
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
report_component_progress (Run       *run,
                           Component *c,
                           double     part)
{
  guint total = MAX (run->input->n_nodes, 1);

  report_progress (run, (run->nodes_done + part * c->n) / total);
}

/* ------------------------------------------------------------------ */
/* Step 1: cycles                                                      */

/* Marks the back edges of a depth-first search, started from the sources
 * first so that the search follows the flow. Iterative: chains of ops
 * can be deeper than the stack. Pairs are sorted by source. */
static void
mark_back_pairs (guint         n,
                 const guint  *pair_source,
                 const guint  *pair_target,
                 guint         n_pairs,
                 guint8       *back)
{
  g_autofree guint *out_start = NULL, *out_pair = NULL;
  g_autofree guint *in_degree = g_new0 (guint, n);
  g_autofree guint *cursor = g_new (guint, n);
  g_autofree guint8 *state = g_new0 (guint8, n);   /* 0 new, 1 on stack, 2 done */
  g_autofree guint *stack = g_new (guint, n);

  build_csr (n, n_pairs, pair_source, &out_start, &out_pair);
  for (guint p = 0; p < n_pairs; p++)
    in_degree[pair_target[p]]++;

  for (guint pass = 0; pass < 2; pass++)
    for (guint start = 0; start < n; start++)
      {
        guint depth = 0;

        if (state[start] != 0 || (pass == 0 && in_degree[start] > 0))
          continue;
        state[start] = 1;
        cursor[start] = out_start[start];
        stack[depth++] = start;
        while (depth > 0)
          {
            guint u = stack[depth - 1];

            if (cursor[u] < out_start[u + 1])
              {
                guint p = out_pair[cursor[u]++];
                guint w = pair_target[p];

                if (state[w] == 1)
                  back[p] = TRUE;
                else if (state[w] == 0)
                  {
                    state[w] = 1;
                    cursor[w] = out_start[w];
                    stack[depth++] = w;
                  }
              }
            else
              {
                state[u] = 2;
                depth--;
              }
          }
      }
}

/* Merges parallel edges, reverses back edges, merges again (an edge and
 * a reversed edge the other way become one). */
static void
break_cycles (Run       *run,
              Component *c)
{
  guint m = c->n_edges;
  g_autofree KeyedIndex *sorted = g_new (KeyedIndex, MAX (m, 1));
  g_autofree guint *pair_of_edge = g_new (guint, MAX (m, 1));
  g_autofree guint *pair_source = g_new (guint, MAX (m, 1));
  g_autofree guint *pair_target = g_new (guint, MAX (m, 1));
  g_autofree guint *ledge_of_pair = g_new (guint, MAX (m, 1));
  g_autofree guint8 *back = g_new0 (guint8, MAX (m, 1));
  guint n_pairs = 0;

  for (guint i = 0; i < m; i++)
    {
      const SlLayeredEdge *e = input_edge (run, c->edges[i]);

      sorted[i].key = ((guint64)run->local[e->source] << 32) | run->local[e->target];
      sorted[i].index = i;
    }
  qsort (sorted, m, sizeof (KeyedIndex), compare_keyed_index);
  for (guint i = 0; i < m; i++)
    {
      if (i == 0 || sorted[i].key != sorted[i - 1].key)
        {
          pair_source[n_pairs] = (guint)(sorted[i].key >> 32);
          pair_target[n_pairs] = (guint)(sorted[i].key & 0xffffffffu);
          n_pairs++;
        }
      pair_of_edge[sorted[i].index] = n_pairs - 1;
    }

  mark_back_pairs (c->n, pair_source, pair_target, n_pairs, back);

  for (guint p = 0; p < n_pairs; p++)
    {
      guint a = back[p] ? pair_target[p] : pair_source[p];
      guint b = back[p] ? pair_source[p] : pair_target[p];

      sorted[p].key = ((guint64)a << 32) | b;
      sorted[p].index = p;
    }
  qsort (sorted, n_pairs, sizeof (KeyedIndex), compare_keyed_index);
  for (guint i = 0; i < n_pairs; i++)
    {
      if (i == 0 || sorted[i].key != sorted[i - 1].key)
        {
          LayoutEdge le = {
            .a = (guint)(sorted[i].key >> 32),
            .b = (guint)(sorted[i].key & 0xffffffffu),
            .weight = 0,
          };
          g_array_append_val (c->ledges, le);
        }
      ledge_of_pair[sorted[i].index] = c->ledges->len - 1;
    }

  for (guint i = 0; i < m; i++)
    {
      guint p = pair_of_edge[i];
      LayoutEdge *le = &g_array_index (c->ledges, LayoutEdge, ledge_of_pair[p]);

      c->edge_ledge[i] = ledge_of_pair[p];
      c->edge_reversed[i] = back[p];
      le->weight += input_edge (run, c->edges[i])->kind == SL_LAYERED_EDGE_CONTROL ?
                    CONTROL_WEIGHT : DATA_WEIGHT;
    }
}

/* ------------------------------------------------------------------ */
/* Step 2: ranks                                                       */

/* The total length of a node's edges changes by (in - out) per rank it
 * moves, so each node goes to the end of its free range that its heavier
 * side prefers. Sweeps in both topological directions until nothing moves:
 * a local optimum of network simplex's objective, without its tree moves. */
static void
tighten_ranks (guint              n,
               const LayoutEdge  *le,
               const guint       *topo,
               const guint       *out_start,
               const guint       *out_e,
               const guint       *in_start,
               const guint       *in_e,
               guint             *rank)
{
  g_autofree guint *w_in = g_new0 (guint, n);
  g_autofree guint *w_out = g_new0 (guint, n);

  for (guint v = 0; v < n; v++)
    {
      for (guint i = in_start[v]; i < in_start[v + 1]; i++)
        w_in[v] += le[in_e[i]].weight;
      for (guint i = out_start[v]; i < out_start[v + 1]; i++)
        w_out[v] += le[out_e[i]].weight;
    }

  for (guint pass = 0; pass < MAX_TIGHTEN_PASSES; pass++)
    {
      gboolean moved = FALSE;

      for (guint i = n; i-- > 0;)
        {
          guint v = topo[i], lowest = G_MAXUINT;

          if (w_out[v] <= w_in[v] || out_start[v] == out_start[v + 1])
            continue;
          for (guint j = out_start[v]; j < out_start[v + 1]; j++)
            lowest = MIN (lowest, rank[le[out_e[j]].b] - 1);
          if (lowest > rank[v])
            {
              rank[v] = lowest;
              moved = TRUE;
            }
        }
      for (guint i = 0; i < n; i++)
        {
          guint v = topo[i], highest = 0;

          if (w_in[v] <= w_out[v] || in_start[v] == in_start[v + 1])
            continue;
          for (guint j = in_start[v]; j < in_start[v + 1]; j++)
            highest = MAX (highest, rank[le[in_e[j]].a] + 1);
          if (highest < rank[v])
            {
              rank[v] = highest;
              moved = TRUE;
            }
        }
      if (!moved)
        break;
    }
}

static void
assign_ranks (Component *c,
              guint     *rank)
{
  guint n = c->n, m = c->ledges->len;
  const LayoutEdge *le = (const LayoutEdge *)(gpointer)c->ledges->data;
  g_autofree guint *src = g_new (guint, MAX (m, 1));
  g_autofree guint *dst = g_new (guint, MAX (m, 1));
  g_autofree guint *out_start = NULL, *out_e = NULL, *in_start = NULL, *in_e = NULL;
  g_autofree guint *topo = g_new (guint, n);
  g_autofree guint *missing = g_new (guint, n);
  guint head = 0, tail = 0, lowest = G_MAXUINT;

  for (guint e = 0; e < m; e++)
    {
      src[e] = le[e].a;
      dst[e] = le[e].b;
    }
  build_csr (n, m, src, &out_start, &out_e);
  build_csr (n, m, dst, &in_start, &in_e);

  /* Longest path from the sources, in Kahn's topological order. */
  for (guint v = 0; v < n; v++)
    {
      rank[v] = 0;
      missing[v] = in_start[v + 1] - in_start[v];
      if (missing[v] == 0)
        topo[tail++] = v;
    }
  while (head < tail)
    {
      guint v = topo[head++];

      for (guint i = out_start[v]; i < out_start[v + 1]; i++)
        {
          guint w = dst[out_e[i]];

          rank[w] = MAX (rank[w], rank[v] + 1);
          if (--missing[w] == 0)
            topo[tail++] = w;
        }
    }
  g_assert (tail == n);

  tighten_ranks (n, le, topo, out_start, out_e, in_start, in_e, rank);
  for (guint v = 0; v < n; v++)
    lowest = MIN (lowest, rank[v]);
  for (guint v = 0; v < n; v++)
    rank[v] -= lowest;
}

/* ------------------------------------------------------------------ */
/* Step 3: long edges                                                  */

static guint
add_slot (Component *c,
          guint      rank)
{
  guint none = NONE;

  g_array_append_val (c->slot_rank, rank);
  g_array_append_val (c->inner_up, none);
  g_array_append_val (c->inner_down, none);
  return c->n_slots++;
}

static guint
add_segment (Component *c,
             guint      upper,
             guint      lower)
{
  g_array_append_val (c->seg_up, upper);
  g_array_append_val (c->seg_down, lower);
  return c->seg_up->len - 1;
}

/* Links consecutive slots first..first+len-1 of a trunk: these inner
 * segments are the ones coordinates keep vertical. */
static void
link_trunk (Component *c,
            guint      first,
            guint      len)
{
  for (guint t = first; t + 1 < first + len; t++)
    {
      guint s = add_segment (c, t, t + 1);

      g_array_index (c->inner_down, guint, t) = s;
      g_array_index (c->inner_up, guint, t + 1) = s;
    }
}

/* Each long edge joins the trunk of its source or of its target, whichever
 * gathers more long edges: a node feeding every rank (an attention mask)
 * then costs one slot per rank instead of one per edge and rank. */
static void
choose_trunks (Component   *c,
               const guint *rank)
{
  const LayoutEdge *le = (const LayoutEdge *)(gpointer)c->ledges->data;
  guint m = c->ledges->len;
  g_autofree guint *long_out = g_new0 (guint, c->n);
  g_autofree guint *long_in = g_new0 (guint, c->n);

  for (guint e = 0; e < m; e++)
    if (rank[le[e].b] - rank[le[e].a] > 1)
      {
        long_out[le[e].a]++;
        long_in[le[e].b]++;
      }
  for (guint v = 0; v < c->n; v++)
    c->src_end[v] = c->tgt_begin[v] = c->src_first[v] = c->tgt_first[v] = NONE;
  for (guint e = 0; e < m; e++)
    {
      guint a = le[e].a, b = le[e].b;

      if (rank[b] - rank[a] <= 1)
        c->route[e] = ROUTE_DIRECT;
      else if (long_out[a] >= long_in[b])
        {
          c->route[e] = ROUTE_SOURCE_TRUNK;
          c->src_end[a] = c->src_end[a] == NONE ? rank[b] : MAX (c->src_end[a], rank[b]);
        }
      else
        {
          c->route[e] = ROUTE_TARGET_TRUNK;
          c->tgt_begin[b] = MIN (c->tgt_begin[b], rank[a]);
        }
    }
}

static void
build_layered_graph (Run         *run,
                     Component   *c,
                     const guint *rank)
{
  const LayoutEdge *le = (const LayoutEdge *)(gpointer)c->ledges->data;
  guint m = c->ledges->len, n_segs, max_rank = 0;
  g_autofree guint8 *src_linked = g_new0 (guint8, c->n);
  g_autofree guint8 *tgt_linked = g_new0 (guint8, c->n);

  choose_trunks (c, rank);
  for (guint v = 0; v < c->n; v++)
    add_slot (c, rank[v]);
  for (guint a = 0; a < c->n; a++)
    if (c->src_end[a] != NONE)
      {
        c->src_first[a] = c->n_slots;
        for (guint r = rank[a] + 1; r < c->src_end[a]; r++)
          add_slot (c, r);
      }
  for (guint b = 0; b < c->n; b++)
    if (c->tgt_begin[b] != NONE)
      {
        c->tgt_first[b] = c->n_slots;
        for (guint r = c->tgt_begin[b] + 1; r < rank[b]; r++)
          add_slot (c, r);
      }

  /* Segments in layout edge order (by source, then target), so the
   * first ordering follows the input. */
  for (guint e = 0; e < m; e++)
    {
      guint a = le[e].a, b = le[e].b;

      if (c->route[e] == ROUTE_DIRECT)
        add_segment (c, a, b);
      else if (c->route[e] == ROUTE_SOURCE_TRUNK)
        {
          if (!src_linked[a])
            {
              src_linked[a] = TRUE;
              add_segment (c, a, c->src_first[a]);
              link_trunk (c, c->src_first[a], c->src_end[a] - rank[a] - 1);
            }
          add_segment (c, c->src_first[a] + rank[b] - 2 - rank[a], b);
        }
      else
        {
          guint len = rank[b] - c->tgt_begin[b] - 1;

          if (!tgt_linked[b])
            {
              tgt_linked[b] = TRUE;
              link_trunk (c, c->tgt_first[b], len);
              add_segment (c, c->tgt_first[b] + len - 1, b);
            }
          add_segment (c, a, c->tgt_first[b] + rank[a] - c->tgt_begin[b]);
        }
    }

  n_segs = c->seg_up->len;
  build_csr (c->n_slots, n_segs, (const guint *)(gpointer)c->seg_down->data,
             &c->up_start, &c->up_seg);
  build_csr (c->n_slots, n_segs, (const guint *)(gpointer)c->seg_up->data,
             &c->down_start, &c->down_seg);

  c->left = g_new0 (double, c->n_slots);
  c->right = g_new0 (double, c->n_slots);
  for (guint v = 0; v < c->n; v++)
    {
      const SlLayeredSize *size = &run->input->nodes[c->nodes[v]];
      double half = isfinite (size->width) && size->width > 0 ? size->width / 2 : 0;

      c->left[v] = half;
      c->right[v] = half + (run->has_loop[c->nodes[v]] ? run->loop_size : 0);
    }
  for (guint s = 0; s < c->n_slots; s++)
    max_rank = MAX (max_rank, slot_rank (c, s));
  c->n_ranks = max_rank + 1;
}

/* ------------------------------------------------------------------ */
/* Step 4: crossings                                                   */

/* Breadth first from the slots with nothing above, in input order: each
 * slot is placed on its rank when first reached. */
static void
initial_order (Component *c)
{
  g_autofree guint *fill = g_new0 (guint, c->n_ranks + 1);
  g_autofree guint *queue = g_new (guint, c->n_slots);
  g_autofree guint8 *seen = g_new0 (guint8, c->n_slots);

  c->layer_start = g_new0 (guint, c->n_ranks + 1);
  c->layer = g_new (guint, c->n_slots);
  c->pos = g_new (guint, c->n_slots);
  for (guint s = 0; s < c->n_slots; s++)
    c->layer_start[slot_rank (c, s) + 1]++;
  for (guint r = 0; r < c->n_ranks; r++)
    c->layer_start[r + 1] += c->layer_start[r];
  memcpy (fill, c->layer_start, (c->n_ranks + 1) * sizeof (guint));

  for (guint seed = 0; seed < c->n_slots; seed++)
    {
      guint head = 0, tail = 0;

      if (seen[seed] || c->up_start[seed] != c->up_start[seed + 1])
        continue;
      seen[seed] = TRUE;
      queue[tail++] = seed;
      while (head < tail)
        {
          guint u = queue[head++], r = slot_rank (c, u);

          c->pos[u] = fill[r] - c->layer_start[r];
          c->layer[fill[r]++] = u;
          for (guint i = c->down_start[u]; i < c->down_start[u + 1]; i++)
            {
              guint w = down_neighbour (c, c->down_seg[i]);

              if (!seen[w])
                {
                  seen[w] = TRUE;
                  queue[tail++] = w;
                }
            }
        }
    }
}

static void
update_positions (Component *c)
{
  for (guint r = 0; r < c->n_ranks; r++)
    {
      guint *l = layer_slots (c, r);

      for (guint k = 0; k < layer_len (c, r); k++)
        c->pos[l[k]] = k;
    }
}

/* Segments between ranks r and r + 1 in order of their upper end, then of
 * their lower end; the crossings are the inversions of the lower ends,
 * counted with a Fenwick tree (the accumulator tree of Barth, Jünger and
 * Mutzel): O(E log V). */
static guint64
count_crossings_below (Component *c,
                       guint      r,
                       Scratch   *s)
{
  guint *upper = layer_slots (c, r), *lower = layer_slots (c, r + 1);
  guint nu = layer_len (c, r), nl = layer_len (c, r + 1), total;
  guint64 crossings = 0;

  s->fill[0] = 0;
  for (guint k = 0; k < nu; k++)
    s->fill[k + 1] = s->fill[k] + (c->down_start[upper[k] + 1] - c->down_start[upper[k]]);
  total = s->fill[nu];
  for (guint k = 0; k < nl; k++)
    for (guint i = c->up_start[lower[k]]; i < c->up_start[lower[k] + 1]; i++)
      s->seq[s->fill[c->pos[up_neighbour (c, c->up_seg[i])]]++] = k;

  memset (s->tree, 0, (nl + 1) * sizeof (guint));
  for (guint i = 0; i < total; i++)
    {
      guint not_greater = 0;

      for (guint j = s->seq[i] + 1; j > 0; j -= j & -j)
        not_greater += s->tree[j];
      crossings += i - not_greater;
      for (guint j = s->seq[i] + 1; j <= nl; j += j & -j)
        s->tree[j]++;
    }
  return crossings;
}

static guint64
count_crossings (Component *c,
                 Scratch   *s)
{
  guint64 crossings = 0;

  for (guint r = 0; r + 1 < c->n_ranks; r++)
    crossings += count_crossings_below (c, r, s);
  return crossings;
}

/* The weighted median of Gansner et al.: leans towards the side where the
 * neighbours are packed closer. */
static double
weighted_median (const guint *p,
                 guint        n)
{
  guint m = n / 2;
  double left, right;

  if (n % 2 == 1)
    return p[m];
  if (n == 2)
    return (p[0] + p[1]) / 2.0;
  left = (double)p[m - 1] - p[0];
  right = (double)p[n - 1] - p[m];
  if (left + right == 0)
    return (p[m - 1] + p[m]) / 2.0;
  return (p[m - 1] * right + p[m] * left) / (left + right);
}

/* Collects the positions of v's neighbours on the rank above (or below),
 * sorted. */
static guint
neighbour_positions (Component *c,
                     guint      v,
                     gboolean   above,
                     GArray    *positions)
{
  const guint *start = above ? c->up_start : c->down_start;
  const guint *segs = above ? c->up_seg : c->down_seg;

  g_array_set_size (positions, 0);
  for (guint i = start[v]; i < start[v + 1]; i++)
    {
      guint u = above ? up_neighbour (c, segs[i]) : down_neighbour (c, segs[i]);

      g_array_append_val (positions, c->pos[u]);
    }
  qsort (positions->data, positions->len, sizeof (guint), compare_guint);
  return positions->len;
}

/* Sorts rank r by the medians of its neighbours on the fixed rank; slots
 * without neighbours there keep their place. */
static void
sort_by_medians (Component *c,
                 guint      r,
                 gboolean   above,
                 Scratch   *s)
{
  guint *l = layer_slots (c, r), len = layer_len (c, r), n_movable = 0;

  for (guint k = 0; k < len; k++)
    {
      guint d = neighbour_positions (c, l[k], above, s->positions);

      s->fixed[k] = d == 0;
      if (d > 0)
        s->keyed[n_movable++] = (KeyedSlot) {
          .key = weighted_median ((const guint *)(gpointer)s->positions->data, d),
          .pos = k,
          .slot = l[k],
        };
    }
  qsort (s->keyed, n_movable, sizeof (KeyedSlot), compare_keyed_slot);
  for (guint k = 0, j = 0; k < len; k++)
    if (!s->fixed[k])
      {
        l[k] = s->keyed[j++].slot;
        c->pos[l[k]] = k;
      }
}

/* Crossings between the neighbours a of one slot and b of the slot to its
 * right (both sorted), with the two slots in this order and swapped. */
static void
count_pair_crossings (const guint *a,
                      guint        na,
                      const guint *b,
                      guint        nb,
                      guint64     *as_is,
                      guint64     *swapped)
{
  guint below = 0, not_above = 0;

  for (guint i = 0; i < na; i++)
    {
      while (below < nb && b[below] < a[i])
        below++;
      while (not_above < nb && b[not_above] <= a[i])
        not_above++;
      *as_is += below;
      *swapped += nb - not_above;
    }
}

static void
collect_sorted_neighbours (Component *c,
                           guint      r,
                           Scratch   *s)
{
  guint *l = layer_slots (c, r), fill = 0;

  for (guint k = 0; k < layer_len (c, r); k++)
    {
      guint v = l[k];

      s->local[v] = k;
      s->up_off[k] = fill;
      for (guint i = c->up_start[v]; i < c->up_start[v + 1]; i++)
        s->nbr[fill++] = c->pos[up_neighbour (c, c->up_seg[i])];
      qsort (s->nbr + s->up_off[k], fill - s->up_off[k], sizeof (guint), compare_guint);
      s->down_off[k] = fill;
      for (guint i = c->down_start[v]; i < c->down_start[v + 1]; i++)
        s->nbr[fill++] = c->pos[down_neighbour (c, c->down_seg[i])];
      qsort (s->nbr + s->down_off[k], fill - s->down_off[k], sizeof (guint), compare_guint);
      s->end_off[k] = fill;
    }
}

/* Swaps neighbours on rank r while that removes crossings with the ranks
 * above and below. */
static gboolean
transpose_layer (Component *c,
                 guint      r,
                 Scratch   *s)
{
  guint *l = layer_slots (c, r), len = layer_len (c, r);
  gboolean any = FALSE;

  if (len < 2)
    return FALSE;
  collect_sorted_neighbours (c, r, s);
  for (guint pass = 0; pass < MAX_TRANSPOSE_PASSES; pass++)
    {
      gboolean swapped = FALSE;

      for (guint k = 0; k + 1 < len; k++)
        {
          guint iu = s->local[l[k]], iv = s->local[l[k + 1]];
          guint64 as_is = 0, flipped = 0;

          count_pair_crossings (s->nbr + s->up_off[iu], s->down_off[iu] - s->up_off[iu],
                                s->nbr + s->up_off[iv], s->down_off[iv] - s->up_off[iv],
                                &as_is, &flipped);
          count_pair_crossings (s->nbr + s->down_off[iu], s->end_off[iu] - s->down_off[iu],
                                s->nbr + s->down_off[iv], s->end_off[iv] - s->down_off[iv],
                                &as_is, &flipped);
          if (flipped < as_is)
            {
              guint u = l[k];

              l[k] = l[k + 1];
              l[k + 1] = u;
              c->pos[l[k]] = k;
              c->pos[l[k + 1]] = k + 1;
              swapped = TRUE;
            }
        }
      any |= swapped;
      if (!swapped)
        break;
    }
  return any;
}

/* Trunks must not cross each other between two of their own slots, or
 * they could not all be vertical: on each rank the trunk slots that
 * continue a trunk from above take the order of their slots above, in the
 * places they already hold. */
static void
uncross_trunks (Component *c,
                Scratch   *s)
{
  for (guint r = 1; r < c->n_ranks; r++)
    {
      guint *l = layer_slots (c, r), n_inner = 0;

      for (guint k = 0; k < layer_len (c, r); k++)
        {
          guint seg = g_array_index (c->inner_up, guint, l[k]);

          if (seg != NONE)
            s->keyed[n_inner++] = (KeyedSlot) {
              .key = c->pos[up_neighbour (c, seg)],
              .pos = k,
              .slot = l[k],
            };
        }
      if (n_inner < 2)
        continue;
      /* The places they hold, in order, before sorting them. */
      for (guint j = 0; j < n_inner; j++)
        s->local[j] = s->keyed[j].pos;
      qsort (s->keyed, n_inner, sizeof (KeyedSlot), compare_keyed_slot);
      for (guint j = 0; j < n_inner; j++)
        {
          l[s->local[j]] = s->keyed[j].slot;
          c->pos[s->keyed[j].slot] = s->local[j];
        }
    }
}

static void
sweep (Component *c,
       gboolean   downward,
       Scratch   *s)
{
  if (downward)
    for (guint r = 1; r < c->n_ranks; r++)
      sort_by_medians (c, r, TRUE, s);
  else
    for (guint r = c->n_ranks - 1; r-- > 0;)
      sort_by_medians (c, r, FALSE, s);

  for (guint round = 0; round < MAX_TRANSPOSE_ROUNDS; round++)
    {
      gboolean any = FALSE;

      for (guint r = 0; r < c->n_ranks; r++)
        any |= transpose_layer (c, r, s);
      if (!any)
        break;
    }
}

static void
scratch_init (Scratch   *s,
              Component *c)
{
  guint n_segs = c->seg_up->len;

  s->fill = g_new (guint, c->n_slots + 1);
  s->seq = g_new (guint, MAX (n_segs, 1));
  s->tree = g_new (guint, c->n_slots + 1);
  s->nbr = g_new (guint, 2 * n_segs + 1);
  s->local = g_new (guint, c->n_slots);
  s->up_off = g_new (guint, c->n_slots);
  s->down_off = g_new (guint, c->n_slots);
  s->end_off = g_new (guint, c->n_slots);
  s->fixed = g_new (guint8, c->n_slots);
  s->keyed = g_new (KeyedSlot, c->n_slots);
  s->positions = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
scratch_clear (Scratch *s)
{
  g_free (s->fill);
  g_free (s->seq);
  g_free (s->tree);
  g_free (s->nbr);
  g_free (s->local);
  g_free (s->up_off);
  g_free (s->down_off);
  g_free (s->end_off);
  g_free (s->fixed);
  g_free (s->keyed);
  g_array_unref (s->positions);
}

/* Alternating median sweeps with transposition, keeping the ordering with
 * the fewest crossings, until the budget is spent, nothing improves for a
 * few sweeps or no crossing is left. FALSE when cancelled. */
static gboolean
reduce_crossings (Run       *run,
                  Component *c)
{
  Scratch s;
  g_autofree guint *best = NULL;
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + MAX (run->crossing_budget_us - run->crossing_spent_us, 0);
  guint64 best_crossings;
  guint stale = 0;
  gboolean cancelled = FALSE;

  scratch_init (&s, c);
  initial_order (c);
  uncross_trunks (c, &s);
  best_crossings = count_crossings (c, &s);
  best = g_memdup2 (c->layer, c->n_slots * sizeof (guint));

  for (guint iter = 0; iter < MAX_SWEEPS && best_crossings > 0; iter++)
    {
      guint64 crossings;

      if (run->input->crossing_work_budget > 0)
        {
          if (run->crossing_work_spent >= run->input->crossing_work_budget)
            break;
          run->crossing_work_spent += c->n_slots + c->seg_up->len;
        }
      else if (g_get_monotonic_time () >= deadline)
        break;
      if (g_cancellable_is_cancelled (run->cancellable))
        {
          cancelled = TRUE;
          break;
        }
      sweep (c, iter % 2 == 0, &s);
      uncross_trunks (c, &s);
      crossings = count_crossings (c, &s);
      if (crossings < best_crossings)
        {
          best_crossings = crossings;
          memcpy (best, c->layer, c->n_slots * sizeof (guint));
          stale = 0;
        }
      else if (++stale >= MAX_STALE_SWEEPS)
        break;
      report_component_progress (run, c, 0.2 + 0.6 * (iter + 1) / MAX_SWEEPS);
    }

  memcpy (c->layer, best, c->n_slots * sizeof (guint));
  update_positions (c);
  c->n_crossings = best_crossings;
  scratch_clear (&s);
  run->crossing_spent_us += g_get_monotonic_time () - start;
  return !cancelled;
}

/* ------------------------------------------------------------------ */
/* Step 5: coordinates (Brandes–Köpf)                                  */

/* Per slot, neighbours sorted by position, as the medians need them. */
static void
sort_adjacency_by_position (Component *c)
{
  guint n_segs = c->seg_up->len;
  g_autofree guint64 *keys = g_new (guint64, MAX (n_segs, 1));

  for (guint v = 0; v < c->n_slots; v++)
    {
      guint d = 0;

      for (guint i = c->up_start[v]; i < c->up_start[v + 1]; i++)
        keys[d++] = ((guint64)c->pos[up_neighbour (c, c->up_seg[i])] << 32) | c->up_seg[i];
      qsort (keys, d, sizeof (guint64), compare_guint64);
      for (guint i = 0; i < d; i++)
        c->up_seg[c->up_start[v] + i] = (guint)(keys[i] & 0xffffffffu);

      d = 0;
      for (guint i = c->down_start[v]; i < c->down_start[v + 1]; i++)
        keys[d++] = ((guint64)c->pos[down_neighbour (c, c->down_seg[i])] << 32) | c->down_seg[i];
      qsort (keys, d, sizeof (guint64), compare_guint64);
      for (guint i = 0; i < d; i++)
        c->down_seg[c->down_start[v] + i] = (guint)(keys[i] & 0xffffffffu);
    }
}

static void
mark_segment_list (Component   *c,
                   const guint *segs,
                   guint        n,
                   guint        keep,
                   guint8      *marked)
{
  for (guint i = 0; i < n; i++)
    if (segs[i] != keep)
      marked[segs[i]] = TRUE;
}

/* Type 1 conflicts: a segment that crosses a trunk, or leaves or enters a
 * trunk slot other than along the trunk, never aligns, so trunks stay
 * whole blocks in all four alignments. (Trunks do not cross each other:
 * uncross_trunks saw to that.) */
static void
mark_conflicts (Component *c,
                guint8    *marked)
{
  for (guint v = 0; v < c->n_slots; v++)
    {
      guint up = g_array_index (c->inner_up, guint, v);
      guint down = g_array_index (c->inner_down, guint, v);

      if (up != NONE)
        mark_segment_list (c, c->up_seg + c->up_start[v],
                           c->up_start[v + 1] - c->up_start[v], up, marked);
      if (down != NONE)
        mark_segment_list (c, c->down_seg + c->down_start[v],
                           c->down_start[v + 1] - c->down_start[v], down, marked);
    }

  for (guint r = 1; r < c->n_ranks; r++)
    {
      guint *lower = layer_slots (c, r), nl = layer_len (c, r);
      guint k0 = 0, l = 0;

      for (guint l1 = 0; l1 < nl; l1++)
        {
          guint inner = g_array_index (c->inner_up, guint, lower[l1]);
          guint k1;

          if (l1 != nl - 1 && inner == NONE)
            continue;
          k1 = inner != NONE ? c->pos[up_neighbour (c, inner)] : layer_len (c, r - 1) - 1;
          for (; l <= l1; l++)
            for (guint i = c->up_start[lower[l]]; i < c->up_start[lower[l] + 1]; i++)
              {
                guint seg = c->up_seg[i], k = c->pos[up_neighbour (c, seg)];

                if (k < k0 || k > k1)
                  marked[seg] = TRUE;
              }
          k0 = k1;
        }
    }
}

/* Vertical alignment: each slot joins the block of a median neighbour
 * on the previous rank (in the sweep direction) unless that segment is
 * marked or would cross an alignment already made. A trunk slot only
 * considers its trunk. */
static void
align_blocks (Component    *c,
              const guint8 *marked,
              gboolean      from_top,
              gboolean      from_left,
              guint        *root,
              guint        *align)
{
  for (guint v = 0; v < c->n_slots; v++)
    root[v] = align[v] = v;

  for (guint step = 1; step < c->n_ranks; step++)
    {
      guint r = from_top ? step : c->n_ranks - 1 - step;
      guint adj_len = layer_len (c, from_top ? r - 1 : r + 1);
      guint *l = layer_slots (c, r), len = layer_len (c, r);
      gint64 last = -1;

      for (guint i = 0; i < len; i++)
        {
          guint v = l[from_left ? i : len - 1 - i];
          guint inner = g_array_index (from_top ? c->inner_up : c->inner_down, guint, v);
          const guint *segs;
          guint d;

          if (inner != NONE)
            {
              segs = &g_array_index (from_top ? c->inner_up : c->inner_down, guint, v);
              d = 1;
            }
          else if (from_top)
            {
              segs = c->up_seg + c->up_start[v];
              d = c->up_start[v + 1] - c->up_start[v];
            }
          else
            {
              segs = c->down_seg + c->down_start[v];
              d = c->down_start[v + 1] - c->down_start[v];
            }
          if (d == 0)
            continue;

          for (guint j = (d - 1) / 2; j <= d / 2 && align[v] == v; j++)
            {
              guint seg = segs[from_left ? j : d - 1 - j];
              guint u = from_top ? up_neighbour (c, seg) : down_neighbour (c, seg);
              gint64 upos = from_left ? c->pos[u] : adj_len - 1 - c->pos[u];

              if (!marked[seg] && last < upos)
                {
                  align[u] = v;
                  root[v] = root[u];
                  align[v] = root[v];
                  last = upos;
                }
            }
        }
    }
}

typedef struct {
  guint  *indegree;
  guint  *order;
  guint   n_order;
  guint  *sink;
  double *x_rel;
  double *shift;
  GArray *class_from;    /* guint */
  GArray *class_to;      /* guint */
  GArray *class_delta;   /* double */
} Compaction;

static inline guint
left_of (Component *c,
         guint      v,
         gboolean   from_left)
{
  guint r = slot_rank (c, v), k = c->pos[v];

  if (from_left)
    return k > 0 ? layer_slots (c, r)[k - 1] : NONE;
  return k + 1 < layer_len (c, r) ? layer_slots (c, r)[k + 1] : NONE;
}

static inline guint
right_of (Component *c,
          guint      v,
          gboolean   from_left)
{
  return left_of (c, v, !from_left);
}

/* How far apart the centres of u and then v (in sweep order) must be. */
static inline double
separation (Run       *run,
            Component *c,
            guint      u,
            guint      v,
            gboolean   from_left)
{
  double gap = u < c->n && v < c->n ? run->gap_box : run->gap_virtual;

  return from_left ? c->right[u] + c->left[v] + gap : c->left[u] + c->right[v] + gap;
}

/* Blocks in an order where every block comes after the blocks to its
 * left on any of its ranks (the alignment never crosses, so there is
 * one). */
static void
order_blocks (Component    *c,
              gboolean      from_left,
              const guint  *root,
              const guint  *align,
              Compaction   *w)
{
  guint head = 0;

  w->n_order = 0;
  for (guint v = 0; v < c->n_slots; v++)
    w->indegree[v] = 0;
  for (guint v = 0; v < c->n_slots; v++)
    if (left_of (c, v, from_left) != NONE)
      w->indegree[root[v]]++;
  for (guint v = 0; v < c->n_slots; v++)
    if (root[v] == v && w->indegree[v] == 0)
      w->order[w->n_order++] = v;
  while (head < w->n_order)
    {
      guint b = w->order[head++], m = b;

      do
        {
          guint z = right_of (c, m, from_left);

          if (z != NONE && --w->indegree[root[z]] == 0)
            w->order[w->n_order++] = root[z];
          m = align[m];
        }
      while (m != b);
    }
  g_assert (w->n_order <= c->n_slots);
}

/* Places each block as close to the blocks on its left as the separation
 * allows, relative to its class (the blocks reached through the first
 * left neighbour of each block, as in Brandes and Köpf). With one_class,
 * every block is in the same class. */
static void
place_blocks (Run          *run,
              Component    *c,
              gboolean      from_left,
              gboolean      one_class,
              const guint  *root,
              const guint  *align,
              Compaction   *w)
{
  for (guint i = 0; i < w->n_order; i++)
    {
      guint b = w->order[i], m = b;
      gboolean first = TRUE;

      w->sink[b] = b;
      w->x_rel[b] = 0;
      do
        {
          guint u = left_of (c, m, from_left);

          if (u != NONE)
            {
              guint ub = root[u];

              if (first && !one_class)
                w->sink[b] = w->sink[ub];
              first = FALSE;
              if (one_class || w->sink[ub] == w->sink[b])
                w->x_rel[b] = MAX (w->x_rel[b], w->x_rel[ub] + separation (run, c, u, m, from_left));
            }
          m = align[m];
        }
      while (m != b);
    }
}

/* Shifts classes so that each sits as close as allowed to the classes on
 * its right: BK's class shifts, computed once every block is placed
 * (the order of the original paper can read unfinished positions). FALSE
 * if the classes constrain each other in a cycle. */
static gboolean
shift_classes (Run          *run,
               Component    *c,
               gboolean      from_left,
               const guint  *root,
               const guint  *align,
               Compaction   *w)
{
  guint n_edges, n_classes = 0, head = 0, tail = 0;
  g_autofree guint *start = NULL, *items = NULL;
  guint *queue = w->indegree;   /* reused: free after order_blocks */
  g_autofree guint *missing = g_new0 (guint, c->n_slots);

  g_array_set_size (w->class_from, 0);
  g_array_set_size (w->class_to, 0);
  g_array_set_size (w->class_delta, 0);
  for (guint i = 0; i < w->n_order; i++)
    {
      guint b = w->order[i], m = b;

      if (w->sink[b] == b)
        n_classes++;
      do
        {
          guint u = left_of (c, m, from_left);

          if (u != NONE && w->sink[root[u]] != w->sink[b])
            {
              double delta = w->x_rel[b] - w->x_rel[root[u]] - separation (run, c, u, m, from_left);

              g_array_append_val (w->class_from, w->sink[root[u]]);
              g_array_append_val (w->class_to, w->sink[b]);
              g_array_append_val (w->class_delta, delta);
            }
          m = align[m];
        }
      while (m != b);
    }

  n_edges = w->class_from->len;
  build_csr (c->n_slots, n_edges, (const guint *)(gpointer)w->class_from->data, &start, &items);
  for (guint e = 0; e < n_edges; e++)
    missing[g_array_index (w->class_to, guint, e)]++;
  for (guint i = 0; i < w->n_order; i++)
    {
      guint b = w->order[i];

      if (w->sink[b] == b && missing[b] == 0)
        queue[tail++] = b;
    }
  while (head < tail)
    {
      guint k = queue[head++];

      for (guint i = start[k]; i < start[k + 1]; i++)
        {
          guint to = g_array_index (w->class_to, guint, items[i]);

          if (--missing[to] == 0)
            queue[tail++] = to;
        }
    }
  if (tail < n_classes)
    return FALSE;

  for (guint i = tail; i-- > 0;)
    {
      guint k = queue[i];
      double shift = 0;
      gboolean constrained = FALSE;

      for (guint j = start[k]; j < start[k + 1]; j++)
        {
          guint e = items[j];
          double limit = w->shift[g_array_index (w->class_to, guint, e)] +
                         g_array_index (w->class_delta, double, e);

          shift = constrained ? MIN (shift, limit) : limit;
          constrained = TRUE;
        }
      w->shift[k] = shift;
    }
  return TRUE;
}

static void
compact_blocks (Run          *run,
                Component    *c,
                gboolean      from_left,
                const guint  *root,
                const guint  *align,
                Compaction   *w,
                double       *x)
{
  gboolean one_class = FALSE;

  order_blocks (c, from_left, root, align, w);
  place_blocks (run, c, from_left, FALSE, root, align, w);
  if (!shift_classes (run, c, from_left, root, align, w))
    {
      one_class = TRUE;
      order_blocks (c, from_left, root, align, w);
      place_blocks (run, c, from_left, TRUE, root, align, w);
    }
  for (guint v = 0; v < c->n_slots; v++)
    {
      guint b = root[v];
      double at = w->x_rel[b] + (one_class ? 0 : w->shift[w->sink[b]]);

      x[v] = from_left ? at : -at;
    }
}

static void
layout_extent (Component    *c,
               const double *x,
               double       *min_out,
               double       *max_out)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint v = 0; v < c->n_slots; v++)
    {
      lo = MIN (lo, x[v] - c->left[v]);
      hi = MAX (hi, x[v] + c->right[v]);
    }
  *min_out = lo;
  *max_out = hi;
}

/* The four alignments, lined up on the narrowest (left ones by their left
 * edge, right ones by their right edge), then the mean of the two median
 * candidates of each slot. Order statistics keep the separations, and a
 * trunk has one x in every alignment, so it keeps one x. */
static void
balance_alignments (Component *c,
                    double    *xs[4])
{
  double lo[4], hi[4];
  guint narrowest = 0;

  for (guint a = 0; a < 4; a++)
    {
      layout_extent (c, xs[a], &lo[a], &hi[a]);
      if (hi[a] - lo[a] < hi[narrowest] - lo[narrowest])
        narrowest = a;
    }
  for (guint a = 0; a < 4; a++)
    {
      gboolean from_left = a % 2 == 0;
      double shift = from_left ? lo[narrowest] - lo[a] : hi[narrowest] - hi[a];

      for (guint v = 0; v < c->n_slots; v++)
        xs[a][v] += shift;
    }
  for (guint v = 0; v < c->n_slots; v++)
    {
      double s[4] = { xs[0][v], xs[1][v], xs[2][v], xs[3][v] };

      for (guint i = 1; i < 4; i++)
        for (guint j = i; j > 0 && s[j - 1] > s[j]; j--)
          {
            double t = s[j];

            s[j] = s[j - 1];
            s[j - 1] = t;
          }
      c->x[v] = (s[1] + s[2]) / 2;
    }
}

static void
assign_coordinates (Run       *run,
                    Component *c)
{
  guint n_segs = c->seg_up->len;
  g_autofree guint8 *marked = g_new0 (guint8, MAX (n_segs, 1));
  g_autofree guint *root = g_new (guint, c->n_slots);
  g_autofree guint *align = g_new (guint, c->n_slots);
  g_autofree double *all = g_new (double, 4 * (gsize)c->n_slots);
  double *xs[4] = { all, all + c->n_slots, all + 2 * c->n_slots, all + 3 * c->n_slots };
  Compaction w = {
    .indegree = g_new (guint, c->n_slots),
    .order = g_new (guint, c->n_slots),
    .sink = g_new (guint, c->n_slots),
    .x_rel = g_new (double, c->n_slots),
    .shift = g_new0 (double, c->n_slots),
    .class_from = g_array_new (FALSE, FALSE, sizeof (guint)),
    .class_to = g_array_new (FALSE, FALSE, sizeof (guint)),
    .class_delta = g_array_new (FALSE, FALSE, sizeof (double)),
  };

  sort_adjacency_by_position (c);
  mark_conflicts (c, marked);
  c->x = g_new (double, c->n_slots);
  for (guint a = 0; a < 4; a++)
    {
      gboolean from_top = a < 2, from_left = a % 2 == 0;

      align_blocks (c, marked, from_top, from_left, root, align);
      compact_blocks (run, c, from_left, root, align, &w, xs[a]);
    }
  balance_alignments (c, xs);

  g_free (w.indegree);
  g_free (w.order);
  g_free (w.sink);
  g_free (w.x_rel);
  g_free (w.shift);
  g_array_unref (w.class_from);
  g_array_unref (w.class_to);
  g_array_unref (w.class_delta);
}

/* Each rank is as tall as its tallest box; boxes are centred on it. */
static void
assign_rank_geometry (Run       *run,
                      Component *c)
{
  c->rank_top = g_new0 (double, c->n_ranks);
  c->rank_height = g_new0 (double, c->n_ranks);
  for (guint v = 0; v < c->n; v++)
    {
      double h = run->input->nodes[c->nodes[v]].height;

      if (isfinite (h) && h > 0)
        c->rank_height[slot_rank (c, v)] = MAX (c->rank_height[slot_rank (c, v)], h);
    }
  for (guint r = 1; r < c->n_ranks; r++)
    c->rank_top[r] = c->rank_top[r - 1] + c->rank_height[r - 1] + run->input->rank_separation;
}

/* ------------------------------------------------------------------ */
/* Step 6: routes                                                      */

static gboolean
trunk_is_vertical (Component *c,
                   guint      first,
                   guint      len)
{
  for (guint t = first + 1; t < first + len; t++)
    if (c->x[t] != c->x[first])
      return FALSE;
  return TRUE;
}

static void
check_trunks (Component   *c,
              const guint *rank)
{
  for (guint v = 0; v < c->n; v++)
    {
      c->src_vertical[v] = c->src_end[v] == NONE ||
                           trunk_is_vertical (c, c->src_first[v], c->src_end[v] - rank[v] - 1);
      c->tgt_vertical[v] = c->tgt_begin[v] == NONE ||
                           trunk_is_vertical (c, c->tgt_first[v], rank[v] - c->tgt_begin[v] - 1);
    }
}

/* Skips a repeated point (a virtual slot on a rank of height 0), but never
 * merges with the previous edge's route, which starts at @from. */
static void
append_point (GArray *points,
              guint   from,
              double  x,
              double  y)
{
  SlLayeredPoint p = { x, y };

  if (points->len > from)
    {
      const SlLayeredPoint *last = &g_array_index (points, SlLayeredPoint, points->len - 1);

      if (last->x == x && last->y == y)
        return;
    }
  g_array_append_val (points, p);
}

static double
box_half_height (Run       *run,
                 Component *c,
                 guint      v)
{
  double h = run->input->nodes[c->nodes[v]].height;

  return isfinite (h) && h > 0 ? h / 2 : 0;
}

static double
slot_centre_y (Component *c,
               guint      v)
{
  guint r = slot_rank (c, v);

  return c->rank_top[r] + c->rank_height[r] / 2;
}

/* Bottom of the upper box, down the trunk (one vertical segment when the
 * trunk is vertical, as it is by construction), top of the lower box. */
static void
append_layout_route (Run       *run,
                     Component *c,
                     guint      e,
                     double     offset,
                     GArray    *points)
{
  const LayoutEdge *le = &g_array_index (c->ledges, LayoutEdge, e);
  guint a = le->a, b = le->b, ra = slot_rank (c, a), rb = slot_rank (c, b);
  guint from = points->len;

  append_point (points, from, c->x[a] + offset, slot_centre_y (c, a) + box_half_height (run, c, a));
  if (c->route[e] != ROUTE_DIRECT)
    {
      gboolean source = c->route[e] == ROUTE_SOURCE_TRUNK;
      guint first = source ? c->src_first[a] : c->tgt_first[b];
      guint base = source ? ra + 1 : c->tgt_begin[b] + 1;
      gboolean vertical = source ? c->src_vertical[a] : c->tgt_vertical[b];
      guint t0 = first + (ra + 1 - base), t1 = first + (rb - 1 - base);

      if (vertical)
        {
          append_point (points, from, c->x[t0] + offset, c->rank_top[ra + 1]);
          append_point (points, from, c->x[t1] + offset, c->rank_top[rb - 1] + c->rank_height[rb - 1]);
        }
      else
        for (guint t = t0; t <= t1; t++)
          {
            guint r = slot_rank (c, t);

            append_point (points, from, c->x[t] + offset, c->rank_top[r]);
            append_point (points, from, c->x[t] + offset, c->rank_top[r] + c->rank_height[r]);
          }
    }
  append_point (points, from, c->x[b] + offset, slot_centre_y (c, b) - box_half_height (run, c, b));
}

static void
reverse_points (GArray *points,
                guint   from)
{
  SlLayeredPoint *p = (SlLayeredPoint *)(gpointer)points->data;

  for (guint i = from, j = points->len - 1; i < j; i++, j--)
    {
      SlLayeredPoint t = p[i];

      p[i] = p[j];
      p[j] = t;
    }
}

static void
write_component (Run       *run,
                 Component *c,
                 double     offset)
{
  SlLayeredLayout *out = run->out;

  for (guint v = 0; v < c->n; v++)
    {
      guint node = c->nodes[v];

      out->x[node] = c->x[v] + offset;
      out->y[node] = slot_centre_y (c, v);
      out->rank[node] = slot_rank (c, v);
    }
  for (guint i = 0; i < c->n_edges; i++)
    {
      guint edge = c->edges[i];

      out->point_start[edge] = out->points->len;
      out->reversed[edge] = c->edge_reversed[i];
      append_layout_route (run, c, c->edge_ledge[i], offset, out->points);
      out->n_points[edge] = out->points->len - out->point_start[edge];
      if (c->edge_reversed[i])
        reverse_points (out->points, out->point_start[edge]);
    }
  for (guint s = 0; s < c->seg_up->len; s++)
    {
      guint u = up_neighbour (c, s), w = down_neighbour (c, s);
      SlLayeredSegment seg = {
        .rank = slot_rank (c, u),
        .upper_x = c->x[u] + offset,
        .lower_x = c->x[w] + offset,
      };

      g_array_append_val (out->segments, seg);
    }
}

/* ------------------------------------------------------------------ */
/* Components                                                          */

static void
component_init (Component   *c,
                const guint *nodes,
                guint        n,
                const guint *edges,
                guint        n_edges)
{
  memset (c, 0, sizeof (*c));
  c->n = n;
  c->nodes = nodes;
  c->n_edges = n_edges;
  c->edges = edges;
  c->edge_ledge = g_new (guint, MAX (n_edges, 1));
  c->edge_reversed = g_new0 (guint8, MAX (n_edges, 1));
  c->ledges = g_array_new (FALSE, FALSE, sizeof (LayoutEdge));
  c->src_first = g_new (guint, n);
  c->src_end = g_new (guint, n);
  c->tgt_first = g_new (guint, n);
  c->tgt_begin = g_new (guint, n);
  c->src_vertical = g_new (guint8, n);
  c->tgt_vertical = g_new (guint8, n);
  c->slot_rank = g_array_new (FALSE, FALSE, sizeof (guint));
  c->inner_up = g_array_new (FALSE, FALSE, sizeof (guint));
  c->inner_down = g_array_new (FALSE, FALSE, sizeof (guint));
  c->seg_up = g_array_new (FALSE, FALSE, sizeof (guint));
  c->seg_down = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
component_clear (Component *c)
{
  g_free (c->edge_ledge);
  g_free (c->edge_reversed);
  g_array_unref (c->ledges);
  g_free (c->route);
  g_free (c->src_first);
  g_free (c->src_end);
  g_free (c->tgt_first);
  g_free (c->tgt_begin);
  g_free (c->src_vertical);
  g_free (c->tgt_vertical);
  g_array_unref (c->slot_rank);
  g_array_unref (c->inner_up);
  g_array_unref (c->inner_down);
  g_free (c->left);
  g_free (c->right);
  g_array_unref (c->seg_up);
  g_array_unref (c->seg_down);
  g_free (c->up_start);
  g_free (c->up_seg);
  g_free (c->down_start);
  g_free (c->down_seg);
  g_free (c->layer_start);
  g_free (c->layer);
  g_free (c->pos);
  g_free (c->x);
  g_free (c->rank_top);
  g_free (c->rank_height);
}

static void
add_step_time (Run           *run,
               SlLayeredStep  step,
               gint64        *since)
{
  gint64 now = g_get_monotonic_time ();

  run->out->step_us[step] += now - *since;
  *since = now;
}

/* Lays out one component with its left edge at *cursor and moves the
 * cursor past it. FALSE when cancelled. */
static gboolean
layout_component (Run         *run,
                  const guint *nodes,
                  guint        n,
                  const guint *edges,
                  guint        n_edges,
                  double      *cursor)
{
  Component c;
  g_autofree guint *rank = g_new (guint, n);
  gint64 t = g_get_monotonic_time ();
  double lo, hi, height;
  gboolean done = FALSE;

  component_init (&c, nodes, n, edges, n_edges);
  break_cycles (run, &c);
  add_step_time (run, SL_LAYERED_STEP_CYCLES, &t);

  assign_ranks (&c, rank);
  add_step_time (run, SL_LAYERED_STEP_RANKING, &t);

  c.route = g_new (guint8, MAX (c.ledges->len, 1));
  build_layered_graph (run, &c, rank);
  add_step_time (run, SL_LAYERED_STEP_LONG_EDGES, &t);
  report_component_progress (run, &c, 0.2);

  if (!reduce_crossings (run, &c))
    goto out;
  add_step_time (run, SL_LAYERED_STEP_CROSSINGS, &t);

  assign_coordinates (run, &c);
  assign_rank_geometry (run, &c);
  add_step_time (run, SL_LAYERED_STEP_COORDINATES, &t);

  check_trunks (&c, rank);
  layout_extent (&c, c.x, &lo, &hi);
  write_component (run, &c, *cursor - lo);
  add_step_time (run, SL_LAYERED_STEP_ROUTES, &t);

  height = c.rank_top[c.n_ranks - 1] + c.rank_height[c.n_ranks - 1];
  run->out->width = MAX (run->out->width, *cursor + (hi - lo));
  run->out->height = MAX (run->out->height, height);
  run->out->n_crossings += c.n_crossings;
  *cursor += (hi - lo) + run->input->node_separation;
  run->nodes_done += n;
  report_progress (run, (double)run->nodes_done / MAX (run->input->n_nodes, 1));
  done = TRUE;

out:
  component_clear (&c);
  return done;
}

static guint
find_root (guint *parent,
           guint  v)
{
  while (parent[v] != v)
    {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
  return v;
}

/* Self-loops leave the right side of the box and come back a little
 * lower: the box was laid out with room for it. */
static void
route_self_loop (Run   *run,
                 guint  edge)
{
  SlLayeredLayout *out = run->out;
  guint v = input_edge (run, edge)->source;
  const SlLayeredSize *size = &run->input->nodes[v];
  double half_w = isfinite (size->width) && size->width > 0 ? size->width / 2 : 0;
  double quarter_h = isfinite (size->height) && size->height > 0 ? size->height / 4 : 0;
  double side = out->x[v] + half_w;
  SlLayeredPoint loop[] = {
    { side, out->y[v] - quarter_h },
    { side + run->loop_size, out->y[v] - quarter_h },
    { side + run->loop_size, out->y[v] + quarter_h },
    { side, out->y[v] + quarter_h },
  };

  out->point_start[edge] = out->points->len;
  out->n_points[edge] = G_N_ELEMENTS (loop);
  g_array_append_vals (out->points, loop, G_N_ELEMENTS (loop));
}

static SlLayeredLayout *
layout_new (guint n_nodes,
            guint n_edges)
{
  SlLayeredLayout *self = g_new0 (SlLayeredLayout, 1);

  self->n_nodes = n_nodes;
  self->n_edges = n_edges;
  self->x = g_new0 (double, MAX (n_nodes, 1));
  self->y = g_new0 (double, MAX (n_nodes, 1));
  self->rank = g_new0 (guint, MAX (n_nodes, 1));
  self->reversed = g_new0 (guint8, MAX (n_edges, 1));
  self->point_start = g_new0 (guint, MAX (n_edges, 1));
  self->n_points = g_new0 (guint, MAX (n_edges, 1));
  self->points = g_array_new (FALSE, FALSE, sizeof (SlLayeredPoint));
  self->segments = g_array_new (FALSE, FALSE, sizeof (SlLayeredSegment));
  return self;
}

static gboolean
check_edges (const SlLayeredInput  *input,
             GError               **error)
{
  for (guint i = 0; i < input->n_edges; i++)
    if (input->edges[i].source >= input->n_nodes || input->edges[i].target >= input->n_nodes)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     "Edge %u joins %u and %u, but there are %u nodes",
                     i, input->edges[i].source, input->edges[i].target, input->n_nodes);
        return FALSE;
      }
  return TRUE;
}

SlLayeredLayout *
sl_layered_layout_compute (const SlLayeredInput   *input,
                           GCancellable           *cancellable,
                           SlLayeredProgressFunc   progress,
                           gpointer                user_data,
                           GError                **error)
{
  g_autoptr(SlLayeredLayout) out = NULL;
  guint n, m;
  g_autofree guint *parent = NULL, *component = NULL, *root_component = NULL;
  g_autofree guint *node_start = NULL, *nodes = NULL, *edge_start = NULL, *edges = NULL;
  g_autofree guint *edge_component = NULL, *local = NULL;
  g_autofree guint8 *has_loop = NULL;
  guint n_components = 0, n_inner = 0;
  double cursor = 0;
  Run run;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (input->n_nodes == 0 || input->nodes != NULL, NULL);
  g_return_val_if_fail (input->n_edges == 0 || input->edges != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_edges (input, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  n = input->n_nodes;
  m = input->n_edges;
  out = layout_new (n, m);
  parent = g_new (guint, MAX (n, 1));
  component = g_new (guint, MAX (n, 1));
  root_component = g_new (guint, MAX (n, 1));
  local = g_new (guint, MAX (n, 1));
  has_loop = g_new0 (guint8, MAX (n, 1));
  edge_component = g_new (guint, MAX (m, 1));

  /* Components, numbered in the order of their first node. */
  for (guint v = 0; v < n; v++)
    parent[v] = v;
  for (guint i = 0; i < m; i++)
    {
      guint a = find_root (parent, input->edges[i].source);
      guint b = find_root (parent, input->edges[i].target);

      if (a != b)
        parent[MAX (a, b)] = MIN (a, b);
    }
  for (guint v = 0; v < n; v++)
    root_component[v] = NONE;
  for (guint v = 0; v < n; v++)
    {
      guint r = find_root (parent, v);

      if (root_component[r] == NONE)
        root_component[r] = n_components++;
      component[v] = root_component[r];
    }
  build_csr (n_components, n, component, &node_start, &nodes);
  for (guint c = 0; c < n_components; c++)
    for (guint i = node_start[c]; i < node_start[c + 1]; i++)
      local[nodes[i]] = i - node_start[c];

  /* Self-loops are set aside; the others go to their component. */
  for (guint i = 0; i < m; i++)
    {
      const SlLayeredEdge *e = &input->edges[i];

      if (e->source == e->target)
        {
          has_loop[e->source] = TRUE;
          edge_component[i] = n_components;
        }
      else
        {
          edge_component[i] = component[e->source];
          n_inner++;
        }
    }
  build_csr (n_components + 1, m, edge_component, &edge_start, &edges);

  run = (Run) {
    .input = input,
    .cancellable = cancellable,
    .progress = progress,
    .user_data = user_data,
    .crossing_budget_us = (gint64)(CLAMP (input->crossing_budget_ms, 0, 1e9) * 1000),
    .gap_box = MAX (input->node_separation, 0),
    .gap_virtual = MAX (input->node_separation, 0) / 2,
    .loop_size = MAX (MAX (input->node_separation, 0) / 2, 4.0),
    .local = local,
    .has_loop = has_loop,
    .out = out,
  };

  for (guint c = 0; c < n_components; c++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!layout_component (&run,
                             nodes + node_start[c], node_start[c + 1] - node_start[c],
                             edges + edge_start[c], edge_start[c + 1] - edge_start[c],
                             &cursor))
        {
          g_cancellable_set_error_if_cancelled (cancellable, error);
          return NULL;
        }
    }
  for (guint i = edge_start[n_components]; i < edge_start[n_components + 1]; i++)
    route_self_loop (&run, edges[i]);

  report_progress (&run, 1.0);
  return g_steal_pointer (&out);
}

void
sl_layered_layout_free (SlLayeredLayout *self)
{
  if (self == NULL)
    return;

  g_free (self->x);
  g_free (self->y);
  g_free (self->rank);
  g_free (self->reversed);
  g_free (self->point_start);
  g_free (self->n_points);
  g_array_unref (self->points);
  g_array_unref (self->segments);
  g_free (self);
}

guint
sl_layered_layout_get_n_nodes (SlLayeredLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_nodes;
}

guint
sl_layered_layout_get_n_edges (SlLayeredLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_edges;
}

void
sl_layered_layout_get_node_centre (SlLayeredLayout *self,
                                   guint            node,
                                   double          *x,
                                   double          *y)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (node < self->n_nodes);

  if (x != NULL)
    *x = self->x[node];
  if (y != NULL)
    *y = self->y[node];
}

guint
sl_layered_layout_get_node_rank (SlLayeredLayout *self,
                                 guint            node)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->rank[node];
}

gboolean
sl_layered_layout_edge_is_reversed (SlLayeredLayout *self,
                                    guint            edge)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (edge < self->n_edges, FALSE);

  return self->reversed[edge];
}

const SlLayeredPoint *
sl_layered_layout_get_edge_points (SlLayeredLayout *self,
                                   guint            edge,
                                   guint           *n_points)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (edge < self->n_edges, NULL);
  g_return_val_if_fail (n_points != NULL, NULL);

  *n_points = self->n_points[edge];
  return &g_array_index (self->points, SlLayeredPoint, self->point_start[edge]);
}

void
sl_layered_layout_get_size (SlLayeredLayout *self,
                            double          *width,
                            double          *height)
{
  g_return_if_fail (self != NULL);

  if (width != NULL)
    *width = self->width;
  if (height != NULL)
    *height = self->height;
}

guint64
sl_layered_layout_get_n_crossings (SlLayeredLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_crossings;
}

const SlLayeredSegment *
sl_layered_layout_get_segments (SlLayeredLayout *self,
                                guint           *n_segments)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_segments != NULL, NULL);

  *n_segments = self->segments->len;
  return (const SlLayeredSegment *)(gpointer)self->segments->data;
}

double
sl_layered_layout_get_step_ms (SlLayeredLayout *self,
                               SlLayeredStep    step)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (step < SL_LAYERED_N_STEPS, 0);

  return self->step_us[step] / 1000.0;
}
