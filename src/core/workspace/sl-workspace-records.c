/* sl-workspace-records.c: targets, projects and jobs: their models and the
 * changes written to them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

GListModel *
sl_workspace_get_targets (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->targets);
}

GListModel *
sl_workspace_get_projects (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->projects);
}

GListModel *
sl_workspace_get_jobs (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

/**
 * sl_workspace_lookup_target:
 *
 * Returns: (transfer none) (nullable): the target with @target_id
 */
SlTargetRecord *
sl_workspace_lookup_target (SlWorkspace *self,
                            gint64       target_id)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      if (sl_target_record_get_id (target) == target_id)
        return target;
    }

  return NULL;
}

/**
 * sl_workspace_get_local_target_id:
 *
 * Returns: the id of "this computer" in the targets, or -1
 */
gint64
sl_workspace_get_local_target_id (SlWorkspace *self)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), -1);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
        return sl_target_record_get_id (target);
    }

  return -1;
}

typedef enum {
  CHANGE_SAVE_TARGET,
  CHANGE_REMOVE_TARGET,
  CHANGE_SAVE_PROJECT,
  CHANGE_REMOVE_PROJECT,
  CHANGE_ADD_JOB,
  CHANGE_FINISH_JOB,
  CHANGE_RELOAD_JOBS,
} ChangeKind;

typedef struct {
  ChangeKind  kind;
  GObject    *record;
  gint64      id;
} Change;

static void
change_free (gpointer data)
{
  Change *change = data;

  g_clear_object (&change->record);
  g_free (change);
}

/* A job started before the workspace was loaded knows no target yet: a
 * job with none ran here. */
static gint64
local_target_id (SlWorkspaceStore *store)
{
  g_autoptr(GPtrArray) targets = sl_workspace_store_list_targets (store, NULL);

  for (guint i = 0; targets != NULL && i < targets->len; i++)
    {
      if (sl_target_record_get_kind (g_ptr_array_index (targets, i)) == SL_TARGET_KIND_LOCAL)
        return sl_target_record_get_id (g_ptr_array_index (targets, i));
    }

  return 0;
}

/* A change answers the list it changed, read again, so the model shows
 * what the database holds. */
static gpointer
change_func (SlWorkspaceStore  *store,
             gpointer           data,
             GCancellable      *cancellable,
             GError           **error)
{
  Change *change = data;
  gboolean ok = TRUE;

  switch (change->kind)
    {
    case CHANGE_SAVE_TARGET:
      if (sl_target_record_get_id (SL_TARGET_RECORD (change->record)) > 0)
        ok = sl_workspace_store_update_target (store, SL_TARGET_RECORD (change->record), error);
      else
        ok = sl_workspace_store_add_target (store, SL_TARGET_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_targets (store, error) : NULL;

    case CHANGE_REMOVE_TARGET:
      ok = sl_workspace_store_remove_target (store, change->id, error);
      return ok ? sl_workspace_store_list_targets (store, error) : NULL;

    case CHANGE_SAVE_PROJECT:
      if (sl_project_record_get_id (SL_PROJECT_RECORD (change->record)) > 0)
        ok = sl_workspace_store_update_project (store, SL_PROJECT_RECORD (change->record), error);
      else
        ok = sl_workspace_store_add_project (store, SL_PROJECT_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_projects (store, error) : NULL;

    case CHANGE_REMOVE_PROJECT:
      ok = sl_workspace_store_remove_project (store, change->id, error);
      return ok ? sl_workspace_store_list_projects (store, error) : NULL;

    case CHANGE_ADD_JOB:
      if (sl_job_record_get_target_id (SL_JOB_RECORD (change->record)) <= 0)
        sl_job_record_set_target_id (SL_JOB_RECORD (change->record), local_target_id (store));
      ok = sl_workspace_store_add_job (store, SL_JOB_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_jobs (store, SL_WORKSPACE_JOBS_SHOWN, error) : NULL;

    case CHANGE_FINISH_JOB:
      ok = sl_workspace_store_finish_job (store, SL_JOB_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_jobs (store, SL_WORKSPACE_JOBS_SHOWN, error) : NULL;

    case CHANGE_RELOAD_JOBS:
      return sl_workspace_store_list_jobs (store, SL_WORKSPACE_JOBS_SHOWN, error);

    default:
      g_assert_not_reached ();
    }
}

static GListStore *
model_of_change (SlWorkspace *self,
                 ChangeKind   kind)
{
  switch (kind)
    {
    case CHANGE_SAVE_TARGET:
    case CHANGE_REMOVE_TARGET:
      return self->targets;
    case CHANGE_SAVE_PROJECT:
    case CHANGE_REMOVE_PROJECT:
      return self->projects;
    default:
      return self->jobs;
    }
}

static void
change_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SlWorkspace *self = SL_WORKSPACE (object);
  Change *change = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = sl_workspace_run_finish (self, result, &error);

  if (records == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sl_workspace_replace_all (model_of_change (self, change->kind), records);
  g_task_return_boolean (task, TRUE);
}

static void
queue_change (SlWorkspace         *self,
              ChangeKind           kind,
              GObject             *record,
              gint64               id,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Change *change = g_new0 (Change, 1);
  Change *copy = g_new0 (Change, 1);

  change->kind = copy->kind = kind;
  change->id = copy->id = id;
  g_set_object (&change->record, record);
  g_set_object (&copy->record, record);
  g_task_set_source_tag (task, sl_workspace_change_finish);
  g_task_set_task_data (task, change, change_free);
  sl_workspace_run_async (self, change_func, copy, change_free, (GDestroyNotify)g_ptr_array_unref,
                          cancellable, change_done_cb, task);
}

/**
 * sl_workspace_save_target_async:
 * @target: a new target (id 0) or a changed one
 *
 * Adds or updates @target; the targets model follows once it is written.
 * On success @target has its id. Finish with sl_workspace_change_finish().
 */
void
sl_workspace_save_target_async (SlWorkspace         *self,
                                SlTargetRecord      *target,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_TARGET_RECORD (target));

  queue_change (self, CHANGE_SAVE_TARGET, G_OBJECT (target), 0, cancellable, callback, user_data);
}

void
sl_workspace_remove_target_async (SlWorkspace         *self,
                                  gint64               target_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_REMOVE_TARGET, NULL, target_id, cancellable, callback, user_data);
}

void
sl_workspace_save_project_async (SlWorkspace         *self,
                                 SlProjectRecord     *project,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_PROJECT_RECORD (project));

  queue_change (self, CHANGE_SAVE_PROJECT, G_OBJECT (project), 0, cancellable, callback, user_data);
}

void
sl_workspace_remove_project_async (SlWorkspace         *self,
                                   gint64               project_id,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_REMOVE_PROJECT, NULL, project_id, cancellable, callback, user_data);
}

/**
 * sl_workspace_add_job_async:
 * @job: a job that started; it gets its id once written
 */
void
sl_workspace_add_job_async (SlWorkspace         *self,
                            SlJobRecord         *job,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  queue_change (self, CHANGE_ADD_JOB, G_OBJECT (job), 0, cancellable, callback, user_data);
}

static void
change_logged_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;

  if (!sl_workspace_change_finish (self, result, &error))
    sl_workspace_warn_unless_cancelled (self, _("The job history could not be updated"), error);
}

/**
 * sl_workspace_finish_job:
 * @job: a job of the history whose end, state and exit code are set
 *
 * Writes the end of @job (after its addition, which is queued first).
 */
void
sl_workspace_finish_job (SlWorkspace *self,
                         SlJobRecord *job)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  queue_change (self, CHANGE_FINISH_JOB, G_OBJECT (job), 0, NULL, change_logged_cb, NULL);
}

/**
 * sl_workspace_reload_jobs:
 *
 * Reads the job history again, after another connection changed it (a
 * remote run records its job itself).
 */
void
sl_workspace_reload_jobs (SlWorkspace *self)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_RELOAD_JOBS, NULL, 0, NULL, change_logged_cb, NULL);
}

gboolean
sl_workspace_change_finish (SlWorkspace   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
