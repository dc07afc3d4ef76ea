/* sl-image-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "sl-image-file.h"
#include "sl-replace-stream.h"

typedef struct {
  GOutputStream *out;
  GError        *error;
} Sink;

static cairo_status_t
write_to_sink (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  Sink *sink = closure;

  if (sink->error != NULL ||
      !g_output_stream_write_all (sink->out, data, length, NULL, NULL, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/**
 * sl_image_file_write:
 * @format: "png", "svg" or "pdf"
 *
 * Draws @width × @height with @draw into @file.
 *
 * Returns: %TRUE when @file holds the whole image, else an error naming it
 */
gboolean
sl_image_file_write (GFile               *file,
                     const char          *format,
                     int                  width,
                     int                  height,
                     SlImageFileDrawFunc  draw,
                     gpointer             user_data,
                     GError             **error)
{
  g_autoptr(SlReplaceStream) out = NULL;
  Sink sink = { NULL, NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format != NULL && draw != NULL, FALSE);

  if (!(out = sl_replace_stream_new (file, NULL, error)))
    return FALSE;
  sink.out = G_OUTPUT_STREAM (out);

  if (g_str_equal (format, "svg"))
    surface = cairo_svg_surface_create_for_stream (write_to_sink, &sink, width, height);
  else if (g_str_equal (format, "pdf"))
    surface = cairo_pdf_surface_create_for_stream (write_to_sink, &sink, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

  cr = cairo_create (surface);
  draw (cr, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      if (!g_str_equal (format, "svg") && !g_str_equal (format, "pdf"))
        status = cairo_surface_write_to_png_stream (surface, write_to_sink, &sink);
      else
        {
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
    }
  cairo_surface_destroy (surface);

  if (sink.error != NULL)
    {
      /* the stream's error names the file already */
      g_propagate_error (error, sink.error);
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”: %s"), name,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return sl_replace_stream_commit (out, NULL, error);
}
