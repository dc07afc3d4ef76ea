/* sl-json-skim.h: stepping over JSON values without tokenizing them
 *
 * The grammar-aware trace reader finds the few fields it needs and steps
 * over everything else with these: a string is scanned for its closing
 * quote with a byte table, a nested value by counting brackets outside
 * strings. They accept only what a strict JSON parser accepts (yajl's
 * rules: control characters and bad escapes refused inside strings, the
 * number grammar, whitespace including \v and \f); anything else, or
 * nesting deeper than asked, is SL_JSON_SKIM_BAD, and the end of the data
 * inside a value is SL_JSON_SKIM_MORE. Neither ever reads past @end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

typedef enum {
  SL_JSON_SKIM_OK,
  SL_JSON_SKIM_MORE,   /* the data ends inside the value */
  SL_JSON_SKIM_BAD,    /* not JSON (or deeper than allowed) */
} SlJsonSkim;

/* 1 for the bytes that stop a string scan: quote, backslash, control
 * characters */
extern const guint8 sl_json_skim_string_stop[256];

SlJsonSkim    sl_json_skim_string_slow (const guchar  *p,
                                        const guchar  *end,
                                        const guchar **close,
                                        gboolean      *escapes);

/* Whether @c is whitespace to yajl: space, or \t \n \v \f \r (9 to 13). */
static inline gboolean
sl_json_is_space (guchar c)
{
  return c == ' ' || (guchar) (c - '\t') <= '\r' - '\t';
}

/* The first byte at or after @p that is not JSON whitespace, or @end, for
 * a run that may be long: sixteen bytes at a time where the processor has
 * SSE2 (pretty-printed traces indent every key by 8 to 16 spaces). */
const guchar *sl_json_skim_space_run (const guchar *p,
                                      const guchar *end);

/* The first byte at or after @p that is not JSON whitespace, or @end. */
static inline const guchar *
sl_json_skim_space (const guchar *p,
                    const guchar *end)
{
  /* mostly nothing, or one space or newline; more is indentation */
  if (p < end && sl_json_is_space (*p))
    {
      p++;
      if (p < end && sl_json_is_space (*p))
        return sl_json_skim_space_run (p + 1, end);
    }
  return p;
}

/* The first byte at or after @p that stops a string scan, or @end:
 * sixteen bytes at a time where the processor has SSE2 (call stacks and
 * kernel names in args run to hundreds of bytes), else four. */
static inline const guchar *
sl_json_skim_plain (const guchar *p,
                    const guchar *end)
{
  const guint8 *stop = sl_json_skim_string_stop;

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  const __m128i quote = _mm_set1_epi8 ('"'), backslash = _mm_set1_epi8 ('\\');
  const __m128i control = _mm_set1_epi8 (0x1f);

  while (end - p >= 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (gconstpointer) p);
      __m128i hit = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, quote), _mm_cmpeq_epi8 (v, backslash)),
                                  _mm_cmpeq_epi8 (_mm_min_epu8 (v, control), v));
      int mask = _mm_movemask_epi8 (hit);

      if (mask != 0)
        return p + __builtin_ctz ((unsigned) mask);
      p += 16;
    }
#endif
  while (end - p >= 4 && !(stop[p[0]] | stop[p[1]] | stop[p[2]] | stop[p[3]]))
    p += 4;
  while (p < end && !stop[*p])
    p++;
  return p;
}

/* @p is just after the opening quote; *@close is set to the closing quote.
 * *@escapes tells whether a backslash was seen. */
static inline SlJsonSkim
sl_json_skim_string (const guchar  *p,
                     const guchar  *end,
                     const guchar **close,
                     gboolean      *escapes)
{
  p = sl_json_skim_plain (p, end);
  if (p < end && *p == '"')
    {
      *escapes = FALSE;
      *close = p;
      return SL_JSON_SKIM_OK;
    }
  return sl_json_skim_string_slow (p, end, close, escapes);
}
/* @p is at the number's first byte; *@after is set just past it. A number
 * that reaches @end is MORE: more digits may follow. */
SlJsonSkim    sl_json_skim_number (const guchar  *p,
                                   const guchar  *end,
                                   const guchar **after);
/* Any value at @p (no leading whitespace), nesting at most @max_depth
 * levels; *@after is set just past it. */
SlJsonSkim    sl_json_skim_value  (const guchar  *p,
                                   const guchar  *end,
                                   guint          max_depth,
                                   const guchar **after);
/* Decodes the content of a string with escapes other than \u into @out
 * (at least as long as the content). Returns the length, or -1 for a \u
 * escape, which callers leave to a full parser. */
gssize        sl_json_skim_unescape (const guchar *p,
                                     const guchar *close,
                                     guchar       *out);

G_END_DECLS
