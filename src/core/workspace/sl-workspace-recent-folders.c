/* sl-workspace-recent-folders.c: the folders opened lately
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-recent-folder-record.h"
#include "sl-workspace-private.h"

/* The recent folders, as GFiles, on the writer. */
GPtrArray *
sl_workspace_list_recent_files (SlWorkspaceStore  *store,
                                GError           **error)
{
  g_autoptr(GPtrArray) records = sl_workspace_store_list_recent_folders (store, error);
  GPtrArray *files;

  if (records == NULL)
    return NULL;

  files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (files, g_file_new_for_path (sl_recent_folder_record_get_path (g_ptr_array_index (records, i))));

  return files;
}

static gpointer
note_recent_func (SlWorkspaceStore  *store,
                  gpointer           data,
                  GCancellable      *cancellable,
                  GError           **error)
{
  if (!sl_workspace_store_note_recent_folder (store, data, error))
    return NULL;

  return sl_workspace_list_recent_files (store, error);
}

static void
recent_noted_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = sl_workspace_run_finish (self, result, &error);

  if (files != NULL)
    sl_workspace_replace_all (self->recent_folders, files);
  else if (error != NULL)
    sl_workspace_warn_unless_cancelled (self, _("The folder could not be remembered as a recent folder"), error);
}

/* Puts @path first among the recent folders, once the writer gets to it. */
void
sl_workspace_note_recent_folder (SlWorkspace *self,
                                 const char  *path)
{
  sl_workspace_run_async (self, note_recent_func, g_strdup (path), g_free,
                          (GDestroyNotify)g_ptr_array_unref, NULL, recent_noted_cb, NULL);
}

GListModel *
sl_workspace_get_recent_folders (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->recent_folders);
}
