/* sl-mindx-errors.h: the MindX SDK's error codes in an app's log, as Problems
 *
 * The SDK's logs print a code as "(Code = 6005, Message = …)" and the
 * samples as "ret=6005"; codes 1001–1028 are the SDK's common errors,
 * 6001–6017 its stream manager's. Each becomes a Problem with the code's
 * meaning, the log and line, and what to try.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What @code means, or %NULL when it is not an SDK code known here;
 * @hint, when given, gets what to try (or %NULL). */
const char *sl_mindx_error_explain (int          code,
                                    const char **hint);
GPtrArray  *sl_mindx_log_parse     (const char  *text,
                                    gsize        length,
                                    const char  *log_path);

G_END_DECLS
