/* sl-shell-quote.h: POSIX shell quoting for commands sent to a server
 *
 * Every path and argument that goes into a remote command line is quoted
 * here, and every file name that comes back from a server is checked here
 * before it is joined to a local or remote path.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *sl_shell_quote             (const char          *text);
char     *sl_shell_quote_remote_path (const char          *path);
char     *sl_shell_quote_argv        (const char * const  *argv);
gboolean  sl_shell_check_name        (const char          *name,
                                      gsize                length,
                                      GError             **error);

G_END_DECLS
