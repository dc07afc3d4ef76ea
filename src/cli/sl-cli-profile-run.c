/* sl-cli-profile-run.c: sightline-cli profile-run
 *
 * Profiles a program on a target: the preflight, the program run under
 * msprof (or MindSpore's or torch_npu's profiler) as a job, then the
 * newest PROF_* (or *_ascend_pt, *_ascend_ms) folder of the output
 * folder exported on the target when only raw data came out, and pulled.
 * Every msprof option the builder knows (and so the Profile dialog sets)
 * is an option here by msprof's own name. --json gives `profile`, the
 * local folder, and `problems`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-msprof-command.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-workflow-path.h"

#define DEFAULT_OUTPUT "sightline-profile"

/* Every msprof option the command builder knows, as --NAME VALUE: the
 * same names and values as msprof's, checked as they are given. */
static gboolean
msprof_option_cb (const char  *option_name,
                  const char  *value,
                  gpointer     data,
                  GError     **error)
{
  SlMsprofCommand *command = data;

  return sl_msprof_command_apply_option (command, option_name + 2, value, error);
}

static GOptionEntry *
dup_msprof_entries (void)
{
  guint n = 0;
  const SlMsprofOption *options = sl_msprof_options (&n);
  GOptionEntry *entries = g_new0 (GOptionEntry, n + 1);

  for (guint i = 0; i < n; i++)
    {
      entries[i].long_name = options[i].name;
      entries[i].arg = G_OPTION_ARG_CALLBACK;
      entries[i].arg_data = (gpointer)msprof_option_cb;
      entries[i].description = options[i].description;
      entries[i].arg_description = options[i].value_name;
    }
  return entries;
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

static void
log_cb (SlProfileWorkflow *workflow,
        GBytes            *data)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  fwrite (bytes, 1, size, stderr);
}

static void
message_cb (SlProfileWorkflow *workflow,
            const char        *text)
{
  g_printerr ("sightline-cli: %s\n", text);
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
      sl_cli_json_print (builder);
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
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project = NULL;
  g_autofree char *output = NULL;
  g_autofree char *env_script = NULL;
  g_autofree GOptionEntry *msprof_entries = dup_msprof_entries ();
  GOptionGroup *group;
  g_autofree char *kind_text = NULL;
  g_autofree char *remote_dir = NULL;
  g_auto(GStrv) tool_argv = NULL;
  gboolean dry_run = FALSE;
  gboolean json = FALSE;
  int device = 0;
  SlProfilerKind kind;
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run on (“local” for this computer)"), N_("NAME") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The project folder to upload and run in (default: the current folder)"), N_("DIR") },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir, N_("Where the project goes on the target (default: BASE/PROJECT; BASE is the target’s folder for projects, ~/sightline when it has none)"), N_("DIR") },
    { "output", 0, 0, G_OPTION_ARG_STRING, &output, N_("The output folder on the target, relative to the project there (default: sightline-profile)"), N_("DIR") },
    { "profiler", 0, 0, G_OPTION_ARG_STRING, &kind_text, N_("msprof (default), mindspore or torch_npu"), N_("KIND") },
    { "env-script", 0, 0, G_OPTION_ARG_STRING, &env_script, N_("A script on the target to source first, such as the toolkit’s set_env.sh"), N_("FILE") },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, N_("The device the preflight checks with npu-smi (default 0; -1 to skip)"), N_("ID") },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run, N_("Print the exact commands, and do nothing"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  /* The msprof options' callbacks set the command, the group's data. */
  group = g_option_group_new (NULL, NULL, NULL, command, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_add_entries (group, msprof_entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
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
  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  workflow = sl_profile_workflow_new (target, project, command);
  sl_profile_workflow_set_env_script (workflow, env_script);
  sl_profile_workflow_set_remote_dir (workflow, remote_dir);
  sl_profile_workflow_set_device (workflow, device);
  sl_profile_workflow_set_store_path (workflow, sl_workspace_store_get_path (store));

  if (dry_run)
    {
      g_autofree char *text = sl_profile_workflow_dup_dry_run (workflow, &error);

      if (text == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      printf ("%s", text);
      return 0;
    }

  shell = sl_cli_create_shell (target);
  sl_profile_workflow_set_shell (workflow, shell);
  g_signal_connect (workflow, "log", G_CALLBACK (log_cb), NULL);
  g_signal_connect (workflow, "message", G_CALLBACK (message_cb), NULL);
  if (!sl_cli_workflow_run (SL_WORKFLOW (workflow), &error))
    {
      sl_cli_print_error ("%s", error->message);
      return sl_cli_interrupted_exit_status (error);
    }
  return finish (json, sl_profile_workflow_get_problems (workflow), sl_profile_workflow_get_profile (workflow),
                 sl_profile_workflow_get_remote (workflow), sl_profile_workflow_get_log_path (workflow),
                 sl_profile_workflow_get_local_log (workflow), sl_profile_workflow_get_exit_code (workflow));
}
