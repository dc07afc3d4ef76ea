/* sl-chrome-trace-scanner.c: the Chrome trace reader's grammar-aware scanner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-chrome-trace-reader-private.h"
#include "sl-json-skim.h"

/* ------------------------------------------------------------------ */
/* The grammar-aware scanner
 *
 * Trace files are one long array of small flat objects. The scanner reads
 * each event object itself: it matches the keys, converts the values the
 * reader keeps (through the same event_scalar()/sub_scalar() as the yajl
 * callbacks, in the same order, so names are interned alike) and steps
 * over every other value with sl-json-skim, without tokenizing it.
 *
 * It stops at the first thing it does not handle itself: damage of any
 * kind, escapes in keys, \u escapes in kept strings, a key repeated in an
 * event, nesting deeper than SKIM_DEPTH. yajl then takes over from the
 * last point between two values ("safe point"), primed with a few bytes
 * that put it in the same state, so what it reads and reports (offsets,
 * messages) is what it would have read and reported on its own. */

#define SKIM_DEPTH 64

/* yajl's state at each safe point, with the top level an object or
 * (second) an array */
static const char *const primers[][2] = {
  [DOC_START] = { "", "" },
  [DOC_TOP_OPEN] = { "{", NULL },
  [DOC_TOP_KEY] = { "{\"\":[],", NULL },
  [DOC_TOP_AFTER] = { "{\"\":[]", NULL },
  [DOC_EVENTS_OPEN] = { "{\"traceEvents\":[", "[" },
  [DOC_EVENTS_NEXT] = { "{\"traceEvents\":[[],", "[[]," },
  [DOC_EVENTS_AFTER] = { "{\"traceEvents\":[[]", "[[]" },
  [DOC_END] = { "{}", "[]" },
};

typedef enum {
  SCAN_OK,
  SCAN_MORE,
  SCAN_YIELD,  /* left to yajl */
} ScanResult;

static inline ScanResult
from_skim (SlJsonSkim skim)
{
  return skim == SL_JSON_SKIM_OK ? SCAN_OK : skim == SL_JSON_SKIM_MORE ? SCAN_MORE : SCAN_YIELD;
}

/* A string value at @p (the opening quote), kept: handed to @scalar with
 * its escapes decoded. */
static ScanResult
scan_kept_string (Reader        *r,
                  const guchar  *p,
                  const guchar  *end,
                  const guchar **after,
                  void         (*scalar) (Reader *, const unsigned char *, size_t, gboolean))
{
  const guchar *close;
  gboolean escapes;
  SlJsonSkim skim = sl_json_skim_string (p + 1, end, &close, &escapes);

  if (skim != SL_JSON_SKIM_OK)
    return from_skim (skim);
  if (G_UNLIKELY (escapes))
    {
      guchar small[256];
      g_autofree guchar *large = (gsize) (close - p) > sizeof small ? g_malloc (close - p) : NULL;
      guchar *out = large != NULL ? large : small;
      gssize length = sl_json_skim_unescape (p + 1, close, out);

      if (length < 0)
        return SCAN_YIELD;
      scalar (r, out, length, TRUE);
    }
  else
    {
      scalar (r, p + 1, close - p - 1, TRUE);
    }
  *after = close + 1;
  return SCAN_OK;
}

/* After a value: whitespace, then "," (TRUE in *@more) or @close. */
static inline ScanResult
scan_separator (const guchar  *p,
                const guchar  *end,
                guchar         close,
                const guchar **after,
                gboolean      *more)
{
  p = sl_json_skim_space (p, end);
  if (p == end)
    return SCAN_MORE;
  if (*p == ',')
    {
      /* what follows may be in the next piece: a safe point */
      p = sl_json_skim_space (p + 1, end);
      *more = TRUE;
    }
  else if (*p == close)
    {
      p++;
      *more = FALSE;
    }
  else
    return SCAN_YIELD;
  *after = p;
  return SCAN_OK;
}

/* A key at @p (the opening quote) and the colon after it; @key and
 * @length are the raw text, and *@value the start of the value. */
static inline ScanResult
scan_key (const guchar  *p,
          const guchar  *end,
          const guchar **key,
          gsize         *length,
          gboolean      *escapes,
          const guchar **value)
{
  const guchar *close;
  SlJsonSkim skim;

  if (p == end)
    return SCAN_MORE;
  if (*p != '"')
    return SCAN_YIELD;
  if ((skim = sl_json_skim_string (p + 1, end, &close, escapes)) != SL_JSON_SKIM_OK)
    return from_skim (skim);
  *key = p + 1;
  *length = close - p - 1;
  p = sl_json_skim_space (close + 1, end);
  if (p == end)
    return SCAN_MORE;
  if (*p != ':')
    return SCAN_YIELD;
  p = sl_json_skim_space (p + 1, end);
  if (p == end)
    return SCAN_MORE;
  *value = p;
  return SCAN_OK;
}

/* "args" or "id2": an object at @p whose scalars go to sub_scalar(). */
static ScanResult
scan_sub_object (Reader        *r,
                 const guchar  *p,
                 const guchar  *end,
                 const guchar **after)
{
  gboolean more = TRUE;
  ScanResult result;

  p = sl_json_skim_space (p + 1, end);
  if (p == end)
    return SCAN_MORE;
  if (*p == '}')
    {
      *after = p + 1;
      return SCAN_OK;
    }
  while (more)
    {
      const guchar *key, *value;
      gsize length;
      gboolean escapes;

      if ((result = scan_key (p, end, &key, &length, &escapes, &value)) != SCAN_OK)
        return result;
      if (r->sub == SUB_ARGS)
        {
          if (escapes)
            return SCAN_YIELD;
          r->args_key_is_name = KEY_IS (key, length, "name");
          r->args_key_offset = r->args_keys->len;
          r->args_key_length = MIN (length, G_MAXUINT32);
          g_string_append_len (r->args_keys, (const char *) key, length);
        }

      p = value;
      if (*p == '"')
        result = scan_kept_string (r, p, end, &p, _sl_chrome_trace_sub_scalar);
      else if (*p == '-' || (*p >= '0' && *p <= '9'))
        {
          const guchar *number = p;

          if ((result = from_skim (sl_json_skim_number (p, end, &p))) == SCAN_OK)
            _sl_chrome_trace_sub_scalar (r, number, p - number, FALSE);
        }
      else
        result = from_skim (sl_json_skim_value (p, end, SKIM_DEPTH, &p));
      if (result != SCAN_OK)
        return result;
      if ((result = scan_separator (p, end, '}', &p, &more)) != SCAN_OK)
        return result;
    }
  *after = p;
  return SCAN_OK;
}

/* One event object at @p ("{"), at offset @offset of the file. */
static ScanResult
scan_event (Reader        *r,
            const guchar  *p,
            const guchar  *end,
            guint64        offset,
            const guchar **after)
{
  const guchar *start = p;
  const guchar *deferred_args = NULL;
  guint32 seen = 0;
  gboolean more = TRUE;
  ScanResult result;

  _sl_chrome_trace_begin_event (r, offset);
  p = sl_json_skim_space (p + 1, end);
  if (p == end)
    return SCAN_MORE;
  if (*p == '}')
    {
      p++;
      more = FALSE;
    }
  while (more)
    {
      const guchar *key, *value;
      gsize length;
      gboolean escapes;

      if ((result = scan_key (p, end, &key, &length, &escapes, &value)) != SCAN_OK)
        return result;
      if (escapes)
        return SCAN_YIELD;
      r->key = _sl_chrome_trace_match_event_key (key, length);
      if (r->key != KEY_OTHER)
        {
          /* a repeated key: the rules for which one counts are yajl's */
          if (seen & (1u << r->key))
            return SCAN_YIELD;
          seen |= 1u << r->key;
        }

      p = value;
      switch (*p)
        {
        case '"':
          if (r->key == KEY_OTHER || r->key == KEY_ARGS || r->key == KEY_ID2 || r->key == KEY_SCOPE ||
              r->key == KEY_FLOW_IN || r->key == KEY_FLOW_OUT)
            result = from_skim (sl_json_skim_value (p, end, 1, &p));
          else
            result = scan_kept_string (r, p, end, &p, _sl_chrome_trace_event_scalar);
          break;
        case 't':
        case 'f':
          if ((result = from_skim (sl_json_skim_value (p, end, 1, &p))) == SCAN_OK)
            {
              if (r->key == KEY_FLOW_IN)
                r->flow_in = *value == 't';
              else if (r->key == KEY_FLOW_OUT)
                r->flow_out = *value == 't';
            }
          break;
        case '{':
          if (r->key == KEY_ARGS && r->ph_length == 0)
            {
              /* "ph" is not met yet (MindSpore's and msprof's timelines
               * put it last): the args are skimmed now and read at the end
               * only if the event wants them (counters, metadata), instead
               * of reading every slice's for nothing */
              deferred_args = p;
              result = from_skim (sl_json_skim_value (p, end, SKIM_DEPTH, &p));
            }
          else if ((r->key == KEY_ARGS && wants_args (r)) || r->key == KEY_ID2)
            {
              r->sub = r->key == KEY_ARGS ? SUB_ARGS : SUB_ID2;
              result = scan_sub_object (r, p, end, &p);
              r->sub = SUB_NONE;
            }
          else
            result = from_skim (sl_json_skim_value (p, end, SKIM_DEPTH, &p));
          break;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          if ((result = from_skim (sl_json_skim_number (p, end, &p))) == SCAN_OK)
            _sl_chrome_trace_event_scalar (r, value, p - value, FALSE);
          break;
        default:
          result = from_skim (sl_json_skim_value (p, end, SKIM_DEPTH, &p));
          break;
        }
      if (result != SCAN_OK)
        return result;
      if ((result = scan_separator (p, end, '}', &p, &more)) != SCAN_OK)
        return result;
    }

  if (deferred_args != NULL && wants_args (r))
    {
      const guchar *args_end;

      r->sub = SUB_ARGS;
      result = scan_sub_object (r, deferred_args, end, &args_end);
      r->sub = SUB_NONE;
      if (result != SCAN_OK)
        return result;
    }
  _sl_chrome_trace_finish_event (r, offset + (p - start));
  *after = p;
  return SCAN_OK;
}

/* Reads @data (at offset @offset of the file) as far as it can; returns
 * the length up to the last safe point. Sets r->fast to FALSE when yajl
 * must go on from there, or when @last and the document is not whole. */
gsize
_sl_chrome_trace_scan (Reader       *r,
                       const guchar *data,
                       gsize         length,
                       guint64       offset,
                       gboolean      last)
{
  const guchar *p = data, *end = data + length;

  for (;;)
    {
      const guchar *q = sl_json_skim_space (p, end), *key, *value;
      ScanResult result = SCAN_OK;
      gboolean escapes, more;
      gsize key_length;

      if (q == end)
        {
          if (r->doc == DOC_END)
            return length;
          result = SCAN_MORE;
        }
      else switch (r->doc)
        {
        case DOC_START:
          if (*q == 0xEF && offset + (q - data) == 0)
            {
              /* a UTF-8 byte order mark, which Windows tools write:
               * not JSON, passed over as yajl is never given it */
              if (end - q < 3)
                result = memcmp (q, "\xef\xbb\xbf", end - q) == 0 ? SCAN_MORE : SCAN_YIELD;
              else if (memcmp (q, "\xef\xbb\xbf", 3) == 0)
                q += 3;
              else
                result = SCAN_YIELD;
            }
          else if (*q == '[')
            {
              r->top_is_array = TRUE;
              r->saw_events = TRUE;
              r->doc = DOC_EVENTS_OPEN;
              q++;
            }
          else if (*q == '{')
            {
              r->top_is_map = TRUE;
              r->doc = DOC_TOP_OPEN;
              q++;
            }
          else
            result = SCAN_YIELD;
          break;

        case DOC_TOP_OPEN:
        case DOC_TOP_KEY:
          if (r->doc == DOC_TOP_OPEN && *q == '}')
            {
              r->doc = DOC_END;
              q++;
              break;
            }
          if ((result = scan_key (q, end, &key, &key_length, &escapes, &value)) != SCAN_OK)
            break;
          if (escapes)
            result = SCAN_YIELD;
          else if (KEY_IS (key, key_length, "traceEvents") && *value == '[')
            {
              r->saw_events = TRUE;
              r->doc = DOC_EVENTS_OPEN;
              q = value + 1;
            }
          else if ((result = from_skim (sl_json_skim_value (value, end, SKIM_DEPTH, &q))) == SCAN_OK)
            r->doc = DOC_TOP_AFTER;
          break;

        case DOC_TOP_AFTER:
          if (*q == ',')
            r->doc = DOC_TOP_KEY;
          else if (*q == '}')
            r->doc = DOC_END;
          else
            result = SCAN_YIELD;
          q++;
          break;

        case DOC_EVENTS_OPEN:
        case DOC_EVENTS_NEXT:
          if (*q == ']' && r->doc == DOC_EVENTS_OPEN)
            {
              if (r->speculative)
                {
                  result = SCAN_YIELD;  /* what holds the array is not known here */
                  break;
                }
              r->doc = r->top_is_array ? DOC_END : DOC_TOP_AFTER;
              q++;
              break;
            }
          if (*q == '{')
            result = scan_event (r, q, end, offset + (q - data), &q);
          else
            result = from_skim (sl_json_skim_value (q, end, SKIM_DEPTH, &q));
          if (result == SCAN_OK)
            r->doc = DOC_EVENTS_AFTER;
          break;

        case DOC_EVENTS_AFTER:
          if ((result = scan_separator (q, end, ']', &q, &more)) != SCAN_OK)
            break;
          if (!more && r->speculative)
            result = SCAN_YIELD;
          else
            r->doc = more ? DOC_EVENTS_NEXT : r->top_is_array ? DOC_END : DOC_TOP_AFTER;
          break;

        case DOC_END:
        default:
          result = SCAN_YIELD;  /* after the document: yajl's to report */
          break;
        }

      if (result == SCAN_OK)
        {
          p = q;
          continue;
        }
      r->in_event = FALSE;
      if (result == SCAN_YIELD || last)
        r->fast = FALSE;
      return p - data;
    }
}

/* yajl goes on from the safe point at @offset, the bytes from there
 * being @data, fed in pieces cut where the earlier pieces were (@cuts,
 * offsets in order, may be %NULL) so its reports do not change. */
static void
yield_to_yajl (Reader       *r,
               const guint8 *data,
               gsize         length,
               guint64       offset,
               GArray       *cuts)
{
  const char *primer = primers[r->doc][r->top_is_array ? 1 : 0];
  guint64 end = offset + length;

  r->fast = FALSE;
  r->in_event = FALSE;
  r->depth = 0;
  r->events_depth = 0;
  r->top_is_map = FALSE;
  r->top_key_is_events = FALSE;
  if (yajl_parse (_sl_chrome_trace_reader_yajl (r), (const guchar *) primer, strlen (primer)) != yajl_status_ok)
    g_return_if_reached ();
  /* after the document, it ended at the safe point */
  r->doc_ended = r->doc == DOC_END;
  r->doc_end = offset;

  r->base = offset;
  for (guint i = 0; cuts != NULL && i < cuts->len; i++)
    {
      guint64 cut = g_array_index (cuts, guint64, i);

      if (cut > r->base && cut < end)
        _sl_chrome_trace_reader_feed_yajl (r, data + (r->base - offset), cut - r->base);
    }
  _sl_chrome_trace_reader_feed_yajl (r, data + (r->base - offset), end - r->base);
}

void
_sl_chrome_trace_reader_feed (Reader       *r,
                              const guint8 *data,
                              gsize         length)
{
  gsize done, taken = 0, old_carry;

  if (!r->fast)
    {
      _sl_chrome_trace_reader_feed_yajl (r, data, length);
      return;
    }
  if (length == 0)
    return;

  if (r->carry->len > 0)
    {
      /* The event cut at the end of the last piece: joined with as
       * little of this one as it takes, not the whole piece. */
      old_carry = r->carry->len;
      g_array_append_val (r->carry_cuts, r->base);
      for (gsize want = MIN (length, 4096);; want = MIN (length, want * 4))
        {
          g_byte_array_append (r->carry, data + taken, want - taken);
          taken = want;
          done = _sl_chrome_trace_scan (r, r->carry->data, r->carry->len, r->carry_start, FALSE);
          if (!r->fast)
            {
              g_byte_array_append (r->carry, data + taken, length - taken);
              r->base += length;
              yield_to_yajl (r, r->carry->data + done, r->carry->len - done, r->carry_start + done, r->carry_cuts);
              g_byte_array_set_size (r->carry, 0);
              return;
            }
          if (done > old_carry || taken == length)
            break;
        }
      if (done <= old_carry)
        {
          /* all of this piece is still one unfinished value */
          g_byte_array_remove_range (r->carry, 0, done);
          r->carry_start += done;
          r->base += length;
          while (r->carry_cuts->len > 0 && g_array_index (r->carry_cuts, guint64, 0) <= r->carry_start)
            g_array_remove_index (r->carry_cuts, 0);
          return;
        }
      /* on from the safe point inside this piece */
      done -= old_carry;
      r->base += done;
      data += done;
      length -= done;
      g_byte_array_set_size (r->carry, 0);
    }

  done = _sl_chrome_trace_scan (r, data, length, r->base, FALSE);
  if (!r->fast)
    {
      yield_to_yajl (r, data + done, length - done, r->base + done, NULL);
      return;
    }
  g_byte_array_append (r->carry, data + done, length - done);
  r->carry_start = r->base + done;
  g_array_set_size (r->carry_cuts, 0);
  r->base += length;
}

/* At the end of the data: a document the scanner did not see whole is
 * handed to yajl, to report as it would. */
void
_sl_chrome_trace_reader_feed_end (Reader *r)
{
  gsize done;

  static const guint8 nothing[1];
  const guint8 *data;

  if (!r->fast || r->failed || r->base == 0)
    return;
  data = r->carry->len > 0 ? r->carry->data : nothing;
  done = _sl_chrome_trace_scan (r, data, r->carry->len, r->carry_start, TRUE);
  if (!r->fast)
    yield_to_yajl (r, data + done, r->carry->len - done, r->carry_start + done, r->carry_cuts);
  g_byte_array_set_size (r->carry, 0);
}
