/* sl-chrome-trace-events.c: the Chrome trace event being read
 *
 * The fields of one event, as the scanner or the yajl callbacks meet
 * them: matched keys, exactly converted times and ids, interned names,
 * and the builder calls that place the event when it is complete.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-chrome-trace-reader-private.h"

/* ------------------------------------------------------------------ */
/* Exact number parsing */

static const guint64 pow10_table[20] = {
  G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10), G_GUINT64_CONSTANT (100),
  G_GUINT64_CONSTANT (1000), G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000),
  G_GUINT64_CONSTANT (1000000), G_GUINT64_CONSTANT (10000000),
  G_GUINT64_CONSTANT (100000000), G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000),
  G_GUINT64_CONSTANT (1000000000000), G_GUINT64_CONSTANT (10000000000000),
  G_GUINT64_CONSTANT (100000000000000), G_GUINT64_CONSTANT (1000000000000000),
  G_GUINT64_CONSTANT (10000000000000000), G_GUINT64_CONSTANT (100000000000000000),
  G_GUINT64_CONSTANT (1000000000000000000), G_GUINT64_CONSTANT (10000000000000000000),
};

/* The usual shape, "1700000000123.456": integer microseconds and at most
 * a few decimals, no exponent. Returns FALSE for anything else. */
static inline gboolean
parse_us_fast (const char *text,
               gsize       length,
               gint64     *ns)
{
  const char *p = text, *end = text + length;
  gboolean negative = FALSE;
  gint64 whole = 0, frac = 0;
  int n = 0, k = 0;

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  /* up to 18 digits fit; the range is checked next */
  for (; p < end && g_ascii_isdigit (*p); p++, n++)
    {
      if (n == 18)
        return FALSE;
      whole = whole * 10 + (*p - '0');
    }
  if (n == 0 || whole > (G_MAXINT64 - 1000) / 1000)
    return FALSE;
  if (p < end && *p == '.')
    {
      for (p++; p < end && g_ascii_isdigit (*p) && k < 3; p++, k++)
        frac = frac * 10 + (*p - '0');
      for (int pad = k; pad < 3; pad++)
        frac *= 10;
      if (p < end && g_ascii_isdigit (*p))
        {
          /* round half up on the first dropped digit, as the slow path */
          if (*p >= '5')
            frac++;
          while (p < end && g_ascii_isdigit (*p))
            p++;
        }
    }
  if (p != end)
    return FALSE;
  *ns = negative ? -(whole * 1000 + frac) : whole * 1000 + frac;
  return TRUE;
}

gboolean
sl_chrome_trace_parse_us (const char *text,
                          gsize       length,
                          gint64     *ns)
{
  const char *p = text, *end = text + length;
  gboolean negative = FALSE, any = FALSE;
  guint64 mantissa = 0, q;
  int digits = 0, exp10 = 0, scale;
  int first_dropped = -1;   /* the digit after the 19 kept, for rounding */

  g_return_val_if_fail (ns != NULL, FALSE);

  if (parse_us_fast (text, length, ns))
    return TRUE;

  while (p < end && g_ascii_isspace (*p))
    p++;
  while (end > p && g_ascii_isspace (end[-1]))
    end--;
  if (p < end && (*p == '-' || *p == '+'))
    negative = *p++ == '-';

  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      any = TRUE;
      if (digits < 19)
        {
          mantissa = mantissa * 10 + (*p - '0');
          if (mantissa != 0)
            digits++;
        }
      else
        {
          if (first_dropped < 0)
            first_dropped = *p - '0';
          exp10++;
        }
    }
  if (p < end && *p == '.')
    {
      for (p++; p < end && g_ascii_isdigit (*p); p++)
        {
          any = TRUE;
          if (digits < 19)
            {
              mantissa = mantissa * 10 + (*p - '0');
              if (mantissa != 0)
                digits++;
              exp10--;
            }
          else if (first_dropped < 0)
            first_dropped = *p - '0';
        }
    }
  if (!any)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '-' || *p == '+'))
        exp_negative = *p++ == '-';
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        if (e < 1000)
          e = e * 10 + (*p - '0');
      exp10 += exp_negative ? -e : e;
    }
  if (p != end)
    return FALSE;

  if (mantissa == 0)
    {
      *ns = 0;
      return TRUE;
    }

  scale = exp10 + 3;
  if (scale >= 0)
    {
      if (scale > 18 || mantissa > (guint64) G_MAXINT64 / pow10_table[scale])
        return FALSE;
      q = mantissa * pow10_table[scale];
      /* digits beyond the 19 kept are below a nanosecond only here;
       * with a divisor they cannot move the rounding of the remainder */
      if (scale == 0 && first_dropped >= 5)
        q++;
    }
  else if (-scale > 19)
    {
      q = 0;
    }
  else
    {
      guint64 divisor = pow10_table[-scale];
      guint64 r;

      q = mantissa / divisor;
      r = mantissa % divisor;
      if (r >= divisor - r)
        q++;
    }
  if (q > (guint64) G_MAXINT64)
    return FALSE;

  *ns = negative ? -(gint64) q : (gint64) q;
  return TRUE;
}

/* "-12.5", "2160232.0": at most 15 digits and no exponent, so the digits
 * and the power of ten are exact doubles and their quotient is rounded
 * once, as strtod rounds. FALSE for anything else. */
static gboolean
parse_double_fast (const char *text,
                   gsize       length,
                   double     *value)
{
  static const double pow10_exact[16] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  };
  const char *p = text, *end = text + length;
  gboolean negative = FALSE;
  guint64 mantissa = 0;
  int digits = 0, decimals = 0;

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (p == end || !g_ascii_isdigit (*p))
    return FALSE;
  for (; p < end && g_ascii_isdigit (*p); p++, digits++)
    mantissa = mantissa * 10 + (guint) (*p - '0');
  if (p < end && *p == '.')
    {
      p++;
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++, digits++, decimals++)
        mantissa = mantissa * 10 + (guint) (*p - '0');
    }
  if (p != end || digits > 15)
    return FALSE;
  *value = (double) mantissa / pow10_exact[decimals];
  if (negative)
    *value = -*value;
  return TRUE;
}

static guint64
hash_id (const char *text,
         gsize       length)
{
  guint64 h = G_GUINT64_CONSTANT (14695981039346656037);

  for (gsize i = 0; i < length; i++)
    h = (h ^ (guchar) text[i]) * G_GUINT64_CONSTANT (1099511628211);
  return h;
}

guint64
sl_chrome_trace_parse_id (const char *text,
                          gsize       length)
{
  const char *p = text, *end = text + length;
  gboolean negative = FALSE;
  guint64 value = 0;

  if (p + 2 < end + 0 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      p += 2;
      if (end - p > 16)
        return hash_id (text, length);
      for (; p < end; p++)
        {
          int d = g_ascii_xdigit_value (*p);

          if (d < 0)
            return hash_id (text, length);
          value = (value << 4) | (guint) d;
        }
      return value;
    }

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (p == end || !g_ascii_isdigit (*p))
    return hash_id (text, length);
  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      guint d = *p - '0';

      if (value > (G_MAXUINT64 - d) / 10)
        return hash_id (text, length);
      value = value * 10 + d;
    }
  /* "12.0" or "12e0" from a writer that used doubles: keep the integer */
  if (p < end && *p != '.' && *p != 'e' && *p != 'E')
    return hash_id (text, length);
  return negative ? (guint64) 0 - value : value;
}

/* ------------------------------------------------------------------ */

guint
_sl_chrome_trace_async_key_hash (gconstpointer key)
{
  const AsyncKey *k = key;

  return (k->process * 31u + k->category_id) * 31u + (guint) (k->id ^ (k->id >> 32));
}

gboolean
_sl_chrome_trace_async_key_equal (gconstpointer a,
                                  gconstpointer b)
{
  const AsyncKey *ka = a, *kb = b;

  return ka->process == kb->process && ka->category_id == kb->category_id && ka->id == kb->id;
}

void
_sl_chrome_trace_reader_problem (Reader     *r,
                                 SlSeverity  severity,
                                 gint64      offset,
                                 const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Chrome trace"), r->path, offset, message);

  sl_trace_builder_add_problem (r->builder, problem);
}

EventKey
_sl_chrome_trace_match_event_key (const unsigned char *key,
                                  size_t               length)
{
  switch (length)
    {
    case 1:
      return key[0] == 's' ? KEY_SCOPE : KEY_OTHER;
    case 2:
      if (key[0] == 'p' && key[1] == 'h') return KEY_PH;
      if (key[0] == 't' && key[1] == 's') return KEY_TS;
      if (key[0] == 'i' && key[1] == 'd') return KEY_ID;
      if (key[0] == 'b' && key[1] == 'p') return KEY_BP;
      return KEY_OTHER;
    case 3:
      if (memcmp (key, "cat", 3) == 0) return KEY_CAT;
      if (memcmp (key, "dur", 3) == 0) return KEY_DUR;
      if (memcmp (key, "pid", 3) == 0) return KEY_PID;
      if (memcmp (key, "tid", 3) == 0) return KEY_TID;
      if (memcmp (key, "id2", 3) == 0) return KEY_ID2;
      return KEY_OTHER;
    case 4:
      if (memcmp (key, "name", 4) == 0) return KEY_NAME;
      if (memcmp (key, "args", 4) == 0) return KEY_ARGS;
      return KEY_OTHER;
    case 7:
      if (memcmp (key, "bind_id", 7) == 0) return KEY_BIND_ID;
      if (memcmp (key, "flow_in", 7) == 0) return KEY_FLOW_IN;
      return KEY_OTHER;
    case 8:
      return memcmp (key, "flow_out", 8) == 0 ? KEY_FLOW_OUT : KEY_OTHER;
    default:
      return KEY_OTHER;
    }
}

MetaKind
_sl_chrome_trace_match_meta_name (const unsigned char *name,
                                  size_t               length)
{
  if (KEY_IS (name, length, "process_name"))
    return META_PROCESS_NAME;
  if (KEY_IS (name, length, "thread_name"))
    return META_THREAD_NAME;
  if (KEY_IS (name, length, "process_sort_index"))
    return META_PROCESS_SORT_INDEX;
  if (KEY_IS (name, length, "thread_sort_index"))
    return META_THREAD_SORT_INDEX;
  return META_NONE;
}

static char *
dup_valid (GString *text)
{
  return g_utf8_make_valid (text->str, text->len);
}

/* @text as it is when it is valid UTF-8 (no copy), else a valid copy in
 * *@copy */
static const char *
valid_text (GString  *text,
            char    **copy)
{
  if (g_utf8_validate_len (text->str, text->len, NULL))
    return text->str;
  *copy = dup_valid (text);
  return *copy;
}

void
_sl_chrome_trace_begin_event (Reader  *r,
                              guint64  start)
{
  r->in_event = TRUE;
  r->event_depth = r->depth;
  r->event_start = start;
  r->key = KEY_OTHER;
  r->sub = SUB_NONE;
  r->ph_length = 0;
  r->name_id = 0;
  r->category_id = 0;
  r->meta = META_NONE;
  r->has_ts = r->has_dur = FALSE;
  r->ts = r->dur = 0;
  g_string_truncate (r->pid, 0);
  g_string_truncate (r->tid, 0);
  r->has_id = r->has_bind_id = FALSE;
  r->id = r->bind_id = 0;
  r->bind_enclosing = FALSE;
  r->flow_in = r->flow_out = FALSE;
  g_string_truncate (r->args_keys, 0);
  g_array_set_size (r->args, 0);
  r->has_meta_name = FALSE;
  r->has_name = r->has_cat = r->cat_first = FALSE;
  r->pid_ref = r->tid_ref = NO_REF;
}

static inline CacheEntry *
cache_find (CacheEntry *cache,
            guint       owner,
            GString    *text,
            gboolean   *hit)
{
  guint h = owner * 31u;
  CacheEntry *entry;

  for (gsize i = 0; i < text->len; i++)
    h = h * 31u + (guchar) text->str[i];
  entry = &cache[h & (CACHE_SIZE - 1)];
  *hit = entry->valid && entry->owner == owner && entry->length == text->len &&
         memcmp (entry->text, text->str, text->len) == 0;
  return entry;
}

static inline void
cache_store (CacheEntry *entry,
             guint       owner,
             GString    *text,
             guint       value)
{
  entry->valid = text->len <= CACHED_TEXT;
  if (!entry->valid)
    return;
  entry->owner = owner;
  entry->length = text->len;
  memcpy (entry->text, text->str, text->len);
  entry->value = value;
}

static guint
reader_get_process (Reader *r)
{
  gboolean hit;
  CacheEntry *entry = cache_find (r->process_cache, 0, r->pid, &hit);
  guint process;

  if (hit)
    return entry->value;

  if (r->prefix == NULL && g_utf8_validate_len (r->pid->str, r->pid->len, NULL))
    {
      /* as it is: what dup_valid() would copy */
      process = sl_trace_builder_get_process (r->builder, r->pid->str);
      cache_store (entry, 0, r->pid, process);
      return process;
    }
  if (r->key_scratch == NULL)
    r->key_scratch = g_string_new (NULL);
  g_string_assign (r->key_scratch, r->prefix != NULL ? r->prefix->str : "");
  {
    g_autofree char *pid = dup_valid (r->pid);

    g_string_append (r->key_scratch, pid);
  }
  process = sl_trace_builder_get_process (r->builder, r->key_scratch->str);
  cache_store (entry, 0, r->pid, process);
  return process;
}

static guint
reader_get_thread_track (Reader *r)
{
  guint process = reader_get_process (r);
  gboolean hit;
  CacheEntry *entry = cache_find (r->track_cache, process, r->tid, &hit);
  g_autofree char *copy = NULL;
  guint track;

  if (hit)
    return entry->value;

  track = sl_trace_builder_get_thread_track (r->builder, process, valid_text (r->tid, &copy));
  cache_store (entry, process, r->tid, track);
  return track;
}

static double
arg_value (Reader     *r,
           const char *key,
           gboolean   *found)
{
  gsize length = strlen (key);

  for (guint i = 0; i < r->args->len; i++)
    {
      ArgNumber *arg = &g_array_index (r->args, ArgNumber, i);

      if (arg->key_length == length && memcmp (r->args_keys->str + arg->key_offset, key, length) == 0)
        {
          *found = TRUE;
          return arg->value;
        }
    }
  *found = FALSE;
  return 0;
}

static gint64
sort_index_from (double value)
{
  /* hostile input: no NaN or out-of-range double to integer */
  if (!(value >= -9.0e18 && value <= 9.0e18))
    return 0;
  return (gint64) value;
}

static void
dispatch_metadata (Reader *r)
{
  gboolean found;
  double value;

  switch (r->meta)
    {
    case META_PROCESS_NAME:
      if (r->has_meta_name)
        {
          g_autofree char *copy = NULL;
          const char *name = valid_text (r->meta_name, &copy);

          sl_trace_builder_set_process_name (r->builder, reader_get_process (r), name);
        }
      break;

    case META_THREAD_NAME:
      if (r->has_meta_name)
        {
          g_autofree char *copy = NULL;
          const char *name = valid_text (r->meta_name, &copy);

          sl_trace_builder_set_track_name (r->builder, reader_get_thread_track (r), name);
        }
      break;

    case META_PROCESS_SORT_INDEX:
      value = arg_value (r, "sort_index", &found);
      if (found)
        sl_trace_builder_set_process_sort_index (r->builder, reader_get_process (r), sort_index_from (value));
      break;

    case META_THREAD_SORT_INDEX:
      value = arg_value (r, "sort_index", &found);
      if (found)
        sl_trace_builder_set_track_sort_index (r->builder, reader_get_thread_track (r), sort_index_from (value));
      break;

    case META_NONE:
    default:
      break;
    }
}

/* Counter series names ("value", "MHz") repeat from one point to the
 * next: interned once, then found here. */
static guint32
intern_series (Reader     *r,
               const char *key,
               gsize       length)
{
  guint h = 0;
  SeriesEntry *entry;
  guint32 id;

  for (gsize i = 0; i < length; i++)
    h = h * 31u + (guchar) key[i];
  entry = &r->series_cache[h & (CACHE_SIZE - 1)];
  if (entry->valid && entry->length == length && memcmp (entry->text, key, length) == 0)
    return entry->id;
  id = intern_text (r, (const unsigned char *) key, length);
  entry->valid = length <= CACHED_TEXT;
  if (entry->valid)
    {
      entry->length = length;
      memcpy (entry->text, key, length);
      entry->id = id;
    }
  return id;
}

/* The builder names a counter track by its three ids each time it is
 * asked; the reader asks it once. */
static guint
counter_track (Reader  *r,
               guint    process,
               guint32  series)
{
  guint h = ((process * 31u + r->name_id) * 31u + series) * 2654435761u;
  CounterEntry *entry = &r->counter_cache[(h >> 16) & (CACHE_SIZE - 1)];

  if (!entry->valid || entry->process != process || entry->name_id != r->name_id || entry->series_id != series)
    {
      entry->valid = TRUE;
      entry->process = process;
      entry->name_id = r->name_id;
      entry->series_id = series;
      entry->track = sl_trace_builder_get_counter_track (r->builder, process, r->name_id, series);
    }
  return entry->track;
}

/* Nestable async events with one (process, category, id) share the track
 * of the outermost one, so children nest under it. */
static guint
async_track_for (Reader   *r,
                 gboolean  begin,
                 gboolean  end)
{
  guint process = reader_get_process (r);
  AsyncKey key = { process, r->category_id, r->id };
  AsyncOpen *open;
  guint track;

  if (r->async_open == NULL)
    r->async_open = g_hash_table_new_full (_sl_chrome_trace_async_key_hash, _sl_chrome_trace_async_key_equal,
                                           g_free, NULL);
  open = g_hash_table_lookup (r->async_open, &key);

  if (open != NULL && open->open > 0)
    {
      track = open->track;
      if (begin)
        open->open++;
      else if (end && --open->open == 0)
        g_hash_table_remove (r->async_open, &key);  /* ids are often used once */
      return track;
    }

  track = sl_trace_builder_get_async_track (r->builder, process, r->category_id, r->name_id);
  if (begin)
    {
      if (open == NULL)
        {
          open = g_new0 (AsyncOpen, 1);
          open->key = key;
          g_hash_table_add (r->async_open, open);
        }
      open->track = track;
      open->open = 1;
    }
  return track;
}

void
_sl_chrome_trace_finish_event (Reader  *r,
                               guint64  end)
{
  guint64 offset = SL_TRACE_ARGS_OFFSET (r->source, r->event_start);
  guint32 length = (guint32) MIN (end - r->event_start, G_MAXUINT32);
  char phase = r->ph_length > 0 ? r->ph[0] : '\0';
  guint track;

  r->in_event = FALSE;

  if (r->part != NULL)
    {
      _sl_chrome_trace_record_event (r, end);
      return;
    }

  if (r->ph_length == 1)
    r->phase_counts[(guchar) phase]++;
  else if (r->ph_length == 0)
    sl_trace_builder_count_phase (r->builder, "?");
  else
    {
      char text[sizeof r->ph + 1];

      memcpy (text, r->ph, r->ph_length);
      text[r->ph_length] = '\0';
      sl_trace_builder_count_phase (r->builder, text);
      return;
    }

  if (phase == 'M')
    {
      sl_trace_builder_add_metadata_event (r->builder, offset, length);
      dispatch_metadata (r);
      return;
    }

  if (!r->has_ts)
    {
      if (strchr ("XBEiICbenSFstf", phase) != NULL && phase != '\0' && r->n_no_ts++ == 0)
        r->first_no_ts = r->event_start;
      return;
    }

  switch (phase)
    {
    case 'X':
      if (!r->has_dur && r->n_no_dur++ == 0)
        r->first_no_dur = r->event_start;
      track = reader_get_thread_track (r);
      sl_trace_builder_add_slice (r->builder, track, r->ts, r->has_dur ? r->dur : 0,
                                  r->name_id, r->category_id, SL_TRACE_SLICE_NONE, offset, length);
      /* Flow events v2: ends named by bind_id on the slices themselves */
      if (r->has_bind_id && (r->flow_in || r->flow_out))
        sl_trace_builder_add_flow_point (r->builder,
                                         r->flow_in && r->flow_out ? 't' : r->flow_out ? 's' : 'f',
                                         r->bind_id, r->name_id, 0, track, r->ts, TRUE);
      break;

    case 'B':
      sl_trace_builder_begin_slice (r->builder, reader_get_thread_track (r), r->ts,
                                    r->name_id, r->category_id, offset, length);
      break;

    case 'E':
      sl_trace_builder_end_slice (r->builder, reader_get_thread_track (r), r->ts, offset);
      break;

    case 'i':
    case 'I':
      sl_trace_builder_add_slice (r->builder, reader_get_thread_track (r), r->ts, 0,
                                  r->name_id, r->category_id, SL_TRACE_SLICE_INSTANT, offset, length);
      break;

    case 'C':
      {
        guint process = reader_get_process (r);

        for (guint i = 0; i < r->args->len; i++)
          {
            ArgNumber *arg = &g_array_index (r->args, ArgNumber, i);
            guint32 series = intern_series (r, r->args_keys->str + arg->key_offset, arg->key_length);

            track = counter_track (r, process, series);
            sl_trace_builder_add_counter (r->builder, track, r->ts, arg->value);
          }
      }
      break;

    case 'b':
    case 'S':
      track = async_track_for (r, TRUE, FALSE);
      sl_trace_builder_begin_async (r->builder, track, r->id, r->ts, r->name_id, r->category_id,
                                    offset, length);
      break;

    case 'e':
    case 'F':
      track = async_track_for (r, FALSE, TRUE);
      sl_trace_builder_end_async (r->builder, track, r->id, r->ts, offset);
      break;

    case 'n':
      track = async_track_for (r, FALSE, FALSE);
      sl_trace_builder_add_slice (r->builder, track, r->ts, 0, r->name_id, r->category_id,
                                  SL_TRACE_SLICE_INSTANT, offset, length);
      break;

    case 's':
    case 't':
    case 'f':
      sl_trace_builder_add_flow_point (r->builder, phase, r->id, r->name_id, r->category_id,
                                       reader_get_thread_track (r), r->ts,
                                       phase != 'f' || r->bind_enclosing);
      break;

    default:
      /* O/N/D object snapshots, T/p async steps, samples, marks: counted only */
      break;
    }
}

void
_sl_chrome_trace_set_category (Reader              *r,
                               const unsigned char *value,
                               size_t               length)
{
  /* categories repeat from one event to the next */
  if (length == r->last_cat_length && memcmp (value, r->last_cat, length) == 0)
    {
      r->category_id = r->last_cat_id;
      return;
    }
  r->category_id = intern_text (r, value, length);
  if (length <= CACHED_TEXT)
    {
      memcpy (r->last_cat, value, length);
      r->last_cat_length = length;
      r->last_cat_id = r->category_id;
    }
}

/* A scalar value of the event's own key r->key. */
void
_sl_chrome_trace_event_scalar (Reader              *r,
                               const unsigned char *value,
                               size_t               length,
                               gboolean             is_string)
{
  switch (r->key)
    {
    case KEY_PH:
      if (is_string)
        {
          r->ph_length = MIN (length, sizeof r->ph);
          memcpy (r->ph, value, r->ph_length);
        }
      break;
    case KEY_NAME:
      if (!is_string)
        break;
      r->meta = _sl_chrome_trace_match_meta_name (value, length);
      if (r->part != NULL)
        {
          /* interned when the event is built, in file order */
          r->name_ref = _sl_chrome_trace_part_string (r->part, &r->last_name_ref, value, length);
          r->has_name = TRUE;
          break;
        }
      r->name_id = intern_text (r, value, length);
      break;
    case KEY_CAT:
      if (!is_string)
        break;
      if (r->part != NULL)
        {
          r->cat_ref = _sl_chrome_trace_part_string (r->part, &r->last_cat_ref, value, length);
          r->has_cat = TRUE;
          r->cat_first = !r->has_name;
          break;
        }
      _sl_chrome_trace_set_category (r, value, length);
      break;
    case KEY_TS:
      r->has_ts = sl_chrome_trace_parse_us ((const char *) value, length, &r->ts);
      break;
    case KEY_DUR:
      r->has_dur = sl_chrome_trace_parse_us ((const char *) value, length, &r->dur);
      break;
    case KEY_PID:
      if (r->part != NULL)
        r->pid_ref = _sl_chrome_trace_part_string (r->part, &r->last_pid_ref, value, length);
      else
        set_text (r->pid, value, length);
      break;
    case KEY_TID:
      if (r->part != NULL)
        r->tid_ref = _sl_chrome_trace_part_string (r->part, &r->last_tid_ref, value, length);
      else
        set_text (r->tid, value, length);
      break;
    case KEY_ID:
      r->id = sl_chrome_trace_parse_id ((const char *) value, length);
      r->has_id = TRUE;
      break;
    case KEY_BIND_ID:
      r->bind_id = sl_chrome_trace_parse_id ((const char *) value, length);
      r->has_bind_id = TRUE;
      break;
    case KEY_BP:
      r->bind_enclosing = is_string && length == 1 && value[0] == 'e';
      break;
    case KEY_OTHER:
    case KEY_ID2:
    case KEY_ARGS:
    case KEY_SCOPE:
    case KEY_FLOW_IN:
    case KEY_FLOW_OUT:
    default:
      break;
    }
}

/* A scalar value one level down: in "args" or "id2" (r->sub). */
void
_sl_chrome_trace_sub_scalar (Reader              *r,
                             const unsigned char *value,
                             size_t               length,
                             gboolean             is_string)
{
  if (r->sub == SUB_ID2)
    {
      r->id = sl_chrome_trace_parse_id ((const char *) value, length);
      r->has_id = TRUE;
    }
  else if (r->sub == SUB_ARGS && wants_args (r))
    {
      if (is_string)
        {
          if (r->args_key_is_name)
            {
              set_text (r->meta_name, value, length);
              r->has_meta_name = TRUE;
            }
        }
      else
        {
          ArgNumber arg = { r->args_key_offset, r->args_key_length, 0 };
          char text[64];

          if (length >= sizeof text)
            return;
          if (!parse_double_fast ((const char *) value, length, &arg.value))
            {
              memcpy (text, value, length);
              text[length] = '\0';
              arg.value = g_ascii_strtod (text, NULL);
            }
          g_array_append_val (r->args, arg);
        }
    }
}
