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
 * This file holds the detector and the walk; the detectors of each
 * family of files have files of their own: sl-detector-summaries.c,
 * sl-detector-profiles.c (profiler folders, tables, databases, traces),
 * sl-detector-models.c, sl-detector-dumps.c (msprobe dumps, tensors) and
 * sl-detector-configs.c (pipelines, tuner configurations). Clusters are
 * found in sl-cluster-detection.c once the walk is over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <glib/gi18n-lib.h>

#include "sl-cluster-detection.h"
#include "sl-detector-private.h"

#define MAX_DEPTH          64

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

/* ------------------------------------------------------------------ */
/* Walk helpers                                                        */
/* ------------------------------------------------------------------ */

static void
walk_clear (SlDetectorWalk *walk)
{
  g_clear_object (&walk->detection);
  g_clear_object (&walk->root);
  g_clear_pointer (&walk->visited, g_hash_table_unref);
  g_clear_pointer (&walk->ancestors, g_hash_table_unref);
  g_clear_pointer (&walk->analysis_parents, g_ptr_array_unref);
}

gboolean
sl_detector_walk_cancelled (SlDetectorWalk *walk)
{
  return g_cancellable_is_cancelled (walk->cancellable);
}

static void
walk_count_file (SlDetectorWalk *walk)
{
  g_atomic_int_inc ((gint *)&walk->detector->files_scanned);
}

void
sl_detector_add_problem (SlDetectorWalk *walk,
                         SlSeverity      severity,
                         GFile          *file,
                         gint64          offset,
                         const char     *message)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(SlProblem) problem = NULL;

  /* The source is shown in the Problems panel: it names the component. */
  problem = sl_problem_new (severity, _("Folder scan"), path, offset, message);
  sl_detection_add_problem (walk->detection, problem);
}

void
sl_detector_add_read_problem (SlDetectorWalk *walk,
                              GFile          *file,
                              const GError   *error)
{
  g_autofree char *message = NULL;

  message = g_strdup_printf (_("Could not read the file: %s. Check that it still exists and that you have permission to read it."),
                             error->message);
  sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, -1, message);
}

/* Findings are named by their path relative to the opened folder, "."
 * for the folder itself. An opened file is named by its base name. */
static char *
dup_relative_name (SlDetectorWalk *walk,
                   GFile          *file)
{
  char *relative;

  if (walk->root_is_file)
    return g_file_get_basename (file);

  relative = g_file_get_relative_path (walk->root, file);
  return relative != NULL ? relative : g_strdup (".");
}

SlFinding *
sl_detector_finding_new_for_file (SlDetectorWalk *walk,
                                  SlFindingKind   kind,
                                  GFile          *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = dup_relative_name (walk, file);

  return sl_finding_new (kind, path, name);
}

void
sl_detector_finding_add_gfile (SlFinding *finding,
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
list_folder (SlDetectorWalk  *walk,
             GFile           *folder,
             GError         **error)
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

gboolean
sl_detector_is_regular (GFileInfo *info)
{
  return g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR;
}

gboolean
sl_detector_is_folder (GFileInfo *info)
{
  return g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY;
}

GFileInfo *
sl_detector_find_child (GPtrArray  *children,
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

gboolean
sl_detector_has_child_folder (GPtrArray  *children,
                              const char *name)
{
  GFileInfo *info = sl_detector_find_child (children, name);

  return info != NULL && sl_detector_is_folder (info);
}

/* Checks that @folder may be entered: not too deep, and not a folder that
 * a symbolic link brought us back to. Pair with leave_folder(). */
static gboolean
enter_folder (SlDetectorWalk *walk,
              GFile          *folder,
              GFileInfo      *info,
              guint           depth)
{
  const char *id = g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE);

  if (depth > MAX_DEPTH)
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("Folders are nested more than %u levels deep here; the folders below were not scanned."),
                                 MAX_DEPTH);
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, folder, -1, message);
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
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, folder, -1, message);
      return FALSE;
    }

  if (g_hash_table_contains (walk->visited, id))
    {
      sl_detector_add_problem (walk, SL_SEVERITY_INFO, folder, -1,
                               _("This folder was already scanned through another path (a symbolic link); it was skipped."));
      return FALSE;
    }

  g_hash_table_add (walk->visited, g_strdup (id));
  g_hash_table_insert (walk->ancestors, g_strdup (id), g_file_get_path (folder));

  return TRUE;
}

static void
leave_folder (SlDetectorWalk *walk,
              GFileInfo      *info)
{
  const char *id = g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE);

  if (id != NULL)
    g_hash_table_remove (walk->ancestors, id);
}

/* Returns: (transfer full) (nullable): the children, or %NULL after
 * adding a problem (or when cancelled) */
static GPtrArray *
list_folder_or_report (SlDetectorWalk *walk,
                       GFile          *folder)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *children;

  children = list_folder (walk, folder, &error);
  if (children == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("Could not list the folder: %s. Check that it still exists and that you have permission to read it."),
                                 error->message);
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, folder, -1, message);
    }

  return children;
}

/* Sniffs a candidate file, or adds a problem when it cannot be read. */
SlSniffResult *
sl_detector_sniff_or_report (SlDetectorWalk *walk,
                             GFile          *file)
{
  g_autoptr(GError) error = NULL;
  SlSniffResult *result;

  result = sl_sniffer_sniff_file (file, walk->cancellable, &error);
  if (result == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    sl_detector_add_read_problem (walk, file, error);

  return result;
}

/* Attaches every regular file below @folder to @finding. */
gboolean
sl_detector_collect_files (SlDetectorWalk *walk,
                           SlFinding      *finding,
                           GFile          *folder,
                           GPtrArray      *children,
                           guint           depth)
{
  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = g_file_get_child (folder, g_file_info_get_name (info));

      if (sl_detector_walk_cancelled (walk))
        return FALSE;

      if (sl_detector_is_regular (info))
        {
          walk_count_file (walk);
          sl_detector_finding_add_gfile (finding, child, info);
        }
      else if (sl_detector_is_folder (info) && enter_folder (walk, child, info, depth + 1))
        {
          g_autoptr(GPtrArray) grandchildren = list_folder_or_report (walk, child);
          gboolean ok = TRUE;

          if (grandchildren != NULL)
            ok = sl_detector_collect_files (walk, finding, child, grandchildren, depth + 1);
          leave_folder (walk, info);
          if (!ok)
            return FALSE;
        }
    }

  return TRUE;
}

void
sl_detector_add_uint_detail (SlFinding  *finding,
                             const char *key,
                             guint64     value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  sl_finding_add_detail (finding, key, text);
}

void
sl_detector_add_single_file_finding (SlDetectorWalk  *walk,
                                     SlFindingKind    kind,
                                     GFile           *file,
                                     GFileInfo       *info,
                                     SlFinding      **out)
{
  g_autoptr(SlFinding) finding = sl_detector_finding_new_for_file (walk, kind, file);

  sl_detector_finding_add_gfile (finding, file, info);
  sl_detection_add_finding (walk->detection, finding);
  *out = finding;
}

/* ------------------------------------------------------------------ */
/* Plain folders                                                       */
/* ------------------------------------------------------------------ */

/* Looks at the regular files among @children. With @single_file set,
 * @children holds just that opened file. */
static gboolean
detect_files (SlDetectorWalk *walk,
              GFile          *folder,
              GPtrArray      *children,
              GFile          *single_file)
{
  g_autoptr(GPtrArray) summary_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) event_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) graph_files = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      const char *name = g_file_info_get_name (info);

      if (!sl_detector_is_regular (info))
        continue;

      walk_count_file (walk);

      if (sl_detector_is_summary_file (name))
        g_ptr_array_add (summary_files, info);
      else if (sl_detector_is_tensorboard_file (name))
        g_ptr_array_add (event_files, info);
      else if (g_str_has_suffix (name, ".pb"))
        g_ptr_array_add (graph_files, info);
      else
        g_ptr_array_add (others, info);
    }

  if (summary_files->len > 0 &&
      !sl_detector_detect_summary_run (walk, folder, summary_files, graph_files, single_file))
    return FALSE;

  if (event_files->len > 0 &&
      !sl_detector_detect_tensorboard_run (walk, folder, event_files, single_file))
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
      const SlDetectorModelFile *model_file;

      if (sl_detector_walk_cancelled (walk))
        return FALSE;

      profile_entry = sl_detector_lookup_profile_file (name, single_file != NULL);
      if (profile_entry != NULL && sl_detector_detect_profile_file (walk, file, info, profile_entry))
        continue;

      if (g_str_has_suffix (name, ".pb"))
        sl_detector_detect_graph (walk, file, info);
      else if ((model_file = sl_detector_lookup_model_file (name)) != NULL)
        sl_detector_detect_model_file (walk, file, info, model_file);
      else if (g_str_has_suffix (name, ".npy"))
        sl_detector_detect_tensor (walk, file, info);
      else if (g_str_has_suffix (name, ".pipeline"))
        sl_detector_detect_pipeline (walk, file, info);
      else if (g_str_has_suffix (name, ".db"))
        sl_detector_detect_profiler_db (walk, file, info);
      else if (g_str_has_suffix (name, ".yaml") || g_str_has_suffix (name, ".yml"))
        sl_detector_detect_tuner_config (walk, file, info);
      else if (single_file != NULL && g_str_equal (name, "dump.json"))
        sl_detector_detect_msprobe_file (walk, file, info);
      else if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".json.gz"))
        sl_detector_detect_trace (walk, file, info);
    }

  return TRUE;
}

/* Returns: FALSE when cancelled */
static gboolean
walk_folder (SlDetectorWalk *walk,
             GFile          *folder,
             GPtrArray      *children,
             guint           depth)
{
  gboolean ok = TRUE;

  if (sl_detector_detect_whole_folder (walk, folder, children, depth, &ok))
    return ok;

  if (!detect_files (walk, folder, children, NULL))
    return FALSE;

  for (guint i = 0; i < children->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = NULL;
      g_autoptr(GPtrArray) grandchildren = NULL;

      if (sl_detector_walk_cancelled (walk))
        return FALSE;

      if (!sl_detector_is_folder (info))
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
run_on_folder (SlDetectorWalk  *walk,
               GFileInfo       *info,
               GError         **error)
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
run_on_file (SlDetectorWalk *walk,
             GFileInfo      *info)
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
  SlDetectorWalk walk = { 0 };
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
