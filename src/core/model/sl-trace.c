/* sl-trace.c: the columnar timeline model and its builder
 *
 * The builder appends events to per-track columns that grow by half their
 * size (never doubling, so an 8-million-event import stays small), and
 * finish() compacts them, sorts each track by start, nests slices with a
 * stack, places overlapping ones in overflow lanes, binds flows and orders
 * the tracks for display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-trace.h"

#define CANCEL_CHECK_MASK 0xffff
#define MAX_REPORTED      20

/* ------------------------------------------------------------------ */
/* String interning: open addressing keyed by length + bytes, so the
 * importers look strings up without copying them first. */

typedef struct {
  GStringChunk *chunk;
  GPtrArray    *strings;   /* id → const char *, owned by chunk */
  GArray       *lengths;   /* id → guint32 */
  guint32      *slots;     /* id + 1, 0 = empty */
  guint32      *hashes;
  guint         mask;
  GHashTable   *repaired;  /* id → valid UTF-8 for the few that were not */
} InternTable;

/* Eight bytes at a time: names are long (kernel and Python frames). */
static inline guint32
hash_bytes (const char *str,
            gsize       len)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  guint64 w;

  while (len >= 8)
    {
      memcpy (&w, str, 8);
      h = (h ^ w) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h ^= h >> 32;
      str += 8;
      len -= 8;
    }
  w = 0;
  memcpy (&w, str, len);
  h = (h ^ w) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 29;
  return (guint32) h;
}

static void
intern_init (InternTable *table)
{
  table->chunk = g_string_chunk_new (64 * 1024);
  table->strings = g_ptr_array_new ();
  table->lengths = g_array_new (FALSE, FALSE, sizeof (guint32));
  table->mask = 1023;
  table->slots = g_new0 (guint32, table->mask + 1);
  table->hashes = g_new0 (guint32, table->mask + 1);
}

static void
intern_clear (InternTable *table)
{
  g_clear_pointer (&table->chunk, g_string_chunk_free);
  g_clear_pointer (&table->strings, g_ptr_array_unref);
  g_clear_pointer (&table->lengths, g_array_unref);
  g_clear_pointer (&table->slots, g_free);
  g_clear_pointer (&table->hashes, g_free);
  g_clear_pointer (&table->repaired, g_hash_table_unref);
}

static void
intern_grow (InternTable *table)
{
  guint new_mask = table->mask * 2 + 1;
  guint32 *slots = g_new0 (guint32, new_mask + 1);
  guint32 *hashes = g_new0 (guint32, new_mask + 1);

  for (guint i = 0; i <= table->mask; i++)
    {
      guint pos;

      if (table->slots[i] == 0)
        continue;
      pos = table->hashes[i] & new_mask;
      while (slots[pos] != 0)
        pos = (pos + 1) & new_mask;
      slots[pos] = table->slots[i];
      hashes[pos] = table->hashes[i];
    }
  g_free (table->slots);
  g_free (table->hashes);
  table->slots = slots;
  table->hashes = hashes;
  table->mask = new_mask;
}

static guint32
intern_lookup (InternTable *table,
               const char  *str,
               gsize        len)
{
  guint32 h = hash_bytes (str, len);
  guint pos = h & table->mask;
  guint32 id;

  while (table->slots[pos] != 0)
    {
      id = table->slots[pos] - 1;
      if (table->hashes[pos] == h &&
          g_array_index (table->lengths, guint32, id) == len &&
          memcmp (g_ptr_array_index (table->strings, id), str, len) == 0)
        return id;
      pos = (pos + 1) & table->mask;
    }

  id = table->strings->len;
  /* Checked once per distinct string: the bytes stay the key, readers
   * get a repaired copy. */
  if (G_UNLIKELY (!g_utf8_validate_len (str, len, NULL)))
    {
      if (table->repaired == NULL)
        table->repaired = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (table->repaired, GUINT_TO_POINTER (id), g_utf8_make_valid (str, len));
    }
  g_ptr_array_add (table->strings, g_string_chunk_insert_len (table->chunk, str, len));
  g_array_append_val (table->lengths, (guint32) { len });
  table->slots[pos] = id + 1;
  table->hashes[pos] = h;
  if ((guint) table->strings->len * 2 > table->mask)
    intern_grow (table);
  return id;
}

/* ------------------------------------------------------------------ */
/* Growable columns: grow by half, compact exactly before sorting. */

static inline gsize
next_capacity (gsize capacity)
{
  return capacity < 4 ? 4 : capacity + capacity / 2;
}

typedef struct {
  char   *name;
  char   *pid;
  gint64  sort_index;
} Process;

typedef struct {
  gint64   start_ns;
  guint32  name_id;
  guint32  category_id;
  guint64  args_offset;
  guint32  args_length;
} OpenSlice;

typedef struct {
  SlTraceTrackKind kind;
  guint            process;
  guint            builder_index;
  char            *tid;
  char            *name;
  guint32          name_id;      /* async / counter name */
  guint32          category_id;  /* async category */
  guint32          series_id;    /* counter series */
  gint64           sort_index;
  guint            n_depths;

  /* slices */
  gsize     n, capacity;
  gint64   *start_ns;
  gint64   *dur_ns;
  gint64   *self_ns;
  guint32  *name_ids;
  guint32  *category_ids;
  guint32  *parent;
  guint16  *depth;
  guint8   *flags;
  guint64  *args_offset;
  guint32  *args_length;

  /* counter points */
  gsize     n_points, points_capacity;
  gint64   *ts_ns;
  double   *value;
  double    min_value, max_value;

  GArray   *open;               /* B without E yet: OpenSlice */

  SlTraceSlices  slices_view;
  SlTraceCounter counter_view;
} Track;

typedef struct {
  guint64  id;
  guint32  name_id;
  guint32  category_id;
  guint    track;
  gint64   ts_ns;
  guint32  seq;
  char     phase;
  gboolean bind_enclosing;
} FlowPoint;

typedef struct {
  guint   track;
  guint64 id;
} AsyncKey;

typedef struct {
  guint64 offset;
  guint32 length;
} MetadataEvent;

struct _SlTraceBuilder
{
  char        *source_path;
  GPtrArray   *sources;
  InternTable  strings;
  GPtrArray   *processes;     /* Process * */
  GHashTable  *process_index; /* pid → index + 1 */
  GPtrArray   *tracks;        /* Track * */
  GHashTable  *track_index;   /* key text → index + 1 */
  GArray      *flow_points;
  GHashTable  *async_open;    /* AsyncKey * → GArray of OpenSlice */
  GHashTable  *phase_counts;  /* phase → count */
  GArray      *metadata;      /* MetadataEvent */
  GListStore  *problems;
  guint64      n_unmatched_ends;
  guint64      n_negative;
  gint64       min_ns, max_ns;
};

struct _SlTrace
{
  GObject      parent_instance;
  char        *source_path;
  GPtrArray   *sources;
  InternTable  strings;
  GPtrArray   *processes;
  GPtrArray   *tracks;        /* in display order */
  GArray      *flows;
  GHashTable  *phase_counts;
  GArray      *metadata;
  GListStore  *problems;
  gint64       start_ns, end_ns;
  guint64      n_events;
};

G_DEFINE_FINAL_TYPE (SlTrace, sl_trace, G_TYPE_OBJECT)

static void
process_free (gpointer data)
{
  Process *process = data;

  g_free (process->name);
  g_free (process->pid);
  g_free (process);
}

static void
track_free (gpointer data)
{
  Track *track = data;

  g_free (track->tid);
  g_free (track->name);
  g_free (track->start_ns);
  g_free (track->dur_ns);
  g_free (track->self_ns);
  g_free (track->name_ids);
  g_free (track->category_ids);
  g_free (track->parent);
  g_free (track->depth);
  g_free (track->flags);
  g_free (track->args_offset);
  g_free (track->args_length);
  g_free (track->ts_ns);
  g_free (track->value);
  g_clear_pointer (&track->open, g_array_unref);
  g_free (track);
}

static guint
async_key_hash (gconstpointer key)
{
  const AsyncKey *k = key;

  return k->track * 31u + (guint) (k->id ^ (k->id >> 32));
}

static gboolean
async_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const AsyncKey *ka = a, *kb = b;

  return ka->track == kb->track && ka->id == kb->id;
}

static void
add_problem_at (SlTraceBuilder *builder,
                SlSeverity      severity,
                guint64         offset,
                const char     *message)
{
  const char *path = builder->source_path;
  gint64 byte = -1;

  if (offset != SL_TRACE_NO_ARGS)
    {
      guint source = SL_TRACE_ARGS_SOURCE (offset);

      if (source < builder->sources->len)
        path = g_ptr_array_index (builder->sources, source);
      byte = (gint64) SL_TRACE_ARGS_BYTE (offset);
    }

  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Trace"), path, byte, message);
  g_list_store_append (builder->problems, problem);
}

static inline void
note_time (SlTraceBuilder *builder,
           gint64          start_ns,
           gint64          end_ns)
{
  if (start_ns < builder->min_ns)
    builder->min_ns = start_ns;
  if (end_ns > builder->max_ns)
    builder->max_ns = end_ns;
}

SlTraceBuilder *
sl_trace_builder_new (const char *source_path)
{
  SlTraceBuilder *builder = g_new0 (SlTraceBuilder, 1);

  builder->source_path = g_strdup (source_path);
  builder->sources = g_ptr_array_new_with_free_func (g_free);
  intern_init (&builder->strings);
  intern_lookup (&builder->strings, "", 0);
  builder->processes = g_ptr_array_new_with_free_func (process_free);
  builder->process_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  builder->tracks = g_ptr_array_new_with_free_func (track_free);
  builder->track_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  builder->flow_points = g_array_new (FALSE, FALSE, sizeof (FlowPoint));
  builder->async_open = g_hash_table_new_full (async_key_hash, async_key_equal, g_free,
                                               (GDestroyNotify) g_array_unref);
  builder->phase_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  builder->metadata = g_array_new (FALSE, FALSE, sizeof (MetadataEvent));
  builder->problems = g_list_store_new (SL_TYPE_PROBLEM);
  builder->min_ns = G_MAXINT64;
  builder->max_ns = G_MININT64;

  return builder;
}

void
sl_trace_builder_free (SlTraceBuilder *builder)
{
  if (builder == NULL)
    return;

  g_free (builder->source_path);
  g_clear_pointer (&builder->sources, g_ptr_array_unref);
  intern_clear (&builder->strings);
  g_clear_pointer (&builder->processes, g_ptr_array_unref);
  g_clear_pointer (&builder->process_index, g_hash_table_unref);
  g_clear_pointer (&builder->tracks, g_ptr_array_unref);
  g_clear_pointer (&builder->track_index, g_hash_table_unref);
  g_clear_pointer (&builder->flow_points, g_array_unref);
  g_clear_pointer (&builder->async_open, g_hash_table_unref);
  g_clear_pointer (&builder->phase_counts, g_hash_table_unref);
  g_clear_pointer (&builder->metadata, g_array_unref);
  g_clear_object (&builder->problems);
  g_free (builder);
}

guint32
sl_trace_builder_intern (SlTraceBuilder *builder,
                         const char     *str,
                         gssize          len)
{
  g_return_val_if_fail (builder != NULL, 0);

  if (str == NULL)
    return 0;
  if (len < 0)
    len = strlen (str);
  return intern_lookup (&builder->strings, str, len);
}

guint
sl_trace_builder_add_source (SlTraceBuilder *builder,
                             const char     *path)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (path != NULL, 0);

  for (guint i = 0; i < builder->sources->len; i++)
    if (g_str_equal (g_ptr_array_index (builder->sources, i), path))
      return i;
  g_ptr_array_add (builder->sources, g_strdup (path));
  return builder->sources->len - 1;
}

guint
sl_trace_builder_get_process (SlTraceBuilder *builder,
                              const char     *pid)
{
  gpointer value;
  Process *process;

  g_return_val_if_fail (builder != NULL, 0);

  if (pid == NULL)
    pid = "";
  if ((value = g_hash_table_lookup (builder->process_index, pid)) != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  process = g_new0 (Process, 1);
  process->pid = g_strdup (pid);
  g_ptr_array_add (builder->processes, process);
  g_hash_table_insert (builder->process_index, g_strdup (pid), GUINT_TO_POINTER (builder->processes->len));
  return builder->processes->len - 1;
}

static guint
get_track (SlTraceBuilder   *builder,
           char             *key,    /* taken */
           SlTraceTrackKind  kind,
           guint             process,
           const char       *tid,
           guint32           name_id,
           guint32           category_id,
           guint32           series_id)
{
  gpointer value;
  Track *track;

  if ((value = g_hash_table_lookup (builder->track_index, key)) != NULL)
    {
      g_free (key);
      return GPOINTER_TO_UINT (value) - 1;
    }

  track = g_new0 (Track, 1);
  track->kind = kind;
  track->process = process;
  track->tid = g_strdup (tid);
  track->name_id = name_id;
  track->category_id = category_id;
  track->series_id = series_id;
  track->builder_index = builder->tracks->len;
  g_ptr_array_add (builder->tracks, track);
  g_hash_table_insert (builder->track_index, key, GUINT_TO_POINTER (builder->tracks->len));
  return builder->tracks->len - 1;
}

guint
sl_trace_builder_get_thread_track (SlTraceBuilder *builder,
                                   guint           process,
                                   const char     *tid)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (process < builder->processes->len, 0);

  if (tid == NULL)
    tid = "";
  return get_track (builder, g_strdup_printf ("t%u/%s", process, tid),
                    SL_TRACE_TRACK_THREAD, process, tid, 0, 0, 0);
}

guint
sl_trace_builder_get_async_track (SlTraceBuilder *builder,
                                  guint           process,
                                  guint32         category_id,
                                  guint32         name_id)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (process < builder->processes->len, 0);

  return get_track (builder, g_strdup_printf ("a%u/%u/%u", process, category_id, name_id),
                    SL_TRACE_TRACK_ASYNC, process, NULL, name_id, category_id, 0);
}

guint
sl_trace_builder_get_counter_track (SlTraceBuilder *builder,
                                    guint           process,
                                    guint32         name_id,
                                    guint32         series_id)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (process < builder->processes->len, 0);

  return get_track (builder, g_strdup_printf ("c%u/%u/%u", process, name_id, series_id),
                    SL_TRACE_TRACK_COUNTER, process, NULL, name_id, 0, series_id);
}

void
sl_trace_builder_set_process_name (SlTraceBuilder *builder,
                                   guint           process,
                                   const char     *name)
{
  Process *p;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (process < builder->processes->len);

  p = g_ptr_array_index (builder->processes, process);
  g_free (p->name);
  p->name = g_strdup (name);
}

void
sl_trace_builder_set_process_sort_index (SlTraceBuilder *builder,
                                         guint           process,
                                         gint64          sort_index)
{
  Process *p;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (process < builder->processes->len);

  p = g_ptr_array_index (builder->processes, process);
  p->sort_index = sort_index;
}

void
sl_trace_builder_set_track_name (SlTraceBuilder *builder,
                                 guint           track,
                                 const char     *name)
{
  Track *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  g_free (t->name);
  t->name = g_strdup (name);
}

void
sl_trace_builder_set_track_sort_index (SlTraceBuilder *builder,
                                       guint           track,
                                       gint64          sort_index)
{
  Track *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  t->sort_index = sort_index;
}

static void
track_reserve_slices (Track *t,
                      gsize  capacity)
{
  t->start_ns = g_renew (gint64, t->start_ns, capacity);
  t->dur_ns = g_renew (gint64, t->dur_ns, capacity);
  t->name_ids = g_renew (guint32, t->name_ids, capacity);
  t->category_ids = g_renew (guint32, t->category_ids, capacity);
  t->flags = g_renew (guint8, t->flags, capacity);
  t->args_offset = g_renew (guint64, t->args_offset, capacity);
  t->args_length = g_renew (guint32, t->args_length, capacity);
  t->capacity = capacity;
}

static void
append_slice (SlTraceBuilder *builder,
              Track          *t,
              gint64          start_ns,
              gint64          dur_ns,
              guint32         name_id,
              guint32         category_id,
              guint8          flags,
              guint64         args_offset,
              guint32         args_length)
{
  gsize i;

  if (dur_ns < 0)
    {
      builder->n_negative++;
      dur_ns = 0;
    }
  /* hostile times: the end must stay representable */
  if (start_ns > 0 && dur_ns > G_MAXINT64 - start_ns)
    dur_ns = G_MAXINT64 - start_ns;
  if (t->n == t->capacity)
    track_reserve_slices (t, next_capacity (t->capacity));

  i = t->n++;
  t->start_ns[i] = start_ns;
  t->dur_ns[i] = dur_ns;
  t->name_ids[i] = name_id;
  t->category_ids[i] = category_id;
  t->flags[i] = flags;
  t->args_offset[i] = args_offset;
  t->args_length[i] = args_length;
  note_time (builder, start_ns, start_ns + dur_ns);
}

void
sl_trace_builder_add_slice (SlTraceBuilder *builder,
                            guint           track,
                            gint64          start_ns,
                            gint64          dur_ns,
                            guint32         name_id,
                            guint32         category_id,
                            guint8          flags,
                            guint64         args_offset,
                            guint32         args_length)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  append_slice (builder, g_ptr_array_index (builder->tracks, track),
                start_ns, dur_ns, name_id, category_id, flags, args_offset, args_length);
}

void
sl_trace_builder_begin_slice (SlTraceBuilder *builder,
                              guint           track,
                              gint64          start_ns,
                              guint32         name_id,
                              guint32         category_id,
                              guint64         args_offset,
                              guint32         args_length)
{
  OpenSlice open = { start_ns, name_id, category_id, args_offset, args_length };
  Track *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  if (t->open == NULL)
    t->open = g_array_new (FALSE, FALSE, sizeof (OpenSlice));
  g_array_append_val (t->open, open);
  note_time (builder, start_ns, start_ns);
}

/* end - start without signed overflow (negative when the end comes first) */
static inline gint64
span (gint64 start_ns,
      gint64 end_ns)
{
  if (end_ns >= start_ns)
    return (guint64) end_ns - (guint64) start_ns > (guint64) G_MAXINT64 ? G_MAXINT64 : end_ns - start_ns;
  return (guint64) start_ns - (guint64) end_ns > (guint64) G_MAXINT64 ? -G_MAXINT64 : end_ns - start_ns;
}

static void
report_unmatched_end (SlTraceBuilder *builder,
                      guint64         offset)
{
  if (builder->n_unmatched_ends++ < MAX_REPORTED)
    add_problem_at (builder, SL_SEVERITY_WARNING, offset,
                    _("End event without a matching begin; ignored"));
}

void
sl_trace_builder_end_slice (SlTraceBuilder *builder,
                            guint           track,
                            gint64          end_ns,
                            guint64         offset)
{
  OpenSlice *open;
  Track *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  if (t->open == NULL || t->open->len == 0)
    {
      report_unmatched_end (builder, offset);
      return;
    }

  open = &g_array_index (t->open, OpenSlice, t->open->len - 1);
  append_slice (builder, t, open->start_ns, span (open->start_ns, end_ns), open->name_id,
                open->category_id, SL_TRACE_SLICE_BEGIN_END, open->args_offset, open->args_length);
  g_array_set_size (t->open, t->open->len - 1);
}

void
sl_trace_builder_begin_async (SlTraceBuilder *builder,
                              guint           track,
                              guint64         id,
                              gint64          start_ns,
                              guint32         name_id,
                              guint32         category_id,
                              guint64         args_offset,
                              guint32         args_length)
{
  OpenSlice open = { start_ns, name_id, category_id, args_offset, args_length };
  AsyncKey key = { track, id };
  GArray *stack;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  stack = g_hash_table_lookup (builder->async_open, &key);
  if (stack == NULL)
    {
      stack = g_array_new (FALSE, FALSE, sizeof (OpenSlice));
      g_hash_table_insert (builder->async_open, g_memdup2 (&key, sizeof key), stack);
    }
  g_array_append_val (stack, open);
  note_time (builder, start_ns, start_ns);
}

void
sl_trace_builder_end_async (SlTraceBuilder *builder,
                            guint           track,
                            guint64         id,
                            gint64          end_ns,
                            guint64         offset)
{
  AsyncKey key = { track, id };
  OpenSlice *open;
  GArray *stack;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  stack = g_hash_table_lookup (builder->async_open, &key);
  if (stack == NULL || stack->len == 0)
    {
      report_unmatched_end (builder, offset);
      return;
    }

  open = &g_array_index (stack, OpenSlice, stack->len - 1);
  append_slice (builder, g_ptr_array_index (builder->tracks, track), open->start_ns,
                span (open->start_ns, end_ns), open->name_id, open->category_id,
                SL_TRACE_SLICE_BEGIN_END, open->args_offset, open->args_length);
  g_array_set_size (stack, stack->len - 1);
  if (stack->len == 0)
    g_hash_table_remove (builder->async_open, &key);
}

void
sl_trace_builder_add_counter (SlTraceBuilder *builder,
                              guint           track,
                              gint64          ts_ns,
                              double          value)
{
  Track *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  if (t->n_points == t->points_capacity)
    {
      t->points_capacity = next_capacity (t->points_capacity);
      t->ts_ns = g_renew (gint64, t->ts_ns, t->points_capacity);
      t->value = g_renew (double, t->value, t->points_capacity);
    }
  t->ts_ns[t->n_points] = ts_ns;
  t->value[t->n_points] = value;
  t->n_points++;
  note_time (builder, ts_ns, ts_ns);
}

void
sl_trace_builder_add_flow_point (SlTraceBuilder *builder,
                                 char            phase,
                                 guint64         id,
                                 guint32         name_id,
                                 guint32         category_id,
                                 guint           track,
                                 gint64          ts_ns,
                                 gboolean        bind_enclosing)
{
  FlowPoint point = { id, name_id, category_id, track, ts_ns, 0, phase, bind_enclosing };

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);
  g_return_if_fail (phase == 's' || phase == 't' || phase == 'f');

  point.seq = builder->flow_points->len;
  g_array_append_val (builder->flow_points, point);
  note_time (builder, ts_ns, ts_ns);
}

void
sl_trace_builder_add_metadata_event (SlTraceBuilder *builder,
                                     guint64         offset,
                                     guint32         length)
{
  MetadataEvent event = { offset, length };

  g_return_if_fail (builder != NULL);

  g_array_append_val (builder->metadata, event);
}

void
sl_trace_builder_add_phase_count (SlTraceBuilder *builder,
                                  const char     *phase,
                                  guint64         n)
{
  gpointer key, value;

  g_return_if_fail (builder != NULL);

  if (n == 0)
    return;
  if (phase == NULL)
    phase = "?";
  if (g_hash_table_lookup_extended (builder->phase_counts, phase, &key, &value))
    g_hash_table_insert (builder->phase_counts, g_strdup (phase), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (value) + n));
  else
    g_hash_table_insert (builder->phase_counts, g_strdup (phase), GSIZE_TO_POINTER (n));
}

void
sl_trace_builder_count_phase (SlTraceBuilder *builder,
                              const char     *phase)
{
  sl_trace_builder_add_phase_count (builder, phase, 1);
}

void
sl_trace_builder_add_problem (SlTraceBuilder *builder,
                              SlProblem      *problem)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (builder->problems, problem);
}

/* ------------------------------------------------------------------ */
/* finish() */

static void
track_compact (Track *t)
{
  if (t->n != t->capacity)
    track_reserve_slices (t, MAX (t->n, 1));
  if (t->n_points != t->points_capacity)
    {
      t->points_capacity = MAX (t->n_points, 1);
      t->ts_ns = g_renew (gint64, t->ts_ns, t->points_capacity);
      t->value = g_renew (double, t->value, t->points_capacity);
    }
}

static int
compare_slice_order (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const Track *t = user_data;
  guint32 i = *(const guint32 *)a, j = *(const guint32 *)b;

  if (t->start_ns[i] != t->start_ns[j])
    return t->start_ns[i] < t->start_ns[j] ? -1 : 1;
  if (t->dur_ns[i] != t->dur_ns[j])
    return t->dur_ns[i] > t->dur_ns[j] ? -1 : 1;
  return i < j ? -1 : (i > j);
}

static int
compare_point_order (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const Track *t = user_data;
  guint32 i = *(const guint32 *)a, j = *(const guint32 *)b;

  if (t->ts_ns[i] != t->ts_ns[j])
    return t->ts_ns[i] < t->ts_ns[j] ? -1 : 1;
  return i < j ? -1 : (i > j);
}

#define PERMUTE(type, column, perm, n, scratch)                    \
  G_STMT_START {                                                   \
    type *tmp_ = (type *) (scratch);                               \
    for (gsize k_ = 0; k_ < (n); k_++)                             \
      tmp_[k_] = (column)[(perm)[k_]];                             \
    memcpy ((column), tmp_, sizeof (type) * (n));                  \
  } G_STMT_END

static void
track_sort_slices (Track *t)
{
  g_autofree guint32 *perm = NULL;
  g_autofree gint64 *scratch = NULL;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < t->n && sorted; i++)
    if (t->start_ns[i] < t->start_ns[i - 1] ||
        (t->start_ns[i] == t->start_ns[i - 1] && t->dur_ns[i] > t->dur_ns[i - 1]))
      sorted = FALSE;
  if (sorted)
    return;

  perm = g_new (guint32, t->n);
  for (gsize i = 0; i < t->n; i++)
    perm[i] = i;
  g_qsort_with_data (perm, t->n, sizeof (guint32), compare_slice_order, t);

  scratch = g_new (gint64, t->n);
  PERMUTE (gint64, t->start_ns, perm, t->n, scratch);
  PERMUTE (gint64, t->dur_ns, perm, t->n, scratch);
  PERMUTE (guint32, t->name_ids, perm, t->n, scratch);
  PERMUTE (guint32, t->category_ids, perm, t->n, scratch);
  PERMUTE (guint8, t->flags, perm, t->n, scratch);
  PERMUTE (guint64, t->args_offset, perm, t->n, scratch);
  PERMUTE (guint32, t->args_length, perm, t->n, scratch);
}

static void
track_sort_points (Track *t)
{
  g_autofree guint32 *perm = NULL;
  g_autofree gint64 *scratch = NULL;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < t->n_points && sorted; i++)
    if (t->ts_ns[i] < t->ts_ns[i - 1])
      sorted = FALSE;

  if (!sorted)
    {
      perm = g_new (guint32, t->n_points);
      for (gsize i = 0; i < t->n_points; i++)
        perm[i] = i;
      g_qsort_with_data (perm, t->n_points, sizeof (guint32), compare_point_order, t);
      scratch = g_new (gint64, t->n_points);
      PERMUTE (gint64, t->ts_ns, perm, t->n_points, scratch);
      PERMUTE (double, t->value, perm, t->n_points, scratch);
    }

  t->min_value = t->n_points ? t->value[0] : 0;
  t->max_value = t->min_value;
  for (gsize i = 0; i < t->n_points; i++)
    {
      /* NaN never wins a comparison, so it cannot poison the range. */
      if (t->value[i] < t->min_value || t->min_value != t->min_value)
        t->min_value = t->value[i];
      if (t->value[i] > t->max_value || t->max_value != t->max_value)
        t->max_value = t->value[i];
    }
}

typedef struct {
  gint64 end;
  guint  lane;
} LaneEnd;

static inline gboolean
lane_before (const LaneEnd *a,
             const LaneEnd *b)
{
  return a->end < b->end || (a->end == b->end && a->lane < b->lane);
}

static void
lane_heap_sift_up (LaneEnd *heap,
                   gsize    i)
{
  while (i > 0)
    {
      gsize parent = (i - 1) / 2;
      LaneEnd tmp;

      if (!lane_before (&heap[i], &heap[parent]))
        break;
      tmp = heap[i];
      heap[i] = heap[parent];
      heap[parent] = tmp;
      i = parent;
    }
}

static void
lane_heap_sift_down (LaneEnd *heap,
                     gsize    n,
                     gsize    i)
{
  for (;;)
    {
      gsize smallest = i, l = 2 * i + 1, r = 2 * i + 2;
      LaneEnd tmp;

      if (l < n && lane_before (&heap[l], &heap[smallest]))
        smallest = l;
      if (r < n && lane_before (&heap[r], &heap[smallest]))
        smallest = r;
      if (smallest == i)
        break;
      tmp = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = tmp;
      i = smallest;
    }
}

/* Nesting: a slice that starts inside the innermost open one and ends
 * within it is its child; one that starts inside but ends after overlaps
 * a sibling without nesting and goes to an overflow lane, placed after
 * the deepest nesting level once that is known. */
static void
track_nest (Track *t)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) lane_ends = g_array_new (FALSE, FALSE, sizeof (LaneEnd));
  guint max_depth = 0;
  gboolean any_overflow = FALSE;

  t->self_ns = g_new (gint64, MAX (t->n, 1));
  t->parent = g_new (guint32, MAX (t->n, 1));
  t->depth = g_new (guint16, MAX (t->n, 1));
  t->n_depths = 0;

  for (gsize i = 0; i < t->n; i++)
    {
      gint64 start = t->start_ns[i];
      gint64 end = start + t->dur_ns[i];

      t->self_ns[i] = t->dur_ns[i];
      t->parent[i] = SL_TRACE_NO_PARENT;
      t->flags[i] &= ~SL_TRACE_SLICE_OVERFLOW;

      while (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (t->start_ns[top] + t->dur_ns[top] > start)
            break;
          g_array_set_size (stack, stack->len - 1);
        }

      if (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);

          if (end > t->start_ns[top] + t->dur_ns[top])
            {
              t->flags[i] |= SL_TRACE_SLICE_OVERFLOW;
              any_overflow = TRUE;
              continue;
            }
          t->parent[i] = top;
          t->self_ns[top] -= t->dur_ns[i];
        }

      t->depth[i] = MIN (stack->len, G_MAXUINT16 - 1);
      max_depth = MAX (max_depth, t->depth[i]);
      g_array_append_val (stack, (guint32) { i });
    }

  t->n_depths = t->n > 0 ? max_depth + 1 : 0;

  if (any_overflow)
    {
      /* Interval partitioning: reuse the lane that frees up first, so
       * the number of lanes is the most slices overlapping at once,
       * found in n log n even when everything overlaps. */
      guint n_lanes = 0;

      for (gsize i = 0; i < t->n; i++)
        {
          LaneEnd *heap = (LaneEnd *) (gpointer) lane_ends->data;
          LaneEnd entry = { t->start_ns[i] + t->dur_ns[i], 0 };

          if (!(t->flags[i] & SL_TRACE_SLICE_OVERFLOW))
            continue;
          if (lane_ends->len > 0 && heap[0].end <= t->start_ns[i])
            {
              entry.lane = heap[0].lane;
              heap[0] = entry;
              lane_heap_sift_down (heap, lane_ends->len, 0);
            }
          else
            {
              entry.lane = n_lanes++;
              g_array_append_val (lane_ends, entry);
              heap = (LaneEnd *) (gpointer) lane_ends->data;
              lane_heap_sift_up (heap, lane_ends->len - 1);
            }
          t->depth[i] = MIN (t->n_depths + entry.lane, G_MAXUINT16);
        }
      t->n_depths = MIN (t->n_depths + n_lanes, G_MAXUINT16 + 1u);
    }

  for (gsize i = 0; i < t->n; i++)
    if (t->self_ns[i] < 0)
      t->self_ns[i] = 0;
}

static guint32
track_find_enclosing (const Track *t,
                      gint64       ts_ns)
{
  gsize lo = 0, hi = t->n;
  guint32 i;

  /* last slice starting at or before ts */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (t->start_ns[mid] <= ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return SL_TRACE_NO_PARENT;

  i = lo - 1;
  /* Overflow slices have no parent chain: step back to a nested one. */
  while (i != SL_TRACE_NO_PARENT && (t->flags[i] & SL_TRACE_SLICE_OVERFLOW))
    {
      if (t->start_ns[i] + t->dur_ns[i] >= ts_ns)
        return i;
      i = i > 0 ? i - 1 : SL_TRACE_NO_PARENT;
    }
  while (i != SL_TRACE_NO_PARENT)
    {
      if (t->start_ns[i] + t->dur_ns[i] >= ts_ns)
        return i;
      i = t->parent[i];
    }
  return SL_TRACE_NO_PARENT;
}

static guint32
track_find_next (const Track *t,
                 gint64       ts_ns)
{
  gsize lo = 0, hi = t->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (t->start_ns[mid] < ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < t->n ? (guint32) lo : SL_TRACE_NO_PARENT;
}

static gboolean
is_number (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  if (*s == '-')
    s++;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* Numbers compare as numbers, anything else as text. */
static int
compare_ids (const char *a,
             const char *b)
{
  if (is_number (a) && is_number (b))
    {
      gint64 x = g_ascii_strtoll (a, NULL, 10), y = g_ascii_strtoll (b, NULL, 10);

      if (x != y)
        return x < y ? -1 : 1;
      return 0;
    }
  return g_strcmp0 (a, b);
}

static const char *
track_display_name (SlTrace     *self,
                    const Track *t)
{
  if (t->name != NULL)
    return t->name;
  return t->tid != NULL ? t->tid : "";
}

static int
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  SlTrace *self = user_data;
  const Track *ta = *(Track * const *)a, *tb = *(Track * const *)b;
  const Process *pa = g_ptr_array_index (self->processes, ta->process);
  const Process *pb = g_ptr_array_index (self->processes, tb->process);
  int cmp;

  if (pa->sort_index != pb->sort_index)
    return pa->sort_index < pb->sort_index ? -1 : 1;
  if (ta->process != tb->process)
    {
      if ((cmp = compare_ids (pa->pid, pb->pid)) != 0)
        return cmp;
      return ta->process < tb->process ? -1 : 1;
    }
  if (ta->sort_index != tb->sort_index)
    return ta->sort_index < tb->sort_index ? -1 : 1;
  if (ta->kind != tb->kind)
    return ta->kind < tb->kind ? -1 : 1;
  if (ta->kind == SL_TRACE_TRACK_THREAD && ta->name == NULL && tb->name == NULL)
    return compare_ids (ta->tid, tb->tid);
  if ((cmp = g_strcmp0 (track_display_name (self, ta), track_display_name (self, tb))) != 0)
    return cmp;
  return compare_ids (ta->tid, tb->tid);
}

static int
phase_rank (char phase)
{
  return phase == 's' ? 0 : phase == 't' ? 1 : 2;
}

static int
compare_flow_points (gconstpointer a,
                     gconstpointer b)
{
  const FlowPoint *pa = a, *pb = b;

  if (pa->id != pb->id)
    return pa->id < pb->id ? -1 : 1;
  if (pa->category_id != pb->category_id)
    return pa->category_id < pb->category_id ? -1 : 1;
  /* by time, as Chrome does: writers do not always put 's' before 'f' */
  if (pa->ts_ns != pb->ts_ns)
    return pa->ts_ns < pb->ts_ns ? -1 : 1;
  if (pa->phase != pb->phase)
    return phase_rank (pa->phase) < phase_rank (pb->phase) ? -1 : 1;
  return pa->seq < pb->seq ? -1 : (pa->seq > pb->seq);
}

static guint32
bind_flow_point (GPtrArray       *tracks,
                 const FlowPoint *p)
{
  const Track *t = g_ptr_array_index (tracks, p->track);

  if (p->bind_enclosing)
    return track_find_enclosing (t, p->ts_ns);
  return track_find_next (t, p->ts_ns);
}

/* Flow v1: s starts a chain, t continues it, f ends it; each step is an
 * arrow. Points are matched by (id, category) in time order. */
static void
resolve_flows (SlTrace        *self,
               SlTraceBuilder *builder,
               GPtrArray      *tracks_by_builder_index,
               const guint    *display_index)
{
  GArray *points = builder->flow_points;
  guint64 n_dangling = 0;
  guint i = 0;

  self->flows = g_array_new (FALSE, FALSE, sizeof (SlTraceFlow));
  if (points->len == 0)
    return;

  qsort (points->data, points->len, sizeof (FlowPoint), compare_flow_points);
  while (i < points->len)
    {
      guint j = i;
      const FlowPoint *prev = NULL;

      while (j < points->len &&
             g_array_index (points, FlowPoint, j).id == g_array_index (points, FlowPoint, i).id &&
             g_array_index (points, FlowPoint, j).category_id == g_array_index (points, FlowPoint, i).category_id)
        j++;

      for (guint k = i; k < j; k++)
        {
          const FlowPoint *p = &g_array_index (points, FlowPoint, k);

          if (p->phase == 's')
            {
              if (prev != NULL)
                n_dangling++;
              prev = p;
              continue;
            }
          if (prev == NULL)
            {
              n_dangling++;
              continue;
            }

          {
            SlTraceFlow flow = {
              .id = p->id,
              .name_id = prev->name_id,
              .category_id = prev->category_id,
              .from_track = display_index[prev->track],
              .from_slice = bind_flow_point (tracks_by_builder_index, prev),
              .from_ns = prev->ts_ns,
              .to_track = display_index[p->track],
              .to_slice = bind_flow_point (tracks_by_builder_index, p),
              .to_ns = p->ts_ns,
              .to_enclosing = p->bind_enclosing,
            };
            g_array_append_val (self->flows, flow);
          }
          prev = p->phase == 'f' ? NULL : p;
        }
      if (prev != NULL && prev->phase == 's')
        n_dangling++;
      i = j;
    }

  if (n_dangling > 0)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu flow event has no other end; it is not drawn",
                                      "%llu flow events have no other end; they are not drawn",
                                      n_dangling),
                         (unsigned long long) n_dangling);
      add_problem_at (builder, SL_SEVERITY_INFO, SL_TRACE_NO_ARGS, message);
    }
}

static void
close_open_slices (SlTraceBuilder *builder,
                   gint64          end_ns)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 n_open = 0;

  for (guint i = 0; i < builder->tracks->len; i++)
    {
      Track *t = g_ptr_array_index (builder->tracks, i);

      for (guint k = 0; t->open != NULL && k < t->open->len; k++)
        {
          OpenSlice *open = &g_array_index (t->open, OpenSlice, k);

          if (n_open++ < MAX_REPORTED)
            add_problem_at (builder, SL_SEVERITY_WARNING, open->args_offset,
                            _("Begin event without an end; drawn to the end of the trace"));
          append_slice (builder, t, open->start_ns, span (open->start_ns, end_ns), open->name_id,
                        open->category_id, SL_TRACE_SLICE_UNFINISHED | SL_TRACE_SLICE_BEGIN_END, open->args_offset,
                        open->args_length);
        }
      g_clear_pointer (&t->open, g_array_unref);
    }

  g_hash_table_iter_init (&iter, builder->async_open);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const AsyncKey *k = key;
      GArray *stack = value;
      Track *t = g_ptr_array_index (builder->tracks, k->track);

      for (guint s = 0; s < stack->len; s++)
        {
          OpenSlice *open = &g_array_index (stack, OpenSlice, s);

          if (n_open++ < MAX_REPORTED)
            add_problem_at (builder, SL_SEVERITY_WARNING, open->args_offset,
                            _("Begin event without an end; drawn to the end of the trace"));
          append_slice (builder, t, open->start_ns, span (open->start_ns, end_ns), open->name_id,
                        open->category_id, SL_TRACE_SLICE_UNFINISHED | SL_TRACE_SLICE_BEGIN_END, open->args_offset,
                        open->args_length);
        }
    }
  g_hash_table_remove_all (builder->async_open);

  if (n_open > MAX_REPORTED)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu begin event has no end in all",
                                      "%llu begin events have no end in all",
                                      n_open),
                         (unsigned long long) n_open);
      add_problem_at (builder, SL_SEVERITY_WARNING, SL_TRACE_NO_ARGS, message);
    }
}

static void
report_totals (SlTraceBuilder *builder)
{
  if (builder->n_unmatched_ends > MAX_REPORTED)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu end event has no begin in all",
                                      "%llu end events have no begin in all",
                                      builder->n_unmatched_ends),
                         (unsigned long long) builder->n_unmatched_ends);
      add_problem_at (builder, SL_SEVERITY_WARNING, SL_TRACE_NO_ARGS, message);
    }
  if (builder->n_negative > 0)
    {
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%llu slice has a negative duration; drawn with none",
                                      "%llu slices have a negative duration; drawn with none",
                                      builder->n_negative),
                         (unsigned long long) builder->n_negative);
      add_problem_at (builder, SL_SEVERITY_WARNING, SL_TRACE_NO_ARGS, message);
    }
}

static void
track_publish (Track *t)
{
  t->slices_view = (SlTraceSlices) {
    .n_slices = t->n,
    .start_ns = t->start_ns,
    .dur_ns = t->dur_ns,
    .self_ns = t->self_ns,
    .name_id = t->name_ids,
    .category_id = t->category_ids,
    .parent = t->parent,
    .depth = t->depth,
    .flags = t->flags,
    .args_offset = t->args_offset,
    .args_length = t->args_length,
  };
  t->counter_view = (SlTraceCounter) {
    .n_points = t->n_points,
    .ts_ns = t->ts_ns,
    .value = t->value,
    .min_value = t->min_value,
    .max_value = t->max_value,
  };
}

static void
name_track (SlTrace *self,
            Track   *t)
{
  const char *name, *series;

  if (t->name != NULL)
    return;
  switch (t->kind)
    {
    case SL_TRACE_TRACK_THREAD:
      break;
    case SL_TRACE_TRACK_ASYNC:
      t->name = g_strdup (sl_trace_get_string (self, t->name_id));
      break;
    case SL_TRACE_TRACK_COUNTER:
      name = sl_trace_get_string (self, t->name_id);
      series = sl_trace_get_string (self, t->series_id);
      if (*series == '\0' || g_str_equal (series, "value"))
        t->name = g_strdup (name);
      else
        t->name = g_strdup_printf ("%s %s", name, series);
      break;
    default:
      g_assert_not_reached ();
    }
}

SlTrace *
sl_trace_builder_finish (SlTraceBuilder *builder,
                         GCancellable   *cancellable)
{
  g_autoptr(SlTrace) self = NULL;
  g_autofree guint *display_index = NULL;
  g_autoptr(GPtrArray) by_builder_index = NULL;
  GHashTableIter iter;
  gpointer key, value;
  gsize work = 0;

  g_return_val_if_fail (builder != NULL, NULL);

  self = g_object_new (SL_TYPE_TRACE, NULL);

  if (builder->min_ns > builder->max_ns)
    builder->min_ns = builder->max_ns = 0;
  close_open_slices (builder, builder->max_ns);
  report_totals (builder);

  for (guint i = 0; i < builder->tracks->len; i++)
    {
      Track *t = g_ptr_array_index (builder->tracks, i);

      track_compact (t);
      track_sort_slices (t);
      track_nest (t);
      track_sort_points (t);
      work += t->n + t->n_points;
      if (work > CANCEL_CHECK_MASK)
        {
          work = 0;
          if (g_cancellable_is_cancelled (cancellable))
            {
              sl_trace_builder_free (builder);
              return NULL;
            }
        }
    }

  /* Hand everything over. */
  self->source_path = g_strdup (builder->source_path);
  self->sources = g_steal_pointer (&builder->sources);
  self->strings = builder->strings;
  memset (&builder->strings, 0, sizeof builder->strings);
  g_clear_pointer (&self->strings.slots, g_free);
  g_clear_pointer (&self->strings.hashes, g_free);
  self->processes = g_steal_pointer (&builder->processes);
  self->start_ns = builder->min_ns;
  self->end_ns = builder->max_ns;

  by_builder_index = g_ptr_array_new ();
  for (guint i = 0; i < builder->tracks->len; i++)
    {
      Track *t = g_ptr_array_index (builder->tracks, i);

      name_track (self, t);
      g_ptr_array_add (by_builder_index, t);
    }
  self->tracks = g_steal_pointer (&builder->tracks);
  g_ptr_array_sort_with_data (self->tracks, compare_tracks, self);
  display_index = g_new0 (guint, MAX (self->tracks->len, 1));
  for (guint i = 0; i < self->tracks->len; i++)
    {
      Track *t = g_ptr_array_index (self->tracks, i);

      display_index[t->builder_index] = i;
      track_publish (t);
    }

  resolve_flows (self, builder, by_builder_index, display_index);

  self->phase_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, builder->phase_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      self->n_events += GPOINTER_TO_SIZE (value);
      g_hash_table_insert (self->phase_counts, g_strdup (key), value);
    }
  self->problems = g_steal_pointer (&builder->problems);
  self->metadata = g_steal_pointer (&builder->metadata);

  sl_trace_builder_free (builder);

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------ */
/* SlTrace */

static void
sl_trace_finalize (GObject *object)
{
  SlTrace *self = (SlTrace *)object;

  g_clear_pointer (&self->source_path, g_free);
  g_clear_pointer (&self->sources, g_ptr_array_unref);
  intern_clear (&self->strings);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->flows, g_array_unref);
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

  if (self->strings.strings == NULL || id >= self->strings.strings->len)
    return "";
  if (G_UNLIKELY (self->strings.repaired != NULL))
    {
      const char *repaired = g_hash_table_lookup (self->strings.repaired, GUINT_TO_POINTER (id));

      if (repaired != NULL)
        return repaired;
    }
  return g_ptr_array_index (self->strings.strings, id);
}

guint
sl_trace_get_n_strings (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->strings.strings != NULL ? self->strings.strings->len : 0;
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

static Process *
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
  Process *p = get_process (self, process);

  return p != NULL ? p->pid : NULL;
}

const char *
sl_trace_get_process_name (SlTrace *self,
                           guint    process)
{
  Process *p = get_process (self, process);

  return p != NULL ? p->name : NULL;
}

gint64
sl_trace_get_process_sort_index (SlTrace *self,
                                 guint    process)
{
  Process *p = get_process (self, process);

  return p != NULL ? p->sort_index : 0;
}

guint
sl_trace_get_n_tracks (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), 0);

  return self->tracks->len;
}

static Track *
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
  Track *t = get_track_at (self, track);

  return t != NULL ? t->kind : SL_TRACE_TRACK_THREAD;
}

guint
sl_trace_get_track_process (SlTrace *self,
                            guint    track)
{
  Track *t = get_track_at (self, track);

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
  Track *t = get_track_at (self, track);

  if (t == NULL)
    return "";
  if (t->name != NULL)
    return t->name;
  return t->tid != NULL ? t->tid : "";
}

const char *
sl_trace_get_track_tid (SlTrace *self,
                        guint    track)
{
  Track *t = get_track_at (self, track);

  return t != NULL ? t->tid : NULL;
}

void
sl_trace_get_track_ids (SlTrace *self,
                        guint    track,
                        guint32 *name_id,
                        guint32 *category_id,
                        guint32 *series_id)
{
  Track *t = get_track_at (self, track);

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
  Track *t = get_track_at (self, track);

  return t != NULL ? t->n_depths : 0;
}

const SlTraceSlices *
sl_trace_get_slices (SlTrace *self,
                     guint    track)
{
  Track *t = get_track_at (self, track);

  return t != NULL ? &t->slices_view : NULL;
}

const SlTraceCounter *
sl_trace_get_counter (SlTrace *self,
                      guint    track)
{
  Track *t = get_track_at (self, track);

  return t != NULL ? &t->counter_view : NULL;
}

guint32
sl_trace_find_enclosing_slice (SlTrace *self,
                               guint    track,
                               gint64   ts_ns)
{
  Track *t = get_track_at (self, track);

  return t != NULL ? track_find_enclosing (t, ts_ns) : SL_TRACE_NO_PARENT;
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

GListModel *
sl_trace_get_problems (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  return G_LIST_MODEL (self->problems);
}

GHashTable *
sl_trace_get_phase_counts (SlTrace *self)
{
  g_return_val_if_fail (SL_IS_TRACE (self), NULL);

  return self->phase_counts;
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
  MetadataEvent *event;

  g_return_if_fail (SL_IS_TRACE (self));
  g_return_if_fail (index < self->metadata->len);

  event = &g_array_index (self->metadata, MetadataEvent, index);
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
    {
      Track *t = g_ptr_array_index (self->tracks, i);

      size += sizeof *t;
      size += t->n * (8 + 8 + 8 + 4 + 4 + 4 + 2 + 1 + 8 + 4);
      size += t->n_points * (8 + 8);
    }
  size += self->flows->len * sizeof (SlTraceFlow);
  for (guint i = 0; i < self->strings.strings->len; i++)
    size += g_array_index (self->strings.lengths, guint32, i) + 1 + sizeof (gpointer) + 4;
  return size;
}

/* ------------------------------------------------------------------ */
/* Event text on demand */

struct _SlTraceTextReader
{
  SlTrace      *trace;
  guint         source;
  GInputStream *stream;
  guint64       position;
  gboolean      seekable;     /* plain file: seek; gzip: inflate forward */
};

SlTraceTextReader *
sl_trace_text_reader_new (SlTrace *trace)
{
  SlTraceTextReader *reader;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  reader = g_new0 (SlTraceTextReader, 1);
  reader->trace = g_object_ref (trace);
  reader->source = G_MAXUINT;
  return reader;
}

void
sl_trace_text_reader_free (SlTraceTextReader *reader)
{
  if (reader == NULL)
    return;
  g_clear_object (&reader->stream);
  g_clear_object (&reader->trace);
  g_free (reader);
}

static gboolean
text_reader_open (SlTraceTextReader  *reader,
                  guint               source,
                  GError            **error)
{
  const char *path = sl_trace_get_source (reader->trace, source);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  guchar magic[2] = { 0, 0 };
  gsize n_read = 0;

  g_clear_object (&reader->stream);
  reader->source = G_MAXUINT;
  reader->position = 0;
  reader->seekable = FALSE;

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The trace has no source file for this event"));
      return FALSE;
    }

  file = g_file_new_for_path (path);
  if (!(stream = g_file_read (file, NULL, error)))
    return FALSE;
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), magic, 2, &n_read, NULL, error))
    return FALSE;

  if (n_read == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, NULL, error))
        return FALSE;
      reader->stream = g_converter_input_stream_new (G_INPUT_STREAM (stream), G_CONVERTER (decompressor));
    }
  else
    {
      if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, NULL, error))
        return FALSE;
      reader->stream = G_INPUT_STREAM (g_steal_pointer (&stream));
      reader->seekable = TRUE;
    }
  reader->source = source;
  return TRUE;
}

char *
sl_trace_text_reader_read (SlTraceTextReader  *reader,
                           guint64             offset,
                           guint32             length,
                           GError            **error)
{
  guint source = SL_TRACE_ARGS_SOURCE (offset);
  guint64 byte = SL_TRACE_ARGS_BYTE (offset);
  g_autofree char *text = NULL;
  gsize n_read = 0;

  g_return_val_if_fail (reader != NULL, NULL);

  if (offset == SL_TRACE_NO_ARGS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This event has no text in the source file"));
      return NULL;
    }

  if (reader->source != source || (byte < reader->position && !reader->seekable))
    {
      if (!text_reader_open (reader, source, error))
        return NULL;
    }

  if (reader->seekable)
    {
      if (!g_seekable_seek (G_SEEKABLE (reader->stream), byte, G_SEEK_SET, NULL, error))
        return NULL;
    }
  else
    {
      /* read, not skip: a converter stream's skip would skip the
       * compressed bytes underneath */
      g_autofree char *scratch = g_malloc (64 * 1024);

      while (reader->position < byte)
        {
          gssize n = g_input_stream_read (reader->stream, scratch, MIN (byte - reader->position, 64 * 1024), NULL, error);

          if (n < 0)
            return NULL;
          if (n == 0)
            break;
          reader->position += n;
        }
    }
  reader->position = byte;

  text = g_malloc (length + 1);
  if (!g_input_stream_read_all (reader->stream, text, length, &n_read, NULL, error))
    return NULL;
  reader->position += n_read;
  if (n_read != length)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                   _("The source file is shorter than when it was read"));
      return NULL;
    }
  text[length] = '\0';
  return g_steal_pointer (&text);
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
