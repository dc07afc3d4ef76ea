/* sl-slurm-refresher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-remote-run.h"
#include "sl-slurm-refresher.h"
#include "sl-target-shell.h"

struct _SlSlurmRefresher
{
  GObject      parent_instance;
  SlWorkspace *workspace;
  gint64       followed_job;
  gboolean     refreshing;
};

G_DEFINE_FINAL_TYPE (SlSlurmRefresher, sl_slurm_refresher, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_REFRESHING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The jobs of one target, asked about in one call. */
typedef struct {
  SlTarget  *target;
  GPtrArray *records;   /* SlJobRecord */
  char      *output;    /* what the call printed; NULL when it failed */
} TargetBatch;

static void
target_batch_free (gpointer data)
{
  TargetBatch *batch = data;

  g_clear_object (&batch->target);
  g_clear_pointer (&batch->records, g_ptr_array_unref);
  g_free (batch->output);
  g_free (batch);
}

static void
info_free (gpointer data)
{
  sl_slurm_job_info_clear (data);
  g_free (data);
}

static gboolean
is_job_id (const char *id)
{
  if (id == NULL || id[0] == '\0' || strlen (id) > 20)
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!g_ascii_isdigit (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/**
 * sl_slurm_refresher_dup_command:
 * @ids: Slurm job ids, digits only
 *
 * Returns: (transfer full): one shell command asking squeue, then sacct,
 *   about every job of @ids; each line names its source and job
 */
char *
sl_slurm_refresher_dup_command (const char * const *ids)
{
  g_autofree char *list = NULL;

  g_return_val_if_fail (ids != NULL && ids[0] != NULL, NULL);
  for (guint i = 0; ids[i] != NULL; i++)
    g_return_val_if_fail (is_job_id (ids[i]), NULL);

  list = g_strjoinv (",", (char **)ids);
  return g_strdup_printf ("ids=%s; "
                          "squeue -h -j \"$ids\" -o 'squeue %%i %%T %%r' 2>/dev/null; "
                          "sacct -n -P -X -j \"$ids\" -o JobID,State,ExitCode 2>/dev/null | sed 's/^/sacct /'; "
                          "echo end",
                          list);
}

/**
 * sl_slurm_refresher_parse:
 *
 * Returns: (transfer full): Slurm job id → #SlSlurmJobInfo; the queue's
 *   word wins over accounting's for a job both know. Lines that do not
 *   parse are left out.
 */
GHashTable *
sl_slurm_refresher_parse (const char *output)
{
  GHashTable *infos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, info_free);
  g_autoptr(GHashTable) queued = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit (output != NULL ? output : "", "\n", 100000);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gboolean from_queue = g_str_has_prefix (line, "squeue ");
      const char *rest;
      gsize id_length;
      g_autofree char *id = NULL;
      SlSlurmJobInfo *info;
      gboolean ok;

      if (!from_queue && !g_str_has_prefix (line, "sacct "))
        continue;
      rest = line + (from_queue ? 7 : 6);
      id_length = strcspn (rest, from_queue ? " " : "|");
      if (rest[id_length] == '\0')
        continue;
      id = g_strndup (rest, id_length);
      if (!is_job_id (id) || (!from_queue && g_hash_table_contains (queued, id)))
        continue;

      info = g_new0 (SlSlurmJobInfo, 1);
      info->exit_code = -1;
      ok = from_queue ? sl_slurm_parse_squeue_line (rest + id_length + 1, info)
                      : sl_slurm_parse_sacct_line (rest + id_length + 1, info);
      if (!ok)
        {
          info_free (info);
          continue;
        }
      if (from_queue)
        g_hash_table_add (queued, g_strdup (id));
      g_hash_table_replace (infos, g_steal_pointer (&id), info);
    }
  return infos;
}

static gboolean
is_unfollowed (SlSlurmRefresher *self,
               SlJobRecord      *job)
{
  return sl_job_record_is_slurm (job) && !sl_job_state_is_finished (sl_job_record_get_state (job)) &&
         is_job_id (sl_job_record_get_backend_job_id (job)) && sl_job_record_get_id (job) != self->followed_job;
}

/**
 * sl_slurm_refresher_count_unfollowed:
 *
 * Returns: how many unfinished Slurm jobs of the history no controller
 *   follows: a timer need not run without any
 */
guint
sl_slurm_refresher_count_unfollowed (SlSlurmRefresher *self)
{
  GListModel *jobs;
  guint n = 0;

  g_return_val_if_fail (SL_IS_SLURM_REFRESHER (self), 0);

  jobs = sl_workspace_get_jobs (self->workspace);
  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (jobs, i);

      n += is_unfollowed (self, job);
    }
  return n;
}

static GPtrArray *
collect_batches (SlSlurmRefresher *self)
{
  GListModel *jobs = sl_workspace_get_jobs (self->workspace);
  g_autoptr(GHashTable) by_target = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  GPtrArray *batches = g_ptr_array_new_with_free_func (target_batch_free);

  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (jobs, i);
      gint64 target_id = sl_job_record_get_target_id (job);
      TargetBatch *batch;

      if (!is_unfollowed (self, job))
        continue;
      if ((batch = g_hash_table_lookup (by_target, &target_id)) == NULL)
        {
          SlTargetRecord *record = sl_workspace_lookup_target (self->workspace, target_id);
          SlTarget *target = record != NULL ? sl_target_new_from_record (record, NULL) : NULL;

          if (target == NULL)
            continue;
          batch = g_new0 (TargetBatch, 1);
          batch->target = target;
          batch->records = g_ptr_array_new_with_free_func (g_object_unref);
          g_ptr_array_add (batches, batch);
          g_hash_table_insert (by_target, g_memdup2 (&target_id, sizeof target_id), batch);
        }
      g_ptr_array_add (batch->records, g_object_ref (job));
    }
  return batches;
}

/* One call per target, in the worker: a target that cannot be reached
 * keeps its jobs' states as they were. */
static void
refresh_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  GPtrArray *batches = data;

  for (guint b = 0; b < batches->len; b++)
    {
      TargetBatch *batch = g_ptr_array_index (batches, b);
      g_autoptr(SlTargetShell) shell = sl_target_shell_new_for_target (batch->target);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) ids = NULL;
      g_autofree char *command = NULL;
      g_autofree char *full = NULL;
      const char *setup = sl_target_get_env_setup (batch->target);
      int status = -1;

      sl_target_shell_set_reconnect_limit (shell, 0);
      for (guint i = 0; i < batch->records->len; i++)
        g_strv_builder_add (builder, sl_job_record_get_backend_job_id (g_ptr_array_index (batch->records, i)));
      ids = g_strv_builder_end (builder);
      command = sl_slurm_refresher_dup_command ((const char * const *)ids);
      /* Slurm's commands may only be on the PATH after the target's setup. */
      full = setup != NULL && setup[0] != '\0'
             ? g_strdup_printf ("{ %s\n} </dev/null >/dev/null 2>&1; %s", setup, command) : g_strdup (command);
      if (!sl_target_shell_run (shell, full, &batch->output, NULL, &status, cancellable, NULL))
        g_clear_pointer (&batch->output, g_free);
    }
  g_task_return_boolean (task, TRUE);
}

static gpointer
update_job_func (SlWorkspaceStore  *store,
                 gpointer           data,
                 GCancellable      *cancellable,
                 GError           **error)
{
  return sl_workspace_store_update_job (store, data, error) ? GINT_TO_POINTER (1) : NULL;
}

static void
job_updated_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (sl_workspace_run_finish (SL_WORKSPACE (object), result, &error) == NULL && error != NULL)
    g_warning ("Could not save a Slurm job's state: %s", error->message);
  sl_workspace_reload_jobs (SL_WORKSPACE (object));
}

/* The history's state for what Slurm says, as the controller saves it. */
static gboolean
apply_info (SlSlurmRefresher     *self,
            SlJobRecord          *job,
            const SlSlurmJobInfo *info)
{
  SlJobStatus status = sl_slurm_state_to_status (info->state);

  if (g_strcmp0 (sl_job_record_get_backend_state (job), info->state) == 0 &&
      g_strcmp0 (sl_job_record_get_backend_reason (job), info->reason) == 0)
    return FALSE;

  sl_job_record_set_backend_state (job, info->state, info->reason);
  if (status == SL_JOB_STATUS_EXITED)
    {
      int code = sl_slurm_job_info_get_exit (info);

      if (g_str_equal (info->state, "CANCELLED"))
        sl_job_record_set_state (job, SL_JOB_STATE_CANCELLED);
      else
        sl_job_record_set_state (job, g_str_equal (info->state, "COMPLETED") && code == 0
                                      ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED);
      if (code >= 0)
        sl_job_record_set_exit_code (job, code);
      sl_job_record_set_finished_at (job, 0);
      sl_workspace_finish_job (self->workspace, job);
      return TRUE;
    }
  sl_job_record_set_state (job, status == SL_JOB_STATUS_STARTING ? SL_JOB_STATE_QUEUED : SL_JOB_STATE_RUNNING);
  sl_workspace_run_async (self->workspace, update_job_func, g_object_ref (job), g_object_unref, NULL,
                          NULL, job_updated_cb, NULL);
  return TRUE;
}

static void
set_refreshing (SlSlurmRefresher *self,
                gboolean          refreshing)
{
  if (self->refreshing == refreshing)
    return;
  self->refreshing = refreshing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  SlSlurmRefresher *self = g_task_get_source_object (outer);
  GPtrArray *batches = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  guint changed = 0;

  set_refreshing (self, FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (outer, g_steal_pointer (&error));
      return;
    }
  for (guint b = 0; b < batches->len; b++)
    {
      TargetBatch *batch = g_ptr_array_index (batches, b);
      g_autoptr(GHashTable) infos = NULL;

      if (batch->output == NULL)
        continue;
      infos = sl_slurm_refresher_parse (batch->output);
      for (guint i = 0; i < batch->records->len; i++)
        {
          SlJobRecord *job = g_ptr_array_index (batch->records, i);
          SlSlurmJobInfo *info = g_hash_table_lookup (infos, sl_job_record_get_backend_job_id (job));

          if (info != NULL && info->state != NULL && sl_job_record_get_id (job) != self->followed_job)
            changed += apply_info (self, job, info);
        }
    }
  g_task_return_int (outer, changed);
}

/**
 * sl_slurm_refresher_refresh_async:
 *
 * Asks Slurm about every unfinished Slurm job of the history that no
 * controller follows; one refresh at a time (a second call while one
 * runs ends at once, with nothing changed).
 */
void
sl_slurm_refresher_refresh_async (SlSlurmRefresher    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *outer;
  g_autoptr(GTask) inner = NULL;
  GPtrArray *batches;

  g_return_if_fail (SL_IS_SLURM_REFRESHER (self));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, sl_slurm_refresher_refresh_async);
  if (self->refreshing || (batches = collect_batches (self))->len == 0)
    {
      if (!self->refreshing)
        g_ptr_array_unref (batches);
      g_task_return_int (outer, 0);
      g_object_unref (outer);
      return;
    }
  set_refreshing (self, TRUE);
  inner = g_task_new (self, cancellable, refreshed_cb, outer);
  g_task_set_task_data (inner, batches, (GDestroyNotify)g_ptr_array_unref);
  g_task_run_in_thread (inner, refresh_thread);
}

/**
 * sl_slurm_refresher_refresh_finish:
 * @n_changed: (out) (optional): the jobs whose state changed
 */
gboolean
sl_slurm_refresher_refresh_finish (SlSlurmRefresher  *self,
                                   GAsyncResult      *result,
                                   guint             *n_changed,
                                   GError           **error)
{
  gssize changed;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  changed = g_task_propagate_int (G_TASK (result), error);
  if (n_changed != NULL)
    *n_changed = changed > 0 ? (guint)changed : 0;
  return changed >= 0;
}

/**
 * sl_slurm_refresher_set_followed_job:
 * @job_id: the history id of the job a controller follows, or 0
 */
void
sl_slurm_refresher_set_followed_job (SlSlurmRefresher *self,
                                     gint64            job_id)
{
  g_return_if_fail (SL_IS_SLURM_REFRESHER (self));
  self->followed_job = job_id;
}

gboolean
sl_slurm_refresher_get_refreshing (SlSlurmRefresher *self)
{
  g_return_val_if_fail (SL_IS_SLURM_REFRESHER (self), FALSE);
  return self->refreshing;
}

static void
sl_slurm_refresher_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_REFRESHING:
      g_value_set_boolean (value, SL_SLURM_REFRESHER (object)->refreshing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_slurm_refresher_finalize (GObject *object)
{
  g_clear_object (&SL_SLURM_REFRESHER (object)->workspace);
  G_OBJECT_CLASS (sl_slurm_refresher_parent_class)->finalize (object);
}

static void
sl_slurm_refresher_class_init (SlSlurmRefresherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_slurm_refresher_get_property;
  object_class->finalize = sl_slurm_refresher_finalize;

  properties[PROP_REFRESHING] =
    g_param_spec_boolean ("refreshing", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_slurm_refresher_init (SlSlurmRefresher *self)
{
}

SlSlurmRefresher *
sl_slurm_refresher_new (SlWorkspace *workspace)
{
  SlSlurmRefresher *self;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  self = g_object_new (SL_TYPE_SLURM_REFRESHER, NULL);
  self->workspace = g_object_ref (workspace);
  return self;
}
