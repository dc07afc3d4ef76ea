/* sl-compare-timelines.h: the baseline's timeline above the comparison's,
 * aligned at a chosen step, scrolling and zooming together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-profile.h"
#include "sl-timeline-link.h"
#include "sl-timeline-pane.h"

G_BEGIN_DECLS

#define SL_TYPE_COMPARE_TIMELINES (sl_compare_timelines_get_type ())
G_DECLARE_FINAL_TYPE (SlCompareTimelines, sl_compare_timelines, SL, COMPARE_TIMELINES, GtkWidget)

/* The two profiles as read for the comparison (their step tables); the
 * timelines are read when the view is first shown. */
void            sl_compare_timelines_set_profiles (SlCompareTimelines *self,
                                                   const char         *base_path,
                                                   SlProfile          *base,
                                                   const char         *comparison_path,
                                                   SlProfile          *comparison);
void            sl_compare_timelines_clear        (SlCompareTimelines *self);
void            sl_compare_timelines_set_labels   (SlCompareTimelines *self,
                                                   const char         *base_label,
                                                   const char         *comparison_label);
/* 0 the upper side, 1 the lower one: "Baseline" and "Comparison" unless
 * named otherwise */
const char     *sl_compare_timelines_get_label    (SlCompareTimelines *self,
                                                   guint               side);
/* 0 the baseline, 1 the comparison */
SlTimelinePane *sl_compare_timelines_get_pane     (SlCompareTimelines *self,
                                                   guint               side);
SlTimelineLink *sl_compare_timelines_get_link     (SlCompareTimelines *self);
/* The step chooser's entries (GtkStringObject); one per pair of steps,
 * or one for the start of device activity when there are none. */
GListModel     *sl_compare_timelines_get_steps    (SlCompareTimelines *self);
void            sl_compare_timelines_choose_step  (SlCompareTimelines *self,
                                                   guint               index);
void            sl_compare_timelines_choose_rank  (SlCompareTimelines *self,
                                                   guint               side,
                                                   guint               rank);
/* Where each side's window starts for the chosen step (the anchors). */
void            sl_compare_timelines_get_anchors  (SlCompareTimelines *self,
                                                   gint64             *base_ns,
                                                   gint64             *comparison_ns);
/* The pairing of unequal step counts, and the offset the sides were
 * lined up with once both timelines are read. */
const char     *sl_compare_timelines_get_note     (SlCompareTimelines *self);

G_END_DECLS
