/* sl-performance-report.c
 *
 * Every figure is a sum or a time-weighted mean over the op instances
 * that measured it: an op that ran longer weighs more, as it does in the
 * step. Ops without the measurement are left out and counted, never
 * taken as zero.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-count-format.h"
#include "sl-op-row.h"
#include "sl-performance-report.h"
#include "sl-profile.h"
#include "sl-time-format.h"

#define WORST_OPS 5
#define GREEN_PERCENT 80.0

#define PIPE_METRICS N_("Collect the pipe utilisation metrics: msprof --aic-metrics=PipeUtilization; torch_npu _ExperimentalConfig(aic_metrics=AiCMetrics.PipeUtilization); MindSpore Profiler(aic_metrics=AicoreMetrics.PipeUtilization).")
#define ARITHMETIC_METRICS N_("Collect the arithmetic metrics: msprof --aic-metrics=ArithmeticUtilization; torch_npu _ExperimentalConfig(aic_metrics=AiCMetrics.ArithmeticUtilization).")
#define MEMORY_METRICS N_("Collect the memory metrics: msprof --aic-metrics=Memory; torch_npu _ExperimentalConfig(aic_metrics=AiCMetrics.Memory).")
#define CORE_TIME N_("Collect the AI Core time: any --aic-metrics set adds the aicore_time and aiv_time columns to op_summary (kernel_details.csv for torch_npu).")

struct _SlPerformanceReport
{
  GObject    parent_instance;
  GPtrArray *sections;
};

G_DEFINE_FINAL_TYPE (SlPerformanceReport, sl_performance_report, G_TYPE_OBJECT)

static void
item_free (gpointer data)
{
  SlPerformanceItem *item = data;

  g_free (item->label);
  g_free (item->unit);
  g_free (item->threshold);
  g_free (item->how);
  g_free (item->missing);
  g_free (item->suspect);
  g_free (item->file);
  g_strfreev (item->worst_ops);
  g_free (item);
}

static void
section_free (gpointer data)
{
  SlPerformanceSection *section = data;

  g_free (section->rank_label);
  g_ptr_array_unref (section->items);
  g_free (section);
}

static void
sl_performance_report_finalize (GObject *object)
{
  SlPerformanceReport *self = (SlPerformanceReport *)object;

  g_clear_pointer (&self->sections, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_performance_report_parent_class)->finalize (object);
}

static void
sl_performance_report_class_init (SlPerformanceReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_performance_report_finalize;
}

static void
sl_performance_report_init (SlPerformanceReport *self)
{
  self->sections = g_ptr_array_new_with_free_func (section_free);
}

SlPerformanceReport *
sl_performance_report_new (void)
{
  return g_object_new (SL_TYPE_PERFORMANCE_REPORT, NULL);
}

/* ------------------------------------------------------------------ */
/* Sums over the ops */

/* One figure's running sums, and the longest ops that fell outside its
 * threshold (to name the worst): kept as a short sorted list, since a
 * rank has hundreds of thousands of ops and only a few are named. */
typedef struct {
  double      sum;
  double      weight;
  guint       n_ops;
  const char *file;
  SlOpRow    *worst[WORST_OPS];   /* borrowed, longest first */
  gint64      worst_ns[WORST_OPS];
  guint       n_worst;
} Tally;

static void
tally_init (Tally *tally)
{
  memset (tally, 0, sizeof *tally);
}

static void
tally_clear (Tally *tally)
{
  tally->n_worst = 0;
}

static void
tally_note_outside (Tally   *tally,
                    SlOpRow *row)
{
  gint64 total = sl_op_row_get_total_ns (row);
  guint at = tally->n_worst;

  while (at > 0 && tally->worst_ns[at - 1] < total)
    at--;
  if (at >= WORST_OPS)
    return;
  memmove (&tally->worst[at + 1], &tally->worst[at], (MIN (tally->n_worst, WORST_OPS - 1) - at) * sizeof (SlOpRow *));
  memmove (&tally->worst_ns[at + 1], &tally->worst_ns[at], (MIN (tally->n_worst, WORST_OPS - 1) - at) * sizeof (gint64));
  tally->worst[at] = row;
  tally->worst_ns[at] = total;
  tally->n_worst = MIN (tally->n_worst + 1, WORST_OPS);
}

static void
tally_add (Tally   *tally,
           SlOpRow *row,
           double   value,
           double   weight,
           gboolean outside)
{
  tally->sum += value * weight;
  tally->weight += weight;
  tally->n_ops++;
  if (tally->file == NULL)
    tally->file = sl_op_row_get_source_path (row);
  if (outside)
    tally_note_outside (tally, row);
}

static double
tally_mean (const Tally *tally)
{
  return tally->weight > 0 ? tally->sum / tally->weight : NAN;
}

static double
op_weight (SlOpRow *row)
{
  gint64 total = sl_op_row_get_total_ns (row);

  /* A zero-length op still measured something. */
  return total > 0 ? (double)total : 1.0;
}

static char **
worst_names (const Tally *tally)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < tally->n_worst; i++)
    g_strv_builder_add (builder, sl_op_row_get_name (tally->worst[i]));
  return g_strv_builder_end (builder);
}

/* ------------------------------------------------------------------ */
/* Items */

static SlPerformanceItem *
item_new (const char *key,
          const char *label,
          const char *unit,
          const char *how)
{
  SlPerformanceItem *item = g_new0 (SlPerformanceItem, 1);

  item->key = key;
  item->label = g_strdup (label);
  item->unit = g_strdup (unit);
  item->how = g_strdup (how);
  item->value = NAN;
  item->status = SL_PERFORMANCE_STATUS_NONE;
  return item;
}

static void
item_take_tally (SlPerformanceItem *item,
                 Tally             *tally,
                 double             value,
                 gboolean           name_worst)
{
  item->n_ops = tally->n_ops;
  item->file = g_strdup (tally->file);
  item->worst_ops = name_worst ? worst_names (tally) : g_new0 (char *, 1);
  if (tally->n_ops > 0)
    item->value = value;
}

static void
item_set_missing (SlPerformanceItem *item,
                  const char        *reason,
                  const char        *hint)
{
  if (isfinite (item->value))
    return;
  item->missing = g_strdup_printf ("%s %s", reason, hint != NULL ? _(hint) : "");
  g_strchomp (item->missing);
}

/* Green at or above @green (a percent), red below. */
static void
item_grade_at_least (SlPerformanceItem *item,
                     double             green)
{
  if (!isfinite (item->value))
    return;
  item->status = item->value >= green ? SL_PERFORMANCE_STATUS_GOOD : SL_PERFORMANCE_STATUS_BAD;
  /* Translators: the threshold of a figure of the performance report */
  item->threshold = g_strdup_printf (_("green at %.0f %% or more, red below"), green);
}

static void
add_throughput (GPtrArray   *items,
                GPtrArray   *instances,
                SlOpCounter  counter,
                const char  *key,
                const char  *label,
                const char  *how)
{
  SlPerformanceItem *item = item_new (key, label, "GOps", how);
  double fops = 0;
  gint64 ns = 0;
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double value = sl_op_row_get_counter (row, counter);
      gint64 core_ns = sl_op_row_get_counter_ns (row, counter);

      if (value <= 0 || core_ns <= 0)
        continue;
      fops += value;
      ns += core_ns;
      tally_add (&tally, row, 0, 1, FALSE);
    }
  /* Operations per nanosecond are billions per second. */
  item_take_tally (item, &tally, ns > 0 ? fops / (double)ns : NAN, TRUE);
  item_set_missing (item, _("No op has floating point operation counts (the *_cube_fops and *_vector_fops columns)."),
                    ARITHMETIC_METRICS);
  tally_clear (&tally);
  g_ptr_array_add (items, item);
}

static void
add_core_time (GPtrArray *items,
               GPtrArray *instances)
{
  SlPerformanceItem *busy, *task, *share;
  gint64 busy_ns = 0, task_ns = 0;
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      gint64 core = sl_op_row_get_core_busy_ns (row);
      gint64 total = sl_op_row_get_total_ns (row);

      if (core < 0 || total <= 0)
        continue;
      busy_ns += core;
      task_ns += total;
      tally_add (&tally, row, 0, 1, (double)core < 0.5 * (double)total);
    }

  busy = item_new ("aicore_time_us", _("AI Core time"), "µs", sl_profile_core_time_definition ());
  task = item_new ("task_duration_us", _("Task duration"), "µs",
                   _("The task durations of the same ops, summed: the time from the task's start to its end on the device."));
  share = item_new ("aicore_task_percent", _("AI Core time of the task"), "%", sl_profile_core_share_definition ());
  item_take_tally (busy, &tally, (double)busy_ns / 1000.0, FALSE);
  item_take_tally (task, &tally, (double)task_ns / 1000.0, FALSE);
  item_take_tally (share, &tally, task_ns > 0 ? 100.0 * (double)busy_ns / (double)task_ns : NAN, TRUE);
  if (isfinite (share->value))
    /* Translators: the threshold of a figure of the performance report */
    share->threshold = g_strdup (_("ops below 50 % are listed"));
  item_set_missing (busy, _("No op has an AI Core time."), CORE_TIME);
  item_set_missing (task, _("No op has an AI Core time to compare its task duration with."), CORE_TIME);
  item_set_missing (share, _("No op has an AI Core time."), CORE_TIME);
  tally_clear (&tally);
  g_ptr_array_add (items, busy);
  g_ptr_array_add (items, task);
  g_ptr_array_add (items, share);
}

static gboolean
is_vector_op (SlOpRow *row)
{
  const char *core = sl_op_row_get_core_type (row);

  return core != NULL && (strstr (core, "VECTOR") != NULL || strstr (core, "AIV") != NULL ||
                          strstr (core, "vector") != NULL);
}

/* Block dims are the AI Core's: an AI CPU op's block dim of 1 says
 * nothing about how it uses the device's cores. */
static gboolean
runs_on_ai_cores (SlOpRow *row)
{
  static const char *const elsewhere[] = { "CPU", "HCCL", "DSA", "COMMUNICATION", "SDMA", NULL };
  g_autofree char *core = g_ascii_strup (sl_op_row_get_core_type (row) != NULL ? sl_op_row_get_core_type (row) : "", -1);

  for (guint i = 0; elsewhere[i] != NULL; i++)
    if (strstr (core, elsewhere[i]) != NULL)
      return FALSE;
  return TRUE;
}

static void
add_block_dim_usage (GPtrArray                *items,
                     GPtrArray                *instances,
                     const SlPerformanceCores *cores)
{
  SlPerformanceItem *item = item_new ("block_dim_usage_percent", _("Average block dim usage"), "%",
                                      _("For each op, block dim ÷ (waves × cores), where waves = block dim ÷ cores rounded up: the share of the cores its waves keep busy. Averaged over the ops, weighted by their time. Ops that use every core of every wave count 100 %."));
  gboolean any_block_dim = FALSE;
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      gint64 block_dim = sl_op_row_get_block_dim (row);
      gint64 n = cores == NULL ? -1 : is_vector_op (row) ? cores->vector_cores : cores->cube_cores;
      double waves, usage;

      if (!runs_on_ai_cores (row))
        continue;
      any_block_dim |= block_dim > 0;
      if (block_dim <= 0 || n <= 0)
        continue;
      waves = ceil ((double)block_dim / (double)n);
      usage = 100.0 * (double)block_dim / (waves * (double)n);
      tally_add (&tally, row, usage, op_weight (row), usage < 100.0 - 1e-9);
    }
  item_take_tally (item, &tally, tally_mean (&tally), TRUE);
  if (!any_block_dim)
    item_set_missing (item, _("The op rows have no “Block Dim” column."),
                      N_("Collect the device's task data: msprof --task-time=on (op_summary_*.csv), or the Ascend PyTorch profiler with ProfilerActivity.NPU (kernel_details.csv)."));
  else
    item_set_missing (item, _("The device info does not say how many cores the device has (ai_core_num, aiv_num)."),
                      N_("Collect the device info (info.json of msprof, NPU_INFO of the database export) or set ai_core_count and vector_core_count for the block-dim rule in the advisor settings file."));
  tally_clear (&tally);
  g_ptr_array_add (items, item);
}

static double
busiest_pipe (SlOpRow *row)
{
  double busiest = -1;

  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    busiest = MAX (busiest, sl_op_row_get_pipe_ratio (row, p));
  return busiest;
}

static void
add_pipeline_utilization (GPtrArray *items,
                          GPtrArray *instances)
{
  SlPerformanceItem *item = item_new ("pipeline_utilization_percent", _("Pipeline utilisation"), "%",
                                      _("For each op, the ratio of its busiest pipe (cube, vector, scalar, MTE1, MTE2 or MTE3): the share of its cycles the bound unit was working. Averaged over the ops, weighted by their time. Low values mean latency-bound ops that keep no unit busy."));
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double busiest = busiest_pipe (row);

      if (busiest < 0)
        continue;
      tally_add (&tally, row, 100.0 * busiest, op_weight (row), 100.0 * busiest < GREEN_PERCENT);
    }
  item_take_tally (item, &tally, tally_mean (&tally), TRUE);
  item_grade_at_least (item, GREEN_PERCENT);
  item_set_missing (item, _("The op rows have no pipe ratio columns (aic_mac_ratio, aiv_vec_ratio, *_mte2_ratio, …)."),
                    PIPE_METRICS);
  tally_clear (&tally);
  g_ptr_array_add (items, item);
}

static void
add_pipe_ratio (GPtrArray  *items,
                GPtrArray  *instances,
                SlOpPipe    pipe,
                const char *key,
                const char *label,
                const char *how)
{
  SlPerformanceItem *item = item_new (key, label, "%", how);
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double ratio = sl_op_row_get_pipe_ratio (row, pipe);

      if (ratio >= 0)
        tally_add (&tally, row, 100.0 * ratio, op_weight (row), FALSE);
    }
  item_take_tally (item, &tally, tally_mean (&tally), TRUE);
  item_set_missing (item, _("The op rows have no such ratio column."), PIPE_METRICS);
  tally_clear (&tally);
  g_ptr_array_add (items, item);
}

static void
add_memory_bound (GPtrArray *items,
                  GPtrArray *instances)
{
  SlPerformanceItem *item = item_new ("memory_bound", _("Memory bound"), "",
                                      _("mte2_ratio ÷ the larger of mac_ratio and vec_ratio, each weighted by the ops' time and summed over the ops that measured them: how much longer the device spends moving data in from memory than computing on it. Below 1 the ops are not memory-bound; the ops listed are memory-bound on their own."));
  double mte2_sum = 0, compute_sum = 0;
  Tally tally;

  tally_init (&tally);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double mte2 = sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_MTE2);
      double compute = MAX (sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_CUBE), sl_op_row_get_pipe_ratio (row, SL_OP_PIPE_VECTOR));

      if (mte2 < 0 || compute < 0)
        continue;
      /* A mean of per-op quotients would let an op that barely computes
       * (mac_ratio 0.001) swamp the rest. */
      mte2_sum += mte2 * op_weight (row);
      compute_sum += compute * op_weight (row);
      tally_add (&tally, row, 0, 1, mte2 >= compute);
    }
  item_take_tally (item, &tally, compute_sum > 0 ? mte2_sum / compute_sum : NAN, TRUE);
  if (isfinite (item->value))
    {
      item->status = item->value < 1.0 ? SL_PERFORMANCE_STATUS_GOOD : SL_PERFORMANCE_STATUS_BAD;
      /* Translators: the threshold of a figure of the performance report */
      item->threshold = g_strdup (_("green below 1, red at 1 or more"));
    }
  item_set_missing (item, _("The op rows need mte2_ratio with mac_ratio or vec_ratio."), PIPE_METRICS);
  tally_clear (&tally);
  g_ptr_array_add (items, item);
}

/* Main memory traffic this many times smaller than the op's own tensors
 * cannot be measured traffic: the L2 cache spares re-reads, not a
 * hundredth of the data. */
#define SUSPECT_TRAFFIC_FACTOR 100.0
#define MAX_SUSPECT_ROWS       5

/* The rows whose bandwidth columns cannot be right, or NULL. */
static char *
dup_suspect_traffic (GPtrArray *instances)
{
  g_autoptr(GString) rows = g_string_new (NULL);
  guint n = 0;
  g_autofree char *count = NULL;

  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double r = MAX (sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_READ), 0);
      double w = MAX (sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_WRITE), 0);
      double op_ideal = sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_IDEAL);

      if (sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_READ) < 0 || op_ideal <= 0 ||
          (r + w) * SUSPECT_TRAFFIC_FACTOR >= op_ideal)
        continue;
      if (n++ < MAX_SUSPECT_ROWS)
        /* Translators: a suspect op row: its file and line, its name, the bytes of its tensors and the
         * traffic measured, in MB */
        g_string_append_printf (rows, _("\n%s:%u (%s): tensors %.3f MB, measured traffic %.3f MB"),
                                sl_op_row_get_source_path (row) != NULL ? sl_op_row_get_source_path (row) : "?",
                                sl_op_row_get_source_line (row), sl_op_row_get_name (row), op_ideal / 1e6,
                                (r + w) / 1e6);
    }
  if (n == 0)
    return NULL;
  count = sl_count_format (n);
  /* Translators: how many ops measured less main memory traffic than their tensors hold; their rows follow */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Suspect data: %s op measured less than a hundredth of its own tensors' bytes "
                                       "in main memory traffic, which no tiling or cache can do; the bandwidth "
                                       "columns (*_main_mem_read_bw, *_main_mem_write_bw) or the core times cannot "
                                       "be right, so the memory figures are not graded.%s",
                                       "Suspect data: %s ops measured less than a hundredth of their own tensors' bytes "
                                       "in main memory traffic, which no tiling or cache can do; the bandwidth "
                                       "columns (*_main_mem_read_bw, *_main_mem_write_bw) or the core times cannot "
                                       "be right, so the memory figures are not graded.%s",
                                       n),
                          count, rows->str);
}

static void
mark_suspect (SlPerformanceItem *item,
              const char        *suspect)
{
  item->suspect = g_strdup (suspect);
  item->value = NAN;
  item->status = SL_PERFORMANCE_STATUS_NONE;
  g_clear_pointer (&item->threshold, g_free);
  g_clear_pointer (&item->missing, g_free);
}

static void
add_memory (GPtrArray *items,
            GPtrArray *instances)
{
  SlPerformanceItem *redundancy, *read, *write;
  double ideal = 0, real = 0, read_bytes = 0, write_bytes = 0;
  g_autofree char *suspect = NULL;
  Tally traffic, tiled;

  tally_init (&traffic);
  tally_init (&tiled);
  for (guint i = 0; i < instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (instances, i);
      double r = sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_READ);
      double w = sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_WRITE);
      double op_ideal = sl_op_row_get_counter (row, SL_OP_COUNTER_MEMORY_IDEAL);

      if (r < 0 && w < 0)
        continue;
      read_bytes += MAX (r, 0);
      write_bytes += MAX (w, 0);
      tally_add (&traffic, row, 0, 1, FALSE);
      if (op_ideal < 0 || MAX (r, 0) + MAX (w, 0) <= 0)
        continue;
      ideal += op_ideal;
      real += MAX (r, 0) + MAX (w, 0);
      tally_add (&tiled, row, 0, 1, 100.0 * op_ideal / (MAX (r, 0) + MAX (w, 0)) < GREEN_PERCENT);
    }

  redundancy = item_new ("memory_redundancy_percent", _("Tiling: memory redundancy"), "%",
                         _("Theoretical memory traffic (the bytes of each op's input and output tensors, from their shapes and data types) ÷ the real traffic (main memory read and write bandwidth × the op's core time), over the ops that have both. Below 100 % the tiling reads or writes data more than once."));
  read = item_new ("memory_read_gb", _("Memory read"), "GB",
                   _("Main memory read bandwidth × core time, summed over every execution (aic_ and aiv_ sides added)."));
  write = item_new ("memory_write_gb", _("Memory written"), "GB",
                    _("Main memory write bandwidth × core time, summed over every execution (aic_ and aiv_ sides added)."));
  item_take_tally (redundancy, &tiled, real > 0 ? 100.0 * ideal / real : NAN, TRUE);
  item_grade_at_least (redundancy, GREEN_PERCENT);
  item_take_tally (read, &traffic, read_bytes / 1e9, FALSE);
  item_take_tally (write, &traffic, write_bytes / 1e9, FALSE);
  item_set_missing (redundancy, _("The op rows need the main memory bandwidth columns and the tensors' shapes and data types."),
                    MEMORY_METRICS);
  item_set_missing (read, _("The op rows have no main memory bandwidth columns (*_main_mem_read_bw)."), MEMORY_METRICS);
  item_set_missing (write, _("The op rows have no main memory bandwidth columns (*_main_mem_write_bw)."), MEMORY_METRICS);
  /* Traffic that cannot be physical is reported, never graded. */
  if ((suspect = dup_suspect_traffic (instances)) != NULL)
    {
      mark_suspect (redundancy, suspect);
      mark_suspect (read, suspect);
      mark_suspect (write, suspect);
    }
  tally_clear (&traffic);
  tally_clear (&tiled);
  g_ptr_array_add (items, redundancy);
  g_ptr_array_add (items, read);
  g_ptr_array_add (items, write);
}

/**
 * sl_performance_report_add_rank:
 *
 * Computes the report of one rank from its op instances.
 */
void
sl_performance_report_add_rank (SlPerformanceReport      *self,
                                const char               *rank_label,
                                GPtrArray                *instances,
                                const SlPerformanceCores *cores)
{
  SlPerformanceSection *section;
  GPtrArray *items;

  g_return_if_fail (SL_IS_PERFORMANCE_REPORT (self));
  g_return_if_fail (instances != NULL);

  items = g_ptr_array_new_with_free_func (item_free);
  add_throughput (items, instances, SL_OP_COUNTER_CUBE_FOPS, "cube_throughput_gops", _("Cube throughput"),
                  _("Floating point operations of the cube unit (aic_cube_fops + aiv_cube_fops) of every op that has them ÷ those ops' core time, in billions per second."));
  add_throughput (items, instances, SL_OP_COUNTER_VECTOR_FOPS, "vector_throughput_gops", _("Vector throughput"),
                  _("Floating point operations of the vector unit (aic_vector_fops + aiv_vector_fops) of every op that has them ÷ those ops' core time, in billions per second."));
  add_core_time (items, instances);
  add_block_dim_usage (items, instances, cores);
  add_pipeline_utilization (items, instances);
  add_pipe_ratio (items, instances, SL_OP_PIPE_CUBE, "cube_ratio_percent", _("Cube ratio"),
                  _("mac_ratio: the share of cycles the cube unit was busy, averaged over the ops that measured it, weighted by their time."));
  add_pipe_ratio (items, instances, SL_OP_PIPE_VECTOR, "vector_ratio_percent", _("Vector ratio"),
                  _("vec_ratio: the share of cycles the vector unit was busy, averaged over the ops that measured it, weighted by their time."));
  add_pipe_ratio (items, instances, SL_OP_PIPE_SCALAR, "scalar_ratio_percent", _("Scalar ratio"),
                  _("scalar_ratio: the share of cycles the scalar unit was busy, averaged over the ops that measured it, weighted by their time."));
  add_pipe_ratio (items, instances, SL_OP_PIPE_MTE1, "mte1_ratio_percent", _("MTE1 bound"),
                  _("mte1_ratio: the share of cycles moving data from L1 to L0A/L0B, averaged over the ops that measured it, weighted by their time."));
  add_pipe_ratio (items, instances, SL_OP_PIPE_MTE2, "mte2_ratio_percent", _("MTE2 bound"),
                  _("mte2_ratio: the share of cycles moving data in from main memory (GM to L1 or UB), averaged over the ops that measured it, weighted by their time."));
  add_pipe_ratio (items, instances, SL_OP_PIPE_MTE3, "mte3_ratio_percent", _("MTE3 bound"),
                  _("mte3_ratio: the share of cycles moving results out to main memory (UB to GM), averaged over the ops that measured it, weighted by their time."));
  add_memory_bound (items, instances);
  add_memory (items, instances);

  section = g_new0 (SlPerformanceSection, 1);
  section->rank_label = g_strdup (rank_label);
  section->items = items;
  g_ptr_array_add (self->sections, section);
}

guint
sl_performance_report_get_n_sections (SlPerformanceReport *self)
{
  g_return_val_if_fail (SL_IS_PERFORMANCE_REPORT (self), 0);

  return self->sections->len;
}

const SlPerformanceSection *
sl_performance_report_get_section (SlPerformanceReport *self,
                                   guint                index)
{
  g_return_val_if_fail (SL_IS_PERFORMANCE_REPORT (self), NULL);
  g_return_val_if_fail (index < self->sections->len, NULL);

  return g_ptr_array_index (self->sections, index);
}

const SlPerformanceItem *
sl_performance_section_lookup (const SlPerformanceSection *section,
                               const char                 *key)
{
  g_return_val_if_fail (section != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < section->items->len; i++)
    {
      const SlPerformanceItem *item = g_ptr_array_index (section->items, i);

      if (g_str_equal (item->key, key))
        return item;
    }
  return NULL;
}

const char *
sl_performance_status_to_string (SlPerformanceStatus status)
{
  switch (status)
    {
    case SL_PERFORMANCE_STATUS_GOOD: return "good";
    case SL_PERFORMANCE_STATUS_BAD: return "bad";
    case SL_PERFORMANCE_STATUS_NONE:
    default: return "none";
    }
}

char *
sl_performance_item_format_value (const SlPerformanceItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  if (!isfinite (item->value))
    return g_strdup ("—");
  if (g_str_equal (item->unit, "µs"))
    return sl_time_format_ns ((gint64)(item->value * 1000.0), SL_TIME_UNIT_AUTO);
  if (g_str_equal (item->unit, "%"))
    return g_strdup_printf ("%.1f %%", item->value);
  if (g_str_equal (item->unit, "GB"))
    return g_strdup_printf ("%.3f GB", item->value);
  if (item->unit[0] != '\0')
    return g_strdup_printf ("%.1f %s", item->value, item->unit);
  return g_strdup_printf ("%.2f", item->value);
}
