/* sl-cli-run-config.c: job run --config NAME finds a run configuration
 *
 * By name among the workspace's projects; with --project DIR, only that
 * project's, so two projects may each have a "train".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-project-record.h"

static gboolean
same_folder (const char *a,
             const char *b)
{
  g_autofree char *canonical_a = NULL;
  g_autofree char *canonical_b = NULL;

  if (a == NULL || b == NULL)
    return FALSE;
  canonical_a = g_canonicalize_filename (a, NULL);
  canonical_b = g_canonicalize_filename (b, NULL);
  return g_str_equal (canonical_a, canonical_b);
}

/**
 * sl_cli_find_run_config:
 * @project_dir: (nullable): the project folder given, or %NULL for any
 * @project: (out): the configuration's project
 *
 * Returns: (transfer full) (nullable): the run configuration called
 *   @name, or %NULL with @error set when there is none or more than one
 */
SlRunConfigRecord *
sl_cli_find_run_config (SlWorkspaceStore  *store,
                        const char        *name,
                        const char        *project_dir,
                        SlProjectRecord  **project,
                        GError           **error)
{
  g_autoptr(GPtrArray) projects = sl_workspace_store_list_projects (store, error);
  SlRunConfigRecord *found = NULL;
  SlProjectRecord *found_project = NULL;
  guint matches = 0;

  *project = NULL;
  if (projects == NULL)
    return NULL;

  for (guint p = 0; p < projects->len; p++)
    {
      SlProjectRecord *candidate = g_ptr_array_index (projects, p);

      if (project_dir != NULL && !same_folder (project_dir, sl_project_record_get_local_folder (candidate)))
        continue;
      for (guint c = 0; c < sl_project_record_get_n_run_configs (candidate); c++)
        {
          SlRunConfigRecord *config = sl_project_record_get_run_config (candidate, c);

          if (!g_str_equal (sl_run_config_record_get_name (config), name))
            continue;
          matches++;
          found = config;
          found_project = candidate;
        }
    }

  if (matches == 0)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("There is no run configuration “%s”; “sightline-cli workspace” lists them"), name);
      return NULL;
    }
  if (matches > 1)
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                   _("Several projects have a run configuration “%s”: give --project DIR to choose one"), name);
      return NULL;
    }
  *project = g_object_ref (found_project);
  return g_object_ref (found);
}

/**
 * sl_cli_dup_run_config_argv:
 *
 * Returns: (transfer full): the command of @config as a job runs it:
 *   its environment through env, then the command and its arguments
 */
char **
sl_cli_dup_run_config_argv (SlRunConfigRecord *config)
{
  const char * const *env = sl_run_config_record_get_environment (config);
  const char * const *args = sl_run_config_record_get_arguments (config);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **argv;

  if (env != NULL && env[0] != NULL)
    {
      g_strv_builder_add (builder, "env");
      g_strv_builder_addv (builder, (const char **)env);
    }
  g_strv_builder_add (builder, sl_run_config_record_get_command (config));
  if (args != NULL)
    g_strv_builder_addv (builder, (const char **)args);
  argv = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return argv;
}
