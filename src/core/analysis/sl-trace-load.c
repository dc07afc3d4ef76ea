/* sl-trace-load.c
 *
 * One read of a timeline, for whoever shows it: the worker reads the
 * trace (or takes one already read), places the steps of any step tables
 * on it and builds the drawing index, and the object tells how far it has
 * come through #SlTraceLoad:progress and #SlTraceLoad:state, both
 * changed and notified in the context that started it. Whoever shows the
 * load binds to those instead of polling the worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-core-enums.h"
#include "sl-main-thread.h"
#include "sl-progress.h"
#include "sl-trace-load.h"
#include "sl-trace-loader.h"

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
};

G_DEFINE_FINAL_TYPE (SlTraceLoad, sl_trace_load, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_BYTES_READ,
  PROP_TOTAL_BYTES,
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

static void
job_free (Job *job)
{
  g_free (job->path);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->step_tables, g_ptr_array_unref);
  g_clear_object (&job->progress);
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
  Indexing *indexing;

  if (job->trace != NULL)
    result->trace = g_object_ref (job->trace);
  else if ((result->trace = sl_trace_load_path (job->path, bytes_read_cb, job, cancellable, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
      result_free (result);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  result->read_us = g_get_monotonic_time () - start;

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

  if (result == NULL)
    {
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

      g_clear_error (&self->error);
      self->error = g_steal_pointer (&error);
      set_state (self, cancelled ? SL_TRACE_LOAD_CANCELLED : SL_TRACE_LOAD_FAILED);
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

  job = g_new0 (Job, 1);
  job->path = g_strdup (self->path);
  job->trace = self->given_trace ? g_object_ref (self->trace) : NULL;
  job->step_tables = self->step_tables != NULL ? g_ptr_array_ref (self->step_tables) : NULL;
  job->place_steps = self->place_steps;
  job->progress = g_object_ref (self->progress);
  job->generation = ++self->generation;
  job->context = g_main_context_ref_thread_default ();

  g_object_freeze_notify (G_OBJECT (self));
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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_trace_load_init (SlTraceLoad *self)
{
  self->state = SL_TRACE_LOAD_WAITING;
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
