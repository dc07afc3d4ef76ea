/* sl-progress.h: how far a job on a worker has come, told where it was asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_PROGRESS (sl_progress_get_type ())
G_DECLARE_FINAL_TYPE (SlProgress, sl_progress, SL, PROGRESS, GObject)

SlProgress *sl_progress_new             (void);
/* From any thread: */
void        sl_progress_report          (SlProgress *self,
                                         guint64     done,
                                         guint64     total);
void        sl_progress_report_fraction (SlProgress *self,
                                         double      fraction);
/* In the context the progress was made in: */
double      sl_progress_get_fraction    (SlProgress *self);
guint64     sl_progress_get_done        (SlProgress *self);
guint64     sl_progress_get_total       (SlProgress *self);

G_END_DECLS
