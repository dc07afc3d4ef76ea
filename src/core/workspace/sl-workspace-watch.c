/* sl-workspace-watch.c: what other programs change in the database shows
 * in the models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

/* How often the database is asked whether another program (the command
 * line, another window) changed it: one PRAGMA on the writer, which reads
 * nothing from disk unless something changed. */
#define WATCH_INTERVAL_SECONDS 2

typedef struct {
  SlWorkspaceStoreLists  changed;
  GPtrArray             *targets;
  GPtrArray             *projects;
  GPtrArray             *recent_folders;   /* of GFile */
  GPtrArray             *jobs;
} Watched;

static void
watched_free (gpointer data)
{
  Watched *watched = data;

  g_clear_pointer (&watched->targets, g_ptr_array_unref);
  g_clear_pointer (&watched->projects, g_ptr_array_unref);
  g_clear_pointer (&watched->recent_folders, g_ptr_array_unref);
  g_clear_pointer (&watched->jobs, g_ptr_array_unref);
  g_free (watched);
}

/* Reads again only the lists another connection changed; NULL when none
 * did. */
static gpointer
watch_func (SlWorkspaceStore  *store,
            gpointer           data,
            GCancellable      *cancellable,
            GError           **error)
{
  SlWorkspaceStoreLists changed = sl_workspace_store_poll_changes (store, error);
  Watched *watched;

  if (changed == 0)
    return NULL;

  watched = g_new0 (Watched, 1);
  watched->changed = changed;
  if (((changed & SL_WORKSPACE_STORE_LIST_TARGETS) &&
       !(watched->targets = sl_workspace_store_list_targets (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_PROJECTS) &&
       !(watched->projects = sl_workspace_store_list_projects (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_RECENT_FOLDERS) &&
       !(watched->recent_folders = sl_workspace_list_recent_files (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_JOBS) &&
       !(watched->jobs = sl_workspace_store_list_jobs (store, SL_WORKSPACE_JOBS_SHOWN, error))))
    {
      watched_free (watched);
      return NULL;
    }

  return watched;
}

static void
watched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  Watched *watched = sl_workspace_run_finish (self, result, &error);

  self->watch_pending = FALSE;

  /* A failed look is tried again at the next tick; a failing database
   * says so when it is written. */
  if (error != NULL)
    g_debug ("Cannot look for changes of the workspace database: %s", error->message);
  if (watched == NULL)
    return;

  if (watched->targets != NULL)
    sl_workspace_replace_all (self->targets, watched->targets);
  if (watched->projects != NULL)
    sl_workspace_replace_all (self->projects, watched->projects);
  if (watched->recent_folders != NULL)
    sl_workspace_replace_all (self->recent_folders, watched->recent_folders);
  if (watched->jobs != NULL)
    sl_workspace_replace_all (self->jobs, watched->jobs);
  watched_free (watched);
}

static gboolean
watch_tick_cb (gpointer user_data)
{
  SlWorkspace *self = user_data;

  /* One look at a time: a slow disk does not pile them up. */
  if (!self->watch_pending)
    {
      self->watch_pending = TRUE;
      sl_workspace_run_async (self, watch_func, NULL, NULL, watched_free, NULL, watched_cb, NULL);
    }

  return G_SOURCE_CONTINUE;
}

/* Targets, projects, recent folders and jobs that another program adds,
 * changes or removes show in the models: the writer looks every few
 * seconds whether the database changed. */
void
sl_workspace_start_watching (SlWorkspace *self)
{
  if (self->watch_source != NULL)
    return;

  self->watch_source = g_timeout_source_new_seconds (WATCH_INTERVAL_SECONDS);
  g_source_set_callback (self->watch_source, watch_tick_cb, self, NULL);
  g_source_set_static_name (self->watch_source, "[sightline] workspace watch");
  g_source_attach (self->watch_source, self->context);
}

void
sl_workspace_stop_watching (SlWorkspace *self)
{
  if (self->watch_source != NULL)
    {
      g_source_destroy (self->watch_source);
      g_clear_pointer (&self->watch_source, g_source_unref);
    }
}
