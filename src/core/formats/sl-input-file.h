/* sl-input-file.h: opening a file a reader reads, refusing what is not one
 *
 * A FIFO, a socket or a device given where a file is expected blocks the
 * open (a FIFO with no writer) or the first read for ever. Every reader
 * opens its input through these, which look at the path first, without
 * opening it, and refuse anything but a regular file with an error that
 * names the file and what it is: "x is not a regular file (a FIFO)".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean          sl_input_file_check        (const char    *path,
                                              GError       **error);
GMappedFile      *sl_input_file_map          (const char    *path,
                                              GError       **error);
gboolean          sl_input_file_get_contents (const char    *path,
                                              char         **contents,
                                              gsize         *length,
                                              GError       **error);
GFileInputStream *sl_input_file_read         (GFile         *file,
                                              GCancellable  *cancellable,
                                              GError       **error);
gboolean          sl_input_file_load_contents (GFile        *file,
                                               GCancellable *cancellable,
                                               char        **contents,
                                               gsize        *length,
                                               GError      **error);

G_END_DECLS
