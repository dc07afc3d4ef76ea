/* sl-advisor-trace-rules.c: the rules that read the timeline's events
 *
 * The rank's timeline is read once, before its rules run, and only when
 * the rule book has a rule that needs "trace-events": the SQLite export's
 * tasks when the loader kept them, otherwise the rank's Chrome-trace
 * files (trace_view.json, msprof_*.json, ascend_timeline_display_<id>.json)
 * picked from the rank's folder by name. Every string of the trace is
 * classified once (GC, SyncBatchNorm, stream synchronisation, launch,
 * data loader, memory call, CANN API, non-kernel task), so each rule
 * scans the slices comparing small integers rather than names.
 *
 * Evidence is the event's source file and byte offset; a damaged file
 * keeps the events before the damage, and the findings say where it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-count-format.h"
#include "sl-advisor-private.h"
#include "sl-chrome-trace-reader.h"
#include "sl-profile-loader.h"
#include "sl-profiler-layout.h"
#include "sl-trace.h"

typedef enum {
  NAME_GC         = 1 << 0,
  NAME_SYNCBN     = 1 << 1,
  NAME_SYNC       = 1 << 2,   /* aclrtSynchronizeStream and its variants */
  NAME_LAUNCH     = 1 << 3,   /* Node@launch: a kernel launched by CANN */
  NAME_DATALOADER = 1 << 4,
  NAME_MEMORY     = 1 << 5,
  NAME_API        = 1 << 6,   /* AscendCL@... */
  NAME_NOT_KERNEL = 1 << 7,   /* device tasks that are no kernel: events, copies, notifies */
  NAME_FREE       = 1 << 8,
  NAME_FRAMEWORK  = 1 << 9,   /* categories of framework (Python) ops */
} NameClass;

typedef enum {
  TRACK_DEVICE = 1 << 0,
  TRACK_API    = 1 << 1,
  TRACK_FREE   = 1 << 2,      /* "Free" of "Overlap Analysis": the device idle */
  TRACK_HOST   = 1 << 3,      /* the framework's own process ("Python") */
} TrackClass;

struct _SlAdvisorTraceIndex {
  SlTrace   *trace;           /* NULL when the rank has none */
  char      *missing;         /* why not */
  GPtrArray *looked_in;       /* patterns below the rank's folder */
  guint16   *name_class;      /* NameClass by string id */
  guint8    *track_class;     /* TrackClass by track */
  guint      n_slices;
  SlProblem *damage;          /* the first warning or error of the reader */
};

typedef struct {
  guint   track;
  guint32 slice;
  gint64  start_ns;
  gint64  dur_ns;
} Event;

static const char *const trace_files[] = { "ASCEND_PROFILER_OUTPUT/trace_view.json", "mindstudio_profiler_output/msprof_*.json",
                                           "device_*/timeline/msprof_*.json", "ascend_timeline_display_*.json", "*.db", NULL };

/* ------------------------------------------------------------------ */
/* Which files are the rank's timeline */

/* Families in order of preference: the first one the rank has is read,
 * all its files (msprof writes one per model and iteration). The other
 * timelines of msprof's device folders (task_time, step_trace, hccl)
 * hold the same events again. */
static const char *const families[] = {
  "trace_view.json*", "msprof*.json*", "ascend_timeline_display_*", "gpu_timeline_display_*", "timeline_display_*", NULL,
};

static gboolean
belongs_to_rank (const SlProfileRank *rank,
                 const char          *path)
{
  g_autofree char *dir = NULL;
  gint64 id = -1;

  if (rank->layout != SL_PROFILE_LAYOUT_MINDSPORE)
    return TRUE;
  /* A MindSpore folder holds every device's files side by side, and a
   * PROF_ folder below it is a profile of its own. */
  dir = g_path_get_dirname (path);
  if (!g_str_equal (dir, rank->dir))
    return FALSE;
  sl_profiler_layout_lookup_file (path, &id);
  return id < 0 || rank->device_id < 0 || id == rank->device_id;
}

static void
add_looked_in (SlAdvisorTraceIndex *index,
               const SlProfileRank *rank)
{
  switch (rank->layout)
    {
    case SL_PROFILE_LAYOUT_MINDSPORE:
      if (rank->device_id >= 0)
        g_ptr_array_add (index->looked_in, g_strdup_printf ("ascend_timeline_display_%lld.json", (long long)rank->device_id));
      else
        g_ptr_array_add (index->looked_in, g_strdup ("ascend_timeline_display_*.json"));
      break;
    case SL_PROFILE_LAYOUT_MSPROF:
      g_ptr_array_add (index->looked_in, g_strdup ("mindstudio_profiler_output/msprof_*.json"));
      g_ptr_array_add (index->looked_in, g_strdup ("device_*/timeline/msprof_*.json"));
      break;
    case SL_PROFILE_LAYOUT_DATABASE:
      g_ptr_array_add (index->looked_in, g_strdup ("*.db"));
      break;
    case SL_PROFILE_LAYOUT_ASCEND_PT:
    case SL_PROFILE_LAYOUT_CLUSTER:
    default:
      g_ptr_array_add (index->looked_in, g_strdup ("ASCEND_PROFILER_OUTPUT/trace_view.json"));
      break;
    }
}

static GPtrArray *
rank_timeline_files (const SlProfileRank *rank,
                     gboolean            *others)
{
  g_autoptr(GPtrArray) all = sl_profile_list_timeline_files (rank->dir);
  GPtrArray *chosen = g_ptr_array_new_with_free_func (g_free);

  *others = all->len > 0;
  for (guint f = 0; families[f] != NULL && chosen->len == 0; f++)
    for (guint i = 0; i < all->len; i++)
      {
        const char *path = g_ptr_array_index (all, i);
        g_autofree char *base = g_path_get_basename (path);

        if (g_pattern_match_simple (families[f], base) && belongs_to_rank (rank, path))
          g_ptr_array_add (chosen, g_strdup (path));
      }
  return chosen;
}

/* The path below the rank's folder, as not_run lists it. */
static char *
relative_to_rank (const SlProfileRank *rank,
                  const char          *path)
{
  gsize n = strlen (rank->dir);

  if (g_str_has_prefix (path, rank->dir) && path[n] == G_DIR_SEPARATOR)
    return g_strdup (path + n + 1);
  return g_path_get_basename (path);
}

static SlTrace *
read_files (SlAdvisorContext    *ctx,
            SlAdvisorTraceIndex *index,
            GPtrArray           *files)
{
  SlTraceBuilder *builder = sl_trace_builder_new (g_ptr_array_index (files, 0));

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (files, i));
      g_autoptr(GError) error = NULL;

      g_ptr_array_add (index->looked_in, relative_to_rank (ctx->rank, g_ptr_array_index (files, i)));
      if (sl_chrome_trace_reader_read_into (builder, file, NULL, NULL, NULL, ctx->cancellable, &error))
        continue;
      if (g_cancellable_is_cancelled (ctx->cancellable))
        {
          sl_trace_builder_free (builder);
          return NULL;
        }
      /* An unreadable file leaves the others; say so if nothing is left. */
      g_free (index->missing);
      index->missing = g_strdup (error->message);
    }
  return sl_trace_builder_finish (builder, ctx->cancellable);
}

/* ------------------------------------------------------------------ */
/* Classifying names and tracks once */

/* Called for every string of the trace: no allocation. */
static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  gsize n = strlen (needle);

  for (const char *p = haystack; p != NULL && *p != '\0'; p++)
    if (g_ascii_strncasecmp (p, needle, n) == 0)
      return TRUE;
  return FALSE;
}

/* Task names of the runtime and of HCCL, in either case as the profilers
 * write them: they order or move data, they compute nothing. */
static gboolean
is_non_kernel_task (const char *name)
{
  static const char *const prefixes[] = { "EVENT_", "NOTIFY", "WRITE VALUE", "WRITE_VALUE", "SDMA", "MEMCPY", "PROFILING_",
                                          "HCOM_", "HCCL", "TORCH_TO_NPU", "ITERATION ", "STARS_", "REDUCE_", "RDMA",
                                          "STREAM_", "LABEL_", "MODEL_", "PLACE_HOLDER", NULL };

  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_ascii_strncasecmp (name, prefixes[i], strlen (prefixes[i])) == 0)
      return TRUE;
  return FALSE;
}

static guint16
classify_name (const char *name)
{
  guint16 classes = 0;

  if (g_ascii_strcasecmp (name, "GC") == 0)
    classes |= NAME_GC;
  if (contains_ci (name, "syncbatchnorm"))
    classes |= NAME_SYNCBN;
  if (strstr (name, "SynchronizeStream") != NULL)
    classes |= NAME_SYNC;
  if (g_str_equal (name, "Node@launch") || g_str_has_suffix (name, "@launch") || g_str_equal (name, "launch"))
    classes |= NAME_LAUNCH;
  /* torch.utils.data's "enumerate(DataLoader)#..." and its frames;
   * MindSpore's GetNext waits for the dataset queue. */
  if (contains_ci (name, "dataloader") || strstr (name, "GetNext") != NULL)
    classes |= NAME_DATALOADER;
  if (strstr (name, "aclMallocMemInner") != NULL || strstr (name, "aclrtMalloc") != NULL || strstr (name, "aclrtFree") != NULL)
    classes |= NAME_MEMORY;
  if (g_str_has_prefix (name, "AscendCL@"))
    classes |= NAME_API;
  if (is_non_kernel_task (name))
    classes |= NAME_NOT_KERNEL;
  if (g_str_equal (name, "Free"))
    classes |= NAME_FREE;
  if (g_str_equal (name, "cpu_op") || g_str_equal (name, "python_function") || g_str_equal (name, "user_annotation"))
    classes |= NAME_FRAMEWORK;
  return classes;
}

static gboolean
any_process_named (SlTrace *trace)
{
  for (guint p = 0; p < sl_trace_get_n_processes (trace); p++)
    {
      const char *name = sl_trace_get_process_name (trace, p);

      if (name != NULL && name[0] != '\0')
        return TRUE;
    }
  return FALSE;
}

static guint8
classify_track (SlTrace  *trace,
                guint     track,
                gboolean  named)
{
  const char *process = sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, track));
  guint8 classes = 0;

  if (sl_trace_get_track_kind (trace, track) != SL_TRACE_TRACK_THREAD)
    return 0;
  if (process == NULL)
    process = "";
  /* MindSpore's older timelines name no process and hold device ops only. */
  if (g_str_has_prefix (process, "Ascend Hardware") || !named)
    classes |= TRACK_DEVICE;
  if (g_str_has_prefix (process, "CANN"))
    classes |= TRACK_API;
  if (g_str_equal (process, "Overlap Analysis") && g_str_equal (sl_trace_get_track_name (trace, track), "Free"))
    classes |= TRACK_FREE;
  if (g_str_has_prefix (process, "Python"))
    classes |= TRACK_HOST;
  return classes;
}

static SlProblem *
first_damage (SlTrace *trace)
{
  GListModel *problems = sl_trace_get_problems (trace);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) >= SL_SEVERITY_WARNING)
        return g_steal_pointer (&problem);
    }
  return NULL;
}

static void
index_trace (SlAdvisorTraceIndex *index)
{
  SlTrace *trace = index->trace;
  guint n_strings = sl_trace_get_n_strings (trace);
  guint n_tracks = sl_trace_get_n_tracks (trace);
  gboolean named = any_process_named (trace);

  index->name_class = g_new0 (guint16, MAX (n_strings, 1));
  for (guint i = 1; i < n_strings; i++)
    index->name_class[i] = classify_name (sl_trace_get_string (trace, i));
  index->track_class = g_new0 (guint8, MAX (n_tracks, 1));
  for (guint t = 0; t < n_tracks; t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);

      index->track_class[t] = classify_track (trace, t, named);
      index->n_slices += slices != NULL ? slices->n_slices : 0;
    }
  index->damage = first_damage (trace);
}

static void
index_free (SlAdvisorTraceIndex *index)
{
  g_clear_object (&index->trace);
  g_clear_object (&index->damage);
  g_clear_pointer (&index->missing, g_free);
  g_clear_pointer (&index->looked_in, g_ptr_array_unref);
  g_clear_pointer (&index->name_class, g_free);
  g_clear_pointer (&index->track_class, g_free);
  g_free (index);
}

static void
open_files (SlAdvisorContext    *ctx,
            SlAdvisorTraceIndex *index)
{
  gboolean others = FALSE;
  g_autoptr(GPtrArray) files = rank_timeline_files (ctx->rank, &others);

  if (files->len == 0)
    {
      add_looked_in (index, ctx->rank);
      index->missing = g_strdup (others ? _("The folder's timelines belong to other ranks or devices, none to this one")
                                        : _("The profile has no timeline (trace events) for this rank"));
      return;
    }
  index->trace = read_files (ctx, index, files);
}

/**
 * sl_advisor_trace_open:
 *
 * Reads the timeline of the context's rank (in the calling thread,
 * cancellable), or notes why there is none.
 */
void
sl_advisor_trace_open (SlAdvisorContext *ctx)
{
  SlAdvisorTraceIndex *index;

  g_return_if_fail (ctx != NULL && ctx->rank != NULL);

  g_clear_pointer (&ctx->trace, index_free);
  index = g_new0 (SlAdvisorTraceIndex, 1);
  index->looked_in = g_ptr_array_new_with_free_func (g_free);
  ctx->trace = index;

  if (ctx->rank->trace != NULL)
    {
      index->trace = g_object_ref (SL_TRACE (ctx->rank->trace));
      g_ptr_array_add (index->looked_in, relative_to_rank (ctx->rank, sl_trace_get_source_path (index->trace)));
    }
  else
    open_files (ctx, index);

  if (index->trace == NULL)
    return;
  index_trace (index);
  if (index->n_slices == 0)
    {
      g_autofree char *damage = index->damage != NULL ? sl_problem_dup_location (index->damage) : NULL;

      g_free (index->missing);
      if (index->damage != NULL)
        /* Translators: the first %s is where a file is damaged, the second what is wrong there */
        index->missing = g_strdup_printf (_("The timeline holds no events before its damage at %s: %s"), damage,
                                          sl_problem_get_message (index->damage));
      else
        index->missing = g_strdup (_("The timeline holds no events"));
      g_clear_object (&index->trace);
    }
}

void
sl_advisor_trace_close (SlAdvisorContext *ctx)
{
  g_return_if_fail (ctx != NULL);

  g_clear_pointer (&ctx->trace, index_free);
}

/* ------------------------------------------------------------------ */
/* Helpers of the rules */

static void
trace_not_run (SlAdvisorContext *ctx,
               const char       *reason)
{
  g_autoptr(GPtrArray) patterns = g_ptr_array_new ();
  SlAdvisorTraceIndex *index = ctx->trace;

  if (index == NULL)
    {
      sl_advisor_not_run (ctx, reason, trace_files);
      return;
    }
  for (guint i = 0; i < index->looked_in->len; i++)
    g_ptr_array_add (patterns, g_ptr_array_index (index->looked_in, i));
  g_ptr_array_add (patterns, NULL);
  sl_advisor_not_run (ctx, reason, (const char *const *)patterns->pdata);
}

/* The trace, or NULL once the rule has said why it cannot run. */
static SlTrace *
require_trace (SlAdvisorContext *ctx)
{
  if (ctx->trace == NULL)
    {
      trace_not_run (ctx, _("The timeline was not read"));
      return NULL;
    }
  if (ctx->trace->trace == NULL)
    {
      trace_not_run (ctx, ctx->trace->missing != NULL ? ctx->trace->missing : _("The profile has no timeline for this rank"));
      return NULL;
    }
  return ctx->trace->trace;
}

static guint16
slice_classes (SlAdvisorTraceIndex *index,
               const SlTraceSlices *slices,
               guint32              i)
{
  return index->name_class[sl_trace_slices_name_id (slices, i)] | index->name_class[sl_trace_slices_category_id (slices, i)];
}

/* Every slice of the tracks of @track_mask (0: any) whose name or
 * category is of @name_mask (0: any). */
static GArray *
collect (SlAdvisorContext *ctx,
         guint16           name_mask,
         guint8            track_mask)
{
  SlAdvisorTraceIndex *index = ctx->trace;
  GArray *events = g_array_new (FALSE, FALSE, sizeof (Event));
  guint seen = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (index->trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (index->trace, t);

      if (slices == NULL || (track_mask != 0 && (index->track_class[t] & track_mask) == 0))
        continue;
      for (guint32 i = 0; i < slices->n_slices; i++)
        {
          if (sl_advisor_cancelled (ctx, ++seen))
            return events;
          if (name_mask == 0 || (slice_classes (index, slices, i) & name_mask) != 0)
            {
              Event event = { t, i, sl_trace_slices_start_ns (slices, i), MAX (sl_trace_slices_dur_ns (slices, i), 0) };

              g_array_append_val (events, event);
            }
        }
    }
  return events;
}

static gboolean
any_slice (SlAdvisorContext *ctx,
           guint16           name_mask,
           guint8            track_mask)
{
  SlAdvisorTraceIndex *index = ctx->trace;

  for (guint t = 0; t < sl_trace_get_n_tracks (index->trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (index->trace, t);

      if (slices == NULL)
        continue;
      if (track_mask != 0 && (index->track_class[t] & track_mask) != 0 && slices->n_slices > 0)
        return TRUE;
      for (guint32 i = 0; name_mask != 0 && i < slices->n_slices; i++)
        if ((slice_classes (index, slices, i) & name_mask) != 0)
          return TRUE;
    }
  return FALSE;
}

static int
compare_longest (gconstpointer a,
                 gconstpointer b)
{
  const Event *x = a, *y = b;

  if (x->dur_ns != y->dur_ns)
    return x->dur_ns > y->dur_ns ? -1 : 1;
  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const Event *x = a, *y = b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static gint64
sum_durations (GArray *events)
{
  gint64 total = 0;

  for (guint i = 0; i < events->len; i++)
    total += g_array_index (events, Event, i).dur_ns;
  return total;
}

static const char *
event_name (SlAdvisorContext *ctx,
            const Event      *event)
{
  const SlTraceSlices *slices = sl_trace_get_slices (ctx->trace->trace, event->track);

  return sl_trace_get_string (ctx->trace->trace, sl_trace_slices_name_id (slices, event->slice));
}

static void
add_event_evidence (SlAdvisorContext *ctx,
                    SlAdvisorFinding *finding,
                    const Event      *event,
                    const char       *label)
{
  SlTrace *trace = ctx->trace->trace;
  const SlTraceSlices *slices = sl_trace_get_slices (trace, event->track);
  guint64 offset = sl_trace_slices_args_offset (slices, event->slice);
  const char *file = offset != SL_TRACE_NO_ARGS ? sl_trace_get_source (trace, SL_TRACE_ARGS_SOURCE (offset)) : NULL;
  g_autofree char *dur = sl_advisor_format_time (event->dur_ns);
  g_autofree char *at = sl_advisor_format_time (event->start_ns - sl_trace_get_start_ns (trace));
  /* Translators: an event's duration and when it starts, counted from the start of the timeline */
  g_autofree char *value = g_strdup_printf (_("%s, %s into the timeline"), dur, at);

  sl_advisor_finding_add_evidence (finding, label != NULL ? label : event_name (ctx, event), value,
                                   file != NULL ? file : sl_trace_get_source_path (trace), 0,
                                   offset != SL_TRACE_NO_ARGS ? (gint64)SL_TRACE_ARGS_BYTE (offset) : -1);
}

static void
add_events_evidence (SlAdvisorContext *ctx,
                     SlAdvisorFinding *finding,
                     GArray           *events)
{
  for (guint i = 0; i < events->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
    add_event_evidence (ctx, finding, &g_array_index (events, Event, i), NULL);
}

/* The counts of a damaged timeline are lower bounds: say where it broke. */
static void
add_damage_evidence (SlAdvisorContext *ctx,
                     SlAdvisorFinding *finding)
{
  SlProblem *damage = ctx->trace->damage;

  if (damage == NULL)
    return;
  sl_advisor_finding_add_evidence (finding, _("damaged timeline"), sl_problem_get_message (damage),
                                   sl_problem_get_path (damage), sl_problem_get_line (damage),
                                   sl_problem_get_line (damage) > 0 ? -1 : sl_problem_get_offset (damage));
}

static void
jump_to_event (SlAdvisorFinding *finding,
               const Event      *event)
{
  sl_advisor_finding_set_jump (finding, NULL, event->start_ns, event->start_ns + MAX (event->dur_ns, 1), NULL);
}

static double
fraction_or (SlAdvisorContext *ctx,
             double            fallback)
{
  double fraction = sl_advisor_threshold (ctx, "saving_fraction");

  return isfinite (fraction) ? CLAMP (fraction, 0.0, 1.0) : fallback;
}

static void
set_count (GHashTable *values,
           guint       count)
{
  sl_advisor_values_set (values, "count", g_strdup_printf ("%u", count));
}

/* One finding from events sorted longest first. */
static void
event_finding (SlAdvisorContext *ctx,
               GArray           *events,
               gint64            total,
               gint64            saving,
               GHashTable       *values)
{
  const Event *worst = &g_array_index (events, Event, 0);
  SlAdvisorFinding *finding = sl_advisor_finding_begin (ctx);

  if (!g_hash_table_contains (values, "top"))
    sl_advisor_values_set (values, "top", g_strdup (event_name (ctx, worst)));
  sl_advisor_values_set (values, "longest", sl_advisor_format_time (worst->dur_ns));
  add_events_evidence (ctx, finding, events);
  add_damage_evidence (ctx, finding);
  jump_to_event (finding, worst);
  sl_advisor_finding_end (ctx, finding, total, saving, values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* GC */

void
sl_advisor_rule_gc (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) slow = g_array_new (FALSE, FALSE, sizeof (Event));
  g_autoptr(GHashTable) values = NULL;
  double min_ms = sl_advisor_threshold (ctx, "min_duration_ms");
  double fraction = fraction_or (ctx, 0.8);
  gint64 total;

  if (require_trace (ctx) == NULL)
    return;
  events = collect (ctx, NAME_GC, 0);
  if (events->len == 0)
    {
      trace_not_run (ctx, _("The timeline has no GC events: GC detection was off, or no collection reached its threshold"));
      return;
    }
  for (guint i = 0; i < events->len; i++)
    if ((double)g_array_index (events, Event, i).dur_ns >= min_ms * 1e6)
      g_array_append_val (slow, g_array_index (events, Event, i));
  if (slow->len == 0)
    return;

  g_array_sort (slow, compare_longest);
  total = sum_durations (slow);
  values = sl_advisor_values_new ();
  set_count (values, slow->len);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ms));
  sl_advisor_values_set (values, "fraction", g_strdup_printf ("%.0f %%", fraction * 100));
  event_finding (ctx, slow, total, (gint64)(total * fraction), values);
}

/* ------------------------------------------------------------------ */
/* Conjectured GC: long device idle gaps while the host is quiet */

/* Gaps from the profiler's own Free lane when it wrote one, otherwise
 * between the device's slices (merged over all streams). */
static GArray *
device_gaps (SlAdvisorContext *ctx,
             gint64            min_ns)
{
  g_autoptr(GArray) busy = NULL;
  GArray *gaps = g_array_new (FALSE, FALSE, sizeof (Event));
  gint64 end = G_MININT64;

  if (any_slice (ctx, 0, TRACK_FREE))
    {
      g_autoptr(GArray) free_slices = collect (ctx, NAME_FREE, TRACK_FREE);

      for (guint i = 0; i < free_slices->len; i++)
        if (g_array_index (free_slices, Event, i).dur_ns > min_ns)
          g_array_append_val (gaps, g_array_index (free_slices, Event, i));
      return gaps;
    }

  busy = collect (ctx, 0, TRACK_DEVICE);
  g_array_sort (busy, compare_start);
  for (guint i = 0; i < busy->len; i++)
    {
      const Event *event = &g_array_index (busy, Event, i);

      if (end != G_MININT64 && event->start_ns - end > min_ns)
        {
          /* A gap has no slice of its own: it points at the one after it. */
          Event gap = { event->track, event->slice, end, event->start_ns - end };

          g_array_append_val (gaps, gap);
        }
      end = MAX (end, event->start_ns + event->dur_ns);
    }
  return gaps;
}

/* The first event (sorted by start) that could overlap @from. */
static guint
first_from (GArray *events,
            gint64  from)
{
  guint lo = 0, hi = events->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (events, Event, mid).start_ns < from)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gint64
longest_duration (GArray *events)
{
  gint64 longest = 0;

  for (guint i = 0; i < events->len; i++)
    longest = MAX (longest, g_array_index (events, Event, i).dur_ns);
  return longest;
}

static gboolean
host_quiet_in (GArray       *apis,
               gint64        longest_api,
               const Event  *gap,
               double        max_percent,
               double        max_per_ms)
{
  gint64 from = gap->start_ns, to = gap->start_ns + gap->dur_ns;
  gint64 busy = 0;
  guint calls = 0;

  for (guint i = first_from (apis, from - longest_api); i < apis->len; i++)
    {
      const Event *api = &g_array_index (apis, Event, i);
      gint64 start = MAX (api->start_ns, from), end = MIN (api->start_ns + api->dur_ns, to);

      if (api->start_ns > to)
        break;
      if (end < start || (end == start && api->dur_ns > 0))
        continue;
      busy += end - start;
      calls++;
    }
  return 100.0 * (double)busy / (double)gap->dur_ns < max_percent &&
         (double)calls / ((double)gap->dur_ns / 1e6) < max_per_ms;
}

void
sl_advisor_rule_conjectured_gc (SlAdvisorContext *ctx)
{
  double min_ms = sl_advisor_threshold (ctx, "min_free_ms");
  double max_percent = sl_advisor_threshold (ctx, "max_api_percent");
  double max_per_ms = sl_advisor_threshold (ctx, "max_api_calls_per_ms");
  g_autoptr(GArray) apis = NULL;
  g_autoptr(GArray) gaps = NULL;
  g_autoptr(GArray) quiet = g_array_new (FALSE, FALSE, sizeof (Event));
  g_autoptr(GHashTable) values = NULL;
  gint64 longest_api;

  if (require_trace (ctx) == NULL)
    return;
  if (any_slice (ctx, NAME_GC, 0))
    {
      trace_not_run (ctx, _("The timeline has measured GC events; the GC rule reads them instead"));
      return;
    }
  apis = collect (ctx, NAME_API, 0);
  if (apis->len == 0)
    {
      g_array_unref (apis);
      apis = collect (ctx, 0, TRACK_API);
    }
  if (apis->len == 0)
    {
      trace_not_run (ctx, _("The timeline has no CANN API (AscendCL) events, so a quiet host cannot be told from a busy one"));
      return;
    }
  if (!any_slice (ctx, 0, TRACK_DEVICE | TRACK_FREE))
    {
      trace_not_run (ctx, _("The timeline has no device activity to find idle gaps in"));
      return;
    }

  g_array_sort (apis, compare_start);
  longest_api = longest_duration (apis);
  gaps = device_gaps (ctx, (gint64)(min_ms * 1e6));
  for (guint i = 0; i < gaps->len; i++)
    if (host_quiet_in (apis, longest_api, &g_array_index (gaps, Event, i), max_percent, max_per_ms))
      g_array_append_val (quiet, g_array_index (gaps, Event, i));
  if (quiet->len == 0)
    return;

  g_array_sort (quiet, compare_longest);
  values = sl_advisor_values_new ();
  set_count (values, quiet->len);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ms));
  sl_advisor_values_set (values, "api_percent", sl_advisor_format_percent (max_percent));
  sl_advisor_values_set (values, "api_rate", g_strdup_printf ("%g", max_per_ms));
  /* The gaps are no events: label them by what follows. */
  {
    SlAdvisorFinding *finding = sl_advisor_finding_begin (ctx);
    const Event *worst = &g_array_index (quiet, Event, 0);
    gint64 total = sum_durations (quiet);

    sl_advisor_values_set (values, "longest", sl_advisor_format_time (worst->dur_ns));
    for (guint i = 0; i < quiet->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
      {
        const Event *gap = &g_array_index (quiet, Event, i);
        /* Translators: an idle gap on the timeline, named by the event that ends it */
        g_autofree char *label = g_strdup_printf (_("idle before %s"), event_name (ctx, gap));

        add_event_evidence (ctx, finding, gap, label);
      }
    add_damage_evidence (ctx, finding);
    jump_to_event (finding, worst);
    sl_advisor_finding_end (ctx, finding, total, total, values);
    g_object_unref (finding);
  }
}

/* ------------------------------------------------------------------ */
/* SyncBatchNorm */

static gboolean
have_framework_events (SlAdvisorContext *ctx)
{
  if (any_slice (ctx, NAME_FRAMEWORK, TRACK_HOST))
    return TRUE;
  trace_not_run (ctx, _("The timeline has no framework (Python) op events"));
  return FALSE;
}

void
sl_advisor_rule_syncbatchnorm (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GHashTable) values = NULL;
  double min_count = sl_advisor_threshold (ctx, "min_count");

  if (require_trace (ctx) == NULL || !have_framework_events (ctx))
    return;
  events = collect (ctx, NAME_SYNCBN, 0);
  if (events->len == 0 || (double)events->len < min_count)
    return;

  g_array_sort (events, compare_longest);
  values = sl_advisor_values_new ();
  set_count (values, events->len);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_count));
  event_finding (ctx, events, sum_durations (events), -1, values);
}

/* ------------------------------------------------------------------ */
/* Stream synchronisation right after launches */

void
sl_advisor_rule_synchronize_stream (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) syncs = g_array_new (FALSE, FALSE, sizeof (Event));
  g_autoptr(GHashTable) values = NULL;
  double min_ratio = sl_advisor_threshold (ctx, "min_co_occurrence");
  guint launches = 0, after_launch = 0;
  double ratio;

  if (require_trace (ctx) == NULL)
    return;
  events = collect (ctx, NAME_SYNC | NAME_LAUNCH, 0);
  g_array_sort (events, compare_start);
  /* Launches and synchronisations in time order, over all host threads:
   * a synchronisation that comes right after a launch waits for it. */
  for (guint i = 0; i < events->len; i++)
    {
      const Event *event = &g_array_index (events, Event, i);
      const SlTraceSlices *slices = sl_trace_get_slices (ctx->trace->trace, event->track);
      guint16 classes = ctx->trace->name_class[sl_trace_slices_name_id (slices, event->slice)];

      if (classes & NAME_LAUNCH)
        launches++;
      else if (classes & NAME_SYNC)
        {
          g_array_append_val (syncs, *event);
          if (i > 0)
            {
              const Event *before = &g_array_index (events, Event, i - 1);
              const SlTraceSlices *before_slices = sl_trace_get_slices (ctx->trace->trace, before->track);

              after_launch += (ctx->trace->name_class[sl_trace_slices_name_id (before_slices, before->slice)] & NAME_LAUNCH) != 0;
            }
        }
    }
  if (launches == 0)
    {
      trace_not_run (ctx, _("The timeline has no kernel launch (Node@launch) events"));
      return;
    }
  ratio = (double)after_launch / (double)launches;
  if (syncs->len == 0 || ratio <= min_ratio)
    return;

  g_array_sort (syncs, compare_longest);
  values = sl_advisor_values_new ();
  sl_advisor_values_set (values, "co", g_strdup_printf ("%u", after_launch));
  sl_advisor_values_set (values, "launches", g_strdup_printf ("%u", launches));
  sl_advisor_values_set (values, "ratio", g_strdup_printf ("%.2f", ratio));
  sl_advisor_values_set (values, "syncs", g_strdup_printf ("%u", syncs->len));
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ratio));
  event_finding (ctx, syncs, sum_durations (syncs), sum_durations (syncs), values);
}

/* ------------------------------------------------------------------ */
/* Data loader */

/* A call's frames below it carry the same name: count the outermost. */
static gboolean
inside_dataloader (SlAdvisorContext    *ctx,
                   const SlTraceSlices *slices,
                   guint32              i)
{
  for (guint32 p = sl_trace_slices_parent (slices, i); p != SL_TRACE_NO_PARENT; p = sl_trace_slices_parent (slices, p))
    if (slice_classes (ctx->trace, slices, p) & NAME_DATALOADER)
      return TRUE;
  return FALSE;
}

void
sl_advisor_rule_dataloader (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) slow = g_array_new (FALSE, FALSE, sizeof (Event));
  g_autoptr(GHashTable) values = NULL;
  double min_ms = sl_advisor_threshold (ctx, "min_duration_ms");

  if (require_trace (ctx) == NULL)
    return;
  events = collect (ctx, NAME_DATALOADER, 0);
  if (events->len == 0 && !have_framework_events (ctx))
    return;
  for (guint i = 0; i < events->len; i++)
    {
      const Event *event = &g_array_index (events, Event, i);

      if ((double)event->dur_ns >= min_ms * 1e6 &&
          !inside_dataloader (ctx, sl_trace_get_slices (ctx->trace->trace, event->track), event->slice))
        g_array_append_val (slow, *event);
    }
  if (slow->len == 0)
    return;

  g_array_sort (slow, compare_longest);
  values = sl_advisor_values_new ();
  set_count (values, slow->len);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ms));
  event_finding (ctx, slow, sum_durations (slow), sum_durations (slow), values);
}

/* ------------------------------------------------------------------ */
/* Memory calls, when there are no API statistics */

void
sl_advisor_memory_ops_from_trace (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GHashTable) values = NULL;
  double min_ms = sl_advisor_threshold (ctx, "min_total_ms");
  double fraction = fraction_or (ctx, 0.9);
  gint64 total;

  if (ctx->trace == NULL || ctx->trace->trace == NULL)
    {
      trace_not_run (ctx, _("The profile has no API statistics and no timeline with CANN API events"));
      return;
    }
  if (!any_slice (ctx, NAME_API, TRACK_API))
    {
      trace_not_run (ctx, _("The profile has no API statistics and its timeline no CANN API (AscendCL) events"));
      return;
    }
  events = collect (ctx, NAME_MEMORY, 0);
  total = sum_durations (events);
  if (events->len == 0 || (double)total < min_ms * 1e6)
    return;

  g_array_sort (events, compare_longest);
  values = sl_advisor_values_new ();
  set_count (values, events->len);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ms));
  sl_advisor_values_set (values, "fraction", g_strdup_printf ("%.0f %%", fraction * 100));
  event_finding (ctx, events, total, (gint64)(total * fraction), values);
}

/* ------------------------------------------------------------------ */
/* Fusible ops: kernel sequences that repeat on one stream */

#define MAX_PATTERNS 3

/* One stream's kernels in launch order, as dense ids of their op. */
typedef struct {
  guint    track;
  GArray  *ids;        /* guint32 */
  GArray  *slices;     /* guint32, the slice of each kernel */
  GArray  *ends_ns;    /* gint64, prefix sums of the kernels' durations (n + 1) */
} Stream;

/* A window of the sequence seen before, in an open-addressing table
 * keyed by its hash (tables of windows would not fit otherwise). */
typedef struct {
  guint64 hash;
  guint32 first;       /* position of its first run */
  guint32 next_free;   /* where a run may start without overlapping the last */
  guint32 count;       /* runs that do not overlap */
  gint64  total_ns;
} Window;

typedef struct {
  Window *slots;
  gsize   capacity;    /* a power of two */
  gsize   used;
} WindowTable;

typedef struct {
  const Stream *stream;
  guint         length;
  guint32       first;
  guint32       count;
  gint64        total_ns;
} Pattern;

static void
stream_clear (Stream *stream)
{
  g_clear_pointer (&stream->ids, g_array_unref);
  g_clear_pointer (&stream->slices, g_array_unref);
  g_clear_pointer (&stream->ends_ns, g_array_unref);
}

/* The op of a kernel: MindSpore's "Default/.../Add-op12" is "Add";
 * torch_npu's "aclnnMuls_MulAiCore_Mul" is its own op. */
static char *
kernel_key (const char *name)
{
  const char *base = strrchr (name, '/');
  const char *op = base != NULL ? base + 1 : name;
  const char *suffix = g_strrstr (op, "-op");

  if (suffix != NULL && suffix[3] != '\0' && strspn (suffix + 3, "0123456789") == strlen (suffix + 3))
    return g_strndup (op, suffix - op);
  return g_strdup (op);
}

static guint32
key_id (GHashTable *keys,
        GPtrArray  *key_names,
        guint32    *by_name,
        SlTrace    *trace,
        guint32     name_id)
{
  gpointer id;
  char *key;

  if (by_name[name_id] != G_MAXUINT32)
    return by_name[name_id];
  key = kernel_key (sl_trace_get_string (trace, name_id));
  if (!g_hash_table_lookup_extended (keys, key, NULL, &id))
    {
      id = GUINT_TO_POINTER (key_names->len);
      g_ptr_array_add (key_names, key);
      g_hash_table_insert (keys, key, id);
    }
  else
    g_free (key);
  by_name[name_id] = GPOINTER_TO_UINT (id);
  return by_name[name_id];
}

/* The kernels of every device stream; tasks that are no kernel (events,
 * copies, notifies) split nothing and are left out. */
static GArray *
collect_streams (SlAdvisorContext *ctx,
                 GPtrArray        *key_names)
{
  SlAdvisorTraceIndex *index = ctx->trace;
  SlTrace *trace = index->trace;
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint32 *by_name = g_new (guint32, MAX (sl_trace_get_n_strings (trace), 1));
  GArray *streams = g_array_new (FALSE, TRUE, sizeof (Stream));

  g_array_set_clear_func (streams, (GDestroyNotify)stream_clear);
  memset (by_name, 0xff, sizeof (guint32) * MAX (sl_trace_get_n_strings (trace), 1));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);
      Stream stream = { t, NULL, NULL, NULL };
      gint64 end = 0;

      if (slices == NULL || (index->track_class[t] & TRACK_DEVICE) == 0)
        continue;
      stream.ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      stream.slices = g_array_new (FALSE, FALSE, sizeof (guint32));
      stream.ends_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_val (stream.ends_ns, end);
      for (guint32 i = 0; i < slices->n_slices; i++)
        {
          guint32 id;

          if (sl_trace_slices_depth (slices, i) != 0 || (index->name_class[sl_trace_slices_name_id (slices, i)] & NAME_NOT_KERNEL) != 0 ||
              sl_trace_slices_name_id (slices, i) == 0)
            continue;
          id = key_id (keys, key_names, by_name, trace, sl_trace_slices_name_id (slices, i));
          end += MAX (sl_trace_slices_dur_ns (slices, i), 0);
          g_array_append_val (stream.ids, id);
          g_array_append_val (stream.slices, i);
          g_array_append_val (stream.ends_ns, end);
        }
      g_array_append_val (streams, stream);
    }
  return streams;
}

static guint64
hash_window (const guint32 *ids,
             guint          length)
{
  guint64 h = 0x9e3779b97f4a7c15ull ^ length;

  for (guint i = 0; i < length; i++)
    {
      h ^= ids[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xbf58476d1ce4e5b9ull;
      h ^= h >> 31;
    }
  return h | 1;   /* 0 marks an empty slot */
}

static Window *
table_find (WindowTable *table,
            guint64      hash)
{
  gsize mask = table->capacity - 1;

  for (gsize i = hash & mask;; i = (i + 1) & mask)
    if (table->slots[i].hash == hash || table->slots[i].hash == 0)
      return &table->slots[i];
}

static void
table_reset (WindowTable *table,
             gsize        expected)
{
  gsize capacity = 1024;

  while (capacity < expected * 2)
    capacity *= 2;
  if (capacity != table->capacity)
    {
      g_free (table->slots);
      table->slots = g_new (Window, capacity);
      table->capacity = capacity;
    }
  memset (table->slots, 0, sizeof (Window) * capacity);
  table->used = 0;
}

static void
count_windows (WindowTable  *table,
               const Stream *stream,
               guint         length)
{
  const guint32 *ids = (const guint32 *)(gpointer)stream->ids->data;
  const gint64 *ends = (const gint64 *)(gpointer)stream->ends_ns->data;

  table_reset (table, stream->ids->len);
  for (guint32 i = 0; i + length <= stream->ids->len; i++)
    {
      guint64 hash = hash_window (ids + i, length);
      Window *window = table_find (table, hash);

      if (window->hash == 0)
        {
          window->hash = hash;
          window->first = i;
          table->used++;
        }
      /* Runs that overlap ("A B A" in "A B A B A") count once. */
      if (i < window->next_free)
        continue;
      window->count++;
      window->next_free = i + length;
      window->total_ns += ends[i + length] - ends[i];
    }
}

static gboolean
same_ids (const Stream *a,
          guint32       a_at,
          const Stream *b,
          guint32       b_at,
          guint         length)
{
  return memcmp (&g_array_index (a->ids, guint32, a_at), &g_array_index (b->ids, guint32, b_at),
                 length * sizeof (guint32)) == 0;
}

/* Whether @small appears in @big repeated twice: a part of it, a
 * rotation of it ("B A" of "A B"), or the same. */
static gboolean
within_repeated (const Pattern *small,
                 const Pattern *big)
{
  guint n = big->length;

  if (small->length > 2 * n)
    return FALSE;
  for (guint shift = 0; shift < n; shift++)
    {
      gboolean match = TRUE;

      for (guint k = 0; k < small->length && match; k++)
        match = g_array_index (small->stream->ids, guint32, small->first + k) ==
                g_array_index (big->stream->ids, guint32, big->first + (shift + k) % n);
      if (match)
        return TRUE;
    }
  return FALSE;
}

static gboolean
overlaps_chosen (const Pattern *candidate,
                 GArray        *chosen)
{
  for (guint i = 0; i < chosen->len; i++)
    {
      const Pattern *other = &g_array_index (chosen, Pattern, i);

      if (within_repeated (candidate, other) || within_repeated (other, candidate) ||
          (candidate->length == other->length &&
           same_ids (candidate->stream, candidate->first, other->stream, other->first, other->length)))
        return TRUE;
    }
  return FALSE;
}

static int
compare_patterns (gconstpointer a,
                  gconstpointer b)
{
  const Pattern *x = a, *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return (x->length > y->length) - (x->length < y->length);
}

typedef struct {
  const char *fused;
  const char *needs[4];   /* ops the sequence must hold; "a|b" alternatives */
} FusedOp;

/* Sequences an eager model runs kernel by kernel that torch_npu has one
 * operator for. Checked in order: attention holds Muls and Adds too. */
static const FusedOp fused_ops[] = {
  { "torch_npu.npu_fusion_attention", { "BatchMatMul|MatMul", "Softmax", NULL } },
  { "torch_npu.npu_rms_norm", { "Rsqrt", "ReduceMean|Mean", "Mul", NULL } },
  { "torch_npu.npu_rotary_mul", { "Neg", "Concat|Cat", "Mul", NULL } },
  { "torch_npu.npu_swiglu", { "Swish|Silu|SiLU", "Mul", NULL } },
};

/* "aclnnMuls_MulAiCore_Mul" is a Mul; "Add" is an Add. */
static gboolean
key_is_op (const char *key,
           const char *op)
{
  const char *tail = strrchr (key, '_');

  return g_ascii_strncasecmp (tail != NULL ? tail + 1 : key, op, strlen (op)) == 0;
}

static gboolean
pattern_has_op (const Pattern *pattern,
                GPtrArray     *key_names,
                const char    *alternatives)
{
  g_auto(GStrv) ops = g_strsplit (alternatives, "|", -1);

  for (guint k = 0; k < pattern->length; k++)
    {
      const char *key = g_ptr_array_index (key_names, g_array_index (pattern->stream->ids, guint32, pattern->first + k));

      for (guint o = 0; ops[o] != NULL; o++)
        if (key_is_op (key, ops[o]))
          return TRUE;
    }
  return FALSE;
}

static const char *
match_fused_op (const Pattern *pattern,
                GPtrArray     *key_names)
{
  for (guint f = 0; f < G_N_ELEMENTS (fused_ops); f++)
    {
      gboolean all = TRUE;

      for (guint n = 0; fused_ops[f].needs[n] != NULL && all; n++)
        all = pattern_has_op (pattern, key_names, fused_ops[f].needs[n]);
      if (all)
        return fused_ops[f].fused;
    }
  return NULL;
}

static char *
pattern_text (const Pattern *pattern,
              GPtrArray     *key_names)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint k = 0; k < pattern->length; k++)
    {
      if (k > 0)
        g_string_append (text, " → ");
      g_string_append (text, g_ptr_array_index (key_names, g_array_index (pattern->stream->ids, guint32, pattern->first + k)));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gint64
step_or_span (SlAdvisorContext *ctx)
{
  SlTrace *trace = ctx->trace->trace;

  if (ctx->step_ns > 0)
    return ctx->step_ns;
  return MAX (sl_trace_get_end_ns (trace) - sl_trace_get_start_ns (trace), 1);
}

/* One op run on many tensors ("Add → Add") is no sequence to fuse. */
static gboolean
single_op (const Stream *stream,
           guint32       first,
           guint         length)
{
  for (guint k = 1; k < length; k++)
    if (g_array_index (stream->ids, guint32, first + k) != g_array_index (stream->ids, guint32, first))
      return FALSE;
  return TRUE;
}

static void
find_patterns (SlAdvisorContext *ctx,
               GArray           *streams,
               GArray           *candidates)
{
  guint min_length = (guint)CLAMP (sl_advisor_threshold (ctx, "min_length"), 2, 64);
  guint max_length = (guint)CLAMP (sl_advisor_threshold (ctx, "max_length"), min_length, 64);
  double min_repeats = sl_advisor_threshold (ctx, "min_repeats");
  double min_percent = sl_advisor_threshold (ctx, "min_step_percent");
  double step = (double)step_or_span (ctx) * ctx->n_steps;
  WindowTable table = { NULL, 0, 0 };

  for (guint s = 0; s < streams->len; s++)
    {
      const Stream *stream = &g_array_index (streams, Stream, s);

      for (guint length = min_length; length <= max_length && stream->ids->len >= 2 * length; length++)
        {
          if (g_cancellable_is_cancelled (ctx->cancellable))
            break;
          count_windows (&table, stream, length);
          for (gsize i = 0; i < table.capacity; i++)
            {
              const Window *window = &table.slots[i];
              Pattern pattern = { stream, length, window->first, window->count, window->total_ns };

              if (window->hash != 0 && (double)window->count > min_repeats &&
                  100.0 * (double)window->total_ns / step > min_percent && !single_op (stream, window->first, length))
                g_array_append_val (candidates, pattern);
            }
        }
    }
  g_free (table.slots);
}

static void
add_pattern_evidence (SlAdvisorContext *ctx,
                      SlAdvisorFinding *finding,
                      const Pattern    *pattern,
                      const char       *text)
{
  const SlTraceSlices *slices = sl_trace_get_slices (ctx->trace->trace, pattern->stream->track);
  guint32 slice = g_array_index (pattern->stream->slices, guint32, pattern->first);
  Event first = { pattern->stream->track, slice, sl_trace_slices_start_ns (slices, slice), MAX (sl_trace_slices_dur_ns (slices, slice), 0) };
  g_autofree char *total = sl_advisor_format_time (pattern->total_ns);
  g_autofree char *runs = sl_count_format (pattern->count);
  /* Translators: how often a kernel sequence ran and its time in all */
  g_autofree char *label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %s run, %s", "%s: %s runs, %s",
                                                         pattern->count),
                                            text, runs, total);

  add_event_evidence (ctx, finding, &first, label);
}

static void
pattern_finding (SlAdvisorContext *ctx,
                 const Pattern    *pattern,
                 GPtrArray        *key_names)
{
  g_autoptr(GHashTable) values = sl_advisor_values_new ();
  g_autofree char *text = pattern_text (pattern, key_names);
  const char *fused = match_fused_op (pattern, key_names);
  double fraction = fraction_or (ctx, 0.5);
  const SlTraceSlices *slices = sl_trace_get_slices (ctx->trace->trace, pattern->stream->track);
  guint32 first = g_array_index (pattern->stream->slices, guint32, pattern->first);
  guint32 last = g_array_index (pattern->stream->slices, guint32, pattern->first + pattern->length - 1);
  SlAdvisorFinding *finding = sl_advisor_finding_begin (ctx);

  sl_advisor_values_set (values, "pattern", g_strdup (text));
  sl_advisor_values_set (values, "count", g_strdup_printf ("%u", pattern->count));
  sl_advisor_values_set (values, "length", g_strdup_printf ("%u", pattern->length));
  sl_advisor_values_set (values, "stream", g_strdup (sl_trace_get_track_name (ctx->trace->trace, pattern->stream->track)));
  sl_advisor_values_set (values, "fraction", g_strdup_printf ("%.0f %%", fraction * 100));
  if (fused != NULL)
    /* Translators: %s is a fused operator of torch_npu */
    sl_advisor_values_set (values, "advice", g_strdup_printf (_("This sequence is what %s computes in one operator: use it instead."), fused));
  else
    sl_advisor_values_set (values, "advice", g_strdup (_("Look for a fused operator that computes this sequence in one kernel (torch_npu.npu_rms_norm, npu_rotary_mul, npu_swiglu, npu_fusion_attention and others), or run the model in graph mode so the compiler fuses it.")));

  add_pattern_evidence (ctx, finding, pattern, text);
  add_damage_evidence (ctx, finding);
  sl_advisor_finding_set_jump (finding, NULL, sl_trace_slices_start_ns (slices, first),
                               MAX (sl_trace_slices_start_ns (slices, last) + MAX (sl_trace_slices_dur_ns (slices, last), 0), sl_trace_slices_start_ns (slices, first) + 1), NULL);
  sl_advisor_finding_end (ctx, finding, pattern->total_ns, (gint64)(pattern->total_ns * fraction), values);
  g_object_unref (finding);
}

void
sl_advisor_rule_fusible_ops (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) key_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) streams = NULL;
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Pattern));
  g_autoptr(GArray) chosen = g_array_new (FALSE, FALSE, sizeof (Pattern));
  gboolean any_kernel = FALSE;

  if (require_trace (ctx) == NULL)
    return;
  streams = collect_streams (ctx, key_names);
  for (guint s = 0; s < streams->len; s++)
    any_kernel |= g_array_index (streams, Stream, s).ids->len > 0;
  if (!any_kernel)
    {
      trace_not_run (ctx, _("The timeline has no device kernels"));
      return;
    }

  find_patterns (ctx, streams, candidates);
  g_array_sort (candidates, compare_patterns);
  for (guint i = 0; i < candidates->len && chosen->len < MAX_PATTERNS; i++)
    if (!overlaps_chosen (&g_array_index (candidates, Pattern, i), chosen))
      g_array_append_val (chosen, g_array_index (candidates, Pattern, i));

  for (guint i = 0; i < chosen->len; i++)
    pattern_finding (ctx, &g_array_index (chosen, Pattern, i), key_names);
}
