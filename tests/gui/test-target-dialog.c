/* test-target-dialog.c: the Add/Edit Target dialog against a real SSH
 * server (tests/integration/sshd_fixture.py), the host key dialogs, the
 * Workspace's Edit and Remove, and the project settings dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-console-panel.h"
#include "sl-exclude-row.h"
#include "sl-folder.h"
#include "sl-project-dialog.h"
#include "sl-run-dialog.h"
#include "sl-ssh-dialogs.h"
#include "sl-target-dialog.h"
#include "sl-window.h"
#include "sl-workspace-panel.h"

/* A key that is not the fixture's host key, for the changed key case. */
#define OTHER_KEY "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEaTa+xGhbN4MgP2EJKKRGSBlTB1gzkAAMzek9Gbyv/Z"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static GObject *
child (gpointer    dialog,
       GType       type,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), type, name);

  g_assert_nonnull (object);
  return object;
}

static void
set_text (gpointer    dialog,
          const char *name,
          const char *text)
{
  GType type = SL_IS_TARGET_DIALOG (dialog) ? SL_TYPE_TARGET_DIALOG : SL_TYPE_PROJECT_DIALOG;

  gtk_editable_set_text (GTK_EDITABLE (child (dialog, type, name)), text);
}

static gboolean
error_shown (SlTargetDialog *dialog,
             const char     *name)
{
  return gtk_widget_get_visible (GTK_WIDGET (child (dialog, SL_TYPE_TARGET_DIALOG, name)));
}

static AdwMessageDialog *
find_message_dialog (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    {
      if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
        return l->data;
    }
  return NULL;
}

static gboolean
message_dialog_shown (gpointer data)
{
  AdwMessageDialog *dialog = find_message_dialog ();

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
time_passed (gpointer data)
{
  return g_get_monotonic_time () >= *(gint64 *)data;
}

/* Lets timeouts of the dialogs (such as scrolling to new rows) run. */
static void
let_time_pass (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  wait_until (time_passed, &until, ms + 1000);
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *)data == NULL;
}

static gboolean
test_finished (gpointer data)
{
  return !sl_target_dialog_is_testing (data);
}

/* Chooses @response as a click does: the signal, then the dialog closes. */
static void
respond (AdwMessageDialog *dialog,
         const char       *response)
{
  g_assert_true (adw_message_dialog_has_response (dialog, response));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (wait_until (pointer_cleared, &dialog, 5000));
}

static SlTargetDialog *
open_add_dialog (void)
{
  SlTargetDialog *dialog = sl_target_dialog_new (sl_application_get_workspace (app));

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_mapped, dialog, 10000));
  return dialog;
}

static char *
known_hosts_path (void)
{
  return g_build_filename (g_getenv ("SL_SSH_TMP"), "gui-known-hosts", NULL);
}

static void
fill_fixture (SlTargetDialog *dialog,
              const char     *name)
{
  g_autofree char *known_hosts = known_hosts_path ();

  set_text (dialog, "name_row", name);
  set_text (dialog, "host_row", g_getenv ("SL_SSH_HOST"));
  set_text (dialog, "port_row", g_getenv ("SL_SSH_PORT"));
  set_text (dialog, "user_row", g_getenv ("SL_SSH_USER"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, SL_TYPE_TARGET_DIALOG, "auth_row")), SL_TARGET_AUTH_KEY);
  set_text (dialog, "identity_row", g_getenv ("SL_SSH_KEY"));
  set_text (dialog, "known_hosts_row", known_hosts);
  set_text (dialog, "base_dir_row", g_getenv ("SL_SSH_TMP"));
  set_text (dialog, "setup_row", "export ASCEND_HOME=/usr/local/Ascend");
}

static SlTargetRecord *
find_stored_target (const char *name)
{
  g_autoptr(GPtrArray) targets = sl_workspace_run_sync (sl_application_get_workspace (app), list_targets_func,
                                                        NULL, NULL);

  g_assert_nonnull (targets);
  for (guint i = 0; i < targets->len; i++)
    {
      if (g_str_equal (sl_target_record_get_name (g_ptr_array_index (targets, i)), name))
        return g_object_ref (g_ptr_array_index (targets, i));
    }
  return NULL;
}

/* Saving and removing are written by the workspace's writer: the store
 * answers once they are. */
static gboolean
target_stored (gpointer name)
{
  g_autoptr(SlTargetRecord) target = find_stored_target (name);

  return target != NULL;
}

static gboolean
target_gone (gpointer name)
{
  return !target_stored (name);
}

static gboolean
target_setup_is (gpointer expected)
{
  g_autoptr(SlTargetRecord) target = find_stored_target ("fixture-server");

  return target != NULL && g_strcmp0 (sl_target_record_get_setup_command (target), expected) == 0;
}

static gboolean
workspace_shows_target (const char *name)
{
  SlWorkspacePanel *panel = SL_WORKSPACE_PANEL (sl_window_find_panel (window, "workspace"));

  for (guint i = 0; i < sl_workspace_panel_get_n_rows (panel); i++)
    {
      g_autoptr(GObject) item = sl_workspace_panel_get_row_item (panel, i);

      if (SL_IS_TARGET_RECORD (item) && g_str_equal (sl_target_record_get_name (SL_TARGET_RECORD (item)), name))
        return TRUE;
    }
  return FALSE;
}

static void
assert_step (SlTargetDialog    *dialog,
             SlSshStep          step,
             SlTargetStepState  expected)
{
  const char *detail = NULL;
  SlTargetStepState state = sl_target_dialog_get_step_state (dialog, step, &detail);

  if (state != expected)
    g_error ("%s: state %d, expected %d (%s)", sl_ssh_step_get_title (step), state, expected, detail);
  g_assert_nonnull (detail);
  g_assert_cmpstr (detail, !=, "");
}

static void
test_add_and_test_connection (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  g_autoptr(SlTargetRecord) stored = NULL;
  g_autofree char *known_hosts = known_hosts_path ();
  AdwMessageDialog *question;
  const char *detail = NULL;
  guint coloured;

  g_assert_false (sl_target_dialog_get_can_save (dialog));
  fill_fixture (dialog, "fixture-server");
  g_assert_true (sl_target_dialog_get_can_save (dialog));
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    g_assert_cmpint (sl_target_dialog_get_step_state (dialog, i, NULL), ==, SL_TARGET_STEP_IDLE);

  /* The key is new: the test stops at the host key and asks. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (sl_target_dialog_is_testing (dialog));
  g_assert_true (wait_until (message_dialog_shown, NULL, 30000));
  question = find_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (question), ==, "Unknown Host Key");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (question), "SHA256:"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (question), "ssh-ed25519"));
  g_assert_cmpstr (adw_message_dialog_get_default_response (question), ==, SL_HOST_KEY_RESPONSE_CANCEL);
  g_assert_true (adw_message_dialog_has_response (question, SL_HOST_KEY_RESPONSE_REMEMBER));
  assert_step (dialog, SL_SSH_STEP_RESOLVE, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_CONNECT, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_FAILED);
  assert_step (dialog, SL_SSH_STEP_AUTH, SL_TARGET_STEP_SKIPPED);
  save_window_screenshot (GTK_WIDGET (question), SCREENSHOT_DIR, "target-dialog-unknown-host-key.png");

  /* Accept Once: the test runs again to the end. */
  respond (question, SL_HOST_KEY_RESPONSE_ONCE);
  g_assert_true (wait_until (test_finished, dialog, 60000));
  assert_step (dialog, SL_SSH_STEP_RESOLVE, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_CONNECT, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_OK);
  sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_HOST_KEY, &detail);
  g_assert_nonnull (strstr (detail, "this connection only"));
  assert_step (dialog, SL_SSH_STEP_AUTH, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_SHELL, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_DISK, SL_TARGET_STEP_OK);
  g_assert_cmpint (sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_PYTHON, NULL), ==,
                   g_find_program_in_path ("python3") ? SL_TARGET_STEP_OK : SL_TARGET_STEP_WARNING);
  /* No accelerator here: npu-smi is missing, which is a warning with a hint. */
  assert_step (dialog, SL_SSH_STEP_NPU_SMI, g_find_program_in_path ("npu-smi") ? SL_TARGET_STEP_OK : SL_TARGET_STEP_WARNING);
  sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_NPU_SMI, &detail);
  g_assert_nonnull (strstr (detail, "What to do:"));
  /* Accept Once remembers nothing. */
  g_assert_false (g_file_test (known_hosts, G_FILE_TEST_EXISTS));
  g_assert_null (find_message_dialog ());

  let_time_pass (300);
  coloured = save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "target-dialog-test-results.png");
  g_assert_cmpuint (coloured, >, 100);   /* the green and yellow step icons */

  /* Saved to the database and shown in the Workspace. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.save", NULL));
  g_assert_true (wait_until (target_stored, "fixture-server", 10000));
  stored = find_stored_target ("fixture-server");
  g_assert_nonnull (stored);
  g_assert_cmpstr (sl_target_record_get_host (stored), ==, g_getenv ("SL_SSH_HOST"));
  g_assert_cmpuint (sl_target_record_get_port (stored), ==, atoi (g_getenv ("SL_SSH_PORT")));
  g_assert_cmpstr (sl_target_record_get_user (stored), ==, g_getenv ("SL_SSH_USER"));
  g_assert_cmpint (sl_target_record_get_auth (stored), ==, SL_TARGET_AUTH_KEY);
  g_assert_cmpstr (sl_target_record_get_identity_file (stored), ==, g_getenv ("SL_SSH_KEY"));
  g_assert_cmpstr (sl_target_record_get_known_hosts_file (stored), ==, known_hosts);
  g_assert_cmpstr (sl_target_record_get_setup_command (stored), ==, "export ASCEND_HOME=/usr/local/Ascend");
  g_assert_true (workspace_shows_target ("fixture-server"));
}

/* The Host blocks of ~/.ssh/config are offered for the host. */
static void
test_host_aliases_offered (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  GtkMenuButton *button = GTK_MENU_BUTTON (child (dialog, SL_TYPE_TARGET_DIALOG, "host_aliases_button"));
  GMenuModel *menu = gtk_menu_button_get_menu_model (button);
  g_autofree char *label = NULL;

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  g_assert_nonnull (menu);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
  g_assert_true (g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "lab__910b");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.use-host", "s", "fixture-alias"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (dialog, SL_TYPE_TARGET_DIALOG, "host_row"))), ==,
                   "fixture-alias");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (dialog, SL_TYPE_TARGET_DIALOG, "name_row"))), ==,
                   "fixture-alias");
  g_assert_true (sl_target_dialog_get_can_save (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_validation_keeps_save_disabled (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  g_autofree char *missing_key = g_build_filename (tmp_root, "no-such-key", NULL);

  fill_fixture (dialog, "fixture-server");
  /* The name is taken by the target saved before. */
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  g_assert_true (error_shown (dialog, "name_error"));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.save", NULL) &&
                  sl_target_dialog_get_can_save (dialog));

  set_text (dialog, "name_row", "FIXTURE-SERVER");   /* names differ by more than case */
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  set_text (dialog, "name_row", "second");
  g_assert_true (sl_target_dialog_get_can_save (dialog));
  g_assert_false (error_shown (dialog, "name_error"));

  set_text (dialog, "port_row", "70000");
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  g_assert_true (error_shown (dialog, "port_error"));
  set_text (dialog, "port_row", "22a");
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  set_text (dialog, "port_row", "2222");
  g_assert_true (sl_target_dialog_get_can_save (dialog));
  g_assert_false (error_shown (dialog, "port_error"));

  set_text (dialog, "host_row", "ascend 01");
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  g_assert_true (error_shown (dialog, "host_error"));
  set_text (dialog, "host_row", "ascend-01");

  set_text (dialog, "identity_row", missing_key);
  g_assert_false (sl_target_dialog_get_can_save (dialog));
  g_assert_true (error_shown (dialog, "identity_error"));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "target-dialog-validation.png");
  /* An agent needs no key file. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, SL_TYPE_TARGET_DIALOG, "auth_row")), SL_TARGET_AUTH_AGENT);
  g_assert_true (sl_target_dialog_get_can_save (dialog));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (find_stored_target ("second"));
}

/* A server that accepts the connection and never says a word. */
static GSocket *
silent_server (guint *port)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, address, TRUE, NULL));
  g_assert_true (g_socket_listen (socket, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  return socket;
}

static gboolean
connect_step_running (gpointer data)
{
  return sl_target_dialog_get_step_state (data, SL_SSH_STEP_CONNECT, NULL) == SL_TARGET_STEP_RUNNING &&
         sl_target_dialog_get_step_state (data, SL_SSH_STEP_RESOLVE, NULL) == SL_TARGET_STEP_OK;
}

static void
test_dead_host_and_cancel (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  g_autoptr(GSocket) server = NULL;
  g_autofree char *port_text = NULL;
  const char *detail = NULL;
  gint64 start, elapsed;
  guint port;

  server = silent_server (&port);
  port_text = g_strdup_printf ("%u", port);
  fill_fixture (dialog, "silent");
  set_text (dialog, "port_row", port_text);

  /* Fails within the timeout, with a reason and a hint. */
  sl_target_dialog_set_timeout (dialog, 2);
  start = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (test_finished, dialog, 20000));
  elapsed = (g_get_monotonic_time () - start) / G_TIME_SPAN_MILLISECOND;
  g_test_message ("a silent server failed the test after %lld ms", (long long)elapsed);
  g_assert_cmpint (elapsed, <, 2000 + 3000);
  assert_step (dialog, SL_SSH_STEP_RESOLVE, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_CONNECT, SL_TARGET_STEP_FAILED);
  sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_CONNECT, &detail);
  g_assert_nonnull (strstr (detail, "What to do:"));
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_SKIPPED);
  let_time_pass (300);
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "target-dialog-silent-server.png");

  /* Cancel stops a test that waits on the server at once. */
  sl_target_dialog_set_timeout (dialog, 30);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (connect_step_running, dialog, 10000));
  start = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (test_finished, dialog, 5000));
  elapsed = (g_get_monotonic_time () - start) / G_TIME_SPAN_MILLISECOND;
  g_assert_cmpint (elapsed, <, 1000);
  sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_CONNECT, &detail);
  g_assert_cmpint (sl_target_dialog_get_step_state (dialog, SL_SSH_STEP_CONNECT, NULL), ==, SL_TARGET_STEP_SKIPPED);
  g_assert_cmpstr (detail, ==, "Cancelled");

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_socket_close (server, NULL);
}

static const char *
test_summary (SlTargetDialog *dialog)
{
  return adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (child (dialog, SL_TYPE_TARGET_DIALOG,
                                                                              "test_group")));
}

static void
assert_untested (SlTargetDialog *dialog)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      const char *detail = NULL;

      g_assert_cmpint (sl_target_dialog_get_step_state (dialog, i, &detail), ==, SL_TARGET_STEP_IDLE);
      g_assert_cmpstr (detail, ==, "Not tested with these values");
    }
  g_assert_cmpstr (test_summary (dialog), ==, "The values changed since the last test: test the connection again.");
  g_assert_false (sl_target_dialog_is_testing (dialog));
}

/* A result is of the values tested: a port corrected after "refused"
 * clears it, and so does a key changed while a test waits on a server
 * (which stops that test); the name is not part of the test. */
static void
test_result_cleared_on_change (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  g_autoptr(GSocket) refusing = NULL;
  g_autoptr(GSocket) silent = NULL;
  g_autofree char *refused_port = NULL;
  g_autofree char *silent_port = NULL;
  guint port;

  /* A port nobody listens on any more. */
  refusing = silent_server (&port);
  refused_port = g_strdup_printf ("%u", port);
  g_socket_close (refusing, NULL);
  fill_fixture (dialog, "corrected");
  set_text (dialog, "port_row", refused_port);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (test_finished, dialog, 20000));
  assert_step (dialog, SL_SSH_STEP_CONNECT, SL_TARGET_STEP_FAILED);

  set_text (dialog, "name_row", "corrected-name");
  assert_step (dialog, SL_SSH_STEP_CONNECT, SL_TARGET_STEP_FAILED);
  set_text (dialog, "port_row", g_getenv ("SL_SSH_PORT"));
  assert_untested (dialog);
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "target-dialog-result-cleared.png");

  silent = silent_server (&port);
  silent_port = g_strdup_printf ("%u", port);
  set_text (dialog, "port_row", silent_port);
  sl_target_dialog_set_timeout (dialog, 30);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (connect_step_running, dialog, 10000));
  set_text (dialog, "identity_row", "/nonexistent/other-key");
  assert_untested (dialog);
  /* The stopped test's end leaves the rows as they are. */
  let_time_pass (500);
  assert_untested (dialog);

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_socket_close (silent, NULL);
}

static SlTargetDialog *
find_target_dialog (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    {
      if (SL_IS_TARGET_DIALOG (l->data) && gtk_widget_get_visible (l->data))
        return l->data;
    }
  return NULL;
}

static gboolean
target_dialog_shown (gpointer data)
{
  return find_target_dialog () != NULL;
}

static void
test_changed_host_key (void)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  g_autofree char *known_hosts = known_hosts_path ();
  g_autofree char *old_line = g_strdup_printf ("[%s]:%s %s\n", g_getenv ("SL_SSH_HOST"), g_getenv ("SL_SSH_PORT"), OTHER_KEY);
  g_autofree char *contents = NULL;
  g_autofree char *backup = g_strconcat (known_hosts, ".old", NULL);
  SlWorkspacePanel *panel = SL_WORKSPACE_PANEL (sl_window_find_panel (window, "workspace"));
  SlTargetDialog *dialog;
  AdwMessageDialog *question;
  g_autofree char *host_key_pub = NULL;
  g_auto(GStrv) host_key = NULL;

  /* The file remembers another key for the server than the one it has. */
  g_assert_nonnull (stored);
  g_assert_true (g_file_set_contents (known_hosts, old_line, -1, NULL));

  /* Edit… from the Workspace. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "workspace.edit-target", "x",
                                             sl_target_record_get_id (stored)));
  g_assert_true (wait_until (target_dialog_shown, NULL, 10000));
  dialog = find_target_dialog ();
  g_assert_true (wait_until (window_mapped, dialog, 10000));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Edit Target");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (dialog, SL_TYPE_TARGET_DIALOG, "name_row"))), ==,
                   "fixture-server");
  g_assert_true (sl_target_dialog_get_can_save (dialog));

  /* Refused, with the warning. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (message_dialog_shown, NULL, 30000));
  g_assert_true (wait_until (test_finished, dialog, 30000));
  question = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (question), "Changed"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (question), "intercepting"));
  g_assert_cmpstr (adw_message_dialog_get_default_response (question), ==, SL_HOST_KEY_RESPONSE_CANCEL);
  g_assert_false (adw_message_dialog_has_response (question, SL_HOST_KEY_RESPONSE_ONCE));
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_FAILED);
  save_window_screenshot (GTK_WIDGET (question), SCREENSHOT_DIR, "target-dialog-changed-host-key.png");

  /* Replace… asks once more; Cancel there leaves the file alone. */
  respond (question, SL_HOST_KEY_RESPONSE_REPLACE);
  g_assert_true (wait_until (message_dialog_shown, NULL, 5000));
  question = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (question), "Replace"));
  respond (question, SL_HOST_KEY_RESPONSE_CANCEL);
  g_assert_true (g_file_get_contents (known_hosts, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, old_line);
  g_assert_false (sl_target_dialog_is_testing (dialog));

  /* Test again, and this time confirm: the old line goes, the new key is
   * remembered and every step passes. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (message_dialog_shown, NULL, 30000));
  respond (find_message_dialog (), SL_HOST_KEY_RESPONSE_REPLACE);
  g_assert_true (wait_until (message_dialog_shown, NULL, 5000));
  respond (find_message_dialog (), SL_HOST_KEY_RESPONSE_REPLACE);
  g_assert_true (wait_until (test_finished, dialog, 60000));
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_AUTH, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_SHELL, SL_TARGET_STEP_OK);

  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (known_hosts, &contents, NULL, NULL));
  g_assert_null (strstr (contents, OTHER_KEY));
  g_assert_true (g_file_get_contents (g_getenv ("SL_SSH_HOST_KEY_PUB"), &host_key_pub, NULL, NULL));
  host_key = g_strsplit (host_key_pub, " ", 3);
  g_assert_nonnull (strstr (contents, host_key[1]));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (backup, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, old_line);

  /* The edit is saved through the store. */
  set_text (dialog, "setup_row", "source /usr/local/Ascend/ascend-toolkit/set_env.sh");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.save", NULL));
  g_assert_true (wait_until (target_setup_is, "source /usr/local/Ascend/ascend-toolkit/set_env.sh", 10000));
  g_clear_object (&stored);
  stored = find_stored_target ("fixture-server");
  g_assert_cmpstr (sl_target_record_get_setup_command (stored), ==, "source /usr/local/Ascend/ascend-toolkit/set_env.sh");
  g_assert_true (workspace_shows_target ("fixture-server"));
}

static gboolean
console_has_log_end (gpointer data)
{
  g_autofree char *text = sl_console_panel_dup_text (data);

  return strstr (text, "[end of the log]") != NULL;
}

static gboolean
window_not_busy (gpointer data)
{
  return !sl_window_is_busy (data);
}

/* Run on the fixture server from the Run dialog: the exact command is shown
 * first, the project is uploaded, the job's output streams into the
 * Console, and its output folder is pulled into the cache and opened in the
 * Workspace. */
static gboolean
newest_job_ended (gpointer jobs)
{
  g_autoptr(SlJobRecord) newest = g_list_model_get_n_items (jobs) > 0 ? g_list_model_get_item (jobs, 0) : NULL;

  return newest != NULL && sl_job_record_get_state (newest) != SL_JOB_STATE_RUNNING;
}

static void
test_remote_run_streams_into_console (void)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  g_autofree char *project = g_build_filename (g_getenv ("SL_SSH_TMP"), "gui-project", NULL);
  g_autofree char *script = g_build_filename (project, "run.sh", NULL);
  g_autofree char *text = NULL;
  SlConsolePanel *console;
  SlRunDialog *dialog;
  const char *preview;
  gboolean pulled = FALSE;

  g_assert_nonnull (stored);
  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_assert_true (g_file_set_contents (script,
                                      "echo 'hello from the server'\n"
                                      "mkdir -p out\n"
                                      "for i in 1 2 3; do echo \"step $i\"; echo $i >> out/steps.txt; sleep 0.3; done\n"
                                      "echo done\n", -1, NULL));

  dialog = sl_run_dialog_new (project);
  sl_run_dialog_set_targets (dialog, sl_workspace_get_targets (sl_application_get_workspace (app)), sl_target_record_get_id (stored));
  sl_run_dialog_set_command (dialog, "sh run.sh");
  sl_run_dialog_set_pull_dirs (dialog, "out");
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until ((Condition)gtk_widget_get_mapped, dialog, 10000));

  /* The exact command, before anything runs. */
  preview = sl_run_dialog_get_command_preview (dialog);
  g_assert_nonnull (preview);
  g_assert_nonnull (strstr (preview, "run.sh"));
  g_assert_nonnull (strstr (preview, ".sightline/jobs"));
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "run-dialog-remote.png");
  gtk_window_destroy (GTK_WINDOW (dialog));

  {
    g_autoptr(GError) error = NULL;

    g_assert_true (sl_session_run_on_target (sl_window_get_session (window), sl_target_record_get_id (stored), "sh run.sh", project, "out", NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_true (sl_window_is_busy (window));
  g_assert_true (wait_until (window_not_busy, window, 60000));

  console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
  text = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (text, "hello from the server"));
  g_assert_nonnull (strstr (text, "step 3"));
  g_assert_nonnull (strstr (text, "exited with code 0"));

  for (guint i = 0; i < g_list_model_get_n_items (sl_workspace_get_folders (sl_window_get_workspace (window))); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (sl_workspace_get_folders (sl_window_get_workspace (window)), i);
      g_autofree char *steps = g_build_filename (sl_folder_get_path (folder), "steps.txt", NULL);
      g_autofree char *contents = NULL;

      if (g_file_get_contents (steps, &contents, NULL, NULL))
        pulled |= g_str_equal (contents, "1\n2\n3\n");
    }
  g_assert_true (pulled);
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "console-remote-job.png");

  /* The job is in the history shown in the Workspace, and its log can be
   * read again from the server. */
  {
    GListModel *jobs = sl_workspace_get_jobs (sl_application_get_workspace (app));
    g_autoptr(SlJobRecord) newest = NULL;
    g_autofree char *again = NULL;
    const char *first, *second;
    guint job_log, n_logs;

    /* The history is read again once the job ended. */
    g_assert_true (wait_until (newest_job_ended, jobs, 10000));
    newest = g_list_model_get_item (jobs, 0);
    g_assert_cmpstr (sl_job_record_get_command (newest), ==, "'sh' 'run.sh'");
    g_assert_cmpint (sl_job_record_get_state (newest), ==, SL_JOB_STATE_SUCCEEDED);
    g_assert_cmpint (sl_job_record_get_exit_code (newest), ==, 0);

    /* Read into a log view of its own; the job's view is left as it was. */
    job_log = sl_console_panel_get_shown_job (console);
    n_logs = sl_console_panel_get_n_jobs (console);
    sl_window_show_job_log (window, newest);
    g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n_logs + 1);
    g_assert_cmpuint (sl_console_panel_get_shown_job (console), !=, job_log);
    g_assert_true (wait_until (console_has_log_end, console, 30000));
    again = sl_console_panel_dup_text (console);
    first = strstr (again, "hello from the server");
    g_assert_nonnull (first);
    g_assert_nonnull (strstr (first, "step 3"));
    g_free (text);
    text = sl_console_log_dup_text (sl_console_panel_get_job_log (console, job_log));
    first = strstr (text, "hello from the server");
    second = first ? strstr (first + 1, "hello from the server") : NULL;
    g_assert_nonnull (first);
    g_assert_null (second);
    g_assert_null (strstr (text, "[end of the log]"));
  }
}

/* Stop before the job started cancels the upload: nothing runs, the
 * Console says so, and no Problem is raised for it. */
static void
test_remote_run_stopped_during_upload (void)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  g_autofree char *project = g_build_filename (g_getenv ("SL_SSH_TMP"), "gui-big-project", NULL);
  g_autofree char *big = g_build_filename (project, "weights.bin", NULL);
  g_autofree char *text = NULL;
  g_autofree char *zeros = g_malloc0 (256 * 1024 * 1024);
  g_autoptr(GError) error = NULL;
  SlConsolePanel *console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));

  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_assert_true (g_file_set_contents (big, zeros, 256 * 1024 * 1024, NULL));
  sl_console_panel_clear (console);

  g_assert_true (sl_session_run_on_target (sl_window_get_session (window), sl_target_record_get_id (stored), "sh -c 'echo ran'", project, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (console), "console.stop", NULL));
  g_assert_true (wait_until (window_not_busy, window, 60000));

  text = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (text, "Stopped before the job started: nothing ran on"));
  g_assert_null (strstr (text, "\nran\n"));
}

/* A passphrase is asked for in a modal prompt when the key needs it,
 * and the key accepted and remembered before is known now. */
static void
test_passphrase_prompt (void)
{
  SlTargetDialog *dialog = open_add_dialog ();
  AdwMessageDialog *prompt;
  GtkWidget *entry;

  fill_fixture (dialog, "with-passphrase");
  set_text (dialog, "identity_row", g_getenv ("SL_SSH_PASSPHRASE_KEY"));
  g_assert_true (sl_target_dialog_get_can_save (dialog));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (message_dialog_shown, NULL, 30000));
  prompt = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (prompt), "Passphrase"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (prompt), "never stored"));
  assert_step (dialog, SL_SSH_STEP_HOST_KEY, SL_TARGET_STEP_OK);
  entry = adw_message_dialog_get_extra_child (prompt);
  g_assert_true (GTK_IS_PASSWORD_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), g_getenv ("SL_SSH_PASSPHRASE"));
  save_window_screenshot (GTK_WIDGET (prompt), SCREENSHOT_DIR, "target-dialog-passphrase.png");
  respond (prompt, "connect");

  g_assert_true (wait_until (test_finished, dialog, 60000));
  assert_step (dialog, SL_SSH_STEP_AUTH, SL_TARGET_STEP_OK);
  assert_step (dialog, SL_SSH_STEP_SHELL, SL_TARGET_STEP_OK);

  /* Cancel in the prompt stops at the login, with nothing typed kept. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "target.test", NULL));
  g_assert_true (wait_until (message_dialog_shown, NULL, 30000));
  respond (find_message_dialog (), "cancel");
  g_assert_true (wait_until (test_finished, dialog, 60000));
  assert_step (dialog, SL_SSH_STEP_AUTH, SL_TARGET_STEP_FAILED);
  assert_step (dialog, SL_SSH_STEP_SHELL, SL_TARGET_STEP_SKIPPED);

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (find_stored_target ("with-passphrase"));
}

static gboolean
run_tool (const char * const *argv,
          char              **output)
{
  int status = 0;

  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, output, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0 &&
      gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkPopover *
find_open_popover (GtkWidget *widget)
{
  if (GTK_IS_POPOVER_MENU (widget) && gtk_widget_get_visible (widget))
    return GTK_POPOVER (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkPopover *found = find_open_popover (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
panel_menu_open (gpointer data)
{
  return find_open_popover (data) != NULL;
}

/* A real right click on the target's row, through the X server, opens
 * Edit… and Remove for that target. */
static void
test_workspace_context_menu (void)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  GtkWidget *panel = GTK_WIDGET (sl_window_find_panel (window, "workspace"));
  const char *search[] = { "xdotool", "search", "--name", "^Sightline target dialog test$", NULL };
  g_autofree char *ids = NULL;
  g_autofree char *geometry = NULL;
  g_autofree char *path = g_build_filename (SCREENSHOT_DIR, "workspace-target-menu.png", NULL);
  g_autofree char *label = NULL;
  const char *grab[] = { "import", "-window", "root", path, NULL };
  g_auto(GStrv) lines = NULL;
  GtkPopover *popover;
  GMenuModel *menu;
  GtkWidget *row_label;
  graphene_rect_t bounds;
  int wx = 0, wy = 0;
  gint64 id = 0;

  if (!g_find_program_in_path ("xdotool") || !g_find_program_in_path ("import"))
    {
      g_test_skip ("xdotool and imagemagick are needed to click for real");
      return;
    }
  g_assert_nonnull (stored);

  gtk_window_set_title (GTK_WINDOW (window), "Sightline target dialog test");
  gtk_window_present (GTK_WINDOW (window));
  let_time_pass (300);
  row_label = find_label (panel, "fixture-server");
  g_assert_nonnull (row_label);
  g_assert_true (gtk_widget_compute_bounds (row_label, GTK_WIDGET (window), &bounds));

  g_assert_true (run_tool (search, &ids));
  g_strstrip (ids);
  if (strchr (ids, '\n') != NULL)
    *strchr (ids, '\n') = '\0';
  {
    const char *geometry_argv[] = { "xdotool", "getwindowgeometry", "--shell", ids, NULL };

    g_assert_true (run_tool (geometry_argv, &geometry));
  }
  lines = g_strsplit (geometry, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "X="))
        wx = atoi (lines[i] + 2);
      else if (g_str_has_prefix (lines[i], "Y="))
        wy = atoi (lines[i] + 2);
    }

  {
    g_autofree char *x = g_strdup_printf ("%d", wx + (int)(bounds.origin.x + bounds.size.width / 2));
    g_autofree char *y = g_strdup_printf ("%d", wy + (int)(bounds.origin.y + bounds.size.height / 2));
    const char *click[] = { "xdotool", "mousemove", "--sync", x, y, "click", "3", NULL };

    g_assert_true (run_tool (click, NULL));
  }
  g_assert_true (wait_until (panel_menu_open, panel, 5000));
  let_time_pass (300);
  g_assert_true (run_tool (grab, NULL));

  popover = find_open_popover (panel);
  menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "_Edit…");
  g_clear_pointer (&label, g_free);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s", &label));
  g_assert_cmpstr (label, ==, "workspace.edit-target");
  g_assert_true (g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_TARGET, "x", &id));
  g_assert_cmpint (id, ==, sl_target_record_get_id (stored));
  gtk_popover_popdown (popover);
}

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_list_view (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_remove_target (void)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  SlWorkspacePanel *panel = SL_WORKSPACE_PANEL (sl_window_find_panel (window, "workspace"));
  guint before = g_list_model_get_n_items (sl_workspace_get_targets (sl_application_get_workspace (app)));

  g_assert_nonnull (stored);

  /* Delete on the selected row asks; Cancel keeps it. */
  if (g_find_program_in_path ("xdotool"))
    {
      const char *key[] = { "xdotool", "key", "--clearmodifiers", "Delete", NULL };
      GtkWidget *list = find_list_view (GTK_WIDGET (panel));
      GObject *item = NULL;

      for (guint i = 0; i < sl_workspace_panel_get_n_rows (panel) && item == NULL; i++)
        {
          g_autoptr(GObject) row_item = sl_workspace_panel_get_row_item (panel, i);

          if (SL_IS_TARGET_RECORD (row_item) && sl_target_record_get_id (SL_TARGET_RECORD (row_item)) == sl_target_record_get_id (stored))
            item = row_item;
        }
      g_assert_nonnull (item);
      g_assert_true (sl_workspace_panel_select_item (panel, item));
      g_assert_nonnull (list);
      gtk_widget_grab_focus (list);
      let_time_pass (200);
      g_assert_true (run_tool (key, NULL));
    }
  else
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "workspace.remove-target", "x",
                                               sl_target_record_get_id (stored)));
  g_assert_true (wait_until (message_dialog_shown, NULL, 5000));
  respond (find_message_dialog (), "cancel");
  g_assert_true (workspace_shows_target ("fixture-server"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "workspace.remove-target", "x",
                                             sl_target_record_get_id (stored)));
  g_assert_true (wait_until (message_dialog_shown, NULL, 5000));
  respond (find_message_dialog (), "remove");
  g_assert_true (wait_until (target_gone, "fixture-server", 10000));
  g_assert_false (workspace_shows_target ("fixture-server"));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_targets (sl_application_get_workspace (app))), ==, before - 1);
}

/* The dynamic rows of a run configuration, found by their names. */
static void
collect_named (GtkWidget  *widget,
               const char *name,
               GPtrArray  *found)
{
  if (g_str_equal (gtk_widget_get_name (widget), name))
    g_ptr_array_add (found, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_named (c, name, found);
}

static void
fill_config (SlProjectDialog *dialog,
             guint            index,
             SlRunConfigKind  kind,
             const char      *name,
             const char      *command,
             const char      *arguments,
             const char      *environment,
             const char      *folder,
             const char      *pull)
{
  struct { const char *row; const char *text; } fields[] = {
    { "run-name", name }, { "run-command", command }, { "run-arguments", arguments },
    { "run-environment", environment }, { "run-folder", folder }, { "run-pull", pull },
  };
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autoptr(GPtrArray) rows = g_ptr_array_new ();

      collect_named (GTK_WIDGET (dialog), fields[i].row, rows);
      g_assert_cmpuint (rows->len, >, index);
      gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (rows, index)), fields[i].text);
    }
  collect_named (GTK_WIDGET (dialog), "run-kind", kinds);
  adw_combo_row_set_selected (g_ptr_array_index (kinds, index), kind);
}

static void
assert_strv (const char * const *actual,
             const char * const *expected)
{
  g_assert_cmpuint (g_strv_length ((char **)actual), ==, g_strv_length ((char **)expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (actual[i], ==, expected[i]);
}

static gboolean
projects_shown (gpointer n)
{
  return g_list_model_get_n_items (sl_workspace_get_projects (sl_application_get_workspace (app))) == GPOINTER_TO_UINT (n);
}

/* The dialog waits, insensitive, while the workspace writes. */
static gboolean
dialog_sensitive (gpointer dialog)
{
  return gtk_widget_get_sensitive (dialog);
}

static void
test_project_round_trip (void)
{
  SlWorkspace *workspace = sl_application_get_workspace (app);
  g_autofree char *folder = g_build_filename (tmp_root, "resnet", NULL);
  SlProjectDialog *dialog;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(SlProjectRecord) rebuilt = NULL;
  g_autoptr(GPtrArray) excludes = g_ptr_array_new ();
  SlProjectRecord *project;
  SlRunConfigRecord *train, *profile;
  AdwEntryRow *exclude_entry;
  const char * const default_excludes[] = { ".git", "__pycache__", "*.ckpt", "*.om", NULL };
  const char * const expected_excludes[] = { ".git", "__pycache__", "*.ckpt", "*.om", "*.log", NULL };
  const char * const train_args[] = { "--epochs", "3", "--name", "two words", NULL };
  const char * const train_env[] = { "ASCEND_RT_VISIBLE_DEVICES=0,1", "RANK_SIZE=2", NULL };
  const char * const train_pull[] = { "summaries", "checkpoints", NULL };
  const char * const profile_pull[] = { "profiler", NULL };
  const char * const none[] = { NULL };

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.projects", NULL));
  {
    g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

    dialog = NULL;
    for (GList *l = toplevels; l != NULL; l = l->next)
      if (SL_IS_PROJECT_DIALOG (l->data))
        dialog = l->data;
  }
  g_assert_nonnull (dialog);
  g_assert_true (wait_until (window_mapped, dialog, 10000));

  /* A new project starts with the usual excludes and nothing to save. */
  g_assert_false (sl_project_dialog_get_can_save (dialog));
  collect_named (GTK_WIDGET (dialog), "exclude", excludes);
  g_assert_cmpuint (excludes->len, ==, 4);
  /* Each is a row titled by its pattern, whose button takes it off
   * through the dialog's action; the entry brings it back. */
  {
    GtkWidget *row = g_ptr_array_index (excludes, 3);

    g_assert_true (SL_IS_EXCLUDE_ROW (row));
    g_assert_cmpstr (sl_exclude_row_get_pattern (SL_EXCLUDE_ROW (row)), ==, "*.om");
    g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "*.om");
    g_assert_true (gtk_widget_activate_action (row, "exclude.remove", NULL));
    g_ptr_array_set_size (excludes, 0);
    collect_named (GTK_WIDGET (dialog), "exclude", excludes);
    g_assert_cmpuint (excludes->len, ==, 3);
    for (guint i = 0; i < excludes->len; i++)
      g_assert_cmpstr (sl_exclude_row_get_pattern (g_ptr_array_index (excludes, i)), !=, "*.om");
    exclude_entry = ADW_ENTRY_ROW (child (dialog, SL_TYPE_PROJECT_DIALOG, "exclude_entry"));
    gtk_editable_set_text (GTK_EDITABLE (exclude_entry), "*.om");
    g_signal_emit_by_name (exclude_entry, "apply");
    g_ptr_array_set_size (excludes, 0);
    collect_named (GTK_WIDGET (dialog), "exclude", excludes);
    g_assert_cmpuint (excludes->len, ==, 4);
    g_assert_cmpstr (sl_exclude_row_get_pattern (g_ptr_array_index (excludes, 3)), ==, "*.om");
  }

  set_text (dialog, "name_row", "resnet");
  set_text (dialog, "folder_row", folder);
  set_text (dialog, "remote_folder_row", "~/sightline/resnet");
  exclude_entry = ADW_ENTRY_ROW (child (dialog, SL_TYPE_PROJECT_DIALOG, "exclude_entry"));
  gtk_editable_set_text (GTK_EDITABLE (exclude_entry), "*.log");
  g_signal_emit_by_name (exclude_entry, "apply");
  g_assert_true (sl_project_dialog_get_can_save (dialog));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
  g_assert_false (sl_project_dialog_get_can_save (dialog));   /* a run configuration needs a name and command */
  fill_config (dialog, 0, SL_RUN_CONFIG_KIND_TRAIN, "train", "python3 train.py",
               "--epochs 3 --name 'two words'", "ASCEND_RT_VISIBLE_DEVICES=0,1 RANK_SIZE=2", "src",
               "summaries checkpoints");
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.add-run-config", NULL));
  fill_config (dialog, 1, SL_RUN_CONFIG_KIND_PROFILE, "profile", "msprof", "", "1BAD=x", "", "profiler");
  g_assert_false (sl_project_dialog_get_can_save (dialog));   /* not a variable name */
  fill_config (dialog, 1, SL_RUN_CONFIG_KIND_PROFILE, "profile", "msprof", "--application=./run.sh", "", "",
               "profiler");
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  g_assert_cmpuint (sl_project_dialog_get_n_run_configs (dialog), ==, 2);
  let_time_pass (300);
  save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, "project-dialog.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.save", NULL));
  g_assert_true (wait_until (projects_shown, GUINT_TO_POINTER (1), 10000));

  projects = sl_workspace_run_sync (workspace, list_projects_func, NULL, NULL);
  g_assert_nonnull (projects);
  g_assert_cmpuint (projects->len, ==, 1);
  project = g_ptr_array_index (projects, 0);
  g_assert_cmpstr (sl_project_record_get_name (project), ==, "resnet");
  g_assert_cmpstr (sl_project_record_get_local_folder (project), ==, folder);
  g_assert_cmpstr (sl_project_record_get_remote_folder (project), ==, "~/sightline/resnet");
  g_assert_cmpint (sl_project_record_get_target_id (project), >, 0);
  assert_strv (sl_project_record_get_upload_excludes (project), expected_excludes);
  g_assert_cmpuint (sl_project_record_get_n_run_configs (project), ==, 2);
  train = sl_project_record_get_run_config (project, 0);
  profile = sl_project_record_get_run_config (project, 1);
  g_assert_cmpint (sl_run_config_record_get_kind (train), ==, SL_RUN_CONFIG_KIND_TRAIN);
  g_assert_cmpstr (sl_run_config_record_get_name (train), ==, "train");
  g_assert_cmpstr (sl_run_config_record_get_command (train), ==, "python3 train.py");
  assert_strv (sl_run_config_record_get_arguments (train), train_args);
  assert_strv (sl_run_config_record_get_environment (train), train_env);
  g_assert_cmpstr (sl_run_config_record_get_working_folder (train), ==, "src");
  assert_strv (sl_run_config_record_get_pull_folders (train), train_pull);
  g_assert_cmpint (sl_run_config_record_get_kind (profile), ==, SL_RUN_CONFIG_KIND_PROFILE);
  g_assert_cmpstr (sl_run_config_record_get_name (profile), ==, "profile");
  assert_strv (sl_run_config_record_get_environment (profile), none);
  assert_strv (sl_run_config_record_get_pull_folders (profile), profile_pull);
  g_assert_null (sl_run_config_record_get_working_folder (profile));
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* A second dialog shows the stored project as it was saved. */
  dialog = sl_project_dialog_new (sl_application_get_workspace (app));
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (wait_until (window_mapped, dialog, 10000));
  g_assert_true (sl_project_dialog_select_project (dialog, sl_project_record_get_id (project)));
  g_assert_cmpuint (sl_project_dialog_get_n_run_configs (dialog), ==, 2);
  rebuilt = sl_project_dialog_build_record (dialog, NULL);
  g_assert_nonnull (rebuilt);
  g_assert_cmpint (sl_project_record_get_id (rebuilt), ==, sl_project_record_get_id (project));
  assert_strv (sl_run_config_record_get_arguments (sl_project_record_get_run_config (rebuilt, 0)), train_args);
  assert_strv (sl_run_config_record_get_environment (sl_project_record_get_run_config (rebuilt, 0)), train_env);
  assert_strv (sl_project_record_get_upload_excludes (rebuilt), expected_excludes);

  /* Nothing to save until something changed, and again once it is back. */
  g_assert_false (sl_project_dialog_get_can_save (dialog));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (child (dialog, SL_TYPE_PROJECT_DIALOG, "save_button"))));
  set_text (dialog, "name_row", "resnet-2");
  g_assert_true (sl_project_dialog_get_can_save (dialog));
  set_text (dialog, "name_row", "resnet");
  g_assert_false (sl_project_dialog_get_can_save (dialog));
  gtk_editable_set_text (GTK_EDITABLE (exclude_entry = ADW_ENTRY_ROW (child (dialog, SL_TYPE_PROJECT_DIALOG, "exclude_entry"))),
                         "*.tmp");
  g_assert_false (sl_project_dialog_get_can_save (dialog));   /* typed, not added */
  g_signal_emit_by_name (exclude_entry, "apply");
  g_assert_true (sl_project_dialog_get_can_save (dialog));

  /* Changes replace the stored run configurations. */
  fill_config (dialog, 1, SL_RUN_CONFIG_KIND_INFER, "infer", "python3 infer.py", "", "", "", "");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "project.save", NULL));
  g_assert_true (wait_until (dialog_sensitive, dialog, 10000));
  g_clear_pointer (&projects, g_ptr_array_unref);
  projects = sl_workspace_run_sync (workspace, list_projects_func, NULL, NULL);
  project = g_ptr_array_index (projects, 0);
  g_assert_cmpuint (sl_project_record_get_n_run_configs (project), ==, 2);
  g_assert_cmpint (sl_run_config_record_get_kind (sl_project_record_get_run_config (project, 1)), ==,
                   SL_RUN_CONFIG_KIND_INFER);
  g_assert_cmpstr (sl_run_config_record_get_name (sl_project_record_get_run_config (project, 1)), ==, "infer");
  g_assert_false (sl_project_dialog_get_can_save (dialog));   /* saved as shown */

  /* A new project in the same dialog cannot take the name. */
  g_assert_true (sl_project_dialog_select_project (dialog, 0));
  assert_strv ((const char * const *)default_excludes, default_excludes);
  set_text (dialog, "name_row", "resnet");
  set_text (dialog, "folder_row", folder);
  g_assert_false (sl_project_dialog_get_can_save (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* The Run dialog offers the run configurations and fills itself from one:
   * environment through env, arguments quoted, the project's folder and
   * target and the folders to pull. */
  {
    SlRunDialog *run = sl_run_dialog_new (NULL);

    sl_run_dialog_set_targets (run, sl_workspace_get_targets (sl_application_get_workspace (app)), 0);
    sl_run_dialog_set_projects (run, projects);
    sl_run_dialog_select_config (run, 0);
    g_assert_cmpstr (sl_run_dialog_get_command (run), ==,
                     "env 'ASCEND_RT_VISIBLE_DEVICES=0,1' 'RANK_SIZE=2' python3 train.py '--epochs' '3' '--name' 'two words'");
    g_assert_cmpstr (sl_run_dialog_get_folder (run), ==, folder);
    g_assert_true (sl_run_dialog_get_project (run) == g_ptr_array_index (projects, 0));
    g_assert_true (sl_run_dialog_validate (run, NULL));
    gtk_window_destroy (GTK_WINDOW (run));
  }
}

/* HOME is the fixture's own folder. */
static void
write_ssh_config (void)
{
  g_autofree char *folder = g_build_filename (g_get_home_dir (), ".ssh", NULL);
  g_autofree char *path = g_build_filename (folder, "config", NULL);
  g_autofree char *config = g_strdup_printf ("Host *\n  ServerAliveInterval 30\n"
                                             "Host fixture-alias\n  HostName %s\n  Port %s\n  User %s\n"
                                             "Host lab_910b gpu-*\n  HostName 192.0.2.10\n",
                                             g_getenv ("SL_SSH_HOST"), g_getenv ("SL_SSH_PORT"),
                                             g_getenv ("SL_SSH_USER"));

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, config, -1, NULL));
}

static gboolean
file_has_text (gpointer data)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (data, &text, NULL, NULL) && text[0] != '\0';
}

static gboolean
process_gone (gpointer data)
{
  return kill ((pid_t)GPOINTER_TO_INT (data), 0) != 0;
}

/* A second window runs `sleep` on the fixture server, writing its pid. */
static SlWindow *
window_with_running_job (const char  *pid_file,
                         GPid        *pid)
{
  g_autoptr(SlTargetRecord) stored = find_stored_target ("fixture-server");
  g_autofree char *project = g_build_filename (g_getenv ("SL_SSH_TMP"), "gui-close-project", NULL);
  g_autofree char *command = g_strdup_printf ("sh -c 'echo $$ > %s; exec sleep 60'", pid_file);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  /* A session of its own on the application's workspace: the window is
   * the last one on it, so closing it asks about the job (a window on
   * the application's session leaves it to the other). */
  g_autoptr(SlSession) session = sl_session_new (sl_application_get_workspace (app));
  SlWindow *second = sl_window_new (GTK_APPLICATION (app), session);

  g_remove (pid_file);
  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  gtk_window_present (GTK_WINDOW (second));
  g_assert_true (wait_until (window_mapped, second, 30000));
  g_assert_true (sl_session_run_on_target (sl_window_get_session (second), sl_target_record_get_id (stored), command, project, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (wait_until (file_has_text, (gpointer)pid_file, 60000));
  g_assert_true (g_file_get_contents (pid_file, &text, NULL, NULL));
  *pid = (GPid)g_ascii_strtoll (text, NULL, 10);
  g_assert_cmpint (*pid, >, 0);
  return second;
}

/* Closing a window whose job runs asks first: Stop and Close stops the
 * job on the target and closes once it ended; Keep Running closes and
 * leaves it running. */
static void
test_close_with_running_job (void)
{
  g_autofree char *pid_file = g_build_filename (g_getenv ("SL_SSH_TMP"), "gui-close-pid", NULL);
  AdwMessageDialog *question;
  SlWindow *second;
  GPid pid = 0;

  second = window_with_running_job (pid_file, &pid);
  g_object_add_weak_pointer (G_OBJECT (second), (gpointer *)&second);
  gtk_window_close (GTK_WINDOW (second));
  g_assert_true (wait_until (message_dialog_shown, NULL, 10000));
  question = find_message_dialog ();
  g_assert_true (adw_message_dialog_has_response (question, "keep"));
  g_assert_nonnull (second);
  save_window_screenshot (GTK_WIDGET (question), SCREENSHOT_DIR, "window-close-running-job.png");
  respond (question, "stop");
  g_assert_true (wait_until (pointer_cleared, &second, 60000));
  g_assert_true (wait_until (process_gone, GINT_TO_POINTER (pid), 10000));

  second = window_with_running_job (pid_file, &pid);
  g_object_add_weak_pointer (G_OBJECT (second), (gpointer *)&second);
  gtk_window_close (GTK_WINDOW (second));
  g_assert_true (wait_until (message_dialog_shown, NULL, 10000));
  respond (find_message_dialog (), "keep");
  g_assert_true (wait_until (pointer_cleared, &second, 10000));
  g_assert_false (process_gone (GINT_TO_POINTER (pid)));
  kill ((pid_t)pid, SIGKILL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }
  if (g_getenv ("SL_SSH_PORT") == NULL)
    {
      g_print ("1..0 # SKIP run through tests/integration/sshd_fixture.py --run\n");
      return 77;
    }

  tmp_root = g_dir_make_tmp ("sl-target-dialog-XXXXXX", NULL);
  write_ssh_config ();
  data_home = g_build_filename (tmp_root, "data-home", NULL);
  cache_home = g_build_filename (tmp_root, "cache-home", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  /* The Project dialog's exclude rows are built and dropped here. */
  fail_on_gobject_warnings ();

  app = sl_application_new ();
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (window);
  g_assert_true (wait_until (window_mapped, window, 30000));

  g_test_add_func ("/target-dialog/add-and-test-connection", test_add_and_test_connection);
  g_test_add_func ("/target-dialog/host-aliases-offered", test_host_aliases_offered);
  g_test_add_func ("/target-dialog/validation-keeps-save-disabled", test_validation_keeps_save_disabled);
  g_test_add_func ("/target-dialog/dead-host-and-cancel", test_dead_host_and_cancel);
  g_test_add_func ("/target-dialog/result-cleared-on-change", test_result_cleared_on_change);
  g_test_add_func ("/target-dialog/changed-host-key", test_changed_host_key);
  g_test_add_func ("/target-dialog/passphrase-prompt", test_passphrase_prompt);
  g_test_add_func ("/target-dialog/remote-run-streams-into-console", test_remote_run_streams_into_console);
  g_test_add_func ("/target-dialog/remote-run-stopped-during-upload", test_remote_run_stopped_during_upload);
  g_test_add_func ("/target-dialog/close-with-running-job", test_close_with_running_job);
  g_test_add_func ("/target-dialog/workspace-context-menu", test_workspace_context_menu);
  g_test_add_func ("/target-dialog/remove-target", test_remove_target);
  g_test_add_func ("/project-dialog/round-trip", test_project_round_trip);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
