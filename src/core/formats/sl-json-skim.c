/* sl-json-skim.c: stepping over JSON values without tokenizing them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-json-skim.h"

/* 1: stops a string scan (quote, backslash, control character) */
const guint8 sl_json_skim_string_stop[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

const guchar *
sl_json_skim_space_run (const guchar *p,
                        const guchar *end)
{
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  const __m128i space = _mm_set1_epi8 (' '), tab = _mm_set1_epi8 ('\t');
  const __m128i span = _mm_set1_epi8 ('\r' - '\t');

  while (end - p >= 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (gconstpointer) p);
      __m128i low = _mm_sub_epi8 (v, tab);
      __m128i is_space = _mm_or_si128 (_mm_cmpeq_epi8 (v, space),
                                       _mm_cmpeq_epi8 (_mm_min_epu8 (low, span), low));
      unsigned mask = (unsigned) _mm_movemask_epi8 (is_space);

      if (mask != 0xffff)
        return p + __builtin_ctz (~mask);
      p += 16;
    }
#endif
  while (p < end && sl_json_is_space (*p))
    p++;
  return p;
}

static inline gboolean
is_digit (guchar c)
{
  return c >= '0' && c <= '9';
}

/* Goes on from the first byte that stopped sl_json_skim_string()'s scan. */
SlJsonSkim
sl_json_skim_string_slow (const guchar  *p,
                          const guchar  *end,
                          const guchar **close,
                          gboolean      *escapes)
{
  *escapes = FALSE;
  for (;;)
    {
      p = sl_json_skim_plain (p, end);
      if (p == end)
        return SL_JSON_SKIM_MORE;
      if (*p == '"')
        {
          *close = p;
          return SL_JSON_SKIM_OK;
        }
      if (*p != '\\')
        return SL_JSON_SKIM_BAD;  /* a control character */

      *escapes = TRUE;
      if (++p == end)
        return SL_JSON_SKIM_MORE;
      switch (*p)
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          p++;
          break;
        case 'u':
          p++;
          for (int i = 0; i < 4; i++, p++)
            {
              if (p == end)
                return SL_JSON_SKIM_MORE;
              if (!g_ascii_isxdigit (*p))
                return SL_JSON_SKIM_BAD;
            }
          break;
        default:
          return SL_JSON_SKIM_BAD;
        }
    }
}

SlJsonSkim
sl_json_skim_number (const guchar  *p,
                     const guchar  *end,
                     const guchar **after)
{
#define NEED(p) G_STMT_START { if ((p) == end) return SL_JSON_SKIM_MORE; } G_STMT_END
  NEED (p);
  if (*p == '-')
    {
      p++;
      NEED (p);
    }
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (p < end && is_digit (*p))
      p++;
  else
    return SL_JSON_SKIM_BAD;
  NEED (p);
  if (*p == '.')
    {
      p++;
      NEED (p);
      if (!is_digit (*p))
        return SL_JSON_SKIM_BAD;
      while (p < end && is_digit (*p))
        p++;
      NEED (p);
    }
  if (*p == 'e' || *p == 'E')
    {
      p++;
      NEED (p);
      if (*p == '+' || *p == '-')
        {
          p++;
          NEED (p);
        }
      if (!is_digit (*p))
        return SL_JSON_SKIM_BAD;
      while (p < end && is_digit (*p))
        p++;
      NEED (p);
    }
  /* what follows must end the token: "01" or "1x" are not numbers */
  if (!(sl_json_is_space (*p) || *p == ',' || *p == '}' || *p == ']'))
    return SL_JSON_SKIM_BAD;
  *after = p;
  return SL_JSON_SKIM_OK;
#undef NEED
}

static SlJsonSkim
skim_literal (const guchar  *p,
              const guchar  *end,
              const char    *literal,
              const guchar **after)
{
  gsize length = strlen (literal);

  for (gsize i = 0; i < length; i++)
    {
      if (p + i == end)
        return SL_JSON_SKIM_MORE;
      if (p[i] != (guchar) literal[i])
        return SL_JSON_SKIM_BAD;
    }
  *after = p + length;
  return SL_JSON_SKIM_OK;
}

SlJsonSkim
sl_json_skim_value (const guchar  *p,
                    const guchar  *end,
                    guint          max_depth,
                    const guchar **after)
{
  const guchar *q;
  gboolean escapes;
  SlJsonSkim result;

  if (p == end)
    return SL_JSON_SKIM_MORE;
  switch (*p)
    {
    case '"':
      if ((result = sl_json_skim_string (p + 1, end, &q, &escapes)) != SL_JSON_SKIM_OK)
        return result;
      *after = q + 1;
      return SL_JSON_SKIM_OK;
    case 't':
      return skim_literal (p, end, "true", after);
    case 'f':
      return skim_literal (p, end, "false", after);
    case 'n':
      return skim_literal (p, end, "null", after);
    case '{':
    case '[':
      break;
    default:
      return sl_json_skim_number (p, end, after);
    }

  if (max_depth == 0)
    return SL_JSON_SKIM_BAD;

  if (*p == '[')
    {
      p = sl_json_skim_space (p + 1, end);
      if (p == end)
        return SL_JSON_SKIM_MORE;
      if (*p == ']')
        {
          *after = p + 1;
          return SL_JSON_SKIM_OK;
        }
      for (;;)
        {
          if ((result = sl_json_skim_value (p, end, max_depth - 1, &p)) != SL_JSON_SKIM_OK)
            return result;
          p = sl_json_skim_space (p, end);
          if (p == end)
            return SL_JSON_SKIM_MORE;
          if (*p == ']')
            {
              *after = p + 1;
              return SL_JSON_SKIM_OK;
            }
          if (*p != ',')
            return SL_JSON_SKIM_BAD;
          p = sl_json_skim_space (p + 1, end);
        }
    }

  p = sl_json_skim_space (p + 1, end);
  if (p == end)
    return SL_JSON_SKIM_MORE;
  if (*p == '}')
    {
      *after = p + 1;
      return SL_JSON_SKIM_OK;
    }
  for (;;)
    {
      if (p == end)
        return SL_JSON_SKIM_MORE;
      if (*p != '"')
        return SL_JSON_SKIM_BAD;
      if ((result = sl_json_skim_string (p + 1, end, &q, &escapes)) != SL_JSON_SKIM_OK)
        return result;
      p = sl_json_skim_space (q + 1, end);
      if (p == end)
        return SL_JSON_SKIM_MORE;
      if (*p != ':')
        return SL_JSON_SKIM_BAD;
      p = sl_json_skim_space (p + 1, end);
      if ((result = sl_json_skim_value (p, end, max_depth - 1, &p)) != SL_JSON_SKIM_OK)
        return result;
      p = sl_json_skim_space (p, end);
      if (p == end)
        return SL_JSON_SKIM_MORE;
      if (*p == '}')
        {
          *after = p + 1;
          return SL_JSON_SKIM_OK;
        }
      if (*p != ',')
        return SL_JSON_SKIM_BAD;
      p = sl_json_skim_space (p + 1, end);
    }
}

gssize
sl_json_skim_unescape (const guchar *p,
                       const guchar *close,
                       guchar       *out)
{
  guchar *o = out;

  while (p < close)
    {
      if (*p != '\\')
        {
          *o++ = *p++;
          continue;
        }
      p++;
      switch (*p++)
        {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        default: return -1;
        }
    }
  return o - out;
}
