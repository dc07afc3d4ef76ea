/* sl-cli-trace-load.c: the one place where the trace commands turn a PATH
 * into a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace-loader.h"
#include "sl-cli.h"

/**
 * sl_cli_load_trace:
 * @path: a Chrome trace file (plain or gzip), a profiler folder or a
 *   profiler SQLite export
 *
 * Returns: (transfer full): the trace, or %NULL with @error set when
 *   @path cannot be read at all (damage inside is in the trace's problems)
 */
SlTrace *
sl_cli_load_trace (const char  *path,
                   GError     **error)
{
  return sl_trace_load_path (path, NULL, NULL, NULL, error);
}

/**
 * sl_cli_parse_trace_time:
 *
 * Parses microseconds (fractions allowed) into nanoseconds.
 */
gboolean
sl_cli_parse_trace_time (const char *text,
                         gint64     *ns)
{
  return text != NULL && sl_chrome_trace_parse_us (text, strlen (text), ns);
}
