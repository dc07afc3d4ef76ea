/* sl-graph-times.h: the measured time of each op of a graph
 *
 * Reads the op statistics of the profile in @profile_path on a worker and
 * sums the time of each op of @graph (its first rank). Finishes with an
 * array of sl_graph_get_n_ops() nanoseconds, or an error when no op of
 * the profile is in the graph.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

void    sl_graph_times_load_async  (const char          *profile_path,
                                    SlGraph             *graph,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
double *sl_graph_times_load_finish (GAsyncResult        *result,
                                    GError             **error);

G_END_DECLS
