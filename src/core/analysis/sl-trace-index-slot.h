/* sl-trace-index-slot.h: an index kept with a trace, built once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-trace.h"

G_BEGIN_DECLS

/* Builds an index of @trace, or returns %NULL when @cancellable is
 * cancelled. */
typedef gpointer (*SlTraceIndexBuild) (SlTrace      *trace,
                                       GCancellable *cancellable);

gpointer sl_trace_index_slot_get  (SlTrace           *trace,
                                   const char        *key,
                                   SlTraceIndexBuild  build,
                                   GDestroyNotify     free_index,
                                   GCancellable      *cancellable);
gpointer sl_trace_index_slot_peek (SlTrace           *trace,
                                   const char        *key);

G_END_DECLS
