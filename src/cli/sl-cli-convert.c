/* sl-cli-convert.c: sightline-cli convert
 *
 * Converts a model with ATC on a target: every field checked before the
 * run, the preflight, ATC run as a job in the project folder there, its
 * log parsed into problems (code, message, option, log and line), and
 * the job log and the plog files the run wrote pulled into the cache.
 * --json gives `ok`, `output` (the .om path) and `problems`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-atc-command.h"
#include "sl-atc-log.h"
#include "sl-cli.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-workflow-path.h"

#define MIN_FREE_KB (256 * 1024)
#define MAX_PLOGS 4

/* The plog files written since the job started: find's -newer compares
 * with the job's cmd file, written when it was launched. */
static GStrv
find_plogs (SlTargetShell *shell,
            const char    *env_setup,
            const char    *job_log)
{
  g_autofree char *job_dir = g_path_get_dirname (job_log);
  g_autofree char *cmd = g_build_path ("/", job_dir, "cmd", NULL);
  g_autofree char *quoted = sl_shell_quote_remote_path (cmd);
  /* The environment script may move the logs (ASCEND_PROCESS_LOG_PATH). */
  g_autofree char *command = g_strdup_printf ("%s%sfind \"${ASCEND_PROCESS_LOG_PATH:-$HOME/ascend/log}\" -name 'plog-*.log' "
                                              "-newer %s 2>/dev/null | sort | head -n %d",
                                              env_setup ? env_setup : "", env_setup ? " >/dev/null 2>&1\n" : "",
                                              quoted, MAX_PLOGS);
  g_autofree char *out = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = NULL;
  int status = -1;

  if (sl_target_shell_run (shell, command, &out, NULL, &status, NULL, NULL))
    {
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_path_is_absolute (g_strstrip (lines[i])))
          g_strv_builder_add (builder, lines[i]);
    }
  return g_strv_builder_end (builder);
}

static GStrv
pull_files (SlTarget           *target,
            SlTargetShell      *shell,
            const char * const *remote)
{
  g_autoptr(GPtrArray) local = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; remote[i] != NULL; i++)
    {
      g_autofree char *path = sl_cli_workflow_dup_cache_path (target, remote[i], NULL);
      g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
      g_autoptr(GFile) file = path ? g_file_new_for_path (path) : NULL;

      /* A copy that failed is left out; the server path still names it. */
      if (file == NULL || g_mkdir_with_parents (dir, 0700) != 0 ||
          !sl_target_shell_continue_download (shell, remote[i], file, NULL, NULL))
        g_ptr_array_add (local, NULL);
      else
        g_ptr_array_add (local, g_steal_pointer (&path));
    }
  g_ptr_array_add (local, NULL);
  return (GStrv)g_ptr_array_free (g_steal_pointer (&local), FALSE);
}

static int
finish (gboolean    json,
        gboolean    ok,
        GPtrArray  *problems,
        const char *om_path,
        const char *log_path,
        const char *local_log,
        GStrv       plogs,
        GStrv       local_plogs)
{
  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ok");
      json_builder_add_boolean_value (builder, ok);
      sl_cli_json_add_string (builder, "output", ok ? om_path : NULL);
      sl_cli_json_add_string (builder, "log", log_path);
      sl_cli_json_add_string (builder, "local_log", local_log);
      json_builder_set_member_name (builder, "plogs");
      json_builder_begin_array (builder);
      for (guint i = 0; plogs != NULL && plogs[i] != NULL; i++)
        {
          json_builder_begin_object (builder);
          sl_cli_json_add_string (builder, "path", plogs[i]);
          sl_cli_json_add_string (builder, "local", local_plogs ? local_plogs[i] : NULL);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      sl_cli_workflow_add_problems (builder, problems);
      json_builder_end_object (builder);
      sl_cli_workflow_print_json (builder);
    }
  else
    {
      sl_cli_workflow_print_problems (problems);
      if (ok)
        printf (_("Model: %s\n"), om_path);
    }
  return ok ? 0 : 1;
}

static void
add_validation_problems (SlAtcCommand *command,
                         GPtrArray    *problems)
{
  g_autoptr(GPtrArray) found = sl_atc_command_validate (command);

  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (problems, g_object_ref (g_ptr_array_index (found, i)));
}

int
sl_cli_convert (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("— convert a model with ATC on a target"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlAtcCommand) command = sl_atc_command_new ();
  g_autoptr(SlRemoteRun) run = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) log_problems = NULL;
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project = NULL;
  g_autofree char *remote_dir = NULL;
  g_autofree char *framework_text = NULL;
  g_autofree char *model = NULL;
  g_autofree char *weight = NULL;
  g_autofree char *output = NULL;
  g_autofree char *soc_version = NULL;
  g_autofree char *input_format = NULL;
  g_autofree char *input_shape = NULL;
  g_autofree char *insert_op_conf = NULL;
  g_autofree char *precision_mode = NULL;
  g_autofree char *log_level = NULL;
  g_autofree char *env_script = NULL;
  g_autofree char *env_setup = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *om_path = NULL;
  g_autofree char *local_log = NULL;
  g_auto(GStrv) atc_argv = NULL;
  g_auto(GStrv) plogs = NULL;
  g_auto(GStrv) local_plogs = NULL;
  SlAtcFramework framework = SL_ATC_FRAMEWORK_NONE;
  SlAtcOutcome outcome = SL_ATC_OUTCOME_UNKNOWN;
  SlPreflightSpec spec = { 0 };
  gboolean dry_run = FALSE;
  gboolean json = FALSE;
  int exit_code = -1;
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run on (“local” for this computer)"), N_("NAME") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The project folder to upload and run in (default: the current folder)"), N_("DIR") },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir, N_("Where the project goes on the target (default: BASE/sightline/PROJECT)"), N_("DIR") },
    { "framework", 0, 0, G_OPTION_ARG_STRING, &framework_text, N_("caffe, mindspore, tensorflow or onnx"), N_("NAME") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("The model file, relative to the project"), N_("FILE") },
    { "weight", 0, 0, G_OPTION_ARG_STRING, &weight, N_("The weight file (Caffe only)"), N_("FILE") },
    { "output", 0, 0, G_OPTION_ARG_STRING, &output, N_("The name of the converted model, without .om"), N_("NAME") },
    { "soc-version", 0, 0, G_OPTION_ARG_STRING, &soc_version, N_("The SoC version, such as Ascend310P3"), N_("VERSION") },
    { "input-format", 0, 0, G_OPTION_ARG_STRING, &input_format, N_("The input format: NCHW, NHWC, ND, NCDHW or NDHWC"), N_("F") },
    { "input-shape", 0, 0, G_OPTION_ARG_STRING, &input_shape, N_("Input shapes, such as “input:1,3,224,224”"), N_("S") },
    { "insert-op-conf", 0, 0, G_OPTION_ARG_STRING, &insert_op_conf, N_("An AIPP configuration file"), N_("FILE") },
    { "precision-mode", 0, 0, G_OPTION_ARG_STRING, &precision_mode, N_("The precision mode, such as allow_fp32_to_fp16"), N_("M") },
    { "log", 0, 0, G_OPTION_ARG_STRING, &log_level, N_("ATC’s log level: debug, info, warning, error or null"), N_("LEVEL") },
    { "env-script", 0, 0, G_OPTION_ARG_STRING, &env_script, N_("A script on the target to source first, such as the toolkit’s set_env.sh"), N_("FILE") },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run, N_("Print the exact commands, and do nothing"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (target_name == NULL)
    {
      sl_cli_print_error (_("convert needs --target NAME"));
      return 2;
    }
  if (framework_text != NULL && !sl_atc_framework_from_name (framework_text, &framework))
    {
      sl_cli_print_error (_("--framework is caffe, mindspore, tensorflow or onnx (or 0, 1, 3, 5), not “%s”"), framework_text);
      return 2;
    }
  if (project == NULL)
    project = g_get_current_dir ();

  sl_atc_command_set_framework (command, framework);
  sl_atc_command_set_model (command, model);
  sl_atc_command_set_weight (command, weight);
  sl_atc_command_set_output (command, output);
  sl_atc_command_set_soc_version (command, soc_version);
  sl_atc_command_set_input_format (command, input_format);
  sl_atc_command_set_input_shape (command, input_shape);
  sl_atc_command_set_insert_op_conf (command, insert_op_conf);
  sl_atc_command_set_precision_mode (command, precision_mode);
  sl_atc_command_set_log_level (command, log_level);

  if (!(atc_argv = sl_atc_command_dup_argv (command, NULL)))
    {
      add_validation_problems (command, problems);
      finish (json, FALSE, problems, NULL, NULL, NULL, NULL, NULL);
      return 2;
    }
  if (env_script != NULL && !sl_workflow_path_check (env_script, _("The environment script"), &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  env_setup = sl_cli_workflow_dup_env_setup (env_script, NULL);

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  run = sl_remote_run_new (target, project, (const char * const *)atc_argv);
  sl_remote_run_set_remote_dir (run, remote_dir);
  sl_remote_run_set_env_setup (run, env_setup);
  sl_remote_run_set_store_path (run, sl_workspace_store_get_path (store));

  /* ATC runs on the operator compiler's Python. */
  spec.tool = "atc";
  spec.env_script = env_script;
  spec.output_dir = sl_remote_run_get_remote_dir (run);
  spec.min_free_kb = MIN_FREE_KB;
  spec.device_id = -1;
  spec.needs_python = TRUE;

  if (dry_run)
    {
      g_autofree char *preflight = sl_preflight_dup_script (&spec);
      g_autofree char *launch = sl_remote_run_dup_launch_command (run, &error);

      if (launch == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      printf ("# %s\n%s", _("Preflight"), preflight);
      printf ("# %s\n%s\n", _("Convert"), launch);
      return 0;
    }

  shell = sl_cli_create_shell (target);
  if (!sl_cli_workflow_preflight (shell, &spec, problems))
    return finish (json, FALSE, problems, NULL, NULL, NULL, NULL, NULL);

  if (!sl_cli_workflow_run_job (run, sl_workspace_store_get_path (store), (const char * const *)atc_argv,
                                log, &exit_code, &error))
    {
      g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, "job", NULL, -1, error->message));
      return finish (json, FALSE, problems, NULL, NULL, NULL, NULL, NULL);
    }

  local_log = sl_cli_workflow_save_log (target, sl_remote_run_get_log_path (run), log);
  log_problems = sl_atc_log_parse (log->str, log->len, sl_remote_run_get_log_path (run), exit_code, &outcome);
  plogs = find_plogs (shell, env_setup, sl_remote_run_get_log_path (run));
  local_plogs = pull_files (target, shell, (const char * const *)plogs);
  sl_atc_log_add_plogs (log_problems, (const char * const *)plogs, (const char * const *)local_plogs);
  for (guint i = 0; i < log_problems->len; i++)
    g_ptr_array_add (problems, g_object_ref (g_ptr_array_index (log_problems, i)));

  resolved = sl_target_shell_resolve_dir (shell, sl_remote_run_get_remote_dir (run), FALSE, NULL, NULL);
  {
    g_autofree char *name = sl_atc_command_dup_om_path (command);

    om_path = g_path_is_absolute (name) ? g_steal_pointer (&name)
                                        : g_build_path ("/", resolved ? resolved : sl_remote_run_get_remote_dir (run), name, NULL);
  }
  return finish (json, exit_code == 0 && outcome == SL_ATC_OUTCOME_SUCCESS, problems, om_path,
                 sl_remote_run_get_log_path (run), local_log, plogs, local_plogs);
}
