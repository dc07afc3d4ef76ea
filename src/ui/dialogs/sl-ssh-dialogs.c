/* sl-ssh-dialogs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-ssh-dialogs.h"

#define PROMPT_KEY "sl-ssh-prompt"
#define ENTRY_KEY  "sl-ssh-prompt-entry"

static void
prompt_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    gpointer          user_data)
{
  SlSshPrompt *prompt = g_object_get_data (G_OBJECT (dialog), PROMPT_KEY);
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), ENTRY_KEY);

  if (prompt == NULL)
    return;

  if (g_strcmp0 (response, "connect") == 0)
    sl_ssh_prompt_answer (prompt, gtk_editable_get_text (entry));
  else
    sl_ssh_prompt_answer (prompt, NULL);

  /* Once: the prompt is answered exactly one time, and the typed text
   * does not stay in the entry's buffer. */
  gtk_editable_set_text (entry, "");
  g_object_set_data (G_OBJECT (dialog), PROMPT_KEY, NULL);
  /* GTK 4.8 warns when a focused password entry goes with its window. */
  gtk_window_set_focus (GTK_WINDOW (dialog), NULL);
}

static void
prompt_entry_activate_cb (GtkWidget        *entry,
                          AdwMessageDialog *dialog)
{
  adw_message_dialog_response (dialog, "connect");
  gtk_window_close (GTK_WINDOW (dialog));
}

static const char *
prompt_heading (SlSshPromptKind kind)
{
  switch (kind)
    {
    case SL_SSH_PROMPT_PASSWORD:             return _("Password Needed");
    case SL_SSH_PROMPT_PASSPHRASE:           return _("Key Passphrase Needed");
    case SL_SSH_PROMPT_KEYBOARD_INTERACTIVE:
    default:                                 return _("The Server Asks a Question");
    }
}

/**
 * sl_ssh_prompt_dialog_new:
 * @server: how the server is called in the dialog, such as "user@host"
 *
 * A modal dialog that answers @prompt with what the user types when
 * Connect is chosen, or with %NULL (cancelled) otherwise. Nothing typed
 * is kept after it closes.
 *
 * Returns: (transfer floating): the dialog, not shown yet
 */
GtkWidget *
sl_ssh_prompt_dialog_new (GtkWindow   *parent,
                          const char  *server,
                          SlSshPrompt *prompt)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  g_autofree char *body = NULL;

  g_return_val_if_fail (prompt != NULL, NULL);

  body = g_strdup_printf (_("Connecting to %s.\n%s\n\nIt is used for this connection only and never stored."),
                          server != NULL ? server : "?", sl_ssh_prompt_get_message (prompt));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, prompt_heading (sl_ssh_prompt_get_kind (prompt)), body));

  if (sl_ssh_prompt_get_echo (prompt))
    entry = gtk_entry_new ();
  else
    {
      entry = gtk_password_entry_new ();
      gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (entry), TRUE);
    }
  gtk_widget_set_hexpand (entry, TRUE);
  adw_message_dialog_set_extra_child (dialog, entry);
  g_signal_connect_object (entry, "activate", G_CALLBACK (prompt_entry_activate_cb), dialog, 0);

  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "connect", _("C_onnect"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "connect", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "connect");
  adw_message_dialog_set_close_response (dialog, "cancel");

  g_object_set_data_full (G_OBJECT (dialog), PROMPT_KEY, sl_ssh_prompt_ref (prompt),
                          (GDestroyNotify)sl_ssh_prompt_unref);
  g_object_set_data (G_OBJECT (dialog), ENTRY_KEY, entry);
  g_signal_connect (dialog, "response", G_CALLBACK (prompt_response_cb), NULL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_widget_grab_focus (entry);

  return GTK_WIDGET (dialog);
}

/**
 * sl_host_key_dialog_new_unknown:
 *
 * Asks whether to trust a host key seen for the first time. Responses:
 * %SL_HOST_KEY_RESPONSE_CANCEL (the default and the close response),
 * %SL_HOST_KEY_RESPONSE_ONCE and %SL_HOST_KEY_RESPONSE_REMEMBER.
 *
 * Returns: (transfer floating): the dialog, not shown yet
 */
GtkWidget *
sl_host_key_dialog_new_unknown (GtkWindow  *parent,
                                const char *server,
                                const char *key_type,
                                const char *fingerprint)
{
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  body = g_markup_printf_escaped (_("This is the first connection to %s, so its identity cannot be checked yet. "
                                    "The server presents this key:\n\n"
                                    "<b>Type</b>  %s\n<b>Fingerprint</b>\n<span font_family=\"monospace\" insert_hyphens=\"false\">%s</span>\n\n"
                                    "Compare the fingerprint with the one the server’s administrator gives you "
                                    "(ssh-keygen -lf on the server’s public host key) before you trust it."),
                                  server, key_type != NULL ? key_type : "?", fingerprint);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Unknown Host Key"), NULL));
  adw_message_dialog_set_body_use_markup (dialog, TRUE);
  adw_message_dialog_set_body (dialog, body);
  adw_message_dialog_add_responses (dialog,
                                    SL_HOST_KEY_RESPONSE_CANCEL, _("_Cancel"),
                                    SL_HOST_KEY_RESPONSE_ONCE, _("Accept _Once"),
                                    SL_HOST_KEY_RESPONSE_REMEMBER, _("Accept and _Remember"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, SL_HOST_KEY_RESPONSE_REMEMBER, ADW_RESPONSE_SUGGESTED);
  /* Enter must not trust a key: the safe answer is the default. */
  adw_message_dialog_set_default_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  adw_message_dialog_set_close_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);

  return GTK_WIDGET (dialog);
}

/**
 * sl_host_key_dialog_new_changed:
 *
 * Says that the server presents another key than the remembered one and
 * that the connection was refused. Responses: %SL_HOST_KEY_RESPONSE_CANCEL
 * (the default and the close response) and %SL_HOST_KEY_RESPONSE_REPLACE,
 * which only leads to sl_host_key_dialog_new_confirm_replace().
 *
 * Returns: (transfer floating): the dialog, not shown yet
 */
GtkWidget *
sl_host_key_dialog_new_changed (GtkWindow  *parent,
                                const char *server,
                                const char *key_type,
                                const char *fingerprint,
                                const char *known_hosts)
{
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  body = g_markup_printf_escaped (_("<b>Someone may be intercepting the connection</b> (a man-in-the-middle "
                                    "attack), or the server was reinstalled. %s now presents another key than "
                                    "the one remembered in %s:\n\n"
                                    "<b>Type</b>  %s\n<b>Fingerprint</b>\n<span font_family=\"monospace\" insert_hyphens=\"false\">%s</span>\n\n"
                                    "The connection was refused. Ask the server’s administrator whether the key "
                                    "changed, and replace the stored key only if it did."),
                                  server, known_hosts != NULL ? known_hosts : "~/.ssh/known_hosts",
                                  key_type != NULL ? key_type : "?", fingerprint);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Warning: the Host Key Has Changed"), NULL));
  adw_message_dialog_set_body_use_markup (dialog, TRUE);
  adw_message_dialog_set_body (dialog, body);
  adw_message_dialog_add_responses (dialog,
                                    SL_HOST_KEY_RESPONSE_CANCEL, _("_Do Not Connect"),
                                    SL_HOST_KEY_RESPONSE_REPLACE, _("_Replace Stored Key…"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, SL_HOST_KEY_RESPONSE_REPLACE, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  adw_message_dialog_set_close_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);

  return GTK_WIDGET (dialog);
}

/**
 * sl_host_key_dialog_new_confirm_replace:
 *
 * The second, explicit question before the old key of a server leaves
 * the known hosts file. Responses: %SL_HOST_KEY_RESPONSE_CANCEL (the
 * default) and %SL_HOST_KEY_RESPONSE_REPLACE.
 *
 * Returns: (transfer floating): the dialog, not shown yet
 */
GtkWidget *
sl_host_key_dialog_new_confirm_replace (GtkWindow  *parent,
                                        const char *server,
                                        const char *fingerprint,
                                        const char *known_hosts)
{
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  body = g_markup_printf_escaped (_("The old key of %s will be removed from %s (a copy is kept as %s.old) and "
                                    "the new key <span font_family=\"monospace\" insert_hyphens=\"false\">%s</span> will be remembered instead.\n\n"
                                    "Do this only if the server’s administrator confirmed that the key changed."),
                                  server, known_hosts, known_hosts, fingerprint);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Replace the Stored Host Key?"), NULL));
  adw_message_dialog_set_body_use_markup (dialog, TRUE);
  adw_message_dialog_set_body (dialog, body);
  adw_message_dialog_add_responses (dialog,
                                    SL_HOST_KEY_RESPONSE_CANCEL, _("_Cancel"),
                                    SL_HOST_KEY_RESPONSE_REPLACE, _("_Replace Key"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, SL_HOST_KEY_RESPONSE_REPLACE, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  adw_message_dialog_set_close_response (dialog, SL_HOST_KEY_RESPONSE_CANCEL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);

  return GTK_WIDGET (dialog);
}
