/* test-memory-profile.c: the memory reader and the peak on generated
 * files with hand-computed answers: memory_record.csv, operator_memory.csv
 * and npu_module_mem.csv as torch_npu writes them (tab after each time),
 * the SQLite export's tables in bytes and nanoseconds, damaged rows
 * (negative and NaN sizes, a time that is no number, a release before its
 * allocation, short rows), missing columns, empty files, and the loader
 * giving a rank its memory or none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "sl-memory-reader.h"
#include "sl-profile-loader.h"

/* The peak is PTA+GE's 180 MB at 1020 µs; PTA then holds 150 and GE 30. */
static const char *record_csv =
  "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
  "APP,1000.000\t,,512.0,,,NPU:0\n"
  "PTA,1000.000\t,100.0,200.0,100.0,1,NPU:0\n"
  "GE,1000.000\t,10.0,20.0,,1,NPU:0\n"
  "PTA+GE,1000.000\t,110.0,220.0,110.0,1,NPU:0\n"
  "PTA,1010.500\t,150.0,200.0,150.0,1,NPU:0\n"
  "PTA+GE,1010.500\t,160.0,220.0,160.0,1,NPU:0\n"
  "GE,1020.000\t,30.0,40.0,,1,NPU:0\n"
  "PTA+GE,1020.000\t,180.0,240.0,180.0,1,NPU:0\n"
  "PTA,1030.000\t,50.0,200.0,50.0,1,NPU:0\n"
  "PTA+GE,1030.000\t,80.0,240.0,80.0,1,NPU:0\n";

#define OPERATOR_HEADER \
  "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us)," \
  "Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB)," \
  "Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n"

/* At 1020 µs: a (50 MB) and c (20 MB, never released) hold memory, and
 * e, allocated at the peak; b was released before, d at the peak. */
static const char *operator_csv =
  OPERATOR_HEADER
  "aten::a,51200.0,1005.000\t,1025.000\t,,20.000\t,,150.0,200.0,,130.0,200.0,,7,NPU:0\n"
  "aten::b,10240.0,1001.000\t,1015.000\t,,14.000\t,,110.0,220.0,,150.0,220.0,,7,NPU:0\n"
  "aten::c,20480.0,1012.000\t,,,,,170.0,220.0,,,,,7,NPU:0\n"
  "aten::d,1024.0,1020.000\t,1020.000\t,,0.000\t,,180.0,240.0,,179.0,240.0,,7,NPU:0\n"
  "cann::e,4096.0,1020.000\t,1021.000\t,,1.000\t,,3.0,40.0,,0.0,40.0,,,NPU:0\n";

static const char *module_csv =
  "Component,Timestamp(us),Total Reserved(MB),Device\n"
  "SLOG,1000.000\t,0.0,NPU:0\n"
  "HCCL,1000.000\t,404.0625,NPU:0\n"
  "HCCL,1030.000\t,300.0,NPU:0\n";

static void
read_text (SlMemoryProfile *memory,
           const char      *name,
           const char      *text,
           GPtrArray       *problems)
{
  sl_memory_reader_read_data (memory, name, sl_memory_reader_file_for_path (name), text, strlen (text),
                              NULL, problems);
}

static SlMemoryProfile *
read_all (GPtrArray *problems)
{
  SlMemoryProfile *memory = sl_memory_profile_new ();

  read_text (memory, "memory_record.csv", record_csv, problems);
  read_text (memory, "operator_memory.csv", operator_csv, problems);
  read_text (memory, "npu_module_mem.csv", module_csv, problems);
  sl_memory_profile_finish (memory);
  return memory;
}

static const SlMemoryCurve *
find_curve (SlMemoryProfile *memory,
            const char      *name)
{
  for (guint i = 0; i < sl_memory_profile_get_n_curves (memory); i++)
    if (g_str_equal (sl_memory_profile_get_curve (memory, i)->name, name))
      return sl_memory_profile_get_curve (memory, i);
  return NULL;
}

static const SlMemoryAllocation *
holder (SlMemoryProfile *memory,
        guint            index)
{
  const SlMemoryPeak *peak = sl_memory_profile_get_peak (memory);

  g_assert_cmpuint (index, <, peak->holders->len);
  return sl_memory_profile_get_allocation (memory, g_array_index (peak->holders, SlMemoryHolder, index).allocation);
}

static void
test_curves (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = read_all (problems);
  const SlMemoryCurve *curve;
  gint64 start, end;

  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (sl_memory_profile_get_n_curves (memory), ==, 4);
  g_assert_cmpuint (sl_memory_profile_get_files (memory)->len, ==, 3);

  curve = find_curve (memory, "APP");
  g_assert_cmpuint (curve->ts_ns->len, ==, 1);
  g_assert_true (isnan (curve->max_allocated_mb));
  g_assert_cmpfloat (curve->max_reserved_mb, ==, 512.0);
  g_assert_cmpstr (curve->device, ==, "NPU:0");

  curve = find_curve (memory, "PTA");
  g_assert_cmpuint (curve->ts_ns->len, ==, 3);
  g_assert_cmpint (g_array_index (curve->ts_ns, gint64, 1), ==, 1010500);
  g_assert_cmpfloat (curve->max_allocated_mb, ==, 150.0);
  g_assert_cmpfloat (g_array_index (curve->active_mb, double, 2), ==, 50.0);

  curve = find_curve (memory, "GE");
  g_assert_true (isnan (g_array_index (curve->active_mb, double, 0)));
  g_assert_cmpfloat (curve->max_reserved_mb, ==, 40.0);

  g_assert_cmpuint (sl_memory_profile_get_n_modules (memory), ==, 2);
  curve = sl_memory_profile_get_module (memory, 1);
  g_assert_cmpstr (curve->name, ==, "HCCL");
  g_assert_cmpfloat (curve->max_reserved_mb, ==, 404.0625);
  g_assert_true (isnan (curve->max_allocated_mb));

  g_assert_true (sl_memory_profile_get_time_range (memory, &start, &end));
  g_assert_cmpint (start, ==, 1000000);
  g_assert_cmpint (end, ==, 1030000);
}

static void
test_peak (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = read_all (problems);
  const SlMemoryPeak *peak = sl_memory_profile_get_peak (memory);
  const SlMemoryShare *share;

  g_assert_true (peak->found);
  g_assert_cmpstr (peak->component, ==, "PTA+GE");
  g_assert_cmpint (peak->time_ns, ==, 1020000);
  g_assert_cmpfloat (peak->allocated_mb, ==, 180.0);
  g_assert_cmpfloat (peak->reserved_mb, ==, 240.0);

  /* Shares in curve order: APP, PTA, GE, PTA+GE. */
  g_assert_cmpuint (peak->shares->len, ==, 4);
  share = &g_array_index (peak->shares, SlMemoryShare, 0);
  g_assert_cmpstr (share->component, ==, "APP");
  g_assert_true (isnan (share->allocated_mb));
  g_assert_cmpfloat (share->reserved_mb, ==, 512.0);
  g_assert_true (isnan (share->share));
  share = &g_array_index (peak->shares, SlMemoryShare, 1);
  g_assert_cmpfloat (share->allocated_mb, ==, 150.0);
  g_assert_cmpfloat_with_epsilon (share->share, 150.0 / 180.0, 1e-12);
  share = &g_array_index (peak->shares, SlMemoryShare, 2);
  g_assert_cmpfloat (share->allocated_mb, ==, 30.0);
  g_assert_cmpfloat_with_epsilon (share->share, 1.0 / 6.0, 1e-12);
  share = &g_array_index (peak->shares, SlMemoryShare, 3);
  g_assert_cmpfloat (share->share, ==, 1.0);

  /* Largest first: a, c, e; b was released before and d at the peak. */
  g_assert_cmpuint (peak->holders->len, ==, 3);
  g_assert_cmpstr (holder (memory, 0)->name, ==, "aten::a");
  g_assert_cmpstr (holder (memory, 1)->name, ==, "aten::c");
  g_assert_cmpint (holder (memory, 1)->release_ns, ==, SL_MEMORY_NOT_RELEASED);
  g_assert_cmpstr (holder (memory, 2)->name, ==, "cann::e");
  g_assert_cmpfloat_with_epsilon (g_array_index (peak->holders, SlMemoryHolder, 0).share, 50.0 / 180.0, 1e-12);
  g_assert_cmpfloat (peak->held_mb, ==, 74.0);
}

static void
test_allocations (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = read_all (problems);
  const SlMemoryAllocation *a;

  g_assert_cmpuint (sl_memory_profile_get_n_allocations (memory), ==, 5);
  a = sl_memory_profile_get_allocation (memory, 0);
  g_assert_cmpstr (a->name, ==, "aten::a");
  g_assert_cmpfloat (a->size_kb, ==, 51200.0);
  g_assert_cmpint (a->allocation_ns, ==, 1005000);
  g_assert_cmpint (a->release_ns, ==, 1025000);
  g_assert_cmpint (a->duration_ns, ==, 20000);
  g_assert_cmpfloat (a->allocation_allocated_mb, ==, 150.0);
  g_assert_cmpfloat (a->release_allocated_mb, ==, 130.0);
  g_assert_cmpstr (a->stream, ==, "7");
  g_assert_cmpstr (a->path, ==, "operator_memory.csv");
  g_assert_cmpuint (a->line, ==, 2);

  a = sl_memory_profile_get_allocation (memory, 2);
  g_assert_cmpint (a->duration_ns, ==, -1);
  g_assert_true (isnan (a->release_allocated_mb));
  /* Never released: its lifetime runs to the end of the profile. */
  g_assert_cmpint (sl_memory_allocation_end_ns (memory, a), ==, 1030000);
  g_assert_cmpstr (sl_memory_profile_get_allocation (memory, 4)->stream, ==, "");
}

/* b, a, c by start take lanes 0, 1, 2; d and e fit after b in lane 0. */
static void
test_lanes (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = read_all (problems);
  const SlMemorySpan *spans;
  guint n;

  g_assert_cmpuint (sl_memory_profile_get_n_lanes (memory), ==, 3);
  g_assert_cmpuint (sl_memory_profile_get_allocation (memory, 1)->lane, ==, 0);
  g_assert_cmpuint (sl_memory_profile_get_allocation (memory, 0)->lane, ==, 1);
  g_assert_cmpuint (sl_memory_profile_get_allocation (memory, 2)->lane, ==, 2);
  g_assert_cmpuint (sl_memory_profile_get_allocation (memory, 3)->lane, ==, 0);
  g_assert_cmpuint (sl_memory_profile_get_allocation (memory, 4)->lane, ==, 0);

  /* At full detail d and e touch and make one span; b stays apart. */
  spans = sl_memory_profile_get_spans (memory, 0, 0.1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (spans[0].start_ns, ==, 1001000);
  g_assert_cmpint (spans[0].end_ns, ==, 1015000);
  g_assert_cmpuint (spans[0].count, ==, 1);
  g_assert_cmpuint (spans[0].first, ==, 1);
  g_assert_cmpint (spans[1].start_ns, ==, 1020000);
  g_assert_cmpint (spans[1].end_ns, ==, 1021000);
  g_assert_cmpuint (spans[1].count, ==, 2);

  /* Zoomed out, the 5 µs gap is below a pixel: one span of three. */
  spans = sl_memory_profile_get_spans (memory, 0, 1e6, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (spans[0].start_ns, ==, 1001000);
  g_assert_cmpint (spans[0].end_ns, ==, 1021000);
  g_assert_cmpuint (spans[0].count, ==, 3);

  g_assert_null (sl_memory_profile_get_spans (memory, 3, 1, &n));
  g_assert_cmpuint (n, ==, 0);
}

/* More allocations at once than there are lanes: the last lane takes the
 * rest, and its spans still never overlap. */
static void
test_many_lanes (void)
{
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();
  const SlMemorySpan *spans;
  guint n, total = 0;

  for (guint i = 0; i < 100; i++)
    {
      SlMemoryAllocation *a = sl_memory_profile_add_allocation (memory, NULL, "x", "", "");

      a->size_kb = 1;
      a->allocation_ns = i;
      a->release_ns = 1000 + i;
    }
  sl_memory_profile_finish (memory);
  g_assert_cmpuint (sl_memory_profile_get_n_lanes (memory), ==, 32);
  for (guint lane = 0; lane < 32; lane++)
    {
      spans = sl_memory_profile_get_spans (memory, lane, 0, &n);
      for (guint i = 0; i < n; i++)
        {
          total += spans[i].count;
          if (i > 0)
            g_assert_cmpint (spans[i].start_ns, >, spans[i - 1].end_ns);
        }
    }
  g_assert_cmpuint (total, ==, 100);
  spans = sl_memory_profile_get_spans (memory, 31, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (spans[0].count, ==, 69);
  g_assert_cmpint (spans[0].end_ns, ==, 1099);
}

static gboolean
has_problem (GPtrArray  *problems,
             guint       line,
             const char *text)
{
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *prefix = g_strdup_printf ("Line %u: ", line);
      const char *message = sl_problem_get_message (problem);

      /* The CSV reader places a row's problem by offset; the line is in the text. */
      if ((line == 0 || g_str_has_prefix (message, prefix)) && strstr (message, text))
        return TRUE;
    }
  return FALSE;
}

static void
test_damaged (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();
  const SlMemoryPeak *peak;

  read_text (memory, "memory_record.csv",
             "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB)\n"
             "PTA,1000,10,20\n"
             "PTA,abc,500,20\n"              /* line 3: no time */
             "PTA,1001,-4,20\n"              /* line 4: negative */
             "PTA,1002,nan,20\n"             /* line 5: NaN */
             "PTA,1003,inf,20\n"             /* line 6: infinite */
             "PTA,1004\n"                    /* line 7: short, nothing written */
             "\n"
             "PTA,1005,12,20\n", problems);
  read_text (memory, "operator_memory.csv",
             OPERATOR_HEADER
             "ok,1024,1000,1003,,,,,,,,,,1,NPU:0\n"
             "neg,-1,1000,1003,,,,,,,,,,1,NPU:0\n"        /* line 3 */
             "nan,NaN,1000,1003,,,,,,,,,,1,NPU:0\n"       /* line 4 */
             "early,10,1005,1001,,,,,,,,,,1,NPU:0\n"      /* line 5 */
             "notime,10,,1001,,,,,,,,,,1,NPU:0\n"         /* line 6 */
             "nosize,,1000,1001,,,,,,,,,,1,NPU:0\n"       /* line 7 */
             "\"cut,10,1000", problems);
  sl_memory_profile_finish (memory);

  g_assert_true (has_problem (problems, 3, "“Timestamp(us)” is not a time"));
  g_assert_true (has_problem (problems, 4, "“Total Allocated(MB)” is not a size"));
  g_assert_true (has_problem (problems, 5, "is not a size"));
  g_assert_true (has_problem (problems, 6, "is not a size"));
  g_assert_cmpuint (find_curve (memory, "PTA")->ts_ns->len, ==, 2);
  g_assert_cmpfloat (find_curve (memory, "PTA")->max_allocated_mb, ==, 12.0);

  g_assert_true (has_problem (problems, 3, "“Size(KB)” is not a size"));
  g_assert_true (has_problem (problems, 4, "“Size(KB)” is not a size"));
  g_assert_true (has_problem (problems, 5, "is before the allocation"));
  g_assert_true (has_problem (problems, 6, "“Allocation Time(us)” is not a time"));
  g_assert_true (has_problem (problems, 7, "“Size(KB)” is empty"));
  g_assert_cmpuint (sl_memory_profile_get_n_allocations (memory), ==, 1);
  g_assert_cmpstr (sl_memory_profile_get_allocation (memory, 0)->name, ==, "ok");
  for (guint i = 0; i < problems->len; i++)
    g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (problems, i)), !=, NULL);

  peak = sl_memory_profile_get_peak (memory);
  g_assert_cmpint (peak->time_ns, ==, 1005000);
  /* "ok" was released at 1003 µs, before the peak. */
  g_assert_cmpuint (peak->holders->len, ==, 0);
}

/* A file of damage says how many rows it skipped past the first ones. */
static void
test_many_damaged (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();
  g_autoptr(GString) text = g_string_new ("Component,Timestamp(us),Total Allocated(MB)\n");

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (text, "PTA,%u,-1\n", i);
  read_text (memory, "memory_record.csv", text->str, problems);
  g_assert_cmpuint (problems->len, ==, 21);
  g_assert_true (has_problem (problems, 0, "30 more damaged rows were skipped"));
}

static void
test_missing_columns (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();

  g_assert_false (sl_memory_reader_read_data (memory, "memory_record.csv", SL_MEMORY_FILE_RECORD,
                                              "Component,Time\nPTA,1\n", 20, NULL, problems));
  g_assert_true (has_problem (problems, 0, "no column “Timestamp(us)”"));
  g_assert_false (sl_memory_reader_read_data (memory, "operator_memory.csv", SL_MEMORY_FILE_OPERATORS,
                                              "Name,Allocation Time(us)\nx,1\n", 27, NULL, problems));
  g_assert_true (has_problem (problems, 0, "no column “Size(KB)”"));
  g_assert_false (sl_memory_reader_read_data (memory, "npu_module_mem.csv", SL_MEMORY_FILE_MODULES,
                                              "", 0, NULL, problems));
  g_assert_true (has_problem (problems, 0, "The file is empty"));
  /* A header and no rows: nothing, and nothing wrong either. */
  g_ptr_array_set_size (problems, 0);
  g_assert_false (sl_memory_reader_read_data (memory, "operator_memory.csv", SL_MEMORY_FILE_OPERATORS,
                                              OPERATOR_HEADER, strlen (OPERATOR_HEADER), NULL, problems));
  g_assert_cmpuint (problems->len, ==, 0);
  sl_memory_profile_finish (memory);
  g_assert_true (sl_memory_profile_is_empty (memory));
  g_assert_false (sl_memory_profile_get_peak (memory)->found);
  g_assert_false (sl_memory_profile_get_time_range (memory, NULL, NULL));
}

static void
exec_sql (sqlite3    *db,
          const char *sql)
{
  char *error = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &error) != SQLITE_OK)
    g_error ("%s: %s", sql, error);
}

static void
write_db (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec_sql (db,
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
    "INSERT INTO STRING_IDS VALUES (1, 'PTA'), (2, 'aten::mm'), (3, 'aten::add');"
    "CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY, name TEXT);"
    "INSERT INTO ENUM_MODULE VALUES (3, 'HCCL');"
    "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER,"
    " totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);"
    "INSERT INTO MEMORY_RECORD VALUES (1, 2000, 1048576, 2097152, 1048576, 9, 0),"
    " (1, 3000, 3145728, 4194304, NULL, 9, 0), (1, 4000, -5, 0, 0, 9, 0), (1, 5000, 524288, 4194304, NULL, 9, 0);"
    "CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER,"
    " activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER,"
    " allocationTotalReserved INTEGER, allocationTotalActive INTEGER, releaseTotalAllocated INTEGER,"
    " releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);"
    "INSERT INTO OP_MEMORY VALUES (2, 2097152, 2500, NULL, NULL, NULL, NULL, 3145728, 4194304, NULL, NULL, NULL, NULL, 9, 0),"
    " (3, 1024, 2600, 2700, NULL, 100, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 9, 0),"
    " (3, -1024, 2600, 2700, NULL, 100, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 9, 0);"
    "CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER, timestampNs INTEGER, totalReserved NUMERIC, deviceId INTEGER);"
    "INSERT INTO NPU_MODULE_MEM VALUES (3, 2000, 423690240, 0), (44, 2000, 0, 0);");
  sqlite3_close (db);
}

static void
test_database (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-memory-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();
  const SlMemoryCurve *curve;
  const SlMemoryPeak *peak;

  g_assert_no_error (error);
  write_db (path);
  g_assert_true (sl_memory_reader_read_db (memory, path, NULL, problems));
  sl_memory_profile_finish (memory);

  curve = find_curve (memory, "PTA");
  g_assert_nonnull (curve);
  g_assert_cmpstr (curve->device, ==, "NPU:0");
  g_assert_cmpuint (curve->ts_ns->len, ==, 3);
  g_assert_cmpfloat (curve->max_allocated_mb, ==, 3.0);
  g_assert_cmpfloat (curve->max_reserved_mb, ==, 4.0);
  g_assert_true (isnan (g_array_index (curve->active_mb, double, 1)));
  g_assert_true (has_problem (problems, 0, "1 row of MEMORY_RECORD has a negative size"));
  g_assert_true (has_problem (problems, 0, "1 row of OP_MEMORY has a negative size"));

  g_assert_cmpuint (sl_memory_profile_get_n_allocations (memory), ==, 2);
  g_assert_cmpfloat (sl_memory_profile_get_allocation (memory, 0)->size_kb, ==, 2048.0);
  g_assert_cmpstr (sl_memory_profile_get_allocation (memory, 0)->name, ==, "aten::mm");
  g_assert_cmpstr (sl_memory_profile_get_allocation (memory, 0)->stream, ==, "9");
  g_assert_cmpint (sl_memory_profile_get_allocation (memory, 0)->release_ns, ==, SL_MEMORY_NOT_RELEASED);
  g_assert_cmpfloat (sl_memory_profile_get_allocation (memory, 0)->allocation_allocated_mb, ==, 3.0);

  peak = sl_memory_profile_get_peak (memory);
  g_assert_cmpint (peak->time_ns, ==, 3000);
  g_assert_cmpuint (peak->holders->len, ==, 1);
  g_assert_cmpfloat (peak->held_mb, ==, 2.0);

  g_assert_cmpuint (sl_memory_profile_get_n_modules (memory), ==, 2);
  g_assert_cmpstr (sl_memory_profile_get_module (memory, 0)->name, ==, "HCCL");
  g_assert_cmpfloat (sl_memory_profile_get_module (memory, 0)->max_reserved_mb, ==, 404.0625);
  /* A module id ENUM_MODULE does not name keeps its number. */
  g_assert_cmpstr (sl_memory_profile_get_module (memory, 1)->name, ==, "44");

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
test_loader (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-memory-XXXXXX", &error);
  g_autofree char *output = g_build_filename (dir, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *bare = g_build_filename (dir, "rank1_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autoptr(SlProfile) profile = NULL;
  guint n_with = 0, n_without = 0;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (bare, 0755), ==, 0);
  write_file (output, "memory_record.csv", record_csv);
  write_file (output, "operator_memory.csv", operator_csv);
  write_file (output, "npu_module_mem.csv", module_csv);
  write_file (bare, "step_trace_time.csv", "Step,Computing,Free\n1,10,2\n");

  profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 2);
  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      if (rank->memory == NULL)
        {
          n_without++;
          continue;
        }
      n_with++;
      /* Finished by the loader: the peak is there. */
      g_assert_cmpint (sl_memory_profile_get_peak (rank->memory)->time_ns, ==, 1020000);
      g_assert_cmpuint (sl_memory_profile_get_n_allocations (rank->memory), ==, 5);
      g_assert_cmpuint (sl_memory_profile_get_n_modules (rank->memory), ==, 2);
      /* memory_record also stays as counters. */
      g_assert_cmpuint (rank->counters->len, ==, 9);
    }
  g_assert_cmpuint (n_with, ==, 1);
  g_assert_cmpuint (n_without, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 0);
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory/curves", test_curves);
  g_test_add_func ("/memory/peak", test_peak);
  g_test_add_func ("/memory/allocations", test_allocations);
  g_test_add_func ("/memory/lanes", test_lanes);
  g_test_add_func ("/memory/many-lanes", test_many_lanes);
  g_test_add_func ("/memory/damaged", test_damaged);
  g_test_add_func ("/memory/many-damaged", test_many_damaged);
  g_test_add_func ("/memory/missing-columns", test_missing_columns);
  g_test_add_func ("/memory/database", test_database);
  g_test_add_func ("/memory/loader", test_loader);

  return g_test_run ();
}
