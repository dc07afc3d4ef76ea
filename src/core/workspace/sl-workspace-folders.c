/* sl-workspace-folders.c: the opened folders: opening a path, scanning,
 * finding and remembering them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

static gpointer
save_open_folders_func (SlWorkspaceStore  *store,
                        gpointer           data,
                        GCancellable      *cancellable,
                        GError           **error)
{
  sl_workspace_store_set_open_folders (store, (const char * const *)data, error);
  return NULL;
}

static void
save_open_folders (SlWorkspace *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      g_ptr_array_add (paths, g_strdup (sl_folder_get_path (folder)));
    }
  g_ptr_array_add (paths, NULL);

  sl_workspace_run_async (self, save_open_folders_func, g_ptr_array_free (paths, FALSE), (GDestroyNotify)g_strfreev,
                          NULL, NULL, sl_workspace_write_done_cb,
                          (gpointer)_("The folders of the Workspace could not be remembered"));
}

static void
folders_changed_cb (SlWorkspace *self,
                    guint        position,
                    guint        removed,
                    guint        added,
                    GListModel  *folders)
{
  save_open_folders (self);
}

/* From now on the Workspace's folders are remembered as they change;
 * what is open now is remembered at once. */
void
sl_workspace_remember_folders (SlWorkspace *self)
{
  g_signal_connect_object (self->folders, "items-changed", G_CALLBACK (folders_changed_cb), self,
                           G_CONNECT_SWAPPED);
  save_open_folders (self);
}

/* Folders and scans */

GListModel *
sl_workspace_get_folders (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->folders);
}

/* How many leading folders two paths share. */
static guint
common_folders (const char *a,
                const char *b)
{
  guint shared = 0, i = 0;

  for (; a[i] != '\0' && a[i] == b[i]; i++)
    if (a[i] == G_DIR_SEPARATOR)
      shared++;
  /* A path that ends where the other continues with a separator is a
   * whole folder in common too. */
  if ((a[i] == '\0' && (b[i] == G_DIR_SEPARATOR || b[i] == '\0')) ||
      (b[i] == '\0' && a[i] == G_DIR_SEPARATOR))
    shared++;
  return shared;
}

static gboolean
kind_listed (SlFindingKind        kind,
             const SlFindingKind *kinds)
{
  for (guint i = 0; kinds[i] != SL_FINDING_N_KINDS; i++)
    if (kinds[i] == kind)
      return TRUE;
  return FALSE;
}

/**
 * sl_workspace_find_nearest_finding:
 *
 * Returns: (transfer none) (nullable): the nearest finding
 */
SlFinding *
sl_workspace_find_nearest_finding (SlWorkspace         *self,
                                   const char          *path,
                                   const SlFindingKind *kinds)
{
  g_autofree char *parent = NULL;
  g_autofree char *grandparent = NULL;
  SlFinding *best = NULL;
  guint best_shared, n_folders;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (kinds != NULL, NULL);

  /* At least the folder holding @path's folder: siblings in one job. */
  parent = g_path_get_dirname (path);
  grandparent = g_path_get_dirname (parent);
  best_shared = MAX (common_folders (path, grandparent), 1) - 1;
  n_folders = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint f = 0; f < n_folders; f++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), f);
      GListModel *findings = sl_folder_get_findings (folder);
      guint n = g_list_model_get_n_items (findings);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
          guint shared;

          if (!kind_listed (sl_finding_get_kind (finding), kinds))
            continue;
          shared = common_folders (path, sl_finding_get_path (finding));
          if (shared > best_shared || (best != NULL && shared == best_shared &&
                                       strlen (sl_finding_get_path (finding)) < strlen (sl_finding_get_path (best))))
            {
              best = finding;
              best_shared = shared;
            }
        }
    }
  return best;
}

/**
 * sl_workspace_lookup_folder:
 *
 * Returns: (transfer none) (nullable): the opened folder at @path
 */
SlFolder *
sl_workspace_lookup_folder (SlWorkspace *self,
                            const char  *path)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      if (g_strcmp0 (sl_folder_get_path (folder), path) == 0)
        return folder;
    }

  return NULL;
}

guint
sl_workspace_get_n_scanning (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), 0);
  return self->n_scanning;
}

static void
scan_done (SlWorkspace *self)
{
  g_assert (self->n_scanning > 0);

  self->n_scanning--;
  sl_workspace_notify_n_scanning (self);
}

/* A scan counts until what it found is indexed and annotated. */
void
sl_workspace_scan_ended (SlWorkspace *self,
                         SlFolder    *folder,
                         GError      *error)
{
  scan_done (self);
  sl_workspace_emit_folder_scanned (self, folder, error);
}

static void
scan_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlWorkspace) self = user_data;
  SlFolder *folder = SL_FOLDER (object);
  g_autoptr(GError) error = NULL;

  if (!sl_folder_scan_finish (folder, result, &error))
    {
      sl_workspace_scan_ended (self, folder, error);
      return;
    }

  if (self->has_store)
    sl_workspace_index_folder (self, folder);
  else
    sl_workspace_scan_ended (self, folder, NULL);
}

void
sl_workspace_start_scan (SlWorkspace *self,
                         SlFolder    *folder)
{
  self->n_scanning++;
  sl_workspace_notify_n_scanning (self);
  sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
}

/**
 * sl_workspace_rescan:
 *
 * Scans @folder again unless a scan of it is running.
 */
void
sl_workspace_rescan (SlWorkspace *self,
                     SlFolder    *folder)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_FOLDER (folder));

  if (sl_folder_get_state (folder) != SL_FOLDER_SCANNING)
    sl_workspace_start_scan (self, folder);
}

static gboolean
path_contains (const char *parent,
               const char *child)
{
  gsize len = strlen (parent);

  return g_str_equal (parent, child) ||
         (g_str_has_prefix (child, parent) && G_IS_DIR_SEPARATOR (child[len]));
}

/**
 * sl_workspace_rescan_around:
 * @path: where a job ran
 *
 * Scans again the opened folders that contain @path or lie inside it, so
 * a job's output appears when it ends.
 */
void
sl_workspace_rescan_around (SlWorkspace *self,
                            const char  *path)
{
  guint n;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (path != NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);
      const char *folder_path = sl_folder_get_path (folder);

      if (path_contains (folder_path, path) || path_contains (path, folder_path))
        sl_workspace_rescan (self, folder);
    }
}

/**
 * sl_workspace_open_path:
 * @path: a folder or a file
 *
 * Adds @path to the Workspace (or finds it there), scans it in a worker,
 * remembers it among the recent folders and, once scanned, records what
 * it holds in the run index. #SlWorkspace::folder-scanned reports the end.
 *
 * Returns: (transfer none): the folder
 */
SlFolder *
sl_workspace_open_path (SlWorkspace *self,
                        const char  *path)
{
  g_autoptr(SlFolder) created = NULL;
  SlFolder *folder;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  created = sl_folder_new (path);
  folder = sl_workspace_lookup_folder (self, sl_folder_get_path (created));
  if (folder == NULL)
    {
      /* A new folder starts out "scanning": start that scan. */
      folder = created;
      g_list_store_append (self->folders, folder);
      sl_workspace_start_scan (self, folder);
    }
  else
    sl_workspace_rescan (self, folder);

  sl_workspace_note_recent_folder (self, sl_folder_get_path (folder));
  return folder;
}

/**
 * sl_workspace_remove_folder:
 *
 * Takes @path out of the Workspace; the files are not touched.
 *
 * Returns: whether it was there
 */
gboolean
sl_workspace_remove_folder (SlWorkspace *self,
                            const char  *path)
{
  SlFolder *folder;
  guint position;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folder = sl_workspace_lookup_folder (self, path);
  if (folder == NULL || !g_list_store_find (self->folders, folder, &position))
    return FALSE;

  g_list_store_remove (self->folders, position);
  return TRUE;
}

void
sl_workspace_cancel_scans (SlWorkspace *self)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  self->scan_cancellable = g_cancellable_new ();
}
