/* sl-timeline-link.h: two timeline views that scroll and zoom together,
 * each on its own clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_LINK (sl_timeline_link_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineLink, sl_timeline_link, SL, TIMELINE_LINK, GObject)

SlTimelineLink *sl_timeline_link_new        (SlTimelineView *base,
                                             SlTimelineView *comparison);
gboolean        sl_timeline_link_get_linked (SlTimelineLink *self);
void            sl_timeline_link_set_linked (SlTimelineLink *self,
                                             gboolean        linked);
/* Time t in the base is t + offset in the comparison. */
gint64          sl_timeline_link_get_offset (SlTimelineLink *self);
/* Shows [@base_start, +@duration) in the base and [@comparison_start,
 * +@duration) in the comparison, and links them at that offset. */
void            sl_timeline_link_align      (SlTimelineLink *self,
                                             gint64          base_start_ns,
                                             gint64          comparison_start_ns,
                                             gint64          duration_ns);

G_END_DECLS
