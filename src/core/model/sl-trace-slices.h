/* sl-trace-slices.h: reading the slices of one track of a trace
 *
 * Slices of one track are sorted by start (then by longer first, so
 * parents precede children) and read one field at a time through the
 * accessors below, which are inline where drawing needs them: how the
 * columns are stored is the track's business.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Read through the accessors only; the fields are here so they inline. */
typedef struct {
  guint          n_slices;
  const gint64  *start_ns;
  const gint64  *dur_ns;
  const gint64  *self_ns;
  const guint32 *name_id;
  const guint32 *category_id;
  const guint32 *parent;
  const guint16 *depth;
  const guint8  *flags;
  const guint64 *args_offset;
  const guint32 *args_length;
} SlTraceSlices;

static inline gint64
sl_trace_slices_start_ns (const SlTraceSlices *s,
                          guint                i)
{
  return s->start_ns[i];
}

static inline gint64
sl_trace_slices_dur_ns (const SlTraceSlices *s,
                        guint                i)
{
  return s->dur_ns[i];
}

/* duration minus direct children */
static inline gint64
sl_trace_slices_self_ns (const SlTraceSlices *s,
                         guint                i)
{
  return s->self_ns[i];
}

static inline guint32
sl_trace_slices_name_id (const SlTraceSlices *s,
                         guint                i)
{
  return s->name_id[i];
}

static inline guint32
sl_trace_slices_category_id (const SlTraceSlices *s,
                             guint                i)
{
  return s->category_id[i];
}

/* index in this track or SL_TRACE_NO_PARENT */
static inline guint32
sl_trace_slices_parent (const SlTraceSlices *s,
                        guint                i)
{
  return s->parent[i];
}

/* 0 = top level; overflow lanes come after max nesting */
static inline guint16
sl_trace_slices_depth (const SlTraceSlices *s,
                       guint                i)
{
  return s->depth[i];
}

/* SlTraceSliceFlags */
static inline guint8
sl_trace_slices_flags (const SlTraceSlices *s,
                       guint                i)
{
  return s->flags[i];
}

/* byte offset of the event in the source file, or SL_TRACE_NO_ARGS */
static inline guint64
sl_trace_slices_args_offset (const SlTraceSlices *s,
                             guint                i)
{
  return s->args_offset[i];
}

/* bytes of the event's JSON text */
static inline guint32
sl_trace_slices_args_length (const SlTraceSlices *s,
                             guint                i)
{
  return s->args_length[i];
}

G_END_DECLS
