/* sl-workspace-load.c: opening the database and filling the models from it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

typedef struct {
  char      *recovery_message;
  GPtrArray *targets;
  GPtrArray *projects;
  GPtrArray *jobs;
  GPtrArray *recent_folders;   /* of GFile */
  char     **open_folders;
  GPtrArray *open_findings;    /* a GPtrArray of SlFinding per open folder */
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_free (loaded->recovery_message);
  g_clear_pointer (&loaded->targets, g_ptr_array_unref);
  g_clear_pointer (&loaded->projects, g_ptr_array_unref);
  g_clear_pointer (&loaded->jobs, g_ptr_array_unref);
  g_clear_pointer (&loaded->recent_folders, g_ptr_array_unref);
  g_clear_pointer (&loaded->open_folders, g_strfreev);
  g_clear_pointer (&loaded->open_findings, g_ptr_array_unref);
  g_free (loaded);
}

static gpointer
load_func (SlWorkspaceStore  *store,
           gpointer           data,
           GCancellable      *cancellable,
           GError           **error)
{
  Loaded *loaded = g_new0 (Loaded, 1);

  /* What other programs change from now on shows in the models. */
  sl_workspace_store_poll_changes (store, NULL);

  loaded->recovery_message = g_strdup (sl_workspace_store_get_recovery_message (store));
  if (!(loaded->targets = sl_workspace_store_list_targets (store, error)) ||
      !(loaded->projects = sl_workspace_store_list_projects (store, error)) ||
      !(loaded->jobs = sl_workspace_store_list_jobs (store, SL_WORKSPACE_JOBS_SHOWN, error)) ||
      !(loaded->recent_folders = sl_workspace_list_recent_files (store, error)) ||
      !(loaded->open_folders = sl_workspace_store_list_open_folders (store, error)))
    {
      loaded_free (loaded);
      return NULL;
    }

  loaded->open_findings = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  for (guint i = 0; loaded->open_folders[i] != NULL; i++)
    g_ptr_array_add (loaded->open_findings, sl_workspace_indexed_findings (store, loaded->open_folders[i]));

  return loaded;
}

static void
restore_folders (SlWorkspace *self,
                 Loaded      *loaded)
{
  for (guint i = 0; loaded->open_folders[i] != NULL; i++)
    {
      g_autoptr(SlFolder) folder = NULL;

      if (sl_workspace_lookup_folder (self, loaded->open_folders[i]) != NULL)
        continue;

      folder = sl_folder_new (loaded->open_folders[i]);
      sl_folder_restore_findings (folder, g_ptr_array_index (loaded->open_findings, i));
      g_list_store_append (self->folders, folder);
      sl_workspace_start_scan (self, folder);
    }
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  Loaded *loaded = sl_workspace_run_finish (self, result, &error);

  if (loaded == NULL)
    sl_workspace_report_open_failed (self, error);
  else
    {
      self->has_store = TRUE;
      /* Every start says it, until the report is dismissed. */
      if (loaded->recovery_message != NULL)
        sl_workspace_report_recovery (self, loaded->recovery_message);
      sl_workspace_replace_all (self->targets, loaded->targets);
      sl_workspace_replace_all (self->projects, loaded->projects);
      sl_workspace_replace_all (self->jobs, loaded->jobs);
      sl_workspace_replace_all (self->recent_folders, loaded->recent_folders);
      restore_folders (self, loaded);
      loaded_free (loaded);
      sl_workspace_start_watching (self);
    }

  /* From now on the Workspace's folders are remembered as they change;
   * what was opened while loading is remembered at once. */
  self->loaded = TRUE;
  sl_workspace_remember_folders (self);
  sl_workspace_notify_loaded (self);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sl_workspace_load_async:
 *
 * Opens the database on the writer and fills the models: targets,
 * projects, jobs, recent folders, and the folders open last time with
 * what the run index remembers of them, which are then scanned again.
 * When the database cannot be opened the workspace still works, without
 * keeping anything, and a problem says why.
 */
void
sl_workspace_load_async (SlWorkspace         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (!self->loaded);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_workspace_load_async);
  sl_workspace_run_async (self, load_func, NULL, NULL, loaded_free, NULL, load_cb, task);
}

gboolean
sl_workspace_load_finish (SlWorkspace   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_workspace_is_loaded (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  return self->loaded;
}

/**
 * sl_workspace_has_store:
 *
 * Returns: whether the database is open (known once loaded)
 */
gboolean
sl_workspace_has_store (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  return self->has_store;
}
