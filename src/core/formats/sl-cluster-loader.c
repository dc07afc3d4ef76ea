/* sl-cluster-loader.c
 *
 * Three passes: find the units (a rank's profile folder, a MindSpore
 * profiler folder holding several devices' files, cluster_analysis_output)
 * without reading any file; read them with sl_profile_load_parts() on a
 * thread pool, each unit into its own SlProfile; then merge those by rank
 * id in the order the units were found, so the result does not depend on
 * which thread finished first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <glib/gi18n-lib.h>

#include "sl-cluster-loader.h"
#include "sl-profile-loader.h"
#include "sl-profiler-layout.h"

#define MAX_DEPTH       4
#define MAX_UNITS       65536
#define MAX_THREADS     4
#define MAX_GAP_REPORTS 20
#define ANALYSIS_FOLDER "cluster_analysis_output"
#define ASCEND_OUTPUT   "ASCEND_PROFILER_OUTPUT"

typedef enum {
  UNIT_RANK_FOLDER,   /* *_ascend_pt, *_ascend_ms, PROF_*: one rank */
  UNIT_MINDSPORE,     /* files suffixed with each device's id */
  UNIT_ANALYSIS,      /* msprof-analyze's cluster_analysis_output */
} UnitKind;

typedef struct {
  char            *dir;
  UnitKind         kind;
  SlProfileLayout  layout;
  gint64           info_id;   /* from profiler_info_<id>.json, -1 without */
  GArray          *ids;       /* gint64: a MindSpore folder's device ids, from any of its files' names */
  gboolean         read;
  SlProfile       *profile;
  GError          *error;
} Unit;

typedef struct {
  GPtrArray    *units;
  GCancellable *cancellable;
} Discovery;

static void
unit_free (Unit *unit)
{
  g_free (unit->dir);
  g_clear_pointer (&unit->ids, g_array_unref);
  g_clear_object (&unit->profile);
  g_clear_error (&unit->error);
  g_free (unit);
}

static void
report (SlClusterProfile *cluster,
        SlSeverity        severity,
        const char       *path,
        const char       *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Cluster reader"), path, -1, message);

  sl_cluster_profile_add_problem (cluster, problem);
}

/* ------------------------------------------------------------------ */
/* Finding the units */

static Unit *
add_unit (Discovery       *discovery,
          const char      *dir,
          UnitKind         kind,
          SlProfileLayout  layout)
{
  Unit *unit;

  if (discovery->units->len >= MAX_UNITS)
    return NULL;
  unit = g_new0 (Unit, 1);
  unit->dir = g_strdup (dir);
  unit->kind = kind;
  unit->layout = layout;
  unit->info_id = -1;
  unit->ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_ptr_array_add (discovery->units, unit);
  return unit;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **)a, *(const char **)b);
}

static GPtrArray *
list_sorted (const char *dir)
{
  g_autoptr(GDir) gdir = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (gdir != NULL && (name = g_dir_read_name (gdir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static gboolean
is_real_dir (const char *path)
{
  return !g_file_test (path, G_FILE_TEST_IS_SYMLINK) && g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* A folder that is one rank's whole profile, and its layout. */
static gboolean
is_rank_folder (const char      *path,
                const char      *name,
                SlProfileLayout *layout)
{
  g_autofree char *output = NULL;

  if (sl_profiler_layout_classify_dir (name, layout, NULL) == SL_PROFILER_ROLE_PROFILE_FOLDER &&
      (*layout == SL_PROFILE_LAYOUT_ASCEND_PT || *layout == SL_PROFILE_LAYOUT_MSPROF))
    return TRUE;
  output = g_build_filename (path, ASCEND_OUTPUT, NULL);
  *layout = SL_PROFILE_LAYOUT_ASCEND_PT;
  return g_file_test (output, G_FILE_TEST_IS_DIR);
}

/* The device ids of the MindSpore files in @dir; empty when it has none. */
static GArray *
mindspore_ids (const char *dir,
               GPtrArray  *names)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean any = FALSE;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = NULL;
      gint64 id = -1;
      gboolean seen = FALSE;

      if (!sl_profiler_layout_is_marker (name, &id))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      any = TRUE;
      for (guint k = 0; k < ids->len && !seen; k++)
        seen = g_array_index (ids, gint64, k) == id;
      if (id >= 0 && !seen)
        g_array_append_val (ids, id);
    }
  /* A marker without an id (step_trace_point_info.json) still marks it. */
  if (any && ids->len == 0)
    {
      gint64 none = -1;

      g_array_append_val (ids, none);
    }
  return ids;
}

static void
discover (Discovery  *discovery,
          const char *dir,
          guint       depth)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GArray) ids = NULL;
  gboolean mindspore;

  if (depth > MAX_DEPTH || g_cancellable_is_cancelled (discovery->cancellable))
    return;

  names = list_sorted (dir);
  ids = mindspore_ids (dir, names);
  mindspore = ids->len > 0;
  if (mindspore)
    {
      Unit *unit = add_unit (discovery, dir, UNIT_MINDSPORE, SL_PROFILE_LAYOUT_MINDSPORE);

      if (unit != NULL)
        g_array_append_vals (unit->ids, ids->data, ids->len);
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      SlProfileLayout layout;

      if (name[0] == '.' || !is_real_dir (path))
        continue;
      if (g_str_equal (name, ANALYSIS_FOLDER))
        add_unit (discovery, path, UNIT_ANALYSIS, SL_PROFILE_LAYOUT_CLUSTER);
      else if (is_rank_folder (path, name, &layout))
        {
          /* A MindSpore folder's PROF_ is the same devices' raw data. */
          if (!(mindspore && layout == SL_PROFILE_LAYOUT_MSPROF))
            add_unit (discovery, path, UNIT_RANK_FOLDER, layout);
        }
      else
        discover (discovery, path, depth + 1);
    }
}

static void
discover_root (Discovery  *discovery,
               const char *root)
{
  g_autofree char *name = g_path_get_basename (root);
  SlProfileLayout layout;

  if (g_str_equal (name, ANALYSIS_FOLDER))
    add_unit (discovery, root, UNIT_ANALYSIS, SL_PROFILE_LAYOUT_CLUSTER);
  else if (is_rank_folder (root, name, &layout))
    add_unit (discovery, root, UNIT_RANK_FOLDER, layout);
  else
    discover (discovery, root, 0);
}

/* torch_npu names a rank's info file after the rank: profiler_info_<id>.json. */
static gint64
find_info_id (const char *dir)
{
  g_autoptr(GPtrArray) names = list_sorted (dir);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      gint64 id = -1;

      if (g_str_has_prefix (name, "profiler_info_") &&
          sl_profiler_layout_lookup_file (name, &id) != NULL && id >= 0)
        return id;
    }
  return -1;
}

/* ------------------------------------------------------------------ */
/* Reading */

typedef struct {
  GCancellable          *cancellable;
  SlClusterProgressFunc  progress;
  gpointer               progress_data;
  guint                  n_total;
  gint                   n_read;     /* atomic */
} Reading;

static void
read_one (Unit         *unit,
          GCancellable *cancellable)
{
  unit->profile = sl_profile_load_parts (unit->dir, SL_PROFILE_PARTS_SUMMARY, cancellable, NULL, NULL, &unit->error);
}

static void
read_unit (gpointer data,
           gpointer user_data)
{
  Reading *reading = user_data;
  guint n_read;

  if (g_cancellable_is_cancelled (reading->cancellable))
    return;
  read_one (data, reading->cancellable);
  n_read = (guint)g_atomic_int_add (&reading->n_read, 1) + 1;
  if (reading->progress != NULL)
    reading->progress (n_read, reading->n_total, reading->progress_data);
}

static void
read_units (GPtrArray    *units,
            Reading      *reading)
{
  g_autoptr(GPtrArray) wanted = g_ptr_array_new ();
  GThreadPool *pool;
  guint n_threads;

  for (guint i = 0; i < units->len; i++)
    {
      Unit *unit = g_ptr_array_index (units, i);

      if (unit->read && unit->profile == NULL && unit->error == NULL)
        g_ptr_array_add (wanted, unit);
    }
  reading->n_total = wanted->len;
  if (wanted->len == 0)
    return;
  if (wanted->len == 1)
    {
      read_unit (g_ptr_array_index (wanted, 0), reading);
      return;
    }

  /* Twice the processors, at most MAX_THREADS: a rank's files are small,
   * so each thread often waits to open and read one; more than this only
   * contend for the disk. */
  n_threads = CLAMP (2 * g_get_num_processors (), 2, MAX_THREADS);
  pool = g_thread_pool_new (read_unit, reading, (gint)MIN (n_threads, wanted->len), FALSE, NULL);
  for (guint i = 0; i < wanted->len; i++)
    g_thread_pool_push (pool, g_ptr_array_index (wanted, i), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
}

/* ------------------------------------------------------------------ */
/* Merging */

/* MindSpore's names hold the rank; -1 says "<rank>". */
static char *
expected_step_file (SlProfileLayout layout,
                    gint64          rank_id)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_ASCEND_PT: return g_strdup (ASCEND_OUTPUT "/step_trace_time.csv");
    case SL_PROFILE_LAYOUT_MSPROF: return g_strdup ("mindstudio_profiler_output/step_trace_*.csv");
    case SL_PROFILE_LAYOUT_MINDSPORE:
      return rank_id >= 0 ? g_strdup_printf ("step_trace_raw_%lld_detail_time.csv", (long long)rank_id)
                          : g_strdup ("step_trace_raw_<rank>_detail_time.csv");
    case SL_PROFILE_LAYOUT_CLUSTER: return g_strdup ("cluster_step_trace_time.csv");
    case SL_PROFILE_LAYOUT_DATABASE:
    default: return g_strdup ("step_trace_time.csv");
    }
}

static char *
expected_communication_files (SlProfileLayout layout,
                              gint64          rank_id)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_ASCEND_PT: return g_strdup (ASCEND_OUTPUT "/communication.json, communication_matrix.json");
    case SL_PROFILE_LAYOUT_MINDSPORE:
      return rank_id >= 0 ? g_strdup_printf ("hccl_raw_%lld.csv", (long long)rank_id) : g_strdup ("hccl_raw_<rank>.csv");
    case SL_PROFILE_LAYOUT_CLUSTER: return g_strdup ("cluster_communication.json, cluster_communication_matrix.json");
    case SL_PROFILE_LAYOUT_MSPROF:
    case SL_PROFILE_LAYOUT_DATABASE:
    default: return NULL;
    }
}

static gboolean
has_communication (SlCommunication *comm)
{
  return comm != NULL && !sl_communication_is_empty (comm);
}

static void
take_problems (SlClusterProfile *cluster,
               SlProfile        *profile)
{
  GListModel *problems = sl_profile_get_problems (profile);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_cluster_profile_add_problem (cluster, problem);
    }
}

static void
add_files (SlClusterRank       *rank,
           const SlProfileRank *source)
{
  for (guint i = 0; i < source->files->len; i++)
    {
      const char *file = g_ptr_array_index (source->files, i);

      if (!g_ptr_array_find_with_equal_func (rank->files, file, g_str_equal, NULL))
        g_ptr_array_add (rank->files, g_strdup (file));
    }
}

/* The rank's id: its own info, a MindSpore file's id, or the name of the
 * folder's profiler_info_<id>.json. */
static gint64
source_rank_id (const Unit          *unit,
                const SlProfileRank *source)
{
  if (source->rank_id >= 0)
    return source->rank_id;
  if (unit->kind == UNIT_MINDSPORE && source->device_id >= 0)
    return source->device_id;
  return unit->info_id;
}

static void
merge_rank (SlClusterProfile    *cluster,
            const Unit          *unit,
            const SlProfileRank *source,
            gint64               rank_id)
{
  SlClusterRank *rank = sl_cluster_profile_ensure_rank (cluster, rank_id);
  gboolean from_analysis = unit->kind == UNIT_ANALYSIS;

  if (!from_analysis)
    {
      if (rank->dir != NULL && !g_str_equal (rank->dir, unit->dir))
        {
          g_autofree char *message =
            g_strdup_printf (_("Two folders hold rank %lld: %s and %s; the first one is used"),
                             (long long)rank_id, rank->dir, unit->dir);

          report (cluster, SL_SEVERITY_WARNING, unit->dir, message);
          return;
        }
      rank->dir = g_strdup (unit->dir);
      rank->layout = source->layout;
    }

  /* msprof-analyze's step rows and a rank's own trace say the same; the
   * first one read (the analysis) is kept. */
  if (rank->steps == NULL && source->steps != NULL && sl_step_trace_get_n_steps (source->steps) > 0)
    rank->steps = sl_step_trace_ref (source->steps);
  if (!has_communication (rank->communication) && has_communication (source->communication))
    g_set_object (&rank->communication, source->communication);
  add_files (rank, source);
}

/* A device whose MindSpore files hold no step trace is still a rank. */
static void
add_mindspore_ranks (SlClusterProfile *cluster,
                     const Unit       *unit)
{
  for (guint i = 0; unit->kind == UNIT_MINDSPORE && i < unit->ids->len; i++)
    {
      gint64 id = g_array_index (unit->ids, gint64, i);
      SlClusterRank *rank;

      if (id < 0)
        continue;
      rank = sl_cluster_profile_ensure_rank (cluster, id);
      if (rank->dir == NULL)
        {
          rank->dir = g_strdup (unit->dir);
          rank->layout = SL_PROFILE_LAYOUT_MINDSPORE;
        }
    }
}

typedef struct {
  const Unit          *unit;
  const SlProfileRank *source;
} Unnamed;

static void
merge_unit (SlClusterProfile *cluster,
            const Unit       *unit,
            GArray           *unnamed)
{
  SlProfile *profile = unit->profile;

  if (profile == NULL)
    return;
  take_problems (cluster, profile);

  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    {
      const SlProfileRank *source = sl_profile_get_rank (profile, r);
      gint64 rank_id;

      /* A stage row is each column's maximum over its ranks: not a rank. */
      if (source->aggregate || (unit->kind == UNIT_MINDSPORE && source->layout == SL_PROFILE_LAYOUT_MSPROF))
        continue;
      if ((rank_id = source_rank_id (unit, source)) < 0)
        {
          Unnamed pending = { unit, source };

          g_array_append_val (unnamed, pending);
          continue;
        }
      merge_rank (cluster, unit, source, rank_id);
    }
}

/* Ranks whose number is written nowhere come after the named ones, in
 * the order their folders were found. */
static void
merge_unnamed (SlClusterProfile *cluster,
               GArray           *unnamed)
{
  gint64 next = 0;

  for (guint i = 0; i < sl_cluster_profile_get_n_ranks (cluster); i++)
    next = MAX (next, sl_cluster_profile_get_rank (cluster, i)->rank_id + 1);
  for (guint i = 0; i < unnamed->len; i++)
    {
      const Unnamed *pending = &g_array_index (unnamed, Unnamed, i);
      g_autofree char *message =
        g_strdup_printf (_("The rank of %s is not written in its files (profiler_info_<rank>.json); it is "
                           "shown as rank %lld"), pending->unit->dir, (long long)next);

      report (cluster, SL_SEVERITY_INFO, pending->unit->dir, message);
      merge_rank (cluster, pending->unit, pending->source, next++);
    }
}

/* Where a rank's files were looked for: its own folder, else the analysis. */
static const char *
rank_dir (SlClusterProfile    *cluster,
          const SlClusterRank *rank)
{
  if (rank->dir != NULL)
    return rank->dir;
  return sl_cluster_profile_get_analysis_dir (cluster) != NULL ? sl_cluster_profile_get_analysis_dir (cluster)
                                                               : sl_cluster_profile_get_path (cluster);
}

static void
check_missing (SlClusterProfile *cluster)
{
  guint n = sl_cluster_profile_get_n_ranks (cluster), with_comm = 0;

  for (guint i = 0; i < n; i++)
    with_comm += has_communication (sl_cluster_profile_get_rank (cluster, i)->communication);

  for (guint i = 0; i < n; i++)
    {
      const SlClusterRank *rank = sl_cluster_profile_get_rank (cluster, i);
      const char *dir = rank_dir (cluster, rank);
      g_autofree char *step_file = expected_step_file (rank->layout, rank->rank_id);
      g_autofree char *comm_files = expected_communication_files (rank->layout, rank->rank_id);

      if (rank->steps == NULL)
        {
          g_autofree char *message =
            g_strdup_printf (_("%s has no step trace: looked for %s in %s"), rank->label, step_file, dir);

          report (cluster, SL_SEVERITY_WARNING, dir, message);
        }
      /* Missing communication matters only where the other ranks have it. */
      if (with_comm > 0 && !has_communication (rank->communication) && comm_files != NULL)
        {
          g_autofree char *message =
            g_strdup_printf (_("%s has no communication data: looked for %s in %s"), rank->label, comm_files, dir);

          report (cluster, SL_SEVERITY_WARNING, dir, message);
        }
    }
}

/* Ranks are numbered from 0 without holes; a hole is a rank whose files
 * are missing altogether. */
static void
check_gaps (SlClusterProfile *cluster)
{
  guint n = sl_cluster_profile_get_n_ranks (cluster), reported = 0, missing = 0;
  gint64 first, last;

  if (n < 2)
    return;
  first = sl_cluster_profile_get_rank (cluster, 0)->rank_id;
  last = sl_cluster_profile_get_rank (cluster, n - 1)->rank_id;
  for (guint i = 1; i < n; i++)
    {
      gint64 before = sl_cluster_profile_get_rank (cluster, i - 1)->rank_id;
      gint64 after = sl_cluster_profile_get_rank (cluster, i)->rank_id;

      for (gint64 id = before + 1; id < after; id++)
        {
          missing++;
          if (reported++ < MAX_GAP_REPORTS)
            {
              g_autofree char *message =
                g_strdup_printf (_("No files of rank %lld were found under %s (ranks %lld to %lld are present)"),
                                 (long long)id, sl_cluster_profile_get_path (cluster), (long long)first,
                                 (long long)last);

              report (cluster, SL_SEVERITY_WARNING, sl_cluster_profile_get_path (cluster), message);
            }
          if (missing > 100000)
            return;
        }
    }
  if (reported > MAX_GAP_REPORTS)
    {
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more rank has no files",
                                                               "%u more ranks have no files", reported - MAX_GAP_REPORTS),
                                                  reported - MAX_GAP_REPORTS);

      report (cluster, SL_SEVERITY_WARNING, sl_cluster_profile_get_path (cluster), message);
    }
}

static void
report_unit_error (SlClusterProfile *cluster,
                   const Unit       *unit)
{
  g_autofree char *message = NULL;
  g_autofree char *step_file = expected_step_file (unit->layout, -1);
  g_autofree char *comm = expected_communication_files (unit->layout, -1);

  if (unit->error == NULL || g_error_matches (unit->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (comm != NULL)
    message = g_strdup_printf (_("Nothing to read in %s: looked for %s and %s"), unit->dir, step_file, comm);
  else
    message = g_strdup_printf (_("Nothing to read in %s: looked for %s"), unit->dir, step_file);
  report (cluster, SL_SEVERITY_WARNING, unit->dir, message);
}

static gboolean
analysis_has_steps (const Unit *unit)
{
  for (guint r = 0; unit->profile != NULL && r < sl_profile_get_n_ranks (unit->profile); r++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (unit->profile, r);

      if (!rank->aggregate && rank->rank_id >= 0 && rank->steps != NULL)
        return TRUE;
    }
  return FALSE;
}

/* With the analysis' step rows, a rank folder named after its rank by
 * its info file need not be read: it is only where its Profile opens. */
static void
plan_rank_folders (GPtrArray *units,
                   gboolean   have_analysis)
{
  for (guint i = 0; i < units->len; i++)
    {
      Unit *unit = g_ptr_array_index (units, i);

      if (unit->kind == UNIT_ANALYSIS)
        continue;
      if (unit->kind == UNIT_RANK_FOLDER)
        unit->info_id = find_info_id (unit->dir);
      unit->read = !have_analysis || unit->kind != UNIT_RANK_FOLDER || unit->info_id < 0;
    }
}

static void
attach_unread_folder (SlClusterProfile *cluster,
                      const Unit       *unit)
{
  SlClusterRank *rank;

  if (sl_cluster_profile_find_rank (cluster, unit->info_id) < 0)
    {
      g_autofree char *message =
        g_strdup_printf (_("%s holds rank %lld, which has no row in cluster_step_trace_time.csv"), unit->dir,
                         (long long)unit->info_id);

      report (cluster, SL_SEVERITY_WARNING, unit->dir, message);
    }
  rank = sl_cluster_profile_ensure_rank (cluster, unit->info_id);
  if (rank->dir == NULL)
    {
      rank->dir = g_strdup (unit->dir);
      rank->layout = unit->layout;
    }
}

SlClusterProfile *
sl_cluster_load (const char    *path,
                 GCancellable  *cancellable,
                 GError       **error)
{
  return sl_cluster_load_with_progress (path, cancellable, NULL, NULL, error);
}

/**
 * sl_cluster_load_with_progress:
 * @progress: (nullable) (scope call): told, from the reading threads, how
 *   many of the folders to read have been read
 */
SlClusterProfile *
sl_cluster_load_with_progress (const char             *path,
                               GCancellable           *cancellable,
                               SlClusterProgressFunc   progress,
                               gpointer                progress_data,
                               GError                **error)
{
  Reading reading = { cancellable, progress, progress_data, 0, 0 };
  g_autoptr(GPtrArray) units = g_ptr_array_new_with_free_func ((GDestroyNotify)unit_free);
  g_autoptr(SlClusterProfile) cluster = NULL;
  Discovery discovery = { units, cancellable };
  g_autoptr(GArray) unnamed = g_array_new (FALSE, FALSE, sizeof (Unnamed));
  gboolean have_analysis = FALSE;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s is not a folder"), path);
      return NULL;
    }

  discover_root (&discovery, path);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (units->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("No rank's profile found in %s"), path);
      return NULL;
    }

  cluster = sl_cluster_profile_new (path);

  /* The analysis first: it decides which rank folders need reading. */
  for (guint i = 0; i < units->len; i++)
    {
      Unit *unit = g_ptr_array_index (units, i);

      if (unit->kind != UNIT_ANALYSIS)
        continue;
      unit->read = TRUE;
      read_one (unit, cancellable);
      if (analysis_has_steps (unit))
        {
          have_analysis = TRUE;
          if (sl_cluster_profile_get_analysis_dir (cluster) == NULL)
            sl_cluster_profile_set_analysis_dir (cluster, unit->dir);
        }
    }
  plan_rank_folders (units, have_analysis);
  read_units (units, &reading);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  for (guint i = 0; i < units->len; i++)
    {
      const Unit *unit = g_ptr_array_index (units, i);

      if (unit->read)
        {
          report_unit_error (cluster, unit);
          merge_unit (cluster, unit, unnamed);
          add_mindspore_ranks (cluster, unit);
        }
      else
        attach_unread_folder (cluster, unit);
    }
  merge_unnamed (cluster, unnamed);

  if (sl_cluster_profile_get_n_ranks (cluster) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("No rank's step trace or communication found in %s"),
                   path);
      return NULL;
    }

  sl_cluster_profile_finish (cluster);
  check_missing (cluster);
  check_gaps (cluster);
  return g_steal_pointer (&cluster);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  SlClusterProfile *cluster = sl_cluster_load (task_data, cancellable, &error);

  if (cluster == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, cluster, g_object_unref);
}

void
sl_cluster_load_async (const char          *path,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_cluster_load_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_thread);
}

SlClusterProfile *
sl_cluster_load_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
