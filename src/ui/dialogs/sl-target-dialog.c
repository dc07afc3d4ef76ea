/* sl-target-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-dialog-fit.h"
#include "sl-known-hosts.h"
#include "sl-ssh-config.h"
#include "sl-ssh-dialogs.h"
#include "sl-ssh-target.h"
#include "sl-target-dialog.h"

typedef enum {
  FIELD_NAME,
  FIELD_HOST,
  FIELD_PORT,
  FIELD_USER,
  FIELD_IDENTITY,
  FIELD_KNOWN_HOSTS,
  FIELD_BASE_DIR,
  N_FIELDS
} Field;

typedef struct {
  AdwActionRow      *row;
  GtkStack          *stack;
  GtkImage          *icon;
  SlTargetStepState  state;
  char              *detail;
} StepRow;

struct _SlTargetDialog
{
  AdwWindow            parent_instance;

  SlWorkspace         *workspace;
  SlTargetRecord      *editing;       /* NULL when adding */

  AdwToastOverlay     *toast_overlay;
  GtkButton           *save_button;
  AdwEntryRow         *name_row;
  AdwEntryRow         *host_row;
  GtkMenuButton       *host_aliases_button;
  AdwEntryRow         *port_row;
  AdwEntryRow         *user_row;
  AdwComboRow         *auth_row;
  AdwEntryRow         *identity_row;
  AdwEntryRow         *known_hosts_row;
  AdwEntryRow         *base_dir_row;
  AdwEntryRow         *setup_row;
  AdwActionRow        *name_error;
  AdwActionRow        *host_error;
  AdwActionRow        *port_error;
  AdwActionRow        *user_error;
  AdwActionRow        *identity_error;
  AdwActionRow        *known_hosts_error;
  AdwActionRow        *base_dir_error;
  AdwPreferencesGroup *test_group;
  GtkButton           *test_button;

  StepRow              steps[SL_SSH_N_STEPS];

  SlSshSession        *session;
  SlTargetRecord      *tested;        /* the values the running test uses */
  GCancellable        *cancellable;
  GtkWindow           *question;      /* the open prompt or host key dialog */
  GtkFileChooserNative *chooser;
  guint                timeout;
  gboolean             show_all_errors;
  gboolean             can_save;
};

G_DEFINE_FINAL_TYPE (SlTargetDialog, sl_target_dialog, ADW_TYPE_WINDOW)

#define TOUCHED_KEY "sl-touched"

static void     start_test           (SlTargetDialog *self);
static void     forget_test          (SlTargetDialog *self);
static gboolean scroll_to_results_cb (gpointer        data);

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

static char *
expand_home (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static gboolean
name_is_taken (SlTargetDialog *self,
               const char     *name)
{
  GListModel *targets = sl_workspace_get_targets (self->workspace);
  gint64 own_id = self->editing != NULL ? sl_target_record_get_id (self->editing) : 0;
  g_autofree char *folded = g_utf8_casefold (name, -1);

  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (targets, i);
      g_autofree char *other = g_utf8_casefold (sl_target_record_get_name (target), -1);

      if (sl_target_record_get_id (target) != own_id && g_str_equal (folded, other))
        return TRUE;
    }
  return FALSE;
}

/* Why @path cannot be used as a private key, or NULL when it can. */
static char *
check_key_file (const char *path)
{
  g_autofree char *expanded = expand_home (path);
  g_autoptr(GFile) file = g_file_new_for_path (expanded);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_ACCESS_CAN_READ,
                            G_FILE_QUERY_INFO_NONE, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return g_strdup (_("There is no file at this path"));
  if (info == NULL)
    return g_strdup_printf (_("Cannot read the key file: %s"), error->message);
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    return g_strdup (_("This is not a file; choose the private key file, for example ~/.ssh/id_ed25519"));
  if (g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_ACCESS_CAN_READ) &&
      !g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_READ))
    return g_strdup (_("You are not allowed to read this key file; check its owner and permissions"));
  if (g_str_has_suffix (expanded, ".pub"))
    return g_strdup (_("This is the public half of the key; choose the private key file, the one without .pub"));
  return NULL;
}

/* Fills @reasons with what is wrong with each field (NULL when it is
 * fine) and returns whether everything is. */
static gboolean
check_fields (SlTargetDialog *self,
              char           *reasons[N_FIELDS])
{
  g_autofree char *name = stripped_text (self->name_row);
  g_autofree char *host = stripped_text (self->host_row);
  g_autofree char *port_text = stripped_text (self->port_row);
  g_autofree char *user = stripped_text (self->user_row);
  g_autofree char *identity = stripped_text (self->identity_row);
  g_autofree char *known_hosts = stripped_text (self->known_hosts_row);
  g_autofree char *base_dir = stripped_text (self->base_dir_row);
  SlTargetAuth auth = adw_combo_row_get_selected (self->auth_row);
  guint port;
  gboolean ok = TRUE;

  for (guint i = 0; i < N_FIELDS; i++)
    reasons[i] = NULL;

  if (name[0] == '\0')
    reasons[FIELD_NAME] = g_strdup (_("Type a name for this target, such as the server’s name"));
  else if (name_is_taken (self, name))
    reasons[FIELD_NAME] = g_strdup_printf (_("Another target is already called “%s”; choose another name"), name);

  if (host[0] == '\0')
    reasons[FIELD_HOST] = g_strdup (_("Type the host name, address or ~/.ssh/config alias of the server"));
  else if (has_whitespace (host))
    reasons[FIELD_HOST] = g_strdup (_("A host name cannot contain spaces"));

  if (!parse_port (port_text, &port))
    reasons[FIELD_PORT] = g_strdup (_("The port must be a number from 1 to 65535 (SSH uses 22)"));

  if (has_whitespace (user))
    reasons[FIELD_USER] = g_strdup (_("A user name cannot contain spaces"));

  if (auth == SL_TARGET_AUTH_KEY)
    {
      if (identity[0] == '\0')
        reasons[FIELD_IDENTITY] = g_strdup (_("Type or choose the private key file, for example ~/.ssh/id_ed25519"));
      else
        reasons[FIELD_IDENTITY] = check_key_file (identity);
    }

  if (known_hosts[0] != '\0')
    {
      g_autofree char *expanded = expand_home (known_hosts);

      if (g_file_test (expanded, G_FILE_TEST_IS_DIR))
        reasons[FIELD_KNOWN_HOSTS] = g_strdup (_("This is a folder; type the path of a file, or leave it empty for ~/.ssh/known_hosts"));
    }

  if (base_dir[0] == '\0')
    reasons[FIELD_BASE_DIR] = g_strdup (_("Type the folder on the server where projects are uploaded"));

  for (guint i = 0; i < N_FIELDS; i++)
    ok = ok && reasons[i] == NULL;
  return ok;
}

static void
clear_reasons (char *reasons[N_FIELDS])
{
  for (guint i = 0; i < N_FIELDS; i++)
    g_clear_pointer (&reasons[i], g_free);
}

static SlTargetRecord *
record_from_fields (SlTargetDialog *self)
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
  guint port = SL_TARGET_DEFAULT_PORT;

  parse_port (port_text, &port);

  record = sl_target_record_new (SL_TARGET_KIND_SSH, name);
  if (self->editing != NULL)
    sl_target_record_set_id (record, sl_target_record_get_id (self->editing));
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
  char *reasons[N_FIELDS];

  g_return_val_if_fail (SL_IS_TARGET_DIALOG (self), NULL);

  if (!check_fields (self, reasons))
    {
      for (guint i = 0; i < N_FIELDS; i++)
        {
          if (reasons[i] != NULL)
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, reasons[i]);
              break;
            }
        }
      clear_reasons (reasons);
      return NULL;
    }

  return record_from_fields (self);
}

static void
show_reason (SlTargetDialog *self,
             AdwEntryRow    *field,
             AdwActionRow   *error_row,
             const char     *reason)
{
  /* A field's reason shows once the field was edited, or after the
   * user tried to go on, so an empty new form is not all red. */
  gboolean shown = reason != NULL && gtk_widget_get_visible (GTK_WIDGET (field)) &&
                   (self->show_all_errors || g_object_get_data (G_OBJECT (field), TOUCHED_KEY) != NULL);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (error_row), reason != NULL ? reason : "");
  gtk_widget_set_visible (GTK_WIDGET (error_row), shown);
  if (shown)
    gtk_widget_add_css_class (GTK_WIDGET (field), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (field), "error");
}

static void
update_validation (SlTargetDialog *self)
{
  char *reasons[N_FIELDS];
  gboolean ok;
  gboolean key = adw_combo_row_get_selected (self->auth_row) == SL_TARGET_AUTH_KEY;

  gtk_widget_set_visible (GTK_WIDGET (self->identity_row), key);

  ok = check_fields (self, reasons);
  show_reason (self, self->name_row, self->name_error, reasons[FIELD_NAME]);
  show_reason (self, self->host_row, self->host_error, reasons[FIELD_HOST]);
  show_reason (self, self->port_row, self->port_error, reasons[FIELD_PORT]);
  show_reason (self, self->user_row, self->user_error, reasons[FIELD_USER]);
  show_reason (self, self->identity_row, self->identity_error, reasons[FIELD_IDENTITY]);
  show_reason (self, self->known_hosts_row, self->known_hosts_error, reasons[FIELD_KNOWN_HOSTS]);
  show_reason (self, self->base_dir_row, self->base_dir_error, reasons[FIELD_BASE_DIR]);
  clear_reasons (reasons);

  self->can_save = ok;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "target.save", ok);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "target.test", ok || self->cancellable != NULL);
}

static void
validate_cb (SlTargetDialog *self,
             GObject        *emitter)
{
  if (ADW_IS_ENTRY_ROW (emitter))
    g_object_set_data (emitter, TOUCHED_KEY, GINT_TO_POINTER (TRUE));
  /* Every field but the name is part of the connection test. */
  if (emitter != G_OBJECT (self->name_row))
    forget_test (self);
  update_validation (self);
}

/* File choosers */

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     AdwEntryRow     *row)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (row), path);
    }
  gtk_native_dialog_destroy (chooser);
}

static void
choose_file (SlTargetDialog *self,
             AdwEntryRow    *row,
             const char     *title)
{
  g_autofree char *current = stripped_text (row);
  g_autofree char *expanded = expand_home (current[0] ? current : "~/.ssh");
  g_autofree char *parent = g_path_get_dirname (expanded);
  g_autoptr(GFile) folder = NULL;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  folder = g_file_new_for_path (g_file_test (expanded, G_FILE_TEST_IS_DIR) ? expanded : parent);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), row, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
choose_identity_cb (SlTargetDialog *self)
{
  choose_file (self, self->identity_row, _("Choose the Private Key File"));
}

static void
choose_known_hosts_cb (SlTargetDialog *self)
{
  choose_file (self, self->known_hosts_row, _("Choose the Known Hosts File"));
}

/* Connection test */

static const char *
state_icon (SlTargetStepState state)
{
  switch (state)
    {
    case SL_TARGET_STEP_OK:      return "emblem-ok-symbolic";
    case SL_TARGET_STEP_WARNING: return "dialog-warning-symbolic";
    case SL_TARGET_STEP_FAILED:  return "dialog-error-symbolic";
    case SL_TARGET_STEP_SKIPPED: return "action-unavailable-symbolic";
    case SL_TARGET_STEP_IDLE:
    case SL_TARGET_STEP_RUNNING:
    default:                     return "media-record-symbolic";
    }
}

static const char *
state_style (SlTargetStepState state)
{
  switch (state)
    {
    case SL_TARGET_STEP_OK:      return "success";
    case SL_TARGET_STEP_WARNING: return "warning";
    case SL_TARGET_STEP_FAILED:  return "error";
    case SL_TARGET_STEP_IDLE:
    case SL_TARGET_STEP_RUNNING:
    case SL_TARGET_STEP_SKIPPED:
    default:                     return "dim-label";
    }
}

static void
set_step (SlTargetDialog    *self,
          SlSshStep          step,
          SlTargetStepState  state,
          const char        *detail,
          const char        *hint)
{
  StepRow *row = &self->steps[step];
  static const char *styles[] = { "success", "warning", "error", "dim-label" };
  g_autofree char *text = NULL;

  row->state = state;
  if (hint != NULL && hint[0] != '\0')
    text = g_strdup_printf ("%s\n%s %s", detail, _("What to do:"), hint);
  else
    text = g_strdup (detail);
  g_free (row->detail);
  row->detail = g_strdup (text);

  adw_action_row_set_subtitle (row->row, text);
  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (row->icon), styles[i]);
  gtk_widget_add_css_class (GTK_WIDGET (row->icon), state_style (state));
  gtk_image_set_from_icon_name (row->icon, state_icon (state));
  gtk_stack_set_visible_child_name (row->stack, state == SL_TARGET_STEP_RUNNING ? "spinner" : "icon");
}

static void
mark_next_running (SlTargetDialog *self)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      if (self->steps[i].state == SL_TARGET_STEP_IDLE)
        {
          set_step (self, i, SL_TARGET_STEP_RUNNING, _("Checking…"), NULL);
          return;
        }
    }
}

static void
step_cb (SlSshStep        step,
         SlSshStepStatus  status,
         const char      *detail,
         const char      *hint,
         gpointer         user_data)
{
  SlTargetDialog *self = user_data;
  SlTargetStepState state = status == SL_SSH_STEP_OK ? SL_TARGET_STEP_OK
                          : status == SL_SSH_STEP_WARNING ? SL_TARGET_STEP_WARNING
                          : SL_TARGET_STEP_FAILED;

  /* A test forgotten since: its values are no longer the form's. */
  if (step >= SL_SSH_N_STEPS || self->cancellable == NULL)
    return;

  /* A step that was skipped over (such as the address through a proxy)
   * counts as passed once a later one reports. */
  set_step (self, step, state, detail, hint);
  if (state != SL_TARGET_STEP_FAILED)
    mark_next_running (self);
}

static char *
dup_server_name (SlTargetRecord *record)
{
  const char *user = sl_target_record_get_user (record);

  if (sl_target_record_get_port (record) != SL_TARGET_DEFAULT_PORT)
    return g_strdup_printf ("%s%s%s:%u", user ? user : "", user ? "@" : "",
                            sl_target_record_get_host (record), sl_target_record_get_port (record));
  return g_strdup_printf ("%s%s%s", user ? user : "", user ? "@" : "", sl_target_record_get_host (record));
}

/* The file the session checked and remembers host keys in. */
static char *
dup_known_hosts_path (SlTargetRecord *record)
{
  return sl_known_hosts_dup_path (sl_target_record_get_known_hosts_file (record));
}

static void
show_question (SlTargetDialog *self,
               GtkWidget      *dialog)
{
  if (self->question != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->question), (gpointer *)&self->question);
  self->question = GTK_WINDOW (dialog);
  gtk_window_set_destroy_with_parent (self->question, TRUE);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&self->question);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
prompt_cb (SlSshPrompt *prompt,
           gpointer     user_data)
{
  SlTargetDialog *self = user_data;
  g_autofree char *server = self->tested ? dup_server_name (self->tested) : NULL;

  show_question (self, sl_ssh_prompt_dialog_new (GTK_WINDOW (self), server, prompt));
}

static void
set_testing (SlTargetDialog *self,
             gboolean        testing)
{
  gtk_button_set_label (self->test_button, testing ? _("_Cancel Test") : _("_Test Connection"));
}

static void
summarize (SlTargetDialog *self,
           const char     *message)
{
  adw_preferences_group_set_description (self->test_group, message);
}

static void
confirm_replace_response_cb (AdwMessageDialog *dialog,
                             const char       *response,
                             SlTargetDialog   *self)
{
  g_autofree char *known_hosts = NULL;
  g_autofree char *fingerprint = NULL;
  g_autoptr(GError) error = NULL;
  guint removed = 0;

  if (!g_str_equal (response, SL_HOST_KEY_RESPONSE_REPLACE) || self->session == NULL || self->tested == NULL)
    return;

  known_hosts = dup_known_hosts_path (self->tested);
  if (!sl_ssh_session_dup_host_key (self->session, NULL, &fingerprint) ||
      !sl_known_hosts_remove_host (known_hosts, sl_target_record_get_host (self->tested),
                                   sl_target_record_get_port (self->tested), &removed, &error))
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (error ? error->message : _("No host key was seen")));
      return;
    }

  /* The user confirmed twice: the new key goes into the file in place
   * of the old one. */
  sl_ssh_session_accept_host_key (self->session, fingerprint, TRUE);
  start_test (self);
}

static void
changed_key_response_cb (AdwMessageDialog *dialog,
                         const char       *response,
                         SlTargetDialog   *self)
{
  g_autofree char *server = NULL;
  g_autofree char *known_hosts = NULL;
  g_autofree char *fingerprint = NULL;
  GtkWidget *confirm;

  if (!g_str_equal (response, SL_HOST_KEY_RESPONSE_REPLACE) || self->session == NULL || self->tested == NULL ||
      !sl_ssh_session_dup_host_key (self->session, NULL, &fingerprint))
    return;

  server = dup_server_name (self->tested);
  known_hosts = dup_known_hosts_path (self->tested);
  confirm = sl_host_key_dialog_new_confirm_replace (GTK_WINDOW (self), server, fingerprint, known_hosts);
  g_signal_connect_object (confirm, "response", G_CALLBACK (confirm_replace_response_cb), self, 0);
  show_question (self, confirm);
}

static void
unknown_key_response_cb (AdwMessageDialog *dialog,
                         const char       *response,
                         SlTargetDialog   *self)
{
  g_autofree char *fingerprint = NULL;
  gboolean remember = g_str_equal (response, SL_HOST_KEY_RESPONSE_REMEMBER);

  if (!remember && !g_str_equal (response, SL_HOST_KEY_RESPONSE_ONCE))
    return;
  if (self->session == NULL || !sl_ssh_session_dup_host_key (self->session, NULL, &fingerprint))
    return;

  /* Only this exact key is trusted: a different one on the next
   * connection is asked about again. */
  sl_ssh_session_accept_host_key (self->session, fingerprint, remember);
  start_test (self);
}

static void
ask_about_host_key (SlTargetDialog *self,
                    gboolean        changed)
{
  g_autofree char *server = dup_server_name (self->tested);
  g_autofree char *key_type = NULL;
  g_autofree char *fingerprint = NULL;
  GtkWidget *dialog;

  if (!sl_ssh_session_dup_host_key (self->session, &key_type, &fingerprint))
    return;

  if (changed)
    {
      g_autofree char *known_hosts = dup_known_hosts_path (self->tested);

      dialog = sl_host_key_dialog_new_changed (GTK_WINDOW (self), server, key_type, fingerprint, known_hosts);
      g_signal_connect_object (dialog, "response", G_CALLBACK (changed_key_response_cb), self, 0);
    }
  else
    {
      dialog = sl_host_key_dialog_new_unknown (GTK_WINDOW (self), server, key_type, fingerprint);
      g_signal_connect_object (dialog, "response", G_CALLBACK (unknown_key_response_cb), self, 0);
    }
  show_question (self, dialog);
}

static void
test_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SlTargetDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean cancelled, ok;
  guint warnings = 0;

  ok = sl_ssh_session_test_finish (SL_SSH_SESSION (object), result, &error);
  cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* An older test, replaced or cancelled since: its rows are gone. */
  if (SL_SSH_SESSION (object) != self->session)
    return;

  g_clear_object (&self->cancellable);
  set_testing (self, FALSE);
  update_validation (self);

  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      StepRow *row = &self->steps[i];

      if (row->state == SL_TARGET_STEP_RUNNING || row->state == SL_TARGET_STEP_IDLE)
        set_step (self, i, SL_TARGET_STEP_SKIPPED,
                  cancelled ? _("Cancelled") : _("Not tried, because an earlier step failed"), NULL);
      warnings += row->state == SL_TARGET_STEP_WARNING;
    }

  if (cancelled)
    summarize (self, _("The test was cancelled."));
  else if (ok && warnings == 0)
    summarize (self, _("Every step passed: jobs can run on this server."));
  else if (ok)
    summarize (self, _("The server can be reached, but see the warnings below."));
  else
    {
      g_autofree char *message = NULL;

      for (guint i = 0; i < SL_SSH_N_STEPS && message == NULL; i++)
        {
          if (self->steps[i].state == SL_TARGET_STEP_FAILED)
            message = g_strdup_printf (_("The test stopped at “%s”; see below for why and what to do."),
                                       sl_ssh_step_get_title (i));
        }
      summarize (self, message != NULL ? message : error->message);
    }
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, scroll_to_results_cb, g_object_ref (self), g_object_unref);

  if (g_error_matches (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN))
    ask_about_host_key (self, FALSE);
  else if (g_error_matches (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_CHANGED))
    ask_about_host_key (self, TRUE);
}

/* The results are below the form: bring them into view. */
static gboolean
scroll_to_results_cb (gpointer data)
{
  SlTargetDialog *self = data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self->test_group), GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *child = scrolled ? gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)) : NULL;
  graphene_point_t point;

  if (child != NULL &&
      gtk_widget_compute_point (GTK_WIDGET (self->test_group), child, &GRAPHENE_POINT_INIT (0, 0), &point))
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      /* The point is in the viewport, which shows the scrolled part. */
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + point.y - 12);
    }
  return G_SOURCE_REMOVE;
}

static void
start_test (SlTargetDialog *self)
{
  g_autofree char *message = NULL;

  g_return_if_fail (self->session != NULL && self->tested != NULL);

  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    set_step (self, i, SL_TARGET_STEP_IDLE, _("Waiting"), NULL);
  mark_next_running (self);

  message = g_strdup_printf (_("Testing %s…"), sl_target_record_get_host (self->tested));
  summarize (self, message);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  set_testing (self, TRUE);
  update_validation (self);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, scroll_to_results_cb, g_object_ref (self), g_object_unref);

  sl_ssh_session_test_async (self->session,
                             sl_target_record_get_remote_base_folder (self->tested),
                             sl_target_record_get_setup_command (self->tested),
                             step_cb, self, self->cancellable, test_done_cb, g_object_ref (self));
}

/* A result is of the values it was tested with: once one of them
 * changes, the steps go back to untested (a running test stops). */
static void
forget_test (SlTargetDialog *self)
{
  if (self->tested == NULL)
    return;
  if (self->question != NULL)
    gtk_window_close (self->question);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* A test still finishing finds another session and leaves the rows. */
  g_clear_object (&self->session);
  g_clear_object (&self->tested);
  set_testing (self, FALSE);
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    set_step (self, i, SL_TARGET_STEP_IDLE, _("Not tested with these values"), NULL);
  summarize (self, _("The values changed since the last test: test the connection again."));
}

static void
stop_test (SlTargetDialog *self)
{
  if (self->question != NULL)
    gtk_window_close (self->question);
  g_cancellable_cancel (self->cancellable);
}

static void
test_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlTargetDialog *self = SL_TARGET_DIALOG (widget);
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(GError) error = NULL;

  if (self->cancellable != NULL)
    {
      stop_test (self);
      return;
    }

  self->show_all_errors = TRUE;
  update_validation (self);
  record = sl_target_dialog_build_record (self, &error);
  if (record == NULL || (target = sl_ssh_target_new_from_record (record, &error)) == NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  if (self->session != NULL)
    sl_ssh_session_disconnect (self->session);
  g_clear_object (&self->session);
  g_set_object (&self->tested, record);
  self->session = sl_ssh_target_create_session (SL_SSH_TARGET (target));
  sl_ssh_session_set_timeout (self->session, self->timeout);
  sl_ssh_session_set_prompt_func (self->session, prompt_cb, self, NULL);
  start_test (self);
}

/* Saving */

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SlTargetDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self), TRUE);
  if (!sl_workspace_change_finish (SL_WORKSPACE (object), result, &error))
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  gtk_window_close (GTK_WINDOW (self));
}

/* Written by the workspace's writer; the dialog waits for the answer,
 * since a name already taken is refused there. */
static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlTargetDialog *self = SL_TARGET_DIALOG (widget);
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  self->show_all_errors = TRUE;
  update_validation (self);
  record = sl_target_dialog_build_record (self, &error);
  if (record == NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  if (!sl_workspace_has_store (self->workspace))
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (_("The workspace database is not open; see Problems for why")));
      return;
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
  sl_workspace_save_target_async (self->workspace, record, NULL, saved_cb, g_object_ref (self));
}

static void
removed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SlTargetRecord) target = user_data;
  g_autoptr(GError) error = NULL;

  if (!sl_workspace_change_finish (SL_WORKSPACE (object), result, &error))
    g_warning ("Could not remove the target %s: %s", sl_target_record_get_name (target), error->message);
}

static void
remove_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    SlTargetRecord   *target)
{
  SlWorkspace *workspace = g_object_get_data (G_OBJECT (dialog), "sl-workspace");

  if (!g_str_equal (response, "remove"))
    return;

  sl_workspace_remove_target_async (workspace, sl_target_record_get_id (target), NULL, removed_cb,
                                    g_object_ref (target));
}

/**
 * sl_target_dialog_confirm_remove:
 *
 * Asks whether to remove @target from the workspace, and does so when
 * the user agrees ("remove" response).
 *
 * Returns: (transfer floating): the question, shown
 */
GtkWidget *
sl_target_dialog_confirm_remove (GtkWindow      *parent,
                                 SlWorkspace    *workspace,
                                 SlTargetRecord *target)
{
  AdwMessageDialog *dialog;
  g_autofree char *heading = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (target), NULL);

  heading = g_strdup_printf (_("Remove “%s”?"), sl_target_record_get_name (target));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading,
                                                       _("The target leaves the workspace. Nothing on the server "
                                                         "is changed, and it can be added again later.")));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "remove", _("_Remove"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "remove", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "sl-workspace", g_object_ref (workspace), g_object_unref);
  g_signal_connect_data (dialog, "response", G_CALLBACK (remove_response_cb), g_object_ref (target),
                         (GClosureNotify)(void (*)(void))g_object_unref, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return GTK_WIDGET (dialog);
}

static void
use_host_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  SlTargetDialog *self = SL_TARGET_DIALOG (widget);
  const char *alias = g_variant_get_string (param, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->host_row), alias);
  if (gtk_editable_get_text (GTK_EDITABLE (self->name_row))[0] == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), alias);
}

/* The Host blocks of ~/.ssh/config, one click away. */
static void
offer_host_aliases (SlTargetDialog *self)
{
  g_autofree char *path = sl_ssh_config_dup_default_path ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) aliases = sl_ssh_config_list_host_aliases (path, &error);
  g_autoptr(GMenu) menu = g_menu_new ();

  if (aliases == NULL)
    {
      g_debug ("%s", error->message);
      return;
    }

  for (guint i = 0; aliases[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (aliases[i], "_", -1);
      /* Menu labels take mnemonics: an underscore in a name is doubled. */
      g_autofree char *label = g_strjoinv ("__", parts);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "target.use-host", "s", aliases[i]);
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (self->host_aliases_button, G_MENU_MODEL (menu));
  gtk_widget_set_visible (GTK_WIDGET (self->host_aliases_button), aliases[0] != NULL);
}

static gboolean
close_request_cb (GtkWindow *window)
{
  SlTargetDialog *self = SL_TARGET_DIALOG (window);

  stop_test (self);
  return FALSE;
}

static void
sl_target_dialog_dispose (GObject *object)
{
  SlTargetDialog *self = (SlTargetDialog *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->question != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->question), (gpointer *)&self->question);
      self->question = NULL;
    }
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->session != NULL)
    sl_ssh_session_set_prompt_func (self->session, NULL, NULL, NULL);
  g_clear_object (&self->session);
  g_clear_object (&self->tested);
  g_clear_object (&self->editing);
  g_clear_object (&self->workspace);
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    g_clear_pointer (&self->steps[i].detail, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TARGET_DIALOG);

  G_OBJECT_CLASS (sl_target_dialog_parent_class)->dispose (object);
}

static void
sl_target_dialog_class_init (SlTargetDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sl_target_dialog_dispose;
  window_class->close_request = close_request_cb;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-target-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, host_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, host_aliases_button);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, port_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, user_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, auth_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, identity_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, known_hosts_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, base_dir_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, setup_row);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, name_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, host_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, port_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, user_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, identity_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, known_hosts_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, base_dir_error);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, test_group);
  gtk_widget_class_bind_template_child (widget_class, SlTargetDialog, test_button);
  gtk_widget_class_bind_template_callback (widget_class, validate_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_identity_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_known_hosts_cb);

  gtk_widget_class_install_action (widget_class, "target.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "target.test", NULL, test_action);
  gtk_widget_class_install_action (widget_class, "target.use-host", "s", use_host_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
create_step_rows (SlTargetDialog *self)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      StepRow *row = &self->steps[i];
      GtkWidget *spinner = gtk_spinner_new ();

      row->row = ADW_ACTION_ROW (adw_action_row_new ());
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row->row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row->row), sl_ssh_step_get_title (i));
      adw_action_row_set_subtitle_lines (row->row, 0);
      gtk_widget_add_css_class (GTK_WIDGET (row->row), "property");

      row->stack = GTK_STACK (gtk_stack_new ());
      row->icon = GTK_IMAGE (gtk_image_new ());
      gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
      gtk_stack_add_named (row->stack, spinner, "spinner");
      gtk_stack_add_named (row->stack, GTK_WIDGET (row->icon), "icon");
      gtk_widget_set_valign (GTK_WIDGET (row->stack), GTK_ALIGN_CENTER);
      adw_action_row_add_prefix (row->row, GTK_WIDGET (row->stack));

      adw_preferences_group_add (self->test_group, GTK_WIDGET (row->row));
      set_step (self, i, SL_TARGET_STEP_IDLE, _("Not tested yet"), NULL);
    }
}

static void
sl_target_dialog_init (SlTargetDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));
  self->timeout = SL_SSH_DEFAULT_TIMEOUT_SECONDS;
  create_step_rows (self);
  offer_host_aliases (self);
  update_validation (self);
}

SlTargetDialog *
sl_target_dialog_new (SlWorkspace *workspace)
{
  SlTargetDialog *self;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  self = g_object_new (SL_TYPE_TARGET_DIALOG, NULL);
  self->workspace = g_object_ref (workspace);
  update_validation (self);

  return self;
}

static void
set_row (AdwEntryRow *row,
         const char  *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
}

/**
 * sl_target_dialog_new_for_target:
 * @target: a stored SSH target
 *
 * Returns: (transfer floating): a dialog that saves its changes to @target
 */
SlTargetDialog *
sl_target_dialog_new_for_target (SlWorkspace    *workspace,
                                 SlTargetRecord *target)
{
  SlTargetDialog *self;
  g_autofree char *port = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (target), NULL);

  self = g_object_new (SL_TYPE_TARGET_DIALOG, NULL);
  self->workspace = g_object_ref (workspace);
  self->editing = g_object_ref (target);

  port = g_strdup_printf ("%u", sl_target_record_get_port (target));
  gtk_window_set_title (GTK_WINDOW (self), _("Edit Target"));
  set_row (self->name_row, sl_target_record_get_name (target));
  set_row (self->host_row, sl_target_record_get_host (target));
  set_row (self->port_row, port);
  set_row (self->user_row, sl_target_record_get_user (target));
  adw_combo_row_set_selected (self->auth_row, sl_target_record_get_auth (target));
  set_row (self->identity_row, sl_target_record_get_identity_file (target));
  set_row (self->known_hosts_row, sl_target_record_get_known_hosts_file (target));
  set_row (self->base_dir_row, sl_target_record_get_remote_base_folder (target));
  set_row (self->setup_row, sl_target_record_get_setup_command (target));
  update_validation (self);

  return self;
}

gboolean
sl_target_dialog_get_can_save (SlTargetDialog *self)
{
  g_return_val_if_fail (SL_IS_TARGET_DIALOG (self), FALSE);

  return self->can_save;
}

gboolean
sl_target_dialog_is_testing (SlTargetDialog *self)
{
  g_return_val_if_fail (SL_IS_TARGET_DIALOG (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * sl_target_dialog_set_timeout:
 *
 * How long each step of a connection test waits for the server.
 */
void
sl_target_dialog_set_timeout (SlTargetDialog *self,
                              guint           seconds)
{
  g_return_if_fail (SL_IS_TARGET_DIALOG (self));

  self->timeout = MAX (seconds, 1);
}

/**
 * sl_target_dialog_get_step_state:
 * @detail: (out) (optional) (transfer none): the words shown for the step
 */
SlTargetStepState
sl_target_dialog_get_step_state (SlTargetDialog  *self,
                                 SlSshStep        step,
                                 const char     **detail)
{
  g_return_val_if_fail (SL_IS_TARGET_DIALOG (self), SL_TARGET_STEP_IDLE);
  g_return_val_if_fail (step < SL_SSH_N_STEPS, SL_TARGET_STEP_IDLE);

  if (detail != NULL)
    *detail = self->steps[step].detail;
  return self->steps[step].state;
}
