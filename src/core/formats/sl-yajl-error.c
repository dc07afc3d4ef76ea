/* sl-yajl-error.c: what yajl says of damaged JSON, and where it lies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-json-skim.h"
#include "sl-yajl-error.h"

/**
 * sl_yajl_error_dup_reason:
 * @data: what the failed yajl_parse() was given
 *
 * Returns: (transfer full): yajl's own (English) text for its error,
 *   "lexical error: …" or "parse error: …", without the line break
 */
char *
sl_yajl_error_dup_reason (yajl_handle          yajl,
                          const unsigned char *data,
                          gsize                length)
{
  unsigned char *text = yajl_get_error (yajl, 0, data, length);
  char *copy = g_strstrip (g_strdup ((const char *) text));

  yajl_free_error (yajl, text);
  return copy;
}

/* Deep enough for any document these readers take. */
#define VALUE_DEPTH 1024

static gboolean
is_number_byte (unsigned char c)
{
  return g_ascii_isdigit (c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* Whether @text (@length bytes) is a JSON number, whole. */
static gboolean
is_number (const unsigned char *text,
           gsize                length)
{
  gsize i = 0;

  if (i < length && text[i] == '-')
    i++;
  if (i < length && text[i] == '0')
    i++;
  else if (i < length && g_ascii_isdigit (text[i]))
    while (i < length && g_ascii_isdigit (text[i]))
      i++;
  else
    return FALSE;
  if (i < length && text[i] == '.')
    {
      if (++i == length || !g_ascii_isdigit (text[i]))
        return FALSE;
      while (i < length && g_ascii_isdigit (text[i]))
        i++;
    }
  if (i < length && (text[i] == 'e' || text[i] == 'E'))
    {
      if (++i < length && (text[i] == '+' || text[i] == '-'))
        i++;
      if (i == length || !g_ascii_isdigit (text[i]))
        return FALSE;
      while (i < length && g_ascii_isdigit (text[i]))
        i++;
    }
  return i == length;
}

/**
 * sl_yajl_error_offset:
 * @reason: from sl_yajl_error_dup_reason()
 * @data: what the failed yajl_parse() was given
 * @value_end: where in @data the top-level value ended, or -1 for
 *   @data's start to hold the value: after trailing garbage, the first
 *   byte after that end and its whitespace is where the error lies
 *
 * Where in @data yajl's error lies: the byte it refused, or the first
 * byte of the token it refused. yajl's count of the bytes it took is at
 * the refused byte after most lexical errors (it steps back onto it), one
 * past it after a byte that starts no token, and past the whole token
 * after most parse errors (a token where none may be, trailing garbage;
 * there the token may fail to lex as well): then the token is walked
 * back, unless it began in an earlier block.
 * After a map's value without its comma and after a number too large,
 * yajl gives the token back by the length of its text, which for a
 * string is without its quotes: the offset is then the token's start,
 * or two bytes into a string. (Which of the two cannot be told from the
 * bytes around it: in `"s"]null` a string could start at the quote.)
 *
 * Returns: the offset in @data
 */
gsize
sl_yajl_error_offset (yajl_handle          yajl,
                      const char          *reason,
                      const unsigned char *data,
                      gsize                length,
                      gssize               value_end)
{
  gsize consumed = MIN (yajl_get_bytes_consumed (yajl), length);
  gsize p;

  g_return_val_if_fail (reason != NULL, consumed);

  if (consumed == 0)
    return 0;
  if (strstr (reason, "inside map, I expect") != NULL || strstr (reason, "overflow") != NULL)
    return consumed;
  p = consumed - 1;
  if (g_str_has_prefix (reason, "lexical error"))
    return strstr (reason, "invalid char in json text") != NULL ? p : consumed;
  if (strstr (reason, "trailing garbage") != NULL)
    {
      const guchar *end = data + length, *after = NULL;

      /* what follows the document, past whitespace: where the value
       * ends is told, or found from @data's start */
      if (value_end < 0)
        {
          const guchar *value = sl_json_skim_space (data, end);

          if (value < end && sl_json_skim_value (value, end, VALUE_DEPTH, &after) == SL_JSON_SKIM_OK)
            value_end = after - data;
        }
      if (value_end >= 0 && (gsize) value_end < length)
        {
          const guchar *garbage = sl_json_skim_space (data + value_end, end);

          if (garbage < end && (gsize) (garbage - data) <= consumed)
            return garbage - data;
        }
      /* else by the token: it may itself fail to lex, and yajl then
       * stays on a "/" (comments are refused), or has taken a byte that
       * starts no token */
      if (consumed < length && data[consumed] == '/')
        return consumed;
      if (data[p] == '\0' || (!g_ascii_isalnum (data[p]) && strchr ("{}[],:\"+-.", data[p]) == NULL))
        return p;
    }

  if (data[p] == '"')
    {
      /* a string's opening quote: inside it every quote is escaped by
       * an odd run of backslashes */
      while (p > 0)
        {
          gsize backslashes = 0;

          p--;
          if (data[p] != '"')
            continue;
          while (backslashes < p && data[p - 1 - backslashes] == '\\')
            backslashes++;
          if (backslashes % 2 == 0)
            break;
        }
    }
  else if (g_ascii_isdigit (data[p]))
    {
      /* the number ending here: tokens need nothing between them, so
       * "1-2" is two and "0123" is "0" and "123" as yajl reads them; the
       * longest number that ends here is the token */
      gsize first = p, end = p + 1;

      while (first > 0 && is_number_byte (data[first - 1]))
        first--;
      while (first < p && !is_number (data + first, end - first))
        first++;
      p = first;
    }
  else
    {
      static const char *const literals[] = { "true", "false", "null" };

      gboolean whole = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (literals) && !whole; i++)
        {
          gsize n = strlen (literals[i]);

          if (p + 1 >= n && memcmp (data + p + 1 - n, literals[i], n) == 0)
            {
              p = p + 1 - n;
              whole = TRUE;
            }
        }
      /* a literal cut short ("nul"), refused where it stops */
      while (!whole && g_ascii_isalpha (data[p]) && p > 0 && g_ascii_isalpha (data[p - 1]))
        p--;
    }
  return p;
}
