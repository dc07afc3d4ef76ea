/* sl-trace-slices.c: the escape tables of packed slice columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-trace-slices.h"

static gboolean
escape_find (const SlTraceSlicesEscapes *escapes,
             guint                       index,
             guint64                    *value)
{
  guint lo = 0, hi = escapes->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (escapes->items[mid].index < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < escapes->n && escapes->items[lo].index == index)
    {
      *value = escapes->items[lo].value;
      return TRUE;
    }
  return FALSE;
}

guint64
sl_trace_slices_escape_lookup (const SlTraceSlicesEscapes *escapes,
                               guint                       index)
{
  guint64 value = 0;

  escape_find (escapes, index, &value);
  return value;
}

#define NONE G_MAXUINT32
#define B    SL_TRACE_SLICES_BLOCK
#define SHIFT SL_TRACE_SLICES_BLOCK_SHIFT

/* Escaped depths are all at least the escape mark, so only a deep bound
 * has to look them up. */
static inline gboolean
depth_at_most (const SlTraceSlices *s,
               guint                i,
               guint                depth)
{
  guint8 d = s->depth8[i];

  if (G_LIKELY (d != SL_TRACE_SLICES_DEPTH_ESCAPE))
    return d <= depth;
  return depth >= SL_TRACE_SLICES_DEPTH_ESCAPE && sl_trace_slices_depth (s, i) <= depth;
}

guint32
sl_trace_slices_find_depth_before (const SlTraceSlices *s,
                                   guint                i,
                                   guint                depth)
{
  const SlTraceSlicesDepthMins *m = &s->depth_mins;
  guint lo = i & ~(B - 1), idx, level = 0, k;

  /* the slices of i's block before it */
  for (k = MIN (i, s->n_slices); k > lo; k--)
    if (depth_at_most (s, k - 1, depth))
      return k - 1;

  /* up the levels until an earlier entry is low enough */
  idx = lo >> SHIFT;
  for (;;)
    {
      const guint16 *min;
      guint first;
      gboolean found = FALSE;

      if (level == m->n_levels)
        return NONE;
      min = m->min + m->first[level];
      first = level + 1 == m->n_levels ? 0 : idx & ~(B - 1);
      while (idx > first)
        if (min[--idx] <= depth)
          {
            found = TRUE;
            break;
          }
      if (found)
        break;
      idx >>= SHIFT;
      level++;
    }

  /* and down again through the last low enough entry of each level */
  while (level > 0)
    {
      const guint16 *min;

      level--;
      min = m->min + m->first[level];
      k = MIN ((idx << SHIFT) + B, m->n[level]);
      while (min[k - 1] > depth)
        k--;
      idx = k - 1;
    }
  k = MIN ((idx << SHIFT) + B, s->n_slices);
  while (!depth_at_most (s, k - 1, depth))
    k--;
  return k - 1;
}

guint32
sl_trace_slices_find_depth_from (const SlTraceSlices *s,
                                 guint                i,
                                 guint                depth)
{
  const SlTraceSlicesDepthMins *m = &s->depth_mins;
  guint hi, idx, level = 0, k;

  if (i >= s->n_slices)
    return NONE;

  /* the slices of i's block from it on */
  hi = MIN ((i | (B - 1)) + 1, s->n_slices);
  for (k = i; k < hi; k++)
    if (depth_at_most (s, k, depth))
      return k;
  if (hi == s->n_slices)
    return NONE;

  /* up the levels until a later entry is low enough */
  idx = hi >> SHIFT;
  for (;;)
    {
      const guint16 *min;
      guint end;
      gboolean found = FALSE;

      if (level == m->n_levels)
        return NONE;
      min = m->min + m->first[level];
      end = level + 1 == m->n_levels ? m->n[level] : MIN ((idx | (B - 1)) + 1, m->n[level]);
      for (; idx < end; idx++)
        if (min[idx] <= depth)
          {
            found = TRUE;
            break;
          }
      if (found)
        break;
      if (end == m->n[level])
        return NONE;
      idx = end >> SHIFT;
      level++;
    }

  /* and down again through the first low enough entry of each level */
  while (level > 0)
    {
      const guint16 *min;

      level--;
      min = m->min + m->first[level];
      k = idx << SHIFT;
      while (min[k] > depth)
        k++;
      idx = k;
    }
  k = idx << SHIFT;
  while (!depth_at_most (s, k, depth))
    k++;
  return k;
}

/* The children of a slice nested d deep are the slices d + 1 deep between
 * it and the next slice at most d deep: nesting pushes every one of them
 * on it. Deeper than depths tell apart, they are those that name it as
 * parent, all starting before it ends. */
guint32
sl_trace_slices_next_child (const SlTraceSlices *s,
                            guint                parent,
                            guint                after)
{
  guint depth = sl_trace_slices_depth (s, parent);
  guint32 k;

  if (depth >= s->nested_depths)
    return NONE;                    /* an overflow slice */
  if (depth + 1 >= SL_TRACE_SLICES_DEEP)
    {
      gint64 end = sl_trace_slices_start_ns (s, parent) + sl_trace_slices_dur_ns (s, parent);

      for (k = after + 1; k < s->n_slices && sl_trace_slices_start_ns (s, k) <= end; k++)
        if (sl_trace_slices_parent (s, k) == parent)
          return k;
      return NONE;
    }
  if (depth + 1 >= s->nested_depths)
    return NONE;                    /* none nests deeper */
  k = sl_trace_slices_find_depth_from (s, after + 1, depth + 1);
  if (k != NONE && sl_trace_slices_depth (s, k) == depth + 1)
    return k;
  return NONE;
}

/* Siblings do not overlap and stay inside their parent, so their sum is
 * never more than the duration. A slice with many slices inside it (or
 * nested very deep) has its self time kept; the others have their
 * children summed from the slices after them, read in turn. */
gint64
sl_trace_slices_self_from_children (const SlTraceSlices *s,
                                    guint                i)
{
  gint64 dur = sl_trace_slices_dur_ns (s, i);
  guint depth = sl_trace_slices_depth (s, i);
  gint64 children = 0;
  guint64 kept;
  guint32 k = i + 1;

  if (depth >= s->nested_depths)
    return dur;                     /* an overflow slice */
  if (escape_find (&s->self_escapes, i, &kept))
    return (gint64) kept;
  if (depth + 1 >= s->nested_depths)
    return dur;                     /* none nests deeper */

  if (depth + 1 < SL_TRACE_SLICES_DEPTH_ESCAPE)
    {
      /* escaped depths are deeper than a child */
      for (; k < s->n_slices; k++)
        {
          guint8 d = s->depth8[k];

          if (d <= depth)
            break;
          if (d == depth + 1)
            children += sl_trace_slices_dur_ns (s, k);
        }
      return MAX (dur - children, 0);
    }
  for (; (k = sl_trace_slices_find_depth_from (s, k, depth + 1)) != NONE &&
         sl_trace_slices_depth (s, k) == depth + 1; k++)
    children += sl_trace_slices_dur_ns (s, k);
  return MAX (dur - children, 0);
}

guint32
sl_trace_slices_parent_before (const SlTraceSlices *s,
                               guint                i)
{
  guint depth = sl_trace_slices_depth (s, i);

  if (depth == 0 || depth >= s->nested_depths)
    return NONE;                    /* top level or an overflow slice */
  if (depth >= SL_TRACE_SLICES_DEEP)
    return (guint32) sl_trace_slices_escape_lookup (&s->parent_escapes, i);
  return sl_trace_slices_find_depth_before (s, i, depth - 1);
}
