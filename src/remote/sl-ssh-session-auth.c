/* sl-ssh-session-auth.c: logging in
 *
 * ssh-agent, the key file or the default keys, then keyboard-interactive
 * and password when there is a prompt function. Prompts are asked in the
 * caller's main context while the worker waits; answers are wiped after
 * use. A refusal says each way tried and how it ended, what the server
 * still accepts, and what to do about the way the user chose; a prompt
 * that follows a refused key or a missing agent says so first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-ssh-session-private.h"

typedef struct {
  GTask       *task;
  SlSshPrompt *prompt;
} PromptCall;

static gboolean
prompt_in_caller (gpointer data)
{
  PromptCall *call = data;
  SlSshSession *self = g_task_get_source_object (call->task);
  SlSshPromptFunc func;
  gpointer user_data;

  if (_sl_ssh_op_is_delivered (call->task))
    {
      sl_ssh_prompt_answer (call->prompt, NULL);
      return G_SOURCE_REMOVE;
    }

  g_mutex_lock (&self->mutex);
  func = self->prompt_func;
  user_data = self->prompt_data;
  g_mutex_unlock (&self->mutex);

  if (func != NULL)
    func (call->prompt, user_data);
  else
    sl_ssh_prompt_answer (call->prompt, NULL);

  return G_SOURCE_REMOVE;
}

static void
prompt_call_free (gpointer data)
{
  PromptCall *call = data;

  sl_ssh_prompt_unref (call->prompt);
  g_object_unref (call->task);
  g_free (call);
}

/* Worker side: asks in the caller's main context and waits for the
 * answer. Returns NULL when there is no prompt function, when the user
 * cancelled, or when the operation was cancelled. Wipe the result. */
static char *
ask (SlSshSession    *self,
     SlSshPromptKind  kind,
     const char      *message,
     gboolean         echo)
{
  g_autoptr(SlSshPrompt) prompt = NULL;
  GCancellable *cancellable = g_task_get_cancellable (self->current_task);
  PromptCall *call;
  gboolean has_func;

  g_mutex_lock (&self->mutex);
  has_func = self->prompt_func != NULL;
  g_mutex_unlock (&self->mutex);
  if (!has_func)
    return NULL;

  prompt = _sl_ssh_prompt_new (kind, message, echo);
  call = g_new0 (PromptCall, 1);
  call->task = g_object_ref (self->current_task);
  call->prompt = sl_ssh_prompt_ref (prompt);
  sl_main_context_dispatch (g_task_get_context (self->current_task), prompt_in_caller, call, prompt_call_free);

  return _sl_ssh_prompt_wait (prompt, cancellable, POLL_MS);
}

int
_sl_ssh_session_passphrase_callback (const char *message,
                                     char       *buf,
                                     size_t      len,
                                     int         echo,
                                     int         verify,
                                     void       *userdata)
{
  SlSshSession *self = userdata;
  g_autofree char *text = NULL;
  char *answer;
  gsize answer_len;

  g_mutex_lock (&self->mutex);
  text = g_strdup_printf (_("Passphrase for the key %s"), self->identity_file != NULL ? self->identity_file : "");
  self->passphrase_unanswerable = self->prompt_func == NULL;
  g_mutex_unlock (&self->mutex);
  answer = ask (self, SL_SSH_PROMPT_PASSPHRASE, text, FALSE);
  if (answer == NULL)
    return -1;

  answer_len = strlen (answer);
  if (answer_len + 1 > len)
    {
      _sl_ssh_wipe_string (answer);
      return -1;
    }
  memcpy (buf, answer, answer_len + 1);
  _sl_ssh_wipe_string (answer);
  return 0;
}

static const char *
auth_method_name (int method)
{
  switch (method)
    {
    case SSH_AUTH_METHOD_PUBLICKEY:   return "publickey";
    case SSH_AUTH_METHOD_PASSWORD:    return "password";
    case SSH_AUTH_METHOD_INTERACTIVE: return "keyboard-interactive";
    case SSH_AUTH_METHOD_HOSTBASED:   return "hostbased";
    case SSH_AUTH_METHOD_GSSAPI_MIC:  return "gssapi-with-mic";
    default:                          return NULL;
    }
}

static char *
dup_method_list (int methods)
{
  static const int all[] = {
    SSH_AUTH_METHOD_PUBLICKEY, SSH_AUTH_METHOD_PASSWORD, SSH_AUTH_METHOD_INTERACTIVE,
    SSH_AUTH_METHOD_HOSTBASED, SSH_AUTH_METHOD_GSSAPI_MIC,
  };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      if (methods & all[i])
        {
          if (out->len > 0)
            g_string_append (out, ", ");
          g_string_append (out, auth_method_name (all[i]));
        }
    }

  if (out->len == 0)
    g_string_append (out, "—");
  return g_string_free (out, FALSE);
}

/* What logging in went through, to explain a refusal: every way tried
 * and how it ended, what the way the user chose got (said again in the
 * password prompt that follows), and what to do. */
typedef struct {
  SlSshAuth  chosen;
  const char *user;
  const char *host;
  GString   *tried;
  GString   *refused;
  char      *advice;
} Attempts;

static void
note_tried (Attempts   *attempts,
            const char *what,
            const char *outcome)
{
  if (attempts->tried->len > 0)
    g_string_append (attempts->tried, "; ");
  /* TRANSLATORS: a way of logging in and how it ended, such as "the key
   * /home/me/.ssh/id_ed25519 (refused)" */
  g_string_append_printf (attempts->tried, _("%s (%s)"), what, outcome);
}

static void
note_refused (Attempts   *attempts,
              const char *sentence)
{
  if (attempts->refused->len > 0)
    g_string_append_c (attempts->refused, ' ');
  g_string_append (attempts->refused, sentence);
}

static void
set_advice (Attempts *attempts,
            char     *advice)
{
  g_free (attempts->advice);
  attempts->advice = advice;
}

/* A prompt's text, after what the chosen way got when it was refused. */
static char *
dup_prompt_text (Attempts   *attempts,
                 const char *question)
{
  if (attempts->refused->len == 0)
    return g_strdup (question);
  return g_strdup_printf ("%s\n%s", attempts->refused->str, question);
}

typedef enum {
  AGENT_RUNNING,
  AGENT_NOT_SET,
  AGENT_GONE,
} AgentState;

static AgentState
get_agent_state (const char **socket_path)
{
  const char *path = g_getenv ("SSH_AUTH_SOCK");

  *socket_path = path;
  if (path == NULL || path[0] == '\0')
    return AGENT_NOT_SET;
#ifdef G_OS_UNIX
  /* A variable left over from a session whose agent is gone. */
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return AGENT_GONE;
#endif
  return AGENT_RUNNING;
}

static char *
dup_agent_missing (AgentState  state,
                   const char *socket_path)
{
  if (state == AGENT_NOT_SET)
    return g_strdup (_("not running: SSH_AUTH_SOCK is not set"));
  return g_strdup_printf (_("not running: its socket %s is not there"), socket_path);
}

/* The default keys libssh offers that are there, such as "id_ed25519". */
static char *
dup_default_keys (const SlSshParams *params)
{
  static const char * const names[] = { "id_ed25519", "id_ecdsa", "id_rsa" };
  g_autoptr(GString) found = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (params->ssh_dir, names[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          if (found->len > 0)
            g_string_append (found, ", ");
          g_string_append (found, names[i]);
        }
    }
  return found->len > 0 ? g_strdup (found->str) : NULL;
}

static char *
dup_authorized_keys_advice (Attempts   *attempts,
                            const char *public_key)
{
  return g_strdup_printf (_("Add %s to ~/.ssh/authorized_keys of %s on the server (ssh-copy-id -i %s %s@%s does it), "
                            "or check the user name."),
                          public_key, attempts->user, public_key, attempts->user, attempts->host);
}

/* Returns SSH_AUTH_SUCCESS, SSH_AUTH_DENIED or SSH_AUTH_ERROR with
 * @error set. */
static int
auth_with_identity_file (SlSshSession  *self,
                         const char    *path,
                         GError       **error)
{
  ssh_key key = NULL;
  int rc;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("The key file %s does not exist"), path);
      return SSH_AUTH_ERROR;
    }

  self->passphrase_unanswerable = FALSE;
  rc = ssh_pki_import_privkey_file (path, NULL, _sl_ssh_session_passphrase_callback, self, &key);
  if (rc != SSH_OK)
    {
      if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
        return SSH_AUTH_ERROR;
      if (self->passphrase_unanswerable)
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
                     _("The private key %s is protected by a passphrase and it cannot be asked for here; "
                       "add the key to ssh-agent (ssh-add) first"), path);
      else
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
                     _("Could not read the private key %s (a wrong passphrase, or not a key file)"), path);
      return SSH_AUTH_ERROR;
    }

  rc = ssh_userauth_publickey (self->ssh, NULL, key);
  ssh_key_free (key);
  if (rc == SSH_AUTH_ERROR)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
      return SSH_AUTH_ERROR;
    }
  return rc;
}

static int
auth_keyboard_interactive (SlSshSession  *self,
                           Attempts      *attempts,
                           GError       **error)
{
  int rc = ssh_userauth_kbdint (self->ssh, NULL, NULL);

  while (rc == SSH_AUTH_INFO)
    {
      const char *instruction = ssh_userauth_kbdint_getinstruction (self->ssh);
      int n_prompts = ssh_userauth_kbdint_getnprompts (self->ssh);

      for (int i = 0; i < n_prompts; i++)
        {
          char echo = 0;
          const char *text = ssh_userauth_kbdint_getprompt (self->ssh, i, &echo);
          g_autofree char *question = NULL;
          g_autofree char *message = NULL;
          char *answer;

          if (instruction != NULL && instruction[0] != '\0')
            question = g_strdup_printf ("%s\n%s", instruction, text);
          else
            question = g_strdup (text);
          message = dup_prompt_text (attempts, question);

          answer = ask (self, SL_SSH_PROMPT_KEYBOARD_INTERACTIVE, message, echo != 0);
          if (answer == NULL)
            {
              if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
                g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("Logging in was cancelled"));
              return SSH_AUTH_ERROR;
            }
          rc = ssh_userauth_kbdint_setanswer (self->ssh, i, answer);
          _sl_ssh_wipe_string (answer);
          if (rc < 0)
            {
              _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
              return SSH_AUTH_ERROR;
            }
        }
      rc = ssh_userauth_kbdint (self->ssh, NULL, NULL);
    }

  if (rc == SSH_AUTH_ERROR)
    _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
  return rc;
}

static int
auth_password (SlSshSession  *self,
               Attempts      *attempts,
               GError       **error)
{
  g_autofree char *question = g_strdup_printf (_("Password for %s@%s"), attempts->user, attempts->host);
  g_autofree char *message = dup_prompt_text (attempts, question);
  char *answer = ask (self, SL_SSH_PROMPT_PASSWORD, message, FALSE);
  int rc;

  if (answer == NULL)
    {
      if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
        g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("Logging in was cancelled"));
      return SSH_AUTH_ERROR;
    }

  rc = ssh_userauth_password (self->ssh, NULL, answer);
  _sl_ssh_wipe_string (answer);
  if (rc == SSH_AUTH_ERROR)
    _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
  return rc;
}

/* ssh-agent's keys. Returns TRUE when logged in. */
static gboolean
try_agent (SlSshSession *self,
           Attempts     *attempts)
{
  const char *socket_path = NULL;
  AgentState state = get_agent_state (&socket_path);
  g_autofree char *missing = NULL;

  if (state != AGENT_RUNNING)
    {
      /* Said only when the agent was the choice: otherwise nobody
       * expected it. */
      if (attempts->chosen != SL_SSH_AUTH_AGENT)
        return FALSE;
      missing = dup_agent_missing (state, socket_path);
      note_tried (attempts, _("ssh-agent"), missing);
      note_refused (attempts, state == AGENT_NOT_SET
                    ? _("ssh-agent is not running (SSH_AUTH_SOCK is not set), so none of its keys could be offered.")
                    : _("ssh-agent is not running (the socket SSH_AUTH_SOCK names is not there), so none of its keys could be offered."));
      set_advice (attempts, g_strdup (_("Start ssh-agent and add your key to it (eval $(ssh-agent); ssh-add), then start "
                                        "Sightline from that session; or choose “Key file” for this target and name the key.")));
      return FALSE;
    }

  if (ssh_userauth_agent (self->ssh, NULL) == SSH_AUTH_SUCCESS)
    return TRUE;

  note_tried (attempts, _("ssh-agent"), _("none of its keys was accepted"));
  if (attempts->chosen == SL_SSH_AUTH_AGENT)
    {
      note_refused (attempts, _("The server accepted none of the keys in ssh-agent."));
      set_advice (attempts, g_strdup_printf (_("Add the public half of a key ssh-agent holds (ssh-add -L lists them) to "
                                               "~/.ssh/authorized_keys of %s on the server, or add the key the server "
                                               "knows to the agent (ssh-add FILE)."), attempts->user));
    }
  return FALSE;
}

/* The default keys in ~/.ssh. Returns TRUE when logged in. */
static gboolean
try_default_keys (SlSshSession      *self,
                  const SlSshParams *params,
                  Attempts          *attempts)
{
  g_autofree char *keys = dup_default_keys (params);
  g_autofree char *what = NULL;

  if (ssh_userauth_publickey_auto (self->ssh, NULL, NULL) == SSH_AUTH_SUCCESS)
    return TRUE;

  if (keys != NULL)
    {
      g_autofree char *sentence = g_strdup_printf (_("The server refused the default keys in %s (%s)."), params->ssh_dir, keys);
      g_autofree char *first = g_strndup (keys, strcspn (keys, ","));
      g_autofree char *public_name = g_strconcat (first, ".pub", NULL);
      g_autofree char *public_key = g_build_filename (params->ssh_dir, public_name, NULL);

      what = g_strdup_printf (_("the default keys in %s (%s)"), params->ssh_dir, keys);
      note_tried (attempts, what, _("refused"));
      if (attempts->chosen == SL_SSH_AUTH_AGENT)
        {
          note_refused (attempts, sentence);
          /* The agent's own advice comes first when it is not running. */
          if (attempts->advice == NULL)
            set_advice (attempts, dup_authorized_keys_advice (attempts, public_key));
        }
    }
  else
    {
      what = g_strdup_printf (_("the default keys in %s"), params->ssh_dir);
      note_tried (attempts, what, _("there are none"));
      if (attempts->chosen == SL_SSH_AUTH_AGENT)
        {
          g_autofree char *sentence = g_strdup_printf (_("There is no default key in %s either."), params->ssh_dir);

          note_refused (attempts, sentence);
        }
    }
  return FALSE;
}

static void
set_not_accepted_advice (Attempts   *attempts,
                         const char *offered)
{
  set_advice (attempts, g_strdup_printf (_("Choose a way of logging in that the server accepts for %s (%s) in the "
                                           "target’s settings, or ask its administrator."),
                                         attempts->user, offered));
}

static void
attempts_clear (Attempts *attempts)
{
  g_string_free (attempts->tried, TRUE);
  g_string_free (attempts->refused, TRUE);
  g_free (attempts->advice);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Attempts, attempts_clear)

/* @advice: (out): set when logging in was refused: what to do, for the
 *   way the user chose or the password typed; not in @error's message */
gboolean
_sl_ssh_session_authenticate (SlSshSession       *self,
                              const SlSshParams  *params,
                              const char         *host,
                              char              **detail,
                              char              **advice,
                              GError            **error)
{
  g_auto(Attempts) attempts = { 0 };
  g_autofree char *offered = NULL;
  char *user = NULL;
  g_autofree char *user_name = NULL;
  gboolean has_prompt;
  int methods;
  int rc;

  *advice = NULL;

  if (ssh_options_get (self->ssh, SSH_OPTIONS_USER, &user) == SSH_OK && user != NULL)
    {
      user_name = g_strdup (user);
      ssh_string_free_char (user);
    }
  else
    {
      user_name = g_strdup (g_get_user_name ());
    }

  g_mutex_lock (&self->mutex);
  has_prompt = self->prompt_func != NULL;
  g_mutex_unlock (&self->mutex);

  attempts.chosen = params->identity_file != NULL ? SL_SSH_AUTH_KEY : params->auth;
  attempts.user = user_name;
  attempts.host = host;
  attempts.tried = g_string_new (NULL);
  attempts.refused = g_string_new (NULL);

  rc = ssh_userauth_none (self->ssh, NULL);
  if (rc == SSH_AUTH_SUCCESS)
    {
      *detail = g_strdup_printf (_("Logged in as %s without credentials"), user_name);
      return TRUE;
    }
  if (rc == SSH_AUTH_ERROR)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
      return FALSE;
    }

  /* What the server accepts, asked again after each refusal: the
   * answer to the last one is what the message reports. */
  methods = ssh_userauth_list (self->ssh, NULL);

  if (methods & SSH_AUTH_METHOD_PUBLICKEY)
    {
      if (try_agent (self, &attempts))
        {
          *detail = g_strdup_printf (_("Logged in as %s with a key from ssh-agent"), user_name);
          return TRUE;
        }
      methods = ssh_userauth_list (self->ssh, NULL);
    }

  if ((methods & SSH_AUTH_METHOD_PUBLICKEY) && params->identity_file != NULL)
    {
      g_autofree char *what = g_strdup_printf (_("the key %s"), params->identity_file);
      g_autofree char *sentence = NULL;
      g_autofree char *public_key = NULL;

      rc = auth_with_identity_file (self, params->identity_file, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with the key %s"), user_name, params->identity_file);
          return TRUE;
        }
      note_tried (&attempts, what, _("refused"));
      sentence = g_strdup_printf (_("The server refused the key %s."), params->identity_file);
      note_refused (&attempts, sentence);
      public_key = g_strconcat (params->identity_file, ".pub", NULL);
      set_advice (&attempts, dup_authorized_keys_advice (&attempts, public_key));
      methods = ssh_userauth_list (self->ssh, NULL);
    }
  else if (methods & SSH_AUTH_METHOD_PUBLICKEY)
    {
      if (try_default_keys (self, params, &attempts))
        {
          *detail = g_strdup_printf (_("Logged in as %s with a default key"), user_name);
          return TRUE;
        }
      methods = ssh_userauth_list (self->ssh, NULL);
    }
  else if (attempts.chosen == SL_SSH_AUTH_AGENT || attempts.chosen == SL_SSH_AUTH_KEY)
    {
      g_autofree char *sentence = g_strdup_printf (_("The server does not accept keys for %s."), user_name);

      note_refused (&attempts, sentence);
      offered = dup_method_list (methods);
      set_not_accepted_advice (&attempts, offered);
      g_clear_pointer (&offered, g_free);
    }

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
    return FALSE;

  if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && has_prompt)
    {
      rc = auth_keyboard_interactive (self, &attempts, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with keyboard-interactive authentication"), user_name);
          return TRUE;
        }
      note_tried (&attempts, _("keyboard-interactive"), _("the answers were refused"));
      note_refused (&attempts, _("The server refused the answers to its questions."));
      set_advice (&attempts, g_strdup (_("Check the answers (a one-time code may have expired) and the user name, "
                                         "and connect again.")));
      methods = ssh_userauth_list (self->ssh, NULL);
    }

  if ((methods & SSH_AUTH_METHOD_PASSWORD) && has_prompt)
    {
      rc = auth_password (self, &attempts, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with a password"), user_name);
          return TRUE;
        }
      note_tried (&attempts, _("a password"), _("refused"));
      set_advice (&attempts, g_strdup_printf (_("Check the password of %s on %s (and Caps Lock) and connect again; "
                                                "the password is asked for each time and never stored."),
                                              user_name, host));
      methods = ssh_userauth_list (self->ssh, NULL);
    }

  offered = dup_method_list (methods);

  /* The way chosen was not tried at all. */
  if (attempts.chosen == SL_SSH_AUTH_PASSWORD && !(methods & SSH_AUTH_METHOD_PASSWORD) && attempts.advice == NULL)
    set_not_accepted_advice (&attempts, offered);
  else if (attempts.chosen == SL_SSH_AUTH_KEYBOARD_INTERACTIVE && !(methods & SSH_AUTH_METHOD_INTERACTIVE) &&
           attempts.advice == NULL)
    set_not_accepted_advice (&attempts, offered);
  else if (!has_prompt && (methods & (SSH_AUTH_METHOD_PASSWORD | SSH_AUTH_METHOD_INTERACTIVE)) &&
           (attempts.chosen == SL_SSH_AUTH_PASSWORD || attempts.chosen == SL_SSH_AUTH_KEYBOARD_INTERACTIVE ||
            attempts.advice == NULL))
    {
      note_tried (&attempts, (methods & SSH_AUTH_METHOD_PASSWORD) ? _("a password") : _("keyboard-interactive"),
                  _("it cannot be asked for here"));
      set_advice (&attempts, g_strdup (_("A password or an answer can be typed only in the window. Here, log in with a "
                                         "key: add it to ssh-agent (ssh-add), or name it as the target’s key file.")));
    }
  else if (attempts.advice == NULL)
    set_not_accepted_advice (&attempts, offered);

  g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
               _("The server refused to let %s log in. Tried: %s. The server still accepts: %s."),
               user_name, attempts.tried->len > 0 ? attempts.tried->str : "—", offered);
  *advice = g_steal_pointer (&attempts.advice);
  return FALSE;
}

/**
 * sl_ssh_session_set_prompt_func:
 * @func: (nullable): asks the user for passwords, passphrases and
 *   keyboard-interactive answers; without it only keys are tried
 */
void
sl_ssh_session_set_prompt_func (SlSshSession    *self,
                                SlSshPromptFunc  func,
                                gpointer         user_data,
                                GDestroyNotify   destroy)
{
  GDestroyNotify old_destroy;
  gpointer old_data;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  g_mutex_lock (&self->mutex);
  old_destroy = self->prompt_destroy;
  old_data = self->prompt_data;
  self->prompt_func = func;
  self->prompt_data = user_data;
  self->prompt_destroy = destroy;
  g_mutex_unlock (&self->mutex);

  if (old_destroy != NULL)
    old_destroy (old_data);
}
