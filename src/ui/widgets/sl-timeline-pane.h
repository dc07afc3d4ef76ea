/* sl-timeline-pane.h: one timeline read on a worker, with a header naming
 * it, progress and Cancel while it is read, and what went wrong in place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-step-spans.h"
#include "sl-timeline-view.h"

G_BEGIN_DECLS

typedef enum {
  SL_TIMELINE_PANE_EMPTY,
  SL_TIMELINE_PANE_LOADING,
  SL_TIMELINE_PANE_READY,
  SL_TIMELINE_PANE_FAILED,
} SlTimelinePaneState;

#define SL_TYPE_TIMELINE_PANE (sl_timeline_pane_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelinePane, sl_timeline_pane, SL, TIMELINE_PANE, GtkWidget)

GtkWidget           *sl_timeline_pane_new         (void);
/* The header: what this timeline is ("Baseline") and its path. */
void                 sl_timeline_pane_set_heading (SlTimelinePane *self,
                                                   const char     *heading,
                                                   const char     *path);
/* Reads @path's timeline and places the steps of each of @step_tables
 * (SlStepTrace, NULL entries for ranks without one) on it, all on a
 * worker. Cancels a read under way. */
void                 sl_timeline_pane_load        (SlTimelinePane *self,
                                                   const char     *path,
                                                   GPtrArray      *step_tables);
void                 sl_timeline_pane_cancel      (SlTimelinePane *self);
void                 sl_timeline_pane_clear       (SlTimelinePane *self);
const char          *sl_timeline_pane_get_heading (SlTimelinePane *self);
SlTimelinePaneState  sl_timeline_pane_get_state   (SlTimelinePane *self);
SlTimelineView      *sl_timeline_pane_get_view    (SlTimelinePane *self);
/* (nullable): the steps of step table @index, once ready */
SlStepSpans         *sl_timeline_pane_get_spans   (SlTimelinePane *self,
                                                   guint           index);
/* What the pane says when it failed, or about damage it read past. */
const char          *sl_timeline_pane_get_message (SlTimelinePane *self);
/* (nullable): what the reader met in the trace read (SlProblem) */
GListModel          *sl_timeline_pane_get_problems (SlTimelinePane *self);
/* A line under the header (how the steps were placed), or NULL. */
void                 sl_timeline_pane_set_note    (SlTimelinePane *self,
                                                   const char     *note);

G_END_DECLS
