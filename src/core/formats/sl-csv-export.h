/* sl-csv-export.h: a table written as CSV on a worker thread, whole or
 * not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-progress.h"

G_BEGIN_DECLS

/* Appends row @index of the table, ended by a newline, to @out. Runs on
 * the worker thread: it may only read what the caller gave it in @data. */
typedef void (*SlCsvRowFunc) (GString  *out,
                              guint     index,
                              gpointer  data);

void     sl_csv_append_field (GString             *out,
                              const char          *text);

void     sl_csv_export_async  (gpointer             source_object,
                               GFile               *file,
                               const char          *header,
                               guint                n_rows,
                               SlCsvRowFunc         row_func,
                               gpointer             data,
                               GDestroyNotify       data_free,
                               SlProgress          *progress,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data);
gboolean sl_csv_export_finish (GAsyncResult        *result,
                               GError             **error);

G_END_DECLS
