/* sl-detector.c
 *
 * Walks an opened folder and recognises what the Ascend, MindSpore,
 * PyTorch and TensorBoard tools left in it. Recognition goes by names
 * first and then by the first few KiB of the candidate files; nothing is
 * parsed in full, so opening a folder of gigabytes stays quick.
 *
 * Folders that a profiler or a dumper wrote as a whole (profiler*,
 * PROF_*, *_ascend_pt, msprobe dumps) become one finding that owns every
 * file below them. Summary and TensorBoard runs own only their event
 * files; the rest of a run folder is still looked at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-cluster-detection.h"
#include "sl-detector.h"
#include "sl-graph-def-text.h"
#include "sl-mindir-reader.h"
#include "sl-onnx-reader.h"
#include "sl-pipeline-reader.h"
#include "sl-profiler-layout.h"
#include "sl-proto-shape.h"
#include "sl-sniffer.h"
#include "sl-trace-skimmer.h"
#include "sl-tuner-config.h"

#define MAX_DEPTH          64
#define MAX_PIPELINE_SIZE  (1024 * 1024)

#define CHILD_ATTRIBUTES \
  G_FILE_ATTRIBUTE_STANDARD_NAME "," \
  G_FILE_ATTRIBUTE_STANDARD_TYPE "," \
  G_FILE_ATTRIBUTE_STANDARD_SIZE "," \
  G_FILE_ATTRIBUTE_ID_FILE

struct _SlDetector
{
  GObject  parent_instance;
  char    *path;
  guint    files_scanned;  /* atomic: the GUI polls it from another thread */
};

G_DEFINE_FINAL_TYPE (SlDetector, sl_detector, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  SlDetector   *detector;
  SlDetection  *detection;
  GFile        *root;
  gboolean      root_is_file;
  GCancellable *cancellable;
  GHashTable   *visited;    /* id::file of every folder entered */
  GHashTable   *ancestors;  /* id::file -> path, for the folders being walked */
  GPtrArray    *analysis_parents; /* folders holding a cluster_analysis_output */
} Walk;

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/* Reads the digits at @p; TRUE when there is at least one and what
 * follows is @terminators or the end. */
static gboolean
parse_id (const char *p,
          const char *terminators,
          guint64    *id)
{
  const char *end = p;
  guint64 value = 0;

  while (g_ascii_isdigit (*end) && end - p < 18)
    value = value * 10 + (*end++ - '0');

  if (end == p || (*end != '\0' && strchr (terminators, *end) == NULL))
    return FALSE;

  *id = value;
  return TRUE;
}

/* The device or rank id in a MindSpore profiler file name. */
static gboolean
mindspore_profiler_file_id (const char *name,
                            guint64    *id)
{
  gint64 value;

  if (!sl_profiler_layout_is_marker (name, &value) || value < 0)
    return FALSE;
  *id = (guint64)value;
  return TRUE;
}

/* Raw CANN profiling data: "training_trace.46.dev.profiler_default_tag.1.slice_0",
 * where 1 is the device; G_MAXUINT64 when the name has none. */
static gboolean
raw_slice_device_id (const char *name,
                     guint64    *id)
{
  gint64 value;

  if (sl_profiler_layout_classify_file (SL_PROFILE_LAYOUT_MSPROF, name) != SL_PROFILER_ROLE_RAW)
    return FALSE;
  sl_profiler_layout_lookup_file (name, &value);
  *id = value >= 0 ? (guint64)value : G_MAXUINT64;
  return TRUE;
}

static gboolean
is_dir_of (const char      *name,
           SlProfileLayout  layout,
           SlProfilerRole   role)
{
  SlProfileLayout found;

  return sl_profiler_layout_classify_dir (name, &found, NULL) == role && found == layout;
}

/* The device id of a device_N folder. */
static gboolean
device_folder_id (const char *name,
                  guint64    *id)
{
  gint64 value;
  SlProfileLayout layout;

  if (sl_profiler_layout_classify_dir (name, &layout, &value) != SL_PROFILER_ROLE_DEVICE_FOLDER ||
      layout != SL_PROFILE_LAYOUT_MSPROF || value < 0)
    return FALSE;
  *id = (guint64)value;
  return TRUE;
}

/* MindInsight's rule: any name matching summary\.(\d+) */
static gboolean
summary_file_number (const char *name,
                     guint64    *number)
{
  for (const char *p = strstr (name, "summary."); p != NULL; p = strstr (p + 1, "summary."))
    {
      const char *digits = p + strlen ("summary.");
      guint64 value = 0;

      if (!g_ascii_isdigit (*digits))
        continue;
      while (g_ascii_isdigit (*digits) && value < G_MAXUINT64 / 10)
        value = value * 10 + (*digits++ - '0');
      *number = value;
      return TRUE;
    }

  return FALSE;
}

static gboolean
is_summary_file (const char *name)
{
  guint64 number;

  return summary_file_number (name, &number);
}

static gboolean
is_tensorboard_file (const char *name)
{
  return g_str_has_prefix (name, "events.out.tfevents.");
}

static gboolean
is_profiler_db_name (const char *name)
{
  return sl_profiler_layout_classify_file (SL_PROFILE_LAYOUT_DATABASE, name) == SL_PROFILER_ROLE_DB;
}

static gboolean
is_numbered (const char *name,
             const char *prefix,
             guint64    *id)
{
  return g_str_has_prefix (name, prefix) && parse_id (name + strlen (prefix), "", id);
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint64 id_a = *(const guint64 *)a;
  guint64 id_b = *(const guint64 *)b;

  return id_a < id_b ? -1 : id_a > id_b;
}

/* "0,1,10": sorted, without repeats */
static char *
format_ids (GArray *ids)
{
  GString *str = g_string_new (NULL);
  guint64 last = G_MAXUINT64;

  g_array_sort (ids, compare_ids);

  for (guint i = 0; i < ids->len; i++)
    {
      guint64 id = g_array_index (ids, guint64, i);

      if (id == last || id == G_MAXUINT64)
        continue;
      if (str->len > 0)
        g_string_append_c (str, ',');
      g_string_append_printf (str, "%" G_GUINT64_FORMAT, id);
      last = id;
    }

  return g_string_free (str, FALSE);
}

static const char *
yes_no (gboolean value)
{
  return value ? "yes" : "no";
}

static void
add_uint_detail (SlFinding  *finding,
                 const char *key,
                 guint64     value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  sl_finding_add_detail (finding, key, text);
}

/* ------------------------------------------------------------------ */
/* Walk helpers                                                        */
/* ------------------------------------------------------------------ */

static void
walk_clear (Walk *walk)
{
  g_clear_object (&walk->detection);
  g_clear_object (&walk->root);
  g_clear_pointer (&walk->visited, g_hash_table_unref);
  g_clear_pointer (&walk->ancestors, g_hash_table_unref);
  g_clear_pointer (&walk->analysis_parents, g_ptr_array_unref);
}

static gboolean
walk_cancelled (Walk *walk)
{
  return g_cancellable_is_cancelled (walk->cancellable);
}

static void
walk_count_file (Walk *walk)
{
  g_atomic_int_inc ((gint *)&walk->detector->files_scanned);
}

static void
add_problem (Walk       *walk,
             SlSeverity  severity,
             GFile      *file,
             gint64      offset,
             const char *message)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(SlProblem) problem = NULL;

  /* The source is shown in the Problems panel: it names the component. */
  problem = sl_problem_new (severity, _("Folder scan"), path, offset, message);
  sl_detection_add_problem (walk->detection, problem);
}

static void
add_read_problem (Walk         *walk,
                  GFile        *file,
                  const GError *error)
{
  g_autofree char *message = NULL;

  message = g_strdup_printf (_("Could not read the file: %s. Check that it still exists and that you have permission to read it."),
                             error->message);
  add_problem (walk, SL_SEVERITY_ERROR, file, -1, message);
}

/* Findings are named by their path relative to the opened folder, "."
 * for the folder itself. An opened file is named by its base name. */
static char *
dup_relative_name (Walk  *walk,
                   GFile *file)
{
  char *relative;

  if (walk->root_is_file)
    return g_file_get_basename (file);

  relative = g_file_get_relative_path (walk->root, file);
  return relative != NULL ? relative : g_strdup (".");
}

static SlFinding *
finding_new_for_file (Walk          *walk,
                      SlFindingKind  kind,
                      GFile         *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = dup_relative_name (walk, file);

  return sl_finding_new (kind, path, name);
}

static void
finding_add_gfile (SlFinding *finding,
                   GFile     *file,
                   GFileInfo *info)
{
  g_autofree char *path = g_file_get_path (file);

  sl_finding_add_file (finding, path, MAX (g_file_info_get_size (info), 0));
}

static int
compare_infos_by_name (gconstpointer a,
                       gconstpointer b)
{
  GFileInfo *info_a = *(GFileInfo * const *)a;
  GFileInfo *info_b = *(GFileInfo * const *)b;

  return strcmp (g_file_info_get_name (info_a), g_file_info_get_name (info_b));
}

/* Returns: (transfer full): the children of @folder as GFileInfo, sorted
 * by name so findings come out in the same order on every run. */
static GPtrArray *
list_folder (Walk    *walk,
             GFile   *folder,
             GError **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) children = g_ptr_array_new_with_free_func (g_object_unref);

  enumerator = g_file_enumerate_children (folder, CHILD_ATTRIBUTES, G_FILE_QUERY_INFO_NONE,
                                          walk->cancellable, error);
  if (enumerator == NULL)
    return NULL;

  while (TRUE)
    {
      GFileInfo *info;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, walk->cancellable, error))
        return NULL;
      if (info == NULL)
        break;
      g_ptr_array_add (children, g_object_ref (info));
    }

  g_ptr_array_sort (children, compare_infos_by_name);

  return g_steal_pointer (&children);
}

static gboolean
is_regular (GFileInfo *info)
{
  return g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR;
}

static gboolean
is_folder (GFileInfo *info)
{
  return g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY;
}

static GFileInfo *
find_child (GPtrArray  *children,
            const char *name)
{
  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);

      if (g_str_equal (g_file_info_get_name (info), name))
        return info;
    }

  return NULL;
}

static gboolean
has_child_folder (GPtrArray  *children,
                  const char *name)
{
  GFileInfo *info = find_child (children, name);

  return info != NULL && is_folder (info);
}

/* Checks that @folder may be entered: not too deep, and not a folder that
 * a symbolic link brought us back to. Pair with leave_folder(). */
static gboolean
enter_folder (Walk      *walk,
              GFile     *folder,
              GFileInfo *info,
              guint      depth)
{
  const char *id = g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE);

  if (depth > MAX_DEPTH)
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("Folders are nested more than %u levels deep here; the folders below were not scanned."),
                                 MAX_DEPTH);
      add_problem (walk, SL_SEVERITY_WARNING, folder, -1, message);
      return FALSE;
    }

  /* Without an id (some remote file systems) only the depth limit
   * protects against loops. */
  if (id == NULL)
    return TRUE;

  if (g_hash_table_contains (walk->ancestors, id))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("A symbolic link leads back to “%s”, which would loop forever; it was not followed."),
                                 (const char *)g_hash_table_lookup (walk->ancestors, id));
      add_problem (walk, SL_SEVERITY_WARNING, folder, -1, message);
      return FALSE;
    }

  if (g_hash_table_contains (walk->visited, id))
    {
      add_problem (walk, SL_SEVERITY_INFO, folder, -1,
                   _("This folder was already scanned through another path (a symbolic link); it was skipped."));
      return FALSE;
    }

  g_hash_table_add (walk->visited, g_strdup (id));
  g_hash_table_insert (walk->ancestors, g_strdup (id), g_file_get_path (folder));

  return TRUE;
}

static void
leave_folder (Walk      *walk,
              GFileInfo *info)
{
  const char *id = g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE);

  if (id != NULL)
    g_hash_table_remove (walk->ancestors, id);
}

/* Returns: (transfer full) (nullable): the children, or %NULL after
 * adding a problem (or when cancelled) */
static GPtrArray *
list_folder_or_report (Walk  *walk,
                       GFile *folder)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *children;

  children = list_folder (walk, folder, &error);
  if (children == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("Could not list the folder: %s. Check that it still exists and that you have permission to read it."),
                                 error->message);
      add_problem (walk, SL_SEVERITY_ERROR, folder, -1, message);
    }

  return children;
}

/* Sniffs a candidate file, or adds a problem when it cannot be read. */
static SlSniffResult *
sniff_or_report (Walk  *walk,
                 GFile *file)
{
  g_autoptr(GError) error = NULL;
  SlSniffResult *result;

  result = sl_sniffer_sniff_file (file, walk->cancellable, &error);
  if (result == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    add_read_problem (walk, file, error);

  return result;
}

/* ------------------------------------------------------------------ */
/* Whole folders owned by one finding                                  */
/* ------------------------------------------------------------------ */

/* Attaches every regular file below @folder to @finding. */
static gboolean
collect_files (Walk      *walk,
               SlFinding *finding,
               GFile     *folder,
               GPtrArray *children,
               guint      depth)
{
  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = g_file_get_child (folder, g_file_info_get_name (info));

      if (walk_cancelled (walk))
        return FALSE;

      if (is_regular (info))
        {
          walk_count_file (walk);
          finding_add_gfile (finding, child, info);
        }
      else if (is_folder (info) && enter_folder (walk, child, info, depth + 1))
        {
          g_autoptr(GPtrArray) grandchildren = list_folder_or_report (walk, child);
          gboolean ok = TRUE;

          if (grandchildren != NULL)
            ok = collect_files (walk, finding, child, grandchildren, depth + 1);
          leave_folder (walk, info);
          if (!ok)
            return FALSE;
        }
    }

  return TRUE;
}

static gboolean
is_ascend_profiler_folder (const char *name,
                           GPtrArray  *children)
{
  return is_dir_of (name, SL_PROFILE_LAYOUT_ASCEND_PT, SL_PROFILER_ROLE_PROFILE_FOLDER) ||
         is_dir_of (name, SL_PROFILE_LAYOUT_ASCEND_PT, SL_PROFILER_ROLE_OUTPUT_FOLDER) ||
         has_child_folder (children, "ASCEND_PROFILER_OUTPUT");
}

static gboolean
has_raw_slices (GPtrArray *children)
{
  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      guint64 id;

      if (is_regular (info) && raw_slice_device_id (g_file_info_get_name (info), &id))
        return TRUE;
    }

  return FALSE;
}

/* PROF_* of current CANN, or the JOB* folders older CANN wrote raw
 * slices into. */
static gboolean
is_msprof_folder (const char *name,
                  GPtrArray  *children)
{
  if (is_dir_of (name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_PROFILE_FOLDER))
    {
      for (guint i = 0; i < children->len; i++)
        {
          GFileInfo *info = g_ptr_array_index (children, i);
          const char *child_name = g_file_info_get_name (info);

          if (is_folder (info) &&
              (is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_DEVICE_FOLDER) ||
               is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_OUTPUT_FOLDER)))
            return TRUE;
        }
      return FALSE;
    }

  if (is_dir_of (name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_RAW_FOLDER))
    return has_raw_slices (children) || has_child_folder (children, "data");

  return FALSE;
}

static gboolean
is_mindspore_profiler_folder (const char *name,
                              GPtrArray  *children)
{
  gboolean has_files = FALSE;

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      const char *child_name = g_file_info_get_name (info);

      if (is_regular (info))
        {
          if (sl_profiler_layout_is_marker (child_name, NULL))
            return TRUE;
          has_files = TRUE;
        }
      else if (is_folder (info) &&
               is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_PROFILE_FOLDER))
        {
          has_files = TRUE;
        }
    }

  /* MindInsight takes any child folder named profiler* as profiler
   * output; an empty one is of no use. */
  return is_dir_of (name, SL_PROFILE_LAYOUT_MINDSPORE, SL_PROFILER_ROLE_PROFILE_FOLDER) && has_files;
}

/* Returns: (transfer full) (nullable): the sniffed dump.json of an msprobe
 * dump folder */
static SlSniffResult *
sniff_msprobe_dump (Walk      *walk,
                    GFile     *folder,
                    GPtrArray *children)
{
  GFileInfo *info = find_child (children, "dump.json");
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlSniffResult) result = NULL;

  if (info == NULL || !is_regular (info))
    return NULL;

  file = g_file_get_child (folder, "dump.json");
  result = sl_sniffer_sniff_file (file, walk->cancellable, NULL);
  if (result == NULL || result->json_root != SL_JSON_ROOT_OBJECT)
    return NULL;

  if (!sl_sniff_result_has_json_key (result, "task") ||
      !sl_sniff_result_has_json_key (result, "level") ||
      !sl_sniff_result_has_json_key (result, "framework") ||
      !sl_sniff_result_has_json_key (result, "data"))
    return NULL;

  return g_steal_pointer (&result);
}

static void
add_mindspore_profiler_details (SlFinding *finding,
                                GPtrArray *children)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GString) prof_folders = g_string_new (NULL);
  g_autofree char *ranks = NULL;
  guint n_files = sl_finding_get_n_files (finding);

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_path_get_basename (sl_finding_get_file (finding, i));
      guint64 id;

      if (mindspore_profiler_file_id (name, &id))
        g_array_append_val (ids, id);
    }

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);

      if (is_folder (info) &&
          is_dir_of (g_file_info_get_name (info), SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_PROFILE_FOLDER))
        {
          if (prof_folders->len > 0)
            g_string_append (prof_folders, ",");
          g_string_append (prof_folders, g_file_info_get_name (info));
        }
    }

  ranks = format_ids (ids);
  if (ranks[0] != '\0')
    sl_finding_add_detail (finding, "ranks", ranks);
  if (prof_folders->len > 0)
    sl_finding_add_detail (finding, "msprof_folders", prof_folders->str);
}

static void
add_msprof_details (SlFinding  *finding,
                    const char *folder_name)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *devices = NULL;
  gboolean current_layout = FALSE;
  g_autoptr(GPtrArray) timelines = sl_finding_dup_timeline_files (finding);
  guint n_files = sl_finding_get_n_files (finding);
  guint n_timelines = 0;

  for (guint i = 0; i < n_files; i++)
    {
      const char *path = sl_finding_get_file (finding, i);
      g_autofree char *name = g_path_get_basename (path);
      g_auto(GStrv) parts = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
      guint64 id;

      for (guint j = 0; parts[j] != NULL; j++)
        {
          if (device_folder_id (parts[j], &id))
            g_array_append_val (ids, id);
          if (is_dir_of (parts[j], SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_OUTPUT_FOLDER))
            current_layout = TRUE;
        }

      if (raw_slice_device_id (name, &id))
        g_array_append_val (ids, id);
    }

  /* "timelines" counts the Chrome traces; "timeline_files" adds the
   * SQLite export. */
  for (guint i = 0; i < timelines->len; i++)
    n_timelines += sl_profiler_layout_is_timeline (g_ptr_array_index (timelines, i));

  if (is_dir_of (folder_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_RAW_FOLDER))
    sl_finding_add_detail (finding, "layout", "raw");
  else
    sl_finding_add_detail (finding, "layout", current_layout ? "mindstudio_profiler_output" : "device");

  devices = format_ids (ids);
  if (devices[0] != '\0')
    sl_finding_add_detail (finding, "devices", devices);
  add_uint_detail (finding, "timelines", n_timelines);
}

static void
add_ascend_profiler_details (SlFinding  *finding,
                             const char *folder_name)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *rank_text = NULL;
  gboolean has_db = FALSE;
  gboolean has_text = FALSE;
  guint n_files = sl_finding_get_n_files (finding);

  /* The table takes both; the suffix tells the framework. */
  if (g_str_has_suffix (folder_name, "_ascend_pt"))
    sl_finding_add_detail (finding, "framework", "PyTorch");
  else if (g_str_has_suffix (folder_name, "_ascend_ms"))
    sl_finding_add_detail (finding, "framework", "MindSpore");

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_path_get_basename (sl_finding_get_file (finding, i));
      const SlProfilerEntry *entry;
      gint64 id;

      entry = sl_profiler_layout_lookup_file (name, &id);
      if (entry == NULL)
        continue;

      if (entry->role == SL_PROFILER_ROLE_INFO && entry->rank == SL_PROFILER_RANK_NAME && id >= 0)
        {
          guint64 rank = (guint64)id;

          g_array_append_val (ranks, rank);
        }

      if (entry->role == SL_PROFILER_ROLE_DB)
        has_db = TRUE;
      else if (entry->layout == SL_PROFILE_LAYOUT_ASCEND_PT &&
               (entry->role == SL_PROFILER_ROLE_TIMELINE || entry->role == SL_PROFILER_ROLE_OP_SUMMARY))
        has_text = TRUE;
    }

  rank_text = format_ids (ranks);
  if (rank_text[0] != '\0')
    sl_finding_add_detail (finding, "ranks", rank_text);

  if (has_db && has_text)
    sl_finding_add_detail (finding, "export", "db,text");
  else if (has_db || has_text)
    sl_finding_add_detail (finding, "export", has_db ? "db" : "text");
}

static void
add_msprobe_details (SlFinding     *finding,
                     GFile         *folder,
                     SlSniffResult *dump)
{
  static const char * const keys[] = { "task", "level", "framework" };
  g_autofree char *name = g_file_get_basename (folder);
  g_autoptr(GFile) parent = g_file_get_parent (folder);
  guint64 id;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *value = sl_sniff_result_lookup_json (dump, keys[i]);

      if (value != NULL)
        sl_finding_add_detail (finding, keys[i], value);
    }

  /* dump_path/step<N>/rank<N>/dump.json */
  if (is_numbered (name, "rank", &id))
    add_uint_detail (finding, "rank", id);

  if (parent != NULL)
    {
      g_autofree char *parent_name = g_file_get_basename (parent);

      if (parent_name != NULL && is_numbered (parent_name, "step", &id))
        add_uint_detail (finding, "step", id);
    }
}

/* SL_FINDING_DETAIL_TIMELINE_FILES: what the GUI asks before it offers
 * a timeline, so it need not walk the folder again. */
static void
add_timeline_detail (SlFinding *finding)
{
  g_autoptr(GPtrArray) timelines = sl_finding_dup_timeline_files (finding);

  add_uint_detail (finding, SL_FINDING_DETAIL_TIMELINE_FILES, timelines->len);
}

/* Returns: TRUE when @folder was taken as a whole; *ok is FALSE when the
 * walk was cancelled. */
static gboolean
detect_whole_folder (Walk      *walk,
                     GFile     *folder,
                     GPtrArray *children,
                     guint      depth,
                     gboolean  *ok)
{
  g_autofree char *name = g_file_get_basename (folder);
  g_autoptr(SlSniffResult) dump = NULL;
  g_autoptr(SlFinding) finding = NULL;
  SlFindingKind kind;

  if (is_ascend_profiler_folder (name, children))
    kind = SL_FINDING_ASCEND_PROFILER;
  else if (is_msprof_folder (name, children))
    kind = SL_FINDING_MSPROF;
  else if ((dump = sniff_msprobe_dump (walk, folder, children)) != NULL)
    kind = SL_FINDING_MSPROBE_DUMP;
  else if (is_mindspore_profiler_folder (name, children))
    kind = SL_FINDING_MINDSPORE_PROFILER;
  else
    return FALSE;

  finding = finding_new_for_file (walk, kind, folder);
  *ok = collect_files (walk, finding, folder, children, depth);
  if (!*ok)
    return TRUE;

  switch (kind)
    {
    case SL_FINDING_ASCEND_PROFILER:
      add_ascend_profiler_details (finding, name);
      break;
    case SL_FINDING_MSPROF:
      add_msprof_details (finding, name);
      break;
    case SL_FINDING_MSPROBE_DUMP:
      add_msprobe_details (finding, folder, dump);
      break;
    case SL_FINDING_MINDSPORE_PROFILER:
      add_mindspore_profiler_details (finding, children);
      break;
    default:
      g_assert_not_reached ();
    }

  if (kind != SL_FINDING_MSPROBE_DUMP)
    add_timeline_detail (finding);

  sl_detection_add_finding (walk->detection, finding);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Summary and TensorBoard runs                                        */
/* ------------------------------------------------------------------ */

static void
report_record_scan (Walk         *walk,
                    GFile        *file,
                    SlRecordScan *scan)
{
  for (guint i = 0; i < MIN (scan->n_bad_payloads, G_N_ELEMENTS (scan->bad_payload_offsets)); i++)
    add_problem (walk, SL_SEVERITY_ERROR, file, scan->bad_payload_offsets[i],
                 _("The data checksum of this record does not match: the record is damaged and will be skipped."));

  if (scan->bad_header_offset == 0)
    {
      add_problem (walk, SL_SEVERITY_ERROR, file, 0,
                   _("The checksum of the first record’s length does not match: the file is damaged or is not a summary file."));
    }
  else if (scan->bad_header_offset > 0)
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The length of record %u is damaged (its checksum does not match); the records after it cannot be read."),
                                 scan->bad_header_index);
      add_problem (walk, SL_SEVERITY_ERROR, file, scan->bad_header_offset, message);
    }

  if (scan->partial_offset >= 0)
    add_problem (walk, SL_SEVERITY_WARNING, file, scan->partial_offset,
                 _("The file ends in the middle of a record: it is still being written, or it was cut off."));
}

/* Attaches one event file to its run and checks its first records.
 * Returns: (transfer full) (nullable): the version string of its first
 * event */
static char *
check_event_file (Walk      *walk,
                  SlFinding *run,
                  GFile     *file,
                  GFileInfo *info,
                  gboolean  *has_graph)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlRecordScan scan;
  const guint8 *data;
  gsize len;
  char *version;

  finding_add_gfile (run, file, info);

  if (g_file_info_get_size (info) == 0)
    {
      add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                   _("The file is empty: the training job may not have written its first record yet."));
      return NULL;
    }

  head = sl_sniffer_read_head (file, SL_SNIFFER_RECORDS_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_read_problem (walk, file, error);
      return NULL;
    }

  data = g_bytes_get_data (head, &len);
  sl_sniffer_scan_records (data, len, g_file_info_get_size (info), &scan);
  report_record_scan (walk, file, &scan);

  version = g_steal_pointer (&scan.version);
  if (has_graph != NULL)
    *has_graph |= scan.has_graph;
  sl_record_scan_clear (&scan);

  return version;
}

typedef struct {
  GFileInfo *info;
  guint64    number;
} SummaryEntry;

static int
compare_summary_entries (gconstpointer a,
                         gconstpointer b)
{
  const SummaryEntry *entry_a = a;
  const SummaryEntry *entry_b = b;

  if (entry_a->number != entry_b->number)
    return entry_a->number < entry_b->number ? -1 : 1;
  return strcmp (g_file_info_get_name (entry_a->info), g_file_info_get_name (entry_b->info));
}

/* Returns: (transfer full): the summary, lineage and explain files of
 * @files in MindInsight's order (by the number after "summary.") */
static GArray *
sort_summary_files (GPtrArray *files)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (SummaryEntry));

  for (guint i = 0; i < files->len; i++)
    {
      SummaryEntry entry = { g_ptr_array_index (files, i), 0 };

      summary_file_number (g_file_info_get_name (entry.info), &entry.number);
      g_array_append_val (entries, entry);
    }

  g_array_sort (entries, compare_summary_entries);
  return entries;
}

/* The run path is its folder; an opened single file is its own run. */
static SlFinding *
run_finding_new (Walk          *walk,
                 SlFindingKind  kind,
                 GFile         *folder,
                 GFile         *single_file)
{
  return finding_new_for_file (walk, kind, single_file != NULL ? single_file : folder);
}

static gboolean
detect_summary_run (Walk      *walk,
                    GFile     *folder,
                    GPtrArray *summary_files,
                    GPtrArray *graph_files,
                    GFile     *single_file)
{
  g_autoptr(SlFinding) run = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autofree char *version = NULL;
  guint n_summary = 0, n_lineage = 0, n_explain = 0;

  run = run_finding_new (walk, SL_FINDING_SUMMARY_RUN, folder, single_file);
  entries = sort_summary_files (summary_files);

  for (guint i = 0; i < entries->len; i++)
    {
      GFileInfo *info = g_array_index (entries, SummaryEntry, i).info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = g_file_get_child (folder, name);
      g_autofree char *file_version = NULL;

      if (walk_cancelled (walk))
        return FALSE;

      file_version = check_event_file (walk, run, file, info, NULL);

      if (g_str_has_suffix (name, "_lineage"))
        n_lineage++;
      else if (g_str_has_suffix (name, "_explain"))
        n_explain++;
      else
        {
          n_summary++;
          if (version == NULL)
            version = g_steal_pointer (&file_version);
        }
    }

  /* MindInsight loads *.pb next to the summaries as the job's graphs. */
  for (guint i = 0; i < graph_files->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (graph_files, i);
      g_autoptr(GFile) file = g_file_get_child (folder, g_file_info_get_name (info));

      finding_add_gfile (run, file, info);
    }

  add_uint_detail (run, "summary_files", n_summary);
  add_uint_detail (run, "lineage_files", n_lineage);
  if (n_explain > 0)
    add_uint_detail (run, "explain_files", n_explain);
  if (graph_files->len > 0)
    add_uint_detail (run, "graph_files", graph_files->len);
  sl_finding_add_detail (run, "has_lineage", yes_no (n_lineage > 0));
  if (version != NULL)
    sl_finding_add_detail (run, "version", version);

  sl_detection_add_finding (walk->detection, run);
  return TRUE;
}

static gboolean
detect_tensorboard_run (Walk      *walk,
                        GFile     *folder,
                        GPtrArray *event_files,
                        GFile     *single_file)
{
  g_autoptr(SlFinding) run = NULL;
  g_autofree char *version = NULL;
  gboolean has_graph = FALSE;

  run = run_finding_new (walk, SL_FINDING_TENSORBOARD_RUN, folder, single_file);

  for (guint i = 0; i < event_files->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (event_files, i);
      g_autoptr(GFile) file = g_file_get_child (folder, g_file_info_get_name (info));
      g_autofree char *file_version = NULL;

      if (walk_cancelled (walk))
        return FALSE;

      file_version = check_event_file (walk, run, file, info, &has_graph);
      if (version == NULL)
        version = g_steal_pointer (&file_version);
    }

  add_uint_detail (run, "event_files", event_files->len);
  /* From the records in each file's head: a graph written later is not seen. */
  sl_finding_add_detail (run, "graph", yes_no (has_graph));
  if (version != NULL)
    sl_finding_add_detail (run, "version", version);

  sl_detection_add_finding (walk->detection, run);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Single files                                                        */
/* ------------------------------------------------------------------ */

static void
add_single_file_finding (Walk          *walk,
                         SlFindingKind  kind,
                         GFile         *file,
                         GFileInfo     *info,
                         SlFinding    **out)
{
  g_autoptr(SlFinding) finding = finding_new_for_file (walk, kind, file);

  finding_add_gfile (finding, file, info);
  sl_detection_add_finding (walk->detection, finding);
  *out = finding;
}

static void
detect_graph (Walk      *walk,
              GFile     *file,
              GFileInfo *info)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;
  const guint8 *data;
  const char *format;
  gsize len;

  if (g_file_info_get_size (info) == 0)
    {
      add_problem (walk, SL_SEVERITY_WARNING, file, 0, _("The graph file is empty."));
      return;
    }

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_read_problem (walk, file, error);
      return;
    }

  data = g_bytes_get_data (head, &len);
  /* The formats are listed in sl-proto-shape.c. A graph cut off inside
   * a field is still one: the graph reader reads it as far as it goes. */
  format = sl_proto_shape_get_graph_format (data, len, FALSE);
  if (format == NULL)
    {
      g_autofree char *formats = sl_proto_shape_dup_graph_formats ();
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The .pb file is not a model or graph Sightline reads. It reads these .pb formats: %s."),
                                 formats);
      add_problem (walk, SL_SEVERITY_WARNING, file, 0, message);
      return;
    }

  add_single_file_finding (walk, SL_FINDING_GRAPH, file, info, &finding);
  sl_finding_add_detail (finding, "format", format);
}

/* Model files named by their suffix, a graph when their head is what the
 * suffix says. @empty and @wrong are the problems of a file that is not;
 * a text format other protos share (@wrong %NULL) is passed over. */
typedef struct {
  const char *suffix;
  const char *format;
  gboolean  (*sniff) (const guint8 *data,
                      gsize         size);
  const char *empty;
  const char *wrong;
} ModelFile;

static const ModelFile model_files[] = {
  { ".onnx", "ONNX", sl_onnx_sniff, N_("The ONNX model file is empty."),
    N_("The file is named .onnx but does not hold an ONNX model (no ModelProto with a graph at its start).") },
  { ".mindir", "MindIR", sl_mindir_sniff, N_("The MindIR model file is empty."),
    N_("The file is named .mindir but does not hold a MindIR model (no ModelProto with an IR version and a graph at its start).") },
  /* Other text protos (a pipeline config, a label map) share the suffix. */
  { ".pbtxt", "TensorFlow GraphDef (text)", sl_graph_def_text_sniff, NULL, NULL },
};

static const ModelFile *
lookup_model_file (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (model_files); i++)
    if (g_str_has_suffix (name, model_files[i].suffix))
      return &model_files[i];
  return NULL;
}

static void
detect_model_file (Walk            *walk,
                   GFile           *file,
                   GFileInfo       *info,
                   const ModelFile *kind)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;
  const guint8 *data;
  gsize len;

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_read_problem (walk, file, error);
      return;
    }
  data = g_bytes_get_data (head, &len);
  if (!kind->sniff (data, len))
    {
      if (kind->wrong != NULL)
        add_problem (walk, SL_SEVERITY_WARNING, file, 0, len == 0 ? _(kind->empty) : _(kind->wrong));
      return;
    }
  add_single_file_finding (walk, SL_FINDING_GRAPH, file, info, &finding);
  sl_finding_add_detail (finding, "format", kind->format);
}

static void
detect_tensor (Walk      *walk,
               GFile     *file,
               GFileInfo *info)
{
  g_autoptr(SlSniffResult) result = sniff_or_report (walk, file);
  g_autofree char *shape = NULL;
  SlFinding *finding;
  guint64 data_size;
  guint64 file_size = MAX (g_file_info_get_size (info), 0);

  if (result == NULL)
    return;

  if (result->kind != SL_SNIFF_NPY)
    {
      add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                   result->kind == SL_SNIFF_EMPTY ? _("The .npy file is empty.")
                                                  : _("The file is named .npy but does not start with the NumPy magic string."));
      return;
    }

  if (result->npy == NULL)
    {
      add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
      return;
    }

  add_single_file_finding (walk, SL_FINDING_TENSOR, file, info, &finding);

  shape = sl_npy_header_dup_shape (result->npy);
  sl_finding_add_detail (finding, "dtype", result->npy->descr);
  sl_finding_add_detail (finding, "shape", shape);
  sl_finding_add_detail (finding, "fortran_order", yes_no (result->npy->fortran_order));

  if (sl_npy_header_get_data_size (result->npy, &data_size) &&
      file_size - MIN (file_size, result->npy->data_offset) < data_size)
    {
      g_autofree char *have = g_format_size (file_size - MIN (file_size, result->npy->data_offset));
      g_autofree char *need = g_format_size (data_size);
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The file holds %s of array data but its shape needs %s: it was cut off."), have, need);
      add_problem (walk, SL_SEVERITY_WARNING, file, result->npy->data_offset, message);
    }
}

static void
detect_trace (Walk      *walk,
              GFile     *file,
              GFileInfo *info)
{
  g_autoptr(SlSniffResult) result = sniff_or_report (walk, file);
  SlFinding *finding;

  if (result == NULL)
    return;

  /* Trace keys may come after megabytes of metadata */
  sl_sniffer_skim_trace (result, file, walk->cancellable);

  /* Broken gzip is worth saying even when the start was not seen. */
  if (result->error_message != NULL && (result->kind == SL_SNIFF_TRACE || result->gzip))
    {
      add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
      return;
    }

  if (result->trace_out_of_budget)
    {
      g_autofree char *budget = g_format_size (SL_TRACE_SKIMMER_BUDGET);
      g_autofree char *message = g_strdup_printf (_("The first %s of this JSON hold no key of a Chrome trace, so it is not taken for one; Sightline looks no further."),
                                                  budget);

      /* In a gzip the offset is in the decompressed data */
      add_problem (walk, SL_SEVERITY_INFO, file, result->gzip ? -1 : SL_TRACE_SKIMMER_BUDGET, message);
      return;
    }

  if (result->kind != SL_SNIFF_TRACE)
    return;

  add_single_file_finding (walk, SL_FINDING_TRACE, file, info, &finding);
  sl_finding_add_detail (finding, "form", result->json_root == SL_JSON_ROOT_ARRAY ? "array" : "object");
  sl_finding_add_detail (finding, "compressed", result->gzip ? "gzip" : "no");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static gboolean
looks_like_profiler_db (SlSniffResult *result)
{
  static const char * const tables[] = { "TASK", "CANN_API", "COMPUTE_TASK_INFO", "META_DATA", "COMMUNICATION_OP" };

  if (!g_ptr_array_find_with_equal_func (result->sqlite_tables, "STRING_IDS", g_str_equal, NULL))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      if (g_ptr_array_find_with_equal_func (result->sqlite_tables, tables[i], g_str_equal, NULL))
        return TRUE;
    }

  return FALSE;
}

static void
detect_profiler_db (Walk      *walk,
                    GFile     *file,
                    GFileInfo *info)
{
  const char *name = g_file_info_get_name (info);
  gboolean named = is_profiler_db_name (name);
  g_autoptr(SlSniffResult) result = sniff_or_report (walk, file);
  g_autofree char *tables = NULL;
  SlFinding *finding;

  if (result == NULL)
    return;

  if (result->kind != SL_SNIFF_SQLITE)
    {
      if (named)
        add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                     _("The file is named like a profiler database but is not an SQLite database."));
      return;
    }

  if (!named && !looks_like_profiler_db (result))
    return;

  add_single_file_finding (walk, SL_FINDING_PROFILER_DB, file, info, &finding);

  if (g_str_has_prefix (name, "msprof_"))
    sl_finding_add_detail (finding, "producer", "msprof");
  else if (g_str_has_prefix (name, "ascend_pytorch_profiler"))
    sl_finding_add_detail (finding, "producer", "Ascend PyTorch profiler");
  else if (g_str_has_prefix (name, "ascend_mindspore_profiler"))
    sl_finding_add_detail (finding, "producer", "Ascend MindSpore profiler");
  add_uint_detail (finding, "page_size", result->sqlite_page_size);
  add_timeline_detail (finding);

  if (result->sqlite_tables->len > 0)
    {
      /* Page order is not creation order; sort for a stable detail. */
      g_ptr_array_sort (result->sqlite_tables, compare_strings);
      g_ptr_array_add (result->sqlite_tables, NULL);
      tables = g_strjoinv (",", (char **)result->sqlite_tables->pdata);
      g_ptr_array_remove_index (result->sqlite_tables, result->sqlite_tables->len - 1);
      sl_finding_add_detail (finding, "tables", tables);
    }
}

static void
detect_pipeline (Walk      *walk,
                 GFile     *file,
                 GFileInfo *info)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(SlSniffResult) result = NULL;
  g_autoptr(GString) streams = g_string_new (NULL);
  SlFinding *finding;
  guint n_elements = 0;
  const char *data;
  gsize len;

  if (g_file_info_get_size (info) > MAX_PIPELINE_SIZE)
    return;

  contents = sl_sniffer_read_head (file, g_file_info_get_size (info), walk->cancellable, &error);
  if (contents == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_read_problem (walk, file, error);
      return;
    }

  data = g_bytes_get_data (contents, &len);

  /* The sniffer knows where JSON goes wrong; json-glib only says so. */
  result = sl_sniffer_sniff_data ((const guint8 *)data, len, len);
  if (result->json_root != SL_JSON_ROOT_OBJECT)
    return;

  /* No real pipeline nests that deep: such a file is something else. */
  if (result->json_too_deep)
    return;
  if (result->error_message != NULL)
    {
      add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
      return;
    }

  /* The pipeline reader sees what the check and the SDK see: repeated
   * names once, elements with a string factory. */
  pipeline = sl_pipeline_reader_read_data (NULL, (const guint8 *)data, len);
  if (!sl_pipeline_is_complete (pipeline))
    {
      g_autoptr(SlProblem) damage = g_list_model_get_item (sl_pipeline_get_problems (pipeline), 0);

      if (damage != NULL)
        add_problem (walk, SL_SEVERITY_ERROR, file, sl_problem_get_offset (damage), sl_problem_get_message (damage));
      return;
    }

  for (guint i = 0; i < sl_pipeline_get_n_streams (pipeline); i++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, i);
      guint n_stream_elements = sl_pipeline_stream_count_runnable (stream);

      if (n_stream_elements > 0)
        {
          if (streams->len > 0)
            g_string_append_c (streams, ',');
          g_string_append (streams, stream->name);
          n_elements += n_stream_elements;
        }
    }

  if (n_elements == 0)
    {
      add_problem (walk, SL_SEVERITY_WARNING, file, -1,
                   _("The .pipeline file holds no stream elements (objects with a “factory”)."));
      return;
    }

  add_single_file_finding (walk, SL_FINDING_PIPELINE, file, info, &finding);
  sl_finding_add_detail (finding, "streams", streams->str);
  add_uint_detail (finding, "elements", n_elements);
}

/* A YAML file is a tuner configuration when it has the optimizer's keys;
 * one that has them and mistakes besides is reported, any other YAML is
 * none of Sightline's business. */
static void
detect_tuner_config (Walk      *walk,
                     GFile     *file,
                     GFileInfo *info)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerConfig) config = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;
  SlFinding *finding;
  gsize len;

  if (g_file_info_get_size (info) > MAX_PIPELINE_SIZE)
    return;
  contents = sl_sniffer_read_head (file, g_file_info_get_size (info), walk->cancellable, &error);
  if (contents == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_read_problem (walk, file, error);
      return;
    }
  text = g_strndup (g_bytes_get_data (contents, &len), g_bytes_get_size (contents));
  if (strstr (text, "summary_base_dir") == NULL || strstr (text, "parameters") == NULL)
    return;

  config = sl_tuner_config_new_from_data (name, text, strlen (text), &error);
  if (config == NULL)
    {
      add_problem (walk, SL_SEVERITY_ERROR, file, -1, error->message);
      return;
    }
  add_single_file_finding (walk, SL_FINDING_TUNER_CONFIG, file, info, &finding);
  sl_finding_add_detail (finding, "target", sl_tuner_config_get_target_name (config));
  add_uint_detail (finding, "parameters", sl_tuner_config_get_n_parameters (config));
}

/* A file the profile loader reads, found outside any profiler folder or
 * opened on its own. SQLite exports and timelines have findings of their
 * own; msprof-analyze's cluster tables belong to the cluster finding of
 * their folder unless opened on their own. */
static const SlProfilerEntry *
lookup_profile_file (const char *name,
                     gboolean    single_file)
{
  const SlProfilerEntry *entry = sl_profiler_layout_lookup_file (name, NULL);

  if (entry == NULL || (entry->flags & SL_PROFILER_ENTRY_READ) == 0 ||
      entry->role == SL_PROFILER_ROLE_DB || entry->role == SL_PROFILER_ROLE_TIMELINE)
    return NULL;
  if (entry->layout == SL_PROFILE_LAYOUT_CLUSTER && !single_file)
    return NULL;
  return entry;
}

/* Whether the head of @file is what such a table holds: CSV text with a
 * header of several columns, or a JSON object or array. */
static gboolean
holds_profile_table (Walk      *walk,
                     GFile     *file,
                     GFileInfo *info)
{
  g_autoptr(GBytes) head = NULL;
  const char *name = g_file_info_get_name (info);
  const char *data, *line_end;
  gsize len;

  if (!g_str_has_suffix (name, ".csv"))
    {
      g_autoptr(SlSniffResult) result = sniff_or_report (walk, file);

      return result != NULL && result->kind == SL_SNIFF_JSON && result->json_root != SL_JSON_ROOT_NONE;
    }

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, walk->cancellable, NULL);
  if (head == NULL)
    return FALSE;
  data = g_bytes_get_data (head, &len);
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }
  line_end = memchr (data, '\n', len);
  if (line_end != NULL)
    len = line_end - data;
  return len > 0 && memchr (data, ',', len) != NULL && memchr (data, '\0', len) == NULL &&
         g_utf8_validate (data, len, NULL);
}

static SlFindingKind
profile_finding_kind (SlProfileLayout layout)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_MINDSPORE:
      return SL_FINDING_MINDSPORE_PROFILER;
    case SL_PROFILE_LAYOUT_MSPROF:
      return SL_FINDING_MSPROF;
    case SL_PROFILE_LAYOUT_ASCEND_PT:
    case SL_PROFILE_LAYOUT_CLUSTER:
    case SL_PROFILE_LAYOUT_DATABASE:
    default:
      return SL_FINDING_ASCEND_PROFILER;
    }
}

/* One profiler table on its own is a profile of what it holds; the
 * files of the profile that are not beside it are named.
 * Returns: whether @file was taken as one */
static gboolean
detect_profile_file (Walk                  *walk,
                     GFile                 *file,
                     GFileInfo             *info,
                     const SlProfilerEntry *entry)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) missing = NULL;
  SlFinding *finding;

  if (path == NULL || !holds_profile_table (walk, file, info))
    return FALSE;

  add_single_file_finding (walk, profile_finding_kind (entry->layout), file, info, &finding);
  sl_finding_add_detail (finding, "table", sl_profiler_role_to_string (entry->role));
  add_timeline_detail (finding);

  missing = sl_profiler_layout_list_missing_companions (path);
  if (missing->len > 0)
    {
      g_autofree char *list = NULL;
      g_autofree char *message = NULL;

      g_ptr_array_add (missing, NULL);
      list = g_strjoinv (", ", (char **)missing->pdata);
      sl_finding_add_detail (finding, "missing_files", list);
      if (walk->root_is_file)
        message = g_strdup_printf (_("Only %s was opened; the profile’s other files (%s) are not beside it."),
                                   g_file_info_get_name (info), list);
      else
        message = g_strdup_printf (_("%s is read as a profile on its own; the profile’s other files (%s) are not beside it."),
                                   g_file_info_get_name (info), list);
      add_problem (walk, SL_SEVERITY_INFO, file, -1, message);
    }
  return TRUE;
}

static void
detect_msprobe_file (Walk      *walk,
                     GFile     *file,
                     GFileInfo *info)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GPtrArray) children = g_ptr_array_new ();
  g_autoptr(SlSniffResult) dump = NULL;
  SlFinding *finding;

  g_ptr_array_add (children, info);
  dump = sniff_msprobe_dump (walk, parent, children);
  if (dump == NULL)
    {
      detect_trace (walk, file, info);
      return;
    }

  add_single_file_finding (walk, SL_FINDING_MSPROBE_DUMP, file, info, &finding);
  add_msprobe_details (finding, parent, dump);
}

/* ------------------------------------------------------------------ */
/* Plain folders                                                       */
/* ------------------------------------------------------------------ */

/* Looks at the regular files among @children. With @single_file set,
 * @children holds just that opened file. */
static gboolean
detect_files (Walk      *walk,
              GFile     *folder,
              GPtrArray *children,
              GFile     *single_file)
{
  g_autoptr(GPtrArray) summary_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) event_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) graph_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      const char *name = g_file_info_get_name (info);

      if (!is_regular (info))
        continue;

      walk_count_file (walk);

      if (is_summary_file (name))
        g_ptr_array_add (summary_files, info);
      else if (is_tensorboard_file (name))
        g_ptr_array_add (event_files, info);
      else if (g_str_has_suffix (name, ".pb"))
        g_ptr_array_add (graph_files, info);
      else
        g_ptr_array_add (others, info);
    }

  if (summary_files->len > 0 &&
      !detect_summary_run (walk, folder, summary_files, graph_files, single_file))
    return FALSE;

  if (event_files->len > 0 &&
      !detect_tensorboard_run (walk, folder, event_files, single_file))
    return FALSE;

  if (summary_files->len == 0)
    g_ptr_array_extend_and_steal (others, g_steal_pointer (&graph_files));

  g_ptr_array_sort (others, compare_infos_by_name);

  for (guint i = 0; i < others->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (others, i);
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = g_file_get_child (folder, name);
      const SlProfilerEntry *profile_entry;
      const ModelFile *model_file;

      if (walk_cancelled (walk))
        return FALSE;

      profile_entry = lookup_profile_file (name, single_file != NULL);
      if (profile_entry != NULL && detect_profile_file (walk, file, info, profile_entry))
        continue;

      if (g_str_has_suffix (name, ".pb"))
        detect_graph (walk, file, info);
      else if ((model_file = lookup_model_file (name)) != NULL)
        detect_model_file (walk, file, info, model_file);
      else if (g_str_has_suffix (name, ".npy"))
        detect_tensor (walk, file, info);
      else if (g_str_has_suffix (name, ".pipeline"))
        detect_pipeline (walk, file, info);
      else if (g_str_has_suffix (name, ".db"))
        detect_profiler_db (walk, file, info);
      else if (g_str_has_suffix (name, ".yaml") || g_str_has_suffix (name, ".yml"))
        detect_tuner_config (walk, file, info);
      else if (single_file != NULL && g_str_equal (name, "dump.json"))
        detect_msprobe_file (walk, file, info);
      else if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".json.gz"))
        detect_trace (walk, file, info);
    }

  return TRUE;
}

/* Returns: FALSE when cancelled */
static gboolean
walk_folder (Walk      *walk,
             GFile     *folder,
             GPtrArray *children,
             guint      depth)
{
  gboolean ok = TRUE;

  if (detect_whole_folder (walk, folder, children, depth, &ok))
    return ok;

  if (!detect_files (walk, folder, children, NULL))
    return FALSE;

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = NULL;
      g_autoptr(GPtrArray) grandchildren = NULL;

      if (walk_cancelled (walk))
        return FALSE;

      if (!is_folder (info))
        continue;
      if (g_str_equal (g_file_info_get_name (info), "cluster_analysis_output"))
        g_ptr_array_add (walk->analysis_parents, g_file_get_path (folder));

      child = g_file_get_child (folder, g_file_info_get_name (info));
      if (!enter_folder (walk, child, info, depth + 1))
        continue;

      grandchildren = list_folder_or_report (walk, child);
      if (grandchildren != NULL)
        ok = walk_folder (walk, child, grandchildren, depth + 1);
      leave_folder (walk, info);

      if (!ok)
        return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* SlDetector                                                          */
/* ------------------------------------------------------------------ */

static void
sl_detector_finalize (GObject *object)
{
  SlDetector *self = (SlDetector *)object;

  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_detector_parent_class)->finalize (object);
}

static void
sl_detector_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SlDetector *self = SL_DETECTOR (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_detector_class_init (SlDetectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_detector_finalize;
  object_class->get_property = sl_detector_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_detector_init (SlDetector *self)
{
}

/**
 * sl_detector_new:
 * @path: the folder or file to look at
 *
 * Returns: (transfer full): a new detector
 */
SlDetector *
sl_detector_new (const char *path)
{
  SlDetector *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_DETECTOR, NULL);
  self->path = g_strdup (path);

  return self;
}

const char *
sl_detector_get_path (SlDetector *self)
{
  g_return_val_if_fail (SL_IS_DETECTOR (self), NULL);
  return self->path;
}

/**
 * sl_detector_get_files_scanned:
 *
 * Safe to call from any thread while a run is going on.
 *
 * Returns: how many files the current or last run has looked at
 */
guint
sl_detector_get_files_scanned (SlDetector *self)
{
  g_return_val_if_fail (SL_IS_DETECTOR (self), 0);
  return (guint)g_atomic_int_get ((gint *)&self->files_scanned);
}

static gboolean
open_root (SlDetector    *self,
           GFile         *root,
           GCancellable  *cancellable,
           GFileInfo    **info,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  *info = g_file_query_info (root, CHILD_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, cancellable, &local_error);
  if (*info != NULL)
    return TRUE;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("“%s” does not exist. Check the path and try again."), self->path);
  else
    g_set_error (error, local_error->domain, local_error->code,
                 _("Could not open “%s”: %s"), self->path, local_error->message);

  return FALSE;
}

static gboolean
run_on_folder (Walk       *walk,
               GFileInfo  *info,
               GError    **error)
{
  g_autoptr(GPtrArray) children = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = g_file_get_path (walk->root);

  children = list_folder (walk, walk->root, &local_error);
  if (children == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, local_error->domain, local_error->code,
                     _("Could not read the folder “%s”: %s. Check that you have permission to read it."),
                     path, local_error->message);
      return FALSE;
    }

  enter_folder (walk, walk->root, info, 0);
  walk_folder (walk, walk->root, children, 0);
  leave_folder (walk, info);

  return TRUE;
}

static void
run_on_file (Walk      *walk,
             GFileInfo *info)
{
  g_autoptr(GFile) parent = g_file_get_parent (walk->root);
  g_autoptr(GPtrArray) children = g_ptr_array_new ();
  g_autoptr(GFileInfo) named_info = g_file_info_dup (info);
  g_autofree char *basename = g_file_get_basename (walk->root);

  /* The name a query returns for a file given by path is its display
   * name, not always its base name. */
  g_file_info_set_name (named_info, basename);
  g_ptr_array_add (children, named_info);

  if (parent == NULL)
    parent = g_object_ref (walk->root);

  detect_files (walk, parent, children, walk->root);
}

/**
 * sl_detector_run:
 *
 * Walks the path synchronously; use it from a worker thread or the CLI.
 * Unreadable files and folders below the path become problems in the
 * result. Only a path that is missing or cannot be read at all is an
 * error (%G_IO_ERROR_NOT_FOUND for a missing one).
 *
 * Returns: (transfer full) (nullable): the detection, or %NULL with
 *   @error set
 */
SlDetection *
sl_detector_run (SlDetector    *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *root_path = NULL;
  SlDetection *detection = NULL;
  Walk walk = { 0 };
  gboolean ok = TRUE;
  gint64 started;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (SL_IS_DETECTOR (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  g_atomic_int_set ((gint *)&self->files_scanned, 0);

  started = g_get_monotonic_time ();
  walk.detector = self;
  walk.cancellable = cancellable;
  walk.root = g_file_new_for_path (self->path);
  walk.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  walk.ancestors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  walk.analysis_parents = g_ptr_array_new_with_free_func (g_free);

  if (!open_root (self, walk.root, cancellable, &info, error))
    {
      walk_clear (&walk);
      return NULL;
    }

  root_path = g_file_get_path (walk.root);
  walk.detection = sl_detection_new (root_path != NULL ? root_path : self->path);

  switch (g_file_info_get_file_type (info))
    {
    case G_FILE_TYPE_DIRECTORY:
      ok = run_on_folder (&walk, info, error);
      break;

    case G_FILE_TYPE_REGULAR:
      walk.root_is_file = TRUE;
      run_on_file (&walk, info);
      break;

    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("“%s” is neither a folder nor a regular file."), self->path);
      ok = FALSE;
      break;
    }

  if (ok && g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;

  if (ok && !walk.root_is_file)
    sl_cluster_detection_add_findings (walk.detection, sl_detection_get_root (walk.detection), walk.analysis_parents);

  if (ok)
    {
      sl_detection_set_files_scanned (walk.detection, sl_detector_get_files_scanned (self));
      sl_detection_set_elapsed (walk.detection, g_get_monotonic_time () - started);
      detection = g_steal_pointer (&walk.detection);
    }

  walk_clear (&walk);

  return detection;
}

static void
run_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SlDetector *self = source_object;
  g_autoptr(GError) error = NULL;
  SlDetection *detection;

  detection = sl_detector_run (self, cancellable, &error);
  if (detection == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, detection, g_object_unref);
}

/**
 * sl_detector_run_async:
 *
 * Runs the detector in a worker thread. Poll
 * sl_detector_get_files_scanned() for progress.
 */
void
sl_detector_run_async (SlDetector          *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_DETECTOR (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_detector_run_async);
  g_task_run_in_thread (task, run_in_thread);
}

/**
 * sl_detector_run_finish:
 *
 * Returns: (transfer full) (nullable): the detection, or %NULL with
 *   @error set
 */
SlDetection *
sl_detector_run_finish (SlDetector    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (SL_IS_DETECTOR (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
