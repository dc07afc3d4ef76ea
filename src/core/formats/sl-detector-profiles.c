/* sl-detector-profiles.c: profiler folders taken as a whole (MindSpore,
 * msprof, Ascend PyTorch), profiler tables and databases found on their
 * own, and Chrome traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-detector-private.h"
#include "sl-trace-skimmer.h"

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
static gboolean
is_profiler_db_name (const char *name)
{
  return sl_profiler_layout_classify_file (SL_PROFILE_LAYOUT_DATABASE, name) == SL_PROFILER_ROLE_DB;
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

static gboolean
is_ascend_profiler_folder (const char *name,
                           GPtrArray  *children)
{
  return is_dir_of (name, SL_PROFILE_LAYOUT_ASCEND_PT, SL_PROFILER_ROLE_PROFILE_FOLDER) ||
         is_dir_of (name, SL_PROFILE_LAYOUT_ASCEND_PT, SL_PROFILER_ROLE_OUTPUT_FOLDER) ||
         sl_detector_has_child_folder (children, "ASCEND_PROFILER_OUTPUT");
}

static gboolean
has_raw_slices (GPtrArray *children)
{
  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      guint64 id;

      if (sl_detector_is_regular (info) && raw_slice_device_id (g_file_info_get_name (info), &id))
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

          if (sl_detector_is_folder (info) &&
              (is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_DEVICE_FOLDER) ||
               is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_OUTPUT_FOLDER)))
            return TRUE;
        }
      return FALSE;
    }

  if (is_dir_of (name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_RAW_FOLDER))
    return has_raw_slices (children) || sl_detector_has_child_folder (children, "data");

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

      if (sl_detector_is_regular (info))
        {
          if (sl_profiler_layout_is_marker (child_name, NULL))
            return TRUE;
          has_files = TRUE;
        }
      else if (sl_detector_is_folder (info) &&
               is_dir_of (child_name, SL_PROFILE_LAYOUT_MSPROF, SL_PROFILER_ROLE_PROFILE_FOLDER))
        {
          has_files = TRUE;
        }
    }

  /* MindInsight takes any child folder named profiler* as profiler
   * output; an empty one is of no use. */
  return is_dir_of (name, SL_PROFILE_LAYOUT_MINDSPORE, SL_PROFILER_ROLE_PROFILE_FOLDER) && has_files;
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

      if (sl_detector_is_folder (info) &&
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
  sl_detector_add_uint_detail (finding, "timelines", n_timelines);
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

/* SL_FINDING_DETAIL_TIMELINE_FILES: what the GUI asks before it offers
 * a timeline, so it need not walk the folder again. */
static void
add_timeline_detail (SlFinding *finding)
{
  g_autoptr(GPtrArray) timelines = sl_finding_dup_timeline_files (finding);

  sl_detector_add_uint_detail (finding, SL_FINDING_DETAIL_TIMELINE_FILES, timelines->len);
}

/* Returns: TRUE when @folder was taken as a whole; *ok is FALSE when the
 * walk was cancelled. */
gboolean
sl_detector_detect_whole_folder (SlDetectorWalk *walk,
                                 GFile          *folder,
                                 GPtrArray      *children,
                                 guint           depth,
                                 gboolean       *ok)
{
  g_autofree char *name = g_file_get_basename (folder);
  g_autoptr(SlSniffResult) dump = NULL;
  g_autoptr(SlFinding) finding = NULL;
  SlFindingKind kind;

  if (is_ascend_profiler_folder (name, children))
    kind = SL_FINDING_ASCEND_PROFILER;
  else if (is_msprof_folder (name, children))
    kind = SL_FINDING_MSPROF;
  else if ((dump = sl_detector_sniff_msprobe_dump (walk, folder, children)) != NULL)
    kind = SL_FINDING_MSPROBE_DUMP;
  else if (is_mindspore_profiler_folder (name, children))
    kind = SL_FINDING_MINDSPORE_PROFILER;
  else
    return FALSE;

  finding = sl_detector_finding_new_for_file (walk, kind, folder);
  *ok = sl_detector_collect_files (walk, finding, folder, children, depth);
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
      sl_detector_add_msprobe_details (finding, folder, dump);
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

void
sl_detector_detect_trace (SlDetectorWalk *walk,
                          GFile          *file,
                          GFileInfo      *info)
{
  g_autoptr(SlSniffResult) result = sl_detector_sniff_or_report (walk, file);
  SlFinding *finding;

  if (result == NULL)
    return;

  /* Trace keys may come after megabytes of metadata */
  sl_sniffer_skim_trace (result, file, walk->cancellable);

  /* Broken gzip is worth saying even when the start was not seen. A
   * trace cut off or damaged part way (a profiler killed while writing)
   * is still found: the reader keeps the events before the damage, and
   * a small file, read whole here, must not be refused where a large
   * one, whose end is not read here, opens. */
  if (result->error_message != NULL && (result->kind == SL_SNIFF_TRACE || result->gzip))
    {
      g_autofree char *message = NULL;

      if (result->kind != SL_SNIFF_TRACE)
        {
          sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
          return;
        }
      message = g_strdup_printf (_("%s The events before the damage are read when the trace is opened."),
                                 result->error_message);
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, message);
    }

  if (result->trace_out_of_budget)
    {
      g_autofree char *budget = g_format_size (SL_TRACE_SKIMMER_BUDGET);
      g_autofree char *message = g_strdup_printf (_("The first %s of this JSON hold no key of a Chrome trace, so it is not taken for one; Sightline looks no further."),
                                                  budget);

      /* In a gzip the offset is in the decompressed data */
      sl_detector_add_problem (walk, SL_SEVERITY_INFO, file, result->gzip ? -1 : SL_TRACE_SKIMMER_BUDGET, message);
      return;
    }

  if (result->kind != SL_SNIFF_TRACE)
    return;

  sl_detector_add_single_file_finding (walk, SL_FINDING_TRACE, file, info, &finding);
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

void
sl_detector_detect_profiler_db (SlDetectorWalk *walk,
                                GFile          *file,
                                GFileInfo      *info)
{
  const char *name = g_file_info_get_name (info);
  gboolean named = is_profiler_db_name (name);
  g_autoptr(SlSniffResult) result = sl_detector_sniff_or_report (walk, file);
  g_autofree char *tables = NULL;
  SlFinding *finding;

  if (result == NULL)
    return;

  if (result->kind != SL_SNIFF_SQLITE)
    {
      if (named)
        sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                                 _("The file is named like a profiler database but is not an SQLite database."));
      return;
    }

  if (!named && !looks_like_profiler_db (result))
    return;

  sl_detector_add_single_file_finding (walk, SL_FINDING_PROFILER_DB, file, info, &finding);

  if (g_str_has_prefix (name, "msprof_"))
    sl_finding_add_detail (finding, "producer", "msprof");
  else if (g_str_has_prefix (name, "ascend_pytorch_profiler"))
    sl_finding_add_detail (finding, "producer", "Ascend PyTorch profiler");
  else if (g_str_has_prefix (name, "ascend_mindspore_profiler"))
    sl_finding_add_detail (finding, "producer", "Ascend MindSpore profiler");
  sl_detector_add_uint_detail (finding, "page_size", result->sqlite_page_size);
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

/* A file the profile loader reads, found outside any profiler folder or
 * opened on its own. SQLite exports and timelines have findings of their
 * own; msprof-analyze's cluster tables belong to the cluster finding of
 * their folder unless opened on their own. */
const SlProfilerEntry *
sl_detector_lookup_profile_file (const char *name,
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
holds_profile_table (SlDetectorWalk *walk,
                     GFile          *file,
                     GFileInfo      *info)
{
  g_autoptr(GBytes) head = NULL;
  const char *name = g_file_info_get_name (info);
  const char *data, *line_end;
  gsize len;

  if (!g_str_has_suffix (name, ".csv"))
    {
      g_autoptr(SlSniffResult) result = sl_detector_sniff_or_report (walk, file);

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
gboolean
sl_detector_detect_profile_file (SlDetectorWalk        *walk,
                                 GFile                 *file,
                                 GFileInfo             *info,
                                 const SlProfilerEntry *entry)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) missing = NULL;
  SlFinding *finding;

  if (path == NULL || !holds_profile_table (walk, file, info))
    return FALSE;

  sl_detector_add_single_file_finding (walk, profile_finding_kind (entry->layout), file, info, &finding);
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
      sl_detector_add_problem (walk, SL_SEVERITY_INFO, file, -1, message);
    }
  return TRUE;
}
