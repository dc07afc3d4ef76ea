/* sl-step-timeline-export.h: writing one step's part of a profile's
 * timeline to a Chrome trace on a worker, reading the timeline first when
 * it is not read yet, with progress and Cancel in a bar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-step-trace.h"
#include "sl-trace.h"

G_BEGIN_DECLS

#define SL_TYPE_STEP_TIMELINE_EXPORT (sl_step_timeline_export_get_type ())
G_DECLARE_FINAL_TYPE (SlStepTimelineExport, sl_step_timeline_export, SL, STEP_TIMELINE_EXPORT, GtkWidget)

GtkWidget  *sl_step_timeline_export_new         (void);
/* The profile whose timeline is cut: its path, and its timeline when
 * already read (a SQLite export's), else NULL to read it from @path. */
void        sl_step_timeline_export_set_profile (SlStepTimelineExport *self,
                                                 const char           *path,
                                                 SlTrace              *trace);
/* Asks where to write, then starts. */
void        sl_step_timeline_export_choose      (SlStepTimelineExport *self,
                                                 SlStepTrace          *steps,
                                                 guint                 index);
/* Writes step @index of @steps to @file; one export at a time. */
void        sl_step_timeline_export_start       (SlStepTimelineExport *self,
                                                 SlStepTrace          *steps,
                                                 guint                 index,
                                                 GFile                *file);
void        sl_step_timeline_export_cancel      (SlStepTimelineExport *self);
gboolean    sl_step_timeline_export_is_busy     (SlStepTimelineExport *self);
/* What the last export said: how many events went where, or why not. */
const char *sl_step_timeline_export_get_message (SlStepTimelineExport *self);
/* (nullable): the timeline once read, kept for the next export */
SlTrace    *sl_step_timeline_export_get_trace   (SlStepTimelineExport *self);

G_END_DECLS
