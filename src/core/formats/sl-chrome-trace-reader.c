/* sl-chrome-trace-reader.c: streaming Chrome trace JSON import
 *
 * yajl calls back for every token; the reader keeps only the fields of
 * the event being read (ph, name, cat, ts, dur, pid, tid, ids, and args
 * only for counters and metadata) in fixed scratch buffers, and hands the
 * event to the builder when its closing brace arrives. Numbers come as
 * text (yajl_number), so times and ids are converted exactly. A file is
 * read (and inflated) by the thread of sl-chrome-trace-pipe.c.
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

#include "sl-platform.h"

#include "sl-chrome-trace-pipe.h"
#include "sl-chrome-trace-reader.h"
#include "sl-chrome-trace-reader-private.h"
#include "sl-yajl-error.h"

/* ------------------------------------------------------------------ */
/* yajl callbacks */

/* Where the top-level value ends, for trailing garbage to be placed. */
static void
note_value_end (Reader *r)
{
  if (r->depth == 0)
    {
      r->doc_ended = TRUE;
      r->doc_end = r->base + yajl_get_bytes_consumed (r->yajl);
    }
}

static int
on_scalar (Reader              *r,
           const unsigned char *value,
           size_t               length,
           gboolean             is_string)
{
  note_value_end (r);
  if (!r->in_event)
    return 1;

  if (r->depth == r->event_depth)
    _sl_chrome_trace_event_scalar (r, value, length, is_string);
  else if (r->depth == r->event_depth + 1)
    _sl_chrome_trace_sub_scalar (r, value, length, is_string);
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

  note_value_end (r);
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
  note_value_end (ctx);
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
      r->key = _sl_chrome_trace_match_event_key (key, length);
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
  _sl_chrome_trace_reader_problem (r, SL_SEVERITY_ERROR, r->base + yajl_get_bytes_consumed (r->yajl), message);
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
        _sl_chrome_trace_begin_event (r, r->base + yajl_get_bytes_consumed (r->yajl) - 1);
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
        _sl_chrome_trace_finish_event (r, r->base + yajl_get_bytes_consumed (r->yajl));
      else if (r->depth == r->event_depth + 1)
        r->sub = SUB_NONE;
    }
  r->depth--;
  note_value_end (r);
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
  note_value_end (r);
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
  /* the caches' 11 kB are only marked empty */
  memset (r, 0, G_STRUCT_OFFSET (Reader, process_cache));
  for (guint i = 0; i < CACHE_SIZE; i++)
    {
      r->process_cache[i].valid = FALSE;
      r->track_cache[i].valid = FALSE;
      r->counter_cache[i].valid = FALSE;
      r->series_cache[i].valid = FALSE;
    }
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
  r->fast = TRUE;
  r->doc = DOC_START;
  r->carry = g_byte_array_new ();
  r->carry_cuts = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/* yajl, made when it is first given text: most files are read by the
 * scanner alone. */
yajl_handle
_sl_chrome_trace_reader_yajl (Reader *r)
{
  if (r->yajl == NULL)
    {
      r->yajl = yajl_alloc (&callbacks, NULL, r);
      /* Comments are not JSON; UTF-8 is checked only where strings are kept. */
      yajl_config (r->yajl, yajl_allow_comments, 0);
      yajl_config (r->yajl, yajl_dont_validate_strings, 1);
    }
  return r->yajl;
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
  if (r->key_scratch != NULL)
    g_string_free (r->key_scratch, TRUE);
  if (r->async_open != NULL)
    g_hash_table_unref (r->async_open);
  if (r->yajl != NULL)
    yajl_free (r->yajl);
  g_byte_array_unref (r->carry);
  g_array_unref (r->carry_cuts);
  if (r->yajl_pending != NULL)
    g_byte_array_unref (r->yajl_pending);
}

/* Whether @data holds only zero bytes. */
static gboolean
zeros_to_end (const guint8 *data,
              gsize         length)
{
  return length > 0 && data[0] == 0 && memcmp (data, data + 1, length - 1) == 0;
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
  yajl_status status;

  /* A UTF-8 byte order mark at the start of the file is not JSON, but
   * Windows tools write one. The first block holds the whole of it: the
   * blocks are cut at multiples of YAJL_BLOCK, or at the file's end. */
  if (offset == 0 && length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      data += 3;
      length -= 3;
      offset += 3;
      r->base += 3;
    }
  status = yajl_parse (_sl_chrome_trace_reader_yajl (r), data, length);

  if (status != yajl_status_ok && r->too_deep)
    r->failed = TRUE;
  else if (status != yajl_status_ok)
    {
      g_autofree char *reason = sl_yajl_error_dup_reason (r->yajl, data, length);
      g_autofree char *message = NULL;
      gsize at = sl_yajl_error_offset (r->yajl, reason, data, length,
                                       !r->doc_ended ? -1 : r->doc_end > offset ? (gssize) (r->doc_end - offset) : 0);

      if (at < length && zeros_to_end (data + at, length - at))
        {
          /* Room a file was given and never written: after a whole
           * document, nothing is missing; inside one, the rest is. */
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_WARNING, offset + at,
                                           strstr (reason, "trailing garbage") != NULL
                                           ? _("Zero bytes follow the end of the JSON here: room the file was given but never written; every event is read")
                                           : _("The JSON gives way to zero bytes here: the file was not written to its end (cut off while written?); the events before are kept"));
        }
      else
        {
          /* Translators: the reason is the JSON parser's own (English) text */
          message = g_strdup_printf (_("The JSON is damaged here (%s); the events before are kept"), reason);
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_ERROR, offset + at, message);
        }
      r->failed = TRUE;
    }
}

void
_sl_chrome_trace_reader_feed_yajl (Reader       *r,
                                   const guint8 *data,
                                   gsize         length)
{
  GByteArray *pending;

  if (r->failed || length == 0)
    {
      r->base += length;
      return;
    }
  if (r->yajl_pending == NULL)
    r->yajl_pending = g_byte_array_new ();
  pending = r->yajl_pending;
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
void
_sl_chrome_trace_reader_flush_yajl (Reader *r)
{
  GByteArray *pending = r->yajl_pending;
  guint64 saved = r->base;

  if (pending == NULL || pending->len == 0 || r->failed)
    return;
  r->base = r->yajl_start;
  yajl_block (r, pending->data, pending->len, r->yajl_start);
  r->base = saved;
  r->yajl_start += pending->len;
  g_byte_array_set_size (pending, 0);
}

/* ------------------------------------------------------------------ */
/* Reading the data, plain or gzip, from memory or a file */

static void
reader_finish (Reader *r)
{
  _sl_chrome_trace_reader_feed_end (r);
  _sl_chrome_trace_reader_flush_yajl (r);
  if (!r->failed)
    {
      if (r->base == 0)
        {
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_ERROR, 0, _("The file is empty"));
        }
      else if (!r->fast && yajl_complete_parse (_sl_chrome_trace_reader_yajl (r)) != yajl_status_ok &&
               !(r->depth == 1 && r->events_depth == 1 && !r->in_event))
        {
          /* (The JSON Array Format may end without its "]", after an
           * event or its comma: writers that may be stopped at any time
           * only ever append events. Its events are all whole.) */
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_WARNING, r->base,
                                           _("The file ends before the JSON is complete (cut off while written?); the events before are kept"));
        }
      else if (!r->saw_events)
        {
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_WARNING, 0,
                                           _("The JSON holds no traceEvents array, so no events were read"));
        }
    }

  for (guint c = 0; c < 256; c++)
    {
      /* eight phases at once past those never met, most of them */
      if (c % 8 == 0)
        {
          const guint64 *eight = &r->phase_counts[c];

          if ((eight[0] | eight[1] | eight[2] | eight[3] | eight[4] | eight[5] | eight[6] | eight[7]) == 0)
            {
              c += 7;
              continue;
            }
        }
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
      _sl_chrome_trace_reader_problem (r, SL_SEVERITY_WARNING, r->first_no_ts, message);
    }
  if (r->n_no_dur > 0)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu complete event (\"ph\": \"X\") has no valid duration (\"dur\") and is drawn as lasting 0 µs",
                                      "%llu complete events (\"ph\": \"X\") have no valid duration (\"dur\") and are drawn as lasting 0 µs; the position is the first one's",
                                      r->n_no_dur),
                         (unsigned long long) r->n_no_dur);
      _sl_chrome_trace_reader_problem (r, SL_SEVERITY_WARNING, r->first_no_dur, message);
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
      _sl_chrome_trace_reader_take (r, inf->out, CHUNK_SIZE - inf->z.avail_out, compressed_offset + (length - inf->z.avail_in));

      if (ret == Z_STREAM_END)
        inf->ended = TRUE;
      else if (ret == Z_BUF_ERROR && !output_full)
        return;
      else if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          g_autofree char *message =
            g_strdup_printf (_("The gzip data is damaged (%s); the events before are kept"),
                             inf->z.msg != NULL ? inf->z.msg : "zlib");
          _sl_chrome_trace_reader_catch_up (r);
          _sl_chrome_trace_reader_problem (r, SL_SEVERITY_ERROR,
                                           compressed_offset + (length - inf->z.avail_in), message);
          inf->damaged = TRUE;
          /* what follows is not the JSON: no more reports on it, as
           * when a file is read */
          r->failed = TRUE;
        }
    }
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
      _sl_chrome_trace_splitter_init (&splitter, &r);
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
          _sl_chrome_trace_reader_catch_up (&r);
          if (!inf.ended && !inf.damaged && !r.failed)
            _sl_chrome_trace_reader_problem (&r, SL_SEVERITY_WARNING, length, _("The gzip data ends early"));
          inflateEnd (&inf.z);
        }
      g_free (inf.out);
    }
  else
    {
      for (gsize done = 0; done < length && !r.failed; done += MIN (length - done, piece_size))
        _sl_chrome_trace_reader_take (&r, data + done, MIN (length - done, piece_size), done + MIN (length - done, piece_size));
    }
  if (r.splitter != NULL)
    {
      _sl_chrome_trace_splitter_drain (&splitter, TRUE);
      _sl_chrome_trace_splitter_clear (&splitter);
      r.splitter = NULL;
    }
  reader_finish (&r);
  reader_clear (&r);
}

/* A file this small is read whole in the calling thread and scanned in
 * order: threads and their hand-overs would cost more than they save
 * (most real traces are a few MB at most). */
#define SMALL_FILE (8 * CHUNK_SIZE)

static gboolean
read_small (SlTraceBuilder       *builder,
            GInputStream         *stream,
            const char           *path,
            const char           *pid_prefix,
            guint64               size,
            SlTraceProgressFunc   progress,
            gpointer              user_data,
            GCancellable         *cancellable,
            GError              **error)
{
  g_autoptr(GByteArray) data = g_byte_array_sized_new (size + 1);
  gsize n_read;

  /* to the end, should the file have grown since its size was asked */
  do
    {
      guint old = data->len;

      /* the size first, one byte more to see the end */
      g_byte_array_set_size (data, old + (old == 0 ? size + 1 : CHUNK_SIZE));
      if (!g_input_stream_read_all (stream, data->data + old, data->len - old, &n_read, cancellable, error))
        return FALSE;
      g_byte_array_set_size (data, old + n_read);
    }
  while (n_read > 0 && data->len > size);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  sl_chrome_trace_reader_read_data_full (builder, path, data->data, data->len, pid_prefix, 0,
                                         SL_CHROME_TRACE_READ_SCAN);
  if (progress != NULL)
    progress (data->len, MAX (size, data->len), user_data);
  return TRUE;
}

/* Whether @stream starts as gzip does, in *@gzip, and is left where it
 * was (FALSE with @error when it cannot be put back). A stream that
 * cannot seek is taken for gzip: a gzip file is inflated in a thread of
 * its own, as it holds many times its size. */
static gboolean
starts_gzip (GInputStream  *stream,
             gboolean      *gzip,
             GCancellable  *cancellable,
             GError       **error)
{
  guint8 magic[2];
  gsize n_read = 0;

  *gzip = TRUE;
  if (!G_IS_SEEKABLE (stream) || !g_seekable_can_seek (G_SEEKABLE (stream)))
    return TRUE;
  if (!g_input_stream_read_all (stream, magic, sizeof magic, &n_read, cancellable, error) ||
      !g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, cancellable, error))
    return FALSE;
  *gzip = is_gzip (magic, n_read);
  return TRUE;
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
  gboolean ok = TRUE, stopping = FALSE;
  guint64 total = 0;
  Pipe *pipe;
  Chunk *chunk;
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
  if (info != NULL && total <= SMALL_FILE)
    {
      gboolean gzip;

      if (!starts_gzip (G_INPUT_STREAM (stream), &gzip, cancellable, error))
        return FALSE;
      if (!gzip)
        return read_small (builder, G_INPUT_STREAM (stream), path, pid_prefix, total, progress, user_data,
                           cancellable, error);
    }

  reader_init (&r, builder, path, pid_prefix);
  if (_sl_chrome_trace_splitter_n_workers () > 0)
    {
      _sl_chrome_trace_splitter_init (&splitter, &r);
      r.splitter = &splitter;
    }
  pipe = _sl_chrome_trace_pipe_start (G_INPUT_STREAM (stream), path, cancellable);

  for (;;)
    {
      chunk = _sl_chrome_trace_pipe_pop (pipe);
      if (chunk->end)
        {
          /* what came before the end, in order, before any report */
          if (!stopping && chunk->error == NULL)
            _sl_chrome_trace_reader_catch_up (&r);
          if (chunk->error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&chunk->error));
              ok = FALSE;
            }
          else if (chunk->damage != NULL && !r.failed)
            {
              _sl_chrome_trace_reader_problem (&r, chunk->damage_severity, chunk->damage_offset, chunk->damage);
              if (chunk->damage_severity == SL_SEVERITY_ERROR)
                r.failed = TRUE;  /* what follows the damage is not JSON */
            }
          break;
        }

      if (!stopping)
        {
          if (_sl_chrome_trace_reader_take_buffer (&r, chunk->buffer, chunk->length, chunk->file_bytes))
            {
              /* the part has it now */
              chunk->buffer = g_malloc (CHUNK_HEADROOM + CHUNK_SIZE);
              chunk->data = chunk->buffer + CHUNK_HEADROOM;
            }
          if (progress != NULL)
            progress (chunk->file_bytes, total, user_data);
          if (r.failed || g_cancellable_is_cancelled (cancellable))
            {
              /* let the reader finish; what it sends is dropped */
              stopping = TRUE;
              _sl_chrome_trace_pipe_stop (pipe);
            }
        }
      _sl_chrome_trace_pipe_recycle (pipe, chunk);
    }
  _sl_chrome_trace_pipe_free (pipe, chunk);
  if (r.splitter != NULL)
    _sl_chrome_trace_splitter_clear (&splitter);
  r.splitter = NULL;

  if (ok && g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  if (ok)
    reader_finish (&r);
  reader_clear (&r);
  return ok;
}

/* A small plain local file is read in one go (see
 * sl_platform_read_small_file()): a GIO stream, its file info and the look
 * for gzip magic took more than the reading of a trace of a few kB.
 * Returns FALSE, having read nothing into @builder, for anything else (a
 * special file, a big or gzip file, an error), which the GIO path then
 * reads or reports as ever. */
static gboolean
read_local_small (SlTraceBuilder       *builder,
                  const char           *path,
                  SlTraceProgressFunc   progress,
                  gpointer              user_data,
                  GCancellable         *cancellable)
{
  g_autofree char *canonical = NULL;
  g_autofree guint8 *data = NULL;
  gsize length = 0;
  guint64 size = 0;

  if (!sl_platform_read_small_file (path, SMALL_FILE, &data, &length, &size))
    return FALSE;
  if (is_gzip (data, length) || g_cancellable_is_cancelled (cancellable))
    return FALSE;

  /* the path as GIO gives it: an absolute path with no "." or ".."
   * part and no doubled or trailing slash already is */
  if (!g_path_is_absolute (path) || strstr (path, "//") != NULL || strstr (path, "/./") != NULL ||
      strstr (path, "/../") != NULL || g_str_has_suffix (path, "/.") || g_str_has_suffix (path, "/..") ||
      g_str_has_suffix (path, "/") || strchr (path, '\\') != NULL)
    canonical = g_canonicalize_filename (path, NULL);
  sl_chrome_trace_reader_read_data_full (builder, canonical != NULL ? canonical : path, data, length, NULL, 0,
                                         SL_CHROME_TRACE_READ_SCAN);
  if (progress != NULL)
    progress (length, MAX (size, length), user_data);
  return TRUE;
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
  gboolean done = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  SL_ASSERT_OFF_MAIN_THREAD ();
  builder = sl_trace_builder_new (path);
  done = read_local_small (builder, path, progress, user_data, cancellable);
  if (!done)
    file = g_file_new_for_path (path);
  if (!done && !sl_chrome_trace_reader_read_into (builder, file, NULL, progress, user_data, cancellable, error))
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
