/* sl-atc-dialog.c
 *
 * Every field is checked by SlAtcCommand as it is typed; a field with an
 * error is marked, and the errors are listed under the exact command.
 * Convert hands the fields to whoever runs the conversion, which gives
 * back an SlConvertWorkflow to follow: its stages are shown, Cancel stops
 * it, and the outcome says where the full log is. After a success the
 * project's pipelines are offered, to point one's modelPath at the model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-dialog-fit.h"
#include "sl-atc-dialog.h"
#include "sl-dialog-memory.h"
#include "sl-dialog-project.h"
#include "sl-pipeline-model-path.h"
#include "sl-pipeline-reader.h"
#include "sl-problem.h"
#include "sl-shell-quote.h"
#include "sl-target-record.h"

/* The framework row's order. */
static const SlAtcFramework frameworks[] = {
  SL_ATC_FRAMEWORK_CAFFE, SL_ATC_FRAMEWORK_MINDSPORE, SL_ATC_FRAMEWORK_TENSORFLOW, SL_ATC_FRAMEWORK_ONNX,
};

struct _SlAtcDialog
{
  AdwWindow     parent_instance;

  GListModel   *targets;
  SlAtcCommand *command;
  GPtrArray    *problems;

  SlConvertWorkflow *workflow;   /* the run followed, kept for its outcome */
  GCancellable *cancellable;     /* of the run, while it runs */
  char         *project_dir;     /* the run's */
  GPtrArray    *choices;         /* PipelineChoice, once a success offers them */
  char         *model_path;      /* what a pipeline's modelPath becomes */
  char         *result_inputs;   /* the fields the outcome shown is of */
  GPtrArray    *config_choices;  /* ConfigChoice, for config_row after its "none" entry */

  AdwComboRow  *config_row;

  AdwComboRow  *target_row;
  AdwEntryRow  *folder_row;
  AdwEntryRow  *env_row;
  AdwComboRow  *framework_row;
  AdwEntryRow  *model_row;
  AdwEntryRow  *weight_row;
  AdwEntryRow  *output_row;
  AdwEntryRow  *format_row;
  AdwEntryRow  *shape_row;
  AdwEntryRow  *soc_row;
  AdwEntryRow  *aipp_row;
  AdwComboRow  *precision_row;
  AdwComboRow  *log_row;
  GtkButton    *convert_button;
  GtkButton    *cancel_button;
  GtkLabel     *command_preview;
  GtkLabel     *error_label;
  GtkWidget    *fields_page;
  GtkWidget    *status_box;
  GtkSpinner   *spinner;
  GtkImage     *outcome_icon;
  GtkLabel     *stage_label;
  GtkLabel     *outcome_label;
  GtkWidget    *open_log_button;
  GtkWidget    *open_models_button;
  GtkWidget    *pipeline_box;
  AdwComboRow  *pipeline_row;
  AdwComboRow  *element_row;
  AdwActionRow *apply_row;
  GtkLabel     *pipeline_label;
};

/* A pipeline of the project and its inference elements. */
typedef struct {
  char      *path;
  GPtrArray *slots;  /* SlModelPathSlot */
} PipelineChoice;

static void
pipeline_choice_free (gpointer data)
{
  PipelineChoice *choice = data;

  g_free (choice->path);
  g_ptr_array_unref (choice->slots);
  g_free (choice);
}

/* A run configuration offered, with its project. */
typedef struct {
  SlProjectRecord   *project;
  SlRunConfigRecord *config;
} ConfigChoice;

static void
config_choice_free (gpointer data)
{
  ConfigChoice *choice = data;

  g_object_unref (choice->project);
  g_object_unref (choice->config);
  g_free (choice);
}

/* The fields kept per project between openings, in the order they are
 * put back: the framework first, which shows or hides the weights. */
static const char * const remembered_fields[] = {
  "env_row", "framework_row", "model_row", "weight_row", "output_row", "format_row", "shape_row", "soc_row",
  "aipp_row", "precision_row", "log_row", NULL
};

G_DEFINE_FINAL_TYPE (SlAtcDialog, sl_atc_dialog, ADW_TYPE_WINDOW)

enum {
  CONVERT,
  FINISHED,
  PIPELINE_CHECKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
text_of (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

/* The choice of a combo row whose first item is "Default", or NULL. */
static const char *
choice_of (AdwComboRow        *row,
           const char * const *choices)
{
  guint selected = adw_combo_row_get_selected (row);

  return selected > 0 && selected != GTK_INVALID_LIST_POSITION ? choices[selected - 1] : NULL;
}

static void
read_fields (SlAtcDialog *self)
{
  guint framework = adw_combo_row_get_selected (self->framework_row);

  sl_atc_command_set_framework (self->command, framework < G_N_ELEMENTS (frameworks) ? frameworks[framework]
                                                                                     : SL_ATC_FRAMEWORK_NONE);
  sl_atc_command_set_model (self->command, text_of (self->model_row));
  sl_atc_command_set_weight (self->command, text_of (self->weight_row));
  sl_atc_command_set_output (self->command, text_of (self->output_row));
  sl_atc_command_set_input_format (self->command, text_of (self->format_row));
  sl_atc_command_set_input_shape (self->command, text_of (self->shape_row));
  sl_atc_command_set_soc_version (self->command, text_of (self->soc_row));
  sl_atc_command_set_insert_op_conf (self->command, text_of (self->aipp_row));
  sl_atc_command_set_precision_mode (self->command, choice_of (self->precision_row, sl_atc_precision_modes ()));
  sl_atc_command_set_log_level (self->command, choice_of (self->log_row, sl_atc_log_levels ()));
}

static GtkWidget *
row_for_option (SlAtcDialog *self,
                const char  *option)
{
  const struct { const char *option; gpointer row; } rows[] = {
    { "--framework", self->framework_row }, { "--model", self->model_row }, { "--weight", self->weight_row },
    { "--output", self->output_row }, { "--input_format", self->format_row }, { "--input_shape", self->shape_row },
    { "--soc_version", self->soc_row }, { "--insert_op_conf", self->aipp_row },
    { "--precision_mode", self->precision_row }, { "--log", self->log_row },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (g_strcmp0 (rows[i].option, option) == 0)
      return rows[i].row;
  return NULL;
}

/* An empty field the user has not reached yet is listed, not marked. */
static gboolean
is_untouched_empty (SlAtcDialog *self,
                    GtkWidget   *row)
{
  return ADW_IS_ENTRY_ROW (row) && text_of (ADW_ENTRY_ROW (row))[0] == '\0';
}

static void
mark_rows (SlAtcDialog *self,
           GString     *errors)
{
  GtkWidget *all[] = {
    GTK_WIDGET (self->model_row), GTK_WIDGET (self->weight_row), GTK_WIDGET (self->output_row),
    GTK_WIDGET (self->format_row), GTK_WIDGET (self->shape_row), GTK_WIDGET (self->soc_row),
    GTK_WIDGET (self->aipp_row),
  };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    gtk_widget_remove_css_class (all[i], "error");

  for (guint i = 0; i < self->problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (self->problems, i);
      GtkWidget *row = row_for_option (self, sl_problem_get_subject (problem));

      gboolean error = sl_problem_get_severity (problem) == SL_SEVERITY_ERROR;

      if (row != NULL && error && !is_untouched_empty (self, row))
        gtk_widget_add_css_class (row, "error");
      if (errors->len > 0)
        g_string_append_c (errors, '\n');
      if (error)
        g_string_append_printf (errors, "%s: %s", sl_problem_get_subject (problem), sl_problem_get_message (problem));
      else
        g_string_append_printf (errors, _("%s (warning): %s"), sl_problem_get_subject (problem),
                                sl_problem_get_message (problem));
    }
}

/* Every input of a conversion, to tell whether an outcome is of them. */
static char *
dup_inputs (SlAtcDialog *self)
{
  g_auto(GStrv) argv = sl_atc_command_dup_argv (self->command, NULL);
  g_autofree char *line = argv ? sl_shell_quote_argv ((const char * const *)argv) : NULL;

  return g_strdup_printf ("%u\n%s\n%s\n%s", adw_combo_row_get_selected (self->target_row), text_of (self->folder_row),
                          text_of (self->env_row), line ? line : "");
}

/* An outcome stays in view once its fields change, but says it is of
 * the earlier ones; the offer to point a pipeline at its model goes. */
static void
mark_outcome_stale (SlAtcDialog *self)
{
  g_autofree char *inputs = NULL;
  g_autofree char *title = NULL;

  if (self->result_inputs == NULL || self->cancellable != NULL)
    return;
  inputs = dup_inputs (self);
  if (g_str_equal (inputs, self->result_inputs))
    return;
  g_clear_pointer (&self->result_inputs, g_free);
  /* TRANSLATORS: %s is the outcome of a conversion, such as "Converted" */
  title = g_strdup_printf (_("Before the fields changed: %s. Convert again for these."),
                           gtk_label_get_label (self->stage_label));
  gtk_label_set_label (self->stage_label, title);
  gtk_image_set_from_icon_name (self->outcome_icon, "document-open-recent-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->outcome_icon), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->outcome_icon), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_box), "dim-label");
  gtk_widget_set_visible (self->pipeline_box, FALSE);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
}

static void
update_cb (SlAtcDialog *self)
{
  g_autoptr(GString) errors = g_string_new (NULL);
  g_auto(GStrv) argv = NULL;
  g_autofree char *preview = NULL;
  gboolean caffe;

  if (self->command == NULL)
    return;

  read_fields (self);
  caffe = sl_atc_command_get_framework (self->command) == SL_ATC_FRAMEWORK_CAFFE;
  gtk_widget_set_visible (GTK_WIDGET (self->weight_row), caffe);
  if (!caffe)
    sl_atc_command_set_weight (self->command, NULL);

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = sl_atc_command_validate (self->command);
  mark_rows (self, errors);
  gtk_label_set_label (self->error_label, errors->str);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), errors->len > 0);

  argv = sl_atc_command_dup_argv (self->command, NULL);
  preview = argv ? sl_shell_quote_argv ((const char * const *)argv) : NULL;
  gtk_label_set_label (self->command_preview, preview ? preview : _("Fill in the model, the output name and the SoC version"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "atc.convert", argv != NULL && self->cancellable == NULL);
  mark_outcome_stale (self);
}

static void
convert_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  SlAtcDialog *self = SL_ATC_DIALOG (widget);
  guint selected = adw_combo_row_get_selected (self->target_row);
  g_autoptr(SlTargetRecord) target = NULL;
  g_auto(GStrv) argv = sl_atc_command_dup_argv (self->command, NULL);

  if (argv == NULL)
    return;
  if (self->targets != NULL && selected < g_list_model_get_n_items (self->targets))
    target = g_list_model_get_item (self->targets, selected);
  sl_dialog_memory_save (GTK_WINDOW (self));
  g_signal_emit (self, signals[CONVERT], 0, target ? sl_target_record_get_id (target) : (gint64)0,
                 text_of (self->folder_row), text_of (self->env_row)[0] ? text_of (self->env_row) : NULL);
}

static gboolean
is_running (SlAtcDialog *self)
{
  return self->cancellable != NULL;
}

/* While a run goes on, Cancel stops it; otherwise it closes. */
static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlAtcDialog *self = SL_ATC_DIALOG (widget);

  if (is_running (self))
    {
      gtk_label_set_label (self->stage_label, _("Stopping the conversion…"));
      g_cancellable_cancel (self->cancellable);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

/* Closing stops a run; the workflow ends on its own thread. */
static gboolean
close_request_cb (GtkWindow *window)
{
  SlAtcDialog *self = SL_ATC_DIALOG (window);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return FALSE;
}

static void
open_log_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  SlAtcDialog *self = SL_ATC_DIALOG (widget);
  const char *local = self->workflow ? sl_convert_workflow_get_local_log (self->workflow) : NULL;
  g_autofree char *uri = local ? g_filename_to_uri (local, NULL, NULL) : NULL;

  if (uri != NULL)
    gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

/* The source model and the .om, when both are here, in that order: the
 * window opens their graphs and the conversion document of the two. */
static GStrv
dup_models (SlAtcDialog *self)
{
  g_autofree char *source = NULL;
  const char *om;

  if (self->workflow == NULL || !sl_convert_workflow_succeeded (self->workflow))
    return NULL;
  om = sl_convert_workflow_get_local_output (self->workflow);
  source = sl_convert_workflow_dup_local_source (self->workflow);
  if (om == NULL || source == NULL)
    return NULL;
  {
    const char *paths[] = { source, om, NULL };

    return g_strdupv ((char **) paths);
  }
}

static void
open_models_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlAtcDialog *self = SL_ATC_DIALOG (widget);
  g_auto(GStrv) paths = dup_models (self);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (paths == NULL || parent == NULL)
    return;
  gtk_widget_activate_action (GTK_WIDGET (parent), "win.open-paths", "(s^asv)", "conversion", paths,
                              g_variant_new ("(s)", "graphs"));
}

static void
set_running (SlAtcDialog *self,
             gboolean     running)
{
  gtk_widget_set_visible (self->status_box, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->outcome_icon), !running);
  gtk_widget_set_sensitive (self->fields_page, !running);
  gtk_button_set_label (self->cancel_button, running ? _("_Stop") : _("_Close"));
  if (running)
    {
      g_clear_pointer (&self->result_inputs, g_free);
      gtk_widget_remove_css_class (self->status_box, "dim-label");
      gtk_widget_set_visible (GTK_WIDGET (self->outcome_label), FALSE);
      gtk_widget_set_visible (self->open_log_button, FALSE);
      gtk_widget_set_visible (self->open_models_button, FALSE);
      gtk_widget_set_visible (self->pipeline_box, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->pipeline_label), FALSE);
    }
  update_cb (self);
}

static void
stage_cb (SlConvertWorkflow *workflow,
          GParamSpec        *pspec,
          SlAtcDialog       *self)
{
  SlConvertStage stage = sl_convert_workflow_get_stage (workflow);

  if (stage != SL_CONVERT_STAGE_IDLE && stage != SL_CONVERT_STAGE_DONE && is_running (self))
    gtk_label_set_label (self->stage_label, sl_convert_stage_to_label (stage));
}

static guint
count_errors (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

/* "See the log" always names the log: on the target and its copy here,
 * and the plog files ATC wrote. */
static char *
dup_log_text (SlConvertWorkflow *workflow)
{
  const char * const *plogs = sl_convert_workflow_get_plogs (workflow);
  const char * const *local_plogs = sl_convert_workflow_get_local_plogs (workflow);
  const char *log = sl_convert_workflow_get_log_path (workflow);
  const char *local = sl_convert_workflow_get_local_log (workflow);
  GString *out = g_string_new (NULL);

  if (log != NULL)
    g_string_append_printf (out, _("ATC’s output: %s"), log);
  if (local != NULL && g_strcmp0 (local, log) != 0)
    g_string_append_printf (out, _(" (copied to %s)"), local);
  for (guint i = 0; plogs != NULL && plogs[i] != NULL; i++)
    {
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, _("Detail log: %s"), plogs[i]);
      if (local_plogs != NULL && local_plogs[i][0] != '\0')
        g_string_append_printf (out, _(" (copied to %s)"), local_plogs[i]);
    }
  return g_string_free (out, FALSE);
}

#define MAX_ERRORS_SHOWN 3

/* The first errors as ATC gave them, then where the logs are. */
static char *
dup_failure_text (GPtrArray  *problems,
                  const char *logs)
{
  GString *out = g_string_new (NULL);
  guint shown = 0;

  for (guint i = 0; i < problems->len && shown < MAX_ERRORS_SHOWN; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);
      const char *code = sl_problem_get_code (problem);
      const char *option = sl_problem_get_subject (problem);

      if (sl_problem_get_severity (problem) != SL_SEVERITY_ERROR)
        continue;
      g_string_append_printf (out, "%s%s%s%s%s\n", code ? code : "", code ? " " : "", option ? option : "",
                              option ? ": " : "", sl_problem_get_message (problem));
      shown++;
    }
  g_string_append (out, logs);
  return g_strstrip (g_string_free (out, FALSE));
}

static void
show_outcome (SlAtcDialog *self,
              GError      *error)
{
  GPtrArray *problems = sl_convert_workflow_get_problems (self->workflow);
  gboolean ok = error == NULL && sl_convert_workflow_succeeded (self->workflow);
  g_autofree char *logs = dup_log_text (self->workflow);
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  guint errors = count_errors (problems);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    title = g_strdup (_("Stopped; no model was written"));
  else if (error != NULL)
    title = g_strdup_printf (_("The conversion could not start: %s"), error->message);
  else if (ok)
    title = g_strdup (_("Converted"));
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The conversion failed with %u error, listed in Problems",
                                          "The conversion failed with %u errors, listed in Problems", errors), errors);

  /* After a success the log is only a button away. */
  if (ok)
    text = g_strdup_printf (_("The model: %s\nIt is kept among the project’s outputs."),
                            sl_convert_workflow_get_output (self->workflow));
  else
    text = dup_failure_text (problems, logs);

  gtk_image_set_from_icon_name (self->outcome_icon, ok ? "object-select-symbolic" : "dialog-error-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->outcome_icon), ok ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->outcome_icon), ok ? "success" : "error");
  gtk_label_set_label (self->stage_label, title);
  gtk_label_set_label (self->outcome_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->outcome_label), text[0] != '\0');
  gtk_widget_set_visible (self->open_log_button, sl_convert_workflow_get_local_log (self->workflow) != NULL);
  {
    g_auto(GStrv) models = ok ? dup_models (self) : NULL;

    gtk_widget_set_visible (self->open_models_button, models != NULL);
  }
}

static void offer_pipelines (SlAtcDialog *self);

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(SlAtcDialog) self = data;
  SlConvertWorkflow *workflow = SL_CONVERT_WORKFLOW (source);
  g_autoptr(GError) error = NULL;

  sl_convert_workflow_run_finish (workflow, result, &error);
  g_signal_handlers_disconnect_by_func (workflow, stage_cb, self);
  g_clear_object (&self->cancellable);
  if (self->command == NULL)
    return;  /* disposed meanwhile */

  set_running (self, FALSE);
  show_outcome (self, error);
  g_free (self->result_inputs);
  self->result_inputs = dup_inputs (self);
  g_signal_emit (self, signals[FINISHED], 0, workflow);
  if (error == NULL && sl_convert_workflow_succeeded (workflow))
    offer_pipelines (self);
}

/* Pipelines */

static void
find_pipelines_thread (GTask        *task,
                       gpointer      source,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  g_autoptr(GPtrArray) paths = sl_pipeline_model_path_find_pipelines (task_data);
  GPtrArray *choices = g_ptr_array_new_with_free_func (pipeline_choice_free);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (paths, i));
      g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_file (file, cancellable, NULL);
      PipelineChoice *choice;

      if (pipeline == NULL)
        continue;
      choice = g_new0 (PipelineChoice, 1);
      choice->path = g_strdup (g_ptr_array_index (paths, i));
      choice->slots = sl_pipeline_model_path_list_slots (pipeline);
      if (choice->slots->len > 0)
        g_ptr_array_add (choices, choice);
      else
        pipeline_choice_free (choice);
    }
  g_task_return_pointer (task, choices, (GDestroyNotify)g_ptr_array_unref);
}

static char *
dup_relative (const char *project_dir,
              const char *path)
{
  g_autofree char *prefix = g_str_has_suffix (project_dir, "/") ? g_strdup (project_dir)
                                                                : g_strconcat (project_dir, "/", NULL);

  return g_str_has_prefix (path, prefix) ? g_strdup (path + strlen (prefix)) : g_strdup (path);
}

static SlModelPathSlot *
selected_slot (SlAtcDialog *self)
{
  guint pipeline = adw_combo_row_get_selected (self->pipeline_row);
  guint element = adw_combo_row_get_selected (self->element_row);
  PipelineChoice *choice;

  if (self->choices == NULL || pipeline >= self->choices->len)
    return NULL;
  choice = g_ptr_array_index (self->choices, pipeline);
  return element < choice->slots->len ? g_ptr_array_index (choice->slots, element) : NULL;
}

/* The element's modelPath as it is, under its name: a combo row's value
 * has no room for both. */
static void
element_selected_cb (SlAtcDialog *self)
{
  SlModelPathSlot *slot = selected_slot (self);
  g_autofree char *now = slot ? g_strdup_printf (_("modelPath now: %s"), slot->model_path ? slot->model_path
                                                                                        : _("none"))
                              : NULL;

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->element_row), now ? now : "");
}

static void
pipeline_selected_cb (SlAtcDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->pipeline_row);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  PipelineChoice *choice;

  if (self->choices == NULL || selected >= self->choices->len)
    return;
  choice = g_ptr_array_index (self->choices, selected);
  for (guint i = 0; i < choice->slots->len; i++)
    {
      SlModelPathSlot *slot = g_ptr_array_index (choice->slots, i);
      g_autofree char *name = g_strdup_printf ("%s / %s", slot->stream_name, slot->element_name);

      gtk_string_list_append (names, name);
    }
  adw_combo_row_set_model (self->element_row, G_LIST_MODEL (names));
  element_selected_cb (self);
}

static void
find_pipelines_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  g_autoptr(SlAtcDialog) self = data;
  g_autoptr(GPtrArray) choices = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  /* Not offered for an outcome whose fields changed meanwhile. */
  if (self->command == NULL || self->result_inputs == NULL || choices == NULL || choices->len == 0)
    return;
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  self->choices = g_steal_pointer (&choices);
  for (guint i = 0; i < self->choices->len; i++)
    {
      PipelineChoice *choice = g_ptr_array_index (self->choices, i);
      g_autofree char *name = dup_relative (self->project_dir, choice->path);

      gtk_string_list_append (names, name);
    }
  adw_combo_row_set_model (self->pipeline_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->pipeline_row, 0);
  pipeline_selected_cb (self);
  adw_action_row_set_subtitle (self->apply_row, self->model_path);
  gtk_widget_set_visible (self->pipeline_box, TRUE);
}

static void
offer_pipelines (SlAtcDialog *self)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, find_pipelines_cb, g_object_ref (self));
  g_autofree char *om = sl_atc_command_dup_om_path (self->command);

  g_free (self->model_path);
  self->model_path = sl_pipeline_model_path_for_pipeline (om);
  g_task_set_task_data (task, g_strdup (self->project_dir), g_free);
  g_task_run_in_thread (task, find_pipelines_thread);
}

typedef struct {
  char  *path;
  guint  stream;
  guint  element;
  char  *model_path;
  char  *project_dir;
} ApplyJob;

static void
apply_job_free (gpointer data)
{
  ApplyJob *job = data;

  g_free (job->path);
  g_free (job->model_path);
  g_free (job->project_dir);
  g_free (job);
}

static void
apply_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  ApplyJob *job = task_data;
  GError *error = NULL;
  GPtrArray *problems = sl_pipeline_model_path_apply (job->path, job->stream, job->element, job->model_path,
                                                      job->project_dir, cancellable, &error);

  if (problems == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, problems, (GDestroyNotify)g_ptr_array_unref);
}

static void
apply_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  g_autoptr(SlAtcDialog) self = data;
  ApplyJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  if (self->command == NULL)
    return;
  name = g_path_get_basename (job->path);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "atc.set-model-path", TRUE);
  if (problems == NULL)
    text = g_strdup_printf (_("%s was not changed: %s"), name, error->message);
  else if (count_errors (problems) == 0)
    text = g_strdup_printf (_("%s now uses %s; the pipeline check finds no error."), name, job->model_path);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s now uses %s; the pipeline check finds %u error, listed in Problems.",
                                         "%s now uses %s; the pipeline check finds %u errors, listed in Problems.",
                                         count_errors (problems)),
                            name, job->model_path, count_errors (problems));
  gtk_label_set_label (self->pipeline_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->pipeline_label), TRUE);
  if (problems != NULL)
    {
      g_signal_emit (self, signals[PIPELINE_CHECKED], 0, job->path, problems);
      offer_pipelines (self);
    }
}

static void
set_model_path_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  SlAtcDialog *self = SL_ATC_DIALOG (widget);
  guint pipeline = adw_combo_row_get_selected (self->pipeline_row);
  SlModelPathSlot *slot = selected_slot (self);
  g_autoptr(GTask) task = NULL;
  PipelineChoice *choice;
  ApplyJob *job;

  if (slot == NULL || self->model_path == NULL)
    return;
  choice = g_ptr_array_index (self->choices, pipeline);
  job = g_new0 (ApplyJob, 1);
  job->path = g_strdup (choice->path);
  job->stream = slot->stream;
  job->element = slot->element;
  job->model_path = g_strdup (self->model_path);
  job->project_dir = g_strdup (self->project_dir);
  gtk_widget_action_set_enabled (widget, "atc.set-model-path", FALSE);
  task = g_task_new (NULL, NULL, apply_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, apply_job_free);
  g_task_run_in_thread (task, apply_thread);
}

static void
fill_choices (AdwComboRow        *row,
              const char * const *choices,
              const char         *first)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  gtk_string_list_append (names, first);
  for (guint i = 0; choices[i] != NULL; i++)
    gtk_string_list_append (names, choices[i]);
  adw_combo_row_set_model (row, G_LIST_MODEL (names));
}

/* Run configurations */

static void
select_target_id (SlAtcDialog *self,
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
select_choice (AdwComboRow        *row,
               const char         *value,
               const char * const *choices)
{
  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (choices[i], value))
      adw_combo_row_set_selected (row, i + 1);
}

/* A Convert configuration is ATC's command line: each --option=value it
 * knows goes into its field; anything else is left to the fields. */
static void
load_convert_config (SlAtcDialog       *self,
                     SlRunConfigRecord *config)
{
  const char * const *args = sl_run_config_record_get_arguments (config);
  const struct { const char *option; AdwEntryRow *row; } entries[] = {
    { "--model=", self->model_row }, { "--weight=", self->weight_row }, { "--output=", self->output_row },
    { "--input_format=", self->format_row }, { "--input_shape=", self->shape_row },
    { "--soc_version=", self->soc_row }, { "--insert_op_conf=", self->aipp_row },
  };

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      const char *arg = args[i];

      if (g_str_has_prefix (arg, "--framework="))
        {
          gint64 number = 0;

          if (g_ascii_string_to_signed (arg + strlen ("--framework="), 10, 0, 9, &number, NULL))
            for (guint f = 0; f < G_N_ELEMENTS (frameworks); f++)
              if ((gint64)frameworks[f] == number)
                adw_combo_row_set_selected (self->framework_row, f);
        }
      else if (g_str_has_prefix (arg, "--precision_mode="))
        select_choice (self->precision_row, arg + strlen ("--precision_mode="), sl_atc_precision_modes ());
      else if (g_str_has_prefix (arg, "--log="))
        select_choice (self->log_row, arg + strlen ("--log="), sl_atc_log_levels ());
      else
        for (guint e = 0; e < G_N_ELEMENTS (entries); e++)
          if (g_str_has_prefix (arg, entries[e].option))
            gtk_editable_set_text (GTK_EDITABLE (entries[e].row), arg + strlen (entries[e].option));
    }
}

/* A configuration brings its project's folder (or its own working
 * folder) and target; a Convert one its ATC options too. */
static void
config_selected_cb (SlAtcDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->config_row);
  ConfigChoice *choice;
  const char *local, *working;
  g_autofree char *folder = NULL;

  if (self->config_choices == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION ||
      selected > self->config_choices->len)
    return;
  choice = g_ptr_array_index (self->config_choices, selected - 1);
  local = sl_project_record_get_local_folder (choice->project);
  working = sl_run_config_record_get_working_folder (choice->config);
  if (working == NULL || working[0] == '\0' || g_str_equal (working, "."))
    folder = g_strdup (local);
  else
    folder = g_path_is_absolute (working) ? g_strdup (working) : g_build_filename (local, working, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), folder);
  select_target_id (self, sl_project_record_get_target_id (choice->project));
  if (sl_run_config_record_get_kind (choice->config) == SL_RUN_CONFIG_KIND_CONVERT)
    load_convert_config (self, choice->config);
}

/**
 * sl_atc_dialog_set_projects:
 * @projects: (element-type SlProjectRecord): projects with their run
 *   configurations
 *
 * Offers every run configuration, as Run… and Profile do.
 */
void
sl_atc_dialog_set_projects (SlAtcDialog *self,
                            GPtrArray   *projects)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_return_if_fail (SL_IS_ATC_DIALOG (self));

  g_clear_pointer (&self->config_choices, g_ptr_array_unref);
  self->config_choices = g_ptr_array_new_with_free_func (config_choice_free);
  gtk_string_list_append (names, _("None: fill in the fields"));
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
          g_ptr_array_add (self->config_choices, choice);
        }
    }
  g_signal_handlers_block_by_func (self->config_row, config_selected_cb, self);
  adw_combo_row_set_model (self->config_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->config_row, 0);
  g_signal_handlers_unblock_by_func (self->config_row, config_selected_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->config_row), self->config_choices->len > 0);
}

/**
 * sl_atc_dialog_select_config:
 * @config: one of the configurations of sl_atc_dialog_set_projects()
 *
 * Returns: %TRUE when @config is offered, and now fills the fields
 */
gboolean
sl_atc_dialog_select_config (SlAtcDialog       *self,
                             SlRunConfigRecord *config)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), FALSE);

  for (guint i = 0; self->config_choices != NULL && i < self->config_choices->len; i++)
    if (((ConfigChoice *)g_ptr_array_index (self->config_choices, i))->config == config)
      {
        adw_combo_row_set_selected (self->config_row, i + 1);
        return TRUE;
      }
  return FALSE;
}

/**
 * sl_atc_dialog_start_from:
 * @current_folder: (nullable): the folder being looked at
 *
 * Starts from the project in use (see sl_dialog_project_find()): its
 * folder and target, and the fields last closed with for it. Call it
 * once the targets are set.
 */
void
sl_atc_dialog_start_from (SlAtcDialog *self,
                          SlWorkspace *workspace,
                          const char  *current_folder)
{
  g_autoptr(SlProjectRecord) project = NULL;
  g_autofree char *folder = NULL;

  g_return_if_fail (SL_IS_ATC_DIALOG (self));
  g_return_if_fail (SL_IS_WORKSPACE (workspace));

  project = sl_dialog_project_find (workspace, current_folder);
  folder = sl_dialog_project_dup_folder (project, current_folder);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), folder);
  select_target_id (self, project ? sl_project_record_get_target_id (project) : 0);
  if (project != NULL)
    sl_dialog_project_note_used (project);
  sl_dialog_memory_attach (GTK_WINDOW (self), "convert", project ? sl_project_record_get_local_folder (project) : NULL,
                           remembered_fields);
}

static void
sl_atc_dialog_dispose (GObject *object)
{
  SlAtcDialog *self = SL_ATC_DIALOG (object);

  /* update_cb reads nothing once the command is gone. */
  g_clear_object (&self->command);
  g_clear_object (&self->targets);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->workflow);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->model_path, g_free);
  g_clear_pointer (&self->result_inputs, g_free);
  g_clear_pointer (&self->config_choices, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_ATC_DIALOG);

  G_OBJECT_CLASS (sl_atc_dialog_parent_class)->dispose (object);
}

static void
sl_atc_dialog_class_init (SlAtcDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_atc_dialog_dispose;

  /**
   * SlAtcDialog::convert:
   * @target_id: the target's id in the workspace database, 0 for this computer
   * @project_dir: the folder uploaded and run in
   * @env_script: (nullable): the script to source on the target
   *
   * The command is sl_atc_dialog_get_command().
   */
  signals[CONVERT] =
    g_signal_new ("convert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * SlAtcDialog::finished:
   * @workflow: the run sl_atc_dialog_follow() was given, ended (or cancelled)
   */
  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_CONVERT_WORKFLOW);
  /**
   * SlAtcDialog::pipeline-checked:
   * @path: the pipeline whose modelPath was set
   * @problems: (element-type SlProblem): what the check found in it then
   */
  signals[PIPELINE_CHECKED] =
    g_signal_new ("pipeline-checked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_PTR_ARRAY);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-atc-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, env_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, framework_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, weight_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, output_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, shape_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, soc_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, aipp_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, precision_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, log_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, convert_button);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, command_preview);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, fields_page);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, status_box);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, config_row);
  gtk_widget_class_bind_template_callback (widget_class, config_selected_cb);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, outcome_icon);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, stage_label);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, outcome_label);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, open_log_button);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, open_models_button);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, pipeline_box);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, pipeline_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, element_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, apply_row);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, pipeline_label);
  gtk_widget_class_bind_template_callback (widget_class, update_cb);
  gtk_widget_class_bind_template_callback (widget_class, pipeline_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, element_selected_cb);

  GTK_WINDOW_CLASS (klass)->close_request = close_request_cb;

  gtk_widget_class_install_action (widget_class, "atc.convert", NULL, convert_action);
  gtk_widget_class_install_action (widget_class, "atc.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "atc.open-log", NULL, open_log_action);
  gtk_widget_class_install_action (widget_class, "atc.open-models", NULL, open_models_action);
  gtk_widget_class_install_action (widget_class, "atc.set-model-path", NULL, set_model_path_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "atc.cancel", NULL);
}

static void
sl_atc_dialog_init (SlAtcDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));
  fill_choices (self->precision_row, sl_atc_precision_modes (), _("Default"));
  fill_choices (self->log_row, sl_atc_log_levels (), _("Default"));
  self->command = sl_atc_command_new ();
  update_cb (self);
}

SlAtcDialog *
sl_atc_dialog_new (const char *project_dir)
{
  SlAtcDialog *self = g_object_new (SL_TYPE_ATC_DIALOG, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), project_dir ? project_dir : g_get_home_dir ());
  return self;
}

void
sl_atc_dialog_set_targets (SlAtcDialog *self,
                           GListModel  *targets,
                           gint64       selected_id)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint selected = 0;

  g_return_if_fail (SL_IS_ATC_DIALOG (self));

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

GPtrArray *
sl_atc_dialog_get_problems (SlAtcDialog *self)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), NULL);
  return self->problems;
}

SlAtcCommand *
sl_atc_dialog_get_command (SlAtcDialog *self)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), NULL);
  return self->command;
}

/**
 * sl_atc_dialog_follow:
 * @workflow: a conversion of the dialog's command, not started yet
 *
 * Runs @workflow, showing its stages; Cancel stops it. ::finished is
 * emitted when it ends.
 */
void
sl_atc_dialog_follow (SlAtcDialog       *self,
                      SlConvertWorkflow *workflow,
                      const char        *project_dir)
{
  g_return_if_fail (SL_IS_ATC_DIALOG (self));
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (workflow));
  g_return_if_fail (!is_running (self));

  g_set_object (&self->workflow, workflow);
  g_free (self->project_dir);
  self->project_dir = g_strdup (project_dir);
  self->cancellable = g_cancellable_new ();
  gtk_label_set_label (self->stage_label, sl_convert_stage_to_label (SL_CONVERT_STAGE_PREFLIGHT));
  set_running (self, TRUE);
  g_signal_connect_object (workflow, "notify::stage", G_CALLBACK (stage_cb), self, 0);
  sl_convert_workflow_run_async (workflow, self->cancellable, run_done_cb, g_object_ref (self));
}

gboolean
sl_atc_dialog_is_running (SlAtcDialog *self)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), FALSE);
  return is_running (self);
}

const char *
sl_atc_dialog_get_command_preview (SlAtcDialog *self)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), NULL);
  return gtk_label_get_label (self->command_preview);
}
