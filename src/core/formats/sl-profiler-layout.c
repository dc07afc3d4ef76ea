/* sl-profiler-layout.c
 *
 * The names come from FORMATS.md and from the real folders in the
 * datasets; where the detector and the loader used to accept different
 * names, the table holds both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-profiler-layout.h"

#define MS     SL_PROFILE_LAYOUT_MINDSPORE
#define MSPROF SL_PROFILE_LAYOUT_MSPROF
#define PT     SL_PROFILE_LAYOUT_ASCEND_PT
#define DB     SL_PROFILE_LAYOUT_DATABASE
#define CL     SL_PROFILE_LAYOUT_CLUSTER

#define FOLDER SL_PROFILER_ENTRY_FOLDER
#define READ   SL_PROFILER_ENTRY_READ
#define MARKER SL_PROFILER_ENTRY_MARKER

#define R(name) SL_PROFILER_ROLE_##name
#define BY_NAME   SL_PROFILER_RANK_NAME
#define BY_FOLDER SL_PROFILER_RANK_FOLDER
#define ONE       SL_PROFILER_RANK_NONE

/* The first entry that matches wins, so specific names come before the
 * general ones that would also take them (step_trace_time.csv before
 * step_trace_*.csv, the MindSpore names before msprof's). */
static const SlProfilerEntry entries[] = {
  /* Folders */
  { MS,     "profiler.*",                     R(PROFILE_FOLDER),  ONE,       FOLDER },
  { MSPROF, "PROF_.*",                        R(PROFILE_FOLDER),  BY_FOLDER, FOLDER },
  { MSPROF, "JOB.*",                          R(RAW_FOLDER),      BY_FOLDER, FOLDER },
  { MSPROF, "data",                           R(RAW_DATA_FOLDER), ONE,       FOLDER },
  { MSPROF, "device_(\\d+)",                  R(DEVICE_FOLDER),   BY_NAME,   FOLDER },
  { MSPROF, "host",                           R(DEVICE_FOLDER),   ONE,       FOLDER },
  { MSPROF, "mindstudio_profiler_output",     R(OUTPUT_FOLDER),   ONE,       FOLDER },
  { PT,     ".+_ascend_(?:pt|ms)",            R(PROFILE_FOLDER),  BY_FOLDER, FOLDER },
  { PT,     "ASCEND_PROFILER_OUTPUT",         R(OUTPUT_FOLDER),   ONE,       FOLDER },
  { CL,     "cluster_analysis_output",        R(OUTPUT_FOLDER),   ONE,       FOLDER },

  /* msprof's older layout: every JSON of device_N/timeline is a trace */
  { MSPROF, "device_(\\d*)[^/]*/timeline/[^/]+\\.json(?:\\.gz)?", R(TIMELINE), BY_NAME, 0 },

  /* MindSpore profiler* folders: the device or rank id is in the name */
  { MS, "step_trace_raw_(\\d+)_detail_time\\.csv",          R(STEP_TRACE),        BY_NAME, READ | MARKER },
  { MS, "aicore_intermediate_(\\d+)_type\\.csv",            R(OP_STATISTIC),      BY_NAME, READ | MARKER },
  { MS, "aicore_intermediate_(\\d+)_detail\\.csv",          R(OP_SUMMARY),        BY_NAME, READ | MARKER },
  { MS, "aicpu_intermediate_(\\d+)\\.csv",                  R(AICPU),             BY_NAME, READ | MARKER },
  { MS, "framework_raw_(\\d+)\\.csv",                       R(FRAMEWORK),         BY_NAME, READ | MARKER },
  { MS, "(?:ascend_|gpu_)?timeline_summary_(\\d+)\\.json",  R(TIMELINE_SUMMARY),  BY_NAME, READ | MARKER },
  { MS, "flops_summary_(\\d+)\\.json",                      R(FLOPS_SUMMARY),     BY_NAME, READ | MARKER },
  { MS, "flops_(\\d+)\\.txt",                               R(FLOPS),             BY_NAME, READ | MARKER },
  { MS, "profiler_info_(\\d+)\\.json",                      R(INFO),              BY_NAME, READ | MARKER },
  { MS, "(?:ascend_|gpu_)?timeline_display_(\\d+)(?:[_.].*)?\\.json(?:\\.gz)?", R(TIMELINE), BY_NAME, MARKER },
  { MS, "(?:ascend_|gpu_)?timeline_display_.*\\.json(?:\\.gz)?", R(TIMELINE),   BY_NAME, 0 },
  { MS, "output_timeline_data_(\\d+)\\.txt",                R(OTHER),             BY_NAME, MARKER },
  { MS, "output_format_data_hwts_(\\d+)\\.txt",             R(RAW),               BY_NAME, MARKER },
  { MS, "min_cycle_counter_(\\d+)\\.txt",                   R(OTHER),             BY_NAME, MARKER },
  { MS, "(?:minddata_pipeline_raw|minddata_aicpu|minddata_cpu_utilization|device_queue_profiling|pipeline_profiling)_(\\d+)(?:[_.].*)?",
                                                            R(DATA_PREPARATION),  BY_NAME, MARKER },
  { MS, "hccl_raw_(\\d+)\\.csv",                            R(COMMUNICATION),     BY_NAME, READ | MARKER },
  { MS, "hccl_raw_(\\d+)(?:[_.].*)?",                       R(COMMUNICATION),     BY_NAME, MARKER },
  { MS, "step_trace_point_info.*",                          R(STEP_TRACE_POINTS), ONE,     MARKER },
  { MS, "ascend_cluster_analyse_.*\\.csv",                  R(COMMUNICATION),     ONE,     0 },
  /* Any other name of these families still marks the folder. */
  { MS, "(?:step_trace_raw|aicore_intermediate|aicpu_intermediate|framework_raw"
        "|(?:ascend_|gpu_)?timeline_summary|flops_summary|flops|profiler_info)_(\\d+)(?:[_.].*)?",
                                                            R(OTHER),             BY_NAME, MARKER },

  /* torch_npu and MindSpore: *_ascend_pt/ASCEND_PROFILER_OUTPUT */
  { PT, "trace_view\\.json(?:\\.gz)?",     R(TIMELINE),      BY_FOLDER, 0 },
  { PT, "kernel_details.*\\.csv",          R(OP_SUMMARY),    BY_FOLDER, READ },
  { PT, "op_statistic.*\\.csv",            R(OP_STATISTIC),  BY_FOLDER, READ },
  { PT, "api_statistic.*\\.csv",           R(API_STATISTIC), BY_FOLDER, READ },
  { PT, "step_trace_time\\.csv",           R(STEP_TRACE),    BY_FOLDER, READ },
  { PT, "(?:memory_record|operator_memory|npu_module_mem)\\.csv", R(MEMORY), BY_FOLDER, READ },
  { PT, "memory_.*\\.csv",                R(MEMORY),        BY_FOLDER, 0 },
  { PT, "communication(?:_matrix)?\\.json", R(COMMUNICATION), BY_FOLDER, READ },
  { PT, "profiler_metadata\\.json",        R(INFO),          BY_FOLDER, READ },

  /* msprof-analyze over many ranks */
  { CL, "cluster_step_trace_time\\.csv",   R(CLUSTER_STEP),  ONE, READ },
  { CL, "cluster_communication(?:_matrix)?\\.json", R(COMMUNICATION), ONE, READ },

  /* msprof (CANN): mindstudio_profiler_output and device_N of PROF_ folders */
  { MSPROF, "msprof.*\\.json(?:\\.gz)?",   R(TIMELINE),      BY_FOLDER, 0 },
  { MSPROF, "op_summary.*\\.csv",          R(OP_SUMMARY),    BY_FOLDER, READ },
  { MSPROF, "op_statistic_.*\\.csv",       R(OP_STATISTIC),  BY_FOLDER, READ },
  { MSPROF, "api_statistic_.*\\.csv",      R(API_STATISTIC), BY_FOLDER, READ },
  { MSPROF, "task_time.*\\.csv",           R(TASK_TIME),     BY_FOLDER, READ },
  { MSPROF, "step_trace_.*\\.csv",         R(STEP_TRACE),    BY_FOLDER, READ },
  { MSPROF, "info\\.json\\..*\\.done",     R(OTHER),         BY_FOLDER, 0 },
  { MSPROF, "info\\.json\\.(\\d*).*",      R(INFO),          BY_FOLDER, READ },
  { MSPROF, "(?:start|end)_info\\..*",     R(OTHER),         BY_FOLDER, 0 },
  /* Raw slices: "training_trace.46.dev.profiler_default_tag.1.slice_0", device 1 */
  { MSPROF, "(?:.*\\.(\\d+)|.*)\\.slice_\\d+", R(RAW),       BY_NAME,   0 },

  /* SQLite exports */
  { DB, "(?:msprof_|ascend_pytorch_profiler|ascend_mindspore_profiler).*\\.db", R(DB), BY_FOLDER, READ },
};

static GRegex *regexes[G_N_ELEMENTS (entries)];

static gpointer
compile_regexes (gpointer data)
{
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autofree char *anchored = NULL;
      g_autoptr(GError) error = NULL;

      /* A pattern with folders in it takes whole components at the end. */
      if (strchr (entries[i].pattern, '/') != NULL)
        anchored = g_strdup_printf ("(?:^|/)(?:%s)$", entries[i].pattern);
      else
        anchored = g_strdup_printf ("^(?:%s)$", entries[i].pattern);
      regexes[i] = g_regex_new (anchored, G_REGEX_OPTIMIZE, 0, &error);
      g_assert_no_error (error);
    }
  return NULL;
}

static GRegex *
get_regex (guint index)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, compile_regexes, NULL);
  return regexes[index];
}

/**
 * sl_profiler_layout_get_entries:
 *
 * Returns: (array length=n_entries): the table, in matching order
 */
const SlProfilerEntry *
sl_profiler_layout_get_entries (guint *n_entries)
{
  g_return_val_if_fail (n_entries != NULL, NULL);

  *n_entries = G_N_ELEMENTS (entries);
  return entries;
}

/* The id in group 1, or -1 when there is none. */
static gint64
match_id (GMatchInfo *info)
{
  g_autofree char *digits = g_match_info_fetch (info, 1);
  guint64 value;

  if (digits == NULL || digits[0] == '\0' || strlen (digits) > 9 ||
      !g_ascii_string_to_unsigned (digits, 10, 0, G_MAXINT32, &value, NULL))
    return -1;
  return (gint64)value;
}

/* Separators are "/" in the table, whatever the platform writes. */
static char *
dup_subject (const char *path,
             gboolean    whole)
{
  char *subject;

  if (!whole)
    return g_path_get_basename (path);
  subject = g_strdup (path);
  if (G_DIR_SEPARATOR != '/')
    g_strdelimit (subject, G_DIR_SEPARATOR_S, '/');
  return subject;
}

static gboolean
entry_matches (guint       index,
               const char *path,
               gint64     *id)
{
  gboolean whole = strchr (entries[index].pattern, '/') != NULL;
  g_autofree char *subject = dup_subject (path, whole);
  g_autoptr(GMatchInfo) info = NULL;

  if (!g_regex_match (get_regex (index), subject, 0, &info))
    return FALSE;
  if (id != NULL)
    *id = match_id (info);
  return TRUE;
}

static const SlProfilerEntry *
find_entry (const char      *path,
            gboolean         folder,
            gboolean         any_layout,
            SlProfileLayout  layout,
            gint64          *id)
{
  if (id != NULL)
    *id = -1;

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      if (((entries[i].flags & FOLDER) != 0) != folder)
        continue;
      if (!any_layout && entries[i].layout != layout)
        continue;
      if (entry_matches (i, path, id))
        return &entries[i];
    }
  return NULL;
}

/**
 * sl_profiler_layout_lookup_file:
 * @relative_path: a file's path, relative to the opened folder or longer
 * @id: (out) (optional): the rank or device id in the name, or -1
 *
 * Returns: (nullable): the first entry of any layout that names the file
 */
const SlProfilerEntry *
sl_profiler_layout_lookup_file (const char *relative_path,
                                gint64     *id)
{
  g_return_val_if_fail (relative_path != NULL, NULL);

  return find_entry (relative_path, FALSE, TRUE, 0, id);
}

/**
 * sl_profiler_layout_classify_file:
 *
 * Returns: what the file is in output of @layout, or
 *   %SL_PROFILER_ROLE_NONE
 */
SlProfilerRole
sl_profiler_layout_classify_file (SlProfileLayout  layout,
                                  const char      *relative_path)
{
  const SlProfilerEntry *entry;

  g_return_val_if_fail (relative_path != NULL, SL_PROFILER_ROLE_NONE);

  entry = find_entry (relative_path, FALSE, FALSE, layout, NULL);
  return entry != NULL ? entry->role : SL_PROFILER_ROLE_NONE;
}

/**
 * sl_profiler_layout_classify_dir:
 * @name: a folder's base name
 * @layout: (out) (optional): the profiler that writes such folders
 * @id: (out) (optional): the device id in the name, or -1
 *
 * Returns: what such a folder is, or %SL_PROFILER_ROLE_NONE
 */
SlProfilerRole
sl_profiler_layout_classify_dir (const char      *name,
                                 SlProfileLayout *layout,
                                 gint64          *id)
{
  const SlProfilerEntry *entry;

  g_return_val_if_fail (name != NULL, SL_PROFILER_ROLE_NONE);

  entry = find_entry (name, TRUE, TRUE, 0, id);
  if (entry == NULL)
    return SL_PROFILER_ROLE_NONE;
  if (layout != NULL)
    *layout = entry->layout;
  return entry->role;
}

/**
 * sl_profiler_layout_is_marker:
 * @name: a file's base name
 * @id: (out) (optional): the device or rank id in it, or -1
 *
 * Returns: whether a file of this name makes the folder holding it
 *   MindSpore profiler output
 */
gboolean
sl_profiler_layout_is_marker (const char *name,
                              gint64     *id)
{
  const SlProfilerEntry *entry;

  g_return_val_if_fail (name != NULL, FALSE);

  entry = find_entry (name, FALSE, FALSE, SL_PROFILE_LAYOUT_MINDSPORE, id);
  return entry != NULL && (entry->flags & MARKER) != 0;
}

static gboolean
is_dir (const char      *name,
        SlProfileLayout  layout,
        SlProfilerRole   role)
{
  SlProfileLayout found_layout;

  return sl_profiler_layout_classify_dir (name, &found_layout, NULL) == role && found_layout == layout;
}

/**
 * sl_profiler_layout_skip_dir:
 * @dir_has_output: whether @dir_name holds an ASCEND_PROFILER_OUTPUT folder
 *
 * Hidden folders are skipped, and so is the raw PROF_ folder that an
 * *_ascend_pt folder with its own ASCEND_PROFILER_OUTPUT was made from:
 * it is the same data again.
 *
 * Returns: whether nothing below @child_name of @dir_name belongs to the
 *   profile
 */
gboolean
sl_profiler_layout_skip_dir (const char *dir_name,
                             const char *child_name,
                             gboolean    dir_has_output)
{
  g_return_val_if_fail (child_name != NULL, FALSE);

  if (child_name[0] == '.')
    return TRUE;
  return dir_has_output && dir_name != NULL &&
         is_dir (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_PROFILE_FOLDER) &&
         is_dir (dir_name, SL_PROFILE_LAYOUT_ASCEND_PT, SL_PROFILER_ROLE_PROFILE_FOLDER);
}

/**
 * sl_profiler_layout_is_timeline:
 *
 * Returns: whether the file is a Chrome trace timeline of some profiler
 */
gboolean
sl_profiler_layout_is_timeline (const char *relative_path)
{
  const SlProfilerEntry *entry;

  g_return_val_if_fail (relative_path != NULL, FALSE);

  entry = sl_profiler_layout_lookup_file (relative_path, NULL);
  return entry != NULL && entry->role == SL_PROFILER_ROLE_TIMELINE;
}

static gboolean
is_timeline_source (const char *path)
{
  const SlProfilerEntry *entry = sl_profiler_layout_lookup_file (path, NULL);

  return entry != NULL && (entry->role == SL_PROFILER_ROLE_TIMELINE || entry->role == SL_PROFILER_ROLE_DB);
}

/* Every folder that holds one of @paths, below or at @root. */
static GHashTable *
collect_dirs (GPtrArray *paths)
{
  GHashTable *dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (paths, i));

      while (!g_hash_table_contains (dirs, dir))
        {
          g_autofree char *parent = g_path_get_dirname (dir);

          g_hash_table_add (dirs, g_strdup (dir));
          if (g_str_equal (parent, dir))
            break;
          g_free (dir);
          dir = g_steal_pointer (&parent);
        }
    }
  return dirs;
}

/* Whether the walk of sl_profile_list_timeline_files() would go from
 * @root down to @path. */
static gboolean
is_reachable (const char *root,
              const char *path,
              GHashTable *dirs)
{
  gsize root_len = strlen (root);
  g_autofree char *dir = NULL;
  g_autofree char *dir_name = NULL;
  g_auto(GStrv) parts = NULL;

  if (g_str_equal (path, root))
    return TRUE;
  if (!g_str_has_prefix (path, root) || path[root_len] != G_DIR_SEPARATOR)
    return FALSE;

  parts = g_strsplit (path + root_len + 1, G_DIR_SEPARATOR_S, -1);
  dir = g_strdup (root);
  dir_name = g_path_get_basename (root);

  for (guint i = 0; parts[i] != NULL && parts[i + 1] != NULL; i++)
    {
      g_autofree char *output = g_build_filename (dir, "ASCEND_PROFILER_OUTPUT", NULL);
      char *child;

      if (sl_profiler_layout_skip_dir (dir_name, parts[i], g_hash_table_contains (dirs, output)))
        return FALSE;
      child = g_build_filename (dir, parts[i], NULL);
      g_free (dir);
      dir = child;
      g_free (dir_name);
      dir_name = g_strdup (parts[i]);
    }
  return TRUE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

/**
 * sl_profiler_layout_select_timelines:
 * @root: the profiler folder (or the one file) that @paths belong to
 * @paths: (element-type utf8): files below @root
 *
 * Picks the files a timeline is read from, by name alone: Chrome trace
 * timelines and SQLite exports, leaving out what a walk of @root skips
 * (sl_profiler_layout_skip_dir()).
 *
 * Returns: (transfer full) (element-type utf8): the chosen paths, sorted
 */
GPtrArray *
sl_profiler_layout_select_timelines (const char *root,
                                     GPtrArray  *paths)
{
  g_autoptr(GHashTable) dirs = NULL;
  GPtrArray *timelines = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (root != NULL, timelines);
  g_return_val_if_fail (paths != NULL, timelines);

  dirs = collect_dirs (paths);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);

      if (is_timeline_source (path) && is_reachable (root, path, dirs))
        g_ptr_array_add (timelines, g_strdup (path));
    }
  g_ptr_array_sort (timelines, compare_paths);
  return timelines;
}

const char *
sl_profiler_role_to_string (SlProfilerRole role)
{
  static const char * const names[] = {
    [SL_PROFILER_ROLE_NONE] = "none",
    [SL_PROFILER_ROLE_PROFILE_FOLDER] = "profile-folder",
    [SL_PROFILER_ROLE_RAW_FOLDER] = "raw-folder",
    [SL_PROFILER_ROLE_RAW_DATA_FOLDER] = "raw-data-folder",
    [SL_PROFILER_ROLE_OUTPUT_FOLDER] = "output-folder",
    [SL_PROFILER_ROLE_DEVICE_FOLDER] = "device-folder",
    [SL_PROFILER_ROLE_TIMELINE] = "timeline",
    [SL_PROFILER_ROLE_TIMELINE_SUMMARY] = "timeline-summary",
    [SL_PROFILER_ROLE_OP_SUMMARY] = "op-summary",
    [SL_PROFILER_ROLE_OP_STATISTIC] = "op-statistic",
    [SL_PROFILER_ROLE_AICPU] = "aicpu",
    [SL_PROFILER_ROLE_TASK_TIME] = "task-time",
    [SL_PROFILER_ROLE_API_STATISTIC] = "api-statistic",
    [SL_PROFILER_ROLE_STEP_TRACE] = "step-trace",
    [SL_PROFILER_ROLE_STEP_TRACE_POINTS] = "step-trace-points",
    [SL_PROFILER_ROLE_FRAMEWORK] = "framework",
    [SL_PROFILER_ROLE_FLOPS] = "flops",
    [SL_PROFILER_ROLE_FLOPS_SUMMARY] = "flops-summary",
    [SL_PROFILER_ROLE_MEMORY] = "memory",
    [SL_PROFILER_ROLE_COMMUNICATION] = "communication",
    [SL_PROFILER_ROLE_DATA_PREPARATION] = "data-preparation",
    [SL_PROFILER_ROLE_INFO] = "info",
    [SL_PROFILER_ROLE_DB] = "db",
    [SL_PROFILER_ROLE_CLUSTER_STEP] = "cluster-step",
    [SL_PROFILER_ROLE_RAW] = "raw",
    [SL_PROFILER_ROLE_OTHER] = "other",
  };

  g_return_val_if_fail ((guint)role < G_N_ELEMENTS (names), NULL);
  return names[role];
}

/* What a profile of each layout is read from, as a user looks for the
 * files: "N" stands for the rank or device id of MindSpore's names, "*"
 * for the rest of msprof's. */
static const struct {
  SlProfileLayout  layout;
  SlProfilerRole   role;
  const char      *name;
} companions[] = {
  { MS,     R(STEP_TRACE),    "step_trace_raw_N_detail_time.csv" },
  { MS,     R(OP_STATISTIC),  "aicore_intermediate_N_type.csv" },
  { MS,     R(OP_SUMMARY),    "aicore_intermediate_N_detail.csv" },
  { MS,     R(AICPU),         "aicpu_intermediate_N.csv" },
  { MS,     R(FRAMEWORK),     "framework_raw_N.csv" },
  { MS,     R(COMMUNICATION), "hccl_raw_N.csv" },
  { MS,     R(INFO),          "profiler_info_N.json" },
  { MS,     R(TIMELINE),      "ascend_timeline_display_N.json" },
  { PT,     R(OP_SUMMARY),    "kernel_details.csv" },
  { PT,     R(OP_STATISTIC),  "op_statistic.csv" },
  { PT,     R(STEP_TRACE),    "step_trace_time.csv" },
  { PT,     R(API_STATISTIC), "api_statistic.csv" },
  { PT,     R(MEMORY),        "operator_memory.csv" },
  { PT,     R(COMMUNICATION), "communication.json" },
  { PT,     R(TIMELINE),      "trace_view.json" },
  { MSPROF, R(OP_SUMMARY),    "op_summary_*.csv" },
  { MSPROF, R(OP_STATISTIC),  "op_statistic_*.csv" },
  { MSPROF, R(STEP_TRACE),    "step_trace_*.csv" },
  { MSPROF, R(TASK_TIME),     "task_time_*.csv" },
  { MSPROF, R(API_STATISTIC), "api_statistic_*.csv" },
  { MSPROF, R(TIMELINE),      "msprof_*.json" },
  { CL,     R(CLUSTER_STEP),  "cluster_step_trace_time.csv" },
  { CL,     R(COMMUNICATION), "cluster_communication.json" },
};

/**
 * sl_profiler_layout_list_missing_companions:
 * @path: a profiler file opened on its own
 *
 * The other files a profile of @path's kind is read from that are not in
 * the folder holding @path (for MindSpore's names, those of the same id).
 *
 * Returns: (transfer full) (element-type utf8): their names, as the
 *   profiler writes them ("N" for the id, "*" for the rest of a name);
 *   empty when @path is no profiler file or nothing is missing
 */
GPtrArray *
sl_profiler_layout_list_missing_companions (const char *path)
{
  GPtrArray *missing = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *name = NULL;
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GArray) present = g_array_new (FALSE, FALSE, sizeof (SlProfilerRole));
  const SlProfilerEntry *entry;
  const char *child;
  gint64 id;

  g_return_val_if_fail (path != NULL, missing);

  name = g_path_get_basename (path);
  entry = sl_profiler_layout_lookup_file (name, &id);
  if (entry == NULL || (entry->flags & READ) == 0)
    return missing;

  /* The roles the folder holds, among files of the same kind and id */
  dir_path = g_path_get_dirname (path);
  dir = g_dir_open (dir_path, 0, NULL);
  g_array_append_val (present, entry->role);
  while (dir != NULL && (child = g_dir_read_name (dir)) != NULL)
    {
      gint64 child_id;
      const SlProfilerEntry *child_entry = sl_profiler_layout_lookup_file (child, &child_id);

      if (child_entry != NULL && child_entry->layout == entry->layout &&
          (entry->layout != MS || child_id == id))
        g_array_append_val (present, child_entry->role);
    }

  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      gboolean found = FALSE;

      if (companions[i].layout != entry->layout)
        continue;
      for (guint j = 0; j < present->len && !found; j++)
        found = g_array_index (present, SlProfilerRole, j) == companions[i].role;
      if (found)
        continue;

      if (entry->layout == MS && id >= 0)
        {
          GString *named = g_string_new (companions[i].name);
          g_autofree char *middle = g_strdup_printf ("_%" G_GINT64_FORMAT "_", id);
          g_autofree char *last = g_strdup_printf ("_%" G_GINT64_FORMAT ".", id);

          g_string_replace (named, "_N_", middle, 0);
          g_string_replace (named, "_N.", last, 0);
          g_ptr_array_add (missing, g_string_free (named, FALSE));
        }
      else
        {
          g_ptr_array_add (missing, g_strdup (companions[i].name));
        }
    }

  return missing;
}
