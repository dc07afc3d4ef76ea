/* sl-trace-slices.h: reading the slices of one track of a trace
 *
 * Slices of one track are sorted by start (then by longer first, so
 * parents precede children) and read one field at a time through the
 * accessors below, inline because drawing reads them per slice.
 *
 * The columns are packed, about 21 bytes a slice instead of 51: a start
 * is a 32-bit offset from a 64-bit base shared by a block of
 * SL_TRACE_SLICES_BLOCK slices (4 bytes); a duration is 32-bit, up to
 * 4.29 s (4); a name id 4; a category is a byte naming one of the track's
 * first 255 categories (1); a depth is a byte (1); flags 1; an args offset
 * is a 32-bit difference from the byte offset of its block's first slice
 * (4), with the source shared by the track; an args length is 16-bit (2). A value that does not fit is stored whole in
 * the column's escape table, sorted by slice, and its packed cell holds
 * the column's escape mark, so every value reads back exactly.
 *
 * Parents and self times are not stored but found from the depths, which
 * nesting gives (an overflow slice has neither parent nor children, its
 * lane coming after every nesting depth): a slice's parent is the nearest slice before it with a
 * smaller depth, and its children are the slices one deeper between it and
 * the next slice no deeper than it. The smallest depth of every block (and
 * of every block of those, and so on) makes both a few steps for slices
 * far apart, at 2 bytes a block. A slice with more than
 * SL_TRACE_SLICES_SELF_READ slices inside it keeps its self time in an
 * escape table (a few a thousand slices), so that none is found by reading
 * more; so does nesting deeper than the depths tell apart
 * (SL_TRACE_SLICES_DEEP), which keeps its parents there too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_TRACE_SLICES_BLOCK_SHIFT 7
#define SL_TRACE_SLICES_BLOCK       (1u << SL_TRACE_SLICES_BLOCK_SHIFT)

/* escape marks of the packed cells */
#define SL_TRACE_SLICES_START_ESCAPE     G_MININT32
#define SL_TRACE_SLICES_U32_ESCAPE       G_MAXUINT32
#define SL_TRACE_SLICES_U16_ESCAPE       G_MAXUINT16
#define SL_TRACE_SLICES_CATEGORY_ESCAPE  G_MAXUINT8
#define SL_TRACE_SLICES_DEPTH_ESCAPE     G_MAXUINT8
#define SL_TRACE_SLICES_MAX_CATEGORIES   255
#define SL_TRACE_SLICES_ARGS_ESCAPE      G_MININT32
#define SL_TRACE_SLICES_ARGS_NONE        (G_MININT32 + 1)

/* Nesting deeper than this is stored as this depth, so from here on the
 * depths no longer tell parents from children. */
#define SL_TRACE_SLICES_DEEP             (G_MAXUINT16 - 1)

/* A slice whose next slice no deeper comes more than this many slices
 * after it keeps its self time, so that none is found by reading more. */
#define SL_TRACE_SLICES_SELF_READ        256

typedef struct {
  guint32 index;
  guint32 reserved;
  guint64 value;
} SlTraceSlicesEscape;

typedef struct {
  const SlTraceSlicesEscape *items;  /* sorted by index */
  guint                      n;
} SlTraceSlicesEscapes;

/* the smallest depth of each run of SL_TRACE_SLICES_BLOCK slices, then of
 * each run of those, and so on up to a level of at most a block */
#define SL_TRACE_SLICES_MAX_LEVELS 5

typedef struct {
  const guint16 *min;                               /* the levels, one after the other */
  guint          n_levels;
  guint          first[SL_TRACE_SLICES_MAX_LEVELS]; /* a level's first entry in min */
  guint          n[SL_TRACE_SLICES_MAX_LEVELS];     /* its number of entries */
} SlTraceSlicesDepthMins;

/* Read through the accessors only; the fields are here so they inline,
 * and none is named as a field that was an array of whole values. */
typedef struct {
  guint                  n_slices;
  guint                  nested_depths;  /* nesting levels; overflow lanes start here */
  const gint64          *start_base;     /* one per block */
  const gint32          *start_offset;   /* start - base of its block */
  const guint32         *dur;
  const guint32         *name_ids;
  const guint8          *category_code;  /* index in category_palette */
  const guint32         *category_palette;
  const guint8          *depth8;
  const guint8          *flag_bits;
  const gint64          *args_base;      /* one per block: its first slice's byte offset */
  const gint32          *args_delta;     /* byte offset - base of its block */
  guint64                args_source;    /* bits 48-63, the same for the track */
  const guint16         *args_length16;
  SlTraceSlicesDepthMins depth_mins;
  SlTraceSlicesEscapes   start_escapes;
  SlTraceSlicesEscapes   dur_escapes;
  SlTraceSlicesEscapes   self_escapes;   /* of slices with many after them inside, or nested very deep */
  SlTraceSlicesEscapes   parent_escapes; /* slices nested SL_TRACE_SLICES_DEEP deep or more */
  SlTraceSlicesEscapes   category_escapes;
  SlTraceSlicesEscapes   depth_escapes;
  SlTraceSlicesEscapes   args_offset_escapes;
  SlTraceSlicesEscapes   args_length_escapes;
} SlTraceSlices;

/* The escaped value of slice @index (0 when it has none, which a
 * well-formed column never asks for). */
guint64 sl_trace_slices_escape_lookup (const SlTraceSlicesEscapes *escapes,
                                       guint                       index);

static inline gint64
sl_trace_slices_start_ns (const SlTraceSlices *s,
                          guint                i)
{
  gint32 offset = s->start_offset[i];

  if (G_LIKELY (offset != SL_TRACE_SLICES_START_ESCAPE))
    return s->start_base[i >> SL_TRACE_SLICES_BLOCK_SHIFT] + offset;
  return (gint64) sl_trace_slices_escape_lookup (&s->start_escapes, i);
}

static inline gint64
sl_trace_slices_dur_ns (const SlTraceSlices *s,
                        guint                i)
{
  guint32 dur = s->dur[i];

  if (G_LIKELY (dur != SL_TRACE_SLICES_U32_ESCAPE))
    return dur;
  return (gint64) sl_trace_slices_escape_lookup (&s->dur_escapes, i);
}

/* The nearest slice before @i with a depth of at most @depth, or
 * G_MAXUINT32. */
guint32 sl_trace_slices_find_depth_before (const SlTraceSlices *s,
                                           guint                i,
                                           guint                depth);
/* The first slice from @i on with a depth of at most @depth, or
 * G_MAXUINT32. */
guint32 sl_trace_slices_find_depth_from   (const SlTraceSlices *s,
                                           guint                i,
                                           guint                depth);
/* The first child of @parent after slice @after (@parent itself for the
 * first one), or G_MAXUINT32. */
guint32 sl_trace_slices_next_child        (const SlTraceSlices *s,
                                           guint                parent,
                                           guint                after);
gint64  sl_trace_slices_self_from_children (const SlTraceSlices *s,
                                            guint                i);
guint32 sl_trace_slices_parent_before      (const SlTraceSlices *s,
                                            guint                i);

/* 0 = top level; overflow lanes come after max nesting */
static inline guint16
sl_trace_slices_depth (const SlTraceSlices *s,
                       guint                i)
{
  guint8 depth = s->depth8[i];

  if (G_LIKELY (depth != SL_TRACE_SLICES_DEPTH_ESCAPE))
    return depth;
  return (guint16) sl_trace_slices_escape_lookup (&s->depth_escapes, i);
}

/* Duration minus direct children. A slice followed by one no deeper has
 * none (an overflow slice never has any, and lanes come after nesting);
 * one followed by a nested slice one deeper and then by one no deeper has
 * that one child; otherwise the children are summed. */
static inline gint64
sl_trace_slices_self_ns (const SlTraceSlices *s,
                         guint                i)
{
  guint8 depth = s->depth8[i];

  if (G_LIKELY (depth < SL_TRACE_SLICES_DEPTH_ESCAPE - 1))
    {
      if (i + 1 == s->n_slices || s->depth8[i + 1] <= depth)
        return sl_trace_slices_dur_ns (s, i);
      if (s->depth8[i + 1] == depth + 1 && depth + 1u < s->nested_depths &&
          (i + 2 == s->n_slices || s->depth8[i + 2] <= depth))
        return MAX (sl_trace_slices_dur_ns (s, i) - sl_trace_slices_dur_ns (s, i + 1), 0);
    }
  return sl_trace_slices_self_from_children (s, i);
}

static inline guint32
sl_trace_slices_name_id (const SlTraceSlices *s,
                         guint                i)
{
  return s->name_ids[i];
}

static inline guint32
sl_trace_slices_category_id (const SlTraceSlices *s,
                             guint                i)
{
  guint8 code = s->category_code[i];

  if (G_LIKELY (code != SL_TRACE_SLICES_CATEGORY_ESCAPE))
    return s->category_palette[code];
  return (guint32) sl_trace_slices_escape_lookup (&s->category_escapes, i);
}

/* Index in this track or SL_TRACE_NO_PARENT: the nearest slice before
 * with a smaller depth, which nesting makes one level up (often the slice
 * just before). */
static inline guint32
sl_trace_slices_parent (const SlTraceSlices *s,
                        guint                i)
{
  guint8 depth = s->depth8[i];

  if (G_LIKELY (depth != SL_TRACE_SLICES_DEPTH_ESCAPE && depth < s->nested_depths && i > 0 &&
                s->depth8[i - 1] + 1 == depth))
    return i - 1;
  return sl_trace_slices_parent_before (s, i);
}

/* SlTraceSliceFlags */
static inline guint8
sl_trace_slices_flags (const SlTraceSlices *s,
                       guint                i)
{
  return s->flag_bits[i];
}

/* byte offset of the event in the source file with the source in the top
 * 16 bits (SL_TRACE_ARGS_OFFSET), or SL_TRACE_NO_ARGS */
static inline guint64
sl_trace_slices_args_offset (const SlTraceSlices *s,
                             guint                i)
{
  gint32 delta = s->args_delta[i];

  if (G_LIKELY (delta > SL_TRACE_SLICES_ARGS_NONE))
    return s->args_source | (guint64) (s->args_base[i >> SL_TRACE_SLICES_BLOCK_SHIFT] + delta);
  if (delta == SL_TRACE_SLICES_ARGS_NONE)
    return G_MAXUINT64;  /* SL_TRACE_NO_ARGS */
  return sl_trace_slices_escape_lookup (&s->args_offset_escapes, i);
}

/* bytes of the event's JSON text */
static inline guint32
sl_trace_slices_args_length (const SlTraceSlices *s,
                             guint                i)
{
  guint16 length = s->args_length16[i];

  if (G_LIKELY (length != SL_TRACE_SLICES_U16_ESCAPE))
    return length;
  return (guint32) sl_trace_slices_escape_lookup (&s->args_length_escapes, i);
}

G_END_DECLS
