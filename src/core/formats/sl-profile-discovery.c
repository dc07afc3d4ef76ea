/* sl-profile-discovery.c
 *
 * The layout table (sl-profiler-layout) names the files; this walks the
 * folder, skips what the table says holds nothing to read and groups the
 * files by the folder of their rank.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-profile-discovery.h"
#include "sl-profiler-layout.h"

#define MAX_DEPTH         8
#define MAX_FILES         100000

typedef struct {
  GPtrArray *found;
  gboolean   summary_only;
} Collect;

void
sl_profile_file_free (SlProfileFile *file)
{
  g_free (file->path);
  g_free (file->unit_dir);
  g_free (file);
}

/* ------------------------------------------------------------------ */
/* Classification */

/* The PROF_ folder above @dir, or NULL. */
static char *
find_prof_ancestor (const char *dir)
{
  g_autofree char *current = g_strdup (dir);

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *base = g_path_get_basename (current);
      g_autofree char *parent = NULL;
      SlProfileLayout layout;

      if (sl_profiler_layout_classify_dir (base, &layout, NULL) == SL_PROFILER_ROLE_PROFILE_FOLDER &&
          layout == SL_PROFILE_LAYOUT_MSPROF)
        return g_steal_pointer (&current);
      parent = g_path_get_dirname (current);
      if (g_str_equal (parent, current))
        break;
      g_free (current);
      current = g_steal_pointer (&parent);
    }
  return NULL;
}

static gboolean
has_ascend_output (const char *dir)
{
  g_autofree char *output = g_build_filename (dir, "ASCEND_PROFILER_OUTPUT", NULL);

  return g_file_test (output, G_FILE_TEST_IS_DIR);
}

/* An *_ascend_pt or *_ascend_ms folder, or any folder that holds an
 * ASCEND_PROFILER_OUTPUT (the detector takes those too). */
static gboolean
is_ascend_unit (const char *dir)
{
  g_autofree char *name = g_path_get_basename (dir);
  SlProfileLayout layout;

  if (sl_profiler_layout_classify_dir (name, &layout, NULL) == SL_PROFILER_ROLE_PROFILE_FOLDER &&
      layout == SL_PROFILE_LAYOUT_ASCEND_PT)
    return TRUE;
  return has_ascend_output (dir);
}

static gboolean
is_ascend_output (const char *dir_name)
{
  SlProfileLayout layout;

  return sl_profiler_layout_classify_dir (dir_name, &layout, NULL) == SL_PROFILER_ROLE_OUTPUT_FOLDER &&
         layout == SL_PROFILE_LAYOUT_ASCEND_PT;
}

/* The reader of a file the table says the loader reads. */
static SlProfileFileKind
kind_for_entry (const SlProfilerEntry *entry)
{
  gboolean mindspore = entry->layout == SL_PROFILE_LAYOUT_MINDSPORE;

  switch (entry->role)
    {
    case SL_PROFILER_ROLE_INFO: return SL_PROFILE_FILE_INFO;
    case SL_PROFILER_ROLE_STEP_TRACE:
      return mindspore ? SL_PROFILE_FILE_MS_STEP
           : entry->layout == SL_PROFILE_LAYOUT_ASCEND_PT ? SL_PROFILE_FILE_PT_STEP
           : SL_PROFILE_FILE_MSPROF_STEP;
    case SL_PROFILER_ROLE_OP_STATISTIC: return mindspore ? SL_PROFILE_FILE_MS_AICORE_TYPE : SL_PROFILE_FILE_OP_STATISTIC;
    case SL_PROFILER_ROLE_OP_SUMMARY: return mindspore ? SL_PROFILE_FILE_MS_AICORE_DETAIL : SL_PROFILE_FILE_OP_SUMMARY;
    case SL_PROFILER_ROLE_AICPU: return SL_PROFILE_FILE_MS_AICPU;
    case SL_PROFILER_ROLE_TASK_TIME: return SL_PROFILE_FILE_TASK_TIME;
    case SL_PROFILER_ROLE_FRAMEWORK: return SL_PROFILE_FILE_MS_FRAMEWORK;
    case SL_PROFILER_ROLE_FLOPS: return SL_PROFILE_FILE_MS_FLOPS;
    case SL_PROFILER_ROLE_API_STATISTIC: return SL_PROFILE_FILE_API_STATISTIC;
    case SL_PROFILER_ROLE_TIMELINE_SUMMARY: return SL_PROFILE_FILE_MS_TIMELINE_SUMMARY;
    case SL_PROFILER_ROLE_FLOPS_SUMMARY: return SL_PROFILE_FILE_MS_FLOPS_SUMMARY;
    case SL_PROFILER_ROLE_MEMORY: return SL_PROFILE_FILE_MEMORY;
    case SL_PROFILER_ROLE_COMMUNICATION:
      return entry->layout == SL_PROFILE_LAYOUT_CLUSTER ? SL_PROFILE_FILE_CLUSTER_COMMUNICATION : SL_PROFILE_FILE_COMMUNICATION;
    case SL_PROFILER_ROLE_CLUSTER_STEP: return SL_PROFILE_FILE_CLUSTER_STEP;
    case SL_PROFILER_ROLE_DB: return SL_PROFILE_FILE_DATABASE;
    default:
      g_return_val_if_reached (SL_PROFILE_FILE_INFO);
    }
}

static SlProfileFile *
classify (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *dir_name = g_path_get_basename (dir);
  g_autofree char *prof = NULL;
  const SlProfilerEntry *entry;
  SlProfileFile *found;
  gint64 id;

  entry = sl_profiler_layout_lookup_file (path, &id);
  if (entry == NULL || (entry->flags & SL_PROFILER_ENTRY_READ) == 0)
    return NULL;

  found = g_new0 (SlProfileFile, 1);
  found->path = g_strdup (path);
  found->kind = kind_for_entry (entry);
  found->id = -1;

  if (is_ascend_output (dir_name))
    {
      found->unit_dir = g_path_get_dirname (dir);
      found->layout = SL_PROFILE_LAYOUT_ASCEND_PT;
    }
  else if (is_ascend_unit (dir))
    {
      found->unit_dir = g_strdup (dir);
      found->layout = SL_PROFILE_LAYOUT_ASCEND_PT;
    }
  else if ((prof = find_prof_ancestor (dir)) != NULL)
    {
      found->unit_dir = g_steal_pointer (&prof);
      found->layout = SL_PROFILE_LAYOUT_MSPROF;
    }
  else if (entry->layout == SL_PROFILE_LAYOUT_MINDSPORE && id >= 0)
    {
      found->unit_dir = g_strdup (dir);
      found->layout = SL_PROFILE_LAYOUT_MINDSPORE;
      found->id = id;
    }
  else
    {
      /* Outside any known folder the file says whose it is. */
      found->unit_dir = g_strdup (dir);
      found->layout = entry->layout == SL_PROFILE_LAYOUT_MINDSPORE ? SL_PROFILE_LAYOUT_ASCEND_PT : entry->layout;
    }

  return found;
}

static gboolean
skip_child_dir (const char *dir,
                const char *child)
{
  g_autofree char *dir_name = g_path_get_basename (dir);

  /* Only look on disk when the names could call for it. */
  if (!sl_profiler_layout_skip_dir (dir_name, child, TRUE))
    return FALSE;
  return child[0] == '.' || has_ascend_output (dir);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **)a, *(const char **)b);
}

typedef gboolean (*VisitFunc) (const char *path, gpointer user_data);

static void
walk (const char   *dir,
      guint         depth,
      guint        *n_files,
      GCancellable *cancellable,
      VisitFunc     visit,
      gpointer      user_data)
{
  g_autoptr(GDir) gdir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (depth > MAX_DEPTH || *n_files >= MAX_FILES || g_cancellable_is_cancelled (cancellable))
    return;

  gdir = g_dir_open (dir, 0, NULL);
  if (gdir == NULL)
    return;

  while ((name = g_dir_read_name (gdir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len && *n_files < MAX_FILES; i++)
    {
      const char *child = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, child, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (!skip_child_dir (dir, child))
            walk (path, depth + 1, n_files, cancellable, visit, user_data);
        }
      else if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          (*n_files)++;
          visit (path, user_data);
        }
    }
}

/* What a cluster's summary needs: who the rank is, its steps and what
 * it sent. */
static gboolean
is_summary_kind (SlProfileFileKind kind)
{
  switch (kind)
    {
    case SL_PROFILE_FILE_INFO:
    case SL_PROFILE_FILE_MS_STEP:
    case SL_PROFILE_FILE_MSPROF_STEP:
    case SL_PROFILE_FILE_PT_STEP:
    case SL_PROFILE_FILE_COMMUNICATION:
    case SL_PROFILE_FILE_CLUSTER_STEP:
    case SL_PROFILE_FILE_CLUSTER_COMMUNICATION:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
collect_found (const char *path,
               gpointer    user_data)
{
  Collect *collect = user_data;
  SlProfileFile *found = classify (path);

  if (found != NULL && collect->summary_only && !is_summary_kind (found->kind))
    g_clear_pointer (&found, sl_profile_file_free);
  if (found != NULL)
    g_ptr_array_add (collect->found, found);
  return TRUE;
}

static int
compare_found (gconstpointer a,
               gconstpointer b)
{
  const SlProfileFile *fa = *(const SlProfileFile **)a;
  const SlProfileFile *fb = *(const SlProfileFile **)b;
  int cmp;

  if ((cmp = g_strcmp0 (fa->unit_dir, fb->unit_dir)) != 0)
    return cmp;
  if (fa->id != fb->id)
    return fa->id < fb->id ? -1 : 1;
  if (fa->kind != fb->kind)
    return fa->kind < fb->kind ? -1 : 1;
  return g_strcmp0 (fa->path, fb->path);
}

/* ------------------------------------------------------------------ */
/* Entry points */

/**
 * sl_profile_discover:
 *
 * Returns: (transfer full): SlProfileFile, possibly empty
 */
GPtrArray *
sl_profile_discover (const char   *path,
                     gboolean      summary_only,
                     GCancellable *cancellable)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_profile_file_free);
  Collect collect = { found, summary_only };
  guint n_files = 0;

  g_return_val_if_fail (path != NULL, found);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    walk (path, 0, &n_files, cancellable, collect_found, &collect);
  else if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    collect_found (path, &collect);

  g_ptr_array_sort (found, compare_found);
  return found;
}

static gboolean
collect_timeline (const char *path,
                  gpointer    user_data)
{
  if (sl_profiler_layout_is_timeline (path))
    g_ptr_array_add (user_data, g_strdup (path));
  return TRUE;
}

/**
 * sl_profile_discover_timelines:
 *
 * Returns: (transfer full): paths (char *), possibly empty
 */
GPtrArray *
sl_profile_discover_timelines (const char *path)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  guint n_files = 0;

  g_return_val_if_fail (path != NULL, files);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    walk (path, 0, &n_files, NULL, collect_timeline, files);
  else if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_ptr_array_add (files, g_strdup (path));

  g_ptr_array_sort (files, compare_names);
  return files;
}
