/* sl-run-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-run-dialog.h"

struct _SlRunDialog
{
  AdwWindow    parent_instance;

  AdwEntryRow *command_row;
  AdwEntryRow *folder_row;
  GtkLabel    *error_label;
};

G_DEFINE_FINAL_TYPE (SlRunDialog, sl_run_dialog, ADW_TYPE_WINDOW)

enum {
  RUN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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
  char *why = NULL;

  g_return_val_if_fail (SL_IS_RUN_DIALOG (self), FALSE);

  if (command[0] == '\0')
    why = g_strdup (_("Type the command to run, for example: python3 train.py --epochs 3"));
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
validate_cb (SlRunDialog *self)
{
  g_autofree char *message = NULL;
  gboolean valid = sl_run_dialog_validate (self, &message);
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));

  /* An empty command is not an error yet: it is where everyone starts. */
  gtk_label_set_label (self->error_label, command[0] ? message : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), !valid && command[0]);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.run", valid);
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlRunDialog *self = SL_RUN_DIALOG (widget);
  const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));

  if (!sl_run_dialog_validate (self, NULL))
    return;

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

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-run-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, validate_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);

  gtk_widget_class_install_action (widget_class, "run.run", NULL, run_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_run_dialog_init (SlRunDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
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
