/* sl-timeline-export.h: a timeline's range or picture written to a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-view.h"

G_BEGIN_DECLS

gboolean sl_timeline_export_write  (SlTimelineView  *view,
                                    const char      *format,
                                    const char      *path,
                                    guint64         *n_items,
                                    GError         **error);
void     sl_timeline_export_choose (GtkWidget       *source,
                                    SlTimelineView  *view,
                                    const char      *trace_path,
                                    const char      *format);

G_END_DECLS
