/* sl-advisor-rules.c: the rules of the advisor
 *
 * Each rule first checks that the profile has what it needs and says so
 * when it does not (which file or column, where it looked); then it
 * collects the ops or steps involved, longest first, and makes one
 * finding with the numbers, their rows and an estimated saving. Times
 * are summed over the profile; the engine turns them into per-step
 * figures. Rows with negative or unknown times count as no time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-count-format.h"
#include "sl-advisor-private.h"
#include "sl-spread.h"
#include "sl-step-breakdown.h"

static const char *const op_files[] = { "op_summary_*.csv", "kernel_details.csv", "aicpu_intermediate_*.csv",
                                        "aicore_intermediate_*_detail.csv", "*.db", NULL };
static const char *const op_summary_files[] = { "op_summary_*.csv", "kernel_details.csv", "*.db", NULL };
static const char *const type_files[] = { "op_statistic*.csv", "aicore_intermediate_*_type.csv",
                                          "aicpu_intermediate_*.csv", "*.db", NULL };
static const char *const info_files[] = { "info.json.*", "profiler_info*.json", "*.db", NULL };
static const char *const step_files[] = { "step_trace_raw_*_detail_time.csv", "step_trace_*.csv",
                                          "step_trace_time.csv", "*.db", NULL };
static const char *const api_files[] = { "api_statistic*.csv", "*.db", NULL };
static const char *const metadata_files[] = { "profiler_metadata.json", NULL };

static gint64
known (gint64 ns)
{
  return ns > 0 ? ns : 0;
}

/* The longest single execution, or the mean when the source kept none. */
static gint64
longest (SlOpRow *row)
{
  gint64 max = sl_op_row_get_max_ns (row);

  return max >= 0 ? max : sl_op_row_get_avg_ns (row);
}

/* Called for every op by several rules: no allocation. */
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

static gboolean
is_aicpu (SlOpRow *row)
{
  const char *core = sl_op_row_get_core_type (row);
  const char *path = sl_op_row_get_source_path (row);

  /* MindSpore lists AI CPU ops in a file of their own. */
  return contains_ci (core, "AI_CPU") || contains_ci (core, "AICPU") ||
         (path != NULL && strstr (path, "aicpu_intermediate") != NULL);
}

static gboolean
have_instances (SlAdvisorContext *ctx)
{
  if (ctx->instances->len > 0)
    return TRUE;
  sl_advisor_not_run (ctx, _("The profile has no op instances (one row per op or task)"), op_files);
  return FALSE;
}

/* The ops of a finding: every one is kept, the longest are the evidence. */
static void
add_ops (SlAdvisorFinding *finding,
         GPtrArray        *rows,
         char *(*describe) (SlOpRow *row, gpointer data),
         gpointer          data)
{
  for (guint i = 0; i < rows->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (rows, i);

      sl_advisor_finding_add_op (finding, row);
      if (i < SL_ADVISOR_TOP_EVIDENCE)
        {
          g_autofree char *value = describe (row, data);

          sl_advisor_add_op_evidence (finding, row, value);
        }
    }
}

static char *
describe_longest (SlOpRow  *row,
                  gpointer  data)
{
  g_autofree char *max = sl_advisor_format_time (longest (row));
  g_autofree char *total = sl_advisor_format_time (known (sl_op_row_get_total_ns (row)));

  guint64 count = sl_op_row_get_count (row);
  g_autofree char *executions = sl_count_format (count);

  /* Translators: the longest execution of an op, its number of executions and their total time */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "longest %s, %s execution, %s in all",
                                       "longest %s, %s executions, %s in all", (gulong)MIN (count, G_MAXULONG)),
                          max, executions, total);
}

static gint64
sum_total (GPtrArray *rows)
{
  gint64 total = 0;

  for (guint i = 0; i < rows->len; i++)
    total += known (sl_op_row_get_total_ns (g_ptr_array_index (rows, i)));
  return total;
}

static void
set_op_values (GHashTable *values,
               GPtrArray  *rows)
{
  sl_advisor_values_set (values, "count", g_strdup_printf ("%u", rows->len));
  sl_advisor_values_set (values, "top", g_strdup (sl_op_row_get_name (g_ptr_array_index (rows, 0))));
}

static void
set_fraction (GHashTable *values,
              double      fraction)
{
  sl_advisor_values_set (values, "fraction", g_strdup_printf ("%.0f %%", fraction * 100));
}

static double
fraction_or (SlAdvisorContext *ctx,
             double            fallback)
{
  double fraction = sl_advisor_threshold (ctx, "saving_fraction");

  return isfinite (fraction) ? CLAMP (fraction, 0.0, 1.0) : fallback;
}

/* ------------------------------------------------------------------ */
/* AI CPU */

static gboolean
have_core_types (SlAdvisorContext *ctx)
{
  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);

      if (sl_op_row_get_core_type (row)[0] != '\0' || is_aicpu (row))
        return TRUE;
    }
  sl_advisor_not_run (ctx, _("The op rows have no “Task Type” or “Accelerator Core” column, so AI CPU ops cannot be told apart"),
                      op_summary_files);
  return FALSE;
}

static void
rule_aicpu_ops (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");
  double fraction = fraction_or (ctx, 0.9);
  SlAdvisorFinding *finding;
  gint64 total;

  if (!have_instances (ctx) || !have_core_types (ctx))
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);

      if (is_aicpu (row) && longest (row) > min_us * 1000)
        g_ptr_array_add (hits, row);
    }
  if (hits->len == 0)
    return;

  total = sum_total (hits);
  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  set_fraction (values, fraction);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_us));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_longest, NULL);
  sl_advisor_finding_set_jump (finding, "AI_CPU", -1, -1, sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, total, (gint64)(total * fraction), values);
  g_object_unref (finding);
}

static gboolean
has_double (const char *dtypes)
{
  return contains_ci (dtypes, "DOUBLE") || contains_ci (dtypes, "FLOAT64");
}

static void
rule_aicpu_double (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double fraction = fraction_or (ctx, 0.5);
  gboolean any_dtypes = FALSE;
  SlAdvisorFinding *finding;
  gint64 total;

  if (!have_instances (ctx) || !have_core_types (ctx))
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      const char *dtypes = sl_op_row_get_input_dtypes (row);

      any_dtypes |= dtypes[0] != '\0';
      if (is_aicpu (row) && has_double (dtypes))
        g_ptr_array_add (hits, row);
    }
  if (!any_dtypes)
    {
      sl_advisor_not_run (ctx, _("The op rows have no “Input Data Types” column"), op_summary_files);
      return;
    }
  if (hits->len == 0)
    return;

  total = sum_total (hits);
  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  set_fraction (values, fraction);

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_longest, NULL);
  sl_advisor_finding_set_jump (finding, "DOUBLE", -1, -1, sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, total, (gint64)(total * fraction), values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Cast and TransData */

static gboolean
is_conversion (const char *op_type)
{
  return g_ascii_strcasecmp (op_type, "Cast") == 0 || g_str_has_prefix (op_type, "TransData");
}

static void
rule_cast_transdata (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) types = g_ptr_array_new ();
  g_autoptr(GPtrArray) ops = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double min_percent = sl_advisor_threshold (ctx, "min_percent");
  double fraction = fraction_or (ctx, 0.5);
  gint64 all = 0, total = 0;
  guint64 executions = 0;
  SlAdvisorFinding *finding;
  double share;

  if (ctx->types->len == 0)
    {
      sl_advisor_not_run (ctx, _("The profile has no op types (op statistics)"), type_files);
      return;
    }

  for (guint i = 0; i < ctx->types->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->types, i);

      all += known (sl_op_row_get_total_ns (row));
      if (is_conversion (sl_op_row_get_name (row)))
        {
          g_ptr_array_add (types, row);
          total += known (sl_op_row_get_total_ns (row));
          executions += sl_op_row_get_count (row);
        }
    }
  share = all > 0 ? 100.0 * (double)total / (double)all : 0;
  if (types->len == 0 || total <= 0 || share < min_percent)
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    if (is_conversion (sl_op_row_get_op_type (g_ptr_array_index (ctx->instances, i))))
      g_ptr_array_add (ops, g_ptr_array_index (ctx->instances, i));

  values = sl_advisor_values_new ();
  sl_advisor_values_set (values, "count", g_strdup_printf ("%llu", (unsigned long long)executions));
  sl_advisor_values_set (values, "share", sl_advisor_format_percent (share));
  set_fraction (values, fraction);

  finding = sl_advisor_finding_begin (ctx);
  for (guint i = 0; i < types->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (types, i);
      g_autofree char *time = sl_advisor_format_time (known (sl_op_row_get_total_ns (row)));
      g_autofree char *count = sl_count_format (sl_op_row_get_count (row));
      g_autofree char *value = g_strdup_printf (_("%s in %s executions"), time, count);

      sl_advisor_finding_add_evidence (finding, sl_op_row_get_name (row), value,
                                       sl_op_row_get_source_path (row), sl_op_row_get_source_line (row), -1);
    }
  add_ops (finding, ops, describe_longest, NULL);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (types, 0)), -1, -1,
                               ops->len > 0 ? sl_op_row_get_name (g_ptr_array_index (ops, 0)) : NULL);
  sl_advisor_finding_end (ctx, finding, total, (gint64)(total * fraction), values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Block dim */

static gint64
info_count (const SlProfileRank *rank,
            const char          *key)
{
  const char *text = g_hash_table_lookup (rank->info, key);
  gint64 value;

  if (text == NULL || !g_ascii_string_to_signed (text, 10, 1, 4096, &value, NULL))
    return -1;
  return value;
}

static gint64
core_count (SlAdvisorContext *ctx,
            const char       *threshold,
            const char *const *keys)
{
  double configured = sl_advisor_threshold (ctx, threshold);

  if (isfinite (configured) && configured >= 1)
    return (gint64)configured;
  for (guint i = 0; keys[i] != NULL; i++)
    {
      gint64 value = info_count (ctx->rank, keys[i]);

      if (value > 0)
        return value;
    }
  return -1;
}

static gboolean
is_vector_op (SlOpRow *row)
{
  return contains_ci (sl_op_row_get_core_type (row), "VECTOR") || contains_ci (sl_op_row_get_core_type (row), "AIV");
}

typedef struct {
  gint64 cube_cores;
  gint64 vector_cores;
} Cores;

static gint64
cores_for (SlOpRow     *row,
           const Cores *cores)
{
  return is_vector_op (row) ? cores->vector_cores : cores->cube_cores;
}

/* The share of the op's time its idle last wave costs. */
static double
wave_loss (gint64 block_dim,
           gint64 n_cores)
{
  double ideal = (double)block_dim / (double)n_cores;
  double waves = ceil (ideal);

  return waves > 0 ? 1.0 - ideal / waves : 0;
}

static char *
describe_block_dim (SlOpRow  *row,
                    gpointer  data)
{
  const Cores *cores = data;
  gint64 n = cores_for (row, cores);
  g_autofree char *time = sl_advisor_format_time (known (sl_op_row_get_total_ns (row)));

  /* Translators: block dim of an op, the number of cores, the waves that needs, the op's time */
  return g_strdup_printf (_("block dim %lld on %lld cores: %.0f waves, %s in all"),
                          (long long)sl_op_row_get_block_dim (row), (long long)n,
                          ceil ((double)sl_op_row_get_block_dim (row) / (double)n), time);
}

static void
rule_block_dim (SlAdvisorContext *ctx)
{
  static const char *const cube_keys[] = { "DeviceInfo.0.ai_core_num", "NPU_INFO.aicore_num", "ai_core_num", NULL };
  static const char *const vector_keys[] = { "DeviceInfo.0.aiv_num", "NPU_INFO.aiv_num", "aiv_num", NULL };
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");
  gboolean any_block_dim = FALSE;
  gint64 total = 0;
  double saving = 0;
  SlAdvisorFinding *finding;
  Cores cores;

  if (!have_instances (ctx))
    return;
  cores.cube_cores = core_count (ctx, "ai_core_count", cube_keys);
  cores.vector_cores = core_count (ctx, "vector_core_count", vector_keys);
  if (cores.cube_cores <= 0 && cores.vector_cores <= 0)
    {
      sl_advisor_not_run (ctx, _("The device info does not say how many AI Cores the device has (ai_core_num)"), info_files);
      return;
    }

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      gint64 block_dim = sl_op_row_get_block_dim (row);
      gint64 n = cores_for (row, &cores);

      any_block_dim |= block_dim >= 0;
      if (block_dim <= 0 || n <= 0 || sl_op_row_get_avg_ns (row) <= min_us * 1000 || block_dim % n == 0)
        continue;
      g_ptr_array_add (hits, row);
      total += known (sl_op_row_get_total_ns (row));
      saving += known (sl_op_row_get_total_ns (row)) * wave_loss (block_dim, n);
    }
  if (!any_block_dim)
    {
      sl_advisor_not_run (ctx, _("The op rows have no “Block Dim” column"), op_summary_files);
      return;
    }
  if (hits->len == 0)
    return;

  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_us));
  sl_advisor_values_set (values, "cores", cores.cube_cores > 0 ? g_strdup_printf ("%lld", (long long)cores.cube_cores)
                                                               : g_strdup_printf ("%lld", (long long)cores.vector_cores));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_block_dim, &cores);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                               sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, total, (gint64)saving, values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Pipe ratios */

static gboolean
have_pipe_ratios (SlAdvisorContext *ctx)
{
  for (guint i = 0; i < ctx->instances->len; i++)
    for (guint p = 0; p < SL_OP_N_PIPES; p++)
      if (sl_op_row_get_pipe_ratio (g_ptr_array_index (ctx->instances, i), p) >= 0)
        return TRUE;
  sl_advisor_not_run (ctx, _("The op rows have no pipe ratio columns (aic_mac_ratio, aiv_vec_ratio, *_mte2_ratio, …)"),
                      op_summary_files);
  return FALSE;
}

/* The busiest pipe of an op, -1 when none was measured. */
static int
busiest_pipe (SlOpRow *row,
              double  *ratio)
{
  int best = -1;

  *ratio = -1;
  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      double value = sl_op_row_get_pipe_ratio (row, p);

      if (value > *ratio)
        {
          *ratio = value;
          best = (int)p;
        }
    }
  return *ratio >= 0 ? best : -1;
}

static char *
describe_pipes (SlOpRow  *row,
                gpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *time = sl_advisor_format_time (known (sl_op_row_get_total_ns (row)));

  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      double value = sl_op_row_get_pipe_ratio (row, p);

      if (value >= 0)
        g_string_append_printf (text, "%s %.3f, ", sl_op_pipe_to_string (p), value);
    }
  g_string_append (text, time);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
rule_no_bound (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double max_ratio = sl_advisor_threshold (ctx, "max_ratio");
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");
  gint64 total = 0;
  double saving = 0;
  SlAdvisorFinding *finding;

  if (!have_instances (ctx) || !have_pipe_ratios (ctx))
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      double ratio;

      if (busiest_pipe (row, &ratio) < 0 || ratio >= max_ratio || sl_op_row_get_avg_ns (row) <= min_us * 1000)
        continue;
      g_ptr_array_add (hits, row);
      total += known (sl_op_row_get_total_ns (row));
      if (max_ratio > 0)
        saving += known (sl_op_row_get_total_ns (row)) * (1.0 - ratio / max_ratio);
    }
  if (hits->len == 0)
    return;

  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_us));
  sl_advisor_values_set (values, "ratio", g_strdup_printf ("%g", max_ratio));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_pipes, NULL);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                               sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, total, (gint64)saving, values);
  g_object_unref (finding);
}

static double
bound_ratio (SlAdvisorContext *ctx,
             SlOpRow          *row,
             SlOpPipe          pipe)
{
  /* MatMul streams its operands in through MTE2 by design; only a nearly
   * saturated MTE2 is a problem there. */
  if (pipe == SL_OP_PIPE_MTE2 && contains_ci (sl_op_row_get_op_type (row), "MatMul"))
    return sl_advisor_threshold (ctx, "matmul_mte2_ratio");
  return sl_advisor_threshold (ctx, "min_ratio");
}

static void
rule_unit_bound (SlAdvisorContext *ctx)
{
  GPtrArray *by_pipe[SL_OP_N_PIPES];
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");

  if (!have_instances (ctx) || !have_pipe_ratios (ctx))
    return;

  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    by_pipe[p] = g_ptr_array_new ();

  /* Each op counts once, for its busiest pipe. */
  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      double ratio;
      int pipe = busiest_pipe (row, &ratio);

      if (pipe >= 0 && sl_op_row_get_avg_ns (row) > min_us * 1000 && ratio >= bound_ratio (ctx, row, pipe))
        g_ptr_array_add (by_pipe[pipe], row);
    }

  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      g_autoptr(GPtrArray) hits = by_pipe[p];
      g_autoptr(GHashTable) values = NULL;
      SlAdvisorFinding *finding;

      if (hits->len == 0)
        continue;
      values = sl_advisor_values_new ();
      set_op_values (values, hits);
      sl_advisor_values_set (values, "unit", g_ascii_strup (sl_op_pipe_to_string (p), -1));
      sl_advisor_values_set (values, "ratio", g_strdup_printf ("%g", p == SL_OP_PIPE_MTE2
                                                               ? MIN (sl_advisor_threshold (ctx, "min_ratio"),
                                                                      sl_advisor_threshold (ctx, "matmul_mte2_ratio"))
                                                               : sl_advisor_threshold (ctx, "min_ratio")));

      finding = sl_advisor_finding_begin (ctx);
      add_ops (finding, hits, describe_pipes, NULL);
      sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                                   sl_op_row_get_name (g_ptr_array_index (hits, 0)));
      sl_advisor_finding_end (ctx, finding, sum_total (hits), 0, values);
      g_object_unref (finding);
    }
}

/* ------------------------------------------------------------------ */
/* Vector throughput */

static gboolean
is_vector (SlOpRow *row)
{
  const char *core = sl_op_row_get_core_type (row);

  return contains_ci (core, "VECTOR") || contains_ci (core, "AIV") || contains_ci (core, "MIX_AIV");
}

/* Bytes per nanosecond are GB/s, over the executions whose tensors'
 * sizes are known; -1 without any. */
static double
throughput_gbps (SlOpRow *row)
{
  gint64 ns = sl_op_row_get_moved_ns (row);

  return ns <= 0 ? -1 : (double) sl_op_row_get_moved_bytes (row) / (double) ns;
}

static char *
describe_throughput (SlOpRow  *row,
                     gpointer  data)
{
  g_autofree char *size = g_format_size (sl_op_row_get_moved_bytes (row));
  g_autofree char *time = sl_advisor_format_time (sl_op_row_get_moved_ns (row));

  /* Translators: the data an op moves, the time it takes, and the rate */
  return g_strdup_printf (_("%s in %s: %.0f GB/s"), size, time, throughput_gbps (row));
}

static int
compare_throughput (gconstpointer a,
                    gconstpointer b)
{
  double x = throughput_gbps (*(SlOpRow **) a), y = throughput_gbps (*(SlOpRow **) b);

  return (x > y) - (x < y);
}

static void
rule_vector_throughput (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double red = sl_advisor_threshold (ctx, "red_gbps");
  double yellow = sl_advisor_threshold (ctx, "yellow_gbps");
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");
  gboolean any_sizes = FALSE;
  guint slow = 0;
  gint64 saving = 0;
  SlAdvisorFinding *finding;

  if (!have_instances (ctx) || !have_core_types (ctx))
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      double gbps = throughput_gbps (row);

      any_sizes |= gbps >= 0;
      if (!is_vector (row) || gbps < 0 || sl_op_row_get_avg_ns (row) <= min_us * 1000 || gbps >= yellow)
        continue;
      g_ptr_array_add (hits, row);
      slow += gbps < red;
      /* What the measured executions would take at the yellow rate. */
      saving += sl_op_row_get_moved_ns (row) - (gint64) ((double) sl_op_row_get_moved_bytes (row) / yellow);
    }
  if (!any_sizes)
    {
      sl_advisor_not_run (ctx, _("The op rows have no input and output shapes and data types to tell the bytes each op moves"),
                          op_summary_files);
      return;
    }
  if (hits->len == 0)
    return;

  g_ptr_array_sort (hits, compare_throughput);
  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_us));
  sl_advisor_values_set (values, "red", g_strdup_printf ("%g", red));
  sl_advisor_values_set (values, "yellow", g_strdup_printf ("%g", yellow));
  sl_advisor_values_set (values, "slow", g_strdup_printf ("%u", slow));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_throughput, NULL);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                               sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, sum_total (hits), MAX (saving, 0), values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* AI Core time against the task's duration */

static char *
describe_busy (SlOpRow  *row,
               gpointer  data)
{
  g_autofree char *busy = sl_advisor_format_time (sl_op_row_get_core_busy_ns (row));
  g_autofree char *task = sl_advisor_format_time (known (sl_op_row_get_total_ns (row)));

  /* Translators: the time the cores were busy with an op, and its tasks' duration */
  return g_strdup_printf (_("cores busy %s of %s"), busy, task);
}

static void
rule_aicore_vs_task (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double max_ratio = sl_advisor_threshold (ctx, "max_busy_ratio");
  double min_us = sl_advisor_threshold (ctx, "min_duration_us");
  gboolean any = FALSE;
  gint64 idle = 0;
  SlAdvisorFinding *finding;

  if (!have_instances (ctx))
    return;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      gint64 busy = sl_op_row_get_core_busy_ns (row);
      gint64 task = sl_op_row_get_total_ns (row);

      /* Zero busy time means the counters were off, not an idle core. */
      any |= busy > 0;
      if (busy <= 0 || task <= 0 || sl_op_row_get_avg_ns (row) <= min_us * 1000 ||
          (double)busy / (double)task >= max_ratio)
        continue;
      g_ptr_array_add (hits, row);
      idle += task - busy;
    }
  if (!any)
    {
      sl_advisor_not_run (ctx, _("The op rows have no “aicore_time(us)” or “aiv_time(us)” column with measured times"),
                          op_summary_files);
      return;
    }
  if (hits->len == 0)
    return;

  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  sl_advisor_values_set (values, "ratio", g_strdup_printf ("%g", max_ratio));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_busy, NULL);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                               sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, idle, idle, values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Task wait time */

static gint64
mean_wait (SlOpRow *row)
{
  gint64 wait = sl_op_row_get_wait_ns (row);
  guint64 count = sl_op_row_get_count (row);

  return wait >= 0 && count > 0 ? wait / (gint64)count : -1;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return (x > y) - (x < y);
}

/* Sorts @values. */
static gint64
median_of (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_gint64);
  if (n % 2 == 1)
    return g_array_index (values, gint64, n / 2);
  return (g_array_index (values, gint64, n / 2 - 1) + g_array_index (values, gint64, n / 2)) / 2;
}

/* Median and median absolute deviation of the ops' mean waits: a few
 * ops that wait very long do not move either, unlike mean and sigma. */
static void
wait_spread (GArray *waits,
             gint64 *median,
             gint64 *mad)
{
  g_autoptr(GArray) deviations = g_array_sized_new (FALSE, FALSE, sizeof (gint64), waits->len);

  *median = median_of (waits);
  for (guint i = 0; i < waits->len; i++)
    {
      gint64 deviation = ABS (g_array_index (waits, gint64, i) - *median);

      g_array_append_val (deviations, deviation);
    }
  *mad = median_of (deviations);
}

static char *
describe_wait (SlOpRow  *row,
               gpointer  data)
{
  g_autofree char *mean = sl_advisor_format_time (mean_wait (row));
  g_autofree char *total = sl_advisor_format_time (sl_op_row_get_wait_ns (row));
  guint64 count = sl_op_row_get_count (row);
  g_autofree char *executions = sl_count_format (count);

  /* Translators: an op's mean wait before it starts, its executions and the waits in all */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "waits %s on average, %s execution, %s in all",
                                       "waits %s on average, %s executions, %s in all", (gulong)MIN (count, G_MAXULONG)),
                          mean, executions, total);
}

static int
compare_wait (gconstpointer a,
              gconstpointer b)
{
  gint64 x = sl_op_row_get_wait_ns (*(SlOpRow **)a), y = sl_op_row_get_wait_ns (*(SlOpRow **)b);

  return (x < y) - (x > y);
}

void
sl_advisor_rule_task_wait (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  double factor = sl_advisor_threshold (ctx, "mad_factor");
  double min_us = sl_advisor_threshold (ctx, "min_wait_us");
  gint64 median, mad, limit, total = 0, saving = 0;
  SlAdvisorFinding *finding;

  if (!have_instances (ctx))
    return;
  for (guint i = 0; i < ctx->instances->len; i++)
    {
      gint64 wait = mean_wait (g_ptr_array_index (ctx->instances, i));

      if (wait >= 0)
        g_array_append_val (waits, wait);
    }
  if (waits->len == 0)
    {
      sl_advisor_not_run (ctx, _("The op rows have no “Task Wait Time(us)” or “Wait Time(us)” column"), op_summary_files);
      return;
    }

  wait_spread (waits, &median, &mad);
  limit = MAX (median + (gint64)(factor * (double)mad), (gint64)(min_us * 1000));
  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      gint64 wait = mean_wait (row);

      if (wait <= limit)
        continue;
      g_ptr_array_add (hits, row);
      total += sl_op_row_get_wait_ns (row);
      saving += (wait - median) * (gint64)sl_op_row_get_count (row);
    }
  if (hits->len == 0)
    return;

  g_ptr_array_sort (hits, compare_wait);
  values = sl_advisor_values_new ();
  set_op_values (values, hits);
  sl_advisor_values_set (values, "threshold", sl_advisor_format_time (limit));
  sl_advisor_values_set (values, "median", sl_advisor_format_time (median));

  finding = sl_advisor_finding_begin (ctx);
  add_ops (finding, hits, describe_wait, NULL);
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (hits, 0)), -1, -1,
                               sl_op_row_get_name (g_ptr_array_index (hits, 0)));
  sl_advisor_finding_end (ctx, finding, total, saving, values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Steps */

static gboolean
have_steps (SlAdvisorContext *ctx)
{
  if (ctx->rank->steps != NULL && sl_step_trace_get_n_steps (ctx->rank->steps) > 0)
    return TRUE;
  sl_advisor_not_run (ctx, _("The profile has no step trace"), step_files);
  return FALSE;
}

typedef struct {
  guint  index;
  gint64 value;
} StepValue;

static int
compare_step_values (gconstpointer a,
                     gconstpointer b)
{
  const StepValue *sa = a, *sb = b;

  if (sa->value != sb->value)
    return sa->value > sb->value ? -1 : 1;
  return sa->index < sb->index ? -1 : sa->index > sb->index;
}

/* The phase of every step whose value is a real duration, largest first. */
static GArray *
step_phase (SlStepTrace *trace,
            const char  *key)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (StepValue));
  int phase = sl_step_trace_find_phase (trace, key);

  for (guint i = 0; phase >= 0 && i < sl_step_trace_get_n_steps (trace); i++)
    {
      StepValue value = { i, sl_step_trace_get_phase (trace, i, phase) };

      if (value.value != SL_STEP_NO_TIME && value.value >= 0)
        g_array_append_val (values, value);
    }
  g_array_sort (values, compare_step_values);
  return values;
}

static gint64
mean_value (GArray *values)
{
  gint64 sum = 0;

  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, StepValue, i).value;
  return values->len > 0 ? sum / values->len : 0;
}

static void
add_step_evidence (SlAdvisorFinding *finding,
                   SlStepTrace      *trace,
                   GArray           *values,
                   const char       *phase)
{
  for (guint i = 0; i < values->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
    {
      const StepValue *value = &g_array_index (values, StepValue, i);
      const SlStep *step = sl_step_trace_get_step (trace, value->index);
      /* Translators: a step's number in a label */
      g_autofree char *label = g_strdup_printf (_("step %lld"), (long long)step->step);
      g_autofree char *time = sl_advisor_format_time (value->value);
      g_autofree char *text = g_strdup_printf ("%s %s", phase, time);

      sl_advisor_finding_add_evidence (finding, label, text, sl_step_trace_get_path (trace),
                                       sl_step_trace_get_line (trace, value->index), -1);
    }
}

static void
jump_to_step (SlAdvisorFinding *finding,
              SlStepTrace      *trace,
              guint             index)
{
  const SlStep *step = sl_step_trace_get_step (trace, index);
  gboolean range = step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns > step->start_ns;

  sl_advisor_finding_set_jump (finding, NULL, range ? step->start_ns : -1, range ? step->end_ns : -1, NULL);
}

static void
step_rule (SlAdvisorContext *ctx,
           GArray           *values,
           gint64            mean,
           const char       *phase,
           char             *threshold_text)
{
  g_autoptr(GHashTable) values_text = sl_advisor_values_new ();
  SlStepTrace *trace = ctx->rank->steps;
  const SlStep *worst = sl_step_trace_get_step (trace, g_array_index (values, StepValue, 0).index);
  SlAdvisorFinding *finding;

  sl_advisor_values_set (values_text, "threshold", threshold_text);
  sl_advisor_values_set (values_text, "top", g_strdup_printf ("%lld", (long long)worst->step));

  finding = sl_advisor_finding_begin (ctx);
  add_step_evidence (finding, trace, values, phase);
  jump_to_step (finding, trace, g_array_index (values, StepValue, 0).index);
  /* The mean is per step already; the engine divides totals by steps. */
  sl_advisor_finding_end (ctx, finding, mean * ctx->n_steps, mean * ctx->n_steps, values_text);
  g_object_unref (finding);
}

static void
rule_data_wait (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) values = NULL;
  double max_ms = sl_advisor_threshold (ctx, "max_wait_ms");
  SlStepSource source;
  gint64 mean;

  if (!have_steps (ctx))
    return;
  source = sl_step_trace_get_source (ctx->rank->steps);
  if (source != SL_STEP_SOURCE_MINDSPORE && source != SL_STEP_SOURCE_MSPROF && source != SL_STEP_SOURCE_DATABASE)
    {
      sl_advisor_not_run (ctx, _("This step table has no data wait phase (iteration interval); its idle time is checked by the free time rule"),
                          step_files);
      return;
    }

  /* Only a trace with phase points measures a data wait. */
  values = step_phase (ctx->rank->steps, "data_wait");
  if (values->len == 0)
    {
      sl_advisor_not_run (ctx, _("No step of the step trace has a data wait time"), step_files);
      return;
    }
  mean = mean_value (values);
  if ((double)mean <= max_ms * 1e6)
    return;
  step_rule (ctx, values, mean, _("data wait"), g_strdup_printf ("%g", max_ms));
}

static void
rule_free_time (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) values = NULL;
  double max_percent = sl_advisor_threshold (ctx, "max_free_percent");
  SlStepSource source;
  gint64 mean;

  if (!have_steps (ctx))
    return;
  source = sl_step_trace_get_source (ctx->rank->steps);
  if (source != SL_STEP_SOURCE_ASCEND_PT && source != SL_STEP_SOURCE_CLUSTER)
    {
      sl_advisor_not_run (ctx, _("This step table has no Free column (the Ascend PyTorch and MindSpore profilers' step_trace_time.csv has one)"),
                          step_files);
      return;
    }

  /* Free is the device idle, neither computing nor communicating: not a
   * data wait, which that table cannot tell apart from other host time. */
  values = step_phase (ctx->rank->steps, "free");
  if (values->len == 0 || ctx->step_ns <= 0)
    {
      sl_advisor_not_run (ctx, _("No step of the step trace has a free time and a total"), step_files);
      return;
    }
  mean = mean_value (values);
  if (100.0 * (double)mean / (double)ctx->step_ns <= max_percent)
    return;
  /* Translators: a step's Free time, Free being the column's name */
  step_rule (ctx, values, mean, _("device idle (Free)"), sl_advisor_format_percent (max_percent));
}

/* ------------------------------------------------------------------ */
/* Host API statistics */

static SlOpRow *
find_api (SlAdvisorContext *ctx,
          const char       *needle)
{
  GListModel *apis = sl_op_table_get_types (ctx->rank->apis);

  for (guint i = 0; i < g_list_model_get_n_items (apis); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (apis, i);

      if (strstr (sl_op_row_get_name (row), needle) != NULL)
        return row;
    }
  return NULL;
}

static void
rule_dynamic_shape (SlAdvisorContext *ctx)
{
  g_autoptr(GPtrArray) dynamic = g_ptr_array_new ();
  g_autoptr(GHashTable) values = NULL;
  gboolean have_apis = !sl_op_table_is_empty (ctx->rank->apis);
  double min_calls = sl_advisor_threshold (ctx, "min_compile_calls");
  SlOpRow *compile = have_apis ? find_api (ctx, "aclopCompileAndExecute") : NULL;
  guint n_state = 0, n_static = 0;
  gboolean many_compiles, all_dynamic;
  g_autoptr(GString) detail = g_string_new (NULL);
  SlAdvisorFinding *finding;

  for (guint i = 0; i < ctx->instances->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (ctx->instances, i);
      const char *state = sl_op_row_get_op_state (row);

      if (state[0] == '\0')
        continue;
      n_state++;
      if (g_ascii_strcasecmp (state, "static") == 0)
        n_static++;
      else if (g_ascii_strcasecmp (state, "dynamic") == 0)
        g_ptr_array_add (dynamic, row);
    }
  if (!have_apis && n_state == 0)
    {
      sl_advisor_not_run (ctx, _("The profile has neither API statistics nor an “OP State” column"), api_files);
      return;
    }

  many_compiles = compile != NULL && (double)sl_op_row_get_count (compile) >= min_calls;
  all_dynamic = n_state > 0 && n_static == 0 && dynamic->len > 0;
  if (!many_compiles && !all_dynamic)
    return;

  if (many_compiles)
    {
      g_autofree char *calls = sl_count_format (sl_op_row_get_count (compile));

      g_string_append_printf (detail, _("aclopCompileAndExecute was called %s times (%g or more means ops are compiled while training)."),
                              calls, min_calls);
    }
  if (all_dynamic)
    g_string_append_printf (detail, "%s%s", detail->len > 0 ? " " : "",
                            _("No op ran with a static shape: every op is compiled for the shapes it meets."));

  values = sl_advisor_values_new ();
  sl_advisor_values_set (values, "detail", g_string_free (g_steal_pointer (&detail), FALSE));

  finding = sl_advisor_finding_begin (ctx);
  if (compile != NULL)
    {
      g_autofree char *value = describe_longest (compile, NULL);

      sl_advisor_finding_add_evidence (finding, sl_op_row_get_name (compile), value,
                                       sl_op_row_get_source_path (compile), sl_op_row_get_source_line (compile), -1);
    }
  add_ops (finding, dynamic, describe_longest, NULL);
  sl_advisor_finding_set_jump (finding, "dynamic", -1, -1, NULL);
  sl_advisor_finding_end (ctx, finding, compile != NULL ? known (sl_op_row_get_total_ns (compile)) : -1, -1, values);
  g_object_unref (finding);
}

static gboolean
is_memory_api (const char *name)
{
  return strstr (name, "aclMallocMemInner") != NULL || strstr (name, "aclrtMalloc") != NULL ||
         strstr (name, "aclrtFree") != NULL;
}

static void
rule_memory_ops (SlAdvisorContext *ctx)
{
  GListModel *apis = sl_op_table_get_types (ctx->rank->apis);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) values = NULL;
  double min_ms = sl_advisor_threshold (ctx, "min_total_ms");
  double fraction = fraction_or (ctx, 0.9);
  guint64 calls = 0;
  gint64 total = 0;
  SlAdvisorFinding *finding;

  /* Without the statistics, the timeline's API events tell the same. */
  if (g_list_model_get_n_items (apis) == 0)
    {
      sl_advisor_memory_ops_from_trace (ctx);
      return;
    }
  for (guint i = 0; i < g_list_model_get_n_items (apis); i++)
    {
      SlOpRow *row = g_list_model_get_item (apis, i);

      if (!is_memory_api (sl_op_row_get_name (row)))
        {
          g_object_unref (row);
          continue;
        }
      total += known (sl_op_row_get_total_ns (row));
      calls += sl_op_row_get_count (row);
      g_ptr_array_add (rows, row);
    }
  if (rows->len == 0 || (double)total < min_ms * 1e6)
    return;

  values = sl_advisor_values_new ();
  sl_advisor_values_set (values, "count", g_strdup_printf ("%llu", (unsigned long long)calls));
  sl_advisor_values_set (values, "top", g_strdup (sl_op_row_get_name (g_ptr_array_index (rows, 0))));
  sl_advisor_values_set (values, "threshold", g_strdup_printf ("%g", min_ms));
  set_fraction (values, fraction);

  finding = sl_advisor_finding_begin (ctx);
  for (guint i = 0; i < rows->len && i < SL_ADVISOR_TOP_EVIDENCE; i++)
    {
      SlOpRow *row = g_ptr_array_index (rows, i);
      g_autofree char *value = describe_longest (row, NULL);

      sl_advisor_finding_add_evidence (finding, sl_op_row_get_name (row), value,
                                       sl_op_row_get_source_path (row), sl_op_row_get_source_line (row), -1);
    }
  sl_advisor_finding_set_jump (finding, sl_op_row_get_name (g_ptr_array_index (rows, 0)), -1, -1, NULL);
  sl_advisor_finding_end (ctx, finding, total, (gint64)(total * fraction), values);
  g_object_unref (finding);
}

/* ------------------------------------------------------------------ */
/* Environment */

typedef struct {
  const char *name;
  const char *effect;
  const char *advice;
} EnvCheck;

static const EnvCheck env_checks[] = {
  { "ASCEND_LAUNCH_BLOCKING", N_("every op launch waits for the op to finish, which serialises host and device."),
    N_("Unset ASCEND_LAUNCH_BLOCKING (or set it to 0) outside debugging.") },
  { "ASCEND_GLOBAL_LOG_LEVEL", N_("logging below the error level slows the host down."),
    N_("Set ASCEND_GLOBAL_LOG_LEVEL=3 (errors only) for training and profiling.") },
  { "ACLNN_CACHE_LIMIT", N_("a small cache of aclnn op executors makes ops be built again."),
    N_("Raise ACLNN_CACHE_LIMIT to 10000 or more, or unset it.") },
  { "HOST_CACHE_CAPACITY", N_("0 turns the host-side cache of op information off."),
    N_("Unset HOST_CACHE_CAPACITY or give it a non-zero size.") },
  { "HCCL_ALGO", N_("a fixed collective algorithm may not suit the cluster's topology."),
    N_("Unset HCCL_ALGO to let HCCL choose, unless measurements show the chosen algorithm is faster.") },
};

static gboolean
env_is_bad (SlAdvisorContext *ctx,
            const EnvCheck   *check,
            const char       *value)
{
  gint64 number;
  gboolean is_number = g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &number, NULL);

  if (value[0] == '\0')
    return FALSE;
  if (g_str_equal (check->name, "ASCEND_LAUNCH_BLOCKING"))
    return g_str_equal (value, "1");
  if (g_str_equal (check->name, "ASCEND_GLOBAL_LOG_LEVEL"))
    return !is_number || (double)number != sl_advisor_threshold (ctx, "global_log_level");
  if (g_str_equal (check->name, "ACLNN_CACHE_LIMIT"))
    return is_number && (double)number < sl_advisor_threshold (ctx, "min_aclnn_cache_limit");
  if (g_str_equal (check->name, "HOST_CACHE_CAPACITY"))
    return is_number && number == 0;
  return TRUE;   /* HCCL_ALGO: set at all */
}

static const char *
metadata_file (const SlProfileRank *rank)
{
  for (guint i = 0; i < rank->files->len; i++)
    {
      const char *path = g_ptr_array_index (rank->files, i);
      g_autofree char *base = g_path_get_basename (path);

      if (g_str_equal (base, "profiler_metadata.json"))
        return path;
    }
  return NULL;
}

/* Where "NAME" is written in the file, for the evidence; -1 unknown. */
static gint64
find_offset (const char *contents,
             gsize       length,
             const char *name)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", name);
  gsize n = strlen (quoted);

  for (gsize i = 0; contents != NULL && i + n <= length; i++)
    if (memcmp (contents + i, quoted, n) == 0)
      return (gint64)i;
  return -1;
}

static void
rule_environment (SlAdvisorContext *ctx)
{
  const char *path = metadata_file (ctx->rank);
  g_autofree char *contents = NULL;
  gsize length = 0;
  gboolean any = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (env_checks); i++)
    {
      g_autofree char *key = g_strdup_printf ("ENV_VARIABLES.%s", env_checks[i].name);

      any |= g_hash_table_contains (ctx->rank->info, key);
    }
  if (path == NULL || !any)
    {
      sl_advisor_not_run (ctx, _("The profile has no profiler_metadata.json with ENV_VARIABLES"), metadata_files);
      return;
    }
  /* Only to place the evidence; a metadata file is small. */
  if (!g_file_get_contents (path, &contents, &length, NULL) || length > 4 * 1024 * 1024)
    g_clear_pointer (&contents, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (env_checks); i++)
    {
      const EnvCheck *check = &env_checks[i];
      g_autofree char *key = g_strdup_printf ("ENV_VARIABLES.%s", check->name);
      const char *value = g_hash_table_lookup (ctx->rank->info, key);
      g_autoptr(GHashTable) values = NULL;
      SlAdvisorFinding *finding;

      if (value == NULL || !env_is_bad (ctx, check, value))
        continue;
      values = sl_advisor_values_new ();
      sl_advisor_values_set (values, "name", g_strdup (check->name));
      sl_advisor_values_set (values, "value", g_strdup (value));
      sl_advisor_values_set (values, "effect", g_strdup (_(check->effect)));
      sl_advisor_values_set (values, "advice", g_strdup (_(check->advice)));

      finding = sl_advisor_finding_begin (ctx);
      sl_advisor_finding_add_evidence (finding, check->name, value, path, 0,
                                       contents != NULL ? find_offset (contents, length, check->name) : -1);
      sl_advisor_finding_set_jump (finding, NULL, -1, -1, NULL);
      sl_advisor_finding_end (ctx, finding, -1, -1, values);
      g_object_unref (finding);
    }
}

/* ------------------------------------------------------------------ */
/* Slow rank (over the whole profile) */

typedef struct {
  const SlProfileRank *rank;
  SlStepBreakdown      breakdown;
} RankSteps;

/* The phases a slow rank is explained by. */
static const SlStepPhase slow_rank_phases[] = {
  SL_STEP_PHASE_FREE, SL_STEP_PHASE_COMPUTING, SL_STEP_PHASE_COMMUNICATION,
};

/* msprof-analyze's cluster_step_trace_time.csv, when loaded, has every
 * rank aligned by step: its "rank" rows are compared, not its "stage"
 * rows (the maximum of each column over a stage) nor the ranks' own
 * folders beside it, which would count each rank twice. */
static gboolean
is_cluster_rank (const SlProfileRank *rank)
{
  return rank->layout == SL_PROFILE_LAYOUT_CLUSTER && rank->rank_id >= 0 && rank->steps != NULL &&
         sl_step_trace_get_source (rank->steps) == SL_STEP_SOURCE_CLUSTER;
}

static gboolean
have_cluster_ranks (SlProfile *profile)
{
  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    if (is_cluster_rank (sl_profile_get_rank (profile, r)))
      return TRUE;
  return FALSE;
}

static void
rule_slow_rank (SlAdvisorContext *ctx)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (RankSteps));
  g_autoptr(GArray) means = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GHashTable) values = sl_advisor_values_new ();
  double max_spread = sl_advisor_threshold (ctx, "max_spread_percent");
  const RankSteps *slow, *fast;
  SlSpread spread;
  gint64 gap;
  SlStepPhase worst_phase = SL_STEP_PHASE_FREE;
  gint64 worst_gap = G_MININT64;
  gboolean cluster = have_cluster_ranks (ctx->profile);
  SlAdvisorFinding *finding;

  for (guint r = 0; r < sl_profile_get_n_ranks (ctx->profile); r++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (ctx->profile, r);
      RankSteps steps = { rank };
      double mean;

      if (rank->steps == NULL || (cluster && !is_cluster_rank (rank)))
        continue;
      sl_step_breakdown_compute (rank->steps, &steps.breakdown);
      if (steps.breakdown.step_ns <= 0)
        continue;
      mean = (double)steps.breakdown.step_ns;
      g_array_append_val (ranks, steps);
      g_array_append_val (means, mean);
    }
  if (!sl_spread_compute ((const double *)(gpointer)means->data, means->len, &spread))
    {
      g_autofree char *reason = g_strdup_printf (_("Comparing ranks needs the step times of two ranks or more; the profile has %u"),
                                                 ranks->len);

      sl_advisor_not_run (ctx, reason, NULL);
      return;
    }
  if (spread.percent <= max_spread)
    return;

  slow = &g_array_index (ranks, RankSteps, spread.max_index);
  fast = &g_array_index (ranks, RankSteps, spread.min_index);
  gap = slow->breakdown.step_ns - fast->breakdown.step_ns;
  for (guint p = 0; p < G_N_ELEMENTS (slow_rank_phases); p++)
    {
      SlStepPhase phase = slow_rank_phases[p];
      gint64 phase_gap = slow->breakdown.phases[phase] - fast->breakdown.phases[phase];

      if (phase_gap > worst_gap)
        {
          worst_gap = phase_gap;
          worst_phase = phase;
        }
    }

  sl_advisor_values_set (values, "spread", sl_advisor_format_percent (spread.percent));
  sl_advisor_values_set (values, "threshold", sl_advisor_format_percent (max_spread));
  sl_advisor_values_set (values, "mean", sl_advisor_format_time ((gint64)spread.mean));
  sl_advisor_values_set (values, "slowest", sl_advisor_format_time (slow->breakdown.step_ns));
  sl_advisor_values_set (values, "top", g_strdup (slow->rank->label));
  sl_advisor_values_set (values, "phase", g_strdup (sl_step_phase_to_label (worst_phase, slow->breakdown.overlap)));

  finding = sl_advisor_finding_new (ctx->rule, slow->rank->label);
  for (guint i = 0; i < ranks->len; i++)
    {
      const RankSteps *steps = &g_array_index (ranks, RankSteps, i);
      g_autofree char *time = sl_advisor_format_time (steps->breakdown.step_ns);
      /* Translators: a rank's mean step time */
      g_autofree char *value = g_strdup_printf (_("mean step %s"), time);

      sl_advisor_finding_add_evidence (finding, steps->rank->label, value, sl_step_trace_get_path (steps->rank->steps),
                                       sl_step_trace_get_line (steps->rank->steps, 0), -1);
    }
  sl_advisor_finding_set_jump (finding, NULL, -1, -1, NULL);
  ctx->step_ns = slow->breakdown.step_ns;
  sl_advisor_finding_end (ctx, finding, gap, gap, values);
  g_object_unref (finding);
}

static const SlAdvisorRule rules[] = {
  { "aicpu-ops", rule_aicpu_ops, TRUE },
  { "aicpu-double", rule_aicpu_double, TRUE },
  { "cast-transdata", rule_cast_transdata, TRUE },
  { "block-dim", rule_block_dim, TRUE },
  { "no-bound", rule_no_bound, TRUE },
  { "unit-bound", rule_unit_bound, TRUE },
  { "vector-throughput", rule_vector_throughput, TRUE },
  { "aicore-vs-task", rule_aicore_vs_task, TRUE },
  { "data-wait", rule_data_wait, TRUE },
  { "free-time", rule_free_time, TRUE },
  { "dynamic-shape", rule_dynamic_shape, TRUE },
  { "environment", rule_environment, TRUE },
  { "memory-ops", rule_memory_ops, TRUE },
  /* sl-advisor-trace-rules.c */
  { "task-wait", sl_advisor_rule_task_wait, TRUE },
  { "gc", sl_advisor_rule_gc, TRUE },
  { "conjectured-gc", sl_advisor_rule_conjectured_gc, TRUE },
  { "syncbatchnorm", sl_advisor_rule_syncbatchnorm, TRUE },
  { "synchronize-stream", sl_advisor_rule_synchronize_stream, TRUE },
  { "dataloader", sl_advisor_rule_dataloader, TRUE },
  { "fusible-ops", sl_advisor_rule_fusible_ops, TRUE },
  { "slow-rank", rule_slow_rank, FALSE },
  { "slow-link", sl_advisor_rule_slow_link, TRUE },
  { "packet-size", sl_advisor_rule_packet_size, TRUE },
};

const SlAdvisorRule *
sl_advisor_rules_lookup (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (g_str_equal (rules[i].id, id))
      return &rules[i];
  return NULL;
}
