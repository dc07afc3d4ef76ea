/* sl-chrome-trace-reader-private.h: what the Chrome trace reader's files share
 *
 * sl-chrome-trace-reader.c holds the public reader (its entry points,
 * driving yajl), sl-chrome-trace-pipe.c the thread that reads and
 * inflates a file, sl-chrome-trace-events.c the event being read
 * (the fields kept, exact numbers, the builder calls),
 * sl-chrome-trace-scanner.c the grammar-aware scanner that steps over the
 * values not kept, sl-chrome-trace-parts.c the parallel import (parts cut
 * at event boundaries, scanned by workers, built in file order).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <yajl/yajl_parse.h>

#include "sl-chrome-trace-reader.h"

G_BEGIN_DECLS

/* read, inflated and cut into parts this much at a time */
#define CHUNK_SIZE (1 << 19)
/* room before a chunk read from a file, for the end of the last one: the
 * chunk then becomes a part as it is, not copied */
#define CHUNK_HEADROOM (1 << 16)
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

/* its own key in the table: one allocation an id */
typedef struct {
  AsyncKey key;
  guint    track;
  guint    open;
} AsyncOpen;

/* counter tracks by (process, name, series), and series names interned */
typedef struct {
  gboolean valid;
  guint    process;
  guint32  name_id;
  guint32  series_id;
  guint    track;
} CounterEntry;

typedef struct {
  gboolean valid;
  guint    length;
  char     text[CACHED_TEXT];
  guint32  id;
} SeriesEntry;

typedef struct {
  SlTraceBuilder *builder;
  const char     *path;
  guint           source;
  GString        *prefix;
  yajl_handle     yajl;            /* made when needed */
  guint64         base;            /* decompressed bytes before the current chunk */
  gboolean        failed;
  gboolean        too_deep;        /* parsing stopped by the depth limit, reported */

  guint           depth;
  guint           events_depth;    /* depth inside the events array, 0 until found */
  gboolean        doc_ended;       /* the top-level value is whole, ending at doc_end */
  guint64         doc_end;
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

  guint32         last_cat_id;
  guint           last_cat_length;
  char            last_cat[CACHED_TEXT];
  GString        *key_scratch;     /* made when needed */
  GHashTable     *async_open;      /* AsyncKey → AsyncOpen, made when needed */

  guint64         phase_counts[256];
  guint64         n_no_ts;
  guint64         first_no_ts;     /* the offset of the first */
  guint64         n_no_dur;        /* complete events (X) without a valid "dur" */
  guint64         first_no_dur;    /* the offset of the first */

  /* the grammar-aware scanner, until it meets what it leaves to yajl */
  gboolean        fast;
  DocState        doc;
  gboolean        top_is_array;    /* the events are the top-level array */
  GByteArray     *carry;           /* bytes from the last safe point on */
  guint64         carry_start;     /* their offset */
  GArray         *carry_cuts;      /* offsets where fed pieces began (guint64) */

  /* a worker scanning one part of the file ahead: events are recorded,
   * not built (see "Parallel import") */
  GByteArray     *yajl_pending;    /* the text yajl has not been given yet, made when needed */
  guint64         yajl_start;      /* its offset */

  struct _Part   *part;
  struct _Splitter *splitter;      /* the reader's, when it reads in parallel */
  gboolean        speculative;     /* the part starts at a guessed event boundary */
  guint32         name_ref, cat_ref, pid_ref, tid_ref;  /* in the part's strings */
  guint32         last_name_ref, last_cat_ref, last_pid_ref, last_tid_ref;  /* the last event's */
  gboolean        has_name, has_cat, cat_first;

  /* look-up caches: writers interleave a few threads, so a small
   * direct-mapped table catches nearly every look-up. Last, as only
   * their valid flags are cleared when the reader starts. */
  CacheEntry      process_cache[CACHE_SIZE];
  CacheEntry      track_cache[CACHE_SIZE];
  CounterEntry    counter_cache[CACHE_SIZE];
  SeriesEntry     series_cache[CACHE_SIZE];
} Reader;

#define NO_REF G_MAXUINT32

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

static inline gboolean
key_is (const unsigned char *key,
        size_t               length,
        const char          *literal,
        size_t               literal_length)
{
  return length == literal_length && memcmp (key, literal, length) == 0;
}

#define KEY_IS(key, length, literal) key_is (key, length, literal, sizeof literal - 1)

static inline gboolean
is_gzip (const guint8 *data,
         gsize         length)
{
  return length >= 2 && data[0] == 0x1f && data[1] == 0x8b;
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

/* sl-chrome-trace-events.c */
guint    _sl_chrome_trace_async_key_hash (gconstpointer key);
gboolean _sl_chrome_trace_async_key_equal (gconstpointer a,
                                           gconstpointer b);
void     _sl_chrome_trace_reader_problem (Reader     *r,
                                          SlSeverity  severity,
                                          gint64      offset,
                                          const char *message);
EventKey _sl_chrome_trace_match_event_key (const unsigned char *key,
                                           size_t               length);
MetaKind _sl_chrome_trace_match_meta_name (const unsigned char *name,
                                           size_t               length);
void     _sl_chrome_trace_begin_event (Reader  *r,
                                       guint64  start);
void     _sl_chrome_trace_finish_event (Reader  *r,
                                        guint64  end);
void     _sl_chrome_trace_set_category (Reader              *r,
                                        const unsigned char *value,
                                        size_t               length);
void     _sl_chrome_trace_event_scalar (Reader              *r,
                                        const unsigned char *value,
                                        size_t               length,
                                        gboolean             is_string);
void     _sl_chrome_trace_sub_scalar (Reader              *r,
                                      const unsigned char *value,
                                      size_t               length,
                                      gboolean             is_string);

/* sl-chrome-trace-reader.c */
yajl_handle _sl_chrome_trace_reader_yajl (Reader *r);
void     _sl_chrome_trace_reader_feed_yajl (Reader       *r,
                                            const guint8 *data,
                                            gsize         length);
void     _sl_chrome_trace_reader_flush_yajl (Reader *r);

/* sl-chrome-trace-scanner.c */
gsize    _sl_chrome_trace_scan (Reader       *r,
                                const guchar *data,
                                gsize         length,
                                guint64       offset,
                                gboolean      last);
void     _sl_chrome_trace_reader_feed (Reader       *r,
                                       const guint8 *data,
                                       gsize         length);
void     _sl_chrome_trace_reader_feed_end (Reader *r);

/* sl-chrome-trace-parts.c */
guint32  _sl_chrome_trace_part_string (struct _Part        *part,
                                       guint32             *last,
                                       const unsigned char *value,
                                       size_t               length);
void     _sl_chrome_trace_record_event (Reader  *r,
                                        guint64  end);
guint    _sl_chrome_trace_splitter_n_workers (void);
void     _sl_chrome_trace_splitter_init (Splitter *sp,
                                         Reader   *r);
void     _sl_chrome_trace_splitter_drain (Splitter *sp,
                                          gboolean  all);
void     _sl_chrome_trace_reader_take (Reader       *r,
                                       const guint8 *data,
                                       gsize         length,
                                       guint64       file_bytes);
gboolean _sl_chrome_trace_reader_take_buffer (Reader  *r,
                                              guint8  *buffer,
                                              gsize    length,
                                              guint64  file_bytes);
void     _sl_chrome_trace_reader_catch_up (Reader *r);
void     _sl_chrome_trace_splitter_clear (Splitter *sp);

G_END_DECLS
