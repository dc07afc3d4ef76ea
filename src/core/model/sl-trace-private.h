/* sl-trace-private.h: the layout of SlTrace, shared by the trace and its
 * builder (which fills it in when it finishes)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-trace.h"
#include "sl-intern-table.h"
#include "sl-trace-flow-index.h"
#include "sl-trace-track.h"

G_BEGIN_DECLS

typedef struct {
  char   *name;
  char   *pid;
  gint64  sort_index;
} SlTraceProcess;

typedef struct {
  guint64 offset;
  guint32 length;
} SlTraceMetadataEvent;

struct _SlTrace
{
  GObject        parent_instance;
  char          *source_path;
  GPtrArray     *sources;
  SlInternTable *strings;
  GPtrArray     *processes;     /* SlTraceProcess * */
  GPtrArray     *tracks;        /* SlTraceTrack *, in display order */
  GArray        *flows;         /* SlTraceFlow */
  SlTraceFlowIndex *flow_index;
  GHashTable    *phase_counts;
  GArray        *metadata;      /* SlTraceMetadataEvent */
  GListStore    *problems;      /* NULL until asked for when there are none */
  gint64         start_ns, end_ns;
  gboolean       has_times;     /* whether start_ns and end_ns are times read */
  guint64        n_events;
};

G_END_DECLS
