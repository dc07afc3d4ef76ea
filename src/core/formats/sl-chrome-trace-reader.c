/* sl-chrome-trace-reader.c: streaming Chrome trace JSON import
 *
 * yajl calls back for every token; the reader keeps only the fields of
 * the event being read (ph, name, cat, ts, dur, pid, tid, ids, and args
 * only for counters and metadata) in fixed scratch buffers, and hands the
 * event to the builder when its closing brace arrives. Numbers come as
 * text (yajl_number), so times and ids are converted exactly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "sl-chrome-trace-reader.h"
#include "sl-json-skim.h"

/* read, inflated and cut into parts this much at a time */
#define CHUNK_SIZE (1 << 19)
/* Traces nest a handful of levels (an event's args a few more). Deeper
 * JSON is refused at this depth as damage: it holds no events a reader
 * could place, and 10^6 levels would otherwise pass as an empty trace. */
#define MAX_DEPTH  1000

typedef enum {
  KEY_OTHER,
  KEY_PH,
  KEY_NAME,
  KEY_CAT,
  KEY_TS,
  KEY_DUR,
  KEY_PID,
  KEY_TID,
  KEY_ID,
  KEY_ID2,
  KEY_BIND_ID,
  KEY_BP,
  KEY_ARGS,
  KEY_SCOPE,
  KEY_FLOW_IN,
  KEY_FLOW_OUT,
} EventKey;

typedef enum {
  SUB_NONE,
  SUB_ARGS,
  SUB_ID2,
} SubObject;

typedef enum {
  META_NONE,
  META_PROCESS_NAME,
  META_PROCESS_SORT_INDEX,
  META_THREAD_NAME,
  META_THREAD_SORT_INDEX,
} MetaKind;

typedef struct {
  guint32 key_offset;
  guint32 key_length;
  double  value;
} ArgNumber;

/* Where the scanner stands between two values of the document. */
typedef enum {
  DOC_START,         /* nothing read but whitespace */
  DOC_TOP_OPEN,      /* after the top object's "{" */
  DOC_TOP_KEY,       /* after a "," in the top object */
  DOC_TOP_AFTER,     /* after a value in the top object */
  DOC_EVENTS_OPEN,   /* after the events array's "[" */
  DOC_EVENTS_NEXT,   /* after a "," in it */
  DOC_EVENTS_AFTER,  /* after an element */
  DOC_END,           /* after the top-level value */
} DocState;

typedef struct {
  guint   process;
  guint32 category_id;
  guint64 id;
} AsyncKey;

#define CACHE_SIZE  64
#define CACHED_TEXT 24

typedef struct {
  gboolean valid;
  guint    owner;          /* the process, for thread tracks */
  guint    length;
  char     text[CACHED_TEXT];
  guint    value;
} CacheEntry;

typedef struct {
  guint track;
  guint open;
} AsyncOpen;

typedef struct {
  SlTraceBuilder *builder;
  const char     *path;
  guint           source;
  GString        *prefix;
  yajl_handle     yajl;
  guint64         base;            /* decompressed bytes before the current chunk */
  gboolean        failed;
  gboolean        too_deep;        /* parsing stopped by the depth limit, reported */

  guint           depth;
  guint           events_depth;    /* depth inside the events array, 0 until found */
  gboolean        top_is_map;
  gboolean        top_key_is_events;
  gboolean        saw_events;

  /* the event being read */
  gboolean        in_event;
  guint           event_depth;
  guint64         event_start;
  EventKey        key;
  SubObject       sub;
  gboolean        args_key_is_name;
  guint32         args_key_offset;
  guint32         args_key_length;
  char            ph[8];
  guint           ph_length;
  guint32         name_id;
  guint32         category_id;
  MetaKind        meta;
  gint64          ts, dur;
  gboolean        has_ts, has_dur;
  GString        *pid, *tid;
  guint64         id, bind_id;
  gboolean        has_id, has_bind_id;
  gboolean        bind_enclosing;
  gboolean        flow_in, flow_out;
  GString        *args_keys;
  GArray         *args;            /* ArgNumber */
  GString        *meta_name;
  gboolean        has_meta_name;

  /* look-up caches: writers interleave a few threads, so a small
   * direct-mapped table catches nearly every look-up */
  CacheEntry      process_cache[CACHE_SIZE];
  CacheEntry      track_cache[CACHE_SIZE];
  guint32         last_cat_id;
  guint           last_cat_length;
  char            last_cat[CACHED_TEXT];
  GString        *key_scratch;
  GHashTable     *async_open;      /* AsyncKey → AsyncOpen */

  guint64         phase_counts[256];
  guint64         n_no_ts;

  /* the grammar-aware scanner, until it meets what it leaves to yajl */
  gboolean        fast;
  DocState        doc;
  gboolean        top_is_array;    /* the events are the top-level array */
  GByteArray     *carry;           /* bytes from the last safe point on */
  guint64         carry_start;     /* their offset */
  GArray         *carry_cuts;      /* offsets where fed pieces began (guint64) */

  /* a worker scanning one part of the file ahead: events are recorded,
   * not built (see "Parallel import") */
  GByteArray     *yajl_pending;    /* the text yajl has not been given yet */
  guint64         yajl_start;      /* its offset */

  struct _Part   *part;
  struct _Splitter *splitter;      /* the reader's, when it reads in parallel */
  gboolean        speculative;     /* the part starts at a guessed event boundary */
  GString        *name_text, *cat_text;
  gboolean        has_name, has_cat, cat_first;
} Reader;

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
  for (; p < end && g_ascii_isdigit (*p); p++, n++)
    {
      if (n == 16)
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

static guint
async_key_hash (gconstpointer key)
{
  const AsyncKey *k = key;

  return (k->process * 31u + k->category_id) * 31u + (guint) (k->id ^ (k->id >> 32));
}

static gboolean
async_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const AsyncKey *ka = a, *kb = b;

  return ka->process == kb->process && ka->category_id == kb->category_id && ka->id == kb->id;
}

static void
reader_problem (Reader     *r,
                SlSeverity  severity,
                gint64      offset,
                const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Chrome trace"), r->path, offset, message);

  sl_trace_builder_add_problem (r->builder, problem);
}

static inline gboolean
key_is (const unsigned char *key,
        size_t               length,
        const char          *literal,
        size_t               literal_length)
{
  return length == literal_length && memcmp (key, literal, length) == 0;
}

#define KEY_IS(key, length, literal) key_is (key, length, literal, sizeof literal - 1)

static EventKey
match_event_key (const unsigned char *key,
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

static MetaKind
match_meta_name (const unsigned char *name,
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

static inline gboolean
wants_args (Reader *r)
{
  return r->ph_length == 0 || r->ph[0] == 'C' || r->ph[0] == 'M';
}

static inline void
set_text (GString             *text,
          const unsigned char *value,
          size_t               length)
{
  if (G_LIKELY (length < text->allocated_len))
    {
      memcpy (text->str, value, length);
      text->str[length] = '\0';
      text->len = length;
      return;
    }
  g_string_truncate (text, 0);
  g_string_append_len (text, (const char *) value, length);
}

/* yajl is told not to check UTF-8 (bad bytes in some args must not stop
 * an import); the builder checks each distinct interned string once, and
 * the few other strings kept are checked where they are kept. */
static inline guint32
intern_text (Reader              *r,
             const unsigned char *value,
             size_t               length)
{
  return sl_trace_builder_intern (r->builder, (const char *) value, length);
}

static char *
dup_valid (GString *text)
{
  return g_utf8_make_valid (text->str, text->len);
}

static void
begin_event (Reader  *r,
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
  guint track;

  if (hit)
    return entry->value;

  {
    g_autofree char *tid = dup_valid (r->tid);

    track = sl_trace_builder_get_thread_track (r->builder, process, tid);
  }
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
          g_autofree char *name = dup_valid (r->meta_name);

          sl_trace_builder_set_process_name (r->builder, reader_get_process (r), name);
        }
      break;

    case META_THREAD_NAME:
      if (r->has_meta_name)
        {
          g_autofree char *name = dup_valid (r->meta_name);

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

/* Nestable async events with one (process, category, id) share the track
 * of the outermost one, so children nest under it. */
static guint
async_track_for (Reader   *r,
                 gboolean  begin,
                 gboolean  end)
{
  guint process = reader_get_process (r);
  AsyncKey key = { process, r->category_id, r->id };
  AsyncOpen *open = g_hash_table_lookup (r->async_open, &key);
  guint track;

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
          g_hash_table_insert (r->async_open, g_memdup2 (&key, sizeof key), open);
        }
      open->track = track;
      open->open = 1;
    }
  return track;
}

static void record_event (Reader  *r,
                          guint64  end);

static void
finish_event (Reader  *r,
              guint64  end)
{
  guint64 offset = SL_TRACE_ARGS_OFFSET (r->source, r->event_start);
  guint32 length = (guint32) MIN (end - r->event_start, G_MAXUINT32);
  char phase = r->ph_length > 0 ? r->ph[0] : '\0';
  guint track;

  r->in_event = FALSE;

  if (r->part != NULL)
    {
      record_event (r, end);
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
      if (strchr ("XBEiICbenSFstf", phase) != NULL && phase != '\0')
        r->n_no_ts++;
      return;
    }

  switch (phase)
    {
    case 'X':
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
            guint32 series = intern_text (r, (const unsigned char *) r->args_keys->str + arg->key_offset,
                                          arg->key_length);

            track = sl_trace_builder_get_counter_track (r->builder, process, r->name_id, series);
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

/* ------------------------------------------------------------------ */
/* yajl callbacks */

static void
set_category (Reader              *r,
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
static void
event_scalar (Reader              *r,
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
      r->meta = match_meta_name (value, length);
      if (r->part != NULL)
        {
          /* interned when the event is built, in file order */
          set_text (r->name_text, value, length);
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
          set_text (r->cat_text, value, length);
          r->has_cat = TRUE;
          r->cat_first = !r->has_name;
          break;
        }
      set_category (r, value, length);
      break;
    case KEY_TS:
      r->has_ts = sl_chrome_trace_parse_us ((const char *) value, length, &r->ts);
      break;
    case KEY_DUR:
      r->has_dur = sl_chrome_trace_parse_us ((const char *) value, length, &r->dur);
      break;
    case KEY_PID:
      set_text (r->pid, value, length);
      break;
    case KEY_TID:
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
static void
sub_scalar (Reader              *r,
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
          memcpy (text, value, length);
          text[length] = '\0';
          arg.value = g_ascii_strtod (text, NULL);
          g_array_append_val (r->args, arg);
        }
    }
}

static int
on_scalar (Reader              *r,
           const unsigned char *value,
           size_t               length,
           gboolean             is_string)
{
  if (!r->in_event)
    return 1;

  if (r->depth == r->event_depth)
    event_scalar (r, value, length, is_string);
  else if (r->depth == r->event_depth + 1)
    sub_scalar (r, value, length, is_string);
  return 1;
}

static int
on_number (void       *ctx,
           const char *value,
           size_t      length)
{
  return on_scalar (ctx, (const unsigned char *) value, length, FALSE);
}

static int
on_string (void                *ctx,
           const unsigned char *value,
           size_t               length)
{
  return on_scalar (ctx, value, length, TRUE);
}

static int
on_boolean (void *ctx,
            int   value)
{
  Reader *r = ctx;

  if (r->in_event && r->depth == r->event_depth)
    {
      if (r->key == KEY_FLOW_IN)
        r->flow_in = value != 0;
      else if (r->key == KEY_FLOW_OUT)
        r->flow_out = value != 0;
    }
  return 1;
}

static int
on_null (void *ctx)
{
  return 1;
}

static int
on_map_key (void                *ctx,
            const unsigned char *key,
            size_t               length)
{
  Reader *r = ctx;

  if (!r->in_event)
    {
      if (r->depth == 1 && r->top_is_map)
        r->top_key_is_events = KEY_IS (key, length, "traceEvents");
      return 1;
    }

  if (r->depth == r->event_depth)
    {
      r->key = match_event_key (key, length);
    }
  else if (r->depth == r->event_depth + 1 && r->sub == SUB_ARGS && wants_args (r))
    {
      r->args_key_is_name = KEY_IS (key, length, "name");
      r->args_key_offset = r->args_keys->len;
      r->args_key_length = MIN (length, G_MAXUINT32);
      g_string_append_len (r->args_keys, (const char *) key, length);
    }
  return 1;
}

/* Stops the parse (the callback's 0) once the JSON nests past MAX_DEPTH. */
static gboolean
nest (Reader *r)
{
  g_autofree char *message = NULL;

  if (++r->depth <= MAX_DEPTH)
    return TRUE;

  message = g_strdup_printf (_("The JSON nests more than %u levels deep here, which no trace does; the events before are kept"),
                             MAX_DEPTH);
  reader_problem (r, SL_SEVERITY_ERROR, r->base + yajl_get_bytes_consumed (r->yajl), message);
  r->too_deep = TRUE;
  return FALSE;
}

static int
on_start_map (void *ctx)
{
  Reader *r = ctx;

  if (!nest (r))
    return 0;
  if (!r->in_event)
    {
      if (r->depth == 1)
        r->top_is_map = TRUE;
      else if (r->events_depth != 0 && r->depth == r->events_depth + 1)
        begin_event (r, r->base + yajl_get_bytes_consumed (r->yajl) - 1);
    }
  else if (r->depth == r->event_depth + 1)
    {
      r->sub = r->key == KEY_ARGS ? SUB_ARGS : r->key == KEY_ID2 ? SUB_ID2 : SUB_NONE;
    }
  return 1;
}

static int
on_end_map (void *ctx)
{
  Reader *r = ctx;

  if (r->in_event)
    {
      if (r->depth == r->event_depth)
        finish_event (r, r->base + yajl_get_bytes_consumed (r->yajl));
      else if (r->depth == r->event_depth + 1)
        r->sub = SUB_NONE;
    }
  r->depth--;
  return 1;
}

static int
on_start_array (void *ctx)
{
  Reader *r = ctx;

  if (!nest (r))
    return 0;
  if (!r->in_event)
    {
      if (r->depth == 1)
        {
          r->events_depth = 1;
          r->saw_events = TRUE;
        }
      else if (r->depth == 2 && r->top_is_map && r->top_key_is_events)
        {
          r->events_depth = 2;
          r->saw_events = TRUE;
        }
    }
  else if (r->depth == r->event_depth + 1)
    {
      r->sub = SUB_NONE;
    }
  return 1;
}

static int
on_end_array (void *ctx)
{
  Reader *r = ctx;

  if (!r->in_event && r->depth == r->events_depth)
    r->events_depth = 0;
  r->depth--;
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_boolean,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end_map,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end_array,
};

/* ------------------------------------------------------------------ */
/* Driving yajl */

static void
reader_init (Reader         *r,
             SlTraceBuilder *builder,
             const char     *path,
             const char     *pid_prefix)
{
  memset (r, 0, sizeof *r);
  r->builder = builder;
  r->path = path;
  r->source = sl_trace_builder_add_source (builder, path);
  r->prefix = pid_prefix != NULL && *pid_prefix != '\0' ? g_string_new (pid_prefix) : NULL;
  r->pid = g_string_sized_new (32);
  r->tid = g_string_sized_new (32);
  r->args_keys = g_string_sized_new (256);
  r->args = g_array_sized_new (FALSE, FALSE, sizeof (ArgNumber), 16);
  r->meta_name = g_string_sized_new (64);
  r->last_cat_length = G_MAXUINT;
  r->key_scratch = g_string_sized_new (64);
  r->async_open = g_hash_table_new_full (async_key_hash, async_key_equal, g_free, g_free);
  r->yajl = yajl_alloc (&callbacks, NULL, r);
  /* Comments are not JSON; UTF-8 is checked only where strings are kept. */
  yajl_config (r->yajl, yajl_allow_comments, 0);
  yajl_config (r->yajl, yajl_dont_validate_strings, 1);
  r->fast = TRUE;
  r->doc = DOC_START;
  r->carry = g_byte_array_new ();
  r->carry_cuts = g_array_new (FALSE, FALSE, sizeof (guint64));
  r->yajl_pending = g_byte_array_new ();
}

static void
reader_clear (Reader *r)
{
  if (r->prefix != NULL)
    g_string_free (r->prefix, TRUE);
  g_string_free (r->pid, TRUE);
  g_string_free (r->tid, TRUE);
  g_string_free (r->args_keys, TRUE);
  g_array_unref (r->args);
  g_string_free (r->meta_name, TRUE);
  g_string_free (r->key_scratch, TRUE);
  g_hash_table_unref (r->async_open);
  yajl_free (r->yajl);
  g_byte_array_unref (r->carry);
  g_array_unref (r->carry_cuts);
  g_byte_array_unref (r->yajl_pending);
}

static char *
yajl_error_text (Reader              *r,
                 const unsigned char *data,
                 gsize                length)
{
  unsigned char *text = yajl_get_error (r->yajl, 0, data, length);
  char *copy = g_strstrip (g_strdup ((const char *) text));

  yajl_free_error (r->yajl, text);
  return copy;
}

/* yajl is given the text in blocks cut at multiples of YAJL_BLOCK of the
 * file (and where the scanner hands over, which is between two tokens):
 * where it reports damage depends on where a token is cut, so every way
 * of reading one file reports the same offset. */
#define YAJL_BLOCK (1 << 16)

static void
yajl_block (Reader       *r,
            const guint8 *data,
            gsize         length,
            guint64       offset)
{
  yajl_status status = yajl_parse (r->yajl, data, length);

  if (status != yajl_status_ok && r->too_deep)
    r->failed = TRUE;
  else if (status != yajl_status_ok)
    {
      g_autofree char *reason = yajl_error_text (r, data, length);
      g_autofree char *message = NULL;

      /* Translators: the reason is the JSON parser's own (English) text */
      message = g_strdup_printf (_("The JSON is damaged here (%s); the events before are kept"), reason);
      reader_problem (r, SL_SEVERITY_ERROR, offset + yajl_get_bytes_consumed (r->yajl), message);
      r->failed = TRUE;
    }
}

static void
reader_feed_yajl (Reader       *r,
                  const guint8 *data,
                  gsize         length)
{
  GByteArray *pending = r->yajl_pending;

  if (r->failed || length == 0)
    {
      r->base += length;
      return;
    }
  if (pending->len == 0)
    r->yajl_start = r->base;
  r->base += length;

  while (length > 0 && !r->failed)
    {
      guint64 at = r->yajl_start + pending->len;
      guint64 next = (at / YAJL_BLOCK + 1) * YAJL_BLOCK;
      gsize take = MIN (length, next - at);

      if (pending->len == 0 && take == next - at)
        {
          /* base is where yajl's callbacks find an event's start */
          guint64 saved = r->base;

          r->base = at;
          yajl_block (r, data, take, at);
          r->base = saved;
          r->yajl_start = next;
        }
      else
        {
          g_byte_array_append (pending, data, take);
          if (at + take == next)
            {
              guint64 saved = r->base;

              r->base = r->yajl_start;
              yajl_block (r, pending->data, pending->len, r->yajl_start);
              r->base = saved;
              g_byte_array_set_size (pending, 0);
              r->yajl_start = next;
            }
        }
      data += take;
      length -= take;
    }
}

/* Gives yajl what it has been kept waiting for. */
static void
reader_flush_yajl (Reader *r)
{
  GByteArray *pending = r->yajl_pending;
  guint64 saved = r->base;

  if (pending->len == 0 || r->failed)
    return;
  r->base = r->yajl_start;
  yajl_block (r, pending->data, pending->len, r->yajl_start);
  r->base = saved;
  r->yajl_start += pending->len;
  g_byte_array_set_size (pending, 0);
}

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
        result = scan_kept_string (r, p, end, &p, sub_scalar);
      else if (*p == '-' || (*p >= '0' && *p <= '9'))
        {
          const guchar *number = p;

          if ((result = from_skim (sl_json_skim_number (p, end, &p))) == SCAN_OK)
            sub_scalar (r, number, p - number, FALSE);
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
  guint32 seen = 0;
  gboolean more = TRUE;
  ScanResult result;

  begin_event (r, offset);
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
      r->key = match_event_key (key, length);
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
            result = scan_kept_string (r, p, end, &p, event_scalar);
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
          if ((r->key == KEY_ARGS && wants_args (r)) || r->key == KEY_ID2)
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
            event_scalar (r, value, p - value, FALSE);
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

  finish_event (r, offset + (p - start));
  *after = p;
  return SCAN_OK;
}

/* Reads @data (at offset @offset of the file) as far as it can; returns
 * the length up to the last safe point. Sets r->fast to FALSE when yajl
 * must go on from there, or when @last and the document is not whole. */
static gsize
scan (Reader       *r,
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
          if (*q == '[')
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
  if (yajl_parse (r->yajl, (const guchar *) primer, strlen (primer)) != yajl_status_ok)
    g_return_if_reached ();

  r->base = offset;
  for (guint i = 0; cuts != NULL && i < cuts->len; i++)
    {
      guint64 cut = g_array_index (cuts, guint64, i);

      if (cut > r->base && cut < end)
        reader_feed_yajl (r, data + (r->base - offset), cut - r->base);
    }
  reader_feed_yajl (r, data + (r->base - offset), end - r->base);
}

static void
reader_feed (Reader       *r,
             const guint8 *data,
             gsize         length)
{
  gsize done, taken = 0, old_carry;

  if (!r->fast)
    {
      reader_feed_yajl (r, data, length);
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
          done = scan (r, r->carry->data, r->carry->len, r->carry_start, FALSE);
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

  done = scan (r, data, length, r->base, FALSE);
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
static void
reader_feed_end (Reader *r)
{
  gsize done;

  static const guint8 nothing[1];
  const guint8 *data;

  if (!r->fast || r->failed || r->base == 0)
    return;
  data = r->carry->len > 0 ? r->carry->data : nothing;
  done = scan (r, data, r->carry->len, r->carry_start, TRUE);
  if (!r->fast)
    yield_to_yajl (r, data + done, r->carry->len - done, r->carry_start + done, r->carry_cuts);
  g_byte_array_set_size (r->carry, 0);
}

/* ------------------------------------------------------------------ */
/* Parallel import
 *
 * The data is cut into parts at guessed event boundaries: a "{" that
 * follows "}" and "," with only whitespace between, which is where one
 * event of the array ends and the next begins unless it is inside a
 * string or a nested value. Workers scan the parts at once on the other
 * cores, each from that boundary, recording the events they find (the
 * texts to intern, the numbers already converted) instead of building
 * them. The reader then takes the parts in file order: a part whose
 * guess the part before it confirms (the scanner ended it exactly there,
 * between two events of the array) has its records built, in their
 * order, as the scanner would have built them; any other part, and what a
 * worker left (damage, the end of the array, an event cut at the part's
 * end), is read by the sequential scanner, so the trace is the same as
 * a sequential read in every event, flow, name and problem. */

typedef struct {
  guint64  start;
  guint32  length;
  guint8   ph_length;
  char     ph[8];
  guint8   has_ts : 1, has_dur : 1, has_id : 1, has_bind_id : 1, bind_enclosing : 1;
  guint8   flow_in : 1, flow_out : 1, has_meta_name : 1;
  guint8   has_name : 1, has_cat : 1, cat_first : 1;
  gint64   ts, dur;
  guint64  id, bind_id;
  guint32  text;           /* name, cat, pid, tid, meta name, args keys in the part's pool */
  guint32  name_length, cat_length, pid_length, tid_length, meta_length, keys_length;
  guint32  first_arg, n_args;
} Record;

typedef struct _Part {
  guint8    *data;
  gsize      length;
  guint64    offset;         /* of data[0] in the (decompressed) file */
  guint64    file_bytes;     /* of the file read when the part was cut */
  gboolean   at_start;       /* the part starts the file */

  /* the worker's: what it allocates comes from the reader's thread and
   * goes back there (GLib keeps memory per thread) */
  Reader    *scanner;
  GArray    *records;        /* Record */
  GString   *pool;
  GArray    *args;           /* ArgNumber, key offsets from the event's keys */
  gsize      done;           /* scanned up to here, a safe point */
  DocState   doc;            /* in this state */
  gboolean   top_is_array, top_is_map, saw_events;

  GMutex     lock;
  GCond      cond;
  gboolean   finished;
} Part;

static void
record_event (Reader  *r,
              guint64  end)
{
  Part *part = r->part;
  Record rec = { 0 };

  rec.start = r->event_start;
  rec.length = (guint32) MIN (end - r->event_start, G_MAXUINT32);
  rec.ph_length = r->ph_length;
  memcpy (rec.ph, r->ph, r->ph_length);
  rec.has_ts = r->has_ts;
  rec.has_dur = r->has_dur;
  rec.has_id = r->has_id;
  rec.has_bind_id = r->has_bind_id;
  rec.bind_enclosing = r->bind_enclosing;
  rec.flow_in = r->flow_in;
  rec.flow_out = r->flow_out;
  rec.has_meta_name = r->has_meta_name;
  rec.has_name = r->has_name;
  rec.has_cat = r->has_cat;
  rec.cat_first = r->cat_first;
  rec.ts = r->ts;
  rec.dur = r->dur;
  rec.id = r->id;
  rec.bind_id = r->bind_id;

  rec.text = part->pool->len;
  rec.name_length = r->has_name ? r->name_text->len : 0;
  g_string_append_len (part->pool, r->name_text->str, rec.name_length);
  rec.cat_length = r->has_cat ? r->cat_text->len : 0;
  g_string_append_len (part->pool, r->cat_text->str, rec.cat_length);
  rec.pid_length = r->pid->len;
  g_string_append_len (part->pool, r->pid->str, r->pid->len);
  rec.tid_length = r->tid->len;
  g_string_append_len (part->pool, r->tid->str, r->tid->len);
  rec.meta_length = r->has_meta_name ? r->meta_name->len : 0;
  g_string_append_len (part->pool, r->meta_name->str, rec.meta_length);
  rec.keys_length = r->args_keys->len;
  g_string_append_len (part->pool, r->args_keys->str, r->args_keys->len);
  rec.first_arg = part->args->len;
  rec.n_args = r->args->len;
  g_array_append_vals (part->args, r->args->data, r->args->len);

  g_array_append_val (part->records, rec);
}

/* Builds one recorded event as finish_event() would have, interning its
 * name and category in the order the scanner met them. */
static void
build_record (Reader       *r,
              const Part   *part,
              const Record *rec)
{
  const char *text = part->pool->str + rec->text;
  const char *cat = text + rec->name_length;
  const char *pid = cat + rec->cat_length;
  const char *tid = pid + rec->pid_length;
  const char *meta = tid + rec->tid_length;
  const char *keys = meta + rec->meta_length;

  begin_event (r, rec->start);
  r->ph_length = rec->ph_length;
  memcpy (r->ph, rec->ph, rec->ph_length);
  if (rec->has_cat && rec->cat_first)
    set_category (r, (const unsigned char *) cat, rec->cat_length);
  if (rec->has_name)
    {
      r->name_id = intern_text (r, (const unsigned char *) text, rec->name_length);
      r->meta = match_meta_name ((const unsigned char *) text, rec->name_length);
    }
  if (rec->has_cat && !rec->cat_first)
    set_category (r, (const unsigned char *) cat, rec->cat_length);
  r->has_ts = rec->has_ts;
  r->has_dur = rec->has_dur;
  r->ts = rec->ts;
  r->dur = rec->dur;
  set_text (r->pid, (const unsigned char *) pid, rec->pid_length);
  set_text (r->tid, (const unsigned char *) tid, rec->tid_length);
  r->has_id = rec->has_id;
  r->id = rec->id;
  r->has_bind_id = rec->has_bind_id;
  r->bind_id = rec->bind_id;
  r->bind_enclosing = rec->bind_enclosing;
  r->flow_in = rec->flow_in;
  r->flow_out = rec->flow_out;
  r->has_meta_name = rec->has_meta_name;
  if (rec->has_meta_name)
    set_text (r->meta_name, (const unsigned char *) meta, rec->meta_length);
  g_string_append_len (r->args_keys, keys, rec->keys_length);
  if (rec->n_args > 0)
    g_array_append_vals (r->args, &g_array_index (part->args, ArgNumber, rec->first_arg), rec->n_args);
  finish_event (r, rec->start + rec->length);
}

static Reader *
scanner_new (Part *part)
{
  Reader *r = g_new0 (Reader, 1);

  r->part = part;
  r->fast = TRUE;
  r->speculative = !part->at_start;
  r->doc = part->at_start ? DOC_START : DOC_EVENTS_NEXT;
  r->pid = g_string_sized_new (32);
  r->tid = g_string_sized_new (32);
  r->args_keys = g_string_sized_new (256);
  r->args = g_array_sized_new (FALSE, FALSE, sizeof (ArgNumber), 16);
  r->meta_name = g_string_sized_new (64);
  r->name_text = g_string_sized_new (64);
  r->cat_text = g_string_sized_new (32);
  return r;
}

static void
scanner_free (Reader *r)
{
  g_string_free (r->pid, TRUE);
  g_string_free (r->tid, TRUE);
  g_string_free (r->args_keys, TRUE);
  g_array_unref (r->args);
  g_string_free (r->meta_name, TRUE);
  g_string_free (r->name_text, TRUE);
  g_string_free (r->cat_text, TRUE);
  g_free (r);
}

static void
part_free (Part *part)
{
  g_clear_pointer (&part->scanner, scanner_free);
  g_free (part->data);
  if (part->records != NULL)
    g_array_unref (part->records);
  if (part->pool != NULL)
    g_string_free (part->pool, TRUE);
  if (part->args != NULL)
    g_array_unref (part->args);
  g_mutex_clear (&part->lock);
  g_cond_clear (&part->cond);
  g_free (part);
}

/* In a worker: scans one part, recording its events. */
static void
part_scan (gpointer data,
           gpointer user_data)
{
  Part *part = data;
  Reader *r = part->scanner;

  part->done = scan (r, part->data, part->length, part->offset, FALSE);
  part->doc = r->doc;
  part->top_is_array = r->top_is_array;
  part->top_is_map = r->top_is_map;
  part->saw_events = r->saw_events;

  g_mutex_lock (&part->lock);
  part->finished = TRUE;
  g_cond_signal (&part->cond);
  g_mutex_unlock (&part->lock);
}

/* Back in the reader, in file order. */
static void
part_build (Reader *r,
            Part   *part)
{
  gboolean confirmed;

  g_mutex_lock (&part->lock);
  while (!part->finished)
    g_cond_wait (&part->cond, &part->lock);
  g_mutex_unlock (&part->lock);

  g_assert (part->offset == r->base);
  confirmed = r->fast && !r->failed && r->carry->len == 0 &&
              (part->at_start ? r->doc == DOC_START : r->doc == DOC_EVENTS_NEXT);
  if (!confirmed)
    {
      reader_feed (r, part->data, part->length);
      return;
    }

  for (guint i = 0; i < part->records->len; i++)
    build_record (r, part, &g_array_index (part->records, Record, i));
  r->doc = part->doc;
  if (part->at_start)
    {
      r->top_is_array = part->top_is_array;
      r->top_is_map = part->top_is_map;
      r->saw_events = part->saw_events;
    }
  r->base = part->offset + part->done;
  r->carry_start = r->base;
  g_array_set_size (r->carry_cuts, 0);
  if (part->done < part->length)
    reader_feed (r, part->data + part->done, part->length - part->done);
}

/* The last guessed boundary in @data: the offset of a "{" after "}" and
 * ",", or 0. */
static gsize
find_boundary (const guint8 *data,
               gsize         length)
{
  for (gsize i = length; i-- > 2;)
    {
      gsize j;

      if (data[i] != '{')
        continue;
      j = i;
      while (j > 0 && (data[j - 1] == ' ' || data[j - 1] == '\n' || data[j - 1] == '\r' || data[j - 1] == '\t'))
        j--;
      if (j == 0 || data[j - 1] != ',')
        continue;
      j--;
      while (j > 0 && (data[j - 1] == ' ' || data[j - 1] == '\n' || data[j - 1] == '\r' || data[j - 1] == '\t'))
        j--;
      if (j > 0 && data[j - 1] == '}')
        return i;
    }
  return 0;
}

typedef struct _Splitter {
  Reader      *reader;
  GThreadPool *pool;
  GQueue       parts;        /* in file order, waiting to be built */
  guint        max_parts;
  GByteArray  *tail;         /* after the last boundary */
  guint64      tail_offset;
  guint64      file_bytes;
  gboolean     started;
} Splitter;

/* Workers to scan parts: one a core, or SL_TRACE_READ_THREADS (0: none,
 * the file is scanned in order), to compare on a busy machine. */
static guint
splitter_n_workers (void)
{
  const char *threads = g_getenv ("SL_TRACE_READ_THREADS");

  if (threads != NULL && *threads != '\0')
    return (guint) MIN (g_ascii_strtoull (threads, NULL, 10), 64);
  return MAX (1, g_get_num_processors ());
}

static void
splitter_init (Splitter *sp,
               Reader   *r)
{
  guint n_workers = MAX (1, splitter_n_workers ());

  memset (sp, 0, sizeof *sp);
  sp->reader = r;
  sp->pool = g_thread_pool_new (part_scan, NULL, n_workers, FALSE, NULL);
  g_queue_init (&sp->parts);
  sp->max_parts = n_workers + 1;
  sp->tail = g_byte_array_new ();
}

static void
splitter_build_oldest (Splitter *sp)
{
  Part *part = g_queue_pop_head (&sp->parts);

  part_build (sp->reader, part);
  part_free (part);
}

static void
splitter_submit (Splitter *sp,
                 guint8   *data,
                 gsize     length)
{
  Part *part = g_new0 (Part, 1);

  part->data = data;
  part->length = length;
  part->offset = sp->tail_offset;
  part->file_bytes = sp->file_bytes;
  part->at_start = !sp->started;
  sp->started = TRUE;
  /* allocated here rather than in the worker, so their memory comes back
   * to the reader's heap instead of staying in a worker's */
  part->records = g_array_sized_new (FALSE, FALSE, sizeof (Record), length / 128 + 16);
  part->pool = g_string_sized_new (length / 8 + 64);
  part->args = g_array_new (FALSE, FALSE, sizeof (ArgNumber));
  part->scanner = scanner_new (part);
  g_mutex_init (&part->lock);
  g_cond_init (&part->cond);
  sp->tail_offset += length;

  while (g_queue_get_length (&sp->parts) >= sp->max_parts)
    splitter_build_oldest (sp);
  g_queue_push_tail (&sp->parts, part);
  g_thread_pool_push (sp->pool, part, NULL);
}

/* Takes a piece of the data; parts end at the last boundary in it. */
static void
splitter_push (Splitter     *sp,
               const guint8 *data,
               gsize         length,
               guint64       file_bytes)
{
  gsize cut = find_boundary (data, length);

  sp->file_bytes = file_bytes;
  if (cut == 0)
    {
      g_byte_array_append (sp->tail, data, length);
      return;
    }
  {
    /* allocated to size: parts in flight are most of the reader's memory */
    gsize part_length = sp->tail->len + cut;
    guint8 *part = g_malloc (part_length);

    if (sp->tail->len > 0)
      memcpy (part, sp->tail->data, sp->tail->len);
    memcpy (part + sp->tail->len, data, cut);
    g_byte_array_set_size (sp->tail, 0);
    splitter_submit (sp, part, part_length);
  }
  g_byte_array_append (sp->tail, data + cut, length - cut);
}

/* Builds every part scanned so far (and with @all, the rest too). */
static void
splitter_drain (Splitter *sp,
                gboolean  all)
{
  if (all && sp->tail->len > 0)
    {
      gsize length = sp->tail->len;

      splitter_submit (sp, g_memdup2 (sp->tail->data, length), length);
      g_byte_array_set_size (sp->tail, 0);
    }
  while (!g_queue_is_empty (&sp->parts))
    {
      Part *part = g_queue_peek_head (&sp->parts);
      gboolean finished;

      g_mutex_lock (&part->lock);
      finished = part->finished;
      g_mutex_unlock (&part->lock);
      if (!finished && !all)
        break;
      splitter_build_oldest (sp);
    }
}

/* The decompressed data, in order, to the splitter or the scanner. */
static void
reader_take (Reader       *r,
             const guint8 *data,
             gsize         length,
             guint64       file_bytes)
{
  if (r->splitter != NULL)
    {
      splitter_push (r->splitter, data, length, file_bytes);
      splitter_drain (r->splitter, FALSE);
    }
  else
    reader_feed (r, data, length);
}

/* Everything taken so far is read, before anything is reported. */
static void
reader_catch_up (Reader *r)
{
  if (r->splitter != NULL)
    splitter_drain (r->splitter, TRUE);
  reader_flush_yajl (r);
}

static void
splitter_clear (Splitter *sp)
{
  /* waits for the workers: parts still queued are scanned, then dropped */
  g_thread_pool_free (sp->pool, FALSE, TRUE);
  g_queue_clear_full (&sp->parts, (GDestroyNotify) part_free);
  g_byte_array_unref (sp->tail);
}

static void
reader_finish (Reader *r)
{
  reader_feed_end (r);
  reader_flush_yajl (r);
  if (!r->failed)
    {
      if (r->base == 0)
        {
          reader_problem (r, SL_SEVERITY_ERROR, 0, _("The file is empty"));
        }
      else if (!r->fast && yajl_complete_parse (r->yajl) != yajl_status_ok)
        {
          reader_problem (r, SL_SEVERITY_WARNING, r->base,
                          _("The file ends before the JSON is complete (cut off while written?); the events before are kept"));
        }
      else if (!r->saw_events)
        {
          reader_problem (r, SL_SEVERITY_WARNING, 0,
                          _("The JSON holds no traceEvents array, so no events were read"));
        }
    }

  for (guint c = 0; c < 256; c++)
    {
      if (r->phase_counts[c] > 0)
        {
          char phase[2] = { (char) c, '\0' };

          sl_trace_builder_add_phase_count (r->builder, phase, r->phase_counts[c]);
        }
    }

  if (r->n_no_ts > 0)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu event has no valid timestamp and is not drawn",
                                      "%llu events have no valid timestamp and are not drawn",
                                      r->n_no_ts),
                         (unsigned long long) r->n_no_ts);
      reader_problem (r, SL_SEVERITY_WARNING, -1, message);
    }
}

/* Gzip members one after the other are inflated as one stream. */
typedef struct {
  z_stream  z;
  guint8   *out;
  gboolean  ended;
  gboolean  damaged;
} Inflater;

static void
inflate_feed (Reader       *r,
              Inflater     *inf,
              const guint8 *data,
              gsize         length,
              guint64       compressed_offset)
{
  inf->z.next_in = (Bytef *) data;
  inf->z.avail_in = length;

  gboolean output_full = FALSE;

  while ((inf->z.avail_in > 0 || output_full) && !inf->damaged && !r->failed)
    {
      int ret;

      if (inf->ended)
        {
          /* trailing bytes after a member: another member, or padding */
          if (inf->z.avail_in == 0 || inf->z.next_in[0] != 0x1f)
            return;
          inflateReset (&inf->z);
          inf->ended = FALSE;
        }

      inf->z.next_out = inf->out;
      inf->z.avail_out = CHUNK_SIZE;
      ret = inflate (&inf->z, Z_NO_FLUSH);
      output_full = inf->z.avail_out == 0;
      reader_take (r, inf->out, CHUNK_SIZE - inf->z.avail_out, compressed_offset + (length - inf->z.avail_in));

      if (ret == Z_STREAM_END)
        inf->ended = TRUE;
      else if (ret == Z_BUF_ERROR && !output_full)
        return;
      else if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          g_autofree char *message =
            g_strdup_printf (_("The gzip data is damaged (%s); the events before are kept"),
                             inf->z.msg != NULL ? inf->z.msg : "zlib");
          reader_catch_up (r);
          reader_problem (r, SL_SEVERITY_ERROR,
                          compressed_offset + (length - inf->z.avail_in), message);
          inf->damaged = TRUE;
        }
    }
}

static gboolean
is_gzip (const guint8 *data,
         gsize         length)
{
  return length >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

void
sl_chrome_trace_reader_read_data (SlTraceBuilder *builder,
                                  const char     *path,
                                  const guint8   *data,
                                  gsize           length,
                                  const char     *pid_prefix)
{
  sl_chrome_trace_reader_read_data_full (builder, path, data, length, pid_prefix, 0, SL_CHROME_TRACE_READ_SCAN);
}

/**
 * sl_chrome_trace_reader_read_data_full:
 * @piece_size: the plain text is fed to the reader in pieces of this many
 *   bytes (0: as from a file)
 * @mode: the scanner one piece after the other, or in parallel (as a
 *   file is read), or every byte through yajl: the reference that tests
 *   compare the others with
 */
void
sl_chrome_trace_reader_read_data_full (SlTraceBuilder        *builder,
                                       const char            *path,
                                       const guint8          *data,
                                       gsize                  length,
                                       const char            *pid_prefix,
                                       gsize                  piece_size,
                                       SlChromeTraceReadMode  mode)
{
  Splitter splitter;
  Reader r;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (data != NULL || length == 0);

  if (piece_size == 0)
    piece_size = CHUNK_SIZE;
  reader_init (&r, builder, path != NULL ? path : "", pid_prefix);
  r.fast = mode != SL_CHROME_TRACE_READ_TOKENIZE;
  if (mode == SL_CHROME_TRACE_READ_PARALLEL)
    {
      splitter_init (&splitter, &r);
      r.splitter = &splitter;
    }
  if (is_gzip (data, length))
    {
      Inflater inf = { 0 };

      inf.out = g_malloc (CHUNK_SIZE);
      if (inflateInit2 (&inf.z, 15 + 32) == Z_OK)
        {
          for (gsize done = 0; done < length && !r.failed && !inf.damaged; done += MIN (length - done, CHUNK_SIZE))
            inflate_feed (&r, &inf, data + done, MIN (length - done, CHUNK_SIZE), done);
          reader_catch_up (&r);
          if (!inf.ended && !inf.damaged && !r.failed)
            reader_problem (&r, SL_SEVERITY_WARNING, length, _("The gzip data ends early"));
          inflateEnd (&inf.z);
        }
      g_free (inf.out);
    }
  else
    {
      for (gsize done = 0; done < length && !r.failed; done += MIN (length - done, piece_size))
        reader_take (&r, data + done, MIN (length - done, piece_size), done + MIN (length - done, piece_size));
    }
  if (r.splitter != NULL)
    {
      splitter_drain (&splitter, TRUE);
      splitter_clear (&splitter);
      r.splitter = NULL;
    }
  reader_finish (&r);
  reader_clear (&r);
}

/* Reading (and inflating) runs in a thread of its own, one chunk ahead of
 * the JSON parser, so the second core takes the system calls and zlib. */

#define N_CHUNKS 4

typedef struct {
  guint8     *data;
  gsize       length;
  guint64     file_bytes;        /* of the file, read so far */
  gboolean    end;
  GError     *error;             /* could not read (fatal) */
  char       *damage;            /* gzip trouble, reported as a problem */
  guint64     damage_offset;
  SlSeverity  damage_severity;
} Chunk;

typedef struct {
  GInputStream *stream;
  GCancellable *cancellable;
  const char   *path;
  GAsyncQueue  *filled;
  GAsyncQueue  *empty;
  gint          stop;
} Pipe;

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_free (chunk->data);
  g_clear_error (&chunk->error);
  g_free (chunk->damage);
  g_free (chunk);
}

static void
pipe_inflate (Pipe     *pipe,
              z_stream *z,
              gboolean *ended,
              guint64   file_bytes,
              Chunk    *end)
{
  gboolean output_full = FALSE;

  while ((z->avail_in > 0 || output_full) && !g_atomic_int_get (&pipe->stop))
    {
      Chunk *chunk;
      int ret;

      if (*ended)
        {
          /* after a member: another member, or padding to ignore */
          if (z->avail_in == 0 || z->next_in[0] != 0x1f)
            return;
          inflateReset (z);
          *ended = FALSE;
        }

      chunk = g_async_queue_pop (pipe->empty);
      z->next_out = chunk->data;
      z->avail_out = CHUNK_SIZE;
      ret = inflate (z, Z_NO_FLUSH);
      chunk->length = CHUNK_SIZE - z->avail_out;
      chunk->file_bytes = file_bytes;
      output_full = z->avail_out == 0;
      if (chunk->length > 0)
        g_async_queue_push (pipe->filled, chunk);
      else
        g_async_queue_push (pipe->empty, chunk);

      if (ret == Z_STREAM_END)
        *ended = TRUE;
      else if (ret == Z_BUF_ERROR && !output_full)
        return;  /* needs more input */
      else if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          end->damage = g_strdup_printf (_("The gzip data is damaged (%s); the events before are kept"),
                                         z->msg != NULL ? z->msg : "zlib");
          end->damage_offset = file_bytes - z->avail_in;
          end->damage_severity = SL_SEVERITY_ERROR;
          g_atomic_int_set (&pipe->stop, TRUE);
          return;
        }
    }
}

static gpointer
pipe_produce (gpointer data)
{
  Pipe *pipe = data;
  g_autofree guint8 *compressed = g_malloc (CHUNK_SIZE);
  Chunk *end = g_new0 (Chunk, 1);
  gboolean first = TRUE, gzip = FALSE, ended = FALSE, z_ready = FALSE;
  guint64 file_bytes = 0;
  z_stream z;

  memset (&z, 0, sizeof z);
  end->end = TRUE;

  while (!g_atomic_int_get (&pipe->stop))
    {
      Chunk *chunk = g_async_queue_pop (pipe->empty);
      gsize n_read = 0;

      if (!g_input_stream_read_all (pipe->stream, chunk->data, CHUNK_SIZE, &n_read,
                                    pipe->cancellable, &end->error))
        {
          g_async_queue_push (pipe->empty, chunk);
          break;
        }
      file_bytes += n_read;

      if (first)
        {
          first = FALSE;
          gzip = is_gzip (chunk->data, n_read);
          if (gzip)
            {
              if (inflateInit2 (&z, 15 + 32) != Z_OK)
                {
                  g_set_error (&end->error, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("Could not start decompressing %s"), pipe->path);
                  g_async_queue_push (pipe->empty, chunk);
                  break;
                }
              z_ready = TRUE;
            }
        }

      if (!gzip)
        {
          chunk->length = n_read;
          chunk->file_bytes = file_bytes;
          if (n_read > 0)
            g_async_queue_push (pipe->filled, chunk);
          else
            g_async_queue_push (pipe->empty, chunk);
        }
      else
        {
          memcpy (compressed, chunk->data, n_read);
          g_async_queue_push (pipe->empty, chunk);
          z.next_in = compressed;
          z.avail_in = n_read;
          pipe_inflate (pipe, &z, &ended, file_bytes, end);
        }

      if (n_read < CHUNK_SIZE)
        {
          if (gzip && !ended && end->damage == NULL && end->error == NULL)
            {
              end->damage = g_strdup (_("The gzip data ends early"));
              end->damage_offset = file_bytes;
              end->damage_severity = SL_SEVERITY_WARNING;
            }
          break;
        }
    }

  if (z_ready)
    inflateEnd (&z);
  g_async_queue_push (pipe->filled, end);
  return NULL;
}

gboolean
sl_chrome_trace_reader_read_into (SlTraceBuilder       *builder,
                                  GFile                *file,
                                  const char           *pid_prefix,
                                  SlTraceProgressFunc   progress,
                                  gpointer              user_data,
                                  GCancellable         *cancellable,
                                  GError              **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *path = NULL;
  GThread *thread;
  gboolean ok = TRUE, stopping = FALSE;
  guint64 total = 0;
  Pipe pipe = { 0 };
  Splitter splitter;
  Reader r;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    path = g_file_get_uri (file);

  if (!(stream = sl_input_file_read (file, cancellable, error)))
    return FALSE;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  if (info != NULL)
    total = g_file_info_get_size (info);

  pipe.stream = G_INPUT_STREAM (stream);
  pipe.cancellable = cancellable;
  pipe.path = path;
  pipe.filled = g_async_queue_new ();
  pipe.empty = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *chunk = g_new0 (Chunk, 1);

      chunk->data = g_malloc (CHUNK_SIZE);
      g_async_queue_push (pipe.empty, chunk);
    }

  reader_init (&r, builder, path, pid_prefix);
  if (splitter_n_workers () > 0)
    {
      splitter_init (&splitter, &r);
      r.splitter = &splitter;
    }
  thread = g_thread_new ("sl-trace-read", pipe_produce, &pipe);

  for (;;)
    {
      Chunk *chunk = g_async_queue_pop (pipe.filled);

      if (chunk->end)
        {
          /* what came before the end, in order, before any report */
          if (!stopping && chunk->error == NULL)
            reader_catch_up (&r);
          if (chunk->error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&chunk->error));
              ok = FALSE;
            }
          else if (chunk->damage != NULL && !r.failed)
            {
              reader_problem (&r, chunk->damage_severity, chunk->damage_offset, chunk->damage);
              if (chunk->damage_severity == SL_SEVERITY_ERROR)
                r.failed = TRUE;  /* what follows the damage is not JSON */
            }
          chunk_free (chunk);
          break;
        }

      if (!stopping)
        {
          reader_take (&r, chunk->data, chunk->length, chunk->file_bytes);
          if (progress != NULL)
            progress (chunk->file_bytes, total, user_data);
          if (r.failed || g_cancellable_is_cancelled (cancellable))
            {
              /* let the reader finish; what it sends is dropped */
              stopping = TRUE;
              g_atomic_int_set (&pipe.stop, TRUE);
            }
        }
      g_async_queue_push (pipe.empty, chunk);
    }
  g_thread_join (thread);
  if (r.splitter != NULL)
    splitter_clear (&splitter);
  r.splitter = NULL;

  if (ok && g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  if (ok)
    reader_finish (&r);
  reader_clear (&r);

  g_async_queue_lock (pipe.empty);
  for (Chunk *chunk; (chunk = g_async_queue_try_pop_unlocked (pipe.empty)) != NULL;)
    chunk_free (chunk);
  g_async_queue_unlock (pipe.empty);
  g_async_queue_unref (pipe.empty);
  g_async_queue_unref (pipe.filled);

  return ok;
}

SlTrace *
sl_chrome_trace_load (const char           *path,
                      SlTraceProgressFunc   progress,
                      gpointer              user_data,
                      GCancellable         *cancellable,
                      GError              **error)
{
  g_autoptr(GFile) file = NULL;
  SlTraceBuilder *builder;
  SlTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_path (path);
  builder = sl_trace_builder_new (path);
  if (!sl_chrome_trace_reader_read_into (builder, file, NULL, progress, user_data, cancellable, error))
    {
      sl_trace_builder_free (builder);
      return NULL;
    }

  trace = sl_trace_builder_finish (builder, cancellable);
  if (trace == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading the trace was cancelled"));
  return trace;
}

typedef struct {
  char                *path;
  SlTraceProgressFunc  progress;
  gpointer             progress_data;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_free (load->path);
  g_free (load);
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  SlTrace *trace = sl_chrome_trace_load (load->path, load->progress, load->progress_data, cancellable, &error);

  if (trace == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, trace, g_object_unref);
}

void
sl_chrome_trace_load_async (const char           *path,
                            SlTraceProgressFunc   progress,
                            gpointer              progress_data,
                            GCancellable         *cancellable,
                            GAsyncReadyCallback   callback,
                            gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (path != NULL);

  load = g_new0 (LoadData, 1);
  load->path = g_strdup (path);
  load->progress = progress;
  load->progress_data = progress_data;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_chrome_trace_load_async);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_in_thread);
}

SlTrace *
sl_chrome_trace_load_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
