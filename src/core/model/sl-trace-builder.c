/* sl-trace-builder.c: building an SlTrace from imported events
 *
 * The builder appends events to per-track columns, and finish() closes
 * what is left open, seals every track (sorting and nesting its slices),
 * binds flows and orders the tracks for display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-trace-builder.h"
#include "sl-trace-private.h"

#define CANCEL_CHECK_MASK 0xffff
#define MAX_REPORTED      20
/* Up to this many processes or tracks are found by looking at each: most
 * traces have a few, and two hash tables and a key a look-up cost more
 * than reading a small trace. */
#define LINEAR_MAX        16

typedef struct {
  gint64   start_ns;
  guint32  name_id;
  guint32  category_id;
  guint64  args_offset;
  guint32  args_length;
} OpenSlice;

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

/* The open async slices of one (track, id), its own key in the table:
 * the outermost in place, the ones nested in it after (ids are mostly
 * used once, and three allocations an id took more than the rest). */
typedef struct {
  AsyncKey   key;
  guint      n;
  OpenSlice  bottom;
  GArray    *above;   /* OpenSlice, the n - 1 after the bottom one */
} AsyncStack;

static void
async_stack_free (gpointer data)
{
  AsyncStack *stack = data;

  if (stack->above != NULL)
    g_array_unref (stack->above);
  g_free (stack);
}

static inline OpenSlice *
async_stack_at (AsyncStack *stack,
                guint       i)
{
  return i == 0 ? &stack->bottom : &g_array_index (stack->above, OpenSlice, i - 1);
}

struct _SlTraceBuilder
{
  char          *source_path;
  GPtrArray     *sources;
  SlInternTable *strings;
  GPtrArray     *processes;     /* SlTraceProcess * */
  GHashTable    *process_index; /* pid → index + 1, once there are LINEAR_MAX */
  GPtrArray     *tracks;        /* SlTraceTrack * */
  GHashTable    *track_index;   /* key text → index + 1, once there are LINEAR_MAX */
  GArray        *flow_points;
  GHashTable    *async_open;    /* AsyncStack, made when needed */
  GHashTable    *phase_counts;  /* phase → count */
  GArray        *metadata;      /* SlTraceMetadataEvent */
  GPtrArray     *problems;      /* SlProblem *, put in the trace's list at once; made when needed */
  guint64        n_unmatched_ends;
  guint64        n_negative;
  guint64        first_negative; /* its args offset, where the problem points */
  gint64         min_ns, max_ns;
};

static void
process_free (gpointer data)
{
  SlTraceProcess *process = data;

  sl_trace_text_drop (process->name, process->name_here);
  sl_trace_text_drop (process->pid, process->pid_here);
  g_free (process);
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

  if (builder->problems == NULL)
    builder->problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (builder->problems, sl_problem_new (severity, _("Trace"), path, byte, message));
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
  builder->strings = sl_intern_table_new ();
  sl_intern_table_intern (builder->strings, "", 0);
  builder->processes = g_ptr_array_new_with_free_func (process_free);
  builder->tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_track_free);
  builder->flow_points = g_array_new (FALSE, FALSE, sizeof (FlowPoint));
  builder->phase_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* room for the names and sort indices of a few processes and threads at once */
  builder->metadata = g_array_sized_new (FALSE, FALSE, sizeof (SlTraceMetadataEvent), 32);
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
  g_clear_pointer (&builder->strings, sl_intern_table_free);
  g_clear_pointer (&builder->processes, g_ptr_array_unref);
  g_clear_pointer (&builder->process_index, g_hash_table_unref);
  g_clear_pointer (&builder->tracks, g_ptr_array_unref);
  g_clear_pointer (&builder->track_index, g_hash_table_unref);
  g_clear_pointer (&builder->flow_points, g_array_unref);
  g_clear_pointer (&builder->async_open, g_hash_table_unref);
  g_clear_pointer (&builder->phase_counts, g_hash_table_unref);
  g_clear_pointer (&builder->metadata, g_array_unref);
  g_clear_pointer (&builder->problems, g_ptr_array_unref);
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
  return sl_intern_table_intern (builder->strings, str, len);
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
  SlTraceProcess *process;

  g_return_val_if_fail (builder != NULL, 0);

  if (pid == NULL)
    pid = "";
  if (builder->process_index == NULL)
    {
      for (guint i = 0; i < builder->processes->len; i++)
        if (strcmp (((SlTraceProcess *) g_ptr_array_index (builder->processes, i))->pid, pid) == 0)
          return i;
      if (builder->processes->len == LINEAR_MAX)
        {
          builder->process_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          for (guint i = 0; i < builder->processes->len; i++)
            g_hash_table_insert (builder->process_index,
                                 g_strdup (((SlTraceProcess *) g_ptr_array_index (builder->processes, i))->pid),
                                 GUINT_TO_POINTER (i + 1));
        }
    }
  else if ((value = g_hash_table_lookup (builder->process_index, pid)) != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  process = g_new0 (SlTraceProcess, 1);
  process->pid = sl_trace_text_keep (process->pid_here, sizeof process->pid_here, pid);
  g_ptr_array_add (builder->processes, process);
  if (builder->process_index != NULL)
    g_hash_table_insert (builder->process_index, g_strdup (pid), GUINT_TO_POINTER (builder->processes->len));
  return builder->processes->len - 1;
}

/* "t3/tid", "a3/5/7", "c3/5/7": what tells a track from the others in
 * the index of a trace with many tracks, written without printf. */
static char *
track_key (char        kind,
           guint       process,
           guint32     a,
           guint32     b,
           const char *tid)
{
  char text[1 + 3 * 10 + 2 + 1];
  char *at = text + sizeof text;
  guint32 values[3] = { process, a, b };
  guint n = tid != NULL ? 1 : 3;

  /* from the end backwards */
  *--at = '\0';
  for (guint v = n; v-- > 0;)
    {
      guint32 x = values[v];

      do
        *--at = (char) ('0' + x % 10);
      while ((x /= 10) != 0);
      if (v > 0)
        *--at = '/';
    }
  *--at = kind;
  return tid != NULL ? g_strconcat (at, "/", tid, NULL) : g_strdup (at);
}

static char *
key_of (const SlTraceTrack *t)
{
  switch (t->kind)
    {
    case SL_TRACE_TRACK_THREAD:
      return track_key ('t', t->process, 0, 0, t->tid);
    case SL_TRACE_TRACK_ASYNC:
      return track_key ('a', t->process, t->category_id, t->name_id, NULL);
    case SL_TRACE_TRACK_COUNTER:
    default:
      return track_key ('c', t->process, t->name_id, t->series_id, NULL);
    }
}

/* What the keys of track_key() tell apart, without writing them. */
static inline gboolean
track_is (const SlTraceTrack *t,
          SlTraceTrackKind    kind,
          guint               process,
          const char         *tid,
          guint32             name_id,
          guint32             category_id,
          guint32             series_id)
{
  if (t->kind != kind || t->process != process)
    return FALSE;
  switch (kind)
    {
    case SL_TRACE_TRACK_THREAD:
      return strcmp (t->tid, tid) == 0;
    case SL_TRACE_TRACK_ASYNC:
      return t->category_id == category_id && t->name_id == name_id;
    case SL_TRACE_TRACK_COUNTER:
    default:
      return t->name_id == name_id && t->series_id == series_id;
    }
}

static guint
get_track (SlTraceBuilder   *builder,
           SlTraceTrackKind  kind,
           guint             process,
           const char       *tid,
           guint32           name_id,
           guint32           category_id,
           guint32           series_id)
{
  gpointer value;
  SlTraceTrack *track;
  char *key = NULL;

  if (builder->track_index == NULL)
    {
      for (guint i = 0; i < builder->tracks->len; i++)
        if (track_is (g_ptr_array_index (builder->tracks, i), kind, process, tid, name_id, category_id, series_id))
          return i;
      if (builder->tracks->len == LINEAR_MAX)
        {
          builder->track_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          for (guint i = 0; i < builder->tracks->len; i++)
            g_hash_table_insert (builder->track_index, key_of (g_ptr_array_index (builder->tracks, i)),
                                 GUINT_TO_POINTER (i + 1));
        }
    }
  if (builder->track_index != NULL)
    {
      key = kind == SL_TRACE_TRACK_THREAD ? track_key ('t', process, 0, 0, tid)
            : kind == SL_TRACE_TRACK_ASYNC ? track_key ('a', process, category_id, name_id, NULL)
            : track_key ('c', process, name_id, series_id, NULL);
      if ((value = g_hash_table_lookup (builder->track_index, key)) != NULL)
        {
          g_free (key);
          return GPOINTER_TO_UINT (value) - 1;
        }
    }

  track = sl_trace_track_new (kind, process, builder->tracks->len, tid, name_id, category_id, series_id);
  g_ptr_array_add (builder->tracks, track);
  if (key != NULL)
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
  return get_track (builder, SL_TRACE_TRACK_THREAD, process, tid, 0, 0, 0);
}

guint
sl_trace_builder_get_async_track (SlTraceBuilder *builder,
                                  guint           process,
                                  guint32         category_id,
                                  guint32         name_id)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (process < builder->processes->len, 0);

  return get_track (builder, SL_TRACE_TRACK_ASYNC, process, NULL, name_id, category_id, 0);
}

guint
sl_trace_builder_get_counter_track (SlTraceBuilder *builder,
                                    guint           process,
                                    guint32         name_id,
                                    guint32         series_id)
{
  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (process < builder->processes->len, 0);

  return get_track (builder, SL_TRACE_TRACK_COUNTER, process, NULL, name_id, 0, series_id);
}

void
sl_trace_builder_set_process_name (SlTraceBuilder *builder,
                                   guint           process,
                                   const char     *name)
{
  SlTraceProcess *p;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (process < builder->processes->len);

  p = g_ptr_array_index (builder->processes, process);
  if (name == p->name)
    return;
  sl_trace_text_drop (p->name, p->name_here);
  p->name = name != NULL ? sl_trace_text_keep (p->name_here, sizeof p->name_here, name) : NULL;
}

void
sl_trace_builder_set_process_sort_index (SlTraceBuilder *builder,
                                         guint           process,
                                         gint64          sort_index)
{
  SlTraceProcess *p;

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
  SlTraceTrack *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  sl_trace_track_set_name (t, name);
}

void
sl_trace_builder_set_track_sort_index (SlTraceBuilder *builder,
                                       guint           track,
                                       gint64          sort_index)
{
  SlTraceTrack *t;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  t = g_ptr_array_index (builder->tracks, track);
  t->sort_index = sort_index;
}

static void
append_slice (SlTraceBuilder *builder,
              SlTraceTrack   *t,
              gint64          start_ns,
              gint64          dur_ns,
              guint32         name_id,
              guint32         category_id,
              guint8          flags,
              guint64         args_offset,
              guint32         args_length)
{
  if (dur_ns < 0)
    {
      if (builder->n_negative++ == 0)
        builder->first_negative = args_offset;
      dur_ns = 0;
    }
  /* hostile times: the end must stay representable */
  if (start_ns > 0 && dur_ns > G_MAXINT64 - start_ns)
    dur_ns = G_MAXINT64 - start_ns;
  sl_trace_track_append_slice (t, start_ns, dur_ns, name_id, category_id, flags, args_offset, args_length);
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
  SlTraceTrack *t;

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
  SlTraceTrack *t;

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
  AsyncStack *stack;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  if (builder->async_open == NULL)
    builder->async_open = g_hash_table_new_full (async_key_hash, async_key_equal, async_stack_free, NULL);
  stack = g_hash_table_lookup (builder->async_open, &key);
  if (stack == NULL)
    {
      stack = g_new0 (AsyncStack, 1);
      stack->key = key;
      g_hash_table_add (builder->async_open, stack);
    }
  if (stack->n == 0)
    stack->bottom = open;
  else
    {
      if (stack->above == NULL)
        stack->above = g_array_new (FALSE, FALSE, sizeof (OpenSlice));
      g_array_append_val (stack->above, open);
    }
  stack->n++;
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
  AsyncStack *stack;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  stack = builder->async_open != NULL ? g_hash_table_lookup (builder->async_open, &key) : NULL;
  if (stack == NULL || stack->n == 0)
    {
      report_unmatched_end (builder, offset);
      return;
    }

  open = async_stack_at (stack, stack->n - 1);
  append_slice (builder, g_ptr_array_index (builder->tracks, track), open->start_ns,
                span (open->start_ns, end_ns), open->name_id, open->category_id,
                SL_TRACE_SLICE_BEGIN_END, open->args_offset, open->args_length);
  stack->n--;
  if (stack->n > 0)
    g_array_set_size (stack->above, stack->n - 1);
  else
    g_hash_table_remove (builder->async_open, &key);
}

void
sl_trace_builder_add_counter (SlTraceBuilder *builder,
                              guint           track,
                              gint64          ts_ns,
                              double          value)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (track < builder->tracks->len);

  sl_trace_track_append_point (g_ptr_array_index (builder->tracks, track), ts_ns, value);
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
  SlTraceMetadataEvent event = { offset, length };

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

  if (builder->problems == NULL)
    builder->problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (builder->problems, g_object_ref (problem));
}

/* ------------------------------------------------------------------ */
/* finish() */

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

/* The value of a string is_number() accepts, held at the ends of the
 * range as strtoll() holds it. */
static gint64
number_value (const char *s)
{
  gboolean negative = *s == '-';
  guint64 value = 0, limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;

  for (s += negative; *s; s++)
    {
      guint d = *s - '0';

      if (value > (limit - d) / 10)
        return negative ? G_MININT64 : G_MAXINT64;
      value = value * 10 + d;
    }
  return negative ? (gint64) (0 - value) : (gint64) value;
}

/* Numbers compare as numbers, anything else as text. */
static int
compare_ids (const char *a,
             const char *b)
{
  if (is_number (a) && is_number (b))
    {
      gint64 x = number_value (a), y = number_value (b);

      if (x != y)
        return x < y ? -1 : 1;
      return 0;
    }
  return g_strcmp0 (a, b);
}

static int
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  SlTrace *self = user_data;
  const SlTraceTrack *ta = *(SlTraceTrack * const *)a, *tb = *(SlTraceTrack * const *)b;
  const SlTraceProcess *pa = g_ptr_array_index (self->processes, ta->process);
  const SlTraceProcess *pb = g_ptr_array_index (self->processes, tb->process);
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
  if ((cmp = g_strcmp0 (sl_trace_track_get_name (ta), sl_trace_track_get_name (tb))) != 0)
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
  const SlTraceTrack *t = g_ptr_array_index (tracks, p->track);

  if (p->bind_enclosing)
    return sl_trace_track_find_enclosing (t, p->ts_ns);
  return sl_trace_track_find_next (t, p->ts_ns);
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
      SlTraceTrack *t = g_ptr_array_index (builder->tracks, i);

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

  if (builder->async_open != NULL)
    g_hash_table_iter_init (&iter, builder->async_open);
  while (builder->async_open != NULL && g_hash_table_iter_next (&iter, &key, &value))
    {
      AsyncStack *stack = value;
      const AsyncKey *k = &stack->key;
      SlTraceTrack *t = g_ptr_array_index (builder->tracks, k->track);

      for (guint s = 0; s < stack->n; s++)
        {
          OpenSlice *open = async_stack_at (stack, s);

          if (n_open++ < MAX_REPORTED)
            add_problem_at (builder, SL_SEVERITY_WARNING, open->args_offset,
                            _("Begin event without an end; drawn to the end of the trace"));
          append_slice (builder, t, open->start_ns, span (open->start_ns, end_ns), open->name_id,
                        open->category_id, SL_TRACE_SLICE_UNFINISHED | SL_TRACE_SLICE_BEGIN_END, open->args_offset,
                        open->args_length);
        }
    }
  if (builder->async_open != NULL)
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
      add_problem_at (builder, SL_SEVERITY_WARNING, builder->first_negative, message);
    }
}
static void
name_track (SlTrace      *self,
            SlTraceTrack *t)
{
  const char *name, *series;

  if (t->name != NULL)
    return;
  switch (t->kind)
    {
    case SL_TRACE_TRACK_THREAD:
      break;
    case SL_TRACE_TRACK_ASYNC:
      sl_trace_track_set_name (t, sl_trace_get_string (self, t->name_id));
      break;
    case SL_TRACE_TRACK_COUNTER:
      name = sl_trace_get_string (self, t->name_id);
      series = sl_trace_get_string (self, t->series_id);
      if (*series == '\0' || g_str_equal (series, "value"))
        sl_trace_track_set_name (t, name);
      else
        {
          g_autofree char *both = g_strdup_printf ("%s %s", name, series);

          sl_trace_track_set_name (t, both);
        }
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

  /* Nothing read with a time: the trace is given 0 to 0, which is no
   * time of its own (sl_trace_has_times()). */
  self->has_times = builder->min_ns <= builder->max_ns;
  if (!self->has_times)
    builder->min_ns = builder->max_ns = 0;
  close_open_slices (builder, builder->max_ns);
  report_totals (builder);

  for (guint i = 0; i < builder->tracks->len; i++)
    {
      SlTraceTrack *t = g_ptr_array_index (builder->tracks, i);

      sl_trace_track_seal (t);
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
  self->strings = g_steal_pointer (&builder->strings);
  sl_intern_table_freeze (self->strings);
  self->processes = g_steal_pointer (&builder->processes);
  self->start_ns = builder->min_ns;
  self->end_ns = builder->max_ns;

  by_builder_index = g_ptr_array_sized_new (builder->tracks->len);
  for (guint i = 0; i < builder->tracks->len; i++)
    {
      SlTraceTrack *t = g_ptr_array_index (builder->tracks, i);

      name_track (self, t);
      g_ptr_array_add (by_builder_index, t);
    }
  self->tracks = g_steal_pointer (&builder->tracks);
  g_ptr_array_sort_with_data (self->tracks, compare_tracks, self);
  display_index = g_new0 (guint, MAX (self->tracks->len, 1));
  for (guint i = 0; i < self->tracks->len; i++)
    {
      SlTraceTrack *t = g_ptr_array_index (self->tracks, i);

      display_index[t->builder_index] = i;
    }

  resolve_flows (self, builder, by_builder_index, display_index);
  /* Once here, so that no frame or Details ever scans the flows. */
  self->flow_index = sl_trace_flow_index_new ((const SlTraceFlow *) (gpointer) self->flows->data,
                                              self->flows->len, self->tracks);

  g_hash_table_iter_init (&iter, builder->phase_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    self->n_events += GPOINTER_TO_SIZE (value);
  self->phase_counts = g_steal_pointer (&builder->phase_counts);
  /* one items-changed for all, instead of one a problem */
  if (builder->problems != NULL)
    {
      self->problems = g_list_store_new (SL_TYPE_PROBLEM);
      g_list_store_splice (self->problems, 0, 0, builder->problems->pdata, builder->problems->len);
    }
  self->metadata = g_steal_pointer (&builder->metadata);

  sl_trace_builder_free (builder);

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  return g_steal_pointer (&self);
}
