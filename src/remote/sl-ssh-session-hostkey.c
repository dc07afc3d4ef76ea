/* sl-ssh-session-hostkey.c: checking and remembering host keys
 *
 * A known key passes, an unknown one only once the user accepted its
 * exact fingerprint, a changed one never.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-known-hosts.h"
#include "sl-ssh-session-private.h"

#define DEFAULT_GLOBAL_KNOWN_HOSTS "/etc/ssh/ssh_known_hosts"

/* The file that holds the key libssh found or compared with: the known
 * hosts file of the target, or else the system-wide one it reads too. */
static char *
dup_file_with_host (SlSshSession      *self,
                    const SlSshParams *params,
                    const char        *host,
                    guint              port)
{
  char *global = NULL;
  char *path;

  if (sl_known_hosts_has_host (params->known_hosts_file, host, port))
    return g_strdup (params->known_hosts_file);

  if (ssh_options_get (self->ssh, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, &global) == SSH_OK && global != NULL)
    {
      path = g_strdup (global);
      ssh_string_free_char (global);
    }
  else
    {
      path = g_strdup (DEFAULT_GLOBAL_KNOWN_HOSTS);
    }

  if (sl_known_hosts_has_host (path, host, port))
    return path;
  g_free (path);
  return g_strdup (params->known_hosts_file);
}

gboolean
_sl_ssh_session_check_host_key (SlSshSession       *self,
                                const SlSshParams  *params,
                                const char         *host,
                                guint               port,
                                char              **detail,
                                GError            **error)
{
  const char *known_hosts = params->known_hosts_file;
  g_autofree char *found_in = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *key_type = NULL;
  ssh_key key = NULL;
  unsigned char *hash = NULL;
  size_t hash_len = 0;
  enum ssh_known_hosts_e state;
  gboolean accepted, remember;

  if (ssh_get_server_publickey (self->ssh, &key) < 0)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_PROTOCOL, _("The server sent no host key"));
      return FALSE;
    }

  key_type = g_strdup (ssh_key_type_to_char (ssh_key_type (key)));
  if (ssh_get_publickey_hash (key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hash_len) == 0)
    {
      char *text = ssh_get_fingerprint_hash (SSH_PUBLICKEY_HASH_SHA256, hash, hash_len);

      fingerprint = g_strdup (text);
      ssh_string_free_char (text);
      ssh_clean_pubkey_hash (&hash);
    }
  ssh_key_free (key);

  if (fingerprint == NULL)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_PROTOCOL, _("Could not compute the fingerprint of the host key"));
      return FALSE;
    }

  g_mutex_lock (&self->mutex);
  g_free (self->seen_key_type);
  self->seen_key_type = g_strdup (key_type);
  g_free (self->seen_fingerprint);
  self->seen_fingerprint = g_strdup (fingerprint);
  accepted = g_strcmp0 (self->accepted_fingerprint, fingerprint) == 0;
  remember = self->accepted_remember;
  g_mutex_unlock (&self->mutex);

  state = ssh_session_is_known_server (self->ssh);
  switch (state)
    {
    case SSH_KNOWN_HOSTS_OK:
      found_in = dup_file_with_host (self, params, host, port);
      *detail = g_strdup_printf (_("%s key %s matches %s"), key_type, fingerprint, found_in);
      return TRUE;

    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER:
      /* Never accepted from here, whatever the caller said: the old
       * key has to be removed from the file on purpose. */
      found_in = dup_file_with_host (self, params, host, port);
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_CHANGED,
                   _("WARNING: the host key of %s has changed! Someone may be intercepting the connection "
                     "(a man-in-the-middle attack), or the server was reinstalled. It now presents another key "
                     "(%s, fingerprint %s) than the one remembered in %s. The connection was refused."),
                   host, key_type, fingerprint, found_in);
      return FALSE;

    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
      if (!accepted)
        {
          g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN,
                       _("The host key of %s is not known yet (%s, fingerprint %s). Compare the "
                         "fingerprint with the one the server's administrator gives you before trusting it."),
                       host, key_type, fingerprint);
          return FALSE;
        }

      if (remember)
        {
          g_autofree char *folder = g_path_get_dirname (known_hosts);

          g_mkdir_with_parents (folder, 0700);
          if (ssh_session_update_known_hosts (self->ssh) != SSH_OK)
            {
              g_autofree char *what = g_strdup_printf (_("Could not add the host key to %s"), known_hosts);

              _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_FAILED, what);
              return FALSE;
            }
          *detail = g_strdup_printf (_("%s key %s accepted and added to %s"), key_type, fingerprint, known_hosts);
        }
      else
        {
          *detail = g_strdup_printf (_("%s key %s accepted for this connection only"), key_type, fingerprint);
        }
      return TRUE;

    case SSH_KNOWN_HOSTS_ERROR:
    default:
      {
        g_autofree char *what = g_strdup_printf (_("Could not check the host key against %s"), known_hosts);

        _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_FAILED, what);
        return FALSE;
      }
    }
}

/**
 * sl_ssh_session_accept_host_key:
 * @fingerprint: the SHA256 fingerprint the user agreed to, as
 *   sl_ssh_session_dup_host_key() gave it
 * @remember: %TRUE to add the key to the known hosts file
 *
 * Trusts an unknown host key for the next connections of this session.
 * Only a key with exactly this fingerprint is accepted, and only while
 * the known hosts file has no other key for the host: a changed key is
 * always refused.
 */
void
sl_ssh_session_accept_host_key (SlSshSession *self,
                                const char   *fingerprint,
                                gboolean      remember)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (fingerprint != NULL);

  g_mutex_lock (&self->mutex);
  g_free (self->accepted_fingerprint);
  self->accepted_fingerprint = g_strdup (fingerprint);
  self->accepted_remember = remember;
  g_mutex_unlock (&self->mutex);
}

/**
 * sl_ssh_session_dup_host_key:
 * @key_type: (out) (optional): such as "ssh-ed25519"
 * @fingerprint: (out) (optional): "SHA256:" and the base64 hash
 *
 * The host key the server showed at the latest connection attempt, to
 * show the user after %SL_SSH_ERROR_HOST_KEY_UNKNOWN or
 * %SL_SSH_ERROR_HOST_KEY_CHANGED.
 *
 * Returns: %FALSE when no key was seen yet
 */
gboolean
sl_ssh_session_dup_host_key (SlSshSession  *self,
                             char         **key_type,
                             char         **fingerprint)
{
  gboolean seen;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  g_mutex_lock (&self->mutex);
  seen = self->seen_fingerprint != NULL;
  if (key_type != NULL)
    *key_type = g_strdup (self->seen_key_type);
  if (fingerprint != NULL)
    *fingerprint = g_strdup (self->seen_fingerprint);
  g_mutex_unlock (&self->mutex);

  return seen;
}
