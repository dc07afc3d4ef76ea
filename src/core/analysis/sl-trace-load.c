/* sl-trace-load.c
 *
 * One read of a timeline, for whoever shows it: the worker reads the
 * trace (or takes one already read), places the steps of any step tables
 * on it and builds the drawing index, and the object tells how far it has
 * come through #SlTraceLoad:progress and #SlTraceLoad:state, both
 * changed and notified in the context that started it. Whoever shows the
 * load binds to those instead of polling the worker.
 *
 * A big file is not read for nothing meanwhile: a second thread reads its
 * first megabytes again (inflating gzip) into a trace and a drawing index
 * of their own, the #SlTraceLoad:preview, in well under a second, and
 * again from twice as much, then four times, while each costs a small part
 * of the whole read (none for a file read in a moment anyway). A preview is cut anywhere, mid-event most often: the
 * problems that cut makes are its own and never reach the trace read to
 * the end, whose problems are the only ones to show.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-chrome-trace-reader.h"
#include "sl-core-enums.h"
#include "sl-main-thread.h"
#include "sl-progress.h"
#include "sl-trace-load.h"
#include "sl-trace-loader.h"

/* A preview of 16 MiB of text, then of 32 and 64; the first only when the
 * text is 16 times as big (a file read in well under 2 s needs none), each
 * later one when it is 32 times as big, so that previews cost at most a
 * sixteenth of the whole read, and on gigabytes a few per cent. */
#define PREVIEW_FIRST (16u << 20)
#define PREVIEW_LAST  (64u << 20)
#define FIRST_SHARE   16
#define LATER_SHARE   32

/* The test hold on the full read, shared with the worker. */
typedef struct {
  GMutex   lock;
  GCond    cond;
  gboolean held;
} Gate;

/* What the worker makes; the object takes it in the callback. */
typedef struct {
  SlTrace    *trace;
  SlTraceLod *lod;
  GPtrArray  *spans;        /* SlStepSpans, or NULL when no steps were asked for */
  gint64      read_us;
  gint64      index_us;
} Result;

/* What the worker reads; fixed once started. */
typedef struct {
  char       *path;
  SlTrace    *trace;        /* already read, or NULL */
  GPtrArray  *step_tables;  /* SlStepTrace or NULL */
  gboolean      place_steps;
  gsize         preview_first;
  gsize         preview_last;
  Gate         *gate;
  GObject      *load;       /* held by the task while the worker runs */
  guint         generation;
  SlProgress   *progress;
  GMainContext *context;
} Job;

struct _SlTraceLoad
{
  GObject           parent_instance;

  char             *path;
  SlTrace          *trace;
  gboolean          given_trace;
  GPtrArray        *step_tables;
  gboolean          place_steps;
  guint             generation;
  GCancellable     *cancellable;
  SlProgress       *progress;
  SlTraceLoadState  state;
  SlTraceLod       *lod;
  GPtrArray        *spans;
  gint64            read_us;
  gint64            index_us;
  GError           *error;
  SlTrace          *preview;
  SlTraceLod       *preview_lod;
  guint64           preview_bytes;
  gsize             preview_first;
  gsize             preview_last;
  Gate             *gate;
};

G_DEFINE_FINAL_TYPE (SlTraceLoad, sl_trace_load, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_BYTES_READ,
  PROP_TOTAL_BYTES,
  PROP_PREVIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
result_free (Result *result)
{
  g_clear_object (&result->trace);
  g_clear_pointer (&result->lod, sl_trace_lod_free);
  g_clear_pointer (&result->spans, g_ptr_array_unref);
  g_free (result);
}

static Gate *
gate_new (void)
{
  Gate *gate = g_atomic_rc_box_new0 (Gate);

  g_mutex_init (&gate->lock);
  g_cond_init (&gate->cond);
  return gate;
}

static void
gate_clear (Gate *gate)
{
  g_mutex_clear (&gate->lock);
  g_cond_clear (&gate->cond);
}

static void
gate_unref (Gate *gate)
{
  g_atomic_rc_box_release_full (gate, (GDestroyNotify)gate_clear);
}

static void
gate_wake_cb (GCancellable *cancellable,
              Gate         *gate)
{
  g_mutex_lock (&gate->lock);
  g_cond_broadcast (&gate->cond);
  g_mutex_unlock (&gate->lock);
}

/* Waits while the gate is held, unless cancelled. */
static void
gate_pass (Gate         *gate,
           GCancellable *cancellable)
{
  gulong handler = g_cancellable_connect (cancellable, G_CALLBACK (gate_wake_cb), gate, NULL);

  g_mutex_lock (&gate->lock);
  while (gate->held && !g_cancellable_is_cancelled (cancellable))
    g_cond_wait (&gate->cond, &gate->lock);
  g_mutex_unlock (&gate->lock);
  g_cancellable_disconnect (cancellable, handler);
}

static void
job_free (Job *job)
{
  g_free (job->path);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->step_tables, g_ptr_array_unref);
  g_clear_object (&job->progress);
  g_clear_pointer (&job->gate, gate_unref);
  g_main_context_unref (job->context);
  g_free (job);
}

static void
set_state (SlTraceLoad      *self,
           SlTraceLoadState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* The worker */

static void
bytes_read_cb (guint64  bytes_read,
               guint64  total_bytes,
               gpointer user_data)
{
  Job *job = user_data;

  sl_progress_report (job->progress, bytes_read, total_bytes);
}

/* The move to indexing, told in the starting context. */
typedef struct {
  GWeakRef load;
  guint    generation;
} Indexing;

static gboolean
indexing_cb (gpointer user_data)
{
  Indexing *indexing = user_data;
  g_autoptr(SlTraceLoad) self = g_weak_ref_get (&indexing->load);

  /* Told after the end, or by a load a newer start replaced: nothing to say. */
  if (self != NULL && self->generation == indexing->generation && self->state == SL_TRACE_LOAD_READING)
    set_state (self, SL_TRACE_LOAD_INDEXING);
  return G_SOURCE_REMOVE;
}

static void
indexing_free (Indexing *indexing)
{
  g_weak_ref_clear (&indexing->load);
  g_free (indexing);
}

/* Previews, made by a thread of their own while the worker reads */

typedef struct {
  char         *path;
  gsize         first;
  gsize         last;
  GCancellable *stop;        /* the full read is over, or cancelled */
  GObject      *load;
  guint         generation;
  GMainContext *context;
  GThread      *thread;
  GCancellable *cancellable; /* the load's, which stops the previews too */
  gulong        handler;
} Previewer;

/* One preview, told in the starting context. */
typedef struct {
  GWeakRef    load;
  guint       generation;
  SlTrace    *trace;
  SlTraceLod *lod;
  guint64     bytes;
} Preview;

static void
preview_free (Preview *preview)
{
  g_weak_ref_clear (&preview->load);
  g_clear_object (&preview->trace);
  g_clear_pointer (&preview->lod, sl_trace_lod_free);
  g_free (preview);
}

static gboolean
preview_cb (gpointer user_data)
{
  Preview *preview = user_data;
  g_autoptr(SlTraceLoad) self = g_weak_ref_get (&preview->load);

  /* Late (the full trace is there, or the load ended) or from a load a
   * newer start replaced: nothing to show. */
  if (self == NULL || self->generation != preview->generation || sl_trace_load_is_finished (self))
    return G_SOURCE_REMOVE;

  g_set_object (&self->preview, preview->trace);
  g_clear_pointer (&self->preview_lod, sl_trace_lod_free);
  self->preview_lod = g_steal_pointer (&preview->lod);
  self->preview_bytes = preview->bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW]);
  return G_SOURCE_REMOVE;
}

/* Reads the first @size bytes of @text into a trace and its index, and
 * tells the load; FALSE when stopped. */
static gboolean
make_preview (Previewer    *previewer,
              const guint8 *text,
              gsize         size)
{
  SlTraceBuilder *builder = sl_trace_builder_new (previewer->path);
  SlTrace *trace;
  SlTraceLod *lod;
  Preview *preview;

  sl_chrome_trace_reader_read_data (builder, previewer->path, text, size, NULL);
  if ((trace = sl_trace_builder_finish (builder, previewer->stop)) == NULL)
    return FALSE;
  /* Nothing to draw (not a trace, or one event bigger than the part):
   * the page keeps its progress bar; more text may have something. */
  if (sl_trace_get_n_tracks (trace) == 0)
    {
      g_object_unref (trace);
      return TRUE;
    }
  if ((lod = sl_trace_lod_new (trace, previewer->stop)) == NULL)
    {
      g_object_unref (trace);
      return FALSE;
    }

  preview = g_new0 (Preview, 1);
  g_weak_ref_init (&preview->load, previewer->load);
  preview->generation = previewer->generation;
  preview->trace = trace;
  preview->lod = lod;
  preview->bytes = size;
  sl_main_context_dispatch (previewer->context, preview_cb, preview, (GDestroyNotify)preview_free);
  return TRUE;
}

/* The file's text, read on (and inflated, for gzip) as previews need more
 * of it; @used counts the bytes of the file it took. */
typedef struct {
  GInputStream *stream;
  GConverter   *inflater;   /* NULL for plain text */
  guint8       *in;
  gsize         in_start;
  gsize         in_end;
  gboolean      in_ended;
  guint64       used;
} Text;

#define TEXT_IN_SIZE (256u << 10)

/* Reads @text up to @size bytes; returns how many it has. */
static gsize
text_fill (Text         *t,
           guint8       *text,
           gsize         have,
           gsize         size,
           GCancellable *cancellable)
{
  while (have < size && !g_cancellable_is_cancelled (cancellable))
    {
      gsize n = 0, read = 0, written = 0;
      GConverterResult result;
      g_autoptr(GError) error = NULL;

      if (t->inflater == NULL)
        {
          if (!g_input_stream_read_all (t->stream, text + have, size - have, &n, cancellable, NULL) || n == 0)
            break;
          have += n;
          t->used += n;
          continue;
        }

      if (t->in_start == t->in_end && !t->in_ended)
        {
          if (!g_input_stream_read_all (t->stream, t->in, TEXT_IN_SIZE, &n, cancellable, NULL))
            break;
          t->in_start = 0;
          t->in_end = n;
          t->in_ended = n < TEXT_IN_SIZE;
        }
      result = g_converter_convert (t->inflater, t->in + t->in_start, t->in_end - t->in_start, text + have,
                                    size - have, t->in_ended ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                    &read, &written, &error);
      if (result == G_CONVERTER_ERROR && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT)
          && !t->in_ended && (t->in_start > 0 || t->in_end < TEXT_IN_SIZE))
        {
          /* A block across the end of the buffer: read on behind it. */
          memmove (t->in, t->in + t->in_start, t->in_end - t->in_start);
          t->in_end -= t->in_start;
          t->in_start = 0;
          if (!g_input_stream_read_all (t->stream, t->in + t->in_end, TEXT_IN_SIZE - t->in_end, &n, cancellable, NULL))
            break;
          t->in_ended = t->in_end + n < TEXT_IN_SIZE;
          t->in_end += n;
          continue;
        }
      if (result == G_CONVERTER_ERROR)
        break;
      t->in_start += read;
      t->used += read;
      have += written;
      if (result == G_CONVERTER_FINISHED || (read == 0 && written == 0))
        break;
    }
  return have;
}

static gpointer
preview_thread (gpointer user_data)
{
  Previewer *previewer = user_data;
  g_autoptr(GFile) file = g_file_new_for_path (previewer->path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, previewer->stop, NULL);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GZlibDecompressor) inflater = NULL;
  g_autofree guint8 *text = NULL;
  g_autofree guint8 *in = NULL;
  Text t = { 0 };
  guint8 magic[2];
  gsize n = 0, have = 0;
  guint64 total;
  guint i = 0;

  if (stream == NULL)
    return NULL;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, previewer->stop, NULL);
  total = info != NULL ? (guint64)g_file_info_get_size (info) : 0;
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), magic, sizeof magic, &n, previewer->stop, NULL)
      || n < sizeof magic
      || !g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, previewer->stop, NULL))
    return NULL;
  t.stream = G_INPUT_STREAM (stream);
  if (magic[0] == 0x1f && magic[1] == 0x8b)
    {
      inflater = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      t.inflater = G_CONVERTER (inflater);
      t.in = in = g_malloc (TEXT_IN_SIZE);
    }

  text = g_malloc (previewer->last);
  for (gsize size = previewer->first; size <= previewer->last; size *= 2, i++)
    {
      guint64 estimate;

      have = text_fill (&t, text, have, size, previewer->stop);
      /* All of it: the full read is as quick. */
      if (have < size || t.used == 0)
        break;
      /* Gzip text is as much bigger than the file as it has been so far. */
      estimate = (guint64)((double)total * have / t.used);
      if ((guint64)size * (i == 0 ? FIRST_SHARE : LATER_SHARE) > estimate)
        break;
      if (!make_preview (previewer, text, size))
        break;
    }
  return NULL;
}

static void
stop_previews_cb (GCancellable *cancellable,
                  GCancellable *stop)
{
  g_cancellable_cancel (stop);
}

/* Previews of a Chrome trace file (plain or gzip) when asked for. */
static Previewer *
start_previews (Job          *job,
                GCancellable *cancellable)
{
  Previewer *previewer;

  if (job->trace != NULL || job->preview_first == 0 || job->preview_last < job->preview_first
      || g_str_has_suffix (job->path, ".db") || !g_file_test (job->path, G_FILE_TEST_IS_REGULAR))
    return NULL;

  previewer = g_new0 (Previewer, 1);
  previewer->path = g_strdup (job->path);
  previewer->first = job->preview_first;
  previewer->last = job->preview_last;
  previewer->stop = g_cancellable_new ();
  previewer->load = job->load;
  previewer->generation = job->generation;
  previewer->context = g_main_context_ref (job->context);
  previewer->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  previewer->handler = g_cancellable_connect (cancellable, G_CALLBACK (stop_previews_cb), previewer->stop, NULL);
  previewer->thread = g_thread_new ("sl-trace-preview", preview_thread, previewer);
  return previewer;
}

/* No more previews after the full read. */
static void
stop_previews (Previewer *previewer)
{
  if (previewer != NULL)
    g_cancellable_cancel (previewer->stop);
}

static void
end_previews (Previewer *previewer)
{
  if (previewer == NULL)
    return;
  g_cancellable_cancel (previewer->stop);
  g_thread_join (previewer->thread);
  g_cancellable_disconnect (previewer->cancellable, previewer->handler);
  g_clear_object (&previewer->cancellable);
  g_clear_object (&previewer->stop);
  g_main_context_unref (previewer->context);
  g_free (previewer->path);
  g_free (previewer);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GError) error = NULL;
  Result *result = g_new0 (Result, 1);
  gint64 start = g_get_monotonic_time ();
  Previewer *previewer = start_previews (job, cancellable);
  Indexing *indexing;

  gate_pass (job->gate, cancellable);
  if (job->trace != NULL)
    result->trace = g_object_ref (job->trace);
  else if (g_cancellable_is_cancelled (cancellable)
           || (result->trace = sl_trace_load_path (job->path, bytes_read_cb, job, cancellable, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
      end_previews (previewer);
      result_free (result);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  result->read_us = g_get_monotonic_time () - start;
  stop_previews (previewer);

  indexing = g_new0 (Indexing, 1);
  /* The task holds the load while the worker runs. */
  g_weak_ref_init (&indexing->load, source_object);
  indexing->generation = job->generation;
  sl_main_context_dispatch (job->context, indexing_cb, indexing, (GDestroyNotify)indexing_free);

  if (job->place_steps)
    {
      result->spans = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_step_spans_free);
      for (guint i = 0; job->step_tables != NULL && i < job->step_tables->len; i++)
        g_ptr_array_add (result->spans, sl_step_spans_new (result->trace, g_ptr_array_index (job->step_tables, i)));
      if (result->spans->len == 0)
        g_ptr_array_add (result->spans, sl_step_spans_new (result->trace, NULL));
    }

  result->lod = sl_trace_lod_new (result->trace, cancellable);
  result->index_us = g_get_monotonic_time () - start - result->read_us;
  end_previews (previewer);
  if (result->lod == NULL)
    {
      result_free (result);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
      return;
    }
  g_task_return_pointer (task, result, (GDestroyNotify)result_free);
}

/* In the context that started it */

static void
clear_preview (SlTraceLoad *self)
{
  gboolean had = self->preview != NULL;

  g_clear_object (&self->preview);
  g_clear_pointer (&self->preview_lod, sl_trace_lod_free);
  self->preview_bytes = 0;
  if (had)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW]);
}

static void
load_cb (GObject      *object,
         GAsyncResult *async_result,
         gpointer      user_data)
{
  SlTraceLoad *self = SL_TRACE_LOAD (object);
  g_autoptr(GError) error = NULL;
  Result *result = g_task_propagate_pointer (G_TASK (async_result), &error);

  Job *job = g_task_get_task_data (G_TASK (async_result));

  /* A newer start took over. */
  if (job->generation != self->generation)
    {
      g_clear_pointer (&result, result_free);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  clear_preview (self);

  if (result == NULL)
    {
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

      g_clear_error (&self->error);
      self->error = g_steal_pointer (&error);
      set_state (self, cancelled ? SL_TRACE_LOAD_CANCELLED : SL_TRACE_LOAD_FAILED);
      g_object_thaw_notify (G_OBJECT (self));
      return;
    }

  g_set_object (&self->trace, result->trace);
  g_clear_pointer (&self->lod, sl_trace_lod_free);
  self->lod = g_steal_pointer (&result->lod);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = g_steal_pointer (&result->spans);
  self->read_us = result->read_us;
  self->index_us = result->index_us;
  result_free (result);
  sl_progress_report_fraction (self->progress, 1.0);
  set_state (self, SL_TRACE_LOAD_DONE);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
progress_notify_cb (SlProgress  *progress,
                    GParamSpec  *pspec,
                    SlTraceLoad *self)
{
  if (progress != self->progress)
    return;
  if (g_str_equal (pspec->name, "fraction"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  else if (g_str_equal (pspec->name, "done"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
  else if (g_str_equal (pspec->name, "total"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL_BYTES]);
}

/**
 * sl_trace_load_start:
 *
 * Reads on a worker; the properties change in the calling thread's
 * default main context. A load under way is cancelled and its outcome
 * dropped: starting again reads again.
 */
void
sl_trace_load_start (SlTraceLoad *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (SL_IS_TRACE_LOAD (self));

  sl_trace_load_cancel (self);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);
  self->progress = sl_progress_new ();
  g_signal_connect_object (self->progress, "notify", G_CALLBACK (progress_notify_cb), self, 0);
  g_clear_error (&self->error);
  g_clear_pointer (&self->lod, sl_trace_lod_free);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  if (!self->given_trace)
    g_clear_object (&self->trace);
  g_object_freeze_notify (G_OBJECT (self));
  clear_preview (self);

  job = g_new0 (Job, 1);
  job->path = g_strdup (self->path);
  job->trace = self->given_trace ? g_object_ref (self->trace) : NULL;
  job->step_tables = self->step_tables != NULL ? g_ptr_array_ref (self->step_tables) : NULL;
  job->place_steps = self->place_steps;
  job->progress = g_object_ref (self->progress);
  job->generation = ++self->generation;
  job->context = g_main_context_ref_thread_default ();
  job->preview_first = self->preview_first;
  job->preview_last = self->preview_last;
  job->gate = g_atomic_rc_box_acquire (self->gate);
  job->load = G_OBJECT (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL_BYTES]);
  set_state (self, SL_TRACE_LOAD_READING);
  g_object_thaw_notify (G_OBJECT (self));

  task = g_task_new (self, self->cancellable, load_cb, NULL);
  g_task_set_source_tag (task, sl_trace_load_start);
  g_task_set_task_data (task, job, (GDestroyNotify)job_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * sl_trace_load_cancel:
 *
 * Stops the worker as soon as it looks; the state becomes
 * %SL_TRACE_LOAD_CANCELLED when it has stopped (or DONE, when it was done
 * already).
 */
void
sl_trace_load_cancel (SlTraceLoad *self)
{
  g_return_if_fail (SL_IS_TRACE_LOAD (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/**
 * sl_trace_load_place_steps:
 * @step_tables: (nullable) (element-type SlStepTrace): step tables, or
 *   %NULL for none
 *
 * Before the start: the worker also places the steps of every table on
 * the trace (sl_trace_load_steal_spans()), one SlStepSpans per table, or
 * one without steps when there is no table.
 */
void
sl_trace_load_place_steps (SlTraceLoad *self,
                           GPtrArray   *step_tables)
{
  g_return_if_fail (SL_IS_TRACE_LOAD (self));

  g_clear_pointer (&self->step_tables, g_ptr_array_unref);
  if (step_tables != NULL)
    self->step_tables = g_ptr_array_ref (step_tables);
  self->place_steps = TRUE;
}

const char *
sl_trace_load_get_path (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return self->path;
}

SlTraceLoadState
sl_trace_load_get_state (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), SL_TRACE_LOAD_WAITING);
  return self->state;
}

/* Done, failed or cancelled: the worker has stopped. */
gboolean
sl_trace_load_is_finished (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), FALSE);
  return self->state >= SL_TRACE_LOAD_DONE;
}

/**
 * sl_trace_load_get_progress:
 *
 * Returns: from 0 to 1: the part of the file read, then 1 when done; it
 *   never goes back
 */
double
sl_trace_load_get_progress (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->progress != NULL ? sl_progress_get_fraction (self->progress) : 0;
}

guint64
sl_trace_load_get_bytes_read (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->progress != NULL ? sl_progress_get_done (self->progress) : 0;
}

/* 0 when not known (yet). */
guint64
sl_trace_load_get_total_bytes (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->progress != NULL ? sl_progress_get_total (self->progress) : 0;
}

/**
 * sl_trace_load_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace when done (or given); its
 *   problems name the file and offset of any damage read past
 */
SlTrace *
sl_trace_load_get_trace (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return self->state == SL_TRACE_LOAD_DONE || self->given_trace ? self->trace : NULL;
}

/**
 * sl_trace_load_steal_lod:
 *
 * Returns: (transfer full) (nullable): the drawing index when done, once
 */
SlTraceLod *
sl_trace_load_steal_lod (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return g_steal_pointer (&self->lod);
}

/**
 * sl_trace_load_steal_spans:
 *
 * Returns: (transfer full) (nullable) (element-type SlStepSpans): the
 *   steps placed when asked for with sl_trace_load_place_steps(), once
 */
GPtrArray *
sl_trace_load_steal_spans (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return g_steal_pointer (&self->spans);
}

/* How long reading and indexing took, when done. */
gint64
sl_trace_load_get_read_us (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->read_us;
}

gint64
sl_trace_load_get_index_us (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->index_us;
}

/**
 * sl_trace_load_get_error:
 *
 * Returns: (nullable): why the load failed (naming the file) or was
 *   cancelled (%G_IO_ERROR_CANCELLED)
 */
const GError *
sl_trace_load_get_error (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return self->error;
}

/**
 * sl_trace_load_get_preview:
 *
 * Returns: (transfer none) (nullable): while reading, the trace of what
 *   has been read so far; its problems are the cut's, not the file's
 */
SlTrace *
sl_trace_load_get_preview (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return self->preview;
}

/**
 * sl_trace_load_steal_preview_lod:
 *
 * Returns: (transfer full) (nullable): the drawing index of the preview,
 *   once per preview
 */
SlTraceLod *
sl_trace_load_steal_preview_lod (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), NULL);
  return g_steal_pointer (&self->preview_lod);
}

/* How many bytes of text (inflated, for gzip) the preview was read from. */
guint64
sl_trace_load_get_preview_bytes (SlTraceLoad *self)
{
  g_return_val_if_fail (SL_IS_TRACE_LOAD (self), 0);
  return self->preview_bytes;
}

void
sl_trace_load_set_preview_sizes (SlTraceLoad *self,
                                 gsize        first,
                                 gsize        last)
{
  g_return_if_fail (SL_IS_TRACE_LOAD (self));
  self->preview_first = first;
  self->preview_last = last;
}

/**
 * sl_trace_load_hold_reading:
 *
 * While held, the worker waits before it reads the file (previews are
 * made meanwhile); a cancel ends the wait.
 */
void
sl_trace_load_hold_reading (SlTraceLoad *self,
                            gboolean     hold)
{
  g_return_if_fail (SL_IS_TRACE_LOAD (self));

  g_mutex_lock (&self->gate->lock);
  self->gate->held = hold;
  g_cond_broadcast (&self->gate->cond);
  g_mutex_unlock (&self->gate->lock);
}

static gboolean
same_track (SlTrace *from,
            guint    track,
            SlTrace *to,
            guint    to_track)
{
  SlTraceTrackKind kind = sl_trace_get_track_kind (from, track);

  if (sl_trace_get_track_kind (to, to_track) != kind
      || g_strcmp0 (sl_trace_get_process_pid (from, sl_trace_get_track_process (from, track)),
                    sl_trace_get_process_pid (to, sl_trace_get_track_process (to, to_track))) != 0
      || g_strcmp0 (sl_trace_get_track_tid (from, track), sl_trace_get_track_tid (to, to_track)) != 0)
    return FALSE;
  /* A thread's name may come later in the file than its first slices. */
  return kind == SL_TRACE_TRACK_THREAD
         || g_strcmp0 (sl_trace_get_track_name (from, track), sl_trace_get_track_name (to, to_track)) == 0;
}

/**
 * sl_trace_load_match_slice:
 * @from: a trace, a preview most often
 * @to: a trace read from more of the same file
 *
 * Finds @slice of @track of @from in @to: in the track of the same
 * process and thread (or name), the slice that starts at the same time, at
 * the same depth, with the same name and (unless it was unfinished in
 * @from) the same duration.
 *
 * Returns: whether @to has it
 */
gboolean
sl_trace_load_match_slice (SlTrace *from,
                           guint    track,
                           guint32  slice,
                           SlTrace *to,
                           guint   *to_track,
                           guint32 *to_slice)
{
  const SlTraceSlices *a;
  const char *name;
  gint64 start;

  g_return_val_if_fail (SL_IS_TRACE (from) && SL_IS_TRACE (to), FALSE);

  if (track >= sl_trace_get_n_tracks (from) || (a = sl_trace_get_slices (from, track)) == NULL
      || slice >= a->n_slices)
    return FALSE;
  start = sl_trace_slices_start_ns (a, slice);
  name = sl_trace_get_string (from, sl_trace_slices_name_id (a, slice));

  for (guint t = 0; t < sl_trace_get_n_tracks (to); t++)
    {
      const SlTraceSlices *b;
      guint lo = 0, hi;

      if (!same_track (from, track, to, t) || (b = sl_trace_get_slices (to, t)) == NULL)
        continue;
      hi = b->n_slices;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (sl_trace_slices_start_ns (b, mid) < start)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint i = lo; i < b->n_slices && sl_trace_slices_start_ns (b, i) == start; i++)
        if (sl_trace_slices_depth (b, i) == sl_trace_slices_depth (a, slice)
            && ((sl_trace_slices_flags (a, slice) & SL_TRACE_SLICE_UNFINISHED) != 0 || sl_trace_slices_dur_ns (b, i) == sl_trace_slices_dur_ns (a, slice))
            && g_strcmp0 (sl_trace_get_string (to, sl_trace_slices_name_id (b, i)), name) == 0)
          {
            if (to_track != NULL)
              *to_track = t;
            if (to_slice != NULL)
              *to_slice = i;
            return TRUE;
          }
    }
  return FALSE;
}

static void
sl_trace_load_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlTraceLoad *self = SL_TRACE_LOAD (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, sl_trace_load_get_progress (self));
      break;
    case PROP_BYTES_READ:
      g_value_set_uint64 (value, sl_trace_load_get_bytes_read (self));
      break;
    case PROP_TOTAL_BYTES:
      g_value_set_uint64 (value, sl_trace_load_get_total_bytes (self));
      break;
    case PROP_PREVIEW:
      g_value_set_object (value, self->preview);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_trace_load_dispose (GObject *object)
{
  SlTraceLoad *self = SL_TRACE_LOAD (object);

  /* The task holds the object until the worker ends: nothing runs now. */
  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);

  G_OBJECT_CLASS (sl_trace_load_parent_class)->dispose (object);
}

static void
sl_trace_load_finalize (GObject *object)
{
  SlTraceLoad *self = SL_TRACE_LOAD (object);

  g_free (self->path);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->step_tables, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->lod, sl_trace_lod_free);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->preview);
  g_clear_pointer (&self->preview_lod, sl_trace_lod_free);
  g_clear_pointer (&self->gate, gate_unref);

  G_OBJECT_CLASS (sl_trace_load_parent_class)->finalize (object);
}

static void
sl_trace_load_class_init (SlTraceLoadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_trace_load_get_property;
  object_class->dispose = sl_trace_load_dispose;
  object_class->finalize = sl_trace_load_finalize;

  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * SlTraceLoad:state:
   *
   * Waiting, reading, indexing, then done, failed or cancelled.
   */
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, SL_TYPE_TRACE_LOAD_STATE, SL_TRACE_LOAD_WAITING,
                                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlTraceLoad:progress:
   *
   * The part of the file read, from 0, then 1 when done; it never goes
   * back.
   */
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BYTES_READ] = g_param_spec_uint64 ("bytes-read", NULL, NULL, 0, G_MAXUINT64, 0,
                                                     G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOTAL_BYTES] = g_param_spec_uint64 ("total-bytes", NULL, NULL, 0, G_MAXUINT64, 0,
                                                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlTraceLoad:preview:
   *
   * While a Chrome trace file is read: a complete trace of what has been
   * read so far (with sl_trace_load_steal_preview_lod(), its drawing
   * index), replaced as more is read; %NULL before the first and once the
   * load has ended. Its problems come from where it was cut: never show
   * them.
   */
  properties[PROP_PREVIEW] = g_param_spec_object ("preview", NULL, NULL, SL_TYPE_TRACE,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_trace_load_init (SlTraceLoad *self)
{
  self->state = SL_TRACE_LOAD_WAITING;
  self->preview_first = PREVIEW_FIRST;
  self->preview_last = PREVIEW_LAST;
  self->gate = gate_new ();
}

/**
 * sl_trace_load_new:
 * @path: a Chrome trace file (plain or gzip) or a profiler folder
 *
 * Returns: (transfer full): a load to start
 */
SlTraceLoad *
sl_trace_load_new (const char *path)
{
  SlTraceLoad *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_TRACE_LOAD, NULL);
  self->path = g_strdup (path);
  return self;
}

/**
 * sl_trace_load_new_for_trace:
 *
 * Returns: (transfer full): a load of a trace already read: only the
 *   drawing index is built (and the steps placed, when asked)
 */
SlTraceLoad *
sl_trace_load_new_for_trace (SlTrace *trace)
{
  SlTraceLoad *self;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  self = g_object_new (SL_TYPE_TRACE_LOAD, NULL);
  self->path = g_strdup (sl_trace_get_source_path (trace));
  self->trace = g_object_ref (trace);
  self->given_trace = TRUE;
  return self;
}
