/* sl-profile-compare.c: breakdown, op tables and op alignment of two profiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-profile-compare.h"
#include "sl-trace.h"

static const char *item_keys[SL_PROFILE_COMPARE_N_ITEMS] = {
  "e2e", "computing", "cube", "vector", "communication_kernels", "other_kernels",
  "uncovered_communication", "free", "data_wait", "fp_bp", "tail",
};

const char *
sl_profile_compare_item_key (SlProfileCompareItemKind kind)
{
  g_return_val_if_fail (kind < SL_PROFILE_COMPARE_N_ITEMS, "");
  return item_keys[kind];
}

const char *
sl_profile_compare_item_label (SlProfileCompareItemKind kind)
{
  switch (kind)
    {
    case SL_PROFILE_COMPARE_E2E: return _("End to end");
    case SL_PROFILE_COMPARE_COMPUTING: return _("Computing");
    case SL_PROFILE_COMPARE_CUBE: return _("Cube kernels");
    case SL_PROFILE_COMPARE_VECTOR: return _("Vector kernels");
    case SL_PROFILE_COMPARE_COMMUNICATION_KERNELS: return _("Communication kernels");
    case SL_PROFILE_COMPARE_OTHER_KERNELS: return _("Other kernels");
    case SL_PROFILE_COMPARE_UNCOVERED_COMMUNICATION: return _("Uncovered communication");
    case SL_PROFILE_COMPARE_FREE: return _("Free");
    case SL_PROFILE_COMPARE_DATA_WAIT: return _("Data wait");
    case SL_PROFILE_COMPARE_FP_BP: return _("Forward and backward");
    case SL_PROFILE_COMPARE_TAIL: return _("Tail");
    case SL_PROFILE_COMPARE_N_ITEMS:
    default: break;
    }
  return "";
}

const char *
sl_profile_compare_source_to_string (SlProfileCompareSource source)
{
  switch (source)
    {
    case SL_PROFILE_COMPARE_FROM_STEPS: return "steps";
    case SL_PROFILE_COMPARE_FROM_OPS_PER_STEP: return "ops_per_step";
    case SL_PROFILE_COMPARE_FROM_OPS_TOTAL: return "ops_total";
    case SL_PROFILE_COMPARE_FROM_NONE:
    default: break;
    }
  return "none";
}

static double
ratio_of (gint64 base,
          gint64 comparison)
{
  if (base < 0 || comparison < 0)
    return NAN;
  if (base == 0)
    return comparison == 0 ? 1.0 : NAN;
  return (double)comparison / (double)base;
}

/* ------------------------------------------------------------------ */
/* Classifying kernels */

static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  g_autofree char *lower = g_ascii_strdown (haystack != NULL ? haystack : "", -1);

  return strstr (lower, needle) != NULL;
}

static gboolean
runs_on_compute_core (const char *core)
{
  static const char *cores[] = { "ai_core", "aicore", "ai_vector", "aiv", "vector", "cube", "ai_cpu", "aicpu", "mix_aic" };

  for (guint i = 0; i < G_N_ELEMENTS (cores); i++)
    if (contains_ci (core, cores[i]))
      return TRUE;
  return g_strcmp0 (core, "AIC") == 0;
}

static gboolean
is_communication (const char *type,
                  const char *core)
{
  static const char *words[] = { "hcom", "hccl", "allreduce", "allgather", "reducescatter", "alltoall",
                                 "broadcast", "send", "receive", "recv" };

  if (contains_ci (core, "hccl") || contains_ci (core, "communication"))
    return TRUE;
  /* A kernel on a compute core is computing whatever its name says:
   * BroadcastTo is a vector op, not a collective. */
  if (runs_on_compute_core (core) || contains_ci (type, "broadcastto"))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (contains_ci (type, words[i]))
      return TRUE;
  return FALSE;
}

/* Ops a side's type table leaves out although its executions have them:
 * op_statistic.csv lists no communication op, kernel_details.csv does.
 * Calls @func for each such execution row (an instance). */
static void
foreach_untyped_instance (SlOpTable *table,
                          void     (*func) (SlOpRow *instance, gpointer data),
                          gpointer   data)
{
  g_autoptr(GHashTable) typed = g_hash_table_new (g_str_hash, g_str_equal);
  GListModel *types = sl_op_table_get_types (table);
  GListModel *instances = sl_op_table_get_instances (table);

  for (guint i = 0; i < g_list_model_get_n_items (types); i++)
    {
      g_autoptr(SlOpRow) type = g_list_model_get_item (types, i);

      g_hash_table_add (typed, (gpointer)sl_op_row_get_name (type));
    }
  for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
    {
      g_autoptr(SlOpRow) instance = g_list_model_get_item (instances, i);
      const char *type = sl_op_row_get_op_type (instance);

      if (type != NULL && type[0] != '\0' && !g_hash_table_contains (typed, type))
        func (instance, data);
    }
}

/* Core types differ by chip and source (AI_CORE on a 910A does both cube
 * and vector work; level-0 exports only say KERNEL_AICORE), so cube
 * kernels are recognised by their op type first, as msprof-analyze does. */
static SlProfileCompareItemKind
classify (const char *type,
          const char *core)
{
  static const char *cube_types[] = { "matmul", "conv", "gemm", "flashattention", "fusedinferattention",
                                      "grouped_matmul", "cube" };

  if (is_communication (type, core))
    return SL_PROFILE_COMPARE_COMMUNICATION_KERNELS;
  for (guint i = 0; i < G_N_ELEMENTS (cube_types); i++)
    if (contains_ci (type, cube_types[i]))
      return SL_PROFILE_COMPARE_CUBE;
  if (contains_ci (core, "cube") || g_strcmp0 (core, "MIX_AIC") == 0 || g_strcmp0 (core, "AIC") == 0)
    return SL_PROFILE_COMPARE_CUBE;
  if (contains_ci (core, "vector") || contains_ci (core, "aiv") || contains_ci (core, "ai_core") ||
      contains_ci (core, "aicore"))
    return SL_PROFILE_COMPARE_VECTOR;
  return SL_PROFILE_COMPARE_OTHER_KERNELS;
}

/* ------------------------------------------------------------------ */
/* Steps */

static gint64
known (gint64 value)
{
  return value == SL_STEP_NO_TIME || value < 0 ? -1 : value;
}

/* The per-step values of every item that a step table gives. */
static void
step_values (SlStepTrace *steps,
             guint        index,
             gint64      *values)
{
  const SlStep *step = sl_step_trace_get_step (steps, index);
  /* torch_npu's overlap analysis: its own phases, never the data wait,
   * forward+backward and tail a trace with phase points has. */
  int computing = sl_step_trace_find_phase (steps, "computing");
  int uncovered = sl_step_trace_find_phase (steps, "communication_not_overlapped");
  int free_time = sl_step_trace_find_phase (steps, "free");

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    values[i] = -1;
  values[SL_PROFILE_COMPARE_E2E] = known (step->total_ns);
  values[SL_PROFILE_COMPARE_DATA_WAIT] = known (step->data_wait_ns);
  values[SL_PROFILE_COMPARE_FP_BP] = known (step->fp_bp_ns);
  values[SL_PROFILE_COMPARE_TAIL] = known (step->tail_ns);
  if (computing >= 0)
    values[SL_PROFILE_COMPARE_COMPUTING] = known (sl_step_trace_get_phase (steps, index, computing));
  if (uncovered >= 0)
    values[SL_PROFILE_COMPARE_UNCOVERED_COMMUNICATION] = known (sl_step_trace_get_phase (steps, index, uncovered));
  if (free_time >= 0)
    values[SL_PROFILE_COMPARE_FREE] = known (sl_step_trace_get_phase (steps, index, free_time));
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/* Median of @values (sorted in place); n > 0. */
static double
median (gint64 *values,
        guint   n)
{
  qsort (values, n, sizeof (gint64), compare_gint64);
  if (n % 2 == 1)
    return values[n / 2];
  return (values[n / 2 - 1] + (double)values[n / 2]) / 2.0;
}

typedef struct {
  GArray *values[2];   /* gint64, known values only */
} ItemSeries;

/* Both sides' deviations from their own median, pooled, and their median. */
static double
pooled_mad (ItemSeries *series)
{
  g_autoptr(GArray) deviations = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint side = 0; side < 2; side++)
    {
      GArray *values = series->values[side];
      g_autofree gint64 *copy = g_memdup2 (values->data, values->len * sizeof (gint64));
      double middle = median (copy, values->len);

      for (guint i = 0; i < values->len; i++)
        {
          /* Deviations are kept in half nanoseconds so an even count's
           * median (a .5) stays exact. */
          gint64 deviation = (gint64)llround (fabs (2.0 * g_array_index (values, gint64, i) - 2.0 * middle));

          g_array_append_val (deviations, deviation);
        }
    }
  return median ((gint64 *)deviations->data, deviations->len) / 2.0;
}

static gint64
mean_of (GArray *values)
{
  double sum = 0;

  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, gint64, i);
  return (gint64)llround (sum / values->len);
}

/* ------------------------------------------------------------------ */
/* Tables */

static void
row_free (gpointer data)
{
  SlProfileCompareRow *row = data;

  g_free (row->type);
  g_free (row->input_shapes);
  g_free (row->core_type);
  g_free (row);
}

static gint64
unknown_if_negative (gint64 value)
{
  return value < 0 ? -1 : value;
}

static void
add_to_row (SlProfileCompareRow *row,
            guint                side,
            SlOpRow             *op)
{
  gint64 total = MAX (sl_op_row_get_total_ns (op), 0);
  gint64 min = unknown_if_negative (sl_op_row_get_min_ns (op));
  gint64 max = unknown_if_negative (sl_op_row_get_max_ns (op));

  row->present[side] = TRUE;
  row->count[side] += sl_op_row_get_count (op);
  row->total_ns[side] += total;
  if (min >= 0 && (row->min_ns[side] < 0 || min < row->min_ns[side]))
    row->min_ns[side] = min;
  if (max >= 0 && max > row->max_ns[side])
    row->max_ns[side] = max;
  if (row->core_type[0] == '\0' && sl_op_row_get_core_type (op) != NULL)
    {
      g_free (row->core_type);
      row->core_type = g_strdup (sl_op_row_get_core_type (op));
    }
}

static SlProfileCompareRow *
lookup_row (GHashTable *rows,
            GPtrArray  *order,
            const char *type,
            const char *shapes)
{
  g_autofree char *key = g_strconcat (type, "\x1f", shapes != NULL ? shapes : "", NULL);
  SlProfileCompareRow *row = g_hash_table_lookup (rows, key);

  if (row != NULL)
    return row;
  row = g_new0 (SlProfileCompareRow, 1);
  row->type = g_strdup (type);
  row->input_shapes = shapes != NULL ? g_strdup (shapes) : NULL;
  row->core_type = g_strdup ("");
  for (guint side = 0; side < 2; side++)
    {
      row->avg_ns[side] = -1;
      row->min_ns[side] = -1;
      row->max_ns[side] = -1;
    }
  g_hash_table_insert (rows, g_steal_pointer (&key), row);
  g_ptr_array_add (order, row);
  return row;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const SlProfileCompareRow *x = *(SlProfileCompareRow * const *)a;
  const SlProfileCompareRow *y = *(SlProfileCompareRow * const *)b;
  int order;

  if (x->diff_ns != y->diff_ns)
    return x->diff_ns > y->diff_ns ? -1 : 1;
  if ((order = g_strcmp0 (x->type, y->type)) != 0)
    return order;
  return g_strcmp0 (x->input_shapes, y->input_shapes);
}

typedef struct {
  GHashTable *rows;
  GPtrArray  *order;
  guint       side;
} UntypedRows;

static void
add_untyped_row (SlOpRow  *instance,
                 gpointer  data)
{
  UntypedRows *untyped = data;

  add_to_row (lookup_row (untyped->rows, untyped->order, sl_op_row_get_op_type (instance), NULL), untyped->side,
              instance);
}

static GPtrArray *
build_table (SlOpTable *tables[2],
             gboolean   kernels)
{
  g_autoptr(GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *order = g_ptr_array_new_with_free_func (row_free);

  for (guint side = 0; side < 2; side++)
    {
      GListModel *model;

      if (tables[side] == NULL)
        continue;
      model = kernels ? sl_op_table_get_instances (tables[side]) : sl_op_table_get_types (tables[side]);
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(SlOpRow) op = g_list_model_get_item (model, i);
          const char *type = kernels ? sl_op_row_get_op_type (op) : sl_op_row_get_name (op);
          const char *shapes = kernels ? sl_op_row_get_input_shapes (op) : NULL;

          if (type == NULL || type[0] == '\0')
            type = kernels ? sl_op_row_get_name (op) : "";
          add_to_row (lookup_row (rows, order, type != NULL ? type : "", kernels ? (shapes != NULL ? shapes : "") : NULL),
                      side, op);
        }
      if (!kernels)
        {
          UntypedRows untyped = { rows, order, side };

          foreach_untyped_instance (tables[side], add_untyped_row, &untyped);
        }
    }

  for (guint i = 0; i < order->len; i++)
    {
      SlProfileCompareRow *row = g_ptr_array_index (order, i);

      for (guint side = 0; side < 2; side++)
        if (row->count[side] > 0)
          row->avg_ns[side] = row->total_ns[side] / (gint64)row->count[side];
      row->diff_ns = row->total_ns[1] - row->total_ns[0];
      row->ratio = ratio_of (row->total_ns[0], row->total_ns[1]);
    }
  g_ptr_array_sort (order, compare_rows);
  return order;
}

/* ------------------------------------------------------------------ */
/* Op keys and alignment */

char *
sl_profile_compare_op_key (const char *name,
                           const char *op_type,
                           const char *input_shapes)
{
  const char *last = name != NULL ? strrchr (name, '/') : NULL;
  g_autofree char *base = g_strdup (last != NULL ? last + 1 : (name != NULL ? name : ""));
  char *op = strstr (base, "-op");
  gsize len;

  /* MindSpore's "Default/network/.../MatMul-op123": the op index. */
  if (op != NULL && op[3] != '\0' && strspn (op + 3, "0123456789") == strlen (op + 3))
    *op = '\0';
  /* Layer and instance numbers: "Add_12", "MatMul7". */
  len = strlen (base);
  while (len > 0 && g_ascii_isdigit (base[len - 1]))
    len--;
  while (len > 0 && (base[len - 1] == '_' || base[len - 1] == '.'))
    len--;
  if (len == 0)
    len = strlen (base);
  base[len] = '\0';
  return g_strdup_printf ("%s|%s|%s", base, op_type != NULL ? op_type : "", input_shapes != NULL ? input_shapes : "");
}

typedef struct {
  char   *tid;
  GArray *keys;   /* guint32 */
} Stream;

static void
stream_free (gpointer data)
{
  Stream *stream = data;

  g_free (stream->tid);
  g_array_unref (stream->keys);
  g_free (stream);
}

static guint32
intern_key (GHashTable *keys,
            char       *key)
{
  gpointer value;

  if (g_hash_table_lookup_extended (keys, key, NULL, &value))
    {
      g_free (key);
      return GPOINTER_TO_UINT (value);
    }
  value = GUINT_TO_POINTER (g_hash_table_size (keys) + 1);
  g_hash_table_insert (keys, key, value);
  return GPOINTER_TO_UINT (value);
}

/* The device streams of a rank's timeline in launch order, within
 * [from, to) when from < to. */
static GPtrArray *
collect_streams (const SlProfileRank *rank,
                 GHashTable          *keys,
                 gint64               from,
                 gint64               to)
{
  SlTrace *trace = SL_TRACE (rank->trace);
  GPtrArray *streams = g_ptr_array_new_with_free_func (stream_free);

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const char *process;
      const SlTraceSlices *slices;
      Stream *stream;

      if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_THREAD)
        continue;
      process = sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, t));
      if (process == NULL || !g_str_has_prefix (process, "Ascend Hardware"))
        continue;
      slices = sl_trace_get_slices (trace, t);
      stream = g_new0 (Stream, 1);
      stream->tid = g_strdup_printf ("%s/%s", sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, t)),
                                     sl_trace_get_track_tid (trace, t));
      stream->keys = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint i = 0; i < slices->n_slices; i++)
        {
          const char *name = sl_trace_get_string (trace, sl_trace_slices_name_id (slices, i));
          const char *type = sl_trace_get_string (trace, sl_trace_slices_category_id (slices, i));
          const char *shapes = "";
          SlOpRow *op;
          guint32 key;

          if (sl_trace_slices_depth (slices, i) != 0)
            continue;
          if (from < to && (sl_trace_slices_start_ns (slices, i) < from || sl_trace_slices_start_ns (slices, i) >= to))
            continue;
          if ((op = sl_op_table_lookup_instance (rank->ops, name)) != NULL)
            {
              type = sl_op_row_get_op_type (op);
              shapes = sl_op_row_get_input_shapes (op);
            }
          key = intern_key (keys, sl_profile_compare_op_key (name, type, shapes));
          g_array_append_val (stream->keys, key);
        }
      /* A stream idle in the step is not one to align. */
      if (stream->keys->len == 0)
        stream_free (stream);
      else
        g_ptr_array_add (streams, stream);
    }
  return streams;
}

static const char *
layout_files (SlProfileLayout layout)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_MINDSPORE:
      return _("a MindSpore profiler folder (its op tables are totals)");
    case SL_PROFILE_LAYOUT_MSPROF:
      return _("a PROF_ folder (op_statistic and op_summary are read as tables)");
    case SL_PROFILE_LAYOUT_ASCEND_PT:
      return _("an ASCEND_PROFILER_OUTPUT folder (kernel_details is read as a table)");
    case SL_PROFILE_LAYOUT_CLUSTER:
      return _("cluster analysis output (no ops at all)");
    case SL_PROFILE_LAYOUT_DATABASE:
    default:
      break;
    }
  return _("a profile without a timeline");
}

/* The first step's range of a rank, when its step table has absolute
 * points within the timeline. */
static gboolean
first_step_range (const SlProfileRank *rank,
                  gint64              *from,
                  gint64              *to,
                  gint64              *number)
{
  SlTrace *trace = SL_TRACE (rank->trace);
  const SlStep *step;

  if (rank->steps == NULL || sl_step_trace_get_n_steps (rank->steps) == 0)
    return FALSE;
  step = sl_step_trace_get_step (rank->steps, 0);
  if (step->start_ns == SL_STEP_NO_TIME || step->end_ns == SL_STEP_NO_TIME || step->end_ns <= step->start_ns)
    return FALSE;
  if (step->end_ns < sl_trace_get_start_ns (trace) || step->start_ns > sl_trace_get_end_ns (trace))
    return FALSE;
  *from = step->start_ns;
  *to = step->end_ns;
  *number = step->step;
  return TRUE;
}

static gboolean
align (SlProfileCompare              *self,
       const SlProfileRank           *ranks[2],
       const SlProfileCompareOptions *options,
       GCancellable                  *cancellable,
       GError                       **error)
{
  SlProfileCompareAlignment *result = &self->alignment;
  g_autoptr(GHashTable) keys = NULL;
  g_autoptr(GPtrArray) base_streams = NULL;
  g_autoptr(GPtrArray) comparison_streams = NULL;
  GPtrArray *streams[2];
  gint64 from[2] = { 0, 0 }, to[2] = { 0, 0 }, number[2] = { 0, 0 };
  gboolean by_step;

  if (ranks[0]->trace == NULL || ranks[1]->trace == NULL)
    {
      const SlProfileRank *without = ranks[0]->trace == NULL ? ranks[0] : ranks[1];

      /* Translators: %s says which kind of folder lacks the data, e.g. "a MindSpore profiler folder (...)" */
      result->reason = g_strdup_printf (_("Op-level alignment needs every execution in launch order, which the "
                                          "SQLite exports (msprof_*.db, ascend_pytorch_profiler_*.db) keep; %s "
                                          "has only aggregated op tables."),
                                        layout_files (without->layout));
      return TRUE;
    }

  keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  by_step = first_step_range (ranks[0], &from[0], &to[0], &number[0]) &&
            first_step_range (ranks[1], &from[1], &to[1], &number[1]);
  base_streams = collect_streams (ranks[0], keys, by_step ? from[0] : 0, by_step ? to[0] : 0);
  comparison_streams = collect_streams (ranks[1], keys, by_step ? from[1] : 0, by_step ? to[1] : 0);
  streams[0] = base_streams;
  streams[1] = comparison_streams;
  if (by_step)
    /* Translators: the steps whose executions were aligned */
    result->scope = g_strdup_printf (_("step %lld against step %lld"), (long long)number[0], (long long)number[1]);
  else
    result->scope = g_strdup (_("the whole timelines (no step table with times inside them)"));

  result->method = SL_SEQUENCE_ALIGN_EXACT;
  for (guint b = 0; b < streams[0]->len; b++)
    {
      Stream *base = g_ptr_array_index (streams[0], b);
      Stream *other = NULL;
      SlSequenceAlignInput input = { 0 };
      g_autoptr(SlSequenceAlign) aligned = NULL;

      for (guint c = 0; c < streams[1]->len && other == NULL; c++)
        if (g_str_equal (((Stream *)g_ptr_array_index (streams[1], c))->tid, base->tid))
          other = g_ptr_array_index (streams[1], c);
      if (other == NULL)
        {
          result->only_base += base->keys->len;
          continue;
        }
      input.base = (const guint32 *)base->keys->data;
      input.n_base = base->keys->len;
      input.comparison = (const guint32 *)other->keys->data;
      input.n_comparison = other->keys->len;
      input.max_work = options->max_align_work;
      if ((aligned = sl_sequence_align_compute (&input, cancellable, NULL, NULL, error)) == NULL)
        return FALSE;
      result->matched += aligned->matched;
      result->only_base += aligned->only_base;
      result->only_comparison += aligned->only_comparison;
      result->method = MAX (result->method, aligned->method);
      result->n_streams++;
      g_array_set_size (other->keys, 0);
      g_free (other->tid);
      other->tid = g_strdup ("");
    }
  for (guint c = 0; c < streams[1]->len; c++)
    result->only_comparison += ((Stream *)g_ptr_array_index (streams[1], c))->keys->len;
  result->computed = TRUE;
  return TRUE;
}

/* ------------------------------------------------------------------ */

static void
note (SlProfileCompare *self,
      char             *text)
{
  g_ptr_array_add (self->notes, text);
}

static void
set_reason (SlProfileCompareItem *item,
            const char           *reason)
{
  g_free (item->reason);
  item->reason = g_strdup (reason);
  item->source = SL_PROFILE_COMPARE_FROM_NONE;
  item->base_ns = item->comparison_ns = item->diff_ns = -1;
  item->ratio = NAN;
}

/* The side (0 or 1) that has no data wait only because its one step is
 * MindSpore's first, whose wait the step trace does not measure; -1 when
 * neither. */
static int
first_step_only (const SlProfileRank *ranks[2],
                 GArray              *values[2])
{
  for (int side = 0; side < 2; side++)
    if (values[side]->len == 0 && ranks[side]->steps != NULL &&
        sl_step_trace_get_source (ranks[side]->steps) == SL_STEP_SOURCE_MINDSPORE &&
        sl_step_trace_get_n_steps (ranks[side]->steps) == 1)
      return side;
  return -1;
}

static void
add_untyped_kernel (SlOpRow  *instance,
                    gpointer  data)
{
  gint64 *kernels = data;

  kernels[classify (sl_op_row_get_op_type (instance), sl_op_row_get_core_type (instance))] +=
    MAX (sl_op_row_get_total_ns (instance), 0);
}

static void
breakdown (SlProfileCompare    *self,
           const SlProfileRank *ranks[2])
{
  guint n_steps[2];
  ItemSeries series[SL_PROFILE_COMPARE_N_ITEMS];
  gint64 kernels[2][SL_PROFILE_COMPARE_N_ITEMS] = { { 0 } };
  gboolean have_ops[2];
  gboolean per_step;

  for (guint side = 0; side < 2; side++)
    {
      n_steps[side] = ranks[side]->steps != NULL ? sl_step_trace_get_n_steps (ranks[side]->steps) : 0;
      have_ops[side] = ranks[side]->ops != NULL && !sl_op_table_is_empty (ranks[side]->ops);
    }
  self->base_steps = n_steps[0];
  self->comparison_steps = n_steps[1];

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      series[i].values[0] = g_array_new (FALSE, FALSE, sizeof (gint64));
      series[i].values[1] = g_array_new (FALSE, FALSE, sizeof (gint64));
      self->items[i].kind = i;
      self->items[i].mad_ns = -1;
      set_reason (&self->items[i], NULL);
    }

  /* Per step, paired by position; averages over each side's own steps. */
  for (guint side = 0; side < 2; side++)
    for (guint s = 0; s < n_steps[side]; s++)
      {
        gint64 values[SL_PROFILE_COMPARE_N_ITEMS];

        step_values (ranks[side]->steps, s, values);
        for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
          if (values[i] >= 0)
            g_array_append_val (series[i].values[side], values[i]);
      }
  for (guint s = 0; s < MAX (n_steps[0], n_steps[1]); s++)
    {
      SlProfileCompareStep step = { .base_step = -1, .comparison_step = -1 };

      for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
        step.base_ns[i] = step.comparison_ns[i] = -1;
      if (s < n_steps[0])
        {
          step.base_step = sl_step_trace_get_step (ranks[0]->steps, s)->step;
          step_values (ranks[0]->steps, s, step.base_ns);
        }
      if (s < n_steps[1])
        {
          step.comparison_step = sl_step_trace_get_step (ranks[1]->steps, s)->step;
          step_values (ranks[1]->steps, s, step.comparison_ns);
        }
      g_array_append_val (self->steps, step);
    }

  /* Kernel time by class, per step when both sides have steps. */
  per_step = n_steps[0] > 0 && n_steps[1] > 0;
  for (guint side = 0; side < 2; side++)
    {
      GListModel *types;

      if (!have_ops[side])
        continue;
      types = sl_op_table_get_types (ranks[side]->ops);
      for (guint i = 0; i < g_list_model_get_n_items (types); i++)
        {
          g_autoptr(SlOpRow) op = g_list_model_get_item (types, i);
          SlProfileCompareItemKind kind = classify (sl_op_row_get_name (op), sl_op_row_get_core_type (op));

          kernels[side][kind] += MAX (sl_op_row_get_total_ns (op), 0);
        }
      foreach_untyped_instance (ranks[side]->ops, add_untyped_kernel, kernels[side]);
      kernels[side][SL_PROFILE_COMPARE_COMPUTING] = kernels[side][SL_PROFILE_COMPARE_CUBE] +
                                                    kernels[side][SL_PROFILE_COMPARE_VECTOR] +
                                                    kernels[side][SL_PROFILE_COMPARE_OTHER_KERNELS];
    }

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      SlProfileCompareItem *item = &self->items[i];
      gboolean from_steps = series[i].values[0]->len > 0 && series[i].values[1]->len > 0;
      gboolean kernel_item = i >= SL_PROFILE_COMPARE_COMPUTING && i <= SL_PROFILE_COMPARE_OTHER_KERNELS;

      if (from_steps)
        {
          item->source = SL_PROFILE_COMPARE_FROM_STEPS;
          item->base_ns = mean_of (series[i].values[0]);
          item->comparison_ns = mean_of (series[i].values[1]);
          if (series[i].values[0]->len >= SL_PROFILE_COMPARE_MIN_NOISE_STEPS &&
              series[i].values[1]->len >= SL_PROFILE_COMPARE_MIN_NOISE_STEPS)
            {
              double mad = pooled_mad (&series[i]);

              item->noise_checked = TRUE;
              item->mad_ns = (gint64)llround (mad);
              item->noise = item->comparison_ns != item->base_ns &&
                            (double)ABS (item->comparison_ns - item->base_ns) < SL_PROFILE_COMPARE_NOISE_MADS * mad;
            }
        }
      else if (kernel_item && have_ops[0] && have_ops[1])
        {
          item->source = per_step ? SL_PROFILE_COMPARE_FROM_OPS_PER_STEP : SL_PROFILE_COMPARE_FROM_OPS_TOTAL;
          item->base_ns = per_step ? kernels[0][i] / n_steps[0] : kernels[0][i];
          item->comparison_ns = per_step ? kernels[1][i] / n_steps[1] : kernels[1][i];
        }
      else if (kernel_item)
        {
          set_reason (item, _("Kernel times need op tables on both sides, and one side has none."));
          continue;
        }
      else if (n_steps[0] == 0 || n_steps[1] == 0)
        {
          set_reason (item, n_steps[0] == 0 && n_steps[1] == 0 ? _("Neither profile has a step trace.")
                            : n_steps[0] == 0 ? _("The baseline has no step trace.")
                                              : _("The comparison has no step trace."));
          continue;
        }
      else if (i == SL_PROFILE_COMPARE_UNCOVERED_COMMUNICATION || i == SL_PROFILE_COMPARE_FREE)
        {
          set_reason (item, _("Only the Ascend PyTorch and MindSpore profilers' step_trace_time.csv splits a step "
                              "into computing, uncovered communication and free time, and one side or both "
                              "have no such column."));
          continue;
        }
      else if (i == SL_PROFILE_COMPARE_DATA_WAIT && first_step_only (ranks, series[i].values) >= 0)
        {
          set_reason (item, first_step_only (ranks, series[i].values) == 0
                            ? _("MindSpore's step trace does not measure a data wait before the first step, "
                                "and that is the only step of the baseline.")
                            : _("MindSpore's step trace does not measure a data wait before the first step, "
                                "and that is the only step of the comparison."));
          continue;
        }
      else
        {
          set_reason (item, _("The step tables of one side or both do not have this phase."));
          continue;
        }
      if (i == SL_PROFILE_COMPARE_COMMUNICATION_KERNELS && item->source != SL_PROFILE_COMPARE_FROM_STEPS &&
          (kernels[0][i] == 0) != (kernels[1][i] == 0))
        {
          /* A side without any communication op was collected or exported
           * without them: comparing with it shows the export, not a gain. */
          set_reason (item, kernels[1][i] == 0
                              ? _("Not comparable: the baseline's op tables have communication ops (hcom_*, HCCL) "
                                  "and the comparison's have none at all, which says how the comparison was "
                                  "collected or exported, not that its communication got faster.")
                              : _("Not comparable: the comparison's op tables have communication ops (hcom_*, HCCL) "
                                  "and the baseline's have none at all, which says how the baseline was collected "
                                  "or exported, not that its communication got slower."));
          item->not_comparable = TRUE;
          continue;
        }
      item->diff_ns = item->comparison_ns - item->base_ns;
      item->ratio = ratio_of (item->base_ns, item->comparison_ns);
    }

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      g_array_unref (series[i].values[0]);
      g_array_unref (series[i].values[1]);
    }

  if (n_steps[0] < SL_PROFILE_COMPARE_MIN_NOISE_STEPS || n_steps[1] < SL_PROFILE_COMPARE_MIN_NOISE_STEPS)
    /* Translators: %d is the least number of steps */
    note (self, g_strdup_printf (_("Noise is not told from regressions: that needs at least %d steps on each side."),
                                 SL_PROFILE_COMPARE_MIN_NOISE_STEPS));
  if (per_step && have_ops[0] && have_ops[1])
    note (self, g_strdup (_("Kernel times are op table totals divided by the number of steps: the op tables "
                            "are not split by step.")));
  if (!have_ops[0] || !have_ops[1])
    note (self, g_strdup (!have_ops[0] && !have_ops[1] ? _("Neither profile has op tables.")
                          : !have_ops[0] ? _("The baseline has no op tables.")
                                         : _("The comparison has no op tables.")));
  if (self->base_layout != self->comparison_layout)
    /* Translators: the two layouts compared, e.g. "mindspore" and "msprof" */
    note (self, g_strdup_printf (_("The profiles are of different kinds (%s and %s): only what both have is compared."),
                                 sl_profile_layout_to_string (self->base_layout),
                                 sl_profile_layout_to_string (self->comparison_layout)));
}

SlProfileCompare *
sl_profile_compare_compute (SlProfile                     *base,
                            SlProfile                     *comparison,
                            const SlProfileCompareOptions *options,
                            GCancellable                  *cancellable,
                            GError                       **error)
{
  static const SlProfileCompareOptions defaults = { 0 };
  g_autoptr(SlProfileCompare) self = NULL;
  const SlProfileRank *ranks[2];
  SlOpTable *tables[2];

  g_return_val_if_fail (SL_IS_PROFILE (base), NULL);
  g_return_val_if_fail (SL_IS_PROFILE (comparison), NULL);

  if (options == NULL)
    options = &defaults;
  if (options->base_rank >= sl_profile_get_n_ranks (base) ||
      options->comparison_rank >= sl_profile_get_n_ranks (comparison))
    {
      gboolean base_bad = options->base_rank >= sl_profile_get_n_ranks (base);

      /* Translators: a rank index, the number of ranks and the profile's path */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no rank %u (of %u) in %s"),
                   base_bad ? options->base_rank : options->comparison_rank,
                   sl_profile_get_n_ranks (base_bad ? base : comparison),
                   sl_profile_get_path (base_bad ? base : comparison));
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  ranks[0] = sl_profile_get_rank (base, options->base_rank);
  ranks[1] = sl_profile_get_rank (comparison, options->comparison_rank);
  self = g_new0 (SlProfileCompare, 1);
  self->base_rank = options->base_rank;
  self->comparison_rank = options->comparison_rank;
  self->base_label = g_strdup (ranks[0]->label);
  self->comparison_label = g_strdup (ranks[1]->label);
  self->base_layout = ranks[0]->layout;
  self->comparison_layout = ranks[1]->layout;
  self->steps = g_array_new (FALSE, FALSE, sizeof (SlProfileCompareStep));
  self->notes = g_ptr_array_new_with_free_func (g_free);

  breakdown (self, ranks);
  for (guint side = 0; side < 2; side++)
    tables[side] = ranks[side]->ops;
  self->op_types = build_table (tables, FALSE);
  self->kernels = build_table (tables, TRUE);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (!align (self, ranks, options, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
sl_profile_compare_free (SlProfileCompare *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    g_free (self->items[i].reason);
  g_free (self->base_label);
  g_free (self->comparison_label);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->op_types, g_ptr_array_unref);
  g_clear_pointer (&self->kernels, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_free (self->alignment.scope);
  g_free (self->alignment.reason);
  g_free (self);
}
