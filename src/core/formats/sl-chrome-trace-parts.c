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

void
_sl_chrome_trace_record_event (Reader  *r,
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

  _sl_chrome_trace_begin_event (r, rec->start);
  r->ph_length = rec->ph_length;
  memcpy (r->ph, rec->ph, rec->ph_length);
  if (rec->has_cat && rec->cat_first)
    _sl_chrome_trace_set_category (r, (const unsigned char *) cat, rec->cat_length);
  if (rec->has_name)
    {
      r->name_id = intern_text (r, (const unsigned char *) text, rec->name_length);
      r->meta = _sl_chrome_trace_match_meta_name ((const unsigned char *) text, rec->name_length);
    }
  if (rec->has_cat && !rec->cat_first)
    _sl_chrome_trace_set_category (r, (const unsigned char *) cat, rec->cat_length);
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
  _sl_chrome_trace_finish_event (r, rec->start + rec->length);
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
void
_sl_chrome_trace_splitter_drain (Splitter *sp,
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
