/* sl-trace.c: the columnar timeline model, as read once built
 *
 * Everything here reads what sl_trace_builder_finish() laid out (see
 * sl-trace-private.h); nothing changes after that, so any thread may read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-trace-private.h"
#include "sl-trace-text-reader.h"

G_DEFINE_FINAL_TYPE (SlTrace, sl_trace, G_TYPE_OBJECT)

static void
sl_trace_finalize (GObject *object)
{
  SlTrace *self = (SlTrace *)object;

  g_clear_pointer (&self->source_path, g_free);
  g_clear_pointer (&self->sources, g_ptr_array_unref);
  g_clear_pointer (&self->strings, sl_intern_table_free);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->flows, g_array_unref);
  g_clear_pointer (&self->flow_index, sl_trace_flow_index_free);
  g_clear_pointer (&self->phase_counts, g_hash_table_unref);
  g_clear_pointer (&self->metadata, g_array_unref);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (sl_trace_parent_class)->finalize (object);
}

static void
sl_trace_class_init (SlTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_trace_finalize;
}

static void
sl_trace_init (SlTrace *self)
{
}

const char *
sl_trace_get_source_path (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  return self->source_path;
}

const char *
sl_trace_get_string (SlTrace *self,
                     guint32  id)
{
  g_return_val_if_fail (SL_IS_TRACE (self), "");

  if (self->strings == NULL)
    return "";
  return sl_intern_table_get (self->strings, id);
}

guint
sl_trace_get_n_strings (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->strings != NULL ? sl_intern_table_get_n_strings (self->strings) : 0;
}

gint64
sl_trace_get_start_ns (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->start_ns;
}

gint64
sl_trace_get_end_ns (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->end_ns;
}

guint
sl_trace_get_n_processes (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->processes->len;
}

static SlTraceProcess *
get_process (SlTrace *self,
             guint    process)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);
  g_return_val_if_fail (process < self->processes->len, NULL);

  return g_ptr_array_index (self->processes, process);
}

const char *
sl_trace_get_process_pid (SlTrace *self,
                          guint    process)
{
  SlTraceProcess *p = get_process (self, process);

  return p != NULL ? p->pid : NULL;
}

const char *
sl_trace_get_process_name (SlTrace *self,
                           guint    process)
{
  SlTraceProcess *p = get_process (self, process);

  return p != NULL ? p->name : NULL;
}

gint64
sl_trace_get_process_sort_index (SlTrace *self,
                                 guint    process)
{
  SlTraceProcess *p = get_process (self, process);

  return p != NULL ? p->sort_index : 0;
}

guint
sl_trace_get_n_tracks (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->tracks->len;
}

static SlTraceTrack *
get_track_at (SlTrace *self,
              guint    track)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);
  g_return_val_if_fail (track < self->tracks->len, NULL);

  return g_ptr_array_index (self->tracks, track);
}

SlTraceTrackKind
sl_trace_get_track_kind (SlTrace *self,
                         guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? t->kind : SL_TRACE_TRACK_THREAD;
}

guint
sl_trace_get_track_process (SlTrace *self,
                            guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? t->process : 0;
}

/**
 * sl_trace_get_track_name:
 *
 * Returns: (not nullable): the thread name from metadata (the tid for an
 *   unnamed thread), the async slice name, or the counter name followed
 *   by its series when that is not "value"
 */
const char *
sl_trace_get_track_name (SlTrace *self,
                         guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? sl_trace_track_get_name (t) : "";
}

const char *
sl_trace_get_track_tid (SlTrace *self,
                        guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? t->tid : NULL;
}

void
sl_trace_get_track_ids (SlTrace *self,
                        guint    track,
                        guint32 *name_id,
                        guint32 *category_id,
                        guint32 *series_id)
{
  SlTraceTrack *t = get_track_at (self, track);

  if (name_id != NULL)
    *name_id = t != NULL ? t->name_id : 0;
  if (category_id != NULL)
    *category_id = t != NULL ? t->category_id : 0;
  if (series_id != NULL)
    *series_id = t != NULL ? t->series_id : 0;
}

guint
sl_trace_get_track_n_depths (SlTrace *self,
                             guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? t->n_depths : 0;
}

const SlTraceSlices *
sl_trace_get_slices (SlTrace *self,
                     guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? &t->slices_view : NULL;
}

const SlTraceCounter *
sl_trace_get_counter (SlTrace *self,
                      guint    track)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? &t->counter_view : NULL;
}

guint32
sl_trace_find_enclosing_slice (SlTrace *self,
                               guint    track,
                               gint64   ts_ns)
{
  SlTraceTrack *t = get_track_at (self, track);

  return t != NULL ? sl_trace_track_find_enclosing (t, ts_ns) : SL_TRACE_NO_PARENT;
}

guint
sl_trace_get_n_flows (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->flows->len;
}

const SlTraceFlow *
sl_trace_get_flow (SlTrace *self,
                   guint    index)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->flows->len, NULL);

  return &g_array_index (self->flows, SlTraceFlow, index);
}

const guint32 *
sl_trace_get_slice_flows (SlTrace *self,
                          guint    track,
                          guint32  slice,
                          guint   *n_flows)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);
  g_return_val_if_fail (track < self->tracks->len, NULL);
  g_return_val_if_fail (n_flows != NULL, NULL);

  return sl_trace_flow_index_get_slice_flows (self->flow_index, track, slice, n_flows);
}

guint
sl_trace_find_flows_in_range (SlTrace *self,
                              gint64   from_ns,
                              gint64   to_ns,
                              guint32 *flows,
                              guint    max_flows)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);
  g_return_val_if_fail (flows != NULL || max_flows == 0, 0);

  return sl_trace_flow_index_find_in_range (self->flow_index, from_ns, to_ns, flows, max_flows);
}

GListModel *
sl_trace_get_problems (SlTrace *self)
{
  GListStore *problems;

  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  /* a trace without problems gets its empty list when first asked, from
   * any thread: the first one made is kept */
  problems = g_atomic_pointer_get (&self->problems);
  if (problems == NULL)
    {
      GListStore *empty = g_list_store_new (SL_TYPE_PROBLEM);

      if (g_atomic_pointer_compare_and_exchange (&self->problems, NULL, empty))
        problems = empty;
      else
        {
          g_object_unref (empty);
          problems = g_atomic_pointer_get (&self->problems);
        }
    }
  return G_LIST_MODEL (problems);
}

GHashTable *
sl_trace_get_phase_counts (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  return self->phase_counts;
}

/**
 * sl_trace_has_times:
 *
 * Whether anything was read with a time: a slice, an instant, a counter
 * value or a flow's end. Without one the trace's start and end are 0,
 * which is no time of its own, and there is nothing to draw.
 */
gboolean
sl_trace_has_times (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), FALSE);

  return self->has_times;
}

guint64
sl_trace_get_n_events (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->n_events;
}

guint
sl_trace_get_n_metadata_events (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->metadata->len;
}

void
sl_trace_get_metadata_event (SlTrace *self,
                             guint    index,
                             guint64 *offset,
                             guint32 *length)
{
  SlTraceMetadataEvent *event;

  g_return_if_fail (SL_IS_TRACE (self));
  g_return_if_fail (index < self->metadata->len);

  event = &g_array_index (self->metadata, SlTraceMetadataEvent, index);
  *offset = event->offset;
  *length = event->length;
}

guint
sl_trace_get_n_sources (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->sources->len;
}

const char *
sl_trace_get_source (SlTrace *self,
                     guint    source)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  if (source < self->sources->len)
    return g_ptr_array_index (self->sources, source);
  return source == 0 ? self->source_path : NULL;
}

gsize
sl_trace_get_memory_size (SlTrace *self)
{
  gsize size = sizeof *self;

  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  for (guint i = 0; i < self->tracks->len; i++)
    size += sl_trace_track_get_memory_size (g_ptr_array_index (self->tracks, i));
  size += self->flows->len * sizeof (SlTraceFlow);
  size += sl_trace_flow_index_get_memory_size (self->flow_index);
  size += sl_intern_table_get_memory_size (self->strings);
  return size;
}

char *
sl_trace_read_event_text (SlTrace  *self,
                          guint64   offset,
                          guint32   length,
                          GError  **error)
{
  g_autoptr(SlTraceTextReader) reader = NULL;

  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  reader = sl_trace_text_reader_new (self);
  return sl_trace_text_reader_read (reader, offset, length, error);
}
