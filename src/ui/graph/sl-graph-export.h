/* sl-graph-export.h: exporting the drawn graph as PNG, SVG or PDF
 *
 * Asks for a file (a name with no known extension gets ".png"), writes
 * the canvas's whole scene to it on a worker while @page shows busy, and
 * says in a toast where it went or why it failed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

#include "sl-graph-canvas.h"

G_BEGIN_DECLS

void sl_graph_export_ask (PanelWidget   *page,
                          SlGraphCanvas *canvas,
                          const char    *graph_name,
                          GCancellable  *cancellable);

G_END_DECLS
