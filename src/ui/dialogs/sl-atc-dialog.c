/* sl-atc-dialog.c
 *
 * Every field is checked by SlAtcCommand as it is typed; a field with an
 * error is marked, and the errors are listed under the exact command.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-atc-dialog.h"
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
  GtkLabel     *command_preview;
  GtkLabel     *error_label;
};

G_DEFINE_FINAL_TYPE (SlAtcDialog, sl_atc_dialog, ADW_TYPE_WINDOW)

enum {
  CONVERT,
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
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "atc.convert", argv != NULL);
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
  g_signal_emit (self, signals[CONVERT], 0, target ? sl_target_record_get_id (target) : (gint64)0,
                 text_of (self->folder_row), text_of (self->env_row)[0] ? text_of (self->env_row) : NULL);
  gtk_window_close (GTK_WINDOW (self));
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

static void
sl_atc_dialog_dispose (GObject *object)
{
  SlAtcDialog *self = SL_ATC_DIALOG (object);

  /* update_cb reads nothing once the command is gone. */
  g_clear_object (&self->command);
  g_clear_object (&self->targets);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
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
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, command_preview);
  gtk_widget_class_bind_template_child (widget_class, SlAtcDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, update_cb);

  gtk_widget_class_install_action (widget_class, "atc.convert", NULL, convert_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_atc_dialog_init (SlAtcDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
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

const char *
sl_atc_dialog_get_command_preview (SlAtcDialog *self)
{
  g_return_val_if_fail (SL_IS_ATC_DIALOG (self), NULL);
  return gtk_label_get_label (self->command_preview);
}
