/* sl-target-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-target-record.h"

#include "sl-record-fields.h"

struct _SlTargetRecord
{
  GObject       parent_instance;
  gint64        id;
  SlTargetKind  kind;
  SlTargetAuth  auth;
  guint         port;
  char         *name;
  char         *host;
  char         *user;
  char         *identity_file;
  char         *known_hosts_file;
  char         *remote_base_folder;
  char         *setup_command;
};

G_DEFINE_FINAL_TYPE (SlTargetRecord, sl_target_record, G_TYPE_OBJECT)

/* The ids are what the database stores; they never change once released. */
static const char * const kind_ids[] = {
  [SL_TARGET_KIND_LOCAL] = "local",
  [SL_TARGET_KIND_SSH] = "ssh",
};

static const char * const auth_ids[] = {
  [SL_TARGET_AUTH_AGENT] = "agent",
  [SL_TARGET_AUTH_KEY] = "key",
  [SL_TARGET_AUTH_PASSWORD] = "password",
  [SL_TARGET_AUTH_KEYBOARD_INTERACTIVE] = "keyboard-interactive",
};

static void
sl_target_record_finalize (GObject *object)
{
  SlTargetRecord *self = (SlTargetRecord *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->user, g_free);
  g_clear_pointer (&self->identity_file, g_free);
  g_clear_pointer (&self->known_hosts_file, g_free);
  g_clear_pointer (&self->remote_base_folder, g_free);
  g_clear_pointer (&self->setup_command, g_free);

  G_OBJECT_CLASS (sl_target_record_parent_class)->finalize (object);
}

static void
sl_target_record_class_init (SlTargetRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_target_record_finalize;
}

static void
sl_target_record_init (SlTargetRecord *self)
{
  self->port = SL_TARGET_DEFAULT_PORT;
  self->auth = SL_TARGET_AUTH_AGENT;
}

/**
 * sl_target_record_new:
 * @kind: what the target is; it cannot change later
 * @name: the name shown to the user, unique in a workspace
 *
 * Returns: (transfer full): a target that is not stored yet (its id is 0)
 */
SlTargetRecord *
sl_target_record_new (SlTargetKind  kind,
                      const char   *name)
{
  SlTargetRecord *self;

  g_return_val_if_fail (kind == SL_TARGET_KIND_LOCAL || kind == SL_TARGET_KIND_SSH, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (SL_TYPE_TARGET_RECORD, NULL);
  self->kind = kind;
  self->name = g_strdup (name);

  return self;
}

gint64
sl_target_record_get_id (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), 0);
  return self->id;
}

void
sl_target_record_set_id (SlTargetRecord *self,
                         gint64          id)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  self->id = id;
}

SlTargetKind
sl_target_record_get_kind (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), SL_TARGET_KIND_LOCAL);
  return self->kind;
}

const char *
sl_target_record_get_name (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->name;
}

void
sl_target_record_set_name (SlTargetRecord *self,
                           const char     *name)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  g_return_if_fail (name != NULL);
  sl_record_replace_string (&self->name, name);
}

const char *
sl_target_record_get_host (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->host;
}

void
sl_target_record_set_host (SlTargetRecord *self,
                           const char     *host)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->host, host);
}

guint
sl_target_record_get_port (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), SL_TARGET_DEFAULT_PORT);
  return self->port;
}

void
sl_target_record_set_port (SlTargetRecord *self,
                           guint           port)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  self->port = port;
}

const char *
sl_target_record_get_user (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->user;
}

void
sl_target_record_set_user (SlTargetRecord *self,
                           const char     *user)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->user, user);
}

SlTargetAuth
sl_target_record_get_auth (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), SL_TARGET_AUTH_AGENT);
  return self->auth;
}

void
sl_target_record_set_auth (SlTargetRecord *self,
                           SlTargetAuth    auth)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  g_return_if_fail (auth <= SL_TARGET_AUTH_KEYBOARD_INTERACTIVE);
  self->auth = auth;
}

const char *
sl_target_record_get_identity_file (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->identity_file;
}

/**
 * sl_target_record_set_identity_file:
 * @path: (nullable): the path of a private key file, never its contents
 */
void
sl_target_record_set_identity_file (SlTargetRecord *self,
                                    const char     *path)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->identity_file, path);
}

const char *
sl_target_record_get_known_hosts_file (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->known_hosts_file;
}

/**
 * sl_target_record_set_known_hosts_file:
 * @path: (nullable): a known_hosts file, or %NULL for the user's default one
 */
void
sl_target_record_set_known_hosts_file (SlTargetRecord *self,
                                       const char     *path)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->known_hosts_file, path);
}

const char *
sl_target_record_get_remote_base_folder (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->remote_base_folder;
}

void
sl_target_record_set_remote_base_folder (SlTargetRecord *self,
                                         const char     *folder)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->remote_base_folder, folder);
}

const char *
sl_target_record_get_setup_command (SlTargetRecord *self)
{
  g_return_val_if_fail (SL_IS_TARGET_RECORD (self), NULL);
  return self->setup_command;
}

/**
 * sl_target_record_set_setup_command:
 * @command: (nullable): shell command run before every job to set up the
 *   environment, such as sourcing the CANN set_env.sh
 */
void
sl_target_record_set_setup_command (SlTargetRecord *self,
                                    const char     *command)
{
  g_return_if_fail (SL_IS_TARGET_RECORD (self));
  sl_record_replace_string (&self->setup_command, command);
}

const char *
sl_target_kind_to_id (SlTargetKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (kind_ids), NULL);
  return kind_ids[kind];
}

gboolean
sl_target_kind_from_id (const char   *id,
                        SlTargetKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (kind_ids); i++)
    {
      if (g_str_equal (id, kind_ids[i]))
        {
          *kind = (SlTargetKind)i;
          return TRUE;
        }
    }

  return FALSE;
}

const char *
sl_target_auth_to_id (SlTargetAuth auth)
{
  g_return_val_if_fail (auth < G_N_ELEMENTS (auth_ids), NULL);
  return auth_ids[auth];
}

gboolean
sl_target_auth_from_id (const char   *id,
                        SlTargetAuth *auth)
{
  g_return_val_if_fail (auth != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (auth_ids); i++)
    {
      if (g_str_equal (id, auth_ids[i]))
        {
          *auth = (SlTargetAuth)i;
          return TRUE;
        }
    }

  return FALSE;
}
