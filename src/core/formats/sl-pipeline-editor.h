/* sl-pipeline-editor.h: changes a pipeline file's props and nothing else
 *
 * An edit rewrites the bytes of one value, found through the ranges the
 * reader kept, so comments of layout, key order, indentation, line ends
 * and every other byte stay as they were. A new prop goes at the end of
 * the element's props object (made when the element has none), indented
 * like its neighbours. The result is read again before it is returned:
 * it must still be complete JSON with the same streams and elements, and
 * the prop must read back as the new value.
 *
 * Saving keeps the previous file as FILE~ (GIO's backup), and replaces
 * the file atomically: the new bytes go to a temporary file in the same
 * folder that is then renamed over the old one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-pipeline.h"

G_BEGIN_DECLS

/* The JSON string literal of @text, quotes included: quotes, backslashes
 * and control characters are escaped, other characters kept as UTF-8.
 * Returns %NULL when @text is not valid UTF-8. */
char     *sl_pipeline_editor_quote      (const char    *text);

/* Sets prop @key of element @element of stream @stream to the string
 * @value, and returns the file's new bytes. Fails, changing nothing,
 * when the pipeline was damaged (the error names the file, line and
 * column of the damage), when the element is not an object or its props
 * are not an object, or when the result would not read back the same. */
GBytes   *sl_pipeline_editor_set_prop   (SlPipeline    *pipeline,
                                         guint          stream,
                                         guint          element,
                                         const char    *key,
                                         const char    *value,
                                         GError       **error);

/* Writes @contents to @file with a backup (FILE~), atomically. With
 * @etag (from the read), fails with G_IO_ERROR_WRONG_ETAG when the file
 * changed on disk meanwhile. @new_etag (nullable) receives the saved
 * file's etag. Blocks: call it on a worker. */
gboolean  sl_pipeline_editor_save       (GFile         *file,
                                         GBytes        *contents,
                                         const char    *etag,
                                         char         **new_etag,
                                         GCancellable  *cancellable,
                                         GError       **error);
/* Where sl_pipeline_editor_save() keeps the previous file. */
GFile    *sl_pipeline_editor_dup_backup (GFile         *file);

G_END_DECLS
