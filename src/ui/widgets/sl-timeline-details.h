/* sl-timeline-details.h: what Details and tooltips say about a slice
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-trace.h"

G_BEGIN_DECLS

/* A link in Details: the slice at the other end of a flow, or a relative. */
typedef struct {
  guint   track;
  guint32 slice;
} SlTimelineTarget;

/* One row: a translated label, its value and, for relatives and flows, the
 * slice it leads to (track G_MAXUINT when none). */
typedef struct {
  char            *label;
  char            *value;
  SlTimelineTarget target;
} SlTimelineDetail;

GPtrArray *sl_timeline_describe_slice (SlTrace    *trace,
                                       guint       track,
                                       guint32     slice,
                                       gboolean    with_args);
GPtrArray *sl_timeline_read_args      (SlTrace    *trace,
                                       guint       track,
                                       guint32     slice);
void       sl_timeline_detail_free    (SlTimelineDetail *detail);

G_END_DECLS
