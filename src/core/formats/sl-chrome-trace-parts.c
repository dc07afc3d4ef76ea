/* sl-chrome-trace-parts.c: the Chrome trace reader's parallel import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-chrome-trace-reader-private.h"

/* ------------------------------------------------------------------ */
/* Parallel import
 *
 * The data is cut into parts at guessed event boundaries: a "{" that
 * follows "}" and "," with only whitespace between, which is where one
 * event of the array ends and the next begins unless it is inside a
 * string or a nested value. Workers scan the parts at once on the other
 * cores, each from that boundary, recording the events they find (the
 * texts to intern, each distinct one once a part and left in place in the
 * part's data, the numbers already converted) instead of building them.
 * A chunk read from a file becomes a part without a copy: the end of the
 * chunk before it goes in the room ahead of it (CHUNK_HEADROOM).
 * The reader then takes the parts in file order: a part whose
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
  guint32  name, cat, pid, tid;  /* in the part's strings, or NO_REF */
  guint32  text;           /* meta name, args keys in the part's pool */
  guint32  meta_length, keys_length;
  guint32  first_arg, n_args;
} Record;

/* A distinct text of a part (name, category, pid, tid), once: events
 * refer to it by its index, so the reader interns each name once a part
 * rather than once an event. */
#define IN_POOL (G_GUINT64_CONSTANT (1) << 63)

typedef struct {
  guint64  at;             /* offset in the part's data, or IN_POOL + offset in its pool */
  guint32  length;
  guint32  hash;
  guint32  id;             /* interned, or NO_REF until the reader needs it */
} PartString;

typedef struct _Part {
  guint8    *alloc;          /* holds data */
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
  GArray    *strings;        /* PartString */
  guint32   *slots;          /* index + 1 in strings, 0: free */
  guint32    mask;
  gsize      done;           /* scanned up to here, a safe point */
  DocState   doc;            /* in this state */
  gboolean   top_is_array, top_is_map, saw_events;

  GMutex     lock;
  GCond      cond;
  gboolean   finished;
} Part;

static inline const char *
part_string_text (const Part       *part,
                  const PartString *string)
{
  if (string->at & IN_POOL)
    return part->pool->str + (string->at & ~IN_POOL);
  return (const char *) part->data + string->at;
}

static void
part_strings_grow (Part *part)
{
  guint32 mask = part->mask * 2 + 1;
  guint32 *slots = g_new0 (guint32, (gsize) mask + 1);

  for (guint i = 0; i < part->strings->len; i++)
    {
      guint32 pos = g_array_index (part->strings, PartString, i).hash & mask;

      while (slots[pos] != 0)
        pos = (pos + 1) & mask;
      slots[pos] = i + 1;
    }
  g_free (part->slots);
  part->slots = slots;
  part->mask = mask;
}

/* Names, categories and ids are short: compared here rather than by a
 * call to memcmp(). */
static inline gboolean
same_text (const char          *a,
           const unsigned char *b,
           gsize                length)
{
  if (length > 32)
    return memcmp (a, b, length) == 0;
  for (gsize i = 0; i < length; i++)
    if ((guchar) a[i] != b[i])
      return FALSE;
  return TRUE;
}

static guint32
part_string_find (Part                *part,
                  const unsigned char *value,
                  size_t               length);

/* In a worker: the index of @value among the part's strings; *@last is
 * the index this field had in the event before (NO_REF at first), as a
 * thread's events follow one another with one pid, tid and category. */
guint32
_sl_chrome_trace_part_string (Part                *part,
                              guint32             *last,
                              const unsigned char *value,
                              size_t               length)
{
  if (*last != NO_REF)
    {
      const PartString *known = &g_array_index (part->strings, PartString, *last);

      if (known->length == length && same_text (part_string_text (part, known), value, length))
        return *last;
    }
  return *last = part_string_find (part, value, length);
}

static guint32
part_string_find (Part                *part,
                  const unsigned char *value,
                  size_t               length)
{
  guint64 h64 = length * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint32 h, pos;
  PartString string;
  gsize i = 0;

  /* eight bytes at a time: names and ids are short */
  for (; i + 8 <= length; i += 8)
    {
      guint64 word;

      memcpy (&word, value + i, 8);
      h64 = (h64 ^ word) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h64 ^= h64 >> 32;
    }
  if (i < length)
    {
      guint64 word = 0;

      memcpy (&word, value + i, length - i);
      h64 = (h64 ^ word) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h64 ^= h64 >> 32;
    }
  h = (guint32) (h64 ^ (h64 >> 29));
  for (pos = h & part->mask; part->slots[pos] != 0; pos = (pos + 1) & part->mask)
    {
      const PartString *known = &g_array_index (part->strings, PartString, part->slots[pos] - 1);

      if (known->hash == h && known->length == length &&
          same_text (part_string_text (part, known), value, length))
        return part->slots[pos] - 1;
    }

  string.length = (guint32) MIN (length, G_MAXUINT32);
  string.hash = h;
  string.id = NO_REF;
  if (value >= part->data && value + length <= part->data + part->length)
    string.at = value - part->data;
  else
    {
      /* decoded from escapes, so not in the data: kept in the pool */
      string.at = IN_POOL | part->pool->len;
      g_string_append_len (part->pool, (const char *) value, length);
    }
  g_array_append_val (part->strings, string);
  part->slots[pos] = part->strings->len;
  if (part->strings->len * 2 > part->mask)
    part_strings_grow (part);
  return part->strings->len - 1;
}

void
_sl_chrome_trace_record_event (Reader  *r,
                               guint64  end)
{
  Part *part = r->part;
  Record *rec;

  g_array_set_size (part->records, part->records->len + 1);
  rec = &g_array_index (part->records, Record, part->records->len - 1);
  rec->start = r->event_start;
  rec->length = (guint32) MIN (end - r->event_start, G_MAXUINT32);
  rec->ph_length = r->ph_length;
  memcpy (rec->ph, r->ph, sizeof rec->ph);
  rec->has_ts = r->has_ts;
  rec->has_dur = r->has_dur;
  rec->has_id = r->has_id;
  rec->has_bind_id = r->has_bind_id;
  rec->bind_enclosing = r->bind_enclosing;
  rec->flow_in = r->flow_in;
  rec->flow_out = r->flow_out;
  rec->has_meta_name = r->has_meta_name;
  rec->has_name = r->has_name;
  rec->has_cat = r->has_cat;
  rec->cat_first = r->cat_first;
  rec->ts = r->ts;
  rec->dur = r->dur;
  rec->id = r->id;
  rec->bind_id = r->bind_id;
  rec->name = r->has_name ? r->name_ref : NO_REF;
  rec->cat = r->has_cat ? r->cat_ref : NO_REF;
  rec->pid = r->pid_ref;
  rec->tid = r->tid_ref;

  rec->text = part->pool->len;
  rec->meta_length = r->has_meta_name ? r->meta_name->len : 0;
  rec->keys_length = r->args_keys->len;
  if (rec->meta_length + rec->keys_length > 0)
    {
      g_string_append_len (part->pool, r->meta_name->str, rec->meta_length);
      g_string_append_len (part->pool, r->args_keys->str, r->args_keys->len);
    }
  rec->first_arg = part->args->len;
  rec->n_args = r->args->len;
  if (r->args->len > 0)
    g_array_append_vals (part->args, r->args->data, r->args->len);
}

/* Builds one recorded event as finish_event() would have, interning its
 * name and category in the order the scanner met them. */
static inline void
set_part_text (GString    *text,
               Part       *part,
               guint32     ref)
{
  const PartString *string;

  if (ref == NO_REF)
    {
      g_string_truncate (text, 0);
      return;
    }
  string = &g_array_index (part->strings, PartString, ref);
  set_text (text, (const unsigned char *) part_string_text (part, string), string->length);
}

static inline void
build_category (Reader *r,
                Part   *part,
                guint32 ref)
{
  PartString *string = &g_array_index (part->strings, PartString, ref);

  if (string->id != NO_REF)
    {
      r->category_id = string->id;
      return;
    }
  _sl_chrome_trace_set_category (r, (const unsigned char *) part_string_text (part, string), string->length);
  string->id = r->category_id;
}

/* Builds one recorded event as finish_event() would have, interning its
 * name and category in the order the scanner met them. */
static void
build_record (Reader       *r,
              Part         *part,
              const Record *rec)
{
  const char *meta = part->pool->str + rec->text;
  const char *keys = meta + rec->meta_length;

  _sl_chrome_trace_begin_event (r, rec->start);
  r->ph_length = rec->ph_length;
  memcpy (r->ph, rec->ph, rec->ph_length);
  if (rec->has_cat && rec->cat_first)
    build_category (r, part, rec->cat);
  if (rec->has_name)
    {
      PartString *name = &g_array_index (part->strings, PartString, rec->name);
      const unsigned char *text = (const unsigned char *) part_string_text (part, name);

      /* a name met again in this part is interned already: nothing the
       * builder would do on a second look-up */
      if (name->id == NO_REF)
        name->id = intern_text (r, text, name->length);
      r->name_id = name->id;
      r->meta = _sl_chrome_trace_match_meta_name (text, name->length);
    }
  if (rec->has_cat && !rec->cat_first)
    build_category (r, part, rec->cat);
  r->has_ts = rec->has_ts;
  r->has_dur = rec->has_dur;
  r->ts = rec->ts;
  r->dur = rec->dur;
  set_part_text (r->pid, part, rec->pid);
  set_part_text (r->tid, part, rec->tid);
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
  if (rec->keys_length > 0)
    g_string_append_len (r->args_keys, keys, rec->keys_length);
  if (rec->n_args > 0)
    g_array_append_vals (r->args, &g_array_index (part->args, ArgNumber, rec->first_arg), rec->n_args);
  _sl_chrome_trace_finish_event (r, rec->start + rec->length);
}

static Reader *
scanner_new (Part *part)
{
  Reader *r = g_new0 (Reader, 1);

  r->part = part;
  r->fast = TRUE;
  r->last_name_ref = r->last_cat_ref = r->last_pid_ref = r->last_tid_ref = NO_REF;
  r->speculative = !part->at_start;
  r->doc = part->at_start ? DOC_START : DOC_EVENTS_NEXT;
  r->pid = g_string_sized_new (32);
  r->tid = g_string_sized_new (32);
  r->args_keys = g_string_sized_new (256);
  r->args = g_array_sized_new (FALSE, FALSE, sizeof (ArgNumber), 16);
  r->meta_name = g_string_sized_new (64);
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
  g_free (r);
}

static void
part_free (Part *part)
{
  g_clear_pointer (&part->scanner, scanner_free);
  g_free (part->alloc);
  if (part->records != NULL)
    g_array_unref (part->records);
  if (part->pool != NULL)
    g_string_free (part->pool, TRUE);
  if (part->args != NULL)
    g_array_unref (part->args);
  if (part->strings != NULL)
    g_array_unref (part->strings);
  g_free (part->slots);
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

  part->done = _sl_chrome_trace_scan (r, part->data, part->length, part->offset, FALSE);
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
      _sl_chrome_trace_reader_feed (r, part->data, part->length);
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
    _sl_chrome_trace_reader_feed (r, part->data + part->done, part->length - part->done);
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

/* Workers to scan parts: one a core, or SL_TRACE_READ_THREADS (0: none,
 * the file is scanned in order), to compare on a busy machine. */
guint
_sl_chrome_trace_splitter_n_workers (void)
{
  const char *threads = g_getenv ("SL_TRACE_READ_THREADS");

  if (threads != NULL && *threads != '\0')
    return (guint) MIN (g_ascii_strtoull (threads, NULL, 10), 64);
  return MAX (1, g_get_num_processors ());
}

void
_sl_chrome_trace_splitter_init (Splitter *sp,
                                Reader   *r)
{
  guint n_workers = MAX (1, _sl_chrome_trace_splitter_n_workers ());

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
                 guint8   *alloc,
                 guint8   *data,
                 gsize     length)
{
  Part *part = g_new0 (Part, 1);

  part->alloc = alloc;
  part->data = data;
  part->length = length;
  part->offset = sp->tail_offset;
  part->file_bytes = sp->file_bytes;
  part->at_start = !sp->started;
  sp->started = TRUE;
  /* allocated here rather than in the worker, so their memory comes back
   * to the reader's heap instead of staying in a worker's */
  part->records = g_array_sized_new (FALSE, FALSE, sizeof (Record), length / 128 + 16);
  part->pool = g_string_sized_new (256);
  part->args = g_array_new (FALSE, FALSE, sizeof (ArgNumber));
  part->strings = g_array_sized_new (FALSE, FALSE, sizeof (PartString), 256);
  part->mask = 511;
  part->slots = g_new0 (guint32, part->mask + 1);
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
    splitter_submit (sp, part, part, part_length);
  }
  g_byte_array_append (sp->tail, data + cut, length - cut);
}

/* Builds every part scanned so far (and with @all, the rest too). */
void
_sl_chrome_trace_splitter_drain (Splitter *sp,
                                 gboolean  all)
{
  if (all && sp->tail->len > 0)
    {
      gsize length = sp->tail->len;

      guint8 *part = g_memdup2 (sp->tail->data, length);

      splitter_submit (sp, part, part, length);
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
void
_sl_chrome_trace_reader_take (Reader       *r,
                              const guint8 *data,
                              gsize         length,
                              guint64       file_bytes)
{
  if (r->splitter != NULL)
    {
      splitter_push (r->splitter, data, length, file_bytes);
      _sl_chrome_trace_splitter_drain (r->splitter, FALSE);
    }
  else
    _sl_chrome_trace_reader_feed (r, data, length);
}

/* A chunk read from a file, at @buffer + CHUNK_HEADROOM: with the end of
 * the last chunk put before it, it becomes a part as it is. Returns TRUE
 * when the buffer was taken (the caller needs another). */
gboolean
_sl_chrome_trace_reader_take_buffer (Reader  *r,
                                     guint8  *buffer,
                                     gsize    length,
                                     guint64  file_bytes)
{
  Splitter *sp = r->splitter;
  guint8 *data = buffer + CHUNK_HEADROOM;
  gsize cut;

  if (sp == NULL || sp->tail->len > CHUNK_HEADROOM || (cut = find_boundary (data, length)) == 0)
    {
      _sl_chrome_trace_reader_take (r, data, length, file_bytes);
      return FALSE;
    }
  sp->file_bytes = file_bytes;
  if (sp->tail->len > 0)   /* (an empty tail may have no data at all) */
    memcpy (data - sp->tail->len, sp->tail->data, sp->tail->len);
  data -= sp->tail->len;
  cut += sp->tail->len;
  length += sp->tail->len;
  g_byte_array_set_size (sp->tail, 0);
  g_byte_array_append (sp->tail, data + cut, length - cut);
  splitter_submit (sp, buffer, data, cut);
  _sl_chrome_trace_splitter_drain (sp, FALSE);
  return TRUE;
}

/* Everything taken so far is read, before anything is reported. */
void
_sl_chrome_trace_reader_catch_up (Reader *r)
{
  if (r->splitter != NULL)
    _sl_chrome_trace_splitter_drain (r->splitter, TRUE);
  _sl_chrome_trace_reader_flush_yajl (r);
}

void
_sl_chrome_trace_splitter_clear (Splitter *sp)
{
  /* waits for the workers: parts still queued are scanned, then dropped */
  g_thread_pool_free (sp->pool, FALSE, TRUE);
  g_queue_clear_full (&sp->parts, (GDestroyNotify) part_free);
  g_byte_array_unref (sp->tail);
}
