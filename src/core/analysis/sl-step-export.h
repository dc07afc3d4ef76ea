/* sl-step-export.h: the part of a timeline one step covers, as a Chrome
 * trace
 *
 * The step is placed on the timeline's clock by SlStepSpans (the step
 * table's own times, moved to the first device activity when they are on
 * another clock, or the timeline's step slices), and the events that
 * overlap it are written by the Chrome trace writer the timeline's export
 * and `sightline-cli trace-slice` use. GTK-free; any thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-step-spans.h"

G_BEGIN_DECLS

/* The index in @steps of the step numbered @step, or -1. */
int       sl_step_export_find_step  (SlStepTrace       *steps,
                                     gint64             step);
/* Where step @index of @steps lies on @trace, and how it was placed;
 * FALSE with an error saying why when it cannot be placed. */
gboolean  sl_step_export_get_range  (SlTrace           *trace,
                                     SlStepTrace       *steps,
                                     guint              index,
                                     gint64            *from_ns,
                                     gint64            *to_ns,
                                     SlStepSpansSource *source,
                                     GError           **error);
/* Writes the events of that range, on every track, to @file, replacing
 * it only once complete. @n_events (optional) gets how many. */
gboolean  sl_step_export_write      (SlTrace           *trace,
                                     SlStepTrace       *steps,
                                     guint              index,
                                     GFile             *file,
                                     guint64           *n_events,
                                     GCancellable      *cancellable,
                                     GError           **error);

G_END_DECLS
