/* sl-cli-job.c: sightline-cli job
 *
 * run: uploads a project to a target, starts a command there as a
 * detached job, streams its log, pulls result folders while it runs and
 * exits with the job's exit code. list, logs and stop work on the job
 * history of the workspace database.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cache.h"
#include "sl-cli.h"
#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-direct-job-backend.h"
#include "sl-folder-puller.h"
#include "sl-mindx-workflow.h"
#include "sl-problem.h"
#include "sl-project-upload.h"
#include "sl-remote-run.h"
#include "sl-session.h"
#include "sl-slurm-config.h"
#include "sl-slurm-job-backend.h"
#include "sl-slurm-state.h"


static void
print_job_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: sightline-cli job run --target NAME --project DIR [OPTIONS…] -- COMMAND [ARGS…]"));
  fprintf (stream, "%s\n", _("       sightline-cli job run --backend slurm --target NAME --project DIR [--nodes N] [--ntasks N] [--partition P] [--time LIMIT] … -- COMMAND [ARGS…]"));
  fprintf (stream, "%s\n", _("       sightline-cli job run --kind mindx --sdk-home DIR [--pipeline FILE] --target NAME --project DIR -- ENTRY [ARGS…]"));
  fprintf (stream, "%s\n", _("       sightline-cli job run --config NAME [--project DIR] [OPTIONS…] [-- COMMAND [ARGS…]]"));
  fprintf (stream, "%s\n", _("       sightline-cli job list [--json]"));
  fprintf (stream, "%s\n", _("       sightline-cli job logs ID [--follow]"));
  fprintf (stream, "%s\n", _("       sightline-cli job stop ID"));
  fprintf (stream, "\n%s\n", _("Run “sightline-cli job run --help” and so on for the options."));
}

static gboolean
parse_options (GOptionContext  *context,
               const GOptionEntry *entries,
               int             *argc,
               char          ***argv)
{
  g_autoptr(GError) error = NULL;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static void
write_log (GBytes   *data,
           guint64   offset,
           gpointer  user_data)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  fwrite (bytes, 1, size, stdout);
  fflush (stdout);
}

static void
print_message_cb (SlRemoteRun *run,
                  const char  *text)
{
  g_printerr ("sightline-cli: %s\n", text);
}

static void
print_log_cb (SlRemoteRun *run,
              GBytes      *data)
{
  write_log (data, 0, NULL);
}

static void
print_connection_cb (SlRemoteRun *run,
                     int          state,
                     const char  *detail)
{
  sl_cli_print_connection_state (state, detail, NULL);
}

static void
print_progress_cb (SlRemoteRun              *run,
                   const SlTransferProgress *progress)
{
  sl_cli_print_progress (progress, NULL);
}

static void
print_started_cb (SlRemoteRun *run,
                  gint64       job_id,
                  const char  *remote_dir,
                  const char  *log_path,
                  gboolean    *detach)
{
  if (*detach)
    printf ("%lld\n", (long long)job_id);
}

/* The script once, then the sbatch call that submits it (the whole
 * submit command would hold the script a second time). */
static gboolean
print_slurm_preview (SlRemoteRun  *run,
                     FILE         *stream,
                     GError      **error)
{
  g_autofree char *script = NULL;
  g_autofree char *sbatch = NULL;

  if (!sl_remote_run_dup_slurm_preview (run, &script, &sbatch, error))
    return FALSE;
  fprintf (stream, "# %s\n%s", _("job.sbatch, the batch script submitted:"), script);
  fprintf (stream, "# %s\n%s\n", _("the command that submits it from the job folder:"), sbatch);
  return TRUE;
}

/* The Slurm options of job run, read into @options. */
typedef struct {
  char *backend;
  int   nodes;
  int   ntasks;
  int   ntasks_per_node;
  int   devices_per_node;
  char *gres;
  char *device_env;
  char *partition;
  char *time_limit;
  char *account;
  char *launcher;
  gboolean per_task_logs;
} SlurmArgs;

static void
slurm_args_clear (SlurmArgs *args)
{
  g_free (args->backend);
  g_free (args->gres);
  g_free (args->device_env);
  g_free (args->partition);
  g_free (args->time_limit);
  g_free (args->account);
  g_free (args->launcher);
}

static gboolean
slurm_args_used_without_slurm (const SlurmArgs *args)
{
  return args->nodes || args->ntasks || args->ntasks_per_node || args->devices_per_node || args->gres ||
         args->device_env || args->partition || args->time_limit || args->account || args->launcher ||
         args->per_task_logs;
}

static void
override_count (guint *value,
                int    arg)
{
  if (arg > 0)
    *value = (guint)arg;
}

static void
override_text (char       **value,
               const char  *arg)
{
  if (arg != NULL)
    {
      g_free (*value);
      *value = g_strdup (arg);
    }
}

/* The options of a run configuration (@base), each one given on the
 * command line taking its place. Returns NULL with a message printed
 * when an option is not valid. */
static SlSlurmOptions *
slurm_options_from_args (const SlurmArgs      *args,
                         const SlSlurmOptions *base)
{
  g_autoptr(SlSlurmOptions) options = base != NULL ? sl_slurm_options_copy (base) : sl_slurm_options_new ();
  g_autoptr(GError) error = NULL;

  if (args->nodes < 0 || args->ntasks < 0 || args->ntasks_per_node < 0 || args->devices_per_node < 0)
    {
      sl_cli_print_error (_("--nodes, --ntasks, --ntasks-per-node and --devices-per-node need a positive number"));
      return NULL;
    }
  override_count (&options->nodes, args->nodes);
  override_count (&options->ntasks, args->ntasks);
  override_count (&options->ntasks_per_node, args->ntasks_per_node);
  override_count (&options->devices_per_node, args->devices_per_node);
  override_text (&options->device_gres, args->gres);
  override_text (&options->device_env, args->device_env);
  override_text (&options->partition, args->partition);
  override_text (&options->time_limit, args->time_limit);
  override_text (&options->account, args->account);
  options->per_task_logs = options->per_task_logs || args->per_task_logs;
  if (args->launcher != NULL && !sl_slurm_launcher_from_id (args->launcher, &options->launcher))
    {
      sl_cli_print_error (_("--launcher is srun, torchrun, msrun or none, not “%s”"), args->launcher);
      return NULL;
    }
  if (options->devices_per_node > 0 && options->device_gres == NULL && options->device_env == NULL)
    {
      sl_cli_print_error (_("--devices-per-node needs --gres NAME (such as npu or gpu) or --device-env VARIABLE"));
      return NULL;
    }
  if (!sl_slurm_options_validate (options, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return NULL;
    }
  return g_steal_pointer (&options);
}

static void
mindx_log_cb (SlMindxWorkflow *workflow,
              GBytes          *data)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  /* stdout is the JSON (or the problems); the app's output goes beside it. */
  fwrite (bytes, 1, size, stderr);
}

static void
mindx_message_cb (SlMindxWorkflow *workflow,
                  const char      *text)
{
  g_printerr ("sightline-cli: %s\n", text);
}

static int
print_mindx_result (gboolean         json,
                    SlMindxWorkflow *workflow)
{
  GPtrArray *problems = sl_mindx_workflow_get_problems (workflow);
  int exit_code = sl_mindx_workflow_get_exit_code (workflow);
  gboolean ok = sl_mindx_workflow_succeeded (workflow);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      const char * const *pulled = sl_mindx_workflow_get_pulled (workflow);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ok");
      json_builder_add_boolean_value (builder, ok);
      json_builder_set_member_name (builder, "exit_code");
      if (exit_code >= 0)
        json_builder_add_int_value (builder, exit_code);
      else
        json_builder_add_null_value (builder);
      sl_cli_json_add_string (builder, "log", sl_mindx_workflow_get_log_path (workflow));
      sl_cli_json_add_string (builder, "local_log", sl_mindx_workflow_get_local_log (workflow));
      json_builder_set_member_name (builder, "pulled");
      json_builder_begin_array (builder);
      for (guint i = 0; pulled != NULL && pulled[i] != NULL; i++)
        json_builder_add_string_value (builder, pulled[i]);
      json_builder_end_array (builder);
      sl_cli_workflow_add_problems (builder, problems);
      json_builder_end_object (builder);
      sl_cli_json_print (builder);
    }
  else
    sl_cli_workflow_print_problems (problems);
  return ok ? 0 : (exit_code > 0 && exit_code < 256 ? exit_code : 1);
}

/* The pipeline checked, the SDK's environment exported as its run.sh
 * does, the app run, its output pulled and the SDK's codes in its log
 * turned into problems: SlMindxWorkflow, as the window's Run does it. */
static int
run_mindx_workflow (SlMindxWorkflow *workflow,
                    gboolean         dry_run,
                    gboolean         json)
{
  g_autoptr(GError) error = NULL;

  if (dry_run)
    {
      g_autofree char *text = sl_mindx_workflow_dup_dry_run (workflow, &error);

      if (text == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 2;
        }
      sl_mindx_workflow_check_pipeline (workflow);
      sl_cli_workflow_print_problems (sl_mindx_workflow_get_problems (workflow));
      printf ("%s", text);
      return 0;
    }

  g_signal_connect (workflow, "log", G_CALLBACK (mindx_log_cb), NULL);
  g_signal_connect (workflow, "message", G_CALLBACK (mindx_message_cb), NULL);
  if (!sl_cli_workflow_run (SL_WORKFLOW (workflow), &error))
    {
      sl_cli_print_error ("%s", error->message);
      return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? 130 : 2;
    }
  return print_mindx_result (json, workflow);
}

/* job run --kind mindx: the settings from the options, COMMAND the entry
 * script and its arguments. */
static int
job_run_mindx (SlTarget     *target,
               const char   *store_path,
               const char   *project,
               const char   *remote_dir,
               char        **pull_dirs,
               char        **excludes,
               const char   *sdk_home,
               const char   *toolkit,
               const char   *pipeline,
               const char   *env_script,
               char        **app,
               gboolean      dry_run,
               gboolean      json)
{
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_new ();
  g_autoptr(SlMindxWorkflow) workflow = NULL;

  if (sdk_home == NULL)
    {
      sl_cli_print_error (_("job run --kind mindx needs --sdk-home DIR (MX_SDK_HOME on the target)"));
      return 2;
    }
  settings->sdk_home = g_strdup (sdk_home);
  settings->toolkit = g_strdup (toolkit);
  settings->pipeline = g_strdup (pipeline);
  settings->entry = g_strdup (app[0]);
  workflow = sl_mindx_workflow_new (target, project, settings, (const char * const *)app + 1);
  sl_mindx_workflow_set_env_script (workflow, env_script);
  sl_mindx_workflow_set_remote_dir (workflow, remote_dir);
  sl_mindx_workflow_set_pull_dirs (workflow, (const char * const *)pull_dirs);
  sl_mindx_workflow_set_excludes (workflow, (const char * const *)excludes);
  sl_mindx_workflow_set_store_path (workflow, store_path);
  return run_mindx_workflow (workflow, dry_run, json);
}

/* The stored run configuration called @name; in @project_dir's project
 * when that is given. Several of that name is an error that lists them. */
static SlRunConfigRecord *
find_config (SlWorkspaceStore  *store,
             const char        *name,
             const char        *project_dir,
             SlProjectRecord  **project,
             GError           **error)
{
  g_autoptr(GPtrArray) projects = sl_workspace_store_list_projects (store, error);
  g_autoptr(GFile) wanted = project_dir ? g_file_new_for_path (project_dir) : NULL;
  g_autoptr(GString) where = g_string_new (NULL);
  SlRunConfigRecord *found = NULL;
  guint matches = 0;

  if (projects == NULL)
    return NULL;
  for (guint p = 0; p < projects->len; p++)
    {
      SlProjectRecord *candidate = g_ptr_array_index (projects, p);
      g_autoptr(GFile) folder = g_file_new_for_path (sl_project_record_get_local_folder (candidate));

      if (wanted != NULL && !g_file_equal (wanted, folder))
        continue;
      for (guint c = 0; c < sl_project_record_get_n_run_configs (candidate); c++)
        {
          SlRunConfigRecord *config = sl_project_record_get_run_config (candidate, c);

          if (!g_str_equal (sl_run_config_record_get_name (config), name))
            continue;
          matches++;
          g_string_append_printf (where, "%s%s", where->len ? ", " : "", sl_project_record_get_name (candidate));
          found = config;
          g_set_object (project, candidate);
        }
    }
  if (matches == 1)
    return g_object_ref (found);
  g_clear_object (project);
  if (matches == 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("There is no run configuration called “%s”; the Project dialog lists them"), name);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                 _("Several projects have a run configuration called “%s” (%s): choose one with --project DIR"),
                 name, where->str);
  return NULL;
}

/* Whether NAME is a MindX SDK app's configuration; a name that is not
 * found is left to the general path, which says why. */
static gboolean
config_is_mindx (const char *db_path,
                 const char *name,
                 const char *project_dir)
{
  g_autoptr(SlWorkspaceStore) store = sl_cli_open_store (db_path, NULL);
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlRunConfigRecord) config = NULL;

  if (store == NULL || (config = find_config (store, name, project_dir, &project, NULL)) == NULL)
    return FALSE;
  return sl_run_config_record_get_kind (config) == SL_RUN_CONFIG_KIND_MINDX;
}

/* job run --config NAME: a stored MindX configuration, run on its
 * project's target (or --target) from its project's folder. */
static int
job_run_config (const char *db_path,
                const char *name,
                const char *target_name,
                const char *project_dir,
                const char *remote_dir,
                const char *env_script,
                gboolean    dry_run,
                gboolean    json)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlRunConfigRecord) config = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *store_path = NULL;

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || !(config = find_config (store, name, project_dir, &project, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  if (sl_run_config_record_get_kind (config) != SL_RUN_CONFIG_KIND_MINDX)
    {
      sl_cli_print_error (_("“%s” is a %s configuration; job run --config runs MindX SDK app configurations, "
                            "other commands run with -- COMMAND"),
                          name, sl_run_config_kind_to_id (sl_run_config_record_get_kind (config)));
      return 2;
    }
  target = target_name ? sl_cli_find_target (store, target_name, 0, &error)
                       : sl_cli_find_target (store, NULL, sl_project_record_get_target_id (project), &error);
  if (target == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  store_path = g_strdup (sl_workspace_store_get_path (store));
  g_clear_object (&store);

  workflow = sl_mindx_workflow_new_for_config (target, sl_project_record_get_local_folder (project), config);
  sl_mindx_workflow_set_env_script (workflow, env_script);
  sl_mindx_workflow_set_remote_dir (workflow, remote_dir ? remote_dir : sl_project_record_get_remote_folder (project));
  sl_mindx_workflow_set_excludes (workflow, sl_project_record_get_upload_excludes (project));
  sl_mindx_workflow_set_store_path (workflow, store_path);
  return run_mindx_workflow (workflow, dry_run, json);
}

/* job run --config NAME: what the command line leaves out comes from the
 * configuration and its project. @argv becomes @config_argv's command
 * when no COMMAND follows "--". */
static gboolean
fill_from_run_config (SlWorkspaceStore  *store,
                      const char        *name,
                      char             **project_dir,
                      const char        *target_name,
                      SlTarget         **target,
                      char             **remote_dir,
                      char            ***pull_dirs,
                      int               *argc,
                      char            ***argv,
                      char            ***config_argv,
                      SlSlurmOptions   **slurm,
                      gboolean          *slurm_enabled,
                      GError           **error)
{
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlRunConfigRecord) config = sl_cli_find_run_config (store, name, *project_dir, &project, error);
  g_autoptr(JsonObject) profiling = NULL;
  const char * const *pulls;

  if (config == NULL)
    return FALSE;

  /* Its profiling choices would be dropped by a plain run. */
  if (sl_run_config_record_get_kind (config) == SL_RUN_CONFIG_KIND_PROFILE &&
      (profiling = sl_run_config_record_dup_option_group (config, "profile")) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("“%s” is a profile configuration: run it from the Profile dialog (Run → the configuration), "
                     "or with sightline-cli profile-run --target NAME -- PROGRAM"), name);
      return FALSE;
    }

  if (*project_dir == NULL)
    *project_dir = g_strdup (sl_project_record_get_local_folder (project));
  if (target_name == NULL &&
      (*target = sl_cli_find_target (store, NULL, sl_project_record_get_target_id (project), error)) == NULL)
    return FALSE;
  if (*remote_dir == NULL && sl_project_record_get_remote_folder (project) != NULL)
    *remote_dir = g_strdup (sl_project_record_get_remote_folder (project));
  pulls = sl_run_config_record_get_pull_folders (config);
  if (*pull_dirs == NULL && pulls != NULL && pulls[0] != NULL)
    *pull_dirs = g_strdupv ((char **)pulls);
  if (*argc < 2)
    {
      g_auto(GStrv) command = sl_cli_dup_run_config_argv (config);
      GStrvBuilder *builder = g_strv_builder_new ();

      g_strv_builder_add (builder, (*argv)[0]);
      g_strv_builder_addv (builder, (const char **)command);
      *config_argv = g_strv_builder_end (builder);
      g_strv_builder_unref (builder);
      *argv = *config_argv;
      *argc = (int)g_strv_length (*config_argv);
    }
  *slurm = sl_slurm_config_read (config, slurm_enabled);
  return TRUE;
}

static void
stop_run_cb (GCancellable *cancellable,
             SlRemoteRun  *run)
{
  sl_remote_run_request_stop (run);
}

static int
job_run (int    argc,
         char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("-- COMMAND [ARGS…] — run a command on a target"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project = NULL;
  g_autofree char *remote_dir = NULL;
  g_auto(GStrv) pull_dirs = NULL;
  g_auto(GStrv) excludes = NULL;
  g_autofree char *kind = NULL;
  g_autofree char *sdk_home = NULL;
  g_autofree char *toolkit = NULL;
  g_autofree char *pipeline = NULL;
  g_autofree char *env_script = NULL;
  g_autofree char *config_name = NULL;
  gboolean json = FALSE;
  gboolean detach = FALSE;
  gboolean hash = FALSE;
  gboolean dry_run = FALSE;
  const char *limit = g_getenv ("SIGHTLINE_RECONNECT_SECONDS");
  SlJobStatus status = SL_JOB_STATUS_LOST;
  int exit_code = -1;
  gboolean ok;
  g_autofree char *store_path = NULL;
  g_autoptr(SlSlurmOptions) slurm = NULL;
  g_autoptr(SlSlurmOptions) config_slurm = NULL;
  g_auto(GStrv) config_argv = NULL;
  gboolean config_slurm_enabled = FALSE;
  SlurmArgs sargs = { 0 };
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &sargs.backend, N_("How to start the job: “direct” (default) or “slurm” (sbatch on a login node)"), N_("BACKEND") },
    { "nodes", 0, 0, G_OPTION_ARG_INT, &sargs.nodes, N_("Slurm: the number of nodes"), N_("N") },
    { "ntasks", 0, 0, G_OPTION_ARG_INT, &sargs.ntasks, N_("Slurm: the number of tasks (ranks)"), N_("N") },
    { "ntasks-per-node", 0, 0, G_OPTION_ARG_INT, &sargs.ntasks_per_node, N_("Slurm: tasks on each node"), N_("N") },
    { "devices-per-node", 0, 0, G_OPTION_ARG_INT, &sargs.devices_per_node, N_("Slurm: accelerators on each node, with --gres or --device-env"), N_("N") },
    { "gres", 0, 0, G_OPTION_ARG_STRING, &sargs.gres, N_("Slurm: the GRES the devices are asked as (npu, gpu)"), N_("NAME") },
    { "device-env", 0, 0, G_OPTION_ARG_STRING, &sargs.device_env, N_("Slurm: a variable listing the devices instead of a GRES (ASCEND_RT_VISIBLE_DEVICES)"), N_("VARIABLE") },
    { "partition", 0, 0, G_OPTION_ARG_STRING, &sargs.partition, N_("Slurm: the partition to submit to"), N_("P") },
    { "time", 0, 0, G_OPTION_ARG_STRING, &sargs.time_limit, N_("Slurm: the time limit (minutes, or [DAYS-]HH:MM:SS)"), N_("LIMIT") },
    { "account", 0, 0, G_OPTION_ARG_STRING, &sargs.account, N_("Slurm: the account to charge"), N_("A") },
    { "launcher", 0, 0, G_OPTION_ARG_STRING, &sargs.launcher, N_("Slurm: how each task is started: srun (default), torchrun, msrun or none"), N_("LAUNCHER") },
    { "per-task-logs", 0, 0, G_OPTION_ARG_NONE, &sargs.per_task_logs, N_("Slurm: every task writes its own log file (JOBNAME-JOBID-TASK.out) in the job folder"), NULL },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config_name, N_("Run the project’s run configuration NAME: its command, folder, target and Slurm options, which the options given here override (a MindX SDK app’s runs through its pipeline check; add --project DIR when several projects have one of that name)"), N_("NAME") },
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run on (“local” for this computer)"), N_("NAME") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The project folder to upload and run in"), N_("DIR") },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir, N_("Where the project goes on the target (default: BASE/PROJECT; BASE is the target’s folder for projects, ~/sightline when it has none)"), N_("DIR") },
    { "pull", 0, 0, G_OPTION_ARG_STRING_ARRAY, &pull_dirs, N_("A folder under the remote project folder to mirror into the cache while the job runs (repeatable)"), N_("SUBDIR") },
    { "exclude", 0, 0, G_OPTION_ARG_STRING_ARRAY, &excludes, N_("A pattern of files not to upload, instead of the defaults .git, __pycache__, *.ckpt, *.om (repeatable)"), N_("PATTERN") },
    { "hash", 0, 0, G_OPTION_ARG_NONE, &hash, N_("Compare file contents (SHA-256) when the size matches but the time does not"), NULL },
    { "detach", 0, 0, G_OPTION_ARG_NONE, &detach, N_("Start the job and return without following its log"), NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run, N_("Print the exact command that would start the job, and do nothing"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, N_("“mindx” for a MindX SDK app: COMMAND is its entry script and arguments"), N_("KIND") },
    { "sdk-home", 0, 0, G_OPTION_ARG_STRING, &sdk_home, N_("The MindX SDK on the target (MX_SDK_HOME)"), N_("DIR") },
    { "toolkit", 0, 0, G_OPTION_ARG_STRING, &toolkit, N_("The CANN toolkit on the target (default /usr/local/Ascend/ascend-toolkit/latest)"), N_("DIR") },
    { "pipeline", 0, 0, G_OPTION_ARG_FILENAME, &pipeline, N_("The app’s .pipeline file in the project, checked before the run"), N_("FILE") },
    { "env-script", 0, 0, G_OPTION_ARG_STRING, &env_script, N_("A script on the target to source first, such as the toolkit’s set_env.sh"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON (with --kind mindx)"), NULL },
    { NULL }
  };

  if (!parse_options (context, entries, &argc, &argv))
    return 2;

  if (kind != NULL && !g_str_equal (kind, "mindx"))
    {
      sl_cli_print_error (_("--kind is “mindx”, not “%s”"), kind);
      return 2;
    }

  /* GOption leaves "--" in place when it stops there. */
  if (argc >= 2 && g_str_equal (argv[1], "--"))
    {
      argv++;
      argc--;
    }

  /* A MindX SDK app's configuration runs through its own workflow; any
   * other kind is filled in from the configuration below. */
  if (config_name != NULL && config_is_mindx (db_path, config_name, project))
    {
      slurm_args_clear (&sargs);
      if (argc >= 2 || kind != NULL)
        {
          sl_cli_print_error (_("job run --config takes the command from the configuration: no --kind and no COMMAND"));
          return 2;
        }
      return job_run_config (db_path, config_name, target_name, project, remote_dir, env_script, dry_run, json);
    }

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL ||
      (config_name != NULL &&
       !fill_from_run_config (store, config_name, &project, target_name, &target, &remote_dir, &pull_dirs, &argc, &argv,
                              &config_argv, &config_slurm, &config_slurm_enabled, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      slurm_args_clear (&sargs);
      return 1;
    }

  if ((target_name == NULL && target == NULL) || project == NULL || argc < 2)
    {
      sl_cli_print_error (_("job run needs --target NAME, --project DIR and a COMMAND after “--” (or --config NAME)"));
      slurm_args_clear (&sargs);
      return 2;
    }

  /* A configuration last run through Slurm is again, unless --backend
   * direct says otherwise. */
  if (sargs.backend == NULL && config_slurm_enabled)
    sargs.backend = g_strdup ("slurm");
  if (g_strcmp0 (sargs.backend, "slurm") == 0)
    slurm = slurm_options_from_args (&sargs, config_slurm);
  else if (sargs.backend != NULL && !g_str_equal (sargs.backend, "direct"))
    sl_cli_print_error (_("--backend is direct or slurm, not “%s”"), sargs.backend);
  else if (slurm_args_used_without_slurm (&sargs))
    sl_cli_print_error (_("--nodes, --ntasks, --partition and the other Slurm options need --backend slurm"));
  else
    sargs.backend = (g_free (sargs.backend), g_strdup ("direct"));
  if (slurm == NULL && !g_str_equal (sargs.backend ? sargs.backend : "", "direct"))
    {
      slurm_args_clear (&sargs);
      return 2;
    }
  slurm_args_clear (&sargs);

  if (target == NULL && (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  /* The same run as the window's Run, printed as it goes. */
  if (kind != NULL)
    {
      g_autofree char *mindx_store = g_strdup (sl_workspace_store_get_path (store));

      g_clear_object (&store);
      if (slurm != NULL)
        {
          sl_cli_print_error (_("job run --kind mindx starts the app directly; --backend slurm is not offered for it"));
          return 2;
        }
      return job_run_mindx (target, mindx_store, project, remote_dir, pull_dirs, excludes, sdk_home, toolkit,
                            pipeline, env_script, argv + 1, dry_run, json);
    }

  run = sl_remote_run_new (target, project, (const char * const *)argv + 1);
  sl_remote_run_set_remote_dir (run, remote_dir);
  sl_remote_run_set_pull_dirs (run, (const char * const *)pull_dirs);
  sl_remote_run_set_excludes (run, (const char * const *)excludes);
  sl_remote_run_set_compare_content (run, hash);
  sl_remote_run_set_detach (run, detach);
  sl_remote_run_set_slurm_options (run, slurm);
  store_path = g_strdup (sl_workspace_store_get_path (store));
  sl_remote_run_set_store_path (run, store_path);
  if (limit != NULL)
    sl_remote_run_set_reconnect_limit (run, (guint)g_ascii_strtoull (limit, NULL, 10));
  g_clear_object (&store);

  if (dry_run && slurm != NULL)
    {
      if (!print_slurm_preview (run, stdout, &error))
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      return 0;
    }
  if (dry_run)
    {
      g_autofree char *launch = sl_remote_run_dup_launch_command (run, &error);

      if (launch == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      printf ("%s\n", launch);
      return 0;
    }

  /* The exact script and command first, as the Run dialog shows them; on
   * stderr, so stdout stays the job's log (or id). */
  if (slurm != NULL && !print_slurm_preview (run, stderr, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  g_signal_connect (run, "message", G_CALLBACK (print_message_cb), NULL);
  g_signal_connect (run, "log", G_CALLBACK (print_log_cb), NULL);
  g_signal_connect (run, "connection", G_CALLBACK (print_connection_cb), NULL);
  g_signal_connect (run, "transfer-progress", G_CALLBACK (print_progress_cb), NULL);
  g_signal_connect (run, "job-started", G_CALLBACK (print_started_cb), &detach);

  /* Followed by a session, as the windows' jobs are: its job controller
   * keeps the workspace's job history. */
  {
    g_autoptr(SlWorkspace) workspace = sl_workspace_new (store_path);
    g_autoptr(SlSession) session = sl_session_new (workspace);
    g_autofree char *command_line = sl_job_controller_quote_argv ((const char * const *)argv + 1);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    SlCliInterrupt interrupt = { 0 };
    gulong stop_id;

    /* Ctrl+C stops the job on the target, and is answered once it is
     * seen to end (--detach leaves it running by design). */
    sl_cli_interrupt_begin (&interrupt, cancellable);
    stop_id = g_cancellable_connect (cancellable, G_CALLBACK (stop_run_cb), run, NULL);
    ok = sl_session_run_remote_sync (session, run, command_line, &status, &exit_code, &error);
    g_cancellable_disconnect (cancellable, stop_id);
    sl_cli_interrupt_end (&interrupt);
    sl_workspace_flush (workspace);

    if (g_cancellable_is_cancelled (cancellable))
      {
        g_autoptr(GError) interrupted = NULL;

        sl_remote_run_set_interrupted_error (run, ok, status, exit_code, error, &interrupted);
        sl_cli_print_error ("%s", interrupted->message);
        return sl_cli_interrupted_exit_status (interrupted);
      }
  }

  if (!ok)
    {
      /* A job Slurm refused never ran: nothing to attach to. */
      if (sl_remote_run_get_started (run) && error->domain != SL_SLURM_ERROR)
        sl_cli_print_error (_("Lost track of job %lld: %s. It may still be running; “sightline-cli job logs %lld --follow” attaches again."),
                            (long long)sl_remote_run_get_job_id (run), error->message,
                            (long long)sl_remote_run_get_job_id (run));
      else
        sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (detach)
    return 0;

  if (status != SL_JOB_STATUS_EXITED)
    {
      g_autofree char *why = sl_remote_run_dup_lost_reason (run);

      sl_cli_print_error (_("Job %lld ended without an exit code (%s)"), (long long)sl_remote_run_get_job_id (run), why);
      return 1;
    }

  if (exit_code != 0)
    {
      const char *why = sl_remote_run_explain_exit (exit_code);

      if (why != NULL)
        sl_cli_print_error (_("Job %lld exited with %d: %s"), (long long)sl_remote_run_get_job_id (run), exit_code, why);
      else
        sl_cli_print_error (_("Job %lld exited with %d"), (long long)sl_remote_run_get_job_id (run), exit_code);
    }
  return exit_code >= 0 && exit_code < 256 ? exit_code : 1;
}

static void
save_end (SlWorkspaceStore *store,
          SlJobRecord      *record,
          SlJob            *job,
          SlJobState        state,
          gboolean          has_exit_code,
          int               exit_code)
{
  g_autoptr(GError) error = NULL;

  if (job != NULL && sl_job_get_backend_state (job) != NULL)
    {
      sl_job_record_set_backend_state (record, sl_job_get_backend_state (job), sl_job_get_backend_reason (job));
      if (g_str_equal (sl_job_get_backend_state (job), "CANCELLED"))
        state = SL_JOB_STATE_CANCELLED;
      else if (state == SL_JOB_STATE_SUCCEEDED && !g_str_equal (sl_job_get_backend_state (job), "COMPLETED"))
        state = SL_JOB_STATE_FAILED;
    }
  sl_job_record_set_state (record, state);
  if (has_exit_code)
    sl_job_record_set_exit_code (record, exit_code);
  sl_job_record_set_finished_at (record, 0);
  if (!sl_workspace_store_finish_job (store, record, &error))
    sl_cli_print_error ("%s", error->message);
}

static SlJobRecord *
find_job (SlWorkspaceStore  *store,
          const char        *id_text,
          GError           **error)
{
  g_autoptr(GPtrArray) jobs = NULL;
  gint64 id = g_ascii_strtoll (id_text, NULL, 10);

  jobs = sl_workspace_store_list_jobs (store, 0, error);
  if (jobs == NULL)
    return NULL;

  for (guint i = 0; i < jobs->len; i++)
    {
      SlJobRecord *job = g_ptr_array_index (jobs, i);

      if (sl_job_record_get_id (job) == id)
        return g_object_ref (job);
    }

  g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
               _("There is no job %s; “sightline-cli job list” shows them"), id_text);
  return NULL;
}

/* The store, the record, and a backend on its target for ID. */
static gboolean
open_job (const char         *db_path,
          const char         *id_text,
          SlWorkspaceStore  **store,
          SlJobRecord       **record,
          SlJobBackend      **backend,
          SlJob             **job)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autofree char *dir = NULL;

  *store = sl_cli_open_store (db_path, &error);
  if (*store == NULL || (*record = find_job (*store, id_text, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }

  if (sl_job_record_get_log_path (*record) == NULL)
    {
      sl_cli_print_error (_("Job %s has no log: it was not started as a detached job"), id_text);
      return FALSE;
    }

  target = sl_cli_find_target (*store, NULL, sl_job_record_get_target_id (*record), &error);
  if (target == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }

  shell = sl_cli_create_shell (target);
  if (sl_job_record_is_slurm (*record))
    {
      *backend = sl_slurm_job_backend_new (shell, NULL);
      sl_slurm_job_backend_set_env_setup (SL_SLURM_JOB_BACKEND (*backend), sl_target_get_env_setup (target));
    }
  else
    *backend = sl_direct_job_backend_new (shell);
  dir = g_path_get_dirname (sl_job_record_get_log_path (*record));
  *job = sl_job_new_for_dir (dir);
  sl_job_set_backend_id (*job, sl_job_record_get_backend_job_id (*record));
  return TRUE;
}

static int
job_logs (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("ID — print the log of a job"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  gboolean follow = FALSE;
  guint64 offset = 0;
  int exit_code = -1;
  SlJobStatus status;
  const GOptionEntry entries[] = {
    { "follow", 'f', 0, G_OPTION_ARG_NONE, &follow, N_("Keep printing the log until the job ends"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  if (!parse_options (context, entries, &argc, &argv))
    return 2;
  if (argc != 2)
    {
      sl_cli_print_error (_("job logs needs a job ID"));
      return 2;
    }

  if (!open_job (db_path, argv[1], &store, &record, &backend, &job))
    return 1;

  status = sl_job_backend_attach_log (backend, job, &offset, follow, write_log, NULL, &exit_code, NULL, &error);
  if (error != NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  /* The history learns how a job ended from whoever sees it end. */
  if ((status == SL_JOB_STATUS_EXITED || status == SL_JOB_STATUS_LOST) &&
      !sl_job_state_is_finished (sl_job_record_get_state (record)))
    save_end (store, record, job, sl_job_state_for_exit (status, exit_code), status == SL_JOB_STATUS_EXITED, exit_code);

  return 0;
}

static int
job_stop (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("ID — stop a job: SIGTERM, then SIGKILL after a grace period"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  int grace = SL_JOB_DEFAULT_STOP_GRACE_SECONDS;
  int exit_code = -1;
  SlJobStatus status;
  const GOptionEntry entries[] = {
    { "grace", 0, 0, G_OPTION_ARG_INT, &grace, N_("Seconds between SIGTERM and SIGKILL (default 10)"), N_("SECONDS") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  if (!parse_options (context, entries, &argc, &argv))
    return 2;
  if (argc != 2 || grace < 0)
    {
      sl_cli_print_error (_("job stop needs a job ID"));
      return 2;
    }

  if (!open_job (db_path, argv[1], &store, &record, &backend, &job))
    return 1;

  if (!sl_job_backend_stop (backend, job, (guint)grace, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  /* Said stopped only once it is seen gone. */
  status = sl_job_backend_poll (backend, job, &exit_code, NULL, &error);
  if (error != NULL || status == SL_JOB_STATUS_RUNNING || status == SL_JOB_STATUS_STARTING)
    {
      sl_cli_print_error (_("Job %s may still be running: it was sent SIGTERM and SIGKILL, but %s. "
                            "Look at it on the target (its folder is %s)."),
                          argv[1], error != NULL ? error->message : _("it is still there"), sl_job_get_dir (job));
      return 1;
    }
  if (!sl_job_state_is_finished (sl_job_record_get_state (record)))
    save_end (store, record, job, SL_JOB_STATE_CANCELLED, status == SL_JOB_STATUS_EXITED, exit_code);

  if (status == SL_JOB_STATUS_EXITED)
    printf (_("Job %s stopped (exit code %d)\n"), argv[1], exit_code);
  else
    printf (_("Job %s stopped\n"), argv[1]);
  return 0;
}

/* Asks how a job nobody follows is doing now (Slurm, or the job's own
 * exit_code file), and saves it: a detached job's history would
 * otherwise keep the state it was started with. Jobs on servers only
 * when asked, as that means connecting. */
static void
refresh_unfinished_job (SlWorkspaceStore *store,
                        SlJobRecord      *record,
                        gboolean          remote_too)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  SlJobStatus status;
  int exit_code = -1;

  if (sl_job_state_is_finished (sl_job_record_get_state (record)) || sl_job_record_get_log_path (record) == NULL)
    return;
  target = sl_cli_find_target (store, NULL, sl_job_record_get_target_id (record), NULL);
  if (target == NULL || (!remote_too && !SL_IS_LOCAL_TARGET (target)))
    return;

  shell = sl_cli_create_shell (target);
  sl_target_shell_set_reconnect_limit (shell, 0);
  if (sl_job_record_is_slurm (record))
    {
      backend = sl_slurm_job_backend_new (shell, NULL);
      sl_slurm_job_backend_set_env_setup (SL_SLURM_JOB_BACKEND (backend), sl_target_get_env_setup (target));
    }
  else
    backend = sl_direct_job_backend_new (shell);
  dir = g_path_get_dirname (sl_job_record_get_log_path (record));
  job = sl_job_new_for_dir (dir);
  sl_job_set_backend_id (job, sl_job_record_get_backend_job_id (record));
  status = sl_job_backend_poll (backend, job, &exit_code, NULL, &error);
  if (error != NULL)
    return;

  if (status == SL_JOB_STATUS_EXITED || (status == SL_JOB_STATUS_LOST && !sl_job_record_is_slurm (record)))
    {
      save_end (store, record, job, sl_job_state_for_exit (status, exit_code), status == SL_JOB_STATUS_EXITED, exit_code);
      return;
    }
  if (!sl_job_record_is_slurm (record) || sl_job_get_backend_state (job) == NULL)
    return;
  sl_job_record_set_backend_state (record, sl_job_get_backend_state (job), sl_job_get_backend_reason (job));
  sl_job_record_set_state (record, status == SL_JOB_STATUS_STARTING ? SL_JOB_STATE_QUEUED : SL_JOB_STATE_RUNNING);
  if (!sl_workspace_store_update_job (store, record, &error))
    sl_cli_print_error ("%s", error->message);
}

static int
job_list (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("— list the job history, newest first"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  gboolean json = FALSE;
  gboolean refresh = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "refresh", 0, 0, G_OPTION_ARG_NONE, &refresh, N_("Ask servers too how their unfinished jobs are doing (this computer's are always asked)"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  if (!parse_options (context, entries, &argc, &argv))
    return 2;

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (jobs = sl_workspace_store_list_jobs (store, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  for (guint i = 0; i < jobs->len; i++)
    refresh_unfinished_job (store, g_ptr_array_index (jobs, i), refresh);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_array (builder);
      for (guint i = 0; i < jobs->len; i++)
        {
          SlJobRecord *job = g_ptr_array_index (jobs, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "id");
          json_builder_add_int_value (builder, sl_job_record_get_id (job));
          json_builder_set_member_name (builder, "command");
          json_builder_add_string_value (builder, sl_job_record_get_command (job));
          json_builder_set_member_name (builder, "target");
          json_builder_add_string_value (builder, sl_job_record_get_target_name (job));
          json_builder_set_member_name (builder, "state");
          json_builder_add_string_value (builder, sl_job_state_to_id (sl_job_record_get_state (job)));
          json_builder_set_member_name (builder, "started_at");
          json_builder_add_int_value (builder, sl_job_record_get_started_at (job));
          json_builder_set_member_name (builder, "finished_at");
          if (sl_job_record_get_finished_at (job) != 0)
            json_builder_add_int_value (builder, sl_job_record_get_finished_at (job));
          else
            json_builder_add_null_value (builder);
          json_builder_set_member_name (builder, "exit_code");
          if (sl_job_record_has_exit_code (job))
            json_builder_add_int_value (builder, sl_job_record_get_exit_code (job));
          else
            json_builder_add_null_value (builder);
          json_builder_set_member_name (builder, "log_path");
          json_builder_add_string_value (builder, sl_job_record_get_log_path (job));
          json_builder_set_member_name (builder, "remote_folder");
          json_builder_add_string_value (builder, sl_job_record_get_remote_folder (job));
          json_builder_set_member_name (builder, "backend");
          json_builder_add_string_value (builder, sl_job_record_get_backend (job));
          json_builder_set_member_name (builder, "backend_job_id");
          json_builder_add_string_value (builder, sl_job_record_get_backend_job_id (job));
          json_builder_set_member_name (builder, "backend_state");
          json_builder_add_string_value (builder, sl_job_record_get_backend_state (job));
          json_builder_set_member_name (builder, "backend_reason");
          json_builder_add_string_value (builder, sl_job_record_get_backend_reason (job));
          json_builder_set_member_name (builder, "outcome_reason");
          json_builder_add_string_value (builder, sl_job_record_get_outcome_reason (job));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      sl_cli_json_print (builder);
      return 0;
    }

  for (guint i = 0; i < jobs->len; i++)
    {
      SlJobRecord *job = g_ptr_array_index (jobs, i);
      g_autoptr(GDateTime) started = g_date_time_new_from_unix_local (sl_job_record_get_started_at (job) / G_USEC_PER_SEC);
      g_autofree char *when = started != NULL ? g_date_time_format (started, "%Y-%m-%d %H:%M:%S") : g_strdup ("");
      g_autofree char *code = sl_job_record_has_exit_code (job)
                              ? g_strdup_printf ("%d", sl_job_record_get_exit_code (job)) : g_strdup ("-");

      printf ("%-6lld %-10s %-4s %-19s %-12s %s\n", (long long)sl_job_record_get_id (job),
              sl_job_record_get_state_word (job), code, when,
              sl_job_record_get_target_name (job) != NULL ? sl_job_record_get_target_name (job) : "",
              sl_job_record_get_command (job));
      if (sl_job_record_get_outcome_reason (job) != NULL)
        printf ("%-6s %s\n", "", sl_job_record_get_outcome_reason (job));
    }
  return 0;
}

int
sl_cli_job (int    argc,
            char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_job_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }

  if (g_str_equal (argv[1], "run"))
    return job_run (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "list"))
    return job_list (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "logs"))
    return job_logs (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "stop"))
    return job_stop (argc - 1, argv + 1);

  sl_cli_print_error (_("unknown job command “%s”"), argv[1]);
  print_job_usage (stderr);
  return 2;
}
