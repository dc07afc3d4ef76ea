/* sl-profile-op-tables.c
 *
 * Units: MindSpore's op tables are in ms; msprof's and torch_npu's in µs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-profile-op-counters.h"
#include "sl-profile-op-tables.h"

#define REQUIRED SL_PROFILE_COLUMN_REQUIRED
#define EXACT    SL_PROFILE_COLUMN_EXACT
#define KEY      SL_PROFILE_COLUMN_KEY
#define VALUE    SL_PROFILE_COLUMN_VALUE
#define MS       SL_PROFILE_UNIT_MS
#define US       SL_PROFILE_UNIT_US

#define TABLE(kind_, files_, columns_) \
  .kind = SL_PROFILE_FILE_##kind_, .files = (files_), .columns = (columns_), .n_columns = G_N_ELEMENTS (columns_)

/* "Default/net/fc3-Dense/MatMul-op9" → "MatMul" */
static char *
type_from_name (const char *name)
{
  const char *base = strrchr (name, '/');
  const char *op;

  base = base != NULL ? base + 1 : name;
  op = strstr (base, "-op");
  return op != NULL ? g_strndup (base, op - base) : g_strdup (base);
}

/* Counts one execution into @op and remembers where its first and its
 * longest execution are in the file. */
static void
note_execution (SlOpRow           *op,
                SlProfileTableRow *row,
                gint64             duration_ns)
{
  gint64 previous_max = sl_op_row_get_count (op) > 0 ? sl_op_row_get_max_ns (op) : -1;
  guint line = sl_profile_table_row_line (row);

  sl_op_row_add_execution (op, duration_ns, -1, -1);
  if (sl_op_row_get_source_path (op) == NULL)
    sl_op_row_set_source (op, row->path, line);
  if (duration_ns > previous_max)
    sl_op_row_set_longest_line (op, line);
}

static void
set_row_text (SlOpRow     *row,
              SlOpRowText  which,
              const char  *text)
{
  g_autofree char *clean = sl_profile_clean_text (text);

  if (clean != NULL && clean[0] != '\0')
    sl_op_row_set_text (row, which, clean);
}

/* ------------------------------------------------------------------ */
/* aicore_intermediate_<id>_type.csv: ms totals, percent already in %. */

enum { AT_TYPE, AT_TOTAL, AT_COUNT, AT_PERCENT };

static const SlProfileColumn ms_aicore_type_columns[] = {
  [AT_TYPE] = { .aliases = "kernel_type|op_type", .required = "kernel_type|op_type", .flags = REQUIRED | KEY },
  [AT_TOTAL] = { .aliases = "total_time|execution_time", .name = "total_time",
                 .required = "total_time|execution_time", .unit = MS, .flags = REQUIRED | VALUE },
  [AT_COUNT] = { .aliases = "execution_frequency" },
  [AT_PERCENT] = { .aliases = "percent" },
};

static void
ms_aicore_type_row (SlProfileTableRow *r)
{
  gint64 total_ns = r->value;
  gint64 count = sl_profile_table_row_int (r, AT_COUNT, 0);
  double percent;
  SlOpRow *row;

  row = sl_op_table_add_type (r->rank->ops, sl_profile_table_row_text (r, AT_TYPE), "AI_CORE");
  if (sl_op_row_get_source_path (row) == NULL)
    sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
  sl_op_row_set_totals (row, sl_op_row_get_count (row) + (guint64)MAX (count, 0),
                        sl_op_row_get_total_ns (row) + total_ns, -1, -1);
  if (sl_profile_table_row_double (r, AT_PERCENT, &percent))
    {
      sl_op_row_set_ratio (row, percent);
      sl_op_table_set_type_share_basis (r->rank->ops, SL_OP_SHARE_OF_AICORE);
    }
}

const SlProfileTableSpec sl_profile_ms_aicore_type_table = {
  TABLE (MS_AICORE_TYPE, "aicore_intermediate_<id>_type.csv", ms_aicore_type_columns),
  .row = ms_aicore_type_row,
};

/* ------------------------------------------------------------------ */
/* aicore_intermediate_<id>_detail.csv: execution_time is the average per
 * execution in ms (MindInsight shows it as "avg execution time"), so the
 * total is average × execution_frequency; older files have no frequency,
 * meaning one execution. */

enum { AD_NAME, AD_TIME, AD_COUNT };

static const SlProfileColumn ms_aicore_detail_columns[] = {
  /* "full_kernel_time" is a header real MindSpore versions wrote. */
  [AD_NAME] = { .aliases = "full_kernel_name|full_op_name|full_kernel_time|op_name",
                .required = "full_kernel_name|full_op_name", .flags = REQUIRED | KEY },
  [AD_TIME] = { .aliases = "execution_time|avg_execution_time", .name = "execution_time",
                .required = "execution_time", .unit = MS, .flags = REQUIRED | VALUE },
  [AD_COUNT] = { .aliases = "execution_frequency" },
};

static void
ms_aicore_detail_row (SlProfileTableRow *r)
{
  const char *name = sl_profile_table_row_text (r, AD_NAME);
  g_autofree char *type = NULL;
  gint64 avg_ns = r->value, count;
  SlOpRow *row;

  count = sl_profile_table_row_has (r, AD_COUNT) ? sl_profile_table_row_int (r, AD_COUNT, 1) : 1;
  count = MAX (count, 1);

  type = type_from_name (name);
  row = sl_op_table_add_instance (r->rank->ops, name, type);
  if (sl_op_row_get_source_path (row) == NULL)
    sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
  sl_op_row_set_totals (row, sl_op_row_get_count (row) + count, sl_op_row_get_total_ns (row) + avg_ns * count,
                        avg_ns, avg_ns);
}

const SlProfileTableSpec sl_profile_ms_aicore_detail_table = {
  TABLE (MS_AICORE_DETAIL, "aicore_intermediate_<id>_detail.csv", ms_aicore_detail_columns),
  .row = ms_aicore_detail_row,
};

/* ------------------------------------------------------------------ */
/* aicpu_intermediate_<id>.csv: one row per execution, times in ms. */

enum { AC_TYPE, AC_TOTAL };

static const SlProfileColumn ms_aicpu_columns[] = {
  [AC_TYPE] = { .aliases = "kernel_type|op_type|op_name", .required = "kernel_type", .flags = REQUIRED | KEY },
  [AC_TOTAL] = { .aliases = "total_time|total_cost", .name = "total_time", .required = "total_time",
                 .unit = MS, .flags = REQUIRED | VALUE },
};

static void
ms_aicpu_row (SlProfileTableRow *r)
{
  const char *type = sl_profile_table_row_text (r, AC_TYPE);

  /* Type statistics from the AI Core file stop the table from
   * summing types itself, so AI CPU types are added here. */
  sl_op_row_add_execution (sl_op_table_add_type (r->rank->ops, type, "AI_CPU"), r->value, -1, -1);
  note_execution (sl_op_table_add_instance (r->rank->ops, type, type), r, r->value);
}

const SlProfileTableSpec sl_profile_ms_aicpu_table = {
  TABLE (MS_AICPU, "aicpu_intermediate_<id>.csv", ms_aicpu_columns),
  .row = ms_aicpu_row,
};

/* ------------------------------------------------------------------ */
/* framework_raw_<id>.csv: op type, block dim, stream and op_info shapes
 * for the instances the detail file listed. */

enum { FW_NAME, FW_TYPE, FW_BLOCK, FW_STREAM, FW_INFO };

static const SlProfileColumn ms_framework_columns[] = {
  [FW_NAME] = { .aliases = "full_kernel_name|full_op_name", .required = "full_kernel_name|full_op_name",
                .flags = REQUIRED },
  [FW_TYPE] = { .aliases = "kernel_type|op_type" },
  [FW_BLOCK] = { .aliases = "block_dim" },
  [FW_STREAM] = { .aliases = "stream_id" },
  [FW_INFO] = { .aliases = "op_info" },
};

/* Joins "input_0".."input_N" of op_info into "a;b;c" per attribute. */
static void
apply_op_info (SlOpRow    *row,
               const char *json)
{
  static const char *attributes[3] = { "shape", "data_type", "format" };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;

  /* An empty cell parses, to no root at all. */
  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;

  object = json_node_get_object (json_parser_get_root (parser));
  for (guint side = 0; side < 2; side++)
    {
      const char *prefix = side == 0 ? "input_" : "output_";

      for (guint a = 0; a < 3; a++)
        {
          g_autoptr(GString) text = g_string_new (NULL);

          for (guint i = 0; i < 256; i++)
            {
              g_autofree char *key = g_strdup_printf ("%s%u", prefix, i);
              JsonNode *member = json_object_get_member (object, key);
              JsonObject *io;
              JsonNode *value;

              if (member == NULL || !JSON_NODE_HOLDS_OBJECT (member))
                break;
              io = json_node_get_object (member);
              value = json_object_get_member (io, attributes[a]);
              if (i > 0)
                g_string_append_c (text, ';');
              if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
                g_string_append (text, json_node_get_string (value));
            }
          sl_op_row_set_text (row, side * 3 + a, text->str);
        }
    }
}

static void
ms_framework_row (SlProfileTableRow *r)
{
  const char *name = sl_profile_table_row_text (r, FW_NAME);
  const char *type = sl_profile_table_row_text (r, FW_TYPE);
  SlOpRow *row;

  if (name == NULL || (row = sl_op_table_lookup_instance (r->rank->ops, name)) == NULL)
    return;

  if (type != NULL && type[0] != '\0')
    sl_op_row_set_op_type (row, type);
  sl_op_row_set_block_dim (row, sl_profile_table_row_int (r, FW_BLOCK, -1));
  sl_op_row_set_stream_id (row, sl_profile_table_row_int (r, FW_STREAM, -1));
  apply_op_info (row, sl_profile_table_row_text (r, FW_INFO));
}

const SlProfileTableSpec sl_profile_ms_framework_table = {
  TABLE (MS_FRAMEWORK, "framework_raw_<id>.csv", ms_framework_columns),
  .row = ms_framework_row,
};

/* ------------------------------------------------------------------ */
/* flops_<id>.txt: per op, either "FLOPs, FLOPS, FLOPS utilization" (older
 * MindSpore) or cube and vector units apart ("MFLOPs(10^6 cube), GFLOPS(10^9
 * cube), MFLOPs(10^6 vector), GFLOPS(10^9 vector)"); fields are padded
 * with a space. Counts are in millions, rates in billions per second. */

enum { FL_NAME, FL_FLOPS, FL_RATE, FL_CUBE, FL_CUBE_RATE, FL_VECTOR, FL_VECTOR_RATE };

static const SlProfileColumn ms_flops_columns[] = {
  [FL_NAME] = { .aliases = "full_kernel_name|full_op_name|op_full_name", .required = "full_kernel_name",
                .flags = REQUIRED },
  /* "FLOPs" and "FLOPS" differ only in case, which column lookup ignores. */
  [FL_FLOPS] = { .aliases = "FLOPs", .flags = EXACT },
  [FL_RATE] = { .aliases = "FLOPS", .flags = EXACT },
  [FL_CUBE] = { .aliases = "MFLOPs(10^6 cube)" },
  [FL_CUBE_RATE] = { .aliases = "GFLOPS(10^9 cube)" },
  [FL_VECTOR] = { .aliases = "MFLOPs(10^6 vector)" },
  [FL_VECTOR_RATE] = { .aliases = "GFLOPS(10^9 vector)" },
};

static double
blank_double (SlProfileTableRow *r,
              guint              column)
{
  double value;

  return sl_profile_table_row_double (r, column, &value) ? value : -1;
}

static void
ms_flops_row (SlProfileTableRow *r)
{
  const char *field = sl_profile_table_row_text (r, FL_NAME);
  g_autofree char *name = g_strstrip (g_strdup (field ? field : ""));
  double mflops, rate;
  SlOpRow *row;

  if ((row = sl_op_table_lookup_instance (r->rank->ops, name)) == NULL)
    return;

  if (sl_profile_table_row_has (r, FL_CUBE) || sl_profile_table_row_has (r, FL_VECTOR))
    {
      mflops = MAX (blank_double (r, FL_CUBE), 0) +
               MAX (blank_double (r, FL_VECTOR), 0);
      rate = MAX (blank_double (r, FL_CUBE_RATE), 0) +
             MAX (blank_double (r, FL_VECTOR_RATE), 0);
    }
  else
    {
      mflops = blank_double (r, FL_FLOPS);
      rate = blank_double (r, FL_RATE);
    }
  sl_op_row_set_flops (row, mflops, rate);
}

const SlProfileTableSpec sl_profile_ms_flops_table = {
  TABLE (MS_FLOPS, "flops_<id>.txt", ms_flops_columns),
  .row = ms_flops_row,
};

/* ------------------------------------------------------------------ */
/* op_summary_*.csv (msprof) and kernel_details.csv (torch_npu): one row per
 * task, µs. */

enum {
  OS_NAME, OS_TYPE, OS_CORE, OS_DUR, OS_WAIT, OS_BLOCK, OS_STREAM, OS_AICORE, OS_AIV,
  OS_TEXTS, /* SL_OP_ROW_N_TEXTS columns, in SlOpRowText order */
};

G_STATIC_ASSERT (SL_OP_ROW_N_TEXTS == 7);

static const SlProfileColumn op_summary_columns[] = {
  [OS_NAME] = { .aliases = "Op Name|Name", .required = "Op Name|Name", .flags = REQUIRED | KEY },
  [OS_TYPE] = { .aliases = "OP Type|Type" },
  [OS_CORE] = { .aliases = "Task Type|Accelerator Core" },
  [OS_DUR] = { .aliases = "Task Duration(us)|Duration(us)", .name = "Duration(us)",
               .required = "Task Duration(us)|Duration(us)", .unit = US, .flags = REQUIRED | VALUE },
  [OS_WAIT] = { .aliases = "Task Wait Time(us)|Wait Time(us)", .unit = US },
  [OS_BLOCK] = { .aliases = "Block Dim|Block Num" },
  [OS_STREAM] = { .aliases = "Stream ID" },
  [OS_AICORE] = { .aliases = "aicore_time(us)", .unit = US },
  [OS_AIV] = { .aliases = "aiv_time(us)", .unit = US },
  [OS_TEXTS + SL_OP_ROW_INPUT_SHAPES] = { .aliases = "Input Shapes" },
  [OS_TEXTS + SL_OP_ROW_INPUT_DTYPES] = { .aliases = "Input Data Types" },
  [OS_TEXTS + SL_OP_ROW_INPUT_FORMATS] = { .aliases = "Input Formats" },
  [OS_TEXTS + SL_OP_ROW_OUTPUT_SHAPES] = { .aliases = "Output Shapes" },
  [OS_TEXTS + SL_OP_ROW_OUTPUT_DTYPES] = { .aliases = "Output Data Types" },
  [OS_TEXTS + SL_OP_ROW_OUTPUT_FORMATS] = { .aliases = "Output Formats" },
  [OS_TEXTS + SL_OP_ROW_OP_STATE] = { .aliases = "OP State" },
};

/* The hardware counter columns the file has. */
static gpointer
op_summary_begin (SlProfileTableRow *r)
{
  SlOpCounterColumns *columns = g_new0 (SlOpCounterColumns, 1);

  sl_op_counter_columns_find (columns, r->reader);
  return columns;
}

static void
op_summary_row (SlProfileTableRow *r)
{
  const char *name = sl_profile_table_row_text (r, OS_NAME);
  const char *type = sl_profile_table_row_text (r, OS_TYPE);
  const char *core = sl_profile_table_row_text (r, OS_CORE);
  gint64 dur_ns = r->value, aicore_ns, aiv_ns, previous_max;
  SlOpRow *row;
  gboolean first;

  aicore_ns = sl_profile_table_row_ns (r, OS_AICORE, -1);
  aiv_ns = sl_profile_table_row_ns (r, OS_AIV, -1);
  if (aicore_ns < 0 && aiv_ns >= 0)
    aicore_ns = 0;

  row = sl_op_table_lookup_instance (r->rank->ops, name);
  first = row == NULL;
  previous_max = first ? -1 : sl_op_row_get_max_ns (row);
  row = sl_op_table_add_execution (r->rank->ops, name, type != NULL ? type : "", core != NULL ? core : "",
                                   dur_ns, sl_profile_table_row_ns (r, OS_WAIT, -1),
                                   aicore_ns);
  /* The cores cannot be busy longer than the task lasted: files have
   * rows with an aicore_time of minutes on a 2 µs task. */
  if (aicore_ns >= 0 || aiv_ns >= 0)
    sl_op_row_add_core_busy (row, MIN (MAX (aicore_ns, aiv_ns), dur_ns));
  sl_op_counters_add (row, r->reader, r->state, r->columns + OS_TEXTS, aicore_ns, aiv_ns, dur_ns);
  if (dur_ns > previous_max)
    sl_op_row_set_longest_line (row, sl_profile_table_row_line (r));
  if (first)
    {
      sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
      sl_op_row_set_block_dim (row, sl_profile_table_row_int (r, OS_BLOCK, -1));
      sl_op_row_set_stream_id (row, sl_profile_table_row_int (r, OS_STREAM, -1));
      for (guint i = 0; i < SL_OP_ROW_N_TEXTS; i++)
        set_row_text (row, i, sl_profile_table_row_text (r, OS_TEXTS + i));
    }
}

const SlProfileTableSpec sl_profile_op_summary_table = {
  TABLE (OP_SUMMARY, "op_summary*.csv, kernel_details*.csv", op_summary_columns),
  .begin = op_summary_begin,
  .row = op_summary_row,
  .free_state = g_free,
};

/* ------------------------------------------------------------------ */
/* task_time_*.csv: only when there is no op_summary (less detail). */

enum { TT_NAME, TT_TYPE, TT_STREAM, TT_TIME };

static const SlProfileColumn task_time_columns[] = {
  [TT_NAME] = { .aliases = "kernel_name|Op Name", .required = "kernel_name", .flags = REQUIRED | KEY },
  [TT_TYPE] = { .aliases = "kernel_type|Task Type" },
  [TT_STREAM] = { .aliases = "stream_id|Stream ID" },
  [TT_TIME] = { .aliases = "task_time(us)|Task Time(us)", .name = "task_time(us)", .required = "task_time(us)",
                .unit = US, .flags = REQUIRED | VALUE },
};

static gboolean
task_time_wanted (SlProfileRank *rank)
{
  return sl_op_table_is_empty (rank->ops);
}

static void
task_time_row (SlProfileTableRow *r)
{
  const char *name = sl_profile_table_row_text (r, TT_NAME);
  const char *type = sl_profile_table_row_text (r, TT_TYPE);
  SlOpRow *row;

  row = sl_op_table_add_execution (r->rank->ops, name, type != NULL ? type : "", type != NULL ? type : "",
                                   r->value, -1, -1);
  if (sl_op_row_get_source_path (row) == NULL)
    sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
  sl_op_row_set_stream_id (row, sl_profile_table_row_int (r, TT_STREAM, -1));
}

const SlProfileTableSpec sl_profile_task_time_table = {
  TABLE (TASK_TIME, "task_time*.csv", task_time_columns),
  .wanted = task_time_wanted,
  .row = task_time_row,
};

/* ------------------------------------------------------------------ */
/* op_statistic(_*).csv: the source's own per-type statistics, µs. */

enum { ST_TYPE, ST_CORE, ST_COUNT, ST_TOTAL, ST_MIN, ST_MAX, ST_RATIO };

static const SlProfileColumn op_statistic_columns[] = {
  [ST_TYPE] = { .aliases = "OP Type", .required = "OP Type", .flags = REQUIRED | KEY },
  [ST_CORE] = { .aliases = "Core Type" },
  [ST_COUNT] = { .aliases = "Count" },
  [ST_TOTAL] = { .aliases = "Total Time(us)", .name = "Total Time(us)", .required = "Total Time(us)",
                 .unit = US, .flags = REQUIRED | VALUE },
  [ST_MIN] = { .aliases = "Min Time(us)", .unit = US },
  [ST_MAX] = { .aliases = "Max Time(us)", .unit = US },
  [ST_RATIO] = { .aliases = "Ratio(%)" },
};

static void
op_statistic_row (SlProfileTableRow *r)
{
  double ratio;
  SlOpRow *row;

  row = sl_op_table_add_type (r->rank->ops, sl_profile_table_row_text (r, ST_TYPE),
                              sl_profile_table_row_text (r, ST_CORE));
  sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
  sl_op_row_set_totals (row, (guint64)MAX (sl_profile_table_row_int (r, ST_COUNT, 0), 0), r->value,
                        sl_profile_table_row_ns (r, ST_MIN, -1),
                        sl_profile_table_row_ns (r, ST_MAX, -1));
  if (sl_profile_table_row_double (r, ST_RATIO, &ratio))
    {
      /* a share of the total, so rounding aside 0 to 100 */
      if (ratio >= 0 && ratio <= 100.5)
        {
          sl_op_row_set_ratio (row, ratio);
          sl_op_table_set_type_share_basis (r->rank->ops, SL_OP_SHARE_OF_MODEL);
        }
      else
        {
          g_autofree char *message =
            g_strdup_printf (_("Line %u: “Ratio(%%)” is %g, not a percentage; it is left out"),
                             sl_profile_table_row_line (r), ratio);

          sl_csv_reader_report (r->reader, SL_SEVERITY_WARNING, message);
        }
    }
}

const SlProfileTableSpec sl_profile_op_statistic_table = {
  TABLE (OP_STATISTIC, "op_statistic*.csv", op_statistic_columns),
  .row = op_statistic_row,
};

/* ------------------------------------------------------------------ */
/* api_statistic(_*).csv: host API calls by level, µs. */

enum { AP_LEVEL, AP_NAME, AP_TIME, AP_COUNT, AP_MIN, AP_MAX };

static const SlProfileColumn api_statistic_columns[] = {
  [AP_LEVEL] = { .aliases = "Level" },
  [AP_NAME] = { .aliases = "API Name", .required = "API Name", .flags = REQUIRED | KEY },
  [AP_TIME] = { .aliases = "Time(us)", .name = "Time(us)", .required = "Time(us)", .unit = US,
                .flags = REQUIRED | VALUE },
  [AP_COUNT] = { .aliases = "Count" },
  [AP_MIN] = { .aliases = "Min(us)", .unit = US },
  [AP_MAX] = { .aliases = "Max(us)", .unit = US },
};

static void
api_statistic_row (SlProfileTableRow *r)
{
  SlOpRow *row;

  row = sl_op_table_add_type (r->rank->apis, sl_profile_table_row_text (r, AP_NAME),
                              sl_profile_table_row_text (r, AP_LEVEL));
  sl_op_row_set_source (row, r->path, sl_profile_table_row_line (r));
  sl_op_row_set_totals (row, (guint64)MAX (sl_profile_table_row_int (r, AP_COUNT, 0), 0), r->value,
                        sl_profile_table_row_ns (r, AP_MIN, -1),
                        sl_profile_table_row_ns (r, AP_MAX, -1));
}

const SlProfileTableSpec sl_profile_api_statistic_table = {
  TABLE (API_STATISTIC, "api_statistic*.csv", api_statistic_columns),
  .row = api_statistic_row,
};
