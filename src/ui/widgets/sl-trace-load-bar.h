/* sl-trace-load-bar.h: a progress bar that shows how far a trace load has
 * come
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-trace-load.h"

G_BEGIN_DECLS

void sl_trace_load_bar_follow (GtkProgressBar *bar,
                               SlTraceLoad    *load);

G_END_DECLS
