/* sl-window-workflows.c: the window's Profile a Program and Convert a Model
 *
 * Both dialogs end in a job like Run's: the project uploaded to the
 * target, the tool started there detached with the environment script
 * sourced first, its log streamed into the Console, and on a server the
 * output folder pulled and opened in the Workspace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-atc-dialog.h"
#include "sl-job-controller.h"
#include "sl-profile-dialog.h"
#include "sl-shell-quote.h"
#include "sl-window-private.h"

/* sh -c '. SCRIPT && exec TOOL…': the job controller runs an argv, and
 * sourcing needs a shell. */
static char *
dup_command_line (const char * const *tool_argv,
                  const char         *env_script,
                  const char * const *environment)
{
  g_autofree char *tool = sl_shell_quote_argv (tool_argv);
  g_autoptr(GString) script = g_string_new (NULL);
  const char *argv[4] = { "sh", "-c", NULL, NULL };

  if (env_script == NULL && (environment == NULL || environment[0] == NULL))
    return sl_job_controller_quote_argv (tool_argv);

  if (env_script != NULL)
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (env_script);

      g_string_append_printf (script, ". %s && ", quoted);
    }
  for (guint i = 0; environment != NULL && environment[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (environment[i], strchr (environment[i], '=') - environment[i]);
      g_autofree char *value = sl_shell_quote (strchr (environment[i], '=') + 1);

      g_string_append_printf (script, "export %s=%s && ", name, value);
    }
  g_string_append_printf (script, "exec %s", tool);
  argv[2] = script->str;
  return sl_job_controller_quote_argv (argv);
}

static void
start_job (SlWindow   *self,
           gint64      target_id,
           const char *command_line,
           const char *project_dir,
           const char *pull_dir)
{
  g_autoptr(GError) error = NULL;

  if (target_id <= 0)
    {
      sl_window_run_command (self, command_line, project_dir);
      return;
    }
  if (!sl_window_run_on_target (self, target_id, command_line, project_dir, pull_dir, NULL, NULL, &error))
    sl_window_show_toast (self, error->message);
}

static void
profile_start_cb (SlWindow        *self,
                  gint64           target_id,
                  const char      *project_dir,
                  const char      *env_script,
                  SlProfileDialog *dialog)
{
  SlMsprofCommand *command = sl_profile_dialog_get_command (dialog);
  g_auto(GStrv) argv = sl_msprof_command_dup_argv (command, NULL);
  g_auto(GStrv) environment = sl_msprof_command_dup_environment (command);
  g_autofree char *command_line = NULL;
  const char *output = sl_msprof_command_get_output (command);

  if (argv == NULL)
    return;
  command_line = dup_command_line ((const char * const *)argv, env_script, (const char * const *)environment);
  /* An output folder inside the project is pulled as the job runs. */
  start_job (self, target_id, command_line, project_dir, g_path_is_absolute (output) ? NULL : output);
}

static void
atc_convert_cb (SlWindow    *self,
                gint64       target_id,
                const char  *project_dir,
                const char  *env_script,
                SlAtcDialog *dialog)
{
  g_auto(GStrv) argv = sl_atc_command_dup_argv (sl_atc_dialog_get_command (dialog), NULL);
  g_autofree char *command_line = NULL;

  if (argv == NULL)
    return;
  command_line = dup_command_line ((const char * const *)argv, env_script, NULL);
  start_job (self, target_id, command_line, project_dir, NULL);
}

static const char *
current_folder (SlWindow *self)
{
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint n = g_list_model_get_n_items (folders);
  g_autoptr(SlFolder) last = n > 0 ? g_list_model_get_item (folders, n - 1) : NULL;

  return last ? sl_folder_get_path (last) : NULL;
}

static void
profile_program_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlProfileDialog *dialog = sl_profile_dialog_new (current_folder (self));

  sl_profile_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  g_signal_connect_object (dialog, "start", G_CALLBACK (profile_start_cb), self, G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
convert_model_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlAtcDialog *dialog = sl_atc_dialog_new (current_folder (self));

  sl_atc_dialog_set_targets (dialog, sl_workspace_get_targets (self->workspace), 0);
  g_signal_connect_object (dialog, "convert", G_CALLBACK (atc_convert_cb), self, G_CONNECT_SWAPPED);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_sl_window_class_add_workflow_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.profile-program", NULL, profile_program_action);
  gtk_widget_class_install_action (widget_class, "win.convert-model", NULL, convert_model_action);
}
