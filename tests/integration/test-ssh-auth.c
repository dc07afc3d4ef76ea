/* test-ssh-auth.c: password and keyboard-interactive logins
 *
 * OpenSSH would need the real password of a real user for these, so a
 * small server made with libssh's server API runs on 127.0.0.1 in a
 * thread of this test, with a host key generated for the run. It offers
 * a password or a keyboard-interactive question, and keys that it always
 * refuses; each refusal must say what was tried, what the server still
 * accepts and what to do about the way of logging in that was chosen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libssh/libssh.h>
#include <libssh/server.h>

#include "sl-ssh-session.h"

#define PASSWORD "s3cret pass"
#define CODE     "123456"

typedef struct {
  ssh_bind  bind;
  guint     port;
  gint      methods;
  gint      quit;
  GThread  *thread;
} Server;

static Server server;
static char *tmp_dir;

/* The message API is the simplest server libssh has; part of it is
 * deprecated in favour of callbacks, which would only make this longer. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static void
serve (ssh_session session)
{
  gboolean authenticated = FALSE;
  int methods = g_atomic_int_get (&server.methods);
  ssh_message message;

  if (ssh_handle_key_exchange (session) != SSH_OK)
    return;
  ssh_set_auth_methods (session, methods);

  while ((message = ssh_message_get (session)) != NULL)
    {
      gboolean handled = FALSE;

      /* An answer to a keyboard-interactive question carries no user. */
      if (!authenticated && ssh_message_type (message) == SSH_REQUEST_AUTH &&
          (ssh_message_auth_user (message) == NULL ||
           g_strcmp0 (ssh_message_auth_user (message), "tester") == 0))
        {
          int subtype = ssh_message_subtype (message);

          if (subtype == SSH_AUTH_METHOD_PASSWORD && (methods & SSH_AUTH_METHOD_PASSWORD) &&
              g_strcmp0 (ssh_message_auth_password (message), PASSWORD) == 0)
            {
              ssh_message_auth_reply_success (message, 0);
              authenticated = handled = TRUE;
            }
          else if (subtype == SSH_AUTH_METHOD_INTERACTIVE && (methods & SSH_AUTH_METHOD_INTERACTIVE))
            {
              if (!ssh_message_auth_kbdint_is_response (message))
                {
                  const char *prompts[] = { "Verification code: " };
                  char echo[] = { 1 };

                  ssh_message_auth_interactive_request (message, "Second factor", "Type the code from the token",
                                                        1, prompts, echo);
                  handled = TRUE;
                }
              else if (ssh_userauth_kbdint_getnanswers (session) == 1 &&
                       g_strcmp0 (ssh_userauth_kbdint_getanswer (session, 0), CODE) == 0)
                {
                  ssh_message_auth_reply_success (message, 0);
                  authenticated = handled = TRUE;
                }
            }

          if (!handled)
            ssh_message_auth_set_methods (message, methods);
        }

      if (!handled)
        ssh_message_reply_default (message);
      ssh_message_free (message);
    }
}

G_GNUC_END_IGNORE_DEPRECATIONS

static gpointer
server_main (gpointer data)
{
  while (!g_atomic_int_get (&server.quit))
    {
      ssh_session session = ssh_new ();

      if (ssh_bind_accept (server.bind, session) == SSH_OK && !g_atomic_int_get (&server.quit))
        serve (session);
      ssh_disconnect (session);
      ssh_free (session);
    }
  return NULL;
}

static guint
pick_free_port (void)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);

  g_assert_true (g_socket_bind (socket, address, TRUE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
server_start (void)
{
  g_autofree char *key_path = g_build_filename (tmp_dir, "host_key", NULL);
  ssh_key key = NULL;
  int verbosity = SSH_LOG_NOLOG;

  g_assert_cmpint (ssh_pki_generate (SSH_KEYTYPE_ED25519, 0, &key), ==, SSH_OK);
  g_assert_cmpint (ssh_pki_export_privkey_file (key, NULL, NULL, NULL, key_path), ==, SSH_OK);
  ssh_key_free (key);

  server.bind = ssh_bind_new ();
  server.port = pick_free_port ();
  ssh_bind_options_set (server.bind, SSH_BIND_OPTIONS_BINDADDR, "127.0.0.1");
  ssh_bind_options_set (server.bind, SSH_BIND_OPTIONS_BINDPORT, &server.port);
  ssh_bind_options_set (server.bind, SSH_BIND_OPTIONS_HOSTKEY, key_path);
  ssh_bind_options_set (server.bind, SSH_BIND_OPTIONS_LOG_VERBOSITY, &verbosity);
  g_assert_cmpint (ssh_bind_listen (server.bind), ==, SSH_OK);
  server.thread = g_thread_new ("test-ssh-server", server_main, NULL);
}

static void
server_stop (void)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) wake = NULL;

  /* ssh_bind_accept() waits for a connection: give it one to notice. */
  g_atomic_int_set (&server.quit, 1);
  wake = g_socket_client_connect_to_host (client, "127.0.0.1", server.port, NULL, NULL);
  g_clear_object (&wake);
  g_thread_join (server.thread);
  ssh_bind_free (server.bind);
}

typedef struct {
  const char      *answer;
  guint            n_asked;
  SlSshPromptKind  kind;
  gboolean         echo;
  char            *message;
} PromptState;

static void
on_prompt (SlSshPrompt *prompt,
           gpointer     user_data)
{
  PromptState *state = user_data;

  state->n_asked++;
  state->kind = sl_ssh_prompt_get_kind (prompt);
  state->echo = sl_ssh_prompt_get_echo (prompt);
  g_free (state->message);
  state->message = g_strdup (sl_ssh_prompt_get_message (prompt));
  sl_ssh_prompt_answer (prompt, state->answer);
}

static SlSshSession *
new_session_full (int          methods,
                  SlSshAuth    auth,
                  const char  *identity_file,
                  PromptState *state)
{
  g_autofree char *known_hosts = g_build_filename (tmp_dir, "known_hosts", NULL);
  SlSshSession *session = sl_ssh_session_new ("127.0.0.1", server.port, "tester");
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;

  g_atomic_int_set (&server.methods, methods);
  sl_ssh_session_set_known_hosts_file (session, known_hosts);
  sl_ssh_session_set_timeout (session, 5);
  sl_ssh_session_set_auth (session, auth);
  sl_ssh_session_set_identity_file (session, identity_file);

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
  g_assert_true (sl_ssh_session_dup_host_key (session, NULL, &fingerprint));
  sl_ssh_session_accept_host_key (session, fingerprint, FALSE);

  if (state != NULL)
    sl_ssh_session_set_prompt_func (session, on_prompt, state, NULL);
  return session;
}

static SlSshSession *
new_session (int          methods,
             PromptState *state)
{
  return new_session_full (methods, SL_SSH_AUTH_AGENT, NULL, state);
}

/* What the Authentication step said: its detail and its hint. */
typedef struct {
  char *detail;
  char *hint;
} AuthStep;

static void
on_step (SlSshStep        step,
         SlSshStepStatus  status,
         const char      *detail,
         const char      *hint,
         gpointer         user_data)
{
  AuthStep *auth = user_data;

  if (step != SL_SSH_STEP_AUTH)
    return;
  g_free (auth->detail);
  g_free (auth->hint);
  auth->detail = g_strdup (detail);
  auth->hint = g_strdup (hint);
}

static void
auth_step_clear (AuthStep *auth)
{
  g_clear_pointer (&auth->detail, g_free);
  g_clear_pointer (&auth->hint, g_free);
}

static void
test_password (void)
{
  PromptState right = { PASSWORD, 0, 0, TRUE, NULL };
  PromptState wrong = { "guess", 0, 0, TRUE, NULL };
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(SlSshSession) session = new_session (SSH_AUTH_METHOD_PASSWORD, &right);

    g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (sl_ssh_session_is_connected (session));
    g_assert_cmpuint (right.n_asked, ==, 1);
    g_assert_cmpint (right.kind, ==, SL_SSH_PROMPT_PASSWORD);
    g_assert_false (right.echo);
    g_assert_nonnull (strstr (right.message, "tester@127.0.0.1"));
  }

  {
    g_autoptr(SlSshSession) session = new_session (SSH_AUTH_METHOD_PASSWORD, &wrong);

    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_nonnull (strstr (error->message, "password"));
    g_assert_cmpuint (wrong.n_asked, ==, 1);
    g_clear_error (&error);
  }

  /* Nobody to ask: refused, saying what the server would take. */
  {
    g_autoptr(SlSshSession) session = new_session (SSH_AUTH_METHOD_PASSWORD, NULL);

    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_nonnull (strstr (error->message, "password"));
    g_clear_error (&error);
  }

  g_free (right.message);
  g_free (wrong.message);
}

static void
test_keyboard_interactive (void)
{
  PromptState right = { CODE, 0, 0, FALSE, NULL };
  PromptState cancelled = { NULL, 0, 0, FALSE, NULL };
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(SlSshSession) session = new_session (SSH_AUTH_METHOD_INTERACTIVE, &right);

    g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (right.n_asked, ==, 1);
    g_assert_cmpint (right.kind, ==, SL_SSH_PROMPT_KEYBOARD_INTERACTIVE);
    g_assert_true (right.echo);
    g_assert_nonnull (strstr (right.message, "Verification code"));
    g_assert_nonnull (strstr (right.message, "Type the code from the token"));
  }

  {
    g_autoptr(SlSshSession) session = new_session (SSH_AUTH_METHOD_INTERACTIVE, &cancelled);

    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_cmpuint (cancelled.n_asked, ==, 1);
  }

  g_free (right.message);
  g_free (cancelled.message);
}

/* A refused password is explained as a password, not as a key. */
static void
test_wrong_password_message (void)
{
  PromptState wrong = { "guess", 0, 0, TRUE, NULL };
  g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PASSWORD, SL_SSH_AUTH_PASSWORD, NULL, &wrong);
  g_autoptr(GError) error = NULL;
  AuthStep step = { 0 };

  g_assert_false (sl_ssh_session_connect (session, on_step, &step, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
  g_assert_cmpuint (wrong.n_asked, ==, 1);
  g_assert_cmpstr (wrong.message, ==, "Password for tester@127.0.0.1");

  /* What was tried, what the server still accepts, what to do. */
  g_assert_nonnull (strstr (error->message, "a password (refused)"));
  g_assert_nonnull (strstr (error->message, "still accepts: password"));
  g_assert_nonnull (strstr (error->message, "Check the password of tester on 127.0.0.1"));
  g_assert_null (strstr (error->message, "authorized_keys"));
  g_assert_null (strstr (error->message, "key"));

  /* The step keeps the two apart. */
  g_assert_nonnull (step.detail);
  g_assert_nonnull (strstr (step.detail, "a password (refused)"));
  g_assert_null (strstr (step.detail, "Check the password"));
  g_assert_nonnull (step.hint);
  g_assert_nonnull (strstr (step.hint, "Check the password"));
  g_assert_null (strstr (step.hint, "authorized_keys"));
  g_assert_null (strstr (step.hint, "key"));

  auth_step_clear (&step);
  g_free (wrong.message);
}

/* "SSH agent" chosen, and no agent: the prompt that follows and the
 * refusal both say so, and what to do. */
static void
test_agent_not_running (void)
{
  PromptState right = { PASSWORD, 0, 0, TRUE, NULL };
  g_autoptr(GError) error = NULL;

  g_assert_null (g_getenv ("SSH_AUTH_SOCK"));

  {
    g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PUBLICKEY | SSH_AUTH_METHOD_PASSWORD,
                                                        SL_SSH_AUTH_AGENT, NULL, &right);

    g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (right.n_asked, ==, 1);
    g_assert_cmpint (right.kind, ==, SL_SSH_PROMPT_PASSWORD);
    g_assert_true (g_str_has_prefix (right.message, "ssh-agent is not running (SSH_AUTH_SOCK is not set)"));
    g_assert_nonnull (strstr (right.message, "There is no default key in "));
    g_assert_true (g_str_has_suffix (right.message, "\nPassword for tester@127.0.0.1"));
  }

  /* Nobody to ask for a password. */
  {
    g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PUBLICKEY | SSH_AUTH_METHOD_PASSWORD,
                                                        SL_SSH_AUTH_AGENT, NULL, NULL);
    AuthStep step = { 0 };

    g_assert_false (sl_ssh_session_connect (session, on_step, &step, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_nonnull (strstr (error->message, "ssh-agent (not running: SSH_AUTH_SOCK is not set)"));
    g_assert_nonnull (strstr (error->message, "still accepts: publickey, password"));
    g_assert_nonnull (step.hint);
    g_assert_nonnull (strstr (step.hint, "Start ssh-agent"));
    g_assert_nonnull (strstr (step.hint, "ssh-add"));
    g_assert_nonnull (strstr (error->message, step.hint));
    auth_step_clear (&step);
  }

  g_free (right.message);
}

/* A refused key file, then a password: the prompt says the key was
 * refused; a refused password after it says both. */
static void
test_refused_key_then_password (void)
{
  g_autofree char *key_path = g_build_filename (tmp_dir, "user_key", NULL);
  g_autofree char *refused = NULL;
  PromptState right = { PASSWORD, 0, 0, TRUE, NULL };
  PromptState wrong = { "guess", 0, 0, TRUE, NULL };
  g_autoptr(GError) error = NULL;
  ssh_key key = NULL;

  g_assert_cmpint (ssh_pki_generate (SSH_KEYTYPE_ED25519, 0, &key), ==, SSH_OK);
  g_assert_cmpint (ssh_pki_export_privkey_file (key, NULL, NULL, NULL, key_path), ==, SSH_OK);
  ssh_key_free (key);
  refused = g_strdup_printf ("The server refused the key %s.\nPassword for tester@127.0.0.1", key_path);

  {
    g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PUBLICKEY | SSH_AUTH_METHOD_PASSWORD,
                                                        SL_SSH_AUTH_KEY, key_path, &right);

    g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (right.n_asked, ==, 1);
    g_assert_cmpstr (right.message, ==, refused);
  }

  {
    g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PUBLICKEY | SSH_AUTH_METHOD_PASSWORD,
                                                        SL_SSH_AUTH_KEY, key_path, &wrong);
    g_autofree char *tried = g_strdup_printf ("Tried: the key %s (refused); a password (refused).", key_path);

    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_cmpstr (wrong.message, ==, refused);
    g_assert_nonnull (strstr (error->message, tried));
    g_assert_nonnull (strstr (error->message, "still accepts: publickey, password"));
    g_assert_nonnull (strstr (error->message, "Check the password"));
    g_clear_error (&error);
  }

  /* Only the key: the advice is the key's. */
  {
    g_autoptr(SlSshSession) session = new_session_full (SSH_AUTH_METHOD_PUBLICKEY, SL_SSH_AUTH_KEY, key_path, NULL);
    g_autofree char *advice = g_strdup_printf ("Add %s.pub to ~/.ssh/authorized_keys of tester", key_path);

    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
    g_assert_nonnull (strstr (error->message, "still accepts: publickey."));
    g_assert_nonnull (strstr (error->message, advice));
  }

  g_unlink (key_path);
  g_free (right.message);
  g_free (wrong.message);
}

int
main (int    argc,
      char **argv)
{
  int result;

  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("SSH_AUTH_SOCK");

  /* A home folder of its own, without keys: before anything reads it. */
  tmp_dir = g_dir_make_tmp ("sl-ssh-auth-XXXXXX", NULL);
  g_setenv ("HOME", tmp_dir, TRUE);
  ssh_init ();
  server_start ();

  g_test_add_func ("/ssh-auth/password", test_password);
  g_test_add_func ("/ssh-auth/keyboard-interactive", test_keyboard_interactive);
  g_test_add_func ("/ssh-auth/wrong-password-message", test_wrong_password_message);
  g_test_add_func ("/ssh-auth/agent-not-running", test_agent_not_running);
  g_test_add_func ("/ssh-auth/refused-key-then-password", test_refused_key_then_password);

  result = g_test_run ();

  server_stop ();
  {
    g_autofree char *key_path = g_build_filename (tmp_dir, "host_key", NULL);
    g_autofree char *known_hosts = g_build_filename (tmp_dir, "known_hosts", NULL);

    g_unlink (key_path);
    g_unlink (known_hosts);
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return result;
}
