/* sl-cli-workspace.c: sightline-cli workspace
 *
 * Shows what the workspace database holds: targets, projects, recent
 * folders and the latest jobs, as text tables or as JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-workspace-store.h"

#define N_JOBS_SHOWN 20

typedef struct {
  SlWorkspaceStore *store;
  GPtrArray        *targets;
  GPtrArray        *projects;
  GPtrArray        *recent_folders;
  GPtrArray        *jobs;
  GPtrArray        *runs;
} Workspace;

static void
workspace_clear (Workspace *workspace)
{
  g_clear_pointer (&workspace->targets, g_ptr_array_unref);
  g_clear_pointer (&workspace->projects, g_ptr_array_unref);
  g_clear_pointer (&workspace->recent_folders, g_ptr_array_unref);
  g_clear_pointer (&workspace->jobs, g_ptr_array_unref);
  g_clear_pointer (&workspace->runs, g_ptr_array_unref);
  g_clear_object (&workspace->store);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Workspace, workspace_clear)

static gboolean
workspace_load (Workspace   *workspace,
                const char  *path,
                GError     **error)
{
  if (!(workspace->store = sl_cli_open_store (path, error)) ||
      !(workspace->targets = sl_workspace_store_list_targets (workspace->store, error)) ||
      !(workspace->projects = sl_workspace_store_list_projects (workspace->store, error)) ||
      !(workspace->recent_folders = sl_workspace_store_list_recent_folders (workspace->store, error)) ||
      !(workspace->jobs = sl_workspace_store_list_jobs (workspace->store, N_JOBS_SHOWN, error)))
    return FALSE;

  /* The run index, for the folders that were opened. */
  workspace->runs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < workspace->recent_folders->len; i++)
    {
      SlRecentFolderRecord *folder = g_ptr_array_index (workspace->recent_folders, i);
      g_autoptr(GPtrArray) runs = sl_workspace_store_list_runs (workspace->store,
                                                                sl_recent_folder_record_get_path (folder), error);

      if (runs == NULL)
        return FALSE;
      for (guint j = 0; j < runs->len; j++)
        g_ptr_array_add (workspace->runs, g_object_ref (g_ptr_array_index (runs, j)));
    }

  return TRUE;
}

static const char *
lookup_target_name (Workspace *workspace,
                    gint64     target_id)
{
  for (guint i = 0; i < workspace->targets->len; i++)
    {
      SlTargetRecord *target = g_ptr_array_index (workspace->targets, i);

      if (sl_target_record_get_id (target) == target_id)
        return sl_target_record_get_name (target);
    }

  return NULL;
}

/* Times are microseconds since the Unix epoch; 0 means "not yet". */
static GDateTime *
date_time_from_usec (gint64 usec)
{
  g_autoptr(GDateTime) seconds = NULL;

  if (usec <= 0)
    return NULL;

  seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  if (seconds == NULL)
    return NULL;

  return g_date_time_add (seconds, usec % G_USEC_PER_SEC);
}

static char *
format_time_iso8601 (gint64 usec)
{
  g_autoptr(GDateTime) time = date_time_from_usec (usec);

  return time != NULL ? g_date_time_format_iso8601 (time) : NULL;
}

static char *
format_time_local (gint64 usec)
{
  g_autoptr(GDateTime) time = date_time_from_usec (usec);
  g_autoptr(GDateTime) local = NULL;

  if (time == NULL)
    return g_strdup ("—");

  local = g_date_time_to_local (time);
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
}

/* JSON */

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* Ids of 0 mean "none". */
static void
add_id_member (JsonBuilder *builder,
               const char  *name,
               gint64       id)
{
  json_builder_set_member_name (builder, name);
  if (id > 0)
    json_builder_add_int_value (builder, id);
  else
    json_builder_add_null_value (builder);
}

static void
add_time_member (JsonBuilder *builder,
                 const char  *name,
                 gint64       usec)
{
  g_autofree char *text = format_time_iso8601 (usec);

  add_string_member (builder, name, text);
}

static void
add_strv_member (JsonBuilder        *builder,
                 const char         *name,
                 const char * const *strv)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (builder, strv[i]);
  json_builder_end_array (builder);
}

static void
build_target_json (JsonBuilder    *builder,
                   SlTargetRecord *target)
{
  json_builder_begin_object (builder);
  add_int_member (builder, "id", sl_target_record_get_id (target));
  add_string_member (builder, "name", sl_target_record_get_name (target));
  add_string_member (builder, "kind", sl_target_kind_to_id (sl_target_record_get_kind (target)));
  add_string_member (builder, "host", sl_target_record_get_host (target));
  add_int_member (builder, "port", sl_target_record_get_port (target));
  add_string_member (builder, "user", sl_target_record_get_user (target));
  add_string_member (builder, "auth", sl_target_auth_to_id (sl_target_record_get_auth (target)));
  add_string_member (builder, "identity_file", sl_target_record_get_identity_file (target));
  add_string_member (builder, "known_hosts_file", sl_target_record_get_known_hosts_file (target));
  add_string_member (builder, "remote_base_folder", sl_target_record_get_remote_base_folder (target));
  add_string_member (builder, "setup_command", sl_target_record_get_setup_command (target));
  json_builder_end_object (builder);
}

/* The options as the object they are; text that does not parse is shown
 * as it is rather than dropped. */
static void
add_options_member (JsonBuilder *builder,
                    const char  *options)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  json_builder_set_member_name (builder, "options");
  if (json_parser_load_from_data (parser, options, -1, NULL) &&
      (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root))
    json_builder_add_value (builder, json_node_copy (root));
  else
    json_builder_add_string_value (builder, options);
}

static void
build_run_config_json (JsonBuilder       *builder,
                       SlRunConfigRecord *config)
{
  json_builder_begin_object (builder);
  add_int_member (builder, "id", sl_run_config_record_get_id (config));
  add_string_member (builder, "name", sl_run_config_record_get_name (config));
  add_string_member (builder, "kind", sl_run_config_kind_to_id (sl_run_config_record_get_kind (config)));
  add_string_member (builder, "command", sl_run_config_record_get_command (config));
  add_strv_member (builder, "arguments", sl_run_config_record_get_arguments (config));
  add_strv_member (builder, "environment", sl_run_config_record_get_environment (config));
  add_string_member (builder, "working_folder", sl_run_config_record_get_working_folder (config));
  add_strv_member (builder, "pull_folders", sl_run_config_record_get_pull_folders (config));
  add_options_member (builder, sl_run_config_record_get_options (config));
  json_builder_end_object (builder);
}

static void
build_project_json (JsonBuilder     *builder,
                    Workspace       *workspace,
                    SlProjectRecord *project)
{
  gint64 target_id = sl_project_record_get_target_id (project);

  json_builder_begin_object (builder);
  add_int_member (builder, "id", sl_project_record_get_id (project));
  add_string_member (builder, "name", sl_project_record_get_name (project));
  add_string_member (builder, "local_folder", sl_project_record_get_local_folder (project));
  add_id_member (builder, "target_id", target_id);
  add_string_member (builder, "target", lookup_target_name (workspace, target_id));
  add_string_member (builder, "remote_folder", sl_project_record_get_remote_folder (project));
  add_strv_member (builder, "upload_excludes", sl_project_record_get_upload_excludes (project));

  json_builder_set_member_name (builder, "run_configurations");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_project_record_get_n_run_configs (project); i++)
    build_run_config_json (builder, sl_project_record_get_run_config (project, i));
  json_builder_end_array (builder);

  json_builder_end_object (builder);
}

static void
build_recent_folder_json (JsonBuilder          *builder,
                          SlRecentFolderRecord *folder)
{
  json_builder_begin_object (builder);
  add_string_member (builder, "path", sl_recent_folder_record_get_path (folder));
  add_time_member (builder, "opened_at", sl_recent_folder_record_get_opened_at (folder));
  json_builder_end_object (builder);
}

static void
build_job_json (JsonBuilder *builder,
                SlJobRecord *job)
{
  json_builder_begin_object (builder);
  add_int_member (builder, "id", sl_job_record_get_id (job));
  add_string_member (builder, "command", sl_job_record_get_command (job));
  add_id_member (builder, "target_id", sl_job_record_get_target_id (job));
  add_string_member (builder, "target", sl_job_record_get_target_name (job));
  add_id_member (builder, "project_id", sl_job_record_get_project_id (job));
  add_string_member (builder, "project", sl_job_record_get_project_name (job));
  add_time_member (builder, "started_at", sl_job_record_get_started_at (job));
  add_time_member (builder, "finished_at", sl_job_record_get_finished_at (job));
  json_builder_set_member_name (builder, "exit_code");
  if (sl_job_record_has_exit_code (job))
    json_builder_add_int_value (builder, sl_job_record_get_exit_code (job));
  else
    json_builder_add_null_value (builder);
  add_string_member (builder, "state", sl_job_state_to_id (sl_job_record_get_state (job)));
  add_string_member (builder, "log_path", sl_job_record_get_log_path (job));
  add_string_member (builder, "remote_folder", sl_job_record_get_remote_folder (job));
  json_builder_end_object (builder);
}

static void
build_run_json (JsonBuilder *builder,
                SlRunRecord *run)
{
  json_builder_begin_object (builder);
  add_string_member (builder, "root_folder", sl_run_record_get_root_folder (run));
  add_string_member (builder, "kind", sl_run_record_get_kind_id (run));
  add_string_member (builder, "name", sl_run_record_get_relative_name (run));
  add_string_member (builder, "path", sl_run_record_get_path (run));
  add_int_member (builder, "files", sl_run_record_get_n_files (run));
  add_time_member (builder, "last_seen", sl_run_record_get_last_seen (run));
  json_builder_end_object (builder);
}

static void
print_json (Workspace *workspace)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  add_string_member (builder, "path", sl_workspace_store_get_path (workspace->store));
  add_int_member (builder, "schema_version", sl_workspace_store_get_schema_version (workspace->store));
  add_string_member (builder, "recovery_message", sl_workspace_store_get_recovery_message (workspace->store));
  json_builder_set_member_name (builder, "recovery");
  if (sl_workspace_store_get_recovery (workspace->store) != NULL)
    sl_workspace_recovery_build_json (sl_workspace_store_get_recovery (workspace->store), builder);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "targets");
  json_builder_begin_array (builder);
  for (guint i = 0; i < workspace->targets->len; i++)
    build_target_json (builder, g_ptr_array_index (workspace->targets, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "projects");
  json_builder_begin_array (builder);
  for (guint i = 0; i < workspace->projects->len; i++)
    build_project_json (builder, workspace, g_ptr_array_index (workspace->projects, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "recent_folders");
  json_builder_begin_array (builder);
  for (guint i = 0; i < workspace->recent_folders->len; i++)
    build_recent_folder_json (builder, g_ptr_array_index (workspace->recent_folders, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "jobs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < workspace->jobs->len; i++)
    build_job_json (builder, g_ptr_array_index (workspace->jobs, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "runs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < workspace->runs->len; i++)
    build_run_json (builder, g_ptr_array_index (workspace->runs, i));
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

/* Text tables */

/* A table is a GPtrArray of rows; each row is a GStrv with one string per
 * column, the first row being the headings. */
static GPtrArray *
table_new (const char *first_heading,
           ...)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  g_autoptr(GStrvBuilder) headings = g_strv_builder_new ();
  const char *heading = first_heading;
  va_list args;

  va_start (args, first_heading);
  for (; heading != NULL; heading = va_arg (args, const char *))
    g_strv_builder_add (headings, heading);
  va_end (args);

  g_ptr_array_add (table, g_strv_builder_end (headings));
  return table;
}

static void
table_add_row (GPtrArray *table,
               ...)
{
  guint n_columns = g_strv_length (g_ptr_array_index (table, 0));
  char **row = g_new0 (char *, n_columns + 1);
  va_list args;

  va_start (args, table);
  for (guint i = 0; i < n_columns; i++)
    {
      const char *cell = va_arg (args, const char *);

      row[i] = g_strdup (cell != NULL && cell[0] != '\0' ? cell : "—");
    }
  va_end (args);

  g_ptr_array_add (table, row);
}

static void
print_padded (const char *text,
              guint       width)
{
  glong length = g_utf8_strlen (text, -1);

  g_print ("%s", text);
  for (glong i = length; i < (glong)width; i++)
    g_print (" ");
}

static void
table_print (GPtrArray  *table,
             const char *title)
{
  char **headings = g_ptr_array_index (table, 0);
  guint n_columns = g_strv_length (headings);
  g_autofree guint *widths = g_new0 (guint, n_columns);

  g_print ("%s\n", title);

  if (table->len == 1)
    {
      g_print ("  %s\n\n", _("(none)"));
      return;
    }

  for (guint row = 0; row < table->len; row++)
    {
      char **cells = g_ptr_array_index (table, row);

      for (guint column = 0; column < n_columns; column++)
        widths[column] = MAX (widths[column], (guint)g_utf8_strlen (cells[column], -1));
    }

  for (guint row = 0; row < table->len; row++)
    {
      char **cells = g_ptr_array_index (table, row);

      g_print (" ");
      for (guint column = 0; column < n_columns; column++)
        {
          g_print (" ");
          if (column + 1 < n_columns)
            print_padded (cells[column], widths[column] + 1);
          else
            g_print ("%s", cells[column]);
        }
      g_print ("\n");
    }

  g_print ("\n");
}

static char *
dup_target_address (SlTargetRecord *target)
{
  const char *user = sl_target_record_get_user (target);

  if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
    return g_strdup (_("this computer"));

  return g_strdup_printf ("%s%s%s:%u",
                          user != NULL ? user : "",
                          user != NULL ? "@" : "",
                          sl_target_record_get_host (target),
                          sl_target_record_get_port (target));
}

static void
print_targets (Workspace *workspace)
{
  g_autoptr(GPtrArray) table = table_new (_("ID"), _("Name"), _("Kind"), _("Address"),
                                          _("Authentication"), _("Remote folder"), NULL);

  for (guint i = 0; i < workspace->targets->len; i++)
    {
      SlTargetRecord *target = g_ptr_array_index (workspace->targets, i);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, sl_target_record_get_id (target));
      g_autofree char *address = dup_target_address (target);
      gboolean is_ssh = sl_target_record_get_kind (target) == SL_TARGET_KIND_SSH;

      table_add_row (table, id, sl_target_record_get_name (target),
                     sl_target_kind_to_id (sl_target_record_get_kind (target)), address,
                     is_ssh ? sl_target_auth_to_id (sl_target_record_get_auth (target)) : NULL,
                     sl_target_record_get_remote_base_folder (target));
    }

  table_print (table, _("Targets"));
}

static char *
dup_run_config_names (SlProjectRecord *project)
{
  guint n_configs = sl_project_record_get_n_run_configs (project);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < n_configs; i++)
    {
      SlRunConfigRecord *config = sl_project_record_get_run_config (project, i);

      if (i > 0)
        g_string_append (names, ", ");
      g_string_append_printf (names, "%s (%s)", sl_run_config_record_get_name (config),
                              sl_run_config_kind_to_id (sl_run_config_record_get_kind (config)));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static void
print_projects (Workspace *workspace)
{
  g_autoptr(GPtrArray) table = table_new (_("ID"), _("Name"), _("Target"), _("Local folder"),
                                          _("Remote folder"), _("Run configurations"), NULL);

  for (guint i = 0; i < workspace->projects->len; i++)
    {
      SlProjectRecord *project = g_ptr_array_index (workspace->projects, i);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, sl_project_record_get_id (project));
      g_autofree char *configs = dup_run_config_names (project);

      table_add_row (table, id, sl_project_record_get_name (project),
                     lookup_target_name (workspace, sl_project_record_get_target_id (project)),
                     sl_project_record_get_local_folder (project),
                     sl_project_record_get_remote_folder (project), configs);
    }

  table_print (table, _("Projects"));
}

static void
print_recent_folders (Workspace *workspace)
{
  g_autoptr(GPtrArray) table = table_new (_("Opened"), _("Folder"), NULL);

  for (guint i = 0; i < workspace->recent_folders->len; i++)
    {
      SlRecentFolderRecord *folder = g_ptr_array_index (workspace->recent_folders, i);
      g_autofree char *opened = format_time_local (sl_recent_folder_record_get_opened_at (folder));

      table_add_row (table, opened, sl_recent_folder_record_get_path (folder));
    }

  table_print (table, _("Recent folders"));
}

static void
print_runs (Workspace *workspace)
{
  g_autoptr(GPtrArray) table = table_new (_("Folder"), _("Kind"), _("Name"), _("Files"), NULL);

  for (guint i = 0; i < workspace->runs->len; i++)
    {
      SlRunRecord *run = g_ptr_array_index (workspace->runs, i);
      g_autofree char *files = g_strdup_printf ("%u", sl_run_record_get_n_files (run));

      table_add_row (table, sl_run_record_get_root_folder (run), sl_run_record_get_kind_id (run),
                     sl_run_record_get_relative_name (run), files);
    }

  table_print (table, _("Run index"));
}

static void
print_jobs (Workspace *workspace)
{
  g_autoptr(GPtrArray) table = table_new (_("ID"), _("Started"), _("Finished"), _("State"), _("Exit code"),
                                          _("Target"), _("Project"), _("Command"), NULL);
  g_autofree char *title = NULL;

  for (guint i = 0; i < workspace->jobs->len; i++)
    {
      SlJobRecord *job = g_ptr_array_index (workspace->jobs, i);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, sl_job_record_get_id (job));
      g_autofree char *started = format_time_local (sl_job_record_get_started_at (job));
      g_autofree char *finished = format_time_local (sl_job_record_get_finished_at (job));
      g_autofree char *exit_code = NULL;

      if (sl_job_record_has_exit_code (job))
        exit_code = g_strdup_printf ("%d", sl_job_record_get_exit_code (job));

      table_add_row (table, id, started, finished,
                     sl_job_state_to_id (sl_job_record_get_state (job)), exit_code,
                     sl_job_record_get_target_name (job), sl_job_record_get_project_name (job),
                     sl_job_record_get_command (job));
    }

  title = g_strdup_printf (_("Jobs (the latest %u)"), N_JOBS_SHOWN);
  table_print (table, title);
}

static void
print_text (Workspace *workspace)
{
  g_print (_("Workspace database: %s\n"), sl_workspace_store_get_path (workspace->store));
  g_print (_("Schema version: %u\n"), sl_workspace_store_get_schema_version (workspace->store));
  g_print ("\n");

  print_targets (workspace);
  print_projects (workspace);
  print_recent_folders (workspace);
  print_runs (workspace);
  print_jobs (workspace);
}

static int
dismiss_recovery (const char *db_path)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlWorkspaceRecovery) recovery = NULL;

  if (!(store = sl_workspace_store_new_for_path (db_path, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (sl_workspace_store_get_recovery (store) == NULL)
    {
      g_print (_("There is no report of a recovery of “%s” to dismiss.\n"), db_path);
      return 0;
    }

  recovery = g_object_ref (sl_workspace_store_get_recovery (store));
  if (!sl_workspace_store_dismiss_recovery (store, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  g_print (_("Dismissed the report of the recovery of “%s”.\n"), db_path);
  for (guint i = 0; sl_workspace_recovery_get_moved_aside (recovery)[i] != NULL; i++)
    g_print (_("The original file “%s” stays: delete it when you no longer need it.\n"),
             sl_workspace_recovery_get_moved_aside (recovery)[i]);
  return 0;
}

int
sl_cli_workspace (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Workspace) workspace = { 0 };
  g_autofree char *db_path = NULL;
  gboolean as_json = FALSE;
  gboolean dismiss = FALSE;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path,
      N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_("Print JSON instead of text tables"), NULL },
    { "dismiss-recovery", 0, 0, G_OPTION_ARG_NONE, &dismiss,
      N_("Forget the report of the last recovery of the database, once read; the files it kept aside stay"), NULL },
    { NULL }
  };

  g_set_prgname ("sightline-cli workspace");
  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Show the workspace database: targets, projects, recent folders, the run index and the latest jobs. The database is created when it does not exist."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }

  if (argc > 1)
    {
      sl_cli_print_error (_("unexpected argument “%s”; run “sightline-cli workspace --help” for the options"), argv[1]);
      return 2;
    }

  if (db_path == NULL)
    db_path = sl_workspace_store_dup_default_path ();

  if (dismiss)
    return dismiss_recovery (db_path);

  if (!workspace_load (&workspace, db_path, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (as_json)
    print_json (&workspace);
  else
    print_text (&workspace);

  return 0;
}
