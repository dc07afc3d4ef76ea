/* sl-profile-db.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <string.h>
#include <sqlite3.h>
#include <glib/gi18n-lib.h>

#include "sl-profile-db.h"
#include "sl-trace.h"

#define CANCEL_MASK 0xfff

typedef struct {
  const char    *path;
  sqlite3       *db;
  GHashTable    *strings;     /* gint64 id → char * */
  GPtrArray     *problems;
  GCancellable  *cancellable;
} Db;

static void
report (Db         *db,
        SlSeverity  severity,
        const char *message)
{
  g_ptr_array_add (db->problems, sl_problem_new (severity, _("Profile database"), db->path, -1, message));
}

static void
report_sqlite (Db         *db,
               const char *what)
{
  g_autofree char *message = NULL;

  message = g_strdup_printf ("%s: %s", what, sqlite3_errmsg (db->db));
  report (db, SL_SEVERITY_WARNING, message);
}

static gboolean
has_table (Db         *db,
           const char *table)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (db->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                          -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

static gboolean
has_column (Db         *db,
            const char *table,
            const char *column)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA table_info(\"%s\")", table);
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  while (!found && sqlite3_step (stmt) == SQLITE_ROW)
    found = g_strcmp0 ((const char *)sqlite3_column_text (stmt, 1), column) == 0;
  sqlite3_finalize (stmt);
  return found;
}

/* "alias.col" when the column exists, else NULL, for a SELECT list;
 * @columns may give alternatives separated by '|'. */
static char *
column_or_null (Db         *db,
                const char *table,
                const char *alias,
                const char *columns)
{
  g_auto(GStrv) names = g_strsplit (columns, "|", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (has_column (db, table, names[i]))
        return g_strdup_printf ("%s.\"%s\"", alias, names[i]);
    }
  return g_strdup ("NULL");
}

static void
load_strings (Db *db)
{
  sqlite3_stmt *stmt = NULL;

  db->strings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  if (!has_table (db, "STRING_IDS"))
    return;
  if (sqlite3_prepare_v2 (db->db, "SELECT id, value FROM STRING_IDS", -1, &stmt, NULL) != SQLITE_OK)
    {
      report_sqlite (db, "STRING_IDS");
      return;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 *id = g_new (gint64, 1);

      *id = sqlite3_column_int64 (stmt, 0);
      g_hash_table_insert (db->strings, id, g_strdup ((const char *)sqlite3_column_text (stmt, 1)));
    }
  sqlite3_finalize (stmt);
}

/* A column that is a STRING_IDS id, or plain text in some versions. */
static const char *
string_at (Db           *db,
           sqlite3_stmt *stmt,
           int           column)
{
  gint64 id;
  const char *text;

  switch (sqlite3_column_type (stmt, column))
    {
    case SQLITE_INTEGER:
      id = sqlite3_column_int64 (stmt, column);
      text = g_hash_table_lookup (db->strings, &id);
      return text != NULL ? text : "";
    case SQLITE_TEXT:
      return (const char *)sqlite3_column_text (stmt, column);
    default:
      return "";
    }
}

static gint64
int_at (sqlite3_stmt *stmt,
        int           column,
        gint64        fallback)
{
  return sqlite3_column_type (stmt, column) == SQLITE_NULL ? fallback : sqlite3_column_int64 (stmt, column);
}

static sqlite3_stmt *
prepare (Db         *db,
         const char *what,
         const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      report_sqlite (db, what);
      return NULL;
    }
  return stmt;
}

static gboolean
cancelled (Db     *db,
           guint64 row)
{
  return (row & CANCEL_MASK) == 0 && g_cancellable_is_cancelled (db->cancellable);
}

static void
read_info (Db            *db,
           SlProfileRank *rank)
{
  sqlite3_stmt *stmt;

  if (has_table (db, "META_DATA") && (stmt = prepare (db, "META_DATA", "SELECT name, value FROM META_DATA")) != NULL)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          g_autofree char *key = g_strdup_printf ("META_DATA.%s", (const char *)sqlite3_column_text (stmt, 0));

          sl_profile_rank_set_info (rank, key, (const char *)sqlite3_column_text (stmt, 1));
        }
      sqlite3_finalize (stmt);
    }

  if (has_table (db, "NPU_INFO") && (stmt = prepare (db, "NPU_INFO", "SELECT id, name FROM NPU_INFO")) != NULL)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          g_autofree char *key = g_strdup_printf ("NPU_INFO.%lld", (long long)sqlite3_column_int64 (stmt, 0));

          sl_profile_rank_set_info (rank, key, string_at (db, stmt, 1));
          if (rank->device_id < 0)
            rank->device_id = sqlite3_column_int64 (stmt, 0);
        }
      sqlite3_finalize (stmt);
    }

  if (has_table (db, "HOST_INFO") && (stmt = prepare (db, "HOST_INFO", "SELECT hostUid, hostName FROM HOST_INFO")) != NULL)
    {
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          sl_profile_rank_set_info (rank, "HOST_INFO.hostUid", (const char *)sqlite3_column_text (stmt, 0));
          sl_profile_rank_set_info (rank, "HOST_INFO.hostName", (const char *)sqlite3_column_text (stmt, 1));
        }
      sqlite3_finalize (stmt);
    }

  if (has_table (db, "RANK_DEVICE_MAP") &&
      (stmt = prepare (db, "RANK_DEVICE_MAP", "SELECT rankId, deviceId FROM RANK_DEVICE_MAP")) != NULL)
    {
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          if (rank->rank_id < 0 && sqlite3_column_int64 (stmt, 0) >= 0)
            rank->rank_id = sqlite3_column_int64 (stmt, 0);
          if (rank->device_id < 0)
            rank->device_id = sqlite3_column_int64 (stmt, 1);
        }
      sqlite3_finalize (stmt);
    }
}

static void
read_steps (Db            *db,
            SlProfileRank *rank)
{
  sqlite3_stmt *stmt;

  if (rank->steps != NULL || !has_table (db, "STEP_TIME"))
    return;
  if ((stmt = prepare (db, "STEP_TIME", "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY startNs")) == NULL)
    return;

  rank->steps = sl_step_trace_new (db->path, SL_STEP_SOURCE_DATABASE);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      SlStep step = {
        sqlite3_column_int64 (stmt, 0),
        sqlite3_column_int64 (stmt, 1), sqlite3_column_int64 (stmt, 2),
        SL_STEP_NO_TIME, SL_STEP_NO_TIME,
        sqlite3_column_int64 (stmt, 2) - sqlite3_column_int64 (stmt, 1),
        SL_STEP_NO_TIME, SL_STEP_NO_TIME, SL_STEP_NO_TIME,
      };

      sl_step_trace_add_step (rank->steps, &step);
    }
  sqlite3_finalize (stmt);
}

static guint
device_track (SlTraceBuilder *builder,
              gint64          device_id,
              gint64          stream_id)
{
  g_autofree char *pid = g_strdup_printf ("device %lld", (long long)device_id);
  g_autofree char *tid = g_strdup_printf ("%lld", (long long)stream_id);
  g_autofree char *process_name = g_strdup_printf ("Ascend Hardware (NPU %lld)", (long long)device_id);
  g_autofree char *track_name = g_strdup_printf ("Stream %lld", (long long)stream_id);
  guint process = sl_trace_builder_get_process (builder, pid);
  guint track = sl_trace_builder_get_thread_track (builder, process, tid);

  sl_trace_builder_set_process_name (builder, process, process_name);
  sl_trace_builder_set_process_sort_index (builder, process, 100 + device_id);
  sl_trace_builder_set_track_name (builder, track, track_name);
  sl_trace_builder_set_track_sort_index (builder, track, stream_id);
  return track;
}

/* The op type a level-0 export leaves "N/A", from the kernel's name where
 * the name says it: "aclnnMm_MatMulCommon_MatMulV2" → MatMulV2,
 * "trans_TransData_0" → TransData, atomic_memset-… → MemSet. Names like
 * "ReduceSum147" (of a ReduceSumD) say nothing sure: NULL. */
static char *
kernel_type_from_name (const char *name)
{
  g_auto(GStrv) parts = NULL;
  guint n;

  if (g_str_has_prefix (name, "atomic_memset"))
    return g_strdup ("MemSet");
  parts = g_strsplit (name, "_", -1);
  n = g_strv_length (parts);
  if (g_str_has_prefix (name, "aclnn") && n >= 3 && parts[n - 1][0] != '\0')
    return g_strdup (parts[n - 1]);
  while (n > 1 && parts[n - 1][0] != '\0' && strspn (parts[n - 1], "0123456789") == strlen (parts[n - 1]))
    n--;
  if (n < 2 || !g_ascii_isalpha (parts[n - 1][0]))
    return NULL;
  for (const char *p = parts[n - 1]; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      return NULL;
  return g_strdup (parts[n - 1]);
}

/* TASK, named by COMPUTE_TASK_INFO where it has a row: one track per
 * device stream; compute tasks also go into the op table. */
static void
read_tasks (Db             *db,
            SlProfileRank  *rank,
            SlTraceBuilder *builder,
            gboolean        want_ops)
{
  static const char *info_columns[] = {
    "name", "opType", "taskType", "blockDim|blockNum",
    "inputShapes", "inputDataTypes", "inputFormats", "outputShapes", "outputDataTypes", "outputFormats",
  };
  g_autoptr(GString) sql = g_string_new ("SELECT t.startNs, t.endNs, ");
  gboolean have_info = has_table (db, "COMPUTE_TASK_INFO") && has_column (db, "COMPUTE_TASK_INFO", "globalTaskId");
  g_autofree char *device = NULL, *stream = NULL, *task_type = NULL;
  sqlite3_stmt *stmt;
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint64 row = 0;

  if (!has_table (db, "TASK"))
    return;

  device = column_or_null (db, "TASK", "t", "deviceId");
  stream = column_or_null (db, "TASK", "t", "streamId");
  task_type = column_or_null (db, "TASK", "t", "taskType");
  g_string_append_printf (sql, "%s, %s, %s", device, stream, task_type);
  for (guint i = 0; i < G_N_ELEMENTS (info_columns); i++)
    {
      g_autofree char *column = have_info ? column_or_null (db, "COMPUTE_TASK_INFO", "c", info_columns[i])
                                          : g_strdup ("NULL");

      g_string_append_printf (sql, ", %s", column);
    }
  g_string_append (sql, " FROM TASK t");
  if (have_info && has_column (db, "TASK", "globalTaskId"))
    g_string_append (sql, " LEFT JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId");
  else
    have_info = FALSE;

  if ((stmt = prepare (db, "TASK", sql->str)) == NULL)
    return;

  while (sqlite3_step (stmt) == SQLITE_ROW && !cancelled (db, ++row))
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 end = sqlite3_column_int64 (stmt, 1);
      gint64 dur = MAX (end - start, 0);
      const char *type_name = string_at (db, stmt, 4);
      gboolean is_compute = have_info && sqlite3_column_type (stmt, 5) != SQLITE_NULL;
      const char *name = is_compute ? string_at (db, stmt, 5) : type_name;
      guint track = device_track (builder, int_at (stmt, 2, 0), int_at (stmt, 3, -1));

      sl_trace_builder_add_phase_count (builder, "X", 1);
      sl_trace_builder_add_slice (builder, track, start, dur,
                                  sl_trace_builder_intern (builder, name, -1),
                                  sl_trace_builder_intern (builder, type_name, -1),
                                  SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
      first = MIN (first, start);
      last = MAX (last, end);

      if (want_ops && is_compute)
        {
          const char *core = string_at (db, stmt, 7);
          g_autofree char *derived = NULL;
          SlOpRow *op;
          gboolean fresh = sl_op_table_lookup_instance (rank->ops, name) == NULL;

          const char *op_type = string_at (db, stmt, 6);

          /* Level-0 exports write "N/A" where level 1 has the op details:
           * the task type (KERNEL_AIVEC, ...) is the best grouping left. */
          if (core[0] == '\0' || g_str_equal (core, "N/A"))
            core = type_name;
          if (op_type[0] == '\0' || g_str_equal (op_type, "N/A"))
            op_type = (derived = kernel_type_from_name (name)) != NULL ? derived : type_name;
          op = sl_op_table_add_execution (rank->ops, name, op_type, core, dur, -1, -1);
          if (fresh)
            {
              sl_op_row_set_block_dim (op, int_at (stmt, 8, -1));
              sl_op_row_set_stream_id (op, int_at (stmt, 3, -1));
              for (guint i = 0; i < SL_OP_ROW_N_TEXTS; i++)
                sl_op_row_set_text (op, i, string_at (db, stmt, 9 + i));
            }
        }
    }
  sqlite3_finalize (stmt);

  if (first <= last && rank->summary.total_ns < 0)
    rank->summary.total_ns = last - first;
}

/* CANN_API: host threads by globalTid = pid << 32 | tid. */
static void
read_cann_api (Db             *db,
               SlProfileRank  *rank,
               SlTraceBuilder *builder,
               gboolean        want_apis)
{
  g_autoptr(GHashTable) api_types = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  sqlite3_stmt *stmt;
  guint64 row = 0, n_skipped = 0, first_skipped = 0;

  if (!has_table (db, "CANN_API"))
    return;

  if (has_table (db, "ENUM_API_TYPE") && (stmt = prepare (db, "ENUM_API_TYPE", "SELECT id, name FROM ENUM_API_TYPE")) != NULL)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gint64 *id = g_new (gint64, 1);

          *id = sqlite3_column_int64 (stmt, 0);
          g_hash_table_insert (api_types, id, g_strdup ((const char *)sqlite3_column_text (stmt, 1)));
        }
      sqlite3_finalize (stmt);
    }

  if ((stmt = prepare (db, "CANN_API", "SELECT startNs, endNs, type, globalTid, name FROM CANN_API")) == NULL)
    return;

  while (sqlite3_step (stmt) == SQLITE_ROW && !cancelled (db, ++row))
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 dur = MAX (sqlite3_column_int64 (stmt, 1) - start, 0);
      gint64 type = sqlite3_column_int64 (stmt, 2);

      /* A call without its times or name says nothing: skip and count it. */
      if (sqlite3_column_type (stmt, 0) == SQLITE_NULL || sqlite3_column_type (stmt, 1) == SQLITE_NULL ||
          sqlite3_column_type (stmt, 4) == SQLITE_NULL)
        {
          if (n_skipped++ == 0)
            first_skipped = row;
          continue;
        }

      guint64 global_tid = (guint64)sqlite3_column_int64 (stmt, 3);
      const char *name = string_at (db, stmt, 4);
      const char *level = g_hash_table_lookup (api_types, &type);
      g_autofree char *type_number = NULL;
      g_autofree char *pid = g_strdup_printf ("host %u", (guint)(global_tid >> 32));
      g_autofree char *tid = g_strdup_printf ("%u", (guint)(global_tid & 0xffffffffu));
      g_autofree char *process_name = g_strdup_printf ("CANN (pid %u)", (guint)(global_tid >> 32));
      g_autofree char *thread_name = g_strdup_printf ("Thread %u", (guint)(global_tid & 0xffffffffu));
      guint process = sl_trace_builder_get_process (builder, pid);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);

      /* A type ENUM_API_TYPE does not name is still a level of its own. */
      if (level == NULL)
        level = type_number = g_strdup_printf ("%lld", (long long)type);
      sl_trace_builder_set_process_name (builder, process, process_name);
      sl_trace_builder_set_track_name (builder, track, thread_name);
      sl_trace_builder_add_phase_count (builder, "X", 1);
      sl_trace_builder_add_slice (builder, track, start, dur,
                                  sl_trace_builder_intern (builder, name, -1),
                                  sl_trace_builder_intern (builder, level, -1),
                                  SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);

      if (want_apis)
        {
          sl_op_row_add_execution (sl_op_table_add_type (rank->apis, name, level), dur, -1, -1);
          /* Each call's time too, for the statistics of one step. */
          if (rank->api_calls == NULL)
            rank->api_calls = sl_api_calls_new ();
          sl_api_calls_add (rank->api_calls, level, name, start, dur);
        }
    }
  sqlite3_finalize (stmt);

  if (n_skipped > 0)
    {
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "CANN_API: %llu row without a start, an end or a name was skipped (row %llu)",
                                                               "CANN_API: %llu rows without a start, an end or a name were skipped (the first is row %llu)",
                                                               n_skipped),
                                                  (unsigned long long)n_skipped, (unsigned long long)first_skipped);

      report (db, SL_SEVERITY_WARNING, message);
    }
}

/* PYTORCH_API's ops (type "op" in ENUM_API_TYPE; not its queue, trace
 * or mstx rows): slices of a "PyTorch" process per host thread, and the
 * framework level of the API statistics. Times are text in torch_npu's
 * export. The step markers (ProfilerStep#N) are steps, not calls: on
 * the timeline, not in the statistics. */
static void
read_framework_api (Db             *db,
                    SlProfileRank  *rank,
                    SlTraceBuilder *builder,
                    gboolean        want_apis)
{
  sqlite3_stmt *stmt;
  guint64 row = 0;

  if (!has_table (db, "PYTORCH_API") || !has_table (db, "ENUM_API_TYPE") || !has_column (db, "PYTORCH_API", "type"))
    return;
  if ((stmt = prepare (db, "PYTORCH_API",
                       "SELECT CAST(p.startNs AS INTEGER), CAST(p.endNs AS INTEGER), p.name, p.globalTid FROM PYTORCH_API p"
                       " WHERE p.type IN (SELECT id FROM ENUM_API_TYPE WHERE name = 'op')"
                       " AND p.startNs IS NOT NULL AND p.endNs IS NOT NULL AND p.name IS NOT NULL")) == NULL)
    return;

  while (sqlite3_step (stmt) == SQLITE_ROW && !cancelled (db, ++row))
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 dur = MAX (sqlite3_column_int64 (stmt, 1) - start, 0);
      const char *name = string_at (db, stmt, 2);
      guint64 global_tid = (guint64)sqlite3_column_int64 (stmt, 3);
      g_autofree char *pid = g_strdup_printf ("pytorch %u", (guint)(global_tid >> 32));
      g_autofree char *tid = g_strdup_printf ("%u", (guint)(global_tid & 0xffffffffu));
      g_autofree char *process_name = g_strdup_printf ("PyTorch (pid %u)", (guint)(global_tid >> 32));
      g_autofree char *thread_name = g_strdup_printf ("Thread %u", (guint)(global_tid & 0xffffffffu));
      guint process = sl_trace_builder_get_process (builder, pid);
      guint track = sl_trace_builder_get_thread_track (builder, process, tid);

      sl_trace_builder_set_process_name (builder, process, process_name);
      sl_trace_builder_set_process_sort_index (builder, process, 10);
      sl_trace_builder_set_track_name (builder, track, thread_name);
      sl_trace_builder_add_phase_count (builder, "X", 1);
      sl_trace_builder_add_slice (builder, track, start, dur,
                                  sl_trace_builder_intern (builder, name, -1),
                                  sl_trace_builder_intern (builder, "framework", -1),
                                  SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);

      if (!want_apis || name[0] == '\0' || g_str_has_prefix (name, "ProfilerStep#"))
        continue;
      sl_op_row_add_execution (sl_op_table_add_type (rank->apis, name, "framework"), dur, -1, -1);
      if (rank->api_calls == NULL)
        rank->api_calls = sl_api_calls_new ();
      sl_api_calls_add (rank->api_calls, "framework", name, start, dur);
    }
  sqlite3_finalize (stmt);
}

/* "hcom_allReduce__576_0_1" → "hcom_allReduce_", the type kernel_details
 * gives the same op, for exports that leave opType "N/A". */
static char *
communication_type (const char *name)
{
  char *type = g_strdup (name);
  char *underscore;

  while ((underscore = strrchr (type, '_')) != NULL && underscore[1] != '\0')
    {
      gboolean digits = TRUE;

      for (const char *p = underscore + 1; *p != '\0'; p++)
        digits &= g_ascii_isdigit (*p) != 0;
      if (!digits)
        break;
      *underscore = '\0';
    }
  return type;
}

/* COMMUNICATION_OP: one track per communication group. */
static void
read_communication (Db             *db,
                    SlProfileRank  *rank,
                    SlTraceBuilder *builder,
                    gboolean        want_ops)
{
  g_autofree char *group = NULL, *type = NULL;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt;
  guint process;
  guint64 row = 0;

  if (!has_table (db, "COMMUNICATION_OP"))
    return;

  group = column_or_null (db, "COMMUNICATION_OP", "o", "groupName");
  type = column_or_null (db, "COMMUNICATION_OP", "o", "opType");
  sql = g_strdup_printf ("SELECT o.startNs, o.endNs, o.opName, %s, %s FROM COMMUNICATION_OP o", group, type);
  if ((stmt = prepare (db, "COMMUNICATION_OP", sql)) == NULL)
    return;

  process = sl_trace_builder_get_process (builder, "communication");
  sl_trace_builder_set_process_name (builder, process, "HCCL");
  sl_trace_builder_set_process_sort_index (builder, process, 50);

  while (sqlite3_step (stmt) == SQLITE_ROW && !cancelled (db, ++row))
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 dur = MAX (sqlite3_column_int64 (stmt, 1) - start, 0);
      const char *name = string_at (db, stmt, 2);
      const char *group_name = string_at (db, stmt, 3);
      const char *op_type = string_at (db, stmt, 4);
      guint track = sl_trace_builder_get_thread_track (builder, process, group_name);

      sl_trace_builder_set_track_name (builder, track, group_name[0] != '\0' ? group_name : "Communication");
      sl_trace_builder_add_phase_count (builder, "X", 1);
      sl_trace_builder_add_slice (builder, track, start, dur,
                                  sl_trace_builder_intern (builder, name, -1),
                                  sl_trace_builder_intern (builder, op_type, -1),
                                  SL_TRACE_SLICE_NONE, SL_TRACE_NO_ARGS, 0);
      if (want_ops)
        {
          g_autofree char *derived = NULL;

          if (op_type[0] == '\0' || g_str_equal (op_type, "N/A"))
            op_type = derived = communication_type (name);
          sl_op_table_add_execution (rank->ops, name, op_type, "HCCL", dur, -1, -1);
        }
    }
  sqlite3_finalize (stmt);
}

gboolean
sl_profile_db_read (const char    *path,
                    SlProfileRank *rank,
                    GCancellable  *cancellable,
                    GPtrArray     *problems)
{
  g_autofree char *uri_path = NULL;
  g_autofree char *uri = NULL;
  SlTraceBuilder *builder;
  gboolean want_ops, want_apis;
  SlTrace *trace;
  Db db = { path, NULL, NULL, problems, cancellable };
  g_autoptr(GError) error = NULL;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (rank != NULL, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  if (!sl_input_file_check (path, &error))
    {
      report (&db, SL_SEVERITY_ERROR, error->message);
      return FALSE;
    }

  /* immutable=1: no locks and no journal, so a read-only copy opens too. */
  uri_path = g_uri_escape_string (path, "/", FALSE);
  uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", uri_path);
  if (sqlite3_open_v2 (uri, &db.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK ||
      sqlite3_exec (db.db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_autofree char *message = g_strdup_printf (_("Not a readable SQLite database: %s"),
                                                  db.db != NULL ? sqlite3_errmsg (db.db) : "");

      report (&db, SL_SEVERITY_ERROR, message);
      sqlite3_close (db.db);
      return FALSE;
    }

  load_strings (&db);
  read_info (&db, rank);
  read_steps (&db, rank);

  want_ops = sl_op_table_is_empty (rank->ops);
  want_apis = sl_op_table_is_empty (rank->apis);
  builder = sl_trace_builder_new (path);
  read_tasks (&db, rank, builder, want_ops);
  read_communication (&db, rank, builder, want_ops);
  read_cann_api (&db, rank, builder, want_apis);
  read_framework_api (&db, rank, builder, want_apis);

  trace = sl_trace_builder_finish (builder, cancellable);
  if (trace != NULL)
    {
      g_clear_object (&rank->trace);
      rank->trace = G_OBJECT (trace);
    }

  g_hash_table_unref (db.strings);
  sqlite3_close (db.db);
  return TRUE;
}
