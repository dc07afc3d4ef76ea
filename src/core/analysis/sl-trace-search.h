/* sl-trace-search.h: finding the slices of a trace by their name
 *
 * Names are few next to slices, so a search matches every interned string
 * once (a substring in any case, a regular expression, or a link's exact
 * names) and then takes the slices of the matching names from a per-name
 * index instead of reading every slice, in time order. The index is built
 * once per trace, on a worker, and kept with the trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-op-names.h"
#include "sl-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint   track;
  guint32 slice;
  gint64  start_ns;
} SlTraceSearchMatch;

typedef struct _SlTraceSearch SlTraceSearch;

SlTraceSearch *sl_trace_search_get             (SlTrace            *trace,
                                                GCancellable       *cancellable);
SlTraceSearch *sl_trace_search_peek            (SlTrace            *trace);
gsize          sl_trace_search_get_memory_size (SlTraceSearch      *self);
guint8        *sl_trace_search_match_names     (SlTraceSearch      *self,
                                                const char         *text,
                                                gboolean            regex,
                                                SlOpNames          *names,
                                                const char         *narrow_text,
                                                const guint8       *narrow_hits,
                                                GError            **error);
guint64        sl_trace_search_count           (SlTraceSearch      *self,
                                                const guint8       *hits);
GArray        *sl_trace_search_collect         (SlTraceSearch      *self,
                                                const guint8       *hits,
                                                guint               max_matches,
                                                guint64            *n_total,
                                                GCancellable       *cancellable);

G_END_DECLS
