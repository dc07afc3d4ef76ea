/* sl-trace-slices.h: reading the slices of one track of a trace
 *
 * Slices of one track are sorted by start (then by longer first, so
 * parents precede children) and read one field at a time through the
 * accessors below, inline because drawing reads them per slice.
 *
 * The columns are packed, about 32 bytes a slice instead of 51: a start
 * is a 32-bit offset from a 64-bit base shared by a block of
 * SL_TRACE_SLICES_BLOCK slices; durations and self times are 32-bit
 * (4.29 s); a category is a byte naming one of the track's first 255
 * categories; an args offset keeps its 48-bit byte offset with the
 * source shared by the track; an args length is 16-bit. A value that does
 * not fit is stored whole in the column's escape table, sorted by slice,
 * and its packed cell holds the column's escape mark, so every value
 * reads back exactly.
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
#define SL_TRACE_SLICES_MAX_CATEGORIES   255
#define SL_TRACE_SLICES_ARGS_NONE        G_GUINT64_CONSTANT (0xfffffffffffe)
#define SL_TRACE_SLICES_ARGS_ESCAPE      G_GUINT64_CONSTANT (0xffffffffffff)

typedef struct {
  guint32 index;
  guint32 reserved;
  guint64 value;
} SlTraceSlicesEscape;

typedef struct {
  const SlTraceSlicesEscape *items;  /* sorted by index */
  guint                      n;
} SlTraceSlicesEscapes;

/* Read through the accessors only; the fields are here so they inline,
 * and none is named as a field that was an array of whole values. */
typedef struct {
  guint                 n_slices;
  const gint64         *start_base;     /* one per block */
  const gint32         *start_offset;   /* start - base of its block */
  const guint32        *dur;
  const guint32        *self;
  const guint32        *name_ids;
  const guint8         *category_code;  /* index in category_palette */
  const guint32        *category_palette;
  const guint32        *parents;
  const guint16        *depths;
  const guint8         *flag_bits;
  const guint32        *args_low;       /* bits 0-31 of the byte offset */
  const guint16        *args_high;      /* bits 32-47 */
  guint64               args_source;    /* bits 48-63, the same for the track */
  const guint16        *args_length16;
  SlTraceSlicesEscapes  start_escapes;
  SlTraceSlicesEscapes  dur_escapes;
  SlTraceSlicesEscapes  self_escapes;
  SlTraceSlicesEscapes  category_escapes;
  SlTraceSlicesEscapes  args_offset_escapes;
  SlTraceSlicesEscapes  args_length_escapes;
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

/* duration minus direct children */
static inline gint64
sl_trace_slices_self_ns (const SlTraceSlices *s,
                         guint                i)
{
  guint32 self = s->self[i];

  if (G_LIKELY (self != SL_TRACE_SLICES_U32_ESCAPE))
    return self;
  return (gint64) sl_trace_slices_escape_lookup (&s->self_escapes, i);
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

/* index in this track or SL_TRACE_NO_PARENT */
static inline guint32
sl_trace_slices_parent (const SlTraceSlices *s,
                        guint                i)
{
  return s->parents[i];
}

/* 0 = top level; overflow lanes come after max nesting */
static inline guint16
sl_trace_slices_depth (const SlTraceSlices *s,
                       guint                i)
{
  return s->depths[i];
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
  guint64 byte = ((guint64) s->args_high[i] << 32) | s->args_low[i];

  if (G_LIKELY (byte < SL_TRACE_SLICES_ARGS_NONE))
    return s->args_source | byte;
  if (byte == SL_TRACE_SLICES_ARGS_NONE)
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
