/* sl-target-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-target-dialog.h"

struct _SlTargetDialog
{
  AdwWindow        parent_instance;

  SlApplication   *app;

  AdwToastOverlay *toast_overlay;
  AdwEntryRow     *name_row;
  AdwEntryRow     *host_row;
  AdwEntryRow     *port_row;
  AdwEntryRow     *user_row;
  AdwComboRow     *auth_row;
  AdwEntryRow     *identity_row;
  AdwEntryRow     *known_hosts_row;
  AdwEntryRow     *base_dir_row;
  AdwEntryRow     *setup_row;
  GtkLabel        *error_label;
};

G_DEFINE_FINAL_TYPE (SlTargetDialog, sl_target_dialog, ADW_TYPE_WINDOW)

static const char *
row_text (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

static char *
stripped_text (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (row_text (row)));
}

static gboolean
parse_port (const char *text,
            guint      *port)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 1, 65535, &value, NULL))
    return FALSE;

  *port = (guint)value;
  return TRUE;
}

static gboolean
has_whitespace (const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (g_ascii_isspace (*p))
        return TRUE;
    }
  return FALSE;
}

/**
 * sl_target_dialog_build_record:
 *
 * Returns: (transfer full) (nullable): the target described by the form,
 *   or %NULL with @error saying which field is wrong and how
 */
SlTargetRecord *
sl_target_dialog_build_record (SlTargetDialog  *self,
                               GError         **error)
{
  g_autoptr(SlTargetRecord) record = NULL;
  g_autofree char *name = stripped_text (self->name_row);
  g_autofree char *host = stripped_text (self->host_row);
  g_autofree char *port_text = stripped_text (self->port_row);
  g_autofree char *user = stripped_text (self->user_row);
  g_autofree char *identity = stripped_text (self->identity_row);
  g_autofree char *known_hosts = stripped_text (self->known_hosts_row);
  g_autofree char *base_dir = stripped_text (self->base_dir_row);
  g_autofree char *setup = stripped_text (self->setup_row);
  SlTargetAuth auth = adw_combo_row_get_selected (self->auth_row);
  guint port = 0;

  g_return_val_if_fail (SL_IS_TARGET_DIALOG (self), NULL);

  if (host[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the host name, address or ~/.ssh/config alias of the server"));
      return NULL;
    }
  if (has_whitespace (host))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A host name cannot contain spaces"));
      return NULL;
    }
  if (!parse_port (port_text, &port))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The port must be a number from 1 to 65535 (SSH uses 22)"));
      return NULL;
    }
  if (has_whitespace (user))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A user name cannot contain spaces"));
      return NULL;
    }
  if (auth == SL_TARGET_AUTH_KEY && identity[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the path of the private key file, for example ~/.ssh/id_ed25519"));
      return NULL;
    }
  if (base_dir[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the folder on the server where projects are uploaded"));
      return NULL;
    }

  record = sl_target_record_new (SL_TARGET_KIND_SSH, name[0] ? name : host);
  sl_target_record_set_host (record, host);
  sl_target_record_set_port (record, port);
  sl_target_record_set_user (record, user[0] ? user : NULL);
  sl_target_record_set_auth (record, auth);
  sl_target_record_set_identity_file (record, auth == SL_TARGET_AUTH_KEY ? identity : NULL);
  sl_target_record_set_known_hosts_file (record, known_hosts[0] ? known_hosts : NULL);
  sl_target_record_set_remote_base_folder (record, base_dir);
  sl_target_record_set_setup_command (record, setup[0] ? setup : NULL);

  return g_steal_pointer (&record);
}

static void
validate_cb (SlTargetDialog *self)
{
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  gboolean started = row_text (self->host_row)[0] != '\0';

  gtk_widget_set_visible (GTK_WIDGET (self->identity_row),
                          adw_combo_row_get_selected (self->auth_row) == SL_TARGET_AUTH_KEY);

  record = sl_target_dialog_build_record (self, &error);
  gtk_label_set_label (self->error_label, error && started ? error->message : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL && started);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "target.add", record != NULL);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlTargetDialog *self = SL_TARGET_DIALOG (widget);
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = sl_target_dialog_build_record (self, &error);
  if (record == NULL || !sl_application_add_target (self->app, record, &error))
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  gtk_window_close (GTK_WINDOW (self));
}

static void
sl_target_dialog_dispose (GObject *object)
{
  SlTargetDialog *self = (SlTargetDialog *)object;

  g_clear_object (&self->app);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TARGET_DIALOG);

  G_OBJECT_CLASS (sl_target_dialog_parent_class)->dispose (object);
}

static void
sl_target_dialog_class_init (SlTargetDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_target_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-target-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, host_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, port_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, user_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, auth_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, identity_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, known_hosts_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, base_dir_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, setup_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, validate_cb);

  gtk_widget_class_install_action (widget_class, "target.add", NULL, add_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_target_dialog_init (SlTargetDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  validate_cb (self);
}

SlTargetDialog *
sl_target_dialog_new (SlApplication *app)
{
  SlTargetDialog *self;

  g_return_val_if_fail (SL_IS_APPLICATION (app), NULL);

  self = g_object_new (SL_TYPE_TARGET_DIALOG, NULL);
  self->app = g_object_ref (app);

  return self;
}
