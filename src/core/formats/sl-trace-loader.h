/* sl-trace-loader.h: a timeline from any path Sightline reads one from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-chrome-trace-reader.h"
#include "sl-trace.h"

G_BEGIN_DECLS

SlTrace *sl_trace_load_path (const char           *path,
                             SlTraceProgressFunc   progress,
                             gpointer              user_data,
                             GCancellable         *cancellable,
                             GError              **error);

G_END_DECLS
