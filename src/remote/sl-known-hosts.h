/* sl-known-hosts.h: the lines of an OpenSSH known hosts file
 *
 * Which file a target's host keys are checked against and remembered
 * in, and its lines. Used when the user has confirmed that a server's
 * host key really changed: the old key has to leave the file before the
 * new one can be remembered. Plain and hashed (HashKnownHosts) host
 * names are matched, as ssh-keygen -R does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *sl_known_hosts_dup_ssh_dir      (void);
char     *sl_known_hosts_dup_path         (const char  *path);
gboolean  sl_known_hosts_has_host         (const char  *path,
                                           const char  *host,
                                           guint        port);
char     *sl_known_hosts_dup_host_pattern (const char  *host,
                                           guint        port);
gboolean  sl_known_hosts_line_matches     (const char  *line,
                                           const char  *host_pattern);
gboolean  sl_known_hosts_remove_host      (const char  *path,
                                           const char  *host,
                                           guint        port,
                                           guint       *n_removed,
                                           GError     **error);

G_END_DECLS
