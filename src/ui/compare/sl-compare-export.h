/* sl-compare-export.h: a profile comparison's table written as CSV on a
 * worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-progress.h"

G_BEGIN_DECLS

/* @entries (SlCompareEntry, taken in their order on the main thread) are
 * formatted and written to @file on a worker: the breakdown's columns
 * when @overview, else the op types' or kernels'. @file is replaced only
 * when whole; @progress counts the rows written. */
void     sl_compare_export_csv_async  (gpointer             source_object,
                                       GPtrArray           *entries,
                                       gboolean             overview,
                                       GFile               *file,
                                       SlProgress          *progress,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
gboolean sl_compare_export_csv_finish (GAsyncResult        *result,
                                       GError             **error);

G_END_DECLS
