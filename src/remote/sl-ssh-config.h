/* sl-ssh-config.h: what the user's OpenSSH client configuration names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char  *sl_ssh_config_dup_default_path   (void);
char **sl_ssh_config_list_host_aliases  (const char  *path,
                                         GError     **error);

G_END_DECLS
