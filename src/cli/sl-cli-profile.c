/* sl-cli-profile.c: `sightline-cli profile PATH [--json]`
 *
 * Reads the tables of a profiler output folder (MindSpore, msprof, the
 * Ascend PyTorch/MindSpore profilers, their SQLite export) and prints, per
 * rank or device, the steps with the phases their source splits them into
 * (MindSpore's and msprof's data wait, FP+BP and tail; torch_npu's
 * Computing, Communication(Not Overlapped) and Free), the op types and the
 * summary figures. JSON times are integer nanoseconds. Exit status: 0 when
 * the folder was read (damaged rows and values are listed as warnings), 1
 * when PATH is missing or holds no profiler output, or when a file could
 * not be read or its reading stopped at damage (listed as errors, what was
 * read printed), 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include <math.h>

#include "sl-cli.h"
#include "sl-hardware-info.h"
#include "sl-profile-loader.h"
#include "sl-trace.h"

#define TEXT_MAX_STEPS 50
#define TEXT_MAX_TYPES 25

static void
add_time (JsonBuilder *builder,
          const char  *name,
          gint64       value)
{
  json_builder_set_member_name (builder, name);
  if (value == SL_STEP_NO_TIME)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, value);
}

/* A step's columns after its total: the trace's phases, then, for an
 * overlap analysis, its other columns (which are durations too). */
static gboolean
prints_extras (SlStepTrace *trace)
{
  SlStepSource source = sl_step_trace_get_source (trace);

  return source == SL_STEP_SOURCE_ASCEND_PT || source == SL_STEP_SOURCE_CLUSTER;
}

static guint
n_columns (SlStepTrace *trace)
{
  return sl_step_trace_get_n_phases (trace) + (prints_extras (trace) ? sl_step_trace_get_n_extra_columns (trace) : 0);
}

/* Column @c's value in step @index, or its mean when @index < 0. */
static gint64
column_value (SlStepTrace *trace,
              guint        c,
              int          index)
{
  guint n_phases = sl_step_trace_get_n_phases (trace);
  gint64 sum = 0;
  guint n = 0;

  if (c < n_phases)
    return index >= 0 ? sl_step_trace_get_phase (trace, index, c) : sl_step_trace_get_phase_average (trace, c);
  if (index >= 0)
    return sl_step_trace_get_extra (trace, index, c - n_phases);
  for (guint i = 0; i < sl_step_trace_get_n_steps (trace); i++)
    {
      gint64 value = sl_step_trace_get_extra (trace, i, c - n_phases);

      if (value != SL_STEP_NO_TIME)
        {
          sum += value;
          n++;
        }
    }
  return n > 0 ? (gint64)((sum + n / 2) / n) : SL_STEP_NO_TIME;
}

/* "Communication(Not Overlapped and Exclude Receive)" →
 * "communication_not_overlapped_and_exclude_receive" */
static char *
column_key (const char *name)
{
  GString *key = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (key, g_ascii_tolower (*p));
      else if (key->len > 0 && key->str[key->len - 1] != '_')
        g_string_append_c (key, '_');
    }
  while (key->len > 0 && key->str[key->len - 1] == '_')
    g_string_truncate (key, key->len - 1);
  return g_string_free (key, FALSE);
}

static gboolean
is_step_field (const char *key)
{
  return g_str_equal (key, "data_wait") || g_str_equal (key, "fp_bp") || g_str_equal (key, "tail");
}

/* A step's fields; data_wait_ns, fp_bp_ns and tail_ns are null unless the
 * source measures those phases. With @trace, the phases the trace stores
 * itself follow as KEY_ns (computing_ns, communication_not_overlapped_ns,
 * free_ns), then an overlap analysis' other columns (overlapped_ns,
 * stage_ns, bubble_ns, preparing_ns...): step @index's, or their means
 * when @index < 0. */
static void
add_step (JsonBuilder  *builder,
          const SlStep *step,
          SlStepTrace  *trace,
          int           index)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "step");
  json_builder_add_int_value (builder, step->step);
  add_time (builder, "start_ns", step->start_ns);
  add_time (builder, "end_ns", step->end_ns);
  add_time (builder, "fp_ns", step->fp_ns);
  add_time (builder, "bp_ns", step->bp_ns);
  add_time (builder, "total_ns", step->total_ns);
  add_time (builder, "data_wait_ns", step->data_wait_ns);
  add_time (builder, "fp_bp_ns", step->fp_bp_ns);
  add_time (builder, "tail_ns", step->tail_ns);
  for (guint c = 0; trace != NULL && c < n_columns (trace); c++)
    {
      guint n_phases = sl_step_trace_get_n_phases (trace);
      g_autofree char *key = c < n_phases ? g_strdup (sl_step_trace_get_phase_key (trace, c))
                                          : column_key (sl_step_trace_get_extra_name (trace, c - n_phases));
      g_autofree char *name = g_strdup_printf ("%s_ns", key);

      if (is_step_field (key) || *key == '\0')
        continue;
      add_time (builder, name, column_value (trace, c, index));
    }
}

static void
add_steps (JsonBuilder *builder,
           SlStepTrace *trace)
{
  const SlStep *file_average;
  SlStep average;

  json_builder_set_member_name (builder, "steps");
  if (trace == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, sl_step_source_to_string (sl_step_trace_get_source (trace)));
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, sl_step_trace_get_path (trace));
  /* The phases a step stacks up from, bottom first, as the source names them. */
  json_builder_set_member_name (builder, "phases");
  json_builder_begin_array (builder);
  for (guint p = 0; p < sl_step_trace_get_n_phases (trace); p++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "key");
      json_builder_add_string_value (builder, sl_step_trace_get_phase_key (trace, p));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, sl_step_trace_get_phase_name (trace, p));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "extra_columns");
  json_builder_begin_array (builder);
  for (guint c = 0; c < sl_step_trace_get_n_extra_columns (trace); c++)
    json_builder_add_string_value (builder, sl_step_trace_get_extra_name (trace, c));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_step_trace_get_n_steps (trace); i++)
    {
      add_step (builder, sl_step_trace_get_step (trace, i), trace, (int)i);
      json_builder_set_member_name (builder, "extra_ns");
      json_builder_begin_array (builder);
      for (guint c = 0; c < sl_step_trace_get_n_extra_columns (trace); c++)
        {
          gint64 value = sl_step_trace_get_extra (trace, i, c);

          if (value == SL_STEP_NO_TIME)
            json_builder_add_null_value (builder);
          else
            json_builder_add_int_value (builder, value);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  sl_step_trace_compute_average (trace, &average);
  json_builder_set_member_name (builder, "average");
  add_step (builder, &average, trace, -1);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "file_average");
  if ((file_average = sl_step_trace_get_file_average (trace)) != NULL)
    {
      add_step (builder, file_average, NULL, -1);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_end_object (builder);
}

static void
add_rows (JsonBuilder *builder,
          const char  *name,
          GListModel  *rows,
          const char  *share_of)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, sl_op_row_get_name (row));
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, sl_op_row_get_op_type (row));
      json_builder_set_member_name (builder, "core_type");
      json_builder_add_string_value (builder, sl_op_row_get_core_type (row));
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, (gint64)sl_op_row_get_count (row));
      json_builder_set_member_name (builder, "total_ns");
      json_builder_add_int_value (builder, sl_op_row_get_total_ns (row));
      json_builder_set_member_name (builder, "avg_ns");
      json_builder_add_int_value (builder, sl_op_row_get_avg_ns (row));
      json_builder_set_member_name (builder, "min_ns");
      json_builder_add_int_value (builder, sl_op_row_get_min_ns (row));
      json_builder_set_member_name (builder, "max_ns");
      json_builder_add_int_value (builder, sl_op_row_get_max_ns (row));
      json_builder_set_member_name (builder, "ratio");
      json_builder_add_double_value (builder, sl_op_row_get_ratio (row));
      /* what the ratio is a percentage of */
      json_builder_set_member_name (builder, "ratio_share_of");
      json_builder_add_string_value (builder, share_of);
      json_builder_set_member_name (builder, "wait_ns");
      json_builder_add_int_value (builder, sl_op_row_get_wait_ns (row));
      json_builder_set_member_name (builder, "aicore_ns");
      json_builder_add_int_value (builder, sl_op_row_get_aicore_ns (row));
      json_builder_set_member_name (builder, "block_dim");
      json_builder_add_int_value (builder, sl_op_row_get_block_dim (row));
      json_builder_set_member_name (builder, "stream_id");
      json_builder_add_int_value (builder, sl_op_row_get_stream_id (row));
      json_builder_set_member_name (builder, "input_shapes");
      json_builder_add_string_value (builder, sl_op_row_get_input_shapes (row));
      json_builder_set_member_name (builder, "input_dtypes");
      json_builder_add_string_value (builder, sl_op_row_get_input_dtypes (row));
      json_builder_set_member_name (builder, "input_formats");
      json_builder_add_string_value (builder, sl_op_row_get_input_formats (row));
      json_builder_set_member_name (builder, "output_shapes");
      json_builder_add_string_value (builder, sl_op_row_get_output_shapes (row));
      json_builder_set_member_name (builder, "output_dtypes");
      json_builder_add_string_value (builder, sl_op_row_get_output_dtypes (row));
      json_builder_set_member_name (builder, "output_formats");
      json_builder_add_string_value (builder, sl_op_row_get_output_formats (row));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* The host API statistics as the tools show them: per level and name,
 * times in microseconds. */
static void
add_apis (JsonBuilder *builder,
          SlOpTable   *apis)
{
  GListModel *rows = sl_op_table_get_types (apis);

  json_builder_set_member_name (builder, "apis");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "level", sl_op_row_get_core_type (row) != NULL ? sl_op_row_get_core_type (row) : "");
      sl_cli_json_add_string (builder, "name", sl_op_row_get_op_type (row));
      sl_cli_json_add_int (builder, "count", (gint64)MIN (sl_op_row_get_count (row), (guint64)G_MAXINT64));
      sl_cli_json_add_us (builder, "total_us", sl_op_row_get_total_ns (row));
      sl_cli_json_add_us (builder, "avg_us", sl_op_row_get_avg_ns (row));
      sl_cli_json_add_us (builder, "min_us", sl_op_row_get_min_ns (row));
      sl_cli_json_add_us (builder, "max_us", sl_op_row_get_max_ns (row));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_summary (JsonBuilder            *builder,
             const SlProfileSummary *summary)
{
  json_builder_set_member_name (builder, "summary");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "total_ns");
  json_builder_add_int_value (builder, summary->total_ns);
  json_builder_set_member_name (builder, "op_executions");
  json_builder_add_int_value (builder, (gint64)summary->n_op_executions);
  json_builder_set_member_name (builder, "op_types");
  json_builder_add_int_value (builder, summary->n_op_types);
  json_builder_set_member_name (builder, "op_instances");
  json_builder_add_int_value (builder, summary->n_op_instances);
  json_builder_set_member_name (builder, "streams");
  json_builder_add_int_value (builder, summary->n_streams);
  json_builder_set_member_name (builder, "task_ns");
  json_builder_add_int_value (builder, summary->task_ns);
  /* One definition, the Advisor's (sl_profile_core_time_definition):
   * the cores' busy time and the task duration of the same ops. */
  json_builder_set_member_name (builder, "ai_core_time_ns");
  json_builder_add_int_value (builder, summary->core_busy_ns);
  json_builder_set_member_name (builder, "ai_core_ops_task_ns");
  json_builder_add_int_value (builder, summary->core_task_ns);
  json_builder_set_member_name (builder, "ai_core_time_percent_of_task");
  if (summary->core_busy_ns >= 0 && summary->core_task_ns > 0)
    json_builder_add_double_value (builder, 100.0 * summary->core_busy_ns / summary->core_task_ns);
  else
    json_builder_add_null_value (builder);
  /* Without measured core times: the AI_CORE ops' task time. */
  json_builder_set_member_name (builder, "aicore_type_ops_task_ns");
  json_builder_add_int_value (builder, summary->aicore_ops_ns);
  json_builder_end_object (builder);
}

static void
add_trace (JsonBuilder *builder,
           GObject     *object)
{
  SlTrace *trace = (SlTrace *)object;
  guint64 n_slices = 0;

  json_builder_set_member_name (builder, "trace");
  if (trace == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *slices = sl_trace_get_slices (trace, t);

      if (slices != NULL)
        n_slices += slices->n_slices;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "processes");
  json_builder_add_int_value (builder, sl_trace_get_n_processes (trace));
  json_builder_set_member_name (builder, "tracks");
  json_builder_add_int_value (builder, sl_trace_get_n_tracks (trace));
  json_builder_set_member_name (builder, "slices");
  json_builder_add_int_value (builder, (gint64)n_slices);
  /* null where nothing was read with a time: 0 would be a time */
  sl_cli_json_add_known_int (builder, "start_ns", sl_trace_has_times (trace), sl_trace_get_start_ns (trace));
  sl_cli_json_add_known_int (builder, "end_ns", sl_trace_has_times (trace), sl_trace_get_end_ns (trace));
  json_builder_end_object (builder);
}

/* A number of the communication model, null when unknown. */
static void
add_real (JsonBuilder *builder,
          const char  *name,
          double       value)
{
  json_builder_set_member_name (builder, name);
  if (isnan (value) || isinf (value))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}

static void
add_count_or_null (JsonBuilder *builder,
                   const char  *name,
                   gint64       value)
{
  json_builder_set_member_name (builder, name);
  if (value < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, value);
}

static void
add_comm_op (JsonBuilder    *builder,
             const SlCommOp *op)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "step", op->step);
  sl_cli_json_add_string (builder, "group", op->group);
  sl_cli_json_add_string (builder, "name", op->name);
  json_builder_set_member_name (builder, "total");
  json_builder_add_boolean_value (builder, sl_communication_is_total_name (op->name));
  add_real (builder, "start_us", op->start_us);
  add_real (builder, "elapse_us", op->elapse_ms * 1000);
  add_real (builder, "transit_us", op->transit_ms * 1000);
  add_real (builder, "wait_us", op->wait_ms * 1000);
  add_real (builder, "synchronization_us", op->sync_ms * 1000);
  add_real (builder, "idle_us", op->idle_ms * 1000);
  add_real (builder, "wait_ratio", sl_comm_op_get_wait_ratio (op));
  add_real (builder, "synchronization_ratio", sl_comm_op_get_sync_ratio (op));
  json_builder_set_member_name (builder, "bandwidths");
  json_builder_begin_array (builder);
  for (guint b = 0; b < op->bandwidths->len; b++)
    {
      const SlCommBandwidth *bandwidth = g_ptr_array_index (op->bandwidths, b);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "transport", bandwidth->transport);
      add_real (builder, "size_mb", bandwidth->size_mb);
      add_real (builder, "time_us", bandwidth->time_ms * 1000);
      add_real (builder, "bandwidth_gbps", bandwidth->bandwidth_gbps);
      add_real (builder, "large_packet_ratio", bandwidth->large_packet_ratio);
      json_builder_set_member_name (builder, "packets");
      json_builder_begin_array (builder);
      for (guint p = 0; p < bandwidth->packets->len; p++)
        {
          const SlCommPackets *packets = &g_array_index (bandwidth->packets, SlCommPackets, p);

          json_builder_begin_object (builder);
          add_real (builder, "size_mb", packets->size_mb);
          add_real (builder, "count", packets->count);
          add_real (builder, "time_us", packets->time_ms * 1000);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* The rank's own ops; a cluster file's records of other ranks are theirs. */
static void
add_communication (JsonBuilder         *builder,
                   const SlProfileRank *rank)
{
  json_builder_set_member_name (builder, "communication");
  json_builder_begin_array (builder);
  for (guint i = 0; rank->communication != NULL && i < sl_communication_get_n_ops (rank->communication); i++)
    {
      const SlCommOp *op = sl_communication_get_op (rank->communication, i);

      if (sl_comm_op_is_for_rank (op, rank->rank_id))
        add_comm_op (builder, op);
    }
  json_builder_end_array (builder);
}

static void
add_hardware (JsonBuilder         *builder,
              const SlProfileRank *rank)
{
  g_autoptr(SlHardwareInfo) info = sl_hardware_info_new_for_rank (rank);

  json_builder_set_member_name (builder, "hardware");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "host");
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "name", info->host_name);
  sl_cli_json_add_string (builder, "os", info->os);
  sl_cli_json_add_string (builder, "cpu", info->cpu);
  add_count_or_null (builder, "logical_cores", info->logical_cores);
  add_count_or_null (builder, "memory", info->memory_bytes);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "devices");
  json_builder_begin_array (builder);
  for (guint i = 0; i < info->devices->len; i++)
    {
      const SlHardwareDevice *device = g_ptr_array_index (info->devices, i);

      json_builder_begin_object (builder);
      add_count_or_null (builder, "id", device->id);
      sl_cli_json_add_string (builder, "chip", device->chip);
      add_count_or_null (builder, "ai_core_num", device->ai_core_num);
      add_count_or_null (builder, "ai_cpu_num", device->ai_cpu_num);
      add_count_or_null (builder, "aiv_num", device->aiv_num);
      add_count_or_null (builder, "ctrl_cpu_num", device->ctrl_cpu_num);
      sl_cli_json_add_string (builder, "ctrl_cpu_type", device->ctrl_cpu_type);
      add_count_or_null (builder, "ts_cpu_num", device->ts_cpu_num);
      add_count_or_null (builder, "aic_frequency_mhz", device->aic_frequency_mhz);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "versions");
  json_builder_begin_object (builder);
  sl_cli_json_add_string (builder, "cann", info->cann_version);
  sl_cli_json_add_string (builder, "driver", info->driver_version);
  sl_cli_json_add_string (builder, "framework", info->framework);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

static void
add_rank (JsonBuilder         *builder,
          const SlProfileRank *rank)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, rank->label);
  json_builder_set_member_name (builder, "layout");
  json_builder_add_string_value (builder, sl_profile_layout_to_string (rank->layout));
  json_builder_set_member_name (builder, "dir");
  json_builder_add_string_value (builder, rank->dir);
  json_builder_set_member_name (builder, "rank_id");
  json_builder_add_int_value (builder, rank->rank_id);
  json_builder_set_member_name (builder, "device_id");
  json_builder_add_int_value (builder, rank->device_id);

  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; i < rank->files->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (rank->files, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "info");
  json_builder_begin_object (builder);
  for (guint i = 0; i < rank->info_keys->len; i++)
    {
      const char *key = g_ptr_array_index (rank->info_keys, i);

      json_builder_set_member_name (builder, key);
      json_builder_add_string_value (builder, g_hash_table_lookup (rank->info, key));
    }
  json_builder_end_object (builder);

  add_steps (builder, rank->steps);
  add_rows (builder, "op_types", sl_op_table_get_types (rank->ops),
            sl_op_share_basis_to_string (sl_op_table_get_type_share_basis (rank->ops)));
  add_rows (builder, "op_instances", sl_op_table_get_instances (rank->ops), sl_op_share_basis_to_string (SL_OP_SHARE_OF_TABLE));
  add_rows (builder, "api_types", sl_op_table_get_types (rank->apis),
            sl_op_share_basis_to_string (sl_op_table_get_type_share_basis (rank->apis)));
  add_apis (builder, rank->apis);

  json_builder_set_member_name (builder, "counters");
  json_builder_begin_array (builder);
  for (guint i = 0; i < rank->counters->len; i++)
    {
      const SlProfileCounter *counter = g_ptr_array_index (rank->counters, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, counter->name);
      json_builder_set_member_name (builder, "unit");
      json_builder_add_string_value (builder, counter->unit);
      json_builder_set_member_name (builder, "points");
      json_builder_add_int_value (builder, counter->ts_ns->len);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  sl_cli_profile_add_memory (builder, rank->memory);
  add_trace (builder, rank->trace);
  add_summary (builder, &rank->summary);
  add_communication (builder, rank);
  add_hardware (builder, rank);
  json_builder_end_object (builder);
}

static char *
profile_to_json (SlProfile *profile)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  GListModel *problems = sl_profile_get_problems (profile);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, sl_profile_get_path (profile));
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    add_rank (builder, sl_profile_get_rank (profile, i));
  json_builder_end_array (builder);

  sl_cli_json_add_problem_list (builder, problems, 0);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

/* Milliseconds with three decimals, or "-" when unknown. */
static char *
format_ms (gint64 ns)
{
  if (ns == SL_STEP_NO_TIME || ns < 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.3f", ns / 1e6);
}

/* Right-aligned in @width characters. */
static void
print_cell (const char *text,
            guint       width)
{
  glong length = g_utf8_strlen (text, -1);

  printf (" %*s%s", (int)(width > length ? width - length : 0), "", text);
}

static char *
column_heading (SlStepTrace *trace,
                guint        c)
{
  guint n_phases = sl_step_trace_get_n_phases (trace);
  const char *name = c < n_phases ? sl_step_trace_get_phase_label (trace, c)
                                  : sl_step_trace_get_extra_name (trace, c - n_phases);

  /* Translators: a column heading: a phase of a step, named as the profiler names it */
  return g_strdup_printf (_("%s (ms)"), name);
}

static void
print_step_row (SlStepTrace  *trace,
                const char   *label,
                const SlStep *step,
                int           index,
                const guint  *widths)
{
  g_autofree char *total = format_ms (step->total_ns);
  glong length = g_utf8_strlen (label, -1);

  printf ("    %s%*s", label, (int)(length < 10 ? 10 - length : 0), "");
  print_cell (total, 14);
  for (guint c = 0; c < n_columns (trace); c++)
    {
      g_autofree char *value = format_ms (column_value (trace, c, index));

      print_cell (value, widths[c]);
    }
  printf ("\n");
}

static void
print_steps (SlStepTrace *trace)
{
  guint n = sl_step_trace_get_n_steps (trace);
  g_autofree guint *widths = g_new0 (guint, n_columns (trace) + 1);
  const char *step_heading = _("Step");
  glong length = g_utf8_strlen (step_heading, -1);
  SlStep average;

  /* Translators: a heading, then the number of steps */
  printf (_("  Steps: %u\n"), n);
  printf ("    %s%*s", step_heading, (int)(length < 10 ? 10 - length : 0), "");
  print_cell (_("Total (ms)"), 14);
  for (guint c = 0; c < n_columns (trace); c++)
    {
      g_autofree char *heading = column_heading (trace, c);

      widths[c] = MAX (14, g_utf8_strlen (heading, -1));
      print_cell (heading, widths[c]);
    }
  printf ("\n");
  for (guint i = 0; i < n && i < TEXT_MAX_STEPS; i++)
    {
      const SlStep *step = sl_step_trace_get_step (trace, i);
      g_autofree char *label = g_strdup_printf ("%lld", (long long)step->step);

      print_step_row (trace, label, step, (int)i, widths);
    }
  if (n > TEXT_MAX_STEPS)
    printf (g_dngettext (GETTEXT_PACKAGE, "    … %u more step (all of them with --json)\n",
                         "    … %u more steps (all of them with --json)\n", n - TEXT_MAX_STEPS),
            n - TEXT_MAX_STEPS);

  sl_step_trace_compute_average (trace, &average);
  print_step_row (trace, _("average"), &average, -1, widths);
}

static void
print_types (SlOpTable *ops)
{
  GListModel *types = sl_op_table_get_types (ops);
  guint n = g_list_model_get_n_items (types);

  /* Translators: a heading, then the number of op types */
  printf (_("  Op types: %u\n"), n);
  if (n == 0)
    return;
  printf ("    %-32s %-15s %9s %13s %11s %11s %11s %8s\n", _("Type"), _("Core"), _("Count"), _("Total (ms)"),
          _("Avg (µs)"), _("Min (µs)"), _("Max (µs)"), _("Share %"));
  for (guint i = 0; i < n && i < TEXT_MAX_TYPES; i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (types, i);
      gint64 min = sl_op_row_get_min_ns (row), max = sl_op_row_get_max_ns (row);
      g_autofree char *min_text = min >= 0 ? g_strdup_printf ("%.3f", min / 1e3) : g_strdup ("-");
      g_autofree char *max_text = max >= 0 ? g_strdup_printf ("%.3f", max / 1e3) : g_strdup ("-");

      printf ("    %-32s %-15s %9llu %13.3f %11.3f %11s %11s %8.2f\n",
              sl_op_row_get_name (row), sl_op_row_get_core_type (row),
              (unsigned long long)sl_op_row_get_count (row), sl_op_row_get_total_ns (row) / 1e6,
              MAX (sl_op_row_get_avg_ns (row), 0) / 1e3, min_text, max_text, sl_op_row_get_ratio (row));
    }
  if (n > TEXT_MAX_TYPES)
    printf (_("    … %u more types (all of them with --json)\n"), n - TEXT_MAX_TYPES);
  /* Translators: what the Share % column is a share of, then its description */
  printf (_("    Share %%: %s — %s\n"), sl_op_share_basis_title (sl_op_table_get_type_share_basis (ops)),
          sl_op_share_basis_description (sl_op_table_get_type_share_basis (ops)));
}

static void
print_summary (const SlProfileSummary *summary)
{
  g_autofree char *total = format_ms (summary->total_ns);
  g_autofree char *task = format_ms (summary->task_ns);
  g_autofree char *aicore = format_ms (summary->core_busy_ns);
  g_autofree char *aicore_ops = format_ms (summary->aicore_ops_ns);

  printf ("  %s\n", _("Summary:"));
  printf ("    %-24s %s\n", _("Total time (ms)"), total);
  printf ("    %-24s %llu\n", _("Op executions"), (unsigned long long)summary->n_op_executions);
  printf ("    %-24s %u\n", _("Op types"), summary->n_op_types);
  printf ("    %-24s %u\n", _("Streams"), summary->n_streams);
  printf ("    %-24s %s\n", _("Task duration (ms)"), task);
  if (summary->core_busy_ns >= 0 && summary->core_task_ns > 0)
    /* Translators: the AI Core time in ms, then its share of the same ops' task duration */
    printf ("    %-24s %s (%.1f %%)\n", _("AI Core time (ms)"), aicore, 100.0 * summary->core_busy_ns / summary->core_task_ns);
  else if (summary->core_busy_ns >= 0)
    printf ("    %-24s %s\n", _("AI Core time (ms)"), aicore);
  else if (summary->aicore_ops_ns >= 0)
    printf ("    %-24s %s\n", _("AI Core ops' task time (ms)"), aicore_ops);
  else
    printf ("    %-24s %s\n", _("AI Core time (ms)"), aicore);
  if (summary->core_busy_ns >= 0)
    printf ("      %s\n      %s\n", sl_profile_core_time_definition (), sl_profile_core_share_definition ());
  else if (summary->aicore_ops_ns >= 0)
    printf ("      %s\n", sl_profile_aicore_ops_definition ());
}

static gboolean
has_error (SlProfile *profile)
{
  GListModel *problems = sl_profile_get_problems (profile);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        return TRUE;
    }
  return FALSE;
}

static void
print_text (SlProfile *profile)
{
  GListModel *problems = sl_profile_get_problems (profile);

  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, r);

      printf ("%s [%s] %s\n", rank->label, sl_profile_layout_to_string (rank->layout), rank->dir);
      if (rank->steps != NULL)
        print_steps (rank->steps);
      print_types (rank->ops);
      print_summary (&rank->summary);
      sl_cli_profile_print_memory (rank->memory);
      printf ("\n");
    }

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);

      fprintf (stderr, "%s: %s%s%s: %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
               sl_problem_get_path (problem), location != NULL ? ", " : "", location != NULL ? location : "",
               sl_problem_get_message (problem));
    }
}

int
sl_cli_profile (int    argc,
                char **argv)
{
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  const char *path = NULL;

  if (!sl_cli_parse_path_options (&argc, &argv, "profile",
                                  _("PATH — print the steps, op types and summary of profiler output"),
                                  &json, &path))
    return 2;

  profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *text = profile_to_json (profile);
      printf ("%s\n", text);
    }
  else
    {
      print_text (profile);
    }

  return has_error (profile) ? 1 : 0;
}
