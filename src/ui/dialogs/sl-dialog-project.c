/* sl-dialog-project.c
 *
 * Run…, Profile and Convert start from the project in use: the one that
 * holds the folder being looked at, else the one they were last used
 * with, else the workspace's first. A folder pulled from a target into
 * the cache is a copy of a job's output, never where a project is: it is
 * passed over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>

#include "sl-cache.h"
#include "sl-dialog-project.h"

static gboolean
is_inside (const char *path,
           const char *folder)
{
  g_autofree char *canonical_path = g_canonicalize_filename (path, NULL);
  g_autofree char *canonical_folder = g_canonicalize_filename (folder, NULL);
  gsize length = strlen (canonical_folder);

  return g_str_has_prefix (canonical_path, canonical_folder) &&
         (canonical_path[length] == '\0' || canonical_path[length] == G_DIR_SEPARATOR ||
          (length > 0 && canonical_folder[length - 1] == G_DIR_SEPARATOR));
}

/**
 * sl_dialog_project_is_pulled_copy:
 *
 * Returns: %TRUE when @folder is in the cache's copies of targets'
 *   folders (the default cache or the one set in Preferences)
 */
gboolean
sl_dialog_project_is_pulled_copy (const char *folder)
{
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *configured = NULL;
  const char *caches[2] = { NULL, NULL };

  if (folder == NULL || !g_path_is_absolute (folder))
    return FALSE;
  settings = g_settings_new (APP_ID);
  configured = g_settings_get_string (settings, "cache-dir");
  caches[0] = NULL;
  caches[1] = configured;
  for (guint i = 0; i < G_N_ELEMENTS (caches); i++)
    {
      g_autofree char *cache = sl_cache_dup_dir (caches[i]);
      g_autofree char *targets = g_build_filename (cache, "targets", NULL);

      if (is_inside (folder, targets))
        return TRUE;
    }
  return FALSE;
}

/**
 * sl_dialog_project_find:
 * @current_folder: (nullable): the folder being looked at
 *
 * Returns: (transfer full) (nullable): the project in use: the one whose
 *   local folder holds @current_folder, else the one last used in a
 *   dialog, else the first; %NULL without projects
 */
SlProjectRecord *
sl_dialog_project_find (SlWorkspace *workspace,
                        const char  *current_folder)
{
  GListModel *projects;
  guint n;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *last = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  projects = sl_workspace_get_projects (workspace);
  n = g_list_model_get_n_items (projects);
  if (n == 0)
    return NULL;

  if (current_folder != NULL && g_path_is_absolute (current_folder) && !sl_dialog_project_is_pulled_copy (current_folder))
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(SlProjectRecord) project = g_list_model_get_item (projects, i);
        const char *local = sl_project_record_get_local_folder (project);

        if (local != NULL && g_path_is_absolute (local) && is_inside (current_folder, local))
          return g_steal_pointer (&project);
      }

  settings = g_settings_new (APP_ID);
  last = g_settings_get_string (settings, "dialog-project");
  for (guint i = 0; last[0] != '\0' && i < n; i++)
    {
      g_autoptr(SlProjectRecord) project = g_list_model_get_item (projects, i);

      if (g_strcmp0 (sl_project_record_get_local_folder (project), last) == 0)
        return g_steal_pointer (&project);
    }
  return g_list_model_get_item (projects, 0);
}

/**
 * sl_dialog_project_dup_folder:
 * @project: (nullable): the project in use
 * @current_folder: (nullable): the folder being looked at
 *
 * Returns: (transfer full): the folder a dialog starts in: the project's,
 *   else @current_folder unless it is a pulled copy, else home
 */
char *
sl_dialog_project_dup_folder (SlProjectRecord *project,
                              const char      *current_folder)
{
  if (project != NULL)
    return g_strdup (sl_project_record_get_local_folder (project));
  if (current_folder != NULL && !sl_dialog_project_is_pulled_copy (current_folder))
    return g_strdup (current_folder);
  return g_strdup (g_get_home_dir ());
}

/**
 * sl_dialog_project_note_used:
 *
 * Remembers @project as the one the dialogs were last used with.
 */
void
sl_dialog_project_note_used (SlProjectRecord *project)
{
  g_autoptr(GSettings) settings = NULL;

  g_return_if_fail (SL_IS_PROJECT_RECORD (project));
  settings = g_settings_new (APP_ID);
  g_settings_set_string (settings, "dialog-project", sl_project_record_get_local_folder (project));
}
