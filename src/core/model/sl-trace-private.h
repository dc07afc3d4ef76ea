/* sl-trace-private.h: the layout of SlTrace, shared by the trace and its
 * builder (which fills it in when it finishes)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "sl-trace.h"
#include "sl-intern-table.h"
#include "sl-trace-flow-index.h"
#include "sl-trace-track.h"

G_BEGIN_DECLS

/* @text in @here (of @size bytes) when it fits, else in an allocation of
 * its own: the texts of a trace's processes and tracks are mostly short,
 * and a trace of a few threads made an allocation for each. */
static inline char *
sl_trace_text_keep (char       *here,
                    gsize       size,
                    const char *text)
{
  gsize length = strlen (text);

  if (length >= size)
    return g_strdup (text);
  memcpy (here, text, length + 1);
  return here;
}

/* Frees what sl_trace_text_keep() (or anything else) allocated, unless
 * it is in @here. */
static inline void
sl_trace_text_drop (gpointer text,
                    gpointer here)
{
  if (text != here)
    g_free (text);
}

typedef struct {
  char   *name;            /* NULL, name_here, or its own allocation */
  char   *pid;             /* pid_here, or its own allocation when long */
  gint64  sort_index;
  char    pid_here[24];    /* a process's texts are mostly short */
  char    name_here[32];
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
