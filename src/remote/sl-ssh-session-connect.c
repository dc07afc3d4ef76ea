/* sl-ssh-session-connect.c: connecting, step by step
 *
 * Resolution, a TCP probe of our own, the SSH handshake, the host key
 * and logging in, each reported as a step; a failed step closes the
 * session so the next operation starts afresh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-known-hosts.h"
#include "sl-ssh-session-private.h"

#define PREFERRED_CIPHERS "aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com," \
                          "aes128-ctr,aes192-ctr,aes256-ctr"

static void
params_clear (SlSshParams *params)
{
  g_free (params->host);
  g_free (params->user);
  g_free (params->identity_file);
  g_free (params->known_hosts_file);
  g_free (params->config_file);
  g_free (params->ssh_dir);
}

/* Paths typed by people may start with "~/". */
static char *
dup_expanded_path (const char *path)
{
  if (path != NULL && g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static void
copy_params (SlSshSession *self,
             SlSshParams  *params)
{
  g_mutex_lock (&self->mutex);
  params->host = g_strdup (self->host);
  params->port = self->port;
  params->user = g_strdup (self->user);
  params->identity_file = dup_expanded_path (self->identity_file);
  params->known_hosts_file = sl_known_hosts_dup_path (self->known_hosts_file);
  params->config_file = dup_expanded_path (self->config_file);
  params->ssh_dir = sl_known_hosts_dup_ssh_dir ();
  params->auth = self->auth;
  params->timeout = self->timeout;
  g_mutex_unlock (&self->mutex);
}

/* Sets up the libssh session: options, ~/.ssh/config, our overrides. */
static gboolean
configure_session (SlSshSession       *self,
                   const SlSshParams  *params,
                   char              **resolved_host,
                   guint              *resolved_port,
                   gboolean           *uses_proxy,
                   GError            **error)
{
  char *proxy = NULL;
  long timeout = params->timeout;
  int nodelay = 1;
  char *host = NULL;
  unsigned int port = 0;

  self->ssh = ssh_new ();
  if (self->ssh == NULL)
    {
      g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_FAILED, _("Could not create an SSH session"));
      return FALSE;
    }

  if (ssh_options_set (self->ssh, SSH_OPTIONS_HOST, params->host) < 0)
    {
      _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_FAILED, _("The host name is not valid"));
      return FALSE;
    }

  /* AES-GCM first: libssh computes ChaCha20-Poly1305 (the usual first
   * choice) itself, at a fraction of the speed of AES through OpenSSL, and
   * that limits every large transfer. The same set of ciphers as libssh's
   * default, so every server that worked still does; a Ciphers line of
   * the SSH configuration, read next, still wins. */
  ssh_options_set (self->ssh, SSH_OPTIONS_CIPHERS_C_S, PREFERRED_CIPHERS);
  ssh_options_set (self->ssh, SSH_OPTIONS_CIPHERS_S_C, PREFERRED_CIPHERS);

  /* ~/.ssh is the one of g_get_home_dir(), not of the account's entry
   * that libssh would take: the configuration, the default keys and the
   * known hosts file are where the user and the messages say they are. */
  ssh_options_set (self->ssh, SSH_OPTIONS_SSH_DIR, params->ssh_dir);

  /* Host aliases, HostName, Port and User from the SSH configuration;
   * what the target names itself wins. */
  if (ssh_options_parse_config (self->ssh, params->config_file) < 0)
    g_debug ("Could not read the SSH configuration: %s", ssh_get_error (self->ssh));

  if (params->port != 0 && params->port != 22)
    ssh_options_set (self->ssh, SSH_OPTIONS_PORT, &params->port);
  if (params->user != NULL && params->user[0] != '\0')
    ssh_options_set (self->ssh, SSH_OPTIONS_USER, params->user);
  /* Always set, after the configuration: a host key is checked against,
   * added to and reported as this one file (a UserKnownHostsFile line
   * of the configuration would otherwise be written unannounced). */
  ssh_options_set (self->ssh, SSH_OPTIONS_KNOWNHOSTS, params->known_hosts_file);
  ssh_options_set (self->ssh, SSH_OPTIONS_TIMEOUT, &timeout);
  /* Without it, each synchronous SFTP write waits for a delayed ACK. */
  ssh_options_set (self->ssh, SSH_OPTIONS_NODELAY, &nodelay);

  self->callbacks.size = 0;
  self->callbacks.userdata = self;
  self->callbacks.auth_function = _sl_ssh_session_passphrase_callback;
  ssh_callbacks_init (&self->callbacks);
  ssh_set_callbacks (self->ssh, &self->callbacks);

  if (ssh_options_get (self->ssh, SSH_OPTIONS_HOST, &host) == SSH_OK && host != NULL)
    {
      *resolved_host = g_strdup (host);
      ssh_string_free_char (host);
    }
  else
    {
      *resolved_host = g_strdup (params->host);
    }

  ssh_options_get_port (self->ssh, &port);
  *resolved_port = port != 0 ? port : 22;

  /* ProxyCommand or ProxyJump: libssh reaches the host, not us. */
  *uses_proxy = ssh_options_get (self->ssh, SSH_OPTIONS_PROXYCOMMAND, &proxy) == SSH_OK && proxy != NULL;
  if (proxy != NULL)
    ssh_string_free_char (proxy);
  return TRUE;
}

static gboolean
resolve_host (const char    *host,
              GInetAddress **address,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GResolver) resolver = g_resolver_get_default ();
  g_autoptr(GError) local_error = NULL;
  GList *addresses;

  addresses = g_resolver_lookup_by_name (resolver, host, cancellable, &local_error);
  if (addresses == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_RESOLVE,
                     _("Could not find the address of “%s”: %s"), host, local_error->message);
      return FALSE;
    }

  *address = g_object_ref (addresses->data);
  g_resolver_free_addresses (addresses);
  return TRUE;
}

/* A TCP connection of our own first: it fails fast and clearly, with a
 * timeout, before libssh makes the real one. */
static gboolean
probe_tcp (GInetAddress  *address,
           const char    *host,
           guint          port,
           guint          timeout,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, port);
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) local_error = NULL;

  g_socket_client_set_timeout (client, timeout);
  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (socket_address), cancellable, &local_error);
  if (connection != NULL)
    {
      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      return TRUE;
    }

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_TIMED_OUT,
                 _("No answer from %s port %u within %u seconds"), host, port, timeout);
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CONNECT,
                 _("%s refused the connection on port %u"), host, port);
  else
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CONNECT,
                 _("Could not connect to %s port %u: %s"), host, port, local_error->message);
  return FALSE;
}

static const char *
hint_for_error (const GError *error)
{
  if (error->domain != SL_SSH_ERROR)
    return NULL;

  switch ((SlSshError)error->code)
    {
    case SL_SSH_ERROR_RESOLVE:
      return _("Check the host name, or the network and DNS settings of this computer.");
    case SL_SSH_ERROR_CONNECT:
      return _("Check that the server is on, that an SSH server runs there and that the port is right.");
    case SL_SSH_ERROR_TIMED_OUT:
      return _("Check the address and port, and whether a firewall or VPN is in the way.");
    case SL_SSH_ERROR_HOST_KEY_UNKNOWN:
      return _("If the fingerprint is the server's, accept the key once or accept and remember it.");
    case SL_SSH_ERROR_HOST_KEY_CHANGED:
      return _("Ask the server's administrator whether the key changed. Only if it did, remove the old key "
               "from the known hosts file (ssh-keygen -R HOST -f FILE) and connect again.");
    case SL_SSH_ERROR_AUTH:
      return _("Check the user name and the way of logging in chosen in the target’s settings.");
    case SL_SSH_ERROR_PROTOCOL:
      return _("Check that the port leads to an SSH server.");
    case SL_SSH_ERROR_FAILED:
    case SL_SSH_ERROR_NOT_CONNECTED:
    case SL_SSH_ERROR_CHANNEL:
    case SL_SSH_ERROR_SFTP:
    default:
      return NULL;
    }
}

static void
fail_step (SlSshSession        *self,
           GTask               *task,
           const SlSshStepSink *sink,
           SlSshStep            step,
           GError              *error)
{
  _sl_ssh_report_step_error (task, sink, step, error, hint_for_error (error));
  _sl_ssh_session_close (self);
}

gboolean
_sl_ssh_session_do_connect (SlSshSession         *self,
                            GTask                *task,
                            const SlSshStepSink  *sink,
                            GCancellable         *cancellable,
                            GError              **error)
{
  SlSshParams params = { 0 };
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *host = NULL;
  g_autofree char *address_text = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *advice = NULL;
  GError *full_error = NULL;
  const char *banner;
  guint port = 22;
  gboolean uses_proxy = FALSE;
  gboolean ok = FALSE;

  if (self->ssh != NULL && ssh_is_connected (self->ssh))
    return TRUE;
  _sl_ssh_session_close (self);

  copy_params (self, &params);

  if (!configure_session (self, &params, &host, &port, &uses_proxy, error))
    {
      fail_step (self, task, sink, SL_SSH_STEP_RESOLVE, *error);
      goto out;
    }

  if (uses_proxy)
    {
      address_text = g_strdup (host);
      detail = g_strdup_printf (_("%s is reached through the proxy of the SSH configuration"), host);
      _sl_ssh_report_step (task, sink, SL_SSH_STEP_RESOLVE, SL_SSH_STEP_OK, detail, NULL);
      g_clear_pointer (&detail, g_free);
    }
  else
    {
      if (!resolve_host (host, &address, cancellable, error))
        {
          fail_step (self, task, sink, SL_SSH_STEP_RESOLVE, *error);
          goto out;
        }
      address_text = g_inet_address_to_string (address);
      detail = g_strdup_printf (_("%s is %s"), host, address_text);
      _sl_ssh_report_step (task, sink, SL_SSH_STEP_RESOLVE, SL_SSH_STEP_OK, detail, NULL);
      g_clear_pointer (&detail, g_free);

      if (!probe_tcp (address, host, port, params.timeout, cancellable, error))
        {
          fail_step (self, task, sink, SL_SSH_STEP_CONNECT, *error);
          goto out;
        }
    }

  if (ssh_connect (self->ssh) != SSH_OK)
    {
      const char *reason = ssh_get_error (self->ssh);

      if (reason != NULL && strstr (reason, "imeout") != NULL)
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_TIMED_OUT,
                     _("%s port %u accepted the connection but sent no SSH greeting within %u seconds"),
                     host, port, params.timeout);
      else
        _sl_ssh_session_set_error (error, self, SL_SSH_ERROR_PROTOCOL, _("The SSH handshake failed"));
      fail_step (self, task, sink, SL_SSH_STEP_CONNECT, *error);
      goto out;
    }
  banner = ssh_get_serverbanner (self->ssh);
  detail = g_strdup_printf (_("Connected to %s port %u (%s)"), address_text, port, banner != NULL ? banner : "SSH");
  _sl_ssh_report_step (task, sink, SL_SSH_STEP_CONNECT, SL_SSH_STEP_OK, detail, NULL);
  g_clear_pointer (&detail, g_free);

  if (!_sl_ssh_session_check_host_key (self, &params, host, port, &detail, error))
    {
      fail_step (self, task, sink, SL_SSH_STEP_HOST_KEY, *error);
      goto out;
    }
  _sl_ssh_report_step (task, sink, SL_SSH_STEP_HOST_KEY, SL_SSH_STEP_OK, detail, NULL);
  g_clear_pointer (&detail, g_free);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      _sl_ssh_session_close (self);
      goto out;
    }

  if (!_sl_ssh_session_authenticate (self, &params, host, &detail, &advice, error))
    {
      if (advice == NULL)
        {
          fail_step (self, task, sink, SL_SSH_STEP_AUTH, *error);
          goto out;
        }
      /* The step shows what to do apart; whoever sees only the error
       * gets it too. */
      _sl_ssh_report_step_error (task, sink, SL_SSH_STEP_AUTH, *error, advice);
      _sl_ssh_session_close (self);
      full_error = g_error_new (SL_SSH_ERROR, (*error)->code, "%s %s", (*error)->message, advice);
      g_clear_error (error);
      g_propagate_error (error, full_error);
      goto out;
    }
  _sl_ssh_report_step (task, sink, SL_SSH_STEP_AUTH, SL_SSH_STEP_OK, detail, NULL);

  g_mutex_lock (&self->mutex);
  self->connected = TRUE;
  g_mutex_unlock (&self->mutex);
  ok = TRUE;

out:
  params_clear (&params);
  return ok;
}

void
_sl_ssh_session_close (SlSshSession *self)
{
  g_clear_pointer (&self->sftp, sftp_free);
  if (self->ssh != NULL)
    {
      if (ssh_is_connected (self->ssh))
        ssh_disconnect (self->ssh);
      ssh_free (self->ssh);
      self->ssh = NULL;
    }

  g_mutex_lock (&self->mutex);
  self->connected = FALSE;
  g_mutex_unlock (&self->mutex);
}

gboolean
_sl_ssh_session_ensure_connected (SlSshSession  *self,
                                  GTask         *task,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  if (self->ssh != NULL && ssh_is_connected (self->ssh))
    return TRUE;
  return _sl_ssh_session_do_connect (self, task, NULL, cancellable, error);
}

static void
connect_op (SlSshSession *self,
            GTask        *task,
            gpointer      data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (_sl_ssh_session_do_connect (self, task, data, cancellable, &error))
    _sl_ssh_op_return_boolean (task, TRUE);
  else
    _sl_ssh_op_return_error (task, error);
}

static void
disconnect_op (SlSshSession *self,
               GTask        *task,
               gpointer      data,
               GCancellable *cancellable)
{
  _sl_ssh_session_close (self);
  _sl_ssh_op_return_boolean (task, TRUE);
}

/**
 * sl_ssh_session_connect_async:
 * @step_func: (nullable): told about each step (resolution, connection,
 *   host key, authentication) in the caller's main context
 *
 * Connects and logs in, unless already connected. Other operations
 * connect by themselves when needed; this one reports the steps.
 */
void
sl_ssh_session_connect_async (SlSshSession        *self,
                              SlSshStepFunc        step_func,
                              gpointer             step_data,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  SlSshStepSink *sink;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  sink = g_new0 (SlSshStepSink, 1);
  sink->func = step_func;
  sink->data = step_data;
  _sl_ssh_session_queue (self, sl_ssh_session_connect_async, connect_op, sink, g_free,
                         cancellable, callback, user_data);
}

gboolean
sl_ssh_session_connect_finish (SlSshSession  *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_connect (SlSshSession  *self,
                        SlSshStepFunc  step_func,
                        gpointer       step_data,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SlSshSyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  _sl_ssh_sync_call_init (&call);
  sl_ssh_session_connect_async (self, step_func, step_data, cancellable, _sl_ssh_sync_call_done, &call);
  result = _sl_ssh_sync_call_wait (&call);
  return sl_ssh_session_connect_finish (self, result, error);
}

/**
 * sl_ssh_session_disconnect:
 *
 * Closes the connection once the queued operations are done. A later
 * operation connects again.
 */
void
sl_ssh_session_disconnect (SlSshSession *self)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));

  _sl_ssh_session_queue (self, sl_ssh_session_disconnect, disconnect_op, NULL, NULL, NULL, NULL, NULL);
}
