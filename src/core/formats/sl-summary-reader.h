/* sl-summary-reader.h: reads summary and event files into runs, incrementally
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-summary-run.h"

G_BEGIN_DECLS

/* Records whose messages nest deeper than this below the event are
 * skipped, and said: protobuf-c would need a stack frame per level. A
 * graph's values and types nest a few levels, a dataset graph one per
 * operation of its pipeline (and dataset graphs do not go through
 * protobuf-c at all); 64 is what the graph reader accepts too. */
#define SL_SUMMARY_READER_MAX_NESTING 64

#define SL_TYPE_SUMMARY_READER (sl_summary_reader_get_type ())
G_DECLARE_FINAL_TYPE (SlSummaryReader, sl_summary_reader, SL, SUMMARY_READER, GObject)

SlSummaryReader *sl_summary_reader_new           (const char           *path);
const char      *sl_summary_reader_get_path      (SlSummaryReader      *self);
gboolean         sl_summary_reader_update        (SlSummaryReader      *self,
                                                  GCancellable         *cancellable,
                                                  GError              **error);
void             sl_summary_reader_update_async  (SlSummaryReader      *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean         sl_summary_reader_update_finish (SlSummaryReader      *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
void             sl_summary_reader_follow_async  (SlSummaryReader      *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean         sl_summary_reader_follow_finish (SlSummaryReader      *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
GPtrArray       *sl_summary_reader_get_runs      (SlSummaryReader      *self);
SlSummaryRun    *sl_summary_reader_lookup_run    (SlSummaryReader      *self,
                                                  const char           *name);
gboolean         sl_summary_reader_read_file     (SlSummaryReader      *self,
                                                  SlSummaryRun         *run,
                                                  SlSummaryFile        *file,
                                                  GCancellable         *cancellable,
                                                  GError              **error);

gboolean         sl_summary_file_name_get_kind   (const char           *name,
                                                  SlSummaryFileKind    *kind,
                                                  guint64              *number);

G_END_DECLS
