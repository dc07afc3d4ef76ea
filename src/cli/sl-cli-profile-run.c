/* sl-cli-profile-run.c: sightline-cli profile-run
 *
 * Profiles a program on a target: the preflight, the program run under
 * msprof (or MindSpore's or torch_npu's profiler) as a job, then the
 * newest PROF_* (or *_ascend_pt, *_ascend_ms) folder of the output
 * folder exported on the target when only raw data came out, and pulled.
 * --json gives `profile`, the local folder, and `problems`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-folder-puller.h"
#include "sl-msprof-command.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-workflow-path.h"

#define DEFAULT_OUTPUT "sightline-profile"
#define MIN_FREE_KB (512 * 1024)

typedef struct {
  char     *task_time;
  char     *ai_core;
  char     *ascendcl;
  char     *runtime_api;
  char     *hccl;
  char     *aicpu;
  char     *msproftx;
} Switches;

static gboolean
apply_switches (SlMsprofCommand *command,
                Switches        *switches)
{
  struct { const char *text; SlMsprofSwitch which; } table[] = {
    { switches->task_time, SL_MSPROF_TASK_TIME }, { switches->ai_core, SL_MSPROF_AI_CORE },
    { switches->ascendcl, SL_MSPROF_ASCENDCL }, { switches->runtime_api, SL_MSPROF_RUNTIME_API },
    { switches->hccl, SL_MSPROF_HCCL }, { switches->aicpu, SL_MSPROF_AICPU },
    { switches->msproftx, SL_MSPROF_MSPROFTX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      int state = -1;

      if (table[i].text == NULL)
        continue;
      if (!sl_msprof_parse_switch_value (table[i].text, &state))
        {
          sl_cli_print_error (_("--%s takes on or off, not “%s”"), sl_msprof_switch_get_option (table[i].which), table[i].text);
          return FALSE;
        }
      sl_msprof_command_set_switch (command, table[i].which, state);
    }
  return TRUE;
}

static gboolean
parse_kind (const char     *text,
            SlProfilerKind *kind)
{
  if (text == NULL || g_str_equal (text, "msprof"))
    *kind = SL_PROFILER_MSPROF;
  else if (g_str_equal (text, "mindspore"))
    *kind = SL_PROFILER_MINDSPORE;
  else if (g_str_equal (text, "torch_npu") || g_str_equal (text, "pytorch"))
    *kind = SL_PROFILER_TORCH_NPU;
  else
    return FALSE;
  return TRUE;
}

static gboolean
is_result_name (const char *name)
{
  return g_str_has_prefix (name, "PROF_") || g_str_has_suffix (name, "_ascend_pt") || g_str_has_suffix (name, "_ascend_ms");
}

/* Result folders in @dir by name, with their modification times. */
static GHashTable *
list_results (SlTargetShell *shell,
              const char    *dir)
{
  g_autoptr(GPtrArray) entries = sl_target_shell_list_dir (shell, dir, NULL, NULL);
  GHashTable *results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (entries, i);

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY && is_result_name (g_file_info_get_name (info)))
        g_hash_table_insert (results, g_strdup (g_file_info_get_name (info)),
                             GSIZE_TO_POINTER (g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) + 1));
    }
  return results;
}

/* The newest result folder in @dir that was not there, as it was, in
 * @before: an older run's result is never taken for this one's. */
static char *
find_result (SlTargetShell *shell,
             const char    *dir,
             GHashTable    *before)
{
  g_autoptr(GPtrArray) entries = sl_target_shell_list_dir (shell, dir, NULL, NULL);
  GFileInfo *newest = NULL;

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (entries, i);
      gpointer old = g_hash_table_lookup (before, g_file_info_get_name (info));

      if (g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY || !is_result_name (g_file_info_get_name (info)))
        continue;
      if (old != NULL && GPOINTER_TO_SIZE (old) == g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) + 1)
        continue;
      if (newest == NULL ||
          g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) >
          g_file_info_get_attribute_uint64 (newest, G_FILE_ATTRIBUTE_TIME_MODIFIED) ||
          (g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) ==
           g_file_info_get_attribute_uint64 (newest, G_FILE_ATTRIBUTE_TIME_MODIFIED) &&
           g_strcmp0 (g_file_info_get_name (info), g_file_info_get_name (newest)) > 0))
        newest = info;
    }
  return newest ? g_build_path ("/", dir, g_file_info_get_name (newest), NULL) : NULL;
}

/* msprof leaves raw data only when its parse step did not run: no
 * mindstudio_profiler_output and no device_N/timeline. */
static gboolean
needs_export (SlTargetShell *shell,
              const char    *prof_dir)
{
  g_autofree char *dir = sl_shell_quote_remote_path (prof_dir);
  g_autofree char *command = g_strdup_printf ("cd -- %s && ls -d mindstudio_profiler_output device_*/timeline 2>/dev/null | head -n 1", dir);
  g_autofree char *name = g_path_get_basename (prof_dir);
  g_autofree char *out = NULL;
  int status = -1;

  if (!g_str_has_prefix (name, "PROF_"))
    return FALSE;
  if (!sl_target_shell_run (shell, command, &out, NULL, &status, NULL, NULL))
    return FALSE;
  return g_strstrip (out)[0] == '\0';
}

static gboolean
export_result (SlTargetShell *shell,
               const char    *env_setup,
               const char    *prof_dir,
               GPtrArray     *problems)
{
  g_auto(GStrv) argv = sl_msprof_dup_export_argv (prof_dir);
  g_autofree char *quoted = sl_shell_quote_argv ((const char * const *)argv);
  g_autofree char *command = g_strdup_printf ("%s%s%s 2>&1", env_setup ? env_setup : "", env_setup ? "\n" : "", quoted);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_printerr (_("sightline-cli: only raw data came out; exporting it on the target: %s\n"), quoted);
  if (!sl_target_shell_run (shell, command, &out, NULL, &status, NULL, &error) || status != 0)
    {
      g_autofree char *message = g_strdup_printf (_("msprof --export failed (exit code %d): %s"), status,
                                                  error ? error->message : g_strstrip (out));
      SlProblem *problem = sl_problem_new (SL_SEVERITY_ERROR, "msprof", prof_dir, -1, message);

      sl_problem_set_hint (problem, _("Run the same msprof --export command on the target to see the whole output; the raw data is kept."));
      g_ptr_array_add (problems, problem);
      return FALSE;
    }
  return TRUE;
}

static void
add_exit_problem (GPtrArray  *problems,
                  const char *log_path,
                  guint       n_lines,
                  int         exit_code)
{
  const char *why = sl_remote_run_explain_exit (exit_code);
  g_autofree char *message = exit_code >= 0
    ? g_strdup_printf (_("The profiled program exited with %d%s%s"), exit_code, why ? ": " : "", why ? why : "")
    : g_strdup (_("The profiled program ended without an exit code (killed, or the target restarted)"));
  SlProblem *problem = sl_problem_new_at_line (SL_SEVERITY_ERROR, "msprof", log_path, MAX (n_lines, 1), message);

  sl_problem_set_hint (problem, _("The job’s log shows the program’s and msprof’s own messages."));
  g_ptr_array_add (problems, problem);
}

static guint
count_lines (GString *text)
{
  guint n = 0;

  for (gsize i = 0; i < text->len; i++)
    n += text->str[i] == '\n';
  return n;
}

static int
finish (gboolean    json,
        GPtrArray  *problems,
        const char *profile,
        const char *remote,
        const char *log_path,
        const char *local_log,
        int         exit_code)
{
  gboolean ok = profile != NULL && !sl_cli_workflow_has_error (problems);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ok");
      json_builder_add_boolean_value (builder, ok);
      sl_cli_json_add_string (builder, "profile", profile);
      sl_cli_json_add_string (builder, "remote", remote);
      sl_cli_json_add_string (builder, "log", log_path);
      sl_cli_json_add_string (builder, "local_log", local_log);
      json_builder_set_member_name (builder, "exit_code");
      if (exit_code >= 0)
        json_builder_add_int_value (builder, exit_code);
      else
        json_builder_add_null_value (builder);
      sl_cli_workflow_add_problems (builder, problems);
      json_builder_end_object (builder);
      sl_cli_workflow_print_json (builder);
    }
  else
    {
      sl_cli_workflow_print_problems (problems);
      if (profile != NULL)
        printf (_("Profile: %s\n"), profile);
    }
  return ok ? 0 : 1;
}

int
sl_cli_profile_run (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("-- PROGRAM [ARGS…] — profile a program on a target and pull the result"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlRemoteRun) run = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project = NULL;
  g_autofree char *output = NULL;
  g_autofree char *aic_metrics = NULL;
  g_autofree char *env_script = NULL;
  g_autofree char *kind_text = NULL;
  g_autofree char *remote_dir = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *output_dir = NULL;
  g_autofree char *env_setup = NULL;
  g_autofree char *result = NULL;
  g_autofree char *local = NULL;
  g_autofree char *local_log = NULL;
  g_auto(GStrv) tool_argv = NULL;
  g_auto(GStrv) environment = NULL;
  Switches switches = { 0 };
  gboolean dry_run = FALSE;
  gboolean json = FALSE;
  int device = 0;
  int exit_code = -1;
  SlProfilerKind kind;
  SlPreflightSpec spec = { 0 };
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run on (“local” for this computer)"), N_("NAME") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The project folder to upload and run in (default: the current folder)"), N_("DIR") },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir, N_("Where the project goes on the target (default: BASE/sightline/PROJECT)"), N_("DIR") },
    { "output", 0, 0, G_OPTION_ARG_STRING, &output, N_("The output folder on the target, relative to the project there (default: sightline-profile)"), N_("DIR") },
    { "profiler", 0, 0, G_OPTION_ARG_STRING, &kind_text, N_("msprof (default), mindspore or torch_npu"), N_("KIND") },
    { "aic-metrics", 0, 0, G_OPTION_ARG_STRING, &aic_metrics, N_("AI Core metrics: PipeUtilization, ArithmeticUtilization, Memory, MemoryL0, MemoryUB, ResourceConflictRatio or L2Cache"), N_("M") },
    { "task-time", 0, 0, G_OPTION_ARG_STRING, &switches.task_time, N_("Task time (on or off)"), "on|off" },
    { "ai-core", 0, 0, G_OPTION_ARG_STRING, &switches.ai_core, N_("AI Core metrics collection (on or off)"), "on|off" },
    { "ascendcl", 0, 0, G_OPTION_ARG_STRING, &switches.ascendcl, N_("AscendCL API (on or off)"), "on|off" },
    { "runtime-api", 0, 0, G_OPTION_ARG_STRING, &switches.runtime_api, N_("Runtime API (on or off)"), "on|off" },
    { "hccl", 0, 0, G_OPTION_ARG_STRING, &switches.hccl, N_("HCCL communication (on or off)"), "on|off" },
    { "aicpu", 0, 0, G_OPTION_ARG_STRING, &switches.aicpu, N_("AI CPU (on or off)"), "on|off" },
    { "msproftx", 0, 0, G_OPTION_ARG_STRING, &switches.msproftx, N_("msproftx markers (on or off)"), "on|off" },
    { "env-script", 0, 0, G_OPTION_ARG_STRING, &env_script, N_("A script on the target to source first, such as the toolkit’s set_env.sh"), N_("FILE") },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, N_("The device the preflight checks with npu-smi (default 0; -1 to skip)"), N_("ID") },
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
  if (argc >= 2 && g_str_equal (argv[1], "--"))
    {
      argv++;
      argc--;
    }
  if (target_name == NULL || argc < 2)
    {
      sl_cli_print_error (_("profile-run needs --target NAME and a PROGRAM after “--”"));
      return 2;
    }
  if (!parse_kind (kind_text, &kind))
    {
      sl_cli_print_error (_("--profiler is msprof, mindspore or torch_npu, not “%s”"), kind_text);
      return 2;
    }
  if (project == NULL)
    project = g_get_current_dir ();

  sl_msprof_command_set_kind (command, kind);
  sl_msprof_command_set_program (command, (const char * const *)argv + 1);
  sl_msprof_command_set_output (command, output ? output : DEFAULT_OUTPUT);
  sl_msprof_command_set_aic_metrics (command, aic_metrics);
  if (!apply_switches (command, &switches))
    return 2;
  if (!(tool_argv = sl_msprof_command_dup_argv (command, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (env_script != NULL && !sl_workflow_path_check (env_script, _("The environment script"), &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  environment = sl_msprof_command_dup_environment (command);
  env_setup = sl_cli_workflow_dup_env_setup (env_script, (const char * const *)environment);

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  run = sl_remote_run_new (target, project, (const char * const *)tool_argv);
  sl_remote_run_set_remote_dir (run, remote_dir);
  sl_remote_run_set_env_setup (run, env_setup);
  sl_remote_run_set_store_path (run, sl_workspace_store_get_path (store));

  output_dir = g_path_is_absolute (sl_msprof_command_get_output (command))
               ? g_strdup (sl_msprof_command_get_output (command))
               : g_build_path ("/", sl_remote_run_get_remote_dir (run), sl_msprof_command_get_output (command), NULL);
  spec.tool = kind == SL_PROFILER_MSPROF ? "msprof" : NULL;
  spec.env_script = env_script;
  spec.output_dir = output_dir;
  spec.min_free_kb = MIN_FREE_KB;
  spec.device_id = device;
  spec.needs_python = kind != SL_PROFILER_MSPROF || g_str_has_suffix (argv[1], ".py") ||
                      g_str_has_prefix (argv[1], "python");

  if (dry_run)
    {
      g_autofree char *preflight = sl_preflight_dup_script (&spec);
      g_autofree char *launch = sl_remote_run_dup_launch_command (run, &error);
      g_auto(GStrv) export_argv = sl_msprof_dup_export_argv ("PROF_…");
      g_autofree char *export_line = sl_shell_quote_argv ((const char * const *)export_argv);

      if (launch == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      printf ("# %s\n%s", _("Preflight"), preflight);
      printf ("# %s\n%s\n", _("Profile"), launch);
      if (kind == SL_PROFILER_MSPROF)
        printf ("# %s\n%s\n", _("Export, when only raw data came out"), export_line);
      return 0;
    }

  shell = sl_cli_create_shell (target);
  if (!sl_cli_workflow_preflight (shell, &spec, problems))
    return finish (json, problems, NULL, NULL, NULL, NULL, -1);

  {
    g_autofree char *existing = sl_target_shell_resolve_dir (shell, output_dir, FALSE, NULL, NULL);

    before = existing ? list_results (shell, existing) : g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  }
  if (!sl_cli_workflow_run_job (run, sl_workspace_store_get_path (store), (const char * const *)tool_argv,
                                log, &exit_code, &error))
    {
      g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, "job", NULL, -1, error->message));
      return finish (json, problems, NULL, NULL, NULL, NULL, -1);
    }
  local_log = sl_cli_workflow_save_log (target, sl_remote_run_get_log_path (run), log);

  resolved = sl_target_shell_resolve_dir (shell, output_dir, FALSE, NULL, NULL);
  result = resolved ? find_result (shell, resolved, before) : NULL;
  if (exit_code != 0)
    add_exit_problem (problems, sl_remote_run_get_log_path (run), count_lines (log), exit_code);
  if (result == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("No PROF_* or *_ascend_pt folder came out in %s"), output_dir);
      SlProblem *problem = sl_problem_new (SL_SEVERITY_ERROR, "msprof", sl_remote_run_get_log_path (run), -1, message);

      sl_problem_set_hint (problem, _("The profiler did not start or wrote elsewhere; the job’s log says why."));
      g_ptr_array_add (problems, problem);
      return finish (json, problems, NULL, NULL, sl_remote_run_get_log_path (run), local_log, exit_code);
    }

  if (needs_export (shell, result) && !export_result (shell, env_setup, result, problems))
    return finish (json, problems, NULL, result, sl_remote_run_get_log_path (run), local_log, exit_code);

  if (!(local = sl_cli_workflow_dup_cache_path (target, result, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  {
    g_autoptr(SlPullResult) pulled = sl_folder_pull (shell, result, local, NULL, NULL, NULL, &error);

    if (pulled == NULL)
      {
        g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, "pull", result, -1, error->message));
        return finish (json, problems, NULL, result, sl_remote_run_get_log_path (run), local_log, exit_code);
      }
  }
  return finish (json, problems, local, result, sl_remote_run_get_log_path (run), local_log, exit_code);
}
