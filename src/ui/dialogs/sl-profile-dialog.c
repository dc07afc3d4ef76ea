/* sl-profile-dialog.c
 *
 * The option rows are made from the msprof option tables, so the dialog
 * offers what the command builder knows and nothing else.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-dialog-fit.h"
#include "sl-dialog-memory.h"
#include "sl-dialog-project.h"
#include "sl-problem.h"
#include "sl-profile-dialog.h"
#include "sl-profile-settings.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-stage-chip.h"
#include "sl-target-record.h"
#include "sl-workflow-path.h"

#define PROBLEMS_MARGIN 18
#define PROBLEMS_MAX_HEIGHT 240

typedef struct {
  SlMsprofSwitch  which;
  const char     *title;
  const char     *subtitle;
  gboolean        device;   /* in the Task Time and AI Core group */
  gboolean        active;
  gboolean        omit_off; /* off is msprof's default: left out when off */
} SwitchRow;

static const SwitchRow switch_rows[] = {
  { SL_MSPROF_TASK_TIME, N_("Task time"), N_("Operator and task durations on the device"), TRUE, TRUE },
  { SL_MSPROF_AICPU, N_("AI CPU"), N_("Operators that run on the AI CPU"), FALSE, FALSE },
  { SL_MSPROF_ASCENDCL, N_("AscendCL API"), N_("Calls into AscendCL on the host"), FALSE, TRUE },
  { SL_MSPROF_RUNTIME_API, N_("Runtime API"), N_("Calls into the runtime on the host"), FALSE, FALSE },
  { SL_MSPROF_HCCL, N_("HCCL communication"), N_("Collective communication between devices"), FALSE, FALSE },
  { SL_MSPROF_MSPROFTX, N_("msproftx markers"), N_("Ranges the program marks with msproftx"), FALSE, FALSE, TRUE },
};

typedef struct {
  SlMsprofSampler  which;
  const char      *title;
} SamplerRow;

static const SamplerRow sampler_rows[] = {
  { SL_MSPROF_SYS_HARDWARE_MEM, N_("Memory bandwidth (DDR, HBM)") },
  { SL_MSPROF_SYS_CPU, N_("Device CPU") },
  { SL_MSPROF_SYS_PROFILING, N_("System CPU and memory") },
  { SL_MSPROF_SYS_PID, N_("CPU and memory of the processes") },
  { SL_MSPROF_SYS_IO, N_("Network and storage I/O") },
  { SL_MSPROF_SYS_INTERCONNECTION, N_("Interconnect (HCCS, PCIe)") },
  { SL_MSPROF_DVPP, N_("DVPP media engines") },
};

/* The steps a run goes through, as the progress row shows them; the
 * last is the window's, not the workflow's. */
typedef enum {
  STEP_CHECK,
  STEP_UPLOAD,
  STEP_PROFILE,
  STEP_EXPORT,
  STEP_PULL,
  STEP_OPEN,
  N_STEPS
} Step;

/* A run configuration the dialog offers, with the project it belongs to. */
typedef struct {
  SlProjectRecord   *project;
  SlRunConfigRecord *config;
} ConfigChoice;

static void
config_choice_free (gpointer data)
{
  ConfigChoice *choice = data;

  g_clear_object (&choice->project);
  g_clear_object (&choice->config);
  g_free (choice);
}

struct _SlProfileDialog
{
  AdwWindow        parent_instance;

  GListModel      *targets;
  GPtrArray       *projects;  /* SlProjectRecord, where configurations are saved */
  GPtrArray       *choices;   /* ConfigChoice, for config_row after its "none" entry */
  SlMsprofCommand *command;
  GtkSwitch       *switches[G_N_ELEMENTS (switch_rows)];
  GtkSpinButton   *samplers[G_N_ELEMENTS (sampler_rows)];
  gboolean         built;     /* the option rows exist */
  char            *result_inputs;  /* the fields the outcome shown is of */

  /* While a run is followed: its workflow and what cancels it. */
  SlProfileWorkflow *workflow;
  GCancellable    *cancellable;
  gulong           stage_handler;
  int              step;      /* the step reached, or -1 */
  gboolean         exported;  /* the run went through the export */
  SlStageChip     *chips[N_STEPS];

  AdwComboRow     *config_row;
  AdwComboRow     *target_row;
  AdwEntryRow     *program_row;
  AdwEntryRow     *folder_row;
  AdwEntryRow     *env_row;
  AdwEntryRow     *output_row;
  AdwComboRow     *profiler_row;
  AdwComboRow     *metrics_row;
  AdwComboRow     *aic_mode_row;
  GtkWidget       *aic_freq_row;
  GtkSpinButton   *aic_freq;
  AdwEntryRow     *host_row;
  AdwPreferencesGroup *device_group;
  AdwPreferencesGroup *api_group;
  AdwPreferencesGroup *system_group;
  GtkButton       *start_button;
  GtkButton       *save_button;
  GtkLabel        *command_preview;
  GtkLabel        *error_label;
  GtkWidget       *options_page;
  GtkWidget       *run_box;
  GtkBox          *stages_box;
  SlStageChip     *check_chip;
  SlStageChip     *upload_chip;
  SlStageChip     *profile_chip;
  SlStageChip     *export_chip;
  SlStageChip     *pull_chip;
  SlStageChip     *open_chip;
  GtkLabel        *status_label;
  GtkWidget       *problems_scroller;
  GtkListBox      *problems_list;
};

G_DEFINE_FINAL_TYPE (SlProfileDialog, sl_profile_dialog, ADW_TYPE_WINDOW)

enum {
  START,
  CONFIG_SAVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static ConfigChoice *save_project_choice (SlProfileDialog *self,
                                          SlProjectRecord **project);

static SlTargetRecord *
selected_target (SlProfileDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->target_row);
  g_autoptr(SlTargetRecord) record = NULL;

  if (self->targets == NULL || selected >= g_list_model_get_n_items (self->targets))
    return NULL;
  record = g_list_model_get_item (self->targets, selected);
  return record;
}

/* Reads every field into self->command; FALSE with @message when the
 * program line cannot be read. */
static gboolean
read_fields (SlProfileDialog  *self,
             char            **message)
{
  const char *program = gtk_editable_get_text (GTK_EDITABLE (self->program_row));
  guint metrics = adw_combo_row_get_selected (self->metrics_row);
  gboolean sample_based;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;

  sl_msprof_command_set_kind (self->command, (SlProfilerKind)adw_combo_row_get_selected (self->profiler_row));
  sl_msprof_command_set_output (self->command, gtk_editable_get_text (GTK_EDITABLE (self->output_row)));
  sl_msprof_command_set_aic_metrics (self->command, metrics > 0 && metrics != GTK_INVALID_LIST_POSITION
                                                    ? sl_msprof_aic_metrics ()[metrics - 1] : NULL);
  sl_msprof_command_set_switch (self->command, SL_MSPROF_AI_CORE, metrics > 0 ? 1 : -1);
  /* Task-based is msprof's default for a program, so it is left out. */
  sample_based = metrics > 0 && adw_combo_row_get_selected (self->aic_mode_row) == 1;
  sl_msprof_command_set_aic_mode (self->command, sample_based ? "sample-based" : NULL);
  sl_msprof_command_set_aic_freq (self->command, sample_based ? (guint)gtk_spin_button_get_value_as_int (self->aic_freq) : 0);
  for (guint i = 0; i < G_N_ELEMENTS (switch_rows); i++)
    {
      gboolean on = gtk_switch_get_active (self->switches[i]);

      sl_msprof_command_set_switch (self->command, switch_rows[i].which, on ? 1 : switch_rows[i].omit_off ? -1 : 0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sampler_rows); i++)
    sl_msprof_command_set_sampler (self->command, sampler_rows[i].which,
                                   (guint)gtk_spin_button_get_value_as_int (self->samplers[i]));
  sl_msprof_command_set_host_sys (self->command, gtk_editable_get_text (GTK_EDITABLE (self->host_row)));

  if (program[0] == '\0')
    {
      sl_msprof_command_set_program (self->command, NULL);
      return TRUE;
    }
  if (!g_shell_parse_argv (program, NULL, &argv, &error))
    {
      *message = g_strdup_printf (_("The program line cannot be read: %s"), error->message);
      return FALSE;
    }
  sl_msprof_command_set_program (self->command, (const char * const *)argv);
  return TRUE;
}

gboolean
sl_profile_dialog_validate (SlProfileDialog  *self,
                            char            **message)
{
  const char *env_script = gtk_editable_get_text (GTK_EDITABLE (self->env_row));
  g_autoptr(GError) error = NULL;
  char *why = NULL;

  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), FALSE);

  if (read_fields (self, &why) && !sl_msprof_command_validate (self->command, &error))
    why = g_strdup (error->message);
  else if (why == NULL && env_script[0] != '\0' && !sl_workflow_path_check (env_script, _("The environment script"), &error))
    why = g_strdup (error->message);

  if (message != NULL)
    *message = why;
  else
    g_free (why);
  return why == NULL;
}

/* The same text as profile-run --dry-run's profile step: the environment
 * the job sources, then the command. */
static char *
dup_preview (SlProfileDialog *self)
{
  const char *env_script = gtk_editable_get_text (GTK_EDITABLE (self->env_row));
  g_auto(GStrv) argv = sl_msprof_command_dup_argv (self->command, NULL);
  g_auto(GStrv) environment = sl_msprof_command_dup_environment (self->command);
  g_autofree char *command = argv ? sl_shell_quote_argv ((const char * const *)argv) : NULL;
  GString *out = g_string_new (NULL);

  if (env_script[0] != '\0')
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (env_script);

      g_string_append_printf (out, ". %s\n", quoted);
    }
  for (guint i = 0; environment[i] != NULL; i++)
    {
      g_autofree char *quoted = sl_shell_quote (strchr (environment[i], '=') + 1);
      g_autofree char *name = g_strndup (environment[i], strchr (environment[i], '=') - environment[i]);

      g_string_append_printf (out, "export %s=%s\n", name, quoted);
    }
  g_string_append (out, command ? command : "");
  return g_string_free (out, FALSE);
}

/* Saving needs a program and a project to keep the configuration in:
 * the wrapped configuration's, or the one whose folder is the working
 * folder. */
static void
update_save (SlProfileDialog *self,
             gboolean         valid)
{
  SlProjectRecord *project = NULL;
  gboolean can_save;

  save_project_choice (self, &project);
  can_save = valid && project != NULL && self->cancellable == NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.save-config", can_save);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button),
                               project == NULL ? _("The working folder is no project’s folder; add the project in Projects first")
                                               : NULL);
}

/* Every input of a run, to tell whether an outcome is of them. */
static char *
dup_inputs (SlProfileDialog *self)
{
  g_autofree char *preview = dup_preview (self);

  return g_strdup_printf ("%u\n%s\n%s", adw_combo_row_get_selected (self->target_row),
                          gtk_editable_get_text (GTK_EDITABLE (self->folder_row)), preview);
}

/* An outcome stays in view once a field changes, but says it is of the
 * earlier fields. */
static void
mark_outcome_stale (SlProfileDialog *self)
{
  g_autofree char *inputs = NULL;
  g_autofree char *status = NULL;

  if (self->result_inputs == NULL || self->cancellable != NULL)
    return;
  inputs = dup_inputs (self);
  if (g_str_equal (inputs, self->result_inputs))
    return;
  g_clear_pointer (&self->result_inputs, g_free);
  /* TRANSLATORS: %s is how the last run ended */
  status = g_strdup_printf (_("Before the fields changed: %s"), gtk_label_get_label (self->status_label));
  gtk_label_set_label (self->status_label, status);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_add_css_class (self->run_box, "dim-label");
}

static void
update_cb (SlProfileDialog *self)
{
  g_autofree char *message = NULL;
  g_autofree char *preview = NULL;
  const char *program;
  gboolean valid;
  gboolean msprof;

  if (!self->built)
    return;

  valid = sl_profile_dialog_validate (self, &message);
  program = gtk_editable_get_text (GTK_EDITABLE (self->program_row));
  msprof = adw_combo_row_get_selected (self->profiler_row) == SL_PROFILER_MSPROF;

  /* The frameworks' profilers have no system samplers. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->system_group), msprof);
  gtk_widget_set_sensitive (GTK_WIDGET (self->aic_mode_row), adw_combo_row_get_selected (self->metrics_row) > 0);
  gtk_widget_set_sensitive (self->aic_freq_row, adw_combo_row_get_selected (self->metrics_row) > 0 &&
                                                adw_combo_row_get_selected (self->aic_mode_row) == 1);

  gtk_label_set_label (self->error_label, program[0] ? message : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), !valid && program[0]);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.start", valid && self->cancellable == NULL);
  update_save (self, valid && program[0] != '\0');

  preview = valid ? dup_preview (self) : NULL;
  gtk_label_set_label (self->command_preview, preview ? preview : _("Type the program to profile, for example: python3 main.py"));
  mark_outcome_stale (self);
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  SlProfileDialog *self = SL_PROFILE_DIALOG (widget);
  SlTargetRecord *target = selected_target (self);
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));
  const char *env_script = gtk_editable_get_text (GTK_EDITABLE (self->env_row));

  if (self->cancellable != NULL || !sl_profile_dialog_validate (self, NULL))
    return;
  /* The dialog stays: the handler follows the run in it with
   * sl_profile_dialog_begin_run(). */
  sl_dialog_memory_save (GTK_WINDOW (self));
  g_signal_emit (self, signals[START], 0, target ? sl_target_record_get_id (target) : (gint64)0,
                 folder[0] ? folder : g_get_home_dir (), env_script[0] ? env_script : NULL);
}

/* The run's progress */

static void
set_step_state (SlProfileDialog  *self,
                Step              step,
                SlStageChipState  state)
{
  sl_stage_chip_set_state (self->chips[step], state);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->chips[step]), state == SL_STAGE_CHIP_SKIPPED
                               ? _("Not needed: the profiler had already exported its data")
                               : NULL);
}

static Step
step_for_stage (SlProfileStage stage)
{
  switch (stage)
    {
    case SL_PROFILE_STAGE_UPLOADING:
      return STEP_UPLOAD;
    case SL_PROFILE_STAGE_RUNNING:
      return STEP_PROFILE;
    case SL_PROFILE_STAGE_EXPORTING:
      return STEP_EXPORT;
    case SL_PROFILE_STAGE_PULLING:
      return STEP_PULL;
    case SL_PROFILE_STAGE_IDLE:
    case SL_PROFILE_STAGE_PREFLIGHT:
    case SL_PROFILE_STAGE_DONE:
    default:
      return STEP_CHECK;
    }
}

/* Steps before @step are done, except an export that was not needed. */
static void
advance_to (SlProfileDialog  *self,
            Step              step,
            SlStageChipState  state)
{
  for (int i = 0; i < (int)step; i++)
    set_step_state (self, i, i == STEP_EXPORT && !self->exported ? SL_STAGE_CHIP_SKIPPED : SL_STAGE_CHIP_DONE);
  set_step_state (self, step, state);
  for (int i = step + 1; i < N_STEPS; i++)
    set_step_state (self, i, SL_STAGE_CHIP_PENDING);
  self->step = MAX (self->step, (int)step);
}

static void
stage_cb (SlProfileWorkflow *workflow,
          GParamSpec        *pspec,
          SlProfileDialog   *self)
{
  SlProfileStage stage = sl_profile_workflow_get_stage (workflow);

  if (stage == SL_PROFILE_STAGE_IDLE || stage == SL_PROFILE_STAGE_DONE)
    return;
  self->exported = self->exported || stage == SL_PROFILE_STAGE_EXPORTING;
  advance_to (self, step_for_stage (stage), SL_STAGE_CHIP_ACTIVE);
  gtk_label_set_label (self->status_label, sl_profile_stage_to_label (stage));
}

static void
clear_problems (SlProfileDialog *self)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list))) != NULL)
    gtk_list_box_remove (self->problems_list, row);
  gtk_widget_set_visible (self->problems_scroller, FALSE);
}

/* One row a problem: what is wrong, then what to do about it and the log
 * it came from. */
static GtkWidget *
create_problem_row (SlProblem *problem)
{
  gboolean error = sl_problem_get_severity (problem) == SL_SEVERITY_ERROR;
  g_autofree char *location = sl_problem_get_path (problem) ? sl_problem_dup_location (problem) : NULL;
  g_autoptr(GString) subtitle = g_string_new (sl_problem_get_hint (problem));
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (error ? "dialog-error-symbolic" : "dialog-warning-symbolic");

  if (location != NULL)
    {
      if (subtitle->len > 0)
        g_string_append_c (subtitle, '\n');
      g_string_append_printf (subtitle, _("Log: %s"), location);
    }
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sl_problem_get_message (problem));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle->str);
  gtk_widget_add_css_class (icon, error ? "error" : "warning");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  return row;
}

/* The options page above would otherwise take the height the list needs
 * and leave it clipped; past a few rows the list scrolls. */
static void
reserve_problems_height (SlProfileDialog *self)
{
  int width = gtk_widget_get_width (self->run_box);
  int natural = 0;

  if (width <= 0)
    width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PROBLEMS_MARGIN;
  gtk_widget_measure (GTK_WIDGET (self->problems_list), GTK_ORIENTATION_VERTICAL, MAX (width, 1),
                      NULL, &natural, NULL, NULL);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->problems_scroller),
                                              MIN (natural, PROBLEMS_MAX_HEIGHT));
}

static void
show_problems (SlProfileDialog *self,
               GPtrArray       *problems)
{
  clear_problems (self);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    gtk_list_box_append (self->problems_list, create_problem_row (g_ptr_array_index (problems, i)));
  gtk_widget_set_visible (self->problems_scroller, problems != NULL && problems->len > 0);
  reserve_problems_height (self);
}

/* Where a run that gave no profile stopped: what its problems name, or
 * the last step it reached. */
static Step
failed_step (SlProfileDialog *self,
             GPtrArray       *problems)
{
  Step step = MAX (self->step, STEP_CHECK);

  for (guint i = 0; i < problems->len; i++)
    {
      const char *source = sl_problem_get_source (g_ptr_array_index (problems, i));

      if (g_strcmp0 (source, "preflight") == 0)
        return STEP_CHECK;
      if (g_strcmp0 (source, "pull") == 0)
        step = MAX (step, STEP_PULL);
    }
  return step;
}

static void
stop_following (SlProfileDialog *self)
{
  if (self->workflow != NULL && self->stage_handler != 0)
    g_signal_handler_disconnect (self->workflow, self->stage_handler);
  self->stage_handler = 0;
  g_clear_object (&self->workflow);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->result_inputs, g_free);
  gtk_widget_set_sensitive (self->options_page, TRUE);
  update_cb (self);
}

/**
 * sl_profile_dialog_begin_run:
 * @workflow: the run started from this dialog's command
 *
 * Shows @workflow's stages in the dialog until sl_profile_dialog_end_run();
 * Cancel and closing the dialog cancel it meanwhile.
 *
 * Returns: (transfer none): the cancellable to run @workflow with
 */
GCancellable *
sl_profile_dialog_begin_run (SlProfileDialog   *self,
                             SlProfileWorkflow *workflow)
{
  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), NULL);
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (workflow), NULL);
  g_return_val_if_fail (self->cancellable == NULL, NULL);

  self->workflow = g_object_ref (workflow);
  self->cancellable = g_cancellable_new ();
  self->stage_handler = g_signal_connect_object (workflow, "notify::stage", G_CALLBACK (stage_cb), self, 0);
  self->step = -1;
  self->exported = FALSE;
  clear_problems (self);
  advance_to (self, STEP_CHECK, SL_STAGE_CHIP_ACTIVE);
  gtk_label_set_label (self->status_label, sl_profile_stage_to_label (SL_PROFILE_STAGE_PREFLIGHT));
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (self->run_box, "dim-label");
  g_clear_pointer (&self->result_inputs, g_free);
  gtk_widget_set_visible (self->run_box, TRUE);
  /* The command being run is not changed under it. */
  gtk_widget_set_sensitive (self->options_page, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.start", FALSE);
  return self->cancellable;
}

/**
 * sl_profile_dialog_end_run:
 * @error: (nullable): how sl_profile_workflow_run_finish() failed
 *
 * Shows how the run ended. A run that gave no profile leaves the dialog
 * open with its problems, each with what to do, so the fields can be
 * fixed and the run started again.
 *
 * Returns: %TRUE when a profile came out and the dialog may close once
 *   it is opened
 */
gboolean
sl_profile_dialog_end_run (SlProfileDialog *self,
                           const GError    *error)
{
  SlProfileWorkflow *workflow;
  GPtrArray *problems;
  g_autofree char *status = NULL;
  Step step;

  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), FALSE);
  g_return_val_if_fail (self->workflow != NULL, FALSE);

  workflow = self->workflow;
  problems = sl_profile_workflow_get_problems (workflow);
  if (error == NULL && sl_profile_workflow_get_profile (workflow) != NULL)
    {
      advance_to (self, STEP_OPEN, SL_STAGE_CHIP_ACTIVE);
      gtk_label_set_label (self->status_label, _("Opening the profile"));
      stop_following (self);
      return TRUE;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      step = MAX (self->step, STEP_CHECK);
      advance_to (self, step, SL_STAGE_CHIP_CANCELLED);
      /* What the run saw become of the job: never started, stopped and
       * ended, or ended by itself. */
      status = g_strdup (error->message);
      show_problems (self, NULL);
    }
  else
    {
      step = error != NULL ? MAX (self->step, STEP_CHECK) : failed_step (self, problems);
      advance_to (self, step, SL_STAGE_CHIP_FAILED);
      status = error != NULL && step >= STEP_PROFILE
        ? g_strdup (error->message)
        : error != NULL
        ? g_strdup_printf (_("The run could not start: %s"), error->message)
        : g_strdup_printf (_("No profile came out: the run stopped at “%s”. What to fix is listed below; then press Start again."),
                           sl_stage_chip_get_title (self->chips[step]));
      gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
      show_problems (self, problems);
    }
  gtk_label_set_label (self->status_label, status);
  stop_following (self);
  g_free (self->result_inputs);
  self->result_inputs = dup_inputs (self);
  return FALSE;
}

gboolean
sl_profile_dialog_is_running (SlProfileDialog *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

/* Run configurations */

static ConfigChoice *
chosen_choice (SlProfileDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);

  if (self->choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->choices->len)
    return NULL;
  return g_ptr_array_index (self->choices, selected - 1);
}

/* The project a configuration saved now goes into; the chosen
 * configuration when there is one. */
static ConfigChoice *
save_project_choice (SlProfileDialog  *self,
                     SlProjectRecord **project)
{
  ConfigChoice *choice = chosen_choice (self);
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));

  *project = choice ? choice->project : NULL;
  for (guint i = 0; *project == NULL && self->projects != NULL && i < self->projects->len; i++)
    {
      SlProjectRecord *candidate = g_ptr_array_index (self->projects, i);
      g_autofree char *local = g_canonicalize_filename (sl_project_record_get_local_folder (candidate), NULL);
      g_autofree char *typed = folder[0] == '/' ? g_canonicalize_filename (folder, NULL) : NULL;

      if (typed != NULL && g_str_equal (local, typed))
        *project = candidate;
    }
  return choice;
}

/* A configuration runs in its working folder, relative to the project
 * unless it is absolute. */
static char *
dup_config_folder (ConfigChoice *choice)
{
  const char *local = sl_project_record_get_local_folder (choice->project);
  const char *folder = sl_run_config_record_get_working_folder (choice->config);

  if (folder == NULL || folder[0] == '\0' || g_str_equal (folder, "."))
    return g_strdup (local);
  if (g_path_is_absolute (folder))
    return g_strdup (folder);
  return g_build_filename (local, folder, NULL);
}

static void
select_target_id (SlProfileDialog *self,
                  gint64           target_id)
{
  for (guint i = 0; self->targets != NULL && i < g_list_model_get_n_items (self->targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (self->targets, i);

      if (sl_target_record_get_id (record) == target_id)
        adw_combo_row_set_selected (self->target_row, i);
    }
}

/* A profile configuration brings back every choice saved with it; any
 * other is wrapped: its program, environment and folder, profiled with
 * the options as they are. */
static void
config_selected_cb (SlProfileDialog *self)
{
  ConfigChoice *choice = chosen_choice (self);
  g_autofree char *folder = NULL;
  g_autofree char *notice = NULL;

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->config_row), NULL);
  if (choice == NULL)
    return;

  folder = dup_config_folder (choice);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), folder);
  select_target_id (self, sl_project_record_get_target_id (choice->project));
  if (sl_run_config_record_get_kind (choice->config) == SL_RUN_CONFIG_KIND_PROFILE)
    {
      g_autoptr(GPtrArray) problems = NULL;
      g_autofree char *env_script = NULL;
      g_autoptr(SlMsprofCommand) command = sl_profile_settings_load (choice->config, &env_script, &problems);

      sl_profile_dialog_load_command (self, command);
      sl_profile_dialog_set_env_script (self, env_script);
      if (problems != NULL)
        {
          g_ptr_array_add (problems, NULL);
          notice = g_strjoinv ("\n", (char **)problems->pdata);
        }
    }
  else
    {
      g_auto(GStrv) program = sl_profile_settings_dup_program (choice->config);
      g_autofree char *line = sl_profile_settings_join_argv ((const char * const *)program);

      sl_profile_dialog_set_program (self, line);
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->config_row), notice);
}

/* "Profile train.py", numbered when the project has one by that name. */
static char *
dup_config_name (SlProjectRecord *project,
                 SlMsprofCommand *command)
{
  const char * const *program = sl_msprof_command_get_program (command);
  guint first = 0;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  /* The program after "env NAME=VALUE …", its interpreter and the
   * interpreter's options. */
  while (program[first] != NULL && program[first + 1] != NULL &&
         (g_str_equal (program[first], "env") || strchr (program[first], '=') != NULL || program[first][0] == '-' ||
          g_str_has_prefix (program[first], "python") || g_str_equal (program[first], "bash")))
    first++;
  base = g_path_get_basename (program[first]);
  /* TRANSLATORS: the name of a run configuration saved from the Profile dialog; %s is the program */
  name = g_strdup_printf (_("Profile %s"), base);
  for (guint n = 2; ; n++)
    {
      gboolean taken = FALSE;

      for (guint i = 0; i < sl_project_record_get_n_run_configs (project) && !taken; i++)
        taken = g_str_equal (sl_run_config_record_get_name (sl_project_record_get_run_config (project, i)), name);
      if (!taken)
        return g_steal_pointer (&name);
      g_free (name);
      /* TRANSLATORS: a run configuration's name with a number to tell it from one of the same name */
      name = g_strdup_printf (_("Profile %s (%u)"), base, n);
    }
}

/* The working folder as the configuration keeps it: relative to the
 * project, or nothing when it is the project's own folder. */
static void
store_working_folder (SlRunConfigRecord *config,
                      SlProjectRecord   *project,
                      const char        *folder)
{
  g_autofree char *local = g_canonicalize_filename (sl_project_record_get_local_folder (project), NULL);
  g_autofree char *typed = g_canonicalize_filename (folder, NULL);
  gsize length = strlen (local);

  if (g_str_equal (local, typed))
    sl_run_config_record_set_working_folder (config, NULL);
  else if (g_str_has_prefix (typed, local) && typed[length] == '/')
    sl_run_config_record_set_working_folder (config, typed + length + 1);
  else
    sl_run_config_record_set_working_folder (config, typed);
}

/**
 * sl_profile_dialog_create_run_config:
 *
 * Returns: (transfer full) (nullable): a profile configuration of the
 *   program and choices as the fields give them, or %NULL when they do
 *   not validate
 */
SlRunConfigRecord *
sl_profile_dialog_create_run_config (SlProfileDialog *self,
                                     SlProjectRecord *project)
{
  SlRunConfigRecord *config;
  g_autofree char *name = NULL;
  const char *env_script;

  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), NULL);
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (project), NULL);

  if (!sl_profile_dialog_validate (self, NULL) || sl_msprof_command_get_program (self->command) == NULL)
    return NULL;
  env_script = gtk_editable_get_text (GTK_EDITABLE (self->env_row));
  name = dup_config_name (project, self->command);
  config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_PROFILE, name, "");
  sl_profile_settings_set_program (config, sl_msprof_command_get_program (self->command));
  store_working_folder (config, project, gtk_editable_get_text (GTK_EDITABLE (self->folder_row)));
  sl_profile_settings_store (self->command, env_script, config);
  return config;
}

static void
append_choice (SlProfileDialog   *self,
               GtkStringList     *names,
               SlProjectRecord   *project,
               SlRunConfigRecord *config)
{
  ConfigChoice *choice = g_new0 (ConfigChoice, 1);
  g_autofree char *title = g_strdup_printf ("%s · %s", sl_project_record_get_name (project),
                                            sl_run_config_record_get_name (config));

  choice->project = g_object_ref (project);
  choice->config = g_object_ref (config);
  gtk_string_list_append (names, title);
  g_ptr_array_add (self->choices, choice);
}

/* The configuration goes into its project here; whoever keeps the
 * projects saves it on ::config-saved. The list offers it at once,
 * chosen, without filling the fields again from it. */
static void
save_config_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlProfileDialog *self = SL_PROFILE_DIALOG (widget);
  SlProjectRecord *project = NULL;
  g_autoptr(SlRunConfigRecord) config = NULL;
  GtkStringList *names = GTK_STRING_LIST (adw_combo_row_get_model (self->config_row));

  save_project_choice (self, &project);
  if (project == NULL || names == NULL || !(config = sl_profile_dialog_create_run_config (self, project)))
    return;
  sl_project_record_add_run_config (project, config);
  append_choice (self, names, project, config);
  g_signal_handlers_block_by_func (self->config_row, config_selected_cb, self);
  adw_combo_row_set_selected (self->config_row, self->choices->len);
  g_signal_handlers_unblock_by_func (self->config_row, config_selected_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->config_row), TRUE);
  g_signal_emit (self, signals[CONFIG_SAVED], 0, project, config);
}

/**
 * sl_profile_dialog_set_projects:
 * @projects: (element-type SlProjectRecord): projects with their run
 *   configurations
 *
 * Offers each configuration to wrap (or, a profile one, to bring back),
 * and the projects to save configurations into.
 */
void
sl_profile_dialog_set_projects (SlProfileDialog *self,
                                GPtrArray       *projects)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));

  g_clear_pointer (&self->projects, g_ptr_array_unref);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  self->projects = g_ptr_array_new_with_free_func (g_object_unref);
  self->choices = g_ptr_array_new_with_free_func (config_choice_free);
  gtk_string_list_append (names, _("None: type the program"));
  for (guint p = 0; projects != NULL && p < projects->len; p++)
    {
      SlProjectRecord *project = g_ptr_array_index (projects, p);

      g_ptr_array_add (self->projects, g_object_ref (project));
      for (guint c = 0; c < sl_project_record_get_n_run_configs (project); c++)
        append_choice (self, names, project, sl_project_record_get_run_config (project, c));
    }
  g_signal_handlers_block_by_func (self->config_row, config_selected_cb, self);
  adw_combo_row_set_model (self->config_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->config_row, 0);
  g_signal_handlers_unblock_by_func (self->config_row, config_selected_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->config_row), self->choices->len > 0);
  update_cb (self);
}

/**
 * sl_profile_dialog_select_config:
 * @config: one of the configurations of sl_profile_dialog_set_projects()
 *
 * Returns: %TRUE when @config is offered, and now fills the fields
 */
gboolean
sl_profile_dialog_select_config (SlProfileDialog   *self,
                                 SlRunConfigRecord *config)
{
  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), FALSE);
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), FALSE);

  for (guint i = 0; self->choices != NULL && i < self->choices->len; i++)
    if (((ConfigChoice *)g_ptr_array_index (self->choices, i))->config == config)
      {
        adw_combo_row_set_selected (self->config_row, i + 1);
        return TRUE;
      }
  return FALSE;
}

/* Closing while a run is followed cancels it; the dialog stays until the
 * run has ended, to show that it did. */
static gboolean
sl_profile_dialog_close_request (GtkWindow *window)
{
  SlProfileDialog *self = SL_PROFILE_DIALOG (window);

  if (self->cancellable == NULL)
    return GTK_WINDOW_CLASS (sl_profile_dialog_parent_class)->close_request (window);
  if (!g_cancellable_is_cancelled (self->cancellable))
    {
      g_cancellable_cancel (self->cancellable);
      gtk_label_set_label (self->status_label, _("Cancelling: stopping the job on the target…"));
    }
  return TRUE;
}

static GtkWidget *
add_switch_row (SlProfileDialog         *self,
                AdwPreferencesGroup     *group,
                const SwitchRow         *row,
                guint                    index)
{
  GtkWidget *action_row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (action_row), _(row->title));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (action_row), _(row->subtitle));
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (toggle), row->active);
  adw_action_row_add_suffix (ADW_ACTION_ROW (action_row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (action_row), toggle);
  g_signal_connect_object (toggle, "notify::active", G_CALLBACK (update_cb), self, G_CONNECT_SWAPPED);
  adw_preferences_group_add (group, action_row);
  self->switches[index] = GTK_SWITCH (toggle);
  return action_row;
}

static void
add_sampler_row (SlProfileDialog  *self,
                 const SamplerRow *row,
                 guint             index)
{
  GtkWidget *action_row = adw_action_row_new ();
  guint max_hz = 0;
  g_autofree char *subtitle = NULL;
  GtkWidget *spin;

  sl_msprof_sampler_get_range (row->which, NULL, &max_hz);
  spin = gtk_spin_button_new_with_range (0, max_hz, 1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (action_row), _(row->title));
  subtitle = g_strdup_printf ("%s, %s", sl_msprof_sampler_get_option (row->which), sl_msprof_sampler_get_freq_option (row->which));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (action_row), subtitle);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (action_row), spin);
  g_signal_connect_object (spin, "value-changed", G_CALLBACK (update_cb), self, G_CONNECT_SWAPPED);
  adw_preferences_group_add (self->system_group, action_row);
  self->samplers[index] = GTK_SPIN_BUTTON (spin);
}

/* How AI Core metrics are taken, and the rate of the sample-based mode. */
static void
add_aic_mode_rows (SlProfileDialog *self)
{
  g_autoptr(GtkStringList) modes = gtk_string_list_new (NULL);
  GtkWidget *mode_row = adw_combo_row_new ();
  GtkWidget *freq_row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 100, 1);

  gtk_string_list_append (modes, _("Task-based (each task)"));
  gtk_string_list_append (modes, _("Sample-based (at a fixed rate)"));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (mode_row), _("AI Core mode"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (mode_row), "aic-mode");
  adw_combo_row_set_model (ADW_COMBO_ROW (mode_row), G_LIST_MODEL (modes));
  g_signal_connect_object (mode_row, "notify::selected", G_CALLBACK (update_cb), self, G_CONNECT_SWAPPED);
  adw_preferences_group_add (self->device_group, mode_row);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 100);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (freq_row), _("AI Core sampling rate (Hz)"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (freq_row), "aic-freq");
  adw_action_row_add_suffix (ADW_ACTION_ROW (freq_row), spin);
  g_signal_connect_object (spin, "value-changed", G_CALLBACK (update_cb), self, G_CONNECT_SWAPPED);
  adw_preferences_group_add (self->device_group, freq_row);

  self->aic_mode_row = ADW_COMBO_ROW (mode_row);
  self->aic_freq_row = freq_row;
  self->aic_freq = GTK_SPIN_BUTTON (spin);
}

static void
build_option_rows (SlProfileDialog *self)
{
  g_autoptr(GtkStringList) metrics = gtk_string_list_new (NULL);

  gtk_string_list_append (metrics, _("Off"));
  for (const char * const *name = sl_msprof_aic_metrics (); *name != NULL; name++)
    gtk_string_list_append (metrics, *name);
  adw_combo_row_set_model (self->metrics_row, G_LIST_MODEL (metrics));
  adw_combo_row_set_selected (self->metrics_row, 2); /* PipeUtilization */

  add_aic_mode_rows (self);
  for (guint i = 0; i < G_N_ELEMENTS (switch_rows); i++)
    add_switch_row (self, switch_rows[i].device ? self->device_group : self->api_group, &switch_rows[i], i);
  for (guint i = 0; i < G_N_ELEMENTS (sampler_rows); i++)
    add_sampler_row (self, &sampler_rows[i], i);
}

static void
sl_profile_dialog_dispose (GObject *object)
{
  SlProfileDialog *self = SL_PROFILE_DIALOG (object);

  /* The rows go away one by one from here; nothing is read from them. */
  self->built = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->workflow != NULL && self->stage_handler != 0)
    g_signal_handler_disconnect (self->workflow, self->stage_handler);
  self->stage_handler = 0;
  g_clear_object (&self->workflow);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->targets);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->projects, g_ptr_array_unref);
  g_clear_object (&self->command);
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_PROFILE_DIALOG);

  G_OBJECT_CLASS (sl_profile_dialog_parent_class)->dispose (object);
}

static void
sl_profile_dialog_class_init (SlProfileDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_profile_dialog_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = sl_profile_dialog_close_request;

  /**
   * SlProfileDialog::start:
   * @target_id: the target's id in the workspace database, 0 for this computer
   * @project_dir: the folder uploaded and run in
   * @env_script: (nullable): the script to source on the target
   *
   * The command is sl_profile_dialog_get_command().
   */
  signals[START] =
    g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * SlProfileDialog::config-saved:
   * @project: the #SlProjectRecord the configuration was added to
   * @config: the new profile #SlRunConfigRecord
   *
   * The project is to be saved for the configuration to stay.
   */
  signals[CONFIG_SAVED] =
    g_signal_new ("config-saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, SL_TYPE_PROJECT_RECORD, SL_TYPE_RUN_CONFIG_RECORD);

  g_type_ensure (SL_TYPE_STAGE_CHIP);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-profile-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, config_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, program_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, env_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, output_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, profiler_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, metrics_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, host_row);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, device_group);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, api_group);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, system_group);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, command_preview);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, options_page);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, run_box);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, stages_box);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, check_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, upload_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, profile_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, export_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, pull_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, open_chip);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, problems_scroller);
  gtk_widget_class_bind_template_child (widget_class, SlProfileDialog, problems_list);
  gtk_widget_class_bind_template_callback (widget_class, update_cb);
  gtk_widget_class_bind_template_callback (widget_class, config_selected_cb);

  gtk_widget_class_install_action (widget_class, "profile.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "profile.save-config", NULL, save_config_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_profile_dialog_init (SlProfileDialog *self)
{
  self->command = sl_msprof_command_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));
  build_option_rows (self);
  self->chips[STEP_CHECK] = self->check_chip;
  self->chips[STEP_UPLOAD] = self->upload_chip;
  self->chips[STEP_PROFILE] = self->profile_chip;
  self->chips[STEP_EXPORT] = self->export_chip;
  self->chips[STEP_PULL] = self->pull_chip;
  self->chips[STEP_OPEN] = self->open_chip;
  self->step = -1;
  self->built = TRUE;
  update_cb (self);
}

SlProfileDialog *
sl_profile_dialog_new (const char *project_dir)
{
  SlProfileDialog *self = g_object_new (SL_TYPE_PROFILE_DIALOG, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), project_dir ? project_dir : g_get_home_dir ());
  return self;
}

void
sl_profile_dialog_set_targets (SlProfileDialog *self,
                               GListModel      *targets,
                               gint64           selected_id)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint selected = 0;

  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));
  g_return_if_fail (G_IS_LIST_MODEL (targets));

  g_set_object (&self->targets, targets);
  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      gtk_string_list_append (names, sl_target_record_get_kind (record) == SL_TARGET_KIND_SSH
                                     ? sl_target_record_get_name (record) : _("This computer"));
      if (sl_target_record_get_id (record) == selected_id)
        selected = i;
    }
  adw_combo_row_set_model (self->target_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->target_row, selected);
}

static guint
metrics_position (const char *metrics)
{
  const char * const *names = sl_msprof_aic_metrics ();

  for (guint i = 0; metrics != NULL && names[i] != NULL; i++)
    if (g_str_equal (names[i], metrics))
      return i + 1;
  return 0;
}

/**
 * sl_profile_dialog_load_command:
 * @command: options to show, as a run configuration or the command line
 *   gives them
 *
 * Fills the profiler, program, output and option rows from @command. A
 * sampler left at msprof's default rate shows its lowest rate.
 */
void
sl_profile_dialog_load_command (SlProfileDialog *self,
                                SlMsprofCommand *command)
{
  const char * const *program;
  g_autofree char *program_line = NULL;
  const char *output;
  const char *host_sys;

  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));
  g_return_if_fail (SL_IS_MSPROF_COMMAND (command));

  /* One update at the end, from the rows as they all are then. */
  self->built = FALSE;
  program = sl_msprof_command_get_program (command);
  program_line = sl_profile_settings_join_argv (program);
  gtk_editable_set_text (GTK_EDITABLE (self->program_row), program_line);
  output = sl_msprof_command_get_output (command);
  host_sys = sl_msprof_command_get_host_sys (command);
  gtk_editable_set_text (GTK_EDITABLE (self->output_row), output ? output : "");
  adw_combo_row_set_selected (self->profiler_row, sl_msprof_command_get_kind (command));
  adw_combo_row_set_selected (self->metrics_row, sl_msprof_command_get_switch (command, SL_MSPROF_AI_CORE) == 0
                                                 ? 0 : metrics_position (sl_msprof_command_get_aic_metrics (command)));
  adw_combo_row_set_selected (self->aic_mode_row, g_strcmp0 (sl_msprof_command_get_aic_mode (command), "sample-based") == 0);
  if (sl_msprof_command_get_aic_freq (command) != 0)
    gtk_spin_button_set_value (self->aic_freq, sl_msprof_command_get_aic_freq (command));
  for (guint i = 0; i < G_N_ELEMENTS (switch_rows); i++)
    gtk_switch_set_active (self->switches[i], sl_msprof_command_get_switch (command, switch_rows[i].which) > 0);
  for (guint i = 0; i < G_N_ELEMENTS (sampler_rows); i++)
    {
      guint hz = sl_msprof_command_get_sampler (command, sampler_rows[i].which);
      guint min_hz = 1;

      sl_msprof_sampler_get_range (sampler_rows[i].which, &min_hz, NULL);
      if (hz == 0 && sl_msprof_command_get_sampler_state (command, sampler_rows[i].which) > 0)
        hz = min_hz;
      gtk_spin_button_set_value (self->samplers[i], hz);
    }
  gtk_editable_set_text (GTK_EDITABLE (self->host_row), host_sys ? host_sys : "");
  self->built = TRUE;
  update_cb (self);
}

void
sl_profile_dialog_set_program (SlProfileDialog *self,
                               const char      *command_line)
{
  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->program_row), command_line ? command_line : "");
}

void
sl_profile_dialog_set_env_script (SlProfileDialog *self,
                                  const char      *path)
{
  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->env_row), path ? path : "");
}

SlMsprofCommand *
sl_profile_dialog_get_command (SlProfileDialog *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), NULL);
  return self->command;
}

const char *
sl_profile_dialog_get_command_preview (SlProfileDialog *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_DIALOG (self), NULL);
  return gtk_label_get_label (self->command_preview);
}

/* The fields kept per project between openings. */
static const char * const remembered_fields[] = {
  "program_row", "env_row", "output_row", "profiler_row", "metrics_row", "host_row", NULL
};

/**
 * sl_profile_dialog_start_from:
 * @current_folder: (nullable): the folder being looked at
 *
 * Starts from the project in use (see sl_dialog_project_find()): its
 * folder and target, and the fields last closed with for it. Call it
 * once the targets are set.
 */
void
sl_profile_dialog_start_from (SlProfileDialog *self,
                              SlWorkspace     *workspace,
                              const char      *current_folder)
{
  g_autoptr(SlProjectRecord) project = NULL;
  g_autofree char *folder = NULL;

  g_return_if_fail (SL_IS_PROFILE_DIALOG (self));
  g_return_if_fail (SL_IS_WORKSPACE (workspace));

  project = sl_dialog_project_find (workspace, current_folder);
  folder = sl_dialog_project_dup_folder (project, current_folder);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), folder);
  select_target_id (self, project ? sl_project_record_get_target_id (project) : 0);
  if (project != NULL)
    sl_dialog_project_note_used (project);
  sl_dialog_memory_attach (GTK_WINDOW (self), "profile", project ? sl_project_record_get_local_folder (project) : NULL,
                           remembered_fields);
}
