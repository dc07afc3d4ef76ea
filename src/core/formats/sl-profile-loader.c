/* sl-profile-loader.c
 *
 * sl-profile-discovery finds the files and groups them into ranks by the
 * folder that holds them; they are read in a fixed order per rank: info,
 * steps, op types, op instances, framework details, summaries, counters,
 * the SQLite export. The CSV tables are read from their column specs
 * (sl-profile-step-tables, sl-profile-op-tables); the JSON files, memory,
 * communication and the SQLite export by their own readers.
 *
 * Units: MindSpore step trace points are system-counter ticks of 10 ns;
 * MindSpore op tables are in ms; msprof and torch_npu CSVs in µs (parsed
 * as exact decimals, since epoch µs with a fraction do not fit a double).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "sl-communication-reader.h"
#include "sl-memory-reader.h"
#include "sl-profile-db.h"
#include "sl-profile-discovery.h"
#include "sl-profile-info-reader.h"
#include "sl-profile-loader.h"
#include "sl-profile-tables.h"
#include "sl-profiler-layout.h"

typedef struct {
  SlProfile    *profile;
  GCancellable *cancellable;
  GHashTable   *ranks;     /* group key → SlProfileRank */
  GHashTable   *cluster_ranks;   /* "id|dir" → SlProfileRank of the cluster layout */
  guint         n_indexed;       /* the profile's ranks looked at for cluster_ranks */
} Loader;

/* ------------------------------------------------------------------ */
/* Memory */

static SlMemoryProfile *
rank_memory (SlProfileRank *rank)
{
  if (rank->memory == NULL)
    rank->memory = sl_memory_profile_new ();
  return rank->memory;
}

static void
add_counter (SlProfileRank *rank,
             const char    *component,
             const char    *measure,
             GArray        *ts_ns,
             GArray        *values)
{
  g_autofree char *name = g_strdup_printf ("%s %s", component, measure);
  SlProfileCounter *counter = NULL;

  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      if (isnan (value))
        continue;
      if (counter == NULL)
        counter = sl_profile_rank_get_counter (rank, name, "MB");
      g_array_append_val (counter->ts_ns, g_array_index (ts_ns, gint64, i));
      g_array_append_val (counter->values, value);
    }
}

/* memory_record.csv: also one counter per component and measure, as
 * the CLI has always listed them. */
static void
add_memory_counters (SlProfileRank *rank,
                     guint          first_curve)
{
  for (guint i = first_curve; i < sl_memory_profile_get_n_curves (rank->memory); i++)
    {
      const SlMemoryCurve *curve = sl_memory_profile_get_curve (rank->memory, i);

      add_counter (rank, curve->name, "Total Allocated", curve->ts_ns, curve->allocated_mb);
      add_counter (rank, curve->name, "Total Reserved", curve->ts_ns, curve->reserved_mb);
      add_counter (rank, curve->name, "Total Active", curve->ts_ns, curve->active_mb);
    }
}

static void
read_memory (Loader              *loader,
             SlProfileRank       *rank,
             const SlProfileFile *found)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  guint first_curve = sl_memory_profile_get_n_curves (rank_memory (rank));

  sl_memory_reader_read_file (rank->memory, found->path, loader->cancellable, problems);
  if (sl_memory_reader_file_for_path (found->path) == SL_MEMORY_FILE_RECORD)
    add_memory_counters (rank, first_curve);
  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
}

/* The export's memory tables, unless the text files of the same rank
 * were read already. */
static void
read_db_memory (SlProfileRank *rank,
                const char    *path,
                GCancellable  *cancellable,
                GPtrArray     *problems)
{
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();

  if (sl_memory_reader_read_db (memory, path, cancellable, problems) && !sl_memory_profile_is_empty (memory))
    g_set_object (&rank->memory, memory);
}

/* ------------------------------------------------------------------ */
/* Communication */

static void
read_communication_into (Loader              *loader,
                         SlCommunication     *comm,
                         const SlProfileFile *found)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);

  sl_communication_read_file (comm, found->path, loader->cancellable, problems);
  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
}

/* communication.json, communication_matrix.json, hccl_raw_<id>.csv: the
 * rank's own; both JSON files of a rank go into one object. */
static void
read_communication (Loader              *loader,
                    SlProfileRank       *rank,
                    const SlProfileFile *found)
{
  if (rank->communication == NULL)
    rank->communication = sl_communication_new ();
  read_communication_into (loader, rank->communication, found);
}

static SlProfileRank *
cluster_rank (Loader     *loader,
              const char *dir,
              gint64      rank_id)
{
  g_autofree char *key = g_strdup_printf ("%lld|%s", (long long)rank_id, dir);
  SlProfileRank *rank;

  /* Indexed as ranks are added (the step table adds them too): a
   * cluster file naming 60,000 ranks looked each one up among all the
   * others, minutes in all. */
  for (; loader->n_indexed < sl_profile_get_n_ranks (loader->profile); loader->n_indexed++)
    {
      rank = (SlProfileRank *)sl_profile_get_rank (loader->profile, loader->n_indexed);
      if (rank->layout == SL_PROFILE_LAYOUT_CLUSTER)
        g_hash_table_insert (loader->cluster_ranks, g_strdup_printf ("%lld|%s", (long long)rank->rank_id, rank->dir),
                             rank);
    }
  if ((rank = g_hash_table_lookup (loader->cluster_ranks, key)) != NULL)
    return rank;
  rank = sl_profile_add_rank (loader->profile, dir, SL_PROFILE_LAYOUT_CLUSTER);
  g_free (rank->label);
  rank->label = g_strdup_printf ("rank %lld", (long long)rank_id);
  rank->rank_id = rank_id;
  return rank;
}

/* msprof-analyze's cluster_communication(_matrix).json covers every rank:
 * one object is shared by the ranks of the cluster step table (made
 * here for ranks it lacks); each rank's records are told by rank id. */
static void
read_cluster_communication (Loader              *loader,
                            const SlProfileFile *found)
{
  g_autofree char *dir = g_path_get_dirname (found->path);
  g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlCommunication *comm = NULL;

  for (guint i = 0; i < sl_profile_get_n_ranks (loader->profile) && comm == NULL; i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (loader->profile, i);

      if (rank->layout == SL_PROFILE_LAYOUT_CLUSTER && rank->communication != NULL && g_str_equal (rank->dir, dir))
        comm = rank->communication;
    }
  if (comm == NULL)
    comm = sl_communication_new ();
  else
    g_object_ref (comm);
  read_communication_into (loader, comm, found);

  for (guint i = 0; i < sl_communication_get_n_ops (comm); i++)
    if (sl_communication_get_op (comm, i)->rank_id >= 0)
      g_array_append_val (seen, sl_communication_get_op (comm, i)->rank_id);
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    if (sl_communication_get_link (comm, i)->src >= 0)
      g_array_append_val (seen, sl_communication_get_link (comm, i)->src);
  /* Bounded by the records, and the records by the reader. */
  for (guint i = 0; i < seen->len && g_hash_table_size (ids) < 100000; i++)
    {
      gint64 *id = &g_array_index (seen, gint64, i);
      SlProfileRank *rank;

      if (g_hash_table_contains (ids, id))
        continue;
      g_hash_table_add (ids, id);
      rank = cluster_rank (loader, dir, *id);
      if (rank->communication == NULL)
        rank->communication = g_object_ref (comm);
      if (!g_ptr_array_find_with_equal_func (rank->files, found->path, g_str_equal, NULL))
        g_ptr_array_add (rank->files, g_strdup (found->path));
    }
  g_object_unref (comm);
}

/* ------------------------------------------------------------------ */
/* Putting it together */

static SlProfileRank *
rank_for (Loader              *loader,
          const SlProfileFile *found)
{
  g_autofree char *key = g_strdup_printf ("%d|%s|%lld", found->layout, found->unit_dir, (long long)found->id);
  SlProfileRank *rank = g_hash_table_lookup (loader->ranks, key);

  if (rank != NULL)
    return rank;

  rank = sl_profile_add_rank (loader->profile, found->unit_dir, found->layout);
  if (found->id >= 0)
    {
      g_free (rank->label);
      /* Translators: a device of a MindSpore profile, by the id in its file names */
      rank->label = g_strdup_printf (_("device %lld"), (long long)found->id);
      rank->device_id = found->id;
    }
  g_hash_table_insert (loader->ranks, g_steal_pointer (&key), rank);
  return rank;
}

static void
read_found (Loader              *loader,
            const SlProfileFile *found)
{
  const SlProfileTableSpec *table = sl_profile_table_for_kind (found->kind);
  SlProfileRank *rank;

  if (found->kind == SL_PROFILE_FILE_CLUSTER_STEP)
    {
      sl_profile_table_read (table, loader->profile, NULL, found->path, loader->cancellable);
      return;
    }
  if (found->kind == SL_PROFILE_FILE_CLUSTER_COMMUNICATION)
    {
      read_cluster_communication (loader, found);
      return;
    }

  rank = rank_for (loader, found);
  g_ptr_array_add (rank->files, g_strdup (found->path));

  if (table != NULL)
    {
      sl_profile_table_read (table, loader->profile, rank, found->path, loader->cancellable);
      return;
    }

  switch (found->kind)
    {
    case SL_PROFILE_FILE_INFO: sl_profile_read_info (loader->profile, rank, found->path); break;
    case SL_PROFILE_FILE_MS_TIMELINE_SUMMARY:
      sl_profile_read_json_summary (loader->profile, rank, found->path, "timeline");
      break;
    case SL_PROFILE_FILE_MS_FLOPS_SUMMARY:
      sl_profile_read_json_summary (loader->profile, rank, found->path, "flops");
      break;
    case SL_PROFILE_FILE_MEMORY: read_memory (loader, rank, found); break;
    case SL_PROFILE_FILE_COMMUNICATION: read_communication (loader, rank, found); break;
    case SL_PROFILE_FILE_DATABASE:
      {
        g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);

        sl_profile_db_read (found->path, rank, loader->cancellable, problems);
        if (rank->memory == NULL || sl_memory_profile_is_empty (rank->memory))
          read_db_memory (rank, found->path, loader->cancellable, problems);
        for (guint i = 0; i < problems->len; i++)
          sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

SlProfile *
sl_profile_load (const char             *path,
                 GCancellable           *cancellable,
                 SlProfileProgressFunc   progress,
                 gpointer                progress_data,
                 GError                **error)
{
  return sl_profile_load_parts (path, SL_PROFILE_PARTS_ALL, cancellable, progress, progress_data, error);
}

/* A profiler file opened on its own: say which of the profile's files
 * are not beside it, so the user knows why parts are empty. */
static void
report_single_file (Loader     *loader,
                    const char *path)
{
  g_autoptr(GPtrArray) missing = sl_profiler_layout_list_missing_companions (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *list = NULL;
  g_autofree char *message = NULL;

  if (missing->len == 0)
    return;
  g_ptr_array_add (missing, NULL);
  list = g_strjoinv (", ", (char **)missing->pdata);
  message = g_strdup_printf (_("Only %s was opened; the profile’s other files (%s) are not beside it."), name, list);
  sl_profile_report (loader->profile, SL_SEVERITY_INFO, path, -1, message);
}

SlProfile *
sl_profile_load_parts (const char             *path,
                       SlProfileParts          parts,
                       GCancellable           *cancellable,
                       SlProfileProgressFunc   progress,
                       gpointer                progress_data,
                       GError                **error)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GHashTable) ranks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) cluster_ranks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Loader loader;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s does not exist"), path);
      return NULL;
    }
  found = sl_profile_discover (path, parts == SL_PROFILE_PARTS_SUMMARY, cancellable);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (found->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("No profiler output found in %s"), path);
      return NULL;
    }

  profile = sl_profile_new (path);
  loader.profile = profile;
  loader.cancellable = cancellable;
  loader.ranks = ranks;
  loader.cluster_ranks = cluster_ranks;
  loader.n_indexed = 0;

  for (guint i = 0; i < found->len; i++)
    {
      const SlProfileFile *item = g_ptr_array_index (found, i);

      if (progress != NULL)
        progress (i / (double)found->len, item->path, progress_data);
      read_found (&loader, item);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    sl_profile_rank_finish ((SlProfileRank *)sl_profile_get_rank (profile, i));

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    report_single_file (&loader, path);

  if (progress != NULL)
    progress (1.0, path, progress_data);

  return g_steal_pointer (&profile);
}

/* ------------------------------------------------------------------ */
/* Asynchronous loading */

typedef struct {
  char                  *path;
  SlProfileProgressFunc  progress;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;
  GMainContext          *context;
} LoadData;

typedef struct {
  GTask    *task;     /* keeps the LoadData alive */
  double    fraction;
  char     *path;
} ProgressUpdate;

static void
load_data_free (LoadData *data)
{
  if (data->progress_destroy != NULL)
    data->progress_destroy (data->progress_data);
  g_main_context_unref (data->context);
  g_free (data->path);
  g_free (data);
}

static gboolean
progress_idle_cb (gpointer user_data)
{
  ProgressUpdate *update = user_data;
  LoadData *data = g_task_get_task_data (update->task);

  data->progress (update->fraction, update->path, data->progress_data);
  return G_SOURCE_REMOVE;
}

static void
progress_update_free (gpointer user_data)
{
  ProgressUpdate *update = user_data;

  g_object_unref (update->task);
  g_free (update->path);
  g_free (update);
}

/* Runs in the worker; the update runs in the caller's context. */
static void
forward_progress (double      fraction,
                  const char *path,
                  gpointer    user_data)
{
  GTask *task = user_data;
  LoadData *data = g_task_get_task_data (task);
  ProgressUpdate *update;

  if (data->progress == NULL)
    return;

  update = g_new0 (ProgressUpdate, 1);
  update->task = g_object_ref (task);
  update->fraction = fraction;
  update->path = g_strdup (path);
  sl_main_context_dispatch (data->context, progress_idle_cb, update, progress_update_free);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;
  SlProfile *profile = sl_profile_load (data->path, cancellable, forward_progress, task, &error);

  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

void
sl_profile_load_async (const char             *path,
                       GCancellable           *cancellable,
                       SlProfileProgressFunc   progress,
                       gpointer                progress_data,
                       GDestroyNotify          progress_destroy,
                       GAsyncReadyCallback     callback,
                       gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (path != NULL);

  data = g_new0 (LoadData, 1);
  data->path = g_strdup (path);
  data->progress = progress;
  data->progress_data = progress_data;
  data->progress_destroy = progress_destroy;
  data->context = g_main_context_ref_thread_default ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_profile_load_async);
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

SlProfile *
sl_profile_load_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Timeline files */

/**
 * sl_profile_list_timeline_files:
 *
 * Returns: (transfer full): paths (char *), possibly empty
 */
GPtrArray *
sl_profile_list_timeline_files (const char *path)
{
  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, g_ptr_array_new_with_free_func (g_free));

  return sl_profile_discover_timelines (path);
}
