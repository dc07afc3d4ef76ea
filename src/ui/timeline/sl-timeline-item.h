/* sl-timeline-item.h: one row of the timeline page's lists (a process or
 * track in the track tree, a name in the range table, a search match)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-trace-aggregate.h"

G_BEGIN_DECLS

typedef enum {
  SL_TIMELINE_ITEM_PROCESS,
  SL_TIMELINE_ITEM_TRACK,
  SL_TIMELINE_ITEM_AGGREGATE,
  SL_TIMELINE_ITEM_MATCH,
} SlTimelineItemKind;

typedef struct {
  SlTimelineItemKind  kind;
  guint               process;
  guint               track;
  guint32             slice;
  SlTraceAggregateRow row;
  const char         *label;   /* copied by sl_timeline_item_new() */
} SlTimelineItemData;

#define SL_TYPE_TIMELINE_ITEM (sl_timeline_item_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineItem, sl_timeline_item, SL, TIMELINE_ITEM, GObject)

SlTimelineItem           *sl_timeline_item_new      (const SlTimelineItemData *data);
const SlTimelineItemData *sl_timeline_item_get_data (SlTimelineItem           *self);
GListStore               *sl_timeline_item_get_children (SlTimelineItem       *self);

G_END_DECLS
