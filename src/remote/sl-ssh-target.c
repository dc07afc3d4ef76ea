/* sl-ssh-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"
#include "sl-ssh-target.h"

struct _SlSshTarget
{
  SlTarget  parent_instance;
  char     *host;
  guint     port;
  char     *user;
  char     *identity_file;
  char     *known_hosts_file;
  char     *base_dir;
  char     *env_setup;
  SlTargetAuth auth;
};

G_DEFINE_FINAL_TYPE (SlSshTarget, sl_ssh_target, SL_TYPE_TARGET)

static void
replace_string (char       **field,
                const char  *value)
{
  char *copy = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;

  g_free (*field);
  *field = copy;
}

static const char *
sl_ssh_target_get_kind (SlTarget *target)
{
  return "ssh";
}

static char *
sl_ssh_target_dup_location (SlTarget *target)
{
  SlSshTarget *self = SL_SSH_TARGET (target);

  return g_strdup_printf ("%s%s%s:%u",
                          self->user != NULL ? self->user : "",
                          self->user != NULL ? "@" : "",
                          self->host != NULL ? self->host : "",
                          self->port);
}

static void
sl_ssh_target_finalize (GObject *object)
{
  SlSshTarget *self = (SlSshTarget *)object;

  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->user, g_free);
  g_clear_pointer (&self->identity_file, g_free);
  g_clear_pointer (&self->known_hosts_file, g_free);
  g_clear_pointer (&self->base_dir, g_free);
  g_clear_pointer (&self->env_setup, g_free);

  G_OBJECT_CLASS (sl_ssh_target_parent_class)->finalize (object);
}

static void
sl_ssh_target_class_init (SlSshTargetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  SlTargetClass *target_class = SL_TARGET_CLASS (klass);

  object_class->finalize = sl_ssh_target_finalize;

  target_class->get_kind = sl_ssh_target_get_kind;
  target_class->dup_location = sl_ssh_target_dup_location;
  /* No spawn: remote commands run through sl_ssh_target_create_session(). */
}

static void
sl_ssh_target_init (SlSshTarget *self)
{
  self->port = SL_TARGET_DEFAULT_PORT;
}

/**
 * sl_ssh_target_new:
 * @name: the name shown to the user
 * @host: a host name, an address or a Host alias of ~/.ssh/config
 *
 * Returns: (transfer full): a target that is not stored yet
 */
SlTarget *
sl_ssh_target_new (const char *name,
                   const char *host)
{
  SlSshTarget *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (host != NULL, NULL);

  self = g_object_new (SL_TYPE_SSH_TARGET, "name", name, NULL);
  self->host = g_strdup (host);
  return SL_TARGET (self);
}

/**
 * sl_ssh_target_new_from_record:
 *
 * Returns: (transfer full): the target a stored SSH record describes, or
 *   %NULL with @error set when the record is not an SSH target
 */
SlTarget *
sl_ssh_target_new_from_record (SlTargetRecord  *record,
                               GError         **error)
{
  SlSshTarget *self;

  g_return_val_if_fail (SL_IS_TARGET_RECORD (record), NULL);

  if (sl_target_record_get_kind (record) != SL_TARGET_KIND_SSH ||
      sl_target_record_get_host (record) == NULL || sl_target_record_get_host (record)[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Target “%s” is not an SSH server with a host"), sl_target_record_get_name (record));
      return NULL;
    }

  self = SL_SSH_TARGET (sl_ssh_target_new (sl_target_record_get_name (record), sl_target_record_get_host (record)));
  sl_target_set_id (SL_TARGET (self), sl_target_record_get_id (record));
  self->port = sl_target_record_get_port (record);
  replace_string (&self->user, sl_target_record_get_user (record));
  replace_string (&self->identity_file, sl_target_record_get_identity_file (record));
  self->auth = sl_target_record_get_auth (record);
  replace_string (&self->known_hosts_file, sl_target_record_get_known_hosts_file (record));
  replace_string (&self->base_dir, sl_target_record_get_remote_base_folder (record));
  replace_string (&self->env_setup, sl_target_record_get_setup_command (record));
  return SL_TARGET (self);
}

/**
 * sl_ssh_target_update_record:
 *
 * Copies the target's settings into @record, which must be an SSH record.
 * The authentication method is "key" with an identity file; otherwise
 * the one of the record the target was made from, "agent" in place of
 * "key". A password is never part of a record.
 */
gboolean
sl_ssh_target_update_record (SlSshTarget     *self,
                             SlTargetRecord  *record,
                             GError         **error)
{
  g_return_val_if_fail (SL_IS_SSH_TARGET (self), FALSE);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (record), FALSE);

  if (sl_target_record_get_kind (record) != SL_TARGET_KIND_SSH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Target “%s” is not an SSH server"), sl_target_record_get_name (record));
      return FALSE;
    }

  sl_target_record_set_name (record, sl_target_get_name (SL_TARGET (self)));
  sl_target_record_set_host (record, self->host);
  sl_target_record_set_port (record, self->port);
  sl_target_record_set_user (record, self->user);
  sl_target_record_set_identity_file (record, self->identity_file);
  sl_target_record_set_auth (record, self->identity_file != NULL ? SL_TARGET_AUTH_KEY
                                     : self->auth == SL_TARGET_AUTH_KEY ? SL_TARGET_AUTH_AGENT : self->auth);
  sl_target_record_set_known_hosts_file (record, self->known_hosts_file);
  sl_target_record_set_remote_base_folder (record, self->base_dir);
  sl_target_record_set_setup_command (record, self->env_setup);
  return TRUE;
}

/**
 * sl_ssh_target_to_record:
 *
 * Returns: (transfer full): a record to store; its id is the target's
 *   when the target is stored, 0 otherwise
 */
SlTargetRecord *
sl_ssh_target_to_record (SlSshTarget *self)
{
  SlTargetRecord *record;
  gint64 id;

  g_return_val_if_fail (SL_IS_SSH_TARGET (self), NULL);

  record = sl_target_record_new (SL_TARGET_KIND_SSH, sl_target_get_name (SL_TARGET (self)));
  id = sl_target_get_id (SL_TARGET (self));
  sl_target_record_set_id (record, id > 0 ? id : 0);
  sl_ssh_target_update_record (self, record, NULL);
  return record;
}

#define STRING_ACCESSORS(field)                                                     \
  const char *                                                                      \
  sl_ssh_target_get_##field (SlSshTarget *self)                                     \
  {                                                                                 \
    g_return_val_if_fail (SL_IS_SSH_TARGET (self), NULL);                           \
    return self->field;                                                             \
  }                                                                                 \
                                                                                    \
  void                                                                              \
  sl_ssh_target_set_##field (SlSshTarget *self,                                     \
                             const char  *value)                                    \
  {                                                                                 \
    g_return_if_fail (SL_IS_SSH_TARGET (self));                                     \
    replace_string (&self->field, value);                                           \
  }

STRING_ACCESSORS (user)
STRING_ACCESSORS (identity_file)
STRING_ACCESSORS (known_hosts_file)
STRING_ACCESSORS (base_dir)
STRING_ACCESSORS (env_setup)

#undef STRING_ACCESSORS

const char *
sl_ssh_target_get_host (SlSshTarget *self)
{
  g_return_val_if_fail (SL_IS_SSH_TARGET (self), NULL);
  return self->host;
}

void
sl_ssh_target_set_host (SlSshTarget *self,
                        const char  *host)
{
  g_return_if_fail (SL_IS_SSH_TARGET (self));
  g_return_if_fail (host != NULL && host[0] != '\0');
  replace_string (&self->host, host);
}

guint
sl_ssh_target_get_port (SlSshTarget *self)
{
  g_return_val_if_fail (SL_IS_SSH_TARGET (self), SL_TARGET_DEFAULT_PORT);
  return self->port;
}

void
sl_ssh_target_set_port (SlSshTarget *self,
                        guint        port)
{
  g_return_if_fail (SL_IS_SSH_TARGET (self));
  g_return_if_fail (port >= 1 && port <= 65535);
  self->port = port;
}

static SlSshAuth
session_auth (SlTargetAuth auth)
{
  switch (auth)
    {
    case SL_TARGET_AUTH_KEY:                  return SL_SSH_AUTH_KEY;
    case SL_TARGET_AUTH_PASSWORD:             return SL_SSH_AUTH_PASSWORD;
    case SL_TARGET_AUTH_KEYBOARD_INTERACTIVE: return SL_SSH_AUTH_KEYBOARD_INTERACTIVE;
    case SL_TARGET_AUTH_AGENT:
    default:                                  return SL_SSH_AUTH_AGENT;
    }
}

/**
 * sl_ssh_target_create_session:
 *
 * Returns: (transfer full): a session set up to reach this target, not
 *   connected yet
 */
SlSshSession *
sl_ssh_target_create_session (SlSshTarget *self)
{
  SlSshSession *session;

  g_return_val_if_fail (SL_IS_SSH_TARGET (self), NULL);

  session = sl_ssh_session_new (self->host, self->port, self->user);
  sl_ssh_session_set_identity_file (session, self->identity_file);
  sl_ssh_session_set_auth (session, session_auth (self->auth));
  sl_ssh_session_set_known_hosts_file (session, self->known_hosts_file);
  return session;
}

static gboolean
is_env_name (const char *name,
             gsize       length)
{
  if (length == 0 || g_ascii_isdigit (name[0]))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

/**
 * sl_ssh_target_dup_command_line:
 * @argv: the program and its arguments
 * @working_dir: (nullable): the folder to run in; the base folder when
 *   %NULL
 * @env: (nullable): NAME=VALUE pairs to export
 *
 * Builds the shell command that runs @argv on the server: change to the
 * folder, run the environment setup command, export @env and exec the
 * program, every path, value and argument quoted.
 *
 * Returns: (transfer full): the command line, or %NULL with @error set
 */
char *
sl_ssh_target_dup_command_line (SlSshTarget         *self,
                                const char * const  *argv,
                                const char          *working_dir,
                                const char * const  *env,
                                GError             **error)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *program = NULL;
  const char *dir;

  g_return_val_if_fail (SL_IS_SSH_TARGET (self), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  dir = working_dir != NULL ? working_dir : self->base_dir;
  if (dir != NULL)
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (dir);

      g_string_append_printf (line, "cd %s || exit 126\n", quoted);
    }

  if (self->env_setup != NULL)
    g_string_append_printf (line, "%s\n", self->env_setup);

  /* Unbuffered output so training logs reach the Console as they happen. */
  g_string_append (line, "export PYTHONUNBUFFERED=1\n");

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *value = NULL;

      if (eq == NULL || !is_env_name (env[i], eq - env[i]))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("Environment entry “%s” is not of the form NAME=VALUE"), env[i]);
          return NULL;
        }
      value = sl_shell_quote (eq + 1);
      g_string_append_printf (line, "export %.*s=%s\n", (int)(eq - env[i]), env[i], value);
    }

  program = sl_shell_quote_argv (argv);
  g_string_append_printf (line, "exec %s", program);
  return g_string_free (g_steal_pointer (&line), FALSE);
}
