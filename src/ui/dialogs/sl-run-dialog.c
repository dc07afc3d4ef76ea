/* sl-run-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-dialog-fit.h"
#include "sl-dialog-memory.h"
#include "sl-dialog-project.h"
#include "sl-job-controller.h"
#include "sl-mindx-env.h"
#include "sl-mindx-workflow.h"
#include "sl-remote-run.h"
#include "sl-slurm-config.h"
#include "sl-slurm-job-backend.h"
#include "sl-run-dialog.h"
#include "sl-shell-quote.h"
#include "sl-project-record.h"
#include "sl-target-record.h"

struct _SlRunDialog
{
  AdwWindow    parent_instance;

  GListModel  *targets;         /* SlTargetRecord */
  GPtrArray   *choices;         /* ConfigChoice, for config_row after its first "none" entry */

  AdwComboRow *config_row;
  AdwEntryRow *command_row;
  AdwEntryRow *folder_row;
  AdwComboRow *target_row;
  AdwEntryRow *pull_row;
  AdwComboRow *backend_row;
  AdwPreferencesGroup *slurm_group;
  AdwEntryRow *nodes_row;
  AdwEntryRow *ntasks_row;
  AdwEntryRow *per_node_row;
  AdwEntryRow *devices_row;
  AdwEntryRow *gres_row;
  AdwEntryRow *partition_row;
  AdwEntryRow *time_row;
  AdwEntryRow *account_row;
  AdwComboRow *launcher_row;
  GtkSwitch   *per_task_switch;
  GtkWidget   *preview_box;
  GtkLabel    *preview_lead;
  GtkLabel    *preview_where;
  GtkExpander *wrapper_expander;
  GtkLabel    *command_preview;   /* the wrapper: exactly what is sent */
  GtkLabel    *error_label;
  GtkWidget   *run_button;

  char        *mindx_command;   /* the command row as a MindX configuration filled it */
  char        *kept_device_env;  /* the chosen configuration's, which has no field here */
};

G_DEFINE_FINAL_TYPE (SlRunDialog, sl_run_dialog, ADW_TYPE_WINDOW)

enum {
  RUN,
  RUN_ON_TARGET,
  RUN_ON_SLURM,
  RUN_MINDX,
  RUN_PROFILE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  SlProjectRecord   *project;
  SlRunConfigRecord *config;
} ConfigChoice;

/* The fields kept per project between openings. */
static const char * const remembered_fields[] = {
  "command_row", "backend_row", "pull_row", "nodes_row", "ntasks_row", "per_node_row", "devices_row", "gres_row",
  "partition_row", "time_row", "account_row", "launcher_row", "per_task_switch", NULL
};

static ConfigChoice *selected_mindx_choice (SlRunDialog *self);
static char         *check_mindx_choice    (SlRunDialog *self,
                                            ConfigChoice *choice);

static gboolean
wants_slurm (SlRunDialog *self)
{
  return adw_combo_row_get_selected (self->backend_row) == 1;
}

static const char *
row_text (AdwEntryRow *row)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));

  return text[0] != '\0' ? text : NULL;
}

static gboolean
read_count (AdwEntryRow  *row,
            guint        *value,
            GError      **error)
{
  const char *text = row_text (row);
  guint64 number = 0;

  *value = 0;
  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 1, 100000, &number, NULL))
    {
      /* TRANSLATORS: %s is a field of the Slurm options, such as Nodes */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s needs a whole number from 1"),
                   adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
      return FALSE;
    }
  *value = (guint)number;
  return TRUE;
}

static SlSlurmOptions *read_slurm_fields (SlRunDialog  *self,
                                          GError      **error);

/**
 * sl_run_dialog_dup_slurm_options:
 *
 * Returns: (transfer full) (nullable): the Slurm options typed, or %NULL
 *   with @error set when the job is not submitted to Slurm or a field is
 *   not valid
 */
SlSlurmOptions *
sl_run_dialog_dup_slurm_options (SlRunDialog  *self,
                                 GError      **error)
{
  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), NULL);

  if (!wants_slurm (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("The job is started directly"));
      return NULL;
    }
  return read_slurm_fields (self, error);
}

/* The Slurm fields as they are, whichever way the job starts. */
static SlSlurmOptions *
read_slurm_fields (SlRunDialog  *self,
                   GError      **error)
{
  g_autoptr(SlSlurmOptions) options = sl_slurm_options_new ();

  if (!read_count (self->nodes_row, &options->nodes, error) ||
      !read_count (self->ntasks_row, &options->ntasks, error) ||
      !read_count (self->per_node_row, &options->ntasks_per_node, error) ||
      !read_count (self->devices_row, &options->devices_per_node, error))
    return NULL;
  options->device_gres = g_strdup (row_text (self->gres_row));
  options->partition = g_strdup (row_text (self->partition_row));
  options->time_limit = g_strdup (row_text (self->time_row));
  options->account = g_strdup (row_text (self->account_row));
  options->launcher = MIN (adw_combo_row_get_selected (self->launcher_row), SL_SLURM_LAUNCHER_NONE);
  options->per_task_logs = gtk_switch_get_active (self->per_task_switch);
  options->device_env = g_strdup (self->kept_device_env);
  if (options->devices_per_node > 0 && options->device_gres == NULL && options->device_env == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Devices per node needs the GRES they are asked as, such as npu or gpu"));
      return NULL;
    }
  if (!sl_slurm_options_validate (options, error))
    return NULL;
  return g_steal_pointer (&options);
}

/**
 * sl_run_dialog_validate:
 * @message: (out) (optional): why the input cannot be run
 *
 * Returns: %TRUE when the command parses and the folder exists
 */
gboolean
sl_run_dialog_validate (SlRunDialog  *self,
                        char        **message)
{
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlSlurmOptions) slurm = NULL;
  char *why = NULL;

  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), FALSE);

  if (command[0] == '\0')
    why = g_strdup (_("Type the command to run, for example: python3 train.py --epochs 3"));
  else if (selected_mindx_choice (self) != NULL)
    why = check_mindx_choice (self, selected_mindx_choice (self));
  else if (wants_slurm (self) && !(slurm = sl_run_dialog_dup_slurm_options (self, &error)))
    why = g_strdup (error->message);
  else if (!g_shell_parse_argv (command, NULL, &argv, &error))
    why = g_strdup_printf (_("The command cannot be read: %s"), error->message);
  else if (folder[0] != '\0' && !g_file_test (folder, G_FILE_TEST_IS_DIR))
    why = g_strdup_printf (_("The folder %s does not exist"), folder);

  if (message != NULL)
    *message = why;
  else
    g_free (why);

  return why == NULL;
}

static void
config_choice_free (gpointer data)
{
  ConfigChoice *choice = data;

  g_clear_object (&choice->project);
  g_clear_object (&choice->config);
  g_free (choice);
}

/* MX_SDK_HOME in an inference configuration's environment makes it a
 * MindX SDK app. */
static const char *
mindx_sdk_home (SlRunConfigRecord *config)
{
  const char * const *env = sl_run_config_record_get_environment (config);

  if (sl_run_config_record_get_kind (config) != SL_RUN_CONFIG_KIND_INFER)
    return NULL;
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    if (g_str_has_prefix (env[i], "MX_SDK_HOME="))
      return env[i] + strlen ("MX_SDK_HOME=");
  return NULL;
}

/* A MindX app runs in the environment the SDK's run.sh sets up (library,
 * plugin and Python paths from the SDK home), so through sh -c; %NULL
 * when the SDK home or the entry script would be refused. */
static char *
mindx_command_line (SlRunConfigRecord *config,
                    const char        *sdk_home)
{
  g_autofree char *setup = sl_mindx_dup_env_setup (sdk_home, NULL, NULL);
  g_auto(GStrv) argv = sl_mindx_dup_argv (sl_run_config_record_get_command (config),
                                          sl_run_config_record_get_arguments (config), NULL);
  g_autofree char *app = NULL;
  g_autofree char *script = NULL;
  const char *sh[4] = { "sh", "-c", NULL, NULL };

  if (setup == NULL || argv == NULL)
    return NULL;
  app = sl_shell_quote_argv ((const char * const *)argv);
  {
    /* One line, as the command row shows it. */
    GString *line = g_string_new (setup);

    g_string_replace (line, "\n", "; ", 0);
    g_string_append_printf (line, "exec %s", app);
    script = g_string_free (line, FALSE);
  }
  sh[2] = script;
  return sl_job_controller_quote_argv (sh);
}

/* A MindX SDK app configuration's command as the row shows it; its
 * environment is in the preview, and the run is the MindX workflow's. */
static char *
mindx_app_command_line (SlRunConfigRecord *config)
{
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_from_config (config);
  g_auto(GStrv) argv = sl_mindx_dup_argv (settings->entry ? settings->entry : "",
                                          sl_run_config_record_get_arguments (config), NULL);

  return argv ? sl_shell_quote_argv ((const char * const *)argv) : g_strdup (settings->entry ? settings->entry : "");
}

/* A run configuration as one command line: environment first (through
 * env), then the command and its arguments, each quoted. */
static char *
config_command_line (SlRunConfigRecord *config)
{
  const char * const *env = sl_run_config_record_get_environment (config);
  const char * const *args = sl_run_config_record_get_arguments (config);
  const char *sdk_home = mindx_sdk_home (config);
  GString *line;

  if (sl_run_config_record_get_kind (config) == SL_RUN_CONFIG_KIND_MINDX)
    return mindx_app_command_line (config);
  if (sdk_home != NULL)
    {
      char *mindx = mindx_command_line (config, sdk_home);

      if (mindx != NULL)
        return mindx;
    }

  line = g_string_new (NULL);

  if (env != NULL && env[0] != NULL)
    {
      g_string_append (line, "env");
      for (guint i = 0; env[i] != NULL; i++)
        {
          g_autofree char *quoted = g_shell_quote (env[i]);

          g_string_append_printf (line, " %s", quoted);
        }
      g_string_append_c (line, ' ');
    }
  g_string_append (line, sl_run_config_record_get_command (config));
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (args[i]);

      g_string_append_printf (line, " %s", quoted);
    }
  return g_string_free (line, FALSE);
}

static void
select_target (SlRunDialog *self,
               gint64       target_id)
{
  for (guint i = 0; self->targets != NULL && i < g_list_model_get_n_items (self->targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (self->targets, i);

      if (sl_target_record_get_id (record) == target_id)
        adw_combo_row_set_selected (self->target_row, i);
    }
}

static void
set_count_text (AdwEntryRow *row,
                guint        value)
{
  g_autofree char *text = value > 0 ? g_strdup_printf ("%u", value) : g_strdup ("");

  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

/* The Slurm choices a configuration was last run with; one without any
 * starts directly with empty fields, as a new dialog does. */
static void
apply_config_slurm (SlRunDialog       *self,
                    SlRunConfigRecord *config)
{
  gboolean enabled = FALSE;
  g_autoptr(SlSlurmOptions) options = sl_slurm_config_read (config, &enabled);

  if (options == NULL)
    options = sl_slurm_options_new ();
  g_free (self->kept_device_env);
  self->kept_device_env = g_strdup (options->device_env);
  set_count_text (self->nodes_row, options->nodes);
  set_count_text (self->ntasks_row, options->ntasks);
  set_count_text (self->per_node_row, options->ntasks_per_node);
  set_count_text (self->devices_row, options->devices_per_node);
  gtk_editable_set_text (GTK_EDITABLE (self->gres_row), options->device_gres ? options->device_gres : "");
  gtk_editable_set_text (GTK_EDITABLE (self->partition_row), options->partition ? options->partition : "");
  gtk_editable_set_text (GTK_EDITABLE (self->time_row), options->time_limit ? options->time_limit : "");
  gtk_editable_set_text (GTK_EDITABLE (self->account_row), options->account ? options->account : "");
  adw_combo_row_set_selected (self->launcher_row, options->launcher);
  gtk_switch_set_active (self->per_task_switch, options->per_task_logs);
  adw_combo_row_set_selected (self->backend_row, enabled ? 1 : 0);
}

static void
config_selected_cb (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);
  ConfigChoice *choice;
  g_autofree char *command = NULL;
  g_autofree char *pulls = NULL;
  const char * const *pull_folders;

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->config_row), NULL);
  if (self->choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION ||
      selected > self->choices->len)
    return;

  choice = g_ptr_array_index (self->choices, selected - 1);
  command = config_command_line (choice->config);
  pull_folders = sl_run_config_record_get_pull_folders (choice->config);
  pulls = pull_folders ? g_strjoinv (" ", (char **)pull_folders) : NULL;

  g_free (self->mindx_command);
  self->mindx_command = sl_run_config_record_get_kind (choice->config) == SL_RUN_CONFIG_KIND_MINDX ? g_strdup (command) : NULL;
  gtk_editable_set_text (GTK_EDITABLE (self->command_row), command);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), sl_project_record_get_local_folder (choice->project));
  gtk_editable_set_text (GTK_EDITABLE (self->pull_row), pulls ? pulls : "");
  select_target (self, sl_project_record_get_target_id (choice->project));
  apply_config_slurm (self, choice->config);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->config_row),
                               sl_run_config_record_get_kind (choice->config) == SL_RUN_CONFIG_KIND_PROFILE
                               ? _("Run opens the Profile dialog with the configuration’s profiling choices")
                               : NULL);
}

/* The chosen target's record, this computer's included. */
static SlTargetRecord *
selected_target (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->target_row);
  g_autoptr(SlTargetRecord) record = NULL;

  if (self->targets == NULL || selected == GTK_INVALID_LIST_POSITION ||
      selected >= g_list_model_get_n_items (self->targets))
    return NULL;

  record = g_list_model_get_item (self->targets, selected);
  return record;
}

/* The chosen target's record, or NULL for this computer. */
static SlTargetRecord *
selected_remote_target (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->target_row);
  g_autoptr(SlTargetRecord) record = NULL;

  if (self->targets == NULL || selected == GTK_INVALID_LIST_POSITION ||
      selected >= g_list_model_get_n_items (self->targets))
    return NULL;

  record = g_list_model_get_item (self->targets, selected);
  return sl_target_record_get_kind (record) == SL_TARGET_KIND_SSH ? record : NULL;
}

/* The user's command first, where it runs under it, and what is sent
 * exactly (the job's wrapper) folded below. */
static void
show_preview (SlRunDialog *self,
              const char  *command,
              const char  *where,
              const char  *wrapper)
{
  gtk_label_set_label (self->preview_lead, command);
  gtk_label_set_label (self->preview_where, where);
  gtk_widget_set_visible (GTK_WIDGET (self->preview_where), where != NULL && where[0] != '\0');
  gtk_label_set_label (self->command_preview, wrapper);
  gtk_widget_set_visible (self->preview_box, TRUE);
}

/* The remote folder of the chosen configuration's project, which the
 * run is given (see run_on_target_cb() in the window). */
static const char *
remote_folder_of_choice (SlRunDialog *self)
{
  SlProjectRecord *project = sl_run_dialog_get_project (self);

  return project ? sl_project_record_get_remote_folder (project) : NULL;
}

/* Before a first run on a server, the exact command it will be sent. */
static void
update_preview (SlRunDialog *self,
                gboolean     valid)
{
  SlTargetRecord *record = selected_remote_target (self);
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autofree char *launch = NULL;
  g_autofree char *text = NULL;
  g_autofree char *where = NULL;
  g_auto(GStrv) argv = NULL;

  g_autoptr(SlSlurmOptions) slurm = wants_slurm (self) ? sl_run_dialog_dup_slurm_options (self, NULL) : NULL;
  g_autofree char *script = NULL;

  /* A Slurm job can be submitted from this computer too. */
  if (record == NULL && slurm != NULL)
    record = selected_target (self);

  gtk_widget_set_visible (GTK_WIDGET (self->slurm_group), wants_slurm (self));
  gtk_widget_set_visible (GTK_WIDGET (self->pull_row), record != NULL);
  gtk_widget_set_visible (self->preview_box, FALSE);
  if (record == NULL || !valid || !g_shell_parse_argv (command, NULL, &argv, NULL) ||
      (target = sl_target_new_from_record (record, NULL)) == NULL)
    return;

  run = sl_remote_run_new (target, folder[0] ? folder : g_get_home_dir (), (const char * const *)argv);
  sl_remote_run_set_remote_dir (run, remote_folder_of_choice (self));
  sl_remote_run_set_slurm_options (run, slurm);

  /* The script once, then only the sbatch call: the whole submit
   * command holds the script a second time. */
  if (slurm != NULL)
    {
      if (!sl_remote_run_dup_slurm_preview (run, &script, &launch, NULL))
        return;
      g_strchomp (script);
      /* TRANSLATORS: followed by a batch script, then a shell command */
      text = g_strdup_printf ("%s\n%s\n%s\n%s", _("This batch script is submitted with sbatch:"), script,
                              _("by this command:"), launch);
      if (sl_target_record_get_kind (record) == SL_TARGET_KIND_SSH)
        /* TRANSLATORS: %s is a folder on the target */
        where = g_strdup_printf (_("Submitted to Slurm in %s on the target, after the folder is uploaded there"),
                                 sl_remote_run_get_remote_dir (run));
      else
        /* TRANSLATORS: %s is a folder on this computer */
        where = g_strdup_printf (_("Submitted to Slurm from this computer, in %s"), sl_remote_run_get_remote_dir (run));
    }
  else if ((launch = sl_remote_run_dup_launch_command (run, NULL)) == NULL)
    return;
  else
    {
      /* TRANSLATORS: followed by a shell command on the next line */
      text = g_strdup_printf ("%s\n%s", _("The folder is uploaded to the target, then this runs there:"), launch);
      /* TRANSLATORS: %s is a folder on the target */
      where = g_strdup_printf (_("Runs in %s on the target, after the folder is uploaded there"),
                               sl_remote_run_get_remote_dir (run));
    }
  show_preview (self, command, where, text);
}

/* MindX SDK app configurations */

/* The chosen run configuration when it is a MindX app and its command
 * row is as the configuration filled it; a command typed over it is run
 * as typed. */
static ConfigChoice *
selected_mindx_choice (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);
  ConfigChoice *choice;

  if (self->mindx_command == NULL || self->choices == NULL || selected == 0 ||
      selected == GTK_INVALID_LIST_POSITION || selected > self->choices->len)
    return NULL;
  choice = g_ptr_array_index (self->choices, selected - 1);
  if (sl_run_config_record_get_kind (choice->config) != SL_RUN_CONFIG_KIND_MINDX ||
      !g_str_equal (gtk_editable_get_text (GTK_EDITABLE (self->command_row)), self->mindx_command))
    return NULL;
  return choice;
}

static SlMindxWorkflow *
create_mindx_workflow (SlRunDialog  *self,
                       ConfigChoice *choice)
{
  SlTargetRecord *record = selected_target (self);
  g_autoptr(SlTarget) target = record ? sl_target_new_from_record (record, NULL) : NULL;

  if (target == NULL)
    return NULL;
  return sl_mindx_workflow_new_for_config (target, sl_project_record_get_local_folder (choice->project), choice->config);
}

/* Why the MindX configuration cannot run, or NULL. The pipeline is only
 * looked for here: it is read and checked when the run starts. */
static char *
check_mindx_choice (SlRunDialog  *self,
                    ConfigChoice *choice)
{
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_from_config (choice->config);
  g_autoptr(GError) error = NULL;

  if (wants_slurm (self))
    return g_strdup (_("A MindX SDK app is started directly, not through Slurm: set Start back to Directly"));
  if (!sl_mindx_settings_check_sdk_home (settings->sdk_home, &error) ||
      !sl_mindx_settings_check_entry (settings->entry, &error) ||
      (settings->pipeline != NULL &&
       !sl_mindx_settings_check_pipeline_path (sl_project_record_get_local_folder (choice->project), settings->pipeline, &error)))
    /* TRANSLATORS: %s says what is wrong with a field of the run configuration */
    return g_strdup_printf (_("%s (edit the run configuration in Projects)"), error->message);
  return NULL;
}

/* The exact environment and command, on this computer too. */
static void
update_mindx_preview (SlRunDialog *self,
                      gboolean     valid)
{
  ConfigChoice *choice = selected_mindx_choice (self);
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autofree char *preview = NULL;
  g_autofree char *text = NULL;

  if (choice == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->pull_row), FALSE);
  gtk_widget_set_visible (self->preview_box, FALSE);
  if (!valid || !(workflow = create_mindx_workflow (self, choice)) ||
      !(preview = sl_mindx_workflow_dup_preview (workflow, NULL)))
    return;
  /* TRANSLATORS: followed by the environment and the command, one a line */
  text = g_strdup_printf ("%s\n%s", _("The project is uploaded, the pipeline checked, then this runs on the target:"),
                          g_strchomp (preview));
  show_preview (self, gtk_editable_get_text (GTK_EDITABLE (self->command_row)),
                _("Runs in the MindX SDK’s environment, after the project is uploaded and its pipeline checked"), text);
}

/* Hands the configuration to whoever runs MindX apps; FALSE when the
 * run is not a MindX configuration's. */
static gboolean
run_mindx_choice (SlRunDialog *self)
{
  ConfigChoice *choice = selected_mindx_choice (self);
  SlTargetRecord *record = selected_target (self);

  if (choice == NULL)
    return FALSE;
  g_signal_emit (self, signals[RUN_MINDX], 0, choice->project, choice->config,
                 record ? sl_target_record_get_id (record) : 0);
  return TRUE;
}

static void
validate_cb (SlRunDialog *self)
{
  g_autofree char *message = NULL;
  gboolean valid = sl_run_dialog_validate (self, &message);
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));

  /* An empty command is not an error yet: it is where everyone starts. */
  gtk_label_set_label (self->error_label, command[0] ? message : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), !valid && command[0]);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.run", valid);
  update_preview (self, valid);
  update_mindx_preview (self, valid);
}

/* A profile configuration runs through the Profile dialog, which shows
 * and runs its profiling choices; FALSE when the chosen one is not. */
static gboolean
run_profile_choice (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);
  ConfigChoice *choice;

  if (self->choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->choices->len)
    return FALSE;
  choice = g_ptr_array_index (self->choices, selected - 1);
  if (sl_run_config_record_get_kind (choice->config) != SL_RUN_CONFIG_KIND_PROFILE)
    return FALSE;
  g_signal_emit (self, signals[RUN_PROFILE], 0, choice->project, choice->config);
  return TRUE;
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlRunDialog *self = SL_RUN_DIALOG (widget);
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));

  SlTargetRecord *remote;

  if (!sl_run_dialog_validate (self, NULL))
    return;

  if (run_profile_choice (self) || run_mindx_choice (self))
    ;
  else if (wants_slurm (self) && (remote = selected_target (self)) != NULL)
    {
      g_autoptr(SlSlurmOptions) slurm = sl_run_dialog_dup_slurm_options (self, NULL);

      g_signal_emit (self, signals[RUN_ON_SLURM], 0, sl_target_record_get_id (remote),
                     gtk_editable_get_text (GTK_EDITABLE (self->command_row)),
                     folder[0] ? folder : g_get_home_dir (),
                     gtk_editable_get_text (GTK_EDITABLE (self->pull_row)), slurm);
    }
  else if ((remote = selected_remote_target (self)) != NULL)
    g_signal_emit (self, signals[RUN_ON_TARGET], 0, sl_target_record_get_id (remote),
                   gtk_editable_get_text (GTK_EDITABLE (self->command_row)),
                   folder[0] ? folder : g_get_home_dir (),
                   gtk_editable_get_text (GTK_EDITABLE (self->pull_row)));
  else
    g_signal_emit (self, signals[RUN], 0,
                   gtk_editable_get_text (GTK_EDITABLE (self->command_row)),
                   folder[0] ? folder : NULL);
  gtk_window_close (GTK_WINDOW (self));
}

static void
activate_cb (SlRunDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "run.run", NULL);
}

static void
sl_run_dialog_dispose (GObject *object)
{
  g_clear_object (&SL_RUN_DIALOG (object)->targets);
  g_clear_pointer (&SL_RUN_DIALOG (object)->choices, g_ptr_array_unref);
  g_clear_pointer (&SL_RUN_DIALOG (object)->mindx_command, g_free);
  g_clear_pointer (&SL_RUN_DIALOG (object)->kept_device_env, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_RUN_DIALOG);

  G_OBJECT_CLASS (sl_run_dialog_parent_class)->dispose (object);
}

static void
sl_run_dialog_class_init (SlRunDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_run_dialog_dispose;

  /**
   * SlRunDialog::run:
   * @command_line: the command as typed
   * @working_dir: (nullable): the folder to run in
   */
  signals[RUN] =
    g_signal_new ("run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * SlRunDialog::run-on-target:
   * @target_id: the SSH target's id in the workspace database
   * @command_line: the command as typed
   * @project_dir: the folder uploaded and run in
   * @pull_dirs: output folders under it to pull, space-separated
   */
  signals[RUN_ON_TARGET] =
    g_signal_new ("run-on-target", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * SlRunDialog::run-on-slurm:
   * @target_id: the login node's target id (this computer's included)
   * @command_line: the command as typed
   * @project_dir: the folder uploaded and run in
   * @pull_dirs: output folders under it to pull, space-separated
   * @options: the #SlSlurmOptions typed
   */
  signals[RUN_ON_SLURM] =
    g_signal_new ("run-on-slurm", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 5, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                  SL_TYPE_SLURM_OPTIONS);

  /**
   * SlRunDialog::run-mindx:
   * @project: the #SlProjectRecord of the configuration
   * @config: the MindX SDK app's #SlRunConfigRecord
   * @target_id: the target's id (0 for this computer)
   */
  signals[RUN_MINDX] =
    g_signal_new ("run-mindx", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, SL_TYPE_PROJECT_RECORD, SL_TYPE_RUN_CONFIG_RECORD, G_TYPE_INT64);

  /**
   * SlRunDialog::run-profile:
   * @project: the #SlProjectRecord of the configuration
   * @config: the profile #SlRunConfigRecord, to open the Profile dialog with
   */
  signals[RUN_PROFILE] =
    g_signal_new ("run-profile", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, SL_TYPE_PROJECT_RECORD, SL_TYPE_RUN_CONFIG_RECORD);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-run-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, config_row);
  gtk_widget_class_bind_template_callback (widget_class, config_selected_cb);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, pull_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, command_preview);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, preview_box);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, preview_lead);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, preview_where);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, wrapper_expander);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, backend_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, slurm_group);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, nodes_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, ntasks_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, per_node_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, devices_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, gres_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, partition_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, time_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, account_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, launcher_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, per_task_switch);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, run_button);
  gtk_widget_class_bind_template_callback (widget_class, validate_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);

  gtk_widget_class_install_action (widget_class, "run.run", NULL, run_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_run_dialog_init (SlRunDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));
  validate_cb (self);
}

SlRunDialog *
sl_run_dialog_new (const char *working_dir)
{
  SlRunDialog *self = g_object_new (SL_TYPE_RUN_DIALOG, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), working_dir ? working_dir : g_get_home_dir ());
  return self;
}

void
sl_run_dialog_set_command (SlRunDialog *self,
                           const char  *command)
{
  g_return_if_fail (SL_IS_RUN_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->command_row), command ? command : "");
}

static char *
target_title (SlTargetRecord *record)
{
  if (sl_target_record_get_kind (record) != SL_TARGET_KIND_SSH)
    return g_strdup (_("This computer"));
  return g_strdup_printf ("%s (%s)", sl_target_record_get_name (record), sl_target_record_get_host (record));
}

/**
 * sl_run_dialog_set_targets:
 * @targets: a #GListModel of #SlTargetRecord (Local first)
 * @selected_id: the target to choose, or 0 for this computer
 */
void
sl_run_dialog_set_targets (SlRunDialog *self,
                           GListModel  *targets,
                           gint64       selected_id)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint selected = 0;

  g_return_if_fail (SL_IS_RUN_DIALOG (self));
  g_return_if_fail (G_IS_LIST_MODEL (targets));

  g_set_object (&self->targets, targets);
  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);
      g_autofree char *title = target_title (record);

      gtk_string_list_append (names, title);
      if (sl_target_record_get_id (record) == selected_id)
        selected = i;
    }
  adw_combo_row_set_model (self->target_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->target_row, selected);
  validate_cb (self);
}

void
sl_run_dialog_set_pull_dirs (SlRunDialog *self,
                             const char  *pull_dirs)
{
  g_return_if_fail (SL_IS_RUN_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->pull_row), pull_dirs ? pull_dirs : "");
}

const char *
sl_run_dialog_get_command_preview (SlRunDialog *self)
{
  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), NULL);
  return gtk_widget_get_visible (self->preview_box) ? gtk_label_get_label (self->command_preview) : NULL;
}

/**
 * sl_run_dialog_set_projects:
 * @projects: (element-type SlProjectRecord): projects with their run
 *   configurations
 *
 * Offers every run configuration; choosing one fills the command, the
 * folder, the target and the folders to pull.
 */
void
sl_run_dialog_set_projects (SlRunDialog *self,
                            GPtrArray   *projects)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_return_if_fail (SL_IS_RUN_DIALOG (self));

  g_clear_pointer (&self->choices, g_ptr_array_unref);
  self->choices = g_ptr_array_new_with_free_func (config_choice_free);
  gtk_string_list_append (names, _("None: type a command"));

  for (guint p = 0; projects != NULL && p < projects->len; p++)
    {
      SlProjectRecord *project = g_ptr_array_index (projects, p);

      for (guint c = 0; c < sl_project_record_get_n_run_configs (project); c++)
        {
          ConfigChoice *choice = g_new0 (ConfigChoice, 1);
          g_autofree char *title = NULL;

          choice->project = g_object_ref (project);
          choice->config = g_object_ref (sl_project_record_get_run_config (project, c));
          title = g_strdup_printf ("%s · %s", sl_project_record_get_name (project),
                                   sl_run_config_record_get_name (choice->config));
          gtk_string_list_append (names, title);
          g_ptr_array_add (self->choices, choice);
        }
    }

  adw_combo_row_set_model (self->config_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->config_row, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->config_row), self->choices->len > 0);
}

/**
 * sl_run_dialog_select_config:
 * @index: the run configuration, counted over all projects from 0
 */
void
sl_run_dialog_select_config (SlRunDialog *self,
                             guint        index)
{
  g_return_if_fail (SL_IS_RUN_DIALOG (self));
  adw_combo_row_set_selected (self->config_row, index + 1);
}

static SlRunConfigRecord *
chosen_config (SlRunDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);

  if (self->choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->choices->len)
    return NULL;
  return ((ConfigChoice *)g_ptr_array_index (self->choices, selected - 1))->config;
}

/**
 * sl_run_dialog_keep_slurm_choices:
 *
 * Writes how the job is started (through Slurm or not, and the Slurm
 * fields) into the chosen run configuration, so its next run starts from
 * them. Fields that do not parse leave the saved ones as they were.
 *
 * Returns: %TRUE when the configuration changed and its project needs
 *   saving; %FALSE without a chosen configuration
 */
gboolean
sl_run_dialog_keep_slurm_choices (SlRunDialog *self)
{
  SlRunConfigRecord *config;
  g_autoptr(SlSlurmOptions) options = NULL;
  g_autoptr(JsonObject) saved = NULL;

  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), FALSE);

  if ((config = chosen_config (self)) == NULL)
    return FALSE;
  options = read_slurm_fields (self, NULL);
  saved = sl_run_config_record_dup_option_group (config, SL_SLURM_CONFIG_GROUP);
  /* A configuration never run through Slurm keeps no group for it. */
  if (!wants_slurm (self) && saved == NULL)
    return FALSE;
  return sl_slurm_config_write (config, options, wants_slurm (self));
}

/**
 * sl_run_dialog_get_project:
 *
 * Returns: (transfer none) (nullable): the project of the chosen run
 *   configuration
 */
SlProjectRecord *
sl_run_dialog_get_project (SlRunDialog *self)
{
  guint selected;

  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), NULL);

  selected = adw_combo_row_get_selected (self->config_row);
  if (self->choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->choices->len)
    return NULL;
  return ((ConfigChoice *)g_ptr_array_index (self->choices, selected - 1))->project;
}

const char *
sl_run_dialog_get_command (SlRunDialog *self)
{
  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->command_row));
}

const char *
sl_run_dialog_get_folder (SlRunDialog *self)
{
  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->folder_row));
}

/**
 * sl_run_dialog_set_slurm:
 * @slurm: submit the job to Slurm instead of starting it directly
 */
void
sl_run_dialog_set_slurm (SlRunDialog *self,
                         gboolean     slurm)
{
  g_return_if_fail (SL_IS_RUN_DIALOG (self));
  adw_combo_row_set_selected (self->backend_row, slurm ? 1 : 0);
}

/**
 * sl_run_dialog_start_from:
 * @current_folder: (nullable): the folder being looked at
 *
 * Starts from the project in use (see sl_dialog_project_find()): its
 * folder and target, and the fields last closed with for it. Call it
 * once the targets are set.
 */
void
sl_run_dialog_start_from (SlRunDialog *self,
                          SlWorkspace *workspace,
                          const char  *current_folder)
{
  g_autoptr(SlProjectRecord) project = NULL;
  g_autofree char *folder = NULL;

  g_return_if_fail (SL_IS_RUN_DIALOG (self));
  g_return_if_fail (SL_IS_WORKSPACE (workspace));

  project = sl_dialog_project_find (workspace, current_folder);
  folder = sl_dialog_project_dup_folder (project, current_folder);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), folder);
  if (self->targets != NULL && g_list_model_get_n_items (self->targets) > 0)
    adw_combo_row_set_selected (self->target_row, 0);
  select_target (self, project ? sl_project_record_get_target_id (project) : 0);
  if (project != NULL)
    sl_dialog_project_note_used (project);
  sl_dialog_memory_attach (GTK_WINDOW (self), "run", project ? sl_project_record_get_local_folder (project) : NULL,
                           remembered_fields);
}
