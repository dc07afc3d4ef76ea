/* sl-cli-convert.c: sightline-cli convert
 *
 * Converts a model with ATC on a target through SlConvertWorkflow: every
 * field checked before the run, then the preflight, the job, the logs
 * pulled and parsed. --json gives `ok`, `output` (the .om path on the
 * target), `log` and `local_log`, `plogs` and `problems` (each with its
 * code, message, option, log, local_log and line).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-atc-command.h"
#include "sl-cli.h"
#include "sl-convert-workflow.h"
#include "sl-problem.h"
#include "sl-workflow-path.h"

static void
add_plogs (JsonBuilder       *builder,
           SlConvertWorkflow *workflow)
{
  const char * const *plogs = workflow ? sl_convert_workflow_get_plogs (workflow) : NULL;
  const char * const *local = workflow ? sl_convert_workflow_get_local_plogs (workflow) : NULL;

  json_builder_set_member_name (builder, "plogs");
  json_builder_begin_array (builder);
  for (guint i = 0; plogs != NULL && plogs[i] != NULL; i++)
    {
      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "path", plogs[i]);
      sl_cli_json_add_string (builder, "local", local && local[i][0] ? local[i] : NULL);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static int
finish (gboolean           json,
        GPtrArray         *problems,
        SlConvertWorkflow *workflow)
{
  gboolean ok = workflow != NULL && sl_convert_workflow_succeeded (workflow);
  const char *om_path = ok ? sl_convert_workflow_get_output (workflow) : NULL;

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ok");
      json_builder_add_boolean_value (builder, ok);
      sl_cli_json_add_string (builder, "output", om_path);
      sl_cli_json_add_string (builder, "local_output", ok ? sl_convert_workflow_get_local_output (workflow) : NULL);
      sl_cli_json_add_string (builder, "log", workflow ? sl_convert_workflow_get_log_path (workflow) : NULL);
      sl_cli_json_add_string (builder, "local_log", workflow ? sl_convert_workflow_get_local_log (workflow) : NULL);
      add_plogs (builder, workflow);
      sl_cli_workflow_add_problems (builder, problems);
      json_builder_end_object (builder);
      sl_cli_json_print (builder);
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
log_cb (SlConvertWorkflow *workflow,
        GBytes            *data)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  fwrite (bytes, 1, size, stderr);
}

static void
message_cb (SlConvertWorkflow *workflow,
            const char        *text)
{
  g_printerr ("sightline-cli: %s\n", text);
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
  g_autoptr(SlConvertWorkflow) workflow = NULL;
  g_autoptr(GPtrArray) validation = NULL;
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
  g_auto(GStrv) atc_argv = NULL;
  SlAtcFramework framework = SL_ATC_FRAMEWORK_NONE;
  gboolean dry_run = FALSE;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run on (“local” for this computer)"), N_("NAME") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The project folder to upload and run in (default: the current folder)"), N_("DIR") },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir, N_("Where the project goes on the target (default: BASE/PROJECT; BASE is the target’s folder for projects, ~/sightline when it has none)"), N_("DIR") },
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

  validation = sl_atc_command_validate (command);
  if (!(atc_argv = sl_atc_command_dup_argv (command, NULL)))
    {
      finish (json, validation, NULL);
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

  workflow = sl_convert_workflow_new (target, project, command);
  sl_convert_workflow_set_env_script (workflow, env_script);
  sl_convert_workflow_set_remote_dir (workflow, remote_dir);
  sl_convert_workflow_set_store_path (workflow, sl_workspace_store_get_path (store));
  if (dry_run)
    {
      g_autofree char *text = sl_convert_workflow_dup_dry_run (workflow, &error);

      if (text == NULL)
        {
          sl_cli_print_error ("%s", error->message);
          return 1;
        }
      printf ("%s", text);
      return 0;
    }

  shell = sl_cli_create_shell (target);
  sl_convert_workflow_set_shell (workflow, shell);
  g_signal_connect (workflow, "log", G_CALLBACK (log_cb), NULL);
  g_signal_connect (workflow, "message", G_CALLBACK (message_cb), NULL);
  if (!sl_cli_workflow_run (SL_WORKFLOW (workflow), &error))
    {
      sl_cli_print_error ("%s", error->message);
      return sl_cli_interrupted_exit_status (error);
    }
  return finish (json, sl_convert_workflow_get_problems (workflow), workflow);
}
