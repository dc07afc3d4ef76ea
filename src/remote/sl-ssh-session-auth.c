/* sl-ssh-session-auth.c: logging in
 *
 * ssh-agent, the key file or the default keys, then keyboard-interactive
 * and password when there is a prompt function. Prompts are asked in the
 * caller's main context while the worker waits; answers are wiped after
 * use.
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

static void
note_tried (GString    *tried,
            const char *what)
{
  if (tried->len > 0)
    g_string_append (tried, "; ");
  g_string_append (tried, what);
}

/* Returns SSH_AUTH_SUCCESS, SSH_AUTH_DENIED or SSH_AUTH_ERROR with
 * @error set. */
static int
auth_with_identity_file (SlSshSession  *self,
                         const char    *path,
                         GString       *tried,
                         GError       **error)
{
  ssh_key key = NULL;
  g_autofree char *what = NULL;
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

  what = g_strdup_printf (_("the key %s"), path);
  note_tried (tried, what);
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
          g_autofree char *message = NULL;
          char *answer;

          if (instruction != NULL && instruction[0] != '\0')
            message = g_strdup_printf ("%s\n%s", instruction, text);
          else
            message = g_strdup (text);

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
               const char    *user,
               const char    *host,
               GError       **error)
{
  g_autofree char *message = g_strdup_printf (_("Password for %s@%s"), user, host);
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

gboolean
_sl_ssh_session_authenticate (SlSshSession       *self,
                              const SlSshParams  *params,
                              const char         *host,
                              char              **detail,
                              GError            **error)
{
  g_autoptr(GString) tried = g_string_new (NULL);
  g_autofree char *offered = NULL;
  char *user = NULL;
  g_autofree char *user_name = NULL;
  gboolean has_prompt;
  int methods;
  int rc;

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

  methods = ssh_userauth_list (self->ssh, NULL);
  offered = dup_method_list (methods);

  if (methods & SSH_AUTH_METHOD_PUBLICKEY)
    {
      if (g_getenv ("SSH_AUTH_SOCK") != NULL)
        {
          note_tried (tried, _("ssh-agent"));
          rc = ssh_userauth_agent (self->ssh, NULL);
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with a key from ssh-agent"), user_name);
              return TRUE;
            }
        }

      if (params->identity_file != NULL)
        {
          rc = auth_with_identity_file (self, params->identity_file, tried, error);
          if (rc == SSH_AUTH_ERROR)
            return FALSE;
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with the key %s"), user_name, params->identity_file);
              return TRUE;
            }
        }
      else
        {
          note_tried (tried, _("the default keys in ~/.ssh"));
          rc = ssh_userauth_publickey_auto (self->ssh, NULL, NULL);
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with a default key"), user_name);
              return TRUE;
            }
        }
    }

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
    return FALSE;

  if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && has_prompt)
    {
      note_tried (tried, "keyboard-interactive");
      rc = auth_keyboard_interactive (self, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with keyboard-interactive authentication"), user_name);
          return TRUE;
        }
    }

  if ((methods & SSH_AUTH_METHOD_PASSWORD) && has_prompt)
    {
      note_tried (tried, _("a password"));
      rc = auth_password (self, user_name, host, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with a password"), user_name);
          return TRUE;
        }
    }

  g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
               _("The server refused to let %s log in (tried: %s; the server accepts: %s)"),
               user_name, tried->len > 0 ? tried->str : "—", offered);
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
