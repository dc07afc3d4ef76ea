/* sl-image-file.h: a drawing saved as PNG, SVG or PDF, whole or not at all
 *
 * The file is written through SlReplaceStream: a full disk or a failed
 * drawing leaves a previous file of that name as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*SlImageFileDrawFunc) (cairo_t  *cr,
                                     gpointer  user_data);

gboolean sl_image_file_write (GFile               *file,
                              const char          *format,
                              int                  width,
                              int                  height,
                              SlImageFileDrawFunc  draw,
                              gpointer             user_data,
                              GError             **error);

G_END_DECLS
