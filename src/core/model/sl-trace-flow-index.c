/* sl-trace-flow-index.c: where the flows of a trace are, by slice and by time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "sl-trace-flow-index.h"

/* Subtrees this small are read in full rather than walked. */
#define SMALL_SUBTREE_LEVEL 3

struct _SlTraceFlowIndex
{
  /* by slice */
  guint     n_tracks;
  guint    *n_slices;     /* per track */
  guint64  *keys;         /* (track << 32) | slice of each slice with flow ends, increasing */
  guint32  *key_first;    /* n_keys + 1 offsets into by_slice */
  gsize     n_keys;
  guint32  *by_slice;     /* flow indices grouped by track and slice, each group in flow order */
  gsize     n_by_slice;

  /* by time, all n_flows long and in order of the earlier end */
  guint     n_flows;
  guint32  *by_time;      /* flow indices */
  gint64   *lo_ns;        /* earlier end */
  gint64   *hi_ns;        /* later end */
  gint64   *max_hi_ns;    /* latest later end in the subtree under each node */
  int       root_level;
};

typedef struct {
  gint64  lo_ns;
  guint32 flow;
} TimeKey;

/* The slices a flow ends at, each once: a flow from a slice to itself is
 * listed for it once. Unbound ends (no enclosing slice) are not listed. */
static guint
flow_ends (SlTraceFlowIndex  *self,
           const SlTraceFlow *flow,
           guint              tracks[2],
           guint32            slices[2])
{
  guint n = 0;

  if (flow->from_track < self->n_tracks && flow->from_slice < self->n_slices[flow->from_track])
    {
      tracks[n] = flow->from_track;
      slices[n++] = flow->from_slice;
    }
  if (flow->to_track < self->n_tracks && flow->to_slice < self->n_slices[flow->to_track]
      && !(n > 0 && flow->to_track == tracks[0] && flow->to_slice == slices[0]))
    {
      tracks[n] = flow->to_track;
      slices[n++] = flow->to_slice;
    }
  return n;
}

typedef struct {
  guint64 key;
  guint32 flow;
} FlowEnd;

static int
compare_flow_ends (const void *a,
                   const void *b)
{
  const FlowEnd *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->flow < y->flow ? -1 : (x->flow > y->flow);
}

/* Only the slices with flow ends are keyed (few, against every slice of
 * a track): the ends sorted by slice then flow give each slice's range. */
static void
index_by_slice (SlTraceFlowIndex  *self,
                const SlTraceFlow *flows,
                guint              n_flows)
{
  g_autofree FlowEnd *ends = g_new (FlowEnd, MAX ((gsize) n_flows * 2, 1));
  guint tracks[2];
  guint32 slices[2];
  gsize n_ends = 0;

  for (guint f = 0; f < n_flows; f++)
    for (guint e = 0, n = flow_ends (self, &flows[f], tracks, slices); e < n; e++)
      ends[n_ends++] = (FlowEnd) { ((guint64) tracks[e] << 32) | slices[e], f };
  qsort (ends, n_ends, sizeof (FlowEnd), compare_flow_ends);

  self->n_by_slice = n_ends;
  self->by_slice = g_new (guint32, MAX (n_ends, 1));
  for (gsize k = 0; k < n_ends; k++)
    {
      self->by_slice[k] = ends[k].flow;
      self->n_keys += k == 0 || ends[k].key != ends[k - 1].key;
    }
  self->keys = g_new (guint64, MAX (self->n_keys, 1));
  self->key_first = g_new (guint32, self->n_keys + 1);
  for (gsize k = 0, key = 0; k < n_ends; k++)
    if (k == 0 || ends[k].key != ends[k - 1].key)
      {
        self->keys[key] = ends[k].key;
        self->key_first[key++] = k;
      }
  self->key_first[self->n_keys] = n_ends;
}

static int
compare_time_keys (const void *a,
                   const void *b)
{
  const TimeKey *ka = a, *kb = b;

  if (ka->lo_ns != kb->lo_ns)
    return ka->lo_ns < kb->lo_ns ? -1 : 1;
  return ka->flow < kb->flow ? -1 : (ka->flow > kb->flow);
}

/* The implicit tree over the sorted array: a node's level is the number
 * of trailing 1 bits of its index, leaves are the even indices, and the
 * children of node i at level k are i ∓ 2^(k-1). Nodes past the end are
 * missing; "last" carries the max of the rightmost present subtree up to
 * stand for them (as in Heng Li's cgranges). Returns the root's level. */
static int
build_max_tree (SlTraceFlowIndex *self)
{
  gsize n = self->n_flows, last_i = 0;
  gint64 last = 0;
  int k;

  for (gsize i = 0; i < n; i += 2)
    {
      last_i = i;
      last = self->max_hi_ns[i] = self->hi_ns[i];
    }
  for (k = 1; ((gsize) 1 << k) <= n; k++)
    {
      gsize x = (gsize) 1 << (k - 1), first = (x << 1) - 1, step = x << 2;

      for (gsize i = first; i < n; i += step)
        {
          gint64 left = self->max_hi_ns[i - x];
          gint64 right = i + x < n ? self->max_hi_ns[i + x] : last;

          self->max_hi_ns[i] = MAX (self->hi_ns[i], MAX (left, right));
        }
      last_i = (last_i >> k) & 1 ? last_i - x : last_i + x;
      if (last_i < n && self->max_hi_ns[last_i] > last)
        last = self->max_hi_ns[last_i];
    }
  return k - 1;
}

static void
index_by_time (SlTraceFlowIndex  *self,
               const SlTraceFlow *flows,
               guint              n_flows)
{
  g_autofree TimeKey *keys = g_new (TimeKey, MAX (n_flows, 1));

  for (guint f = 0; f < n_flows; f++)
    keys[f] = (TimeKey) { MIN (flows[f].from_ns, flows[f].to_ns), f };
  qsort (keys, n_flows, sizeof (TimeKey), compare_time_keys);

  self->by_time = g_new (guint32, MAX (n_flows, 1));
  self->lo_ns = g_new (gint64, MAX (n_flows, 1));
  self->hi_ns = g_new (gint64, MAX (n_flows, 1));
  self->max_hi_ns = g_new (gint64, MAX (n_flows, 1));
  for (guint i = 0; i < n_flows; i++)
    {
      const SlTraceFlow *flow = &flows[keys[i].flow];

      self->by_time[i] = keys[i].flow;
      self->lo_ns[i] = keys[i].lo_ns;
      self->hi_ns[i] = MAX (flow->from_ns, flow->to_ns);
    }
  self->root_level = n_flows > 0 ? build_max_tree (self) : -1;
}

SlTraceFlowIndex *
sl_trace_flow_index_new (const SlTraceFlow *flows,
                         guint              n_flows,
                         GPtrArray         *tracks)
{
  SlTraceFlowIndex *self;

  g_return_val_if_fail (flows != NULL || n_flows == 0, NULL);
  g_return_val_if_fail (tracks != NULL, NULL);

  self = g_new0 (SlTraceFlowIndex, 1);
  self->n_tracks = tracks->len;
  self->n_slices = g_new0 (guint, MAX (tracks->len, 1));
  for (guint t = 0; t < tracks->len; t++)
    self->n_slices[t] = ((SlTraceTrack *) g_ptr_array_index (tracks, t))->n;
  self->n_flows = n_flows;

  /* most traces have no flows: nothing to look up, nothing allocated */
  self->root_level = -1;
  if (n_flows == 0)
    return self;
  index_by_slice (self, flows, n_flows);
  index_by_time (self, flows, n_flows);
  return self;
}

void
sl_trace_flow_index_free (SlTraceFlowIndex *self)
{
  if (self == NULL)
    return;

  g_free (self->keys);
  g_free (self->key_first);
  g_free (self->n_slices);
  g_free (self->by_slice);
  g_free (self->by_time);
  g_free (self->lo_ns);
  g_free (self->hi_ns);
  g_free (self->max_hi_ns);
  g_free (self);
}

const guint32 *
sl_trace_flow_index_get_slice_flows (SlTraceFlowIndex *self,
                                     guint             track,
                                     guint32           slice,
                                     guint            *n_flows)
{
  guint64 key = ((guint64) track << 32) | slice;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_flows != NULL, NULL);

  *n_flows = 0;
  if (track >= self->n_tracks || slice >= self->n_slices[track])
    return NULL;

  hi = self->n_keys;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->keys[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == self->n_keys || self->keys[lo] != key)
    return NULL;
  *n_flows = self->key_first[lo + 1] - self->key_first[lo];
  return self->by_slice + self->key_first[lo];
}

typedef struct {
  int      level;
  gsize    node;
  gboolean left_done;
} Visit;

/* Top-down over the tree, left before right, so what is found comes in
 * order of the earlier end; a subtree is skipped when nothing under it
 * ends late enough, and the walk stops at the first node starting after
 * the window. */
guint
sl_trace_flow_index_find_in_range (SlTraceFlowIndex *self,
                                   gint64            from_ns,
                                   gint64            to_ns,
                                   guint32          *flows,
                                   guint             max_flows)
{
  Visit stack[2 * 64];
  gsize n = 0, n_nodes;
  guint depth = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (flows != NULL || max_flows == 0, 0);

  n_nodes = self->n_flows;
  if (n_nodes == 0 || max_flows == 0 || from_ns > to_ns)
    return 0;

  stack[depth++] = (Visit) { self->root_level, ((gsize) 1 << self->root_level) - 1, FALSE };
  while (depth > 0)
    {
      Visit v = stack[--depth];

      if (v.level <= SMALL_SUBTREE_LEVEL)
        {
          gsize i = v.node >> v.level << v.level;
          gsize end = MIN (i + ((gsize) 1 << (v.level + 1)) - 1, n_nodes);

          for (; i < end && self->lo_ns[i] <= to_ns; i++)
            if (self->hi_ns[i] >= from_ns)
              {
                flows[n++] = self->by_time[i];
                if (n == max_flows)
                  return n;
              }
        }
      else if (!v.left_done)
        {
          gsize left = v.node - ((gsize) 1 << (v.level - 1));

          stack[depth++] = (Visit) { v.level, v.node, TRUE };
          /* A left child past the end still has present nodes under it. */
          if (left >= n_nodes || self->max_hi_ns[left] >= from_ns)
            stack[depth++] = (Visit) { v.level - 1, left, FALSE };
        }
      else if (v.node < n_nodes && self->lo_ns[v.node] <= to_ns)
        {
          if (self->hi_ns[v.node] >= from_ns)
            {
              flows[n++] = self->by_time[v.node];
              if (n == max_flows)
                return n;
            }
          stack[depth++] = (Visit) { v.level - 1, v.node + ((gsize) 1 << (v.level - 1)), FALSE };
        }
    }
  return n;
}

gsize
sl_trace_flow_index_get_memory_size (SlTraceFlowIndex *self)
{
  gsize size;

  g_return_val_if_fail (self != NULL, 0);

  size = sizeof *self + self->n_tracks * sizeof (guint) + self->n_by_slice * 4;
  size += self->n_keys * (8 + 4) + 4;
  size += self->n_flows * (4 + 8 + 8 + 8);
  return size;
}
