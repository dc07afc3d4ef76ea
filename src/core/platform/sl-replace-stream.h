/* sl-replace-stream.h: a file written whole or not at all
 *
 * Every file Sightline writes for the user (exports, slices, reports) goes
 * through this stream: it writes to a temporary file beside the target and
 * renames it over the target only in sl_replace_stream_commit(), after the
 * data reached the disk. A full disk, a failed write, a cancellation or a
 * stream dropped without a commit leave the previous file as it was and
 * remove the temporary one. Errors name the target file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TYPE_REPLACE_STREAM (sl_replace_stream_get_type ())
G_DECLARE_FINAL_TYPE (SlReplaceStream, sl_replace_stream, SL, REPLACE_STREAM, GOutputStream)

SlReplaceStream *sl_replace_stream_new        (GFile            *target,
                                               GCancellable     *cancellable,
                                               GError          **error);
gboolean         sl_replace_stream_commit     (SlReplaceStream  *self,
                                               GCancellable     *cancellable,
                                               GError          **error);
GFile           *sl_replace_stream_get_target (SlReplaceStream  *self);

gboolean         sl_replace_file_contents     (GFile            *target,
                                               const void       *data,
                                               gsize             length,
                                               GCancellable     *cancellable,
                                               GError          **error);
void             sl_replace_file_contents_async  (GFile               *target,
                                                  GBytes              *contents,
                                                  gpointer             source_object,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean         sl_replace_file_contents_finish (GAsyncResult        *result,
                                                  GError             **error);

G_END_DECLS
