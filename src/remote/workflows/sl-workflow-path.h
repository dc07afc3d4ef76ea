/* sl-workflow-path.h: the checks every workflow applies to what it puts on a tool's command line
 *
 * msprof, ATC and the MindX SDK re-parse the paths and arguments they are
 * given (msprof splits --application itself, ATC refuses paths with shell
 * characters), so quoting alone is not enough: such text is refused
 * before the run, with the option it was meant for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The first character of @text the tools refuse (quotes, `$`, `;`, `|`,
 * `&`, `<`, `>`, backquote, backslash, a newline), or 0 when there is none. */
gunichar  sl_workflow_path_find_refused (const char  *text);
/* %TRUE when @text is usable; else @error names @what and the character. */
gboolean  sl_workflow_path_check        (const char  *text,
                                         const char  *what,
                                         GError     **error);

G_END_DECLS
